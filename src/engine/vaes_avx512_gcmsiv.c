/*
 * vaes_avx512_gcmsiv.c -- vaes-avx512's GCM-SIV kernels (x86_gcmsiv.h):
 *
 * CTR (RFC 8452 section 4, step 10): 12 zmm vectors of 4 counter blocks
 * per iteration (V5_CTR_WIDE, below), with the input
 * folded into the last round key (aesenclast(x, k ^ p) = E(x) ^ p).
 *
 * Fused decryption (section 5: CTR from the tag, then POLYVAL of the
 * plaintext) for ghash-vpclmul-avx512's POLYVAL key layout: one loop that
 * runs the AES rounds of batch b (32 blocks) while it hashes the
 * plaintext of batch b - 1, reloaded from out (still in L1), so the AES
 * and carry-less-multiply instructions of the two batches, which share no
 * register, overlap in the out-of-order core instead of running as two
 * passes. The last batch is hashed after the loop; the kernel does whole
 * batches only and returns the bytes it did (gcm_siv.c does the rest).
 *
 * What sets its speed on Zen 4 is the number of vector operations: a zmm
 * vaesenc and a zmm vpclmulqdq share two pipes (the product for two
 * cycles), and shuffles, XORs and broadcasts were measured to cost some
 * 0.8 core cycles per 4 blocks each rather than hide under the rounds
 * (docs/engines/vaes.md, "The bulk loop"). So the loop is built as GCM's
 * (vaes_avx512_gcm.c) for the fewest operations per 4 blocks:
 *
 *  - Karatsuba products, 3 vpclmulqdq per 4 blocks instead of 4: the
 *    key's half (K_lo ^ K_hi) of each of the 32 powers is made once per
 *    message into a work area (the POLYVAL key changes with every nonce,
 *    so it cannot live in the key as GCM's does), the data's halves of
 *    two vectors in one unpack-and-XOR; products summed in pairs by
 *    three-way XORs, unreduced over the batch;
 *  - one reduction per 32 blocks, its two folds taken through
 *    Karatsuba's middle sum (gx5_finish, src/ghash/ghash_x86_zmm.h:
 *    the very reduction of GCM's batch -- POLYVAL's Montgomery
 *    reduction and GHASH's in the reflected order are the same
 *    instructions);
 *  - for 16 batches or more the round keys broadcast once into the work
 *    area, so that each round's key is a plain load, not a
 *    vbroadcasti32x4 (which takes a vector pipe on Zen 4);
 *  - no byte reversal at all: POLYVAL's blocks are GHASH's reflected
 *    form as they are loaded, and the counter is dword 0 (below).
 *
 * Hash-key layout (ghash_vpclmul_avx512.c): hk + 16 i = K_(32-i), the
 * POLYVAL dot-powers of H, highest first; a batch's vector v (blocks
 * 4 v .. 4 v + 3) takes the four at hk + 64 v.
 *
 * Counters: the initial counter block broadcast to the four lanes, lane
 * j plus j in dword 0; each next vector is the previous plus 4 in dword 0
 * of every lane (vpaddd: modulo 2^32, no carry into the other dwords).
 *
 * Tails: the last 1..47 blocks (done first, see v5_ctr32le) in at most
 * one pass of 8 vectors and one of 1, 4 or 8 vectors, loaded
 * and stored with byte masks (vmovdqu8 with a k-mask: masked-off bytes are
 * neither read nor written, and never fault); vectors past the end run
 * the rounds on counters whose output is never stored.
 *
 * Constant time: yes, given that vaesenc and vpclmulqdq are (fixed
 * latency on the cores that have them). Branches and masks depend on the
 * block count only; the counter (the tag, public) reaches only vpaddd.
 * The work area (key halves, broadcast round keys) is zeroed and the
 * kernel's stack wiped before the entry point returns.
 */
#define ENGINE_ISA                                                             \
    "vaes,vpclmulqdq,aes,pclmul,ssse3,avx2,avx512f,avx512bw,avx512vl"
#include "engine.h"
#include "x86_gcmsiv.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include "ghash_x86_zmm.h"
#include "aesni_keys.h"

/* Loops over rounds, vectors and pairs unrolled in full: an array indexed
 * by a loop variable (the round keys above all) would otherwise live on
 * the stack, slower and leaving key material there. */
