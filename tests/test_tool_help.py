#!/usr/bin/env python3
"""test_tool_help.py -- the `aesir` tool's help and its manual agree.

    python3 tests/test_tool_help.py path/to/aesir path/to/tools/aesir.1

Checked: `aesir --help`, `aesir -h` and `aesir help` print the overview on
stdout with status 0 and nothing on stderr; every command the overview
lists answers `--help`, `-h` and `aesir help CMD` the same way with its
usage; every option a command's help names (--x, -x) appears in that
command's section of the manual (decrypt's may be in encrypt's, which it
shares; -h/--help in "Options of every command"); every command has a
section; the manual lists exit statuses 0 to 4 and the environment
variables the overview names; `groff -man -ww` renders the manual without
a warning (skipped, with a message, when groff is not installed); an
unknown command or `aesir help` of one is one line on stderr and status 2.
AESIR_EMULATOR (cross builds) runs the tool.
"""
import os
import re
import shutil
import subprocess
import sys

tool, manpage = sys.argv[1], sys.argv[2]
emu = os.environ.get("AESIR_EMULATOR", "").split()
fails = 0
cases = 0


def check(cond, what):
    global fails, cases
    cases += 1
    if not cond:
        fails += 1
        print("FAIL:", what)


def run(*args):
    r = subprocess.run(emu + [tool] + list(args), capture_output=True,
                       text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


# The manual's source, with roff's escapes for '-' undone, cut into its
# .SH/.SS sections.
src = open(manpage, encoding="utf-8").read()
text = src.replace("\\-", "-").replace("\\fR", "").replace("\\fP", "")
sections = {}
name = None
for line in text.splitlines():
    m = re.match(r'^\.S[HS] +"?([^"]*)"?', line)
    if m:
        name = m.group(1).strip()
        sections[name] = ""
    elif name is not None:
        sections[name] += line + "\n"


def man_section(cmd):
    """The text of the section "aesir CMD ..."."""
    for k, v in sections.items():
        if k == f"aesir {cmd}" or k.startswith(f"aesir {cmd} "):
            return k + "\n" + v
    return None


# The overview.
rc, overview, err = run("--help")
check(rc == 0 and err == "", f"aesir --help: status {rc}, stderr {err!r}")
for args in (["-h"], ["help"], ["help", "--help"], ["--help", "-h"]):
    r = run(*args)
    check(r == (0, overview, ""), f"aesir {' '.join(args)} = aesir --help")
commands = []
if "Commands:" in overview:
    for line in overview.split("Commands:", 1)[1].splitlines()[1:]:
        m = re.match(r"^  ([a-z]+)  +\S", line)
        if not m:
            break
        commands.append(m.group(1))
check({"info", "selftest", "speed"} <= set(commands),
      f"the overview lists info, selftest and speed: {commands}")
for var in re.findall(r"AESIR_[A-Z_]+", overview):
    check(var in sections.get("ENVIRONMENT", ""),
          f"the manual's ENVIRONMENT names {var}")

# Each command's help, and its options in the manual.
every = sections.get("Options of every command", "")
for cmd in commands:
    rc, out, err = run(cmd, "--help")
    check(rc == 0 and err == "" and out.startswith(f"usage: aesir {cmd}"),
          f"aesir {cmd} --help: status {rc}, stderr {err!r}, {out[:40]!r}")
    check(run(cmd, "-h") == (0, out, ""), f"aesir {cmd} -h = --help")
    check(run("help", cmd) == (0, out, ""), f"aesir help {cmd} = --help")
    section = man_section(cmd)
    check(section is not None, f"the manual has a section for {cmd}")
    if section is None:
        continue
    if cmd == "decrypt":
        section += man_section("encrypt") or ""
    options = set(re.findall(r"(?<![\w-])(--?[a-z][a-z0-9-]*)", out))
    for opt in sorted(options):
        where = every if opt in ("-h", "--help") else section
        check(re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])",
                        where) is not None,
              f"the manual's section for {cmd} names {opt}")

# Exit status.
for code in range(5):
    check(re.search(rf"^\.B {code}$", sections.get("EXIT STATUS", ""),
                    re.M) is not None,
          f"the manual's EXIT STATUS lists {code}")

# Bad commands.
for args, text in ((["frobnicate"], "unknown command 'frobnicate'"),
                   (["help", "frobnicate"], "unknown command 'frobnicate'"),
                   (["help", "info", "x"], "unexpected argument 'x'"),
                   (["help", "--frob"], "unknown option '--frob'"),
                   (["--version", "x"], "unexpected argument 'x'"),
                   ([], "no command")):
    rc, out, err = run(*args)
    check(rc == 2 and out == "" and err.count("\n") == 1 and text in err,
          f"aesir {' '.join(args)}: status {rc}, stderr {err!r}")
rc, out, err = run("--version")
check(rc == 0 and re.match(r"^aesir \d+\.\d+", out) is not None,
      f"aesir --version: {rc} {out!r}")

# The manual renders without warnings.
if shutil.which("groff"):
    r = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", manpage],
                       capture_output=True, text=True)
    check(r.returncode == 0 and r.stderr == "",
          f"groff -man -ww: status {r.returncode}, {r.stderr!r}")
else:
    print("groff not installed: the manual's rendering is not checked")

print(f"test_tool_help: {cases} checks, {fails} failed")
sys.exit(1 if fails else 0)
