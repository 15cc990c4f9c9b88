#!/usr/bin/env python3
"""make-seeds-ccm.py -- writes the seed corpus of fuzz_ccm
(corpus/fuzz_ccm/), deterministically, in the input format of
fuzz_ccm.c's read_plan (a change there must be made here too): each seed
a scenario that a short run should start from -- every engine, nonces of
7 and 13 bytes, tags of 4..16 bytes, additional data that crosses the
2-byte length encoding's block, messages past the fused kernels' and the
generic path's chunks, cut at odd points, in place, corrupted tags and
data, and the fuzzer's own bytes as the sealed message.

    python3 tests/fuzz/make-seeds-ccm.py

Engines are chosen by their index in the list of engines the CPU runs
(ref first, then the registry order of the available ones), as in
make-seeds.py.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = ["ref", "ref-otf", "ttable", "ct64", "bs-avx2", "bs-avx512",
           "vperm-ssse3", "vperm-avx2", "gfni", "aesni", "vaes-avx2",
           "vaes-avx512"]
rng = random.Random(19)


def u16(v):
    return struct.pack("<H", v)


def plan(aes, msg_len, aad_len=0, key_bytes=16, nonce_len=13, tag_len=16,
         inplace=False, raw_open=False, splits=(), split_inplace=0,
         corrupt_pos=0, corrupt_xor=0, off_in=0, off_out=0, raw=b""):
    b0 = {16: 0, 24: 1, 32: 2}[key_bytes] | inplace << 2 | raw_open << 3
    b0 |= (tag_len - 4) // 2 << 4
    out = bytes([b0, ENGINES.index(aes), nonce_len - 7])
    out += u16(aad_len) + u16(msg_len) + bytes([len(splits)])
    for s in splits:
        out += u16(s)
    out += bytes([split_inplace]) + u16(corrupt_pos) + bytes([corrupt_xor])
    out += bytes([off_in | off_out << 4])
    out += struct.pack("<I", rng.randrange(1 << 32))
    out += bytes(rng.randrange(256) for _ in range(32 + nonce_len))
    return out + raw


def main():
    d = os.path.join(HERE, "corpus", "fuzz_ccm")
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    seeds = {
        "empty": plan("aesni", 0),
        "aad-only": plan("vaes-avx512", 0, aad_len=77, tag_len=4,
                         corrupt_xor=1),
        "one-block": plan("ct64", 16, aad_len=14, key_bytes=32,
                          corrupt_pos=16, corrupt_xor=0x80),
        "partial": plan("vperm-avx2", 33, aad_len=5, key_bytes=24,
                        nonce_len=7, tag_len=10, splits=(1, 4, 15, 1, 17),
                        split_inplace=0x15, corrupt_pos=3, corrupt_xor=4),
        "long-splits": plan("vaes-avx512", 2048, aad_len=600, nonce_len=12,
                            splits=(17, 283, 15, 513, 1, 600),
                            split_inplace=0xaa, off_in=3, off_out=9,
                            corrupt_pos=1200, corrupt_xor=0x11),
        "long-aesni": plan("aesni", 1500, aad_len=300, key_bytes=32,
                           inplace=True, splits=(511, 1, 16, 256),
                           tag_len=14, corrupt_pos=1510, corrupt_xor=0xff),
        "bitsliced": plan("bs-avx512", 700, aad_len=1, nonce_len=8,
                          key_bytes=24, tag_len=6, splits=(0, 1, 300)),
        "gfni": plan("gfni", 64, nonce_len=11, tag_len=12, corrupt_pos=77,
                     corrupt_xor=2),
        "ref-otf": plan("ref-otf", 100, aad_len=20, splits=(7, 13, 50),
                        tag_len=8),
        "raw-open": plan("aesni", 48, aad_len=3, raw_open=True, inplace=True,
                         raw=bytes(rng.randrange(256) for _ in range(64))),
    }
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    print("fuzz_ccm: %d seeds" % len(seeds))


if __name__ == "__main__":
    main()
