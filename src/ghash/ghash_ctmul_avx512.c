/*
 * ghash_ctmul_avx512.c -- ghash-ctmul-avx512: constant-time software
 * GHASH (no carry-less multiply instruction) with AVX-512 integer
 * multiplies, 8 blocks per reduction.
 *
 * Technique: ghash-ct64's carry-less products from integer products
 * "with holes" (T. Pornin, "Constant-Time Multiplication",
 * bearssl.org/constanttime.html; ghash_ct64.c has the math), on 32-bit
 * words in the 8 qword lanes of a zmm register: VPMULUDQ multiplies the
 * low 32 bits of each lane into a 64-bit product, 8 at once. A 32-bit
 * word splits into 4 bit classes (bits 4t + c, c = 0..3) of 8 bits each;
 * the integer product of a class-a and a class-b operand has its partial
 * products in columns of class (a + b) mod 4, column a + b + 4u getting
 * #{(t, t') : t + t' = u, 0 <= t, t' <= 7} <= 8 of them (u = 7). 8 fits
 * the 4-bit digit each class column owns (at most 15), so the sum in a
 * column never carries into the next column of its class: it carries
 * only into the 3 holes above it (other classes, masked off). No product
 * leaves its 64-bit lane (32 x 32 bits). The XOR of the 4 products that
 * land in class c, masked to class c, is class c of the 63-bit
 * carry-less product of the two words: 16 VPMULUDQ per word pair.
 *
 * Representation: the reflected order of Gueron and Kounavis (ghash.h,
 * aesir_ghash_key_xinv): a block is the 128-bit big-endian integer of its
 * bytes, 4 words a_3 (bytes 0..3) .. a_0 (bytes 12..15); keys are
 * K_j = H^j x^-1, so that the 255-bit carry-less product of a block and
 * K_j, taken as a 256-bit integer, is already the reflected field
 * product (no shift), reduced as ghash-ct64 reduces.
 *
 * Aggregation (Gueron and Kounavis, Intel white paper 323640, the
 * aggregated reduction): 8 blocks X_1..X_8 at once,
 *
 *   y' = (y + X_1) H^8 + X_2 H^7 + ... + X_8 H
 *
 * with lane j holding block X_(j+1) and key K_(8-j). The products of the
 * 8 lanes are summed (XOR) before the one reduction, and since masking
 * and XOR commute, the lane sum is taken after the class masks, on 4
 * vectors.
 *
 * Karatsuba, two levels: the 128 x 128 product from 3 products of 64-bit
 * halves (low, high, and their XORs), each from 3 word products (likewise
 * over 32-bit words): 9 word products of 16 VPMULUDQ, 144 VPMULUDQ per 8
 * blocks (schoolbook needs 16 word products, 256; measured first, it ran
 * at 0.74 of this speed). Each word product is merged to its 63-bit
 * carry-less product at once (3 bit selects), so that few vectors are
 * live: the data side's classes are made on the fly (4 ANDs), the key
 * side's are precomputed. The Karatsuba sums are taken lane by lane, the
 * 4 resulting 64-bit words summed over the lanes, and the reduction is
 * scalar, once per 8 blocks. A tail of m < 8 blocks goes, zero-padded in
 * front, into lanes 8 - m .. 7, which hold K_m .. K_1: the same kernel,
 * no other key layout.
 *
 * Data layout: 8 blocks (two zmm loads, each dword byte-swapped) are
 * transposed by VPERMT2D into 4 vectors A_w, qword lane j = word w of
 * block j in its low 32 bits (VPMULUDQ ignores the high 32 bits).
 *
 * Key layout (hk, 2304 bytes of AESIR_GHASH_KEY_BYTES): with w_0 .. w_3
 * the words of K_(8-j), the 9 Karatsuba operands
 *
 *   v = 0    1    2          3    4    5          6          7
 *       w_0  w_1  w_0^w_1    w_2  w_3  w_2^w_3    w_0^w_2    w_1^w_3
 *   v = 8    w_0^w_1^w_2^w_3
 *
 *   kc[v][c][j]   (64-bit)  class c of operand v of lane j's key, in its
 *                           low 32 bits; one zmm load per (v, c)
 *
 * CPU: AVX512F (VPMULUDQ, VPERMT2D, VPTERNLOGQ on zmm) + AVX512BW
 * (VPSHUFB on zmm); aesir_cpu_features() reports them only when the OS
 * saves the zmm state.
 *
 * Constant time: YES, given that VPMULUDQ takes the same time whatever
 * its operands. It is a pipelined fixed-latency multiplier on the cores
 * with AVX-512 (Intel Skylake-X and later: 5 cycles; AMD Zen 4: 3;
 * uops.info, Agner Fog's instruction tables), with no known
 * early-termination or operand-dependent path (Intel's list of "data
 * operand independent timing" instructions is the document to check
 * for a given core; not verified here). No branch or memory index depends on H
 * or the data; branches and offsets depend on the block count only. Key
 * setup uses the same multiplier lane-wise, and squarings by bit
 * spreading.
 *
 * Batch: 8 blocks.
 */
