"""aesir.chunked's reader: a C2SP chunked-encryption ciphertext as a
read-only binary file (io.RawIOBase: read, readinto, readall, seek, tell).

Two ways through a file, chosen by whether the file object can seek:

- Random access (regular files, BytesIO): open checks the commitment,
  the ciphertext length (56 + k * 16400 + 16..16399 bytes) and the final
  chunk, so .size is the authenticated plaintext length (the spec's
  "Implementation notes": authenticate the length before trusting it).
  A read then opens only the chunks its range touches, at their offsets
  (chunk k at 56 + k * 16400), keeping the last one opened.
- In order (pipes, sockets): 16400 bytes at a time; a read of fewer
  means the stream ended, so that is the final chunk. A full chunk is
  never the final one, so no look-ahead is needed.

No byte of a chunk is returned before its tag is checked: a chunk is
opened into the reader's own buffer, or, when a read wants a whole
chunk at a chunk boundary, straight into the caller's buffer, which
aesir's AES-GCM zeroes when the tag does not match. Errors are
ChunkedError (an aesir.InvalidTag) with the reason, chunk and offset;
after one, every read raises it again. When the error was found after
some bytes of the same call were filled in, the call returns those (all
authenticated) and the next one raises.
"""

import io
from typing import Any, Optional

from . import _c2sp as c
from ._c2sp import ChunkedError
from ._types import Buffer


