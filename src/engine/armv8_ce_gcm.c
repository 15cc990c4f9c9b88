/*
 * armv8_ce_gcm.c -- the fused GCM kernels of armv8-ce (gcm_enc, gcm_dec;
 * internal.h, aesir_gcm_fn): CTR with GCM's inc32 counter and GHASH of
 * the ciphertext in one pass, the AESE/AESMC rounds of 8 counter blocks
 * interleaved with the PMULL/PMULL2 products of 8 ciphertext blocks, for
 * the GHASH engine ghash-pmull (whose key layout they read).
 *
 * Why fused. Run apart, CTR keeps the AES pipes busy and the
 * multiplier idle, then GHASH the reverse, and the data passes through
 * L1 twice. Here each round of 8 blocks (8 AESE+AESMC pairs, one
 * round-key load) is followed by the four PMULLs of one ciphertext block,
 * so an out-of-order core has independent work for both kinds of pipe
 * in the same window (on the Cortex-A and Neoverse cores the AES and
 * PMULL instructions issue to the same SIMD pipes, so the gain is in
 * filling their latency bubbles, not in a second unit). The AES part is
 * armv8-ce's CTR (armv8_ce.c); the GHASH part is ghash-pmull's
 * (ghash_pmull.c): the arithmetic below is the same and must stay so.
 *
 *  - Decryption hashes the ciphertext it decrypts in the same group: it
 *    is read (for the hash) while the rounds run, and again, from L1,
 *    for the final XOR. In place works: every read of a group comes
 *    before its first store.
 *  - Encryption hashes the previous group's ciphertext (read back from
 *    out) while it encrypts the next, so the first group's rounds run
 *    alone and the last group is hashed after the loop (with the tail's
 *    rounds when there is a tail).
 *
 * Hash-key layout (ghash_pmull.c): hk + 16 i = K_(8-i), i = 0..7, K_j =
 * H^j x^-1 as a 128-bit integer in the reflected domain, lane 0 the low
 * word; hk + 128 + 16 i the same with its halves swapped. Block i of a
 * group of 8 is multiplied by K_(8-i), the accumulator XORed into block
 * 0; a group of m < 8 takes K_m .. K_1. A block is byte-reversed (REV64
 * + EXT) into that integer form. Each product is four PMULL/PMULL2
 * (low, high, both cross terms from the swapped key), summed unreduced
 * over the group; then the middle sum is folded in and one two-step
 * reduction by 0xc200000000000000 ends the group ("aggregated
 * reduction", Gueron and Kounavis, Intel white paper 323640).
 *
 * Counter. As in armv8-ce's CTR, v = REV32 of the counter block, so GCM's
 * 32-bit counter is lane 3 as a number: block j is REV32(v), then v + 1
 * in that lane. The caller (gcm.c, data_blocks) guarantees the low word
 * does not wrap within a call, so the lane add is inc32 exactly.
 *
 * Tails: m = 1..7 blocks after the groups take kernels of exactly that
 * width (ENGINE_TAIL7), hashed with K_m .. K_1, so every length of whole
 * blocks is done; the kernels return len rounded down to 16.
 *
 * Instruction counts per block (gcc 12 -O3, objdump of the cross object;
 * docs/engines/armv8-ce.md, "GCM").
 *
 * Constant time: yes, given that AESE/AESMC and PMULL are (see armv8_ce.c
 * and ghash_pmull.c). No branch or address depends on the key, H, or the
 * data; branches depend on nr, the length and nothing else (the counter
 * is public and does not steer anything here). Stack: with gcc 12 -O3
 * the lanes, products and keys stay in registers (objdump: no vector
 * store to the stack but the caller's callee-saved d8-d15), so nothing
 * is wiped; clang 14 spills, and there the stack is wiped (below).
 * tests/test_residue.c scans the stack after GCM calls with this pair.
 *
 * Batch: 8 blocks.
 */
#include "internal.h"
#include "gcm_kernels.h"

#ifdef AESIR_ARMV8_CE_GCM

#include <arm_neon.h>

#if defined(__clang__)
#define ENGINE_ISA "aes"
#else
#define ENGINE_ISA "+crypto"
#endif
#include "engine.h"
#include "stack_wipe.h"

#define WIDE 8

/* Loops over lanes and rounds have constant trip counts once inlined;
 * gcc keeps the arrays in registers only when they unroll early (see
 * armv8_ce.c). */
#if defined(__clang__)
#define LANES
#else
#define LANES _Pragma("GCC unroll 16")
#endif

/* ghash-pmull's key area (ghash_pmull.c, struct pm_key). */
struct gk {
    uint64x2_t k[WIDE];  /* K8 .. K1 */
    uint64x2_t ks[WIDE]; /* the same, 64-bit halves swapped */
};

ENGINE_INLINE uint8x16_t round_full(uint8x16_t x, uint8x16_t k)
{
    return vaesmcq_u8(vaeseq_u8(x, k));
}

ENGINE_INLINE uint8x16_t rkey(const uint8_t *rk, unsigned r)
{
    return vld1q_u8(rk + 16 * r);
}

