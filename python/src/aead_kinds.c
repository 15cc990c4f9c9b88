/*
 * aead_kinds.c -- the table behind _aesir.AEAD (aead.c): for each
 * one-shot AEAD of the C API (GCM, CCM, OCB3, GCM-SIV, AES-SIV,
 * XAES-256-GCM, AEGIS), adapters that give its key setup, seal and open
 * one signature, so aead.c has a single code path for all of them.
 */
#include "_aesir.h"

/* ---- adapters ---- */

static int gcm_init(void *k, const uint8_t *b, size_t n, const char *e,
                    const char *g, int v)
{
    (void)v;
    return aesir_gcm_init_ex(k, b, n, e, g, 0);
}
static int gcm_seal(const void *k, const uint8_t *n, size_t nl,
                    const uint8_t *a, size_t al, uint8_t *o, size_t c,
                    size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    return aesir_gcm_seal(k, n, nl, a, al, o, c, ol, i, il);
}
static int gcm_open(const void *k, const uint8_t *n, size_t nl,
                    const uint8_t *a, size_t al, uint8_t *o, size_t c,
                    size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    return aesir_gcm_open(k, n, nl, a, al, o, c, ol, i, il);
}

static int ccm_init(void *k, const uint8_t *b, size_t n, const char *e,
                    const char *g, int v)
{
    (void)g, (void)v;
    return aesir_ccm_init_ex(k, b, n, e);
}

static int ocb_init(void *k, const uint8_t *b, size_t n, const char *e,
                    const char *g, int v)
{
    (void)g, (void)v;
    return aesir_ocb_init_ex(k, b, n, e);
}
static int ocb_seal(const void *k, const uint8_t *n, size_t nl,
                    const uint8_t *a, size_t al, uint8_t *o, size_t c,
                    size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    return aesir_ocb_seal(k, n, nl, a, al, o, c, ol, i, il);
}
static int ocb_open(const void *k, const uint8_t *n, size_t nl,
                    const uint8_t *a, size_t al, uint8_t *o, size_t c,
                    size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    return aesir_ocb_open(k, n, nl, a, al, o, c, ol, i, il);
}

/* GCM-SIV's and XAES's nonces have one length, which the C API takes
 * as a fixed-size array: the length is checked here. */
static int gcmsiv_init(void *k, const uint8_t *b, size_t n, const char *e,
                       const char *g, int v)
{
    (void)v;
    return aesir_gcm_siv_init_ex(k, b, n, e, g,
                                 n == 24 ? AESIR_GCM_SIV_AES192 : 0u);
}
static int gcmsiv_seal(const void *k, const uint8_t *n, size_t nl,
                       const uint8_t *a, size_t al, uint8_t *o, size_t c,
                       size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    if (nl != AESIR_GCM_SIV_NONCE_BYTES)
        return AESIR_E_IV_LENGTH;
    return aesir_gcm_siv_seal(k, n, a, al, o, c, ol, i, il);
}
static int gcmsiv_open(const void *k, const uint8_t *n, size_t nl,
                       const uint8_t *a, size_t al, uint8_t *o, size_t c,
                       size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    if (nl != AESIR_GCM_SIV_NONCE_BYTES)
        return AESIR_E_IV_LENGTH;
    return aesir_gcm_siv_open(k, n, a, al, o, c, ol, i, il);
}

static int xaes_init(void *k, const uint8_t *b, size_t n, const char *e,
                     const char *g, int v)
{
    (void)v;
    if (n != AESIR_XAES_KEY_LEN)
        return AESIR_E_KEY_LENGTH;
    return aesir_xaes_init_ex(k, b, e, g);
}
static int xaes_seal(const void *k, const uint8_t *n, size_t nl,
                     const uint8_t *a, size_t al, uint8_t *o, size_t c,
                     size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    if (nl != AESIR_XAES_NONCE_BYTES)
        return AESIR_E_IV_LENGTH;
    return aesir_xaes_seal(k, n, a, al, o, c, ol, i, il);
}
static int xaes_open(const void *k, const uint8_t *n, size_t nl,
                     const uint8_t *a, size_t al, uint8_t *o, size_t c,
                     size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    if (nl != AESIR_XAES_NONCE_BYTES)
        return AESIR_E_IV_LENGTH;
    return aesir_xaes_open(k, n, a, al, o, c, ol, i, il);
}

