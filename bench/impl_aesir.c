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
 * GCM (gcm-enc, gcm-dec, gmac): an aesir_gcm_key with the row's AES
 * engine and the default GHASH engine, set up once; one aesir_gcm_seal,
 * aesir_gcm_open or aesir_gmac per message, 12-byte IV, 16-byte tag. The
 * API has no GHASH-alone call (GMAC is its public face), so the engine
 * rows do not claim ghash; "aesir/default" (below) runs it as aesir_gmac
 * over the message (bench.h: ghash_is_gmac): the GHASH of the same blocks
 * the peers' ghash rows hash, plus GMAC's extra work -- one more multiply
 * for the length block, the encryption of J0 and the tag's XOR, about one
 * block's worth of GCM, a handicap to aesir that is large at 16 bytes and
 * under 1% from 2 KiB up. impl_ghash.c has one gmac row per GHASH
 * engine.
 *
 * Multi-buffer CBC encryption (the mb-cbc-enc-N ops): one call of
 * aesir_cbc_encrypt_many() (mb-cbc-mac-N: aesir_cbc_mac_many(), the MACs
 * copied out of the jobs after) on N jobs, each with its own key context (all
 * on the row's engine) and IV, set up once; run() fills the job array
 * (pointers, length, IV) as a caller would per burst. The hardware
 * engines claim these ops (aesni, vaes-avx2 and vaes-avx512 interleave
 * the messages; another engine would run them one after another), and
 * one more impl, "aesir/default", runs them with the default engine,
 * the one a program gets without asking -- as it runs the GCM ops with
 * the default AES and GHASH engines (also under AESIR_CPU_DISABLE, which
 * is how `make perf-doc` times software GCM).
 *
 * bench.h gives setup() no per-impl argument, so each engine gets its own
 * slot: SLOT(i) generates a probe, supports, setup and keysetup for engine
 * index i that pass i on to the shared code. There are AESIR_BENCH_SLOTS
 * slots; engines beyond them are reported and left out.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "impl_aesir_modes.h"

#define AESIR_BENCH_SLOTS 24

/* The most messages of a multi-buffer op. */
#define AESIR_BENCH_MB 16

struct aesir_bench_ctx {
    aesir_aes key; /* 64-byte aligned: the context is from aligned_alloc */
    aesir_gcm_key *gkey; /* GCM ops: the row's AES engine, default GHASH */
    uint8_t iv[16];
    enum bench_op op;
    /* multi-buffer ops: message j's key (key is message 0's) and IV */
    unsigned nmsg;
    aesir_aes *mkey[AESIR_BENCH_MB];
    uint8_t miv[AESIR_BENCH_MB][16];
    aesir_cbc_job jobs[AESIR_BENCH_MB];
    void *m19; /* issue 19's ops: impl_aesir_modes.c's context */
};

/* "aesir/<engine>" and the engine's name (the library's string), filled
 * in at registration. */
static char slot_name[AESIR_BENCH_SLOTS][40];
static const char *slot_engine[AESIR_BENCH_SLOTS];

static int aesir_bench_supports(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
    if (bench_op_is_mb(op))
        return 0; /* per engine: supports_engine() */
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
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GMAC:
        return 1; /* ghash: no public GHASH-alone call (GMAC is the API) */
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

/* The single-message ops for every engine; the multi-buffer ones for the
 * hardware engines. */
static int supports_engine(size_t i, enum bench_op op, unsigned key_bits)
{
    if (bench_op_is_mode19(op))
        return aesir_modes_supports(aesir_engine_name(i), op, key_bits);
    if (bench_op_is_mb(op) && op != OP_MB_CMAC_8)
        return (key_bits == 128 || key_bits == 192 || key_bits == 256) &&
               (aesir_engine_flags(i) & AESIR_ENGINE_HARDWARE);
    return aesir_bench_supports(op, key_bits);
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

static void aesir_bench_release(void *ctx);

/* setup_mb -- message j's key context (1..nmsg-1; 0 is c->key) and IV. */
static int setup_mb(struct aesir_bench_ctx *c, const char *engine,
                    const uint8_t *key, unsigned key_bits, const uint8_t iv[16])
{
    uint8_t kj[32];
    int err = AESIR_OK;

    c->nmsg = bench_op_messages(c->op);
    c->mkey[0] = &c->key;
    for (unsigned j = 0; j < c->nmsg && err == AESIR_OK; j++) {
        bench_mb_iv(iv, j, c->miv[j]);
        if (j == 0)
            continue;
        c->mkey[j] = aligned_alloc(64, sizeof(aesir_aes));
        if (c->mkey[j] == NULL)
            return -1;
        bench_mb_key(key, key_bits, j, kj);
        err = aesir_aes_init_ex(c->mkey[j], kj, key_bits / 8, engine,
                                AESIR_ENCRYPT);
    }
    return err == AESIR_OK ? 0 : -1;
}

/* setup_named -- setup() for the engine called engine (NULL: default). */
static void *setup_named(const char *engine, enum bench_op op,
                         const uint8_t *key, unsigned key_bits,
                         const uint8_t iv[16])
{
    size_t size = (sizeof(struct aesir_bench_ctx) + 63) & ~(size_t)63;
    struct aesir_bench_ctx *c = aligned_alloc(64, size);
    uint8_t k0[32];

    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof(*c));
    c->op = op;
    memcpy(c->iv, iv, 16);
    if (bench_op_is_mode19(op)) {
        c->m19 = aesir_modes_setup(engine, op, key, key_bits, iv);
        if (c->m19 == NULL) {
            free(c);
            return NULL;
        }
        return c;
    }
    if (bench_op_is_gcm(op)) {
        c->gkey = aligned_alloc(64, sizeof(aesir_gcm_key));
        if (c->gkey == NULL || aesir_gcm_init_ex(c->gkey, key, key_bits / 8,
                                                 engine, NULL, 0) != AESIR_OK) {
            free(c->gkey);
            free(c);
            return NULL;
        }
        return c;
    }
    if (bench_op_is_mb(op)) {
        bench_mb_key(key, key_bits, 0, k0);
        key = k0;
    }
    if (aesir_aes_init_ex(&c->key, key, key_bits / 8, engine, dirs_for(op)) !=
        AESIR_OK) {
        free(c);
        return NULL;
    }
    memcpy(c->iv, iv, 16);
    if (bench_op_is_mb(op) && setup_mb(c, engine, key, key_bits, iv) != 0) {
        aesir_bench_release(c);
        return NULL;
    }
    return c;
}

static void *setup_engine(size_t i, enum bench_op op, const uint8_t *key,
                          unsigned key_bits, const uint8_t iv[16])
{
    return setup_named(aesir_engine_name(i), op, key, key_bits, iv);
}

/* Scratch key context for the key-setups-per-second figure. */
/* at a 64-byte boundary, as aesir.h advises for key setup speed */
static _Alignas(64) aesir_aes keysetup_scratch;
static _Alignas(64) aesir_gcm_key keysetup_gcm_scratch;

/* One key setup, as a program holding its engine's name makes it: one
 * tail call. (Fetching the name from the library per key and keeping
 * three registers across a call cost us about 4 TSC cycles per key here,
 * a sixth of an AES-128 key setup; the peers' wrappers do no such work.)
 * AESIR_OK is 0, any error non-zero, as bench.h asks. */
static int keysetup_named(const char *engine, enum bench_op op,
                          const uint8_t *key, unsigned key_bits)
{
    if (bench_op_is_gcm(op)) /* the schedule and the hash-key powers */
        return aesir_gcm_init_ex(&keysetup_gcm_scratch, key, key_bits / 8,
                                 engine, NULL, 0);
    return aesir_aes_init_ex(&keysetup_scratch, key, key_bits / 8, engine,
                             dirs_for(op));
}

static int keysetup_engine(size_t i, enum bench_op op, const uint8_t *key,
                           unsigned key_bits)
{
    return keysetup_named(slot_engine[i], op, key, key_bits);
}

/* run_mb -- one burst: the job array filled, one call; for a MAC, no
 * output buffers, and each job's MAC (its iv) copied out after. */
static int run_mb(struct aesir_bench_ctx *c, uint8_t *out, const uint8_t *in,
                  size_t len)
{
    int mac = bench_op_is_mac(c->op), err;

    for (unsigned j = 0; j < c->nmsg; j++) {
        aesir_cbc_job *job = &c->jobs[j];
        job->key = c->mkey[j];
        job->in = in + j * len;
        job->out = mac ? NULL : out + j * len;
        job->len = len;
        memcpy(job->iv, c->miv[j], 16);
    }
    if (!mac)
        return aesir_cbc_encrypt_many(c->jobs, c->nmsg);
    err = aesir_cbc_mac_many(c->jobs, c->nmsg);
    for (unsigned j = 0; j < c->nmsg; j++)
        memcpy(out + 16 * j, c->jobs[j].iv, 16);
    return err;
}

static int aesir_bench_run(void *ctx, uint8_t *out, const uint8_t *in,
                           size_t len)
{
    struct aesir_bench_ctx *c = ctx;
    size_t n;

    if (c->m19 != NULL)
        return aesir_modes_run(c->m19, out, in, len);
    if (bench_op_is_mb(c->op))
        return run_mb(c, out, in, len);
    switch (c->op) {
    case OP_GCM_ENC: /* out: ciphertext || tag */
        return aesir_gcm_seal(c->gkey, c->iv, 12, NULL, 0, out, len + 16, &n,
                              in, len);
    case OP_GCM_DEC: /* in: ciphertext || tag */
        return aesir_gcm_open(c->gkey, c->iv, 12, NULL, 0, out, len, &n, in,
                              len + 16);
    case OP_GMAC:  /* the message as additional data; out: the tag */
    case OP_GHASH: /* GMAC as ghash (aesir/default, see the top) */
        return aesir_gmac(c->gkey, c->iv, 12, in, len, out, 16);
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
    if (c->m19 != NULL) {
        aesir_modes_release(c->m19);
        free(c);
        return;
    }
    for (unsigned j = 1; j < c->nmsg; j++)
        if (c->mkey[j] != NULL) {
            aesir_aes_clear(c->mkey[j]);
            free(c->mkey[j]);
        }
    if (c->gkey != NULL) {
        aesir_gcm_clear(c->gkey);
        free(c->gkey);
    }
    aesir_aes_clear(&c->key);
    free(c);
}

/* One probe/supports/setup/keysetup set per slot, bound to engine index
 * i. */
#define SLOT(i)                                                                \
    static int probe_##i(void)                                                 \
    {                                                                          \
        return probe_engine(i);                                                \
    }                                                                          \
    static int supports_##i(enum bench_op op, unsigned key_bits)               \
    {                                                                          \
        return supports_engine(i, op, key_bits);                               \
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
        slot_name[i], "aesir", probe_##i, supports_##i, setup_##i,             \
            aesir_bench_run, aesir_bench_release, keysetup_##i, 0, NULL        \
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
SLOT(16)
SLOT(17)
SLOT(18)
SLOT(19)
SLOT(20)
SLOT(21)
SLOT(22)
SLOT(23)

static const struct bench_impl slots[AESIR_BENCH_SLOTS] = {
    IMPL(0),  IMPL(1),  IMPL(2),  IMPL(3),  IMPL(4),  IMPL(5),
    IMPL(6),  IMPL(7),  IMPL(8),  IMPL(9),  IMPL(10), IMPL(11),
    IMPL(12), IMPL(13), IMPL(14), IMPL(15), IMPL(16), IMPL(17),
    IMPL(18), IMPL(19), IMPL(20), IMPL(21), IMPL(22), IMPL(23),
};

/* "aesir/default": the multi-buffer ops with the default engine, the GCM
 * ops with the default AES and GHASH engines, and ghash as GMAC. */
static int default_supports(enum bench_op op, unsigned key_bits)
{
    if (bench_op_is_mode19(op))
        return aesir_modes_supports(NULL, op, key_bits);
    return ((bench_op_is_mb(op) && op != OP_MB_CMAC_8) ||
            bench_op_is_gcm(op)) &&
           (key_bits == 128 || key_bits == 192 || key_bits == 256);
}

static int default_keysetup(enum bench_op op, const uint8_t *key,
                            unsigned key_bits)
{
    return keysetup_named(NULL, op, key, key_bits);
}

static void *default_setup(enum bench_op op, const uint8_t *key,
                           unsigned key_bits, const uint8_t iv[16])
{
    return setup_named(NULL, op, key, key_bits, iv);
}

static const struct bench_impl default_impl = {
    .name = "aesir/default",
    .group = "aesir",
    .supports = default_supports,
    .setup = default_setup,
    .run = aesir_bench_run,
    .release = aesir_bench_release,
    .keysetup = default_keysetup,
    .ghash_is_gmac = 1,
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
        slot_engine[i] = aesir_engine_name(i);
        snprintf(slot_name[i], sizeof(slot_name[i]), "aesir/%s",
                 slot_engine[i]);
        add(&slots[i]);
    }
    add(&default_impl);
}
