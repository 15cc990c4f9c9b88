/*
 * fuzz.h -- what the fuzz targets share: a reader that turns the fuzzer's
 * bytes into choices (never failing: a short input reads as zeros), the
 * FUZZ_CHECK macro that aborts on a broken promise so libFuzzer keeps the
 * input, the list of engines this CPU can run, exact-size heap buffers
 * (so that AddressSanitizer sees one byte too far) and canary helpers for
 * "nothing written on error".
 *
 * Every target defines LLVMFuzzerTestOneInput; libFuzzer (-fsanitize=
 * fuzzer) supplies main, or replay.c does, which runs saved inputs once
 * each (the ctest regression run of the corpus in ordinary builds).
 */
#ifndef AESIR_FUZZ_H
#define AESIR_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise: say where, then abort() so that libFuzzer saves the
 * input as a crash (and replay.c exits non-zero). */
#define FUZZ_CHECK(cond)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "FUZZ_CHECK failed %s:%d: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* The same with the two values, for return codes and lengths. */
#define FUZZ_CHECK_EQ(a, b)                                                    \
    do {                                                                       \
        long long fz_a_ = (long long)(a), fz_b_ = (long long)(b);              \
        if (fz_a_ != fz_b_) {                                                  \
            fprintf(stderr,                                                    \
                    "FUZZ_CHECK failed %s:%d: %s == %s (%lld, %lld)\n",        \
                    __FILE__, __LINE__, #a, #b, fz_a_, fz_b_);                 \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* FZ_TRACE -- with AESIR_FUZZ_TRACE set in the environment, a target
 * says what it calls, one line per call: how a crash's input reads as a
 * C reproducer. */
static inline int fz_tracing(void)
{
    static int on = -1;
    if (on < 0)
        on = getenv("AESIR_FUZZ_TRACE") != NULL;
    return on;
}

#define FZ_TRACE(...)                                                          \
    do {                                                                       \
        if (fz_tracing())                                                      \
            fprintf(stderr, __VA_ARGS__);                                      \
    } while (0)

/* ---- the input reader ---------------------------------------------- */

struct fz {
    const uint8_t *p;
    size_t n;
};

static inline uint8_t fz_u8(struct fz *f)
{
    if (f->n == 0)
        return 0;
    f->n--;
    return *f->p++;
}

static inline uint16_t fz_u16(struct fz *f)
{
    uint16_t v = fz_u8(f);
    return (uint16_t)(v | fz_u8(f) << 8);
}

static inline uint32_t fz_u32(struct fz *f)
{
    uint32_t v = fz_u16(f);
    return v | (uint32_t)fz_u16(f) << 16;
}

/* fz_bytes -- n bytes into dst, zeros once the input runs out. */
static inline void fz_bytes(struct fz *f, uint8_t *dst, size_t n)
{
    size_t k = n < f->n ? n : f->n;
    if (k != 0)
        memcpy(dst, f->p, k);
    if (n > k)
        memset(dst + k, 0, n - k);
    f->p += k;
    f->n -= k;
}

/* fz_below -- a value in [0, n), n >= 1, from one or two bytes. */
static inline size_t fz_below(struct fz *f, size_t n)
{
    return (n <= 256 ? fz_u8(f) : fz_u16(f)) % n;
}

/* A deterministic generator, seeded from the input, for bulk data the
 * fuzzer gains nothing from choosing byte by byte (splitmix64). */
static inline uint64_t fz_rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline void fz_fill(uint64_t *s, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)fz_rng(s);
}

/* ---- engines ------------------------------------------------------- */

#define FZ_MAX_ENGINES 32

/* fz_engines -- the names of the engines this CPU can run (ref first),
 * and their number. Built once. */
static inline size_t fz_engines(const char ***names)
{
    static const char *list[FZ_MAX_ENGINES];
    static size_t n;
    if (n == 0) {
        list[n++] = "ref";
        for (size_t i = 0; i < aesir_engine_count() && n < FZ_MAX_ENGINES;
             i++) {
            const char *name = aesir_engine_name(i);
            if ((aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE) &&
                strcmp(name, "ref") != 0)
                list[n++] = name;
        }
    }
    *names = list;
    return n;
}

/* ---- buffers ------------------------------------------------------- */

#define FZ_CANARY 0xa5

/*
 * fz_alloc -- n usable bytes at an address off (0..15) bytes past a
 * malloc'd one, ending exactly where the allocation ends, so that ASan
 * reports the first byte written or read past n. Filled with the canary.
 * Free with fz_free(p, off).
 */
static inline uint8_t *fz_alloc(size_t n, unsigned off)
{
    uint8_t *b = malloc(n + off);
    if (b == NULL && n + off == 0)
        b = malloc(1); /* malloc(0) may return NULL */
    if (b == NULL)
        abort();
    memset(b, FZ_CANARY, n + off);
    return b + off;
}

static inline void fz_free(uint8_t *p, unsigned off)
{
    if (p != NULL)
        free(p - off);
}

static inline int fz_all(const uint8_t *p, size_t n, uint8_t v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

#endif
