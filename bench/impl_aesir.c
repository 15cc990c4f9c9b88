/*
 * impl_aesir.c -- aesir's engines as rows of the benchmark: one impl,
 * "aesir/<engine>", per engine this CPU and build can run, in the
 * registry's order.
 *
 * Only the public API is used, exactly as a program would: the key is
 * expanded once by aesir_aes_init_ex() with the engine's name (not timed),
 * and every message is one call of the one-shot function of its mode
 * (aesir_ecb_*, aesir_cbc_* without padding, aesir_cfb128_*,
 * aesir_ofb_crypt, aesir_ctr_crypt with a 128-bit counter), so argument
 * checks and the mode layer are part of the figure.
 *
 * bench.h gives setup() no per-impl argument, so each engine gets its own
 * slot: SLOT(i) generates a probe, setup and keysetup for engine index i
 * that pass i on to the shared code. There are AESIR_BENCH_SLOTS slots;
 * engines beyond them are reported and left out.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"

#define AESIR_BENCH_SLOTS 16

struct aesir_bench_ctx {
    aesir_aes key; /* 64-byte aligned: the context is from aligned_alloc */
    uint8_t iv[16];
    enum bench_op op;
};

/* "aesir/<engine>", filled in at registration. */
static char slot_name[AESIR_BENCH_SLOTS][40];

static int aesir_bench_supports(enum bench_op op, unsigned key_bits)
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
    case OP_OFB:
    case OP_CTR:
        return 1;
    default:
        return 0;
    }
}

/* The key directions op needs: ECB and CBC decryption use the inverse
 * cipher; every other mode runs the cipher forwards. */
static unsigned dirs_for(enum bench_op op)
{
    return op == OP_ECB_DEC || op == OP_CBC_DEC ? AESIR_DECRYPT : AESIR_ENCRYPT;
}

static int probe_engine(size_t i)
{
    const char *name = aesir_engine_name(i);
    int err;

    if (name == NULL || !(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
        return 0;
    err = aesir_engine_selftest(name);
    if (err != AESIR_OK) {
        fprintf(stderr, "aesir/%s: self-test failed: %s\n", name,
                aesir_strerror(err));
        return 0;
    }
    return 1;
}

static void *setup_engine(size_t i, enum bench_op op, const uint8_t *key,
                          unsigned key_bits, const uint8_t iv[16])
{
    size_t size = (sizeof(struct aesir_bench_ctx) + 63) & ~(size_t)63;
    struct aesir_bench_ctx *c = aligned_alloc(64, size);

    if (c == NULL)
        return NULL;
    if (aesir_aes_init_ex(&c->key, key, key_bits / 8, aesir_engine_name(i),
                          dirs_for(op)) != AESIR_OK) {
        free(c);
        return NULL;
    }
    memcpy(c->iv, iv, 16);
    c->op = op;
    return c;
}

/* Scratch key context for the key-setups-per-second figure. */
static aesir_aes keysetup_scratch;

static int keysetup_engine(size_t i, enum bench_op op, const uint8_t *key,
                           unsigned key_bits)
{
    return aesir_aes_init_ex(&keysetup_scratch, key, key_bits / 8,
                             aesir_engine_name(i), dirs_for(op)) == AESIR_OK
               ? 0
               : -1;
}

static int aesir_bench_run(void *ctx, uint8_t *out, const uint8_t *in,
                           size_t len)
{
    const struct aesir_bench_ctx *c = ctx;
    size_t n;

    switch (c->op) {
    case OP_ECB_ENC:
        return aesir_ecb_encrypt(&c->key, AESIR_PAD_NONE, out, len, &n, in,
                                 len);
    case OP_ECB_DEC:
        return aesir_ecb_decrypt(&c->key, AESIR_PAD_NONE, out, len, &n, in,
                                 len);
    case OP_CBC_ENC:
        return aesir_cbc_encrypt(&c->key, c->iv, AESIR_PAD_NONE, out, len, &n,
                                 in, len);
    case OP_CBC_DEC:
        return aesir_cbc_decrypt(&c->key, c->iv, AESIR_PAD_NONE, out, len, &n,
                                 in, len);
    case OP_CFB128_ENC:
        return aesir_cfb128_encrypt(&c->key, c->iv, out, in, len);
    case OP_CFB128_DEC:
        return aesir_cfb128_decrypt(&c->key, c->iv, out, in, len);
    case OP_OFB:
        return aesir_ofb_crypt(&c->key, c->iv, out, in, len);
    case OP_CTR:
        return aesir_ctr_crypt(&c->key, c->iv, 128, out, in, len);
    default:
        return -1;
    }
}

static void aesir_bench_release(void *ctx)
{
    struct aesir_bench_ctx *c = ctx;

    if (c == NULL)
        return;
    aesir_aes_clear(&c->key);
    free(c);
}

/* One probe/setup/keysetup triple per slot, bound to engine index i. */
#define SLOT(i)                                                                \
    static int probe_##i(void)                                                 \
    {                                                                          \
        return probe_engine(i);                                                \
    }                                                                          \
    static void *setup_##i(enum bench_op op, const uint8_t *key,               \
                           unsigned key_bits, const uint8_t iv[16])            \
    {                                                                          \
        return setup_engine(i, op, key, key_bits, iv);                         \
    }                                                                          \
    static int keysetup_##i(enum bench_op op, const uint8_t *key,              \
                            unsigned key_bits)                                 \
    {                                                                          \
        return keysetup_engine(i, op, key, key_bits);                          \
    }

#define IMPL(i)                                                                \
    {                                                                          \
        slot_name[i], "aesir", probe_##i, aesir_bench_supports, setup_##i,     \
            aesir_bench_run, aesir_bench_release, keysetup_##i                 \
    }

SLOT(0)
SLOT(1)
SLOT(2)
SLOT(3)
SLOT(4)
SLOT(5)
SLOT(6)
SLOT(7)
SLOT(8)
SLOT(9)
SLOT(10)
SLOT(11)
SLOT(12)
SLOT(13)
SLOT(14)
SLOT(15)

static const struct bench_impl slots[AESIR_BENCH_SLOTS] = {
    IMPL(0),  IMPL(1),  IMPL(2),  IMPL(3),  IMPL(4),  IMPL(5),
    IMPL(6),  IMPL(7),  IMPL(8),  IMPL(9),  IMPL(10), IMPL(11),
    IMPL(12), IMPL(13), IMPL(14), IMPL(15),
};

void bench_register_aesir(bench_add_fn add)
{
    size_t n = aesir_engine_count();

    if (n > AESIR_BENCH_SLOTS)
        fprintf(stderr,
                "aesir-bench: %zu engines, only the first %d are benchmarked "
                "(raise AESIR_BENCH_SLOTS in bench/impl_aesir.c)\n",
                n, AESIR_BENCH_SLOTS);
    for (size_t i = 0; i < n && i < AESIR_BENCH_SLOTS; i++) {
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        snprintf(slot_name[i], sizeof(slot_name[i]), "aesir/%s",
                 aesir_engine_name(i));
        add(&slots[i]);
    }
}
