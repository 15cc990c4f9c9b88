/*
 * aesni_gcm.c -- the fused GCM kernels of aesni (gcm_enc, gcm_dec;
 * internal.h, aesir_gcm_fn): CTR with GCM's inc32 counter and GHASH of
 * the ciphertext in one pass on xmm registers, 8 blocks through the
 * AES rounds interleaved with the carry-less products of 8 others, for
 * the GHASH engine ghash-clmul (whose key layout they read).
 *
 * CPU: AES-NI && PCLMULQDQ && SSSE3. The aesni accessor checks AES-NI
 * and SSSE3 only; gcm.c calls these kernels only when the key's GHASH
 * engine is the one named in .gcm_ghash, ghash-clmul, which it obtained
 * through that engine's accessor (aesir_ghash_checked: PCLMULQDQ present
 * and the self-test passed), so PCLMULQDQ is there whenever they run.
 *
 * Why fused. Separately, CTR keeps the AES unit busy and then GHASH the
 * carry-less multiplier, each idle while the other works, and the data
 * passes through L1 twice. This is the classic design of S. Gueron and
 * M. E. Kounavis (Intel white paper 323640, "Intel Carry-Less
 * Multiplication Instruction and its Usage for Computing the GCM Mode",
 * rev. 2.02, section "Aggregated reduction"; also Gueron's AES-GCM for
 * OpenSSL): per iteration 8 counter blocks go through the rounds while 8
 * ciphertext blocks are multiplied by H^8 .. H^1, the products summed
 * unreduced and reduced once. The two instruction streams share no
 * register, so an out-of-order core overlaps them; in source the
 * product of block j follows round j + 1.
 *
 *  - Decryption hashes the ciphertext it decrypts in the same iteration:
 *    it is the input, loaded once for both (in == out allowed: every
 *    load of a batch precedes its stores).
 *  - Encryption hashes the previous iteration's ciphertext (reloaded
 *    from out, still in L1) while it encrypts the next, so the first
 *    batch's AES runs alone and the last batch is hashed after the loop,
 *    beside the tail's AES.
 *
 * Hash-key layout (ghash_clmul.c), 16-byte entries, highest power first:
 *
 *   hk +   0:  K8  K7  K6  K5  K4  K3  K2  K1     K_j = H^j x^-1
 *   hk + 128:  S8  S7  S6  S5  S4  S3  S2  S1     S_j = lo(K_j) ^ hi(K_j)
 *
 * Block i of a batch takes entry i (K_(8-i)); a tail of r < 8 blocks the
 * last r entries. Products are Karatsuba's three PCLMULQDQ with the
 * precomputed S_j (as in ghash-clmul): 24 + 2 per 8 blocks.
 *
 * Counter. The counter block, byte-reversed once, is a little-endian
 * 128-bit integer whose dword 0 is GCM's 32-bit counter; block i of a
 * batch is that plus i in dword 0 (PADDD), reversed back (PSHUFB, the
 * GHASH mask) and XORed with round key 0. The caller guarantees the low
 * word does not wrap within a call (gcm.c, data_blocks), so PADDD is
 * inc32 exactly.
 *
 * Round keys: nr + 1 keys at rk + 16 r (aesni's encryption schedule),
 * read as memory operands in every batch: with 8 blocks, 3 partial
 * products, the data and the accumulator there is no room for them in
 * 16 xmm registers, and spilled keys would stay in dead frames.
 *
 * Constant time: yes, given that AESENC and PCLMULQDQ are (fixed
 * latency on every x86 core that has them). No branch or address
 * depends on the key, H, the counter or the data; branches depend on nr
 * and the length only. Whatever the compiler spills is wiped from the
 * stack before the entry points return (aesir_wipe_stack).
 *
 * Batch: 8 blocks. Every whole block of len is done (a tail of 1..7
 * blocks by a kernel of that width); the kernels return len rounded
 * down to 16.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "aes,pclmul,ssse3"
#include "engine.h"
#include <immintrin.h>
#include "ghash_x86.h"
#include "stack_wipe.h"

#include "x86_gcm.h"

/* Loops over rounds and blocks are unrolled in full: arrays indexed by a
 * loop variable would otherwise live on the stack. */
