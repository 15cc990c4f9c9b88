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
 * and 32 blocks of additional data, software-pipelined the way the bulk
 * loop of vaes_avx512_gcm.c is, so that the carry-less products run among
 * the AES rounds instead of after them, in stages of 4 vectors (16
 * blocks; the last stage 1..4 vectors, or 5 on encryption where it would
 * be 1). Iteration t takes stage t's counters through the rounds
 * (E_K(J0) among the last stage's) and, spread over those rounds, the
 * products of one stage:
 *
 *   encryption: stage t - 1's ciphertext, read back from out (iteration
 *               0 has none to hash; the last stage's products follow the
 *               last iteration);
 *   decryption: stage t's own input, loaded before its rounds.
 *
 * Why stages of 4 vectors and not chunks of 8 (the bulk loop's 32-block
 * batches): a message of 500 B - 2 KiB is mostly ramp. Encryption's
 * first chunk runs its rounds with no products beside them and its last
 * chunk's products run with no rounds beside them; with 8-vector chunks
 * a 576-byte message (9 vectors) was a chunk of rounds alone, then 24
 * products beside one vector's rounds, then a reduction, the last
 * vector's products and the final reduction in a row. With 4-vector
 * stages the unpaired work at either end is 4 or 5 vectors at most: 4
 * vectors' rounds (40 zmm vaesenc, as long as the 4 chains' latency)
 * and the last stage's products.
 *
 * Reduction groups: the products are summed unreduced over a group of
 * whole stages holding at most 32 hashed blocks (one or two stages), each
 * block with the power H^(blocks after it in the group + 1): the group's
 * m blocks take K_m .. K_1, key-area entries 32 - m .. 31. A group's sum
 * is reduced once, and that accumulator is added into the first block of
 * the next group, whose product comes last in its iteration (it waits
 * for the reduction; the others need not). The last group holds the last
 * stage (and the one before it when their blocks and the length block
 * fit in 32) and takes the length block with K_1 into its sum; the
 * groups before it pair stages from the end, so that an unpaired stage
 * is the first: every group after the first is 7..8 vectors long, and a
 * reduction has an iteration or more to finish before its accumulator
 * is needed. The additional data goes first as a group of its own (its
 * a <= 32 blocks take K_a .. K_1).
 *
 * On Zen 4 a zmm vaesenc and a zmm vpclmulqdq share the same two pipes,
 * so the overlap does not make the work smaller: it fills the pipes
 * while one stage's rounds wait on their latency and hides a group's
 * reduction under the next stage's rounds (docs/engines/vaes.md,
 * "Medium messages").
 *
 * Counters: with a 12-byte IV, data block j's counter is IV || be32(2 + j),
 * and 2 + j <= 113 here, so only byte 15 differs from IV || 0^32: one
 * XOR of that vector (round key 0 added once per message) with a row of
 * gs_ctab makes 4 counter blocks, where an add and a byte reversal
 * before the round-0 XOR took three operations.
 *
 * Why not the whole-message kernel (vaes_avx512_gcm.c): its 32-block
 * batches pay from the third batch on, and its frame needs a stack wipe.
 * Here gcc keeps everything in registers.
 */
#ifndef GS_MEDIUM
#define GS_MEDIUM 1792
#endif
#define GS_MAX_AAD (16 * GS_POWERS)
/* Vectors, blocks and bytes per stage */
#define GS_SV 4
#define GS_SB (4 * GS_SV)
#define GS_SBYTES (64 * GS_SV)
/* Vectors an encryption iteration takes at most (its stage, or the
 * products beside it: the first stage of GS_PRE below) */
#define GS_IMAX 8
/* stack_wipe.h's rule: the largest frame plus 256, rounded to 64 (clang
 * 14, -fstack-usage: gs_stage8_enc 2296 bytes, gs_stage8_dec 1848,
 * gs_wide_dec_body 1336, gs_medium_enc_pre 760, gs_medium_dec 696,
 * gs_medium_enc 248) */
#define GS_MEDIUM_STACK 2560

