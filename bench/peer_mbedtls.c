/*
 * peer_mbedtls.c -- Mbed TLS's AES (libmbedcrypto) as a peer row,
 * "mbedtls".
 *
 * Per message, what an Mbed TLS user does for a new packet on an existing
 * key: copy the IV (or initial counter block) into a working buffer, which
 * the mode functions update, set the offset into the key stream (iv_off,
 * nc_off) to 0, and make one mbedtls_aes_crypt_<mode>() call. ECB has no
 * multi-block function: mbedtls_aes_crypt_ecb() takes one block, so the
 * message is a loop of calls, as users write it.
 *
 * Operations: ECB enc/dec, CBC enc/dec, CFB128 enc/dec, OFB and CTR for
 * 128-, 192- and 256-bit keys, each where the installed configuration has
 * it (MBEDTLS_CIPHER_MODE_CBC, _CFB, _OFB, _CTR; Debian 12's 2.28.3 has all
 * of them). The key schedule: mbedtls_aes_setkey_dec() for ECB and CBC
 * decryption, mbedtls_aes_setkey_enc() for everything else (CFB, OFB and
 * CTR use the forward cipher in both directions).
 *
 * GCM (MBEDTLS_GCM_C; no public GHASH, so no ghash): mbedtls_gcm_setkey
 * once per context; per message one mbedtls_gcm_crypt_and_tag (12-byte
 * IV, no AAD, 16-byte tag), one mbedtls_gcm_auth_decrypt (which checks
 * the tag), or for gmac one mbedtls_gcm_crypt_and_tag of an empty message
 * with the data as AAD. With AES-NI present, 2.28 also multiplies with
 * PCLMULQDQ (one block at a time, mbedtls_aesni_gcm_mult).
 *
 * CTR: Mbed TLS increments the whole 16-byte nonce_counter block as one
 * big-endian number (128-bit counter), as aesir does; any length.
 *
 * Which AES code runs: with MBEDTLS_AESNI_C (set in Debian's build) Mbed
 * TLS checks CPUID once and then encrypts with AES-NI -- one block per
 * instruction sequence, no interleaving of blocks in any mode, since every
 * mode is written on the one-block mbedtls_aes_crypt_ecb(). Without AES-NI
 * it uses its table-based C code.
 *
 * Build: header <mbedtls/aes.h> (2.x configuration in <mbedtls/config.h>),
 * library -lmbedcrypto (Debian: libmbedtls-dev; no pkg-config file in 2.x;
 * 3.x ships mbedcrypto.pc).
 */
#include "bench.h"

#include <mbedtls/aes.h>
#include <mbedtls/ccm.h>
#include <mbedtls/cipher.h>
#include <mbedtls/cmac.h>
#include <mbedtls/gcm.h>

#include <stdlib.h>
#include <string.h>

struct mbed_ctx {
    mbedtls_aes_context aes; /* must not move after setkey: it points into
                                itself */
    mbedtls_gcm_context gcm; /* the GCM ops */
    enum bench_op op;
    unsigned char iv[16];
    /* issue 19's modes */
    mbedtls_ccm_context ccm;
    mbedtls_cipher_context_t cmac;
#ifdef MBEDTLS_CIPHER_MODE_XTS
    mbedtls_aes_xts_context xts;
#endif
};

/*
 * Issue 19's modes, as Debian's Mbed TLS 2.28 is configured (CCM, CMAC,
 * XTS; no NIST_KW_C, no OCB, SIV, GCM-SIV or AEGIS in Mbed TLS):
 *   ccm:   mbedtls_ccm_encrypt_and_tag / mbedtls_ccm_auth_decrypt, 12-byte
 *          nonce, no AAD, 16-byte tag after the ciphertext.
 *   cmac:  a cipher context (AES-<n>-ECB) keyed once with
 *          mbedtls_cipher_cmac_starts; per message _reset, _update,
 *          _finish.
 *   xts:   mbedtls_aes_xts_setkey_enc/_dec (XTS keys of 32 and 64 bytes),
 *          mbedtls_aes_crypt_xts with the 16-byte data unit (tweak).
 */
