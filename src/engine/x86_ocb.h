/*
 * x86_ocb.h -- the OCB3 kernels (aesir_ocb_fn, internal.h) of the x86
 * engines, one file each beside its engine, all from the template
 * x86_ocb_core.h:
 *
 *   aesni_ocb.c        aesni on xmm, 8 blocks per batch (SSE and VEX)
 *   vaes_avx2_ocb.c    vaes-avx2 on ymm, 16 blocks per batch
 *   vaes_avx512_ocb.c  vaes-avx512 on zmm, 32 blocks per batch
 */
#ifndef AESIR_X86_OCB_H
#define AESIR_X86_OCB_H

#include "internal.h"

#define X86_OCB_DECL(name)                                                     \
    size_t name(const void *rk, unsigned nr, const uint8_t *l, uint64_t index, \
                uint8_t offset[16], uint8_t checksum[16], uint8_t *out,        \
                const uint8_t *in, size_t nblocks);

X86_OCB_DECL(aesir_aesni_ocb_enc)
X86_OCB_DECL(aesir_aesni_ocb_dec)
X86_OCB_DECL(aesir_aesni_ocb_enc_avx)
X86_OCB_DECL(aesir_aesni_ocb_dec_avx)
X86_OCB_DECL(aesir_vaes_avx2_ocb_enc)
X86_OCB_DECL(aesir_vaes_avx2_ocb_dec)
X86_OCB_DECL(aesir_vaes_avx512_ocb_enc)
X86_OCB_DECL(aesir_vaes_avx512_ocb_dec)

#endif /* AESIR_X86_OCB_H */
