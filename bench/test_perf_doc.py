#!/usr/bin/env python3
"""test_perf_doc.py -- perf_doc.py judges bound targets by the same run's
bound rows (bench/impl_bound.c), falls back to the limit row without them,
and never counts a bound row as a peer. A fixture of made-up cells, no
benchmark run: ctest bench_perf_doc.

    python3 bench/test_perf_doc.py [path/to/perf_doc.py]
"""
import importlib.util
import os
import sys


def load(path):
    spec = importlib.util.spec_from_file_location("perf_doc", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cell(impl, group, op, bits, size, gbps):
    """A results.json cell; TSC c/B from GB/s at a 2.6 GHz TSC."""
    return {"impl": impl, "group": group, "op": op, "key_bits": bits,
            "size": size, "messages": 1, "gbps": gbps,
            "cpb_tsc": 2.6 / gbps, "cpb_core": None, "noisy": False}


def run_data(with_bounds):
    """A grid-like run: aesir, a peer faster than aesir at 16 KiB ctr
    only when bound rows count as peers (they must not), and (optionally)
    the bound rows. The limit row says 60 GB/s for ctr, the bound rows
    50: the two give different shares."""
    res = [cell("aesir/vaes-avx512", "aesir", "ctr", 128, 16384, 45.0),
           cell("ipsec-mb", "peer", "ctr", 128, 16384, 25.0),
           cell("aesir/vaes-avx512", "aesir", "cbc-enc", 128, 16384, 1.6),
           cell("aesir/default", "aesir", "gcm-enc", 128, 16384, 30.0),
           cell("aesir/default", "aesir", "gcm-enc", 128, 576, 16.0),
           cell("aesir/default", "aesir", "xts-enc", 128, 16384, 44.0),
           cell("aesir/default", "aesir", "cmac", 128, 16384, 1.6)]
    impls = [{"name": "aesir/vaes-avx512", "group": "aesir"},
             {"name": "aesir/default", "group": "aesir"},
             {"name": "ipsec-mb", "group": "peer"}]
    if with_bounds:
        res += [cell("bound/aes", "bound", "ctr", 128, 16384, 50.0),
                cell("bound/chain", "bound", "cbc-enc", 128, 16384, 1.65),
                cell("bound/gcm", "bound", "gcm-enc", 128, 16384, 34.0),
                cell("bound/gcm", "bound", "gcm-enc", 128, 576, 17.0),
                cell("bound/aes", "bound", "xts-enc", 128, 16384, 50.0),
                cell("bound/chain", "bound", "cmac", 128, 16384, 1.65)]
        impls += [{"name": "bound/aes", "group": "bound"},
                  {"name": "bound/gcm", "group": "bound"},
                  {"name": "bound/chain", "group": "bound"}]
    limit = {"aes_latency": 4.0, "core_ghz": 4.0,
             "ctr": [{"key_bits": 128, "gbps": 60.0, "cpb_core": 0.0667,
                      "cpb_tsc": 2.6 / 60.0}],
             "gcm": [{"key_bits": 128, "gbps": 40.0, "cpb_core": 0.1,
                      "cpb_tsc": 2.6 / 40.0}],
             "chain": [{"key_bits": 128, "gbps": 2.0, "cpb_core": 2.5,
                        "cpb_tsc": 1.3}]}
    return {"meta": {"aesir_default_engine": "vaes-avx512",
                     "aesir_default_ghash": "ghash-vpclmul-avx512",
                     "perf_core_cycles": False, "command": "fixture"},
            "impls": impls, "results": res, "limit": limit, "notes": [],
            "keysetup": []}


def row(lines, start, asks=None):
    """The cells of the one row starting with start (and, for a target,
    whose "asks" column contains asks)."""
    hits = [l for l in lines if l.startswith("| " + start + " |") and
            (asks is None or asks in l.split("|")[2])]
    if len(hits) != 1:
        raise AssertionError("want one row %r, got %r" % (start, hits))
    return [x.strip() for x in hits[0].strip("|").split("|")]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    pd = load(sys.argv[1] if len(sys.argv) > 1 else
              os.path.join(here, "perf_doc.py"))
    fails = []

    def check(what, got, want):
        if got != want:
            fails.append("%s: got %r, want %r" % (what, got, want))

    same, lim = run_data(True), run_data(False)
    # speed targets (targets): ctr against bound/aes of the same run
    t = pd.targets(same, None)
    r = row(t, "ctr AES-128 16 KiB", "bound")
    check("ctr share, same run", r[4], "90.0%")
    check("ctr compared with", r[3], "bound/aes 50.0 (same run)")
    check("ctr verdict", r[5], "**missed**")  # 90.0% < 90.9%
    # cbc-enc against bound/chain
    r = row(t, "cbc-enc AES-128 16 KiB", "latency bound")
    check("cbc-enc share, same run", r[4], "%s%%" % pd.fmt3(100 * 1.6 / 1.65))
    check("cbc-enc compared with", r[3].split(" (")[0], "bound/chain 1.65")
    # without bound rows: the limit row
    r = row(pd.targets(lim, None), "ctr AES-128 16 KiB", "bound")
    check("ctr share, limit row", r[4], "75.0%")
    check("ctr compared with, limit", r[3], "limit row 60.0")
    # the bound row is no peer: ipsec-mb is the fastest peer
    r = row(t, "ctr AES-128 16 KiB", "fastest peer")
    check("fastest peer", r[3], "ipsec-mb 25.0")
    # GCM targets: bound/gcm of the GCM run
    g = pd.gcm_targets(same, same, None, None)
    r = row(g, "gcm-enc AES-128 16 KiB", "GCM bound")
    check("gcm share", r[4], "%s%%" % pd.fmt3(100 * 30 / 34.0))
    check("gcm compared with", r[3], "GCM bound: bound/gcm 34.0 (same run)")
    # modes targets: xts against bound/aes, cmac against bound/chain
    m = pd.modes_targets(same, same)
    r = row(m, "xts-enc AES-128 16 KiB", "AES bound")
    check("xts share", r[4], "88.0%")
    check("xts compared with", r[3], "AES bound: bound/aes 50.0 (same run)")
    r = row(m, "cmac AES-128 16 KiB", "one-chain")
    check("cmac share", r[4], "%s%%" % pd.fmt3(100 * 1.6 / 1.65))
    # tables: the of-bound row, same run vs limit row (L); bound/gcm at
    # 576 B (not whole 1 KiB iterations) falls back to the limit row
    tb = pd.tables(same, cpb=False)
    i = tb.index("### ctr, AES-128 (GB/s)")
    check("table of bound", row(tb[i:i + 8], "*of bound*"), ["*of bound*",
                                                              "90.0%"])
    check("table peer bold", "**25.0**" in row(tb[i:i + 8], "ipsec-mb"),
          True)
    i = tb.index("### gcm-enc, AES-128 (GB/s)")
    check("gcm table of bound", row(tb[i:i + 8], "*of bound*"),
          ["*of bound*", "%s%% L" % pd.fmt3(100 * 16 / 40.0),
           "%s%%" % pd.fmt3(100 * 30 / 34.0)])
    tl = pd.tables(lim, cpb=False)
    i = tl.index("### ctr, AES-128 (GB/s)")
    check("table of bound, limit", row(tl[i:i + 8], "*of bound*"),
          ["*of bound*", "75.0% L"])
    for f in fails:
        print("FAIL", f)
    print("perf_doc bound rows: %s" % ("FAILED" if fails else "OK"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
