/*
 * ghash_vpclmul_avx2.c -- ghash-vpclmul-avx2: GHASH and POLYVAL with
 * VPCLMULQDQ on 256-bit registers, 2 blocks per instruction, 16 blocks
 * per reduction.
 *
 * Technique. The arithmetic of ghash-clmul (ghash_x86.h: reflected
 * order, keys H^j x^-1, two-step folding reduction with 0xc2..; Gueron
 * and Kounavis, Intel white paper 323640) on two 128-bit lanes per
 * instruction (the VEX.256 form of VPCLMULQDQ, for CPUs with VPCLMULQDQ
 * but without AVX-512, or where zmm code lowers the clock). 16 blocks
 * are eight ymm loads, each multiplied lane by lane with two consecutive
 * key powers from a table kept highest power first:
 *
 *   hk + 16 i = K_(16-i),  i = 0..15      K_j = H^j x^-1
 *
 *   ymm load at hk + 0: [K16 K15] <- blocks 0, 1;  hk + 32: [K14 K13] ...
 *   (lane 0, the lowest, first: the block at the lowest address)
 *
 * Schoolbook products (4 VPCLMULQDQ per 2 blocks; see
 * ghash_vpclmul_avx512.c for why not Karatsuba), summed apart, the
 * middle sum folded in, the two lanes added, one reduction per 16
 * blocks. A tail of m < 16 blocks takes the last m powers (from hk + 16
 * (16 - m)): pairs on ymm, an odd last block on xmm.
 *
 * POLYVAL: the same kernel without byte reversal, keys the dot-powers of
 * H (ghash_x86.h).
 *
 * CPU: VPCLMULQDQ and AVX2.
 *
 * Constant time: YES, given that VPCLMULQDQ is. No branch or address
 * depends on H or the data; branches on the block count only.
 *
 * Batch: 16 blocks.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "vpclmulqdq,pclmul,ssse3,avx2"
#include "../engine/engine.h"
#include <immintrin.h>
#include "ghash_x86.h"

#define VP256_N 16

struct vp256_key {
    __m128i k[VP256_N];
};

/* Accumulates 2 blocks d times 2 key powers k, lane by lane. */
ENGINE_INLINE void vp256_acc(__m256i d, __m256i k, __m256i *lo, __m256i *mid,
                             __m256i *hi)
{
    *lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(d, k, 0x00));
    *hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(d, k, 0x11));
    *mid = _mm256_xor_si256(
        *mid, _mm256_xor_si256(_mm256_clmulepi64_epi128(d, k, 0x01),
                               _mm256_clmulepi64_epi128(d, k, 0x10)));
}

ENGINE_INLINE __m128i vp256_hsum(__m256i v)
{
    return _mm_xor_si128(_mm256_castsi256_si128(v),
                         _mm256_extracti128_si256(v, 1));
}

ENGINE_INLINE __m256i vp256_load(const void *p, int swap)
{
    __m256i d = _mm256_loadu_si256((const __m256i *)p);
    if (swap)
        d = _mm256_shuffle_epi8(d, _mm256_broadcastsi128_si256(gx_rev_mask()));
    return d;
}

