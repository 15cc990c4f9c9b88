/*
 * vaes_avx512_gcm_batch.h -- the 32-block batch of vaes-avx512's fused
 * GCM kernels, shared by the bulk kernels (vaes_avx512_gcm.c: gcm_enc,
 * gcm_dec) and the whole-message kernels (vaes_avx512_gcm_msg.c): the
 * kernel state, Karatsuba products and their sums, the reduction, the
 * counters, the rounds, one batch of 8 zmm with the hash of 8 others, the
 * hash of a batch alone, and a tail of 1..8 vectors. Everything is
 * ENGINE_INLINE: each kernel is one function for a constant nr in which
 * these pieces become straight-line code.
 *
 * The design (why fused, what sets the speed on Zen 4, the layout of the
 * hash-key powers and their Karatsuba halves, the aggregated reduction,
 * the constant-time claim) is explained in vaes_avx512_gcm.c's header
 * comment; what only whole messages need (the length block, the
 * additional data, which batches take the counter table) is in
 * vaes_avx512_gcm_msg.c. The counter table (g5_dtab) is here, beside the
 * batch that reads it: the batch indexes it itself (a row pointer passed
 * in instead changed gcc 12's register allocation and cost 1.7% of a
 * 16 KiB AES-128 seal).
 *
 * The including file defines ENGINE_ISA (vaes_avx512_gcm.c's string) and
 * includes engine.h, <immintrin.h>, ghash_x86.h and x86_gcm.h first. With
 * G5_VBMI defined (and "avx512vbmi" in ENGINE_ISA: the whole-message
 * kernels) the hash of a batch takes its data through vpermt2b
 * (g5_hpair below).
 */
#ifndef AESIR_VAES_AVX512_GCM_BATCH_H
#define AESIR_VAES_AVX512_GCM_BATCH_H

/* the sums of a batch's products and their reduction (struct gx5_sums,
 * gx5_finish), shared with GCM-SIV and the GHASH engine */
#include "ghash_x86_zmm.h"

typedef __m512i vec;

/* Every loop over rounds, vectors or lanes is unrolled in full: an array
 * indexed by a loop variable (the round keys above all) would otherwise
 * live on the stack, which is slower and leaves key material there. */
#if defined(__clang__)
#define G5_UNROLL _Pragma("clang loop unroll(full)")
#else
#define G5_UNROLL _Pragma("GCC unroll 16")
#endif

/* Vectors per batch (4 or 8) and blocks. */
#ifndef G5_V
#define G5_V 8
#endif
#define G5_B (4 * G5_V)

ENGINE_INLINE vec g5_bcast(__m128i x)
{
    return _mm512_broadcast_i32x4(x);
}

ENGINE_INLINE vec g5_loadu(const void *p)
{
    return _mm512_loadu_si512(p);
}

ENGINE_INLINE void g5_storeu(void *p, vec v)
{
    _mm512_storeu_si512(p, v);
}

/* Byte mask of the first m blocks of a vector, m = 1..4. */
ENGINE_INLINE __mmask64 g5_mask(size_t m)
{
    return m >= 4 ? ~(__mmask64)0 : ((__mmask64)1 << (16 * m)) - 1;
}

/* The three products of d (4 byte-reversed blocks) and k (4 powers), lane
 * by lane, unsummed. Karatsuba: the middle one is (d_lo ^ d_hi)(k_lo ^
 * k_hi), whose sum gx5_finish corrects by the sums of the other two; kh
 * holds k_lo ^ k_hi, made once per key (the halves table beside the
 * powers, x86_gcm.h GX_VP512_HALVES), so only the data's half costs a
 * shuffle and an XOR here. On Zen 4 a zmm vpclmulqdq takes the same two
 * FP pipes as a zmm vaesenc: the fourth product of the schoolbook form
 * would cost a round's slot per 4 blocks, the shuffle and XOR that
 * replace it can go to the other two pipes. */
struct g5_prod {
    vec lo, mid, hi;
};

