/*
 * peer_wolfssl.c -- wolfSSL's wolfCrypt AES as a peer row, "wolfssl".
 *
 * Per message, what a wolfCrypt user does for a new packet on an existing
 * key: wc_AesSetIV() (which also clears the count of unused key-stream
 * bytes, Aes.left, that CTR, CFB and OFB keep between calls), then one
 * wc_Aes<Mode>Encrypt/Decrypt() call. The key is set once, at setup, with
 * wc_AesInit() + wc_AesSetKey(): direction AES_DECRYPTION for ECB and CBC
 * decryption, AES_ENCRYPTION for everything else (CTR, CFB and OFB use only
 * the forward cipher, in both directions).
 *
 * Operations: ECB enc/dec (wc_AesEcbEncrypt/Decrypt), CBC enc/dec, CFB128
 * enc/dec (wc_AesCfbEncrypt/Decrypt), OFB (wc_AesOfbEncrypt), CTR
 * (wc_AesCtrEncrypt), for 128-, 192- and 256-bit keys -- every one is
 * compiled into Debian's libwolfssl (HAVE_AES_ECB, WOLFSSL_AES_CFB,
 * WOLFSSL_AES_OFB, WOLFSSL_AES_COUNTER in <wolfssl/options.h>). The
 * adapter needs the same macros: where the installed options.h lacks one,
 * that operation is reported unsupported.
 *
 * GCM (HAVE_AESGCM; wolfCrypt has no public GHASH, so no ghash): key set
 * once with wc_AesGcmSetKey; per message one wc_AesGcmEncrypt (12-byte
 * IV, 16-byte tag, no AAD), one wc_AesGcmDecrypt (AES_GCM_AUTH_E when the
 * tag does not verify), or for gmac one wc_AesGcmEncrypt of an empty
 * message with the data as AAD. Debian's build uses its 4-bit-table GHASH
 * (GCM_TABLE_4BIT) and table AES: no AES-NI or PCLMULQDQ.
 *
 * CTR: wolfCrypt increments the whole 16-byte counter block as one
 * big-endian number (128-bit counter), as aesir does; any length.
 *
 * Which AES code runs: a library configured with --enable-aesni (or
 * --enable-intelasm) has AES-NI paths; Debian 12's 5.5.4 build has neither
 * (its options.h has no WOLFSSL_AESNI and the library contains no AES
 * instructions), so this row is wolfCrypt's portable table-based C AES.
 *
 * Build: <wolfssl/options.h> must be included before any other wolfSSL
 * header (it carries the build's configuration, on which struct Aes's
 * layout depends); header <wolfssl/wolfcrypt/aes.h>; library -lwolfssl
 * (pkg-config: wolfssl).
 */
#include "bench.h"

#include <wolfssl/options.h>
#include <wolfssl/wolfcrypt/aes.h>
#include <wolfssl/wolfcrypt/cmac.h>
#include <wolfssl/wolfcrypt/types.h>

#include <stdlib.h>
#include <string.h>

struct wolf_ctx {
    Aes aes;
    enum bench_op op;
    uint8_t iv[16];
#ifdef WOLFSSL_AES_XTS
    XtsAes xts;
#endif
    uint8_t key[64]; /* siv, cmac: the one-shot calls take the key */
    unsigned key_bytes;
};

/*
 * Issue 19's modes, as Debian's wolfSSL 5.5 is built (HAVE_AESCCM,
 * WOLFSSL_CMAC, WOLFSSL_AES_XTS, HAVE_AES_KEYWRAP, WOLFSSL_AES_SIV; no
 * OCB, GCM-SIV or AEGIS in wolfSSL):
 *   ccm:   wc_AesCcmSetKey once; wc_AesCcmEncrypt / _Decrypt per message
 *          (12-byte nonce, no AAD, 16-byte tag after the ciphertext).
 *   xts:   wc_AesXtsSetKey once (XTS keys of 32 and 64 bytes),
 *          wc_AesXtsEncrypt / _Decrypt with the 16-byte tweak.
 *   kw:    wc_AesSetKey once, wc_AesKeyWrap_ex / wc_AesKeyUnWrap_ex
 *          (RFC 3394, default IV).
 *   cmac:  wc_AesCmacGenerate, wolfSSL's one-shot CMAC, which keys a
 *          Cmac from the raw key per call (its keyed Cmac object cannot
 *          restart after wc_CmacFinal): that key setup is in the figure.
 *   siv:   wc_AesSivEncrypt / _Decrypt, which also take the raw key (the
 *          two AES schedules made per call); the iv as the one AD string,
 *          no nonce; V first, then the ciphertext.
 */
