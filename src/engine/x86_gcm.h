/*
 * x86_gcm.h -- the fused GCM kernels (aesir_gcm_fn, aesir_gcm_short_fn;
 * internal.h) of the x86 engines, each in a file beside its engine:
 *
 *   aesni_gcm.c              aesni on xmm, partner ghash-clmul
 *   vaes_avx2_gcm.c          vaes-avx2 on ymm, partner ghash-vpclmul-avx2
 *   vaes_avx512_gcm.c,       vaes-avx512 on zmm, partner
 *   vaes_avx512_gcm_msg.c,   ghash-vpclmul-avx512 (bulk; whole messages;
 *   vaes_avx512_gcm_short.c  short whole messages)
 *
 * The engine files put them in their struct aesir_engine with the
 * partner's name; gcm.c calls them only with that GHASH engine's key.
 */
#ifndef AESIR_X86_GCM_H
#define AESIR_X86_GCM_H

#include "internal.h"

/* ghash-vpclmul-avx512's GHASH key area (ghash_vpclmul_avx512.c), which
 * the vaes-avx512 kernels read: the 32 powers K_32 .. K_1 (K_j = H^j x^-1,
 * reflected; ghash_x86.h) at hk + 0 and, from this offset on, the
 * Karatsuba half of each, K_lo ^ K_hi in both 64-bit halves, in the same
 * order: hk + GX_VP512_HALVES + off holds the halves of the powers at
 * hk + off. Written by the GHASH key setup (not POLYVAL's). */
#define GX_VP512_HALVES 512

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

size_t aesir_vaes_avx512_gcm_enc(const void *rk, unsigned nr, const void *hk,
                                 uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                                 const uint8_t *in, size_t len);
size_t aesir_vaes_avx512_gcm_dec(const void *rk, unsigned nr, const void *hk,
                                 uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                                 const uint8_t *in, size_t len);
/* The whole-message path for short messages (aesir_gcm_short_fn),
 * vaes_avx512_gcm_short.c. */
int aesir_vaes_avx512_gcm_short(const void *rk, unsigned nr, const void *hk,
                                const struct aesir_gcm_msg *m);
/* The same for every length (vaes_avx512_gcm_msg.c): the short path hands
 * it what is past its reach. */
int aesir_vaes_avx512_gcm_msg(const void *rk, unsigned nr, const void *hk,
                              const uint8_t iv[12], const uint8_t *aad,
                              size_t aad_len, uint8_t *out, const uint8_t *in,
                              size_t len, uint8_t tag[16], int decrypt);

#endif /* AESIR_X86_GCM_H */
