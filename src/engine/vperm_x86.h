/*
 * vperm_x86.h -- the x86 128-bit ISA layer of Hamburg's vector-permute
 * AES (the v_* operations vperm_core.h is written on: pshufb, pxor,
 * pand, psrlw, loads and stores), shared by vperm_ssse3.c and
 * vperm_avx2.c. The including file defines ENGINE_ISA and includes
 * engine.h first: "ssse3" gives legacy SSE encodings, "avx2" the same
 * operations VEX-encoded (three operands, fewer moves).
 */
#ifndef AESIR_VPERM_X86_H
#define AESIR_VPERM_X86_H

#include <immintrin.h>

/* ---------------------------------------------------------------------
 * The ISA layer: everything x86-specific about the 128-bit cipher.
 * ------------------------------------------------------------------- */

typedef __m128i vec;

/* A 16-byte table (16-byte aligned). */
ENGINE_INLINE vec v_table(const uint8_t t[16])
{
    return _mm_load_si128((const vec *)(const void *)t);
}

ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return _mm_loadu_si128((const vec *)(const void *)p);
}

ENGINE_INLINE void v_store(uint8_t *p, vec v)
{
    _mm_storeu_si128((vec *)(void *)p, v);
}

/* out[q] = tab[idx[q] & 15], or 0 when idx[q] has its top bit set. */
ENGINE_INLINE vec v_shuffle(vec tab, vec idx)
{
    return _mm_shuffle_epi8(tab, idx);
}

ENGINE_INLINE vec v_xor(vec a, vec b)
{
    return _mm_xor_si128(a, b);
}

ENGINE_INLINE vec v_and(vec a, vec b)
{
    return _mm_and_si128(a, b);
}

/* Shift right by 4; bits may cross bytes (x86 has no byte shift), so
 * callers mask the result. */
ENGINE_INLINE vec v_shr4(vec a)
{
    return _mm_srli_epi16(a, 4);
}

ENGINE_INLINE vec v_splat(uint8_t b)
{
    return _mm_set1_epi8((char)b);
}

/* Lane 0 is bytes 0..3, little-endian, as the key schedule wants. */
ENGINE_INLINE vec v_word_in(uint32_t w)
{
    return _mm_cvtsi32_si128((int)w);
}

ENGINE_INLINE uint32_t v_word_out(vec v)
{
    return (uint32_t)_mm_cvtsi128_si32(v);
}

ENGINE_INLINE vec v_load_words(const uint32_t *w)
{
    return _mm_loadu_si128((const vec *)(const void *)w);
}

ENGINE_INLINE vec v_counter(uint64_t hi, uint64_t lo)
{
    return _mm_set_epi64x((long long)__builtin_bswap64(lo),
                          (long long)__builtin_bswap64(hi));
}

#endif
