/*
 * aesir -- command-line tool.
 *
 *   aesir info       engines in this build, which this CPU can run, their
 *                    properties, and the default
 *   aesir selftest   known-answer tests of every runnable engine; exit 1 on
 *                    any failure
 *   aesir speed      the benchmark's harness (bench/harness.h) on aesir's
 *                    engines only: choose engines, modes, key sizes and
 *                    sizes; tables or --csv (`make speed` adds the peer
 *                    libraries and the limit row)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aesir.h"
#include "harness.h"
#include "output.h"

static int have_ct_engine(void)
{
    const unsigned want = AESIR_ENGINE_AVAILABLE | AESIR_ENGINE_CONSTANT_TIME;
    for (size_t i = 0; i < aesir_engine_count(); i++)
        if ((aesir_engine_flags(i) & want) == want)
            return 1;
    return 0;
}

static int cmd_info(void)
{
    const char *def = aesir_engine_default();
    unsigned def_flags = aesir_engine_flags((size_t)aesir_engine_find(def));
    const char *model, *name, *why = NULL;
    char ident[48];

    printf("aesir %s\n\ncpu features:", aesir_version());
    for (size_t i = 0;; i++) {
        int present;
        const char *f = aesir_cpu_feature(i, &present);
        if (f == NULL)
            break;
        if (present)
            printf(" %s", f);
    }
    if (getenv("AESIR_CPU_DISABLE") != NULL)
        printf("  (AESIR_CPU_DISABLE=%s)", getenv("AESIR_CPU_DISABLE"));
    model = aesir_cpu_model(ident);
    printf("\ncpu model: %s (%s)", model, ident[0] != '\0' ? ident : "no CPUID");
    if (getenv("AESIR_CPU_MODEL") != NULL)
        printf("  (AESIR_CPU_MODEL=%s)", getenv("AESIR_CPU_MODEL"));
    printf("\n\n");
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
    /* The order the default is chosen from, and the rule behind it. */
    printf("\nranking (fastest first, * default):");
    for (size_t i = 0; (name = aesir_engine_ranked(i, &why)) != NULL; i++)
        printf(" %s%s", name, strcmp(name, def) == 0 ? "*" : "");
    printf("\nrule: %s\n", why != NULL ? why : "(none)");
    printf("default: %s\n", def);
    if (!(def_flags & AESIR_ENGINE_CONSTANT_TIME))
        printf("WARNING: the default engine is NOT constant-time: its table "
               "look-ups can leak the key through the cache (%s).\n",
               getenv("AESIR_ENGINE") != NULL && have_ct_engine()
                   ? "chosen by AESIR_ENGINE"
                   : "this build has no constant-time engine "
                                  "for this CPU");
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

/* ------------------------------------------------------------------
 * speed: the benchmark's harness (bench/harness.h), aesir engines only
 * ---------------------------------------------------------------- */

static const struct bench_impl *speed_impls[BENCH_MAX_IMPLS];
static size_t speed_n;

static void speed_collect(const struct bench_impl *impl)
{
    if (speed_n < BENCH_MAX_IMPLS)
        speed_impls[speed_n++] = impl;
}

/* speed_engines -- adds the impls of the engines listed ("ttable" or
 * "aesir/ttable", comma-separated; NULL: every available engine). */
static int speed_engines(const char *list)
{
    char item[64];

    bench_register_aesir(speed_collect);
    if (list == NULL) {
        for (size_t i = 0; i < speed_n; i++)
            bench_add(speed_impls[i]);
        return 0;
    }
    while (*list != '\0') {
        size_t n = strcspn(list, ","), i;
        const char *name = item;
        snprintf(item, sizeof(item), "%.*s", (int)n, list);
        list += n + (list[n] == ',');
        if (n == 0)
            continue;
        if (strncmp(name, "aesir/", 6) == 0)
            name += 6;
        for (i = 0; i < speed_n; i++)
            if (strcmp(speed_impls[i]->name + 6, name) == 0)
                break;
        if (i == speed_n) {
            int e = aesir_engine_find(name);
            fprintf(stderr, "aesir speed: engine '%s' %s (aesir info lists "
                            "them)\n",
                    name, e < 0 ? "unknown" : "not available on this CPU");
            return -1;
        }
        bench_add(speed_impls[i]);
    }
    return 0;
}

struct speed_opts {
    struct bench_config cfg;
    const char *engines;
    int csv, cpb;
};

/* speed_value -- argv[*i + 1] for option argv[*i], or NULL. */
static const char *speed_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "aesir speed: %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static int speed_count(const char *opt, const char *v, unsigned lo,
                       unsigned hi, unsigned *out)
{
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    if (end == v || *end != '\0' || x < lo || x > hi) {
        fprintf(stderr, "aesir speed: %s %s: want %u..%u\n", opt, v, lo, hi);
        return -1;
    }
    *out = (unsigned)x;
    return 0;
}

