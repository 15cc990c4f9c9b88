/*
 * gcm_pairs.h -- what the GCM tests (test_gcm.c, test_gcm_diff.c and the
 * GCM part of test_vectors.c) share: the engine pairs a GCM key can use
 * (an AES engine x a GHASH engine, both from the registries), which of
 * them are slow, and the listing of the pairs this CPU cannot run (each
 * printed as UNAVAILABLE, never passed over in silence).
 */
#ifndef AESIR_TEST_GCM_PAIRS_H
#define AESIR_TEST_GCM_PAIRS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"

struct gcm_pair {
    const char *aes, *ghash;
    int available; /* both engines run on this CPU and build (and the
                      pair is not skipped) */
    int skipped;   /* available, but left out by AESIR_GCM_PAIRS=cross */
    int slow;      /* a byte-wise AES or a bit-wise GHASH engine */
};

/*
 * gcm_pair_wanted -- 0 when AESIR_GCM_PAIRS=cross leaves the pair out:
 * then only the pairs with the default AES engine or the default GHASH
 * engine run, so every engine still runs (with the other kind's
 * default), in 18 pairs instead of 84 here. The sanitizer build and the
 * cross matrix under qemu set it (Makefile, tests/cross-test.sh): the
 * full product there would take most of CI's time.
 */
static inline int gcm_pair_wanted(const char *aes, const char *ghash)
{
    const char *mode = getenv("AESIR_GCM_PAIRS");
    if (mode == NULL || strcmp(mode, "cross") != 0)
        return 1;
    return strcmp(aes, aesir_engine_default()) == 0 ||
           strcmp(ghash, aesir_ghash_engine_default()) == 0;
}

/*
 * The slow engines: "ref" and "ref-otf" compute AES a byte at a time
 * (ref-otf also re-derives its key schedule in every block), "ghash-ref"
 * multiplies a bit at a time; each is 10 to 100 times slower per block
 * than the others. Tests that run many random cases run fewer on a pair
 * with one of them, and say so.
 */
static inline int gcm_engine_slow(const char *name)
{
    static const char *const slow[] = {"ref", "ref-otf", "ghash-ref"};
    for (size_t i = 0; i < sizeof(slow) / sizeof(slow[0]); i++)
        if (strcmp(name, slow[i]) == 0)
            return 1;
    return 0;
}

/* Every pair of the build, AES engine major, into p (at most cap); the
 * number of pairs (which may exceed cap: then only cap are listed). */
static inline size_t gcm_pairs_list(struct gcm_pair *p, size_t cap)
{
    size_t n = 0;
    for (size_t a = 0; a < aesir_engine_count(); a++)
        for (size_t g = 0; g < aesir_ghash_engine_count(); g++, n++) {
            if (n >= cap)
                continue;
            p[n].aes = aesir_engine_name(a);
            p[n].ghash = aesir_ghash_engine_name(g);
            p[n].available =
                (aesir_engine_flags(a) & AESIR_ENGINE_AVAILABLE) &&
                (aesir_ghash_engine_flags(g) & AESIR_ENGINE_AVAILABLE);
            p[n].skipped =
                p[n].available && !gcm_pair_wanted(p[n].aes, p[n].ghash);
            p[n].available &= !p[n].skipped;
            p[n].slow =
                gcm_engine_slow(p[n].aes) || gcm_engine_slow(p[n].ghash);
        }
    return n;
}

/* Prints the unavailable pairs, one line per AES engine, and a summary;
 * returns the number of available pairs. */
static inline size_t gcm_pairs_print(const char *prog, const struct gcm_pair *p,
                                     size_t n)
{
    size_t avail = 0, slow = 0;
    const char *line_aes = NULL;

    size_t skipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i].available) {
            avail++;
            slow += (size_t)p[i].slow;
            continue;
        }
        if (p[i].skipped) {
            skipped++;
            continue;
        }
        if (line_aes == NULL || strcmp(line_aes, p[i].aes) != 0) {
            if (line_aes != NULL)
                putchar('\n');
            printf("%s: UNAVAILABLE %s x", prog, p[i].aes);
            line_aes = p[i].aes;
        }
        printf(" %s", p[i].ghash);
    }
    if (line_aes != NULL)
        putchar('\n');
    printf("%s: %zu engine pairs (AES x GHASH), %zu run (%zu slow: "
           "ref, ref-otf or ghash-ref), %zu SKIPPED (AESIR_GCM_PAIRS=cross: "
           "only pairs with a default engine), %zu UNAVAILABLE\n",
           prog, n, avail, slow, skipped, n - avail - skipped);
    return avail;
}

#endif
