/*
 * peer_bssl_api.h -- the adapter shared by BoringSSL (peer_boringssl.c)
 * and AWS-LC (peer_awslc.c): AWS-LC is a fork of BoringSSL and keeps its
 * API, so one body of code drives both; each .c file compiles it against
 * its own library's headers, with its own symbol prefix (bench/
 * CMakeLists.txt passes -DBORINGSSL_PREFIX=..., which makes the headers
 * rename every call to the prefixed symbol of that build, so neither
 * collides with the system libcrypto of the openssl peer or with the
 * other one).
 *
 * Before including it, the .c file defines
 *     BSSL_ROW       the row's name ("boringssl", "aws-lc")
 *     BSSL_REGISTER  its registration function (bench.h)
 *
 * The fastest API each library offers, per op:
 *   gcm-enc, gcm-dec, gmac: EVP_AEAD (EVP_aead_aes_<N>_gcm), the key and
 *     the hash-key powers set up once (EVP_AEAD_CTX_init, 16-byte tag);
 *     per message one EVP_AEAD_CTX_seal (ciphertext || tag, exactly the
 *     benchmark's layout), one EVP_AEAD_CTX_open (which verifies), or for
 *     gmac one seal of an empty message with the data as AAD. This is the
 *     path of the VAES/AVX-512 and VAES/AVX2 GCM kernels (Biggers, in
 *     BoringSSL; AWS-LC has its own AVX-512 code) when the CPU has them.
 *     No public GHASH: no ghash.
 *   ecb-*, cbc-*, ofb, ctr: EVP_CIPHER (EVP_aes_<N>_<mode>): the key set
 *     once, per message EVP_CipherInit_ex with only the IV (not for ECB),
 *     then one EVP_CipherUpdate, as in peer_openssl.c. CTR: the 128-bit
 *     counter (a carry out of the low 32 bits goes into the upper 96).
 *     CFB is left out: BoringSSL has it only in libdecrepit.
 */
#ifndef AESIR_BENCH_PEER_BSSL_API_H
#define AESIR_BENCH_PEER_BSSL_API_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aead.h>
#include <openssl/aes.h>
#include <openssl/cipher.h>
#include <openssl/cmac.h>
#include <openssl/crypto.h>

#include "bench.h"

struct bssl_ctx {
    enum bench_op op;
    EVP_AEAD_CTX aead; /* the GCM ops, GCM-SIV */
    EVP_CIPHER_CTX *c; /* the others */
    int has_iv;
    uint8_t iv[16];
    CMAC_CTX *cmac;  /* cmac */
    uint8_t key[32]; /* AWS-LC ccm-dec: a new context after a bad tag */
    unsigned key_bits;
    AES_KEY kw; /* kw-wrap (encryption schedule), kw-unwrap */
};

/*
 * Issue 19's modes (bench.h's conventions): GCM-SIV through
 * EVP_aead_aes_{128,256}_gcm_siv (EVP_AEAD_CTX_seal / _open, 12-byte
 * nonce, 16-byte tag after the ciphertext, as the GCM rows); CMAC through
 * CMAC_CTX (CMAC_Init once; per message CMAC_Reset, CMAC_Update,
 * CMAC_Final); KW through AES_wrap_key / AES_unwrap_key (RFC 3394, the
 * default IV) on an AES_KEY set once; XTS-AES-256 on AWS-LC only
 * (EVP_aes_256_xts: BoringSSL keeps XTS in libdecrepit, which the peer
 * cache does not build), the tweak re-loaded per message like an IV.
 * Their CCM AEADs fix a 13-byte nonce (Bluetooth, Matter): not bench.h's
 * 12-byte one; AWS-LC also has CCM as an EVP_CIPHER (EVP_aes_<n>_ccm,
 * OpenSSL's calls: SET_IVLEN 12 and SET_TAG 16 at setup, then per message
 * the IV, the length, Update, GET_TAG or SET_TAG), which its ccm rows use;
 * BoringSSL has no ccm rows.
 */
static int bssl_mode19(enum bench_op op, unsigned key_bits)
{
    switch (op) {
    case OP_GCM_SIV_ENC:
    case OP_GCM_SIV_DEC:
        return key_bits == 128 || key_bits == 256;
    case OP_CMAC:
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        return key_bits == 128 || key_bits == 192 || key_bits == 256;
#ifdef OPENSSL_IS_AWSLC
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return key_bits == 256;
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return key_bits == 128 || key_bits == 192 || key_bits == 256;
#endif
    default:
        return 0;
    }
}