static int mbed_m19_supports(enum bench_op op, unsigned key_bits)
{
    switch (op) {
#ifdef MBEDTLS_CCM_C
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return 1;
#endif
#ifdef MBEDTLS_CMAC_C
    case OP_CMAC:
        return 1;
#endif
#ifdef MBEDTLS_CIPHER_MODE_XTS
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return key_bits != 192;
#endif
    default:
        (void)key_bits;
        return 0;
    }
}

static int mbed_m19_key(struct mbed_ctx *c, const uint8_t *key,
                        unsigned key_bits)
{
    uint8_t k2[64];
    int r = -1;

    switch (c->op) {
#ifdef MBEDTLS_CCM_C
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        r = mbedtls_ccm_setkey(&c->ccm, MBEDTLS_CIPHER_ID_AES, key, key_bits);
        break;
#endif
#ifdef MBEDTLS_CMAC_C
    case OP_CMAC:
        r = mbedtls_cipher_setup(
            &c->cmac, mbedtls_cipher_info_from_type(
                          key_bits == 128   ? MBEDTLS_CIPHER_AES_128_ECB
                          : key_bits == 192 ? MBEDTLS_CIPHER_AES_192_ECB
                                            : MBEDTLS_CIPHER_AES_256_ECB));
        if (r == 0)
            r = mbedtls_cipher_cmac_starts(&c->cmac, key, key_bits);
        break;
#endif
#ifdef MBEDTLS_CIPHER_MODE_XTS
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        bench_op_key(key, key_bits, k2, 2 * key_bits / 8);
        bench_xts_tweak(c->iv, c->iv);
        r = c->op == OP_XTS_ENC
                ? mbedtls_aes_xts_setkey_enc(&c->xts, k2, 2 * key_bits)
                : mbedtls_aes_xts_setkey_dec(&c->xts, k2, 2 * key_bits);
        break;
#endif
    default:
        break;
    }
    memset(k2, 0, sizeof(k2));
    return r == 0 ? 0 : -1;
}

static int mbed_m19_run(struct mbed_ctx *c, uint8_t *out, const uint8_t *in,
                        size_t len)
{
    switch (c->op) {
#ifdef MBEDTLS_CCM_C
    case OP_CCM_ENC:
        return mbedtls_ccm_encrypt_and_tag(&c->ccm, len, c->iv, 12, NULL, 0, in,
                                           out, out + len, 16) == 0
                   ? 0
                   : -1;
    case OP_CCM_DEC:
        return mbedtls_ccm_auth_decrypt(&c->ccm, len, c->iv, 12, NULL, 0, in,
                                        out, in + len, 16) == 0
                   ? 0
                   : -1;
#endif
#ifdef MBEDTLS_CMAC_C
    case OP_CMAC:
        return mbedtls_cipher_cmac_reset(&c->cmac) == 0 &&
                       mbedtls_cipher_cmac_update(&c->cmac, in, len) == 0 &&
                       mbedtls_cipher_cmac_finish(&c->cmac, out) == 0
                   ? 0
                   : -1;
#endif
#ifdef MBEDTLS_CIPHER_MODE_XTS
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return mbedtls_aes_crypt_xts(&c->xts,
                                     c->op == OP_XTS_ENC ? MBEDTLS_AES_ENCRYPT
                                                         : MBEDTLS_AES_DECRYPT,
                                     len, c->iv, in, out) == 0
                   ? 0
                   : -1;
#endif
    default:
        (void)out;
        (void)in;
        (void)len;
        return -1;
    }
}

static int mbed_probe(void)
{
    return 1;
}

static int mbed_supports(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
    if (bench_op_is_mode19(op))
        return mbed_m19_supports(op, key_bits);
    switch (op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        return 1;
#ifdef MBEDTLS_CIPHER_MODE_CBC
    case OP_CBC_ENC:
    case OP_CBC_DEC:
        return 1;
#endif
#ifdef MBEDTLS_CIPHER_MODE_CFB
    case OP_CFB128_ENC:
    case OP_CFB128_DEC:
        return 1;
#endif
#ifdef MBEDTLS_CIPHER_MODE_OFB
    case OP_OFB:
        return 1;
#endif
#ifdef MBEDTLS_CIPHER_MODE_CTR
    case OP_CTR:
        return 1;
#endif
#ifdef MBEDTLS_GCM_C
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GMAC:
        return 1;
#endif
    default:
        return 0;
    }
}

