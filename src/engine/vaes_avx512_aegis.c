/*
 * vaes_avx512_aegis.c -- vaes-avx512's AEGIS (internal.h: aes_round,
 * aegis): the whole-message kernels of aegis_kernel.h on xmm for
 * AEGIS-256 (and the incremental API's AEGIS-128L blocks), aegis_pair.h
 * for AEGIS-128L one-shot (two state rows per ymm: half the AES
 * operations), ymm for the X2 variants and zmm (VAESENC on
 * four instances per register: D = 4, draft section 5.6) for
 * AEGIS-128X4 and AEGIS-256X4: 8 VAESENC per 128 bytes of AEGIS-128X4.
 * The keystream's XORs and AND are VPTERNLOGQ (AVX-512VL on xmm and
 * ymm): 0x96 is a ^ b ^ c, 0x78 a ^ (b & c) (aegis_kernel.h, AK_XOR3,
 * AK_XORAND, says what that saves). On zmm the rounds and the encryption
 * loop's bit operations are inline asm that keeps each result in its
 * operand's register (AK_ENC_IN, AK_XOR_IN: no moves in the loop).
 *
 * CPU: VAES, AVX-512F/BW/VL, AES-NI (the vaes-avx512 accessor checks
 * them). Constant time: yes (AES instructions, bit operations; branches
 * on lengths only).
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "vaes,avx512f,avx512bw,avx512vl,aes"
#include "engine.h"
#include <immintrin.h>
#include "aegis.h"
#include "stack_wipe.h"
/* the stack wipe by 32-byte stores (x86_aegis.h) */
#define X86_AEGIS_WIPE_T __m256i_u
#define X86_AEGIS_WIPE_ZERO _mm256_setzero_si256()
#include "x86_aegis.h"

#define AK_V __m128i
#define AK_D 1
#define AK_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define AK_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define AK_XOR _mm_xor_si128
#define AK_AND _mm_and_si128
#define AK_ENC _mm_aesenc_si128
#define AK_BCAST(p) AK_LOAD(p)
#define AK_LENS(a, m) _mm_set_epi64x((long long)(m), (long long)(a))
#define AK_XOR3(a, b, c) _mm_ternarylogic_epi64((a), (b), (c), 0x96)
#define AK_XORAND(a, b, c) _mm_ternarylogic_epi64((a), (b), (c), 0x78)
#define AK_NAME(x) vaes_avx512_aegis1_##x
#define AK_B_ATTR X86_AEGIS_B_ATTR
/* AEGIS-256's partial blocks by byte-masked loads and stores (as
 * aegis_pair.h's): no copy on the stack, no call to memset / memcpy,
 * around which the state was spilled, so the kernel has no frame */
#define AK_MASK16(n) ((__mmask16)((1u << (n)) - 1))
#define AK_LOADN(p, n) _mm_maskz_loadu_epi8(AK_MASK16(n), (p))
#define AK_STOREN(p, v, n) _mm_mask_storeu_epi8((p), AK_MASK16(n), (v))
#define AK_CUTN(v, n) _mm_maskz_mov_epi8(AK_MASK16(n), (v))
#define AK_SKIP_L /* AEGIS-128L's one-shot kernel: aegis_pair.h (below) */
#include "aegis_kernel.h"

/* AEGIS-128L with its rows paired in ymm; VALIGNQ exchanges the lanes
 * (3 cycles on Zen 4 against VPERMQ's 4: the ring of updates measured
 * 5.05 core cycles an update against 5.5) */
#define AP_SWAP(v) _mm256_alignr_epi64((v), (v), 2)
#define AP_XOR3(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x96)
#define AP_XORAND(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x78)
#define AP_MASK(n) ((__mmask32)((1u << (n)) - 1))
#define AP_NAME(x) vaes_avx512_aegis1_##x
#include "aegis_pair.h"

#define AK_V __m256i
#define AK_D 2
#define AK_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define AK_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define AK_XOR _mm256_xor_si256
#define AK_AND _mm256_and_si256
#define AK_ENC _mm256_aesenc_epi128
#define AK_BCAST(p)                                                            \
    _mm256_broadcastsi128_si256(                                               \
        _mm_loadu_si128((const __m128i *)(const void *)(p)))