static int siv_init(void *k, const uint8_t *b, size_t n, const char *e,
                    const char *g, int v)
{
    (void)g, (void)v;
    return aesir_siv_init_ex(k, b, n, e);
}
static int siv_seal(const void *k, const uint8_t *n, size_t nl,
                    const uint8_t *a, size_t al, uint8_t *o, size_t c,
                    size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    return aesir_siv_seal(k, (const aesir_siv_ad *)(const void *)a, al, n, nl,
                          o, c, ol, i, il);
}
static int siv_open(const void *k, const uint8_t *n, size_t nl,
                    const uint8_t *a, size_t al, uint8_t *o, size_t c,
                    size_t *ol, const uint8_t *i, size_t il, size_t t)
{
    (void)t;
    return aesir_siv_open(k, (const aesir_siv_ad *)(const void *)a, al, n, nl,
                          o, c, ol, i, il);
}

static int aegis_init(void *k, const uint8_t *b, size_t n, const char *e,
                      const char *g, int v)
{
    (void)g;
    return aesir_aegis_init_ex(k, v, b, n, e);
}

/* Modes whose C functions already have the kind's shape, but typed
 * keys: a call through a cast function pointer would be undefined. */
#define TAGGED(name, f)                                                        \
    static int name(const void *k, const uint8_t *n, size_t nl,                \
                    const uint8_t *a, size_t al, uint8_t *o, size_t c,         \
                    size_t *ol, const uint8_t *i, size_t il, size_t t)         \
    {                                                                          \
        return f(k, n, nl, a, al, o, c, ol, i, il, t);                         \
    }
TAGGED(ccm_seal, aesir_ccm_seal)
TAGGED(ccm_open, aesir_ccm_open)
TAGGED(aegis_seal, aesir_aegis_seal)
TAGGED(aegis_open, aesir_aegis_open)

#define CLEARFN(name, type, f)                                                 \
    static void name(void *k)                                                  \
    {                                                                          \
        f((type *)k);                                                          \
    }
CLEARFN(gcm_clear, aesir_gcm_key, aesir_gcm_clear)
CLEARFN(ccm_clear, aesir_ccm_key, aesir_ccm_clear)
CLEARFN(ocb_clear, aesir_ocb_key, aesir_ocb_clear)
CLEARFN(gcmsiv_clear, aesir_gcm_siv_key, aesir_gcm_siv_clear)
CLEARFN(siv_clear, aesir_siv_key, aesir_siv_clear)
CLEARFN(xaes_clear, aesir_xaes_key, aesir_xaes_clear)
CLEARFN(aegis_clear, aesir_aegis_key, aesir_aegis_clear)

/* Indexed by the KIND_* numbers (_aesir.h). */
static const struct aesirpy_kind kinds[] = {
    {0, NULL, NULL, NULL, NULL},
    {sizeof(aesir_gcm_key), gcm_init, gcm_clear, gcm_seal, gcm_open},
    {sizeof(aesir_ccm_key), ccm_init, ccm_clear, ccm_seal, ccm_open},
    {sizeof(aesir_ocb_key), ocb_init, ocb_clear, ocb_seal, ocb_open},
    {sizeof(aesir_gcm_siv_key), gcmsiv_init, gcmsiv_clear, gcmsiv_seal,
     gcmsiv_open},
    {sizeof(aesir_siv_key), siv_init, siv_clear, siv_seal, siv_open},
    {sizeof(aesir_xaes_key), xaes_init, xaes_clear, xaes_seal, xaes_open},
    {sizeof(aesir_aegis_key), aegis_init, aegis_clear, aegis_seal, aegis_open},
};
#define KIND_SIV 5
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

const struct aesirpy_kind *aesirpy_kind(int kindno)
{
    int n = (int)(sizeof kinds / sizeof kinds[0]);
    return kindno >= 1 && kindno < n ? &kinds[kindno] : NULL;
}
