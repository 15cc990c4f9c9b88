/*
 * gcm.h -- the layouts behind aesir_gcm_key and aesir_gcm (gcm.c), for
 * gcm.c, the engines' fused GCM kernels, and white-box tests (length
 * limits are tested by setting the counted lengths, not by hashing 64 GiB).
 */
#ifndef AESIR_GCM_H
#define AESIR_GCM_H

#include "ghash.h"
#include "modes.h"

#define GCM_KEY_MAGIC 0x67636d6bu /* "gcmk" */
#define GCM_MAGIC 0x67636d73u     /* "gcms" */

/* Blocks per chunk of the data path: 4 KiB in and out stay in L1. */
#define GCM_CHUNK 256

/* SP 800-38D 5.2.1.1: len(P) <= 2^39 - 256 bits, len(A) and len(IV) <=
 * 2^64 - 1 bits. */
#define GCM_MAX_DATA ((UINT64_C(1) << 36) - 32)
#define GCM_MAX_AAD ((UINT64_C(1) << 61) - 1)

/*
 * The layout behind aesir_gcm_key: the AES key context (encryption only),
 * a 64-byte head, then the GHASH engine's key area, 64-byte aligned when
 * the object is.
 */
struct gcm_key_state {
    aesir_aes aes;
    const struct aesir_ghash_engine *gh;
    /* the AES engine's fused kernels when gh is their partner, or NULL */
    aesir_gcm_fn fused_enc, fused_dec;
    aesir_gcm_short_fn fused_short;
    uint32_t magic;
    uint32_t options;
    unsigned char head_pad[64 - 4 * sizeof(void *) - 8];
    _Alignas(16) unsigned char hk[AESIR_GHASH_KEY_BYTES];
};
_Static_assert(sizeof(struct gcm_key_state) == sizeof(aesir_gcm_key),
               "aesir_gcm_key: AESIR_GCM_KEY_BYTES");
_Static_assert(offsetof(struct gcm_key_state, hk) % 64 == 0,
               "GHASH key area on a cache line");

/* Phases of a message. */
enum { GCM_PH_AAD = 1, GCM_PH_ENC, GCM_PH_DEC };

struct gcm_state {
    const struct gcm_key_state *key;
    uint32_t magic;
    uint32_t phase; /* PH_*; 0 when ended */
    uint32_t nks;   /* keystream bytes of ks used (16: none left) */
    uint32_t nbuf;  /* bytes in hbuf not yet hashed */
    uint64_t aad_len;
    uint64_t data_len;
    uint8_t ctr[16];  /* the next counter block */
    uint8_t ekj0[16]; /* E_K(J0) */
    uint8_t y[16];    /* the GHASH accumulator */
    uint8_t hbuf[16]; /* a partial block waiting for GHASH */
    uint8_t ks[16];   /* a keystream block */
    /* 1 when J0 = GHASH_H(IV) (an IV of other than 96 bits): the counter
     * is secret (gcm.c, ctr32_secret) */
    uint32_t secret_ctr;
};
_Static_assert(sizeof(struct gcm_state) <= sizeof(aesir_gcm),
               "aesir_gcm too small");

#endif /* AESIR_GCM_H */
