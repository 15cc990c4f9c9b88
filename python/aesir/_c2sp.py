"""The C2SP chunked-encryption format's pieces (c2sp.org/chunked-encryption,
v1, with AES-GCM: "Cobblestone-128/-256"), as tools/chunked.h has them in
C; aesir.chunked builds the file objects on these.

    key || base nonce || commitment = HKDF-Expand-SHA-512(prk = input key,
        info = "c2sp.org/chunked-encryption@v1+" || aead || 0x00 || salt
               || context)
    ciphertext = salt (24) || commitment (32) || chunk 0 || chunk 1 ...

The plaintext is cut into 16384-byte chunks; the final chunk is always
shorter (possibly empty), which is what marks the end. Chunk i is AES-GCM
with nonce = base nonce XOR i (big-endian) and no associated data, so
chunk k starts at ciphertext offset 56 + k * 16400.

HKDF-Expand (RFC 5869 section 2.3) is the few lines of its definition over
the standard library's HMAC-SHA-512 (hmac.digest, OpenSSL underneath): no
hash or MAC is written here. The chunks go through aesir's own AESGCM,
whose calls release the GIL from 4 KiB on, so a full chunk decrypts while
other threads run.
"""

import hashlib
import hmac
from typing import Any, Optional, Tuple

from ._aead import AESGCM
from ._aesir import InvalidTag

CHUNK = 16384  # plaintext bytes of a full chunk
TAG = 16
SEALED = CHUNK + TAG  # a full chunk as stored
SALT = 24
COMMIT = 32
HEADER = SALT + COMMIT  # 56
NONCE = 12
MAX_CHUNKS = 1 << 38  # the spec's limit on the chunk counter

_INFO = b"c2sp.org/chunked-encryption@v1+"


class ChunkedError(InvalidTag):
    """A chunked-encryption ciphertext that does not decrypt: wrong key or
    context, a chunk that fails to authenticate, truncation, trailing data.

    Attributes: reason -- one of "commitment", "auth", "truncated",
    "full-final", "trailing", "too-long"; offset -- the byte offset in
    the ciphertext where the problem is (counted from the start of the
    file, or from where the file object stood when opened); chunk -- the
    chunk's index, or None for the header. Nothing of a failing chunk
    is ever released."""

    def __init__(
        self, reason: str, offset: int, chunk: Optional[int], message: str
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.offset = offset
        self.chunk = chunk


def aead_name(key_len: int) -> bytes:
    if key_len == 16:
        return b"AEAD_AES_128_GCM"
    if key_len == 32:
        return b"AEAD_AES_256_GCM"
    raise ValueError("a chunked-encryption key is 16 or 32 bytes (AES-128/256-GCM)")


def hkdf_expand(prk: bytes, info: bytes, length: int, hash_name: str = "sha512") -> bytes:
    """HKDF-Expand (RFC 5869 2.3): T(i) = HMAC(prk, T(i-1) || info || i)."""
    size = hashlib.new(hash_name).digest_size
    if length > 255 * size:
        raise ValueError("HKDF-Expand: too long an output")
    out, t = b"", b""
    for i in range(1, -(-length // size) + 1):
        t = hmac.digest(prk, t + info + bytes([i]), hash_name)
        out += t
    return out[:length]


class Keys:
    """The per-message secrets: the chunk AEAD, base nonce, commitment."""

    __slots__ = ("gcm", "base", "commit")

    def __init__(self, key: bytes, salt: bytes, context: bytes) -> None:
        if len(salt) != SALT:
            raise ValueError("the salt is 24 bytes")
        info = _INFO + aead_name(len(key)) + b"\0" + salt + context
        okm = hkdf_expand(key, info, len(key) + NONCE + COMMIT)
        self.gcm = AESGCM(okm[: len(key)])
        self.base = int.from_bytes(okm[len(key) : len(key) + NONCE], "big")
        self.commit = okm[len(key) + NONCE :]

    def nonce(self, i: int) -> bytes:
        if i >= MAX_CHUNKS:
            raise ValueError("more than 2^38 chunks: the format's limit")
        return (self.base ^ i).to_bytes(NONCE, "big")

    def commit_ok(self, commit: bytes) -> bool:
        return hmac.compare_digest(self.commit, commit)  # constant time

    def open_into(self, i: int, sealed: memoryview, out: memoryview) -> bool:
        """Chunk i (sealed: ciphertext || tag) into out; False when it fails
        to authenticate (out then holds nothing of it: aesir zeroes it)."""
        try:
            self.gcm.decrypt_into(self.nonce(i), sealed, None, out)
        except InvalidTag:
            return False
        return True

    def find_final(self, i: int, sealed: memoryview, scratch: memoryview) -> Optional[int]:
        """The length of a valid final chunk i at the start of sealed, when
        what follows it is trailing data (the error path only: up to
        len(sealed) - 16 trials, longest first, since a few appended bytes
        are the usual case)."""
        nonce = self.nonce(i)
        for n in range(min(len(sealed), SEALED) - 1, TAG - 1, -1):
            try:
                self.gcm.decrypt_into(nonce, sealed[:n], None, scratch)
                return n
            except InvalidTag:
                pass
        return None


def chunk_offset(k: int) -> int:
    return HEADER + k * SEALED


def layout(ct_len: int) -> Tuple[str, int, int]:
    """Checks a ciphertext length: ("ok", chunks, plaintext length), or
    (reason, chunk, 0) for a length no valid ciphertext has."""
    if ct_len < HEADER:
        return ("truncated", 0, 0)
    full, rem = divmod(ct_len - HEADER, SEALED)
    if rem == 0 and full > 0:
        return ("full-final", full - 1, 0)
    if rem < TAG:
        return ("truncated", full, 0)
    if full >= MAX_CHUNKS:
        return ("too-long", full, 0)
    return ("ok", full + 1, full * CHUNK + rem - TAG)


def readinto_exact(raw: Any, mv: memoryview) -> int:
    """Fills mv from raw until it is full or raw ends; the count read."""
    got = 0
    into = getattr(raw, "readinto", None)
    while got < len(mv):
        if into is not None:
            n = into(mv[got:])
        else:
            b = raw.read(len(mv) - got)
            n = None if b is None else len(b)
            if n:
                mv[got : got + n] = b
        if n is None:
            raise BlockingIOError("the file object would block")
        if n == 0:
            break
        got += n
    return got


def read_exact(raw: Any, n: int) -> bytes:
    buf = bytearray(n)
    return bytes(buf[: readinto_exact(raw, memoryview(buf))])