/* speed_parse -- 0 to run, 1 for help, -1 on error. */
static int speed_parse(struct speed_opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof(*o));
    bench_config_default(&o->cfg);
    o->cfg.passes = 1;
    o->cfg.verbose = isatty(2);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        int rc = 0;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        if (strcmp(a, "--csv") == 0) {
            o->csv = 1;
            continue;
        }
        if (strcmp(a, "--cpb") == 0) {
            o->cpb = 1;
            continue;
        }
        if (strcmp(a, "--misalign") == 0) {
            o->cfg.misalign = 1;
            continue;
        }
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o->cfg.verbose = 0;
            continue;
        }
        if ((v = speed_value(argc, argv, &i)) == NULL)
            return -1;
        if (strcmp(a, "--engines") == 0)
            o->engines = v;
        else if (strcmp(a, "--modes") == 0 || strcmp(a, "--ops") == 0)
            rc = bench_parse_ops(v, &o->cfg.ops);
        else if (strcmp(a, "--keys") == 0)
            rc = bench_parse_keys(v, &o->cfg.keys);
        else if (strcmp(a, "--sizes") == 0)
            rc = bench_parse_sizes(v, o->cfg.sizes, &o->cfg.nsizes);
        else if (strcmp(a, "--passes") == 0)
            rc = speed_count(a, v, 1, 100, &o->cfg.passes);
        else if (strcmp(a, "--rounds") == 0)
            rc = speed_count(a, v, 1, 21, &o->cfg.rounds);
        else {
            fprintf(stderr, "aesir speed: unknown option %s\n", a);
            return -1;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

static void speed_usage(FILE *f)
{
    fprintf(f,
        "usage: aesir speed [options]   (aesir engines only; all libraries: "
        "make speed)\n"
        "  --engines LIST  engines, e.g. ttable,ref [every available one]\n"
        "  --modes LIST    ops (ecb-enc ecb-dec cbc-enc cbc-dec cfb128-enc\n"
        "                  cfb128-dec ofb ctr), modes (cbc = both "
        "directions),\n"
        "                  main, all [main = ctr,cbc-enc,cbc-dec,ecb-enc]\n"
        "  --keys LIST     128,192,256 [128,256]\n"
        "  --sizes LIST    bytes, k/M suffixes, or all [64,576,16384]\n"
        "  --passes N      grid repetitions, best kept [1]\n"
        "  --rounds N      timed rounds per cell, median [9]\n"
        "  --misalign      buffers at 64-byte alignment + 1\n"
        "  --cpb           tables in cycles per byte instead of GB/s\n"
        "  --csv           CSV of every measurement on stdout, no tables\n"
        "  -q, --quiet     no progress line\n");
}

static int cmd_speed(int argc, char **argv)
{
    struct speed_opts o;
    struct bench_run r;
    struct bench_meta m = {"aesir speed", NULL, NULL, NULL, NULL};
    int rc = speed_parse(&o, argc, argv);

    if (rc != 0) {
        speed_usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? 0 : 2;
    }
    if (speed_engines(o.engines) != 0)
        return 2;
    if (bench_init(&r, &o.cfg, stderr) != 0) {
        fprintf(stderr, "aesir speed: out of memory\n");
        return 2;
    }
    m.command = "aesir speed";
    if (!o.csv) {
        bench_print_header(&r, stdout, &m);
        fflush(stdout);
    }
    rc = bench_verify(&r, o.cfg.ops, o.cfg.keys, stderr) != 0;
    if (!o.csv)
        bench_measure_keysetup(&r);
    rc |= bench_measure(&r) != 0;
    if (o.csv) {
        bench_write_csv(&r, stdout);
    } else {
        bench_print_clock(&r, stdout);
        bench_print_tables(&r, stdout, o.cpb, NULL);
        bench_print_keysetup(&r, stdout);
        bench_print_notes(&r, stdout);
    }
    bench_free(&r);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: aesir info | selftest | speed [options]\n"
               "  info      engines, their properties and the default\n"
               "  selftest  known-answer tests of every runnable engine\n"
               "  speed     time the engines (aesir speed --help; every\n"
               "            library side by side: make speed)\n"
               "Set AESIR_ENGINE=<name> to override the default engine.\n");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "info") == 0)
        return cmd_info();
    if (argc == 2 && strcmp(argv[1], "selftest") == 0)
        return cmd_selftest();
    if (argc >= 2 && strcmp(argv[1], "speed") == 0)
        return cmd_speed(argc, argv);
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "--help") == 0)) {
        usage(stdout);
        return 0;
    }
    usage(stderr);
    return 2;
}
