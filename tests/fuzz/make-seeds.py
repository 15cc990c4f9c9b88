#!/usr/bin/env python3
"""make-seeds.py -- writes the seed corpus of the fuzz targets of this
directory (corpus/<target>/), deterministically: each seed is a scenario
spelled in the target's input format, so that a short run (CI gives each
target under a minute) starts from the deep states -- a whole message
through every mode, the CTR counter at its wrap, a cipher whose key was
cleared, lengths near SIZE_MAX, misaligned contexts, mixed multi-buffer
batches -- instead of having to find them.

    python3 tests/fuzz/make-seeds.py       (rewrites corpus/fuzz_modes,
                                            corpus/fuzz_api, corpus/fuzz_many,
                                            corpus/fuzz_gcm, corpus/fuzz_xts,
                                            corpus/fuzz_aegis)

The encoders below mirror the input readers of fuzz_modes.c (read_plan),
fuzz_api.c (the op functions), fuzz_many.c (setup_key, read_job) and
fuzz_gcm.c (read_plan): a
change there must be made here too. Engines are chosen by their index in
the list of engines the CPU runs (ref first, then the registry order of
the available ones); on another CPU the same seed may pick another engine,
which is fine for a seed.
"""
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(17)

# Engine indices on an x86-64 CPU with AES-NI, VAES, AVX-512 and GFNI.
ENGINES = ["ref", "ref-otf", "ttable", "ct64", "bs-avx2", "bs-avx512",
           "vperm-ssse3", "vperm-avx2", "gfni", "aesni", "vaes-avx2",
           "vaes-avx512"]


def eng(name):
    return ENGINES.index(name)


def rand(n):
    return bytes(rng.randrange(256) for _ in range(n))


def u16(v):
    return struct.pack("<H", v)


def pick(pred):
    """The smallest byte value for which pred holds."""
    for b in range(256):
        if pred(b):
            return b
    raise ValueError("no byte fits")


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def clean(target):
    d = os.path.join(HERE, "corpus", target)
    if os.path.isdir(d):
        for n in os.listdir(d):
            os.remove(os.path.join(d, n))


# ---- fuzz_modes: one plan per input (read_plan) ----------------------

MODES_VARIANTS = ["ecb-none", "ecb-pkcs7", "ecb-zero", "cbc-none",
                  "cbc-pkcs7", "cbc-zero", "cfb128", "cfb8", "cfb1", "ofb",
                  "ctr32", "ctr64", "ctr128", "ctr0"]


