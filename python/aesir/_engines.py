"""The engine registry: which implementations of AES (and of GHASH, GCM's
hash) this build has, which this CPU runs, and which is the default.

An engine is one technique for the AES block function (docs/ARCHITECTURE.md
of the C library): table-free bitslicing, vector permutes, AES
instructions... Non-constant-time engines (ref, ref-otf, ttable) are never
the default; pass engine="name" to any constructor to choose one.
"""

from typing import List, NamedTuple, Optional

from . import _aesir


class Engine(NamedTuple):
    """One engine of the build."""

    name: str
    description: str
    constant_time: bool
    hardware: bool
    available: bool


def _list(ghash: bool) -> List[Engine]:
    return [
        Engine(
            name,
            desc,
            bool(flags & _aesir.CONSTANT_TIME),
            bool(flags & _aesir.HARDWARE),
            bool(flags & _aesir.AVAILABLE),
        )
        for name, desc, flags in _aesir.engines(ghash)
    ]


def engines() -> List[Engine]:
    """Every AES engine compiled in, available on this CPU or not."""
    return _list(False)


def ghash_engines() -> List[Engine]:
    """Every GHASH multiplier compiled in (GCM's and GCM-SIV's hash)."""
    return _list(True)


def default_engine(ghash: bool = False) -> str:
    """The engine used when none is named: the fastest available
    constant-time one, or the AESIR_ENGINE environment variable's
    (AESIR_GHASH_ENGINE's with ghash=True) when it names an available one."""
    return _aesir.default_engine(ghash)


def selftest(engine: Optional[str] = None) -> None:
    """Runs FIPS-197's known-answer tests on an engine (default: the
    default engine); raises RuntimeError on failure, EngineError when the
    engine is unknown or unavailable."""
    _aesir.selftest(engine)
