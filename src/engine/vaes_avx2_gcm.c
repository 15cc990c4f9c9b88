/*
 * vaes_avx2_gcm.c -- the fused GCM kernels of vaes-avx2 (gcm_enc,
 * gcm_dec; internal.h, aesir_gcm_fn): CTR with GCM's inc32 counter and
 * GHASH of the ciphertext in one pass on ymm registers (2 blocks each),
 * the AES rounds of G2_B blocks interleaved with the carry-less products
 * of G2_B others, for the GHASH engine ghash-vpclmul-avx2 (whose key
 * layout they read).
 *
 * CPU: VAES && VPCLMULQDQ && AVX2 && AES-NI && PCLMULQDQ. The vaes-avx2
 * accessor checks AES-NI, VAES and AVX2; gcm.c calls these kernels only
 * when the key's GHASH engine is the one named in .gcm_ghash,
 * ghash-vpclmul-avx2, obtained through its accessor (VPCLMULQDQ,
 * PCLMULQDQ, AVX2 present and the self-test passed), which covers the
 * rest.
 *
 * Why fused, and how: the design of aesni_gcm.c (S. Gueron and M. E.
 * Kounavis, Intel white paper 323640, aggregated reduction) on two
 * 128-bit lanes per instruction, as vaes_avx512_gcm.c does on four (the
 * shape of E. Biggers' VAES GCM in Linux, arch/x86/crypto/
 * aes-gcm-avx10-x86_64.S, written here from its description). Per
 * iteration G2_V ymm of counters go through the rounds while G2_V ymm
 * of ciphertext are multiplied by their powers of H, summed unreduced,
 * the lanes added and reduced once. Decryption hashes the blocks it
 * decrypts (the input, every load before the batch's stores: in == out
 * allowed); encryption hashes the previous batch's output while it
 * encrypts the next, and the last batch beside the tail's AES.
 *
 * Hash-key layout (ghash_vpclmul_avx2.c): hk + 16 i = K_(16-i), i =
 * 0..15, K_j = H^j x^-1 in the reflected domain (ghash_x86.h), highest
 * power first. A ymm load takes two consecutive powers, lane 0 the
 * lower address, so block i of a group of m blocks takes K_(m-i):
 *
 *   batch of 16 (G2_V = 8):  hk + 0: [K16 K15] ... hk + 224: [K2 K1]
 *   batch of 8  (G2_V = 4):  hk + 128: [K8 K7] ... hk + 224: [K2 K1]
 *   tail of r:   hk + 16 (16 - r) on, an odd last block a half vector
 *                (its lane 1 and its key's lane 1 zero: K_1 is the
 *                table's last entry, no read past it)
 *
 * Products are schoolbook (4 VPCLMULQDQ per 2 blocks, as ghash-vpclmul-
 * avx2; the table has no Karatsuba half-sums), one reduction per batch.
 *
 * Counter. The counter block, byte-reversed once, is a little-endian
 * 128-bit integer per lane whose dword 0 is GCM's 32-bit counter; the
 * lanes hold +0 and +1, vector i adds 2 i to dword 0. The caller
 * guarantees the low word does not wrap within a call (gcm.c,
 * data_blocks), so VPADDD is inc32 exactly. Each vector is reversed back
 * (VPSHUFB) and XORed with round key 0.
 *
 * Tails. r = 1 .. G2_B - 1 blocks in ceil(r / 2) vectors, a kernel for
 * each count; an odd last block is loaded and stored as 16 bytes (never
 * a byte outside the buffers), its lane 1 zero (keystream after the
 * rounds, but multiplied by a zero key lane: no effect on the hash).
 * Every whole block of len is done; the kernels return len rounded down
 * to 16.
 *
 * Round keys: nr + 1 keys at rk + 16 r (vaes-avx2's encryption
 * schedule), broadcast from memory in each batch: 16 ymm registers do
 * not hold them beside the blocks, the data and the sums, and spilled
 * keys would stay in dead frames.
 *
 * Constant time: yes, given that VAESENC and VPCLMULQDQ are (fixed
 * latency on every core that has them). No branch or address depends on
 * the key, H, the counter or the data; branches depend on nr and the
 * length only. What the compiler spills is wiped before the entry
 * points return (aesir_wipe_stack).
 *
 * Batch: G2_B = 2 G2_V blocks; G2_V = 8 (16 blocks, all the table's
 * powers, one reduction per 16) by default; docs/engines/vaes.md has
 * the measurements of both widths.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA "vaes,vpclmulqdq,aes,pclmul,ssse3,avx,avx2"
#include "engine.h"
#include <immintrin.h>
#include "ghash_x86.h"
#include "stack_wipe.h"

#include "x86_gcm.h"

typedef __m256i vec;

/* Every loop over rounds or vectors is unrolled in full: an array
 * indexed by a loop variable would otherwise live on the stack. */
