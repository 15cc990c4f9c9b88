/*
 * ocb_kernels.h -- the OCB3 kernels (aesir_ocb_fn, internal.h) of the
 * engines that have them, one file each beside its engine; the x86 ones
 * from the template x86_ocb_core.h:
 *
 *   aesni_ocb.c        aesni on xmm, 8 blocks per batch (SSE; VEX in
 *                      aesni_ocb_avx.c)
 *   vaes_avx2_ocb.c    vaes-avx2 on ymm, 16 blocks per batch
 *   vaes_avx512_ocb.c  vaes-avx512 on zmm, 32 blocks per batch
 *   armv8_ce_ocb.c     armv8-ce on NEON, 8 blocks per batch (aarch64)
 *   pwr8_ocb.c         pwr8, 8 blocks per batch (ppc64)
 */
#ifndef AESIR_OCB_KERNELS_H
#define AESIR_OCB_KERNELS_H

#include "internal.h"
#include "ocb.h" /* OCB_WHOLE_CHECK */

#define OCB_KERNEL_DECL(name)                                                  \
    size_t name(const void *rk, unsigned nr, const uint8_t *l, uint64_t index, \
                uint8_t offset[16], uint8_t checksum[16], uint8_t *out,        \
                const uint8_t *in, size_t nblocks);

OCB_KERNEL_DECL(aesir_aesni_ocb_enc)
OCB_KERNEL_DECL(aesir_aesni_ocb_dec)
OCB_KERNEL_DECL(aesir_aesni_ocb_enc_avx)
OCB_KERNEL_DECL(aesir_aesni_ocb_dec_avx)
OCB_KERNEL_DECL(aesir_vaes_avx2_ocb_enc)
OCB_KERNEL_DECL(aesir_vaes_avx2_ocb_dec)
OCB_KERNEL_DECL(aesir_vaes_avx512_ocb_enc)
OCB_KERNEL_DECL(aesir_vaes_avx512_ocb_dec)
OCB_KERNEL_DECL(aesir_armv8_ce_ocb_enc)

/* Whole one-shot messages (aesir_ocb_whole_fn; x86_ocb_core.h). */
#define OCB_WHOLE_DECL(name)                                                   \
    void name(const void *rk_enc, const void *rk_dec, unsigned nr,             \
              const uint8_t *l, uint64_t nonce_hi, uint64_t nonce_lo,          \
              unsigned bottom, const uint8_t sum[16], uint8_t *out,            \
              const uint8_t *in, size_t len, uint8_t tag[16], int decrypt);
OCB_WHOLE_DECL(aesir_vaes_avx2_ocb_whole)
OCB_WHOLE_DECL(aesir_vaes_avx512_ocb_whole)
OCB_KERNEL_DECL(aesir_armv8_ce_ocb_dec)

/* pwr8_ocb.c: built where pwr8.c builds its engine (gcc 8 or later, or
 * clang compiling for POWER8). */
#if defined(__powerpc64__) &&                                                  \
    ((defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8) ||            \
     (defined(__clang__) && defined(__CRYPTO__) &&                             \
      defined(__POWER8_VECTOR__)))
#define AESIR_PWR8_OCB 1
OCB_KERNEL_DECL(aesir_pwr8_ocb_enc)
OCB_KERNEL_DECL(aesir_pwr8_ocb_dec)
#endif

#endif /* AESIR_OCB_KERNELS_H */
