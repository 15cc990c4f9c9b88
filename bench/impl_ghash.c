/*
 * impl_ghash.c -- GHASH rows of the benchmark: aesir's GHASH engines one
 * by one on gmac, and the 64 KiB-table GHASH of the CellBE paper's line
 * of work (bench/ghash_table16.c) on ghash.
 *
 * "aesir/<ghash engine>" (aesir/ghash-clmul, aesir/ghash-ct64, ...): one
 * row per GHASH engine this CPU and build can run, in the registry's
 * order: an aesir_gcm_key made by aesir_gcm_init_ex with the default AES
 * engine and that GHASH engine, public API only, as impl_aesir.c does;
 * one aesir_gmac per message (the message as AAD, 12-byte IV). GMAC is
 * the library's public face of GHASH (it has no GHASH-alone call): the
 * GHASH of the message's blocks plus one multiply for the length block,
 * the encryption of J0 and the tag's XOR, about a block of GCM per
 * message. These rows do not claim ghash as well: it would time the same
 * call again. The ghash table has aesir's default pair ("aesir/default",
 * impl_aesir.c, GMAC as ghash) beside the peers' GHASH-alone calls.
 * The gcm-enc and gcm-dec rows of each GHASH engine are not here: the
 * AES engine rows (impl_aesir.c) run GCM with the default GHASH engine,
 * and the per-pair figures are a ctest/`aesir speed` matter.
 * ghash-table4 and ghash-table8 are not constant-time (opt-in by name in
 * the library). ghash-ref, the bit-by-bit oracle, has no row: at tens of
 * MB/s its 1 MiB cells alone would add tens of seconds to a full run.
 *
 * "cell-table16": GHASH with 16 tables of 256 entries (64 KiB per key, one
 * table per input byte, the reduction folded in: 16 look-ups and XORs a
 * block), the technique of McGrew and Viega's largest table size that
 * AES-GCM work on the Cell Broadband Engine uses. Not part of the library
 * (a 64 KiB key does not fit in aesir_gcm_key) and NOT constant-time:
 * every look-up index is a byte of data XORed with the hash state. Setup
 * computes H = AES_K(0) with aesir's default engine and fills the tables
 * (not timed); ghash only, checked against the reference like any peer's
 * ghash. Its group is "aesir" (our code, never counted as the fastest
 * peer).
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "ghash_table16.h"

#define GHASH_SLOTS 12

struct ghash_row_ctx {
    aesir_gcm_key key; /* first: aligned_alloc(64) */
    uint8_t iv[12];
};

static char ghash_slot_name[GHASH_SLOTS][40];
static const char *ghash_slot_engine[GHASH_SLOTS];

static int ghash_row_supports(enum bench_op op, unsigned key_bits)
{
    return op == OP_GMAC &&
           (key_bits == 128 || key_bits == 192 || key_bits == 256);
}

static int ghash_row_probe(size_t i)
{
    int err = aesir_ghash_engine_selftest(ghash_slot_engine[i]);

    if (err != AESIR_OK)
        fprintf(stderr, "%s: self-test failed: %s\n", ghash_slot_name[i],
                aesir_strerror(err));
    return err == AESIR_OK;
}

static void *ghash_row_setup(size_t i, enum bench_op op, const uint8_t *key,
                             unsigned key_bits, const uint8_t iv[16])
{
    size_t size = (sizeof(struct ghash_row_ctx) + 63) & ~(size_t)63;
    struct ghash_row_ctx *c;

    if (!ghash_row_supports(op, key_bits))
        return NULL;
    c = aligned_alloc(64, size);
    if (c == NULL)
        return NULL;
    memcpy(c->iv, iv, 12);
    if (aesir_gcm_init_ex(&c->key, key, key_bits / 8, NULL,
                          ghash_slot_engine[i], 0) != AESIR_OK) {
        free(c);
        return NULL;
    }
    return c;
}

/* gmac: the message as AAD, out: the tag. */
static int ghash_row_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct ghash_row_ctx *c = ctx;

    return aesir_gmac(&c->key, c->iv, 12, in, len, out, 16);
}

static void ghash_row_release(void *ctx)
{
    struct ghash_row_ctx *c = ctx;

    if (c == NULL)
        return;
    aesir_gcm_clear(&c->key);
    free(c);
}

