/*
 * ghash_x86_zmm.h -- the aggregated reduction of the zmm carry-less
 * kernels, written once for GHASH and POLYVAL: the fused GCM batch
 * (src/engine/vaes_avx512_gcm_batch.h), GCM-SIV's fused decryption
 * (src/engine/vaes_avx512_gcmsiv.c) and ghash-vpclmul-avx512's key setup
 * (ghash_vpclmul_avx512.c). The including file defines ENGINE_ISA (with
 * "vpclmulqdq,pclmul,avx512f,avx512vl" or more) and includes engine.h and
 * <immintrin.h> first.
 *
 * One reduction serves both hashes. GHASH's blocks are held byte-reversed
 * ("reflected": x^i at bit 127 - i, keys H^j x^-1) and POLYVAL's as they
 * are loaded (x^i at bit i, keys the dot-powers of H); in both, the
 * carry-less product of two elements is what the two-step folding by
 * 0xc2 << 56 reduces -- for GHASH it is the field product in the
 * reflected order, for POLYVAL the Montgomery product a b x^-128 (RFC
 * 8452's dot). ghash_x86.h's header derives the folding (Gueron and
 * Kounavis, Intel white paper 323640); the two hashes differ in byte
 * order and in the key powers only, never in these instructions.
 *
 * What is new here is the order of the folds (E. Biggers'
 * aes-gcm-avx10-x86_64.S in Linux): with Karatsuba products the middle
 * sum is not first split into the low and high halves (two shifts, two
 * XORs); the first fold adds the swapped low sum and its product by the
 * constant into the middle, the second the swapped middle and its
 * product into the high sum. The middle's qwords so land where the
 * shifts would have put them. gx_reduce (ghash_x86.h) is the same
 * reduction for a product whose middle was already split.
 */
#ifndef AESIR_GHASH_X86_ZMM_H
#define AESIR_GHASH_X86_ZMM_H

/* The unreduced sums of a group of Karatsuba products, lane by lane:
 * low halves, high halves, and the middle products (d_lo ^ d_hi)(k_lo ^
 * k_hi), not yet corrected by the other two. */
struct gx5_sums {
    __m512i lo, mid, hi;
};

/* The sum of v's four 128-bit lanes. */
ENGINE_INLINE __m128i gx5_hsum(__m512i v)
{
    __m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(t),
                         _mm256_extracti128_si256(t, 1));
}

/* [hi : mid : lo] reduced, mid the sum of the cross products (128 bits
 * straddling lo and hi by 64): the two folds through the middle. */
ENGINE_INLINE __m128i gx5_fold(__m128i lo, __m128i mid, __m128i hi)
{
    const __m128i c = _mm_set1_epi64x((long long)0xc200000000000000u);
    mid = _mm_ternarylogic_epi64(mid, _mm_shuffle_epi32(lo, 0x4e),
                                 _mm_clmulepi64_si128(lo, c, 0x00), 0x96);
    return _mm_ternarylogic_epi64(hi, _mm_shuffle_epi32(mid, 0x4e),
                                  _mm_clmulepi64_si128(mid, c, 0x00), 0x96);
}

/* The same on each of four lanes (four independent products). */
ENGINE_INLINE __m512i gx5_fold4(__m512i lo, __m512i mid, __m512i hi)
{
    const __m512i c = _mm512_set1_epi64((long long)0xc200000000000000u);
    mid =
        _mm512_ternarylogic_epi64(mid, _mm512_shuffle_epi32(lo, _MM_PERM_BADC),
                                  _mm512_clmulepi64_epi128(lo, c, 0x00), 0x96);
    return _mm512_ternarylogic_epi64(
        hi, _mm512_shuffle_epi32(mid, _MM_PERM_BADC),
        _mm512_clmulepi64_epi128(mid, c, 0x00), 0x96);
}

/*
 * The reduced sum of a's products, the next accumulator: Karatsuba's
 * middle corrected by the low and high sums (one three-way XOR on zmm),
 * the four lanes halved to two (the upper ymm of each sum added to the
 * lower), the folds on those two lanes (ymm instructions cost a 256-bit
 * unit's turn on Zen 4, as xmm ones do), and then the two lanes added.
 * 15 operations, where adding all four lanes of each sum first took 19:
 * the reduction is linear, so reducing the lanes before adding them
 * gives the same sum. (Splitting the middle into the low and high halves
 * before folding, gx_finish, takes 22.)
 */
ENGINE_INLINE __m128i gx5_finish(const struct gx5_sums *a)
{
    const __m256i c = _mm256_set1_epi64x((long long)0xc200000000000000u);
    const __m512i m4 = _mm512_ternarylogic_epi64(a->mid, a->lo, a->hi, 0x96);
    const __m256i lo = _mm256_xor_si256(_mm512_castsi512_si256(a->lo),
                                        _mm512_extracti64x4_epi64(a->lo, 1));
    const __m256i hi = _mm256_xor_si256(_mm512_castsi512_si256(a->hi),
                                        _mm512_extracti64x4_epi64(a->hi, 1));
    __m256i mid = _mm256_xor_si256(_mm512_castsi512_si256(m4),
                                   _mm512_extracti64x4_epi64(m4, 1));
    __m256i r;

    mid =
        _mm256_ternarylogic_epi64(mid, _mm256_shuffle_epi32(lo, 0x4e),
                                  _mm256_clmulepi64_epi128(lo, c, 0x00), 0x96);
    r = _mm256_ternarylogic_epi64(hi, _mm256_shuffle_epi32(mid, 0x4e),
                                  _mm256_clmulepi64_epi128(mid, c, 0x00), 0x96);
    return _mm_xor_si128(_mm256_castsi256_si128(r),
                         _mm256_extracti128_si256(r, 1));
}

