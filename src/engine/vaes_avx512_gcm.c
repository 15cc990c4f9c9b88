/*
 * vaes_avx512_gcm.c -- the fused GCM kernels of vaes-avx512 (gcm_enc,
 * gcm_dec; internal.h, aesir_gcm_fn; and the whole-message path behind
 * gcm_short): CTR with GCM's inc32 counter and GHASH of the ciphertext in
 * one pass, the AES rounds of 32 blocks on zmm interleaved with the
 * carry-less products of 32 others, for the GHASH engine
 * ghash-vpclmul-avx512 (whose key layout they read).
 *
 * CPU: VAES && VPCLMULQDQ && AVX512F && AVX512BW && AVX512VL && AES-NI
 * && PCLMULQDQ, with the OS saving zmm state: what vaes-avx512 and
 * ghash-vpclmul-avx512 each need. The AES engine's accessor checks the
 * first part; gcm.c calls the kernels only with the GHASH engine named
 * in .gcm_ghash, whose accessor (and self-test) succeeded, which covers
 * the rest.
 *
 * Why fused. Separately, CTR runs on the AES unit and then GHASH on the
 * carry-less multiplier, each idle while the other works, and the data
 * passes through L1 twice. Here one loop keeps both busy: per iteration
 * 8 zmm of counters (32 blocks) go through the rounds while 8 zmm of
 * ciphertext are multiplied by H^32 .. H^1. (The design of E. Biggers'
 * AES-GCM for AVX10 in Linux, arch/x86/crypto/aes-gcm-avx10-x86_64.S,
 * written here from its description with intrinsics, with twice its
 * batch.)
 *
 *  - Decryption hashes the ciphertext it decrypts in the same iteration:
 *    it is input, loaded once and used twice.
 *  - Encryption hashes the previous iteration's ciphertext while it
 *    encrypts the next (gcc keeps it in registers), so the AES of the
 *    first batch runs alone and the hash of the last batch follows the
 *    loop, merged with the tail's (below).
 *
 * What sets the speed on Zen 4: every vector operation. A zmm vaesenc
 * and a zmm vpclmulqdq take the same two FP pipes (vpclmulqdq for two
 * cycles), and the loop's other vector operations (counters, byte
 * reversal, XORs, shuffles, even vbroadcasti32x4 from memory) were
 * measured to cost some 0.8 core cycles per 4 blocks each, not to hide
 * under the AES rounds. So the loop is written for the fewest operations
 * per 4 blocks (AES-128: 10 AES, 3 products, 1 counter XOR, 1 data XOR,
 * 1 byte reversal, 1.5 for the Karatsuba halves, 1.5 for the sums, and
 * some 2 for the batch's reduction), which took it from 18.6 to about
 * 15.7 core cycles per 4 blocks (docs/engines/vaes.md, "The bulk loop"):
 *
 *  - Hash-key layout (ghash_vpclmul_avx512.c): hk + 16 i = K_(32-i), i =
 *    0..31, K_j = H^j x^-1 as a 128-bit integer in the reflected domain
 *    (ghash_x86.h), highest power first, and at hk + GX_VP512_HALVES
 *    (x86_gcm.h) the Karatsuba half K_lo ^ K_hi of each, made once per
 *    key. A batch's vector v takes the powers at hk + 64 v:
 *
 *      hk +   0: [K32 K31 K30 K29]  <- blocks 0..3 of a batch
 *      ...
 *      hk + 448: [K4  K3  K2  K1 ]  <- blocks 28..31
 *
 *  - Products are Karatsuba's (3 vpclmulqdq per 4 blocks: low, high and
 *    (a_lo ^ a_hi)(b_lo ^ b_hi)); the data halves of two vectors are made
 *    together (g5_hpair), the products summed in pairs by vpternlogq,
 *    unreduced over the batch; the lanes are added, the middle corrected
 *    and the two folds of the reduction go through it (g5_finish): one
 *    reduction per 32 blocks ("aggregated reduction", Gueron and
 *    Kounavis, Intel white paper 323640). The accumulator is XORed into
 *    the batch's first block, whose product is computed last so that the
 *    others need not wait for the previous batch's reduction.
 *  - Counters: the counter block, byte-reversed once, is a little-endian
 *    128-bit integer per lane whose dword 0 is GCM's 32-bit counter
 *    (lanes +0..+3); the caller guarantees the low word does not wrap
 *    within a call (gcm.c, data_blocks), so vpaddd on that dword is inc32
 *    exactly. Generic batches (g5_ctr) byte-reverse each vector and XOR
 *    round key 0; the whole-message path, whose counters depend on the
 *    position only, makes each vector with one XOR (g5_ctr_tab).
 *  - Round keys: nr + 1 keys of 16 bytes at rk + 16 r (vaes-avx512's
 *    encryption schedule), broadcast as they are loaded; for messages of
 *    8 KiB or more the whole-message path broadcasts them once into a
 *    buffer of 64-byte keys and loads those (G5_WIDE_MIN).
 *
 * Whole messages (aesir_vaes_avx512_gcm_msg, at the end of this file):
 * the one-shot path with a 12-byte IV for every message past the short
 * kernel's reach (vaes_avx512_gcm_short.c), J0 to tag in one call.
 *
 * Tails. After the batches, r = 0..31 blocks go through ceil(r / 4)
 * vectors (a kernel for each count), the last loaded and stored with a
 * byte mask (vmovdqu8 with a k-mask: masked-off bytes are neither read
 * nor written and never fault). Their hash takes the last r powers;
 * encryption hashes the last batch (from out) and then the tail (from
 * registers, masked-off lanes zeroed). Every length of whole blocks is
 * done; the kernels always return len rounded down to 16.
 *
 * Constant time: yes, given that vaesenc and vpclmulqdq are (fixed
 * latency on every core that has them). No branch or address depends on
 * the key, H, the counter or the data; branches, masks and the counter
 * table's row depend on nr, the length and the position in the message
 * only.
 *
 * Batch: 8 zmm (32 blocks) per iteration, one reduction per 32 blocks.
 * 4 zmm per batch (one reduction per 16) was slower: the per-batch work
 * weighed twice as much (AES-128 seal 16 KiB 10.9 against 12.1 GB/s
 * then). Keys held in registers for the whole call spilled under gcc 12
 * (AES-256 seal 6.1 GB/s). The batch written out in inline assembly,
 * each hash vector after its round, was 3% slower than what gcc makes
 * of these intrinsics.
 *
 * Measured: docs/engines/vaes.md ("GCM on vaes-avx512"). Unfused
 * (vaes-avx512 CTR, then ghash-vpclmul-avx2), AES-128: 8.1 GB/s at
 * 16 KiB, 8.3 at 1 MiB.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA                                                             \
    "vaes,vpclmulqdq,aes,pclmul,ssse3,avx2,avx512f,avx512bw,avx512vl"
#include "engine.h"
#include <immintrin.h>
#include "ghash_x86.h"
#include "stack_wipe.h"

#include "x86_gcm.h"

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

/* The unreduced sums of a batch's products. */
struct g5_acc {
    vec lo, mid, hi;
};

