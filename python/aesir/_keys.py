"""The input keys of aesir.chunked: the aesir tool's key files and its
passphrase header (docs/tool.md, "Key files" and "Passphrases";
tools/keyfile.h and tools/passphrase.h in C).

A key file is text: '#' comment lines, blank lines, and one key line

    aesir-key-v1-aes256-<64 hex digits>-<8 hex digits>

whose last 8 digits are the first 4 bytes of SHA-512(prefix || key) (the
prefix up to and including the '-' after the cipher), so a typo is
refused here instead of surfacing later as a wrong key.

A passphrase-encrypted file starts with a 34-byte header (magic
"AESIR-PW", version 1, AEAD 1 = AES-128-GCM / 2 = AES-256-GCM, Argon2id
t_cost and m_cost in KiB as big-endian 32-bit integers, a 16-byte salt);
Argon2id (RFC 9106, version 0x13, one lane) turns the passphrase into the
C2SP input key, and the whole header is the C2SP context (followed by the
caller's context), so the stream's commitment covers it. Argon2id comes
from pyca/cryptography (>= 44) or argon2-cffi when one is installed; it
is never written here.
"""

import hashlib
import hmac
import os
import secrets
import struct
import warnings
from typing import Tuple, Union

_PREFIX = "aesir-key-"
_VERSION = "v1-"
FILE_MAX = 4096  # as the tool: a key file is a few lines

PW_MAGIC = b"AESIR-PW"
PW_HEADER = 34
PW_T_MAX = 64
PW_M_MIN_KIB = 8
PW_T_DEFAULT = 3
PW_M_DEFAULT_KIB = 256 * 1024
PW_MAX_M_DEFAULT_KIB = 1024 * 1024
PW_PASS_MAX = 1024


class KeyFileError(ValueError):
    """Not a valid aesir key file; the message names the problem."""


def _checksum(prefix: str, key: bytes) -> bytes:
    return hashlib.sha512(prefix.encode() + key).digest()[:4]


def format_key(key: bytes) -> str:
    """The key line of a 16- or 32-byte key, as `aesir keygen` writes it."""
    if len(key) not in (16, 32):
        raise ValueError("a key file holds a 16- or 32-byte key")
    prefix = f"{_PREFIX}{_VERSION}aes{len(key) * 8}-"
    return f"{prefix}{bytes(key).hex()}-{_checksum(prefix, bytes(key)).hex()}"


def parse_key(text: str) -> bytes:
    """The key in the text of a key file; KeyFileError says what is wrong."""
    found = None
    for raw in text.split("\n"):
        line = raw.rstrip("\r \t")
        if not line or line.startswith("#"):
            continue
        if found is not None:
            raise KeyFileError("more than one key line")
        found = _parse_line(line)
    if found is None:
        raise KeyFileError("no key in the file")
    return found


def _parse_line(s: str) -> bytes:
    if not s.startswith(_PREFIX):
        raise KeyFileError(
            f"not an aesir key: the key line must start with '{_PREFIX}{_VERSION}'"
        )
    rest = s[len(_PREFIX) :]
    if not rest.startswith(_VERSION):
        word = rest.split("-", 1)[0][:12]
        raise KeyFileError(f"unknown key version {word!r} (this reads v1 keys)")
    rest = rest[len(_VERSION) :]
    if rest.startswith("aes128-"):
        bits = 128
    elif rest.startswith("aes256-"):
        bits = 256
    else:
        raise KeyFileError("unknown cipher in the key (want aes128 or aes256)")
    prefix = s[: len(_PREFIX) + len(_VERSION) + 7]
    digits, _, sum_hex = rest[7:].partition("-")
    if len(digits) != bits // 4:
        raise KeyFileError(
            f"wrong key length: {len(digits)} hex digits, want {bits // 4} "
            f"for aes{bits} (a digit lost or added?)"
        )
    if len(sum_hex) != 8:
        raise KeyFileError(
            "the key's checksum (8 hex digits after the last '-') is missing "
            "or of the wrong length"
        )
    hexdigits = set("0123456789abcdefABCDEF")
    if not set(digits + sum_hex) <= hexdigits:
        raise KeyFileError("a character that is not a hex digit in the key")
    key = bytes.fromhex(digits)
    if not hmac.compare_digest(_checksum(prefix, key), bytes.fromhex(sum_hex)):
        raise KeyFileError("the key's checksum does not match: a typo in the key file")
    return key


