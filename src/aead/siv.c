/*
 * siv.c -- AES-SIV (RFC 5297, AES-CMAC-SIV), on CMAC (cmac.c) and the
 * engine's CTR path.
 *
 * The key is two AES keys of equal size: K1 (the first half) for S2V,
 * K2 for CTR (RFC 5297 2.6). S2V (2.4) turns the vector of strings
 * S1..Sn (the associated data, the nonce, the plaintext last) into
 * V with CMAC and dbl():
 *   D = CMAC(K1, 0^128)
 *   for each Si but the last: D = dbl(D) xor CMAC(K1, Si)
 *   last Sn of 16 bytes or more: V = CMAC(K1, Sn xorend D)
 *   else:                        V = CMAC(K1, dbl(D) xor pad(Sn))
 * The first D depends only on K1 and is kept in the key. "xorend" XORs D
 * into the last 16 bytes of Sn: the CMAC runs on the two pieces (the
 * head of Sn as it is, the last 16 bytes XORed with D), so nothing is
 * copied. The ciphertext is CTR under K2 from Q = V with bits 63 and 31
 * of its low half cleared (2.5, 2.6), so that 32- and 64-bit counter
 * implementations agree: the 128-bit counter never carries out of the
 * low 64 bits. V is public (the output starts with it), so the counter
 * may take the engine's CTR path.
 *
 * Decryption recovers the plaintext, runs S2V on it and compares with V
 * in constant time; a mismatch wipes the output (AESIR_E_AUTH).
 */
#include "cmac.h"
#include "aead_ctx.h"

#define SIV_KEY_MAGIC 0x7369766bu /* "sivk" */

/* The layout behind aesir_siv_key: the CMAC key (K1, subkeys), the CTR
 * key (K2), and D0 = CMAC(K1, 0^128). */
struct siv_key_state {
    struct cmac_key_state mac;
    aesir_aes ctr;
    uint8_t d0[16];
    uint32_t magic;
    unsigned char pad[AESIR_SIV_KEY_BYTES - sizeof(struct cmac_key_state) -
                      sizeof(aesir_aes) - 20];
};
_Static_assert(sizeof(struct siv_key_state) == sizeof(aesir_siv_key),
               "aesir_siv_key: AESIR_SIV_KEY_BYTES");

static const struct siv_key_state *key_state(const aesir_siv_key *key)
{
    const struct siv_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct siv_key_state *)(const void *)key->opaque;
    if (k->magic != SIV_KEY_MAGIC ||
        aesir_key_state(&k->ctr, AESIR_ENCRYPT) == NULL ||
        aesir_cmac_key_state((const aesir_cmac_key *)(const void *)&k->mac) ==
            NULL)
        return NULL;
    return k;
}

void aesir_siv_clear(aesir_siv_key *key)
{
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_siv_key));
}

int aesir_siv_init_ex(aesir_siv_key *key, const uint8_t *k, size_t key_len,
                      const char *engine)
{
    static const uint8_t zero[16];
    struct siv_key_state *st;
    int err;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT;
    st = (struct siv_key_state *)(void *)key->opaque;
    if (k == NULL) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    if (key_len != 32 && key_len != 48 && key_len != 64) {
        err = AESIR_E_KEY_LENGTH;
        goto fail;
    }
    err = aesir_cmac_setup(&st->mac, k, key_len / 2, engine);
    if (err != AESIR_OK)
        goto fail;
    err = aesir_aes_init_ex(&st->ctr, k + key_len / 2, key_len / 2, engine,
                            AESIR_ENCRYPT);
    if (err != AESIR_OK)
        goto fail;
    aesir_cmac_two(&st->mac, zero, 16, NULL, 0, st->d0);
    st->magic = SIV_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_siv_clear(key);
    return err;
}

int aesir_siv_init(aesir_siv_key *key, const uint8_t *k, size_t key_len)
{
    return aesir_siv_init_ex(key, k, key_len, NULL);
}

/* ---- S2V --------------------------------------------------------------- */

/* V = S2V(K1; ad[0..n_ad), nonce (when not NULL), p[0..len)). */
static void s2v(const struct siv_key_state *k, const aesir_siv_ad *ad,
                size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *p, size_t len, uint8_t v[16])
{
    uint8_t d[16], t[16];

    memcpy(d, k->d0, 16);
    for (size_t i = 0; i <= n_ad; i++) {
        const uint8_t *s = i < n_ad ? ad[i].p : nonce;
        size_t slen = i < n_ad ? ad[i].len : nonce_len;
        if (i == n_ad && nonce == NULL)
            break;
        aesir_dbl(d, d);
        aesir_cmac_two(&k->mac, s, slen, NULL, 0, t);
        aesir_xor(d, d, t, 16);
    }
    if (len >= 16) {
        aesir_xor(t, p + len - 16, d, 16); /* Sn xorend D */
        aesir_cmac_two(&k->mac, p, len - 16, t, 16, v);
    } else {
        aesir_dbl(d, d);
        memset(t, 0, 16);
        if (len != 0)
            memcpy(t, p, len);
        t[len] = 0x80; /* pad(Sn): 10* */
        aesir_xor(t, t, d, 16);
        aesir_cmac_two(&k->mac, t, 16, NULL, 0, v);
    }
    aesir_wipe(d, sizeof(d));
    aesir_wipe(t, sizeof(t));
}

