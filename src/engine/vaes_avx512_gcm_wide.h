/*
 * vaes_avx512_gcm_wide.h -- decryption of messages of 8 or 9 vectors
 * (449 .. GS_WIDE_DEC bytes) for
 * vaes_avx512_gcm_short.c in one pass: the input's products first (they
 * need no rounds), then every counter block of the message and J0
 * through the rounds together. Included by that file only, after
 * vaes_avx512_gcm_medium.h, whose helpers it uses (gs_ctr, gs_in,
 * gs_out, gs_next, gs_swap, gs_add_acc).
 *
 * Why: decryption hashes its input, so the products and the rounds have
 * no dependency between them, and the out-of-order core runs them side
 * by side as long as the window holds both; the medium kernel's stages
 * of 4 vectors (4 AES chains, latency 4, 2 per cycle on Zen 5) end a
 * 576-byte message with a stage of 1 vector whose rounds are a chain
 * alone. Measured (rdtsc account, the kernel alone, TSC cycles): see
 * docs/modes/gcm.md, "What limits the missed cells (night)".
 *
 * Reduction groups (the key area holds H^32 .. H^1): the first G - 7
 * vectors (whole ones: the last 7 hold at most 28 blocks), each
 * block with the power of the blocks after it in its group plus one,
 * reduced once and added into the first block of the second group (the
 * last vectors and the length block), whose product comes last. The
 * additional data (at most 32 blocks) is a group of its own first.
 *
 * Registers: G counter vectors, G input vectors, J0, the three sums and a
 * round key; the accumulators go into copies of two input vectors, not
 * into the inputs (which are still needed for the plaintext).
 */
#ifndef AESIR_VAES_AVX512_GCM_WIDE_H
#define AESIR_VAES_AVX512_GCM_WIDE_H

#define GS_WIDE_DEC (64 * 9)
_Static_assert(GS_WIDE_DEC <= 64 * 9, "G - 7 >= 1 whole vectors");

/* The products of v[lo .. hi) with the powers at pw + 64 (j - lo) into
 * *s; v[lo] is replaced by first (v[lo] plus the sum before) and goes
 * last, so the reduction before need not finish first. In pairs. */
GS_INLINE void gs_wide_hash(struct gs_acc *s, const __m512i *v, __m512i first,
                            unsigned lo, unsigned hi, const uint8_t *pw)
{
    GS_UNROLL
    for (unsigned j = lo + 1; j + 1 < hi; j += 2) {
        gs_mul_add2(s, v[j], v[j + 1], pw + 64 * (j - lo),
                    pw + 64 * (j + 1 - lo));
        __asm__("" : "+v"(s->lo), "+v"(s->hi), "+v"(s->mid));
    }
    if ((hi - lo) % 2 == 0)
        gs_mul_add2(s, v[hi - 1], first, pw + 64 * (hi - 1 - lo), pw);
    else
        gs_mul_add(s, first, pw);
}

GS_INLINE void gs_wide_dec(const uint8_t *rk, unsigned nr, const uint8_t *hk,
                           const uint8_t iv[12], const uint8_t *aad,
                           size_t aad_len, uint8_t *out, const uint8_t *in,
                           size_t len, uint8_t tag[16], unsigned G)
{
    const __m128i len_blk = _mm_set_epi64x((long long)((uint64_t)aad_len * 8),
                                           (long long)((uint64_t)len * 8));
    const unsigned n = (unsigned)((len + 15) / 16);
    /* a constant once inlined (so the vectors stay in registers): the
     * second group at most 7 vectors, 29 blocks with the length block */
    const unsigned G1 = G - 7;
    const uint8_t *pw1 = hk + 16 * (size_t)(GS_POWERS - 4 * G1);
    const uint8_t *pw2 = hk + 16 * (size_t)(GS_POWERS - (n - 4 * G1 + 1));
    struct gs_acc s;
    __m128i e, acc; /* GCM order */
    __m512i base, x[GS_IMAX + 1], d[GS_IMAX + 1];

    acc = gs_begin(rk, hk, iv, aad, aad_len, &s, &base, &e);
    gs_in(d, in, len, 0, G);
    gs_wide_hash(&s, d, gs_add_acc(d[0], acc), 0, G1, pw1);
    acc = gs_next(&s, hk);
    gs_len_add(&s, hk, len_blk);
    gs_wide_hash(&s, d, gs_add_acc(d[G1], acc), G1, G, pw2);
    gs_ctr(base, 0, x, G);
    e = _mm_xor_si128(e, _mm_load_si128((const __m128i *)(const void *)rk));
    GS_UNROLL_R
    for (unsigned r = 1; r <= nr; r++) {
        const __m512i k = gs_rk(rk, r);
        e = r < nr ? _mm_aesenc_si128(e, _mm512_castsi512_si128(k))
                   : _mm_aesenclast_si128(e, _mm512_castsi512_si128(k));
        GS_UNROLL
        for (unsigned g = 0; g < G; g++)
            x[g] = r < nr ? _mm512_aesenc_epi128(x[g], k)
                          : _mm512_aesenclast_epi128(x[g], k);
    }
    gs_out(x, d, x, out, len, 0, G);
    acc = gs_reduce0(&s);
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(gs_swap(acc), e));
}

#endif /* AESIR_VAES_AVX512_GCM_WIDE_H */