#ifdef OPENSSL_IS_AWSLC
/* AWS-LC's CCM EVP_CIPHER, keyed with a 12-byte nonce and 16-byte tag. */
static EVP_CIPHER_CTX *bssl_ccm_ctx(enum bench_op op, const uint8_t *key,
                                    unsigned key_bits)
{
    const EVP_CIPHER *cipher = key_bits == 128   ? EVP_aes_128_ccm()
                               : key_bits == 192 ? EVP_aes_192_ccm()
                                                 : EVP_aes_256_ccm();
    int enc = op == OP_CCM_ENC;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

    if (c == NULL)
        return NULL;
    if (!EVP_CipherInit_ex(c, cipher, NULL, NULL, NULL, enc) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, NULL) ||
        !EVP_CipherInit_ex(c, NULL, NULL, key, NULL, enc)) {
        EVP_CIPHER_CTX_free(c);
        return NULL;
    }
    return c;
}

static int bssl_ccm_run(EVP_CIPHER_CTX *c, enum bench_op op, const uint8_t *iv,
                        uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t tag[16];
    int n = 0, m = 0;

    if (len > INT_MAX)
        return -1;
    if (op == OP_CCM_ENC) {
        if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, iv, -1) ||
            !EVP_CipherUpdate(c, NULL, &n, NULL, (int)len) ||
            !EVP_CipherUpdate(c, out, &n, in, (int)len) ||
            !EVP_CipherFinal_ex(c, out + n, &m))
            return -1;
        return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out + len)
                   ? 0
                   : -1;
    }
    memcpy(tag, in + len, 16);
    if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, iv, -1) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) ||
        !EVP_CipherUpdate(c, NULL, &n, NULL, (int)len))
        return -1;
    return EVP_CipherUpdate(c, out, &n, in, (int)len) > 0 ? 0 : -1;
}
#endif

/* Key-setup scratch: one context per op and key size, made on first use. */
static EVP_CIPHER_CTX *bssl_scratch[OP_COUNT][3];

static int bssl_key_index(unsigned key_bits)
{
    return key_bits == 128 ? 0 : key_bits == 192 ? 1 : key_bits == 256 ? 2 : -1;
}

/* The EVP_CIPHER of a non-GCM op, or NULL. */
static const EVP_CIPHER *bssl_cipher(enum bench_op op, unsigned key_bits)
{
    int k = bssl_key_index(key_bits);

    if (k < 0)
        return NULL;
    switch (op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        return k == 0   ? EVP_aes_128_ecb()
               : k == 1 ? EVP_aes_192_ecb()
                        : EVP_aes_256_ecb();
    case OP_CBC_ENC:
    case OP_CBC_DEC:
        return k == 0   ? EVP_aes_128_cbc()
               : k == 1 ? EVP_aes_192_cbc()
                        : EVP_aes_256_cbc();
    case OP_OFB:
        return k == 0   ? EVP_aes_128_ofb()
               : k == 1 ? EVP_aes_192_ofb()
                        : EVP_aes_256_ofb();
    case OP_CTR:
        return k == 0   ? EVP_aes_128_ctr()
               : k == 1 ? EVP_aes_192_ctr()
                        : EVP_aes_256_ctr();
#ifdef OPENSSL_IS_AWSLC
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return k == 2 ? EVP_aes_256_xts() : NULL;
#endif
    default:
        return NULL;
    }
}

/* The EVP_AEAD of a GCM op (not ghash), or NULL. */
static const EVP_AEAD *bssl_aead(enum bench_op op, unsigned key_bits)
{
    int k = bssl_key_index(key_bits);

    if (op == OP_GCM_SIV_ENC || op == OP_GCM_SIV_DEC)
        return k == 0   ? EVP_aead_aes_128_gcm_siv()
               : k == 2 ? EVP_aead_aes_256_gcm_siv()
                        : NULL;
    if (k < 0 || (op != OP_GCM_ENC && op != OP_GCM_DEC && op != OP_GMAC))
        return NULL;
    return k == 0   ? EVP_aead_aes_128_gcm()
           : k == 1 ? EVP_aead_aes_192_gcm()
                    : EVP_aead_aes_256_gcm();
}

static int bssl_encrypts(enum bench_op op)
{
    return op != OP_ECB_DEC && op != OP_CBC_DEC && op != OP_XTS_DEC;
}

static int bssl_probe(void)
{
    return 1;
}

