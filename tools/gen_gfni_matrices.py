#!/usr/bin/env python3
"""gen_gfni_matrices.py -- derives the constants of the GFNI engine
(src/engine/gfni.c) and checks them by simulating the engine's round
functions against FIPS-197.

    python3 tools/gen_gfni_matrices.py          # print the C constants
    python3 tools/gen_gfni_matrices.py --check  # verify only

The instructions (Intel SDM vol. 2, GF2P8AFFINEQB, GF2P8AFFINEINVQB):

    gf2p8affineqb(x, A, b)    = A.x + b           for every byte x
    gf2p8affineinvqb(x, A, b) = A.inv(x) + b      inv in GF(2^8) mod
                                                  x^8+x^4+x^3+x+1, inv(0)=0

A is an 8x8 bit matrix stored in a 64-bit word: byte 7-i of the word is
row i, the mask of input bits whose parity is output bit i. So
gf2p8affineinvqb with the AES affine matrix and b = 0x63 is the AES
S-box (FIPS-197 5.1.1), and every GF(2)-linear map L composed with the
inversion is one instruction: L.inv(x) (L = multiplication by a field
constant, the inverse affine map, products of those).

Everything below is derived from the field arithmetic; the S-box and the
cipher are checked against FIPS-197 (inverse by brute force, the
Appendix C vectors).
"""
import sys


def gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = (a << 1) ^ (0x11B if a & 0x80 else 0)
        b >>= 1
    return r


def ginv(x):
    if x == 0:
        return 0
    for y in range(1, 256):
        if gmul(x, y) == 1:
            return y
    raise AssertionError


INV = [ginv(x) for x in range(256)]


def rotl8(x, n):
    return ((x << n) | (x >> (8 - n))) & 0xFF


def aes_affine(x):
    """The linear part of the S-box affine map (FIPS-197 eq. 5.1)."""
    return x ^ rotl8(x, 1) ^ rotl8(x, 2) ^ rotl8(x, 3) ^ rotl8(x, 4)


def matrix(f):
    """The GFNI qword of the GF(2)-linear byte map f."""
    for x in range(256):  # f must be linear
        for y in (1, 2, 4, 8, 16, 32, 64, 128):
            assert f(x ^ y) == f(x) ^ f(y)
    q = 0
    for i in range(8):
        row = 0
        for k in range(8):
            if (f(1 << k) >> i) & 1:
                row |= 1 << k
        q |= row << (8 * (7 - i))
    return q


def apply(q, x):
    """gf2p8affineqb on one byte, b = 0, as the SDM defines it."""
    r = 0
    for i in range(8):
        row = (q >> (8 * (7 - i))) & 0xFF
        r |= (bin(row & x).count("1") & 1) << i
    return r


def affine(q, x, b):
    return apply(q, x) ^ b


def affineinv(q, x, b):
    return apply(q, INV[x]) ^ b


# The linear maps and their matrices.
AFF = aes_affine
AFF_INV_TABLE = {aes_affine(x): x for x in range(256)}
assert len(AFF_INV_TABLE) == 256


def aff_inv(y):
    return AFF_INV_TABLE[y]


def mul(c):
    return lambda x: gmul(c, x)


def compose(f, g):
    return lambda x: f(g(x))


M_AFF = matrix(AFF)                   # S(x) = A.inv(x) + 0x63
M_AFF2 = matrix(compose(mul(2), AFF))  # 2.S(x) = (2A).inv(x) + 2.0x63
M_ID = matrix(lambda x: x)            # plain inversion
M_AFFINV = matrix(aff_inv)            # A^-1
M_MUL2 = matrix(mul(2))               # xtime
INV_AFF_C = aff_inv(0x63)             # A^-1 . 0x63 = 0x05
DEC = {c: matrix(compose(aff_inv, mul(c))) for c in (9, 11, 13, 14)}

SBOX = [affineinv(M_AFF, x, 0x63) for x in range(256)]
# S(x) = A.inv(x) + 0x63 written out bit by bit (FIPS-197 5.1), and the
# two well-known anchors S(0) = 0x63, S(0x53) = 0xED (FIPS-197 5.1.1).
for x in range(256):
    assert SBOX[x] == aes_affine(INV[x]) ^ 0x63
