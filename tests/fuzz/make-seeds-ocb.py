#!/usr/bin/env python3
"""make-seeds-ocb.py -- writes the seed corpus of fuzz_ocb.c
(corpus/fuzz_ocb/), deterministically, in the input format of its
read_plan: a change there must be made here too. Engines are chosen by
their index in the list of engines the CPU runs (ref first, then the
registry order of the available ones), as in make-seeds.py.

    python3 tests/fuzz/make-seeds-ocb.py
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = ["ref", "ref-otf", "ttable", "ct64", "bs-avx2", "bs-avx512",
           "vperm-ssse3", "vperm-avx2", "gfni", "aesni", "vaes-avx2",
           "vaes-avx512"]
rng = random.Random(7253)


def u16(v):
    return struct.pack("<H", v)


def plan(engine, msg_len, aad_len=0, key_bytes=16, nonce_len=12, tag_len=16,
         inplace=False, raw_open=False, splits=(), split_inplace=0,
         corrupt_pos=0, corrupt_xor=0, off_in=0, off_out=0, raw=b""):
    b0 = {16: 0, 24: 1, 32: 2}[key_bytes] | inplace << 2 | raw_open << 3
    b0 |= (tag_len - 1) << 4
    out = bytes([b0, ENGINES.index(engine), nonce_len - 1])
    out += u16(aad_len) + u16(msg_len) + bytes([len(splits)])
    for s in splits:
        out += u16(s)
    out += bytes([split_inplace]) + u16(corrupt_pos) + bytes([corrupt_xor])
    out += bytes([off_in | off_out << 4])
    out += bytes(rng.randrange(256) for _ in range(32 + nonce_len + aad_len))
    out += bytes(rng.randrange(256) for _ in range(msg_len))
    return out + raw


def main():
    d = os.path.join(HERE, "corpus", "fuzz_ocb")
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    seeds = {
        "empty": plan("aesni", 0),
        "aad-only": plan("vaes-avx512", 0, aad_len=77, corrupt_xor=1),
        "one-block": plan("ct64", 16, aad_len=16, key_bytes=32,
                          corrupt_pos=16, corrupt_xor=0x80),
        "partial": plan("vperm-avx2", 33, aad_len=5, key_bytes=24,
                        splits=(1, 4, 15, 1, 17), split_inplace=0x15,
                        corrupt_pos=3, corrupt_xor=4),
        # past the 8-, 16- and 32-block batches of the kernels, with heads
        # (incremental pieces that leave the block index unaligned)
        "long-512": plan("vaes-avx512", 1500, aad_len=300,
                         splits=(17, 283, 15, 513, 1, 600),
                         split_inplace=0xaa, off_in=3, off_out=9,
                         corrupt_pos=1200, corrupt_xor=0x11),
        "long-avx2": plan("vaes-avx2", 2100, aad_len=600, key_bytes=32,
                          inplace=True, splits=(511, 1, 16, 256, 33),
                          corrupt_pos=2101, corrupt_xor=0xff),
        "long-aesni": plan("aesni", 1031, aad_len=31, key_bytes=24,
                           splits=(7, 129, 64, 300), split_inplace=0x0f),
        "nonce-1": plan("bs-avx512", 100, aad_len=20, nonce_len=1,
                        splits=(7, 13, 50)),
        "nonce-15": plan("gfni", 700, aad_len=1, nonce_len=15, key_bytes=24,
                         splits=(0, 1, 300)),
        "tag-1": plan("bs-avx2", 40, aad_len=8, tag_len=1, corrupt_pos=41,
                      corrupt_xor=1),
        "tag-12": plan("vperm-ssse3", 3, tag_len=12, corrupt_pos=17,
                       corrupt_xor=0x40),
        "raw-open": plan("aesni", 48, aad_len=3, raw_open=True, inplace=True,
                         raw=bytes(rng.randrange(256) for _ in range(64))),
    }
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