#if defined(__clang__)
#define S5_UNROLL _Pragma("clang loop unroll(full)")
#else
#define S5_UNROLL _Pragma("GCC unroll 16")
#endif

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

/* Vectors per iteration of the bulk loop. Each round of an iteration is
 * one vaesenc per vector on the same key, and a vector's rounds are a
 * chain of 4-cycle latencies: with 8 vectors at 2 vaesenc a cycle the
 * chains only just cover the latency and every iteration's start and
 * end left the pipes idle. Measured on Zen 5 (16 KiB, TSC cycles, a
 * copy of this loop in a timing program; the floor is nr vaesenc per
 * vector at 2 a cycle): 8 vectors 90-91% of the floor, 16 vectors 94-96%,
 * 12 vectors 97%. */
#define V5_CTR_WIDE 12

/* n vectors (a constant after inlining) from the counters *c; a tail
 * (rem blocks, fewer than 4 n) with masks. */
ENGINE_INLINE void v5_ctr_n(const uint8_t *rk, unsigned nr, __m512i *c,
                            uint8_t *out, const uint8_t *in, unsigned n,
                            int tail, size_t rem)
{
    const __m512i four =
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
    __m512i x[V5_CTR_WIDE], k = v5_key(rk, 0);

    S5_UNROLL
    for (unsigned i = 0; i < n; i++) {
        x[i] = _mm512_xor_si512(*c, k);
        *c = _mm512_add_epi32(*c, four);
    }
    S5_UNROLL
    for (unsigned r = 1; r < nr; r++) {
        k = v5_key(rk, r);
        S5_UNROLL
        for (unsigned i = 0; i < n; i++) {
            __m512i t = _mm512_aesenc_epi128(x[i], k);
            __asm__("" : "+v"(t)); /* in its register: no copy per round */
            x[i] = t;
        }
    }
    k = v5_key(rk, nr);
    S5_UNROLL
    for (unsigned i = 0; i < n; i++) {
        __m512i p = tail ? _mm512_maskz_loadu_epi8(v5_mask(rem, i), in + 64 * i)
                         : _mm512_loadu_si512(in + 64 * i);
        x[i] = _mm512_aesenclast_epi128(x[i], _mm512_xor_si512(k, p));
    }
    S5_UNROLL
    for (unsigned i = 0; i < n; i++) {
        if (tail)
            _mm512_mask_storeu_epi8(out + 64 * i, v5_mask(rem, i), x[i]);
        else
            _mm512_storeu_si512(out + 64 * i, x[i]);
    }
}

/*
 * The bulk iterations with every round key in a register for the whole
 * loop (NR a constant, the rounds unrolled; 15 keys and 12 vectors fit
 * in the 32 zmm registers) and the input prefetched 2 KiB ahead, as
 * vaes_core.h's bulk_kreg does for CTR and ECB: v5_ctr_n broadcasts a
 * round key per round. n whole iterations of V5_CTR_WIDE vectors.
 */
ENGINE_INLINE __m512i v5_ctr_kreg(const uint8_t *rk, const unsigned NR,
                                  __m512i c, uint8_t *out, const uint8_t *in,
                                  size_t n)
{
    const __m512i four =
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
    __m512i k[15];

    S5_UNROLL
    for (unsigned r = 0; r <= NR; r++)
        k[r] = v5_key(rk, r);
    for (; n > 0; n--, in += 64 * V5_CTR_WIDE, out += 64 * V5_CTR_WIDE) {
        __m512i x[V5_CTR_WIDE];
        S5_UNROLL
        for (unsigned i = 0; i < V5_CTR_WIDE; i++) {
            x[i] = _mm512_xor_si512(c, k[0]);
            c = _mm512_add_epi32(c, four);
        }
        S5_UNROLL
        for (unsigned i = 0; i < V5_CTR_WIDE; i++) /* one line a vector */
            _mm_prefetch((const char *)in + 2048 + 64 * i, _MM_HINT_T0);
        S5_UNROLL
        for (unsigned r = 1; r < NR; r++)
            S5_UNROLL
        for (unsigned i = 0; i < V5_CTR_WIDE; i++) {
            __m512i t = _mm512_aesenc_epi128(x[i], k[r]);
            __asm__("" : "+v"(t));
            x[i] = t;
        }
        S5_UNROLL
        for (unsigned i = 0; i < V5_CTR_WIDE; i++)
            x[i] = _mm512_aesenclast_epi128(
                x[i], _mm512_xor_si512(k[NR], _mm512_loadu_si512(in + 64 * i)));
        S5_UNROLL
        for (unsigned i = 0; i < V5_CTR_WIDE; i++)
            _mm512_storeu_si512(out + 64 * i, x[i]);
    }
    return c;
}

