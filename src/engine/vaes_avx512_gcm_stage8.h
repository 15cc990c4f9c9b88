/*
 * vaes_avx512_gcm_stage8.h -- the medium-message pipeline of
 * vaes_avx512_gcm_medium.h in stages of 8 vectors (32 blocks), one
 * reduction group per stage, for vaes_avx512_gcm_short.c (messages of
 * GS_STAGE8_MIN + 1 .. GS_MEDIUM bytes). Included by that file only,
 * after vaes_avx512_gcm_medium.h, whose helpers it uses (gs_enc_iter,
 * gs_dec_iter, gs_hash_out, gs_next, gs_reduce, gs_swap).
 *
 * Why 8 vectors and not 4 (Zen 5, 2026-11-27 morning; docs/modes/gcm.md,
 * "What limits the missed cells (2026-11-27, morning)"): on this core a
 * zmm vaesenc (latency 4, 2 per cycle) and a zmm vpclmulqdq (0.5 per
 * cycle) run on separate units -- 10 rounds and 3 products per vector
 * take 3.32 and 3.70 TSC cycles alone and 3.70 together (/tmp mix
 * program, independent chains). A stage of 4 vectors is then 4 AES
 * chains, 40 dependent rounds (AES-128) that fill half of the AES unit,
 * and its 12 products (24 cycles) finish within them: the 4-vector
 * pipeline runs at the rounds' latency, 10 core cycles per vector
 * (measured: 6.4 TSC cycles per vector, the slope of the old kernel),
 * not at the products' throughput (6 core cycles per vector). With 8
 * chains the rounds of a stage fill the AES unit (40 cycles for 8
 * vectors) and the 24 products of the stage before (48 cycles) set the
 * pace. On Zen 4 (the units shared) the smaller stages had the smaller
 * ramps; this file is for the core where the units are apart.
 *
 * Stages and groups: whole stages of 8 vectors, then a last stage of
 * the gl vectors left (1..8, masked). Each stage's blocks are one
 * reduction group (K_32 .. K_1 for a whole stage), its reduced sum added
 * into the next stage's first block; the last group takes the length
 * block with K_1 too, so it holds at most 31 data blocks: a last stage
 * of 32 blocks (8 vectors, the last one holding more than 48 bytes) is
 * cut into a whole stage of 7 vectors and a last one of 1.
 */
#ifndef AESIR_VAES_AVX512_GCM_STAGE8_H
#define AESIR_VAES_AVX512_GCM_STAGE8_H

/* Bytes per stage */
#define GS_S8BYTES (64 * 8)
/* Taken for decryption past GS_STAGE8_MIN bytes, for encryption past
 * GS_STAGE8_ENC_MIN: below it the first stage of GS_PRE vectors
 * (vaes_avx512_gcm_medium.h) measured 1-3 TSC cycles faster at 576 and
 * 640 bytes, the 8-vector stages faster from 768 bytes on (acct, the
 * kernel alone; docs/modes/gcm.md). */
#ifndef GS_STAGE8_MIN
#define GS_STAGE8_MIN GS_S8BYTES
#endif
#ifndef GS_STAGE8_ENC_MIN
#define GS_STAGE8_ENC_MIN (64 * 10)
#endif
_Static_assert(GS_STAGE8_MIN >= GS_S8BYTES && GS_STAGE8_ENC_MIN >= GS_S8BYTES &&
                   GS_IMAX >= 8,
               "stage8");

/* clang-format off */
#define GS_LAST8(gl, LAST)                                                    \
    switch (gl) {                                                             \
    case 1: LAST(1); break;                                                   \
    case 2: LAST(2); break;                                                   \
    case 3: LAST(3); break;                                                   \
    case 4: LAST(4); break;                                                   \
    case 5: LAST(5); break;                                                   \
    case 6: LAST(6); break;                                                   \
    case 7: LAST(7); break;                                                   \
    default: LAST(8); break;                                                  \
    }
/* clang-format on */