/* mbed_key -- the key schedule op needs into aes (initialised); 0 on
 * success. */
static int mbed_key(mbedtls_aes_context *aes, enum bench_op op,
                    const uint8_t *key, unsigned key_bits)
{
    if (op == OP_ECB_DEC || op == OP_CBC_DEC)
        return mbedtls_aes_setkey_dec(aes, key, key_bits) == 0 ? 0 : -1;
    return mbedtls_aes_setkey_enc(aes, key, key_bits) == 0 ? 0 : -1;
}

static void mbed_release(void *ctx);

static void *mbed_setup(enum bench_op op, const uint8_t *key, unsigned key_bits,
                        const uint8_t iv[16])
{
    struct mbed_ctx *c;

    if (!mbed_supports(op, key_bits))
        return NULL;
    c = aligned_alloc(64, (sizeof(*c) + 63) / 64 * 64);
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof(*c));
    mbedtls_aes_init(&c->aes);
    mbedtls_gcm_init(&c->gcm);
    mbedtls_ccm_init(&c->ccm);
    mbedtls_cipher_init(&c->cmac);
#ifdef MBEDTLS_CIPHER_MODE_XTS
    mbedtls_aes_xts_init(&c->xts);
#endif
    if (bench_op_is_mode19(op)) {
        c->op = op;
        memcpy(c->iv, iv, 16);
        if (mbed_m19_key(c, key, key_bits) != 0) {
            mbed_release(c);
            return NULL;
        }
        return c;
    }
    if (bench_op_is_gcm(op)) {
        if (mbedtls_gcm_setkey(&c->gcm, MBEDTLS_CIPHER_ID_AES, key, key_bits) !=
            0) {
            mbedtls_gcm_free(&c->gcm);
            free(c);
            return NULL;
        }
    } else if (mbed_key(&c->aes, op, key, key_bits) != 0) {
        mbedtls_aes_free(&c->aes);
        free(c);
        return NULL;
    }
    c->op = op;
    if (iv != NULL)
        memcpy(c->iv, iv, 16);
    return c;
}

/* mbed_ecb -- the message as a loop of one-block calls. */
static int mbed_ecb(mbedtls_aes_context *aes, int mode, uint8_t *out,
                    const uint8_t *in, size_t len)
{
    size_t i;

    if (len % 16 != 0)
        return -1;
    for (i = 0; i < len; i += 16)
        if (mbedtls_aes_crypt_ecb(aes, mode, in + i, out + i) != 0)
            return -1;
    return 0;
}

/* The GCM ops, one message each (see the top of the file). */
static int mbed_run_gcm(struct mbed_ctx *c, uint8_t *out, const uint8_t *in,
                        size_t len)
{
    switch (c->op) {
    case OP_GCM_ENC:
        return mbedtls_gcm_crypt_and_tag(&c->gcm, MBEDTLS_GCM_ENCRYPT, len,
                                         c->iv, 12, NULL, 0, in, out, 16,
                                         out + len) == 0
                   ? 0
                   : -1;
    case OP_GCM_DEC:
        return mbedtls_gcm_auth_decrypt(&c->gcm, len, c->iv, 12, NULL, 0,
                                        in + len, 16, in, out) == 0
                   ? 0
                   : -1;
    default: /* OP_GMAC */
        return mbedtls_gcm_crypt_and_tag(&c->gcm, MBEDTLS_GCM_ENCRYPT, 0, c->iv,
                                         12, in, len, NULL, NULL, 16, out) == 0
                   ? 0
                   : -1;
    }
}

