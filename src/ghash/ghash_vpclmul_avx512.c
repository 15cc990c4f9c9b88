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
 * Karatsuba products in the 32-block loop: the low and high products
 * and (d_lo ^ d_hi)(k_lo ^ k_hi), 3 VPCLMULQDQ per 4 blocks, the key
 * powers' halves stored beside them (hk + GX_VP512_HALVES, as the fused
 * kernels read them) and the data's made with one shuffle and one XOR;
 * the middle sums are corrected once per group (gx5_finish,
 * ghash_x86_zmm.h). VPCLMULQDQ zmm issues once per two cycles on Zen 4
 * and on Zen 5 (docs/PERFORMANCE.md, limit row), so with 4 products per
 * 4 blocks the loop was bound by the multiplier at 2 cycles per block;
 * measured on Zen 5 (docs/engines/ghash.md, "Karatsuba in the loop"),
 * Karatsuba's 3 took a 16 KiB GCM-SIV seal (POLYVAL, then CTR) from
 * ~2560 to ~2250 TSC cycles (AES-128). Tails of m < 32 blocks keep the
 * schoolbook products (4 per 4 blocks) with the last m powers (from hk + 16 (32
 * - m)) and masked loads, which neither read past the input nor fault, so no
 * block is ever hashed alone.
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
#include "ghash_x86_zmm.h"
#include "../engine/x86_gcm.h"

#define VP512_N 32

struct vp512_key {
    __m128i k[VP512_N];
};
_Static_assert(sizeof(struct vp512_key) <= GX_VP512_HALVES,
               "the Karatsuba halves follow the powers");
_Static_assert(VP512_N == 32 && GX_VP512_HALVES == 512,
               "gx5_store_powers (ghash_x86_zmm.h) writes this layout");

ENGINE_INLINE __m512i vp512_rev_mask(void)
{
    return _mm512_broadcast_i32x4(gx_rev_mask());
}

ENGINE_INLINE __m512i vp512_xor3(__m512i a, __m512i b, __m512i c)
{
    return _mm512_ternarylogic_epi64(a, b, c, 0x96);
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
    return gx_reduce(gx5_hsum(lo), gx5_hsum(hi));
}

/* Accumulates the Karatsuba products of 4 blocks d with 4 key powers k
 * (kh: their halves) into a: 3 VPCLMULQDQ, the middle left uncorrected
 * (gx5_finish corrects the sums once per group). */
ENGINE_INLINE void vp512_kacc(struct gx5_sums *a, __m512i d, __m512i k,
                              __m512i kh, int first)
{
    const __m512i dh =
        _mm512_xor_si512(d, _mm512_shuffle_epi32(d, _MM_PERM_BADC));
    const __m512i lo = _mm512_clmulepi64_epi128(d, k, 0x00);
    const __m512i hi = _mm512_clmulepi64_epi128(d, k, 0x11);
    const __m512i mid = _mm512_clmulepi64_epi128(dh, kh, 0x00);

    a->lo = first ? lo : _mm512_xor_si512(a->lo, lo);
    a->hi = first ? hi : _mm512_xor_si512(a->hi, hi);
    a->mid = first ? mid : _mm512_xor_si512(a->mid, mid);
}

