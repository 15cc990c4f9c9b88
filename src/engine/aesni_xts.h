/*
 * aesni_xts.h -- the xmm layer of xts_core.h for aesni's fused XTS
 * kernels: one block per register, 8 blocks per iteration, tweaks
 * stepped by x^8 per register (a one-byte shift and the 0x87 fold:
 * xts_core.h). Included twice, like aesni's other paths: by aesni_xts.c
 * with SSE encodings and by aesni_xts_avx.c with VEX encodings (the
 * engine with AVX uses the second, so that no SSE instruction runs
 * between AVX code with dirty upper halves). The includer defines
 * ENGINE_ISA, AESNI_XTS(x) (the names) and the two entry points' names.
 *
 * CPU: AES-NI and SSSE3 (the engine's own); no PCLMULQDQ.
 * Constant time: yes (xts_core.h). Batch: 8 blocks.
 */
#ifndef AESIR_AESNI_XTS_H
#define AESIR_AESNI_XTS_H

#include "engine.h"
#include <immintrin.h>
#include "stack_wipe.h"
#include "x86_xts.h"

typedef __m128i vec;
#define XW_VW 1
#define XW_U 8
#define XW_STEP 1
#define XTS_NAME(x) AESNI_XTS(x)

ENGINE_INLINE vec xv_bcast(__m128i k)
{
    return k;
}
ENGINE_INLINE vec xv_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
ENGINE_INLINE void xv_store(uint8_t *p, vec v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}
/* Never partial: a vector is one block. */
ENGINE_INLINE vec xv_load_part(const uint8_t *p, size_t lb)
{
    (void)lb;
    return xv_load(p);
}
ENGINE_INLINE void xv_store_part(uint8_t *p, vec v, size_t lb)
{
    (void)lb;
    xv_store(p, v);
}
ENGINE_INLINE vec xv_xor(vec a, vec b)
{
    return _mm_xor_si128(a, b);
}
ENGINE_INLINE vec xv_xor3(vec a, vec b, vec c)
{
    return _mm_xor_si128(_mm_xor_si128(a, b), c);
}
ENGINE_INLINE vec xv_enc(vec x, vec k)
{
    return _mm_aesenc_si128(x, k);
}
ENGINE_INLINE vec xv_enclast(vec x, vec k)
{
    return _mm_aesenclast_si128(x, k);
}
ENGINE_INLINE vec xv_dec(vec x, vec k)
{
    return _mm_aesdec_si128(x, k);
}
ENGINE_INLINE vec xv_declast(vec x, vec k)
{
    return _mm_aesdeclast_si128(x, k);
}
#define XV_SLLI64(v, i) _mm_slli_epi64((v), (i))
#define XV_SLLB(v, i) _mm_slli_si128((v), (i))
#define XV_SRLB(v, i) _mm_srli_si128((v), (i))
ENGINE_INLINE __m128i xv_lane0(vec v)
{
    return v;
}

#include "xts_core.h"

XTS_KERNELS(enc, 0, 0)
XTS_KERNELS(dec, 1, 0)

/* Stack bounds by key size (xts_core.h, XTS_ENTRY). */
XTS_WIPES(576, 640, 640)
XTS_ENTRY(AESNI_XTS_ENC, enc)
XTS_ENTRY(AESNI_XTS_DEC, dec)

#endif /* AESIR_AESNI_XTS_H */
