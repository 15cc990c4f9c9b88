"""Key generation, one-shot CMAC and AES key wrap (RFC 3394 KW, RFC 5649
KWP), with pyca/cryptography's keywrap function names so that
`from cryptography.hazmat.primitives.keywrap import ...` becomes
`from aesir import ...`."""

import secrets
from typing import Optional

from . import _aesir
from ._aesir import CMAC, InvalidTag
from ._types import Buffer


class InvalidUnwrap(InvalidTag):
    """Key unwrapping failed: wrong key-encryption key or altered data."""


def generate_key(bit_length: int = 256) -> bytes:
    """A random AES key of bit_length (128, 192 or 256) from the OS's CSPRNG."""
    if bit_length not in (128, 192, 256):
        raise ValueError("bit_length must be 128, 192 or 256")
    return secrets.token_bytes(bit_length // 8)


def cmac(
    key: Buffer, data: Buffer, length: int = 16, *, engine: Optional[str] = None
) -> bytes:
    """AES-CMAC of data (SP 800-38B) in one call, length 4..16 bytes."""
    return CMAC(key, engine=engine).tag(data, length)


def _wrap(
    kek: Buffer, data: Buffer, unwrap: bool, padded: bool, engine: Optional[str]
) -> bytes:
    try:
        return _aesir.key_wrap(kek, data, unwrap, padded, engine)
    except InvalidTag:
        raise InvalidUnwrap("key unwrap failed: integrity check") from None


def aes_key_wrap(
    wrapping_key: Buffer, key_to_wrap: Buffer, *, engine: Optional[str] = None
) -> bytes:
    """RFC 3394 key wrap: key_to_wrap (a multiple of 8, >= 16 bytes)."""
    return _wrap(wrapping_key, key_to_wrap, False, False, engine)


def aes_key_unwrap(
    wrapping_key: Buffer, wrapped_key: Buffer, *, engine: Optional[str] = None
) -> bytes:
    """Inverse of aes_key_wrap; raises InvalidUnwrap on a failed check."""
    return _wrap(wrapping_key, wrapped_key, True, False, engine)


def aes_key_wrap_with_padding(
    wrapping_key: Buffer, key_to_wrap: Buffer, *, engine: Optional[str] = None
) -> bytes:
    """RFC 5649 key wrap with padding: any length from 1 byte."""
    return _wrap(wrapping_key, key_to_wrap, False, True, engine)


def aes_key_unwrap_with_padding(
    wrapping_key: Buffer, wrapped_key: Buffer, *, engine: Optional[str] = None
) -> bytes:
    """Inverse of aes_key_wrap_with_padding; raises InvalidUnwrap."""
    return _wrap(wrapping_key, wrapped_key, True, True, engine)