ENGINE_INLINE struct g5_prod g5_prod(vec d, vec k, vec kh)
{
    struct g5_prod p;
    p.lo = _mm512_clmulepi64_epi128(d, k, 0x00);
    p.hi = _mm512_clmulepi64_epi128(d, k, 0x11);
    p.mid = _mm512_clmulepi64_epi128(
        _mm512_xor_si512(d, _mm512_shuffle_epi32(d, _MM_PERM_BADC)), kh, 0x00);
    return p;
}

/* a += p (first: a = p). */
ENGINE_INLINE void g5_add(struct gx5_sums *a, const struct g5_prod *p,
                          int first)
{
    if (first) {
        a->lo = p->lo;
        a->hi = p->hi;
        a->mid = p->mid;
    } else {
        a->lo = _mm512_xor_si512(a->lo, p->lo);
        a->hi = _mm512_xor_si512(a->hi, p->hi);
        a->mid = _mm512_xor_si512(a->mid, p->mid);
    }
}

/* a += p + q, one three-way XOR per sum (first: a = p + q). */
ENGINE_INLINE void g5_add2(struct gx5_sums *a, const struct g5_prod *p,
                           const struct g5_prod *q, int first)
{
    if (first) {
        a->lo = _mm512_xor_si512(p->lo, q->lo);
        a->hi = _mm512_xor_si512(p->hi, q->hi);
        a->mid = _mm512_xor_si512(p->mid, q->mid);
    } else {
        a->lo = _mm512_ternarylogic_epi64(a->lo, p->lo, q->lo, 0x96);
        a->hi = _mm512_ternarylogic_epi64(a->hi, p->hi, q->hi, 0x96);
        a->mid = _mm512_ternarylogic_epi64(a->mid, p->mid, q->mid, 0x96);
    }
}

/* d times the powers k with their halves kh, into a (first: a starts
 * here). */
ENGINE_INLINE void g5_mul(struct gx5_sums *a, vec d, vec k, vec kh, int first)
{
    const struct g5_prod p = g5_prod(d, k, kh);
    g5_add(a, &p, first);
}

/* What every kernel keeps. The round keys and hash-key powers are not
 * copied into registers for the whole call: with 15 keys, 4 powers, the
 * counters, the data and the sums, more than 32 zmm would be live and
 * the compilers spilled keys to the stack (slower, and key material in
 * dead frames). Instead each batch reads them from the schedule and the
 * key table, as broadcast loads and memory operands, through pointers
 * laundered once per batch (g5_opaque) so that the loads are not
 * hoisted out of the loop again. */
struct g5_state {
    /* the round keys: 16 bytes each (broadcast as they are loaded), or
     * with wide set already broadcast, 64 bytes each (g5_msg) */
    const uint8_t *rk, *hk;
    int wide;
    vec c;       /* the next counters, little-endian: lanes +0..+3 */
    __m128i acc; /* GHASH accumulator, reflected */
};

ENGINE_INLINE const uint8_t *g5_opaque(const uint8_t *p)
{
    __asm__("" : "+r"(p));
    return p;
}

/* Round key r, broadcast. (vbroadcasti32x4 from memory takes a slot of
 * the vector pipes on Zen 4, a plain load does not: the whole-message
 * path broadcasts the keys once per message, 3% at 16 KiB.) */
ENGINE_INLINE vec g5_key(const struct g5_state *s, unsigned r)
{
    if (s->wide)
        return _mm512_load_si512((const void *)(s->rk + 64 * r));
    return g5_bcast(
        _mm_load_si128((const __m128i *)(const void *)(s->rk + 16 * r)));
}

ENGINE_INLINE vec g5_rev(void)
{
    return g5_bcast(gx_rev_mask());
}

/* The counters of n vectors, byte-swapped and XORed with round key 0;
 * the counters advance by 4 n. */
