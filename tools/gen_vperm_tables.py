#!/usr/bin/env python3
"""gen_vperm_tables.py -- derives the tables of the vector-permute AES
engines (src/engine/vperm_*.c) and writes src/engine/vperm_tables.h.

    python3 tools/gen_vperm_tables.py > src/engine/vperm_tables.h
    python3 tools/gen_vperm_tables.py --check   # simulate and verify only

Technique: M. Hamburg, "Accelerating AES with Vector Permute
Instructions", CHES 2009. Every non-linear step of AES is done with
16-entry table look-ups indexed by 4-bit nibbles, which a byte shuffle
(x86 pshufb, ARM tbl, PowerPC vperm, wasm i8x16.swizzle) performs on 16
bytes at once. Everything below is derived here from the field arithmetic;
no table is copied from anywhere.

1. The tower field. GF(16) = GF(2)[y]/(y^4 + y + 1), nibbles as
   polynomials in y. GF(256) is built over it as GF(16)[t]/(t^2 + t + z),
   where z is the first nibble for which t^2 + t + z has no root in GF(16).
   Its elements are written in the normal basis {t, tbar}, tbar = t^16 the
   other root: x = a t + b tbar with a, b in GF(16). Then t + tbar = 1 and
   t tbar = z.

2. Inversion by nibble inversions. With x = a t + b tbar, the
   conjugate is a tbar + b t and the norm N = x xbar = ab + z (a + b)^2,
   a nibble. Take i = a, j = b, k = a + b and
       io = 1/(1/i + 1/(z k)) + j,    jo = 1/(1/j + 1/(z k)) + i.
   Since 1/i + 1/(zk) = (zk + i)/(z i k) and i + j = k,
       io = (z i k + j (zk + i))/(zk + i) = (z k^2 + ij)/(zk + i),
   and z k^2 + ij = z (a + b)^2 + ab = N. So io = N/(z k + i), likewise
   jo = N/(z k + j), and 1/io, 1/jo are two GF(16)-linear combinations of
   the coordinates a/N, b/N of 1/x, independent since the matrix
   [[z+1, z], [z, z+1]] is its own inverse:
       1/x = (1/io) w1 + (1/jo) w2,  w1 = z t + (z+1) tbar,
                                     w2 = (z+1) t + z tbar.
   So 1/x is a sum of two terms, each a function of one nibble: the
   output tables.

3. The "infinity" trick. 1/0 is looked up as INF = 0x90. A shuffle yields
   0 for an index with the top bit set (pshufb) or >= 16 (tbl, swizzle;
   vperm sees 0x10 + n, the second source, which is zero), so a look-up
   of INF gives 0 = 1/INF, and INF + n (XOR) stays INF. Walking through
   the cases: k = 0 gives io = j = i and jo = i = j, right since then
   N = a^2; i = 0 gives io = k, right since N = z k^2; z k + i = 0 makes
   1/i + 1/(zk) = 0, its inverse INF, io = INF + j, output 0 = the right
   term since 1/io = 0; x = 0 gives INF + INF = 0, inverted to INF, so
   io = jo = INF and the output is 0 = AES's "inverse" of 0. Every value
   a register holds is a nibble or INF + nibble. --check runs all 256.

4. The byte layout. A state byte in the tower basis holds i = a in its
   high nibble and k = a + b in its low nibble: k = x & 15,
   i = x >> 4 (a 16-bit shift and a mask), j = i ^ k. The basis change
   from AES's polynomial basis to this layout is the GF(2)-linear map
   L_in(x) = pack(phi(x)), phi the field isomorphism sending AES's X to
   the first root beta of X^8 + X^4 + X^3 + X + 1 found in the tower.
   Linear maps of bytes are two look-ups (low nibble, high nibble)
   XORed; the tables are lo[n] = L(n), hi[n] = L(n << 4).

5. What is folded where. SubBytes is S(x) = A(1/x) + 0x63 with A linear.
   Encryption keeps the state in the tower basis between rounds: the
   output tables give L_in(A(term)) and L_in(2 A(term)) (for MixColumns),
   so no basis change is done inside the cipher except on the input
   block; the constant 0x63 passes through MixColumns unchanged
   (2+3+1+1 = 1) and is XORed into round keys 1..nr; round keys are
   stored as L_in(K + 0x63) (round 0: L_in(K)). The last round's tables
   give A(term) in the AES basis. Decryption (the equivalent inverse
   cipher, FIPS-197 5.3.5) needs InvS(y) = 1/(A^-1(y) + 0x05): it keeps
   the state as L_d(y + 0x63), L_d = L_in o A^-1, with round keys stored
   as L_d(K' + 0x63); its output tables give L_d(m term) for
   m = 9, 11, 13, 14 (InvMixColumns) and the plain term in the last round.

6. ShiftRows is never done. With byte p = r + 4c as in FIPS-197,
   ShiftRows reads position sigma(p) = r + 4((c + r) mod 4), and the row
   rotation of MixColumns rho(p) = (r + 1 mod 4) + 4c. Encryption stores
   the state after round r permuted by sigma^r (X[p] = Y[sigma^r(p)]);
   then the "2 a" term of MixColumns needs no move, the other terms use
   sigma^r rho sigma^-r (fwd[r mod 4]) and its inverse (bwd), round key
   r is stored permuted the same way, and one shuffle by sigma^nr at the
   end puts the bytes in order. Decryption uses sigma^-r likewise.
   sr[m] is sigma^m as a shuffle index: out[q] = in[sr[m][q]].

All tables are byte arrays in memory order and hold for any vector ISA
whose shuffle indexes bytes in memory order (all four targets).
"""
import sys
import textwrap

