/*
 * impl_aesir_modes.c -- issue 19's modes as aesir rows: the same
 * "aesir/<engine>" and "aesir/default" impls as impl_aesir.c, which hands
 * these ops to the functions here.
 *
 * Only the public API, as a program uses it (bench.h gives each op's
 * conventions): the key object set up once per context with the row's
 * engine (aesir_<mode>_init_ex; NULL: the default engine, and the
 * default GHASH engine where the mode has one), then one one-shot call
 * per message, argument checks included:
 *   xts-enc/-dec   aesir_xts_encrypt / _decrypt with the 16-byte tweak
 *   ocb-enc/-dec   aesir_ocb_seal / _open (12-byte nonce, 16-byte tag)
 *   ccm-enc/-dec   aesir_ccm_seal / _open (12-byte nonce, 16-byte tag)
 *   cmac           aesir_cmac_tag
 *   mb-cmac-8      aesir_cmac_many on 8 jobs, each with its own key
 *   gcm-siv-*      aesir_gcm_siv_seal / _open
 *   siv-enc/-dec   aesir_siv_seal_detached / _open_detached, the iv as the
 *                  one AD string, V written first
 *   kw-wrap/-unwrap  aesir_kw_wrap / aesir_kw_unwrap on an aesir_aes key
 *   aegis*         aesir_aegis_seal_detached / _open_detached, 32-byte tag
 *   xaes-gcm-enc   aesir_xaes_seal_detached
 *
 * The modes are being merged one branch at a time: each is compiled only
 * when aesir.h declares it, tested by the size macro of its key object
 * (AESIR_XTS_KEY_BYTES, ...), so this file builds against any stage of
 * the merge and a mode without its API has no aesir row. An engine claims
 * an op when its key object can be made with it (supports() tries once);
 * an engine that refuses a mode (AEGIS on an engine without the round
 * hook, say) has no row for it.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "impl_aesir_modes.h"

#define MB_CMAC 8

struct modes_ctx {
    enum bench_op op;
    uint8_t iv[16];
    uint8_t nonce[32];
    void *key;             /* the mode's key object (aligned_alloc) */
    void *mkey[MB_CMAC];   /* mb-cmac-8: message j's key (0: key) */
    size_t key_size;       /* bytes of each key object */
    void (*clear)(void *); /* its _clear */
    int variant;           /* AEGIS */
    size_t nonce_len;      /* AEGIS: looked up once, as a caller would */
};

#ifdef AESIR_XTS_KEY_BYTES
static void clear_xts(void *k)
{
    aesir_xts_clear(k);
}
#endif
#ifdef AESIR_OCB_KEY_BYTES
static void clear_ocb(void *k)
{
    aesir_ocb_clear(k);
}
#endif
#ifdef AESIR_CCM_KEY_BYTES
static void clear_ccm(void *k)
{
    aesir_ccm_clear(k);
}
#endif
#ifdef AESIR_CMAC_KEY_BYTES
static void clear_cmac(void *k)
{
    aesir_cmac_clear(k);
}
#endif
#ifdef AESIR_GCM_SIV_KEY_BYTES
static void clear_gcm_siv(void *k)
{
    aesir_gcm_siv_clear(k);
}
#endif
#ifdef AESIR_SIV_KEY_BYTES
static void clear_siv(void *k)
{
    aesir_siv_clear(k);
}
#endif
#ifdef AESIR_KW_INVERSE
static void clear_aes(void *k)
{
    aesir_aes_clear(k);
}
#endif
#ifdef AESIR_AEGIS_KEY_BYTES
static void clear_aegis(void *k)
{
    aesir_aegis_clear(k);
}

static int aegis_variant(enum bench_op op)
{
    switch (op) {
    case OP_AEGIS128L_ENC:
    case OP_AEGIS128L_DEC:
        return AESIR_AEGIS_128L;
    case OP_AEGIS256_ENC:
    case OP_AEGIS256_DEC:
        return AESIR_AEGIS_256;
    case OP_AEGIS128X2_ENC:
        return AESIR_AEGIS_128X2;
    case OP_AEGIS128X4_ENC:
        return AESIR_AEGIS_128X4;
    case OP_AEGIS256X2_ENC:
        return AESIR_AEGIS_256X2;
    default:
        return AESIR_AEGIS_256X4;
    }
}
#endif
#ifdef AESIR_XAES_KEY_BYTES
static void clear_xaes(void *k)
{
    aesir_xaes_clear(k);
}
#endif