ENGINE_INLINE void v5_ctr32le(const uint8_t *rk, const unsigned nr,
                              uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                              size_t nblocks)
{
    __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)ctr);
    __m512i c = _mm512_add_epi32(
        _mm512_broadcast_i32x4(c0),
        _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));
    const size_t nmain = nblocks - nblocks % (4 * V5_CTR_WIDE);
    size_t n = nblocks - nmain;

    /* The last n < 48 blocks first, from counter nmain: they do not
     * depend on the bulk, so the core runs them beside its first
     * iteration instead of as a short pass of a few chains at the end
     * (16 KiB: 21 iterations and 4 vectors) */
    if (n > 0) {
        __m512i ct = _mm512_add_epi32(
            c, _mm512_maskz_set1_epi32(0x1111, (int)(uint32_t)nmain));
        const uint8_t *ti = in + 16 * nmain;
        uint8_t *to = out + 16 * nmain;
        if (n >= 32) {
            v5_ctr_n(rk, nr, &ct, to, ti, 8, 0, 0);
            n -= 32, ti += 512, to += 512;
        }
        if (n > 16)
            v5_ctr_n(rk, nr, &ct, to, ti, 8, 1, n);
        else if (n > 4)
            v5_ctr_n(rk, nr, &ct, to, ti, 4, 1, n);
        else if (n > 0)
            v5_ctr_n(rk, nr, &ct, to, ti, 1, 1, n);
    }
    if (nmain > 0)
        c = v5_ctr_kreg(rk, nr, c, out, in, nmain / (4 * V5_CTR_WIDE));
    c0 = _mm_add_epi32(c0, _mm_cvtsi32_si128((int)(uint32_t)nblocks));
    _mm_storeu_si128((__m128i *)(void *)ctr, c0);
}

/* One function per key size: nr a constant, every loop unrolled, so that
 * the tail's vectors stay in registers (with nr a variable, gcc kept them
 * in an 896-byte frame: whitened counters, keystream, plaintext on the
 * stack, which test_residue found once the stack layout moved). */
#define V5_CTR_FN(name, nr)                                                    \
    __attribute__((noinline)) ENGINE_FN void name(                             \
        const uint8_t *rk, uint8_t ctr[16], uint8_t *out, const uint8_t *in,   \
        size_t nblocks)                                                        \
    {                                                                          \
        v5_ctr32le(rk, nr, ctr, out, in, nblocks);                             \
    }
V5_CTR_FN(v5_ctr32le10, 10)
V5_CTR_FN(v5_ctr32le12, 12)
V5_CTR_FN(v5_ctr32le14, 14)
#undef V5_CTR_FN

/* ---- fused decryption ------------------------------------------------ */

typedef __m512i vec;

/* Batches from which the round keys are broadcast once per call into the
 * work area (s5_state.wide): below it the copy and its wipe cost more
 * than the broadcasts they save (GCM's whole-message kernel draws the
 * line at 8 KiB too). */
#define S5_WIDE_MIN 16

/* The work area the entry point gives the kernel: the 15 round keys
 * broadcast (64 bytes each), the 32 powers of the message's POLYVAL key
 * (K_32 .. K_1, as in the GHASH engine's table) and their Karatsuba
 * halves. Zeroed by the kernel before it returns. */
#define S5_KW_KEYS 0
#define S5_KW_POWERS (64 * 15)
#define S5_KW_HALVES (S5_KW_POWERS + 512)
#define S5_KW_BYTES (S5_KW_HALVES + 512)

struct s5_state {
    /* round keys: 16 bytes each, broadcast as they are loaded, or (wide)
     * already broadcast, 64 bytes each */
    const uint8_t *rk;
    const uint8_t *hk; /* K_32 .. K_1, hk + 16 i = K_(32-i) (work area) */
    const uint8_t *hh; /* their halves: hh + 64 v for hk + 64 v */
    int wide;
    vec c;       /* the next counters: lanes +0..+3 in dword 0 */
    __m128i acc; /* the POLYVAL state */
};