static int wolf_m19_supports(enum bench_op op, unsigned key_bits)
{
    switch (op) {
#ifdef HAVE_AESCCM
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return 1;
#endif
#ifdef WOLFSSL_AES_XTS
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return key_bits != 192;
#endif
#ifdef HAVE_AES_KEYWRAP
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        return 1;
#endif
#ifdef WOLFSSL_CMAC
    case OP_CMAC:
        return 1;
#endif
#ifdef WOLFSSL_AES_SIV
    case OP_SIV_ENC:
    case OP_SIV_DEC:
        return 1;
#endif
    default:
        (void)key_bits;
        return 0;
    }
}

static int wolf_probe(void)
{
    return 1;
}

static int wolf_supports(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
    if (bench_op_is_mode19(op))
        return wolf_m19_supports(op, key_bits);
    switch (op) {
#ifdef HAVE_AES_ECB
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        return 1;
#endif
#ifdef HAVE_AES_CBC
    case OP_CBC_ENC:
    case OP_CBC_DEC:
        return 1;
#endif
#ifdef WOLFSSL_AES_CFB
    case OP_CFB128_ENC:
    case OP_CFB128_DEC:
        return 1;
#endif
#ifdef WOLFSSL_AES_OFB
    case OP_OFB:
        return 1;
#endif
#ifdef WOLFSSL_AES_COUNTER
    case OP_CTR:
        return 1;
#endif
#ifdef HAVE_AESGCM
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GMAC:
        return 1;
#endif
    default:
        return 0;
    }
}

/* ECB and CBC decryption use the inverse cipher; every other operation
 * only the forward one. */
static int wolf_dir(enum bench_op op)
{
    return op == OP_ECB_DEC || op == OP_CBC_DEC ? AES_DECRYPTION
                                                : AES_ENCRYPTION;
}

/* wolf_key -- wc_AesInit + wc_AesSetKey; 0 on success. */
static int wolf_key(Aes *aes, enum bench_op op, const uint8_t *key,
                    unsigned key_bits, const uint8_t *iv)
{
    if (wc_AesInit(aes, NULL, INVALID_DEVID) != 0)
        return -1;
#ifdef HAVE_AESGCM
    if (bench_op_is_gcm(op)) {
        if (wc_AesGcmSetKey(aes, key, key_bits / 8) != 0) {
            wc_AesFree(aes);
            return -1;
        }
        return 0;
    }
#endif
    if (wc_AesSetKey(aes, key, key_bits / 8, iv, wolf_dir(op)) != 0) {
        wc_AesFree(aes);
        return -1;
    }
    return 0;
}

static void wolf_release(void *ctx);