/* A GCM block as the 128-bit big-endian integer of its bytes. */
ENGINE_INLINE uint64x2_t gload(const uint8_t *p)
{
    uint8x16_t x = vrev64q_u8(vld1q_u8(p));
    return vreinterpretq_u64_u8(vextq_u8(x, x, 8));
}

ENGINE_INLINE void gstore(uint8_t *p, uint64x2_t v)
{
    uint8x16_t x = vrev64q_u8(vreinterpretq_u8_u64(v));
    vst1q_u8(p, vextq_u8(x, x, 8));
}

ENGINE_INLINE uint64x2_t clmul_lo(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(vmull_p64((poly64_t)vgetq_lane_u64(a, 0),
                                            (poly64_t)vgetq_lane_u64(b, 0)));
}

ENGINE_INLINE uint64x2_t clmul_hi(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(
        vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)));
}

ENGINE_INLINE uint64x2_t swap64(uint64x2_t a)
{
    return vextq_u64(a, a, 1);
}

/* Unreduced sums of a group's products. */
struct acc3 {
    uint64x2_t lo, mid, hi;
};

/* s += a K_(8-i) (i = 0..7: position in ghash-pmull's table). */
ENGINE_INLINE void mac(struct acc3 *s, const struct gk *key, unsigned i,
                       uint64x2_t a)
{
    const uint64x2_t k = key->k[i], ks = key->ks[i];
    s->lo = veorq_u64(s->lo, clmul_lo(a, k));
    s->hi = veorq_u64(s->hi, clmul_hi(a, k));
    s->mid = veorq_u64(s->mid, veorq_u64(clmul_lo(a, ks), clmul_hi(a, ks)));
}

/* The group's sum, middle folded in, reduced (ghash_x86.h's two folds). */
ENGINE_INLINE uint64x2_t finish(struct acc3 s)
{
    const uint64x2_t z = vdupq_n_u64(0), c = vdupq_n_u64(0xc200000000000000u);
    uint64x2_t lo = veorq_u64(s.lo, vextq_u64(z, s.mid, 1)); /* mid << 64 */
    uint64x2_t hi = veorq_u64(s.hi, vextq_u64(s.mid, z, 1)); /* mid >> 64 */
    lo = veorq_u64(swap64(lo), clmul_lo(lo, c));
    lo = veorq_u64(swap64(lo), clmul_lo(lo, c));
    return veorq_u64(hi, lo);
}

/* Block j of hp hashed into s, as block j of a group of nh (acc into the
 * first); nothing when j >= nh. */
#define HASH(j)                                                                \
    do {                                                                       \
        if ((j) < nh) {                                                        \
            uint64x2_t a_ = gload(hp + 16 * (j));                              \
            if ((j) == 0)                                                      \
                a_ = veorq_u64(a_, *acc);                                      \
            mac(&s, key, WIDE - nh + (j), a_);                                 \
        }                                                                      \
    } while (0)

/* Full round r on every lane, then the product of block r. */
#define ROUND(r)                                                               \
    do {                                                                       \
        const uint8x16_t t_ = rkey(rk, (r));                                   \
        LANES                                                                  \
        for (unsigned j_ = 0; j_ < n; j_++)                                    \
            b[j_] = round_full(b[j_], t_);                                     \
        HASH(r);                                                               \
    } while (0)

/*
 * n counter blocks from *v through the rounds, out = in ^ keystream; in
 * the same pass the nh (0 or 1..8) blocks at hp hashed into *acc, one
 * product after each of the first nh rounds (nr >= 10, so all fit). n
 * and nh are constants at every call.
 */
ENGINE_INLINE void group(const uint8_t *rk, unsigned nr, const struct gk *key,
                         uint32x4_t *v, uint64x2_t *acc, uint8_t *out,
                         const uint8_t *in, unsigned n, const uint8_t *hp,
                         unsigned nh)
{
    const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 3);
    const uint64x2_t z = vdupq_n_u64(0);
    struct acc3 s = {z, z, z};
    uint8x16_t b[WIDE];
    uint32x4_t c = *v;

    /* The hash keys are read where used, every group: as loop invariants
     * clang 14 hoists them out of the loop and spills them. */
    __asm__("" : "+r"(key));
    LANES
    for (unsigned j = 0; j < n; j++) {
        b[j] = vrev32q_u8(vreinterpretq_u8_u32(c));
        c = vaddq_u32(c, one);
    }
    *v = c;
    ROUND(0);
    ROUND(1);
    ROUND(2);
    ROUND(3);
    ROUND(4);
    ROUND(5);
    ROUND(6);
    ROUND(7);
    ROUND(8);
    if (nr > 10) {
        ROUND(9);
        ROUND(10);
        if (nr > 12) {
            ROUND(11);
            ROUND(12);
        }
    }
    const uint8x16_t kp = rkey(rk, nr - 1), kl = rkey(rk, nr);
    LANES
    for (unsigned j = 0; j < n; j++)
        vst1q_u8(out + 16 * j, veorq_u8(veorq_u8(vaeseq_u8(b[j], kp), kl),
                                        vld1q_u8(in + 16 * j)));
    if (nh != 0)
        *acc = finish(s);
}