ENGINE_INLINE void g5_ctr(struct g5_state *s, vec *x, unsigned n)
{
    /* each vector's counters from the previous one's (one constant, not
     * one per vector: gcc kept eight increments live across the loop and
     * spilled them) */
    const vec k0 = g5_key(s, 0), four = _mm512_set4_epi32(0, 0, 0, 4);
    vec c = s->c;
    G5_UNROLL
    for (unsigned i = 0; i < n; i++) {
        x[i] = _mm512_xor_si512(_mm512_shuffle_epi8(c, g5_rev()), k0);
        c = _mm512_add_epi32(c, four);
    }
    s->c = c;
}

/*
 * The counter table of the whole-message path (vaes_avx512_gcm_msg.c, g5_row).
 * The counter of
 * data block n is n + 2, so batch k's first counter has low byte
 * b = 2 + 32 m, m = k mod 8; for m < 7 none of its 32 counters carries
 * out of that byte, so vector i's counter blocks differ from the first
 * vector's in byte 15 of each lane only, by the XOR of (b + L) and
 * (b + 4 i + L) (lane L): a constant of m and i, g5_dtab[m][i]. So T, the
 * first vector's counter blocks with round key 0 (one byte reversal and
 * one XOR per batch), and one XOR with a table vector make each vector,
 * where the byte reversal and the XOR of g5_ctr made three operations.
 * Batches with m = 7 (their low byte wraps) take g5_ctr. The incremental
 * kernels, whose counter may be secret (an IV of other length), never
 * take this path; here the table row depends on the position only.
 */
#define G5_DB(m, i, L)                                                         \
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                               \
        (uint8_t)((2 + 32 * (m) + (L)) ^ (2 + 32 * (m) + 4 * (i) + (L)))
#define G5_DV(m, i)                                                            \
    {                                                                          \
        G5_DB(m, i, 0), G5_DB(m, i, 1), G5_DB(m, i, 2), G5_DB(m, i, 3)         \
    }
#define G5_DM(m)                                                               \
    {                                                                          \
        G5_DV(m, 0), G5_DV(m, 1), G5_DV(m, 2), G5_DV(m, 3), G5_DV(m, 4),       \
            G5_DV(m, 5), G5_DV(m, 6), G5_DV(m, 7)                              \
    }
static const _Alignas(64) uint8_t g5_dtab[7][8][64] = {
    G5_DM(0), G5_DM(1), G5_DM(2), G5_DM(3), G5_DM(4), G5_DM(5), G5_DM(6)};

ENGINE_INLINE void g5_ctr_tab(struct g5_state *s, vec *x, unsigned n,
                              unsigned m)
{
    const vec t =
        _mm512_xor_si512(_mm512_shuffle_epi8(s->c, g5_rev()), g5_key(s, 0));
    G5_UNROLL
    for (unsigned i = 0; i < n; i++)
        x[i] = i == 0 ? t
                      : _mm512_xor_si512(
                            t, _mm512_load_si512((const void *)g5_dtab[m][i]));
    s->c = _mm512_add_epi32(s->c, _mm512_set4_epi32(0, 0, 0, (int)(4 * n)));
}

ENGINE_INLINE void g5_round(const struct g5_state *s, vec *x, unsigned n,
                            unsigned r)
{
    const vec k = g5_key(s, r);
    G5_UNROLL
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm512_aesenc_epi128(x[i], k);
}

/* Hash vector j (j = 0 .. G5_V - 1 in the order they are multiplied) is
 * data vector (j + 1) mod G5_V: vector 0, which takes the accumulator,
 * comes last, so the other products do not wait for the previous
 * batch's reduction. */
#define G5_HV(j) (((j) + 1) % G5_V)

#ifndef G5_VBMI
/* Data vector v of the batch at h, byte-reversed, with the accumulator
 * added when v = 0. */
ENGINE_INLINE vec g5_hdata(const struct g5_state *s, const uint8_t *h,
                           unsigned v)
{
    vec d = _mm512_shuffle_epi8(g5_loadu(h + 64 * v), g5_rev());
    if (v == 0)
        d = _mm512_xor_si512(d, _mm512_zextsi128_si512(s->acc));
    return d;
}

