/*
 * vaes_avx512_ocb.c -- the OCB3 kernels of vaes-avx512 (ocb_enc,
 * ocb_dec; internal.h, aesir_ocb_fn): x86_ocb_core.h on zmm, 4 blocks per
 * vector, 32 per batch (8 vectors in flight), the three XORs of a block
 * as vpternlogq where two meet, and the partial vectors of the head and
 * tail loaded and stored with qword masks (masked-off bytes are neither
 * read nor written and never fault).
 *
 * CPU: what vaes-avx512 needs (VAES, AVX512F, AVX512BW, AVX512VL,
 * AES-NI), which its accessor checks.
 *
 * Round keys: vaes-avx512's schedules, nr + 1 keys of 16 bytes at
 * rk + 16 r; the decryption one is the equivalent inverse cipher's
 * (aesni_keys.h), so aesdeclast(x, K xor Offset) = D(.) xor Offset.
 */
#define ENGINE_ISA "vaes,avx512f,avx512bw,avx512vl,aes"
#include "engine.h"
#include "ocb_kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define ENGINE_NAME(x) vaes_avx512_##x
#define OCB_ENC_NAME aesir_vaes_avx512_ocb_enc
#define OCB_WHOLE_NAME aesir_vaes_avx512_ocb_whole
#define OCB_DEC_NAME aesir_vaes_avx512_ocb_dec
/* The body's frame (gcc 12 and clang 14 -fstack-usage, rounded up, plus
 * what test_residue found), see x86_ocb_core.h. */
#define OCB_WIPE 2048
/* The whole-message body: 648 bytes (gcc 12 -fstack-usage; 584 before
 * OCB_PAIR, 1032 before the rounds of the batches were unrolled,
 * x86_ocb_core.h), 856 (clang 14; 760 before OCB_PAIR), + 168, a
 * multiple of 64 (test_residue built with either finds nothing past
 * it; built with clang it finds round keys and plaintext with 768, not
 * with 896; built with gcc it finds nothing even with 64: gcc's frame
 * holds none of what it looks for). The size matters: measured (TSC cycles per
 * call, Zen 5, /tmp harness described in docs/modes/ocb.md), 1024 bytes instead
 * of 1280 took a 0-byte AES-128 open from 63-74 to 50-51 and a 576-byte one
 * from 114-124 to 107-108; a wipe of 1344 bytes had made a 0-byte AES-256 seal
 * 107-110 cycles instead of 74-76, and one of 1408 or more a 576-byte message's
 * kernel some 20 cycles slower; each vector of OCB_JOIN_MAX adds 64 bytes to
 * the frame. */
#define OCB_WHOLE_WIPE 1024
/* The last batch and what follows it in one loop of rounds */
#define OCB_WHOLE_JOIN 1
#define OCB_JOIN_MAX 1
/* Two batches per loop of rounds in the whole-message kernel (ocb_pair:
 * 16 zmm chains; Zen 5, same process, share of the AES bound, medians
 * of three: AES-256 16 KiB seal 88.7% -> 93.1%, open 88.1% -> 91.7%,
 * 1 MiB 88.9% -> 92.1% and 89.9% -> 91.6%, AES-128 16 KiB seal 90.0% ->
 * 90.7%; at 256 KiB, in the L2, AES-128 93% -> 95%, AES-256 91-92% ->
 * 95-96%; docs/modes/ocb.md, seventh session) */
#define OCB_PAIR 1
/* The pairs' input prefetched two pairs (2 KiB) ahead: without it the
 * pairs took the AES-128 1 MiB seal from 88.6% of the bound to 86.2%
 * (in and out, 2 MiB, come from L3); with it 89.6% (medians of five
 * runs). 1 KiB (85%) and 4 KiB (86%) ahead, prefetcht1 at 4 or 8 KiB
 * (79%), a prefetchw of the output (82-83%) were worse. */
#define OCB_PF_IN 2048

typedef __m512i vec;
#define VW 4

/* qword mask of the first n lanes */
ENGINE_INLINE __mmask8 v_mask(size_t n)
{
    return (__mmask8)((1u << (2 * n)) - 1);
}
ENGINE_INLINE vec v_bcast(const uint8_t *p)
{
    return _mm512_broadcast_i32x4(
        _mm_loadu_si128((const __m128i *)(const void *)p));
}
ENGINE_INLINE vec v_bcast_x(__m128i x)
{
    return _mm512_broadcast_i32x4(x);
}
ENGINE_INLINE __m128i v_first(vec x)
{
    return _mm512_castsi512_si128(x);
}
ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}
ENGINE_INLINE void v_store(uint8_t *p, vec x)
{
    _mm512_storeu_si512((void *)p, x);
}
ENGINE_INLINE vec v_loadn(const uint8_t *p, size_t n)
{
    return _mm512_maskz_loadu_epi64(v_mask(n), (const void *)p);
}
ENGINE_INLINE void v_storen(uint8_t *p, vec x, size_t n)
{
    _mm512_mask_storeu_epi64((void *)p, v_mask(n), x);
}
ENGINE_INLINE vec v_keepn(vec x, size_t n)
{
    return _mm512_maskz_mov_epi64(v_mask(n), x);
}
ENGINE_INLINE vec v_xor(vec a, vec b)
{
    return _mm512_xor_si512(a, b);
}
ENGINE_INLINE vec v_xor3(vec a, vec b, vec c)
{
    return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}
ENGINE_INLINE vec v_zero(void)
{
    return _mm512_setzero_si512();
}
ENGINE_INLINE vec v_enc(vec x, vec k)
{
    return _mm512_aesenc_epi128(x, k);
}
ENGINE_INLINE vec v_enclast(vec x, vec k)
{
    return _mm512_aesenclast_epi128(x, k);
}
ENGINE_INLINE vec v_dec(vec x, vec k)
{
    return _mm512_aesdec_epi128(x, k);
}
ENGINE_INLINE vec v_declast(vec x, vec k)
{
    return _mm512_aesdeclast_epi128(x, k);
}
ENGINE_INLINE vec v_last_bcast(vec x)
{
    return _mm512_shuffle_i64x2(x, x, 0xff);
}
ENGINE_INLINE vec v_last_only(__m128i x)
{
    return _mm512_maskz_broadcast_i32x4((__mmask16)0xf000, x);
}
ENGINE_INLINE __m128i v_fold(vec x)
{
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(x),
                                 _mm512_extracti64x4_epi64(x, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(y),
                         _mm256_extracti128_si256(y, 1));
}

#include "x86_ocb_core.h"

#endif
