#!/usr/bin/env python3
"""coverage.py -- the line-coverage report of src/ for `make coverage`.

    python3 tests/coverage.py BUILD_DIR [--min PERCENT]

BUILD_DIR is a build made with -DAESIR_COVERAGE=ON (clang source-based
coverage) whose test suite has run with LLVM_PROFILE_FILE pointing into
BUILD_DIR/profraw/. This script merges the raw profiles, asks llvm-cov
for the line counts of every file under src/, and writes
BUILD_DIR/coverage.txt: a per-file table, the total against the
threshold, and every uncovered line as file:line ranges with the source
text. A summary is printed; the exit status is 1 when the total is below
--min (make coverage: COVERAGE_MIN), 2 when the report cannot be made.

What counts. A line counts when clang mapped code to it in this build:
  - code the preprocessor removed (the other architectures' engines, which
    compile to a stub accessor returning NULL here, and every
    `#if <other ISA>` block) is not mapped, so it is neither covered nor
    uncovered; it runs in `make cross-test` under qemu-user and Node.js.
    The files that are such engines are marked "other ISA" in the table.
  - a static inline function that no translation unit of this build uses
    (helpers a header keeps for another ISA) is mapped but never compiled
    into any program. It is listed under "not compiled into this build",
    apart from the uncovered lines, and not counted. "Compiled" is read
    from the merged profile, which holds a record, zero or not, for every
    function compiled into a program that ran.
Every other mapped line is covered (executed at least once by some test)
or uncovered.
"""
import argparse
import glob
import json
import os
import platform
import re
import shutil
import subprocess
import sys

# Engines of other ISAs, by the machine they run on (platform.machine()).
ISA_FILES = {
    "x86": ["aesni.c", "vaes_avx2.c", "vaes_avx512.c", "gfni.c",
            "vperm_ssse3.c", "vperm_avx2.c", "bs_avx2.c", "bs_avx512.c"],
    "aarch64": ["armv8_ce.c", "vperm_neon.c"],
    "ppc": ["pwr8.c", "vperm_altivec.c", "shufb_altivec.c"],
    "wasm": ["vperm_wasm.c"],
}


def host_isa():
    m = platform.machine().lower()
    if m in ("x86_64", "amd64", "i386", "i686"):
        return "x86"
    if m in ("aarch64", "arm64"):
        return "aarch64"
    if m.startswith("ppc") or m.startswith("powerpc"):
        return "ppc"
    return m


def die(msg):
    print("coverage: " + msg, file=sys.stderr)
    sys.exit(2)


def cache_value(build, key):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            m = re.match(r"%s:[A-Z]+=(.*)$" % re.escape(key), line.rstrip("\n"))
            if m:
                return m.group(1)
    return ""


