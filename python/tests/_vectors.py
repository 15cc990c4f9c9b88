"""Reads the public test-vector files the C tests use: the pinned
cryptography-vectors tree that tests/vectors/fetch.sh fetches into a
cache (NIST CAVP .rsp files and RFC vectors in the same "Name = value"
layout). Nothing here is copied from a vector set; only parsed.
"""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def vectors_dir() -> pathlib.Path:
    """AESIR_VECTORS_DIR, else what tests/vectors/fetch.sh prints; the
    tests that need vectors skip when neither gives a directory."""
    d = os.environ.get("AESIR_VECTORS_DIR")
    if not d:
        fetch = REPO / "tests" / "vectors" / "fetch.sh"
        try:
            d = subprocess.run(
                [str(fetch)], check=True, capture_output=True, text=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError) as e:
            pytest.skip(f"no test vectors ({fetch}: {e})")
    p = pathlib.Path(d)
    if not (p / "ciphers").is_dir():
        pytest.skip(f"no test vectors in {p}")
    return p


def records(path):
    """The records of a CAVP-style file as dicts. "[A = x, B = y]" and
    "[NAME]" headers, and assignments met before a section's first
    COUNT, are inherited by the records that follow; a bare "FAIL" line
    sets FAIL; each COUNT line starts a record."""
    ctx, rec, out = {}, None, []
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if rec is not None:
                out.append(rec)
                rec = None
            body = line.strip("[]")
            for part in body.split(","):
                if "=" in part:
                    k, v = part.split("=", 1)
                    ctx[k.strip()] = v.strip()
                else:
                    ctx["section"] = part.strip()
            continue
        if line == "FAIL":
            rec["FAIL"] = True
            continue
        if "=" not in line:
            continue
        k, v = (s.strip() for s in line.split("=", 1))
        if k.upper() == "COUNT":
            if rec is not None:
                out.append(rec)
            rec = dict(ctx)
        elif rec is None:
            ctx[k] = v
        else:
            rec[k] = v
    if rec is not None:
        out.append(rec)
    return out


def h(s: str) -> bytes:
    return bytes.fromhex(s)