/* CTR under K2 from V (its bits 63 and 31 cleared) on len bytes. */
static void siv_ctr(const struct siv_key_state *k, const uint8_t v[16],
                    uint8_t *out, const uint8_t *in, size_t len)
{
    const struct aesir_key_state *ks =
        (const struct aesir_key_state *)(const void *)k->ctr.opaque;
    uint8_t q[16];

    aesir_ctr_copy(q, v);
    q[8] &= 0x7f;
    q[12] &= 0x7f;
    /* Declassified (ct.h): V is public, the first 16 bytes of the
     * output (seal) or of the input (open); the engines' CTR paths
     * branch on the counter's low bytes (aesni), as they may. */
    CT_PUBLIC(q, sizeof(q));
    if (len >= 16) {
        aesir_ctr_blocks(ks, q, out, in, len / 16);
        out += len & ~(size_t)15, in += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        uint8_t b[16] = {0};
        ks->engine->encrypt(ks->rk_enc, ks->nr, b, q, 1);
        aesir_xor(out, in, b, len);
        aesir_wipe(b, sizeof(b));
    }
}

/* ---- checks ------------------------------------------------------------ */

static int checks(const struct siv_key_state *k, const aesir_siv_ad *ad,
                  size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                  const void *out, const void *in, size_t len)
{
    if (k == NULL)
        return AESIR_E_STATE;
    if ((n_ad != 0 && ad == NULL) || (len != 0 && (out == NULL || in == NULL)))
        return AESIR_E_ARGUMENT;
    if (n_ad > AESIR_SIV_MAX_AD - (nonce != NULL))
        return AESIR_E_ARGUMENT;
    if (nonce == NULL && nonce_len != 0)
        return AESIR_E_ARGUMENT;
    for (size_t i = 0; i < n_ad; i++)
        if (ad[i].p == NULL && ad[i].len != 0)
            return AESIR_E_ARGUMENT;
    return AESIR_OK;
}

/* 1 when the len bytes at a and at b overlap. */
static int overlap(const uint8_t *a, const uint8_t *b, size_t len)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return len != 0 && x < y + len && y < x + len;
}

/* ---- one-shot ---------------------------------------------------------- */

int aesir_siv_seal_detached(const aesir_siv_key *key, const aesir_siv_ad *ad,
                            size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                            uint8_t *out, uint8_t v[16], const uint8_t *in,
                            size_t len)
{
    const struct siv_key_state *k = key_state(key);
    uint8_t t[16];
    int err = checks(k, ad, n_ad, nonce, nonce_len, out, in, len);

    if (err != AESIR_OK)
        return err;
    if (v == NULL)
        return AESIR_E_ARGUMENT;
    s2v(k, ad, n_ad, nonce, nonce_len, in, len, t);
    siv_ctr(k, t, out, in, len);
    memcpy(v, t, 16);
    return AESIR_OK;
}

int aesir_siv_open_detached(const aesir_siv_key *key, const aesir_siv_ad *ad,
                            size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                            uint8_t *out, const uint8_t v[16],
                            const uint8_t *in, size_t len)
{
    const struct siv_key_state *k = key_state(key);
    uint8_t t[16], v0[16];
    int err = checks(k, ad, n_ad, nonce, nonce_len, out, in, len);

    if (err != AESIR_OK)
        return err;
    if (v == NULL)
        return AESIR_E_ARGUMENT;
    memcpy(v0, v, 16); /* v may lie in out */
    siv_ctr(k, v0, out, in, len);
    s2v(k, ad, n_ad, nonce, nonce_len, out, len, t);
    err = aead_verdict(t, v0, 16);
    aesir_wipe(t, sizeof(t));
    return aead_released(err, out, len);
}

int aesir_siv_seal(const aesir_siv_key *key, const aesir_siv_ad *ad,
                   size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                   uint8_t *out, size_t out_cap, size_t *out_len,
                   const uint8_t *in, size_t in_len)
{
    const struct siv_key_state *k = key_state(key);
    uint8_t v[16];
    int err = checks(k, ad, n_ad, nonce, nonce_len, out, in, in_len);

    if (err != AESIR_OK)
        return err;
    if (out == NULL || out_len == NULL)
        return AESIR_E_ARGUMENT;
    if (out_cap < 16 || out_cap - 16 < in_len)
        return AESIR_E_OUTPUT_SIZE;
    s2v(k, ad, n_ad, nonce, nonce_len, in, in_len, v);
    if (overlap(out + 16, in, in_len) && out + 16 != in) {
        /* in place (or overlapping): the plaintext moves up first */
        memmove(out + 16, in, in_len);
        in = out + 16;
    }
    siv_ctr(k, v, out + 16, in, in_len);
    memcpy(out, v, 16);
    *out_len = in_len + 16;
    return AESIR_OK;
}

int aesir_siv_open(const aesir_siv_key *key, const aesir_siv_ad *ad,
                   size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                   uint8_t *out, size_t out_cap, size_t *out_len,
                   const uint8_t *in, size_t in_len)
{
    const struct siv_key_state *k = key_state(key);
    const uint8_t *src;
    uint8_t v[16];
    size_t len;
    int err;

    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    if (in_len < 16)
        return k == NULL    ? AESIR_E_STATE
               : in == NULL ? AESIR_E_ARGUMENT
                            : AESIR_E_INPUT_LENGTH;
    len = in_len - 16;
    err = checks(k, ad, n_ad, nonce, nonce_len, out, in, len);
    if (err != AESIR_OK)
        return err;
    if (in == NULL)
        return AESIR_E_ARGUMENT;
    if (out_cap < len)
        return AESIR_E_OUTPUT_SIZE;
    memcpy(v, in, 16); /* before out (which may be in) is written */
    src = in + 16;
    if (overlap(out, src, len) && out != src) {
        /* in place (or overlapping): the ciphertext moves down first */
        memmove(out, src, len);
        src = out;
    }
    err = aesir_siv_open_detached(key, ad, n_ad, nonce, nonce_len, out, v, src,
                                  len);
    if (err == AESIR_OK)
        *out_len = len;
    return err;
}