static int bssl_supports(enum bench_op op, unsigned key_bits)
{
    if (bench_op_is_mode19(op))
        return bssl_mode19(op, key_bits);
    return bssl_cipher(op, key_bits) != NULL || bssl_aead(op, key_bits) != NULL;
}

static void bssl_release(void *p)
{
    struct bssl_ctx *x = p;

    if (x == NULL)
        return;
    if (x->c != NULL)
        EVP_CIPHER_CTX_free(x->c);
    else if (x->cmac != NULL)
        CMAC_CTX_free(x->cmac);
    else if (x->op != OP_KW_WRAP && x->op != OP_KW_UNWRAP)
        EVP_AEAD_CTX_cleanup(&x->aead);
    OPENSSL_cleanse(x, sizeof(*x));
    free(x);
}

static void *bssl_setup(enum bench_op op, const uint8_t *key, unsigned key_bits,
                        const uint8_t iv[16])
{
    const EVP_CIPHER *cipher = bssl_cipher(op, key_bits);
    const EVP_AEAD *aead = bssl_aead(op, key_bits);
    struct bssl_ctx *x;
    uint8_t k2[64];
    int kw = op == OP_KW_WRAP || op == OP_KW_UNWRAP;

    if (cipher == NULL && aead == NULL && op != OP_CMAC && !kw &&
        op != OP_CCM_ENC && op != OP_CCM_DEC)
        return NULL;
    if (bench_op_is_mode19(op) && !bssl_mode19(op, key_bits))
        return NULL;
    x = calloc(1, sizeof(*x));
    if (x == NULL)
        return NULL;
    x->op = op;
    memcpy(x->iv, iv, 16);
    if (op == OP_CMAC) {
        x->cmac = CMAC_CTX_new();
        if (x->cmac == NULL || !CMAC_Init(x->cmac, key, key_bits / 8,
                                          key_bits == 128   ? EVP_aes_128_cbc()
                                          : key_bits == 192 ? EVP_aes_192_cbc()
                                                            : EVP_aes_256_cbc(),
                                          NULL)) {
            bssl_release(x);
            return NULL;
        }
        return x;
    }
    if (kw) {
        if ((op == OP_KW_WRAP
                 ? AES_set_encrypt_key(key, key_bits, &x->kw)
                 : AES_set_decrypt_key(key, key_bits, &x->kw)) != 0) {
            bssl_release(x);
            return NULL;
        }
        return x;
    }
#ifdef OPENSSL_IS_AWSLC
    if (op == OP_CCM_ENC || op == OP_CCM_DEC) {
        memcpy(x->key, key, key_bits / 8);
        x->key_bits = key_bits;
        x->c = bssl_ccm_ctx(op, key, key_bits);
        if (x->c == NULL) {
            bssl_release(x);
            return NULL;
        }
        return x;
    }
#endif
    if (op == OP_XTS_ENC || op == OP_XTS_DEC) {
        bench_op_key(key, key_bits, k2, 2 * key_bits / 8);
        bench_xts_tweak(iv, x->iv);
        key = k2;
    }
    if (aead != NULL) {
        EVP_AEAD_CTX_zero(&x->aead);
        if (!EVP_AEAD_CTX_init(&x->aead, aead, key, key_bits / 8, 16, NULL)) {
            free(x);
            return NULL;
        }
        return x;
    }
    x->has_iv = op != OP_ECB_ENC && op != OP_ECB_DEC;
    x->c = EVP_CIPHER_CTX_new();
    if (x->c == NULL ||
        !EVP_CipherInit_ex(x->c, cipher, NULL, key, x->has_iv ? x->iv : NULL,
                           bssl_encrypts(op)) ||
        !EVP_CIPHER_CTX_set_padding(x->c, 0)) {
        bssl_release(x); /* the AEAD context is zero: nothing to clean */
        return NULL;
    }
    return x;
}

