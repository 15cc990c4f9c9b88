#!/usr/bin/env python3
"""perf_doc.py -- writes docs/PERFORMANCE.md from an aesir-bench run.

    python3 bench/perf_doc.py build/bench docs/PERFORMANCE.md \
        [KEYSETUP_DIR [GCM_DIR [GCM_SW_DIR]]]

`make perf-doc` runs the full grid (`make speed-full`) and then this; the
document is generated, never edited by hand. It reads results.json (every
measurement and how the run was made) and tables.txt (for the limit row,
quoted as aesir-bench printed it), and adds what the run cannot know
about itself: the git commit and the peer packages' versions. The
optional directories hold the smaller runs `make perf-doc` makes after
the grid (see the Makefile): key setups in a process of their own, the
GCM target sizes (odd lengths among them) with the default aesir engine
and the peers, and software GCM under AESIR_CPU_DISABLE against
openssl-noaesni.
"""
import json
import os
import subprocess
import sys
from collections import defaultdict

PEER_PACKAGES = ["libssl-dev", "libgcrypt20-dev", "nettle-dev",
                 "libsodium-dev", "libipsec-mb-dev", "libbearssl-dev",
                 "libwolfssl-dev", "libmbedtls-dev"]


def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def size_label(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return "%d MiB" % (n >> 20)
    if n >= 1024 and n % 1024 == 0:
        return "%d KiB" % (n >> 10)
    return "%d B" % n


def fmt3(v):
    if v is None:
        return "-"
    if v < 0.0099995:
        return "%.4f" % v
    if v < 0.9995:
        return "%.3f" % v
    if v < 9.995:
        return "%.2f" % v
    if v < 99.95:
        return "%.1f" % v
    return "%.0f" % v


BOUND_NOTE = (
    "Bounds are timed as rows of the same run: `bound/aes` executes the "
    "AES-instruction bound's instructions for each cell's bytes "
    "(ceil(bytes/64) zmm vectors x nr vaesenc/vaesenclast in 16 "
    "independent chains), `bound/gcm` the limit row's GCM mix kernel "
    "(ceil(bytes/1024) iterations of 64 blocks), `bound/chain` one "
    "dependent chain of nr aesenc per 16-byte block (the one-chain "
    "latency bound, also cbc-enc's); none touches memory (bench/"
    "impl_bound.c, docs/BENCHMARK.md). They are interleaved round by "
    "round with aesir and the peers, so a share of a bound is bound "
    "cycles / aesir cycles of one op, key size and size measured "
    "milliseconds apart, at one clock. The limit row, measured once at "
    "the start of the grid, is used only where a run has no bound row "
    "(and for GCM messages that are not a multiple of 1 KiB): the core "
    "clock of the Zen 5 VM drifts 3.2-4.4 GHz within minutes, which "
    "moved shares of unchanged code 3-7 points between runs. In the "
    "tables a bound row shows its own figures (the GB/s of the bound's "
    "instructions); it is never a peer.")


CLOCK_NOTE = (
    "Without a core cycle counter a fraction of a bound is a ratio of TSC "
    "cycles: against a same-run bound row, both timed at one clock; "
    "against the limit row, it assumes the limit row's clock. "
    "aesir-bench also "
    "records an add-chain estimate of the core clock before and after "
    "every row (core_per_tick in results.json); it is not used: on the "
    "Zen 5 VM of 2026-11-27 it read 2-6% above the limit row's while "
    "the TSC ratios agreed within about 1 point with shares timed in one "
    "process, the bound and the calls interleaved (ecb AES-128 16 KiB "
    "99.5% by TSC, 97.9% at the row's add-chain clock, 99.1-99.6% in "
    "one process; docs/engines/vaes.md, docs/modes/ocb.md, "
    "docs/modes/xts.md): scalar adds run at a higher clock than the "
    "vector code around them.")


def bound_share(c, b):
    """The fraction of bound b that cell c reaches: in core cycles per
    byte where the run had perf's core cycles, else in TSC cycles (which
    assumes the limit row's clock), else GB/s. Not at the add-chain clock
    aesir-bench records around each row (core_per_tick): see CLOCK_NOTE."""
    if c.get("cpb_core") and b.get("cpb_core"):
        return b["cpb_core"] / c["cpb_core"]
    if c.get("cpb_tsc") and b.get("cpb_tsc"):
        return b["cpb_tsc"] / c["cpb_tsc"]
    return c["gbps"] / b["gbps"]


# The bound impls (bench/impl_bound.c, group "bound"): each bound kind's
# instructions timed as a row of the run itself.
BOUND_IMPL = {"ctr": "bound/aes", "gcm": "bound/gcm", "chain": "bound/chain"}


def not_peer(group):
    """aesir's rows and the bound rows are never "the fastest peer"."""
    return group in ("aesir", "bound")


def same_run_bound(cells, kind, op, bits, size):
    """The bound impl's cell for kind ("ctr", "gcm", "chain") in the same
    run, op, key size and message size, or None. cells: {(impl, op, bits,
    size): cell}. bound/gcm runs whole 64-block iterations of the GCM mix,
    so its cell is the bound only where the message is a multiple of
    1 KiB; elsewhere None (the limit row's bound is used)."""
    name = BOUND_IMPL.get(kind or "")
    if name is None or (kind == "gcm" and size % 1024):
        return None
    return cells.get((name, op, bits, size))


def share_of(c, cells, kind, op, bits, size, limit_bound):
    """(fraction, what it was compared with) for cell c against its bound:
    the same run's bound impl cell when there is one, else the limit row's
    bound (limit_bound, may be None); (None, None) without either."""
    b = same_run_bound(cells, kind, op, bits, size)
    if b:
        return bound_share(c, b), "%s %s (same run)" % (
            BOUND_IMPL[kind], fmt3(b["gbps"]))
    if limit_bound:
        return bound_share(c, limit_bound), "limit row %s" % fmt3(
            limit_bound["gbps"])
    return None, None


def limit_block(dirname):
    """The limit row as aesir-bench printed it, or None."""
    try:
        with open(os.path.join(dirname, "tables.txt")) as f:
            text = f.read()
    except OSError:
        return None
    start = text.find("== limit row")
    if start < 0:
        return None
    end = text.find("\n== ", start + 1)
    return text[start:end if end > 0 else len(text)].rstrip()


def peer_versions():
    out = []
    for p in PEER_PACKAGES:
        v = sh("dpkg-query", "-W", "-f=${Version}", p)
        out.append("%s %s" % (p, v if v else "(not installed)"))
    return out


def header(meta, limit):
    commit = sh("git", "rev-parse", "--short", "HEAD")
    dirty = sh("git", "status", "--porcelain", "--untracked-files=no")
    ratio = ""
    if meta.get("core_clock_ratio_min") is not None:
        lo = meta["core_clock_ratio_min"]
        hi = meta["core_clock_ratio_max"]
        ghz = meta["tick_hz"] / 1e9
        ratio = ("%.3f .. %.3f (%s), i.e. %.2f .. %.2f GHz"
                 % (lo, hi, meta["core_clock_ratio_source"], lo * ghz,
                    hi * ghz))
    lines = [
        "# aesir performance",
        "",
        "Generated by `make perf-doc` (`bench/perf_doc.py`) from one run of "
        "the full benchmark grid on the machine below; do not edit by hand "
        "-- rerun `make perf-doc`.",
        "",
        "| | |",
        "|---|---|",
        "| date | %s |" % meta["date"],
        "| aesir | %s, commit %s%s |" % (meta["aesir_version"],
                                         commit or "?",
                                         " (with local changes)" if dirty
                                         else ""),
        "| CPU | %s, %d logical CPUs |" % (meta["cpu"], os.cpu_count() or 0),
        "| CPU flags (AES-relevant) | %s |" % meta["cpu_flags"],
        "| compiler, flags | %s |" % meta.get("build_flags",
                                              meta.get("compiler", "?")),
        "| timer | %s at %.4f GHz (calibrated against CLOCK_MONOTONIC; "
        "invariant: %s) |" % ("TSC (rdtsc)" if meta["timer"] == "tsc"
                              else meta["timer"], meta["tick_hz"] / 1e9,
                              "yes" if meta["tsc_invariant"] else "no"),
        "| core cycles | %s |" % meta["perf_status"],
        "| core clock / TSC over the run | %s |" % (ratio or "not measured"),
        "| method | median of %d rounds (>= %g ms, doubled below 1 KiB) per "
        "cell, impls interleaved round by round, preempted rounds rerun "
        "(slack %gx), %d passes, best pass kept; buffers %s |"
        % (meta["rounds"], meta["round_ms"], meta["slack"], meta["passes"],
           ("misaligned (+1)" if meta["misaligned"] else "page-aligned")
           + ", output %d bytes past a page" % meta.get("out_offset", 0)),
        "| peers built | %s |" % (meta["peers_built"] or "none"),
        "| peers not built | %s |" % (meta["peers_missing"] or "none"),
        "| peer packages | %s |" % ", ".join(peer_versions()),
        "| grid time | %.0f s |" % meta["seconds"],
        "",
        "Commands: `make perf-doc`, that is `make speed-full` (build, "
        "then `%s`, then `python3 bench/plot.py`) and `python3 "
        "bench/perf_doc.py`." % meta["command"],
        "",
        "GB/s are 10^9 bytes per second of message processed, one message "
        "per call with a fresh IV, key setup excluded. Cycles per byte are "
        "%s. **Bold**: the best peer of a column; under each aesir row, "
        "*vs best peer* is aesir's speed divided by that peer's, and *of "
        "bound* the fraction of the bound it reaches (the AES "
        "bound; for gcm-enc and gcm-dec, GCM-SIV and XAES-256-GCM the GCM "
        "bound; for CMAC, CCM and SIV the one-chain latency bound; none for "
        "gmac, ghash, KW and AEGIS), from the same run's bound row where "
        "there is one (a figure marked L comes from the limit row). %s %s "
        "~ marks a figure measured while "
        "the machine was busy (fewer than half its rounds clean in every "
        "pass)."
        % ("core cycles (perf)" if meta["perf_core_cycles"] else
           "TSC cycles (no core cycle counter here)", BOUND_NOTE,
           CLOCK_NOTE),
    ]
    if limit:
        lines += ["", "## Limit row", "", "```", limit, "```"]
    return lines


# The multi-buffer ops' common prefixes, each with its title.
MB = {"mb-cbc-enc": "CBC encryption", "mb-cbc-mac": "CBC-MAC"}


def mb_group(op):
    """The multi-buffer prefix op belongs to, or None."""
    return next((p for p in MB if op.startswith(p + "-")), None)


def bound_kind(op):
    """The bound an op's table shows, as aesir-bench prints it
    (output.c, bench_op_bound_kind): "gcm" (the GCM ops, GCM-SIV,
    XAES-256-GCM), "chain" (the one-chain bound: CMAC, CCM, SIV), None
    (gmac, ghash, KW, AEGIS) or "ctr" (the AES-instruction bound)."""
    if op in ("gmac", "ghash", "kw-wrap", "kw-unwrap") or \
            op.startswith("aegis"):
        return None
    if op in ("gcm-enc", "gcm-dec", "gcm-siv-enc", "gcm-siv-dec",
              "xaes-gcm-enc"):
        return "gcm"
    if op in ("cmac", "ccm-enc", "ccm-dec", "siv-enc", "siv-dec"):
        return "chain"
    return "ctr"


def tables(data, cpb, limit=None):
    """One table per op and key size, a column per message size; the
    multi-buffer ops (mb-cbc-enc-N, mb-cbc-mac-N) in one table per kind and
    key size, a column
    per number of messages in flight. limit: the limit row to take the
    bounds from (default: data's own)."""
    res = defaultdict(dict)  # (op, bits) -> {(impl, column): row}
    columns = defaultdict(set)  # op -> columns
    mb_size = None
    flat = {(r["impl"], r["op"], r["key_bits"], r["size"]): r
            for r in data["results"]}
    for r in data["results"]:
        op, col = r["op"], r["size"]
        if mb_group(op):
            op, col, mb_size = mb_group(op), r.get("messages", 1), r["size"]
        res[(op, r["key_bits"])][(r["impl"], col)] = r
        columns[op].add(col)
    order = [i["name"] for i in data["impls"]]
    groups = {i["name"]: i["group"] for i in data["impls"]}
    # the AES bound; for gcm-enc and gcm-dec the GCM bound; none for gmac
    # and ghash (as aesir-bench prints them); bound_kind() for issue 19's
    limit = limit or data.get("limit") or {}
    kinds = {k: {b["key_bits"]: b for b in limit.get(k) or []}
             for k in ("ctr", "gcm", "chain")}
    ops = []
    for r in data["results"]:
        op = mb_group(r["op"]) or r["op"]
        if op not in ops:
            ops.append(op)
    core = data["meta"]["perf_core_cycles"]
    out = []
    for op in ops:
        sizes = sorted(columns[op])
        obounds = kinds.get(bound_kind(op) or "", {})
        for bits in (128, 192, 256):
            cells = res.get((op, bits))
            if not cells:
                continue
            best = {}
            for s in sizes:
                peers = [(c["gbps"], i) for (i, sz), c in cells.items()
                         if sz == s and not not_peer(groups.get(i))]
                best[s] = max(peers)[1] if peers else None
            unit = ("core cycles/byte" if core else "TSC cycles/byte") \
                if cpb else "GB/s"
            if op in MB:
                title = ("multi-buffer %s, AES-%d: N messages "
                         "of %s in flight (%s of all N)"
                         % (MB[op], bits, size_label(mb_size), unit))
                heads = ["N=%d" % s for s in sizes]
            else:
                title = "%s, AES-%d (%s)" % (op, bits, unit)
                heads = [size_label(s) for s in sizes]
            out += ["", "### " + title, "",
                    "| impl | " + " | ".join(heads) + " |",
                    "|---|" + "---:|" * len(sizes)]
            for impl in order:
                if not any((impl, s) in cells for s in sizes):
                    continue
                row = []
                for s in sizes:
                    c = cells.get((impl, s))
                    if c is None:
                        row.append("-")
                        continue
                    v = (c["cpb_core"] if core else c["cpb_tsc"]) if cpb \
                        else c["gbps"]
                    t = fmt3(v) + ("~" if c.get("noisy") else "")
                    row.append("**%s**" % t if best[s] == impl else t)
                out.append("| %s | %s |" % (impl, " | ".join(row)))
                if groups.get(impl) != "aesir" or cpb:
                    continue
                vs, ofb, anyb = [], [], False
                for s in sizes:
                    c = cells.get((impl, s))
                    b = cells.get((best[s], s)) if best[s] else None
                    vs.append("%sx" % fmt3(c["gbps"] / b["gbps"])
                              if c and b else "-")
                    fr, src = share_of(c, flat, bound_kind(op), c["op"],
                                       bits, c["size"],
                                       obounds.get(bits)) if c else (None,
                                                                     None)
                    if fr is not None:
                        ofb.append("%s%%%s" % (
                            fmt3(100 * fr),
                            "" if src.endswith("(same run)") else " L"))
                    else:
                        ofb.append("-")
                    anyb = anyb or fr is not None
                if any(best.values()):  # no row where no peer runs the op
                    out.append("| *vs best peer* | %s |" % " | ".join(vs))
                if anyb:
                    out.append("| *of bound* | %s |" % " | ".join(ofb))
    return out


def keysetup(data, title, blurb):
    rows = defaultdict(dict)
    aes = [k for k in data["keysetup"] if k["direction"] != "gcm"]
    for k in aes:
        rows[k["impl"]][(k["key_bits"], k["direction"])] = k
    bits = sorted({k["key_bits"] for k in aes})
    out = ["", title, "", blurb, "",
           "| impl | " + " | ".join("AES-%d" % b for b in bits) + " |",
           "|---|" + "---:|" * len(bits)]
    for i in data["impls"]:
        r = rows.get(i["name"])
        if not r:
            continue
        cells = []
        for b in bits:
            e, d = r.get((b, "encrypt")), r.get((b, "decrypt"))
            plus = any(x and x["method"] != "keysetup" for x in (e, d))
            cells.append("%s / %s%s" % (
                fmt3(e["setups_per_sec"] / 1e6) if e else "-",
                fmt3(d["setups_per_sec"] / 1e6) if d else "-",
                " +" if plus else ""))
        out.append("| %s | %s |" % (i["name"], " | ".join(cells)))
    return out


def keysetup_gcm(data, title, blurb):
    """GCM key setups (direction "gcm"): one figure per impl and key
    size."""
    rows = defaultdict(dict)
    gcm = [k for k in data["keysetup"] if k["direction"] == "gcm"]
    for k in gcm:
        rows[k["impl"]][k["key_bits"]] = k
    bits = sorted({k["key_bits"] for k in gcm})
    if not gcm:
        return []
    out = ["", title, "", blurb, "",
           "| impl | " + " | ".join("AES-%d" % b for b in bits) + " |",
           "|---|" + "---:|" * len(bits)]
    for i in data["impls"]:
        r = rows.get(i["name"])
        if not r:
            continue
        out.append("| %s | %s |" % (i["name"], " | ".join(
            (fmt3(r[b]["setups_per_sec"] / 1e6) +
             (" +" if r[b]["method"] != "keysetup" else "")) if b in r
            else "-" for b in bits)))
    return out


def ratio_cell(v, need):
    """v as a ratio, with whether it meets need (v >= need)."""
    return "%sx" % fmt3(v), v >= need


def targets(data, ks):
    """Issue 5's speed targets, one row per cell: the default engine's
    figure against what the target compares it with, the ratio and
    whether the target is met in this run."""
    eng = data["meta"].get("aesir_default_engine")
    if not eng:
        return []
    me = "aesir/" + eng
    groups = {i["name"]: i["group"] for i in data["impls"]}
    cell = {}
    for r in data["results"]:
        cell[(r["impl"], r["op"], r["key_bits"], r["size"])] = r
    limit = data.get("limit") or {}
    bounds = {b["key_bits"]: b for b in limit.get("ctr", [])}

    def peer(op, bits, size, only=None):
        c = [(r["gbps"], i) for (i, o, b, sz), r in cell.items()
             if o == op and b == bits and sz == size
             and not not_peer(groups.get(i)) and (only is None or i == only)]
        return max(c) if c else None

    rows = []

    def add(what, asks, ours, versus, ratio, ok):
        rows.append("| %s | %s | %s | %s | %s | %s |" % (
            what, asks, ours, versus, ratio,
            "met" if ok else "**missed**"))

    def mine(op, bits, size):
        """The default engine's cell: the "aesir/default" row where the
        run has one (the multi-buffer ops), else the engine's own."""
        return cell.get(("aesir/default", op, bits, size)) or \
            cell.get((me, op, bits, size))

    def vs_peer(op, bits, size, need, asks, only=None, what=None):
        c = mine(op, bits, size)
        p = peer(op, bits, size, only)
        if not c or not p:
            return
        r, ok = ratio_cell(c["gbps"] / p[0], need)
        add(what or "%s AES-%d %s" % (op, bits, size_label(size)), asks,
            fmt3(c["gbps"]), "%s %s" % (p[1], fmt3(p[0])), r, ok)

    # Throughput near the bound, and at least the fastest peer.
    for op in ("ctr", "ecb-enc", "ecb-dec", "cbc-dec"):
        for size in ((16384, 1 << 20) if op != "cbc-dec" else (16384,)):
            c = mine(op, 128, size)
            fr, src = share_of(c, cell, "ctr", op, 128, size,
                               bounds.get(128)) if c else (None, None)
            if fr is not None:
                add("%s AES-128 %s" % (op, size_label(size)),
                    "within 1.1x of the bound (90.9%)", fmt3(c["gbps"]),
                    src, "%s%%" % fmt3(100 * fr), fr * 1.1 >= 1)
            vs_peer(op, 128, size, 1.0, "at least the fastest peer")
    for op, size in (("cbc-dec", 576), ("cfb128-dec", 576), ("ctr", 64),
                     ("ctr", 576)):
        vs_peer(op, 128, size, 1.2, "1.2x the fastest peer")
    # CBC encryption: nr dependent AES rounds a block.
    lat, ghz = limit.get("aes_latency"), limit.get("core_ghz")
    for bits, nr in ((128, 10), (256, 14)):
        c = mine("cbc-enc", bits, 16384)
        b = same_run_bound(cell, "chain", "cbc-enc", bits, 16384)
        if c and b:
            fr = bound_share(c, b)
            add("cbc-enc AES-%d 16 KiB" % bits,
                "within 1.05x of the latency bound (95.2%)", fmt3(c["gbps"]),
                "bound/chain %s (same run: %d dependent rounds a block)" % (
                    fmt3(b["gbps"]), nr),
                "%s%%" % fmt3(100 * fr), fr * 1.05 >= 1)
        elif c and lat and ghz:
            bound = ghz * 16 / (nr * lat)
            fr = bound_share(c, {"cpb_core": nr * lat / 16.0,
                                 "gbps": bound})
            add("cbc-enc AES-%d 16 KiB" % bits,
                "within 1.05x of the latency bound (95.2%)", fmt3(c["gbps"]),
                "%d x %s cycles a block (%s at %s GHz)" % (
                    nr, fmt3(lat), fmt3(bound), fmt3(ghz)),
                "%s%%" % fmt3(100 * fr), fr * 1.05 >= 1)
    # Multi-buffer CBC encryption against intel-ipsec-mb's manager.
    for n in (8, 16):
        for bits in (128, 256):
            vs_peer("mb-cbc-enc-%d" % n, bits, 4096, 1.0,
                    "at least intel-ipsec-mb's manager", only="ipsec-mb",
                    what="multi-buffer CBC enc AES-%d, %d x 4 KiB" % (
                        bits, n))
    # Key setups.
    if ks:
        kg = {i["name"]: i["group"] for i in ks["impls"]}
        kr = {(k["impl"], k["key_bits"], k["direction"]): k
              for k in ks["keysetup"]}
        for bits in (128, 192, 256):
            for d in ("encrypt", "decrypt"):
                c = kr.get((me, bits, d))
                p = [(k["setups_per_sec"], k["impl"])
                     for (i, b, dd), k in kr.items()
                     if b == bits and dd == d and not not_peer(kg.get(i))]
                if not c or not p:
                    continue
                p = max(p)
                r, ok = ratio_cell(c["setups_per_sec"] / p[0], 1.0)
                add("key setup AES-%d, %s schedule" % (bits, d),
                    "at least the fastest peer",
                    "%s M/s" % fmt3(c["setups_per_sec"] / 1e6),
                    "%s %s M/s" % (p[1], fmt3(p[0] / 1e6)), r, ok)
    if not rows:
        return []
    return ["", "## Speed targets", "",
            "The speed targets of the hardware engines (issue 5), each "
            "checked in this run: the default engine here (`%s`) against "
            "a bound or the fastest peer measured in the same run. "
            "GB/s unless marked; the ratio is ours divided by the figure "
            "compared with, or for a bound the fraction of it reached: "
            "against the same run's bound row (`bound/aes`, `bound/chain`: "
            "bound cycles / aesir cycles of the same cell) where the run "
            "has one, else the limit row. "
            "Ratios within a few percent of 1 are parity: they move by "
            "about that much from run to run on this shared machine. Only "
            "the limit-row fractions assume the limit row's core clock "
            "(above)." % me,
            "",
            "| target cell | asks | aesir | against | ratio | |",
            "|---|---|---:|---|---:|---|"] + rows


def gcm_targets(data, gcm, sw, ks):
    """Issue 18's GCM speed targets, one row per cell. gcm-enc and gcm-dec
    come from the GCM run (gcm: every target size, the odd ones among
    them, in one run with the peers) or else the grid; GMAC from the grid;
    the bound from the grid's limit row; key setup from ks; software GCM
    from the AESIR_CPU_DISABLE run (sw). aesir's figure is "aesir/default"
    (the default AES and GHASH engines), else the default engine's row."""
    rows = []
    eng = data["meta"].get("aesir_default_engine")

    def index(d):
        if not d:
            return {}, {}
        return ({(r["impl"], r["op"], r["key_bits"], r["size"]): r
                 for r in d["results"]},
                {i["name"]: i["group"] for i in d["impls"]})

    def mine(cells, op, bits, size):
        return cells.get(("aesir/default", op, bits, size)) or \
            cells.get(("aesir/%s" % eng, op, bits, size))

    def peer(cells, groups, op, bits, size, only=None):
        c = [(r["gbps"], i) for (i, o, b, sz), r in cells.items()
             if o == op and b == bits and sz == size
             and groups.get(i) == "peer" and (only is None or i == only)]
        return max(c) if c else None

    def add(what, asks, ours, versus, ratio, ok):
        rows.append("| %s | %s | %s | %s | %s | %s |" % (
            what, asks, ours, versus, ratio,
            "met" if ok else "**missed**"))

    def vs_peer(cells, groups, op, bits, size, need, only=None, what=None):
        c = mine(cells, op, bits, size)
        p = peer(cells, groups, op, bits, size, only)
        if not c or not p:
            return
        r, ok = ratio_cell(c["gbps"] / p[0], need)
        add(what or "%s AES-%d %s" % (op, bits, size_label(size)),
            "%gx the fastest peer" % need if only is None
            else "%gx %s" % (need, only),
            fmt3(c["gbps"]), "%s %s" % (p[1], fmt3(p[0])), r, ok)

    cells, groups = index(gcm or data)
    grid, ggroups = index(data)
    limit = data.get("limit") or {}
    bounds = {b["key_bits"]: b for b in limit.get("gcm", [])}
    for bits in (128, 256):
        for op in ("gcm-enc", "gcm-dec"):
            for size in (16384, 1 << 20):
                vs_peer(cells, groups, op, bits, size, 1.15)
                c = mine(cells, op, bits, size)
                fr, src = share_of(c, cells, "gcm", op, bits, size,
                                   bounds.get(bits)) if c else (None, None)
                if fr is not None:
                    add("%s AES-%d %s" % (op, bits, size_label(size)),
                        "85% of the GCM bound", fmt3(c["gbps"]),
                        "GCM bound: " + src,
                        "%s%%" % fmt3(100 * fr), fr >= 0.85)
            for size, need in ((576, 1.2), (1420, 1.2), (64, 1.3)):
                vs_peer(cells, groups, op, bits, size, need)
            for odd, even in ((63, 64), (500, 512), (4095, 4096)):
                c, e = mine(cells, op, bits, odd), mine(cells, op, bits, even)
                if c and e:
                    fr = c["gbps"] / e["gbps"]
                    add("%s AES-%d %d B" % (op, bits, odd),
                        "within 15%% of %d B (0.85x)" % even,
                        fmt3(c["gbps"]), "%d B: %s" % (even, fmt3(e["gbps"])),
                        "%sx" % fmt3(fr), fr >= 0.85)
        vs_peer(grid, ggroups, "gmac", bits, 16384, 1.15)
    if ks:
        kg = {i["name"]: i["group"] for i in ks["impls"]}
        kr = {(k["impl"], k["key_bits"]): k for k in ks["keysetup"]
              if k["direction"] == "gcm"}
        for bits in (128, 192, 256):
            c = kr.get(("aesir/%s" % eng, bits)) or \
                kr.get(("aesir/default", bits))
            p = [(k["setups_per_sec"], i) for (i, b), k in kr.items()
                 if b == bits and kg.get(i) == "peer"]
            if not c or not p:
                continue
            p = max(p)
            r, ok = ratio_cell(c["setups_per_sec"] / p[0], 1.0)
            add("GCM key setup AES-%d" % bits, "at least the fastest peer",
                "%s M/s" % fmt3(c["setups_per_sec"] / 1e6),
                "%s %s M/s" % (p[1], fmt3(p[0] / 1e6)), r, ok)
    swcells, swgroups = index(sw)
    for bits in (128, 256):
        for op in ("gcm-enc", "gcm-dec"):
            vs_peer(swcells, swgroups, op, bits, 16384, 1.5,
                    only="openssl-noaesni",
                    what="software GCM, %s AES-%d 16 KiB" % (op, bits))
    if not rows:
        return []
    swm = (sw or {}).get("meta", {})
    text = [
        "", "### GCM (issue 18)", "",
        "aesir's figure is `aesir/default`: the default AES engine (`%s`) "
        "and GHASH engine (`%s`), what `aesir_gcm_init` gives a program. "
        "gcm-enc and gcm-dec are taken from a run of their own (`make "
        "perf-doc`: `aesir-bench --impls aesir/default,<the GCM peers "
        "with their hardware paths> --ops gcm-enc,gcm-dec --keys 128,256 "
        "--sizes 63,64,500,512,576,1420,4095,4096,16384,1048576 --passes "
        "3 --no-limit`, with bound/gcm, tables below), so each ratio, odd "
        "lengths "
        "included, is a same-run one; GMAC from the grid; the GCM bound "
        "is the same run's `bound/gcm` row (the limit row's instruction "
        "mix of GCM blocks, timed in that run), else the limit row's. GCM "
        "key setup is the key-setup process's `gcm` kind (the "
        "schedule and the hash key with whatever powers or tables the "
        "library precomputes: libsodium's beforenm computes only H and "
        "leaves the powers to each message, BearSSL has no powers). "
        "Software GCM: aesir-bench under AESIR_CPU_DISABLE=%s, so aesir's "
        "default pair there is `%s` + `%s` (no AES, carry-less-multiply or "
        "GFNI instruction), against openssl-noaesni, whose capability "
        "vector masks AES-NI, PCLMULQDQ, VAES and VPCLMULQDQ: its GCM is "
        "vector-permute AES with a 4-bit-table GHASH (not constant-time)."
        % (data["meta"].get("aesir_default_engine", "?"),
           data["meta"].get("aesir_default_ghash", "?"),
           swm.get("aesir_cpu_disable") or "?",
           swm.get("aesir_default_engine", "?"),
           swm.get("aesir_default_ghash", "?")),
        "",
        "| target cell | asks | aesir | against | ratio | |",
        "|---|---|---:|---|---:|---|"]
    return text + rows


def modes_targets(modes, grid):
    """Issue 19's speed targets (point 5), one row per cell, from the
    modes run (modes: `make perf-doc`'s run of the new modes with
    aesir/default and the peers), the bounds from the grid's limit row,
    aesir's own AES-GCM from the modes run's gcm-enc/gcm-dec rows. A
    target whose cell is missing says "not measured (no row)": it is
    neither met nor missed."""
    rows = []
    if not modes:
        return []
    cells = {(r["impl"], r["op"], r["key_bits"], r["size"]): r
             for r in modes["results"]}
    groups = {i["name"]: i["group"] for i in modes["impls"]}
    limit = (grid or {}).get("limit") or modes.get("limit") or {}
    bounds = {k: {b["key_bits"]: b for b in limit.get(k) or []}
              for k in ("ctr", "chain")}
    core = modes["meta"].get("perf_core_cycles")

    def mine(op, bits, size):
        return cells.get(("aesir/default", op, bits, size))

    def peer(op, bits, size, only=None):
        c = [(r["gbps"], i) for (i, o, b, sz), r in cells.items()
             if o == op and b == bits and sz == size
             and groups.get(i) == "peer" and (only is None or i == only)]
        return max(c) if c else None

    def add(what, asks, ours, versus, ratio, ok):
        rows.append("| %s | %s | %s | %s | %s | %s |" % (
            what, asks, ours, versus, ratio,
            "not measured (no row)" if ok is None
            else "met" if ok else "**missed**"))

    def label(op, bits, size):
        return "%s AES-%d %s" % (op, bits, size_label(size))

    def vs_peer(op, bits, size, need, only=None):
        c, p = mine(op, bits, size), peer(op, bits, size, only)
        asks = ("%gx the fastest peer" % need if only is None
                else "%gx %s" % (need, only))
        if not c or not p:
            add(label(op, bits, size), asks,
                fmt3(c["gbps"]) if c else "-",
                "%s %s" % (p[1], fmt3(p[0])) if p else
                (only or "no peer row"), "-", None)
            return
        r, ok = ratio_cell(c["gbps"] / p[0], need)
        add(label(op, bits, size), asks, fmt3(c["gbps"]),
            "%s %s" % (p[1], fmt3(p[0])), r, ok)

    def of_bound(op, bits, size, kind, need):
        c, b = mine(op, bits, size), bounds[kind].get(bits)
        name = "AES bound" if kind == "ctr" else "one-chain bound"
        asks = "%g%% of the %s" % (100 * need, name)
        fr, src = share_of(c, cells, kind, op, bits, size, b) if c else \
            (None, None)
        if fr is None:
            add(label(op, bits, size), asks, fmt3(c["gbps"]) if c else "-",
                name + (" %s" % fmt3(b["gbps"]) if b else " (no limit row)"),
                "-", None)
            return
        add(label(op, bits, size), asks, fmt3(c["gbps"]),
            "%s: %s" % (name, src), "%s%%" % fmt3(100 * fr), fr >= need)

    def vs_own(op, bits, size, other, obits, need):
        c, o = mine(op, bits, size), mine(other, obits, size)
        asks = "%gx aesir %s AES-%d" % (need, other, obits)
        if not c or not o:
            add(label(op, bits, size), asks, fmt3(c["gbps"]) if c else "-",
                "aesir %s %s" % (other, fmt3(o["gbps"]) if o else "-"), "-",
                None)
            return
        r, ok = ratio_cell(c["gbps"] / o["gbps"], need)
        add(label(op, bits, size), asks, fmt3(c["gbps"]),
            "aesir %s %s" % (other, fmt3(o["gbps"])), r, ok)

    for bits in (128, 256):
        for op in ("xts-enc", "xts-dec", "ocb-enc", "ocb-dec"):
            xts = op.startswith("xts")
            for size in (16384, 1 << 20):
                vs_peer(op, bits, size, 1.25 if xts else 1.1)
                of_bound(op, bits, size, "ctr", 0.85 if xts else 0.88)
            vs_peer(op, bits, 576, 1.2)
        for op in ("cmac", "ccm-enc", "ccm-dec"):
            of_bound(op, bits, 16384, "chain", 0.97)
        for op in ("ccm-enc", "ccm-dec"):
            vs_own(op, bits, 16384, "cmac", bits, 0.97)
        vs_peer("mb-cmac-8", bits, 4096, 1.3, only="ipsec-mb")
        vs_own("gcm-siv-enc", bits, 16384, "gcm-enc", bits, 0.6)
        vs_own("gcm-siv-dec", bits, 16384, "gcm-dec", bits, 0.85)
        for op in ("gcm-siv-enc", "gcm-siv-dec"):
            vs_peer(op, bits, 16384, 1.2)
        for op in ("kw-wrap", "kw-unwrap", "siv-enc", "siv-dec"):
            for size in (32, 1024):
                vs_peer(op, bits, size, 1.0, only="openssl")
    for op, bits in (("aegis128l-enc", 128), ("aegis128l-dec", 128),
                     ("aegis256-enc", 256), ("aegis256-dec", 256)):
        for size in (576, 16384, 1 << 20):
            vs_peer(op, bits, size, 1.1, only="sodium")
    vs_own("aegis128x4-enc", 128, 16384, "gcm-enc", 128, 2.5)
    return [
        "", "### Issue 19's modes", "",
        "aesir's figure is `aesir/default` (the default engine, and the "
        "default GHASH engine for GCM-SIV), from the modes run (`%s`, "
        "tables below): every ratio is a same-run one. Bounds: the same "
        "run's bound rows, `bound/aes` (the AES-instruction bound) for XTS "
        "and OCB3 and `bound/chain` (the one-chain latency bound: nr "
        "dependent AES rounds per block, one CBC-MAC chain) for CMAC and "
        "CCM, else the grid's limit row. `sodium` is the current "
        "libsodium (built from the libsodium-sys-stable crate's source) "
        "when the peer cache has it, else Debian's 1.0.18, which has no "
        "AEGIS (then: no row). Missed targets: docs/modes/<mode>.md says "
        "what limits them." % modes["meta"]["command"],
        "",
        "| target cell | asks | aesir | against | ratio | |",
        "|---|---|---:|---|---:|---|"] + rows


GCM_ROWS = (
    "GCM rows. `aesir/<AES engine>` runs gcm-enc, gcm-dec and gmac with "
    "that AES engine and the default GHASH engine; `aesir/default` with "
    "both defaults. `aesir/ghash-<engine>` runs gmac with the "
    "default AES engine and that GHASH engine (ghash-table4 and "
    "ghash-table8 are not constant-time; ghash-ref, the oracle, has no "
    "row). ghash is GHASH alone from Y = 0 with no length block: the "
    "peers with a public GHASH (intel-ipsec-mb IMB_GHASH, nettle's GCM "
    "update, BearSSL's br_ghash) run exactly that; aesir has no "
    "GHASH-alone call, so its ghash row (`aesir/default`) runs aesir_gmac "
    "over the same blocks, which adds one multiply (the length block), one AES block "
    "(J0) and a XOR per message -- extra work counted against aesir, "
    "large at 16 B and under 1% from 2 KiB. `cell-table16` is the CellBE "
    "line of work's GHASH with 16 tables of 256 entries (64 KiB per key, "
    "bench/ghash_table16.c): a benchmark variant outside the library, "
    "NOT constant-time (its look-up indices are data).")


KS_UNITS = ("Millions of key schedules per second, encryption / decryption "
            "direction (aesir: aesir_aes_init_ex with that direction; "
            "ipsec-mb makes both schedules in every call); + marks "
            "libraries timed as setup() + release() because they have no "
            "separate key schedule call. The impls are timed in turns, "
            "one round each, and each figure is its median round (best of "
            "the passes).")


KS_GCM_UNITS = (
    "Millions of GCM key setups per second: the AES schedule and the hash "
    "key H with the powers or tables each library's GCM calls use (aesir: "
    "aesir_gcm_init_ex with the row's AES engine and the default GHASH "
    "engine; OpenSSL: EVP_EncryptInit_ex with a new key on a GCM context; "
    "BoringSSL and AWS-LC: EVP_AEAD_CTX_init + cleanup; intel-ipsec-mb: "
    "IMB_AES<N>_GCM_PRE; libgcrypt: setkey on a GCM handle; nettle: "
    "gcm_aes<N>_set_key; wolfSSL: wc_AesInit + wc_AesGcmSetKey; Mbed TLS: "
    "mbedtls_gcm_init + setkey + free, which allocates; libsodium: "
    "crypto_aead_aes256gcm_beforenm, H only; BearSSL: the CTR key and "
    "br_gcm_init, H only). Timed like the AES key setups.")


def main():
    if len(sys.argv) not in (3, 4, 5, 6, 7):
        print("usage: perf_doc.py RESULTS_DIR OUTPUT.md [KEYSETUP_DIR "
              "[GCM_DIR [GCM_SW_DIR [MODES_DIR]]]]", file=sys.stderr)
        return 2
    dirname, target = sys.argv[1], sys.argv[2]
    extra = sys.argv[3:] + [None] * (7 - len(sys.argv))
    ksdir, gcmdir, swdir, modesdir = extra[0], extra[1], extra[2], extra[3]

    def load(d):
        if not d:
            return None
        with open(os.path.join(d, "results.json")) as f:
            return json.load(f)
    data = load(dirname)
    lines = header(data["meta"], limit_block(dirname))
    ks_data, gcm_data, sw_data = load(ksdir), load(gcmdir), load(swdir)
    modes_data = load(modesdir)
    t = targets(data, ks_data or data)
    g = gcm_targets(data, gcm_data, sw_data, ks_data or data)
    m = modes_targets(modes_data, data)
    if (g or m) and not t:
        t = ["", "## Speed targets"]
    lines += t + g + m
    lines += ["", "## Throughput", "", GCM_ROWS]
    lines += tables(data, cpb=False)
    lines += ["", "## Cycles per byte"]
    lines += tables(data, cpb=True)
    if ks_data:
        lines += keysetup(ks_data, "## Key setups per second", KS_UNITS + (
            " Timed in a process of its own with the AES-instruction "
            "engines and the peers, as in any program that does not name a "
            "software engine (`make perf-doc` runs `aesir-bench --impls "
            "aesir/aesni,aesir/vaes-avx2,aesir/vaes-avx512,"
            "<the peers> --ops ctr,cbc-dec --keys 128,192,256 --sizes 64 "
            "--passes 5`)."))
        lines += keysetup(data, "## Key setups per second, full grid",
                          KS_UNITS + " Timed at the end of the full grid: "
                          "the bitsliced engines ran earlier in the same "
                          "process, and their 960-byte schedules raise "
                          "what every later key setup must wipe (key.c, "
                          "dispatch.c: reach) from 240 to 960 bytes per "
                          "direction.")
    else:
        lines += keysetup(data, "## Key setups per second", KS_UNITS)
    gcm_ks = KS_GCM_UNITS + (
        " Timed in the key-setup process (above)." if ks_data else "")
    lines += keysetup_gcm(ks_data or data, "## GCM key setups per second",
                          gcm_ks)
    if gcm_data:
        lines += ["", "## GCM target run", "",
                  "The run the GCM targets' gcm-enc and gcm-dec figures "
                  "come from: `%s`." % gcm_data["meta"]["command"]]
        lines += tables(gcm_data, cpb=False)
    if modes_data:
        lines += ["", "## Modes run (issue 19)", "",
                  "CMAC, CCM, OCB3, XTS, GCM-SIV, AES-SIV, KW, AEGIS and "
                  "XAES-256-GCM with aesir's default engine and every peer "
                  "that has them: `%s`. Conventions per op (nonce and tag "
                  "sizes, how a key size maps to XTS and SIV keys): "
                  "bench/bench.h. Bounds from this run's bound rows, else "
                  "the grid's limit row (L)."
                  % modes_data["meta"]["command"]]
        lines += tables(modes_data, cpb=False, limit=data.get("limit"))
    if sw_data:
        lines += ["", "## Software GCM run", "",
                  "AESIR_CPU_DISABLE=%s: `%s`. aesir/default is `%s` with "
                  "`%s` here." % (
                      sw_data["meta"].get("aesir_cpu_disable") or "?",
                      sw_data["meta"]["command"],
                      sw_data["meta"].get("aesir_default_engine", "?"),
                      sw_data["meta"].get("aesir_default_ghash", "?"))]
        lines += tables(sw_data, cpb=False)
    notes = list(data["notes"])
    for d, what in ((gcm_data, "GCM target run"),
                    (sw_data, "software GCM run"), (modes_data, "modes run")):
        notes += ["%s: %s" % (what, n) for n in (d or {}).get("notes", [])]
    if notes:
        lines += ["", "## Notes from the run", ""]
        lines += ["- %s" % n for n in notes]
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    with open(target, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s" % target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