static int mbed_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct mbed_ctx *c = ctx;
    mbedtls_aes_context *aes = &c->aes;
    unsigned char iv[16];
    int r;

    if (bench_op_is_gcm(c->op))
        return mbed_run_gcm(c, out, in, len);
    if (bench_op_is_mode19(c->op))
        return mbed_m19_run(c, out, in, len);
    memcpy(iv, c->iv, 16);
    switch (c->op) {
    case OP_ECB_ENC:
        return mbed_ecb(aes, MBEDTLS_AES_ENCRYPT, out, in, len);
    case OP_ECB_DEC:
        return mbed_ecb(aes, MBEDTLS_AES_DECRYPT, out, in, len);
#ifdef MBEDTLS_CIPHER_MODE_CBC
    case OP_CBC_ENC:
        r = mbedtls_aes_crypt_cbc(aes, MBEDTLS_AES_ENCRYPT, len, iv, in, out);
        break;
    case OP_CBC_DEC:
        r = mbedtls_aes_crypt_cbc(aes, MBEDTLS_AES_DECRYPT, len, iv, in, out);
        break;
#endif
#ifdef MBEDTLS_CIPHER_MODE_CFB
    case OP_CFB128_ENC:
    case OP_CFB128_DEC: {
        int mode =
            c->op == OP_CFB128_ENC ? MBEDTLS_AES_ENCRYPT : MBEDTLS_AES_DECRYPT;
        size_t iv_off = 0;

        r = mbedtls_aes_crypt_cfb128(aes, mode, len, &iv_off, iv, in, out);
        break;
    }
#endif
#ifdef MBEDTLS_CIPHER_MODE_OFB
    case OP_OFB: {
        size_t iv_off = 0;

        r = mbedtls_aes_crypt_ofb(aes, len, &iv_off, iv, in, out);
        break;
    }
#endif
#ifdef MBEDTLS_CIPHER_MODE_CTR
    case OP_CTR: {
        size_t nc_off = 0;
        unsigned char stream_block[16];

        r = mbedtls_aes_crypt_ctr(aes, len, &nc_off, iv, stream_block, in, out);
        break;
    }
#endif
    default:
        return -1;
    }
    return r == 0 ? 0 : -1;
}

static void mbed_release(void *ctx)
{
    struct mbed_ctx *c = ctx;

    if (c == NULL)
        return;
    mbedtls_aes_free(&c->aes);
    mbedtls_gcm_free(&c->gcm);
    mbedtls_ccm_free(&c->ccm);
    mbedtls_cipher_free(&c->cmac);
#ifdef MBEDTLS_CIPHER_MODE_XTS
    mbedtls_aes_xts_free(&c->xts);
#endif
    memset(c, 0, sizeof(*c));
    free(c);
}

/* One key schedule, for the direction op needs (mbedtls_aes_init is a
 * memset of the context). For GCM (gcm-enc): mbedtls_gcm_init,
 * mbedtls_gcm_setkey (the cipher context set up -- which allocates it --
 * the key expanded, H and the 4-bit table computed) and mbedtls_gcm_free,
 * since a GCM context has no re-key call without that allocation. */
static int mbed_keysetup(enum bench_op op, const uint8_t *key,
                         unsigned key_bits)
{
    mbedtls_aes_context aes;
    int r;

    if (!mbed_supports(op, key_bits) || bench_op_is_mode19(op))
        return -1;
#ifdef MBEDTLS_GCM_C
    if (bench_op_is_gcm(op)) {
        mbedtls_gcm_context gcm;
        mbedtls_gcm_init(&gcm);
        r = mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, key, key_bits);
        mbedtls_gcm_free(&gcm);
        return r == 0 ? 0 : -1;
    }
#endif
    mbedtls_aes_init(&aes);
    r = mbed_key(&aes, op, key, key_bits);
    mbedtls_aes_free(&aes);
    return r;
}

static const struct bench_impl mbed_impl = {
    .name = "mbedtls",
    .group = "peer",
    .probe = mbed_probe,
    .supports = mbed_supports,
    .setup = mbed_setup,
    .run = mbed_run,
    .release = mbed_release,
    .keysetup = mbed_keysetup,
};

void bench_register_mbedtls(bench_add_fn add)
{
    add(&mbed_impl);
}
