/*
 * armv8_ce_ocb.c -- the OCB3 kernels of armv8-ce (ocb_enc, ocb_dec;
 * internal.h, aesir_ocb_fn) on aarch64: 8 blocks per batch through
 * AESE+AESMC (AESD+AESIMC), the width of armv8-ce's bulk ECB.
 *
 * Offsets as in x86_ocb_core.h: for a batch starting at a multiple of 8,
 * Offset_(i0 + j) = base xor P_j (the key's running sums, found after its
 * L table), the last block's with L_(ntz(i0 + 8)) in place of P_8's
 * L_3, so the 8 offsets of a batch are independent XORs. The offset
 * after the cipher merges with the last round key (armv8_ce.c: a plain
 * EOR with K(nr), here with K(nr) xor Offset). Blocks before the first
 * multiple of 8 and after the last batch go one at a time, their offsets
 * in sequence.
 *
 * Round keys: armv8-ce's schedules (armv8_ce.c): rk_enc K0 .. K(nr),
 * rk_dec K(nr), imc(K(nr-1)) .. imc(K1), K0, each round r at rk + 16 r.
 *
 * CPU: AES (the armv8-ce accessor checks it). Written under qemu, no
 * speed claims. Constant time: branches and the table index depend on
 * the block count and index only (public); the AES instructions as
 * armv8_ce.c says. Secrets stay in the 32 vector registers (8 blocks, 8
 * offsets and a few keys); the entry point still wipes the stack its body
 * used, as the x86 kernels do, in case a compiler spills.
 */
#include "internal.h"
#include "ocb_kernels.h"

#if defined(__aarch64__)

#include <arm_neon.h>

#if defined(__clang__)
#define ENGINE_ISA "aes"
#if __clang_major__ < 16 && !defined(__ARM_FEATURE_AES)
#define CE_BUILTINS 1
#endif
#else
#define ENGINE_ISA "+crypto"
#endif
#include "engine.h"

#ifdef CE_BUILTINS
ENGINE_INLINE uint8x16_t ocb_aese(uint8x16_t x, uint8x16_t k)
{
    return (uint8x16_t)__builtin_neon_vaeseq_v((int8x16_t)x, (int8x16_t)k, 48);
}
ENGINE_INLINE uint8x16_t ocb_aesd(uint8x16_t x, uint8x16_t k)
{
    return (uint8x16_t)__builtin_neon_vaesdq_v((int8x16_t)x, (int8x16_t)k, 48);
}
ENGINE_INLINE uint8x16_t ocb_aesmc(uint8x16_t x)
{
    return (uint8x16_t)__builtin_neon_vaesmcq_v((int8x16_t)x, 48);
}
ENGINE_INLINE uint8x16_t ocb_aesimc(uint8x16_t x)
{
    return (uint8x16_t)__builtin_neon_vaesimcq_v((int8x16_t)x, 48);
}
#else
ENGINE_INLINE uint8x16_t ocb_aese(uint8x16_t x, uint8x16_t k)
{
    return vaeseq_u8(x, k);
}
ENGINE_INLINE uint8x16_t ocb_aesd(uint8x16_t x, uint8x16_t k)
{
    return vaesdq_u8(x, k);
}
ENGINE_INLINE uint8x16_t ocb_aesmc(uint8x16_t x)
{
    return vaesmcq_u8(x);
}
ENGINE_INLINE uint8x16_t ocb_aesimc(uint8x16_t x)
{
    return vaesimcq_u8(x);
}
#endif

#if defined(__clang__)
#define OCB_UNROLL
#else
#define OCB_UNROLL _Pragma("GCC unroll 16")
#endif

#define OCB_W 8 /* blocks per batch */

ENGINE_INLINE uint8x16_t ld(const uint8_t *p)
{
    return vld1q_u8(p);
}

ENGINE_INLINE uint8x16_t key(const uint8_t *rk, unsigned r)
{
    return vld1q_u8(rk + 16 * r);
}

/* One round-key sequence on n blocks (n constant once inlined): x ^=
 * Offset is already done; the last round's key is K(nr) xor o[j]. */
ENGINE_INLINE void ocb_rounds(uint8x16_t *x, const uint8x16_t *o, unsigned n,
                              const uint8_t *rk, unsigned nr, const int dec)
{
    for (unsigned r = 0; r + 1 < nr; r++) {
        uint8x16_t k = key(rk, r);
        OCB_UNROLL
        for (unsigned j = 0; j < n; j++)
            x[j] = dec ? ocb_aesimc(ocb_aesd(x[j], k))
                       : ocb_aesmc(ocb_aese(x[j], k));
    }
    {
        uint8x16_t kp = key(rk, nr - 1), kl = key(rk, nr);
        OCB_UNROLL
        for (unsigned j = 0; j < n; j++)
            x[j] = veorq_u8(dec ? ocb_aesd(x[j], kp) : ocb_aese(x[j], kp),
                            veorq_u8(kl, o[j]));
    }
}

