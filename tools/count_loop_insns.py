#!/usr/bin/env python3
"""count_loop_insns.py -- instruction counts of an engine's round loops,
from the disassembly of its object file (docs/engines/cell.md).

    python3 tools/count_loop_insns.py OBJECT FUNCTION... [--objdump PROG]

e.g. for shufb-altivec in a ppc cross build (tests/cross-test.sh ppc):

    python3 tools/count_loop_insns.py \\
        build-cross/ppc/CMakeFiles/aesir_objects.dir/src/engine/shufb_altivec.c.o \\
        shufb_altivec_encrypt_body shufb_altivec_decrypt_body

A loop is the range from the target of a backward `bdnz` (PowerPC's
count-register loop) to the `bdnz` itself; only loops with a `vsel` are
shown (the round loops; the others copy bytes). For each: its start, its
length in instructions, the vector ALU instructions among them, and the
count of every mnemonic.
"""
import collections
import re
import subprocess
import sys

VECTOR_ALU = {"vperm", "vsel", "vxor", "vsrab", "vslb", "vaddubm", "vand"}


def functions(obj, objdump):
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", obj],
                         capture_output=True, text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return funcs


def main():
    args = sys.argv[1:]
    objdump = "powerpc-linux-gnu-objdump"
    if "--objdump" in args:
        i = args.index("--objdump")
        objdump = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    funcs = functions(args[0], objdump)
    for name in args[1:]:
        insns = funcs.get(name)
        if insns is None:
            sys.exit(f"{name}: not in {args[0]}")
        for addr, op, operands in insns:
            if op != "bdnz":
                continue
            target = int(operands.split()[0], 16)
            body = [x for x in insns if target <= x[0] <= addr]
            if not any(x[1] == "vsel" for x in body):
                continue
            count = collections.Counter(x[1] for x in body)
            alu = sum(n for op_, n in count.items() if op_ in VECTOR_ALU)
            ops = " ".join(f"{k} {n}" for k, n in count.most_common())
            print(f"{name} loop at {target:#x}: {len(body)} instructions, "
                  f"{alu} vector ALU ({ops})")


if __name__ == "__main__":
    main()
