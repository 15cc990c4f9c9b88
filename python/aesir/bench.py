"""python -m aesir.bench -- per-call speed of aesir against
pyca/cryptography and PyCryptodome, in one process on the same buffers
(the habit of the C library's bench/: peers side by side in one run, so
ratios hold on a noisy machine).

For each mode and message size (64 B, 1 KiB, 16 KiB, 1 MiB by default):
encrypt and decrypt, ns per call (best of several timed batches), GB/s,
and each library's ratio to pyca (higher is faster). "aesir C loop" is
the C library alone on the same key and buffers (a C loop in the
extension, no Python per call), the reference for the issue's "within
10 % of the C library at 1 MiB" target; "aesir into" is aesir writing
into a buffer of the caller's (encrypt_into: no allocation per call), and
the "aesir/C" column is each aesir row's speed over the C loop's. Peers
not installed are left out.
"""

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple

import aesir
from aesir._aesir import AEAD


def _batch(fn: Callable[[], object], budget: float) -> int:
    """Calls of fn() per timed batch: enough for ~budget/10 seconds."""
    n = 1
    while n < 1 << 22:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 >= budget / 10:
            break
        n *= 4
    return n


def _best(
    fns: Dict[str, Callable[[], object]], budget: float, rounds: int = 5
) -> Dict[str, float]:
    """ns per call of each fns[name](): the libraries take turns, batch
    by batch (a burst of load on the machine hits them all alike), and
    each keeps its best batch."""
    sizes = {k: _batch(f, budget) for k, f in fns.items()}
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for k, f in fns.items():
            n = sizes[k]
            t0 = time.perf_counter()
            for _ in range(n):
                f()
            best[k] = min(best[k], (time.perf_counter() - t0) / n * 1e9)
    return best


Fn = Callable[[bytes, bytes], bytes]  # (data, associated data) -> result
Lib = Tuple[str, Optional[AEAD], Fn, Fn]  # name, aesir key object, enc, dec
Row = Tuple[str, int, str, str, float]  # mode, size, direction, library, ns


def _nonced(name: str, obj: Any, nonce: bytes, aesir_obj: Optional[AEAD] = None) -> Lib:
    """A library whose AEAD object has pyca's encrypt/decrypt(nonce, m, ad)."""
    return (
        name,
        aesir_obj,
        lambda m, ad: bytes(obj.encrypt(nonce, m, ad)),
        lambda c, ad: bytes(obj.decrypt(nonce, c, ad)),
    )


def _pycryptodome(new: Callable[[], Any], tag_first: bool) -> Lib:
    """PyCryptodome's update/encrypt_and_digest/decrypt_and_verify."""

    def enc(m: bytes, ad: bytes) -> bytes:
        c = new()
        c.update(ad)
        ct, tag = c.encrypt_and_digest(m)
        return bytes(tag + ct if tag_first else ct + tag)

    def dec(c: bytes, ad: bytes) -> bytes:
        d = new()
        d.update(ad)
        if tag_first:
            return bytes(d.decrypt_and_verify(c[16:], c[:16]))
        return bytes(d.decrypt_and_verify(c[:-16], c[-16:]))

    return ("pycryptodome", None, enc, dec)


def _peers(mode: str, key: bytes, nonce: bytes) -> List[Lib]:
    """aesir first, then each peer library installed that has the mode."""
    pyca: Any = None  # the peers, when installed
    pcd: Any = None
    try:
        from cryptography.hazmat.primitives.ciphers import aead

        pyca = aead
    except ImportError:
        pass
    try:
        from Crypto.Cipher import AES

        pcd = AES
    except ImportError:
        pass
    out: List[Lib] = []
    if mode == "siv":  # no nonce argument: the AD list carries it
        k2 = key + key[::-1]
        s = aesir.AESSIV(k2)
        out.append(
            ("aesir", None, lambda m, ad: s.encrypt(m, [ad]), lambda c, ad: s.decrypt(c, [ad]))
        )
        if pyca is not None:
            ps = pyca.AESSIV(k2)
            out.append(
                ("pyca", None, lambda m, ad: ps.encrypt(m, [ad]), lambda c, ad: ps.decrypt(c, [ad]))
            )
        if pcd is not None:
            out.append(_pycryptodome(lambda: pcd.new(k2, pcd.MODE_SIV), True))
        return out
    classes: Dict[str, Tuple[Any, str, Optional[int]]] = {
        "gcm": (aesir.AESGCM, "AESGCM", pcd and pcd.MODE_GCM),
        "ccm": (aesir.AESCCM, "AESCCM", pcd and pcd.MODE_CCM),
        "ocb3": (aesir.AESOCB3, "AESOCB3", pcd and pcd.MODE_OCB),
        "gcm-siv": (aesir.AESGCMSIV, "AESGCMSIV", None),
    }
    ours, pyca_name, pcd_mode = classes[mode]
    a = ours(key)
    out.append(_nonced("aesir", a, nonce, a))
    if pyca is not None and hasattr(pyca, pyca_name):
        out.append(_nonced("pyca", getattr(pyca, pyca_name)(key), nonce))
    if pcd is not None and pcd_mode is not None:
        out.append(_pycryptodome(lambda: pcd.new(key, pcd_mode, nonce=nonce), False))
    return out


# CCM's 12-byte nonce leaves 3 bytes of length: messages up to 16 MiB.
NONCES = {"gcm": 12, "ccm": 12, "ocb3": 12, "gcm-siv": 12, "siv": 12}


