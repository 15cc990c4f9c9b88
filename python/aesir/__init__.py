"""aesir: AES for Python, over the aesir C library (compiled in).

Authenticated encryption shaped after pyca/cryptography's AEAD classes
(AESGCM, AESCCM, AESOCB3, AESGCMSIV, AESSIV) so code can switch with
little change, plus what only aesir has: XAES-256-GCM, the AEGIS family,
a choice of engine (the implementation technique of AES) on every
constructor, and incremental GCM. CMAC, key wrap and XTS are here too;
the unauthenticated block modes live in aesir.hazmat, and the C2SP
chunked-encryption files of the aesir tool in aesir.chunked.

Every method takes any bytes-like object (bytes, bytearray, memoryview,
numpy arrays) without copying it, *_into methods write into a buffer of
yours, and calls on inputs of 4 KiB or more release the GIL.
"""

from ._aesir import CMAC, XTS, EngineError, InvalidTag, c_version
from ._aead import (
    AEGIS128L,
    AEGIS128X2,
    AEGIS128X4,
    AEGIS256,
    AEGIS256X2,
    AEGIS256X4,
    AESCCM,
    AESGCM,
    AESGCMSIV,
    AESOCB3,
    AESSIV,
    XAES256GCM,
)
from . import chunked
from ._engines import Engine, default_engine, engines, ghash_engines, selftest
from ._misc import (
    InvalidUnwrap,
    aes_key_unwrap,
    aes_key_unwrap_with_padding,
    aes_key_wrap,
    aes_key_wrap_with_padding,
    cmac,
    generate_key,
)

__version__ = "0.1.0"

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
    "CMAC",
    "Engine",
    "EngineError",
    "InvalidTag",
    "InvalidUnwrap",
    "XAES256GCM",
    "XTS",
    "aes_key_unwrap",
    "aes_key_unwrap_with_padding",
    "aes_key_wrap",
    "aes_key_wrap_with_padding",
    "c_version",
    "chunked",
    "cmac",
    "default_engine",
    "engines",
    "generate_key",
    "ghash_engines",
    "selftest",
]
