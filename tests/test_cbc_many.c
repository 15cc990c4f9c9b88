/*
 * test_cbc_many.c -- aesir_cbc_encrypt_many against aesir_cbc_encrypt, one
 * message at a time, with the key on the "ref" engine (independent code);
 * then every test again with aesir_cbc_mac_many, which must return the
 * same iv and write nothing to out (half of its jobs have out NULL).
 *
 *   per engine   1..40 jobs, every key size, random lengths 0..8 KiB
 *                (whole blocks), some in place, some at odd addresses,
 *                some of equal length; 150 jobs (more than one batch of
 *                the mode layer); a message cut in two calls through the
 *                returned iv. Every engine of the build; one this CPU
 *                cannot run prints UNAVAILABLE.
 *   mixed        jobs whose keys are on different engines and of
 *                different sizes in one call.
 *   errors       every invalid job gets its own status, writes nothing
 *                and keeps its iv; the call returns the first job's
 *                error; the good jobs around it are still right.
 *
 * Random but reproducible: AESIR_TEST_SEED overrides the seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "check.h"

#define MAX_JOBS 150
#define MAX_LEN 8192
/* Per job: room for the message at an offset of up to 15 bytes. */
#define SLOT_BYTES (MAX_LEN + 64)

static uint64_t rng_state = 0x243f6a8885a308d3u;

static uint64_t rng(void)
{
    return splitmix64(&rng_state);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rng();
}

static size_t rnd(size_t n)
{
    return (size_t)(rng() % n);
}

/* One job of a test batch, with everything needed to check it. */
struct tjob {
    aesir_aes key, ref;
    uint8_t iv0[16];
    uint8_t *in, *out; /* what the job points at */
    uint8_t *plain;    /* a copy of the plaintext */
    uint8_t *want;     /* the expected ciphertext */
    uint8_t want_iv[16];
};

static struct tjob tj[MAX_JOBS];
/* The function under test: aesir_cbc_encrypt_many, or with mac set
 * aesir_cbc_mac_many. */
static int mac;
static aesir_cbc_job jobs[MAX_JOBS];
static uint8_t *buf_in, *buf_out, *buf_plain, *buf_want;

/* setup_job -- job i: a random key of key_len bytes on engine, a random
 * IV and message of len bytes, in place or not, at offset off; the
 * expected output from the ref engine. 0 on success. */
static int setup_job(size_t i, const char *engine, size_t key_len, size_t len,
                     int in_place, size_t off)
{
    struct tjob *t = &tj[i];
    uint8_t key[32];
    size_t n;
    int err;

    fill(key, sizeof(key));
    fill(t->iv0, 16);
    t->in = buf_in + i * SLOT_BYTES + off;
    t->out = in_place ? t->in : buf_out + i * SLOT_BYTES + (off * 7 + 3) % 16;
    t->plain = buf_plain + i * SLOT_BYTES;
    t->want = buf_want + i * SLOT_BYTES;
    fill(t->plain, len);
    memcpy(t->in, t->plain, len);
    if (!in_place)
        memset(t->out, 0xa5, len + 32);
    err = aesir_aes_init_ex(&t->key, key, key_len, engine, AESIR_ENCRYPT);
    if (err == AESIR_OK)
        err = aesir_aes_init_ex(&t->ref, key, key_len, "ref", AESIR_ENCRYPT);
    if (err == AESIR_OK)
        err = aesir_cbc_encrypt(&t->ref, t->iv0, AESIR_PAD_NONE, t->want, len,
                                &n, t->plain, len);
    CHECK_EQ(err, AESIR_OK);
    if (err != AESIR_OK)
        return -1;
    memcpy(t->want_iv, len ? t->want + len - 16 : t->iv0, 16);

    jobs[i].key = &t->key;
    jobs[i].in = t->in;
    jobs[i].out = mac && i % 2 ? NULL : t->out;
    jobs[i].len = len;
    memcpy(jobs[i].iv, t->iv0, 16);
    jobs[i].status = 12345;
    return 0;
}

/* untouched -- the first n bytes of job i's out still hold what was put
 * there (the plaintext in place, else 0xa5). */
static int untouched(size_t i, size_t n)
{
    const struct tjob *t = &tj[i];
    int same = 1;

    for (size_t b = 0; b < n; b++)
        same &= t->out[b] == (t->out == t->in ? t->plain[b] : 0xa5);
    return same;
}

/* The function under test on n jobs. */
static int call_many(size_t n)
{
    return mac ? aesir_cbc_mac_many(jobs, n) : aesir_cbc_encrypt_many(jobs, n);
}

/* check_job -- job i encrypted (MAC: its iv computed, out untouched)
 * right; 1 when it was. */