def run(
    modes: List[str], sizes: List[int], budget: float, rounds: int = 5, out: TextIO = sys.stdout
) -> List[Row]:
    print(
        f"aesir {aesir.__version__} (C {aesir.c_version}), engine "
        f"{aesir.default_engine()}, ghash {aesir.default_engine(True)}; "
        f"Python {sys.version.split()[0]}",
        file=out,
    )
    hdr = (
        f"{'mode':8} {'size':>8} {'dir':3} {'library':14} {'ns/call':>11} "
        f"{'GB/s':>7} {'vs pyca':>8}"
    )
    print(hdr, file=out)
    rows: List[Row] = []
    for mode in modes:
        key, nonce = os.urandom(32), os.urandom(NONCES[mode])
        for size in sizes:
            m, ad = os.urandom(size), b""
            libs = _peers(mode, key, nonce)
            ct = libs[0][2](m, ad)
            for name, _, enc, dec in libs:  # all agree before timing
                assert enc(m, ad) == ct and dec(ct, ad) == m, (mode, name)
            for d in ("enc", "dec"):
                fns: Dict[str, Callable[[], object]] = {}
                for name, _, enc, dec in libs:
                    fn, arg = (enc, m) if d == "enc" else (dec, ct)
                    fns[name] = lambda fn=fn, arg=arg: fn(arg, ad)  # type: ignore[misc]
                obj, loops = libs[0][1], max(1, (1 << 20) // max(size, 1))
                if obj is not None:
                    src, n = (m, len(ct)) if d == "enc" else (ct, len(m))
                    buf = bytearray(n)
                    dec_ = d == "dec"
                    # aesir into a buffer of the caller's: no allocation.
                    fns["aesir into"] = lambda: (
                        obj.encrypt_into(nonce, src, None, buf)
                        if not dec_
                        else obj.decrypt_into(nonce, src, None, buf)
                    )
                    # The C library alone: `loops` calls in one C loop.
                    fns["aesir C loop"] = lambda: obj._c_loop(
                        nonce, src, buf, loops, dec_
                    )
                res = _best(fns, budget, rounds)
                if "aesir C loop" in res:
                    res["aesir C loop"] /= loops
                base = res.get("pyca")
                for name, ns in res.items():
                    ratio = f"{base / ns:7.2f}x" if base else "       -"
                    extra = ""
                    if name.startswith("aesir") and "aesir C loop" in res:
                        extra = f"  aesir/C {res['aesir C loop'] / ns * 100:5.1f} %"
                    print(
                        f"{mode:8} {size:8d} {d:3} {name:14} {ns:11.0f} "
                        f"{size / ns:7.2f} {ratio}{extra}",
                        file=out,
                    )
                    rows.append((mode, size, d, name, ns))
    return rows


def medians(runs: List[List[Row]], out: TextIO = sys.stdout) -> None:
    """The median over runs of each row's ns/call and of its ratio to pyca
    (each run's ratio comes from one run's turns), as a Markdown table."""
    cases: Dict[Tuple[str, int, str], Dict[str, List[float]]] = {}
    for rows in runs:
        by: Dict[Tuple[str, int, str], Dict[str, float]] = {}
        for mode, size, d, name, ns in rows:
            by.setdefault((mode, size, d), {})[name] = ns
        for case, libs in by.items():
            acc = cases.setdefault(case, {})
            for name, ns in libs.items():
                acc.setdefault(name, []).append(ns)
                if "pyca" in libs:
                    acc.setdefault(name + " ratio", []).append(libs["pyca"] / ns)
    names = ["aesir", "aesir into", "pyca", "pycryptodome", "aesir C loop"]
    print(f"\nmedians of {len(runs)} runs (ns per call; x: pyca's time / this one's)", file=out)
    print("| mode | size | dir | " + " | ".join(names) + " | aesir vs pyca |", file=out)
    print("|---|---:|---|" + "---:|" * (len(names) + 1), file=out)
    for (mode, size, d), acc in cases.items():
        cells = [f"{statistics.median(acc[n]):,.0f}" if n in acc else "-" for n in names]
        r = acc.get("aesir ratio")
        ratio = f"{statistics.median(r):.2f}x" if r else "-"
        print(f"| {mode} | {size} | {d} | " + " | ".join(cells) + f" | {ratio} |", file=out)


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m aesir.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--modes",
        default="gcm,ccm,ocb3,siv,gcm-siv",
        help="comma-separated: gcm, ccm, ocb3, siv, gcm-siv",
    )
    ap.add_argument(
        "--sizes",
        default="64,1024,16384,1048576",
        help="comma-separated message sizes in bytes",
    )
    ap.add_argument(
        "--budget",
        type=float,
        default=0.25,
        help="seconds per timed case (default 0.25)",
    )
    ap.add_argument(
        "--quick", action="store_true", help="GCM only, short budget (a smoke run: CI)"
    )
    ap.add_argument(
        "--runs",
        type=int,
        default=1,
        help="whole runs; with more than one, a table of medians follows (1)",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="timed batches per library and case, best kept (5)",
    )
    a = ap.parse_args(argv)
    modes = a.modes.split(",")
    bad = [x for x in modes if x not in NONCES]
    if bad:
        ap.error(f"unknown mode {bad[0]!r}")
    try:
        sizes = [int(x) for x in a.sizes.split(",")]
    except ValueError:
        ap.error(f"bad --sizes {a.sizes!r}")
    if a.quick:
        modes, a.budget = ["gcm"], 0.02
    runs = [run(modes, sizes, a.budget, max(1, a.rounds)) for _ in range(max(1, a.runs))]
    if len(runs) > 1:
        medians(runs)


if __name__ == "__main__":
    main()
