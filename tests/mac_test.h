/*
 * mac_test.h -- what the tests of CMAC, AES-SIV, key wrap and
 * XAES-256-GCM share (test_cmac.c, test_siv.c, test_kw.c, test_xaes.c):
 * a checking macro that names the engine and case, the PRNG, hex, a
 * reader for the "NAME = value" vector files of the pinned
 * cryptography-vectors package (CAVP .txt files, blank-line separated
 * records, "FAIL" lines, '#' comments and '[...]' headers), the engine
 * list, and the AESIR_DIFF_CASES / AESIR_DIFF_SEED settings.
 */
#ifndef AESIR_TEST_MAC_TEST_H
#define AESIR_TEST_MAC_TEST_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "check.h"

#define MAX_REPORTS 40

/* The engine or check under way, for failure messages. */
static char where[200];
static unsigned reports;

#define T(cond)                                                                \
    do {                                                                       \
        if (cond) {                                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            if (reports++ < MAX_REPORTS)                                       \
                fprintf(stderr, "FAIL %s:%d [%s]: %s\n", __FILE__, __LINE__,   \
                        where, #cond);                                         \
        }                                                                      \
    } while (0)

static uint64_t rng_state;

static inline uint64_t rnd(void)
{
    return splitmix64(&rng_state);
}

static inline size_t below(size_t n)
{
    return n == 0 ? 0 : (size_t)(rnd() % n);
}

static inline void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n != 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Hex to bytes; returns the byte count (strlen / 2). */
static inline size_t unhex(uint8_t *out, const char *h)
{
    size_t n = strlen(h) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) {
            fprintf(stderr, "bad hex: %s\n", h);
            exit(2);
        }
        out[i] = (uint8_t)v;
    }
    return n;
}

static inline uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long x;
    if (s == NULL || *s == '\0')
        return dflt;
    x = strtoull(s, &end, 0);
    if (*end != '\0') {
        fprintf(stderr, "bad %s=%s\n", name, s);
        exit(2);
    }
    return (uint64_t)x;
}

/* Seeds the PRNG from AESIR_DIFF_SEED or the clock, and prints it. */
static inline void seed_rng(const char *prog)
{
    uint64_t s = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    rng_state = env_u64("AESIR_DIFF_SEED", splitmix64(&s));
    printf("%s: seed 0x%016" PRIx64 " (AESIR_DIFF_SEED)\n", prog, rng_state);
}

/* ---- vector files ----------------------------------------------------- */

#define VEC_FIELDS 16
#define VEC_VALUE 8192

struct vec {
    unsigned n;
    int fail; /* a "FAIL" line */
    char name[VEC_FIELDS][24];
    char *value[VEC_FIELDS];
};

/* The value of field name (exact), or NULL. */
static inline const char *vec_get(const struct vec *v, const char *name)
{
    for (unsigned i = 0; i < v->n; i++)
        if (strcmp(v->name[i], name) == 0)
            return v->value[i];
    return NULL;
}

static inline void vec_reset(struct vec *v)
{
    for (unsigned i = 0; i < v->n; i++)
        free(v->value[i]);
    v->n = 0;
    v->fail = 0;
}

/*
 * vec_file -- calls fn(record, arg) for each record of the file at path;
 * returns the record count, or exits when the file cannot be read (a
 * missing vector set fails the test, never skips it).
 */
static inline size_t vec_file(const char *path,
                              void (*fn)(const struct vec *, void *), void *arg)
{
    FILE *f = fopen(path, "r");
    static char line[2 * VEC_VALUE + 64];
    struct vec v;
    size_t count = 0;

    if (f == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    memset(&v, 0, sizeof(v));
    for (;;) {
        char *got = fgets(line, sizeof(line), f), *eq, *s, *e;
        if (got == NULL || line[strspn(line, " \t\r\n")] == '\0') {
            if (v.n != 0 || v.fail) {
                fn(&v, arg);
                count++;
            }
            vec_reset(&v);
            if (got == NULL)
                break;
            continue;
        }
        if (line[0] == '#' || line[0] == '[')
            continue;
        if (strncmp(line, "FAIL", 4) == 0) {
            v.fail = 1;
            continue;
        }
        eq = strchr(line, '=');
        if (eq == NULL || v.n == VEC_FIELDS)
            continue;
        for (e = eq; e > line && (e[-1] == ' ' || e[-1] == '\t'); e--)
            ;
        *e = '\0';
        s = eq + 1 + strspn(eq + 1, " \t");
        s[strcspn(s, " \t\r\n")] = '\0';
        {
            size_t nl = strlen(line) < sizeof(v.name[0]) - 1
                            ? strlen(line)
                            : sizeof(v.name[0]) - 1;
            memcpy(v.name[v.n], line, nl);
            v.name[v.n][nl] = '\0';
        }
        v.value[v.n] = xmalloc(strlen(s) + 1);
        memcpy(v.value[v.n], s, strlen(s) + 1);
        v.n++;
    }
    fclose(f);
    return count;
}

/* ---- engines ---------------------------------------------------------- */

/* The available engines, printing the others as UNAVAILABLE; slow[i] is
 * set for ref and ref-otf (fewer random cases). Returns the count. */
#define MAX_ENGINES 64
static inline size_t engines(const char *prog, const char *names[MAX_ENGINES],
                             int slow[MAX_ENGINES])
{
    size_t n = 0;
    for (size_t i = 0; i < aesir_engine_count() && n < MAX_ENGINES; i++) {
        const char *name = aesir_engine_name(i);
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%s: engine %-14s UNAVAILABLE\n", prog, name);
            continue;
        }
        slow[n] = strcmp(name, "ref") == 0 || strcmp(name, "ref-otf") == 0;
        names[n++] = name;
    }
    return n;
}

#endif /* AESIR_TEST_MAC_TEST_H */
