/*
 * vaes_avx512_gcmsiv.c -- vaes-avx512's GCM-SIV kernels (x86_gcmsiv.h):
 *
 * CTR (RFC 8452 section 4, step 10): 8 zmm vectors of 4 counter blocks
 * per iteration, as the engine's own CTR (vaes_avx512.c), with the input
 * folded into the last round key (aesenclast(x, k ^ p) = E(x) ^ p).
 *
 * Fused decryption (section 5: CTR from the tag, then POLYVAL of the
 * plaintext) for ghash-vpclmul-avx512's POLYVAL key layout: one loop that
 * runs the AES rounds of batch b (32 blocks) while it hashes the
 * plaintext of batch b - 1, reloaded from out (still in L1), so the AES
 * and carry-less-multiply instructions of the two batches, which share no
 * register, overlap in the out-of-order core instead of running as two
 * passes. The hash of a batch is the POLYVAL kernel's (ghash_x86.h,
 * ghash_vpclmul_avx512.c): block i of the batch times K_(32-i) (the
 * dot-powers of H, hk + 16 i, highest first), four lanes per vpclmulqdq,
 * schoolbook products summed unreduced, the accumulator XORed into the
 * first block, one Montgomery reduction per batch. The last batch is
 * hashed after the loop; the kernel does whole batches only and returns
 * the bytes it did (gcm_siv.c does the rest).
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
#define ENGINE_ISA                                                             \
    "vaes,vpclmulqdq,aes,pclmul,ssse3,avx2,avx512f,avx512bw,avx512vl"
#include "engine.h"
#include "x86_gcmsiv.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include "ghash_x86.h"

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

/* ---- fused decryption ------------------------------------------------ */

/* The lane sum of a zmm. */
ENGINE_INLINE __m128i v5_hsum(__m512i v)
{
    __m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(t),
                         _mm256_extracti128_si256(t, 1));
}

/* acc = POLYVAL of the 32 blocks at p, continuing from acc. */
ENGINE_INLINE __m128i v5_hash32(const uint8_t *hk, __m128i acc,
                                const uint8_t *p)
{
    __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
    for (unsigned v = 0; v < 8; v++) {
        __m512i d = _mm512_loadu_si512(p + 64 * v);
        __m512i k = _mm512_loadu_si512(hk + 64 * v);
        if (v == 0)
            d = _mm512_xor_si512(d, _mm512_zextsi128_si512(acc));
        lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(d, k, 0x00));
        hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(d, k, 0x11));
        mid = _mm512_ternarylogic_epi64(
            mid, _mm512_clmulepi64_epi128(d, k, 0x01),
            _mm512_clmulepi64_epi128(d, k, 0x10), 0x96);
    }
    lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
    hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8));
    return gx_reduce(v5_hsum(lo), v5_hsum(hi));
}

/* Whole batches of 32 blocks of len; nr a constant once inlined. */
ENGINE_INLINE size_t v5_siv_dec(const uint8_t *rk, const unsigned nr,
                                const uint8_t *hk, uint8_t ctr[16],
                                uint8_t s[16], uint8_t *out, const uint8_t *in,
                                size_t len)
{
    const __m512i four =
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
    size_t nbat = len / 512;
    __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)ctr);
    __m128i acc = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m512i c = _mm512_add_epi32(
        _mm512_broadcast_i32x4(c0),
        _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));

    for (size_t b = 0; b < nbat; b++) {
        __m512i x[8], k = v5_key(rk, 0);
        for (unsigned i = 0; i < 8; i++) {
            x[i] = _mm512_xor_si512(c, k);
            c = _mm512_add_epi32(c, four);
        }
        /* the previous batch's plaintext, hashed beside these rounds */
        if (b > 0)
            acc = v5_hash32(hk, acc, out + 512 * (b - 1));
        for (unsigned r = 1; r < nr; r++) {
            k = v5_key(rk, r);
            for (unsigned i = 0; i < 8; i++)
                x[i] = _mm512_aesenc_epi128(x[i], k);
        }
        k = v5_key(rk, nr);
        for (unsigned i = 0; i < 8; i++)
            x[i] = _mm512_aesenclast_epi128(
                x[i],
                _mm512_xor_si512(k, _mm512_loadu_si512(in + 512 * b + 64 * i)));
        for (unsigned i = 0; i < 8; i++)
            _mm512_storeu_si512(out + 512 * b + 64 * i, x[i]);
    }
    if (nbat > 0)
        acc = v5_hash32(hk, acc, out + 512 * (nbat - 1));
    _mm_storeu_si128((__m128i *)(void *)s, acc);
    c0 = _mm_add_epi32(c0, _mm_cvtsi32_si128((int)(uint32_t)(32 * nbat)));
    _mm_storeu_si128((__m128i *)(void *)ctr, c0);
    return 512 * nbat;
}

ENGINE_FN size_t v5_siv_dec10(const void *rk, const void *hk, uint8_t ctr[16],
                              uint8_t s[16], uint8_t *out, const uint8_t *in,
                              size_t len)
{
    return v5_siv_dec(ENGINE_RK(rk), 10, hk, ctr, s, out, in, len);
}

ENGINE_FN size_t v5_siv_dec12(const void *rk, const void *hk, uint8_t ctr[16],
                              uint8_t s[16], uint8_t *out, const uint8_t *in,
                              size_t len)
{
    return v5_siv_dec(ENGINE_RK(rk), 12, hk, ctr, s, out, in, len);
}

ENGINE_FN size_t v5_siv_dec14(const void *rk, const void *hk, uint8_t ctr[16],
                              uint8_t s[16], uint8_t *out, const uint8_t *in,
                              size_t len)
{
    return v5_siv_dec(ENGINE_RK(rk), 14, hk, ctr, s, out, in, len);
}

size_t aesir_vaes_avx512_gcmsiv_dec(const void *rk, unsigned nr, const void *hk,
                                    uint8_t ctr[16], uint8_t s[16],
                                    uint8_t *out, const uint8_t *in, size_t len)
{
    if (nr == 10)
        return v5_siv_dec10(rk, hk, ctr, s, out, in, len);
    if (nr == 12)
        return v5_siv_dec12(rk, hk, ctr, s, out, in, len);
    return v5_siv_dec14(rk, hk, ctr, s, out, in, len);
}

void aesir_vaes_avx512_ctr32le(const void *rk, unsigned nr, uint8_t ctr[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks)
{
    v5_ctr32le(rk, nr, ctr, out, in, nblocks);
}

#endif