/* make_key -- one key object of op under engine (NULL: default) from
 * key (key_bits / 8 bytes; bench_op_key() of it for XTS and SIV) into
 * c->key-sized memory at *out; 0 or -1. */
static int make_key(struct modes_ctx *c, const char *engine, const uint8_t *key,
                    unsigned key_bits, void **out)
{
    size_t kb = key_bits / 8, size = 0;
    uint8_t k2[64];
    void *k;
    int err = -1;

    (void)engine; /* unused when no mode's API is in aesir.h yet */

    switch (c->op) {
#ifdef AESIR_XTS_KEY_BYTES
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        size = sizeof(aesir_xts_key);
        c->clear = clear_xts;
        break;
#endif
#ifdef AESIR_OCB_KEY_BYTES
    case OP_OCB_ENC:
    case OP_OCB_DEC:
        size = sizeof(aesir_ocb_key);
        c->clear = clear_ocb;
        break;
#endif
#ifdef AESIR_CCM_KEY_BYTES
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        size = sizeof(aesir_ccm_key);
        c->clear = clear_ccm;
        break;
#endif
#ifdef AESIR_CMAC_KEY_BYTES
    case OP_CMAC:
    case OP_MB_CMAC_8:
        size = sizeof(aesir_cmac_key);
        c->clear = clear_cmac;
        break;
#endif
#ifdef AESIR_GCM_SIV_KEY_BYTES
    case OP_GCM_SIV_ENC:
    case OP_GCM_SIV_DEC:
        size = sizeof(aesir_gcm_siv_key);
        c->clear = clear_gcm_siv;
        break;
#endif
#ifdef AESIR_SIV_KEY_BYTES
    case OP_SIV_ENC:
    case OP_SIV_DEC:
        size = sizeof(aesir_siv_key);
        c->clear = clear_siv;
        break;
#endif
#ifdef AESIR_KW_INVERSE
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        size = sizeof(aesir_aes);
        c->clear = clear_aes;
        break;
#endif
#ifdef AESIR_AEGIS_KEY_BYTES
    case OP_AEGIS128L_ENC:
    case OP_AEGIS128L_DEC:
    case OP_AEGIS256_ENC:
    case OP_AEGIS256_DEC:
    case OP_AEGIS128X2_ENC:
    case OP_AEGIS128X4_ENC:
    case OP_AEGIS256X2_ENC:
    case OP_AEGIS256X4_ENC:
        size = sizeof(aesir_aegis_key);
        c->clear = clear_aegis;
        c->variant = aegis_variant(c->op);
        c->nonce_len = aesir_aegis_nonce_bytes(c->variant);
        break;
#endif
#ifdef AESIR_XAES_KEY_BYTES
    case OP_XAES_GCM_ENC:
        size = sizeof(aesir_xaes_key);
        c->clear = clear_xaes;
        break;
#endif
    default:
        return -1;
    }
    k = aligned_alloc(64, (size + 63) / 64 * 64);
    if (k == NULL)
        return -1;
    memset(k, 0, size);
    c->key_size = size;
    bench_op_key(key, key_bits, k2, 2 * kb);
    switch (c->op) {
#ifdef AESIR_XTS_KEY_BYTES
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        err = aesir_xts_init_ex(k, k2, 2 * kb, engine);
        break;
#endif
#ifdef AESIR_OCB_KEY_BYTES
    case OP_OCB_ENC:
    case OP_OCB_DEC:
        err = aesir_ocb_init_ex(k, key, kb, engine);
        break;
#endif
#ifdef AESIR_CCM_KEY_BYTES
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        err = aesir_ccm_init_ex(k, key, kb, engine);
        break;
#endif
#ifdef AESIR_CMAC_KEY_BYTES
    case OP_CMAC:
    case OP_MB_CMAC_8:
        err = aesir_cmac_init_ex(k, key, kb, engine);
        break;
#endif
#ifdef AESIR_GCM_SIV_KEY_BYTES
    case OP_GCM_SIV_ENC:
    case OP_GCM_SIV_DEC:
        err = aesir_gcm_siv_init_ex(k, key, kb, engine, NULL, 0);
        break;
#endif
#ifdef AESIR_SIV_KEY_BYTES
    case OP_SIV_ENC:
    case OP_SIV_DEC:
        err = aesir_siv_init_ex(k, k2, 2 * kb, engine);
        break;
#endif
#ifdef AESIR_KW_INVERSE
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        /* wrap runs the cipher forwards, unwrap the inverse cipher */
        err = aesir_aes_init_ex(k, key, kb, engine,
                                c->op == OP_KW_WRAP ? AESIR_ENCRYPT
                                                    : AESIR_DECRYPT);
        break;
#endif
#ifdef AESIR_AEGIS_KEY_BYTES
    case OP_AEGIS128L_ENC:
    case OP_AEGIS128L_DEC:
    case OP_AEGIS256_ENC:
    case OP_AEGIS256_DEC:
    case OP_AEGIS128X2_ENC:
    case OP_AEGIS128X4_ENC:
    case OP_AEGIS256X2_ENC:
    case OP_AEGIS256X4_ENC:
        err = aesir_aegis_init_ex(k, c->variant, key, kb, engine);
        break;
#endif
#ifdef AESIR_XAES_KEY_BYTES
    case OP_XAES_GCM_ENC:
        err = kb == 32 ? aesir_xaes_init_ex(k, key, engine, NULL) : -1;
        break;
#endif
    default:
        break;
    }
    memset(k2, 0, sizeof(k2));
    if (err != AESIR_OK) {
        free(k);
        return -1;
    }
    *out = k;
    return 0;
}

