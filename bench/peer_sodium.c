/*
 * peer_sodium.c -- libsodium as one row, "sodium".
 *
 * libsodium's only AES is AES-256-GCM (crypto_aead_aes256gcm_*, AES-NI
 * and PCLMULQDQ required; probe() says when the CPU lacks them), so the
 * row has gcm-enc, gcm-dec and gmac with 256-bit keys and nothing else
 * (no public GHASH: no ghash).
 *
 * The key is expanded once per context (crypto_aead_aes256gcm_beforenm
 * into a crypto_aead_aes256gcm_state, which wants 16-byte alignment);
 * per message, the _afternm detached calls with the 12-byte nonce given
 * at setup:
 *   gcm-enc: crypto_aead_aes256gcm_encrypt_detached_afternm (ciphertext,
 *            then the tag written after it);
 *   gcm-dec: crypto_aead_aes256gcm_decrypt_detached_afternm (-1 when the
 *            tag does not verify);
 *   gmac:    the encryption of an empty message with the data as AAD.
 * Key setup (keysetup(), GCM keys only): crypto_aead_aes256gcm_beforenm.
 *
 * AEGIS-128L and AEGIS-256 (issue 19; libsodium 1.0.19 and later, so
 * only when built against the current libsodium: bench/CMakeLists.txt
 * prefers the static build in the peer cache, sodium-current/, from the
 * libsodium-sys-stable crate's source, over the system's 1.0.18):
 * crypto_aead_aegis128l_* and crypto_aead_aegis256_*, detached, the
 * 32-byte tag (libsodium's ABYTES) written after the ciphertext, no AAD,
 * the nonce of bench.h (the iv; AEGIS-256: bench_op_nonce's 32 bytes).
 * These calls take the key itself (AEGIS has no key schedule), so the
 * context keeps the key and the nonce.
 *
 * Link with libsodium (pkg-config libsodium, or the cache's static one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "bench.h"

struct sodium_ctx {
    crypto_aead_aes256gcm_state st; /* first: aligned_alloc(64) */
    enum bench_op op;
    uint8_t npub[crypto_aead_aes256gcm_NPUBBYTES];
    uint8_t key[32], npub32[32]; /* AEGIS */
};

#ifdef crypto_aead_aegis128l_KEYBYTES
#define SODIUM_HAVE_AEGIS 1
#else
#define SODIUM_HAVE_AEGIS 0
#endif

static int sodium_aegis_op(enum bench_op op, unsigned key_bits)
{
    switch (op) {
    case OP_AEGIS128L_ENC:
    case OP_AEGIS128L_DEC:
        return SODIUM_HAVE_AEGIS && key_bits == 128;
    case OP_AEGIS256_ENC:
    case OP_AEGIS256_DEC:
        return SODIUM_HAVE_AEGIS && key_bits == 256;
    default:
        return 0;
    }
}

static int sodium_probe(void)
{
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium: sodium_init() failed\n");
        return 0;
    }
    if (!crypto_aead_aes256gcm_is_available()) {
        fprintf(stderr, "sodium: AES-256-GCM unavailable on this CPU "
                        "(needs AES-NI and PCLMULQDQ)\n");
        return 0;
    }
    return 1;
}

static int sodium_supports(enum bench_op op, unsigned key_bits)
{
    if (sodium_aegis_op(op, key_bits))
        return 1;
    return key_bits == 256 &&
           (op == OP_GCM_ENC || op == OP_GCM_DEC || op == OP_GMAC);
}

static void sodium_release(void *ctx)
{
    if (ctx != NULL)
        sodium_memzero(ctx, sizeof(struct sodium_ctx));
    free(ctx);
}

static void *sodium_setup(enum bench_op op, const uint8_t *key,
                          unsigned key_bits, const uint8_t iv[16])
{
    struct sodium_ctx *x;
    size_t size = (sizeof(*x) + 63) / 64 * 64;

    if (!sodium_supports(op, key_bits))
        return NULL;
    x = aligned_alloc(64, size);
    if (x == NULL)
        return NULL;
    memset(x, 0, size);
    x->op = op;
    memcpy(x->npub, iv, sizeof(x->npub));
    if (sodium_aegis_op(op, key_bits)) {
        memcpy(x->key, key, key_bits / 8);
        bench_op_nonce(iv, x->npub32, 32);
        return x;
    }
    if (crypto_aead_aes256gcm_beforenm(&x->st, key) != 0) {
        sodium_release(x);
        return NULL;
    }
    return x;
}

static int sodium_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct sodium_ctx *x = ctx;
    unsigned long long maclen;
    uint8_t none[1]; /* the (empty) ciphertext of gmac */

    switch (x->op) {
#if SODIUM_HAVE_AEGIS
    case OP_AEGIS128L_ENC:
        return crypto_aead_aegis128l_encrypt_detached(
            out, out + len, &maclen, in, len, NULL, 0, NULL, x->npub32, x->key);
    case OP_AEGIS128L_DEC:
        return crypto_aead_aegis128l_decrypt_detached(
            out, NULL, in, len, in + len, NULL, 0, x->npub32, x->key);
    case OP_AEGIS256_ENC:
        return crypto_aead_aegis256_encrypt_detached(
            out, out + len, &maclen, in, len, NULL, 0, NULL, x->npub32, x->key);
    case OP_AEGIS256_DEC:
        return crypto_aead_aegis256_decrypt_detached(
            out, NULL, in, len, in + len, NULL, 0, x->npub32, x->key);
#endif
    case OP_GCM_ENC:
        return crypto_aead_aes256gcm_encrypt_detached_afternm(
            out, out + len, &maclen, in, len, NULL, 0, NULL, x->npub, &x->st);
    case OP_GCM_DEC:
        return crypto_aead_aes256gcm_decrypt_detached_afternm(
            out, NULL, in, len, in + len, NULL, 0, x->npub, &x->st);
    default: /* OP_GMAC */
        return crypto_aead_aes256gcm_encrypt_detached_afternm(
            none, out, &maclen, in, 0, in, len, NULL, x->npub, &x->st);
    }
}

/* GCM key setup (gcm-enc): crypto_aead_aes256gcm_beforenm, the AES-256
 * schedule and the hash-key powers, into a static state. */
static int sodium_keysetup(enum bench_op op, const uint8_t *key,
                           unsigned key_bits)
{
    static _Alignas(64) crypto_aead_aes256gcm_state st;

    if (!sodium_supports(op, key_bits) || sodium_aegis_op(op, key_bits))
        return -1;
    return crypto_aead_aes256gcm_beforenm(&st, key) == 0 ? 0 : -1;
}

static const struct bench_impl impl_sodium = {
    .name = "sodium",
    .group = "peer",
    .probe = sodium_probe,
    .supports = sodium_supports,
    .setup = sodium_setup,
    .run = sodium_run,
    .release = sodium_release,
    .keysetup = sodium_keysetup,
};

void bench_register_sodium(bench_add_fn add)
{
    add(&impl_sodium);
}