#define AK_LENS(a, m)                                                          \
    _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)(m), (long long)(a)))
#define AK_XOR3(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x96)
#define AK_XORAND(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x78)
#define AK_NAME(x) vaes_avx512_aegis2_##x
#include "aegis_kernel.h"

#define AK_V __m512i
#define AK_D 4
#define AK_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define AK_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define AK_XOR _mm512_xor_si512
#define AK_AND _mm512_and_si512
#define AK_ENC _mm512_aesenc_epi128
#define AK_BCAST(p)                                                            \
    _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define AK_LENS(a, m)                                                          \
    _mm512_broadcast_i32x4(_mm_set_epi64x((long long)(m), (long long)(a)))
#define AK_XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define AK_XORAND(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x78)
/* The same operations with the result in the first operand's register
 * (aegis_kernel.h, AK_ENC_IN: gcc 12 otherwise copies the state back
 * with some 10 zmm moves an update). VAESENC's string reads the same
 * in AT&T and Intel syntax; the others are given in both. Not under
 * MemorySanitizer: the ct_msan check cannot see into asm and drops every
 * non-volatile asm statement (tests/ct_msan_intrin.h), so there the
 * kernel is built from the C forms (the same operations, without the
 * register choice). */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define VAES_AEGIS_C_ONLY 1
#endif
#endif
#ifndef VAES_AEGIS_C_ONLY
#define AK_ENC_IN(d, st) __asm__("vaesenc %0, %1, %0" : "+v"(d) : "v"(st))
#define AK_XOR_IN(d, a)                                                        \
    __asm__("vpxorq {%1, %0, %0|%0, %0, %1}" : "+v"(d) : "v"(a))
#define AK_XOR3_IN(d, a, b)                                                    \
    __asm__("vpternlogq {$0x96, %2, %1, %0|%0, %1, %2, 0x96}"                  \
            : "+v"(d)                                                          \
            : "v"(a), "v"(b))
#define AK_XORAND_IN(d, a, b)                                                  \
    __asm__("vpternlogq {$0x78, %2, %1, %0|%0, %1, %2, 0x78}"                  \
            : "+v"(d)                                                          \
            : "v"(a), "v"(b))
#endif
#define AK_NAME(x) vaes_avx512_aegis4_##x
#include "aegis_kernel.h"

/* AEGIS-128L and AEGIS-256 have no frame (masked partial blocks, no
 * call; gcc 12 -fstack-usage: 0 bytes): no wipe, and aegis.c calls them
 * directly (aegis_for) */
#define VAES_AVX512_AEGIS_CASES(X)                                             \
    X(AESIR_AEGIS_128L, vaes_avx512_aegis1_l, AEGIS_STACK0)                    \
    X(AESIR_AEGIS_256, vaes_avx512_aegis1_b, AEGIS_STACK0)                     \
    X(AESIR_AEGIS_128X2, vaes_avx512_aegis2_l, AEGIS_STACK2)                   \
    X(AESIR_AEGIS_256X2, vaes_avx512_aegis2_b, AEGIS_STACK2)                   \
    X(AESIR_AEGIS_128X4, vaes_avx512_aegis4_l, AEGIS_STACK4)                   \
    X(AESIR_AEGIS_256X4, vaes_avx512_aegis4_b, AEGIS_STACK4)
X86_AEGIS_ENTRY(vaes_avx512, VAES_AVX512_AEGIS_CASES)
X86_AEGIS_DIRECT(vaes_avx512_aegis_128l, vaes_avx512_aegis1_l)
X86_AEGIS_DIRECT(vaes_avx512_aegis_256, vaes_avx512_aegis1_b)
aesir_aegis_fn aesir_vaes_avx512_aegis_for(int variant)
{
    return variant == AESIR_AEGIS_128L  ? vaes_avx512_aegis_128l
           : variant == AESIR_AEGIS_256 ? vaes_avx512_aegis_256
                                        : NULL;
}
X86_AES_ROUND(vaes_avx512)

#endif