/* len > GS_S8BYTES: at least one whole stage before the last. */
GS_INLINE void gs_stage8(const uint8_t *rk, unsigned nr, const uint8_t *hk,
                         const uint8_t iv[12], const uint8_t *aad,
                         size_t aad_len, uint8_t *out, const uint8_t *in,
                         size_t len, uint8_t tag[16], int decrypt)
{
    const __m128i len_blk = _mm_set_epi64x((long long)((uint64_t)aad_len * 8),
                                           (long long)((uint64_t)len * 8));
    /* k whole stages of 8 vectors before the last; the last stage's
     * blocks nl (1..32) and vectors gl */
    const size_t k = (len - 1) / GS_S8BYTES;
    size_t nl = (len + 15) / 16 - 32 * k, t, v0, off, r;
    unsigned gl = (unsigned)((nl + 3) / 4), hp = 8;
    const uint8_t *pl, *prev;
    struct gs_acc s;
    __m128i e, acc; /* GCM order */
    __m512i base, o[GS_IMAX];

    acc = gs_begin(rk, hk, iv, aad, aad_len, &s, &base, &e);
    if (decrypt) {
        for (t = 0; t < k; t++) {
            gs_dec_iter(rk, nr, base, 8 * t, NULL, out + GS_S8BYTES * t,
                        in + GS_S8BYTES * t, GS_S8BYTES, 1, hk, &acc, &s, 8);
            acc = gs_next(&s, hk);
        }
        v0 = 8 * k, off = GS_S8BYTES * k;
        if (nl == 32) {
            gs_dec_iter(rk, nr, base, v0, NULL, out + off, in + off, 64 * 7, 1,
                        hk + 16 * 4, &acc, &s, 7);
            acc = gs_next(&s, hk);
            v0 += 7, off += 64 * 7, nl = 4, gl = 1;
        }
        r = len - off;
        pl = hk + 16 * (GS_POWERS - (nl + 1));
        gs_len_add(&s, hk, len_blk);
#define LAST(g)                                                                \
    gs_dec_iter(rk, nr, base, v0, &e, out + off, in + off, r, 0, pl, &acc, &s, \
                g)
        GS_LAST8(gl, LAST)
#undef LAST
    } else {
        /* iteration 0: stage 0's rounds alone; iteration t: stage t's
         * rounds and stage t - 1's products (read back from out) */
        gs_enc_iter(rk, nr, base, 0, NULL, out, in, GS_S8BYTES, 1, out, hk,
                    &acc, &s, NULL, 8, 0);
        for (t = 1; t < k; t++) {
            gs_enc_iter(rk, nr, base, 8 * t, NULL, out + GS_S8BYTES * t,
                        in + GS_S8BYTES * t, GS_S8BYTES, 1,
                        out + GS_S8BYTES * (t - 1), hk, &acc, &s, NULL, 8, 8);
            acc = gs_next(&s, hk);
        }
        v0 = 8 * k, off = GS_S8BYTES * k;
        prev = out + off - GS_S8BYTES;
        if (nl == 32) {
            gs_enc_iter(rk, nr, base, v0, NULL, out + off, in + off, 64 * 7, 1,
                        prev, hk, &acc, &s, NULL, 7, 8);
            acc = gs_next(&s, hk);
            prev = out + off, hp = 7;
            v0 += 7, off += 64 * 7, nl = 4, gl = 1;
        }
        r = len - off;
        pl = hk + 16 * (GS_POWERS - (nl + 1));
        /* the last iteration (E_K(J0) in its rounds), then the last
         * stage's products */
        if (hp == 8) {
#define LAST(g)                                                                \
    gs_enc_iter(rk, nr, base, v0, &e, out + off, in + off, r, 0, prev, hk,     \
                &acc, &s, o, g, 8);                                            \
    acc = gs_next(&s, hk);                                                     \
    gs_len_add(&s, hk, len_blk);                                               \
    gs_hash_out(o, g, pl, acc, &s)
            GS_LAST8(gl, LAST)
#undef LAST
        } else {
            gs_enc_iter(rk, nr, base, v0, &e, out + off, in + off, r, 0, prev,
                        hk + 16 * 4, &acc, &s, o, 1, 7);
            acc = gs_next(&s, hk);
            gs_len_add(&s, hk, len_blk);
            gs_hash_out(o, 1, pl, acc, &s);
        }
    }
    acc = gs_reduce0(&s);
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(gs_swap(acc), e));
}

#endif /* AESIR_VAES_AVX512_GCM_STAGE8_H */