void aesir_modes_release(void *ctx)
{
    struct modes_ctx *c = ctx;

    if (c == NULL)
        return;
    for (unsigned j = 0; j < MB_CMAC; j++)
        if (c->mkey[j] != NULL && c->mkey[j] != c->key) {
            c->clear(c->mkey[j]);
            free(c->mkey[j]);
        }
    if (c->key != NULL) {
        c->clear(c->key);
        free(c->key);
    }
    free(c);
}

void *aesir_modes_setup(const char *engine, enum bench_op op,
                        const uint8_t *key, unsigned key_bits,
                        const uint8_t iv[16])
{
    struct modes_ctx *c;
    uint8_t kj[32];

    if (!bench_op_is_mode19(op) || !bench_op_key_ok(op, key_bits) ||
        (c = calloc(1, sizeof(*c))) == NULL)
        return NULL;
    c->op = op;
    memcpy(c->iv, iv, 16);
    bench_op_nonce(iv, c->nonce, 32);
    if (op == OP_XTS_ENC || op == OP_XTS_DEC)
        bench_xts_tweak(iv, c->iv);
    if (op != OP_MB_CMAC_8) {
        if (make_key(c, engine, key, key_bits, &c->key) != 0) {
            free(c);
            return NULL;
        }
        return c;
    }
    for (unsigned j = 0; j < MB_CMAC; j++) {
        bench_mb_key(key, key_bits, j, kj);
        if (make_key(c, engine, kj, key_bits, &c->mkey[j]) != 0) {
            aesir_modes_release(c);
            return NULL;
        }
    }
    c->key = c->mkey[0];
    return c;
}