/* The rounds loop: unrolled in full, so that which products follow which
 * round is settled at compile time. */
#if defined(__clang__)
#define GS_UNROLL_R _Pragma("clang loop unroll(full)")
#else
#define GS_UNROLL_R _Pragma("GCC unroll 16")
#endif

/* Row v: byte 15 of lane l is 2 + 4 v + l, the low byte of data block
 * (4 v + l)'s counter; every other byte zero. */
#define GS_CL(c) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (c)
#define GS_CV(v)                                                               \
    {                                                                          \
        GS_CL(4 * (v) + 2), GS_CL(4 * (v) + 3), GS_CL(4 * (v) + 4),            \
            GS_CL(4 * (v) + 5)                                                 \
    }
_Static_assert(GS_MEDIUM <= 28 * 64, "gs_ctab has 28 rows");
static const uint8_t gs_ctab[28][64] __attribute__((aligned(64))) = {
    GS_CV(0),  GS_CV(1),  GS_CV(2),  GS_CV(3),  GS_CV(4),  GS_CV(5),
    GS_CV(6),  GS_CV(7),  GS_CV(8),  GS_CV(9),  GS_CV(10), GS_CV(11),
    GS_CV(12), GS_CV(13), GS_CV(14), GS_CV(15), GS_CV(16), GS_CV(17),
    GS_CV(18), GS_CV(19), GS_CV(20), GS_CV(21), GS_CV(22), GS_CV(23),
    GS_CV(24), GS_CV(25), GS_CV(26), GS_CV(27)};
#undef GS_CV
#undef GS_CL

/*
 * Rounds 1 .. nr of the G vectors x (and, when e != NULL, J0 at *e made
 * E_K(J0)) and, spread over rounds 1 .. nr - 1, the products of the H
 * vectors hv (GCM order) with the powers at pw + 64 j, added into *s.
 * hv[0] carries the accumulator: it goes last, so the other products
 * need not wait for the reduction before it. G, H, nr and e's nullness
 * are constants once inlined.
 */
GS_INLINE void gs_step(const uint8_t *rk, unsigned nr, __m512i *x, unsigned G,
                       __m128i *e, const __m512i *hv, unsigned H,
                       const uint8_t *pw, struct gs_acc *s)
{
    /* laundered per step, so that no round key or power is loaded once
     * for several steps and kept (gcc spilled an AES-256 round key) */
    __asm__("" : "+r"(rk), "+r"(pw));
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
        /* hash vectors in the order 1 .. H - 1, 0, in pairs */
        GS_UNROLL
        for (unsigned u = 0; u < (H + 1) / 2; u++) {
            const unsigned v = 2 * u + 1 < H ? 2 * u + 1 : 0;
            const unsigned w = 2 * u + 2 < H ? 2 * u + 2 : 0;
            if (1 + u * (nr - 1) / ((H + 1) / 2) == r) {
                if (v != 0 && w != 0)
                    gs_mul_add2(s, hv[v], hv[w], pw + 64 * v, pw + 64 * w);
                else if (v != 0)
                    gs_mul_add2(s, hv[v], hv[0], pw + 64 * v, pw);
                else
                    gs_mul_add(s, hv[0], pw);
                /* the sums pinned here: gcc otherwise keeps every
                 * product live to add them as a tree at the end, and
                 * spills them (as in vaes_avx2_gcm.c) */
                __asm__("" : "+v"(s->lo), "+v"(s->hi), "+v"(s->mid));
            }
        }
    }
}

/* Adds x (GCM order, lane 0; the other lanes zero) into the first block
 * of the GCM-order vector v. */
GS_INLINE __m512i gs_add_acc(__m512i v, __m128i acc_gcm)
{
    return _mm512_xor_si512(v, _mm512_zextsi128_si512(acc_gcm));
}

/* The G counter vectors of data vectors v0 .. v0 + G - 1, round key 0
 * added (base: IV || 0^32 plus round key 0, in each lane). */
GS_INLINE void gs_ctr(__m512i base, size_t v0, __m512i *x, unsigned G)
{
    GS_UNROLL
    for (unsigned g = 0; g < G; g++)
        x[g] = _mm512_xor_si512(
            base, _mm512_load_si512((const void *)gs_ctab[v0 + g]));
}