INF = 0x90

# ---------------------------------------------------------------- GF(16)


def gf16_mul(a, b):
    r = 0
    for i in range(4):
        if (b >> i) & 1:
            r ^= a << i
    for i in (6, 5, 4):  # reduce modulo y^4 + y + 1
        if (r >> i) & 1:
            r ^= 0b10011 << (i - 4)
    return r


def gf16_inv(a):
    if a == 0:
        return 0
    return next(x for x in range(1, 16) if gf16_mul(a, x) == 1)


def gf16_has_root(z):  # t^2 + t + z = 0 for some t in GF(16)?
    return any(gf16_mul(t, t) ^ t ^ z == 0 for t in range(16))


Z = next(z for z in range(1, 16) if not gf16_has_root(z))

# ------------------------------------------------- GF(256) as the tower
# Elements are pairs (a, b) = a t + b tbar. With t^2 = t + z, tbar^2 =
# tbar + z, t tbar = z and z = z t + z tbar:
#   t^2 = (1+z) t + z tbar,  tbar^2 = z t + (1+z) tbar,  t tbar = z t + z tbar


def tw_mul(x, y):
    a, b = x
    c, d = y
    ac, bd, m = gf16_mul(a, c), gf16_mul(b, d), gf16_mul(a, d) ^ gf16_mul(b, c)
    z1 = Z ^ 1
    return (gf16_mul(ac, z1) ^ gf16_mul(m, Z) ^ gf16_mul(bd, Z),
            gf16_mul(ac, Z) ^ gf16_mul(m, Z) ^ gf16_mul(bd, z1))


def tw_add(x, y):
    return (x[0] ^ y[0], x[1] ^ y[1])


def tw_scale(s, x):  # GF(16) scalar times a tower element
    return (gf16_mul(s, x[0]), gf16_mul(s, x[1]))


TW_ONE = (1, 1)  # t + tbar
TW_ZERO = (0, 0)


def tw_pow(x, n):
    r = TW_ONE
    for _ in range(n):
        r = tw_mul(r, x)
    return r


def pack(x):  # byte layout: high nibble i = a, low nibble k = a + b
    a, b = x
    return (a << 4) | (a ^ b)


def unpack(v):
    a, k = v >> 4, v & 15
    return (a, a ^ k)


# The isomorphism: AES's X goes to a root beta of the AES polynomial.
ALL_TW = [(a, b) for a in range(16) for b in range(16)]
BETA = next(x for x in ALL_TW
            if tw_add(tw_add(tw_add(tw_pow(x, 8), tw_pow(x, 4)),
                             tw_add(tw_pow(x, 3), x)), TW_ONE) == TW_ZERO)
