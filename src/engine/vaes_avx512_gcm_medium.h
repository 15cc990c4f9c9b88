/*
 * vaes_avx512_gcm_medium.h -- the medium-message half of
 * vaes_avx512_gcm_short.c (messages of 32 blocks to GS_MEDIUM bytes), in
 * a file of its own for length. Included by that file only, after its
 * helpers, which this part uses: gs_rk (a broadcast round key), gs_mask,
 * gs_load / gs_store (masked, page-safe), struct gs_acc with gs_mul_add
 * (Karatsuba products with the key's halves) and gs_reduce (the
 * reduction with an extra block times K_1), GS_UNROLL and GS_POWERS.
 */
#ifndef AESIR_VAES_AVX512_GCM_MEDIUM_H
#define AESIR_VAES_AVX512_GCM_MEDIUM_H

/*
 * Messages past the short path's 31 blocks, up to GS_MEDIUM bytes of data
 * and 32 blocks of additional data: chunks of up to 8 vectors (32
 * blocks), software-pipelined the way the bulk loop of vaes_avx512_gcm.c
 * is, so that the carry-less products run among the AES rounds instead
 * of after them. Step i takes chunk i's counters through the rounds
 * (E_K(J0) among the last chunk's) and, spread over those rounds, the
 * products of one chunk:
 *
 *   encryption: chunk i - 1's ciphertext, kept in registers from the
 *               step before (step 0 has none to hash; the last chunk's
 *               products follow the last step, with the length block);
 *   decryption: chunk i's own input, loaded before its rounds (the last
 *               step hashes the last chunk: only the reduction and the
 *               length block follow).
 *
 * The products of a chunk are summed unreduced with the 32 powers (block
 * i of a whole chunk takes K_(32-i), key-area entry i), the running
 * accumulator added into its first block (whose product comes last in
 * the step: it waits for the step before's reduction), and reduced once;
 * the last chunk's rb blocks take K_(rb+1) .. K_2 and the length block
 * K_1 in the same sum (rb = 32: the length block is multiplied alone
 * after it). The additional data goes first as a group of its own (its
 * a <= 32 blocks take K_a .. K_1).
 *
 * On Zen 4 a zmm vaesenc and a zmm vpclmulqdq share the same two pipes,
 * so the overlap does not make the work smaller: it fills the pipes
 * while one chunk's rounds wait on their latency and hides a chunk's
 * reduction under the next chunk's rounds (docs/engines/vaes.md,
 * "Medium messages").
 *
 * Why not the whole-message kernel (vaes_avx512_gcm.c): its 32-block
 * batches pay from the third batch on, and its frame needs a stack wipe.
 * Here gcc keeps everything in registers.
 *
 * Counters: J0 + 1 + j, past byte 15 (a 1792-byte message reaches
 * J0 + 112), as little-endian 128-bit lanes (dword 0 is GCM's 32-bit
 * counter, never wrapping here) byte-reversed into each vector.
 */
#ifndef GS_MEDIUM
#define GS_MEDIUM 1792
#endif
#define GS_MAX_AAD (16 * GS_POWERS)
/* stack_wipe.h's rule: the frame plus 256, rounded to 64 */
#define GS_MEDIUM_STACK 2304

/* The rounds loop: unrolled in full, so that which products follow which
 * round is settled at compile time. */
#if defined(__clang__)
#define GS_UNROLL_R _Pragma("clang loop unroll(full)")
#else
#define GS_UNROLL_R _Pragma("GCC unroll 16")
#endif

/* The counter blocks of G vectors from the little-endian counter vector
 * *c (advanced by 4 G blocks), byte-reversed, round key 0 added. */
