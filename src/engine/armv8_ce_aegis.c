/*
 * armv8_ce_aegis.c -- armv8-ce's AEGIS (internal.h: aes_round, aegis):
 * the whole-message kernels of aegis_kernel.h on NEON registers for
 * AEGIS-128L and AEGIS-256 (and their blocks on a state in memory for
 * the incremental API: aegis_update), and a single AES round for the generic
 * path of the X variants.
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

int aesir_armv8_ce_aegis(int variant, const uint8_t *key, const uint8_t *nonce,
                         const uint8_t *aad, size_t aad_len, uint8_t *out,
                         const uint8_t *in, size_t len, uint8_t *tag,
                         size_t tag_len, int decrypt);
int aesir_armv8_ce_aegis(int variant, const uint8_t *key, const uint8_t *nonce,
                         const uint8_t *aad, size_t aad_len, uint8_t *out,
                         const uint8_t *in, size_t len, uint8_t *tag,
                         size_t tag_len, int decrypt)
{
    if (variant == AESIR_AEGIS_128L)
        armv8_ce_aegis1_l(key, nonce, aad, aad_len, out, in, len, tag, tag_len,
                          decrypt);
    else if (variant == AESIR_AEGIS_256)
        armv8_ce_aegis1_b(key, nonce, aad, aad_len, out, in, len, tag, tag_len,
                          decrypt);
    else
        return -1;
    aesir_wipe_stack(448);
    return 0;
}

int aesir_armv8_ce_aegis_update(int variant, unsigned op, uint8_t *state,
                                uint8_t *out, const uint8_t *in,
                                size_t nblocks);
int aesir_armv8_ce_aegis_update(int variant, unsigned op, uint8_t *state,
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (variant != AESIR_AEGIS_128L && variant != AESIR_AEGIS_256)
        return -1;
    if (nblocks == 0) /* nothing to touch (aegis.c's question at init) */
        return 0;
    if (variant == AESIR_AEGIS_128L)
        armv8_ce_aegis1_lu(state, op, out, in, nblocks);
    else
        armv8_ce_aegis1_bu(state, op, out, in, nblocks);
    aesir_wipe_stack(448);
    return 0;
}

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
