/*
 * x86_gcm.h -- the fused GCM kernels (aesir_gcm_fn, internal.h) of the
 * x86 engines other than vaes-avx512 (whose are in vaes_gcm.h):
 *
 *   aesni_gcm.c       aesni on xmm, partner ghash-clmul
 *   vaes_avx2_gcm.c   vaes-avx2 on ymm, partner ghash-vpclmul-avx2
 *
 * The engine files put them in their struct aesir_engine with the
 * partner's name; gcm.c calls them only with that GHASH engine's key.
 */
#ifndef AESIR_X86_GCM_H
#define AESIR_X86_GCM_H

#include "internal.h"

size_t aesir_aesni_gcm_enc(const void *rk, unsigned nr, const void *hk,
                           uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                           const uint8_t *in, size_t len);
size_t aesir_aesni_gcm_dec(const void *rk, unsigned nr, const void *hk,
                           uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                           const uint8_t *in, size_t len);
/* The same, VEX-encoded (CPUs with AVX). */
size_t aesir_aesni_gcm_enc_avx(const void *rk, unsigned nr, const void *hk,
                               uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                               const uint8_t *in, size_t len);
size_t aesir_aesni_gcm_dec_avx(const void *rk, unsigned nr, const void *hk,
                               uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                               const uint8_t *in, size_t len);

size_t aesir_vaes_avx2_gcm_enc(const void *rk, unsigned nr, const void *hk,
                               uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                               const uint8_t *in, size_t len);
size_t aesir_vaes_avx2_gcm_dec(const void *rk, unsigned nr, const void *hk,
                               uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                               const uint8_t *in, size_t len);

#endif /* AESIR_X86_GCM_H */