/* The three products of d (4 byte-reversed blocks) and k (4 powers), lane
 * by lane, unsummed. Karatsuba: the middle one is (d_lo ^ d_hi)(k_lo ^
 * k_hi), whose sum g5_finish corrects by the sums of the other two; kh
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
ENGINE_INLINE void g5_add(struct g5_acc *a, const struct g5_prod *p, int first)
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
ENGINE_INLINE void g5_add2(struct g5_acc *a, const struct g5_prod *p,
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
ENGINE_INLINE void g5_mul(struct g5_acc *a, vec d, vec k, vec kh, int first)
{
    const struct g5_prod p = g5_prod(d, k, kh);
    g5_add(a, &p, first);
}

/* The lane sum of v. */
ENGINE_INLINE __m128i g5_hsum(vec v)
{
    __m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(t),
                         _mm256_extracti128_si256(t, 1));
}

/* The reduced sum: the next accumulator. The lanes are added first,
 * then Karatsuba's middle corrected by the low and high sums; the middle
 * is not folded into them (two shifts, two XORs): the reduction's two
 * folds go through it instead (E. Biggers' order, aes-gcm-avx10-x86_64.S):
 * the low sum's low qword times the reduction constant, with the low sum
 * swapped, into the middle, then the middle's low qword the same way, with
 * the middle swapped, into the high sum -- ghash_x86.h's gx_reduce with
 * the middle's halves added where they land. 17 operations, not 22. */
