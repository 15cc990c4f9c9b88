/*
 * dudect.c -- a statistical timing-leak test after Reparaz, Balasch and
 * Verbauwhede, "Dude, is my code constant time?" (DATE 2017), run by hand:
 *
 *   dudect [--engine NAME] [--op OP] [--seconds S] [--bits 128|192|256]
 *          [--evict KIB] [--seed N] [--aa]
 *
 * For each engine (default: every available one) and operation (default:
 * all), it times single executions on inputs of two classes -- one fixed
 * input (all zero) and fresh random inputs -- chosen at random for each
 * measurement, so that slow drifts of the machine hit both classes alike.
 * If the two timing distributions differ, the time depends on the data.
 * They are compared with Welch's t-test, computed online (Welford's
 * running mean and variance), on
 *   - all measurements,
 *   - the measurements below each of 100 percentiles of the first batch
 *     (the paper's cropping: 1 - 0.5^(10 (k+1) / 100), k = 0..99), since
 *     interrupts and other processes make the upper tail heavy, and a
 *     leak may show in the fast part only,
 *   - the squared deviation from the class mean (second order), once
 *     10 000 measurements are in.
 * The first batch only warms up and fixes the percentiles. The result is
 * the largest |t| of any test that has 10 000 measurements or more:
 * |t| > 4.5 means a leak is likely (the paper's threshold; p < 1e-5 for a
 * single test), |t| > 10 that it is certain; below 4.5 no leak was seen
 * *in this many measurements* -- which is evidence, not proof.
 *
 * Operations (key size from --bits):
 *   setkey      encryption key schedule (the engine's setkey_enc): fixed
 *               key vs random keys
 *   setkey-dec  decryption key schedule (setkey_dec): the same
 *   encrypt     one block, aesir_aes_encrypt_block: fixed random key;
 *               fixed vs random plaintext
 *   decrypt     one block, aesir_aes_decrypt_block: fixed vs random
 *               ciphertext
 *   ctr         aesir_ctr_crypt of 64 bytes (128-bit counter) from a
 *               fixed counter block: fixed vs random key, expanded into
 *               the key context before each measurement (not timed).
 *               Not fixed vs random counter: the counter is public, and
 *               the code branches on it (carry handling) by design, which
 *               this test duly reports (aesni: |t| = 298); the classes
 *               must differ in a secret only.
 *
 * --aa is the control experiment: both classes random (an A/A test), so
 * any |t| > 4.5 it shows is an artifact of the harness or the machine,
 * whatever the engine.
 *
 * Timer: rdtsc between lfences on x86-64, CLOCK_MONOTONIC elsewhere.
 * --evict KIB reads a buffer of that size before each measurement (not
 * timed), to push tables out of L1 so that cache-timing leaks show;
 * without it everything runs from L1 in a tight loop, where a T-table
 * engine may well look constant-time. Results: docs/constant-time.md.
 * Exit status 1 when an engine flagged constant-time shows |t| > 4.5.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "internal.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define TIMER_NAME "rdtsc"
static inline uint64_t ticks(void)
{
    uint64_t t;
    _mm_lfence(); /* earlier instructions done before reading the TSC */
    t = __rdtsc();
    _mm_lfence(); /* and later ones not started */
    return t;
}
#else
#define TIMER_NAME "CLOCK_MONOTONIC ns"
static inline uint64_t ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

#define BATCH 50000       /* measurements per batch */
#define NPCT 100          /* cropping percentiles */
#define NTESTS (NPCT + 2) /* + uncropped + second order */
#define ENOUGH 10000      /* measurements before a test counts */
#define T_LEAK 4.5
#define T_CERTAIN 10.0

enum op { OP_SETKEY, OP_SETKEY_DEC, OP_ENCRYPT, OP_DECRYPT, OP_CTR, NOPS };

static const char *const op_name[NOPS] = {"setkey", "setkey-dec", "encrypt",
                                          "decrypt", "ctr"};
static const char *const op_what[NOPS] = {
    "key schedule (enc), fixed vs random key",
    "key schedule (dec), fixed vs random key",
    "1 block, fixed vs random plaintext",
    "1 block, fixed vs random ciphertext",
    "64 bytes, fixed counter, fixed vs random key",
};