static int check_job(size_t i, const char *what)
{
    const struct tjob *t = &tj[i];
    size_t len = jobs[i].len;
    int ok = jobs[i].status == AESIR_OK &&
             memcmp(jobs[i].iv, t->want_iv, 16) == 0 &&
             (mac ? untouched(i, t->out == t->in ? len : len + 16)
                  : memcmp(t->out, t->want, len) == 0 &&
                        (t->out == t->in || t->out[len] == 0xa5));

    CHECK(ok);
    if (!ok)
        fprintf(stderr, "     %s: job %zu (%s, %u-bit, %zu bytes%s): %s\n",
                what, i, aesir_aes_engine(&t->key), aesir_aes_key_bits(&t->key),
                len, t->out == t->in ? ", in place" : "",
                jobs[i].status != AESIR_OK                ? "bad status"
                : memcmp(jobs[i].iv, t->want_iv, 16) != 0 ? "wrong iv"
                : mac                                     ? "wrote to out"
                : memcmp(t->out, t->want, len) != 0       ? "wrong ciphertext"
                                                          : "wrote past end");
    return ok;
}

/* A random length: 0..MAX_LEN in whole blocks, 0 and the same length
 * more often than chance would give them. */
static size_t random_len(size_t same)
{
    switch (rnd(8)) {
    case 0:
        return 0;
    case 1:
    case 2:
        return same;
    default:
        return 16 * rnd(MAX_LEN / 16 + 1);
    }
}

/* run_batch -- n jobs set up, one call, every job checked. */
static void run_batch(size_t n, const char *what)
{
    int err = call_many(n);
    int bad = 0;

    CHECK_EQ(err, AESIR_OK);
    for (size_t i = 0; i < n; i++)
        bad |= !check_job(i, what);
    if (bad || err != AESIR_OK)
        fprintf(stderr, "     (%s, %zu jobs)\n", what, n);
}

static const size_t key_lens[3] = {16, 24, 32};

/* A batch of n jobs on one engine (engine NULL: a random available
 * engine and key size per job). max_len bounds the lengths. */
static int batch(const char *engine, size_t n, size_t key_len, size_t max_len)
{
    size_t same = 16 * rnd(max_len / 16 + 1);
    char what[80];

    for (size_t i = 0; i < n; i++) {
        const char *e = engine;
        size_t kl = key_len, len = random_len(same);
        while (e == NULL) {
            size_t x = rnd(aesir_engine_count());
            if (aesir_engine_flags(x) & AESIR_ENGINE_AVAILABLE)
                e = aesir_engine_name(x);
        }
        if (kl == 0)
            kl = key_lens[rnd(3)];
        if (len > max_len)
            len = 16 * rnd(max_len / 16 + 1);
        if (setup_job(i, e, kl, len, rnd(4) == 0, rnd(3) == 0 ? rnd(16) : 0))
            return -1;
    }
    snprintf(what, sizeof(what), "%s%s", engine ? engine : "mixed engines",
             mac ? ", MAC" : "");
    run_batch(n, what);
    return 0;
}

/* A message cut in two calls continues through the returned iv. */
static void split_message(const char *engine)
{
    uint8_t *whole = buf_out + (MAX_JOBS - 1) * SLOT_BYTES;
    size_t len = 16 * (2 + rnd(200)), cut = 16 * (1 + rnd(len / 16 - 1));

    if (setup_job(0, engine, 16, len, 0, 0) ||
        setup_job(1, engine, 32, 256, 1, 3))
        return;
    memcpy(whole, tj[0].want, len);
    jobs[0].len = cut;
    memcpy(tj[0].want_iv, whole + cut - 16, 16);
    run_batch(2, "split, first part");
    jobs[0].in += cut;
    jobs[0].out += cut;
    jobs[0].len = len - cut;
    jobs[1].len = 0; /* iv kept, nothing written */
    memcpy(tj[1].want_iv, jobs[1].iv, 16);
    CHECK_EQ(call_many(2), AESIR_OK);
    CHECK(mac ? untouched(0, len + 16) : memcmp(tj[0].out, whole, len) == 0);
    CHECK(memcmp(jobs[0].iv, whole + len - 16, 16) == 0);
    CHECK(memcmp(jobs[1].iv, tj[1].want_iv, 16) == 0);
    CHECK_EQ(jobs[1].status, AESIR_OK);
}

static void test_engine(const char *engine)
{
    for (size_t n = 1; n <= 40; n++)
        if (batch(engine, n, key_lens[n % 3], MAX_LEN))
            return;
    for (size_t k = 0; k < 3; k++)
        batch(engine, 16, key_lens[k], 4096);
    batch(engine, MAX_JOBS, 0, 1024);
    split_message(engine);
}

/* ------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------- */

/* A bad job: status err, its output untouched, its iv unchanged. */
static void check_bad(size_t i, int err)
{
    int same = untouched(i, jobs[i].len + 16);

    CHECK_EQ(jobs[i].status, err);
    CHECK(same);
    CHECK(memcmp(jobs[i].iv, tj[i].iv0, 16) == 0);
    if (jobs[i].status != err || !same)
        fprintf(stderr, "     bad job %zu: status %d, want %d%s\n", i,
                jobs[i].status, err, same ? "" : ", output written");
}