ENGINE_INLINE __m128i g5_finish(const struct g5_acc *a)
{
    const __m128i c = _mm_set1_epi64x((long long)0xc200000000000000u);
    const __m128i lo = g5_hsum(a->lo), hi = g5_hsum(a->hi);
    __m128i mid = _mm_ternarylogic_epi64(g5_hsum(a->mid), lo, hi, 0x96);
    mid = _mm_ternarylogic_epi64(mid, _mm_shuffle_epi32(lo, 0x4e),
                                 _mm_clmulepi64_si128(lo, c, 0x00), 0x96);
    return _mm_ternarylogic_epi64(hi, _mm_shuffle_epi32(mid, 0x4e),
                                  _mm_clmulepi64_si128(mid, c, 0x00), 0x96);
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

ENGINE_INLINE void g5_setup(struct g5_state *s, const uint8_t *rk,
                            const unsigned nr, const uint8_t *hk,
                            const uint8_t ctr[16], const uint8_t y[16])
{
    uint64_t hi, lo;
    __m128i c;

    (void)nr;
    s->rk = rk;
    s->wide = 0;
    s->hk = hk;
    /* the counter block as two 8-byte halves (internal.h, aesir_ctr_copy) */
    memcpy(&hi, ctr, 8);
    memcpy(&lo, ctr + 8, 8);
    c = _mm_shuffle_epi8(_mm_set_epi64x((long long)lo, (long long)hi),
                         gx_rev_mask());
    s->c =
        _mm512_add_epi32(g5_bcast(c), _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2,
                                                       0, 0, 0, 1, 0, 0, 0, 0));
    s->acc = gx_load(y, 1);
}

/* Writes back the counter advanced by n blocks (low word only: the
 * caller guarantees no wrap) and the accumulator. */