/* A pointer the compiler cannot see through: laundered once per batch, it
 * keeps the key loads inside the loop (hoisted, 15 keys and 8 halves
 * would not fit in the registers and were spilled: slower, and key
 * material in dead frames). */
ENGINE_INLINE const uint8_t *s5_opaque(const uint8_t *p)
{
    __asm__("" : "+r"(p));
    return p;
}

ENGINE_INLINE vec s5_key(const struct s5_state *s, unsigned r)
{
    if (s->wide)
        return _mm512_load_si512((const void *)(s->rk + 64 * (size_t)r));
    return v5_key(s->rk, r);
}

/*
 * The products of data vectors v and w of the batch at p (the
 * accumulator added into vector 0) with the powers at hk + 64 v and
 * hk + 64 w, added into a (first: a starts here). Karatsuba, three
 * products per vector: low halves, high halves, and (d_lo ^ d_hi) times
 * (k_lo ^ k_hi), the key's half taken from the table (s->hh) and the
 * data's halves of both vectors made in one: unpacklo ^ unpackhi puts
 * v's in qword 0 and w's in qword 1 of each lane, which the immediates
 * 0x00 and 0x01 select. The sums take one three-way XOR per pair.
 */
ENGINE_INLINE void s5_pair(struct gx5_sums *a, const struct s5_state *s,
                           const uint8_t *p, unsigned v, unsigned w,
                           const int first)
{
    vec dv = _mm512_loadu_si512(p + 64 * v),
        dw = _mm512_loadu_si512(p + 64 * w);
    const vec kv = _mm512_load_si512((const void *)(s->hk + 64 * v));
    const vec kw = _mm512_load_si512((const void *)(s->hk + 64 * w));
    const vec hv = _mm512_load_si512((const void *)(s->hh + 64 * v));
    const vec hw = _mm512_load_si512((const void *)(s->hh + 64 * w));
    vec m, lo0, lo1, hi0, hi1, mi0, mi1;

    if (v == 0)
        dv = _mm512_xor_si512(dv, _mm512_zextsi128_si512(s->acc));
    if (w == 0)
        dw = _mm512_xor_si512(dw, _mm512_zextsi128_si512(s->acc));
    m = _mm512_xor_si512(_mm512_unpacklo_epi64(dv, dw),
                         _mm512_unpackhi_epi64(dv, dw));
    lo0 = _mm512_clmulepi64_epi128(dv, kv, 0x00);
    hi0 = _mm512_clmulepi64_epi128(dv, kv, 0x11);
    mi0 = _mm512_clmulepi64_epi128(m, hv, 0x00);
    lo1 = _mm512_clmulepi64_epi128(dw, kw, 0x00);
    hi1 = _mm512_clmulepi64_epi128(dw, kw, 0x11);
    mi1 = _mm512_clmulepi64_epi128(m, hw, 0x01);
    if (first) {
        a->lo = _mm512_xor_si512(lo0, lo1);
        a->hi = _mm512_xor_si512(hi0, hi1);
        a->mid = _mm512_xor_si512(mi0, mi1);
    } else {
        a->lo = _mm512_ternarylogic_epi64(a->lo, lo0, lo1, 0x96);
        a->hi = _mm512_ternarylogic_epi64(a->hi, hi0, hi1, 0x96);
        a->mid = _mm512_ternarylogic_epi64(a->mid, mi0, mi1, 0x96);
    }
}

/* Pair j (0..3) of a batch: vectors 1-2, 3-4, 5-6, then 7 and 0, so that
 * vector 0, which waits for the previous batch's reduction, comes last. */
ENGINE_INLINE void s5_hash_pair(struct gx5_sums *a, const struct s5_state *s,
                                const uint8_t *p, unsigned j)
{
    s5_pair(a, s, p, 2 * j + 1, (2 * j + 2) % 8, j == 0);
}

/* Lane-wise a b, reduced (four independent POLYVAL products, schoolbook:
 * the middle the sum of the two cross products; gx5_fold4). */
