/*
 * peer_nettle.c -- GNU Nettle as one row, "nettle".
 *
 * Nettle chooses its AES code itself: a "fat" build (Debian's is one)
 * picks AES-NI assembly at load time when the CPU has it, otherwise its
 * table-based assembly or C; there is no public switch (only the
 * NETTLE_FAT_OVERRIDE environment variable), so there is one row.
 *
 * Per message (run()), what a Nettle user does: the mode functions take
 * the IV (counter block) by pointer and advance it in place, so a new
 * packet starts by copying the IV given at setup into a working buffer.
 * Then one call: aes<N>_encrypt/decrypt for ECB; for CBC encryption the
 * AES-specialised cbc_aes<N>_encrypt (Nettle 3.8; its generic cbc_encrypt
 * calls the cipher one block at a time); cbc_decrypt, cfb_encrypt,
 * cfb_decrypt and ctr_crypt with the cipher function cast to
 * nettle_cipher_func, as Nettle's manual does. ctr_crypt increments the
 * whole 16-byte block as one big-endian number, as bench.h wants.
 *
 * Nettle has no OFB mode: OP_OFB is not supported.
 *
 * GCM: the AES-specialised gcm_aes<N>_* functions (the key's H table and
 * the cipher in one context). Per message: gcm_aes<N>_set_iv (12 bytes),
 * then gcm-enc: gcm_aes<N>_encrypt and _digest; gcm-dec: _decrypt, _digest
 * and memeql_sec against the tag (Nettle leaves the comparison to the
 * caller); gmac: _update (AAD) and _digest; ghash: _update alone -- GHASH
 * of the AAD from Y = 0 -- and the context's Y (gcm_ctx.x), which is
 * GHASH without a length block.
 *
 * Link with nettle (pkg-config nettle).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/cfb.h>
#include <nettle/ctr.h>
#include <nettle/ccm.h>
#include <nettle/cmac.h>
#include <nettle/gcm.h>
#include <nettle/xts.h>
#include <nettle/memops.h>
#include <nettle/version.h>

#include "bench.h"

union nettle_aes {
    struct aes128_ctx a128;
    struct aes192_ctx a192;
    struct aes256_ctx a256;
};

union nettle_gcm {
    struct gcm_aes128_ctx g128;
    struct gcm_aes192_ctx g192;
    struct gcm_aes256_ctx g256;
};

/* Issue 19's modes (nettle 3.8: CMAC, CCM, XTS). */
union nettle_m19 {
    struct cmac_aes128_ctx cmac128;
    struct cmac_aes256_ctx cmac256;
    struct ccm_aes128_ctx ccm128;
    struct ccm_aes192_ctx ccm192;
    struct ccm_aes256_ctx ccm256;
    struct xts_aes128_key xts128;
    struct xts_aes256_key xts256;
};

struct nettle_ctx {
    union nettle_aes k;
    union nettle_gcm g; /* the GCM ops */
    union nettle_m19 m; /* issue 19's modes */
    enum bench_op op;
    unsigned key_bits;
    nettle_cipher_func *encrypt; /* aes<N>_encrypt, for the mode helpers */
    nettle_cipher_func *decrypt; /* aes<N>_decrypt */
    uint8_t iv[16];
};

/* Non-zero when op decrypts with the AES decryption direction (the other
 * ops, CFB decryption included, run the cipher forwards). */
static int uses_decrypt_key(enum bench_op op)
{
    return op == OP_ECB_DEC || op == OP_CBC_DEC;
}

static int nettle_probe(void)
{
    if (nettle_version_major() != NETTLE_VERSION_MAJOR) {
        fprintf(stderr, "nettle: library %d.%d does not match headers %d.%d\n",
                nettle_version_major(), nettle_version_minor(),
                NETTLE_VERSION_MAJOR, NETTLE_VERSION_MINOR);
        return 0;
    }
    return 1;
}

static int nettle_supports(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
    switch (op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
    case OP_CBC_ENC:
    case OP_CBC_DEC:
    case OP_CFB128_ENC:
    case OP_CFB128_DEC:
    case OP_CTR:
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GMAC:
    case OP_GHASH:
        return 1;
    default:
        return 0;
    }
}