/*
 * The products of hash vectors j and j + 1 (j even) of the batch at h,
 * added into a (j = 0: a starts here). Their Karatsuba halves are made
 * together: the low qwords of both in one vector, the high ones in
 * another, one XOR (three operations for two vectors, not four); the
 * middle products then take qword 0 and qword 1 of that sum.
 */
ENGINE_INLINE void g5_hpair(struct gx5_sums *a, const struct g5_state *s,
                            const uint8_t *h, const uint8_t *kt, unsigned j)
{
    const unsigned v = G5_HV(j), w = G5_HV(j + 1);
    const vec dv = g5_hdata(s, h, v), dw = g5_hdata(s, h, w);
    const vec kv = g5_loadu(kt + 64 * v), kw = g5_loadu(kt + 64 * w);
    const vec m = _mm512_xor_si512(_mm512_unpacklo_epi64(dv, dw),
                                   _mm512_unpackhi_epi64(dv, dw));
    struct g5_prod p, q;

    p.lo = _mm512_clmulepi64_epi128(dv, kv, 0x00);
    p.hi = _mm512_clmulepi64_epi128(dv, kv, 0x11);
    p.mid = _mm512_clmulepi64_epi128(m, g5_loadu(kt + GX_VP512_HALVES + 64 * v),
                                     0x00);
    q.lo = _mm512_clmulepi64_epi128(dw, kw, 0x00);
    q.hi = _mm512_clmulepi64_epi128(dw, kw, 0x11);
    q.mid = _mm512_clmulepi64_epi128(m, g5_loadu(kt + GX_VP512_HALVES + 64 * w),
                                     0x01);
    g5_add2(a, &p, &q, j == 0);
}

#else /* G5_VBMI */

/*
 * With AVX512-VBMI (the whole-message kernels, vaes_avx512_gcm_msg.c,
 * define G5_VBMI) a pair's byte reversals and unpacks are two
 * two-source byte permutes (vpermt2b): per lane, g5_perm[0] gathers the
 * low qword of v's block, byte-reversed, and then that of w's; g5_perm[1]
 * the high qwords. Byte i of a reversed block is byte 15 - i of the
 * block as loaded, so its low qword is bytes 15..8 and its high one
 * bytes 7..0; indices 64..127 name the second source's (w's) bytes.
 * Three operations for two vectors where byte reversal and unpacks took
 * five; the products pick their qwords by immediate.
 */
#define G5_PL(l, i)                                                            \
    (uint8_t)((i) < 8 ? 16 * (l) + 15 - (i) : 64 + 16 * (l) + 23 - (i))
#define G5_PH(l, i)                                                            \
    (uint8_t)((i) < 8 ? 16 * (l) + 7 - (i) : 64 + 16 * (l) + 15 - (i))
#define G5_PLANE(P, l)                                                         \
    P(l, 0), P(l, 1), P(l, 2), P(l, 3), P(l, 4), P(l, 5), P(l, 6), P(l, 7),    \
        P(l, 8), P(l, 9), P(l, 10), P(l, 11), P(l, 12), P(l, 13), P(l, 14),    \
        P(l, 15)
static const _Alignas(64) uint8_t g5_perm[2][64] = {
    {G5_PLANE(G5_PL, 0), G5_PLANE(G5_PL, 1), G5_PLANE(G5_PL, 2),
     G5_PLANE(G5_PL, 3)},
    {G5_PLANE(G5_PH, 0), G5_PLANE(G5_PH, 1), G5_PLANE(G5_PH, 2),
     G5_PLANE(G5_PH, 3)}};

/* Data vector v of the batch at h as loaded, with the accumulator added
 * in GCM's byte order when v = 0 (one xmm byte reversal per batch). */
ENGINE_INLINE vec g5_hraw(const struct g5_state *s, const uint8_t *h,
                          unsigned v)
{
    vec d = g5_loadu(h + 64 * v);
    if (v == 0)
        d = _mm512_xor_si512(
            d, _mm512_zextsi128_si512(_mm_shuffle_epi8(s->acc, gx_rev_mask())));
    return d;
}

/* g5_hpair above, from the permutes: lo = [v_lo w_lo], hi = [v_hi w_hi]
 * per lane, so v's products take qword 0 of lo and hi, w's qword 1. */