#if defined(__clang__)
#define A8_UNROLL _Pragma("clang loop unroll(full)")
#else
#define A8_UNROLL _Pragma("GCC unroll 16")
#endif

#define A8_B 8

struct a8_state {
    const uint8_t *rk, *hk;
    __m128i c;   /* the next counter, little-endian */
    __m128i acc; /* GHASH accumulator, reflected */
};

/* The unreduced sums of a batch's products. */
struct a8_acc {
    __m128i lo, mid, hi;
};

ENGINE_INLINE const uint8_t *a8_opaque(const uint8_t *p)
{
    GX_PIN(p);
    return p;
}

ENGINE_INLINE __m128i a8_ld(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ENGINE_INLINE __m128i a8_key(const struct a8_state *s, unsigned r)
{
    return _mm_load_si128((const __m128i *)(const void *)(s->rk + 16 * r));
}

/* Block d (reflected) times key entry i, Karatsuba, into a. */
ENGINE_INLINE void a8_mul(struct a8_acc *a, __m128i d, const uint8_t *hk,
                          unsigned i, int first)
{
    const __m128i k =
        _mm_load_si128((const __m128i *)(const void *)(hk + 16 * i));
    const __m128i sk =
        _mm_load_si128((const __m128i *)(const void *)(hk + 128 + 16 * i));
    const __m128i ds = _mm_xor_si128(d, _mm_shuffle_epi32(d, 0x4e));
    __m128i lo = _mm_clmulepi64_si128(d, k, 0x00);
    __m128i hi = _mm_clmulepi64_si128(d, k, 0x11);
    __m128i mid = _mm_clmulepi64_si128(ds, sk, 0x00);
    if (first) {
        a->lo = lo, a->hi = hi, a->mid = mid;
    } else {
        a->lo = _mm_xor_si128(a->lo, lo);
        a->hi = _mm_xor_si128(a->hi, hi);
        a->mid = _mm_xor_si128(a->mid, mid);
    }
    /* The sums as they go, in registers: without this empty asm the
     * compilers may rebalance the XOR chains into a tree at the end of
     * the batch, keeping every product live until then (spills). */
    __asm__("" : "+x"(a->lo), "+x"(a->mid), "+x"(a->hi));
}

/* The reduced sum: the next accumulator (Karatsuba's middle term is
 * (a0 ^ a1)(k0 ^ k1) ^ lo ^ hi). */
ENGINE_INLINE __m128i a8_finish(const struct a8_acc *a)
{
    __m128i mid = _mm_xor_si128(a->mid, _mm_xor_si128(a->lo, a->hi));
    return gx_finish(a->lo, mid, a->hi);
}

ENGINE_INLINE void a8_setup(struct a8_state *s, const uint8_t *rk,
                            const uint8_t *hk, const uint8_t ctr[16],
                            const uint8_t y[16])
{
    s->rk = rk;
    s->hk = hk;
    s->c = gx_load(ctr, 1);
    s->acc = gx_load(y, 1);
}

/* Writes back the counter advanced by n blocks (its low word: no wrap,
 * the caller guarantees it) and the accumulator. */
ENGINE_INLINE void a8_done(const struct a8_state *s, uint8_t ctr[16],
                           uint8_t y[16], size_t n)
{
    aesir_store_be32(ctr + 12, aesir_load_be32(ctr + 12) + (uint32_t)n);
    gx_store(y, s->acc, 1);
}

/* n counter blocks, byte-swapped and XORed with round key 0. */
ENGINE_INLINE void a8_ctr(struct a8_state *s, __m128i *x, unsigned n)
{
    const __m128i k0 = a8_key(s, 0);
    A8_UNROLL
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm_xor_si128(
            _mm_shuffle_epi8(
                _mm_add_epi32(s->c, _mm_set_epi32(0, 0, 0, (int)i)),
                gx_rev_mask()),
            k0);
    s->c = _mm_add_epi32(s->c, _mm_set_epi32(0, 0, 0, (int)n));
}

ENGINE_INLINE void a8_round(const struct a8_state *s, __m128i *x, unsigned n,
                            unsigned r)
{
    const __m128i k = a8_key(s, r);
    A8_UNROLL
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm_aesenc_si128(x[i], k);
}

/* The last round with in XORed into its key, then the stores. */
ENGINE_INLINE void a8_last(const struct a8_state *s, const unsigned nr,
                           __m128i *x, unsigned n, uint8_t *out,
                           const __m128i *d)
{
    const __m128i k = a8_key(s, nr);
    A8_UNROLL
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm_aesenclast_si128(x[i], _mm_xor_si128(k, d[i]));
    A8_UNROLL
    for (unsigned i = 0; i < n; i++)
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * i), x[i]);
}

