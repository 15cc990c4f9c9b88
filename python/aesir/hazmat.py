"""Unauthenticated block cipher modes (SP 800-38A): ECB, CBC, CFB, CFB8,
OFB and CTR. "hazmat" as in pyca/cryptography: nothing here detects
tampering, and ECB leaks equal blocks. Prefer the AEAD classes of the
aesir package (AESGCM, ...), or add a MAC (aesir.CMAC) yourself.

Each mode object holds a key and IV; encryptor() / decryptor() start one
message with update() / update_into() / finalize(), and encrypt(data) /
decrypt(data) do a whole message at once. ECB and CBC take a padding:
"none" (input a multiple of 16 bytes; pyca's behaviour), "pkcs7"
(RFC 5652; decryption checks it and raises ValueError when it is wrong)
or "zero" (zero bytes up to a block; decryption keeps them).
"""

from typing import Optional

from . import _aesir
from ._types import Buffer

# AESIR_MODE_* and AESIR_PAD_* of include/aesir.h.
_ECB, _CBC, _CFB128, _CFB8, _OFB, _CTR = 1, 2, 3, 4, 6, 7
_PADDINGS = {"none": 0, "pkcs7": 1, "zero": 2}

CipherContext = _aesir.BlockCipher


class _Mode:
    _mode = 0

    def __init__(
        self, key: Buffer, iv: Optional[Buffer], option: int, engine: Optional[str]
    ) -> None:
        self._key = bytes(key)
        self._iv = None if iv is None else bytes(iv)
        self._option = option
        self._engine = engine
        # Refuse a bad key, IV or engine now rather than at first use.
        self.encryptor()

    def encryptor(self) -> "_aesir.BlockCipher":
        """Starts encrypting one message."""
        return _aesir.BlockCipher(
            self._key, self._mode, False, self._iv, self._option, self._engine
        )

    def decryptor(self) -> "_aesir.BlockCipher":
        """Starts decrypting one message."""
        return _aesir.BlockCipher(
            self._key, self._mode, True, self._iv, self._option, self._engine
        )

    def encrypt(self, data: Buffer) -> bytes:
        """The whole message at once."""
        c = self.encryptor()
        return c.update(data) + c.finalize()

    def decrypt(self, data: Buffer) -> bytes:
        """The whole message at once."""
        c = self.decryptor()
        return c.update(data) + c.finalize()


def _padding(padding: str) -> int:
    try:
        return _PADDINGS[padding]
    except KeyError:
        raise ValueError("padding must be 'none', 'pkcs7' or 'zero'") from None


class ECB(_Mode):
    """Electronic codebook: each block alone. Leaks equal blocks."""

    _mode = _ECB

    def __init__(
        self, key: Buffer, *, padding: str = "none", engine: Optional[str] = None
    ) -> None:
        super().__init__(key, None, _padding(padding), engine)


class CBC(_Mode):
    """Cipher block chaining with a 16-byte IV (unpredictable per message)."""

    _mode = _CBC

    def __init__(
        self,
        key: Buffer,
        iv: Buffer,
        *,
        padding: str = "none",
        engine: Optional[str] = None,
    ) -> None:
        super().__init__(key, iv, _padding(padding), engine)


class CFB(_Mode):
    """Cipher feedback with 128-bit segments (segment_size=128) or 8-bit
    ones (segment_size=8, CFB8)."""

    def __init__(
        self,
        key: Buffer,
        iv: Buffer,
        *,
        segment_size: int = 128,
        engine: Optional[str] = None,
    ) -> None:
        if segment_size not in (8, 128):
            raise ValueError("segment_size must be 8 or 128")
        self._mode = _CFB8 if segment_size == 8 else _CFB128
        super().__init__(key, iv, 0, engine)


class CFB8(CFB):
    """CFB with 8-bit segments (pyca's modes.CFB8)."""

    def __init__(
        self, key: Buffer, iv: Buffer, *, engine: Optional[str] = None
    ) -> None:
        super().__init__(key, iv, segment_size=8, engine=engine)


class OFB(_Mode):
    """Output feedback with a 16-byte IV."""

    _mode = _OFB

    def __init__(
        self, key: Buffer, iv: Buffer, *, engine: Optional[str] = None
    ) -> None:
        super().__init__(key, iv, 0, engine)


class CTR(_Mode):
    """Counter mode: nonce is the 16-byte initial counter block, whose low
    counter_bits (32, 64 or 128) bits count, big-endian; going past the
    counter's end raises ValueError instead of wrapping."""

    _mode = _CTR

    def __init__(
        self,
        key: Buffer,
        nonce: Buffer,
        *,
        counter_bits: int = 128,
        engine: Optional[str] = None,
    ) -> None:
        if counter_bits not in (32, 64, 128):
            raise ValueError("counter_bits must be 32, 64 or 128")
        super().__init__(key, nonce, counter_bits, engine)


__all__ = ["CBC", "CFB", "CFB8", "CTR", "ECB", "OFB", "CipherContext"]