int aesir_modes_supports(const char *engine, enum bench_op op,
                         unsigned key_bits)
{
    static const uint8_t key[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                    12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                    23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
    static const uint8_t iv[16] = {0};
    void *c;

    if (op == OP_MB_CMAC_8) /* one key is enough to know */
        op = OP_CMAC;
    c = aesir_modes_setup(engine, op, key, key_bits, iv);
    aesir_modes_release(c);
    return c != NULL;
}

int aesir_modes_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct modes_ctx *c = ctx;
    size_t n;

    (void)n;
    (void)out;
    (void)in;
    (void)len;
    switch (c->op) {
#ifdef AESIR_XTS_KEY_BYTES
    case OP_XTS_ENC:
        return aesir_xts_encrypt(c->key, c->iv, out, in, len);
    case OP_XTS_DEC:
        return aesir_xts_decrypt(c->key, c->iv, out, in, len);
#endif
#ifdef AESIR_OCB_KEY_BYTES
    case OP_OCB_ENC:
        return aesir_ocb_seal(c->key, c->iv, 12, NULL, 0, out, len + 16, &n, in,
                              len);
    case OP_OCB_DEC:
        return aesir_ocb_open(c->key, c->iv, 12, NULL, 0, out, len, &n, in,
                              len + 16);
#endif
#ifdef AESIR_CCM_KEY_BYTES
    case OP_CCM_ENC:
        return aesir_ccm_seal(c->key, c->iv, 12, NULL, 0, out, len + 16, &n, in,
                              len, 16);
    case OP_CCM_DEC:
        return aesir_ccm_open(c->key, c->iv, 12, NULL, 0, out, len, &n, in,
                              len + 16, 16);
#endif
#ifdef AESIR_CMAC_KEY_BYTES
    case OP_CMAC:
        return aesir_cmac_tag(c->key, in, len, out, 16);
    case OP_MB_CMAC_8: {
        aesir_cmac_job jobs[MB_CMAC];
        int err;
        for (unsigned j = 0; j < MB_CMAC; j++) {
            jobs[j].key = c->mkey[j];
            jobs[j].in = in + j * len;
            jobs[j].len = len;
        }
        err = aesir_cmac_many(jobs, MB_CMAC);
        for (unsigned j = 0; j < MB_CMAC; j++)
            memcpy(out + 16 * j, jobs[j].tag, 16);
        return err;
    }
#endif
#ifdef AESIR_GCM_SIV_KEY_BYTES
    case OP_GCM_SIV_ENC:
        return aesir_gcm_siv_seal(c->key, c->iv, NULL, 0, out, len + 16, &n, in,
                                  len);
    case OP_GCM_SIV_DEC:
        return aesir_gcm_siv_open(c->key, c->iv, NULL, 0, out, len, &n, in,
                                  len + 16);
#endif
#ifdef AESIR_SIV_KEY_BYTES
    case OP_SIV_ENC: {
        aesir_siv_ad ad = {c->iv, 16};
        return aesir_siv_seal_detached(c->key, &ad, 1, NULL, 0, out + 16, out,
                                       in, len);
    }
    case OP_SIV_DEC: {
        aesir_siv_ad ad = {c->iv, 16};
        return aesir_siv_open_detached(c->key, &ad, 1, NULL, 0, out, in,
                                       in + 16, len);
    }
#endif
#ifdef AESIR_KW_INVERSE
    case OP_KW_WRAP:
        return aesir_kw_wrap(c->key, 0, out, len + 8, &n, in, len);
    case OP_KW_UNWRAP:
        return aesir_kw_unwrap(c->key, 0, out, len, &n, in, len + 8);
#endif
#ifdef AESIR_AEGIS_KEY_BYTES
    case OP_AEGIS128L_ENC:
    case OP_AEGIS256_ENC:
    case OP_AEGIS128X2_ENC:
    case OP_AEGIS128X4_ENC:
    case OP_AEGIS256X2_ENC:
    case OP_AEGIS256X4_ENC:
        return aesir_aegis_seal_detached(c->key, c->nonce, c->nonce_len, NULL,
                                         0, out, out + len, 32, in, len);
    case OP_AEGIS128L_DEC:
    case OP_AEGIS256_DEC:
        return aesir_aegis_open_detached(c->key, c->nonce, c->nonce_len, NULL,
                                         0, out, in + len, 32, in, len);
#endif
#ifdef AESIR_XAES_KEY_BYTES
    case OP_XAES_GCM_ENC:
        return aesir_xaes_seal_detached(c->key, c->nonce, NULL, 0, out,
                                        out + len, in, len);
#endif
    default:
        return -1;
    }
}
