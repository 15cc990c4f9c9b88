/*
 * x86_xts.h -- the fused XTS kernels of the x86 AES-instruction engines
 * (internal.h, aesir_xts_fn), declared for the engine files that put
 * them in their structs. The kernels themselves: aesni_xts.c,
 * vaes_avx2_xts.c, vaes_avx512_xts.c, all three on the width-generic
 * body of xts_core.h.
 */
#ifndef AESIR_X86_XTS_H
#define AESIR_X86_XTS_H

#include "internal.h"

void aesir_aesni_xts_enc(const void *rk, unsigned nr, uint8_t tweak[16],
                         uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_aesni_xts_dec(const void *rk, unsigned nr, uint8_t tweak[16],
                         uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_aesni_xts_enc_avx(const void *rk, unsigned nr, uint8_t tweak[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_aesni_xts_dec_avx(const void *rk, unsigned nr, uint8_t tweak[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_vaes_avx2_xts_enc(const void *rk, unsigned nr, uint8_t tweak[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_vaes_avx2_xts_dec(const void *rk, unsigned nr, uint8_t tweak[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_vaes_avx512_xts_enc(const void *rk, unsigned nr, uint8_t tweak[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_vaes_avx512_xts_dec(const void *rk, unsigned nr, uint8_t tweak[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks);

#endif /* AESIR_X86_XTS_H */