#if defined(__clang__)
#define G2_UNROLL _Pragma("clang loop unroll(full)")
#else
#define G2_UNROLL _Pragma("GCC unroll 16")
#endif

/* Vectors per batch (4 or 8) and blocks. */
#ifndef G2_V
#define G2_V 8
#endif
#define G2_B (2 * G2_V)
#define G2_POWERS 16 /* in ghash-vpclmul-avx2's table */

ENGINE_INLINE vec g2_bcast(__m128i x)
{
    return _mm256_broadcastsi128_si256(x);
}

ENGINE_INLINE vec g2_loadu(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* A whole vector, or (half) its first block with lane 1 zero. */
ENGINE_INLINE vec g2_load_part(const uint8_t *p, int half)
{
    if (half)
        return _mm256_inserti128_si256(
            _mm256_setzero_si256(),
            _mm_loadu_si128((const __m128i *)(const void *)p), 0);
    return g2_loadu(p);
}

ENGINE_INLINE void g2_store_part(uint8_t *p, vec v, int half)
{
    if (half)
        _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
    else
        _mm256_storeu_si256((__m256i *)(void *)p, v);
}

ENGINE_INLINE vec g2_rev(void)
{
    return g2_bcast(gx_rev_mask());
}

/* The unreduced sums of a batch's products. */
struct g2_acc {
    vec lo, mid, hi;
};

/* d (byte-reversed blocks) times k (2 powers), lane by lane, into a;
 * first: a starts here. */
ENGINE_INLINE void g2_mul(struct g2_acc *a, vec d, vec k, int first)
{
    vec lo = _mm256_clmulepi64_epi128(d, k, 0x00);
    vec hi = _mm256_clmulepi64_epi128(d, k, 0x11);
    vec mid = _mm256_xor_si256(_mm256_clmulepi64_epi128(d, k, 0x01),
                               _mm256_clmulepi64_epi128(d, k, 0x10));
    if (first) {
        a->lo = lo, a->hi = hi, a->mid = mid;
    } else {
        a->lo = _mm256_xor_si256(a->lo, lo);
        a->hi = _mm256_xor_si256(a->hi, hi);
        a->mid = _mm256_xor_si256(a->mid, mid);
    }
    /* The sums as they go, in registers: without these empty asm the
     * compilers rebalance the XOR chains into a tree at the end of the
     * batch, and gcc 12 kept all 32 products of a batch live until then
     * (spilled to the stack). */
    __asm__("" : "+x"(a->lo), "+x"(a->mid), "+x"(a->hi));
}

ENGINE_INLINE __m128i g2_hsum(vec v)
{
    return _mm_xor_si128(_mm256_castsi256_si128(v),
                         _mm256_extracti128_si256(v, 1));
}

/* The reduced sum: the next accumulator. */
ENGINE_INLINE __m128i g2_finish(const struct g2_acc *a)
{
    vec lo = _mm256_xor_si256(a->lo, _mm256_slli_si256(a->mid, 8));
    vec hi = _mm256_xor_si256(a->hi, _mm256_srli_si256(a->mid, 8));
    return gx_reduce(g2_hsum(lo), g2_hsum(hi));
}

/* The accumulator into lane 0 of the first vector of a group. */
ENGINE_INLINE vec g2_add_acc(vec d, __m128i acc)
{
    return _mm256_xor_si256(
        d, _mm256_inserti128_si256(_mm256_setzero_si256(), acc, 0));
}

struct g2_state {
    const uint8_t *rk, *hk;
    vec c;       /* the next counters, little-endian: lanes +0, +1 */
    __m128i acc; /* GHASH accumulator, reflected */
};

ENGINE_INLINE const uint8_t *g2_opaque(const uint8_t *p)
{
    GX_PIN(p);
    return p;
}

/* Round key r, broadcast. */
ENGINE_INLINE vec g2_key(const struct g2_state *s, unsigned r)
{
    return g2_bcast(
        _mm_load_si128((const __m128i *)(const void *)(s->rk + 16 * r)));
}

ENGINE_INLINE void g2_setup(struct g2_state *s, const uint8_t *rk,
                            const uint8_t *hk, const uint8_t ctr[16],
                            const uint8_t y[16])
{
    s->rk = rk;
    s->hk = hk;
    s->c = _mm256_add_epi32(g2_bcast(gx_load(ctr, 1)),
                            _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    s->acc = gx_load(y, 1);
}

/* Writes back the counter advanced by n blocks (its low word: no wrap,
 * the caller guarantees it) and the accumulator. */
ENGINE_INLINE void g2_done(const struct g2_state *s, uint8_t ctr[16],
                           uint8_t y[16], size_t n)
{
    aesir_store_be32(ctr + 12, aesir_load_be32(ctr + 12) + (uint32_t)n);
    gx_store(y, s->acc, 1);
}

/* The counters of n vectors, byte-swapped and XORed with round key 0;
 * the counters advance by 2 n. */
ENGINE_INLINE void g2_ctr(struct g2_state *s, vec *x, unsigned n)
{
    const vec k0 = g2_key(s, 0);
    G2_UNROLL
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm256_xor_si256(
            _mm256_shuffle_epi8(
                _mm256_add_epi32(s->c, _mm256_set_epi32(0, 0, 0, (int)(2 * i),
                                                        0, 0, 0, (int)(2 * i))),
                g2_rev()),
            k0);
    s->c = _mm256_add_epi32(
        s->c, _mm256_set_epi32(0, 0, 0, (int)(2 * n), 0, 0, 0, (int)(2 * n)));
}

ENGINE_INLINE void g2_round(const struct g2_state *s, vec *x, unsigned n,
                            unsigned r)
{
    const vec k = g2_key(s, r);
    G2_UNROLL
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm256_aesenc_epi128(x[i], k);
}

/*
 * One batch of G2_V vectors: counters through the rounds, the last
 * round XORed with in; hash (a constant) says whether the batch at h is
 * hashed in the same iteration. The products of hash vector j follow
 * round j + 1 (nr - 1 >= 9 >= G2_V), in source order only: the core's
 * scheduler does the real interleaving.
 */
ENGINE_INLINE void g2_batch(struct g2_state *s, const unsigned nr, uint8_t *out,
                            const uint8_t *in, const uint8_t *h, const int hash)
{
    const uint8_t *kt;
    vec x[G2_V];
    struct g2_acc a;

    s->rk = g2_opaque(s->rk);
    kt = g2_opaque(s->hk + 16 * (G2_POWERS - G2_B));
    g2_ctr(s, x, G2_V);
    G2_UNROLL
    for (unsigned r = 1; r < nr; r++) {
        g2_round(s, x, G2_V, r);
        if (hash && r - 1 < G2_V) {
            const unsigned j = r - 1;
            vec d = _mm256_shuffle_epi8(g2_loadu(h + 32 * j), g2_rev());
            if (j == 0)
                d = g2_add_acc(d, s->acc);
            g2_mul(&a, d, g2_loadu(kt + 32 * j), j == 0);
        }
    }
    if (hash)
        s->acc = g2_finish(&a);
    G2_UNROLL
    for (unsigned i = 0; i < G2_V; i++)
        x[i] = _mm256_aesenclast_epi128(
            x[i], _mm256_xor_si256(g2_key(s, nr), g2_loadu(in + 32 * i)));
    G2_UNROLL
    for (unsigned i = 0; i < G2_V; i++)
        _mm256_storeu_si256((__m256i *)(void *)(out + 32 * i), x[i]);
}

/* The hash of a whole batch alone (encryption: the last one). */
ENGINE_INLINE void g2_hash_batch(struct g2_state *s, const uint8_t *h)
{
    const uint8_t *kt = s->hk + 16 * (G2_POWERS - G2_B);
    struct g2_acc a;
    G2_UNROLL
    for (unsigned j = 0; j < G2_V; j++) {
        vec d = _mm256_shuffle_epi8(g2_loadu(h + 32 * j), g2_rev());
        if (j == 0)
            d = g2_add_acc(d, s->acc);
        g2_mul(&a, d, g2_loadu(kt + 32 * j), j == 0);
    }
    s->acc = g2_finish(&a);
}

/*
 * The tail of r = 1 .. G2_B - 1 blocks in n = ceil(r / 2) vectors (n a
 * constant; the last a half vector when r is odd). Encryption first
 * hashes the last batch (prev, when there is one), independent of the
 * tail's AES, so the two overlap. Then the tail's hash, one sum: for
 * decryption the input, for encryption the output; block i takes
 * K_(r-i), vector j the powers at hk + 16 (16 - r + 2 j).
 */
ENGINE_INLINE void g2_tail(struct g2_state *s, const unsigned nr, uint8_t *out,
                           const uint8_t *in, size_t r, const unsigned n,
                           const uint8_t *prev, const int dec)
{
    const int half = (int)(r & 1);
    const uint8_t *kt = s->hk + 16 * (G2_POWERS - r);
    vec x[G2_V], d[G2_V];
    struct g2_acc a;

    G2_UNROLL
    for (unsigned j = 0; j < n; j++)
        d[j] = g2_load_part(in + 32 * j, j == n - 1 && half);
    g2_ctr(s, x, n);
    if (!dec && prev != NULL)
        g2_hash_batch(s, prev);
    G2_UNROLL
    for (unsigned k = 1; k < nr; k++)
        g2_round(s, x, n, k);
    G2_UNROLL
    for (unsigned j = 0; j < n; j++)
        x[j] = _mm256_aesenclast_epi128(x[j],
                                        _mm256_xor_si256(g2_key(s, nr), d[j]));
    G2_UNROLL
    for (unsigned j = 0; j < n; j++)
        g2_store_part(out + 32 * j, x[j], j == n - 1 && half);
    G2_UNROLL
    for (unsigned j = 0; j < n; j++) {
        /* a half vector's lane 1 (keystream when encrypting) meets a
         * zero key lane: its products are zero */
        vec p = _mm256_shuffle_epi8(dec ? d[j] : x[j], g2_rev());
        if (j == 0)
            p = g2_add_acc(p, s->acc);
        g2_mul(&a, p, g2_load_part(kt + 32 * j, j == n - 1 && half), j == 0);
    }
    s->acc = g2_finish(&a);
}

/* The tail's kernel for its vector count (TAIL(n) for n = 1..G2_V). */
/* clang-format off */
#define G2_TAILS(nv, TAIL)                                                    \
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

/* The whole call for a constant nr and direction. */
ENGINE_INLINE size_t g2_gcm(const uint8_t *rk, const unsigned nr,
                            const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],
                            uint8_t *out, const uint8_t *in, size_t len,
                            const int dec)
{
    struct g2_state s;
    size_t nblocks = len / 16, left = nblocks;
    const uint8_t *prev = NULL;

    g2_setup(&s, rk, hk, ctr, y);
    if (dec) {
        for (; left >= G2_B; left -= G2_B) {
            g2_batch(&s, nr, out, in, in, 1);
            in += 16 * G2_B, out += 16 * G2_B;
        }
    } else if (left >= G2_B) {
        g2_batch(&s, nr, out, in, NULL, 0);
        /* laundered: else the compiler sees that prev is the last
         * batch's out and keeps that batch's blocks in registers across
         * the next iteration instead of reloading them (spills) */
        prev = g2_opaque(out);
        in += 16 * G2_B, out += 16 * G2_B, left -= G2_B;
        for (; left >= G2_B; left -= G2_B) {
            g2_batch(&s, nr, out, in, prev, 1);
            prev = g2_opaque(out);
            in += 16 * G2_B, out += 16 * G2_B;
        }
    }
    if (left == 0) {
        if (prev != NULL)
            g2_hash_batch(&s, prev);
    } else {
#define TAIL(n)                                                                \
    g2_tail(&s, nr, out, in, left, (n) <= G2_V ? (n) : G2_V, prev, dec)
        G2_TAILS((left + 1) / 2, TAIL)
#undef TAIL
    }
    g2_done(&s, ctr, y, nblocks);
    return 16 * nblocks;
}

/* One function per direction and key size (nr a constant, the rounds
 * unrolled). */
#define G2_FN(name, nr, dec)                                                   \
    __attribute__((noinline)) ENGINE_FN size_t name(                           \
        const uint8_t *rk, const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],  \
        uint8_t *out, const uint8_t *in, size_t len)                           \
    {                                                                          \
        return g2_gcm(rk, nr, hk, ctr, y, out, in, len, dec);                  \
    }
