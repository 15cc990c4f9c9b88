/*
 * ghash_pmull.c -- ghash-pmull: GHASH and POLYVAL with the aarch64
 * PMULL/PMULL2 instructions (64 x 64 -> 128-bit carry-less multiply, Arm
 * Crypto Extensions), 8 blocks per reduction.
 *
 * Technique: the x86 clmul engine's arithmetic (ghash_x86.h; Gueron and
 * Kounavis, Intel white paper 323640) with Arm's instructions. A GCM
 * block is byte-reversed (REV64 + EXT) so the register holds its 128-bit
 * big-endian integer, in which a carry-less product is the field product
 * times x; the keys are H^j x^-1 (ghash.h: aesir_ghash_key_xinv), so no
 * shift is needed. Reduction by two-step folding with 0xc200000000000000
 * (PMULL of the low word, swap the halves, XOR; twice). 8 blocks share
 * one reduction ("aggregated reduction"), block i of 8 multiplied by
 * H^(8-i); a tail of m < 8 takes the last m powers.
 *
 * Products are schoolbook, four PMULL per block: PMULL2 (the two high
 * words) gives a1 k1 directly, and with the key's halves swapped
 * beforehand (k' = [k1 : k0]) the cross terms are PMULL(a, k') (a0 k1)
 * and PMULL2(a, k') (a1 k0): no lane moves on the data side, which
 * Karatsuba's (a0 ^ a1) would need.
 *
 * Key layout (hk, 256 bytes used), 16-byte entries, lane 0 the low word:
 *
 *   hk +   0:  K8  K7 ... K1          K_j = H^j x^-1 (POLYVAL: dot-powers)
 *   hk + 128:  K8' K7' ... K1'        K' = K with its 64-bit halves swapped
 *
 * POLYVAL (RFC 8452): the same kernel without the byte reversal, keyed
 * with H and its dot-powers (see ghash_x86.h for why that is all).
 *
 * Constant time: YES, given that PMULL is (a fixed-latency pipelined
 * instruction on the Arm cores we know of; Arm documents data-independent
 * timing for it under DIT on Armv8.4+). No branch or address depends on
 * H or the data.
 *
 * Little-endian aarch64 only (the lane arithmetic assumes it); clang
 * before 16 declares the PMULL intrinsics only when the whole file is
 * built for the Crypto Extensions, so there the engine is built only
 * with -march=...+crypto. Tested under qemu-aarch64 (make cross-test).
 *
 * Batch: 8 blocks.
 */
#include "internal.h"
#include "ghash.h"

#if defined(__aarch64__) && defined(__ARM_NEON) &&                             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                               \
    (!defined(__clang__) || __clang_major__ >= 16 ||                           \
     defined(__ARM_FEATURE_AES))

#include <arm_neon.h>

#if defined(__clang__)
#define TARGET __attribute__((target("aes")))
#else
#define TARGET __attribute__((target("+crypto")))
#endif
#define INLINE static inline __attribute__((always_inline)) TARGET
#define FN static TARGET

#define PM_N 8

struct pm_key {
    uint64x2_t k[PM_N];
    uint64x2_t ks[PM_N];
};

INLINE uint64x2_t pm_load(const uint8_t *p, int swap)
{
    uint8x16_t x = vld1q_u8(p);
    if (swap) {
        x = vrev64q_u8(x);
        x = vextq_u8(x, x, 8);
    }
    return vreinterpretq_u64_u8(x);
}

INLINE void pm_store(uint8_t *p, uint64x2_t v, int swap)
{
    uint8x16_t x = vreinterpretq_u8_u64(v);
    if (swap) {
        x = vrev64q_u8(x);
        x = vextq_u8(x, x, 8);
    }
    vst1q_u8(p, x);
}

/* Low words' and high words' carry-less products. */
INLINE uint64x2_t pm_lo(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(vmull_p64((poly64_t)vgetq_lane_u64(a, 0),
                                            (poly64_t)vgetq_lane_u64(b, 0)));
}

INLINE uint64x2_t pm_hi(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(
        vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)));
}

INLINE uint64x2_t pm_swap(uint64x2_t a)
{
    return vextq_u64(a, a, 1);
}

