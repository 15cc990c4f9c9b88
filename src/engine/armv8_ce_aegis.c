/*
 * armv8_ce_aegis.c -- armv8-ce's AEGIS (internal.h: aes_round, aegis,
 * aegis_update): the whole-message kernels of aegis_kernel.h on NEON
 * registers for AEGIS-128L and AEGIS-256, the X2 and X4 variants on rows
 * of 2 and 4 registers (aegis_wide.h: X4's 32 rows do not fit in NEON's
 * 32 registers, the compiler spills and the stack is wiped after), the
 * same kernels' blocks on a state in memory for the incremental API, and
 * a single AES round for the generic path.
 *
 * AESRound(x, k) is AESMC(AESE(x, 0)) ^ k: AESE adds its key before
 * SubBytes and ShiftRows (so a zero key there) and AESMC is MixColumns;
 * the round key goes in after, with one EOR (cores that fuse AESE+AESMC
 * pairs run the two as one operation).
 *
 * Built when the build has armv8-ce's fused GCM kernels (gcm_kernels.h:
 * AArch64, little-endian, a compiler with the AES intrinsics). Constant
 * time: yes (AES instructions, bit operations; branches on lengths
 * only). Tested under qemu-aarch64 (make cross-test).
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
#include "aegis.h"
#include "aegis_wide.h"
#include "stack_wipe.h"

#define AK_V uint8x16_t
#define AK_D 1
#define AK_LOAD(p) vld1q_u8((const uint8_t *)(const void *)(p))
#define AK_STORE(p, v) vst1q_u8((uint8_t *)(void *)(p), (v))
#define AK_XOR veorq_u8
#define AK_AND vandq_u8
#define AK_ENC(x, k) veorq_u8(vaesmcq_u8(vaeseq_u8((x), vdupq_n_u8(0))), (k))
#define AK_BCAST(p) AK_LOAD(p)
#define AK_LENS(a, m)                                                          \
    vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(a), vcreate_u64(m)))
#define AK_NAME(x) armv8_ce_aegis1_##x
#include "aegis_kernel.h"

/* The X variants: a row of D NEON registers (aegis_wide.h). */
ENGINE_INLINE uint8x16_t ce_load(const uint8_t *p)
{
    return vld1q_u8(p);
}

ENGINE_INLINE void ce_store(uint8_t *p, uint8x16_t v)
{
    vst1q_u8(p, v);
}

ENGINE_INLINE uint8x16_t ce_enc(uint8x16_t x, uint8x16_t k)
{
    return veorq_u8(vaesmcq_u8(vaeseq_u8(x, vdupq_n_u8(0))), k);
}

AEGIS_WIDE(cex2, 2, uint8x16_t, ce_load, ce_store, veorq_u8, vandq_u8, ce_enc)
AEGIS_WIDE(cex4, 4, uint8x16_t, ce_load, ce_store, veorq_u8, vandq_u8, ce_enc)

#define AK_V cex2
#define AK_D 2
#define AK_LOAD(p) cex2_load(p)
#define AK_STORE(p, v) cex2_store((p), (v))
#define AK_XOR cex2_xor
#define AK_AND cex2_and
#define AK_ENC cex2_enc
#define AK_BCAST(p) cex2_bcast(p)
#define AK_NAME(x) armv8_ce_aegis2_##x
#include "aegis_kernel.h"

#define AK_V cex4
#define AK_D 4
#define AK_LOAD(p) cex4_load(p)
#define AK_STORE(p, v) cex4_store((p), (v))
#define AK_XOR cex4_xor
#define AK_AND cex4_and
#define AK_ENC cex4_enc
#define AK_BCAST(p) cex4_bcast(p)
#define AK_NAME(x) armv8_ce_aegis4_##x
#include "aegis_kernel.h"

/* aesir_armv8_ce_aegis and aesir_armv8_ce_aegis_update (aegis_wide.h),
 * with the stack each kernel's frame may use (spills, the padded block,
 * the tag's lanes), with margin. The update kernels' frames are smaller
 * (aarch64 gcc 12 -O3 -fstack-usage: lu 0 / 80 / 480 bytes for 1 / 2 / 4
 * registers per row against l 336 / 688 / 1168; bu 0 / 48 / 176 against
 * b 272 / 528 / 896), so the same bounds cover them. */
#define CE_AEGIS_CASES(X)                                                      \
    X(AESIR_AEGIS_128L, armv8_ce_aegis1_l, 448)                                \
    X(AESIR_AEGIS_256, armv8_ce_aegis1_b, 448)                                 \
    X(AESIR_AEGIS_128X2, armv8_ce_aegis2_l, 1024)                              \
    X(AESIR_AEGIS_256X2, armv8_ce_aegis2_b, 1024)                              \
    X(AESIR_AEGIS_128X4, armv8_ce_aegis4_l, 2048)                              \
    X(AESIR_AEGIS_256X4, armv8_ce_aegis4_b, 2048)
AEGIS_WIDE_ENTRIES(aesir_armv8_ce_aegis, aesir_armv8_ce_aegis_update,
                   CE_AEGIS_CASES)

STACK_WIPE_BODY ENGINE_FN void
armv8_ce_aes_round_body(uint8_t *state, const uint8_t *rk, size_t n)
{
    const uint8x16_t z = vdupq_n_u8(0);
    for (size_t i = 0; i < n; i++)
        vst1q_u8(state + 16 * i,
                 veorq_u8(vaesmcq_u8(vaeseq_u8(vld1q_u8(state + 16 * i), z)),
                          vld1q_u8(rk + 16 * i)));
}

void aesir_armv8_ce_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
void aesir_armv8_ce_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    armv8_ce_aes_round_body(state, rk, n);
    aesir_wipe_stack(256);
}

#endif /* AESIR_ARMV8_CE_GCM */
