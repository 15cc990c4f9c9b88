/*
 * ghash_vpclmul_avx512.c -- ghash-vpclmul-avx512: GHASH and POLYVAL with
 * VPCLMULQDQ on 512-bit registers, 4 blocks per instruction, 32 blocks
 * per reduction.
 *
 * Technique. The arithmetic of ghash-clmul (ghash_x86.h: reflected
 * order, keys H^j x^-1, two-step folding reduction with 0xc2..; Gueron
 * and Kounavis, Intel white paper 323640) with each instruction working
 * on four independent 128-bit lanes (VPCLMULQDQ, Intel SDM vol. 2:
 * "carry-less multiplication quadword", the EVEX form multiplies in each
 * 128-bit lane). 32 blocks are eight zmm loads; each is multiplied lane
 * by lane with four consecutive key powers, one zmm load from a table
 * kept highest power first:
 *
 *   hk + 16 i = K_(32-i),  i = 0..31      K_j = H^j x^-1
 *
 *   zmm load at hk +   0: [K32 K31 K30 K29]  <- blocks  0..3
 *               hk +  64: [K28 K27 K26 K25]  <- blocks  4..7
 *               ...
 *               hk + 448: [K4  K3  K2  K1 ]  <- blocks 28..31
 *   (lane 0, the lowest, first: the block at the lowest address)
 *
 * Schoolbook products (low, high and the two cross terms: 4 VPCLMULQDQ
 * per 4 blocks) rather than Karatsuba: with four lanes per instruction
 * the multiplier is not the bottleneck, and Karatsuba's extra shuffle
 * and XOR per vector would cost as much as the product it saves (E.
 * Biggers' AVX10 GCM in Linux, arch/x86/crypto/aes-gcm-avx10-x86_64.S,
 * makes the same choice). The three sums are combined with VPTERNLOGQ
 * (three-way XOR), the middle one folded into the low and high sums, the
 * four lanes summed to one, and that one reduced: one reduction per 32
 * blocks. A tail of m < 32 blocks takes the last m powers (from hk +
 * 16 (32 - m)) with masked loads, which neither read past the input nor
 * fault, so no block is ever hashed alone.
 *
 * Why 32 and not 16: the chain from one group's first block through the
 * products, the lane sum and the reduction into the next group's first
 * block is some 35 cycles on Zen 4; with 16 blocks per group that chain
 * set the speed (0.14 cycles per byte), with 32 the multiplier does
 * (0.10; docs/engines/ghash.md).
 *
 * POLYVAL: the same kernel without byte reversal, keys the dot-powers of
 * H (ghash_x86.h).
 *
 * CPU: VPCLMULQDQ and AVX512F + AVX512BW (VPSHUFB on zmm) + AVX512VL.
 *
 * Constant time: YES, given that VPCLMULQDQ is (fixed latency on the
 * cores that have it: Ice Lake and later, Zen 4). No branch or address
 * depends on H or the data; masks and branches depend on the block count
 * only.
 *
 * Batch: 32 blocks.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "vpclmulqdq,pclmul,ssse3,avx2,avx512f,avx512bw,avx512vl"
#include "../engine/engine.h"
#include <immintrin.h>
#include "ghash_x86.h"
#include "../engine/x86_gcm.h"

#define VP512_N 32

struct vp512_key {
    __m128i k[VP512_N];
};
_Static_assert(sizeof(struct vp512_key) <= GX_VP512_HALVES,
               "the Karatsuba halves follow the powers");

ENGINE_INLINE __m512i vp512_rev_mask(void)
{
    return _mm512_broadcast_i32x4(gx_rev_mask());
}

ENGINE_INLINE __m512i vp512_xor3(__m512i a, __m512i b, __m512i c)
{
    return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}

/* The sum of the four lanes. */
ENGINE_INLINE __m128i vp512_hsum(__m512i v)
{
    __m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(t),
                         _mm256_extracti128_si256(t, 1));
}

/* Accumulates 4 blocks d times 4 key powers k, lane by lane. */
ENGINE_INLINE void vp512_acc(__m512i d, __m512i k, __m512i *lo, __m512i *mid,
                             __m512i *hi)
{
    *lo = _mm512_xor_si512(*lo, _mm512_clmulepi64_epi128(d, k, 0x00));
    *hi = _mm512_xor_si512(*hi, _mm512_clmulepi64_epi128(d, k, 0x11));
    *mid = vp512_xor3(*mid, _mm512_clmulepi64_epi128(d, k, 0x01),
                      _mm512_clmulepi64_epi128(d, k, 0x10));
}

ENGINE_INLINE __m128i vp512_finish(__m512i lo, __m512i mid, __m512i hi)
{
    lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
    hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8));
    return gx_reduce(vp512_hsum(lo), vp512_hsum(hi));
}

