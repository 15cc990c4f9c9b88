/*
 * peer_sodium.c -- libsodium as one row, "sodium".
 *
 * libsodium's only AES is AES-256-GCM (crypto_aead_aes256gcm_*, AES-NI
 * and PCLMULQDQ required), and aesir has no GCM operation yet: supports()
 * is 0 for every operation in bench.h, so the row is registered but never
 * timed. It is here so that probe() reports honestly whether libsodium's
 * AES-256-GCM can run on this CPU, and so that a GCM operation, when a
 * later issue adds one to bench.h, only needs supports(), setup() and
 * run() filled in (crypto_aead_aes256gcm_beforenm once per key, then
 * crypto_aead_aes256gcm_encrypt_afternm per message with the nonce given
 * at setup).
 *
 * Link with libsodium (pkg-config libsodium).
 */
#include <stdio.h>

#include <sodium.h>

#include "bench.h"

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

/* No operation of bench.h is one libsodium has (it has only GCM). */
static int sodium_supports(enum bench_op op, unsigned key_bits)
{
    (void)op;
    (void)key_bits;
    return 0;
}

static void *sodium_setup(enum bench_op op, const uint8_t *key,
                          unsigned key_bits, const uint8_t iv[16])
{
    (void)op;
    (void)key;
    (void)key_bits;
    (void)iv;
    return NULL;
}

static int sodium_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)ctx;
    (void)out;
    (void)in;
    (void)len;
    return -1;
}

static void sodium_release(void *ctx)
{
    (void)ctx;
}

static const struct bench_impl impl_sodium = {
    .name = "sodium",
    .group = "peer",
    .probe = sodium_probe,
    .supports = sodium_supports,
    .setup = sodium_setup,
    .run = sodium_run,
    .release = sodium_release,
    .keysetup = NULL,
};

void bench_register_sodium(bench_add_fn add)
{
    add(&impl_sodium);
}
