"""The AEAD classes: pyca/cryptography's names and method signatures
(cryptography.hazmat.primitives.ciphers.aead), over one C type.

Each class subclasses _aesir.AEAD, whose encrypt/decrypt/encrypt_into/
decrypt_into are C methods taking (nonce, data, associated_data[, buf]):
a subclass only chooses the mode ("kind"), tag length and engines at
construction, so per-call cost stays that of one C call. AES-SIV, whose
pyca signature has no nonce, is the one class with Python-level methods.
"""

import secrets
from typing import List, Optional, Tuple

from . import _aesir
from ._types import Buffer

# Kind numbers of src/aead.c's table.
_GCM, _CCM, _OCB, _GCMSIV, _SIV, _XAES, _KAEGIS = 1, 2, 3, 4, 5, 6, 7


class _Base(_aesir.AEAD):
    __slots__ = ()
    _key_bits: Tuple[int, ...] = (128, 192, 256)

    @classmethod
    def generate_key(cls, bit_length: Optional[int] = None) -> bytes:
        """A random key from the OS's CSPRNG (secrets.token_bytes)."""
        if bit_length is None:
            bit_length = cls._key_bits[-1]
        if bit_length not in cls._key_bits:
            raise ValueError(f"bit_length must be one of {cls._key_bits}")
        return secrets.token_bytes(bit_length // 8)

    def _pair(self) -> Tuple[str, str]:
        e = self._engine
        assert isinstance(e, tuple)
        return e

    @property
    def engine(self) -> Optional[str]:
        """The name of the AES engine this key runs on."""
        e = self._engine
        return e[0] if isinstance(e, tuple) else e


class AESGCM(_Base):
    """AES-GCM (SP 800-38D): 16-byte tags; 12-byte nonces recommended
    (any non-empty length accepted). Never reuse a nonce under one key."""

    __slots__ = ()

    def __init__(
        self,
        key: Buffer,
        *,
        engine: Optional[str] = None,
        ghash_engine: Optional[str] = None,
    ) -> None:
        super().__init__(_GCM, key, 16, engine, ghash_engine)

    @property
    def ghash_engine(self) -> str:
        """The GHASH multiplier this key runs on."""
        return self._pair()[1]

    def encryptor(self, nonce: Buffer) -> "_aesir.Stream":
        """Incremental encryption of one message: update()..., finalize(),
        then .tag."""
        return _aesir.Stream(self, _GCM, nonce, False)

    def decryptor(self, nonce: Buffer) -> "_aesir.Stream":
        """Incremental decryption. update() returns plaintext that is NOT
        authenticated until finalize_with_tag(tag) returns: act on none of
        it before then (or use decrypt(), which releases nothing unverified)."""
        return _aesir.Stream(self, _GCM, nonce, True)


class AESCCM(_Base):
    """AES-CCM (SP 800-38C, RFC 3610): nonces of 7..13 bytes, tags of
    4, 6, 8, 10, 12, 14 or 16 bytes."""

    __slots__ = ()

    def __init__(
        self, key: Buffer, tag_length: int = 16, *, engine: Optional[str] = None
    ) -> None:
        if tag_length not in (4, 6, 8, 10, 12, 14, 16):
            raise ValueError("tag_length must be 4, 6, 8, 10, 12, 14 or 16")
        super().__init__(_CCM, key, tag_length, engine)

    def encryptor(
        self, nonce: Buffer, data_length: int, associated_data_length: int = 0
    ) -> "_aesir.Stream":
        """Incremental encryption. CCM needs both lengths before it starts
        (they are in its first block): exactly that much associated data,
        then that much data, or finalize() raises ValueError."""
        return _aesir.Stream(
            self, _CCM, nonce, False, associated_data_length, data_length
        )

    def decryptor(
        self, nonce: Buffer, data_length: int, associated_data_length: int = 0
    ) -> "_aesir.Stream":
        """Incremental decryption (data_length without the tag). update()
        returns plaintext NOT authenticated until finalize_with_tag(tag)."""
        return _aesir.Stream(
            self, _CCM, nonce, True, associated_data_length, data_length
        )


class AESOCB3(_Base):
    """OCB3 (RFC 7253): nonces of 1..15 bytes (12 recommended), 16-byte tags."""

    __slots__ = ()

    def __init__(self, key: Buffer, *, engine: Optional[str] = None) -> None:
        super().__init__(_OCB, key, 16, engine)

    def encryptor(self, nonce: Buffer) -> "_aesir.Stream":
        """Incremental encryption: update() returns whole blocks (up to 15
        bytes are held back), finalize() the rest, then .tag."""
        return _aesir.Stream(self, _OCB, nonce, False)

    def decryptor(self, nonce: Buffer) -> "_aesir.Stream":
        """Incremental decryption. update() returns plaintext NOT
        authenticated until finalize_with_tag(tag), which returns the last
        bytes only when the tag matches."""
        return _aesir.Stream(self, _OCB, nonce, True)


class AESGCMSIV(_Base):
    """AES-GCM-SIV (RFC 8452): nonce-misuse resistant, 12-byte nonces,
    16-byte tags; 128- and 256-bit keys (192 as an extension)."""

    __slots__ = ()

    def __init__(
        self,
        key: Buffer,
        *,
        engine: Optional[str] = None,
        ghash_engine: Optional[str] = None,
    ) -> None:
        super().__init__(_GCMSIV, key, 16, engine, ghash_engine)


class XAES256GCM(_Base):
    """XAES-256-GCM (C2SP): 32-byte key, 24-byte random nonces, safe for
    practically unlimited messages per key."""

    __slots__ = ()
    _key_bits = (256,)

    def __init__(
        self,
        key: Buffer,
        *,
        engine: Optional[str] = None,
        ghash_engine: Optional[str] = None,
    ) -> None:
        super().__init__(_XAES, key, 16, engine, ghash_engine)


class AESSIV(_Base):
    """AES-SIV (RFC 5297): deterministic authenticated encryption. Keys of
    32, 48 or 64 bytes (two AES keys); output is the 16-byte synthetic IV
    followed by the ciphertext. associated_data is a list of byte strings;
    a nonce, if you use one, is passed as its last item (as in pyca) or
    with nonce=."""

    __slots__ = ()
    _key_bits = (256, 384, 512)

    def __init__(self, key: Buffer, *, engine: Optional[str] = None) -> None:
        super().__init__(_SIV, key, 16, engine)

    def encrypt(  # type: ignore[override]
        self,
        data: Buffer,
        associated_data: Optional[List[Buffer]] = None,
        *,
        nonce: Optional[Buffer] = None,
    ) -> bytes:
        return _aesir.AEAD.encrypt(self, nonce, data, associated_data)

    def decrypt(  # type: ignore[override]
        self,
        data: Buffer,
        associated_data: Optional[List[Buffer]] = None,
        *,
        nonce: Optional[Buffer] = None,
    ) -> bytes:
        return _aesir.AEAD.decrypt(self, nonce, data, associated_data)

    def encrypt_into(  # type: ignore[override]
        self,
        data: Buffer,
        associated_data: Optional[List[Buffer]],
        buf: Buffer,
        *,
        nonce: Optional[Buffer] = None,
    ) -> int:
        return _aesir.AEAD.encrypt_into(self, nonce, data, associated_data, buf)

    def decrypt_into(  # type: ignore[override]
        self,
        data: Buffer,
        associated_data: Optional[List[Buffer]],
        buf: Buffer,
        *,
        nonce: Optional[Buffer] = None,
    ) -> int:
        return _aesir.AEAD.decrypt_into(self, nonce, data, associated_data, buf)


class _AEGIS(_Base):
    """AEGIS (draft-irtf-cfrg-aegis-aead): tags of 16 or 32 bytes."""

    __slots__ = ()
    _variant = 0

    def __init__(
        self, key: Buffer, tag_length: int = 16, *, engine: Optional[str] = None
    ) -> None:
        if tag_length not in (16, 32):
            raise ValueError("tag_length must be 16 or 32")
        super().__init__(_KAEGIS, key, tag_length, engine, None, self._variant)

    @property
    def path(self) -> str:
        """How the engine runs AEGIS: "kernel", "round" or "round-ct64"."""
        return self._pair()[1]

    def encryptor(self, nonce: Buffer) -> "_aesir.Stream":
        """Incremental encryption of one message (the C API's
        aesir_aegis_start/_aad/_encrypt_update/_finish):
        authenticate_additional_data() first, then update()..., finalize(),
        then .tag (tag_length bytes). Same bytes as encrypt() in one call."""
        return _aesir.Stream(self, _KAEGIS, nonce, False)

    def decryptor(self, nonce: Buffer) -> "_aesir.Stream":
        """Incremental decryption. update() returns plaintext that is NOT
        authenticated until finalize_with_tag(tag) returns: act on none of
        it before then (or use decrypt(), which releases nothing unverified)."""
        return _aesir.Stream(self, _KAEGIS, nonce, True)


class AEGIS128L(_AEGIS):
    """AEGIS-128L: 16-byte key and nonce."""

    __slots__ = ()
    _variant, _key_bits = 1, (128,)


class AEGIS256(_AEGIS):
    """AEGIS-256: 32-byte key and nonce."""

    __slots__ = ()
    _variant, _key_bits = 2, (256,)


class AEGIS128X2(_AEGIS):
    """AEGIS-128X2: 16-byte key and nonce."""

    __slots__ = ()
    _variant, _key_bits = 3, (128,)


class AEGIS128X4(_AEGIS):
    """AEGIS-128X4: 16-byte key and nonce."""

    __slots__ = ()
    _variant, _key_bits = 4, (128,)


class AEGIS256X2(_AEGIS):
    """AEGIS-256X2: 32-byte key and nonce."""

    __slots__ = ()
    _variant, _key_bits = 5, (256,)


class AEGIS256X4(_AEGIS):
    """AEGIS-256X4: 32-byte key and nonce."""

    __slots__ = ()
    _variant, _key_bits = 6, (256,)


for _c in (AEGIS128L, AEGIS256, AEGIS128X2, AEGIS128X4, AEGIS256X2, AEGIS256X4):
    _c.__module__ = "aesir"
del _c

__all__ = [
    "AEGIS128L",
    "AEGIS128X2",
    "AEGIS128X4",
    "AEGIS256",
    "AEGIS256X2",
    "AEGIS256X4",
    "AESCCM",
    "AESGCM",
    "AESGCMSIV",
    "AESOCB3",
    "AESSIV",
    "XAES256GCM",
]
