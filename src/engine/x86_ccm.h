/*
 * x86_ccm.h -- the fused CCM kernels of the x86 engines (aesir_ccm_fn,
 * internal.h), aesni_ccm.c: CTR and the CBC-MAC chain on xmm, two blocks
 * per round. aesni takes the SSE or the VEX copy; vaes-avx2 and
 * vaes-avx512 the VEX copy (same encryption schedule layout).
 */
#ifndef AESIR_X86_CCM_H
#define AESIR_X86_CCM_H

#include "internal.h"

void aesir_aesni_ccm_enc(const void *rk, unsigned nr, uint8_t ctr[16],
                         uint8_t mac[16], uint8_t *out, const uint8_t *in,
                         size_t nblocks);
void aesir_aesni_ccm_dec(const void *rk, unsigned nr, uint8_t ctr[16],
                         uint8_t mac[16], uint8_t *out, const uint8_t *in,
                         size_t nblocks);
/* The same, VEX-encoded (CPUs with AVX). */
void aesir_aesni_ccm_enc_avx(const void *rk, unsigned nr, uint8_t ctr[16],
                             uint8_t mac[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks);
void aesir_aesni_ccm_dec_avx(const void *rk, unsigned nr, uint8_t ctr[16],
                             uint8_t mac[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks);

#endif /* AESIR_X86_CCM_H */