/* wolf_m19_key -- the key of issue 19's op into c; 0 or -1. */
static int wolf_m19_key(struct wolf_ctx *c, const uint8_t *key,
                        unsigned key_bits)
{
    word32 kb = key_bits / 8;

    if (wc_AesInit(&c->aes, NULL, INVALID_DEVID) != 0)
        return -1;
    c->key_bytes = kb;
    switch (c->op) {
#ifdef HAVE_AESCCM
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return wc_AesCcmSetKey(&c->aes, key, kb) == 0 ? 0 : -1;
#endif
#ifdef WOLFSSL_AES_XTS
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        bench_op_key(key, key_bits, c->key, 2 * kb);
        bench_xts_tweak(c->iv, c->iv);
        return wc_AesXtsSetKey(&c->xts, c->key, 2 * kb,
                               c->op == OP_XTS_ENC ? AES_ENCRYPTION
                                                   : AES_DECRYPTION,
                               NULL, INVALID_DEVID) == 0
                   ? 0
                   : -1;
#endif
#ifdef HAVE_AES_KEYWRAP
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        return wc_AesSetKey(&c->aes, key, kb, NULL,
                            c->op == OP_KW_WRAP ? AES_ENCRYPTION
                                                : AES_DECRYPTION) == 0
                   ? 0
                   : -1;
#endif
    case OP_SIV_ENC:
    case OP_SIV_DEC:
        bench_op_key(key, key_bits, c->key, 2 * kb);
        c->key_bytes = 2 * kb;
        return 0;
    default: /* cmac */
        memcpy(c->key, key, kb);
        return 0;
    }
}

static int wolf_m19_run(struct wolf_ctx *c, uint8_t *out, const uint8_t *in,
                        word32 n)
{
    word32 t = 16;

    switch (c->op) {
#ifdef HAVE_AESCCM
    case OP_CCM_ENC:
        return wc_AesCcmEncrypt(&c->aes, out, in, n, c->iv, 12, out + n, 16,
                                NULL, 0) == 0
                   ? 0
                   : -1;
    case OP_CCM_DEC:
        return wc_AesCcmDecrypt(&c->aes, out, in, n, c->iv, 12, in + n, 16,
                                NULL, 0) == 0
                   ? 0
                   : -1;
#endif
#ifdef WOLFSSL_AES_XTS
    case OP_XTS_ENC:
        return wc_AesXtsEncrypt(&c->xts, out, in, n, c->iv, 16) == 0 ? 0 : -1;
    case OP_XTS_DEC:
        return wc_AesXtsDecrypt(&c->xts, out, in, n, c->iv, 16) == 0 ? 0 : -1;
#endif
#ifdef HAVE_AES_KEYWRAP
    case OP_KW_WRAP:
        return wc_AesKeyWrap_ex(&c->aes, in, n, out, n + 8, NULL) == (int)n + 8
                   ? 0
                   : -1;
    case OP_KW_UNWRAP:
        return wc_AesKeyUnWrap_ex(&c->aes, in, n + 8, out, n, NULL) == (int)n
                   ? 0
                   : -1;
#endif
#ifdef WOLFSSL_CMAC
    case OP_CMAC:
        return wc_AesCmacGenerate(out, &t, in, n, c->key, c->key_bytes) == 0 &&
                       t == 16
                   ? 0
                   : -1;
#endif
#ifdef WOLFSSL_AES_SIV
    case OP_SIV_ENC:
        return wc_AesSivEncrypt(c->key, c->key_bytes, c->iv, 16, NULL, 0, in, n,
                                out, out + 16) == 0
                   ? 0
                   : -1;
    case OP_SIV_DEC: {
        uint8_t v[16];
        memcpy(v, in, 16);
        return wc_AesSivDecrypt(c->key, c->key_bytes, c->iv, 16, NULL, 0,
                                in + 16, n, v, out) == 0
                   ? 0
                   : -1;
    }
#endif
    default:
        (void)t;
        return -1;
    }
}

static void *wolf_setup(enum bench_op op, const uint8_t *key, unsigned key_bits,
                        const uint8_t iv[16])
{
    struct wolf_ctx *c;

    if (!wolf_supports(op, key_bits))
        return NULL;
    c = aligned_alloc(64, (sizeof(*c) + 63) / 64 * 64);
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof(*c));
    if (iv != NULL)
        memcpy(c->iv, iv, 16);
    if (bench_op_is_mode19(op)) {
        c->op = op;
        if (wolf_m19_key(c, key, key_bits) != 0) {
            wolf_release(c);
            return NULL;
        }
        return c;
    }
    if (wolf_key(&c->aes, op, key, key_bits, c->iv) != 0) {
        free(c);
        return NULL;
    }
    c->op = op;
    return c;
}