ENGINE_INLINE void vp256_hash(const void *hk, uint8_t y[16], const uint8_t *in,
                              size_t nblocks, int swap)
{
    const struct vp256_key *key = hk;
    __m128i acc = gx_load(y, swap);
    for (; nblocks >= VP256_N; nblocks -= VP256_N, in += 16 * VP256_N) {
        __m256i lo = _mm256_setzero_si256(), mid = lo, hi = lo;
        /* The key powers are loaded in the loop, as memory operands:
         * hoisted out of it they do not fit in 16 ymm registers, and
         * their spills stayed in the dead frame (tests/test_residue.c). */
        GX_PIN(key);
        for (int v = 0; v < VP256_N / 2; v++) {
            __m256i d = vp256_load(in + 32 * v, swap);
            if (v == 0)
                d = _mm256_xor_si256(
                    d, _mm256_set_m128i(_mm_setzero_si128(), acc));
            vp256_acc(d, _mm256_loadu_si256((const __m256i *)&key->k[2 * v]),
                      &lo, &mid, &hi);
        }
        lo = _mm256_xor_si256(lo, _mm256_slli_si256(mid, 8));
        hi = _mm256_xor_si256(hi, _mm256_srli_si256(mid, 8));
        acc = gx_reduce(vp256_hsum(lo), vp256_hsum(hi));
    }
    if (nblocks > 0) {
        size_t base = VP256_N - nblocks, v = 0;
        __m256i lo = _mm256_setzero_si256(), mid = lo, hi = lo;
        __m256i a = _mm256_set_m128i(_mm_setzero_si128(), acc);
        for (; 2 * v + 2 <= nblocks; v++) {
            __m256i d = _mm256_xor_si256(vp256_load(in + 32 * v, swap), a);
            vp256_acc(
                d, _mm256_loadu_si256((const __m256i *)&key->k[base + 2 * v]),
                &lo, &mid, &hi);
            a = _mm256_setzero_si256();
        }
        lo = _mm256_xor_si256(lo, _mm256_slli_si256(mid, 8));
        hi = _mm256_xor_si256(hi, _mm256_srli_si256(mid, 8));
        __m128i l = vp256_hsum(lo), h = vp256_hsum(hi), m = _mm_setzero_si128();
        if (2 * v < nblocks) {
            /* The odd last block (the first, too, when nblocks is 1). */
            __m128i d = _mm_xor_si128(gx_load(in + 32 * v, swap),
                                      _mm256_castsi256_si128(a));
            __m128i k = _mm_load_si128(&key->k[VP256_N - 1]);
            l = _mm_xor_si128(l, _mm_clmulepi64_si128(d, k, 0x00));
            h = _mm_xor_si128(h, _mm_clmulepi64_si128(d, k, 0x11));
            m = _mm_xor_si128(_mm_clmulepi64_si128(d, k, 0x01),
                              _mm_clmulepi64_si128(d, k, 0x10));
        }
        acc = gx_finish(l, m, h);
    }
    gx_store(y, acc, swap);
}

ENGINE_FN void vp256_init(void *hk, const uint8_t h[16])
{
    gx_powers(((struct vp256_key *)hk)->k, VP256_N, h, 1);
}

ENGINE_FN void vp256_ghash(const void *hk, uint8_t y[16], const uint8_t *in,
                           size_t nblocks)
{
    vp256_hash(hk, y, in, nblocks, 1);
}

ENGINE_FN void vp256_polyval_init(void *hk, const uint8_t h[16])
{
    gx_powers(((struct vp256_key *)hk)->k, VP256_N, h, 0);
}

ENGINE_FN void vp256_polyval(const void *hk, uint8_t s[16], const uint8_t *in,
                             size_t nblocks)
{
    vp256_hash(hk, s, in, nblocks, 0);
}

static const struct aesir_ghash_engine engine = {
    .name = "ghash-vpclmul-avx2",
    .description = "VPCLMULQDQ on ymm, 16 blocks per reduction",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = VP256_N,
    .init = vp256_init,
    .ghash = vp256_ghash,
    .polyval_init = vp256_polyval_init,
    .polyval = vp256_polyval,
};

const struct aesir_ghash_engine *aesir_ghash_vpclmul_avx2(void)
{
    const uint32_t need = AESIR_CPU_VPCLMUL | AESIR_CPU_PCLMUL |
                          AESIR_CPU_SSSE3 | AESIR_CPU_AVX | AESIR_CPU_AVX2;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86 */

#include "ghash.h"

const struct aesir_ghash_engine *aesir_ghash_vpclmul_avx2(void)
{
    return NULL;
}

#endif
