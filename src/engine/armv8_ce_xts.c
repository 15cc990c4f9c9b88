/*
 * armv8_ce_xts.c -- the fused XTS kernels of armv8-ce (xts_enc, xts_dec;
 * internal.h, aesir_xts_fn): IEEE 1619-2018 5.3.1 on whole blocks, 8
 * blocks in flight through AESE+AESMC (AESD+AESIMC), as armv8-ce's ECB.
 *
 * Tweaks. Register j of a group holds T_(i+j), j = 0..7; after a group
 * each is multiplied by x^8 on its own: the 16 bytes (a little-endian
 * 128-bit integer) move up one byte (EXT against zero) and the byte
 * shifted out, d, comes back into the low 64 bits as d * 0x87 = d ^ d<<1
 * ^ d<<2 ^ d<<7 (at most 15 bits: no further reduction). So no tweak
 * waits for the one before it, and the group's 8 tweak steps are
 * independent of each other and of the rounds. The first group's
 * tweaks are T, T x, ..., T x^7, each by one doubling of the one before
 * (64-bit shifts; the carries moved across with a lane swap and a mask:
 * no branch). (The byte step is the "shifts with the 0x87 reduction" of
 * xts_core.h, the x86 kernels' body.)
 *
 * Whitening: AESE XORs its key first, so P ^ T is the input and K0 the
 * first AESE's key; the last round's EOR takes K(nr) and then T (two
 * EORs; EOR3 needs the SHA3 extension). Decryption: the same with AESD
 * on armv8-ce's decryption schedule.
 *
 * CPU: the engine's own (the Crypto Extensions' AES). Constant time: yes
 * (AES instructions, shifts, EXT with constant positions; branches on nr
 * and the block count only). Whatever the compiler spills is wiped from
 * the stack before the entry points return. Tested under qemu-aarch64;
 * no speed figures (no aarch64 hardware here). Batch: 8 blocks.
 */
#include "internal.h"
#include "xts_kernels.h"

#ifdef AESIR_ARMV8_CE_XTS

#include <arm_neon.h>

#if defined(__clang__)
#define ENGINE_ISA "aes"
#else
#define ENGINE_ISA "+crypto"
#endif
#include "engine.h"
#include "stack_wipe.h"

#define WIDE 8
#if defined(__clang__)
#define LANES
#else
#define LANES _Pragma("GCC unroll 16")
#endif

ENGINE_INLINE uint8x16_t rkey(const uint8_t *rk, unsigned r)
{
    return vld1q_u8(rk + 16 * r);
}

/* t * x (IEEE 1619 5.2). */
ENGINE_INLINE uint8x16_t mul_x(uint8x16_t t)
{
    static const uint64_t red[2] = {0x87, 1};
    uint64x2_t v = vreinterpretq_u64_u8(t);
    uint64x2_t top =
        vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u8(t), 63));
    /* lane 0 takes 0x87 when the high half's top bit was set, lane 1 the
     * low half's top bit */
    uint64x2_t c = vandq_u64(vextq_u64(top, top, 1), vld1q_u64(red));
    return vreinterpretq_u8_u64(veorq_u64(vshlq_n_u64(v, 1), c));
}

/* t * x^8: one byte up, the byte shifted out folded back by 0x87. */
ENGINE_INLINE uint8x16_t mul_x8(uint8x16_t t)
{
    const uint8x16_t z = vdupq_n_u8(0);
    uint64x2_t d = vreinterpretq_u64_u8(vextq_u8(t, z, 15)); /* t15, 0.. */
    uint64x2_t f = veorq_u64(veorq_u64(d, vshlq_n_u64(d, 1)),
                             veorq_u64(vshlq_n_u64(d, 2), vshlq_n_u64(d, 7)));
    return veorq_u8(vextq_u8(z, t, 15), vreinterpretq_u8_u64(f));
}

#define ROUND(r)                                                               \
    do {                                                                       \
        const uint8x16_t k_ = rkey(rk, (r));                                   \
        LANES                                                                  \
        for (unsigned j_ = 0; j_ < n; j_++)                                    \
            b[j_] = dec ? vaesimcq_u8(vaesdq_u8(b[j_], k_))                    \
                        : vaesmcq_u8(vaeseq_u8(b[j_], k_));                    \
    } while (0)

/* n blocks (n <= 8, a constant where inlined) with tweaks tw[0..n-1]. */
ENGINE_INLINE void group(const uint8_t *rk, unsigned nr, int dec,
                         const uint8x16_t *tw, uint8_t *out, const uint8_t *in,
                         unsigned n)
{
    uint8x16_t b[WIDE];
    LANES
    for (unsigned j = 0; j < n; j++)
        b[j] = veorq_u8(vld1q_u8(in + 16 * j), tw[j]);
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
    for (unsigned j = 0; j < n; j++) {
        uint8x16_t x = dec ? vaesdq_u8(b[j], kp) : vaeseq_u8(b[j], kp);
        vst1q_u8(out + 16 * j, veorq_u8(veorq_u8(x, kl), tw[j]));
    }
}

ENGINE_FN STACK_WIPE_BODY void xts_body(const void *rk_, unsigned nr,
                                        uint8_t tweak[16], uint8_t *out,
                                        const uint8_t *in, size_t n, int dec)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    uint8x16_t tw[WIDE];

    tw[0] = vld1q_u8(tweak);
    LANES
    for (unsigned j = 1; j < WIDE; j++)
        tw[j] = mul_x(tw[j - 1]);
    for (; n >= WIDE; n -= WIDE, in += 16 * WIDE, out += 16 * WIDE) {
        group(rk, nr, dec, tw, out, in, WIDE);
        LANES
        for (unsigned j = 0; j < WIDE; j++)
            tw[j] = mul_x8(tw[j]);
    }
    /* the tail's n blocks; the next tweak is tw[n] (tw[0] when none) */
#define XTS_TAIL(k)                                                            \
    do {                                                                       \
        group(rk, nr, dec, tw, out, in, (k));                                  \
        vst1q_u8(tweak, tw[(k)]);                                              \
    } while (0)
    if (n == 0)
        vst1q_u8(tweak, tw[0]);
    ENGINE_TAIL7(XTS_TAIL, n)
#undef XTS_TAIL
}

/* Bound: as for armv8-ce's GCM kernels (stack_wipe.h's rule). */
#define XTS_WIPE 512

void aesir_armv8_ce_xts_enc(const void *rk, unsigned nr, uint8_t tweak[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    xts_body(rk, nr, tweak, out, in, nblocks, 0);
    aesir_wipe_stack(XTS_WIPE);
}

void aesir_armv8_ce_xts_dec(const void *rk, unsigned nr, uint8_t tweak[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    xts_body(rk, nr, tweak, out, in, nblocks, 1);
    aesir_wipe_stack(XTS_WIPE);
}

#endif /* AESIR_ARMV8_CE_XTS */
