/*
 * vaes_avx512_xts.c -- the fused XTS kernels of vaes-avx512 (xts_enc,
 * xts_dec; internal.h, aesir_xts_fn): 4 blocks per zmm, 8 zmm (32
 * blocks) per iteration, a whole vector of tweaks per zmm, held as
 * T ^ K_nr (the last round's key). With VPCLMULQDQ, 64 blocks and more
 * go through a bulk loop with two iterations' tweaks in flight, each
 * lane stepped by x^64 (a byte shift, one VPCLMULQDQ of the high qword
 * with 0x87 and a three-way XOR); the rest by x^32 (a 4-byte shift in
 * each lane and the 32 bits shifted out folded back in by one
 * VPCLMULQDQ); masked tails. xts_core.h explains the layout and the
 * arithmetic.
 *
 * CPU: the engine's own (VAES, AVX512F/BW/VL, AES-NI), and VPCLMULQDQ
 * for the carry-less steps: without it (or with
 * AESIR_CPU_DISABLE=vpclmul) the same kernels fold with three shifts and
 * two XORs instead, one iteration at a time. Every VAES CPU so far has
 * VPCLMULQDQ; on Zen 4 the XORs, shifts and multiplies of the tweaks
 * take turns on the AES pipes, so fewer of them is speed (figures in
 * docs/modes/xts.md).
 *
 * Constant time: yes (xts_core.h; VPCLMULQDQ has a fixed latency).
 * Batch: 32 blocks.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "vaes,vpclmulqdq,avx512f,avx512bw,avx512vl,aes"
#include "engine.h"
#include <immintrin.h>
#include "stack_wipe.h"
#include "x86_xts.h"

typedef __m512i vec;
#define XW_VW 4
#define XW_U 8
#define XW_STEP 4
#define XTS_NAME(x) vaes_avx512_xts_##x

ENGINE_INLINE vec xv_bcast(__m128i k)
{
    return _mm512_broadcast_i32x4(k);
}
ENGINE_INLINE vec xv_load(const uint8_t *p)
{
    return _mm512_loadu_si512(p);
}
ENGINE_INLINE void xv_store(uint8_t *p, vec v)
{
    _mm512_storeu_si512(p, v);
}
/* Byte masks (vmovdqu8 with a k-mask: masked-off bytes never fault). */
ENGINE_INLINE vec xv_load_part(const uint8_t *p, size_t lb)
{
    return _mm512_maskz_loadu_epi8((1ull << (16 * lb)) - 1, p);
}
ENGINE_INLINE void xv_store_part(uint8_t *p, vec v, size_t lb)
{
    _mm512_mask_storeu_epi8(p, (1ull << (16 * lb)) - 1, v);
}
ENGINE_INLINE vec xv_xor(vec a, vec b)
{
    return _mm512_xor_si512(a, b);
}
ENGINE_INLINE vec xv_xor3(vec a, vec b, vec c)
{
    return _mm512_ternarylogic_epi32(a, b, c, 0x96);
}
ENGINE_INLINE vec xv_enc(vec x, vec k)
{
    return _mm512_aesenc_epi128(x, k);
}
ENGINE_INLINE vec xv_enclast(vec x, vec k)
{
    return _mm512_aesenclast_epi128(x, k);
}
ENGINE_INLINE vec xv_dec(vec x, vec k)
{
    return _mm512_aesdec_epi128(x, k);
}
ENGINE_INLINE vec xv_declast(vec x, vec k)
{
    return _mm512_aesdeclast_epi128(x, k);
}
/* Per-qword shift counts (a count of 64 or more gives 0). */
ENGINE_INLINE vec xv_sllv64(vec v, vec c)
{
    return _mm512_sllv_epi64(v, c);
}
ENGINE_INLINE vec xv_srlv64(vec v, vec c)
{
    return _mm512_srlv_epi64(v, c);
}
/* Lane j's two qwords: b + s j (shift counts; constants where used). */
ENGINE_INLINE vec xv_counts(long long b, long long s)
{
    return _mm512_set_epi64(b + 3 * s, b + 3 * s, b + 2 * s, b + 2 * s, b + s,
                            b + s, b, b);
}
#define XV_SLLI64(v, i) _mm512_slli_epi64((v), (i))
#define XV_SLLB(v, i) _mm512_bslli_epi128((v), (i))
#define XV_SRLB(v, i) _mm512_bsrli_epi128((v), (i))
#define XW_CLMUL 1
ENGINE_INLINE vec xv_clmul87(vec d)
{
    return _mm512_clmulepi64_epi128(d, _mm512_set1_epi64(0x87), 0x00);
}
/* The high qword of each lane times 0x87 (imm 0x01: the first operand's
 * high qword). */
ENGINE_INLINE vec xv_clmul87_hi(vec d)
{
    return _mm512_clmulepi64_epi128(d, _mm512_set1_epi64(0x87), 0x01);
}
ENGINE_INLINE __m128i xv_lane0(vec v)
{
    return _mm512_castsi512_si128(v);
}

/* The bulk loop's input prefetched 1 KiB (two passes) ahead, AES-128
 * only (xts_core.h, xts_prefetch): at 1 MiB with separate buffers (2
 * MiB, more than Zen 5's 1 MiB L2) the loads at the top of each pass
 * wait for L3 before the first round can start. */
#define XW_PF_IN 1024
#include "xts_core.h"

XTS_KERNELS(enc, 0, 0)
XTS_KERNELS(dec, 1, 0)
XTS_KERNELS(encc, 0, 1)
XTS_KERNELS(decc, 1, 1)

/* Stack bounds by key size (xts_core.h, XTS_CALL): a kernel, and the
 * bulk loop (its own frame since the entry point calls it: gcc 12 392,
 * 456 and 584 bytes by -fstack-usage, plus 256). clang 14 keeps much of
 * the 16 tweak vectors on the stack there; its bound is still the one
 * measured when the bulk loop's frame lay below the kernel's, which
 * covers the bulk loop alone too (not measured again: no clang here). */
XTS_WIPES(704, 960, 1216)
#if defined(__clang__)
XTS_WIPES_BULK(1472, 1856, 2368)
#else
XTS_WIPES_BULK(704, 768, 896)
#endif
XTS_ENTRY_CLMUL(aesir_vaes_avx512_xts_enc, enc, 0)
XTS_ENTRY_CLMUL(aesir_vaes_avx512_xts_dec, dec, 1)

#endif /* x86 */