/*
 * The powers of a hash key on zmm (the key setup of ghash-vpclmul-avx512
 * and vaes-avx512's GCM-SIV per-nonce keys; the choices are explained in
 * ghash_vpclmul_avx512.c, "Key setup"): squarings and single products
 * on xmm, then Karatsuba products of four lanes at once.
 */

/* a^2, reduced: the cross products are equal, their sum is zero. */
ENGINE_INLINE __m128i gx5_sqr1(__m128i a)
{
    return gx5_fold(_mm_clmulepi64_si128(a, a, 0x00), _mm_setzero_si128(),
                    _mm_clmulepi64_si128(a, a, 0x11));
}

/* a * b, reduced. */
ENGINE_INLINE __m128i gx5_mul1(__m128i a, __m128i b)
{
    return gx5_fold(_mm_clmulepi64_si128(a, b, 0x00),
                    _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
                                  _mm_clmulepi64_si128(a, b, 0x10)),
                    _mm_clmulepi64_si128(a, b, 0x11));
}

/* The Karatsuba half of each lane: x_lo ^ x_hi in both qwords. */
ENGINE_INLINE __m512i gx5_half(__m512i x)
{
    return _mm512_xor_si512(x, _mm512_shuffle_epi32(x, _MM_PERM_BADC));
}

/* a * b lane by lane, reduced, with ah and bh their halves (Karatsuba:
 * the cross sum is (a_lo ^ a_hi)(b_lo ^ b_hi) + lo + hi). */
ENGINE_INLINE __m512i gx5_kmul(__m512i a, __m512i ah, __m512i b, __m512i bh)
{
    const __m512i lo = _mm512_clmulepi64_epi128(a, b, 0x00);
    const __m512i hi = _mm512_clmulepi64_epi128(a, b, 0x11);
    return gx5_fold4(lo,
                     _mm512_ternarylogic_epi64(
                         _mm512_clmulepi64_epi128(ah, bh, 0x00), lo, hi, 0x96),
                     hi);
}

/* The multiplier k in all four lanes, and its half. */
ENGINE_INLINE void gx5_bcast(__m128i k, __m512i *m, __m512i *mh)
{
    *m = _mm512_broadcast_i32x4(k);
    *mh = _mm512_broadcast_i32x4(_mm_xor_si128(k, _mm_shuffle_epi32(k, 0x4e)));
}

/*
 * The groups g[0] .. g[n/4 - 1] of the powers of k1 and their halves gh,
 * n = 4, 8, 16 or 32 (a constant): g[j] = [K_(4j+4) .. K_(4j+1)], lane 0
 * first; g[0] inserted, g[1] = g[0] K4, g[2], g[3] = g[0], g[1] times
 * K8, g[4..7] = g[0..3] times K16.
 */
ENGINE_INLINE void gx5_groups(__m512i *g, __m512i *gh, const unsigned n,
                              const __m128i k1)
{
    const __m128i k2 = gx5_sqr1(k1);
    const __m128i k4 = gx5_sqr1(k2), k3 = gx5_mul1(k2, k1);
    __m128i k8, k16;
    __m512i m, mh;

    g[0] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set_m128i(k3, k4)),
                              _mm256_set_m128i(k1, k2), 1);
    gh[0] = gx5_half(g[0]);
    if (n <= 4)
        return;
    k8 = gx5_sqr1(k4);
    gx5_bcast(k4, &m, &mh);
    g[1] = gx5_kmul(g[0], gh[0], m, mh);
    gh[1] = gx5_half(g[1]);
    if (n <= 8)
        return;
    k16 = gx5_sqr1(k8);
    gx5_bcast(k8, &m, &mh);
    for (unsigned j = 0; j < 2; j++) {
        g[2 + j] = gx5_kmul(g[j], gh[j], m, mh);
        gh[2 + j] = gx5_half(g[2 + j]);
    }
    if (n <= 16)
        return;
    gx5_bcast(k16, &m, &mh);
    for (unsigned j = 0; j < 4; j++) {
        g[4 + j] = gx5_kmul(g[j], gh[j], m, mh);
        gh[4 + j] = gx5_half(g[4 + j]);
    }
}

/* The n powers K_n .. K_1 of k1 and their halves into the last entries
 * of a 32-power table (hk + 16 (32 - n + i) = K_(n-i); the halves 512
 * bytes further), n a constant (4, 8, 16 or 32): the table of
 * ghash-vpclmul-avx512 (x86_gcm.h, GX_VP512_HALVES). */
ENGINE_INLINE void gx5_store_powers(uint8_t *hk, const __m128i k1,
                                    const unsigned n)
{
    __m512i g[8], gh[8];
    gx5_groups(g, gh, n, k1);
    for (unsigned j = 0; j < n / 4; j++) {
        const size_t off = 16 * (32 - 4 - 4 * (size_t)j);
        _mm512_storeu_si512((void *)(hk + off), g[j]);
        _mm512_storeu_si512((void *)(hk + 512 + off), gh[j]);
    }
}

#endif /* AESIR_GHASH_X86_ZMM_H */