/* [hi : lo] reduced (ghash_x86.h describes the two folds). */
INLINE uint64x2_t pm_reduce(uint64x2_t lo, uint64x2_t hi)
{
    const uint64x2_t c = vdupq_n_u64(0xc200000000000000u);
    lo = veorq_u64(pm_swap(lo), pm_lo(lo, c));
    lo = veorq_u64(pm_swap(lo), pm_lo(lo, c));
    return veorq_u64(hi, lo);
}

INLINE uint64x2_t pm_finish(uint64x2_t lo, uint64x2_t mid, uint64x2_t hi)
{
    const uint64x2_t z = vdupq_n_u64(0);
    lo = veorq_u64(lo, vextq_u64(z, mid, 1)); /* mid << 64 */
    hi = veorq_u64(hi, vextq_u64(mid, z, 1)); /* mid >> 64 */
    return pm_reduce(lo, hi);
}

/* Accumulates a times k (ks: k with halves swapped). */
INLINE void pm_acc(uint64x2_t a, uint64x2_t k, uint64x2_t ks, uint64x2_t *lo,
                   uint64x2_t *mid, uint64x2_t *hi)
{
    *lo = veorq_u64(*lo, pm_lo(a, k));
    *hi = veorq_u64(*hi, pm_hi(a, k));
    *mid = veorq_u64(*mid, veorq_u64(pm_lo(a, ks), pm_hi(a, ks)));
}

INLINE uint64x2_t pm_mul(uint64x2_t a, uint64x2_t b)
{
    uint64x2_t z = vdupq_n_u64(0), lo = z, mid = z, hi = z;
    pm_acc(a, b, pm_swap(b), &lo, &mid, &hi);
    return pm_finish(lo, mid, hi);
}

INLINE void pm_setup(void *hk, const uint8_t h[16], int swap)
{
    struct pm_key *key = hk;
    uint64x2_t k1, k;
    if (swap) {
        uint64_t w[2];
        aesir_ghash_key_xinv(w, h);
        k1 = vcombine_u64(vcreate_u64(w[1]), vcreate_u64(w[0]));
    } else {
        k1 = vreinterpretq_u64_u8(vld1q_u8(h));
    }
    k = k1;
    for (int j = 1; j <= PM_N; j++) {
        key->k[PM_N - j] = k;
        key->ks[PM_N - j] = pm_swap(k);
        k = pm_mul(k, k1);
    }
}

INLINE void pm_hash(const void *hk, uint8_t y[16], const uint8_t *in,
                    size_t nblocks, int swap)
{
    const struct pm_key *key = hk;
    uint64x2_t acc = pm_load(y, swap), z = vdupq_n_u64(0);
    while (nblocks > 0) {
        size_t n = nblocks < PM_N ? nblocks : PM_N, base = PM_N - n;
        uint64x2_t lo = z, mid = z, hi = z;
        pm_acc(veorq_u64(pm_load(in, swap), acc), key->k[base], key->ks[base],
               &lo, &mid, &hi);
        for (size_t i = 1; i < n; i++)
            pm_acc(pm_load(in + 16 * i, swap), key->k[base + i],
                   key->ks[base + i], &lo, &mid, &hi);
        acc = pm_finish(lo, mid, hi);
        in += 16 * n;
        nblocks -= n;
    }
    pm_store(y, acc, swap);
}

FN void pm_init(void *hk, const uint8_t h[16])
{
    pm_setup(hk, h, 1);
}

FN void pm_ghash(const void *hk, uint8_t y[16], const uint8_t *in,
                 size_t nblocks)
{
    pm_hash(hk, y, in, nblocks, 1);
}

FN void pm_polyval_init(void *hk, const uint8_t h[16])
{
    pm_setup(hk, h, 0);
}

FN void pm_polyval(const void *hk, uint8_t s[16], const uint8_t *in,
                   size_t nblocks)
{
    pm_hash(hk, s, in, nblocks, 0);
}

static const struct aesir_ghash_engine engine = {
    .name = "ghash-pmull",
    .description = "aarch64 PMULL, 8 blocks per reduction",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = PM_N,
    .init = pm_init,
    .ghash = pm_ghash,
    .polyval_init = pm_polyval_init,
    .polyval = pm_polyval,
};

const struct aesir_ghash_engine *aesir_ghash_pmull(void)
{
    return (aesir_cpu_features() & AESIR_CPU_PMULL) ? &engine : NULL;
}

#else /* not little-endian aarch64, or no compiler support */

const struct aesir_ghash_engine *aesir_ghash_pmull(void)
{
    return NULL;
}

#endif