ENGINE_INLINE void g5_hpair(struct gx5_sums *a, const struct g5_state *s,
                            const uint8_t *h, const uint8_t *kt, unsigned j)
{
    const unsigned v = G5_HV(j), w = G5_HV(j + 1);
    const vec dv = g5_hraw(s, h, v), dw = g5_hraw(s, h, w);
    const vec kv = g5_loadu(kt + 64 * v), kw = g5_loadu(kt + 64 * w);
    const vec lo = _mm512_permutex2var_epi8(
        dv, _mm512_load_si512((const void *)g5_perm[0]), dw);
    const vec hi = _mm512_permutex2var_epi8(
        dv, _mm512_load_si512((const void *)g5_perm[1]), dw);
    const vec m = _mm512_xor_si512(lo, hi);
    struct g5_prod p, q;

    p.lo = _mm512_clmulepi64_epi128(lo, kv, 0x00);
    p.hi = _mm512_clmulepi64_epi128(hi, kv, 0x10);
    p.mid = _mm512_clmulepi64_epi128(m, g5_loadu(kt + GX_VP512_HALVES + 64 * v),
                                     0x00);
    q.lo = _mm512_clmulepi64_epi128(lo, kw, 0x01);
    q.hi = _mm512_clmulepi64_epi128(hi, kw, 0x11);
    q.mid = _mm512_clmulepi64_epi128(m, g5_loadu(kt + GX_VP512_HALVES + 64 * w),
                                     0x01);
    g5_add2(a, &p, &q, j == 0);
}
#endif /* G5_VBMI */

#if G5_V % 2 != 0
#error "G5_V: the products are summed in pairs"
#endif

/*
 * One batch of G5_V vectors: counters through the rounds, the last
 * round XORed with in; hash (a constant) says whether the batch at h is
 * hashed in the same iteration (decryption: h == in; encryption: the
 * previous batch's ciphertext) with the powers K_(4 G5_V) .. K_1. The
 * counters come from the table's row (g5_ctr_tab) or, when row is -1,
 * from g5_ctr.
 *
 * The hash vectors are spread evenly over the nr - 1 middle rounds
 * (vector j after round 1 + j (nr - 1) / G5_V), so that in the core's
 * window of some hundred vector operations each round's vaesencs come
 * with their share of products, and the products are summed in pairs
 * (one three-way XOR per sum and pair). The reduction follows the last
 * round: the next batch needs it only for its last product.
 */
ENGINE_INLINE void g5_batch(struct g5_state *s, const unsigned nr, uint8_t *out,
                            const uint8_t *in, const uint8_t *h, const int hash,
                            const int row)
{
    const uint8_t *kt;
    vec x[G5_V];
    struct gx5_sums a;

    s->rk = g5_opaque(s->rk);
    kt = g5_opaque(s->hk + 16 * (32 - G5_B));
    if (row >= 0)
        g5_ctr_tab(s, x, G5_V, (unsigned)row);
    else
        g5_ctr(s, x, G5_V);
    G5_UNROLL
    for (unsigned r = 1; r < nr; r++) {
        g5_round(s, x, G5_V, r);
        if (hash) {
            G5_UNROLL
            for (unsigned j = 0; j < G5_V; j += 2)
                if (1 + j * (nr - 1) / G5_V == r)
                    g5_hpair(&a, s, h, kt, j);
        }
    }
    G5_UNROLL
    for (unsigned i = 0; i < G5_V; i++)
        x[i] = _mm512_aesenclast_epi128(
            x[i], _mm512_xor_si512(g5_key(s, nr), g5_loadu(in + 64 * i)));
    if (hash)
        s->acc = gx5_finish(&a);
    G5_UNROLL
    for (unsigned i = 0; i < G5_V; i++)
        g5_storeu(out + 64 * i, x[i]);
}

/* The hash of a whole batch alone (encryption: the last one; the
 * additional data). */
