/*
 * gcm_siv.h -- the layout behind aesir_gcm_siv_key (gcm_siv.c), for
 * gcm_siv.c and white-box tests (the length limits are tested without
 * hashing 64 GiB: the checks are on the lengths alone).
 */
#ifndef AESIR_GCM_SIV_H
#define AESIR_GCM_SIV_H

#include "ghash.h"
#include "internal.h"

#define GCM_SIV_KEY_MAGIC 0x67737669u /* "gsvi" */

/* RFC 8452 section 6: P_MAX = A_MAX = 2^36 bytes. */
#define GCM_SIV_MAX_DATA (UINT64_C(1) << 36)
#define GCM_SIV_MAX_AAD (UINT64_C(1) << 36)

/*
 * The key-generating key (encryption schedule only, in an aesir_aes on
 * its engine) and the GHASH engine POLYVAL runs on. No hash key: the
 * message-authentication key is derived per nonce (RFC 8452 section 4).
 */
struct gcm_siv_key_state {
    aesir_aes aes;
    const struct aesir_ghash_engine *gh;
    /* the AES engine's GCM-SIV CTR path (internal.h), or NULL */
    aesir_ctr32le_fn ctr;
    /* its fused decryption and per-nonce keys when gh is its partner, or
     * NULL */
    aesir_gcmsiv_dec_fn fused_dec;
    aesir_gcmsiv_keys_fn keys;
    aesir_gcmsiv_tag_fn tag;
    uint32_t magic;
    uint32_t options;
    uint32_t hk_bytes; /* bytes gh's POLYVAL key set-up writes (to wipe) */
    unsigned char head_pad[64 - 5 * sizeof(void *) - 12];
};
_Static_assert(sizeof(struct gcm_siv_key_state) == sizeof(aesir_gcm_siv_key),
               "aesir_gcm_siv_key: AESIR_GCM_SIV_KEY_BYTES");

#endif /* AESIR_GCM_SIV_H */
