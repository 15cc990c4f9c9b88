/*
 * aesni_ocb.c -- the OCB3 kernels of aesni (ocb_enc, ocb_dec;
 * internal.h, aesir_ocb_fn): x86_ocb_core.h on xmm, one block per
 * vector, 8 per batch (8 blocks in flight, as aesni's bulk ECB keeps).
 * Two encodings, as aesni.c has: legacy SSE here, and VEX for CPUs with
 * AVX (aesni_ocb_avx.c, the same code compiled with "avx"), which saves
 * the register copies of two-operand SSE.
 *
 * CPU: AES-NI and SSSE3 (what the aesni accessor checks); the VEX
 * version AVX as well (the accessor picks the engine with it then).
 * Round keys: aesni's schedules (rk + 16 r; the decryption one the
 * equivalent inverse cipher's).
 */
#ifndef OCB_AESNI_AVX
#define ENGINE_ISA "aes,ssse3"
#define ENGINE_NAME(x) aesni_##x
#define OCB_ENC_NAME aesir_aesni_ocb_enc
#define OCB_DEC_NAME aesir_aesni_ocb_dec
#endif
#include "engine.h"
#include "ocb_kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define OCB_WIPE 896

typedef __m128i vec;
#define VW 1

ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
ENGINE_INLINE void v_store(uint8_t *p, vec x)
{
    _mm_storeu_si128((__m128i *)(void *)p, x);
}
ENGINE_INLINE vec v_bcast(const uint8_t *p)
{
    return v_load(p);
}
ENGINE_INLINE vec v_bcast_x(__m128i x)
{
    return x;
}
ENGINE_INLINE __m128i v_first(vec x)
{
    return x;
}
/* one lane: n is always 1 */
ENGINE_INLINE vec v_loadn(const uint8_t *p, size_t n)
{
    (void)n;
    return v_load(p);
}
ENGINE_INLINE void v_storen(uint8_t *p, vec x, size_t n)
{
    (void)n;
    v_store(p, x);
}
ENGINE_INLINE vec v_keepn(vec x, size_t n)
{
    (void)n;
    return x;
}
ENGINE_INLINE vec v_xor(vec a, vec b)
{
    return _mm_xor_si128(a, b);
}
ENGINE_INLINE vec v_xor3(vec a, vec b, vec c)
{
    return _mm_xor_si128(_mm_xor_si128(a, b), c);
}
ENGINE_INLINE vec v_zero(void)
{
    return _mm_setzero_si128();
}
ENGINE_INLINE vec v_enc(vec x, vec k)
{
    return _mm_aesenc_si128(x, k);
}
ENGINE_INLINE vec v_enclast(vec x, vec k)
{
    return _mm_aesenclast_si128(x, k);
}
ENGINE_INLINE vec v_dec(vec x, vec k)
{
    return _mm_aesdec_si128(x, k);
}
ENGINE_INLINE vec v_declast(vec x, vec k)
{
    return _mm_aesdeclast_si128(x, k);
}
ENGINE_INLINE vec v_last_bcast(vec x)
{
    return x;
}
ENGINE_INLINE vec v_last_only(__m128i x)
{
    return x;
}
ENGINE_INLINE __m128i v_fold(vec x)
{
    return x;
}

#include "x86_ocb_core.h"

#endif
