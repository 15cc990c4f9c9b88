/*
 * vaes_avx512_gcmsiv.c -- vaes-avx512's GCM-SIV CTR (RFC 8452 section 4,
 * step 10; x86_gcmsiv.h): 8 zmm vectors of 4 counter blocks per
 * iteration, as the engine's own CTR (vaes_avx512.c), with the plaintext
 * folded into the last round key (aesenclast(x, k ^ p) = E(x) ^ p).
 *
 * Counters: the initial counter block broadcast to the four lanes, lane
 * j plus j in dword 0; each next vector is the previous plus 4 in dword 0
 * of every lane (vpaddd: modulo 2^32, no carry into the other dwords).
 *
 * Tails: the last 1..31 blocks in one pass of 1, 4 or 8 vectors, loaded
 * and stored with byte masks (vmovdqu8 with a k-mask: masked-off bytes are
 * neither read nor written, and never fault); vectors past the end run
 * the rounds on counters whose output is never stored.
 *
 * Constant time: yes. Branches and masks depend on the block count only;
 * the counter (the tag, public) reaches only vpaddd.
 */
#define ENGINE_ISA "vaes,avx512f,avx512bw,avx512vl,aes"
#include "engine.h"
#include "x86_gcmsiv.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

ENGINE_INLINE __m512i v5_key(const uint8_t *rk, unsigned r)
{
    return _mm512_broadcast_i32x4(
        _mm_load_si128((const __m128i *)(const void *)(rk + 16 * (size_t)r)));
}

/* The byte mask of vector i of a tail of rem blocks. */
ENGINE_INLINE __mmask64 v5_mask(size_t rem, unsigned i)
{
    size_t b = rem > 4 * (size_t)i ? rem - 4 * (size_t)i : 0;
    return b >= 4 ? ~(__mmask64)0 : ((__mmask64)1 << (16 * b)) - 1;
}

/* n vectors (a constant after inlining) from the counters *c; a tail
 * (rem blocks, fewer than 4 n) with masks. */
ENGINE_INLINE void v5_ctr_n(const uint8_t *rk, unsigned nr, __m512i *c,
                            uint8_t *out, const uint8_t *in, unsigned n,
                            int tail, size_t rem)
{
    const __m512i four =
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
    __m512i x[8], k = v5_key(rk, 0);

    for (unsigned i = 0; i < n; i++) {
        x[i] = _mm512_xor_si512(*c, k);
        *c = _mm512_add_epi32(*c, four);
    }
    for (unsigned r = 1; r < nr; r++) {
        k = v5_key(rk, r);
        for (unsigned i = 0; i < n; i++)
            x[i] = _mm512_aesenc_epi128(x[i], k);
    }
    k = v5_key(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m512i p = tail ? _mm512_maskz_loadu_epi8(v5_mask(rem, i), in + 64 * i)
                         : _mm512_loadu_si512(in + 64 * i);
        x[i] = _mm512_aesenclast_epi128(x[i], _mm512_xor_si512(k, p));
    }
    for (unsigned i = 0; i < n; i++) {
        if (tail)
            _mm512_mask_storeu_epi8(out + 64 * i, v5_mask(rem, i), x[i]);
        else
            _mm512_storeu_si512(out + 64 * i, x[i]);
    }
}

ENGINE_FN void v5_ctr32le(const void *rkv, unsigned nr, uint8_t ctr[16],
                          uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)ctr);
    __m512i c = _mm512_add_epi32(
        _mm512_broadcast_i32x4(c0),
        _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));
    size_t n = nblocks;

    for (; n >= 32; n -= 32, in += 512, out += 512)
        v5_ctr_n(rk, nr, &c, out, in, 8, 0, 0);
    if (n > 16)
        v5_ctr_n(rk, nr, &c, out, in, 8, 1, n);
    else if (n > 4)
        v5_ctr_n(rk, nr, &c, out, in, 4, 1, n);
    else if (n > 0)
        v5_ctr_n(rk, nr, &c, out, in, 1, 1, n);
    c0 = _mm_add_epi32(c0, _mm_cvtsi32_si128((int)(uint32_t)nblocks));
    _mm_storeu_si128((__m128i *)(void *)ctr, c0);
}

void aesir_vaes_avx512_ctr32le(const void *rk, unsigned nr, uint8_t ctr[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks)
{
    v5_ctr32le(rk, nr, ctr, out, in, nblocks);
}

#endif
