/*
 * xts_kernels.h -- the fused XTS kernels (aesir_xts_fn, internal.h) of the
 * non-x86 AES-instruction engines, in files beside their engines:
 *
 *   armv8_ce_xts.c  armv8-ce (AArch64 AESE/AESD, 8 blocks in flight)
 *   pwr8_xts.c      pwr8 (POWER8 vcipher/vncipher, 8 blocks in flight)
 *
 * AESIR_ARMV8_CE_XTS says whether the build has it: little-endian AArch64
 * with the AES intrinsics usable per function (the conditions of
 * gcm_kernels.h), where the engine file puts it in its struct.
 */
#ifndef AESIR_XTS_KERNELS_H
#define AESIR_XTS_KERNELS_H

#include "internal.h"

#if defined(__aarch64__) && defined(__ARM_NEON) &&                             \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                               \
    (!defined(__clang__) || __clang_major__ >= 16 ||                           \
     defined(__ARM_FEATURE_AES))
#define AESIR_ARMV8_CE_XTS 1
void aesir_armv8_ce_xts_enc(const void *rk, unsigned nr, uint8_t tweak[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_armv8_ce_xts_dec(const void *rk, unsigned nr, uint8_t tweak[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks);
#endif

/* AESIR_PWR8_XTS: where pwr8.c builds its engine (gcc 8 or later, or
 * clang compiling for POWER8; ocb_kernels.h's condition). */
#if defined(__powerpc64__) &&                                                  \
    ((defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8) ||            \
     (defined(__clang__) && defined(__CRYPTO__) &&                             \
      defined(__POWER8_VECTOR__)))
#define AESIR_PWR8_XTS 1
void aesir_pwr8_xts_enc(const void *rk, unsigned nr, uint8_t tweak[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_pwr8_xts_dec(const void *rk, unsigned nr, uint8_t tweak[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks);
#endif

#endif /* AESIR_XTS_KERNELS_H */