GS_INLINE void gs_ctr(const uint8_t *rk, __m512i *c, __m512i *x, unsigned G)
{
    const __m512i rev = _mm512_broadcast_i32x4(
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    const __m512i k = gs_rk(rk, 0);
    GS_UNROLL
    for (unsigned g = 0; g < G; g++)
        x[g] = _mm512_xor_si512(
            _mm512_shuffle_epi8(
                _mm512_add_epi32(*c, _mm512_set4_epi32(0, 0, 0, (int)(4 * g))),
                rev),
            k);
    *c = _mm512_add_epi32(*c, _mm512_set4_epi32(0, 0, 0, (int)(4 * G)));
}

/*
 * One step of the pipeline: rounds 1 .. nr of the G vectors x (and, when
 * e != NULL, J0 at *e made E_K(J0)) and, spread over rounds 1 .. nr - 1,
 * the products of the H vectors hv (GCM order) with the powers at
 * pw + 64 j, summed into *s from zero. hv[0] carries the accumulator: it
 * goes last, so the other products need not wait for the reduction of
 * the step before. G, H, nr and e's nullness are constants once inlined.
 */
GS_INLINE void gs_step(const uint8_t *rk, unsigned nr, __m512i *x, unsigned G,
                       __m128i *e, const __m512i *hv, unsigned H,
                       const uint8_t *pw, struct gs_acc *s)
{
    /* laundered per step, so that no round key or power is loaded once
     * for several steps and kept (gcc spilled an AES-256 round key) */
    __asm__("" : "+r"(rk), "+r"(pw));
    s->lo = s->hi = s->mid = _mm512_setzero_si512();
    if (e != NULL)
        *e = _mm_xor_si128(*e,
                           _mm_load_si128((const __m128i *)(const void *)rk));
    GS_UNROLL_R
    for (unsigned r = 1; r <= nr; r++) {
        const __m512i k = gs_rk(rk, r);
        if (e != NULL)
            *e = r < nr ? _mm_aesenc_si128(*e, _mm512_castsi512_si128(k))
                        : _mm_aesenclast_si128(*e, _mm512_castsi512_si128(k));
        GS_UNROLL
        for (unsigned g = 0; g < G; g++)
            x[g] = r < nr ? _mm512_aesenc_epi128(x[g], k)
                          : _mm512_aesenclast_epi128(x[g], k);
        GS_UNROLL
        for (unsigned j = 0; j < H; j++) {
            const unsigned v = j + 1 < H ? j + 1 : 0;
            if (1 + j * (nr - 1) / H == r) {
                gs_mul_add(s, hv[v], pw + 64 * v);
                /* the sums pinned here: gcc otherwise keeps every
                 * product live to add them as a tree at the end, and
                 * spills them (as in vaes_avx2_gcm.c) */
                __asm__("" : "+v"(s->lo), "+v"(s->hi), "+v"(s->mid));
            }
        }
    }
}

/* Adds x (reflected, in lane 0 of a vector whose other lanes are zero)
 * into the first block of the GCM-order vector v. */
GS_INLINE __m512i gs_add_acc(__m512i v, __m128i acc_gcm)
{
    return _mm512_xor_si512(v, _mm512_zextsi128_si512(acc_gcm));
}

/*
 * The step of a chunk of G vectors (r = 0 .. 64 G bytes at in / out, the
 * last vector masked), E_K(J0) beside it when e != NULL. Its products go
 * into *s (with the powers at hp, acc in GCM order added into the first
 * block): decryption's of the chunk's input; encryption's of the H
 * vectors in o (the previous chunk's ciphertext; H = 0: none). o is left
 * holding this chunk's ciphertext, zero past r.
 */
GS_INLINE void gs_pstep(const uint8_t *rk, unsigned nr, __m512i *c, __m128i *e,
                        uint8_t *out, const uint8_t *in, size_t r,
                        const uint8_t *hp, __m128i acc_gcm, struct gs_acc *s,
                        int decrypt, __m512i *o, unsigned G, unsigned H)
{
    __m512i x[8], d[8], hv[8];

    /* round key 0 too is loaded anew per step (gs_step) */
    __asm__("" : "+r"(rk));
    gs_ctr(rk, c, x, G);
    if (decrypt) {
        GS_UNROLL
        for (unsigned g = 0; g < G; g++)
            hv[g] = d[g] = gs_load(in + 64 * g, r - 64 * g, gs_mask(r, g));
        if (G != 0)
            hv[0] = gs_add_acc(hv[0], acc_gcm);
        gs_step(rk, nr, x, G, e, hv, G, hp, s);
    } else {
        GS_UNROLL
        for (unsigned g = 0; g < H; g++)
            hv[g] = o[g];
        if (H != 0)
            hv[0] = gs_add_acc(hv[0], acc_gcm);
        gs_step(rk, nr, x, G, e, hv, H, hp, s);
        GS_UNROLL
        for (unsigned g = 0; g < G; g++)
            d[g] = gs_load(in + 64 * g, r - 64 * g, gs_mask(r, g));
    }
    GS_UNROLL
    for (unsigned g = 0; g < G; g++) {
        __mmask64 k = gs_mask(r, g);
        o[g] = _mm512_maskz_mov_epi8(k, _mm512_xor_si512(d[g], x[g]));
        gs_store(out + 64 * g, r - 64 * g, k, o[g]);
    }
}

/* Encryption's last products: the G vectors o (acc added into the first)
 * with the powers at pw, into *s from zero. */
GS_INLINE void gs_hash_out(const __m512i *o, unsigned G, const uint8_t *pw,
                           __m128i acc_gcm, struct gs_acc *s)
{
    s->lo = s->hi = s->mid = _mm512_setzero_si512();
    GS_UNROLL
    for (unsigned g = 1; g < G; g++)
        gs_mul_add(s, o[g], pw + 64 * g);
    if (G != 0)
        gs_mul_add(s, gs_add_acc(o[0], acc_gcm), pw);
}

/* clang-format off */
#define GS_CHUNKS(nv, CHUNK)                                                  \
    switch (nv) {                                                             \
    case 0: CHUNK(0); break;                                                  \
    case 1: CHUNK(1); break;                                                  \
    case 2: CHUNK(2); break;                                                  \
    case 3: CHUNK(3); break;                                                  \
    case 4: CHUNK(4); break;                                                  \
    case 5: CHUNK(5); break;                                                  \
    case 6: CHUNK(6); break;                                                  \
    case 7: CHUNK(7); break;                                                  \
    default: CHUNK(8); break;                                                 \
    }
/* clang-format on */

/* Reflected to GCM order and back (an involution). */
GS_INLINE __m128i gs_swap(__m128i x)
{
    return _mm_shuffle_epi8(
        x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* The reduced sum s, in GCM order: the next chunk's accumulator. */
GS_INLINE __m128i gs_next(const struct gs_acc *s, const uint8_t *hk)
{
    return gs_swap(gs_reduce(s, hk, _mm_setzero_si128()));
}

GS_INLINE void gs_medium(const uint8_t *rk, unsigned nr, const uint8_t *hk,
                         const uint8_t iv[12], const uint8_t *aad,
                         size_t aad_len, uint8_t *out, const uint8_t *in,
                         size_t len, uint8_t tag[16], int decrypt)
{
    const __m128i len_blk = _mm_set_epi64x((long long)((uint64_t)aad_len * 8),
                                           (long long)((uint64_t)len * 8));
    unsigned a = (unsigned)((aad_len + 15) / 16);
    /* chunks: nc - 1 whole ones of 512 bytes, then r = 0 .. 512 bytes
     * (rb blocks, whose powers start at pw) */
    size_t nc = len > 512 ? (len + 511) / 512 : 1;
    size_t r = len - 512 * (nc - 1);
    size_t rb = (r + 15) / 16;
    const uint8_t *pw = hk + 16 * (GS_POWERS - (rb < 32 ? rb + 1 : rb));
    struct gs_acc s;
    __m128i j0, e, acc = _mm_setzero_si128(); /* GCM order */
    __m512i c, o[8];
    uint32_t w2;

    memcpy(&w2, iv + 8, 4);
    j0 = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)iv),
                          (int)w2, 2);
    j0 = _mm_insert_epi32(j0, 0x01000000, 3);
    e = j0;
    c = _mm512_add_epi32(
        _mm512_broadcast_i32x4(gs_swap(j0)),
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1));
    if (a != 0) {
        s.lo = s.hi = s.mid = _mm512_setzero_si512();
        for (unsigned i = 0; i < a; i += 4)
            gs_mul_add(&s,
                       gs_load(aad + 16 * i, aad_len - 16 * i,
                               gs_mask(aad_len, i / 4)),
                       hk + 16 * (GS_POWERS - a + i));
        acc = gs_next(&s, hk);
    }
    if (nc == 1) {
        /* one chunk (<= 512 bytes): its rounds, then its products */
#define CHUNK(g)                                                               \
    gs_pstep(rk, nr, &c, &e, out, in, r, pw, acc, &s, decrypt, o, g, 0);       \
    if (!decrypt)                                                              \
        gs_hash_out(o, g, pw, acc, &s);
        GS_CHUNKS((r + 63) / 64, CHUNK)
#undef CHUNK
    } else {
        /* step 0: decryption hashes the chunk, encryption nothing yet */
        gs_pstep(rk, nr, &c, NULL, out, in, 512, hk, acc, &s, decrypt, o, 8, 0);
        if (decrypt)
            acc = gs_next(&s, hk);
        for (size_t i = 1; i + 1 < nc; i++) {
            gs_pstep(rk, nr, &c, NULL, out + 512 * i, in + 512 * i, 512, hk,
                     acc, &s, decrypt, o, 8, 8);
            acc = gs_next(&s, hk);
        }
        in += 512 * (nc - 1);
        out += 512 * (nc - 1);
        /* the last step, E_K(J0) in its rounds (in the first, it was
         * live across the steps and gcc spilled it: a secret on the
         * stack); decryption hashes the last chunk (powers from pw),
         * encryption the chunk before it, then the last */
#define CHUNK(g)                                                               \
    gs_pstep(rk, nr, &c, &e, out, in, r, decrypt ? pw : hk, acc, &s, decrypt,  \
             o, g, 8);                                                         \
    if (!decrypt) {                                                            \
        acc = gs_next(&s, hk);                                                 \
        gs_hash_out(o, g, pw, acc, &s);                                        \
    }
        GS_CHUNKS((r + 63) / 64, CHUNK)
#undef CHUNK
    }
    if (rb == 0) {
        /* no data: the additional data's hash goes with the length block */
        acc = gs_reduce(&s, hk, _mm_xor_si128(len_blk, gs_swap(acc)));
    } else if (rb < 32) {
        acc = gs_reduce(&s, hk, len_blk);
    } else {
        acc = gs_reduce(&s, hk, _mm_setzero_si128());
        s.lo = s.hi = s.mid = _mm512_setzero_si512();
        acc = gs_reduce(&s, hk, _mm_xor_si128(acc, len_blk));
    }
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(gs_swap(acc), e));
}

#endif /* AESIR_VAES_AVX512_GCM_MEDIUM_H */
