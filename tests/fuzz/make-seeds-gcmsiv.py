#!/usr/bin/env python3
"""make-seeds-gcmsiv.py -- writes the seed corpus of fuzz_gcmsiv
(corpus/fuzz_gcmsiv/), deterministically, in the input format of
fuzz_gcmsiv.c (read_plan, then AAD, message and, for a raw open, the
sealed bytes): a change there must be made here too.

    python3 tests/fuzz/make-seeds-gcmsiv.py

Engines are indices in the list of engines the CPU runs (ref first, then
the available ones in registry order); GHASH engines likewise (ghash-ref
first). On another CPU a seed may pick other engines, which is fine.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(8452)

# On an x86-64 CPU with AES-NI, VAES, AVX-512 and GFNI.
ENGINES = ["ref", "ref-otf", "ttable", "ct64", "bs-avx2", "bs-avx512",
           "vperm-ssse3", "vperm-avx2", "gfni", "aesni", "vaes-avx2",
           "vaes-avx512"]
GHASH = ["ghash-ref", "ghash-table4", "ghash-table8", "ghash-ct64",
         "ghash-clmul", "ghash-vpclmul-avx2", "ghash-vpclmul-avx512",
         "ghash-ctmul-avx512"]
KEYS = {16: 0, 32: 1, 24: 2}


def rand(n):
    return bytes(rng.randrange(256) for _ in range(n))


def seed(key_len=16, aes="vaes-avx512", ghash="ghash-vpclmul-avx512",
         aad_len=0, msg_len=0, inplace=False, raw=None, corrupt_pos=0,
         corrupt_xor=0, off_in=0, off_out=0):
    b0 = KEYS[key_len] | (4 if inplace else 0) | (8 if raw is not None else 0)
    d = bytes([b0, ENGINES.index(aes), GHASH.index(ghash)])
    d += struct.pack("<HHHB", aad_len, msg_len, corrupt_pos, corrupt_xor)
    d += bytes([off_in | off_out << 4])
    d += rand(32) + rand(12) + rand(aad_len) + rand(msg_len)
    if raw is not None:
        d += raw
    return d


def main():
    d = os.path.join(HERE, "corpus", "fuzz_gcmsiv")
    os.makedirs(d, exist_ok=True)
    for n in os.listdir(d):
        os.remove(os.path.join(d, n))
    seeds = {
        "empty": seed(),
        "one-block": seed(msg_len=16, corrupt_pos=3, corrupt_xor=1),
        "partial": seed(aad_len=5, msg_len=17, off_in=3, off_out=9,
                        corrupt_pos=20, corrupt_xor=0x80),
        "aad-only": seed(aad_len=77, corrupt_pos=5, corrupt_xor=4),
        "long": seed(key_len=32, aad_len=600, msg_len=2048, inplace=True,
                     corrupt_pos=1000, corrupt_xor=0x10),
        "batch-edges": seed(aes="vaes-avx2", ghash="ghash-vpclmul-avx2",
                            aad_len=16, msg_len=16 * 33 + 1, off_in=1),
        "aesni": seed(aes="aesni", ghash="ghash-clmul", key_len=32,
                      aad_len=20, msg_len=16 * 9 + 7, inplace=True),
        "aes192": seed(key_len=24, aes="ct64", ghash="ghash-ct64",
                       aad_len=3, msg_len=100),
        "software": seed(aes="vperm-ssse3", ghash="ghash-ctmul-avx512",
                         aad_len=33, msg_len=300),
        # a tag whose counter word is 2^32 - 2: the CTR runs across the
        # wrap before the (failing) tag check
        "raw-wrap": seed(key_len=32, msg_len=16 * 40, raw=rand(16 * 40) +
                         b"\xfe\xff\xff\xff" + rand(12)),
        "raw-short": seed(msg_len=5, raw=rand(21)),
    }
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