/* G vectors of input: whole (64 G bytes; whole is a constant once
 * inlined) or the r bytes left (masked, zero past r). Every caller has
 * G = ceil(r / 64) when not whole, so only the last vector can be
 * partial: the others take plain loads, with no mask to compute and no
 * page test (at 1420 bytes the last stage's 7 vectors each took some
 * 15 scalar instructions for them, and on Zen 5 this kernel is bound by
 * its instruction count). */
GS_INLINE void gs_in(__m512i *d, const uint8_t *in, size_t r, int whole,
                     unsigned G)
{
    GS_UNROLL
    for (unsigned g = 0; g < G; g++)
        d[g] = whole || g + 1 < G
                   ? _mm512_loadu_si512((const void *)(in + 64 * g))
                   : gs_load(in + 64 * g, r - 64 * g, gs_mask(r, g));
}

/* o = d ^ x, stored; zero past r when not whole (G = ceil(r / 64), as
 * for gs_in). */
GS_INLINE void gs_out(__m512i *o, const __m512i *d, const __m512i *x,
                      uint8_t *out, size_t r, int whole, unsigned G)
{
    GS_UNROLL
    for (unsigned g = 0; g < G; g++) {
        if (whole || g + 1 < G) {
            o[g] = _mm512_xor_si512(d[g], x[g]);
            _mm512_storeu_si512((void *)(out + 64 * g), o[g]);
        } else {
            __mmask64 k = gs_mask(r, g);
            o[g] = _mm512_maskz_mov_epi8(k, _mm512_xor_si512(d[g], x[g]));
            gs_store(out + 64 * g, r - 64 * g, k, o[g]);
        }
    }
}

/*
 * Encryption's iteration: the stage of G vectors at data vector v0 (r
 * bytes at in / out, or 64 G when whole), E_K(J0) beside it when
 * e != NULL; the products of the H vectors of ciphertext at prev (the
 * stage before, whole; H = 0: none), *acc added into the first and then
 * zeroed, into *s with the powers at pw. The stage before is read back
 * from out, as the bulk loop does: kept in registers from one iteration
 * to the next it cost a register copy per vector. o (when not NULL)
 * receives this stage's ciphertext, zero past r.
 */
GS_INLINE void gs_enc_iter(const uint8_t *rk, unsigned nr, __m512i base,
                           size_t v0, __m128i *e, uint8_t *out,
                           const uint8_t *in, size_t r, int whole,
                           const uint8_t *prev, const uint8_t *pw, __m128i *acc,
                           struct gs_acc *s, __m512i *o, unsigned G, unsigned H)
{
    __m512i x[GS_IMAX], d[GS_IMAX], hv[GS_IMAX], t[GS_IMAX];

    gs_ctr(base, v0, x, G);
    GS_UNROLL
    for (unsigned g = 0; g < H; g++)
        hv[g] = _mm512_loadu_si512((const void *)(prev + 64 * g));
    if (H != 0) {
        hv[0] = gs_add_acc(hv[0], *acc);
        *acc = _mm_setzero_si128();
    }
    gs_step(rk, nr, x, G, e, hv, H, pw, s);
    gs_in(d, in, r, whole, G);
    gs_out(o != NULL ? o : t, d, x, out, r, whole, G);
}

/* Decryption's iteration: the same, hashing the stage's own input. */
GS_INLINE void gs_dec_iter(const uint8_t *rk, unsigned nr, __m512i base,
                           size_t v0, __m128i *e, uint8_t *out,
                           const uint8_t *in, size_t r, int whole,
                           const uint8_t *pw, __m128i *acc, struct gs_acc *s,
                           unsigned G)
{
    __m512i x[GS_IMAX], d[GS_IMAX], hv[GS_IMAX], o[GS_IMAX];

    gs_ctr(base, v0, x, G);
    gs_in(d, in, r, whole, G);
    GS_UNROLL
    for (unsigned g = 0; g < G; g++)
        hv[g] = d[g];
    hv[0] = gs_add_acc(hv[0], *acc);
    *acc = _mm_setzero_si128();
    gs_step(rk, nr, x, G, e, hv, G, pw, s);
    gs_out(o, d, x, out, r, whole, G);
}

