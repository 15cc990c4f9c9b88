/*
 * xaes.c -- XAES-256-GCM (C2SP, c2sp.org/XAES-256-GCM), on CMAC's
 * subkey code (cmac.c) and GCM (gcm.c).
 *
 * The specification derives a fresh AES-256-GCM key for each message
 * from the key K and the first half of the 24-byte nonce N, with the
 * NIST SP 800-108r1 counter-mode KDF on CMAC -- which, for a 12-byte
 * context and two output blocks, reduces to two AES blocks:
 *   L = AES-256_K(0^128), K1 = dbl(L)            (as CMAC's subkey)
 *   M1 = 0x00 0x01 'X' 0x00 || N[0:12]
 *   M2 = 0x00 0x02 'X' 0x00 || N[0:12]
 *   Kx = AES-256_K(M1 xor K1) || AES-256_K(M2 xor K1)
 * and the message is AES-256-GCM under Kx with the nonce N[12:24]. K1
 * is computed once, at key setup; each message costs the two blocks (one
 * engine call) and a GCM key setup (round keys and the hash key powers)
 * on a GCM key of the stack, wiped after.
 *
 * What is secret: K, L, K1, Kx and the GCM key. The engines of the
 * per-message GCM keys are those named at setup, resolved then.
 */
#include "cmac.h"
#include "gcm.h"

#define XAES_KEY_MAGIC 0x7861656bu /* "xaek" */

struct xaes_key_state {
    aesir_aes aes; /* K, encryption direction */
    uint8_t k1[16];
    const char *aes_engine;   /* the engines of the GCM keys: names */
    const char *ghash_engine; /* out of the registries */
    uint32_t magic;
    unsigned char pad[AESIR_XAES_KEY_BYTES - sizeof(aesir_aes) - 20 -
                      2 * sizeof(const char *)];
};
_Static_assert(sizeof(struct xaes_key_state) == sizeof(aesir_xaes_key),
               "aesir_xaes_key: AESIR_XAES_KEY_BYTES");

static const struct xaes_key_state *key_state(const aesir_xaes_key *key)
{
    const struct xaes_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct xaes_key_state *)(const void *)key->opaque;
    if (k->magic != XAES_KEY_MAGIC ||
        aesir_key_state(&k->aes, AESIR_ENCRYPT) == NULL)
        return NULL;
    return k;
}

void aesir_xaes_clear(aesir_xaes_key *key)
{
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_xaes_key));
}

int aesir_xaes_init_ex(aesir_xaes_key *key, const uint8_t k[32],
                       const char *aes_engine, const char *ghash_engine)
{
    struct xaes_key_state *st;
    const struct aesir_ghash_engine *gh = NULL;
    uint8_t k2[16];
    int err;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT;
    st = (struct xaes_key_state *)(void *)key->opaque;
    if (k == NULL) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    /* A named GHASH engine is checked here (as aesir_gcm_init_ex would,
     * first), not at the first message; unnamed, each message's GCM key
     * takes the AES engine's partner as aesir_gcm_init_ex chooses it. */
    if (ghash_engine != NULL &&
        (gh = aesir_ghash_checked(aesir_ghash_index(ghash_engine), &err)) ==
            NULL)
        goto fail;
    err = aesir_aes_init_ex(&st->aes, k, 32, aes_engine, AESIR_ENCRYPT);
    if (err != AESIR_OK)
        goto fail;
    st->aes_engine = aesir_aes_engine(&st->aes); /* the registry's name */
    st->ghash_engine = gh != NULL ? gh->name : NULL;
    aesir_cmac_subkeys(
        (const struct aesir_key_state *)(const void *)st->aes.opaque, st->k1,
        k2);
    aesir_wipe(k2, sizeof(k2));
    st->magic = XAES_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_xaes_clear(key);
    return err;
}

int aesir_xaes_init(aesir_xaes_key *key, const uint8_t k[32])
{
    return aesir_xaes_init_ex(key, k, NULL, NULL);
}

