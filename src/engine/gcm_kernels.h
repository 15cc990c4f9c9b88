/*
 * gcm_kernels.h -- the fused GCM kernels (aesir_gcm_fn, internal.h) of the
 * non-x86 AES-instruction engines, each in a file beside its engine:
 *
 *   armv8_ce_gcm.c  armv8-ce with ghash-pmull     (AArch64 AESE + PMULL)
 *   pwr8_gcm.c      pwr8 with ghash-vpmsumd       (POWER8 vcipher + vpmsumd)
 *
 * AESIR_ARMV8_CE_GCM / AESIR_PWR8_GCM say whether a build has the kernels:
 * exactly when it has the partner GHASH engine (the conditions below are
 * those of ghash_pmull.c and ghash_vpmsumd.c), since a kernel reads that
 * engine's key layout. The engine files then put them in their struct
 * aesir_engine with the partner's name (.gcm_ghash).
 */
#ifndef AESIR_GCM_KERNELS_H
#define AESIR_GCM_KERNELS_H

#include "internal.h"

#if defined(__aarch64__) && defined(__ARM_NEON) &&                             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                               \
    (!defined(__clang__) || __clang_major__ >= 16 ||                           \
     defined(__ARM_FEATURE_AES))
#define AESIR_ARMV8_CE_GCM 1
size_t aesir_armv8_ce_gcm_enc(const void *rk, unsigned nr, const void *hk,
                              uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                              const uint8_t *in, size_t len);
size_t aesir_armv8_ce_gcm_dec(const void *rk, unsigned nr, const void *hk,
                              uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                              const uint8_t *in, size_t len);
#endif

#if defined(__powerpc64__) &&                                                  \
    ((defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8) ||            \
     (defined(__clang__) && defined(__CRYPTO__) &&                             \
      defined(__POWER8_VECTOR__)))
#define AESIR_PWR8_GCM 1
size_t aesir_pwr8_gcm_enc(const void *rk, unsigned nr, const void *hk,
                          uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                          const uint8_t *in, size_t len);
size_t aesir_pwr8_gcm_dec(const void *rk, unsigned nr, const void *hk,
                          uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                          const uint8_t *in, size_t len);
#endif

#endif /* AESIR_GCM_KERNELS_H */
