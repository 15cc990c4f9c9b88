/*
 * ghash_clmul.c -- ghash-clmul: GHASH and POLYVAL with PCLMULQDQ on
 * 128-bit SSE registers, 8 blocks per reduction.
 *
 * Technique (S. Gueron and M. E. Kounavis, "Intel Carry-Less
 * Multiplication Instruction and its Usage for Computing the GCM Mode",
 * Intel white paper 323640, rev. 2.02, 2014). Blocks are byte-reversed
 * into the reflected order and the keys are H^j x^-1 (ghash_x86.h says
 * why no shift is needed then). Each 128 x 128 product is Karatsuba's
 * three PCLMULQDQ: a0 k0, a1 k1 and (a0 ^ a1)(k0 ^ k1), the last with
 * the key's half-sum precomputed. GHASH is linear in its input, so 8
 * blocks are hashed with one reduction ("aggregated reduction", the
 * white paper's section on reduction of the sum):
 *
 *   Y' = (Y ^ X_0) H^8 ^ X_1 H^7 ^ ... ^ X_7 H
 *
 * the unreduced low, middle and high products of the 8 blocks summed
 * apart and combined once: 24 + 2 PCLMULQDQ per 8 blocks. A tail of m <
 * 8 blocks takes the last m powers (H^m .. H), still one reduction.
 *
 * Key layout (hk, 256 bytes used), 16-byte entries:
 *
 *   hk +   0:  K8  K7  K6  K5  K4  K3  K2  K1     K_j = H^j x^-1
 *   hk + 128:  S8  S7  S6  S5  S4  S3  S2  S1     S_j = lo(K_j) ^ hi(K_j)
 *                                                 in both 64-bit halves
 *
 * The native POLYVAL (RFC 8452) is the same kernel without the byte
 * reversal, keyed with the dot-powers of H (ghash_x86.h).
 *
 * Constant time: YES, given that PCLMULQDQ is (its latency does not
 * depend on its operands on every x86 core that has it). No branch or
 * address depends on H or the data; branches only on the block count.
 *
 * Batch: 8 blocks.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "pclmul,ssse3"
#include "../engine/engine.h"
#include <immintrin.h>
#include "ghash_x86.h"

#define CLMUL_N 8

struct clmul_key {
    __m128i k[CLMUL_N];
    __m128i s[CLMUL_N];
};

ENGINE_INLINE void clmul_setup(void *hk, const uint8_t h[16], int swap)
{
    struct clmul_key *key = hk;
    gx_powers(key->k, CLMUL_N, h, swap);
    for (int i = 0; i < CLMUL_N; i++) {
        __m128i k = key->k[i];
        __m128i s = _mm_xor_si128(k, _mm_shuffle_epi32(k, 0x4e));
        _mm_store_si128(&key->s[i], s);
    }
}

/* Accumulates block x times key entry i (Karatsuba). */
ENGINE_INLINE void clmul_acc(const struct clmul_key *key, int i, __m128i x,
                             __m128i *lo, __m128i *mid, __m128i *hi)
{
    __m128i k = _mm_load_si128(&key->k[i]);
    __m128i xs = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
    *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(x, k, 0x00));
    *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(x, k, 0x11));
    *mid = _mm_xor_si128(
        *mid, _mm_clmulepi64_si128(xs, _mm_load_si128(&key->s[i]), 0x00));
}

ENGINE_INLINE void clmul_hash(const void *hk, uint8_t y[16], const uint8_t *in,
                              size_t nblocks, int swap)
{
    const struct clmul_key *key = hk;
    __m128i acc = gx_load(y, swap);
    for (; nblocks >= CLMUL_N; nblocks -= CLMUL_N, in += 16 * CLMUL_N) {
        __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
        /* The key powers are loaded in the loop, as memory operands:
         * hoisted out of it they do not fit in 16 xmm registers, and
         * their spills stayed in the dead frame (tests/test_residue.c). */
        GX_PIN(key);
        clmul_acc(key, 0, _mm_xor_si128(gx_load(in, swap), acc), &lo, &mid,
                  &hi);
        for (int i = 1; i < CLMUL_N; i++)
            clmul_acc(key, i, gx_load(in + 16 * i, swap), &lo, &mid, &hi);
        mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
        acc = gx_finish(lo, mid, hi);
    }
    if (nblocks > 0) {
        int base = CLMUL_N - (int)nblocks;
        __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
        clmul_acc(key, base, _mm_xor_si128(gx_load(in, swap), acc), &lo, &mid,
                  &hi);
        for (int i = 1; i < (int)nblocks; i++)
            clmul_acc(key, base + i, gx_load(in + 16 * i, swap), &lo, &mid,
                      &hi);
        mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
        acc = gx_finish(lo, mid, hi);
    }
    gx_store(y, acc, swap);
}

ENGINE_FN void clmul_init(void *hk, const uint8_t h[16])
{
    clmul_setup(hk, h, 1);
}

ENGINE_FN void clmul_ghash(const void *hk, uint8_t y[16], const uint8_t *in,
                           size_t nblocks)
{
    clmul_hash(hk, y, in, nblocks, 1);
}

ENGINE_FN void clmul_polyval_init(void *hk, const uint8_t h[16])
{
    clmul_setup(hk, h, 0);
}

ENGINE_FN void clmul_polyval(const void *hk, uint8_t s[16], const uint8_t *in,
                             size_t nblocks)
{
    clmul_hash(hk, s, in, nblocks, 0);
}

static const struct aesir_ghash_engine engine = {
    .name = "ghash-clmul",
    .description = "PCLMULQDQ, Karatsuba, 8 blocks per reduction",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = CLMUL_N,
    .init = clmul_init,
    .ghash = clmul_ghash,
    .polyval_init = clmul_polyval_init,
    .polyval = clmul_polyval,
};

const struct aesir_ghash_engine *aesir_ghash_clmul(void)
{
    const uint32_t need = AESIR_CPU_PCLMUL | AESIR_CPU_SSSE3 | AESIR_CPU_SSE2;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86 */

#include "ghash.h"

const struct aesir_ghash_engine *aesir_ghash_clmul(void)
{
    return NULL;
}

#endif