/* The GCM key of the message with nonce n into g. */
static int derive(const struct xaes_key_state *k, const uint8_t n[24],
                  aesir_gcm_key *g)
{
    const struct aesir_key_state *ks =
        (const struct aesir_key_state *)(const void *)k->aes.opaque;
    uint8_t m[32];
    int err;

    m[0] = 0x00, m[1] = 0x01, m[2] = 'X', m[3] = 0x00;
    memcpy(m + 4, n, 12);
    memcpy(m + 16, m, 16);
    m[17] = 0x02;
    aesir_xor(m, m, k->k1, 16);
    aesir_xor(m + 16, m + 16, k->k1, 16);
    ks->engine->encrypt(ks->rk_enc, ks->nr, m, m, 2);
    err = aesir_gcm_init_ex(g, m, 32, k->aes_engine, k->ghash_engine, 0);
    aesir_wipe(m, sizeof(m));
    return err;
}

/* The shared steps of the four calls: checks, the key, the GCM call
 * (op), the wipe. */
enum { SEAL, OPEN, SEAL_D, OPEN_D };

static int run(const aesir_xaes_key *key, int op, const uint8_t *nonce,
               const uint8_t *aad, size_t aad_len, uint8_t *out, size_t out_cap,
               size_t *out_len, uint8_t *tag_out, const uint8_t *tag_in,
               const uint8_t *in, size_t in_len)
{
    const struct xaes_key_state *k = key_state(key);
    aesir_gcm_key g;
    int err;

    if (out_len != NULL)
        *out_len = 0;
    if (k == NULL)
        return AESIR_E_STATE;
    if (nonce == NULL)
        return AESIR_E_ARGUMENT;
    if ((err = derive(k, nonce, &g)) != AESIR_OK)
        return err;
    switch (op) {
    case SEAL:
        err = aesir_gcm_seal(&g, nonce + 12, 12, aad, aad_len, out, out_cap,
                             out_len, in, in_len);
        break;
    case OPEN:
        err = aesir_gcm_open(&g, nonce + 12, 12, aad, aad_len, out, out_cap,
                             out_len, in, in_len);
        break;
    case SEAL_D:
        err = aesir_gcm_seal_detached(&g, nonce + 12, 12, aad, aad_len, out,
                                      tag_out, 16, in, in_len);
        break;
    default:
        err = aesir_gcm_open_detached(&g, nonce + 12, 12, aad, aad_len, out,
                                      tag_in, 16, in, in_len);
        break;
    }
    aesir_gcm_clear(&g);
    return err;
}

int aesir_xaes_seal(const aesir_xaes_key *key, const uint8_t nonce[24],
                    const uint8_t *aad, size_t aad_len, uint8_t *out,
                    size_t out_cap, size_t *out_len, const uint8_t *in,
                    size_t in_len)
{
    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    return run(key, SEAL, nonce, aad, aad_len, out, out_cap, out_len, NULL,
               NULL, in, in_len);
}

int aesir_xaes_open(const aesir_xaes_key *key, const uint8_t nonce[24],
                    const uint8_t *aad, size_t aad_len, uint8_t *out,
                    size_t out_cap, size_t *out_len, const uint8_t *in,
                    size_t in_len)
{
    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    return run(key, OPEN, nonce, aad, aad_len, out, out_cap, out_len, NULL,
               NULL, in, in_len);
}

int aesir_xaes_seal_detached(const aesir_xaes_key *key, const uint8_t nonce[24],
                             const uint8_t *aad, size_t aad_len, uint8_t *out,
                             uint8_t tag[16], const uint8_t *in, size_t len)
{
    return run(key, SEAL_D, nonce, aad, aad_len, out, 0, NULL, tag, NULL, in,
               len);
}

int aesir_xaes_open_detached(const aesir_xaes_key *key, const uint8_t nonce[24],
                             const uint8_t *aad, size_t aad_len, uint8_t *out,
                             const uint8_t tag[16], const uint8_t *in,
                             size_t len)
{
    return run(key, OPEN_D, nonce, aad, aad_len, out, 0, NULL, NULL, tag, in,
               len);
}