/*
 * One batch of 8 blocks: counters through the rounds, the last round
 * XORed with in; hash (a constant) says whether the 8 blocks at h are
 * hashed in the same iteration (decryption: h == in; encryption: the
 * previous batch's ciphertext). The product of block j follows round
 * j + 1 (nr - 1 >= 9 > 8), in source order only.
 */
ENGINE_INLINE void a8_batch(struct a8_state *s, const unsigned nr, uint8_t *out,
                            const uint8_t *in, const uint8_t *h, const int hash)
{
    const uint8_t *hk;
    __m128i x[A8_B], d[A8_B];
    struct a8_acc a;

    s->rk = a8_opaque(s->rk);
    hk = a8_opaque(s->hk);
    a8_ctr(s, x, A8_B);
    A8_UNROLL
    for (unsigned r = 1; r < nr; r++) {
        a8_round(s, x, A8_B, r);
        if (hash && r - 1 < A8_B) {
            const unsigned j = r - 1;
            __m128i b = gx_load(h + 16 * j, 1);
            if (j == 0)
                b = _mm_xor_si128(b, s->acc);
            a8_mul(&a, b, hk, j, j == 0);
        }
    }
    if (hash)
        s->acc = a8_finish(&a);
    A8_UNROLL
    for (unsigned i = 0; i < A8_B; i++)
        d[i] = a8_ld(in + 16 * i);
    a8_last(s, nr, x, A8_B, out, d);
}

/* The hash of n blocks at h with the last n entries, one reduction. */
ENGINE_INLINE void a8_hash(struct a8_state *s, const uint8_t *h, unsigned n)
{
    struct a8_acc a;
    A8_UNROLL
    for (unsigned j = 0; j < n; j++) {
        __m128i b = gx_load(h + 16 * j, 1);
        if (j == 0)
            b = _mm_xor_si128(b, s->acc);
        a8_mul(&a, b, s->hk, A8_B - n + j, j == 0);
    }
    s->acc = a8_finish(&a);
}

/*
 * The tail of r = 1..7 blocks (r a constant). Encryption first hashes
 * the last batch (prev, when there is one), independent of the tail's
 * AES, so the two overlap; then the tail's ciphertext (input for
 * decryption, loaded before any store; output for encryption, from the
 * registers) with the last r entries.
 */
ENGINE_INLINE void a8_tail(struct a8_state *s, const unsigned nr, uint8_t *out,
                           const uint8_t *in, const unsigned r,
                           const uint8_t *prev, const int dec)
{
    __m128i x[A8_B], d[A8_B];
    struct a8_acc a;

    A8_UNROLL
    for (unsigned j = 0; j < r; j++)
        d[j] = a8_ld(in + 16 * j);
    a8_ctr(s, x, r);
    if (!dec && prev != NULL)
        a8_hash(s, prev, A8_B);
    A8_UNROLL
    for (unsigned k = 1; k < nr; k++)
        a8_round(s, x, r, k);
    a8_last(s, nr, x, r, out, d);
    A8_UNROLL
    for (unsigned j = 0; j < r; j++) {
        __m128i b = _mm_shuffle_epi8(dec ? d[j] : x[j], gx_rev_mask());
        if (j == 0)
            b = _mm_xor_si128(b, s->acc);
        a8_mul(&a, b, s->hk, A8_B - r + j, j == 0);
    }
    s->acc = a8_finish(&a);
}