BETA_POW = [tw_pow(BETA, i) for i in range(8)]


def phi(v):  # AES byte -> tower element
    r = TW_ZERO
    for i in range(8):
        if (v >> i) & 1:
            r = tw_add(r, BETA_POW[i])
    return r


PHI_INV = {phi(v): v for v in range(256)}
assert len(PHI_INV) == 256


def l_in(v):
    return pack(phi(v))


# ------------------------------------------------------- AES arithmetic


def aes_mul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = (a << 1) ^ (0x11b if a & 0x80 else 0)
        b >>= 1
    return r


def rotl8(v, n):
    return ((v << n) | (v >> (8 - n))) & 0xff


def aff(v):  # the linear part of the S-box's affine map
    return v ^ rotl8(v, 1) ^ rotl8(v, 2) ^ rotl8(v, 3) ^ rotl8(v, 4)


AFF_INV = {aff(v): v for v in range(256)}
assert len(AFF_INV) == 256


def aff_inv(v):
    return AFF_INV[v]


def l_d(v):
    return l_in(aff_inv(v))


def aes_inv(v):
    if v == 0:
        return 0
    return next(x for x in range(1, 256) if aes_mul(v, x) == 1)


SBOX = [aff(aes_inv(v)) ^ 0x63 for v in range(256)]
INV_SBOX = [0] * 256
for _v in range(256):
    INV_SBOX[SBOX[_v]] = _v
assert SBOX[0x00] == 0x63 and SBOX[0x01] == 0x7c and SBOX[0x53] == 0xed
assert aff_inv(0x63) == 0x05

# The checks of the construction itself.
for _u in range(256):  # phi is a field isomorphism (multiplicative too)
    for _v in (0x02, 0x03, 0x57, 0xca, _u):
        assert phi(aes_mul(_u, _v)) == tw_mul(phi(_u), phi(_v))

# ------------------------------------------------------------ the tables

INV = [INF] + [gf16_inv(n) for n in range(1, 16)]          # 1/n
INVZ = [INF] + [gf16_inv(gf16_mul(Z, n)) for n in range(1, 16)]  # 1/(z n)
W1 = (Z, Z ^ 1)
W2 = (Z ^ 1, Z)


def term(n, w):  # AES byte of (1/n) w; 1/0 taken as 0 (never used)
    return PHI_INV[tw_scale(gf16_inv(n), w)]


def out_table(f, w):
    return [f(term(n, w)) for n in range(16)]


def lin_tables(f):  # a GF(2)-linear byte map as two nibble look-ups
    return [f(n) for n in range(16)], [f(n << 4) for n in range(16)]


def perm_sigma(p):
    r, c = p % 4, p // 4
    return r + 4 * ((c + r) % 4)


def perm_rho(p):
    r, c = p % 4, p // 4
    return (r + 1) % 4 + 4 * c


def compose(f, g):  # (f o g)(p) = f(g(p))
    return lambda p: f(g(p))


def power(f, m):
    g = lambda p: p  # noqa: E731
    for _ in range(m):
        g = compose(f, g)
    return g


def inverse(f):
    t = {f(p): p for p in range(16)}
    return lambda p: t[p]


SIGMA_INV = inverse(perm_sigma)
RHO_INV = inverse(perm_rho)

TABLES = {}  # name -> (comment, 16 bytes)


def table(name, comment, values):
    assert len(values) == 16 and all(0 <= v < 256 for v in values)
    TABLES[name] = (comment, list(values))


table("inv", "1/n in GF(16); 1/0 = INF", INV)
table("invz", "1/(z n) in GF(16); 1/0 = INF", INVZ)
lo, hi = lin_tables(l_in)
table("in_lo", "encryption input basis change L_in, low nibble", lo)
table("in_hi", "encryption input basis change L_in, high nibble", hi)
table("enc1_io", "L_in(A(term)) for io: S-box output, tower basis",
      out_table(lambda v: l_in(aff(v)), W1))
