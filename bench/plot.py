#!/usr/bin/env python3
"""plot.py -- PNG plots of an aesir-bench run.

    python3 bench/plot.py [DIR]        (DIR: where results.csv is; build/bench)

One plot per operation and key size, DIR/plots/<op>-aes<bits>.png:
throughput (GB/s) against message size, both axes logarithmic (the
engines span three orders of magnitude), one line per implementation --
aesir's engines solid, the peers dashed -- and, when results.json holds the
limit row, the AES-instruction bound as a horizontal line. The
multi-buffer ops (mb-cbc-enc-N, mb-cbc-mac-N) share one plot per kind and
key size, DIR/plots/mb-cbc-enc-aes<bits>.png and mb-cbc-mac-aes<bits>.png:
throughput against N, the number of messages in flight.

Drawn with matplotlib when it can be imported, else with gnuplot; with
neither, says so and exits 0 (the tables and CSV/JSON are the results;
the plots are a view of them).
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict


# The multi-buffer ops' common prefixes, each with its title.
MB = {"mb-cbc-enc": "CBC encryption", "mb-cbc-mac": "CBC-MAC"}


def mb_group(op):
    """The multi-buffer prefix op belongs to, or None."""
    return next((p for p in MB if op.startswith(p + "-")), None)


def load(dirname):
    """{(op, key_bits): {impl: [(x, gbps), ...]}}, groups, bounds; x is the
    message size, or for the multi-buffer ops (op a key of MB) the number of
    messages in flight."""
    series = defaultdict(lambda: defaultdict(list))
    groups = {}
    with open(os.path.join(dirname, "results.csv"), newline="") as f:
        for row in csv.DictReader(f):
            # the bound rows (bench/impl_bound.c) are the same bounds the
            # limit row's dashed line draws: not a curve of their own
            if row["group"] == "bound":
                continue
            op, x = row["op"], int(row["size"])
            if mb_group(op):
                op, x = mb_group(op), int(row["messages"])
                MB_SIZE[0] = int(row["size"])
            key = (op, int(row["key_bits"]))
            series[key][row["impl"]].append((x, float(row["gbps"])))
            groups[row["impl"]] = row["group"]
    bounds = {}
    try:
        with open(os.path.join(dirname, "results.json")) as f:
            limit = json.load(f).get("limit")
        for b in (limit or {}).get("ctr", []):
            if b.get("gbps"):
                bounds[int(b["key_bits"])] = float(b["gbps"])
    except (OSError, ValueError):
        pass
    for impls in series.values():
        for points in impls.values():
            points.sort()
    return series, groups, bounds


# Issue 19's ops that the AES-instruction bound does not describe: the
# one-chain ones (CMAC, CCM, SIV), those with carry-less multiplies
# (GCM-SIV, XAES-256-GCM), KW (serial passes) and AEGIS (AES rounds, not
# AES); aesir-bench's tables give them their own bound or none.
NOT_AES_BOUND = ("cmac", "ccm-", "siv-", "gcm-siv-", "xaes-", "kw-", "aegis")


def aes_bound(op):
    return not any(op == p or (p.endswith("-") or p == "aegis")
                   and op.startswith(p) for p in NOT_AES_BOUND)


def size_label(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return "%d MiB" % (n >> 20)
    if n >= 1024 and n % 1024 == 0:
        return "%d KiB" % (n >> 10)
    return "%d B" % n


MB_SIZE = [0]  # message size of the multi-buffer rows


def title(op, bits):
    if op in MB:
        return ("AES-%d multi-buffer %s, %s messages: "
                "throughput vs messages in flight"
                % (bits, MB[op], size_label(MB_SIZE[0])))
    return "AES-%d %s: throughput vs message size" % (bits, op)


def x_label(op, x):
    return "%d" % x if op in MB else size_label(x)


def x_axis(op):
    return "messages in flight" if op in MB else "message size"


def plot_matplotlib(series, groups, bounds, outdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files = []
    for (op, bits), impls in sorted(series.items()):
        fig, ax = plt.subplots(figsize=(9, 5.5))
        sizes = sorted({s for pts in impls.values() for s, _ in pts})
        for impl, pts in impls.items():
            aesir = groups.get(impl) == "aesir"
            ax.plot([s for s, _ in pts], [g for _, g in pts], marker="o",
                    linestyle="-" if aesir else "--",
                    linewidth=2.2 if aesir else 1.2, label=impl)
        if bits in bounds and aes_bound(op):
            ax.axhline(bounds[bits], color="black", linewidth=1,
                       linestyle=":", label="bound (AES insns)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sizes)
        ax.set_xticklabels([x_label(op, s) for s in sizes])
        ax.set_xlabel(x_axis(op))
        ax.set_ylabel("GB/s (1e9 bytes/s)")
        ax.set_title(title(op, bits))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1, 0.5))
        fig.tight_layout()
        path = os.path.join(outdir, "%s-aes%d.png" % (op, bits))
        fig.savefig(path, dpi=110)
        plt.close(fig)
        files.append(path)
    return files


def plot_gnuplot(series, groups, bounds, outdir, gnuplot):
    files = []
    with tempfile.TemporaryDirectory() as tmp:
        for (op, bits), impls in sorted(series.items()):
            sizes = sorted({s for pts in impls.values() for s, _ in pts})
            plots = []
            for i, (impl, pts) in enumerate(impls.items()):
                data = os.path.join(tmp, "%s-%d-%d.dat" % (op, bits, i))
                with open(data, "w") as f:
                    for s, g in pts:
                        f.write("%d %.9g\n" % (s, g))
                aesir = groups.get(impl) == "aesir"
                plots.append("'%s' using 1:2 with linespoints lw %s dt %d "
                             "title '%s'" % (data, "2.5" if aesir else "1.2",
                                             1 if aesir else 2, impl))
            if bits in bounds and aes_bound(op):
                plots.append("%.9g with lines lc 'black' dt 3 "
                             "title 'bound (AES insns)'" % bounds[bits])
            path = os.path.join(outdir, "%s-aes%d.png" % (op, bits))
            tics = ", ".join('"%s" %d' % (x_label(op, s), s) for s in sizes)
            script = "\n".join([
                "set terminal pngcairo size 1000,600 noenhanced",
                "set output '%s'" % path,
                "set title '%s'" % title(op, bits),
                "set logscale xy",
                "set xtics (%s)" % tics,
                "set xlabel '%s'" % x_axis(op),
                "set ylabel 'GB/s (1e9 bytes/s)'",
                "set grid",
                "set key outside right",
                "plot " + ", ".join(plots),
            ])
            subprocess.run([gnuplot], input=script.encode(), check=True)
            files.append(path)
    return files


def main():
    dirname = sys.argv[1] if len(sys.argv) > 1 else "build/bench"
    try:
        series, groups, bounds = load(dirname)
    except OSError as e:
        print("plot.py: no results to plot (%s)" % e, file=sys.stderr)
        return 1
    outdir = os.path.join(dirname, "plots")
    os.makedirs(outdir, exist_ok=True)
    try:
        import matplotlib  # noqa: F401
        files = plot_matplotlib(series, groups, bounds, outdir)
        tool = "matplotlib"
    except ImportError:
        gnuplot = shutil.which("gnuplot")
        if gnuplot is None:
            print("plots skipped: neither matplotlib (python3-matplotlib) "
                  "nor gnuplot (gnuplot-nox) is installed")
            return 0
        files = plot_gnuplot(series, groups, bounds, outdir, gnuplot)
        tool = "gnuplot"
    print("wrote %d plots with %s into %s/" % (len(files), tool, outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