#define GSLOT(i)                                                               \
    static int gprobe_##i(void)                                                \
    {                                                                          \
        return ghash_row_probe(i);                                             \
    }                                                                          \
    static void *gsetup_##i(enum bench_op op, const uint8_t *key,              \
                            unsigned key_bits, const uint8_t iv[16])           \
    {                                                                          \
        return ghash_row_setup(i, op, key, key_bits, iv);                      \
    }

#define GIMPL(i)                                                               \
    {                                                                          \
        .name = ghash_slot_name[i], .group = "aesir", .probe = gprobe_##i,     \
        .supports = ghash_row_supports, .setup = gsetup_##i,                   \
        .run = ghash_row_run, .release = ghash_row_release,                    \
    }

GSLOT(0)
GSLOT(1)
GSLOT(2)
GSLOT(3)
GSLOT(4)
GSLOT(5)
GSLOT(6)
GSLOT(7)
GSLOT(8)
GSLOT(9)
GSLOT(10)
GSLOT(11)

static const struct bench_impl ghash_slots[GHASH_SLOTS] = {
    GIMPL(0), GIMPL(1), GIMPL(2), GIMPL(3), GIMPL(4),  GIMPL(5),
    GIMPL(6), GIMPL(7), GIMPL(8), GIMPL(9), GIMPL(10), GIMPL(11),
};

/* ---- cell-table16 ---- */

struct table16_ctx {
    uint8_t tables[GHASH_TABLE16_BYTES]; /* first: aligned_alloc(64) */
};

static int table16_supports(enum bench_op op, unsigned key_bits)
{
    return op == OP_GHASH &&
           (key_bits == 128 || key_bits == 192 || key_bits == 256);
}

static void *table16_setup(enum bench_op op, const uint8_t *key,
                           unsigned key_bits, const uint8_t iv[16])
{
    _Alignas(64) aesir_aes aes;
    uint8_t h[16] = {0};
    size_t n;
    struct table16_ctx *c;

    (void)iv;
    if (!table16_supports(op, key_bits))
        return NULL;
    c = aligned_alloc(64, sizeof(*c));
    if (c == NULL)
        return NULL;
    /* H = AES_K(0^128), as SP 800-38D defines the hash key */
    if (aesir_aes_init_ex(&aes, key, key_bits / 8, NULL, AESIR_ENCRYPT) !=
            AESIR_OK ||
        aesir_ecb_encrypt(&aes, AESIR_PAD_NONE, h, 16, &n, h, 16) != AESIR_OK) {
        aesir_aes_clear(&aes);
        free(c);
        return NULL;
    }
    aesir_aes_clear(&aes);
    ghash_table16_init(c->tables, h);
    memset(h, 0, sizeof(h));
    return c;
}

/* GHASH of the message from Y = 0, no length block; out: Y. */
static int table16_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct table16_ctx *c = ctx;

    if (len % 16 != 0)
        return -1;
    memset(out, 0, 16);
    ghash_table16(c->tables, out, in, len / 16);
    return 0;
}

static void table16_release(void *ctx)
{
    if (ctx != NULL)
        memset(ctx, 0, sizeof(struct table16_ctx));
    free(ctx);
}

static const struct bench_impl table16_impl = {
    .name = "cell-table16",
    .group = "aesir",
    .supports = table16_supports,
    .setup = table16_setup,
    .run = table16_run,
    .release = table16_release,
};

void bench_register_ghash(bench_add_fn add)
{
    size_t n = aesir_ghash_engine_count(), used = 0;

    for (size_t i = 0; i < n; i++) {
        const char *name = aesir_ghash_engine_name(i);
        if (name == NULL || strcmp(name, "ghash-ref") == 0 ||
            !(aesir_ghash_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        if (used == GHASH_SLOTS) {
            fprintf(stderr,
                    "aesir-bench: more than %d GHASH engines, %s and later "
                    "left out (raise GHASH_SLOTS in bench/impl_ghash.c)\n",
                    GHASH_SLOTS, name);
            break;
        }
        ghash_slot_engine[used] = name;
        snprintf(ghash_slot_name[used], sizeof(ghash_slot_name[used]),
                 "aesir/%s", name);
        add(&ghash_slots[used++]);
    }
    add(&table16_impl);
}
