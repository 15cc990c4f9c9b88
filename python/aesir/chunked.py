"""aesir.chunked: the C2SP chunked-encryption format (c2sp.org/chunked-
encryption, v1, AES-GCM: "Cobblestone-128/-256") as file objects -- the
Python face of `aesir encrypt` / `aesir decrypt`, and readable by them.

    key = aesir.chunked.load_key("secret.key")      # an `aesir keygen` file
    with aesir.chunked.open("data.enc", "wb", key=key) as f:
        f.write(b"...")                              # any number of writes
    with aesir.chunked.open("data.enc", "rb", key=key) as f:
        f.seek(1 << 20)                              # random access
        part = f.read(4096)                          # opens only its chunks

Reading releases only authenticated bytes: every chunk is opened (AES-GCM
tag checked) before any of its bytes is returned, and anything wrong
raises ChunkedError, a subclass of aesir.InvalidTag naming the problem,
the chunk and the byte offset: a wrong key or context (the key commitment,
checked before any chunk), a flipped bit, chunks swapped, a file cut at a
chunk boundary or inside a tag, data after the final chunk. On a seekable
file (a regular file, BytesIO) open() checks the commitment, the length
and the final chunk at once, so .size is the authenticated plaintext
length and a damaged end is found before the first read. On a pipe the
chunks are opened in order: the chunks before a failure are returned, and
the read that reaches the failure raises (never a clean end of file).

Writing: each 16384 bytes are sealed as they arrive; close() (or the end
of a `with` block) writes the final short chunk, which is what makes the
file complete. Writing to a path goes to a temporary file in the same
directory that replaces the target only when close() succeeds. When the
`with` body raises, when abort() is called, or when a writer is garbage-
collected unclosed, no final chunk is written: for a path the temporary
file is removed (the target is untouched); a file object you passed keeps
the chunks written so far with no final chunk, which every reader refuses
as truncated.
"""

import builtins
import io
import os
import tempfile
from typing import Any, BinaryIO, Literal, Optional, Union, overload

from . import _c2sp as c
from ._c2sp import ChunkedError
from . import _keys
from ._keys import KeyFileError, format_key, generate_key, load_key
from ._reader import ChunkedReader
from ._types import Buffer

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

__all__ = [
    "ChunkedError",
    "ChunkedReader",
    "ChunkedWriter",
    "KeyFileError",
    "format_key",
    "generate_key",
    "load_key",
    "open",
]


def _write_all(raw: Any, data: Buffer) -> None:
    mv = memoryview(data)
    while len(mv):
        n = raw.write(mv)
        if n is None:
            raise BlockingIOError("the file object would block")
        mv = mv[n:]


class ChunkedWriter(io.RawIOBase):
    """A message being written: write() as often as needed, then close()
    (or leave the `with` block) to write the final chunk. Made by open()."""

    def __init__(
        self,
        raw: Any,
        key: Buffer,
        context: Buffer,
        prefix: bytes = b"",
        target: Optional[str] = None,
        tmp: Optional[str] = None,
    ) -> None:
        super().__init__()
        self._raw: Any = raw
        self._target, self._tmp = target, tmp
        self._done = False  # first: abort() works whatever fails below
        self._buf = bytearray(c.CHUNK)
        self._have = 0
        self._out = bytearray(c.SEALED)
        self._i = 0  # index of the next chunk
        self._n = 0  # plaintext bytes taken
        self.name = target if target is not None else getattr(raw, "name", None)
        salt = os.urandom(c.SALT)
        self._keys = c.Keys(bytes(key), salt, bytes(context))
        _write_all(raw, prefix + salt + self._keys.commit)

    def writable(self) -> bool:
        return True

    def tell(self) -> int:
        """Plaintext bytes written so far."""
        return self._n

    def _seal(self, data: Buffer) -> None:
        n = len(memoryview(data))
        out = memoryview(self._out)[: n + c.TAG]
        self._keys.gcm.encrypt_into(self._keys.nonce(self._i), data, None, out)
        _write_all(self._raw, out)
        self._i += 1

    def write(self, b: Buffer) -> int:  # type: ignore[override]
        """Takes all of b. A write that fails (the file's own error, say a
        full disk) aborts the message: some of b may be in the file and
        some not, so finishing it later could look valid and not be."""
        if self.closed or self._done:
            raise ValueError("write to a closed chunked writer")
        mv = memoryview(b).cast("B")
        try:
            return self._write(mv)
        except BaseException:
            self.abort()
            raise

    def _write(self, mv: memoryview) -> int:
        total = len(mv)
        while len(mv):
            if self._have == 0 and len(mv) >= c.CHUNK:
                # A whole chunk straight from the caller's buffer. A full
                # chunk is never the final one, so it can go now.
                self._seal(mv[: c.CHUNK])
                mv = mv[c.CHUNK :]
                continue
            take = min(c.CHUNK - self._have, len(mv))
            self._buf[self._have : self._have + take] = mv[:take]
            self._have += take
            mv = mv[take:]
            if self._have == c.CHUNK:
                self._seal(self._buf)
                self._have = 0
        self._n += total
        return total

    def flush(self) -> None:
        """Flushes the sealed chunks to the file; the final chunk is only
        written by close()."""
        if self._raw is not None and not self._done:
            self._raw.flush()

    def close(self) -> None:
        """Writes the final chunk (what makes the file complete) and, for a
        path, puts the file in place; then closes."""
        if self.closed:
            return
        if not self._done:
            try:
                self._seal(memoryview(self._buf)[: self._have])
                self._raw.flush()
                if self._tmp is not None:
                    self._commit()
            except BaseException:
                self.abort()
                raise
            self._finish()
        super().close()

    def _commit(self) -> None:
        assert self._tmp is not None and self._target is not None
        fd = self._raw.fileno()
        os.fsync(fd)
        os.fchmod(fd, 0o666 & ~_umask())  # as open() would have made it
        self._raw.close()
        os.replace(self._tmp, self._target)
        self._tmp = None
        try:  # the rename survives a crash once the directory is synced
            d = os.open(os.path.dirname(self._target) or ".", os.O_RDONLY)
            try:
                os.fsync(d)
            finally:
                os.close(d)
        except OSError:
            pass

    def _finish(self) -> None:
        self._done = True
        self._buf[:] = bytes(len(self._buf))
        if self._target is not None and self._raw is not None:
            self._raw.close()
        self._raw = None

    def abort(self) -> None:
        """Ends without the final chunk: a path's temporary file is removed;
        a file object keeps a truncated stream that no reader accepts."""
        if self.closed:
            return
        if not self._done:
            if self._tmp is not None:
                try:
                    self._raw.close()
                finally:
                    try:
                        os.unlink(self._tmp)
                    except OSError:
                        pass
                    self._tmp = None
            self._finish()
        super().close()

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is not None:
            self.abort()
        else:
            self.close()

    def __del__(self) -> None:
        # Never finish a message nobody closed (io's default would call
        # close() and write a valid-looking file at exit, say after an
        # uncaught exception).
        if not self.closed:
            self.abort()