ENGINE_INLINE void vp512_hash(const void *hk, uint8_t y[16], const uint8_t *in,
                              size_t nblocks, int swap)
{
    const struct vp512_key *key = hk;
    const __m512i rev = vp512_rev_mask();
    __m128i acc = gx_load(y, swap);
    for (; nblocks >= VP512_N; nblocks -= VP512_N, in += 16 * VP512_N) {
        __m512i d[VP512_N / 4], lo, mid, hi;
        for (int v = 0; v < VP512_N / 4; v++) {
            d[v] = _mm512_loadu_si512((const void *)(in + 64 * v));
            if (swap)
                d[v] = _mm512_shuffle_epi8(d[v], rev);
        }
        d[0] = _mm512_xor_si512(d[0], _mm512_zextsi128_si512(acc));
        __m512i k0 = _mm512_loadu_si512((const void *)&key->k[0]);
        lo = _mm512_clmulepi64_epi128(d[0], k0, 0x00);
        hi = _mm512_clmulepi64_epi128(d[0], k0, 0x11);
        mid = _mm512_xor_si512(_mm512_clmulepi64_epi128(d[0], k0, 0x01),
                               _mm512_clmulepi64_epi128(d[0], k0, 0x10));
        for (int v = 1; v < VP512_N / 4; v++)
            vp512_acc(d[v], _mm512_loadu_si512((const void *)&key->k[4 * v]),
                      &lo, &mid, &hi);
        acc = vp512_finish(lo, mid, hi);
    }
    if (nblocks > 0) {
        size_t base = VP512_N - nblocks;
        __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
        for (size_t v = 0; 4 * v < nblocks; v++) {
            size_t lanes = nblocks - 4 * v < 4 ? nblocks - 4 * v : 4;
            __mmask8 m = (__mmask8)((1u << (2 * lanes)) - 1);
            __m512i d = _mm512_maskz_loadu_epi64(m, in + 64 * v);
            __m512i k = _mm512_maskz_loadu_epi64(m, &key->k[base + 4 * v]);
            if (swap)
                d = _mm512_shuffle_epi8(d, rev);
            if (v == 0)
                d = _mm512_xor_si512(d, _mm512_zextsi128_si512(acc));
            vp512_acc(d, k, &lo, &mid, &hi);
        }
        acc = vp512_finish(lo, mid, hi);
    }
    gx_store(y, acc, swap);
}

/* Lane-wise a * b, reduced (gx_mul on four lanes). */
ENGINE_INLINE __m512i vp512_mul(__m512i a, __m512i b)
{
    const __m512i c = _mm512_set1_epi64((long long)0xc200000000000000u);
    __m512i lo = _mm512_clmulepi64_epi128(a, b, 0x00);
    __m512i hi = _mm512_clmulepi64_epi128(a, b, 0x11);
    __m512i mid = _mm512_xor_si512(_mm512_clmulepi64_epi128(a, b, 0x01),
                                   _mm512_clmulepi64_epi128(a, b, 0x10));
    __m512i t;
    lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
    hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8));
    t = _mm512_clmulepi64_epi128(lo, c, 0x00);
    lo = _mm512_xor_si512(_mm512_shuffle_epi32(lo, 0x4e), t);
    t = _mm512_clmulepi64_epi128(lo, c, 0x00);
    lo = _mm512_xor_si512(_mm512_shuffle_epi32(lo, 0x4e), t);
    return _mm512_xor_si512(hi, lo);
}

/*
 * The 32 powers, highest first, four at a time: K_1 .. K_4 by xmm
 * products; then groups by doubling, lane by lane: [K8..K5] = [K4..K1]
 * K4, the next two groups times K8, the next four times K16. Three
 * dependent zmm products instead of 31 dependent xmm ones: GCM key setup
 * (AES-128 schedule, H, the powers) went from 553 to about 230 TSC
 * cycles on Zen 4 (docs/engines/ghash.md).
 */
ENGINE_INLINE void vp512_powers(__m128i *out, const uint8_t h[16], int swap)
{
    __m128i k1, k2, k3, k4;
    __m512i g[8], m;

    if (swap) {
        uint64_t w[2];
        aesir_ghash_key_xinv(w, h);
        k1 = _mm_set_epi64x((long long)w[0], (long long)w[1]);
    } else {
        k1 = _mm_loadu_si128((const __m128i *)h);
    }
    k2 = gx_mul(k1, k1);
    k3 = gx_mul(k2, k1);
    k4 = gx_mul(k2, k2);
    /* g[j] holds K_(4j+4) .. K_(4j+1), lanes 0..3: entries 28 - 4j .. */
    g[0] = _mm512_inserti32x4(
        _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_castsi128_si512(k4), k3, 1), k2, 2),
        k1, 3);
    g[1] = vp512_mul(g[0], _mm512_broadcast_i32x4(k4));
    m = _mm512_broadcast_i32x4(_mm512_castsi512_si128(g[1])); /* K8 */
    g[2] = vp512_mul(g[0], m);
    g[3] = vp512_mul(g[1], m);
    m = _mm512_broadcast_i32x4(_mm512_castsi512_si128(g[3])); /* K16 */
    for (int j = 0; j < 4; j++)
        g[4 + j] = vp512_mul(g[j], m);
    for (int j = 0; j < 8; j++)
        _mm512_storeu_si512((void *)&out[VP512_N - 4 - 4 * j], g[j]);
}

