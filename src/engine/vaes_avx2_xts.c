/*
 * vaes_avx2_xts.c -- the fused XTS kernels of vaes-avx2 (xts_enc,
 * xts_dec; internal.h, aesir_xts_fn): 2 blocks per ymm, 8 ymm (16
 * blocks) per iteration, a whole vector of tweaks stepped by x^16 per
 * lane with byte shifts and the 0x87 fold (xts_core.h explains the
 * layout and the arithmetic). With 16 ymm registers the 8 data vectors
 * and 8 tweak vectors fill the file: the compiler keeps the round keys
 * as memory operands (broadcast loads) and spills some tweaks, which the
 * entry point wipes from the stack.
 *
 * CPU: the engine's own (VAES, AVX2, AES-NI); no VPCLMULQDQ.
 * Constant time: yes (xts_core.h). Batch: 16 blocks.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "vaes,avx2,aes"
#include "engine.h"
#include <immintrin.h>
#include "stack_wipe.h"
#include "x86_xts.h"

typedef __m256i vec;
#define XW_VW 2
#define XW_U 8
#define XW_STEP 2
#define XTS_NAME(x) vaes_avx2_xts_##x

ENGINE_INLINE vec xv_bcast(__m128i k)
{
    return _mm256_broadcastsi128_si256(k);
}
ENGINE_INLINE vec xv_load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
ENGINE_INLINE void xv_store(uint8_t *p, vec v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}
/* A partial vector is one block: an xmm load and store. */
ENGINE_INLINE vec xv_load_part(const uint8_t *p, size_t lb)
{
    (void)lb;
    return _mm256_inserti128_si256(
        _mm256_setzero_si256(),
        _mm_loadu_si128((const __m128i *)(const void *)p), 0);
}
ENGINE_INLINE void xv_store_part(uint8_t *p, vec v, size_t lb)
{
    (void)lb;
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
}
ENGINE_INLINE vec xv_xor(vec a, vec b)
{
    return _mm256_xor_si256(a, b);
}
ENGINE_INLINE vec xv_xor3(vec a, vec b, vec c)
{
    return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
}
ENGINE_INLINE vec xv_enc(vec x, vec k)
{
    return _mm256_aesenc_epi128(x, k);
}
ENGINE_INLINE vec xv_enclast(vec x, vec k)
{
    return _mm256_aesenclast_epi128(x, k);
}
ENGINE_INLINE vec xv_dec(vec x, vec k)
{
    return _mm256_aesdec_epi128(x, k);
}
ENGINE_INLINE vec xv_declast(vec x, vec k)
{
    return _mm256_aesdeclast_epi128(x, k);
}
/* Per-qword shift counts (a count of 64 or more gives 0). */
ENGINE_INLINE vec xv_sllv64(vec v, vec c)
{
    return _mm256_sllv_epi64(v, c);
}
ENGINE_INLINE vec xv_srlv64(vec v, vec c)
{
    return _mm256_srlv_epi64(v, c);
}
/* Lane j's two qwords: b + s j (shift counts; constants where used). */
ENGINE_INLINE vec xv_counts(long long b, long long s)
{
    return _mm256_set_epi64x(b + s, b + s, b, b);
}
#define XV_SLLI64(v, i) _mm256_slli_epi64((v), (i))
#define XV_SLLB(v, i) _mm256_bslli_epi128((v), (i))
#define XV_SRLB(v, i) _mm256_bsrli_epi128((v), (i))
ENGINE_INLINE __m128i xv_lane0(vec v)
{
    return _mm256_castsi256_si128(v);
}

#include "xts_core.h"

XTS_KERNELS(enc, 0, 0)
XTS_KERNELS(dec, 1, 0)

/* Stack bounds by key size (xts_core.h, XTS_ENTRY). */
XTS_WIPES(1024, 1024, 1152)
XTS_ENTRY(aesir_vaes_avx2_xts_enc, enc)
XTS_ENTRY(aesir_vaes_avx2_xts_dec, dec)

#endif /* x86 */
