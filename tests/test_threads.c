/*
 * test_threads.c -- the library's first use, made by several threads at
 * once, must be safe and give every thread the same results.
 *
 * The one-time initialisations are all made on first use, by whichever
 * thread comes first: the CPU probe (cpu.c), the choice of the default
 * engine, each engine's known-answer self-test and the measurement of how
 * far its key setup writes (dispatch.c). This program makes no library
 * call before its threads start: NTHREADS threads wait at a barrier, then
 * each makes its first call through a different entry point (the default's
 * name, the CPU features, a key setup with the default engine, an
 * engine's self-test), and goes on through all of them: every engine's
 * self-test, key setup on every available engine (by name, both
 * directions, every key size) and on the default, and encryption and
 * decryption in every mode, multi-buffer CBC included. Half the threads
 * walk the registry forwards and half backwards, so that two threads set
 * up the same engine at once while others set up other engines.
 *
 * Phase two, after every thread has ended: the main thread computes the
 * same results alone and every thread's must equal them byte for byte.
 *
 * The initialisations happen once per process, so one run exercises the
 * race once: ctest runs this program several times (tests/CMakeLists.txt),
 * and `make tsan` runs it under ThreadSanitizer, where any data race ends
 * the run with an error (halt_on_error, set below and by ctest).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "check.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#endif

#ifdef UNDER_TSAN
/* ThreadSanitizer's options when TSAN_OPTIONS does not set them: the
 * first report fails the run (also when run by hand). */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
    return "halt_on_error=1:second_deadlock_stack=1";
}
#endif

#define NTHREADS 8
#define MAX_ENGINES 32 /* more than the registry holds */
#define MSG 77         /* bytes per message: a partial last block */
#define OUT 96         /* room for MSG with PKCS#7 padding */
#define NJOBS 5        /* multi-buffer CBC jobs */

/* What one key computes: ciphertext of every mode, and the plaintext
 * decrypted back where the mode has a decryption of its own. */
enum {
    R_ECB,
    R_CBC,
    R_CBC_DEC,
    R_CFB128,
    R_CFB8,
    R_CFB1,
    R_OFB,
    R_CTR,
    R_INCR,
    R_MANY,
    R_MAC,
    NRES
};

struct key_result {
    int err;                  /* first error met, or AESIR_OK */
    uint8_t out[NRES][OUT];   /* zero-filled beyond each output */
    uint8_t many[NJOBS * 48]; /* aesir_cbc_encrypt_many's outputs */
};

/* Everything one thread (or the main thread, in phase two) computes.
 * Slot MAX_ENGINES is the default engine (engine NULL). */
struct result {
    const char *def;   /* aesir_engine_default() */
    uint64_t features; /* bit i: feature i present */
    unsigned nfeatures;
    int selftest[MAX_ENGINES];
    unsigned flags[MAX_ENGINES];
    struct key_result key[MAX_ENGINES + 1][3]; /* per key size */
};

static struct result results[NTHREADS], single;
static pthread_barrier_t start;

static const uint8_t iv[16] = {0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78,
                               0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0};

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(seed * 197u + i * 53u + 11u);
}

static void note(int *first, int err)
{
    if (*first == AESIR_OK && err != AESIR_OK)
        *first = err;
}

