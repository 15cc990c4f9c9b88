/*
 * x86_gcmsiv.h -- the GCM-SIV CTR kernels (aesir_ctr32le_fn, internal.h)
 * of the x86 engines, each in a file beside its engine:
 *
 *   aesni_gcmsiv.c        aesni on xmm, 8 blocks per iteration (SSE and
 *                         VEX encodings, as the engine's two variants)
 *   vaes_avx2_gcmsiv.c    vaes-avx2 on ymm, 16 blocks per iteration
 *   vaes_avx512_gcmsiv.c  vaes-avx512 on zmm, 32 blocks per iteration
 *
 * GCM-SIV's counter (RFC 8452 section 4, step 10) is the 32-bit
 * little-endian integer in bytes 0..3 of the block, which on x86 is dword
 * 0 of the register as loaded: the counters of a vector are one vpaddd
 * away from the previous vector's, with no byte swap (GCM's big-endian
 * counter needs one per vector), and the add wraps modulo 2^32 without
 * a carry into bytes 4..15, exactly as the RFC asks.
 */
#ifndef AESIR_X86_GCMSIV_H
#define AESIR_X86_GCMSIV_H

#include "internal.h"

void aesir_aesni_ctr32le(const void *rk, unsigned nr, uint8_t ctr[16],
                         uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_aesni_ctr32le_avx(const void *rk, unsigned nr, uint8_t ctr[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_vaes_avx2_ctr32le(const void *rk, unsigned nr, uint8_t ctr[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_vaes_avx512_ctr32le(const void *rk, unsigned nr, uint8_t ctr[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks);

/* vaes-avx512's fused decryption (aesir_gcmsiv_dec_fn) for the key
 * layout of its partner ghash-vpclmul-avx512. It does whole batches of
 * 32 blocks (GCM_SIV_FUSED_BLOCKS, gcm_siv.c) and reads only K_4 .. K_1
 * of hk (its last 64 bytes, written by every POLYVAL set-up of that
 * engine): it makes the other powers itself, beside its first rounds. */
size_t aesir_vaes_avx512_gcmsiv_dec(const void *rk, unsigned nr, const void *hk,
                                    uint8_t ctr[16], uint8_t s[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t len);

/* vaes-avx512's per-nonce keys (aesir_gcmsiv_keys_fn) for the layout of
 * ghash-vpclmul-avx512. */
void aesir_vaes_avx512_gcmsiv_keys(const void *rk, unsigned nr,
                                   const uint8_t nonce[12], void *mrk, void *hk,
                                   uint8_t h[16], size_t max_blocks);
/* and its tag (aesir_gcmsiv_tag_fn) */
void aesir_vaes_avx512_gcmsiv_tag(const void *mrk, unsigned nr, const void *hk,
                                  const uint8_t s[16], const uint8_t nonce[12],
                                  uint64_t aad_bits, uint64_t data_bits,
                                  uint8_t tag[16]);

#endif /* AESIR_X86_GCMSIV_H */