def llvm_tool(name, major):
    """llvm-<tool>-NN, /usr/lib/llvm-NN/bin/<tool>, then <tool>: the one of
    the compiler's version (profile formats change between versions)."""
    for cand in ("%s-%s" % (name, major),
                 "/usr/lib/llvm-%s/bin/%s" % (major, name), name):
        path = shutil.which(cand)
        if path:
            return path
    die("%s not found (Debian: apt-get install llvm-%s)" % (name, major))


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0:
        die("%s failed:\n%s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def ranges(lines):
    """[1, 2, 3, 7] -> ["1-3", "7"]"""
    out, start, prev = [], None, None
    for n in sorted(lines):
        if start is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append((start, prev))
        start = prev = n
    if start is not None:
        out.append((start, prev))
    return out


def fmt_range(a, b):
    return "%d" % a if a == b else "%d-%d" % (a, b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--min", type=float, default=95.0)
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    src_root = cache_value(build, "aesir_SOURCE_DIR") or cache_value(
        build, "CMAKE_HOME_DIRECTORY")
    if not src_root:
        die("%s is not a CMake build of aesir" % build)
    if cache_value(build, "AESIR_COVERAGE") != "ON":
        die("%s was not configured with -DAESIR_COVERAGE=ON" % build)
    major = cache_value(build, "CMAKE_C_COMPILER_VERSION").split(".")[0]
    if not major:
        # not cached by every CMake version: ask the compiler
        cc = cache_value(build, "CMAKE_C_COMPILER")
        major = run([cc, "-dumpversion"]).strip().split(".")[0]
    profdata = llvm_tool("llvm-profdata", major)
    llvm_cov = llvm_tool("llvm-cov", major)

    raws = sorted(glob.glob(os.path.join(build, "profraw", "*.profraw")))
    if not raws:
        die("no profiles in %s/profraw (run the tests first)" % build)
    merged = os.path.join(build, "aesir.profdata")
    # Not -sparse: a function compiled in but never run must keep its
    # (zero) record, which is how "compiled" is told from "not compiled".
    run([profdata, "merge", "-o", merged] + raws)

    # The library as a whole (every object of it), plus ct_check, whose
    # copy of the library is compiled with -DAESIR_CT_CHECK.
    lib = os.path.join(build, "libaesir.so")
    if not os.path.exists(lib):
        die("%s missing" % lib)
    objects = [lib]
    ct = os.path.join(build, "tests", "ct_check")
    if os.path.exists(ct):
        objects += ["-object", ct]
    base = [llvm_cov, "export", "-instr-profile", merged] + objects
    lcov = run(base + ["-format=lcov"])
    data = json.loads(run(base + ["-format=text", "-skip-expansions"]))

    src_dir = os.path.join(os.path.realpath(src_root), "src") + os.sep

    def rel(path):
        p = os.path.realpath(path)
        return p[len(src_dir) - 4:] if p.startswith(src_dir) else None

    # Line counts as llvm-cov computes them.
    counts = {}
    cur = None
    for line in lcov.splitlines():
        if line.startswith("SF:"):
            cur = rel(line[3:])
            if cur is not None:
                counts.setdefault(cur, {})
        elif line.startswith("DA:") and cur is not None:
            n, c = line[3:].split(",")[:2]
            counts[cur][int(n)] = counts[cur].get(int(n), 0) + int(c)

    # Functions compiled into some program that ran, and the line extents
    # of those that were not.
    listed = run([profdata, "show", "--all-functions", merged])
    compiled = set(m.group(1) for m in
                   re.finditer(r"^  (\S.*):$", listed, re.MULTILINE))
    built_ext, unbuilt_ext = {}, {}
    for fn in data["data"][0]["functions"]:
        f = rel(fn["filenames"][0])
        own = [r for r in fn["regions"] if r[5] == 0]  # file_id 0
        if f is None or not own:
            continue
        ext = set(range(min(r[0] for r in own), max(r[2] for r in own) + 1))
        target = built_ext if fn["name"] in compiled else unbuilt_ext
        target.setdefault(f, {}).setdefault(fn["name"], set()).update(ext)

    isa = host_isa()
    other_isa = set()
    for k, files in ISA_FILES.items():
        if k != isa:
            other_isa.update("src/engine/" + f for f in files)
    # Engines of this ISA that this CPU cannot run (aesir info): their
    # lines count, as uncovered, and the table says why.
    cannot_run = set()
    tool = os.path.join(build, "aesir")
    if os.path.exists(tool):
        env = dict(os.environ, LLVM_PROFILE_FILE=os.devnull)  # no profile
        r = subprocess.run([tool, "info"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True,
                           env=env)
        for m in re.finditer(r"^([a-z0-9-]+) +no +", r.stdout, re.MULTILINE):
            f = "src/engine/" + m.group(1).replace("-", "_") + ".c"
            if f not in other_isa:
                cannot_run.add(f)

    all_files = sorted(
        os.path.relpath(p, os.path.realpath(src_root))
        for p in glob.glob(os.path.join(src_dir, "*", "*.[ch]")))
    rows, missed, not_built = [], {}, {}
    tot_lines = tot_cov = 0
    for f in all_files:
        da = counts.get(f, {})
        built = set()
        for ext in built_ext.get(f, {}).values():
            built |= ext
        excluded = {}
        for name, ext in unbuilt_ext.get(f, {}).items():
            lines = set(n for n in ext
                        if n in da and da[n] == 0 and n not in built)
            if lines:
                excluded[name.split(":")[-1]] = lines
        drop = set().union(*excluded.values()) if excluded else set()
        lines = [n for n in da if n not in drop]
        cov = [n for n in lines if da[n] > 0]
        miss = sorted(n for n in lines if da[n] == 0)
        note = ""
        if f in other_isa:
            note = "other ISA: stub only here; make cross-test"
        elif f in cannot_run:
            note = "engine this CPU cannot run (aesir info)"
        elif not lines:
            note = "no code (tables, macros, declarations)"
        if excluded:
            note = (note + "; " if note else "") + \
                "%d lines not compiled into this build" % len(drop)
        rows.append((f, len(lines), len(cov), note))
        tot_lines += len(lines)
        tot_cov += len(cov)
        if miss:
            missed[f] = miss
        if excluded:
            not_built[f] = excluded

    pct = 100.0 * tot_cov / tot_lines if tot_lines else 0.0
    ok = pct >= args.min
    out = []
    out.append("Line coverage of src/ (clang %s source-based coverage, "
               "llvm-cov %s)" % (major, major))
    out.append("build: %s; %d raw profiles; host ISA: %s"
               % (build, len(raws), isa))
    out.append("")
    w = max(len(r[0]) for r in rows)
    out.append("%-*s %7s %7s %8s  %s" % (w, "file", "lines", "covered",
                                         "percent", "note"))
    for f, n, c, note in rows:
        p = "%7.2f%%" % (100.0 * c / n) if n else "      -"
        out.append("%-*s %7d %7d %8s  %s" % (w, f, n, c, p, note))
    out.append("%-*s %7d %7d %7.2f%%" % (w, "TOTAL", tot_lines, tot_cov, pct))
    out.append("")
    out.append("threshold: %.2f%% (COVERAGE_MIN) -- %s"
               % (args.min, "met" if ok else "NOT MET"))
    summary = list(out)

    out.append("")
    nmiss = sum(len(v) for v in missed.values())
    out.append("Uncovered lines (%d):" % nmiss)
    for f, miss in missed.items():
        with open(os.path.join(src_root, f), errors="replace") as fh:
            text = fh.read().split("\n")
        for a, b in ranges(miss):
            out.append("  %s:%s" % (f, fmt_range(a, b)))
            for n in range(a, b + 1):
                out.append("      %5d | %s" % (n, text[n - 1].rstrip()))
    out.append("")
    out.append("Not compiled into this build (static inline functions no "
               "translation unit uses here; not counted):")
    if not not_built:
        out.append("  (none)")
    for f, ex in not_built.items():
        for name, lines in sorted(ex.items(), key=lambda kv: min(kv[1])):
            out.append("  %s:%s  %s()" % (
                f, ",".join(fmt_range(a, b) for a, b in ranges(lines)), name))
    out.append("")
    out.append("Not in the table's counts at all: code the preprocessor "
               "removed for this ISA (the other architectures' engines "
               "and #if blocks), run by make cross-test.")

    report = os.path.join(build, "coverage.txt")
    with open(report, "w") as fh:
        fh.write("\n".join(out) + "\n")
    print("\n".join(summary))
    ranges_n = sum(len(ranges(m)) for m in missed.values())
    print("uncovered: %d lines in %d ranges; the list: %s"
          % (nmiss, ranges_n, report))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
