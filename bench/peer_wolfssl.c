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
#include <wolfssl/wolfcrypt/types.h>

#include <stdlib.h>
#include <string.h>

struct wolf_ctx {
    Aes aes;
    enum bench_op op;
    uint8_t iv[16];
};

static int wolf_probe(void)
{
    return 1;
}

static int wolf_supports(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
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

    if ((size_t)n != len)
        return -1;
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
    memset(c, 0, sizeof(*c));
    free(c);
}

/* One key schedule: wc_AesInit (a few stores) + wc_AesSetKey, which also
 * loads a zero IV. */
static int wolf_keysetup(enum bench_op op, const uint8_t *key,
                         unsigned key_bits)
{
    Aes aes;

    if (!wolf_supports(op, key_bits) ||
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