static void test_errors(void)
{
    static aesir_aes cleared, dec_only;
    uint8_t key[16] = {1};
    const char *e = aesir_engine_default();
    const size_t n = 12;
    int err;

    CHECK_EQ(mac ? aesir_cbc_mac_many(NULL, 0)
                 : aesir_cbc_encrypt_many(NULL, 0),
             AESIR_OK);
    CHECK_EQ(mac ? aesir_cbc_mac_many(NULL, 3)
                 : aesir_cbc_encrypt_many(NULL, 3),
             AESIR_E_ARGUMENT);
    CHECK_EQ(call_many(0), AESIR_OK);
    CHECK_EQ(aesir_aes_init_ex(&dec_only, key, 16, NULL, AESIR_DECRYPT),
             AESIR_OK);
    CHECK_EQ(aesir_aes_init_ex(&cleared, key, 16, NULL, AESIR_ENCRYPT),
             AESIR_OK);
    aesir_aes_clear(&cleared);

    for (size_t i = 0; i < n; i++) {
        /* plaintext kept in the tail too, so check_bad can compare */
        if (setup_job(i, i % 2 ? e : "ref", key_lens[i % 3],
                      16 * (1 + rnd(300)), i % 3 == 0, i % 5))
            return;
        memcpy(tj[i].plain + jobs[i].len, tj[i].in + jobs[i].len, 32);
    }
    /* Jobs 2, 4, 5, 7 (but for a MAC), 8, 10, 11 are bad, job 9 empty
     * with NULL buffers; the first bad one, job 2, has its key not for
     * encryption. */
    jobs[2].key = &dec_only;
    jobs[4].len += 8;
    jobs[5].in = NULL;
    jobs[7].out = NULL;
    jobs[8].key = &cleared;
    jobs[9].in = NULL, jobs[9].out = NULL, jobs[9].len = 0;
    memcpy(tj[9].want_iv, tj[9].iv0, 16);
    jobs[10].key = NULL;
    jobs[11].len = 1;
    err = call_many(n);
    CHECK_EQ(err, AESIR_E_STATE);
    check_bad(2, AESIR_E_STATE);
    check_bad(4, AESIR_E_INPUT_LENGTH);
    check_bad(5, AESIR_E_ARGUMENT);
    if (!mac)
        check_bad(7, AESIR_E_ARGUMENT);
    check_bad(8, AESIR_E_STATE);
    check_bad(10, AESIR_E_STATE);
    check_bad(11, AESIR_E_INPUT_LENGTH);
    for (size_t i = 0; i < n; i++)
        if (i < 2 || i == 3 || i == 6 || i == 9 || (mac && i == 7))
            check_job(i, "good job among bad ones");

    /* The first bad job decides the return value. */
    for (size_t i = 0; i < 3; i++)
        setup_job(i, e, 16, 64, 0, 0);
    jobs[1].len = 17;
    jobs[2].key = NULL;
    CHECK_EQ(call_many(3), AESIR_E_INPUT_LENGTH);
    check_job(0, "good job before bad ones");
    check_bad(1, AESIR_E_INPUT_LENGTH);
    check_bad(2, AESIR_E_STATE);
}

int main(void)
{
    const char *seed = getenv("AESIR_TEST_SEED");

    if (seed != NULL)
        rng_state = strtoull(seed, NULL, 0);
    buf_in = malloc((size_t)MAX_JOBS * SLOT_BYTES);
    buf_out = malloc((size_t)MAX_JOBS * SLOT_BYTES);
    buf_plain = malloc((size_t)MAX_JOBS * SLOT_BYTES);
    buf_want = malloc((size_t)MAX_JOBS * SLOT_BYTES);
    if (!buf_in || !buf_out || !buf_plain || !buf_want) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    for (mac = 0; mac <= 1; mac++) {
        const char *kind = mac ? "(MAC)" : "";
        unsigned before_all = check_failed;
        for (size_t i = 0; i < aesir_engine_count(); i++) {
            const char *name = aesir_engine_name(i);
            unsigned before = check_failed;
            if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
                printf("%-13s%s UNAVAILABLE\n", name, kind);
                continue;
            }
            test_engine(name);
            printf("%-13s%s %s\n", name, kind,
                   check_failed == before ? "ok" : "FAILED");
        }
        for (int r = 0; r < 20; r++)
            batch(NULL, 1 + rnd(40), 0, MAX_LEN);
        batch(NULL, MAX_JOBS, 0, 2048);
        printf("%-13s%s %s\n", "mixed", kind,
               check_failed == before_all ? "ok" : "FAILED");
        test_errors();
        printf("%-13s%s done\n", "errors", kind);
    }
    for (size_t i = 0; i < MAX_JOBS; i++) {
        aesir_aes_clear(&tj[i].key);
        aesir_aes_clear(&tj[i].ref);
    }
    free(buf_in);
    free(buf_out);
    free(buf_plain);
    free(buf_want);
    return check_summary();
}