ENGINE_INLINE void g5_hash_batch(struct g5_state *s, const uint8_t *h)
{
    const uint8_t *kt = s->hk + 16 * (32 - G5_B);
    struct gx5_sums a;
    G5_UNROLL
    for (unsigned j = 0; j < G5_V; j += 2)
        g5_hpair(&a, s, h, kt, j);
    s->acc = gx5_finish(&a);
}

/*
 * The tail of r = 1 .. G5_B - 1 blocks in n = ceil(r / 4) vectors (n a
 * constant), the last one masked. Its hash, one sum: for decryption the
 * input, for encryption the output (masked-off lanes, which hold
 * keystream, zeroed). Block i takes K_(r-i): vector j loads the powers
 * at hk + 16 (32 - r + 4 j), masked like the data (no read past the
 * table). Encryption first hashes the last batch (prev, when there is
 * one): independent of the tail's AES, so the two overlap.
 *
 * g5_tail_pass is that pass for this tail (g5_tail, vaes_avx512_gcm.c)
 * and for a whole message's last bytes (g5_last, vaes_avx512_gcm_msg.c):
 * m masks the last data vector (whole blocks for a tail, bytes for a message's
 * end), mk the last vector of powers from kt; the products are left in a for
 * the caller to finish.
 */
ENGINE_INLINE void g5_tail_pass(struct g5_state *s, const unsigned nr,
                                uint8_t *out, const uint8_t *in,
                                const unsigned n, const __mmask64 m,
                                const __mmask64 mk, const uint8_t *kt,
                                const uint8_t *prev, const int dec,
                                struct gx5_sums *a)
{
    vec x[G5_V], d[G5_V];

    G5_UNROLL
    for (unsigned j = 0; j < n; j++)
        d[j] = _mm512_maskz_loadu_epi8(j == n - 1 ? m : ~(__mmask64)0,
                                       in + 64 * j);
    g5_ctr(s, x, n);
    if (!dec && prev != NULL)
        g5_hash_batch(s, prev);
    G5_UNROLL
    for (unsigned r2 = 1; r2 < nr; r2++)
        g5_round(s, x, n, r2);
    G5_UNROLL
    for (unsigned j = 0; j < n; j++)
        x[j] = _mm512_aesenclast_epi128(x[j],
                                        _mm512_xor_si512(g5_key(s, nr), d[j]));
    G5_UNROLL
    for (unsigned j = 0; j < n; j++) {
        if (j == n - 1)
            _mm512_mask_storeu_epi8(out + 64 * j, m, x[j]);
        else
            g5_storeu(out + 64 * j, x[j]);
    }
    G5_UNROLL
    for (unsigned j = 0; j < n; j++) {
        /* encryption: masked-off bytes hold keystream, zeroed */
        vec p = _mm512_shuffle_epi8(
            dec ? d[j]
                : _mm512_maskz_mov_epi8(j == n - 1 ? m : ~(__mmask64)0, x[j]),
            g5_rev());
        if (j == 0)
            p = _mm512_xor_si512(p, _mm512_zextsi128_si512(s->acc));
        const __mmask64 km = j == n - 1 ? mk : ~(__mmask64)0;
        g5_mul(a, p, _mm512_maskz_loadu_epi8(km, kt + 64 * j),
               _mm512_maskz_loadu_epi8(km, kt + GX_VP512_HALVES + 64 * j),
               j == 0);
    }
}

/* The tail's kernel for its vector count (TAIL(n) for n = 1..G5_V). */
/* clang-format off */
#define G5_TAILS(nv, TAIL)                                                    \
    switch (nv) {                                                             \
    case 1: TAIL(1); break;                                                   \
    case 2: TAIL(2); break;                                                   \
    case 3: TAIL(3); break;                                                   \
    case 4: TAIL(4); break;                                                   \
    case 5: TAIL(5); break;                                                   \
    case 6: TAIL(6); break;                                                   \
    case 7: TAIL(7); break;                                                   \
    case 8: TAIL(8); break;                                                   \
    }
/* clang-format on */

#endif /* AESIR_VAES_AVX512_GCM_BATCH_H */
