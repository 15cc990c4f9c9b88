/*
 * vaes_avx2_aegis.c -- vaes-avx2's AEGIS (internal.h: aes_round, aegis):
 * the whole-message kernels of aegis_kernel.h on xmm for AEGIS-256 (and
 * the incremental API's AEGIS-128L blocks), aegis_pair.h for AEGIS-128L
 * one-shot (two state rows per ymm), and on ymm (VAESENC, two instances
 * per register: D = 2, draft section 5.6) for AEGIS-128X2 and
 * AEGIS-256X2. The X4 variants
 * (4 instances: a zmm each, or two ymm, 16 of 16 registers for
 * AEGIS-128X4's state alone) run the generic AEGIS on the engine's
 * single AES round.
 *
 * CPU: VAES, AVX2, AES-NI (the vaes-avx2 accessor checks them).
 * Constant time: yes (AES instructions, bit operations; branches on
 * lengths only).
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "vaes,avx2,aes"
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
#define AK_NAME(x) vaes_avx2_aegis1_##x
#define AK_B_ATTR X86_AEGIS_B_ATTR
#define AK_SKIP_L /* AEGIS-128L's one-shot kernel: aegis_pair.h (below) */
#include "aegis_kernel.h"

/* AEGIS-128L with its rows paired in ymm; VPERM2I128 exchanges the
 * lanes (3 cycles on Zen 4; VPERMQ 4) */
#define AP_SWAP(v) _mm256_permute2x128_si256((v), (v), 1)
#define AP_NAME(x) vaes_avx2_aegis1_##x
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
#define AK_NAME(x) vaes_avx2_aegis2_##x
#include "aegis_kernel.h"

/* AEGIS-128L's wipe is the 2-lane size: aegis_pair.h's partial blocks go
 * through memset / memcpy here (no byte masks in AVX2), and the state
 * spilled around those calls gives the kernel a frame of up to 368 bytes
 * (clang 14 and gcc 12: six saved registers, 288 bytes of spills) */
#define VAES_AVX2_AEGIS_CASES(X)                                               \
    X(AESIR_AEGIS_128L, vaes_avx2_aegis1_l, AEGIS_STACK2)                      \
    X(AESIR_AEGIS_256, vaes_avx2_aegis1_b, AEGIS_STACK1)                       \
    X(AESIR_AEGIS_128X2, vaes_avx2_aegis2_l, AEGIS_STACK2)                     \
    X(AESIR_AEGIS_256X2, vaes_avx2_aegis2_b, AEGIS_STACK2)
X86_AEGIS_ENTRY(vaes_avx2, VAES_AVX2_AEGIS_CASES)
X86_AES_ROUND(vaes_avx2)

#endif