table("enc1_jo", "L_in(A(term)) for jo",
      out_table(lambda v: l_in(aff(v)), W2))
table("enc2_io", "L_in(02 A(term)) for io: for MixColumns",
      out_table(lambda v: l_in(aes_mul(2, aff(v))), W1))
table("enc2_jo", "L_in(02 A(term)) for jo",
      out_table(lambda v: l_in(aes_mul(2, aff(v))), W2))
table("encl_io", "A(term) for io: last round, AES basis",
      out_table(aff, W1))
table("encl_jo", "A(term) for jo: last round, AES basis",
      out_table(aff, W2))
lo, hi = lin_tables(l_d)
table("din_lo", "decryption input basis change L_d = L_in A^-1, low nibble",
      lo)
table("din_hi", "decryption input basis change L_d, high nibble", hi)
for m in (9, 11, 13, 14):
    table("dec%d_io" % m, "L_d(%02x term) for io: InvMixColumns" % m,
          out_table(lambda v, m=m: l_d(aes_mul(m, v)), W1))
    table("dec%d_jo" % m, "L_d(%02x term) for jo" % m,
          out_table(lambda v, m=m: l_d(aes_mul(m, v)), W2))
table("decl_io", "term for io: last round, AES basis",
      out_table(lambda v: v, W1))
table("decl_jo", "term for jo: last round, AES basis",
      out_table(lambda v: v, W2))
for m in range(4):
    s = power(perm_sigma, m)
    s_inv = power(SIGMA_INV, m)
    table("fwd%d" % m, "fwd[m] = sigma^m rho sigma^-m: MixColumns' row "
          "rotation (row r takes row r+1) on a state stored permuted by "
          "sigma^m", [s(perm_rho(s_inv(q))) for q in range(16)])
    table("bwd%d" % m, "bwd[m] = sigma^m rho^-1 sigma^-m: the rotation the "
          "other way (row r takes row r-1)",
          [s(RHO_INV(s_inv(q))) for q in range(16)])
for m in range(4):
    table("sr%d" % m, "sr[m] = sigma^m: ShiftRows' byte selection applied "
          "m times",
          [power(perm_sigma, m)(q) for q in range(16)])

# --------------------------------------------- simulation of the engine
# Byte-exact emulation of the vector operations the C code uses, run on
# whole AES encryptions and decryptions and compared with a plain AES.


def v_shuf(tab, idx):
    """A 16-entry look-up, as each target ISA does it; they must agree on
    every index the engine produces, which is what makes one table set
    serve them all."""
    pshufb = [0 if i & 0x80 else tab[i & 15] for i in idx]
    tbl = [tab[i] if i < 16 else 0 for i in idx]  # NEON tbl, wasm swizzle
    vperm = [tab[i & 31] if i & 31 < 16 else 0 for i in idx]  # (tab, 0)
    assert pshufb == tbl == vperm, "index outside 0..15 and INF ^ 0..15"
    return pshufb


def v_xor(*vs):
    r = [0] * 16
    for v in vs:
        r = [x ^ y for x, y in zip(r, v)]
    return r


def v_lo(x):
    return [b & 15 for b in x]


def v_hi(x):  # 16-bit lane shift by 4, then mask, as psrlw + pand
    r = []
    for m in range(8):
        w = (x[2 * m] | (x[2 * m + 1] << 8)) >> 4
        r += [w & 15, (w >> 8) & 15]
    return r


def T(name):
    return TABLES[name][1]


def v_lin(x, lo_name, hi_name):
    return v_xor(v_shuf(T(lo_name), v_lo(x)), v_shuf(T(hi_name), v_hi(x)))


def v_invert(x):
    k, i = v_lo(x), v_hi(x)
    j = v_xor(i, k)
    zk = v_shuf(T("invz"), k)
    io = v_xor(v_shuf(T("inv"), v_xor(v_shuf(T("inv"), i), zk)), j)
    jo = v_xor(v_shuf(T("inv"), v_xor(v_shuf(T("inv"), j), zk)), i)
    return io, jo


def v_out(io, jo, name):
    return v_xor(v_shuf(T(name + "_io"), io), v_shuf(T(name + "_jo"), jo))