/* GHASH's key: the powers and, after them, their Karatsuba halves
 * (GX_VP512_HALVES, x86_gcm.h) for the fused kernels, whose products
 * are Karatsuba's: 8 shuffles and 8 XORs once per key instead of two
 * vector operations per 4 blocks in the kernels' loops. */
ENGINE_FN void vp512_init(void *hk, const uint8_t h[16])
{
    struct vp512_key *key = hk;
    uint8_t *halves = (uint8_t *)hk + GX_VP512_HALVES;

    vp512_powers(key->k, h, 1);
    for (int j = 0; j < VP512_N / 4; j++) {
        __m512i k = _mm512_loadu_si512((const void *)&key->k[4 * j]);
        _mm512_storeu_si512(
            (void *)(halves + 64 * j),
            _mm512_xor_si512(k, _mm512_shuffle_epi32(k, _MM_PERM_BADC)));
    }
}

ENGINE_FN void vp512_ghash(const void *hk, uint8_t y[16], const uint8_t *in,
                           size_t nblocks)
{
    vp512_hash(hk, y, in, nblocks, 1);
}

ENGINE_FN void vp512_polyval_init(void *hk, const uint8_t h[16])
{
    vp512_powers(((struct vp512_key *)hk)->k, h, 0);
}

ENGINE_FN void vp512_polyval(const void *hk, uint8_t s[16], const uint8_t *in,
                             size_t nblocks)
{
    vp512_hash(hk, s, in, nblocks, 0);
}

/*
 * POLYVAL for calls of at most max_blocks blocks (GCM-SIV's per-message
 * key): a call of m < 32 blocks reads only K_m .. K_1, the last m entries,
 * so K_1 .. K_4 (two dependent xmm products) serve up to 4 blocks, one
 * zmm product more up to 8, two more up to 16; past that, every power.
 * A 64-byte GCM-SIV message with its length block hashes at most 4
 * blocks per call.
 */
ENGINE_FN void vp512_polyval_init_upto(void *hk, const uint8_t h[16],
                                       size_t max_blocks)
{
    __m128i *out = ((struct vp512_key *)hk)->k;
    __m128i k1, k2, k3, k4;
    __m512i g0, g1, m;

    if (max_blocks > 16) {
        vp512_powers(out, h, 0);
        return;
    }
    k1 = _mm_loadu_si128((const __m128i *)h);
    k2 = gx_mul(k1, k1);
    k3 = gx_mul(k2, k1);
    k4 = gx_mul(k2, k2);
    g0 = _mm512_inserti32x4(
        _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_castsi128_si512(k4), k3, 1), k2, 2),
        k1, 3);
    _mm512_storeu_si512((void *)&out[VP512_N - 4], g0);
    if (max_blocks <= 4)
        return;
    g1 = vp512_mul(g0, _mm512_broadcast_i32x4(k4));
    _mm512_storeu_si512((void *)&out[VP512_N - 8], g1);
    if (max_blocks <= 8)
        return;
    m = _mm512_broadcast_i32x4(_mm512_castsi512_si128(g1)); /* K8 */
    _mm512_storeu_si512((void *)&out[VP512_N - 12], vp512_mul(g0, m));
    _mm512_storeu_si512((void *)&out[VP512_N - 16], vp512_mul(g1, m));
}

static const struct aesir_ghash_engine engine = {
    .name = "ghash-vpclmul-avx512",
    .description = "VPCLMULQDQ on zmm, 32 blocks per reduction",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = VP512_N,
    .init = vp512_init,
    .ghash = vp512_ghash,
    .polyval_init = vp512_polyval_init,
    .polyval = vp512_polyval,
    .polyval_init_upto = vp512_polyval_init_upto,
};

const struct aesir_ghash_engine *aesir_ghash_vpclmul_avx512(void)
{
    const uint32_t need = AESIR_CPU_VPCLMUL | AESIR_CPU_PCLMUL |
                          AESIR_CPU_SSSE3 | AESIR_CPU_AVX2 | AESIR_CPU_AVX512F |
                          AESIR_CPU_AVX512BW | AESIR_CPU_AVX512VL;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86 */

#include "ghash.h"

const struct aesir_ghash_engine *aesir_ghash_vpclmul_avx512(void)
{
    return NULL;
}

#endif
