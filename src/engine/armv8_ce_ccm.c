/*
 * armv8_ce_ccm.c -- the fused CCM kernels of armv8-ce (ccm_enc, ccm_dec;
 * internal.h, aesir_ccm_fn): CCM's CTR and its CBC-MAC chain in one
 * pass, the MAC block and a counter block in the same AESE/AESMC rounds.
 * The reasons are those of the x86 kernels (aesni_ccm.c): the CBC-MAC of
 * SP 800-38C is serial, nr AES latencies per block, and the counter
 * block fills issue slots the chain leaves empty, so CCM costs what the
 * CBC-MAC alone costs.
 *
 * The chain. AESE(x, k) is SubBytes(ShiftRows(x ^ k)) and the last round
 * key is an EOR (armv8_ce.c), so with t_i the output of block i's last
 * AESE, Y_i = t_i ^ K(nr) and the next block's first round is
 * AESE(t_i, K(nr) ^ K0 ^ P_(i+1)): the MAC XOR folds into the first
 * round key and the chain is nr AESE (and nr - 1 AESMC) per block, as in
 * armv8_ce_cbc_enc. Block 0 starts from AESE(Y, K0 ^ P_0). Decryption
 * runs the counter two blocks ahead, as on x86 (it needs P_(i+1) for the
 * key of the round after P_i's last).
 *
 * Counter. CCM's counter field is the low q <= 8 bytes and never wraps
 * (ccm.c refuses longer messages): the counter block's second half, read
 * big-endian, is lane 1 of REV64 of the block, advanced by a 64-bit lane
 * add.
 *
 * Round keys: all nr + 1 in registers (32 vector registers).
 * Constant time: yes, given that AESE/AESMC are; branches depend on nr
 * and the block count only. Tested under qemu-aarch64 (make cross-test);
 * no speed is claimed.
 */
#include "internal.h"
#include "ccm_kernels.h"

#ifdef AESIR_ARMV8_CE_CCM

#include <arm_neon.h>

#if defined(__clang__)
#define ENGINE_ISA "aes"
#else
#define ENGINE_ISA "+crypto"
#endif
#include "engine.h"

#if defined(__clang__)
#define UNROLL
#else
#define UNROLL _Pragma("GCC unroll 16")
#endif

/* One full round: the AESE/AESMC pair the cores fuse. clang before 16
 * declares the intrinsics only for a file built for AES (then
 * __ARM_FEATURE_AES is set; ccm_kernels.h requires it). */
ENGINE_INLINE uint8x16_t ce_round(uint8x16_t x, uint8x16_t k)
{
    return vaesmcq_u8(vaeseq_u8(x, k));
}

ENGINE_INLINE uint64x2_t ctr_lanes(const uint8_t *p)
{
    return vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p)));
}

ENGINE_INLINE uint8x16_t ctr_block(uint64x2_t v)
{
    return vrev64q_u8(vreinterpretq_u8_u64(v));
}

ENGINE_INLINE uint64x2_t lane1(uint64_t n)
{
    return vcombine_u64(vcreate_u64(0), vcreate_u64(n));
}

/* Rounds 0 .. nr-2 in full and the last AESE, on a (first key ka) and
 * b (first key kb). */
#define CE_ROUNDS2(a, ka, b, kb)                                               \
    do {                                                                       \
        a = ce_round(a, ka);                                                   \
        b = ce_round(b, kb);                                                   \
        UNROLL                                                                 \
        for (unsigned r_ = 1; r_ + 1 < nr; r_++) {                             \
            a = ce_round(a, k[r_]);                                            \
            b = ce_round(b, k[r_]);                                            \
        }                                                                      \
        a = vaeseq_u8(a, k[nr - 1]);                                           \
        b = vaeseq_u8(b, k[nr - 1]);                                           \
    } while (0)

#define CE_ROUNDS1(a, ka)                                                      \
    do {                                                                       \
        a = ce_round(a, ka);                                                   \
        UNROLL                                                                 \
        for (unsigned r_ = 1; r_ + 1 < nr; r_++)                               \
            a = ce_round(a, k[r_]);                                            \
        a = vaeseq_u8(a, k[nr - 1]);                                           \
    } while (0)