/* NETTLE_GCM(x, f, ...) -- gcm_aes<N>_f on x's GCM context. */
#define NETTLE_GCM(x, f, ...)                                                  \
    ((x)->key_bits == 128   ? gcm_aes128_##f(&(x)->g.g128, __VA_ARGS__)        \
     : (x)->key_bits == 192 ? gcm_aes192_##f(&(x)->g.g192, __VA_ARGS__)        \
                            : gcm_aes256_##f(&(x)->g.g256, __VA_ARGS__))

/* gcm_aes<N>_set_key: the AES key and the hash key's table (H and the
 * multiples nettle's GHASH uses). */
static void nt_gcm_set_key(union nettle_gcm *g, unsigned key_bits,
                           const uint8_t *key)
{
    if (key_bits == 128)
        gcm_aes128_set_key(&g->g128, key);
    else if (key_bits == 192)
        gcm_aes192_set_key(&g->g192, key);
    else
        gcm_aes256_set_key(&g->g256, key);
}

static void nettle_gcm_key(struct nettle_ctx *x, const uint8_t *key)
{
    nt_gcm_set_key(&x->g, x->key_bits, key);
}

/* The GCM ops, one message each (see the top of the file). */
static int nettle_gcm_run(struct nettle_ctx *x, uint8_t *out, const uint8_t *in,
                          size_t len)
{
    uint8_t tag[16];

    NETTLE_GCM(x, set_iv, 12, x->iv);
    switch (x->op) {
    case OP_GCM_ENC:
        NETTLE_GCM(x, encrypt, len, out, in);
        NETTLE_GCM(x, digest, 16, out + len);
        return 0;
    case OP_GCM_DEC:
        NETTLE_GCM(x, decrypt, len, out, in);
        NETTLE_GCM(x, digest, 16, tag);
        return memeql_sec(tag, in + len, 16) ? 0 : -1;
    case OP_GMAC:
        NETTLE_GCM(x, update, len, in);
        NETTLE_GCM(x, digest, 16, out);
        return 0;
    default: /* OP_GHASH */
        NETTLE_GCM(x, update, len, in);
        memcpy(out,
               x->key_bits == 128   ? x->g.g128.gcm.x.b
               : x->key_bits == 192 ? x->g.g192.gcm.x.b
                                    : x->g.g256.gcm.x.b,
               16);
        return 0;
    }
}

/* Expands key into k for op's direction; fills the function pointers. */
static int set_key(union nettle_aes *k, enum bench_op op, const uint8_t *key,
                   unsigned key_bits, nettle_cipher_func **enc,
                   nettle_cipher_func **dec)
{
    int d = uses_decrypt_key(op);

    switch (key_bits) {
    case 128:
        if (d)
            aes128_set_decrypt_key(&k->a128, key);
        else
            aes128_set_encrypt_key(&k->a128, key);
        *enc = (nettle_cipher_func *)aes128_encrypt;
        *dec = (nettle_cipher_func *)aes128_decrypt;
        return 0;
    case 192:
        if (d)
            aes192_set_decrypt_key(&k->a192, key);
        else
            aes192_set_encrypt_key(&k->a192, key);
        *enc = (nettle_cipher_func *)aes192_encrypt;
        *dec = (nettle_cipher_func *)aes192_decrypt;
        return 0;
    case 256:
        if (d)
            aes256_set_decrypt_key(&k->a256, key);
        else
            aes256_set_encrypt_key(&k->a256, key);
        *enc = (nettle_cipher_func *)aes256_encrypt;
        *dec = (nettle_cipher_func *)aes256_decrypt;
        return 0;
    default:
        return -1;
    }
}

/*
 * Issue 19's modes, nettle 3.8 (OCB and GCM-SIV came in 3.9; no KW):
 *   cmac:    cmac_aes{128,256}_update + _digest (which restarts the MAC
 *            for the next message under the same key); no AES-192 CMAC.
 *   ccm:     ccm_aes{128,192,256}_encrypt_message / _decrypt_message:
 *            12-byte nonce, no AAD, 16-byte tag after the ciphertext.
 *   xts:     xts_aes{128,256}_encrypt_message / _decrypt_message with the
 *            16-byte tweak; XTS keys of 32 and 64 bytes only.
 * No siv rows: nettle's siv_cmac_aes{128,256}_*_message always hash
 * two header strings, the AAD (even when empty) and a nonce of at least
 * one byte, so bench.h's one-string convention cannot be expressed
 * (measured: passing the iv as the nonce with no AAD gives another V).
 */
static int nettle_m19_supports(enum bench_op op, unsigned key_bits)
{
    switch (op) {
    case OP_CMAC:
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return key_bits == 128 || key_bits == 256;
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return key_bits == 128 || key_bits == 192 || key_bits == 256;
    default:
        return 0;
    }
}

static void nettle_m19_key(struct nettle_ctx *x, const uint8_t *key)
{
    uint8_t k2[64];
    int k256 = x->key_bits == 256;

    bench_op_key(key, x->key_bits, k2, 2 * x->key_bits / 8);
    switch (x->op) {
    case OP_CMAC:
        if (k256)
            cmac_aes256_set_key(&x->m.cmac256, key);
        else
            cmac_aes128_set_key(&x->m.cmac128, key);
        break;
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        if (x->key_bits == 128)
            ccm_aes128_set_key(&x->m.ccm128, key);
        else if (x->key_bits == 192)
            ccm_aes192_set_key(&x->m.ccm192, key);
        else
            ccm_aes256_set_key(&x->m.ccm256, key);
        break;
    case OP_XTS_ENC:
        if (k256)
            xts_aes256_set_encrypt_key(&x->m.xts256, k2);
        else
            xts_aes128_set_encrypt_key(&x->m.xts128, k2);
        bench_xts_tweak(x->iv, x->iv);
        break;
    case OP_XTS_DEC:
        if (k256)
            xts_aes256_set_decrypt_key(&x->m.xts256, k2);
        else
            xts_aes128_set_decrypt_key(&x->m.xts128, k2);
        bench_xts_tweak(x->iv, x->iv);
        break;
    default:
        break;
    }
    memset(k2, 0, sizeof(k2));
}

static int nettle_m19_run(struct nettle_ctx *x, uint8_t *out, const uint8_t *in,
                          size_t len)
{
    int k256 = x->key_bits == 256;

    switch (x->op) {
    case OP_CMAC:
        if (k256) {
            cmac_aes256_update(&x->m.cmac256, len, in);
            cmac_aes256_digest(&x->m.cmac256, 16, out);
        } else {
            cmac_aes128_update(&x->m.cmac128, len, in);
            cmac_aes128_digest(&x->m.cmac128, 16, out);
        }
        return 0;
    case OP_CCM_ENC:
        if (x->key_bits == 128)
            ccm_aes128_encrypt_message(&x->m.ccm128, 12, x->iv, 0, NULL, 16,
                                       len + 16, out, in);
        else if (x->key_bits == 192)
            ccm_aes192_encrypt_message(&x->m.ccm192, 12, x->iv, 0, NULL, 16,
                                       len + 16, out, in);
        else
            ccm_aes256_encrypt_message(&x->m.ccm256, 12, x->iv, 0, NULL, 16,
                                       len + 16, out, in);
        return 0;
    case OP_CCM_DEC:
        if (x->key_bits == 128)
            return ccm_aes128_decrypt_message(&x->m.ccm128, 12, x->iv, 0, NULL,
                                              16, len, out, in)
                       ? 0
                       : -1;
        if (x->key_bits == 192)
            return ccm_aes192_decrypt_message(&x->m.ccm192, 12, x->iv, 0, NULL,
                                              16, len, out, in)
                       ? 0
                       : -1;
        return ccm_aes256_decrypt_message(&x->m.ccm256, 12, x->iv, 0, NULL, 16,
                                          len, out, in)
                   ? 0
                   : -1;
    case OP_XTS_ENC:
        if (k256)
            xts_aes256_encrypt_message(&x->m.xts256, x->iv, len, out, in);
        else
            xts_aes128_encrypt_message(&x->m.xts128, x->iv, len, out, in);
        return 0;
    case OP_XTS_DEC:
        if (k256)
            xts_aes256_decrypt_message(&x->m.xts256, x->iv, len, out, in);
        else
            xts_aes128_decrypt_message(&x->m.xts128, x->iv, len, out, in);
        return 0;
    default:
        return -1;
    }
}

static void *nettle_setup(enum bench_op op, const uint8_t *key,
                          unsigned key_bits, const uint8_t iv[16])
{
    struct nettle_ctx *x;

    if (bench_op_is_mode19(op)) {
        if (!nettle_m19_supports(op, key_bits) ||
            (x = calloc(1, sizeof *x)) == NULL)
            return NULL;
        x->op = op;
        x->key_bits = key_bits;
        memcpy(x->iv, iv, 16);
        nettle_m19_key(x, key);
        return x;
    }
    if (!nettle_supports(op, key_bits))
        return NULL;
    x = calloc(1, sizeof *x);
    if (x == NULL)
        return NULL;
    x->op = op;
    x->key_bits = key_bits;
    if (iv != NULL)
        memcpy(x->iv, iv, 16);
    if (bench_op_is_gcm(op)) {
        nettle_gcm_key(x, key);
        return x;
    }
    if (set_key(&x->k, op, key, key_bits, &x->encrypt, &x->decrypt) != 0) {
        free(x);
        return NULL;
    }
    return x;
}

static void ecb(const struct nettle_ctx *x, uint8_t *out, const uint8_t *in,
                size_t len)
{
    int d = x->op == OP_ECB_DEC;

    switch (x->key_bits) {
    case 128:
        if (d)
            aes128_decrypt(&x->k.a128, len, out, in);
        else
            aes128_encrypt(&x->k.a128, len, out, in);
        break;
    case 192:
        if (d)
            aes192_decrypt(&x->k.a192, len, out, in);
        else
            aes192_encrypt(&x->k.a192, len, out, in);
        break;
    default:
        if (d)
            aes256_decrypt(&x->k.a256, len, out, in);
        else
            aes256_encrypt(&x->k.a256, len, out, in);
        break;
    }
}

static void cbc_enc(const struct nettle_ctx *x, uint8_t iv[16], uint8_t *out,
                    const uint8_t *in, size_t len)
{
    switch (x->key_bits) {
    case 128:
        cbc_aes128_encrypt(&x->k.a128, iv, len, out, in);
        break;
    case 192:
        cbc_aes192_encrypt(&x->k.a192, iv, len, out, in);
        break;
    default:
        cbc_aes256_encrypt(&x->k.a256, iv, len, out, in);
        break;
    }
}

static int nettle_run(void *p, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct nettle_ctx *x = p;
    uint8_t v[16];

    if (bench_op_is_gcm(x->op))
        return nettle_gcm_run(p, out, in, len);
    if (bench_op_is_mode19(x->op))
        return nettle_m19_run(p, out, in, len);
    /* A new packet: the mode functions advance v, the setup IV stays. */
    memcpy(v, x->iv, 16);
    switch (x->op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        ecb(x, out, in, len);
        return 0;
    case OP_CBC_ENC:
        cbc_enc(x, v, out, in, len);
        return 0;
    case OP_CBC_DEC:
        cbc_decrypt(&x->k, x->decrypt, 16, v, len, out, in);
        return 0;
    case OP_CFB128_ENC:
        cfb_encrypt(&x->k, x->encrypt, 16, v, len, out, in);
        return 0;
    case OP_CFB128_DEC:
        cfb_decrypt(&x->k, x->encrypt, 16, v, len, out, in);
        return 0;
    case OP_CTR:
        ctr_crypt(&x->k, x->encrypt, 16, v, len, out, in);
        return 0;
    default:
        return -1;
    }
}

static void nettle_release(void *p)
{
    struct nettle_ctx *x = p;

    if (x == NULL)
        return;
    /* Wipe the round keys; volatile so the stores are not elided. */
    for (volatile unsigned char *b = (volatile unsigned char *)x;
         b < (volatile unsigned char *)(x + 1); b++)
        *b = 0;
    free(x);
}

/* Key setup alone: aes<N>_set_encrypt_key or _set_decrypt_key, as op's
 * direction needs, into static scratch; for GCM (gcm-enc)
 * gcm_aes<N>_set_key. */
static int nettle_keysetup(enum bench_op op, const uint8_t *key,
                           unsigned key_bits)
{
    static union nettle_aes scratch;
    static union nettle_gcm gcm_scratch;
    nettle_cipher_func *enc, *dec;

    if (!nettle_supports(op, key_bits))
        return -1;
    if (bench_op_is_gcm(op)) {
        nt_gcm_set_key(&gcm_scratch, key_bits, key);
        return 0;
    }
    return set_key(&scratch, op, key, key_bits, &enc, &dec);
}

static int nettle_supports_all(enum bench_op op, unsigned key_bits)
{
    return bench_op_is_mode19(op) ? nettle_m19_supports(op, key_bits)
                                  : nettle_supports(op, key_bits);
}

static const struct bench_impl impl_nettle = {
    .name = "nettle",
    .group = "peer",
    .probe = nettle_probe,
    .supports = nettle_supports_all,
    .setup = nettle_setup,
    .run = nettle_run,
    .release = nettle_release,
    .keysetup = nettle_keysetup,
};

void bench_register_nettle(bench_add_fn add)
{
    add(&impl_nettle);
}