/* ---------------------------------------------------------------------
 * Welch's t-test, online
 * ------------------------------------------------------------------- */

struct ttest {
    double n[2], mean[2], m2[2];
};

static void t_push(struct ttest *t, double x, int c)
{
    double d;
    t->n[c] += 1;
    d = x - t->mean[c];
    t->mean[c] += d / t->n[c];
    t->m2[c] += d * (x - t->mean[c]);
}

static double t_value(const struct ttest *t)
{
    double v0, v1, den;
    if (t->n[0] < 2 || t->n[1] < 2)
        return 0;
    v0 = t->m2[0] / (t->n[0] - 1);
    v1 = t->m2[1] / (t->n[1] - 1);
    den = sqrt(v0 / t->n[0] + v1 / t->n[1]);
    return den > 0 ? (t->mean[0] - t->mean[1]) / den : 0;
}

/* ---------------------------------------------------------------------
 * Random numbers (xoshiro256**): classes and random inputs.
 * ------------------------------------------------------------------- */

static uint64_t rs[4];

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rnd(void)
{
    uint64_t r = rotl(rs[1] * 5, 7) * 9, t = rs[1] << 17;
    rs[2] ^= rs[0];
    rs[3] ^= rs[1];
    rs[1] ^= rs[2];
    rs[0] ^= rs[3];
    rs[2] ^= t;
    rs[3] = rotl(rs[3], 45);
    return r;
}

static void seed(uint64_t s)
{
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        rs[i] = z ^ (z >> 31);
    }
}

static void rnd_bytes(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t r = rnd();
        size_t k = n - i < 8 ? n - i : 8;
        memcpy(p + i, &r, k);
    }
}

/* ---------------------------------------------------------------------
 * Measurement
 * ------------------------------------------------------------------- */

struct run {
    enum op op;
    const char *name;
    const struct aesir_engine *e;
    size_t key_len;
    aesir_aes key;
    _Alignas(64) unsigned char rk[AESIR_RK_BYTES];
    uint8_t out[64], zeros[64], iv[16];
    size_t evict;
    int rc; /* kept, so the calls' results are used */
};

static uint8_t inputs[BATCH][32];
static uint8_t classes[BATCH];
static uint64_t times[BATCH];
static volatile uint8_t evict_buf[16384 * 1024];
static volatile uint8_t sink;
static int aa_control; /* --aa: class 0 random too */

/* Untimed, before each measurement: CTR's key. The engine's key
 * schedule is written straight into the context's round-key area, so
 * every measurement uses the same context at the same address (a pool of
 * contexts would tie each class to addresses, whose cache behaviour
 * differs: an A/A test of that design gave |t| up to 11). */
static void prepare(struct run *r, const uint8_t *in)
{
    if (r->op == OP_CTR) {
        struct aesir_key_state *ks =
            (struct aesir_key_state *)(void *)r->key.opaque;
        r->e->setkey_enc(ks->rk_enc, in, r->key_len);
    }
}

static void do_op(struct run *r, const uint8_t *in)
{
    switch (r->op) {
    case OP_SETKEY:
        r->e->setkey_enc(r->rk, in, r->key_len);
        break;
    case OP_SETKEY_DEC:
        r->e->setkey_dec(r->rk, in, r->key_len);
        break;
    case OP_ENCRYPT:
        r->rc |= aesir_aes_encrypt_block(&r->key, r->out, in);
        break;
    case OP_DECRYPT:
        r->rc |= aesir_aes_decrypt_block(&r->key, r->out, in);
        break;
    default:
        r->rc |= aesir_ctr_crypt(&r->key, r->iv, 128, r->out, r->zeros, 64);
        break;
    }
}

static void evict(size_t bytes)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < bytes; i += 64)
        acc ^= evict_buf[i];
    sink = acc;
}

