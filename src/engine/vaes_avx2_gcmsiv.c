/*
 * vaes_avx2_gcmsiv.c -- vaes-avx2's GCM-SIV CTR (RFC 8452 section 4, step
 * 10; x86_gcmsiv.h): 8 ymm vectors of 2 counter blocks per iteration, as
 * the engine's own CTR (vaes_avx2.c), the plaintext folded into the last
 * round key.
 *
 * Counters: lane j of the first vector is the initial block plus j in
 * dword 0; each next vector adds 2 to dword 0 of both lanes (vpaddd:
 * modulo 2^32, no carry).
 *
 * Tails: the last 1..15 blocks in one pass of 1, 4 or 8 vectors, loaded
 * and stored with vpmaskmovd (dword masks, whole blocks here; masked-off
 * elements are neither read nor written and do not fault).
 *
 * Constant time: yes. Branches and masks depend on the block count only.
 */
#define ENGINE_ISA "vaes,avx2,aes"
#include "engine.h"
#include "x86_gcmsiv.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

ENGINE_INLINE __m256i v2_key(const uint8_t *rk, unsigned r)
{
    return _mm256_broadcastsi128_si256(
        _mm_load_si128((const __m128i *)(const void *)(rk + 16 * (size_t)r)));
}

/* The dword mask of vector i of a tail of rem blocks. */
ENGINE_INLINE __m256i v2_mask(size_t rem, unsigned i)
{
    size_t b = rem > 2 * (size_t)i ? rem - 2 * (size_t)i : 0;
    int m = b >= 2 ? 2 : (int)b;
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(m),
                              _mm256_set_epi32(1, 1, 1, 1, 0, 0, 0, 0));
}

ENGINE_INLINE void v2_ctr_n(const uint8_t *rk, unsigned nr, __m256i *c,
                            uint8_t *out, const uint8_t *in, unsigned n,
                            int tail, size_t rem)
{
    const __m256i two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
    __m256i x[8], k = v2_key(rk, 0);

    for (unsigned i = 0; i < n; i++) {
        x[i] = _mm256_xor_si256(*c, k);
        *c = _mm256_add_epi32(*c, two);
    }
    for (unsigned r = 1; r < nr; r++) {
        k = v2_key(rk, r);
        for (unsigned i = 0; i < n; i++)
            x[i] = _mm256_aesenc_epi128(x[i], k);
    }
    k = v2_key(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m256i p = tail ? _mm256_maskload_epi32(
                               (const int *)(const void *)(in + 32 * i),
                               v2_mask(rem, i))
                         : _mm256_loadu_si256(
                               (const __m256i *)(const void *)(in + 32 * i));
        x[i] = _mm256_aesenclast_epi128(x[i], _mm256_xor_si256(k, p));
    }
    for (unsigned i = 0; i < n; i++) {
        if (tail)
            _mm256_maskstore_epi32((int *)(void *)(out + 32 * i),
                                   v2_mask(rem, i), x[i]);
        else
            _mm256_storeu_si256((__m256i *)(void *)(out + 32 * i), x[i]);
    }
}

ENGINE_FN void v2_ctr32le(const void *rkv, unsigned nr, uint8_t ctr[16],
                          uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)ctr);
    __m256i c = _mm256_add_epi32(_mm256_broadcastsi128_si256(c0),
                                 _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    size_t n = nblocks;

    for (; n >= 16; n -= 16, in += 256, out += 256)
        v2_ctr_n(rk, nr, &c, out, in, 8, 0, 0);
    if (n > 8)
        v2_ctr_n(rk, nr, &c, out, in, 8, 1, n);
    else if (n > 2)
        v2_ctr_n(rk, nr, &c, out, in, 4, 1, n);
    else if (n > 0)
        v2_ctr_n(rk, nr, &c, out, in, 1, 1, n);
    c0 = _mm_add_epi32(c0, _mm_cvtsi32_si128((int)(uint32_t)nblocks));
    _mm_storeu_si128((__m128i *)(void *)ctr, c0);
}

void aesir_vaes_avx2_ctr32le(const void *rk, unsigned nr, uint8_t ctr[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks)
{
    v2_ctr32le(rk, nr, ctr, out, in, nblocks);
}

#endif
