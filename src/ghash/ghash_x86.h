/*
 * ghash_x86.h -- what the x86 carry-less-multiply GHASH engines share
 * (ghash_clmul.c, ghash_vpclmul_avx2.c, ghash_vpclmul_avx512.c): the
 * 128-bit multiply, the reduction and the key powers, on xmm registers.
 * The including file defines ENGINE_ISA (which must contain "pclmul" and
 * "ssse3" or more) and includes engine.h and <immintrin.h> first.
 *
 * Domain (Gueron and Kounavis, Intel white paper 323640, "Intel
 * Carry-Less Multiplication Instruction and its Usage for Computing the
 * GCM Mode", rev. 2.02, 2014). A GCM block is held byte-reversed, so the
 * register is the 128-bit big-endian integer of the block and the
 * coefficient of x^i is bit 127 - i: the "reflected" order, in which
 * PCLMULQDQ's integer carry-less product of two elements is the field
 * product times x (shifted right by one bit). The key powers are stored
 * as H^j * x^-1 (ghash.h: aesir_ghash_key_xinv), so each product comes
 * out exact and no shift is ever paid.
 *
 * POLYVAL (RFC 8452) needs no byte reversal at all: its little-endian
 * element loaded as is puts x^i at bit i, the carry-less product is the
 * plain polynomial product, and dot(a, b) = a b x^-128 is the Montgomery
 * reduction below -- the very same instructions as GHASH's reduction in
 * the reflected order. So every kernel takes a `swap` flag (a constant
 * once inlined): 1 for GHASH (reverse the bytes, keys H^j x^-1), 0 for
 * POLYVAL (no reversal, keys dot-powers of H).
 *
 * Reduction of a 256-bit product [hi : lo], lo = [X1 : X0] (64-bit
 * words, X0 the least significant). In the reflected order X0 holds
 * x^192 .. x^255; x^(128+t) = x^t (1 + x + x^2 + x^7) moves it 128
 * places up plus the carry-less product of X0 with 0xc200000000000000
 * (x^1, x^2, x^7 in that order) 64 places up: the product's low word
 * lands on X1, its high word and X0 itself on hi's low word. X1, thus
 * updated, is folded the same way into hi. Two PCLMULQDQ and two
 * qword swaps (white paper, "reduction by two-step folding"); the same
 * steps are POLYVAL's Montgomery reduction (add X0 * P, divide by x^64,
 * twice, with P = x^128 + x^127 + x^126 + x^121 + 1).
 */
#ifndef AESIR_GHASH_X86_H
#define AESIR_GHASH_X86_H

#include "ghash.h"

/* GX_PIN(p): the compiler forgets what p points at, so loads through it
 * in a loop stay in the loop instead of being hoisted (and spilled). An
 * empty asm: no instruction. */
#if defined(__GNUC__) || defined(__clang__)
#define GX_PIN(p) __asm__("" : "+r"(p))
#else
#define GX_PIN(p) ((void)0)
#endif

/* Byte reversal of a 16-byte lane (PSHUFB control). */
ENGINE_INLINE __m128i gx_rev_mask(void)
{
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

ENGINE_INLINE __m128i gx_load(const void *p, int swap)
{
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    return swap ? _mm_shuffle_epi8(x, gx_rev_mask()) : x;
}

ENGINE_INLINE void gx_store(void *p, __m128i x, int swap)
{
    if (swap)
        x = _mm_shuffle_epi8(x, gx_rev_mask());
    _mm_storeu_si128((__m128i *)p, x);
}

/* [hi : lo] modulo the field polynomial (see above). */
ENGINE_INLINE __m128i gx_reduce(__m128i lo, __m128i hi)
{
    const __m128i c = _mm_set1_epi64x((long long)0xc200000000000000u);
    __m128i t = _mm_clmulepi64_si128(lo, c, 0x00);
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
    t = _mm_clmulepi64_si128(lo, c, 0x00);
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
    return _mm_xor_si128(hi, lo);
}

/* Folds the middle product of a 128 x 128 product (already the sum of
 * both cross terms) into lo and hi and reduces. */
ENGINE_INLINE __m128i gx_finish(__m128i lo, __m128i mid, __m128i hi)
{
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    return gx_reduce(lo, hi);
}

/* a * b, reduced: four products (key setup only). */
ENGINE_INLINE __m128i gx_mul(__m128i a, __m128i b)
{
    __m128i lo = _mm_clmulepi64_si128(a, b, 0x00);
    __m128i hi = _mm_clmulepi64_si128(a, b, 0x11);
    __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
                                _mm_clmulepi64_si128(a, b, 0x10));
    return gx_finish(lo, mid, hi);
}

/*
 * The n key powers, highest first: out[i] = K_(n-i), where K_1 is
 * H x^-1 (GHASH: swap = 1) or H itself (POLYVAL: swap = 0) and
 * K_(j+1) = K_j * K_1 reduced, i.e. H^(j+1) x^-1 or the POLYVAL
 * dot-power. Highest first so that block i of a group of n takes out[i]
 * and the last m blocks of a short group take the last m entries.
 */
ENGINE_INLINE void gx_powers(__m128i *out, int n, const uint8_t h[16], int swap)
{
    __m128i k1, k;
    if (swap) {
        uint64_t w[2];
        aesir_ghash_key_xinv(w, h);
        k1 = _mm_set_epi64x((long long)w[0], (long long)w[1]);
    } else {
        k1 = _mm_loadu_si128((const __m128i *)h);
    }
    k = k1;
    for (int j = 1; j <= n; j++) {
        _mm_store_si128(&out[n - j], k);
        k = gx_mul(k, k1);
    }
}

#endif /* AESIR_GHASH_X86_H */