/* The whole call for a constant nr and direction. */
ENGINE_INLINE size_t a8_gcm(const uint8_t *rk, const unsigned nr,
                            const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],
                            uint8_t *out, const uint8_t *in, size_t len,
                            const int dec)
{
    struct a8_state s;
    size_t nblocks = len / 16, left = nblocks;
    const uint8_t *prev = NULL;

    a8_setup(&s, rk, hk, ctr, y);
    if (dec) {
        for (; left >= A8_B; left -= A8_B) {
            a8_batch(&s, nr, out, in, in, 1);
            in += 16 * A8_B, out += 16 * A8_B;
        }
    } else if (left >= A8_B) {
        a8_batch(&s, nr, out, in, NULL, 0);
        /* laundered: else the compiler sees that prev is the last
         * batch's out and keeps that batch's blocks in registers across
         * the next iteration instead of reloading them (spills) */
        prev = a8_opaque(out);
        in += 16 * A8_B, out += 16 * A8_B, left -= A8_B;
        for (; left >= A8_B; left -= A8_B) {
            a8_batch(&s, nr, out, in, prev, 1);
            prev = a8_opaque(out);
            in += 16 * A8_B, out += 16 * A8_B;
        }
    }
    if (left == 0) {
        if (prev != NULL)
            a8_hash(&s, prev, A8_B);
    } else {
#define A8_TAIL(n) a8_tail(&s, nr, out, in, (n), prev, dec)
        ENGINE_TAIL7(A8_TAIL, left)
#undef A8_TAIL
    }
    a8_done(&s, ctr, y, nblocks);
    return 16 * nblocks;
}

/* One function per direction and key size (nr a constant, the rounds
 * unrolled), in two encodings: legacy SSE, and VEX for CPUs with AVX
 * (three-operand instructions: no register copies before each
 * destructive AESENC, PXOR or PSHUFB), as aesni.c's key setup does. */
#define A8_FN(name, isa, nr, dec)                                              \
    __attribute__((noinline, target(isa))) static size_t name(                 \
        const uint8_t *rk, const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],  \
        uint8_t *out, const uint8_t *in, size_t len)                           \
    {                                                                          \
        return a8_gcm(rk, nr, hk, ctr, y, out, in, len, dec);                  \
    }

/*
 * The entry points: the kernel out of line, then its frame wiped
 * (aesir_wipe_stack, internal.h; stack_wipe.h says why): 16 xmm
 * registers do not hold 8 blocks, the counter, the partial products and
 * the accumulator, and what the compiler spills (keystream, plaintext,
 * the accumulator) must not stay in the dead frame. The bound follows
 * stack_wipe.h's rule: the kernels' largest frame (gcc 12: 152 bytes and
 * 3 saved registers; clang 14: 40 bytes, 4 saved registers and its
 * 128-byte red zone) and the return address, plus 256, rounded up to 64.
 */
#define A8_STACK 512

#define A8_ENTRY(name, suffix, isa, dec)                                       \
    A8_FN(aesni_gcm_##suffix##10, isa, 10, dec)                                \
    A8_FN(aesni_gcm_##suffix##12, isa, 12, dec)                                \
    A8_FN(aesni_gcm_##suffix##14, isa, 14, dec)                                \
    STACK_WIPED_GCM(name, aesni_gcm_##suffix##10, aesni_gcm_##suffix##12,      \
                    aesni_gcm_##suffix##14, A8_STACK)

#define A8_SSE "aes,pclmul,ssse3"
#define A8_AVX "aes,pclmul,ssse3,avx"
A8_ENTRY(aesir_aesni_gcm_enc, enc, A8_SSE, 0)
A8_ENTRY(aesir_aesni_gcm_dec, dec, A8_SSE, 1)
A8_ENTRY(aesir_aesni_gcm_enc_avx, enc_avx, A8_AVX, 0)
A8_ENTRY(aesir_aesni_gcm_dec_avx, dec_avx, A8_AVX, 1)

#endif /* x86 */