static void measure_batch(struct run *r)
{
    for (size_t i = 0; i < BATCH; i++) {
        classes[i] = (uint8_t)(rnd() & 1);
        if (classes[i] || aa_control)
            rnd_bytes(inputs[i], 32);
        else
            memset(inputs[i], 0, 32);
    }
    for (size_t i = 0; i < BATCH; i++) {
        uint64_t t0, t1;
        prepare(r, inputs[i]);
        if (r->evict)
            evict(r->evict);
        t0 = ticks();
        do_op(r, inputs[i]);
        t1 = ticks();
        times[i] = t1 - t0;
    }
    sink = (uint8_t)(r->out[0] ^ r->rk[0] ^ r->rc);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct result {
    double max_t, n;
    int which; /* 0 uncropped, 1..NPCT cropped, NPCT+1 second order */
};

static struct result max_test(const struct ttest *t)
{
    struct result r = {0, 0, -1};
    for (int i = 0; i < NTESTS; i++) {
        double v = fabs(t_value(&t[i]));
        if (t[i].n[0] + t[i].n[1] < ENOUGH)
            continue;
        if (r.which < 0 || v > r.max_t) {
            r.max_t = v;
            r.which = i;
        }
        if (i == 0)
            r.n = t[0].n[0] + t[0].n[1];
    }
    return r;
}

static const char *verdict(double t)
{
    return t > T_CERTAIN ? "leak (certain)"
           : t > T_LEAK  ? "leak likely"
                         : "no leak seen";
}

static struct result run_one(struct run *r, const char *engine, double secs)
{
    static struct ttest t[NTESTS];
    static uint64_t sorted[BATCH];
    uint64_t pct[NPCT];
    struct result res = {0, 0, -1};
    double start = now_seconds(), next_report = start + 5;

    memset(t, 0, sizeof(t));
    printf("%s %s (AES-%zu, %s): timer %s%s%s\n", engine, op_name[r->op],
           8 * r->key_len, op_what[r->op], TIMER_NAME,
           r->evict ? ", L1 evicted before each measurement" : "",
           aa_control ? ", A/A CONTROL: both classes random" : "");
    fflush(stdout);

    /* Warm-up batch: fixes the cropping percentiles, then is dropped. */
    measure_batch(r);
    memcpy(sorted, times, sizeof(sorted));
    qsort(sorted, BATCH, sizeof(sorted[0]), cmp_u64);
    for (int k = 0; k < NPCT; k++) {
        double q = 1 - pow(0.5, 10.0 * (k + 1) / NPCT);
        pct[k] = sorted[(size_t)(q * BATCH)];
    }

    while (now_seconds() - start < secs) {
        measure_batch(r);
        for (size_t i = 0; i < BATCH; i++) {
            double x = (double)times[i];
            int c = classes[i];
            if (times[i] == 0 || times[i] > ((uint64_t)1 << 40))
                continue; /* timer glitch */
            if (t[0].n[0] + t[0].n[1] > ENOUGH) {
                double d = x - t[0].mean[c];
                t_push(&t[NPCT + 1], d * d, c);
            }
            t_push(&t[0], x, c);
            for (int k = 0; k < NPCT; k++)
                if (times[i] < pct[k])
                    t_push(&t[1 + k], x, c);
        }
        if (now_seconds() >= next_report) {
            res = max_test(t);
            printf("  %6.0f s: %10.0f measurements, max |t| = %7.2f\n",
                   now_seconds() - start, res.n, res.max_t);
            fflush(stdout);
            next_report += 5;
        }
    }
    res = max_test(t);
    printf("  means (ticks, uncropped): fixed %.1f, random %.1f; "
           "median %llu\n",
           t[0].mean[0], t[0].mean[1], (unsigned long long)sorted[BATCH / 2]);
    printf("  %.0f measurements, max |t| = %.2f (%s test): %s\n", res.n,
           res.max_t,
           res.which == 0          ? "uncropped"
           : res.which == NPCT + 1 ? "second-order"
                                   : "cropped",
           verdict(res.max_t));
    if (res.max_t > T_LEAK) /* t grows as the square root of n */
        printf("  (a leak of this size shows at |t| = 4.5 after about %.0f "
               "measurements)\n",
               res.n * (T_LEAK / res.max_t) * (T_LEAK / res.max_t));
    return res;
}

static int parse_op(const char *s)
{
    for (int i = 0; i < NOPS; i++)
        if (strcmp(s, op_name[i]) == 0)
            return i;
    return -1;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: dudect [--engine NAME] [--op setkey|setkey-dec|encrypt|"
            "decrypt|ctr]\n"
            "              [--seconds S] [--bits 128|192|256] [--evict KIB] "
            "[--seed N] [--aa]\n");
}

int main(int argc, char **argv)
{
    const char *only_engine = NULL;
    int only_op = -1, bad = 0;
    double secs = 10;
    size_t key_len = 16, evict_kib = 0;
    uint64_t sd = (uint64_t)time(NULL);
    static struct run r;
    static struct {
        char line[160];
    } rows[64];
    size_t nrows = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--aa") == 0) {
            aa_control = 1;
            continue;
        }
        if (v == NULL) {
            usage();
            return 2;
        }
        i++;
        if (strcmp(a, "--engine") == 0) {
            only_engine = v;
        } else if (strcmp(a, "--op") == 0 && parse_op(v) >= 0) {
            only_op = parse_op(v);
        } else if (strcmp(a, "--seconds") == 0 && atof(v) > 0) {
            secs = atof(v);
        } else if (strcmp(a, "--bits") == 0 &&
                   (atoi(v) == 128 || atoi(v) == 192 || atoi(v) == 256)) {
            key_len = (size_t)atoi(v) / 8;
        } else if (strcmp(a, "--evict") == 0 &&
                   strtoul(v, NULL, 10) <= sizeof(evict_buf) / 1024) {
            evict_kib = strtoul(v, NULL, 10);
        } else if (strcmp(a, "--seed") == 0) {
            sd = strtoull(v, NULL, 0);
        } else {
            usage();
            return 2;
        }
    }
    if (only_engine != NULL && aesir_engine_find(only_engine) < 0) {
        fprintf(stderr, "dudect: no engine called %s\n", only_engine);
        return 2;
    }
    seed(sd);
    printf("dudect: seed %llu, %.0f s per engine and operation\n",
           (unsigned long long)sd, secs);

    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        unsigned flags = aesir_engine_flags(i);
        if (only_engine != NULL && strcmp(name, only_engine) != 0)
            continue;
        if (!(flags & AESIR_ENGINE_AVAILABLE)) {
            printf("%s: UNAVAILABLE on this CPU\n", name);
            continue;
        }
        r.e = aesir_engine_at(i);
        r.name = name;
        r.key_len = key_len;
        r.evict = 1024 * evict_kib;
        for (int op = 0; op < NOPS; op++) {
            struct result res;
            uint8_t key[32];
            if (only_op >= 0 && op != only_op)
                continue;
            r.op = (enum op)op;
            /* The fixed key of encrypt and decrypt, and a fixed counter
             * block with room for the 4 blocks of ctr. */
            rnd_bytes(key, sizeof(key));
            rnd_bytes(r.iv, sizeof(r.iv));
            r.rc = aesir_aes_init_ex(&r.key, key, key_len, name,
                                     AESIR_ENCRYPT | AESIR_DECRYPT);
            res = run_one(&r, name, secs);
            if (r.rc != AESIR_OK) {
                printf("%s %s: an aesir call failed\n", name, op_name[op]);
                bad = 1;
            }
            if ((flags & AESIR_ENGINE_CONSTANT_TIME) && res.max_t > T_LEAK)
                bad = 1;
            if (nrows < sizeof(rows) / sizeof(rows[0]))
                snprintf(rows[nrows++].line, sizeof(rows[0].line),
                         "| %s | %s%s | %s | %.0f | %.2f | %s |", name,
                         op_name[op], aa_control ? " (A/A control)" : "",
                         flags & AESIR_ENGINE_CONSTANT_TIME ? "yes" : "no",
                         res.n, res.max_t, verdict(res.max_t));
        }
        aesir_aes_clear(&r.key);
    }

    printf("\n| engine | op | flagged CT | measurements | max abs(t) | "
           "verdict |\n|---|---|---|---:|---:|---|\n");
    for (size_t i = 0; i < nrows; i++)
        printf("%s\n", rows[i].line);
    return bad;
}