assert SBOX[0] == 0x63 and SBOX[0x53] == 0xED
assert sorted(SBOX) == list(range(256))
INV_SBOX = [0] * 256
for x in range(256):
    INV_SBOX[SBOX[x]] = x
for x in range(256):
    # 2.S(x) from a second, independent gf2p8affineinvqb
    assert affineinv(M_AFF2, x, gmul(2, 0x63)) == gmul(2, SBOX[x])
    # inverse S-box: affine with A^-1 and 0x05, then inversion (identity)
    assert affineinv(M_ID, affine(M_AFFINV, x, INV_AFF_C), 0) == INV_SBOX[x]
    assert affine(M_MUL2, x, 0) == gmul(2, x)
    for c, q in DEC.items():
        assert affineinv(q, x, 0) == aff_inv(gmul(c, INV[x]))
assert M_AFF == 0xF1E3C78F1F3E7CF8
assert INV_AFF_C == 0x05

# ---------------------------------------------------------------------
# Byte permutations. State byte 4c + r is row r of column c (FIPS-197
# 3.4). A permutation is the index vector idx of vpshufb: out[i] =
# in[idx[i]].


def perm(idx):
    return lambda v: [v[i] for i in idx]


SR = [r + 4 * ((c + r) % 4) for c in range(4) for r in range(4)]
ROT = [[(r + m) % 4 + 4 * c for c in range(4) for r in range(4)]
       for m in range(4)]  # ROT[m]: out row r = in row r+m


def pcompose(p, q):
    """Index vector of p o q (q first)."""
    return [q[p[i]] for i in range(16)]


def ppow(p, n):
    r = list(range(16))
    for _ in range(n % 4):
        r = pcompose(p, r)
    return r


def pinv(p):
    r = [0] * 16
    for i, j in enumerate(p):
        r[j] = i
    return r


SR_POW = [ppow(SR, j) for j in range(4)]
SR_NEG = [ppow(pinv(SR), j) for j in range(4)]
# ROT conjugated into the frame SR^-j: SR^-j o ROT[m] o SR^j.
ROTJ = [[pcompose(SR_NEG[j], pcompose(ROT[m], SR_POW[j])) for j in range(4)]
        for m in range(4)]

# ---------------------------------------------------------------------
# Simulation of the engine, block by block, against FIPS-197.


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]


def sub(v, q, b, inv=True):
    return [affineinv(q, x, b) if inv else affine(q, x, b) for x in v]


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
            rcon = gmul(rcon, 2)
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append(xor(w[i - nk], t))
    return nr, [sum(w[4 * r:4 * r + 4], []) for r in range(nr + 1)]


def inv_mix(v):
    out = [0] * 16
    for i in range(16):
        for m, c in enumerate((14, 11, 13, 9)):
            out[i] ^= gmul(c, v[ROT[m][i]])
    return out


def enc_keys(k, nr):
    return [perm(SR_NEG[r % 4])(k[r]) for r in range(nr + 1)]


def dec_keys(k, nr):
    rk = [sub(k[nr], M_AFFINV, 0, inv=False)]
    for j in range(1, nr):
        t = sub(inv_mix(k[nr - j]), M_AFFINV, INV_AFF_C, inv=False)
        rk.append(perm(SR_POW[j % 4])(t))
    rk.append(perm(SR_POW[nr % 4])(k[0]))
    return rk


def encrypt(rk, nr, p):
    z = xor(p, rk[0])
    for r in range(nr - 1):
        j = (r + 1) % 4
        s = sub(z, M_AFF, 0x63)
        r1 = perm(ROTJ[1][j])(s)
        b = xor(s, r1)
        z = xor(xor(sub(b, M_MUL2, 0, inv=False), r1),
                xor(perm(ROTJ[2][j])(b), rk[r + 1]))
    s = sub(z, M_AFF, 0x63)
    return perm(SR_POW[nr % 4])(xor(s, rk[nr]))