ENGINE_INLINE void ccm_enc_nr(const uint8_t *rk, const unsigned nr,
                              uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                              const uint8_t *in, size_t n)
{
    const uint8x16_t zero = vdupq_n_u8(0);
    uint8x16_t k[15], kf, x, p, kin;
    uint64x2_t c = ctr_lanes(ctr);

    UNROLL
    for (unsigned r = 0; r <= nr; r++)
        k[r] = vld1q_u8(rk + 16 * r);
    kf = veorq_u8(k[nr], k[0]);
    x = vld1q_u8(mac);
    p = vld1q_u8(in);
    kin = veorq_u8(k[0], p);
    for (size_t i = 0; i < n; i++) {
        uint8x16_t y = ctr_block(c), pn;
        c = vaddq_u64(c, lane1(1));
        CE_ROUNDS2(x, kin, y, k[0]);
        vst1q_u8(out + 16 * i, veorq_u8(y, veorq_u8(k[nr], p)));
        pn = i + 1 < n ? vld1q_u8(in + 16 * (i + 1)) : zero;
        kin = veorq_u8(kf, pn);
        p = pn;
    }
    vst1q_u8(mac, veorq_u8(x, k[nr]));
    vst1q_u8(ctr, ctr_block(c));
}

ENGINE_INLINE void ccm_dec_nr(const uint8_t *rk, const unsigned nr,
                              uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                              const uint8_t *in, size_t n)
{
    const uint8x16_t zero = vdupq_n_u8(0);
    const uint64x2_t c0 = ctr_lanes(ctr);
    uint8x16_t k[15], x = vld1q_u8(mac), y, kin, pn = zero, p0;
    uint64x2_t c = c0;

    UNROLL
    for (unsigned r = 0; r <= nr; r++)
        k[r] = vld1q_u8(rk + 16 * r);
    const uint8x16_t kf = veorq_u8(k[nr], k[0]);
    if (n == 1) {
        p0 = ctr_block(c);
        CE_ROUNDS1(p0, k[0]);
        p0 = veorq_u8(p0, veorq_u8(k[nr], vld1q_u8(in)));
    } else {
        /* the keystream of blocks 0 and 1 together: P_0, and P_1 ahead */
        p0 = ctr_block(c);
        y = ctr_block(vaddq_u64(c, lane1(1)));
        c = vaddq_u64(c, lane1(2));
        CE_ROUNDS2(p0, k[0], y, k[0]);
        p0 = veorq_u8(p0, veorq_u8(k[nr], vld1q_u8(in)));
        pn = veorq_u8(y, veorq_u8(k[nr], vld1q_u8(in + 16)));
    }
    vst1q_u8(out, p0);
    kin = veorq_u8(k[0], p0);
    /* x: the MAC chain before P_i's first round, kin that round's key;
     * pn = P_(i+1) */
    for (size_t i = 0; i + 1 < n; i++) {
        uint8x16_t cin = i + 2 < n ? vld1q_u8(in + 16 * (i + 2)) : zero;
        y = ctr_block(c);
        c = vaddq_u64(c, lane1(1));
        CE_ROUNDS2(x, kin, y, k[0]);
        vst1q_u8(out + 16 * (i + 1), pn);
        kin = veorq_u8(kf, pn);
        pn = veorq_u8(y, veorq_u8(k[nr], cin));
    }
    CE_ROUNDS1(x, kin);
    vst1q_u8(mac, veorq_u8(x, k[nr]));
    vst1q_u8(ctr, ctr_block(vaddq_u64(c0, lane1((uint64_t)n))));
}

/* The entry points: one kernel per key size (nr a constant). */
#define CCM_ENTRY(name, body)                                                  \
    ENGINE_TARGET void name(const void *rk, unsigned nr, uint8_t ctr[16],      \
                            uint8_t mac[16], uint8_t *out, const uint8_t *in,  \
                            size_t nblocks)                                    \
    {                                                                          \
        const uint8_t *k = ENGINE_RK(rk);                                      \
        if (nblocks == 0)                                                      \
            return;                                                            \
        if (nr == 10)                                                          \
            body(k, 10, ctr, mac, out, in, nblocks);                           \
        else if (nr == 12)                                                     \
            body(k, 12, ctr, mac, out, in, nblocks);                           \
        else                                                                   \
            body(k, 14, ctr, mac, out, in, nblocks);                           \
    }

CCM_ENTRY(aesir_armv8_ce_ccm_enc, ccm_enc_nr)
CCM_ENTRY(aesir_armv8_ce_ccm_dec, ccm_dec_nr)

#endif
