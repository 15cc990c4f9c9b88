/*
 * aesni_aegis.c -- aesni's AEGIS (internal.h: aes_round, aegis): the
 * whole-message kernels of aegis_kernel.h on xmm registers for
 * AEGIS-128L (8 AESENC per 32 bytes) and AEGIS-256 (6 per 16 bytes);
 * the X variants run the generic AEGIS on aesni's single AES round.
 *
 * CPU: AES-NI, SSSE3 (the aesni accessor checks both). Constant time:
 * yes (AES instructions, bit operations; branches on lengths only).
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "aes,ssse3"
#include "engine.h"
#include <immintrin.h>
#include "aegis.h"
#include "stack_wipe.h"
#include "x86_aegis.h"

/* Bytes of stack the kernels may leave state in: their frames measured
 * by tests/test_residue.c, with margin. */

#define AK_V __m128i
#define AK_D 1
#define AK_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define AK_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define AK_XOR _mm_xor_si128
#define AK_AND _mm_and_si128
#define AK_ENC _mm_aesenc_si128
#define AK_BCAST(p) AK_LOAD(p)
#define AK_LENS(a, m) _mm_set_epi64x((long long)(m), (long long)(a))
#define AK_NAME(x) aesni_aegis1_##x
#include "aegis_kernel.h"

#define AESNI_AEGIS_CASES(X)                                                   \
    X(AESIR_AEGIS_128L, aesni_aegis1_l, AEGIS_STACK1)                          \
    X(AESIR_AEGIS_256, aesni_aegis1_b, AEGIS_STACK1)
X86_AEGIS_ENTRY(aesni, AESNI_AEGIS_CASES)
X86_AES_ROUND(aesni)

#endif