static int wolf_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct wolf_ctx *c = ctx;
    Aes *aes = &c->aes;
    word32 n = (word32)len;

    if ((size_t)n != len || n > 0xffffffffu - 64)
        return -1;
    if (bench_op_is_mode19(c->op))
        return wolf_m19_run(c, out, in, n);
#ifdef HAVE_AESGCM
    switch (c->op) {
    case OP_GCM_ENC:
        return wc_AesGcmEncrypt(aes, out, in, n, c->iv, 12, out + len, 16, NULL,
                                0) == 0
                   ? 0
                   : -1;
    case OP_GCM_DEC:
        return wc_AesGcmDecrypt(aes, out, in, n, c->iv, 12, in + len, 16, NULL,
                                0) == 0
                   ? 0
                   : -1;
    case OP_GMAC:
        return wc_AesGcmEncrypt(aes, NULL, NULL, 0, c->iv, 12, out, 16, in,
                                n) == 0
                   ? 0
                   : -1;
    default:
        break;
    }
#endif
    if (len == 0)
        return 0;
    if (c->op != OP_ECB_ENC && c->op != OP_ECB_DEC &&
        wc_AesSetIV(aes, c->iv) != 0)
        return -1;
    switch (c->op) {
#ifdef HAVE_AES_ECB
    case OP_ECB_ENC:
        return wc_AesEcbEncrypt(aes, out, in, n) == 0 ? 0 : -1;
    case OP_ECB_DEC:
        return wc_AesEcbDecrypt(aes, out, in, n) == 0 ? 0 : -1;
#endif
#ifdef HAVE_AES_CBC
    case OP_CBC_ENC:
        return wc_AesCbcEncrypt(aes, out, in, n) == 0 ? 0 : -1;
    case OP_CBC_DEC:
        return wc_AesCbcDecrypt(aes, out, in, n) == 0 ? 0 : -1;
#endif
#ifdef WOLFSSL_AES_CFB
    case OP_CFB128_ENC:
        return wc_AesCfbEncrypt(aes, out, in, n) == 0 ? 0 : -1;
    case OP_CFB128_DEC:
        return wc_AesCfbDecrypt(aes, out, in, n) == 0 ? 0 : -1;
#endif
#ifdef WOLFSSL_AES_OFB
    case OP_OFB:
        return wc_AesOfbEncrypt(aes, out, in, n) == 0 ? 0 : -1;
#endif
#ifdef WOLFSSL_AES_COUNTER
    case OP_CTR:
        return wc_AesCtrEncrypt(aes, out, in, n) == 0 ? 0 : -1;
#endif
    default:
        return -1;
    }
}

static void wolf_release(void *ctx)
{
    struct wolf_ctx *c = ctx;

    if (c == NULL)
        return;
    wc_AesFree(&c->aes);
#ifdef WOLFSSL_AES_XTS
    if (c->op == OP_XTS_ENC || c->op == OP_XTS_DEC)
        wc_AesXtsFree(&c->xts);
#endif
    memset(c, 0, sizeof(*c));
    free(c);
}

/* One key schedule: wc_AesInit (a few stores) + wc_AesSetKey, which also
 * loads a zero IV. */
static int wolf_keysetup(enum bench_op op, const uint8_t *key,
                         unsigned key_bits)
{
    Aes aes;

    if (!wolf_supports(op, key_bits) || bench_op_is_mode19(op) ||
        wolf_key(&aes, op, key, key_bits, NULL) != 0)
        return -1;
    wc_AesFree(&aes);
    return 0;
}

static const struct bench_impl wolf_impl = {
    .name = "wolfssl",
    .group = "peer",
    .probe = wolf_probe,
    .supports = wolf_supports,
    .setup = wolf_setup,
    .run = wolf_run,
    .release = wolf_release,
    .keysetup = wolf_keysetup,
};

void bench_register_wolfssl(bench_add_fn add)
{
    add(&wolf_impl);
}