# Plain AES key expansion and cipher (FIPS-197).
def expand(key):
    nk = len(key) // 4
    nr = nk + 6
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    rcon = 1
    for i in range(nk, 4 * (nr + 1)):
        t = list(w[i - 1])
        if i % nk == 0:
            t = [SBOX[b] for b in t[1:] + t[:1]]
            t[0] ^= rcon
            rcon = aes_mul(rcon, 2)
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([x ^ y for x, y in zip(w[i - nk], t)])
    return nr, [sum(w[4 * r:4 * r + 4], []) for r in range(nr + 1)]


def mix(col, m):
    return [aes_mul(m[0], col[r]) ^ aes_mul(m[1], col[(r + 1) % 4]) ^
            aes_mul(m[2], col[(r + 2) % 4]) ^ aes_mul(m[3], col[(r + 3) % 4])
            for r in range(4)]


def mix_all(s, m):
    return sum([mix(s[4 * c:4 * c + 4], m) for c in range(4)], [])


def aes_encrypt(key, blk):
    nr, rk = expand(key)
    s = v_xor(blk, rk[0])
    for r in range(1, nr + 1):
        s = [SBOX[b] for b in s]
        s = [s[perm_sigma(p)] for p in range(16)]
        if r != nr:
            s = mix_all(s, (2, 3, 1, 1))
        s = v_xor(s, rk[r])
    return s


def permute(v, m):
    return v_shuf(v, T("sr%d" % (m % 4)))


def c63(v):
    return [b ^ 0x63 for b in v]


def vperm_keys_enc(key):
    nr, rk = expand(key)
    out = [[l_in(b) for b in rk[0]]]
    for r in range(1, nr):
        out.append(permute([l_in(b) for b in c63(rk[r])], -r))
    out.append(permute(c63(rk[nr]), -nr))
    return nr, out


def vperm_encrypt(key, blk):
    nr, rk = vperm_keys_enc(key)
    s = v_xor(v_lin(blk, "in_lo", "in_hi"), rk[0])
    for r in range(1, nr):
        io, jo = v_invert(s)
        a, b = v_out(io, jo, "enc1"), v_out(io, jo, "enc2")
        m = r % 4
        t = v_xor(b, v_shuf(a, T("fwd%d" % m)))
        s = v_xor(t, v_shuf(t, T("fwd%d" % m)),
                  v_shuf(a, T("bwd%d" % m)), rk[r])
    io, jo = v_invert(s)
    return permute(v_xor(v_out(io, jo, "encl"), rk[nr]), nr)


def vperm_keys_dec(key):
    nr, rk = expand(key)
    out = [[l_d(b) for b in c63(rk[nr])]]
    for i in range(1, nr):
        k = mix_all(rk[nr - i], (14, 11, 13, 9))
        out.append(permute([l_d(b) for b in c63(k)], i))
    out.append(permute(rk[0], nr))
    return nr, out


def vperm_decrypt(key, blk):
    nr, rk = vperm_keys_dec(key)
    s = v_xor(v_lin(blk, "din_lo", "din_hi"), rk[0])
    for i in range(1, nr):
        io, jo = v_invert(s)
        f = T("fwd%d" % (-i % 4))
        acc = v_out(io, jo, "dec9")
        acc = v_xor(v_shuf(acc, f), v_out(io, jo, "dec13"))
        acc = v_xor(v_shuf(acc, f), v_out(io, jo, "dec11"))
        acc = v_xor(v_shuf(acc, f), v_out(io, jo, "dec14"))
        s = v_xor(acc, rk[i])
    io, jo = v_invert(s)
    return permute(v_xor(v_out(io, jo, "decl"), rk[nr]), -nr)