ENGINE_INLINE vec s5_mul(vec a, vec b)
{
    const vec lo = _mm512_clmulepi64_epi128(a, b, 0x00);
    const vec hi = _mm512_clmulepi64_epi128(a, b, 0x11);
    const vec mid = _mm512_xor_si512(_mm512_clmulepi64_epi128(a, b, 0x01),
                                     _mm512_clmulepi64_epi128(a, b, 0x10));
    return gx5_fold4(lo, mid, hi);
}

/* Lane 0 of v in all four lanes. */
ENGINE_INLINE vec s5_lane0(vec v)
{
    return _mm512_broadcast_i32x4(_mm512_castsi512_si128(v));
}

/*
 * The 32 powers and their halves into the work area, from K_4 .. K_1
 * (the last 64 bytes of hk, which every POLYVAL set-up of the GHASH
 * engine writes: gcm_siv.c asks it for no more than its own calls need).
 * Group g[j] holds K_(4j+4) .. K_(4j+1): g[1] = g[0] K_4, then g[2], g[3]
 * = g[0], g[1] times K_8, then g[4..7] = g[0..3] times K_16: three
 * dependent products, which the rounds of the first batch (no hash) run
 * beside, where the same work done before the kernel was some 100 TSC
 * cycles on the message's critical path.
 */
ENGINE_INLINE void s5_powers(uint8_t *kw, const uint8_t *hk)
{
    vec g[8], m;
    g[0] = _mm512_loadu_si512(hk + 448);
    g[1] = s5_mul(g[0], s5_lane0(g[0]));
    m = s5_lane0(g[1]); /* K_8 */
    g[2] = s5_mul(g[0], m);
    g[3] = s5_mul(g[1], m);
    m = s5_lane0(g[3]); /* K_16 */
    S5_UNROLL
    for (unsigned j = 0; j < 4; j++)
        g[4 + j] = s5_mul(g[j], m);
    S5_UNROLL
    for (unsigned j = 0; j < 8; j++) {
        _mm512_store_si512((void *)(kw + S5_KW_POWERS + 64 * (7 - j)), g[j]);
        _mm512_store_si512(
            (void *)(kw + S5_KW_HALVES + 64 * (7 - j)),
            _mm512_xor_si512(g[j], _mm512_shuffle_epi32(g[j], _MM_PERM_BADC)));
    }
}

/*
 * One batch: 32 counter blocks through the rounds, the last round XORed
 * with in, stored at out; with hash (a constant), the plaintext of the
 * previous batch (prev, written by the last call, still in L1) hashed
 * beside the rounds, its four pairs spread over the middle rounds (pair
 * j after round 1 + 2 j (nr - 1) / 8), so that each round's vaesencs
 * come with their share of products. The reduction follows the last
 * round: the next batch needs it only for its last pair.
 */
ENGINE_INLINE void s5_batch(struct s5_state *s, const unsigned nr, uint8_t *out,
                            const uint8_t *in, const uint8_t *prev,
                            const int hash)
{
    const vec four = _mm512_set4_epi32(0, 0, 0, 4);
    vec x[8], k;
    struct gx5_sums a;

    s->rk = s5_opaque(s->rk);
    s->hk = s5_opaque(s->hk);
    s->hh = s5_opaque(s->hh);
    k = s5_key(s, 0);
    S5_UNROLL
    for (unsigned i = 0; i < 8; i++) {
        x[i] = _mm512_xor_si512(s->c, k);
        s->c = _mm512_add_epi32(s->c, four);
    }
    S5_UNROLL
    for (unsigned r = 1; r < nr; r++) {
        k = s5_key(s, r);
        S5_UNROLL
        for (unsigned i = 0; i < 8; i++)
            x[i] = _mm512_aesenc_epi128(x[i], k);
        if (hash) {
            S5_UNROLL
            for (unsigned j = 0; j < 4; j++)
                if (1 + 2 * j * (nr - 1) / 8 == r)
                    s5_hash_pair(&a, s, prev, j);
        }
    }
    k = s5_key(s, nr);
    S5_UNROLL
    for (unsigned i = 0; i < 8; i++)
        x[i] = _mm512_aesenclast_epi128(
            x[i], _mm512_xor_si512(k, _mm512_loadu_si512(in + 64 * i)));
    if (hash)
        s->acc = gx5_finish(&a);
    S5_UNROLL
    for (unsigned i = 0; i < 8; i++)
        _mm512_storeu_si512(out + 64 * i, x[i]);
}

