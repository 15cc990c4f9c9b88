/*
 * ghash_ct64.c -- ghash-ct64: constant-time GHASH with 64-bit integer
 * multiplications, the default multiplier where no carry-less multiply
 * instruction exists (the software AES engines, wasm32, s390x, PowerPC
 * without POWER8).
 *
 * Technique: carry-less products from integer products "with holes"
 * (T. Pornin, BearSSL, src/hash/ghash_ctmul64.c and "Constant-Time
 * Multiplication", bearssl.org/constanttime.html). Split a 64-bit word
 * into its 4 interleaved bit classes (bits 4k + c, c = 0..3):
 *
 *   x_c = x & (0x1111111111111111 << c)      bits: c, c+4, c+8, ...
 *
 * An integer product x_a * y_b has partial products only in columns of
 * class (a + b) mod 4, and a column of the low 64 bits gets at most 16
 * of them (at most 15 below column 60): each class column holds a 4-bit
 * digit, so the integer sum is exact digit by digit and the parity of
 * column k is bit k of the product. The carries run only into the three
 * "holes" above each column (other classes, masked off afterwards); the
 * one case of 16 ones (columns 60..63) carries past bit 63, out of the
 * word. The XOR of the four products landing in class c, masked to that
 * class, is class c of the carry-less product; 16 multiplications give
 * the low 64 bits of a 64 x 64 carry-less product (bmul64 below).
 *
 * The high 64 bits come from bit reversal: with rev() reversing a
 * 64-bit word, rev(bmul64(rev(x), rev(y))) is bits 63 .. 126 of the
 * 127-bit product. That is exactly the high word of the product shifted
 * left by one, which the bit-reflected representation needs anyway
 * (below), so no extra shift is paid.
 *
 * Representation: the block as two words loaded big-endian, a = (a1, a0)
 * with a1 = bytes 0..7; the coefficient of x^i is bit 127 - i of the
 * 128-bit integer (the "reflected" order of Gueron and Kounavis). The
 * 255-bit carry-less product of two such integers, shifted left by one,
 * is the reflected form of the 256-bit field product. Karatsuba makes
 * the 128 x 128 product from 3 products of 64 x 64 (a0 b0, a1 b1,
 * (a0 ^ a1)(b0 ^ b1)), each a low half (bmul64) and a high half (bmul64
 * on reversed words): 6 bmul64, 96 multiplications per block. The
 * reduction modulo x^128 + x^7 + x^2 + x + 1 folds the low 128 bits of
 * the product (x^128 .. x^255) into the high ones, one word at a time:
 * x^(128+t) = x^t (1 + x + x^2 + x^7), i.e. in the reflected order the
 * word itself plus its right shifts by 1, 2 and 7, with the bits those
 * shifts push out landing in the next lower word (left shifts by 63, 62,
 * 57), which the second fold then takes up.
 *
 * Key layout (hk): the 4 bit classes of the 3 Karatsuba operands of H
 * and of their reversals, precomputed so that a block's 6 bmul64 mask
 * only the data side:
 *
 *   cls[0][0..3]  classes of h0 = H bits 63..0     cls[3][]  rev(h0)
 *   cls[1][0..3]  classes of h1 = H bits 127..64   cls[4][]  rev(h1)
 *   cls[2][0..3]  classes of h0 ^ h1               cls[5][]  rev(h0 ^ h1)
 *
 * Constant time: YES, given that 64 x 64 -> 64-bit integer
 * multiplication takes the same time whatever its operands. It does on
 * x86-64, aarch64 application cores, POWER8+ and z/Architecture; it
 * does not on some small cores (ARM Cortex-M3's early-terminating MUL,
 * and 32-bit targets where a 64-bit product is a library call that may
 * skip work on zero halves: BearSSL's ctmul32 is the answer there). No
 * branch or memory index depends on H or the data.
 *
 * Batch: 1 block (the multiplications dominate; aggregating blocks over
 * powers of H would save only reductions).
 */
#include "internal.h"
#include "ghash.h"
#include "../engine/stack_wipe.h"

#define M0 0x1111111111111111u

struct ct64_key {
    uint64_t cls[6][4];
};

