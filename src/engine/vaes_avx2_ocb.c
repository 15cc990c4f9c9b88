/*
 * vaes_avx2_ocb.c -- the OCB3 kernels of vaes-avx2 (ocb_enc, ocb_dec;
 * internal.h, aesir_ocb_fn): x86_ocb_core.h on ymm, 2 blocks per vector,
 * 16 per batch (8 vectors in flight). AVX2 has no masked moves of
 * qwords to memory that never fault and no three-way XOR: a partial
 * vector (one block) is an xmm load or store, and XORs go in pairs.
 *
 * CPU: what vaes-avx2 needs (VAES, AVX2, AES-NI), which its accessor
 * checks. Round keys: vaes-avx2's schedules (rk + 16 r; the decryption
 * one the equivalent inverse cipher's).
 */
#define ENGINE_ISA "vaes,avx2,aes"
#include "engine.h"
#include "ocb_kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define ENGINE_NAME(x) vaes_avx2_##x
#define OCB_ENC_NAME aesir_vaes_avx2_ocb_enc
#define OCB_WHOLE_NAME aesir_vaes_avx2_ocb_whole
#define OCB_DEC_NAME aesir_vaes_avx2_ocb_dec
#define OCB_WIPE 1728
/* The whole-message body: 776 (gcc 12), 472 (clang 14), + 256 */
#define OCB_WHOLE_WIPE 1088

typedef __m256i vec;
#define VW 2

ENGINE_INLINE __m128i x_ld(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
ENGINE_INLINE vec v_bcast(const uint8_t *p)
{
    return _mm256_broadcastsi128_si256(x_ld(p));
}
ENGINE_INLINE vec v_bcast_x(__m128i x)
{
    return _mm256_broadcastsi128_si256(x);
}
ENGINE_INLINE __m128i v_first(vec x)
{
    return _mm256_castsi256_si128(x);
}
ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
ENGINE_INLINE void v_store(uint8_t *p, vec x)
{
    _mm256_storeu_si256((__m256i *)(void *)p, x);
}
/* n is 1 or 2 */
ENGINE_INLINE vec v_loadn(const uint8_t *p, size_t n)
{
    return n == 2 ? v_load(p)
                  : _mm256_inserti128_si256(_mm256_setzero_si256(), x_ld(p), 0);
}
ENGINE_INLINE void v_storen(uint8_t *p, vec x, size_t n)
{
    if (n == 2)
        v_store(p, x);
    else
        _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(x));
}
ENGINE_INLINE vec v_keepn(vec x, size_t n)
{
    return n == 2 ? x : _mm256_inserti128_si256(x, _mm_setzero_si128(), 1);
}
ENGINE_INLINE vec v_xor(vec a, vec b)
{
    return _mm256_xor_si256(a, b);
}
ENGINE_INLINE vec v_xor3(vec a, vec b, vec c)
{
    return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
}
ENGINE_INLINE vec v_zero(void)
{
    return _mm256_setzero_si256();
}
ENGINE_INLINE vec v_enc(vec x, vec k)
{
    return _mm256_aesenc_epi128(x, k);
}
ENGINE_INLINE vec v_enclast(vec x, vec k)
{
    return _mm256_aesenclast_epi128(x, k);
}
ENGINE_INLINE vec v_dec(vec x, vec k)
{
    return _mm256_aesdec_epi128(x, k);
}
ENGINE_INLINE vec v_declast(vec x, vec k)
{
    return _mm256_aesdeclast_epi128(x, k);
}
ENGINE_INLINE vec v_last_bcast(vec x)
{
    return _mm256_permute2x128_si256(x, x, 0x11);
}
ENGINE_INLINE vec v_last_only(__m128i x)
{
    return _mm256_inserti128_si256(_mm256_setzero_si256(), x, 1);
}
ENGINE_INLINE __m128i v_fold(vec x)
{
    return _mm_xor_si128(_mm256_castsi256_si128(x),
                         _mm256_extracti128_si256(x, 1));
}

#include "x86_ocb_core.h"

#endif