/* Encryption's last products: the G vectors o (acc added into the
 * first, which goes last) with the powers at pw, into *s. */
GS_INLINE void gs_hash_out(const __m512i *o, unsigned G, const uint8_t *pw,
                           __m128i acc_gcm, struct gs_acc *s)
{
    const __m512i o0 = gs_add_acc(o[0], acc_gcm);
    GS_UNROLL
    for (unsigned g = 1; g + 1 < G; g += 2)
        gs_mul_add2(s, o[g], o[g + 1], pw + 64 * g, pw + 64 * (g + 1));
    if (G % 2 == 0)
        gs_mul_add2(s, o[G - 1], o0, pw + 64 * (G - 1), pw);
    else
        gs_mul_add(s, o0, pw);
}

/* clang-format off */
#define GS_LAST(gl, LAST)                                                     \
    switch (gl) {                                                             \
    case 1: LAST(1); break;                                                   \
    case 2: LAST(2); break;                                                   \
    case 3: LAST(3); break;                                                   \
    case 4: LAST(4); break;                                                   \
    default: LAST(5); break;                                                  \
    }
/* clang-format on */

/* Reflected to GCM order and back (an involution). */
GS_INLINE __m128i gs_swap(__m128i x)
{
    return _mm_shuffle_epi8(
        x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* The reduced sum s, in GCM order: the next group's accumulator; s is
 * zeroed for that group. */
GS_INLINE __m128i gs_next(struct gs_acc *s, const uint8_t *hk)
{
    __m128i y = gs_swap(gs_reduce0(s));
    (void)hk;
    s->lo = s->hi = s->mid = _mm512_setzero_si512();
    return y;
}

/*
 * The reduction groups of a message of S stages whose last group starts
 * at stage lg (see above): whether stage t ends its group, and the powers
 * of stage t's first block (n: data blocks).
 */
GS_INLINE int gs_group_end(size_t t, size_t S, size_t lg)
{
    return t + 1 == S || t + 1 == lg || (t + 1 < lg && (lg - t) % 2 == 1);
}

GS_INLINE const uint8_t *gs_powers(const uint8_t *hk, size_t t, size_t n,
                                   size_t lg)
{
    size_t first, m;
    if (t >= lg) {
        first = lg, m = n - GS_SB * lg + 1;
    } else if ((lg - t) % 2 == 0) {
        first = t, m = 2 * GS_SB;
    } else {
        first = t != 0 ? t - 1 : 0;
        m = t != 0 ? 2 * GS_SB : GS_SB;
    }
    return hk + 16 * (GS_POWERS - m + GS_SB * (t - first));
}

/*
 * The start of a medium or wide message (its three kernels): base, IV
 * || 0 whitened with K_0 in every lane, from which the data's counters
 * are one add away; e, J0 = IV || 1 (E_K(J0) masks the tag);
 * the sums s cleared and the additional data hashed and reduced (in GCM
 * order; zero when there is none), which is returned.
 */
GS_INLINE __m128i gs_begin(const uint8_t *rk, const uint8_t *hk,
                           const uint8_t iv[12], const uint8_t *aad,
                           size_t aad_len, struct gs_acc *s, __m512i *base,
                           __m128i *e)
{
    const unsigned a = (unsigned)((aad_len + 15) / 16);
    __m128i j0, acc = _mm_setzero_si128();
    uint32_t w2;

    memcpy(&w2, iv + 8, 4);
    j0 = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)iv),
                          (int)w2, 2);
    *base = _mm512_xor_si512(_mm512_broadcast_i32x4(j0), gs_rk(rk, 0));
    *e = _mm_insert_epi32(j0, 0x01000000, 3);
    s->lo = s->hi = s->mid = _mm512_setzero_si512();
    if (a != 0) {
        for (unsigned i = 0; i < a; i += 4)
            gs_mul_add(s,
                       gs_load(aad + 16 * i, aad_len - 16 * i,
                               gs_mask(aad_len, i / 4)),
                       hk + 16 * (GS_POWERS - a + i));
        acc = gs_next(s, hk);
    }
    return acc;
}