/* The nh (1..8) blocks at hp hashed into *acc alone. */
ENGINE_INLINE void hash_only(const struct gk *key, uint64x2_t *acc,
                             const uint8_t *hp, unsigned nh)
{
    const uint64x2_t z = vdupq_n_u64(0);
    struct acc3 s = {z, z, z};
    LANES
    for (unsigned j = 0; j < nh; j++)
        HASH(j);
    *acc = finish(s);
}

ENGINE_INLINE size_t gcm(const void *rk_, unsigned nr, const void *hk,
                         uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                         const uint8_t *in, size_t len, int decrypt)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    const struct gk *key = (const struct gk *)__builtin_assume_aligned(hk, 16);
    size_t nblocks = len / 16, m = nblocks % WIDE;
    uint32x4_t v = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(ctr)));
    uint64x2_t acc = gload(y);

    if (decrypt) {
        for (size_t g = nblocks / WIDE; g > 0; g--) {
            group(rk, nr, key, &v, &acc, out, in, WIDE, in, WIDE);
            in += 16 * WIDE, out += 16 * WIDE;
        }
#define DEC_TAIL(k) group(rk, nr, key, &v, &acc, out, in, (k), in, (k))
        ENGINE_TAIL7(DEC_TAIL, m)
#undef DEC_TAIL
    } else if (nblocks >= WIDE) {
        /* the first group's rounds alone; then each group with the
         * previous one's ciphertext (out - 128) */
        group(rk, nr, key, &v, &acc, out, in, WIDE, out, 0);
        in += 16 * WIDE, out += 16 * WIDE;
        for (size_t g = nblocks / WIDE - 1; g > 0; g--) {
            group(rk, nr, key, &v, &acc, out, in, WIDE, out - 16 * WIDE, WIDE);
            in += 16 * WIDE, out += 16 * WIDE;
        }
#define ENC_TAIL(k)                                                            \
    group(rk, nr, key, &v, &acc, out, in, (k), out - 16 * WIDE, WIDE),         \
        hash_only(key, &acc, out, (k))
        if (m == 0)
            hash_only(key, &acc, out - 16 * WIDE, WIDE);
        ENGINE_TAIL7(ENC_TAIL, m)
#undef ENC_TAIL
    } else {
#define ENC_SHORT(k)                                                           \
    group(rk, nr, key, &v, &acc, out, in, (k), out, 0),                        \
        hash_only(key, &acc, out, (k))
        ENGINE_TAIL7(ENC_SHORT, m)
#undef ENC_SHORT
    }
    vst1q_u8(ctr, vrev32q_u8(vreinterpretq_u8_u32(v)));
    gstore(y, acc);
    return len & ~(size_t)15;
}

/*
 * Library-internal entry points (gcm_kernels.h), compiled for the Crypto
 * Extensions like the rest of the file. gcc 12 -O3 keeps all of the
 * kernels' state in registers; clang 14 (-march=...+crypto, the only way
 * it builds this file) spills a hash key in decryption and the counter
 * increments (public) in both, so with clang the body runs out of line
 * and its stack is wiped after (stack_wipe.h; its frame is 192 bytes,
 * aarch64 has no red zone).
 */
#if defined(__clang__)
#define GCM_WIPE 512
#define GCM_BODY STACK_WIPE_BODY ENGINE_FN
#else
#define GCM_BODY ENGINE_INLINE
#endif

GCM_BODY size_t gcm_enc(const void *rk, unsigned nr, const void *hk,
                        uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                        const uint8_t *in, size_t len)
{
    return gcm(rk, nr, hk, ctr, y, out, in, len, 0);
}

GCM_BODY size_t gcm_dec(const void *rk, unsigned nr, const void *hk,
                        uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                        const uint8_t *in, size_t len)
{
    return gcm(rk, nr, hk, ctr, y, out, in, len, 1);
}

ENGINE_TARGET size_t aesir_armv8_ce_gcm_enc(const void *rk, unsigned nr,
                                            const void *hk, uint8_t ctr[16],
                                            uint8_t y[16], uint8_t *out,
                                            const uint8_t *in, size_t len)
{
    size_t done = gcm_enc(rk, nr, hk, ctr, y, out, in, len);
#ifdef GCM_WIPE
    aesir_wipe_stack(GCM_WIPE);
#endif
    return done;
}

ENGINE_TARGET size_t aesir_armv8_ce_gcm_dec(const void *rk, unsigned nr,
                                            const void *hk, uint8_t ctr[16],
                                            uint8_t y[16], uint8_t *out,
                                            const uint8_t *in, size_t len)
{
    size_t done = gcm_dec(rk, nr, hk, ctr, y, out, in, len);
#ifdef GCM_WIPE
    aesir_wipe_stack(GCM_WIPE);
#endif
    return done;
}

#else /* no ghash-pmull in this build: no kernels (and no empty file) */

typedef int aesir_armv8_ce_gcm_none;

#endif /* AESIR_ARMV8_CE_GCM */