#include "internal.h"
#include "ghash.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "avx2,avx512f,avx512bw"
#include "../engine/engine.h"
#include "../engine/stack_wipe.h"
#include <immintrin.h>
#include <string.h>

#define CM_N 8
#define M32 0x11111111u
#define M64 0x1111111111111111u

/* The kernel's loops must be unrolled so that its arrays of vectors
 * become registers. */
#if defined(__clang__)
#define CM_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define CM_UNROLL _Pragma("GCC unroll 8")
#else
#define CM_UNROLL
#endif

struct ctmul_key {
    uint64_t kc[9][4][CM_N];
};

/* ---- Scalar helpers of the key setup ---- */

/* Reduces the 256-bit reflected product w[3] (x^0 .. x^63) .. w[0]
 * (x^192 .. x^255) to r = (high, low) modulo x^128 + x^7 + x^2 + x + 1,
 * as ghash-ct64 does: x^(128+t) = x^t (1 + x + x^2 + x^7), a right shift
 * in the reflected order, the bits it pushes out folded again. */
static inline void cm_reduce(uint64_t r[2], uint64_t w0, uint64_t w1,
                             uint64_t w2, uint64_t w3)
{
    w2 ^= w0 ^ (w0 >> 1) ^ (w0 >> 2) ^ (w0 >> 7);
    w1 ^= (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
    w3 ^= w1 ^ (w1 >> 1) ^ (w1 >> 2) ^ (w1 >> 7);
    w2 ^= (w1 << 63) ^ (w1 << 62) ^ (w1 << 57);
    r[0] = w3;
    r[1] = w2;
}

/* x with a zero bit inserted after each bit: the carry-less square of a
 * 32-bit word. */
static uint64_t cm_spread(uint32_t v)
{
    uint64_t x = v;
    x = (x | (x << 16)) & 0x0000ffff0000ffffu;
    x = (x | (x << 8)) & 0x00ff00ff00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0f0f0f0f0fu;
    x = (x | (x << 2)) & 0x3333333333333333u;
    return (x | (x << 1)) & 0x5555555555555555u;
}

/* r = a^2 x reduced: squaring is linear over GF(2), no multiplies. */
static void cm_sqr(uint64_t r[2], const uint64_t a[2])
{
    cm_reduce(r, cm_spread((uint32_t)a[1]), cm_spread((uint32_t)(a[1] >> 32)),
              cm_spread((uint32_t)a[0]), cm_spread((uint32_t)(a[0] >> 32)));
}

/* ---- The 8-block kernel ---- */

ENGINE_INLINE __m512i cm_xor3(__m512i a, __m512i b, __m512i c)
{
    return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}

/* Bits of class c from z[c], c = 0..3: three bit selects. */
ENGINE_INLINE __m512i cm_merge(const __m512i z[4])
{
    const __m512i m0 = _mm512_set1_epi64((long long)M64);
    const __m512i m2 = _mm512_set1_epi64((long long)(M64 << 2));
    const __m512i m01 = _mm512_set1_epi64((long long)(M64 * 3));
    /* 0xca: a ? b : c, bit by bit */
    __m512i lo = _mm512_ternarylogic_epi64(m0, z[0], z[1], 0xca);
    __m512i hi = _mm512_ternarylogic_epi64(m2, z[2], z[3], 0xca);
    return _mm512_ternarylogic_epi64(m01, lo, hi, 0xca);
}

/* The sum of the 8 lanes. */
ENGINE_INLINE uint64_t cm_hsum(__m512i v)
{
    __m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    __m128i u = _mm_xor_si128(_mm256_castsi256_si128(t),
                              _mm256_extracti128_si256(t, 1));
    return (uint64_t)_mm_cvtsi128_si64(u) ^ (uint64_t)_mm_extract_epi64(u, 1);
}

/* The carry-less product of data word d and key operand p, lane by
 * lane: d's 4 classes times the key's 4 (16 VPMULUDQ), the products XORed
 * by the class they land in (data class x times key class c: x + c). */
ENGINE_INLINE __m512i cm_wordmul(__m512i d, const struct ctmul_key *key, int p)
{
    __m512i dc[4], z[4];
    CM_UNROLL
    for (int x = 0; x < 4; x++)
        dc[x] = _mm512_and_si512(d, _mm512_set1_epi64((long long)(M32 << x)));
    CM_UNROLL
    for (int c = 0; c < 4; c++) {
        __m512i kv = _mm512_loadu_si512((const void *)key->kc[p][c]);
        CM_UNROLL
        for (int x = 0; x < 4; x++) {
            __m512i t = _mm512_mul_epu32(dc[x], kv);
            z[(x + c) & 3] = c == 0 ? t : _mm512_xor_si512(z[(x + c) & 3], t);
        }
    }
    return cm_merge(z);
}

/* The 128-bit carry-less product (hi, lo) of the data words (d1, d0) and
 * key operands p .. p + 2 (k0, k1, k0 ^ k1): Karatsuba, 3 word products. */
ENGINE_INLINE void cm_mul64(__m512i *lo, __m512i *hi, __m512i d0, __m512i d1,
                            const struct ctmul_key *key, int p)
{
    __m512i l = cm_wordmul(d0, key, p);
    __m512i h = cm_wordmul(d1, key, p + 1);
    __m512i m = cm_xor3(cm_wordmul(_mm512_xor_si512(d0, d1), key, p + 2), l, h);
    *lo = _mm512_xor_si512(l, _mm512_slli_epi64(m, 32));
    *hi = _mm512_xor_si512(h, _mm512_srli_epi64(m, 32));
}

/* The 256-bit carry-less products of the words a[0..3] (lane by lane)
 * and the key's: w[0] (bits 0..63) .. w[3]. Karatsuba over the 64-bit
 * halves, each by Karatsuba over words. */
ENGINE_INLINE void cm_product(__m512i w[4], const __m512i a[4],
                              const struct ctmul_key *key)
{
    __m512i l0, l1, h0, h1, m0, m1;
    cm_mul64(&l0, &l1, a[0], a[1], key, 0);
    cm_mul64(&h0, &h1, a[2], a[3], key, 3);
    cm_mul64(&m0, &m1, _mm512_xor_si512(a[0], a[2]),
             _mm512_xor_si512(a[1], a[3]), key, 6);
    w[0] = l0;
    w[1] = cm_xor3(l1, m0, l0);
    w[2] = cm_xor3(h0, m1, h1);
    w[3] = h1;
    w[1] = _mm512_xor_si512(w[1], h0);
    w[2] = _mm512_xor_si512(w[2], l1);
}

/* y = (y + X_1) H^8 + X_2 H^7 + ... + X_8 H for the 8 blocks X_i at p,
 * y as its reflected (high, low) integer. */
ENGINE_FN void cm_block8(const struct ctmul_key *key, uint64_t y[2],
                         const uint8_t *p)
{
    const __m512i bswap = _mm512_broadcast_i32x4(
        _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
    __m512i lo = _mm512_loadu_si512((const void *)p);
    __m512i hi = _mm512_loadu_si512((const void *)(p + 64));
    __m512i a[4];

    /* y into block 0, as the bytes it stands for */
    __m128i yb = _mm_set_epi64x((long long)__builtin_bswap64(y[1]),
                                (long long)__builtin_bswap64(y[0]));
    lo = _mm512_xor_si512(lo, _mm512_zextsi128_si512(yb));
    lo = _mm512_shuffle_epi8(lo, bswap);
    hi = _mm512_shuffle_epi8(hi, bswap);
    /* word w of block j is dword 4 j + 3 - w of lo:hi */
    for (int w = 0; w < 4; w++) {
        const __m512i idx = _mm512_set_epi32(
            31 - w, 31 - w, 27 - w, 27 - w, 23 - w, 23 - w, 19 - w, 19 - w,
            15 - w, 15 - w, 11 - w, 11 - w, 7 - w, 7 - w, 3 - w, 3 - w);
        a[w] = _mm512_permutex2var_epi32(lo, idx, hi);
    }

    __m512i w[4];
    cm_product(w, a, key);
    cm_reduce(y, cm_hsum(w[0]), cm_hsum(w[1]), cm_hsum(w[2]), cm_hsum(w[3]));
}

STACK_WIPE_BODY ENGINE_FN void cm_ghash_body(const void *hk, uint8_t y[16],
                                             const uint8_t *in, size_t nblocks)
{
    const struct ctmul_key *key = hk;
    uint64_t acc[2] = {aesir_load_be64(y), aesir_load_be64(y + 8)};
    for (; nblocks >= CM_N; nblocks -= CM_N, in += 16 * CM_N)
        cm_block8(key, acc, in);
    if (nblocks > 0) {
        /* m blocks into lanes 8 - m .. 7 (keys K_m .. K_1); zero blocks
         * in front add nothing, and y goes with lane 8 - m's block. */
        uint8_t buf[16 * CM_N];
        size_t off = 16 * (CM_N - nblocks);
        memset(buf, 0, off);
        memcpy(buf + off, in, 16 * nblocks);
        for (int b = 0; b < 8; b++) {
            buf[off + b] ^= (uint8_t)(acc[0] >> (56 - 8 * b));
            buf[off + 8 + b] ^= (uint8_t)(acc[1] >> (56 - 8 * b));
        }
        acc[0] = acc[1] = 0;
        cm_block8(key, acc, buf);
    }
    aesir_store_be64(y, acc[0]);
    aesir_store_be64(y + 8, acc[1]);
}

/* The frame holds the hash state, a tail's blocks and whatever zmm
 * values the compiler spills (stack_wipe.h; gcc 12: 224 + 8 bytes,
 * clang 14: 200 + 0). */
STACK_WIPED_GHASH(cm_ghash, cm_ghash_body, 512)

/* ---- Key setup ---- */

/* The key area for the 8 lanes' keys (hi, lo): the 9 Karatsuba operands
 * of their words, split into classes. */
ENGINE_INLINE void cm_split(struct ctmul_key *key, __m512i lo, __m512i hi)
{
    __m512i w0 = lo, w1 = _mm512_srli_epi64(lo, 32);
    __m512i w2 = hi, w3 = _mm512_srli_epi64(hi, 32);
    __m512i op[9] = {w0,
                     w1,
                     _mm512_xor_si512(w0, w1),
                     w2,
                     w3,
                     _mm512_xor_si512(w2, w3),
                     _mm512_xor_si512(w0, w2),
                     _mm512_xor_si512(w1, w3),
                     cm_xor3(w0, w1, _mm512_xor_si512(w2, w3))};
    for (int v = 0; v < 9; v++)
        for (int c = 0; c < 4; c++)
            _mm512_storeu_si512(
                (void *)key->kc[v][c],
                _mm512_and_si512(op[v],
                                 _mm512_set1_epi64((long long)(M32 << c))));
}

/* cm_wordmul with the key operand k in a register, split here. */
ENGINE_INLINE __m512i cm_wordmul_r(__m512i d, __m512i k)
{
    __m512i dc[4], z[4];
    CM_UNROLL
    for (int x = 0; x < 4; x++)
        dc[x] = _mm512_and_si512(d, _mm512_set1_epi64((long long)(M32 << x)));
    CM_UNROLL
    for (int c = 0; c < 4; c++) {
        __m512i kv =
            _mm512_and_si512(k, _mm512_set1_epi64((long long)(M32 << c)));
        CM_UNROLL
        for (int x = 0; x < 4; x++) {
            __m512i t = _mm512_mul_epu32(dc[x], kv);
            z[(x + c) & 3] = c == 0 ? t : _mm512_xor_si512(z[(x + c) & 3], t);
        }
    }
    return cm_merge(z);
}

/* The 128-bit carry-less product of words (d1, d0) and (k1, k0). */
ENGINE_INLINE void cm_mul64_r(__m512i *lo, __m512i *hi, __m512i d0, __m512i d1,
                              __m512i k0, __m512i k1)
{
    __m512i l = cm_wordmul_r(d0, k0);
    __m512i h = cm_wordmul_r(d1, k1);
    __m512i m = cm_xor3(
        cm_wordmul_r(_mm512_xor_si512(d0, d1), _mm512_xor_si512(k0, k1)), l, h);
    *lo = _mm512_xor_si512(l, _mm512_slli_epi64(m, 32));
    *hi = _mm512_xor_si512(h, _mm512_srli_epi64(m, 32));
}

/* Lane by lane, (hi, lo) = a b x, all as (hi, lo) 64-bit lanes: for
 * keys, K_i K_j x = K_(i+j). cm_product's Karatsuba, then cm_reduce on
 * vectors. */
ENGINE_INLINE void cm_lanemul(__m512i *lo, __m512i *hi, __m512i alo,
                              __m512i ahi, __m512i blo, __m512i bhi)
{
    __m512i a1 = _mm512_srli_epi64(alo, 32), a3 = _mm512_srli_epi64(ahi, 32);
    __m512i b1 = _mm512_srli_epi64(blo, 32), b3 = _mm512_srli_epi64(bhi, 32);
    __m512i l0, l1, h0, h1, m0, m1;
    cm_mul64_r(&l0, &l1, alo, a1, blo, b1);
    cm_mul64_r(&h0, &h1, ahi, a3, bhi, b3);
    cm_mul64_r(&m0, &m1, _mm512_xor_si512(alo, ahi), _mm512_xor_si512(a1, a3),
               _mm512_xor_si512(blo, bhi), _mm512_xor_si512(b1, b3));
    __m512i w0 = l0, w1 = cm_xor3(l1, m0, _mm512_xor_si512(l0, h0));
    __m512i w2 = cm_xor3(h0, m1, _mm512_xor_si512(h1, l1)), w3 = h1;
    w2 = cm_xor3(w2, w0, _mm512_srli_epi64(w0, 1));
    w2 = cm_xor3(w2, _mm512_srli_epi64(w0, 2), _mm512_srli_epi64(w0, 7));
    w1 = cm_xor3(w1, _mm512_slli_epi64(w0, 63), _mm512_slli_epi64(w0, 62));
    w1 = _mm512_xor_si512(w1, _mm512_slli_epi64(w0, 57));
    w3 = cm_xor3(w3, w1, _mm512_srli_epi64(w1, 1));
    w3 = cm_xor3(w3, _mm512_srli_epi64(w1, 2), _mm512_srli_epi64(w1, 7));
    w2 = cm_xor3(w2, _mm512_slli_epi64(w1, 63), _mm512_slli_epi64(w1, 62));
    w2 = _mm512_xor_si512(w2, _mm512_slli_epi64(w1, 57));
    *hi = w3;
    *lo = w2;
}

ENGINE_INLINE __m512i cm_lanes(const uint64_t v[CM_N])
{
    return _mm512_loadu_si512((const void *)v);
}

/*
 * K_1 .. K_8: K_2, K_4, K_8 by squaring (scalar, no multiply); then two
 * lane-wise products on zmm, both operands in registers: [K_3 K_5 K_6] =
 * [K_2 K_4 K_4] x [K_1 K_1 K_2], then K_7 = K_4 K_3; then the layout
 * (lane j: K_(8-j)).
 */
STACK_WIPE_BODY ENGINE_FN void cm_init_body(void *hk, const uint8_t h[16])
{
    struct ctmul_key *key = hk;
    uint64_t k[CM_N + 1][2]; /* k[j] = K_j as (hi, lo) */
    uint64_t vl[CM_N], vh[CM_N];
    __m512i lo, hi;

    aesir_ghash_key_xinv(k[1], h);
    cm_sqr(k[2], k[1]);
    cm_sqr(k[4], k[2]);
    cm_sqr(k[8], k[4]);

    /* [K_3 K_5 K_6] = [K_2 K_4 K_4] x [K_1 K_1 K_2] */
    lo = _mm512_set_epi64(0, 0, 0, 0, 0, (long long)k[4][1], (long long)k[4][1],
                          (long long)k[2][1]);
    hi = _mm512_set_epi64(0, 0, 0, 0, 0, (long long)k[4][0], (long long)k[4][0],
                          (long long)k[2][0]);
    cm_lanemul(&lo, &hi, lo, hi,
               _mm512_set_epi64(0, 0, 0, 0, 0, (long long)k[2][1],
                                (long long)k[1][1], (long long)k[1][1]),
               _mm512_set_epi64(0, 0, 0, 0, 0, (long long)k[2][0],
                                (long long)k[1][0], (long long)k[1][0]));
    _mm512_storeu_si512((void *)vl, lo);
    _mm512_storeu_si512((void *)vh, hi);
    k[3][0] = vh[0], k[3][1] = vl[0];
    k[5][0] = vh[1], k[5][1] = vl[1];
    k[6][0] = vh[2], k[6][1] = vl[2];
    /* K_7 = K_4 K_3 */
    cm_lanemul(&lo, &hi, _mm512_set1_epi64((long long)k[4][1]),
               _mm512_set1_epi64((long long)k[4][0]),
               _mm512_set1_epi64((long long)k[3][1]),
               _mm512_set1_epi64((long long)k[3][0]));
    _mm512_storeu_si512((void *)vl, lo);
    _mm512_storeu_si512((void *)vh, hi);
    k[7][0] = vh[0];
    k[7][1] = vl[0];

    for (int j = 0; j < CM_N; j++) {
        vh[j] = k[CM_N - j][0];
        vl[j] = k[CM_N - j][1];
    }
    cm_split(key, cm_lanes(vl), cm_lanes(vh));
    aesir_wipe(k, sizeof k);
    aesir_wipe(vl, sizeof vl);
    aesir_wipe(vh, sizeof vh);
}

/* The powers of H pass through the frame (gcc 12: 896 bytes, clang 14:
 * 1912, its zmm spills): wiped (stack_wipe.h). */
static void cm_init(void *hk, const uint8_t h[16])
{
    cm_init_body(hk, h);
    aesir_wipe_stack(2240);
}

static const struct aesir_ghash_engine engine = {
    .name = "ghash-ctmul-avx512",
    .description = "AVX-512 32-bit integer multiplies with holes, 8 lanes",
    .flags = ENGINE_CT,
    .batch = CM_N,
    .init = cm_init,
    .ghash = cm_ghash,
};

const struct aesir_ghash_engine *aesir_ghash_ctmul_avx512(void)
{
    const uint32_t need =
        AESIR_CPU_AVX2 | AESIR_CPU_AVX512F | AESIR_CPU_AVX512BW;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86 */

const struct aesir_ghash_engine *aesir_ghash_ctmul_avx512(void)
{
    return NULL;
}

#endif