class ChunkedReader(io.RawIOBase):
    """A chunked-encryption message being read; made by aesir.chunked.open."""

    size: Optional[int]

    def __init__(
        self, raw: Any, key: bytes, context: bytes, owns: bool = False, base: int = 0
    ) -> None:
        super().__init__()
        self._raw: Any = raw
        self._owns = owns
        self._base = base  # added to the offsets errors report
        self.name = getattr(raw, "name", None)
        try:
            self._seekable = bool(raw.seekable())
        except (AttributeError, OSError, ValueError):
            self._seekable = False
        self._start = raw.tell() if self._seekable else 0
        self._failed: Optional[ChunkedError] = None
        self._ct = bytearray(c.SEALED)
        self._pt = bytearray(c.CHUNK)
        self._pt_k = -1  # the chunk whose plaintext is in _pt
        self._pt_len = 0
        self._pos = 0
        self._next = 0  # in order: the next chunk to read
        self._end: Optional[int] = None  # plaintext length, once known
        hdr = c.read_exact(raw, c.HEADER)
        if len(hdr) < c.HEADER:
            raise self._fail(
                "truncated", len(hdr), None,
                f"truncated at offset {len(hdr) + self._base}: {len(hdr)} bytes, "
                "less than the 56-byte header",
            )
        self._keys = c.Keys(key, hdr[: c.SALT], context)
        if not self._keys.commit_ok(hdr[c.SALT :]):
            raise self._fail(
                "commitment", c.SALT, None,
                f"wrong key or context (the commitment at offset "
                f"{c.SALT + self._base} does not match), or a damaged header",
            )
        self.size = None
        if self._seekable:
            self._open_random()

    # ---- failures -------------------------------------------------------

    def _fail(self, reason: str, off: int, chunk: Optional[int], msg: str) -> ChunkedError:
        off += self._base
        self._failed = ChunkedError(reason, off, chunk, msg)
        return self._failed

    def _bad_chunk(self, k: int, sealed: memoryview, final: bool) -> ChunkedError:
        """Chunk k failed: trailing data after a valid shorter final chunk,
        or a chunk that does not authenticate."""
        off = c.chunk_offset(k)
        fin = self._keys.find_final(k, sealed, memoryview(self._pt)) if final else None
        self._pt[:] = bytes(c.CHUNK)
        self._pt_k = -1
        if fin is not None:
            return self._fail(
                "trailing", off + fin, k,
                f"trailing data after the final chunk {k}, from offset "
                f"{off + fin + self._base}",
            )
        return self._fail(
            "auth", off, k,
            f"chunk {k} at offset {off + self._base} fails to authenticate "
            "(tampered, truncated or reordered)",
        )

    def _open(self, k: int, sealed: memoryview, out: memoryview, final: bool) -> int:
        if k >= c.MAX_CHUNKS:
            raise self._fail("too-long", c.chunk_offset(k), k, "more than 2^38 chunks")
        if not self._keys.open_into(k, sealed, out):
            raise self._bad_chunk(k, sealed, final)
        return len(sealed) - c.TAG

    # ---- random access --------------------------------------------------

    def _open_random(self) -> None:
        ct_len = int(self._raw.seek(0, io.SEEK_END)) - self._start
        status, k, pt_len = c.layout(ct_len)
        if status != "ok":
            body = ct_len - c.HEADER
            if status != "too-long" and body >= c.SEALED:
                # Maybe a complete message with data appended: the last
                # 16400 bytes that start a chunk name it, if so.
                last = body // c.SEALED - 1
                sealed = self._read_chunk(last, c.SEALED)
                self._open(last, sealed, memoryview(self._pt), True)
            end = ct_len + self._base
            if status == "too-long":
                msg = f"more than 2^38 chunks (a {ct_len}-byte ciphertext)"
            elif status == "full-final":
                msg = (f"truncated at offset {end}: chunk {k} is a full 16384 "
                       "bytes and the final short chunk is missing")
            elif body == 0:
                msg = f"truncated at offset {end}: no chunk after the header"
            else:
                msg = (f"truncated at offset {end}: the final chunk {k} has "
                       f"{body % c.SEALED} bytes, less than its 16-byte tag")
            raise self._fail(status, ct_len, k, msg)
        self._chunks = k
        self._ct_len = ct_len
        self.size = self._end = pt_len
        self._load(k - 1)  # authenticates the length

    def _read_chunk(self, k: int, n: int) -> memoryview:
        off = c.chunk_offset(k)
        self._raw.seek(self._start + off)
        sealed = memoryview(self._ct)[:n]
        got = c.readinto_exact(self._raw, sealed)
        if got < n:
            raise self._fail(
                "truncated", off + got, k,
                f"the file ended at offset {off + got + self._base} inside "
                f"chunk {k} (it changed since it was opened?)",
            )
        return sealed

    def _sealed_len(self, k: int) -> int:
        if k < self._chunks - 1:
            return c.SEALED
        return self._ct_len - c.chunk_offset(k)

    def _load(self, k: int, out: Optional[memoryview] = None) -> int:
        n = self._sealed_len(k)
        sealed = self._read_chunk(k, n)
        if out is not None:
            return self._open(k, sealed, out, k == self._chunks - 1)
        self._pt_k = -1
        self._pt_len = self._open(k, sealed, memoryview(self._pt), k == self._chunks - 1)
        self._pt_k = k
        return self._pt_len

    # ---- in order ----------------------------------------------------------

    def _next_chunk(self, out: Optional[memoryview]) -> int:
        k = self._next
        off = c.chunk_offset(k)
        n = c.readinto_exact(self._raw, memoryview(self._ct))
        if n == 0 and k == 0:
            raise self._fail(
                "truncated", off, 0,
                f"truncated at offset {off + self._base}: no chunk after the header",
            )
        if n == 0:
            raise self._fail(
                "full-final", off, k - 1,
                f"truncated at offset {off + self._base}: chunk {k - 1} is a "
                "full 16384 bytes and the final short chunk is missing",
            )
        if n < c.TAG:
            raise self._fail(
                "truncated", off + n, k,
                f"truncated at offset {off + n + self._base}: the final chunk "
                f"{k} has {n} bytes, less than its 16-byte tag",
            )
        final = n < c.SEALED
        sealed = memoryview(self._ct)[:n]
        if out is None:
            self._pt_k = -1
            got = self._pt_len = self._open(k, sealed, memoryview(self._pt), True)
            self._pt_k = k
        else:
            got = self._open(k, sealed, out, True)
        self._next = k + 1
        if final:
            self._end = k * c.CHUNK + got
        return got

    # ---- the file interface ---------------------------------------------------

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._seekable

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if self.closed:
            raise ValueError("seek on a closed chunked reader")
        if not self._seekable:
            raise io.UnsupportedOperation("the ciphertext cannot seek (a pipe?)")
        assert self.size is not None
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self.size}[whence]
        if base + offset < 0:
            raise ValueError("negative seek position")
        self._pos = base + offset
        return self._pos

    def readinto(self, b: Buffer) -> int:  # type: ignore[override]
        if self.closed:
            raise ValueError("read from a closed chunked reader")
        if self._failed is not None:
            raise self._failed
        mv = memoryview(b).cast("B")
        done = 0
        try:
            while done < len(mv):
                if self._end is not None and self._pos >= self._end:
                    break
                k, at = divmod(self._pos, c.CHUNK)
                if k == self._pt_k and at < self._pt_len:
                    take = min(self._pt_len - at, len(mv) - done)
                    mv[done : done + take] = memoryview(self._pt)[at : at + take]
                elif at == 0 and len(mv) - done >= c.CHUNK:
                    # A whole chunk wanted: open it into the caller's buffer.
                    dst = mv[done : done + c.CHUNK]
                    take = self._load(k, dst) if self._seekable else self._next_chunk(dst)
                elif self._seekable:
                    self._load(k)
                    continue
                else:
                    self._next_chunk(None)
                    continue
                done += take
                self._pos += take
        except ChunkedError:
            if done == 0:
                raise
        return done

    def read(self, size: int = -1) -> bytes:
        """Up to size bytes (all that is left when size < 0); b"" at the end."""
        if size is None or size < 0:
            return self.readall()
        buf = bytearray(size)
        return bytes(buf[: self.readinto(buf)])

    def readall(self) -> bytes:
        if self.size is not None:
            buf = bytearray(max(self.size - self._pos, 0))
            n = self.readinto(buf)
            if n < len(buf):  # an error after some bytes: raise it now
                self.readinto(bytearray(1))
            return bytes(buf)
        parts: list[bytes] = []
        while True:
            part = self.read(16 * c.CHUNK)
            if not part:
                return b"".join(parts)
            parts.append(part)

    def close(self) -> None:
        if self.closed:
            return
        self._pt[:] = bytes(len(self._pt))
        self._pt_k = -1
        if self._owns and self._raw is not None:
            self._raw.close()
        self._raw = None
        super().close()