def _umask() -> int:
    try:
        with builtins.open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o077  # unknown: keep the file private


@overload
def open(
    file: Union[PathLike, BinaryIO],
    mode: Literal["rb"] = ...,
    *,
    key: Optional[Buffer] = ...,
    context: Buffer = ...,
    passphrase: Union[str, bytes, None] = ...,
    key_bits: int = ...,
    argon2_time: int = ...,
    argon2_memory_kib: int = ...,
    max_memory_kib: int = ...,
) -> ChunkedReader: ...


@overload
def open(
    file: Union[PathLike, BinaryIO],
    mode: Literal["wb"],
    *,
    key: Optional[Buffer] = ...,
    context: Buffer = ...,
    passphrase: Union[str, bytes, None] = ...,
    key_bits: int = ...,
    argon2_time: int = ...,
    argon2_memory_kib: int = ...,
    max_memory_kib: int = ...,
) -> "ChunkedWriter": ...


def open(
    file: Union[PathLike, BinaryIO],
    mode: str = "rb",
    *,
    key: Optional[Buffer] = None,
    context: Buffer = b"",
    passphrase: Union[str, bytes, None] = None,
    key_bits: int = 256,
    argon2_time: int = _keys.PW_T_DEFAULT,
    argon2_memory_kib: int = _keys.PW_M_DEFAULT_KIB,
    max_memory_kib: int = _keys.PW_MAX_M_DEFAULT_KIB,
) -> Union[ChunkedReader, ChunkedWriter]:
    """Opens a C2SP chunked-encryption file for reading ("rb") or writing
    ("wb"). file: a path, or a binary file object (read from / written to
    its current position; not closed by the reader or writer).

    key: the input key, 16 bytes (AES-128-GCM) or 32 (AES-256-GCM), e.g.
    from load_key(). Or passphrase= (str or bytes) for the aesir tool's
    passphrase files (an AESIR-PW header and Argon2id; needs cryptography
    >= 44 or argon2-cffi): writing uses key_bits, argon2_time and
    argon2_memory_kib; reading refuses a header asking for more than
    max_memory_kib. context: the optional context string (the tool's
    --context); it must be the same for reading.
    """
    if mode not in ("rb", "wb"):
        raise ValueError("mode must be 'rb' or 'wb'")
    if (key is None) == (passphrase is None):
        raise TypeError("give exactly one of key= and passphrase=")
    ctx = bytes(memoryview(context))
    if key is not None:
        c.aead_name(len(memoryview(key)))  # ValueError on a bad length
    is_path = isinstance(file, (str, bytes, os.PathLike))
    if mode == "wb":
        prefix = b""
        if passphrase is not None:
            prefix, key = _keys.pw_seal(passphrase, key_bits // 8, argon2_time, argon2_memory_kib)
            ctx = prefix + ctx
        assert key is not None
        if not is_path:
            return ChunkedWriter(file, key, ctx, prefix)
        target = os.fsdecode(os.fspath(file))  # type: ignore[arg-type]
        d, name = os.path.split(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=d or ".")
        out = os.fdopen(fd, "wb")
        try:
            return ChunkedWriter(out, key, ctx, prefix, target, tmp)
        except BaseException:
            out.close()
            os.unlink(tmp)
            raise
    raw: Any = builtins.open(file, "rb", buffering=0) if is_path else file  # type: ignore[arg-type]
    try:
        if passphrase is not None:
            hdr = c.read_exact(raw, _keys.PW_HEADER)
            key = _keys.pw_open(hdr, passphrase, max_memory_kib)
            ctx = hdr + ctx
        assert key is not None
        base = _keys.PW_HEADER if passphrase is not None else 0
        return ChunkedReader(raw, bytes(key), ctx, owns=is_path, base=base)
    except BaseException:
        if is_path:
            raw.close()
        raise