/* One block with the next offset. */
ENGINE_INLINE void ocb_one(const uint8_t *rk, unsigned nr, const uint8_t *l,
                           uint64_t *index, uint8x16_t *off, uint8x16_t *sum,
                           uint8_t *out, const uint8_t *in, const int dec)
{
    uint8x16_t x, p = ld(in);
    *off = veorq_u8(*off, ld(l + 16 * __builtin_ctzll(++*index)));
    x = veorq_u8(p, *off);
    ocb_rounds(&x, off, 1, rk, nr, dec);
    vst1q_u8(out, x);
    *sum = veorq_u8(*sum, dec ? x : p);
}

ENGINE_INLINE size_t ocb_run(const void *rkp, unsigned nr, const uint8_t *l,
                             uint64_t index, uint8_t offset[16],
                             uint8_t checksum[16], uint8_t *out,
                             const uint8_t *in, size_t n, const int dec)
{
    const uint8_t *rk = ENGINE_RK(rkp);
    const uint8_t *pt = l + 16 * 36; /* P_1 .. P_8 */
    uint8x16_t off = ld(offset), sum = ld(checksum);
    size_t done = n;

    for (; n > 0 && index % OCB_W != 0; n--, in += 16, out += 16)
        ocb_one(rk, nr, l, &index, &off, &sum, out, in, dec);
    for (; n >= OCB_W; n -= OCB_W, in += 16 * OCB_W, out += 16 * OCB_W) {
        uint8x16_t x[OCB_W], o[OCB_W];
        index += OCB_W;
        OCB_UNROLL
        for (unsigned j = 0; j + 1 < OCB_W; j++)
            o[j] = veorq_u8(off, ld(pt + 16 * j));
        o[OCB_W - 1] = veorq_u8(
            veorq_u8(off, ld(pt + 16 * (OCB_W - 1))),
            veorq_u8(ld(l + 16 * 3), ld(l + 16 * __builtin_ctzll(index))));
        off = o[OCB_W - 1];
        OCB_UNROLL
        for (unsigned j = 0; j < OCB_W; j++) {
            uint8x16_t p = ld(in + 16 * j);
            if (!dec)
                sum = veorq_u8(sum, p);
            x[j] = veorq_u8(p, o[j]);
        }
        ocb_rounds(x, o, OCB_W, rk, nr, dec);
        OCB_UNROLL
        for (unsigned j = 0; j < OCB_W; j++) {
            vst1q_u8(out + 16 * j, x[j]);
            if (dec)
                sum = veorq_u8(sum, x[j]);
        }
    }
    for (; n > 0; n--, in += 16, out += 16)
        ocb_one(rk, nr, l, &index, &off, &sum, out, in, dec);
    vst1q_u8(offset, off);
    vst1q_u8(checksum, sum);
    return done;
}

__attribute__((noinline)) ENGINE_FN size_t
armv8_ce_ocb_enc_body(const void *rk, unsigned nr, const uint8_t *l,
                      uint64_t index, uint8_t offset[16], uint8_t checksum[16],
                      uint8_t *out, const uint8_t *in, size_t n)
{
    return ocb_run(rk, nr, l, index, offset, checksum, out, in, n, 0);
}

__attribute__((noinline)) ENGINE_FN size_t
armv8_ce_ocb_dec_body(const void *rk, unsigned nr, const uint8_t *l,
                      uint64_t index, uint8_t offset[16], uint8_t checksum[16],
                      uint8_t *out, const uint8_t *in, size_t n)
{
    return ocb_run(rk, nr, l, index, offset, checksum, out, in, n, 1);
}

size_t aesir_armv8_ce_ocb_enc(const void *rk, unsigned nr, const uint8_t *l,
                              uint64_t index, uint8_t offset[16],
                              uint8_t checksum[16], uint8_t *out,
                              const uint8_t *in, size_t n)
{
    size_t done =
        armv8_ce_ocb_enc_body(rk, nr, l, index, offset, checksum, out, in, n);
    aesir_wipe_stack(512);
    return done;
}

size_t aesir_armv8_ce_ocb_dec(const void *rk, unsigned nr, const uint8_t *l,
                              uint64_t index, uint8_t offset[16],
                              uint8_t checksum[16], uint8_t *out,
                              const uint8_t *in, size_t n)
{
    size_t done =
        armv8_ce_ocb_dec_body(rk, nr, l, index, offset, checksum, out, in, n);
    aesir_wipe_stack(512);
    return done;
}

#endif /* __aarch64__ */