/* The hash of the last batch, alone. */
ENGINE_INLINE void s5_hash_last(struct s5_state *s, const uint8_t *p)
{
    struct gx5_sums a;
    S5_UNROLL
    for (unsigned j = 0; j < 4; j++)
        s5_hash_pair(&a, s, p, j);
    s->acc = gx5_finish(&a);
}

/*
 * nbat >= 1 whole batches; nr and wide constants. The work area kw gets
 * the powers and their halves (8 shuffles and 8 XORs per message, where
 * making them in the loop would cost two operations per vector) and,
 * wide, the broadcast round keys; it is zeroed before the return.
 */
ENGINE_INLINE void s5_dec(const uint8_t *rk, const unsigned nr,
                          const uint8_t *hk, uint8_t ctr[16], uint8_t s[16],
                          uint8_t *out, const uint8_t *in, size_t nbat,
                          uint8_t *kw, const int wide)
{
    struct s5_state st;
    __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)ctr);

    s5_powers(kw, hk);
    if (wide) {
        S5_UNROLL
        for (unsigned r = 0; r <= nr; r++)
            _mm512_store_si512((void *)(kw + S5_KW_KEYS + 64 * r),
                               v5_key(rk, r));
    }
    st.rk = wide ? kw + S5_KW_KEYS : rk;
    st.wide = wide;
    st.hk = kw + S5_KW_POWERS;
    st.hh = kw + S5_KW_HALVES;
    st.acc = _mm_loadu_si128((const __m128i *)(const void *)s);
    st.c = _mm512_add_epi32(
        _mm512_broadcast_i32x4(c0),
        _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));

    s5_batch(&st, nr, out, in, NULL, 0);
    for (size_t b = 1; b < nbat; b++)
        s5_batch(&st, nr, out + 512 * b, in + 512 * b, out + 512 * (b - 1), 1);
    s5_hash_last(&st, out + 512 * (nbat - 1));

    _mm_storeu_si128((__m128i *)(void *)s, st.acc);
    c0 = _mm_add_epi32(c0, _mm_cvtsi32_si128((int)(uint32_t)(32 * nbat)));
    _mm_storeu_si128((__m128i *)(void *)ctr, c0);
    S5_UNROLL
    for (unsigned v = 0; v < 16; v++)
        _mm512_store_si512((void *)(kw + S5_KW_POWERS + 64 * v),
                           _mm512_setzero_si512());
    if (wide) {
        S5_UNROLL
        for (unsigned r = 0; r <= nr; r++)
            _mm512_store_si512((void *)(kw + S5_KW_KEYS + 64 * r),
                               _mm512_setzero_si512());
    }
}

/* One function per key size and key form: nr a constant, the rounds
 * unrolled, every key a register. */
#define S5_FN(name, nr, wide)                                                  \
    __attribute__((noinline)) ENGINE_FN void name(                             \
        const uint8_t *rk, const uint8_t *hk, uint8_t ctr[16], uint8_t s[16],  \
        uint8_t *out, const uint8_t *in, size_t nbat, uint8_t *kw)             \
    {                                                                          \
        s5_dec(rk, nr, hk, ctr, s, out, in, nbat, kw, wide);                   \
    }
S5_FN(s5_dec10, 10, 0)
S5_FN(s5_dec12, 12, 0)
S5_FN(s5_dec14, 14, 0)
S5_FN(s5_dec10w, 10, 1)
S5_FN(s5_dec12w, 12, 1)
S5_FN(s5_dec14w, 14, 1)

/* The kernels' frames (-fstack-usage, -O3): gcc 12 24..88 bytes, clang 14
 * 64; gcc keeps the POLYVAL state (and the reduction constant) in its
 * red zone across the loop, clang the counter block. What they leave is
 * wiped after the call: the larger frame plus 256 (stack_wipe.h's rule)
 * and the red zone, rounded up (test_residue checks it for both
 * compilers). */
#define S5_STACK 512

