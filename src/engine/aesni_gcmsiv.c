/*
 * aesni_gcmsiv.c -- aesni's GCM-SIV CTR (RFC 8452 section 4, step 10;
 * x86_gcmsiv.h): 8 xmm blocks per iteration (aesenc's latency times its
 * throughput, as the engine's own CTR in aesni.c), the plaintext folded
 * into the last round key; then 4 blocks, then one at a time.
 *
 * Counters: each block is the previous plus 1 in dword 0 (paddd: modulo
 * 2^32, no carry into bytes 4..15).
 *
 * Two copies, as the engine has two variants: SSE encodings for CPUs
 * without AVX and VEX encodings for the others (mixing legacy SSE with
 * dirty upper ymm halves stalls on some Intel cores).
 *
 * Constant time: yes. Branches depend on the block count only.
 */
#include "engine.h"
#include "x86_gcmsiv.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

/* The kernel for ISA, named NAME: n blocks (a constant after inlining)
 * from *c. */
#define AESNI_CTR32LE(NAME, ISA)                                               \
    static inline __attribute__((always_inline, target(ISA))) void NAME##_n(   \
        const uint8_t *rk, unsigned nr, __m128i *c, uint8_t *out,              \
        const uint8_t *in, unsigned n)                                         \
    {                                                                          \
        const __m128i one = _mm_cvtsi32_si128(1);                              \
        __m128i x[8], k = _mm_load_si128((const __m128i *)(const void *)rk);   \
        for (unsigned i = 0; i < n; i++) {                                     \
            x[i] = _mm_xor_si128(*c, k);                                       \
            *c = _mm_add_epi32(*c, one);                                       \
        }                                                                      \
        for (unsigned r = 1; r < nr; r++) {                                    \
            k = _mm_load_si128(                                                \
                (const __m128i *)(const void *)(rk + 16 * (size_t)r));         \
            for (unsigned i = 0; i < n; i++)                                   \
                x[i] = _mm_aesenc_si128(x[i], k);                              \
        }                                                                      \
        k = _mm_load_si128(                                                    \
            (const __m128i *)(const void *)(rk + 16 * (size_t)nr));            \
        for (unsigned i = 0; i < n; i++) {                                     \
            __m128i p =                                                        \
                _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * i)); \
            x[i] = _mm_aesenclast_si128(x[i], _mm_xor_si128(k, p));            \
        }                                                                      \
        for (unsigned i = 0; i < n; i++)                                       \
            _mm_storeu_si128((__m128i *)(void *)(out + 16 * i), x[i]);         \
    }                                                                          \
    __attribute__((target(ISA))) void NAME(const void *rkv, unsigned nr,       \
                                           uint8_t ctr[16], uint8_t *out,      \
                                           const uint8_t *in, size_t nblocks)  \
    {                                                                          \
        const uint8_t *rk = ENGINE_RK(rkv);                                    \
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)ctr);       \
        for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128)              \
            NAME##_n(rk, nr, &c, out, in, 8);                                  \
        if (nblocks >= 4) {                                                    \
            NAME##_n(rk, nr, &c, out, in, 4);                                  \
            nblocks -= 4, in += 64, out += 64;                                 \
        }                                                                      \
        for (; nblocks > 0; nblocks--, in += 16, out += 16)                    \
            NAME##_n(rk, nr, &c, out, in, 1);                                  \
        _mm_storeu_si128((__m128i *)(void *)ctr, c);                           \
    }

AESNI_CTR32LE(aesir_aesni_ctr32le, "aes,ssse3")
AESNI_CTR32LE(aesir_aesni_ctr32le_avx, "aes,avx")

#endif