static int bssl_run(void *p, uint8_t *out, const uint8_t *in, size_t len)
{
    struct bssl_ctx *x = p;
    size_t n = 0;
    int m = 0;

    switch (x->op) {
    case OP_GCM_ENC:
        return EVP_AEAD_CTX_seal(&x->aead, out, &n, len + 16, x->iv, 12, in,
                                 len, NULL, 0)
                   ? 0
                   : -1;
    case OP_GCM_DEC:
        return EVP_AEAD_CTX_open(&x->aead, out, &n, len, x->iv, 12, in,
                                 len + 16, NULL, 0)
                   ? 0
                   : -1;
    case OP_GMAC:
        return EVP_AEAD_CTX_seal(&x->aead, out, &n, 16, x->iv, 12, in, 0, in,
                                 len)
                   ? 0
                   : -1;
    case OP_GCM_SIV_ENC:
        return EVP_AEAD_CTX_seal(&x->aead, out, &n, len + 16, x->iv, 12, in,
                                 len, NULL, 0)
                   ? 0
                   : -1;
    case OP_GCM_SIV_DEC:
        return EVP_AEAD_CTX_open(&x->aead, out, &n, len, x->iv, 12, in,
                                 len + 16, NULL, 0)
                   ? 0
                   : -1;
#ifdef OPENSSL_IS_AWSLC
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        if (x->c == NULL)
            return -1;
        if (bssl_ccm_run(x->c, x->op, x->iv, out, in, len) == 0)
            return 0;
        /* After a refused tag AWS-LC's CCM context fails every later
         * message, even re-keyed (measured): a new one, as a caller must
         * make. Not on the timed path (its tags are good). */
        EVP_CIPHER_CTX_free(x->c);
        x->c = bssl_ccm_ctx(x->op, x->key, x->key_bits);
        return -1;
#endif
    case OP_CMAC:
        return CMAC_Reset(x->cmac) && CMAC_Update(x->cmac, in, len) &&
                       CMAC_Final(x->cmac, out, &n) && n == 16
                   ? 0
                   : -1;
    case OP_KW_WRAP:
        return len <= INT_MAX - 8 &&
                       AES_wrap_key(&x->kw, NULL, out, in, len) == (int)len + 8
                   ? 0
                   : -1;
    case OP_KW_UNWRAP:
        return len <= INT_MAX - 8 && AES_unwrap_key(&x->kw, NULL, out, in,
                                                    len + 8) == (int)len
                   ? 0
                   : -1;
    default:
        break;
    }
    if (len > INT_MAX)
        return -1;
    /* A new packet: the IV given at setup; key and direction unchanged. */
    if (x->has_iv && !EVP_CipherInit_ex(x->c, NULL, NULL, NULL, x->iv, -1))
        return -1;
    return EVP_CipherUpdate(x->c, out, &m, in, (int)len) && (size_t)m == len
               ? 0
               : -1;
}

/* GCM key setup (gcm-enc): EVP_AEAD_CTX_init, which expands the key and
 * computes H and the hash-key powers its GCM kernels use, then
 * EVP_AEAD_CTX_cleanup (the context holds its key inline: no allocation
 * to free, but the API asks for the pair). */
static int bssl_keysetup_gcm(enum bench_op op, const uint8_t *key,
                             unsigned key_bits)
{
    static EVP_AEAD_CTX scratch;
    const EVP_AEAD *aead = bssl_aead(op, key_bits);

    if (aead == NULL ||
        !EVP_AEAD_CTX_init(&scratch, aead, key, key_bits / 8, 16, NULL))
        return -1;
    EVP_AEAD_CTX_cleanup(&scratch);
    return 0;
}

/* Key setup alone: re-keying a context already set up for op's cipher
 * and direction; for GCM, bssl_keysetup_gcm. */
static int bssl_keysetup(enum bench_op op, const uint8_t *key,
                         unsigned key_bits)
{
    const EVP_CIPHER *cipher = bssl_cipher(op, key_bits);
    EVP_CIPHER_CTX **s;

    if (bench_op_is_gcm(op))
        return bssl_keysetup_gcm(op, key, key_bits);
    if (cipher == NULL)
        return -1;
    s = &bssl_scratch[op][bssl_key_index(key_bits)];
    if (*s == NULL) {
        *s = EVP_CIPHER_CTX_new();
        if (*s == NULL)
            return -1;
        if (!EVP_CipherInit_ex(*s, cipher, NULL, NULL, NULL,
                               bssl_encrypts(op))) {
            EVP_CIPHER_CTX_free(*s);
            *s = NULL;
            return -1;
        }
    }
    return EVP_CipherInit_ex(*s, NULL, NULL, key, NULL, -1) ? 0 : -1;
}

static const struct bench_impl bssl_impl = {
    .name = BSSL_ROW,
    .group = "peer",
    .probe = bssl_probe,
    .supports = bssl_supports,
    .setup = bssl_setup,
    .run = bssl_run,
    .release = bssl_release,
    .keysetup = bssl_keysetup,
};

void BSSL_REGISTER(bench_add_fn add)
{
    add(&bssl_impl);
}

#endif /* AESIR_BENCH_PEER_BSSL_API_H */