ENGINE_INLINE void g5_done(const struct g5_state *s, uint8_t ctr[16],
                           uint8_t y[16], size_t n)
{
    uint64_t lo;
    uint32_t w;
    memcpy(&lo, ctr + 8, 8);
    w = __builtin_bswap32((uint32_t)(lo >> 32)) + (uint32_t)n;
    lo = (lo & 0xffffffffu) | (uint64_t)__builtin_bswap32(w) << 32;
    memcpy(ctr + 8, &lo, 8);
    gx_store(y, s->acc, 1);
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
 * The same in one operation per vector, for the whole-message path (a
 * 12-byte IV: the counter of data block n is n + 2, so a batch's counters
 * depend on its position only). Batch k's first counter has low byte
 * b = 2 + 32 m, m = k mod 8; for m < 7 none of its 32 counters carries
 * out of that byte, so vector i's counter blocks differ from the first
 * vector's in byte 15 of each lane only, by the XOR of (b + L) and
 * (b + 4 i + L) (lane L): a constant of m and i (g5_dtab). So T, the
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

/* The g5_dtab row of batch k of a whole message, or -1 (g5_ctr). */
ENGINE_INLINE int g5_row(size_t k)
{
    return (k & 7) == 7 ? -1 : (int)(k & 7);
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
ENGINE_INLINE void g5_hpair(struct g5_acc *a, const struct g5_state *s,
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

#if G5_V % 2 != 0
#error "G5_V: the products are summed in pairs"
#endif

/*
 * One batch of G5_V vectors: counters through the rounds, the last
 * round XORed with in; hash (a constant) says whether the batch at h is
 * hashed in the same iteration (decryption: h == in; encryption: the
 * previous batch's ciphertext) with the powers K_(4 G5_V) .. K_1.
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
    struct g5_acc a;

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
        s->acc = g5_finish(&a);
    G5_UNROLL
    for (unsigned i = 0; i < G5_V; i++)
        g5_storeu(out + 64 * i, x[i]);
}

/* The hash of a whole batch alone (encryption: the last one; the
 * additional data). */
ENGINE_INLINE void g5_hash_batch(struct g5_state *s, const uint8_t *h)
{
    const uint8_t *kt = s->hk + 16 * (32 - G5_B);
    struct g5_acc a;
    G5_UNROLL
    for (unsigned j = 0; j < G5_V; j += 2)
        g5_hpair(&a, s, h, kt, j);
    s->acc = g5_finish(&a);
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
 * g5_tail_pass is that pass for this tail and for a whole message's last
 * bytes (g5_last): m masks the last data vector (whole blocks here, bytes
 * there), mk the last vector of powers from kt; the products are left
 * in a for the caller to finish.
 */
ENGINE_INLINE void g5_tail_pass(struct g5_state *s, const unsigned nr,
                                uint8_t *out, const uint8_t *in,
                                const unsigned n, const __mmask64 m,
                                const __mmask64 mk, const uint8_t *kt,
                                const uint8_t *prev, const int dec,
                                struct g5_acc *a)
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

ENGINE_INLINE void g5_tail(struct g5_state *s, const unsigned nr, uint8_t *out,
                           const uint8_t *in, size_t r, const unsigned n,
                           const uint8_t *prev, const int dec)
{
    const __mmask64 m = g5_mask(r - 4 * (n - 1));
    struct g5_acc a;

    g5_tail_pass(s, nr, out, in, n, m, m, s->hk + 16 * (32 - r), prev, dec, &a);
    s->acc = g5_finish(&a);
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

/* The whole call for a constant nr. */
ENGINE_INLINE size_t g5_gcm(const uint8_t *rk, const unsigned nr,
                            const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],
                            uint8_t *out, const uint8_t *in, size_t len,
                            const int dec)
{
    struct g5_state s;
    size_t nblocks = len / 16, left = nblocks;
    const uint8_t *prev = NULL;

    g5_setup(&s, rk, nr, hk, ctr, y);
    if (dec) {
        for (; left >= G5_B; left -= G5_B) {
            g5_batch(&s, nr, out, in, in, 1, -1);
            in += 16 * G5_B, out += 16 * G5_B;
        }
    } else if (left >= G5_B) {
        g5_batch(&s, nr, out, in, NULL, 0, -1);
        prev = out;
        in += 16 * G5_B, out += 16 * G5_B, left -= G5_B;
        for (; left >= G5_B; left -= G5_B) {
            g5_batch(&s, nr, out, in, prev, 1, -1);
            prev = out;
            in += 16 * G5_B, out += 16 * G5_B;
        }
    }
    if (left == 0) {
        if (prev != NULL)
            g5_hash_batch(&s, prev);
    } else {
#define TAIL(n)                                                                \
    g5_tail(&s, nr, out, in, left, (n) <= G5_V ? (n) : G5_V, prev, dec)
        G5_TAILS((left + 3) / 4, TAIL)
#undef TAIL
    }
    g5_done(&s, ctr, y, nblocks);
    return 16 * nblocks;
}

/* One function per direction and key size: nr a constant, the rounds
 * unrolled, every key a register. */
#define G5_FN(name, nr, dec)                                                   \
    __attribute__((noinline)) ENGINE_FN size_t name(                           \
        const uint8_t *rk, const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],  \
        uint8_t *out, const uint8_t *in, size_t len)                           \
    {                                                                          \
        return g5_gcm(rk, nr, hk, ctr, y, out, in, len, dec);                  \
    }
G5_FN(g5_enc10, 10, 0)
G5_FN(g5_enc12, 12, 0)
G5_FN(g5_enc14, 14, 0)
G5_FN(g5_dec10, 10, 1)
G5_FN(g5_dec12, 12, 1)
G5_FN(g5_dec14, 14, 1)

/*
 * The entry points. gcc 12 keeps a few values of the kernels on the
 * stack (the byte-reversal constant, the GHASH accumulator between the
 * loop and the tail, a tail's data vectors); clang 14 none. They are
 * wiped after the kernel (aesir_wipe_stack, internal.h): the kernels'
 * frames reach some 400 bytes below the entry point's (64-byte
 * alignment, 136 bytes of frame, the 128-byte red zone, saved
 * registers).
 */
#define G5_STACK 512

STACK_WIPED_GCM(aesir_vaes_avx512_gcm_enc, g5_enc10, g5_enc12, g5_enc14,
                G5_STACK)

STACK_WIPED_GCM(aesir_vaes_avx512_gcm_dec, g5_dec10, g5_dec12, g5_dec14,
                G5_STACK)

/* ---- whole messages (12-byte IV) ------------------------------------- */

/*
 * The one-shot path for messages past the short kernel's reach
 * (vaes_avx512_gcm_short.c hands them here): J0, E_K(J0), the additional
 * data, the data and the length block in one call, with no state in
 * memory between the steps. gcm.c's general path costs some 220 TSC
 * cycles per message on top of the kernels (calls, the message state, each
 * piece hashed and reduced alone); this one adds a few dozen.
 *
 * With a 12-byte IV the counter starts at J0 = IV || 1, the data at
 * J0 + 1, and at most 2^32 - 2 blocks follow (SP 800-38D's limit, checked
 * by gcm.c), so the low word never wraps; vpaddd on it is inc32 anyway.
 *
 * The last part of the data (r = 1 .. 511 bytes, ceil(r / 64) vectors, the
 * last one loaded and stored with a byte mask) and the length block are
 * hashed as one sum with a single reduction: block i of the rb = ceil(r /
 * 16) blocks takes K_(rb + 1 - i), the length block K_1. Only rb = 32 (r =
 * 497 .. 511) has no room for the length block among the 32 powers: it
 * then follows with a product and a reduction of its own.
 */

/* The byte mask of the first n (0..64) bytes of a vector. */
ENGINE_INLINE __mmask64 g5_bytes(size_t n)
{
    return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
}

/* x times K_1 (the last key-area entry) added into a (Karatsuba, as
 * g5_mul). */
ENGINE_INLINE void g5_mul_k1(struct g5_acc *a, __m128i x, const uint8_t *hk)
{
    const __m128i k =
        _mm_loadu_si128((const __m128i *)(const void *)(hk + 496));
    const __m128i xm = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
    const __m128i km = _mm_xor_si128(k, _mm_shuffle_epi32(k, 0x4e));
    a->lo = _mm512_xor_si512(
        a->lo, _mm512_zextsi128_si512(_mm_clmulepi64_si128(x, k, 0x00)));
    a->hi = _mm512_xor_si512(
        a->hi, _mm512_zextsi128_si512(_mm_clmulepi64_si128(x, k, 0x11)));
    a->mid = _mm512_xor_si512(
        a->mid, _mm512_zextsi128_si512(_mm_clmulepi64_si128(xm, km, 0x00)));
}

/* acc = (acc ^ x) K_1, reduced: a lone block (the length block). */
ENGINE_INLINE void g5_hash_one(struct g5_state *s, __m128i x)
{
    s->acc =
        gx_mul(_mm_xor_si128(s->acc, x),
               _mm_loadu_si128((const __m128i *)(const void *)(s->hk + 496)));
}

/*
 * Hashes r = 1 .. 511 bytes at p (zero-padded to rb blocks); with len_blk
 * (fin) the length block after them, in the same sum when rb < 32. A loop
 * over the vectors, not unrolled: used for the additional data only.
 */
ENGINE_INLINE void g5_hash_part(struct g5_state *s, const uint8_t *p, size_t r,
                                const int fin, __m128i len_blk)
{
    const size_t rb = (r + 15) / 16;
    const int fold = fin && rb < 32;
    const uint8_t *kt = s->hk + 16 * (32 - rb - (size_t)fold);
    struct g5_acc a;

    a.lo = a.mid = a.hi = _mm512_setzero_si512();
    for (size_t j = 0; 64 * j < r; j++) {
        vec d = _mm512_shuffle_epi8(
            _mm512_maskz_loadu_epi8(g5_bytes(r - 64 * j), p + 64 * j),
            g5_rev());
        if (j == 0)
            d = _mm512_xor_si512(d, _mm512_zextsi128_si512(s->acc));
        const __mmask64 km = g5_mask(rb - 4 * j);
        g5_mul(&a, d, _mm512_maskz_loadu_epi8(km, kt + 64 * j),
               _mm512_maskz_loadu_epi8(km, kt + GX_VP512_HALVES + 64 * j), 0);
    }
    if (fold)
        g5_mul_k1(&a, len_blk, s->hk);
    s->acc = g5_finish(&a);
    if (fin && !fold)
        g5_hash_one(s, len_blk);
}

/* Additional data of any length; with fin the length block too (GMAC:
 * no data follows). */
ENGINE_INLINE void g5_hash_aad(struct g5_state *s, const uint8_t *p, size_t len,
                               const int fin, __m128i len_blk)
{
    /* (The powers and their Karatsuba halves held in 16 zmm across this
     * loop gained about 1% for GMAC at 16 KiB, and gcc 12 then gave the
     * function an 840-byte frame, deeper than the stack wipe.) */
    for (; len >= 16 * G5_B; len -= 16 * G5_B, p += 16 * G5_B)
        g5_hash_batch(s, p);
    if (len != 0)
        g5_hash_part(s, p, len, fin, len_blk);
    else if (fin)
        g5_hash_one(s, len_blk);
}

/*
 * The data's last r = 1 .. 511 bytes in n = ceil(r / 64) vectors (n a
 * constant) and the length block. Encryption first hashes the previous
 * batch (prev, when there is one), independent of the tail's AES.
 */
ENGINE_INLINE void g5_last(struct g5_state *s, const unsigned nr, uint8_t *out,
                           const uint8_t *in, size_t r, const unsigned n,
                           const uint8_t *prev, const int dec, __m128i len_blk)
{
    const size_t rb = (r + 15) / 16;
    const int fold = rb < 32;
    struct g5_acc a;

    g5_tail_pass(s, nr, out, in, n, g5_bytes(r - 64 * (n - 1)),
                 g5_mask(rb - 4 * (n - 1)),
                 s->hk + 16 * (32 - rb - (size_t)fold), prev, dec, &a);
    if (fold)
        g5_mul_k1(&a, len_blk, s->hk);
    s->acc = g5_finish(&a);
    if (!fold)
        g5_hash_one(s, len_blk);
}

/* E_K(J0) for the J0 in j0 (GCM byte order). */
ENGINE_INLINE __m128i g5_ekj0(const uint8_t *rk, const unsigned nr, __m128i j0)
{
    __m128i e =
        _mm_xor_si128(j0, _mm_load_si128((const __m128i *)(const void *)rk));
    G5_UNROLL
    for (unsigned r = 1; r < nr; r++)
        e = _mm_aesenc_si128(
            e, _mm_load_si128((const __m128i *)(const void *)(rk + 16 * r)));
    return _mm_aesenclast_si128(
        e, _mm_load_si128((const __m128i *)(const void *)(rk + 16 * nr)));
}

/* The data (len > 0 bytes) and the length block; wide (a constant): the
 * round keys broadcast into kw first (and wiped after), for long
 * messages (G5_WIDE_MIN). */
ENGINE_INLINE void g5_data(struct g5_state *s, const uint8_t *rk,
                           const unsigned nr, uint8_t *out, const uint8_t *in,
                           size_t len, __m128i len_blk, uint8_t *kw,
                           const int dec, const int wide)
{
    const uint8_t *prev = NULL;
    size_t k = 0; /* the batch's number */

    if (wide) {
        G5_UNROLL
        for (unsigned r = 0; r <= nr; r++)
            _mm512_store_si512(
                (void *)(kw + 64 * r),
                g5_bcast(_mm_load_si128(
                    (const __m128i *)(const void *)(rk + 16 * r))));
        s->rk = kw;
    }
    s->wide = wide;
    if (dec) {
        for (; len >= 16 * G5_B; len -= 16 * G5_B, k++) {
            g5_batch(s, nr, out, in, in, 1, g5_row(k));
            in += 16 * G5_B, out += 16 * G5_B;
        }
    } else if (len >= 16 * G5_B) {
        g5_batch(s, nr, out, in, NULL, 0, g5_row(0));
        prev = out;
        in += 16 * G5_B, out += 16 * G5_B, len -= 16 * G5_B;
        for (k = 1; len >= 16 * G5_B; len -= 16 * G5_B, k++) {
            g5_batch(s, nr, out, in, prev, 1, g5_row(k));
            prev = out;
            in += 16 * G5_B, out += 16 * G5_B;
        }
    }
    if (len == 0) {
        if (prev != NULL)
            g5_hash_batch(s, prev);
        g5_hash_one(s, len_blk);
    } else {
#define LAST(n)                                                                \
    g5_last(s, nr, out, in, len, (n) <= G5_V ? (n) : G5_V, prev, dec, len_blk)
        G5_TAILS((len + 63) / 64, LAST)
#undef LAST
    }
    if (wide) {
        G5_UNROLL
        for (unsigned r = 0; r <= nr; r++)
            _mm512_store_si512((void *)(kw + 64 * r), _mm512_setzero_si512());
    }
}

/* Messages from this length on take the broadcast round keys: below it
 * broadcasting them and wiping the copy cost more than the loads saved
 * (AES-256 seal 2 KiB: 540 -> 580 TSC cycles; 16 KiB: AES-128 2940 ->
 * 2860, 1 MiB 186k -> 179k). */
#define G5_WIDE_MIN 8192

/* The whole message for a constant nr. */
ENGINE_INLINE void g5_msg(const uint8_t *rk, const unsigned nr,
                          const uint8_t *hk, const uint8_t iv[12],
                          const uint8_t *aad, size_t aad_len, uint8_t *out,
                          const uint8_t *in, size_t len, uint8_t tag[16],
                          uint8_t *kw, const int dec)
{
    struct g5_state s;
    const __m128i len_blk = _mm_set_epi64x((long long)((uint64_t)aad_len * 8),
                                           (long long)((uint64_t)len * 8));
    uint64_t w0;
    uint32_t w1;
    __m128i j0, ekj0;

    /* J0 = IV || 0^31 || 1 from an 8-byte and a 4-byte load (no stack
     * buffer: a vector load over smaller stores stalls) */
    memcpy(&w0, iv, 8);
    memcpy(&w1, iv + 8, 4);
    j0 = _mm_set_epi32(0x01000000, (int)w1, (int)(uint32_t)(w0 >> 32),
                       (int)(uint32_t)w0);
    ekj0 = g5_ekj0(rk, nr, j0);
    s.rk = rk;
    s.wide = 0;
    s.hk = hk;
    /* the data's counters J0 + 1 .. J0 + 4, little-endian per lane */
    s.c = _mm512_add_epi32(
        g5_bcast(_mm_shuffle_epi8(j0, gx_rev_mask())),
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1));
    s.acc = _mm_setzero_si128();
    if (aad_len != 0)
        g5_hash_aad(&s, aad, aad_len, len == 0, len_blk);
    else if (len == 0)
        g5_hash_one(&s, len_blk);
    if (len >= G5_WIDE_MIN)
        g5_data(&s, rk, nr, out, in, len, len_blk, kw, dec, 1);
    else if (len != 0)
        g5_data(&s, rk, nr, out, in, len, len_blk, kw, dec, 0);
    _mm_storeu_si128(
        (__m128i *)(void *)tag,
        _mm_xor_si128(_mm_shuffle_epi8(s.acc, gx_rev_mask()), ekj0));
}

#define G5M_FN(name, nr, dec)                                                  \
    __attribute__((noinline)) ENGINE_FN void name(                             \
        const uint8_t *rk, const uint8_t *hk, const uint8_t iv[12],            \
        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,   \
        size_t len, uint8_t tag[16], uint8_t *kw)                              \
    {                                                                          \
        g5_msg(rk, nr, hk, iv, aad, aad_len, out, in, len, tag, kw, dec);      \
    }
G5M_FN(g5_msg_enc10, 10, 0)
G5M_FN(g5_msg_enc12, 12, 0)
G5M_FN(g5_msg_enc14, 14, 0)
G5M_FN(g5_msg_dec10, 10, 1)
G5M_FN(g5_msg_dec12, 12, 1)
G5M_FN(g5_msg_dec14, 14, 1)

/* The whole-message kernels' frames (-fstack-usage): gcc 12 136..200
 * bytes, clang 14 152..216 (saved registers, a few spill slots). They
 * were 950 and 1288 before the bulk batch needed fewer registers (nine
 * zmm spilled, round keys and E_K(J0) among them) and the wipe 1600
 * bytes. The wipe covers the larger plus 256, rounded to 64 (stack_wipe.h's
 * rule; test_residue checks it for both compilers); each 512 bytes cost
 * some 10 TSC cycles per message. The broadcast round keys (kw, in this
 * function's own frame, above the kernels') are wiped by the kernels. */
#define G5M_STACK 512

int aesir_vaes_avx512_gcm_msg(const void *rk, unsigned nr, const void *hk,
                              const uint8_t iv[12], const uint8_t *aad,
                              size_t aad_len, uint8_t *out, const uint8_t *in,
                              size_t len, uint8_t tag[16], int decrypt)
{
    const uint8_t *k = ENGINE_RK(rk), *h = (const uint8_t *)hk;
    /* the round keys broadcast (g5_key), here so that the kernels' frames
     * stay where the stack wipe's bound says; the kernels wipe it */
    _Alignas(64) uint8_t kw[64 * 15];
    if (decrypt) {
        if (nr == 10)
            g5_msg_dec10(k, h, iv, aad, aad_len, out, in, len, tag, kw);
        else if (nr == 12)
            g5_msg_dec12(k, h, iv, aad, aad_len, out, in, len, tag, kw);
        else
            g5_msg_dec14(k, h, iv, aad, aad_len, out, in, len, tag, kw);
    } else {
        if (nr == 10)
            g5_msg_enc10(k, h, iv, aad, aad_len, out, in, len, tag, kw);
        else if (nr == 12)
            g5_msg_enc12(k, h, iv, aad, aad_len, out, in, len, tag, kw);
        else
            g5_msg_enc14(k, h, iv, aad, aad_len, out, in, len, tag, kw);
    }
    __asm__ volatile("" : : "r"(kw) : "memory");
    aesir_wipe_stack(G5M_STACK);
    return 0;
}

#endif /* x86 */