/*
 * Encryption's first stage, when pre = GS_PRE (a constant once inlined):
 * the first GS_PRE vectors through the rounds alone, their products
 * beside the rounds of the rest's first stage; the rest (len - 64 GS_PRE
 * bytes) then runs as a message of its own would (its stages, groups and
 * join rule), its counters GS_PRE vectors on. The first GS_PRE vectors
 * are a reduction group of their own (4 GS_PRE blocks, K_28 .. K_1 for
 * GS_PRE = 7), its sum added into the rest's first block.
 *
 * Why (Zen 5, 2026-11-26 night; docs/modes/gcm.md, "What limits the
 * missed cells"): a zmm vaesenc has a latency of 4 and issues 2 per
 * cycle, so the 4 chains of a first stage of 4 vectors leave half the
 * AES issue slots idle for the 40 cycles before the first ciphertext
 * exists, and nothing else can run then (the products need that
 * ciphertext). 7 chains fill those cycles with rounds. Measured (TSC
 * cycles per message, the kernel alone, medians of 3 interleaved runs):
 * 576 B AES-128 seal 87.8 -> 82.9, AES-256 100.8 -> 96.7, 768 B AES-128
 * 104.8 -> 97.5. Not past GS_PRE_MAX: at 1024 and 1420 bytes the first
 * stage of 7 cost 0-3 cycles (not analysed further).
 * All the counters of the message at once (9 chains at 576 B, then
 * the products alone) was worse: 87.8 -> 105 (the rounds and the
 * products then share no cycles).
 */
#ifndef GS_PRE
#define GS_PRE 7
#endif
#ifndef GS_PRE_MAX
#define GS_PRE_MAX (64 * (GS_PRE + GS_SV + 1))
#endif
_Static_assert(GS_PRE <= GS_IMAX && 4 * GS_PRE <= GS_POWERS, "GS_PRE");

