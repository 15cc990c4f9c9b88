/*
 * vaes_gcm.h -- the fused GCM kernels of the x86 AES engines (aesir_gcm_fn,
 * internal.h), each in a file of its own beside its engine:
 * vaes_avx512_gcm.c and vaes_avx512_gcm_short.c (partner
 * ghash-vpclmul-avx512). The engine files put
 * them in their struct aesir_engine with the partner's name.
 */
#ifndef AESIR_VAES_GCM_H
#define AESIR_VAES_GCM_H

#include "internal.h"

size_t aesir_vaes_avx512_gcm_enc(const void *rk, unsigned nr, const void *hk,
                                 uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                                 const uint8_t *in, size_t len);
size_t aesir_vaes_avx512_gcm_dec(const void *rk, unsigned nr, const void *hk,
                                 uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                                 const uint8_t *in, size_t len);
/* The whole-message path for short messages (aesir_gcm_short_fn),
 * vaes_avx512_gcm_short.c. */
int aesir_vaes_avx512_gcm_short(const void *rk, unsigned nr, const void *hk,
                                const uint8_t iv[12], const uint8_t *aad,
                                size_t aad_len, uint8_t *out, const uint8_t *in,
                                size_t len, uint8_t tag[16], int decrypt);
/* The same for every length (vaes_avx512_gcm.c): the short path hands
 * it what is past its reach. */
int aesir_vaes_avx512_gcm_msg(const void *rk, unsigned nr, const void *hk,
                              const uint8_t iv[12], const uint8_t *aad,
                              size_t aad_len, uint8_t *out, const uint8_t *in,
                              size_t len, uint8_t tag[16], int decrypt);

#endif /* AESIR_VAES_GCM_H */
