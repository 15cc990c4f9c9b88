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

#endif /* AESIR_GHASH_X86_ZMM_H */
