/*
 * aesir -- command-line tool.
 *
 *   aesir info       engines in this build, which this CPU can run, their
 *                    properties, and the default
 *   aesir selftest   known-answer tests of every runnable engine; exit 1 on
 *                    any failure
 *   aesir speed      a quick comparison of the engines on CTR and CBC
 *                    (the full benchmark is bench/, `make speed`)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"

static int cmd_info(void)
{
    const char *def = aesir_engine_default();
    unsigned def_flags = aesir_engine_flags((size_t)aesir_engine_find(def));

    printf("aesir %s\n\n", aesir_version());
    printf("%-10s %-9s %-13s %-8s %s\n", "engine", "available",
           "constant-time", "hardware", "description");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        unsigned f = aesir_engine_flags(i);
        printf("%-10s %-9s %-13s %-8s %s\n", aesir_engine_name(i),
               f & AESIR_ENGINE_AVAILABLE ? "yes" : "no",
               f & AESIR_ENGINE_CONSTANT_TIME ? "yes" : "NO",
               f & AESIR_ENGINE_HARDWARE ? "yes" : "no",
               aesir_engine_description(i));
    }
    printf("\ndefault: %s\n", def);
    if (!(def_flags & AESIR_ENGINE_CONSTANT_TIME))
        printf("WARNING: the default engine is NOT constant-time: this build "
               "has no constant-time engine yet, and %s's table look-ups "
               "can leak the key through the cache.\n",
               def);
    if (getenv("AESIR_ENGINE") != NULL)
        printf("(AESIR_ENGINE=%s is set)\n", getenv("AESIR_ENGINE"));
    return 0;
}

static int cmd_selftest(void)
{
    int failed = 0;
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        int err;
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%-10s UNAVAILABLE\n", name);
            continue;
        }
        err = aesir_engine_selftest(name);
        printf("%-10s %s\n", name, err == AESIR_OK ? "ok" : aesir_strerror(err));
        failed |= err != AESIR_OK;
    }
    return failed ? 1 : 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum op { OP_CTR, OP_CBC_ENC, OP_CBC_DEC };

static int run_op(const aesir_aes *k, enum op op, uint8_t *buf, size_t len)
{
    static const uint8_t iv[16] = {0};
    size_t n;
    switch (op) {
    case OP_CTR:
        return aesir_ctr_crypt(k, iv, 128, buf, buf, len);
    case OP_CBC_ENC:
        return aesir_cbc_encrypt(k, iv, AESIR_PAD_NONE, buf, len, &n, buf,
                                 len);
    default:
        return aesir_cbc_decrypt(k, iv, AESIR_PAD_NONE, buf, len, &n, buf,
                                 len);
    }
}

/* Best-of-5 throughput in MB/s, each round about 50 ms. */
static double measure(const aesir_aes *k, enum op op, uint8_t *buf,
                      size_t len)
{
    double best = 0;
    size_t iters = 1;
    for (;;) { /* calibrate */
        double t0 = now();
        for (size_t i = 0; i < iters; i++)
            if (run_op(k, op, buf, len) != AESIR_OK)
                return -1;
        if (now() - t0 > 0.05)
            break;
        iters *= 2;
    }
    for (int r = 0; r < 5; r++) {
        double t0 = now(), dt;
        for (size_t i = 0; i < iters; i++)
            if (run_op(k, op, buf, len) != AESIR_OK)
                return -1;
        dt = now() - t0;
        if ((double)(len * iters) / dt / 1e6 > best)
            best = (double)(len * iters) / dt / 1e6;
    }
    return best;
}

static int cmd_speed(void)
{
    static const char *const opname[] = {"ctr", "cbc-enc", "cbc-dec"};
    static const size_t sizes[] = {64, 1024, 16384};
    uint8_t key[32] = {1, 2, 3}, *buf = calloc(1, 16384);

    if (buf == NULL)
        return 1;
    printf("quick engine comparison, MB/s (best of 5); the full benchmark "
           "is `make speed`\n");
    printf("%-10s %-8s %-5s %10s %10s %10s\n", "engine", "op", "key", "64 B",
           "1 KiB", "16 KiB");
    for (size_t e = 0; e < aesir_engine_count(); e++) {
        if (!(aesir_engine_flags(e) & AESIR_ENGINE_AVAILABLE))
            continue;
        for (int op = 0; op < 3; op++)
            for (size_t kl = 16; kl <= 32; kl += 16) {
                aesir_aes k;
                if (aesir_aes_init_ex(&k, key, kl, aesir_engine_name(e),
                                      AESIR_ENCRYPT | AESIR_DECRYPT) != 0)
                    return 1;
                printf("%-10s %-8s %-5zu", aesir_engine_name(e), opname[op],
                       8 * kl);
                for (size_t s = 0; s < 3; s++)
                    printf(" %10.1f",
                           measure(&k, (enum op)op, buf, sizes[s]));
                printf("\n");
                fflush(stdout);
                aesir_aes_clear(&k);
            }
    }
    free(buf);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: aesir info | selftest | speed\n"
               "  info      engines, their properties and the default\n"
               "  selftest  known-answer tests of every runnable engine\n"
               "  speed     quick engine comparison on CTR and CBC\n"
               "Set AESIR_ENGINE=<name> to override the default engine.\n");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "info") == 0)
        return cmd_info();
    if (argc == 2 && strcmp(argv[1], "selftest") == 0)
        return cmd_selftest();
    if (argc == 2 && strcmp(argv[1], "speed") == 0)
        return cmd_speed();
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "--help") == 0)) {
        usage(stdout);
        return 0;
    }
    usage(stderr);
    return 2;
}