static inline uint64_t ct64_rev(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555u) | ((x & 0x5555555555555555u) << 1);
    x = ((x >> 2) & 0x3333333333333333u) | ((x & 0x3333333333333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fu) | ((x & 0x0f0f0f0f0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffu) | ((x & 0x00ff00ff00ff00ffu) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffu) | ((x & 0x0000ffff0000ffffu) << 16);
    return (x >> 32) | (x << 32);
}

/* Low 64 bits of the carry-less product of x and y, y given by its four
 * bit classes. */
static inline uint64_t bmul64(uint64_t x, const uint64_t y[4])
{
    uint64_t x0 = x & M0, x1 = x & (M0 << 1);
    uint64_t x2 = x & (M0 << 2), x3 = x & (M0 << 3);
    uint64_t z0 = (x0 * y[0]) ^ (x1 * y[3]) ^ (x2 * y[2]) ^ (x3 * y[1]);
    uint64_t z1 = (x0 * y[1]) ^ (x1 * y[0]) ^ (x2 * y[3]) ^ (x3 * y[2]);
    uint64_t z2 = (x0 * y[2]) ^ (x1 * y[1]) ^ (x2 * y[0]) ^ (x3 * y[3]);
    uint64_t z3 = (x0 * y[3]) ^ (x1 * y[2]) ^ (x2 * y[1]) ^ (x3 * y[0]);
    return (z0 & M0) | (z1 & (M0 << 1)) | (z2 & (M0 << 2)) | (z3 & (M0 << 3));
}

static void split(uint64_t c[4], uint64_t v)
{
    for (int i = 0; i < 4; i++)
        c[i] = v & (M0 << i);
}

static void ct64_init(void *hk, const uint8_t h[16])
{
    struct ct64_key *k = hk;
    uint64_t h1 = aesir_load_be64(h), h0 = aesir_load_be64(h + 8);
    split(k->cls[0], h0);
    split(k->cls[1], h1);
    split(k->cls[2], h0 ^ h1);
    split(k->cls[3], ct64_rev(h0));
    split(k->cls[4], ct64_rev(h1));
    split(k->cls[5], ct64_rev(h0 ^ h1));
}

STACK_WIPE_BODY static void ct64_ghash_body(const void *hk, uint8_t y[16],
                                            const uint8_t *in, size_t nblocks)
{
    const struct ct64_key *k = hk;
    uint64_t y1 = aesir_load_be64(y), y0 = aesir_load_be64(y + 8);
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        uint64_t a1 = y1 ^ aesir_load_be64(in);
        uint64_t a0 = y0 ^ aesir_load_be64(in + 8);
        uint64_t a2 = a0 ^ a1;
        uint64_t r0 = ct64_rev(a0), r1 = ct64_rev(a1), r2 = r0 ^ r1;

        /* Low halves; high halves (reversed, then bits 63..126). */
        uint64_t l0 = bmul64(a0, k->cls[0]);
        uint64_t l1 = bmul64(a1, k->cls[1]);
        uint64_t l2 = bmul64(a2, k->cls[2]);
        uint64_t g0 = bmul64(r0, k->cls[3]);
        uint64_t g1 = bmul64(r1, k->cls[4]);
        uint64_t g2 = bmul64(r2, k->cls[5]);
        l2 ^= l0 ^ l1;
        g2 ^= g0 ^ g1;
        g0 = ct64_rev(g0);
        g1 = ct64_rev(g1);
        g2 = ct64_rev(g2);

        /* The 256-bit product shifted left by one, words w3 (x^0 ..
         * x^63) down to w0 (x^192 .. x^255). Twice a 64 x 64 product P
         * is the pair (P >> 63, P << 1) = (g, l << 1): each g already
         * holds the bit its low word shifts out. */
        uint64_t w0 = l0 << 1;
        uint64_t w1 = g0 ^ (l2 << 1);
        uint64_t w2 = g2 ^ (l1 << 1);
        uint64_t w3 = g1;

        /* Fold w0 into w2:w1, then w1 into w3:w2. */
        w2 ^= w0 ^ (w0 >> 1) ^ (w0 >> 2) ^ (w0 >> 7);
        w1 ^= (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
        w3 ^= w1 ^ (w1 >> 1) ^ (w1 >> 2) ^ (w1 >> 7);
        w2 ^= (w1 << 63) ^ (w1 << 62) ^ (w1 << 57);
        y1 = w3;
        y0 = w2;
    }
    aesir_store_be64(y, y1);
    aesir_store_be64(y + 8, y0);
}

/* The 24 key words do not fit in registers: their spills and the hash
 * state stay in the frame, wiped (stack_wipe.h; gcc 12's frame is 184
 * bytes). */
STACK_WIPED_GHASH(ct64_ghash, ct64_ghash_body, 448)

static const struct aesir_ghash_engine engine = {
    .name = "ghash-ct64",
    .description = "64-bit integer multiplies with holes (BearSSL ctmul64)",
    .flags = ENGINE_CT,
    .batch = 1,
    .init = ct64_init,
    .ghash = ct64_ghash,
};

const struct aesir_ghash_engine *aesir_ghash_ct64(void)
{
    return &engine;
}