/* Every mode with the key k (already set up) into r. */
static void run_modes(const aesir_aes *k, struct key_result *r)
{
    uint8_t msg[MSG], tmp[OUT];
    size_t n;
    int e = AESIR_OK;

    fill(msg, sizeof(msg), 1);
    note(&e, aesir_ecb_encrypt(k, AESIR_PAD_PKCS7, r->out[R_ECB], OUT, &n, msg,
                               MSG));
    note(&e, aesir_cbc_encrypt(k, iv, AESIR_PAD_PKCS7, r->out[R_CBC], OUT, &n,
                               msg, MSG));
    note(&e, aesir_cbc_decrypt(k, iv, AESIR_PAD_PKCS7, r->out[R_CBC_DEC], OUT,
                               &n, r->out[R_CBC], 80));
    note(&e, aesir_ecb_decrypt(k, AESIR_PAD_PKCS7, tmp, OUT, &n, r->out[R_ECB],
                               80));
    if (n != MSG || memcmp(tmp, msg, MSG) != 0 ||
        memcmp(r->out[R_CBC_DEC], msg, MSG) != 0)
        note(&e, AESIR_E_SELFTEST); /* a round trip that failed */
    note(&e, aesir_cfb128_encrypt(k, iv, r->out[R_CFB128], msg, MSG));
    note(&e, aesir_cfb8_encrypt(k, iv, r->out[R_CFB8], msg, MSG));
    note(&e, aesir_cfb1_encrypt(k, iv, r->out[R_CFB1], msg, 8 * MSG - 3));
    note(&e, aesir_ofb_crypt(k, iv, r->out[R_OFB], msg, MSG));
    note(&e, aesir_ctr_crypt(k, iv, 32, r->out[R_CTR], msg, MSG));

    /* incremental CTR in uneven pieces */
    {
        aesir_cipher c;
        size_t at = 0, piece = 1;
        note(&e, aesir_cipher_init(&c, k, AESIR_MODE_CTR, AESIR_ENCRYPT, iv, 16,
                                   64));
        while (e == AESIR_OK && at < MSG) {
            size_t len = piece < MSG - at ? piece : MSG - at;
            note(&e, aesir_cipher_update(&c, r->out[R_INCR] + at, OUT - at, &n,
                                         msg + at, len));
            at += len, piece = 2 * piece + 1;
        }
        note(&e, aesir_cipher_final(&c, NULL, 0, &n));
        aesir_cipher_clear(&c);
    }

    /* multi-buffer CBC and CBC-MAC: NJOBS messages of 0..64 bytes */
    {
        aesir_cbc_job jobs[NJOBS];
        for (int mac = 0; mac < 2; mac++) {
            for (size_t j = 0; j < NJOBS; j++) {
                jobs[j].key = k;
                jobs[j].in = msg;
                jobs[j].out = mac ? NULL : r->many + 48 * j;
                jobs[j].len = 16 * (j % 4);
                fill(jobs[j].iv, 16, (unsigned)j);
            }
            note(&e, mac ? aesir_cbc_mac_many(jobs, NJOBS)
                         : aesir_cbc_encrypt_many(jobs, NJOBS));
            for (size_t j = 0; j < NJOBS; j++)
                memcpy(r->out[mac ? R_MAC : R_MANY] + 16 * j, jobs[j].iv, 16);
        }
    }
    r->err = e;
}

/* Key setup of engine name (NULL: the default) for every key size, then
 * every mode; into r[0..2]. */
static void run_engine(const char *name, struct key_result r[3])
{
    static const size_t lens[3] = {16, 24, 32};
    uint8_t key[32];
    aesir_aes k;

    fill(key, sizeof(key), 2);
    for (int s = 0; s < 3; s++) {
        int err = name == NULL && s == 0
                      ? aesir_aes_init(&k, key, lens[s])
                      : aesir_aes_init_ex(&k, key, lens[s], name,
                                          AESIR_ENCRYPT | AESIR_DECRYPT);
        if (err != AESIR_OK) {
            r[s].err = err;
            continue;
        }
        run_modes(&k, &r[s]);
    }
    aesir_aes_clear(&k);
}

static void features(struct result *r)
{
    int present;
    unsigned i = 0;
    for (; i < 64 && aesir_cpu_feature(i, &present) != NULL; i++)
        if (present)
            r->features |= (uint64_t)1 << i;
    r->nfeatures = i;
}

/* The whole work of one thread; first says which call comes first, and
 * backwards which way it walks the registry. */
static void work(struct result *r, int first, int backwards)
{
    size_t count;
    aesir_aes k;
    uint8_t key[16] = {0};

    switch (first) {
    case 0:
        r->def = aesir_engine_default();
        break;
    case 1:
        features(r);
        break;
    case 2:
        /* the default engine, chosen and made ready inside key setup */
        if (aesir_aes_init(&k, key, sizeof(key)) == AESIR_OK)
            aesir_aes_clear(&k);
        break;
    default:
        /* a self-test before anything else (its verdict is taken again
         * below, in registry order) */
        r->selftest[backwards ? 3 : 0] =
            aesir_engine_selftest(aesir_engine_name(backwards ? 3 : 0));
        break;
    }
    r->def = aesir_engine_default();
    if (r->nfeatures == 0)
        features(r);
    count = aesir_engine_count();
    if (count > MAX_ENGINES)
        count = MAX_ENGINES;
    for (size_t j = 0; j < count; j++) {
        size_t i = backwards ? count - 1 - j : j;
        const char *name = aesir_engine_name(i);
        r->flags[i] = aesir_engine_flags(i);
        r->selftest[i] = aesir_engine_selftest(name);
        if (r->flags[i] & AESIR_ENGINE_AVAILABLE)
            run_engine(name, r->key[i]);
        else
            r->key[i][0].err =
                aesir_aes_init_ex(&k, key, 16, name, AESIR_ENCRYPT);
    }
    run_engine(NULL, r->key[MAX_ENGINES]);
}