def encrypt_serial(rk, nr, p):
    """The latency path: S and 2S from two independent instructions."""
    z = xor(p, rk[0])
    for r in range(nr - 1):
        j = (r + 1) % 4
        s = sub(z, M_AFF, 0x63)
        s2 = sub(z, M_AFF2, gmul(2, 0x63))
        z = xor(xor(xor(s2, rk[r + 1]), perm(ROTJ[1][j])(xor(s, s2))),
                xor(perm(ROTJ[2][j])(s), perm(ROTJ[3][j])(s)))
    s = sub(z, M_AFF, 0x63)
    return perm(SR_POW[nr % 4])(xor(s, rk[nr]))


def decrypt(rk, nr, c):
    t = xor(sub(c, M_AFFINV, INV_AFF_C, inv=False), rk[0])
    for j in range(1, nr):
        jj = (-j) % 4
        p = {cc: sub(t, DEC[cc], 0) for cc in DEC}
        t = xor(xor(p[14], perm(ROTJ[1][jj])(p[11])),
                xor(xor(perm(ROTJ[2][jj])(p[13]), perm(ROTJ[3][jj])(p[9])),
                    rk[j]))
    a = sub(t, M_ID, 0)
    return perm(SR_NEG[nr % 4])(xor(a, rk[nr]))


FIPS197_C = [  # Appendix C: key, ciphertext of 00112233...eeff
    ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
    ("000102030405060708090a0b0c0d0e0f1011121314151617",
     "dda97ca4864cdfe06eaf70a0ec0d7191"),
    ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "8ea2b7ca516745bfeafc49904b496089"),
]


def check_cipher():
    pt = list(bytes.fromhex("00112233445566778899aabbccddeeff"))
    for key, ct in FIPS197_C:
        nr, k = expand(bytes.fromhex(key))
        want = list(bytes.fromhex(ct))
        assert encrypt(enc_keys(k, nr), nr, pt) == want, key
        assert encrypt_serial(enc_keys(k, nr), nr, pt) == want, key
        assert decrypt(dec_keys(k, nr), nr, want) == pt, key


def c_idx(name, rows, comment):
    out = ["/* %s */" % comment,
           "static _Alignas(16) const uint8_t %s[%d][16] = {" % (name,
                                                               len(rows))]
    for r in rows:
        out.append("    {" + ", ".join("%d" % x for x in r) + "},")
    out.append("};")
    return "\n".join(out)


def main():
    check_cipher()
    if "--check" in sys.argv[1:]:
        print("gfni matrices: S-box, inverse S-box, 2.S, decryption "
              "products for all 256 inputs and FIPS-197 Appendix C: OK")
        return
    print("/* Generated by tools/gen_gfni_matrices.py; checked there. */")
    for name, q in (("GF_AFF", M_AFF), ("GF_AFF2", M_AFF2), ("GF_ID", M_ID),
                    ("GF_AFFINV", M_AFFINV), ("GF_MUL2", M_MUL2),
                    ("GF_DEC14", DEC[14]), ("GF_DEC11", DEC[11]),
                    ("GF_DEC13", DEC[13]), ("GF_DEC9", DEC[9])):
        print("#define %-10s 0x%016XULL" % (name, q))
    print("#define GF_C63     0x63 /* S(0) */")
    print("#define GF_C63X2   0x%02X /* 2.0x63 */" % gmul(2, 0x63))
    print("#define GF_C05     0x%02X /* A^-1.0x63 */" % INV_AFF_C)
    print(c_idx("gf_sr", SR_POW, "gf_sr[j] = ShiftRows^j"))
    print(c_idx("gf_isr", SR_NEG, "gf_isr[j] = ShiftRows^-j"))
    for m in (1, 2, 3):
        print(c_idx("gf_rot%d" % m, ROTJ[m],
                    "gf_rot%d[j]: row r <- row r+%d of each column, in "
                    "the frame ShiftRows^-j" % (m, m)))


if __name__ == "__main__":
    main()