size_t aesir_vaes_avx512_gcmsiv_dec(const void *rkv, unsigned nr,
                                    const void *hkv, uint8_t ctr[16],
                                    uint8_t s[16], uint8_t *out,
                                    const uint8_t *in, size_t len)
{
    const uint8_t *rk = ENGINE_RK(rkv), *hk = (const uint8_t *)hkv;
    const size_t nbat = len / 512;
    /* the kernel's work area, here so that it lies above the kernel's
     * frame; the kernel zeroes it */
    _Alignas(64) uint8_t kw[S5_KW_BYTES];

    if (nbat == 0)
        return 0;
    if (nbat >= S5_WIDE_MIN) {
        if (nr == 10)
            s5_dec10w(rk, hk, ctr, s, out, in, nbat, kw);
        else if (nr == 12)
            s5_dec12w(rk, hk, ctr, s, out, in, nbat, kw);
        else
            s5_dec14w(rk, hk, ctr, s, out, in, nbat, kw);
    } else {
        if (nr == 10)
            s5_dec10(rk, hk, ctr, s, out, in, nbat, kw);
        else if (nr == 12)
            s5_dec12(rk, hk, ctr, s, out, in, nbat, kw);
        else
            s5_dec14(rk, hk, ctr, s, out, in, nbat, kw);
    }
    __asm__ volatile("" : : "r"(kw) : "memory");
    aesir_wipe_stack(S5_STACK);
    return 512 * nbat;
}

/* ---- per-nonce keys -------------------------------------------------- */

/*
 * RFC 8452 section 4, steps 1-4, as one stream of instructions: the 4, 5
 * or 6 derivation blocks (le32(i) || nonce) through the key-generating
 * key's rounds in one or two zmm vectors (the latency of one block), the
 * message keys taken as the first 8 bytes of each, then the
 * message-encryption key's schedule (aesni_keys.h, inlined) and the
 * POLYVAL key's powers (ghash_x86_zmm.h, the layout of
 * ghash-vpclmul-avx512's polyval_init_upto) with no call between them,
 * so that the core runs the schedule's aesenclast chain beside the
 * powers' carry-less products. Through the generic steps (an ECB call
 * on blocks built byte by byte, setkey_enc, polyval_init_upto) the same
 * work was three calls one after the other: 16 KiB seal, AES-256,
 * docs/modes/gcm-siv.md "Per-nonce keys in one call".
 *
 * The encryption key goes to mrk, where the schedule reads it before
 * writing its first round keys over it (its loads come first), so it
 * never sits on the stack.
 */
ENGINE_INLINE void s5_keys(const uint8_t *rk, const unsigned nr,
                           const uint8_t nonce[12], uint8_t *mrk, uint8_t *hk,
                           uint8_t h[16], size_t max_blocks)
{
    const __m128i n = _mm_bslli_si128(_mm_maskz_loadu_epi8(0x0fff, nonce), 4);
    const __m512i nb = _mm512_broadcast_i32x4(n);
    __m512i b0 = _mm512_add_epi32(
        nb, _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));
    __m512i b1 = _mm512_add_epi32(
        nb, _mm512_set_epi32(0, 0, 0, 7, 0, 0, 0, 6, 0, 0, 0, 5, 0, 0, 0, 4));
    __m512i k = v5_key(rk, 0);
    __m128i k1;

    b0 = _mm512_xor_si512(b0, k);
    b1 = _mm512_xor_si512(b1, k);
    S5_UNROLL
    for (unsigned r = 1; r < nr; r++) {
        k = v5_key(rk, r);
        b0 = _mm512_aesenc_epi128(b0, k);
        if (nr > 10)
            b1 = _mm512_aesenc_epi128(b1, k);
    }
    k = v5_key(rk, nr);
    b0 = _mm512_aesenclast_epi128(b0, k);
    /* qword 0 of blocks 0, 1: the authentication key; of 2 .. 5: the
     * encryption key */
    k1 = _mm_unpacklo_epi64(_mm512_castsi512_si128(b0),
                            _mm512_extracti32x4_epi32(b0, 1));
    _mm_store_si128((__m128i *)(void *)mrk,
                    _mm_unpacklo_epi64(_mm512_extracti32x4_epi32(b0, 2),
                                       _mm512_extracti32x4_epi32(b0, 3)));
    if (nr > 10) {
        b1 = _mm512_aesenclast_epi128(b1, k);
        _mm_store_si128((__m128i *)(void *)(mrk + 16),
                        _mm_unpacklo_epi64(_mm512_castsi512_si128(b1),
                                           _mm512_extracti32x4_epi32(b1, 1)));
    }
    _mm_storeu_si128((__m128i *)(void *)h, k1);
    mrk = ak_nonnull(__builtin_assume_aligned(mrk, 16));
    (void)ak_schedule(mrk, NULL, 16, mrk, 4 * (size_t)(nr - 6));
    if (max_blocks <= 4)
        gx5_store_powers(hk, k1, 4);
    else if (max_blocks <= 8)
        gx5_store_powers(hk, k1, 8);
    else if (max_blocks <= 16)
        gx5_store_powers(hk, k1, 16);
    else
        gx5_store_powers(hk, k1, 32);
}