static void *thread_main(void *arg)
{
    size_t t = (size_t)(uintptr_t)arg;
    pthread_barrier_wait(&start);
    work(&results[t], (int)(t % 4), (int)(t / 4 % 2 ^ t % 2));
    return NULL;
}

/*
 * --misuse: what the header forbids, two threads keying one context at
 * once. Built with ThreadSanitizer this must be reported as a data race
 * in the library's key setup (ctest threads_tsan_detects): it shows that
 * the library is instrumented and that the check can fail.
 */
static aesir_aes shared_key;

static void *misuse_main(void *arg)
{
    uint8_t key[16];
    int bad = 0;

    fill(key, sizeof(key), (unsigned)(uintptr_t)arg);
    pthread_barrier_wait(&start);
    for (int i = 0; i < 200; i++)
        bad |= aesir_aes_init_ex(&shared_key, key, sizeof(key), "ct64",
                                 AESIR_ENCRYPT) != AESIR_OK;
    return bad ? arg : NULL;
}

static int misuse(void)
{
    pthread_t th[2];

    if (pthread_barrier_init(&start, NULL, 2) != 0 ||
        pthread_create(&th[0], NULL, misuse_main, (void *)(uintptr_t)1) != 0 ||
        pthread_create(&th[1], NULL, misuse_main, (void *)(uintptr_t)2) != 0)
        return 1;
    pthread_join(th[0], NULL);
    pthread_join(th[1], NULL);
    printf("misuse: no data race reported\n");
    return 0;
}

int main(int argc, char **argv)
{
    pthread_t th[NTHREADS];
    size_t count, started = 0;

    if (argc > 1 && strcmp(argv[1], "--misuse") == 0)
        return misuse();
    /* no library call before this point */
    if (pthread_barrier_init(&start, NULL, NTHREADS) != 0) {
        fprintf(stderr, "pthread_barrier_init failed\n");
        return 1;
    }
    for (size_t t = 0; t < NTHREADS; t++)
        if (pthread_create(&th[t], NULL, thread_main, (void *)(uintptr_t)t) ==
            0)
            started++;
    CHECK_EQ(started, (size_t)NTHREADS);
    if (started != NTHREADS)
        return 1; /* the others wait at the barrier for ever */
    for (size_t t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&start);

    /* Phase two: alone, after every thread has ended. */
    work(&single, 0, 0);
    count = aesir_engine_count();
    CHECK(count <= MAX_ENGINES);
    CHECK(single.def != NULL && single.nfeatures > 0);
    for (size_t i = 0; i < count && i < MAX_ENGINES; i++) {
        int avail = (single.flags[i] & AESIR_ENGINE_AVAILABLE) != 0;
        CHECK_EQ(single.selftest[i],
                 avail ? AESIR_OK : AESIR_E_ENGINE_UNAVAILABLE);
        for (int s = 0; s < (avail ? 3 : 1); s++)
            CHECK_EQ(single.key[i][s].err,
                     avail ? AESIR_OK : AESIR_E_ENGINE_UNAVAILABLE);
    }
    for (int s = 0; s < 3; s++)
        CHECK_EQ(single.key[MAX_ENGINES][s].err, AESIR_OK);
    for (size_t t = 0; t < NTHREADS; t++) {
        const struct result *r = &results[t];
        CHECK(r->def == single.def); /* the same registry string */
        CHECK_EQ(r->features, single.features);
        CHECK_EQ(r->nfeatures, single.nfeatures);
        CHECK(memcmp(r->selftest, single.selftest, sizeof(r->selftest)) == 0);
        CHECK(memcmp(r->flags, single.flags, sizeof(r->flags)) == 0);
        for (size_t i = 0; i <= MAX_ENGINES; i++)
            for (int s = 0; s < 3; s++)
                if (memcmp(&r->key[i][s], &single.key[i][s],
                           sizeof(r->key[i][s])) != 0) {
                    CHECK(0);
                    fprintf(stderr,
                            "thread %zu, engine %s, %d-bit key: "
                            "results differ from the single-threaded run\n",
                            t, i < count ? aesir_engine_name(i) : "(default)",
                            128 + 64 * s);
                }
    }
    printf("%d threads, first use at once: default %s, %zu engines\n", NTHREADS,
           single.def, count);
    return check_summary();
}
