/*
 * ccm_kernels.h -- the fused CCM kernels (aesir_ccm_fn, internal.h) of the
 * non-x86 AES-instruction engines, each in a file beside its engine:
 *
 *   armv8_ce_ccm.c  armv8-ce  (AArch64 AESE + AESMC)
 *   pwr8_ccm.c      pwr8      (POWER8 vcipher)
 *
 * AESIR_ARMV8_CE_CCM / AESIR_PWR8_CCM say whether a build has them (the
 * conditions under which the engines themselves are compiled with their
 * instructions); the engine files then put them in their struct
 * aesir_engine.
 */
#ifndef AESIR_CCM_KERNELS_H
#define AESIR_CCM_KERNELS_H

#include "internal.h"

#if defined(__aarch64__) && defined(__ARM_NEON) &&                             \
    (!defined(__clang__) || __clang_major__ >= 16 ||                           \
     defined(__ARM_FEATURE_AES))
#define AESIR_ARMV8_CE_CCM 1
void aesir_armv8_ce_ccm_enc(const void *rk, unsigned nr, uint8_t ctr[16],
                            uint8_t mac[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks);
void aesir_armv8_ce_ccm_dec(const void *rk, unsigned nr, uint8_t ctr[16],
                            uint8_t mac[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks);
#endif

#if defined(__powerpc64__) &&                                                  \
    ((defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8) ||            \
     (defined(__clang__) && defined(__CRYPTO__) &&                             \
      defined(__POWER8_VECTOR__)))
#define AESIR_PWR8_CCM 1
void aesir_pwr8_ccm_enc(const void *rk, unsigned nr, uint8_t ctr[16],
                        uint8_t mac[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks);
void aesir_pwr8_ccm_dec(const void *rk, unsigned nr, uint8_t ctr[16],
                        uint8_t mac[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks);
#endif

#endif /* AESIR_CCM_KERNELS_H */