def check():
    # The S-box through the vector path, all 256 inputs.
    xs = list(range(256))
    for c in range(16):
        blk = xs[16 * c:16 * c + 16]
        io, jo = v_invert(v_lin(blk, "in_lo", "in_hi"))
        got = [b ^ 0x63 for b in v_out(io, jo, "encl")]
        assert got == [SBOX[b] for b in blk], "S-box"
        io, jo = v_invert(v_lin(blk, "din_lo", "din_hi"))
        got = v_out(io, jo, "decl")
        assert got == [INV_SBOX[b ^ 0x63] for b in blk], "InvS-box"
    # FIPS-197 appendix C.
    pt = bytes.fromhex("00112233445566778899aabbccddeeff")
    want = {16: "69c4e0d86a7b0430d8cdb78070b4c55a",
            24: "dda97ca4864cdfe06eaf70a0ec0d7191",
            32: "8ea2b7ca516745bfeafc49904b496089"}
    for n, ct in want.items():
        key = bytes(range(n))
        assert bytes(aes_encrypt(key, list(pt))).hex() == ct
        assert bytes(vperm_encrypt(key, list(pt))).hex() == ct, n
        assert bytes(vperm_decrypt(key, list(bytes.fromhex(ct)))) == pt, n
    import random
    rnd = random.Random(1)
    for _ in range(60):
        n = rnd.choice((16, 24, 32))
        key = bytes(rnd.randrange(256) for _ in range(n))
        blk = [rnd.randrange(256) for _ in range(16)]
        ct = vperm_encrypt(key, blk)
        assert ct == aes_encrypt(key, blk)
        assert vperm_decrypt(key, ct) == blk


# --------------------------------------------------------------- output

GROUPS = ("fwd", "bwd", "sr")  # emitted as [4][16], indexed by round mod 4


def emit():
    w = sys.stdout.write
    w("""/*
 * vperm_tables.h -- the 16-byte tables of Hamburg's vector-permute AES,
 * shared by the vperm-* engines. GENERATED by tools/gen_vperm_tables.py,
 * which explains their derivation and checks them by simulating the
 * whole cipher; do not edit by hand.
 *
 * Tower: GF(16) = GF(2)[y]/(y^4 + y + 1), GF(256) = GF(16)[t]/(t^2 + t
 * + z) with z = 0x%x, normal basis {t, tbar}; a state byte holds
 * i = a (high nibble) and k = a + b (low nibble) of a t + b tbar.
 * AES's X maps to the tower element with (a, b) = (0x%x, 0x%x).
 * VPERM_INF stands for 1/0: pshufb, tbl, i8x16.swizzle and vperm (with a
 * zero second source) all return 0 for it and for VPERM_INF ^ n.
 *
 * Index tables (fwd, bwd, sr) are shuffle indices in memory order,
 * out[q] = in[idx[q]], one per round number mod 4.
 */
#ifndef AESIR_VPERM_TABLES_H
#define AESIR_VPERM_TABLES_H

#include <stdint.h>

#define VPERM_INF 0x%02x

/* clang-format off */
""" % (Z, BETA[0], BETA[1], INF))

    def comment_block(text):
        lines = textwrap.wrap(text, 74)
        if len(lines) == 1:
            return "\n/* %s */\n" % lines[0]
        return "\n/*\n" + "".join(" * %s\n" % ln for ln in lines) + " */\n"

    def row(vals):
        return ", ".join("0x%02x" % v for v in vals)

    done = set()
    for name, (comment, vals) in TABLES.items():
        group = name.rstrip("0123456789")
        if group in GROUPS:
            if group in done:
                continue
            done.add(group)
            w(comment_block(comment))
            w("static _Alignas(16) const uint8_t vp_%s[4][16] = {\n" % group)
            for m in range(4):
                v = TABLES["%s%d" % (group, m)][1]
                w("    {%s,\n     %s},\n" % (row(v[:8]), row(v[8:])))
            w("};\n")
            continue
        w(comment_block(comment))
        w("static _Alignas(16) const uint8_t vp_%s[16] = {\n" % name)
        w("    %s,\n    %s,\n};\n" % (row(vals[:8]), row(vals[8:])))
    w("\n/* clang-format on */\n")
    w("\n#endif /* AESIR_VPERM_TABLES_H */\n")


if __name__ == "__main__":
    check()
    if "--check" in sys.argv[1:]:
        print("vperm tables: z = 0x%x, beta = %s; all checks passed"
              % (Z, BETA))
    else:
        emit()