ENGINE_INLINE void vp512_hash(const void *hk, uint8_t y[16], const uint8_t *in,
                              size_t nblocks, int swap)
{
    const struct vp512_key *key = hk;
    const __m512i rev = vp512_rev_mask();
    __m128i acc = gx_load(y, swap);
    for (; nblocks >= VP512_N; nblocks -= VP512_N, in += 16 * VP512_N) {
        const uint8_t *halves = (const uint8_t *)hk + GX_VP512_HALVES;
        struct gx5_sums a;
        /* The 16 key vectors are loaded where they are used: hoisted out
         * of the loop they do not fit in the registers, and spilled they
         * would leave the key on the stack. */
        __asm__("" : "+r"(key), "+r"(halves));
        for (int v = 0; v < VP512_N / 4; v++) {
            __m512i d = _mm512_loadu_si512((const void *)(in + 64 * v));
            if (swap)
                d = _mm512_shuffle_epi8(d, rev);
            if (v == 0)
                d = _mm512_xor_si512(d, _mm512_zextsi128_si512(acc));
            vp512_kacc(&a, d, _mm512_loadu_si512((const void *)&key->k[4 * v]),
                       _mm512_loadu_si512((const void *)(halves + 64 * v)),
                       v == 0);
        }
        acc = gx5_finish(&a);
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

/*
 * Key setup. It is one dependent chain (AES schedule, E_K(0), K_1, the
 * powers) and, for the powers, some 50 carry-less products, which on
 * Zen 4 issue at one zmm VPCLMULQDQ per two cycles: both the chain and
 * the count of zmm products set its time. So:
 *
 *  - K_2, K_4, K_8, K_16 are squarings on xmm (two products and the
 *    reduction's two: a^2's cross terms are equal and cancel), one after
 *    the other, and K_3 = K_2 K_1; each zmm step's multiplier is the
 *    broadcast of one of them, made beside the zmm products:
 *
 *      g0 = [K4 K3 K2 K1]  (inserted)
 *      g1 = g0 K4,  g2, g3 = g0 K8, g1 K8,  g4 .. g7 = g0 .. g3 K16
 *
 *    (g_j = [K_(4j+4) .. K_(4j+1)], lane 0 first).
 *  - The zmm products are Karatsuba's, 3 VPCLMULQDQ and the reduction's
 *    2, not 4 + 2: each multiplicand's half (K_lo ^ K_hi) is what the
 *    fused kernels' table stores anyway (GX_VP512_HALVES), and each
 *    multiplier's is made once.
 *  - The reduction is that of the fused kernels (gx5_fold and
 *    gx5_fold4, ghash_x86_zmm.h): the low product's fold goes
 *    through the middle sum and the middle's into the high one (E.
 *    Biggers, aes-gcm-avx10-x86_64.S), so no shift of the middle sum
 *    precedes the folds.
 *
 * 35 zmm and 22 xmm carry-less products per key, where the doubling
 * from an inserted [K4..K1] by broadcasts of lane 0 took 42 and 18 (and
 * a reload of the stored powers for their halves). Measured:
 * docs/engines/ghash.md, "Key setup of ghash-vpclmul-avx512".
 */

/* K_1: GHASH's H x^-1 (ghash.h, aesir_ghash_key_xinv, here in a vector
 * register: the block byte-reversed, shifted left by one across 128
 * bits, and the bit shifted out added back as 0xc2..01), or POLYVAL's H
 * as it is. */
ENGINE_INLINE __m128i vp512_k1(const uint8_t h[16], int swap)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)h), top;
    if (!swap)
        return x;
    x = _mm_shuffle_epi8(x, gx_rev_mask());
    /* bit 127 as a mask of all ones */
    top = _mm_shuffle_epi32(_mm_srai_epi32(x, 31), 0xff);
    x = _mm_or_si128(_mm_slli_epi64(x, 1),
                     _mm_bslli_si128(_mm_srli_epi64(x, 63), 8));
    return _mm_xor_si128(
        x,
        _mm_and_si128(top, _mm_set_epi64x((long long)0xc200000000000000u, 1)));
}

/* The n highest-first entries that end the table (out[32 - n + i] =
 * K_(n-i)) and their halves: the powers K_n .. K_1, n a constant (4, 8,
 * 16 or 32). */
ENGINE_INLINE void vp512_powers(__m128i *out, const uint8_t h[16], int swap,
                                const unsigned n)
{
    gx5_store_powers((uint8_t *)out, vp512_k1(h, swap), n);
}

/* GHASH's key: the powers and, after them, their Karatsuba halves
 * (GX_VP512_HALVES, x86_gcm.h) for the fused kernels, whose products
 * are Karatsuba's: made once per key here (the key setup's own products
 * need them too) instead of two vector operations per 4 blocks in the
 * kernels' loops. */
ENGINE_FN void vp512_init(void *hk, const uint8_t h[16])
{
    vp512_powers(((struct vp512_key *)hk)->k, h, 1, VP512_N);
}

ENGINE_FN void vp512_ghash(const void *hk, uint8_t y[16], const uint8_t *in,
                           size_t nblocks)
{
    vp512_hash(hk, y, in, nblocks, 1);
}

ENGINE_FN void vp512_polyval_init(void *hk, const uint8_t h[16])
{
    vp512_powers(((struct vp512_key *)hk)->k, h, 0, VP512_N);
}

ENGINE_FN void vp512_polyval(const void *hk, uint8_t s[16], const uint8_t *in,
                             size_t nblocks)
{
    vp512_hash(hk, s, in, nblocks, 0);
}

/*
 * POLYVAL for calls of at most max_blocks blocks (GCM-SIV's per-message
 * key): a call of m < 32 blocks reads only K_m .. K_1, the last m entries,
 * so the first step of the powers (one squaring and one product) serves
 * up to 4 blocks, one step more up to 8, two more up to 16; past that,
 * every power. A 64-byte GCM-SIV message with its length block hashes at
 * most 4 blocks per call.
 */
ENGINE_FN void vp512_polyval_init_upto(void *hk, const uint8_t h[16],
                                       size_t max_blocks)
{
    __m128i *out = ((struct vp512_key *)hk)->k;

    if (max_blocks <= 4)
        vp512_powers(out, h, 0, 4);
    else if (max_blocks <= 8)
        vp512_powers(out, h, 0, 8);
    else if (max_blocks <= 16)
        vp512_powers(out, h, 0, 16);
    else
        vp512_powers(out, h, 0, VP512_N);
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