G2_FN(vaes_avx2_gcm_enc10, 10, 0)
G2_FN(vaes_avx2_gcm_enc12, 12, 0)
G2_FN(vaes_avx2_gcm_enc14, 14, 0)
G2_FN(vaes_avx2_gcm_dec10, 10, 1)
G2_FN(vaes_avx2_gcm_dec12, 12, 1)
G2_FN(vaes_avx2_gcm_dec14, 14, 1)

/*
 * The entry points: the kernel out of line, then its frame wiped
 * (aesir_wipe_stack, internal.h; stack_wipe.h says why): what the
 * compiler spills of 16 ymm registers' worth of blocks, data and sums
 * must not stay in the dead frame. The bound follows stack_wipe.h's
 * rule: the kernels' largest frame (gcc 12: 488 bytes, 5 saved
 * registers and up to 24 bytes of realignment to 32; clang 14: 256
 * bytes, 3 saved registers and its 128-byte red zone) and the return
 * address, plus 256, rounded up to 64. (Before the XOR chains were
 * pinned, g2_mul, gcc's frame was 968 bytes and clang's 640, and a bound
 * of 512 left plaintext and powers of H under clang: test_residue.) The
 * upper ymm halves are cleared (VZEROUPPER) by the compiler on return.
 */
#define G2_STACK 832

STACK_WIPED_GCM(aesir_vaes_avx2_gcm_enc, vaes_avx2_gcm_enc10,
                vaes_avx2_gcm_enc12, vaes_avx2_gcm_enc14, G2_STACK)

STACK_WIPED_GCM(aesir_vaes_avx2_gcm_dec, vaes_avx2_gcm_dec10,
                vaes_avx2_gcm_dec12, vaes_avx2_gcm_dec14, G2_STACK)

#endif /* x86 */