GS_INLINE void gs_medium(const uint8_t *rk, unsigned nr, const uint8_t *hk,
                         const uint8_t iv[12], const uint8_t *aad,
                         size_t aad_len, uint8_t *out, const uint8_t *in,
                         size_t len, uint8_t tag[16], int decrypt, unsigned pre)
{
    const __m128i len_blk = _mm_set_epi64x((long long)((uint64_t)aad_len * 8),
                                           (long long)((uint64_t)len * 8));
    /* the rest after the first stage of pre vectors (encryption) */
    const size_t pb = 64 * (size_t)pre;
    uint8_t *const out0 = out;
    /* n blocks in S stages, the last of gl vectors and nl blocks; the
     * last group from stage lg */
    size_t n, S, nl;
    unsigned gl;
    size_t lg;
    struct gs_acc s;
    __m128i e, acc; /* GCM order */
    __m512i base, o[GS_IMAX];

    /* in and out may be NULL when len is 0 (GMAC with long additional
     * data comes here): NULL + 0 is undefined in C (clang's UBSan,
     * fuzz_gcm), so move them only past a first stage */
    if (pre != 0)
        out += pb, in += pb, len -= pb;
    n = (len + 15) / 16, S = (len + GS_SBYTES - 1) / GS_SBYTES;
    nl = S != 0 ? n - GS_SB * (S - 1) : 0;
    gl = (unsigned)((nl + 3) / 4);
    /* encryption: a last stage of one vector joins the stage before
     * (5 vectors): one vector's rounds alone were a latency chain beside
     * too little work (576 B seal kernel 147 -> 143 TSC cycles) */
    if (!decrypt && gl == 1 && S >= 2)
        S--, nl += GS_SB, gl += GS_SV;
    lg = S >= 2 && GS_SB + nl <= 31 ? S - 2 : S - 1;
    acc = gs_begin(rk, hk, iv, aad, aad_len, &s, &base, &e);
    if (S == 0) {
        /* no data: E_K(J0) alone; the additional data's hash goes with
         * the length block */
        gs_step(rk, nr, o, 0, &e, o, 0, hk, &s);
        acc = gs_reduce(&s, hk, _mm_xor_si128(len_blk, gs_swap(acc)));
        _mm_storeu_si128((__m128i *)(void *)tag,
                         _mm_xor_si128(gs_swap(acc), e));
        return;
    }
    if (decrypt) {
        size_t t, tv;
        for (t = 0; t + 1 < S; t++) {
            gs_dec_iter(rk, nr, base, GS_SV * t, NULL, out + GS_SBYTES * t,
                        in + GS_SBYTES * t, GS_SBYTES, 1,
                        gs_powers(hk, t, n, lg), &acc, &s, GS_SV);
            if (gs_group_end(t, S, lg))
                acc = gs_next(&s, hk);
        }
        tv = GS_SV * t;
#define LAST(g)                                                                \
    gs_dec_iter(rk, nr, base, tv, &e, out + GS_SBYTES * t, in + GS_SBYTES * t, \
                len - GS_SBYTES * t, 0, gs_powers(hk, t, n, lg), &acc, &s, g)
        GS_LAST(gl, LAST)
#undef LAST
        goto done;
    }
    /* encryption; iteration 0 hashes the first stage (pre != 0) or
     * nothing */
    if (pre != 0)
        gs_enc_iter(rk, nr, base, 0, NULL, out0, in - pb, pb, 1, out0, hk, &acc,
                    &s, NULL, pre, 0);
    if (S == 1) {
        /* one stage: its rounds, then its products */
#define LAST(g)                                                                \
    gs_enc_iter(rk, nr, base, pre, &e, out, in, len, 0, out0,                  \
                hk + 16 * (GS_POWERS - 4 * pre), &acc, &s, o, g, pre);         \
    if (pre != 0)                                                              \
        acc = gs_next(&s, hk);                                                 \
    gs_hash_out(o, g, gs_powers(hk, 0, n, lg), acc, &s)
        GS_LAST(gl, LAST)
#undef LAST
    } else {
        size_t t, tv;
        gs_enc_iter(rk, nr, base, pre, NULL, out, in, GS_SBYTES, 1, out0,
                    hk + 16 * (GS_POWERS - 4 * pre), &acc, &s, NULL, GS_SV,
                    pre);
        if (pre != 0)
            acc = gs_next(&s, hk);
        for (t = 1; t + 1 < S; t++) {
            gs_enc_iter(rk, nr, base, pre + GS_SV * t, NULL,
                        out + GS_SBYTES * t, in + GS_SBYTES * t, GS_SBYTES, 1,
                        out + GS_SBYTES * (t - 1), gs_powers(hk, t - 1, n, lg),
                        &acc, &s, NULL, GS_SV, GS_SV);
            if (gs_group_end(t - 1, S, lg))
                acc = gs_next(&s, hk);
        }
        /* the last iteration, E_K(J0) in its rounds (in the first, it
         * was live across the iterations and gcc spilled it: a secret
         * on the stack), then the last stage's products */
        tv = pre + GS_SV * t;
#define LAST(g)                                                                \
    gs_enc_iter(rk, nr, base, tv, &e, out + GS_SBYTES * t, in + GS_SBYTES * t, \
                len - GS_SBYTES * t, 0, out + GS_SBYTES * (t - 1),             \
                gs_powers(hk, t - 1, n, lg), &acc, &s, o, g, GS_SV);           \
    if (gs_group_end(t - 1, S, lg))                                            \
        acc = gs_next(&s, hk);                                                 \
    gs_hash_out(o, g, gs_powers(hk, t, n, lg), acc, &s)
        GS_LAST(gl, LAST)
#undef LAST
    }
done:
    gs_len_add(&s, hk, len_blk);
    acc = gs_reduce0(&s);
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(gs_swap(acc), e));
}

#endif /* AESIR_VAES_AVX512_GCM_MEDIUM_H */
