/*
 * ccm.h -- the layouts behind aesir_ccm_key and aesir_ccm (ccm.c), for
 * ccm.c and white-box tests (tests/test_ccm.c switches a key's fused
 * kernels off to compare them with the generic path).
 */
#ifndef AESIR_CCM_H
#define AESIR_CCM_H

#include "modes.h"

#define CCM_KEY_MAGIC 0x63636d6bu /* "ccmk" */
#define CCM_MAGIC 0x63636d73u     /* "ccms" */

/* Blocks per chunk of the generic data path: 4 KiB stays in L1 between
 * the CBC-MAC pass and the CTR pass over it. */
#define CCM_CHUNK 256

/* The layout behind aesir_ccm_key: the AES key context (encryption only)
 * and a 64-byte head. */
struct ccm_key_state {
    aesir_aes aes;
    /* the engine's fused CTR + CBC-MAC kernels, or NULL */
    aesir_ccm_fn fused_enc, fused_dec;
    uint32_t magic;
    /* the generic path without a fused kernel: CCM_PAIR_AUTO (ccm.c
     * chooses by engine), _OFF (CTR and CBC-MAC apart), _ON (paired
     * calls); only white-box tests and measurements set it */
    uint32_t pairing;
    unsigned char head_pad[64 - 2 * sizeof(void *) - 8];
};
_Static_assert(sizeof(struct ccm_key_state) == sizeof(aesir_ccm_key),
               "aesir_ccm_key: AESIR_CCM_KEY_BYTES");

enum { CCM_PAIR_AUTO = 0, CCM_PAIR_OFF, CCM_PAIR_ON };

/* Phases of a message: additional data (then, with none left, ready for
 * data in either direction), encrypting, decrypting. */
enum { CCM_PH_AAD = 1, CCM_PH_ENC, CCM_PH_DEC };

struct ccm_state {
    const struct ccm_key_state *key;
    uint32_t magic;
    uint32_t phase;    /* CCM_PH_*; 0 when ended */
    uint32_t tag_len;  /* 4..16, even */
    uint32_t nbuf;     /* bytes in buf not yet in the MAC */
    uint32_t nks;      /* keystream bytes of ks used (16: none left) */
    uint64_t aad_left; /* additional data still expected */
    uint64_t msg_left; /* message bytes still expected */
    uint8_t ctr[16];   /* the next counter block */
    uint8_t s0[16];    /* E_K(A_0), XORed into the tag */
    uint8_t y[16];     /* the CBC-MAC chaining value */
    uint8_t buf[16];   /* a partial block waiting for the MAC */
    uint8_t ks[16];    /* a keystream block */
};
_Static_assert(sizeof(struct ccm_state) <= sizeof(aesir_ccm),
               "aesir_ccm too small");

#endif /* AESIR_CCM_H */
