/*
 * cmac.h -- the layouts behind aesir_cmac_key and aesir_cmac (cmac.c),
 * and the CMAC pieces AES-SIV (siv.c) and XAES-256-GCM (xaes.c) build
 * on: the doubling in GF(2^128) (one dbl() in the library), the subkeys,
 * the CBC-MAC chain on the engine's fastest single-chain path, and a
 * CMAC over a message in two pieces.
 */
#ifndef AESIR_CMAC_H
#define AESIR_CMAC_H

#include "modes.h"

#define CMAC_KEY_MAGIC 0x636d616bu /* "cmak" */
#define CMAC_MAGIC 0x636d6163u     /* "cmac" */

/* The layout behind aesir_cmac_key: the AES key (encryption direction),
 * then the subkeys K1 = dbl(L), K2 = dbl(K1), L = E_K(0^128). */
struct cmac_key_state {
    aesir_aes aes;
    uint8_t k1[16];
    uint8_t k2[16];
    uint32_t magic;
    unsigned char pad[AESIR_CMAC_KEY_BYTES - sizeof(aesir_aes) - 36];
};
_Static_assert(sizeof(struct cmac_key_state) == sizeof(aesir_cmac_key),
               "aesir_cmac_key: AESIR_CMAC_KEY_BYTES");

/* The layout behind aesir_cmac: the chaining value x and up to 16 bytes
 * of input held back in buf (the last block is masked at the end). */
struct cmac_state {
    const struct cmac_key_state *key;
    uint32_t magic;
    uint32_t n; /* bytes in buf, 0..16 */
    uint8_t x[16];
    uint8_t buf[16];
};
_Static_assert(sizeof(struct cmac_state) <= sizeof(aesir_cmac),
               "aesir_cmac too small");

/* The AES key state of a CMAC key. */
static inline const struct aesir_key_state *
aesir_cmac_aes(const struct cmac_key_state *k)
{
    return (const struct aesir_key_state *)(const void *)k->aes.opaque;
}

/* The checked key state behind key, or NULL when it is not set up. */
const struct cmac_key_state *aesir_cmac_key_state(const aesir_cmac_key *key);

/* out = in * x in GF(2^128) with the polynomial x^128 + x^7 + x^2 + x + 1,
 * on the big-endian bit string of SP 800-38B 6.1 and RFC 5297 2.3 (the
 * "dbl" of both), without a branch on the secret top bit. */
void aesir_dbl(uint8_t out[16], const uint8_t in[16]);

/* K1 and K2 of the key ks (SP 800-38B 6.1): L = E_K(0), K1 = dbl(L),
 * K2 = dbl(K1). L is wiped. */
void aesir_cmac_subkeys(const struct aesir_key_state *ks, uint8_t k1[16],
                        uint8_t k2[16]);

/* The CBC-MAC chain on nblocks whole blocks of in: x = E(x ^ block),
 * block after block, on the engine's one-lane cbc_mac_many path, its
 * cbc_enc, or the generic code. */
void aesir_cmac_chain(const struct aesir_key_state *ks, uint8_t x[16],
                      const uint8_t *in, size_t nblocks);

/* The full CMAC tag of the message a (alen bytes) followed by b (blen
 * bytes) under k; either may be empty (NULL with length 0). S2V uses
 * the two pieces for its "xorend". */
void aesir_cmac_two(const struct cmac_key_state *k, const uint8_t *a,
                    size_t alen, const uint8_t *b, size_t blen,
                    uint8_t tag[16]);

/* Sets up the CMAC key state st from an AES key (used by the SIV key). */
int aesir_cmac_setup(struct cmac_key_state *st, const uint8_t *k,
                     size_t key_len, const char *engine);

#endif /* AESIR_CMAC_H */