def load_key(path: Union[str, "os.PathLike[str]"]) -> bytes:
    """The key (16 or 32 bytes) in the aesir key file at path. A file that
    group or others may access is still used, with a warning (as the
    tool does: chmod 600 it)."""
    with open(path, "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        data = f.read(FILE_MAX + 1)
    if mode & 0o077:
        warnings.warn(
            f"key file {os.fspath(path)!r} is accessible to group or others "
            "(chmod 600 it)",
            stacklevel=2,
        )
    if len(data) > FILE_MAX:
        raise KeyFileError(f"key file {os.fspath(path)!r}: too big for a key file")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise KeyFileError("not an aesir key file (not ASCII text)") from None
    return parse_key(text)


def generate_key(bits: int = 256) -> bytes:
    """A random chunked-encryption key: 32 bytes (AES-256-GCM) or 16."""
    if bits not in (128, 256):
        raise ValueError("bits must be 128 or 256")
    return secrets.token_bytes(bits // 8)


# ---- passphrases ---------------------------------------------------------


def argon2id(password: bytes, salt: bytes, t_cost: int, m_cost_kib: int, length: int) -> bytes:
    """Argon2id, version 0x13, one lane, from whichever well-kept
    implementation is installed; RuntimeError when neither is."""
    try:
        from cryptography.exceptions import UnsupportedAlgorithm
        from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
    except ImportError:
        pass
    else:
        try:
            return bytes(Argon2id(
                salt=salt,
                length=length,
                iterations=t_cost,
                lanes=1,
                memory_cost=m_cost_kib,
            ).derive(password))
        except UnsupportedAlgorithm:  # its OpenSSL has no Argon2
            pass
    try:
        from argon2.low_level import Type, hash_secret_raw
    except ImportError:
        raise RuntimeError(
            "passphrase files need Argon2id: install cryptography>=44 or "
            "argon2-cffi (neither is importable here)"
        ) from None
    return bytes(
        hash_secret_raw(password, salt, t_cost, m_cost_kib, 1, length, Type.ID, version=19)
    )


def _password(passphrase: Union[str, bytes]) -> bytes:
    p = passphrase.encode("utf-8") if isinstance(passphrase, str) else bytes(passphrase)
    if not 1 <= len(p) <= PW_PASS_MAX:
        raise ValueError(f"a passphrase is 1 to {PW_PASS_MAX} bytes")
    return p


def pw_seal(
    passphrase: Union[str, bytes], key_len: int, t_cost: int, m_cost_kib: int
) -> Tuple[bytes, bytes]:
    """For writing: (header, input key) with a fresh salt."""
    if key_len not in (16, 32):
        raise ValueError("key_bits must be 128 or 256")
    if not (1 <= t_cost <= PW_T_MAX and PW_M_MIN_KIB <= m_cost_kib < 1 << 32):
        raise ValueError(
            f"Argon2id costs: time 1..{PW_T_MAX}, memory {PW_M_MIN_KIB} KiB "
            "to 4 TiB"
        )
    salt = os.urandom(16)
    hdr = PW_MAGIC + struct.pack(
        ">BBII", 1, 1 if key_len == 16 else 2, t_cost, m_cost_kib
    ) + salt
    return hdr, argon2id(_password(passphrase), salt, t_cost, m_cost_kib, key_len)


def pw_parse(hdr: bytes, max_m_cost_kib: int) -> Tuple[int, int, int]:
    """Checks a header in the order of its fields, as the tool does, before
    any passphrase work: (key length, t_cost, m_cost_kib)."""
    if hdr[:8] != PW_MAGIC[: len(hdr)]:
        raise ValueError("not a passphrase-encrypted file (no AESIR-PW header)")
    if len(hdr) > 8 and hdr[8] != 1:
        raise ValueError(f"passphrase header version {hdr[8]} is not supported (want 1)")
    if len(hdr) < PW_HEADER:
        raise ValueError(f"truncated passphrase header ({len(hdr)} of {PW_HEADER} bytes)")
    aead, t, m = struct.unpack(">BII", hdr[9:18])
    if aead not in (1, 2):
        raise ValueError(f"unknown AEAD {aead} in the passphrase header")
    if not (1 <= t <= PW_T_MAX and m >= PW_M_MIN_KIB):
        raise ValueError(
            f"Argon2id costs out of range in the passphrase header (time {t}, "
            f"memory {m} KiB)"
        )
    if m > max_m_cost_kib:
        raise ValueError(
            f"the passphrase header asks for {(m + 1023) // 1024} MiB of memory "
            f"for Argon2id, more than the limit of {max_m_cost_kib // 1024} MiB "
            "(max_memory_kib)"
        )
    return (16 if aead == 1 else 32), t, m


def pw_open(hdr: bytes, passphrase: Union[str, bytes], max_m_cost_kib: int) -> bytes:
    """For reading: the input key from a header and the passphrase."""
    key_len, t, m = pw_parse(hdr, max_m_cost_kib)
    return argon2id(_password(passphrase), hdr[18:34], t, m, key_len)