def modes_plan(variant, msg_len, key_bytes=16, split_keys=False,
               inplace_oneshot=False, near_wrap=False, ctx_off=0,
               in_off=0, out_off=0, drop_bits=0, final_cap=None,
               pieces=(), inplace_mask=0, iv=None):
    flags = {16: 0, 24: 1, 32: 2}[key_bytes]
    flags |= split_keys << 2 | inplace_oneshot << 3 | near_wrap << 4
    flags |= (ctx_off // 16) << 5 | (final_cap is not None) << 7
    extra = drop_bits | ((final_cap or 0) << 3)
    out = bytes([MODES_VARIANTS.index(variant), flags,
                 in_off | out_off << 4, extra])
    out += rand(32) + (iv if iv is not None else rand(16))
    out += bytes([len(pieces)])  # npieces = 1 + this: the last takes the rest
    for p in pieces:
        out += u16(p)
    out += u16(inplace_mask) + rand(msg_len)
    return out


def make_modes():
    t = "fuzz_modes"
    clean(t)
    w = lambda n, d: write(t, n, d)
    w("ecb-none-blocks", modes_plan("ecb-none", 96, pieces=(5, 40),
                                    inplace_mask=2))
    w("ecb-pkcs7-ragged", modes_plan("ecb-pkcs7", 45, key_bytes=24,
                                     split_keys=True, final_cap=15,
                                     pieces=(16, 16)))
    w("ecb-zero", modes_plan("ecb-zero", 33, key_bytes=32, pieces=(1,),
                             inplace_oneshot=True))
    w("cbc-none-long", modes_plan("cbc-none", 528, pieces=(17, 256, 0),
                                  inplace_mask=5, ctx_off=16, in_off=3,
                                  out_off=7))
    w("cbc-pkcs7-whole", modes_plan("cbc-pkcs7", 64, key_bytes=32,
                                    split_keys=True, final_cap=8,
                                    pieces=(31, 1, 16), inplace_mask=3))
    w("cbc-pkcs7-empty", modes_plan("cbc-pkcs7", 0, final_cap=0))
    w("cbc-zero", modes_plan("cbc-zero", 100, key_bytes=24, ctx_off=48,
                             pieces=(50,), inplace_oneshot=True))
    w("cfb128", modes_plan("cfb128", 300, pieces=(7, 9, 100),
                           inplace_mask=2, ctx_off=32, in_off=1))
    w("cfb8", modes_plan("cfb8", 70, key_bytes=32, pieces=(3, 20)))
    w("cfb1-bits", modes_plan("cfb1", 11, drop_bits=5, pieces=(2,),
                              inplace_oneshot=True))
    w("ofb", modes_plan("ofb", 257, key_bytes=24, pieces=(15, 1, 128),
                        inplace_mask=4, out_off=9))
    # The counter's low 32 bits at 0xfffffff0: 16 blocks, then the wrap.
    w("ctr32-wrap", modes_plan("ctr32", 300, near_wrap=True,
                               iv=bytes(12) + b"\xff\xff\xff\xf0",
                               pieces=(100, 150)))
    w("ctr64", modes_plan("ctr64", 640, key_bytes=32, pieces=(33, 300),
                          inplace_mask=1, ctx_off=16))
    w("ctr128-wrap", modes_plan("ctr128", 80, near_wrap=True,
                                iv=b"\xff" * 15 + b"\xfd", pieces=(40,)))
    w("ctr0", modes_plan("ctr0", 1000, pieces=(512,), inplace_oneshot=True))


# ---- fuzz_api: a program of calls (the op functions) ------------------

OP = {"key_init": 0, "key_clear": 2, "key_copy": 3, "cipher_init": 4,
      "update": 7, "final": 12, "cipher_clear": 15, "oneshot_block": 16,
      "oneshot_stream": 18, "raw": 20, "misaligned": 21, "query": 22}
KEY_LENS = [16, 24, 32, 16, 24, 32, 0, 1, 15, 17, 23, 25, 31, 33, 64,
            "SIZE_MAX"]
KEY_DIRS = [3, 1, 2, 3, 1, 2, 0, 4, 7, 0x80000001]
# pick_len's values near the top of size_t, by name.
TOP = ["SIZE_MAX", "SIZE_MAX-1", "SIZE_MAX-6", "SIZE_MAX-7", "SIZE_MAX-8",
       "SIZE_MAX-14", "SIZE_MAX-15", "SIZE_MAX-16", "SIZE_MAX-17",
       "SIZE_MAX-31", "SIZE_MAX-32", "SIZE_MAX/2", "SIZE_MAX/2+1",
       "SIZE_MAX/16*16", "SIZE_MAX/8+1", "SIZE_MAX/4-1", "UINT32_MAX",
       "UINT32_MAX-15", "INT32_MAX+1"]
MODE = {"ecb": 1, "cbc": 2, "cfb128": 3, "cfb8": 4, "cfb1": 5, "ofb": 6,
        "ctr": 7}


def length(v):
    """pick_len's encoding of v: a small number or a name from TOP."""
    if isinstance(v, str):
        i = TOP.index(v)
        return bytes([pick(lambda s: s >= 208 and s % len(TOP) == i)])
    return b"\x00" + u16(v)


def key_init(k, engine=None, dirs=3, key_len=16, key_null=False,
             ctx_null=False):
    b = k | (31 << 2 if ctx_null else 0) | (0x80 if key_null else 0)
    if engine is None:
        e = 0
    elif engine == "unknown":
        e = 0x40
    elif engine == "unavailable":
        e = 0x80
    else:
        e = pick(lambda x: x >> 6 == 3 and x % len(ENGINES) == eng(engine))
    d = pick(lambda x: KEY_DIRS[x % 10] == dirs and
             (x >= 0x80) == key_null)
    return bytes([OP["key_init"], b, e, d, KEY_LENS.index(key_len)])


def key_clear(k):
    return bytes([OP["key_clear"], k])


def key_copy(frm, to):
    return bytes([OP["key_copy"], pick(
        lambda b: b % 3 == frm and (frm + 1 + (b >> 2) % 2) % 3 == to)])


def cipher_init(c, k, mode, dir=1, option=0, iv=None, key_null=False,
                iv_null=False, raw_option=None, iv_len_idx=0):
    b = c | (0 if dir == 1 else 2)
    m = MODE[mode] - 1 if isinstance(mode, str) else mode
    if raw_option is not None:  # an invalid option: bit 3 set
        o = pick(lambda x: x & 8 and x % 10 == raw_option and x < 0x30)
    elif mode == "ctr":
        o = {32: 0, 64: 1, 128: 2, 0: 2}[option]
    else:
        o = option
    if key_null:
        o |= 0xc0
    if iv_null:
        o |= 0x30
    return (bytes([OP["cipher_init"], b, m, o, k, iv_len_idx]) +
            (iv if iv is not None else rand(16)))


def update(c, n, cap=None, how="", olen_null=False, capmode=0):
    if cap is None:  # room for exactly aesir_cipher_update_size() bytes
        cap, capmode = 0, capmode or 1
    g = {"": 0, "in_null": 1, "out_null": 2, "inplace": 3}[how]
    g |= (7 << 2 if olen_null else 0) | capmode << 5
    out = bytes([OP["update"], c, g]) + length(n) + length(cap)
    nbufs = 1 if how == "inplace" else (how != "in_null") + (how != "out_null")
    return out + bytes(nbufs)


def final(c, cap=16, out_null=False, olen_null=False):
    g = (1 if out_null else 0) | (7 << 3 if olen_null else 0)
    cb = cap if cap != "huge" else 255  # 255: SIZE_MAX - 7
    return bytes([OP["final"], c, g, cb])


def cipher_clear(c):
    return bytes([OP["cipher_clear"], c])


PADS = {"none": 0, "pkcs7": 1, "zero": 2, "bad": 255}


def oneshot_block(mode, enc, k, pad, n, cap, capmode=0, how="",
                  key_null=False, iv_null=False, olen_null=False):
    pads = [0, 1, 2, 0, 1, 2, 3, 255]
    b = pick(lambda x: x & 1 == (mode == "cbc") and (x >> 1 & 1) == enc and
             (x >> 2) % 3 == k and pads[x >> 5] == PADS[pad])
    g = (15 if key_null else 14 if iv_null else 0)
    g |= {"": 0, "in_null": 1, "out_null": 2, "inplace": 3}[how] << 4
    h = capmode | (7 << 2 if olen_null else 0)
    return (bytes([OP["oneshot_block"], b, g, h]) + length(n) +
            length(cap) + rand(16))


STREAM = ["cfb128", "cfb8", "cfb1", "ofb", "ctr", "ctr"]  # by b % 6
BITS = [0, 32, 64, 128, 32, 64, 1, 96]


def oneshot_stream(mode, enc, k, n, bits=0, how="", near_wrap=False,
                   key_null=False, iv_null=False, iv=None):
    b = pick(lambda x: STREAM[x % 6] == mode and (x >> 3 & 1) == enc and
             (x >> 4) % 3 == k)
    g = (15 if key_null else 14 if iv_null else 0)
    g |= {"": 0, "in_null": 1, "out_null": 2, "inplace": 3}[how] << 4
    g |= 0xc0 if near_wrap else 0
    return (bytes([OP["oneshot_stream"], b, g, BITS.index(bits)]) +
            length(n) +
            (iv if iv is not None else rand(16)))


def raw(k, dec, nblocks, single=False, ctx_null=False, how=""):
    b = pick(lambda x: x % 3 == k and (x >> 2 & 1) == dec and
             (x >> 3 & 1) == single)
    g = (15 if ctx_null else 0)
    g |= {"": 0, "in_null": 1, "out_null": 2, "inplace": 3}[how] << 4
    return bytes([OP["raw"], b, g]) + length(nblocks)


def misaligned(which, k=0, off=1, as_cipher=False):
    if as_cipher:
        b = pick(lambda x: x & 7 == 7 and (x >> 3) % 3 == k)
    else:
        b = pick(lambda x: x & 7 == 0 and (x >> 3 & 7) == which and
                 (x >> 3) % 3 == k)
    return bytes([OP["misaligned"], b, off - 1])


def query(kind, extra=b""):
    return bytes([OP["query"], kind]) + extra


def program(*ops, garbage=0x3c, offsets=0):
    return bytes([garbage, offsets]) + b"".join(ops)


def make_api():
    t = "fuzz_api"
    clean(t)
    w = lambda n, d: write(t, n, d)
    # A message through each mode, in pieces, some in place.
    for mode, opt in (("ecb", 1), ("cbc", 1), ("cbc", 2), ("cfb128", 0),
                      ("cfb8", 0), ("cfb1", 0), ("ofb", 0), ("ctr", 64)):
        w("stream-" + mode + ("-pad%d" % opt if mode in ("ecb", "cbc")
                              else ""),
          program(key_init(0, "aesni" if mode != "cfb1" else "ct64"),
                  cipher_init(0, 0, mode, 1, opt),
                  update(0, 5), update(0, 40, how="inplace"), update(0, 0),
                  update(0, 33, capmode=2), update(0, 16),
                  final(0, 15), final(0, 16),
                  cipher_init(1, 0, mode, 2, opt),
                  update(1, 48), update(1, 16, how="inplace"),
                  final(1, 7), final(1, 16), final(1),
                  offsets=0b100100))
    # CTR with a 32-bit counter 16 values from its wrap.
    w("ctr32-wrap", program(
        key_init(1, "vaes-avx512", dirs=1),
        cipher_init(0, 1, "ctr", 1, 32, iv=bytes(12) + b"\xff\xff\xff\xf0"),
        update(0, 200), update(0, 100), update(0, 56), update(0, 1),
        final(0),
        oneshot_stream("ctr", 1, 1, "SIZE_MAX", bits=32,
                       iv=bytes(12) + b"\xff\xff\xff\xff"),
        oneshot_stream("ctr", 1, 1, 300, bits=32, near_wrap=True)))
    # Wrong orders: update after final, final twice, a cleared key under
    # a live cipher, a key for the other direction.
    w("wrong-order", program(
        key_init(0, "vaes-avx2"), cipher_init(0, 0, "cbc", 1, 0),
        update(0, 32), final(0), update(0, 16), final(0),
        cipher_init(1, 0, "cfb8", 1), update(1, 3), key_clear(0),
        update(1, 3), query(4), final(1), final(1),
        key_init(2, "gfni", dirs=1), cipher_init(0, 2, "cbc", 2, 1),
        update(0, 16), oneshot_block("ecb", 0, 2, "none", 32, 32),
        raw(2, 1, 2), key_init(2, "gfni", dirs=2), update(0, 16)))
    # Re-keyed under a live cipher: without the direction, with it.
    w("rekey", program(
        key_init(0, "aesni"), cipher_init(0, 0, "ecb", 2, 1), update(0, 20),
        key_init(0, "ref", dirs=1), update(0, 16), final(0),
        key_init(1, "bs-avx2"), cipher_init(1, 1, "ofb"), update(1, 7),
        key_init(1, "ttable", dirs=1), update(1, 9), final(1),
        key_copy(1, 2), cipher_init(0, 2, "ctr", 1, 128), update(0, 65),
        key_copy(0, 2), update(0, 1), final(0), offsets=0b111001))
    # Lengths near SIZE_MAX where the call must refuse them.
    w("huge", program(
        key_init(0, "vaes-avx512"), cipher_init(0, 0, "cbc", 1, 1),
        update(0, 2), update(0, "SIZE_MAX-1", 64),
        update(0, "SIZE_MAX", 600), update(0, "SIZE_MAX-15", 16),
        cipher_init(1, 0, "ofb"), update(1, "SIZE_MAX/2", 100),
        oneshot_block("ecb", 1, 0, "pkcs7", "SIZE_MAX-15", 32),
        oneshot_block("cbc", 1, 0, "zero", "SIZE_MAX-14", 32),
        oneshot_block("cbc", 0, 0, "none", "SIZE_MAX-16", 16),
        oneshot_stream("cfb1", 1, 0, "SIZE_MAX-6", key_null=True),
        oneshot_stream("cfb8", 0, 2, "SIZE_MAX"),
        raw(0, 0, "SIZE_MAX/8+1"), raw(0, 1, "SIZE_MAX/16*16"),
        final(0, "huge"), final(1, "huge")))
    # Exactly the output room the header lists, and a byte less.
    w("exact-room", program(
        key_init(0, "vperm-avx2"),
        *[oneshot_block(m, e, 0, p, n, 0, capmode=cm)
          for m in ("ecb", "cbc") for e in (1, 0)
          for p in ("none", "pkcs7", "zero") for n in (31, 32)
          for cm in (1, 2)]))
    # NULL pointers and bad arguments.
    w("nulls", program(
        key_init(0, None, key_null=True), key_init(0, ctx_null=True),
        key_init(1, "unknown"), key_init(1, "unavailable"),
        key_init(1, "ct64", key_len=33), key_init(1, "ct64", dirs=0),
        key_init(2, "ct64", dirs=7), key_init(0, "ttable", key_len=24),
        cipher_init(0, 0, "cbc", 1, 0, key_null=True),
        cipher_init(0, 0, "ctr", 1, raw_option=9),
        cipher_init(0, 0, "ofb", 1, iv_null=True),
        cipher_init(0, 0, 10, 1), cipher_init(1, 0, "ecb", 1, 0),
        update(1, 16, how="in_null"), update(1, 16, how="out_null"),
        update(1, 0, how="in_null"), update(1, 16, olen_null=True),
        final(1, 16, out_null=True), update(1, 16),
        cipher_init(1, 0, "ecb", 1, 2), final(1, 0, out_null=True),
        final(1, 16, olen_null=True), final(1),
        oneshot_block("cbc", 1, 0, "pkcs7", 16, 32, iv_null=True),
        oneshot_block("ecb", 1, 0, "none", 0, 0, how="out_null"),
        oneshot_block("ecb", 1, 0, "bad", 16, 32),
        oneshot_stream("ofb", 1, 0, 10, iv_null=True),
        oneshot_stream("ctr", 1, 0, 10, bits=96),
        raw(0, 0, 1, how="in_null"), raw(0, 0, 0, how="out_null"),
        raw(0, 0, 1, single=True, ctx_null=True), query(0, bytes(4)),
        query(1, b"\x05"), query(2, b"vaes-avx512\0" + bytes(4)),
        query(3, b"ref\0" + bytes(12)), query(4)))
    # Misaligned contexts: every kind of call.
    w("misaligned", program(
        key_init(0, "vaes-avx512"),
        *[misaligned(i, 0, off=1 + 2 * i) for i in range(8)],
        misaligned(0, 0, as_cipher=True), offsets=0b10))
    # Garbage contexts, in-place one-shots on every engine.
    w("inplace", program(
        *[op for i, e in enumerate(ENGINES) for op in (
            key_init(i % 3, e),
            oneshot_block("cbc", 1, i % 3, "pkcs7", 17 + i, 48,
                          how="inplace"),
            oneshot_block("cbc", 0, i % 3, "pkcs7", 48, 48, how="inplace"),
            oneshot_stream("cfb128", 0, i % 3, 33, how="inplace"),
            raw(i % 3, 1, 3, how="inplace"))],
        garbage=0x61, offsets=0b011011))


# ---- fuzz_many: a batch of jobs (setup_key, read_job) -----------------

KEY_KIND = {"good": 0, "null": 3, "uninit": 4, "cleared": 5, "dec": 6,
            "misaligned": 7}


def many_key(kind="good", engine="aesni", key_bytes=16, enc_only=False):
    b = {16: 0, 24: 1, 32: 2}[key_bytes] | KEY_KIND[kind] << 2
    b |= 0x80 if enc_only else 0
    return bytes([b, eng(engine)])


def many_job(key, blocks=None, ragged=None, how="", in_off=0, out_sel=0,
             cut_blocks=0, huge=None):
    b = {"": 0, "in_null": 1, "out_null": 2, "inplace": 3}[how]
    b |= out_sel << 2 | in_off << 4
    if huge is not None:  # huge and ragged: must fail, touches nothing
        l = 0x8000 | huge << 4 | 7
    elif ragged is not None:  # (l >> 4) % 1025 == ragged, top bit set
        l = (2050 + ragged) << 4 | cut_blocks
    else:
        l = blocks << 4 | cut_blocks
    return bytes([b]) + u16(l) + bytes([key])


def batch(keys, jobs, mac=False, split=False):
    flags = mac | split << 1
    return (bytes([flags, len(keys) - 1, len(jobs)]) + rand(8) +
            b"".join(keys) + b"".join(jobs))


def make_many():
    t = "fuzz_many"
    clean(t)
    w = lambda n, d: write(t, n, d)
    hw = [many_key(engine=e, key_bytes=kb) for e in
          ("aesni", "vaes-avx2", "vaes-avx512") for kb in (16, 32)]
    lens = [0, 1, 2, 3, 4, 8, 15, 16, 17, 31, 32, 33, 64]
    w("mixed-hw", batch(hw, [many_job(i % 6, blocks=lens[i % 13])
                             for i in range(24)]))
    w("mixed-hw-mac", batch(hw, [many_job(i % 6, blocks=lens[(i * 5) % 13],
                                          how="out_null" if i % 2 else "")
                                 for i in range(17)], mac=True))
    w("split", batch(hw[:3], [many_job(i % 3, blocks=9 + i, cut_blocks=i % 9,
                                       how="inplace" if i % 3 == 0 else "")
                              for i in range(40)], split=True))
    bad = [many_key(engine="vaes-avx2"), many_key("null"),
           many_key("uninit"), many_key("cleared", "aesni"),
           many_key("dec", "vaes-avx512"), many_key("misaligned", "aesni")]
    w("errors", batch(bad, [many_job(i % 6, blocks=2 + i % 3)
                            for i in range(12)] +
                      [many_job(0, ragged=40), many_job(0, blocks=2,
                                                         how="in_null"),
                       many_job(0, blocks=2, how="out_null"),
                       many_job(2, huge=5), many_job(0, huge=9)]))
    w("software", batch([many_key(engine=e) for e in
                         ("ref", "ct64", "gfni", "vperm-avx2", "ttable",
                          "bs-avx512")],
                        [many_job(i % 6, blocks=i % 7, in_off=i % 16)
                         for i in range(20)]))
    w("empty", batch([many_key()], []))
    w("null-array", bytes([0x04 | 0x08, 0, 0]) + rand(8) + b"\x05")
    w("equal-inplace", batch(hw[4:], [many_job(i % 2, blocks=16,
                                               how="inplace")
                                      for i in range(33)], mac=False))


# ---- fuzz_gcm: one plan per input (read_plan) -------------------------

GHASH = ["ghash-ref", "ghash-table4", "ghash-table8", "ghash-ct64",
         "ghash-clmul", "ghash-vpclmul-avx2", "ghash-vpclmul-avx512"]
GCM_TAGS = [16, 16, 15, 14, 13, 12, 8, 4]


def gcm_plan(aes, ghash, msg_len, aad_len=0, key_bytes=16, iv_len=12,
             tag_len=16, inplace=False, raw_open=False, splits=(),
             split_inplace=0, corrupt_pos=0, corrupt_xor=0, off_in=0,
             off_out=0, msg=None, raw=b""):
    r = gcm_rng
    b0 = {16: 0, 24: 1, 32: 2}[key_bytes]
    b0 |= (tag_len < 12) << 2 | inplace << 3 | raw_open << 4
    b0 |= GCM_TAGS.index(tag_len) << 5
    b3 = 0 if iv_len == 12 else 128 + (iv_len - 1)
    out = bytes([b0, ENGINES.index(aes), GHASH.index(ghash), b3])
    out += u16(aad_len) + u16(msg_len) + bytes([len(splits)])
    for s in splits:
        out += u16(s)
    out += bytes([split_inplace]) + u16(corrupt_pos) + bytes([corrupt_xor])
    out += bytes([off_in | off_out << 4])
    out += bytes(r.randrange(256) for _ in range(32 + iv_len + aad_len))
    out += msg if msg is not None else bytes(
        r.randrange(256) for _ in range(msg_len))
    return out + raw


gcm_rng = random.Random(18)


def make_gcm():
    t = "fuzz_gcm"
    clean(t)
    w = lambda n, d: write(t, n, d)
    w("empty", gcm_plan("aesni", "ghash-clmul", 0))
    w("gmac-only", gcm_plan("vaes-avx512", "ghash-vpclmul-avx512", 0,
                            aad_len=77, corrupt_xor=1))
    w("one-block", gcm_plan("ct64", "ghash-ct64", 16, aad_len=16,
                            key_bytes=32, corrupt_pos=16, corrupt_xor=0x80))
    w("partial", gcm_plan("vperm-avx2", "ghash-table8", 33, aad_len=5,
                          key_bytes=24, splits=(1, 4, 15, 1, 17),
                          split_inplace=0x15, corrupt_pos=3, corrupt_xor=4))
    # Past the 8-, 16- and 32-block batches of the GHASH engines, cut
    # where the partial-block buffers meet them.
    w("long-splits", gcm_plan("vaes-avx512", "ghash-vpclmul-avx512", 1500,
                              aad_len=300, splits=(17, 283, 15, 513, 1, 600),
                              split_inplace=0xaa, off_in=3, off_out=9,
                              corrupt_pos=1200, corrupt_xor=0x11))
    w("long-avx2", gcm_plan("vaes-avx2", "ghash-vpclmul-avx2", 2048,
                            aad_len=600, key_bytes=32, inplace=True,
                            splits=(511, 1, 16, 256),
                            corrupt_pos=2060, corrupt_xor=0xff))
    # IVs of other than 96 bits: J0 = GHASH(IV), the counter secret.
    w("iv-1", gcm_plan("aesni", "ghash-ref", 100, aad_len=20, iv_len=1,
                       splits=(7, 13, 50)))
    w("iv-64", gcm_plan("bs-avx512", "ghash-clmul", 700, aad_len=1,
                        iv_len=64, key_bytes=24, splits=(0, 1, 300)))
    w("iv-16", gcm_plan("gfni", "ghash-table4", 64, iv_len=16,
                        tag_len=13, corrupt_pos=77, corrupt_xor=2))
    # Short tags (AESIR_GCM_SHORT_TAGS)
    w("tag-8", gcm_plan("bs-avx2", "ghash-ct64", 40, aad_len=8, tag_len=8,
                        corrupt_pos=45, corrupt_xor=1))
    w("tag-4", gcm_plan("vperm-ssse3", "ghash-vpclmul-avx2", 3, tag_len=4,
                        corrupt_pos=17, corrupt_xor=0x40))
    # The fuzzer's own bytes as ciphertext and tag.
    w("raw-open", gcm_plan("aesni", "ghash-vpclmul-avx512", 48, aad_len=3,
                           raw_open=True, inplace=True,
                           raw=bytes(gcm_rng.randrange(256)
                                     for _ in range(64))))


# ---- fuzz_xts (read in LLVMFuzzerTestOneInput of fuzz_xts.c) ----------

XTS_MAX_MSG = 4200
xts_rng = random.Random(19)


def xts_plan(engine, key_bytes, length, call=0, same=False, ssize=16,
             inplace=False, off_in=0, off_out=0):
    key = bytes(xts_rng.randrange(256) for _ in range(key_bytes))
    b = bytes([eng(engine), (key_bytes - 32) // 16]) + key
    b += bytes([0xee if same else 0, call])
    b += bytes(xts_rng.randrange(256) for _ in range(16))  # tweak
    b += struct.pack("<Q", xts_rng.randrange(1 << 64)
                     if call != 2 else (1 << 64) - 2)  # sector
    b += u16(length)
    if call == 2:
        n = length + 32
        b += bytes([ssize - 1]) if n <= 256 else u16(ssize - 1)
    b += bytes([1 if inplace else 0, off_in, off_out])
    return b + bytes(xts_rng.randrange(256) for _ in range(length))


def make_xts():
    def w(name, data):
        write("fuzz_xts", name, data)
    w("one-block", xts_plan("aesni", 32, 16))
    w("steal-17", xts_plan("vaes-avx512", 64, 17, inplace=True, off_in=3))
    w("batch-edge", xts_plan("vaes-avx512", 32, 16 * 33 + 5, off_in=1,
                             off_out=7))
    w("avx2-tail", xts_plan("vaes-avx2", 48, 16 * 17 + 15, call=1))
    w("aes192-ct64", xts_plan("ct64", 48, 100, inplace=True))
    w("sectors-carry", xts_plan("aesni", 64, 96, call=2, ssize=48))
    w("sectors-bad", xts_plan("bs-avx2", 32, 100, call=2, ssize=40))
    w("short", xts_plan("gfni", 32, 15))
    w("weak-key", xts_plan("vaes-avx512", 64, 32, same=True))
    w("long", xts_plan("vaes-avx512", 48, 4096 + 13, inplace=True))


# fuzz_aegis.c (read_plan): flags (bit 0: 32-byte tag, bit 1: in place,
# bit 2: the rest of the input is the message to open), variant index
# (0..5: 128L, 256, 128X2, 128X4, 256X2, 256X4), len and aad_len (u16),
# the two buffer offsets, corruption position (u16) and mask, key and
# nonce (32 bytes each), the data seed (u32), then raw bytes.
def make_aegis():
    d = os.path.join(HERE, "corpus", "fuzz_aegis")
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    arng = random.Random(19)

    def seed(name, flags, variant, ln, aad, offi, offo, cpos, cxor, tail=b""):
        key = bytes(arng.randrange(256) for _ in range(32))
        nonce = bytes(arng.randrange(256) for _ in range(32))
        b = (bytes([flags, variant]) + struct.pack("<HH", ln, aad) +
             bytes([offi, offo]) + struct.pack("<H", cpos) + bytes([cxor]) +
             key + nonce + struct.pack("<I", arng.randrange(1 << 32)) + tail)
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(b)

    names = ["128l", "256", "128x2", "128x4", "256x2", "256x4"]
    for v, nm in enumerate(names):
        seed(nm + "-empty", 0, v, 0, 0, 0, 0, 0, 0)
        seed(nm + "-partial-ad", 1, v, 45, 77, 3, 5, 2, 0x80)
        seed(nm + "-inplace", 3, v, 1000, 31, 7, 7, 1003, 1)
        seed(nm + "-rate-edge", 0, v, 127, 128, 1, 15, 0, 0)
        seed(nm + "-long-tagflip", 1, v, 2048, 600, 15, 1, 2048 + 31, 4)
        seed(nm + "-raw", 4, v, 0, 16, 0, 0, 0, 0,
             bytes(arng.randrange(256) for _ in range(90)))


if __name__ == "__main__":
    make_modes()
    make_api()
    make_many()
    make_gcm()
    make_xts()
    make_aegis()
    total = 0
    for t in ("fuzz_modes", "fuzz_api", "fuzz_many", "fuzz_gcm", "fuzz_xts",
              "fuzz_aegis"):
        d = os.path.join(HERE, "corpus", t)
        files = os.listdir(d)
        size = sum(os.path.getsize(os.path.join(d, f)) for f in files)
        total += size
        print("%s: %d seeds, %d bytes" % (t, len(files), size))
    print("total %d bytes" % total)
    sys.exit(0)