#define S5_KEYS_FN(name, nr)                                                   \
    __attribute__((noinline)) ENGINE_FN void name(                             \
        const uint8_t *rk, const uint8_t nonce[12], uint8_t *mrk, uint8_t *hk, \
        uint8_t h[16], size_t max_blocks)                                      \
    {                                                                          \
        s5_keys(rk, nr, nonce, mrk, hk, h, max_blocks);                        \
    }
S5_KEYS_FN(s5_keys10, 10)
S5_KEYS_FN(s5_keys12, 12)
S5_KEYS_FN(s5_keys14, 14)
#undef S5_KEYS_FN

void aesir_vaes_avx512_gcmsiv_keys(const void *rkv, unsigned nr,
                                   const uint8_t nonce[12], void *mrk, void *hk,
                                   uint8_t h[16], size_t max_blocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    uint8_t *m = (uint8_t *)mrk;
    if (nr == 10)
        s5_keys10(rk, nonce, m, (uint8_t *)hk, h, max_blocks);
    else if (nr == 12)
        s5_keys12(rk, nonce, m, (uint8_t *)hk, h, max_blocks);
    else
        s5_keys14(rk, nonce, m, (uint8_t *)hk, h, max_blocks);
}

/*
 * The tag: S = (S ^ lengths) K_1, the nonce XORed in, bit 127 cleared,
 * one AES block, all in one register (through the generic steps: a
 * POLYVAL call for one block, byte loops and an ECB call, with S stored
 * and reloaded between them). K_1 is the last entry of hk.
 */
ENGINE_FN void s5_tag(const uint8_t *mrk, unsigned nr, const uint8_t *hk,
                      const uint8_t s[16], const uint8_t nonce[12],
                      uint64_t aad_bits, uint64_t data_bits, uint8_t tag[16])
{
    const __m128i k1 =
        _mm_load_si128((const __m128i *)(const void *)(hk + 496));
    const __m128i top = _mm_set_epi32(0x7fffffff, -1, -1, -1);
    __m128i x = _mm_xor_si128(
        _mm_loadu_si128((const __m128i *)(const void *)s),
        _mm_set_epi64x((long long)data_bits, (long long)aad_bits));

    x = gx5_mul1(x, k1);
    x = _mm_and_si128(_mm_xor_si128(x, _mm_maskz_loadu_epi8(0x0fff, nonce)),
                      top);
    x = _mm_xor_si128(x, _mm_load_si128((const __m128i *)(const void *)mrk));
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(
            x, _mm_load_si128((const __m128i *)(const void *)(mrk + 16 * r)));
    x = _mm_aesenclast_si128(
        x, _mm_load_si128((const __m128i *)(const void *)(mrk + 16 * nr)));
    _mm_storeu_si128((__m128i *)(void *)tag, x);
}

void aesir_vaes_avx512_gcmsiv_tag(const void *mrk, unsigned nr, const void *hk,
                                  const uint8_t s[16], const uint8_t nonce[12],
                                  uint64_t aad_bits, uint64_t data_bits,
                                  uint8_t tag[16])
{
    s5_tag(ENGINE_RK(mrk), nr, (const uint8_t *)hk, s, nonce, aad_bits,
           data_bits, tag);
}

void aesir_vaes_avx512_ctr32le(const void *rk, unsigned nr, uint8_t ctr[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (nr == 10)
        v5_ctr32le10(ENGINE_RK(rk), ctr, out, in, nblocks);
    else if (nr == 12)
        v5_ctr32le12(ENGINE_RK(rk), ctr, out, in, nblocks);
    else
        v5_ctr32le14(ENGINE_RK(rk), ctr, out, in, nblocks);
}

#endif
