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
 *
 * The command line is parsed strictly by aesir_cli.c: a bad command,
 * option or value is one line on stderr and exit status 2. Each command
 * first warns on stderr about an AESIR_ENGINE, AESIR_CPU_DISABLE or
 * AESIR_CPU_MODEL value that the library ignores.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aesir.h"
#include "aesir_cli.h"
#include "args.h"
#include "cmd_crypt.h"
#include "harness.h"
#include "output.h"

/* env_warnings -- a line on stderr for each environment value the
 * library ignores (aesir_cli_env_warnings). */
static void env_warnings(void)
{
    char buf[2048];

    if (aesir_cli_env_warnings(
            getenv("AESIR_ENGINE"), getenv("AESIR_CPU_DISABLE"),
            getenv("AESIR_CPU_MODEL"), buf, sizeof(buf)) > 0) {
        fputs(buf, stderr);
        fflush(stderr);
    }
}

static int have_ct_engine(void)
{
    const unsigned want = AESIR_ENGINE_AVAILABLE | AESIR_ENGINE_CONSTANT_TIME;
    for (size_t i = 0; i < aesir_engine_count(); i++)
        if ((aesir_engine_flags(i) & want) == want)
            return 1;
    return 0;
}

/* The GHASH engines (GCM's multipliers) and their default. */
static void ghash_info(void)
{
    const char *def = aesir_ghash_engine_default();
    int d = aesir_ghash_engine_find(def);

    printf("\n%-20s %-9s %-13s %-8s %s\n", "ghash engine", "available",
           "constant-time", "hardware", "description");
    for (size_t i = 0; i < aesir_ghash_engine_count(); i++) {
        unsigned f = aesir_ghash_engine_flags(i);
        printf("%-20s %-9s %-13s %-8s %s\n", aesir_ghash_engine_name(i),
               f & AESIR_ENGINE_AVAILABLE ? "yes" : "no",
               f & AESIR_ENGINE_CONSTANT_TIME ? "yes" : "NO",
               f & AESIR_ENGINE_HARDWARE ? "yes" : "no",
               aesir_ghash_engine_description(i));
    }
    printf("ghash default: %s\n", def != NULL ? def : "(none)");
    if (d >= 0 &&
        !(aesir_ghash_engine_flags((size_t)d) & AESIR_ENGINE_CONSTANT_TIME))
        printf("WARNING: the default GHASH engine is NOT constant-time "
               "(chosen by AESIR_GHASH_ENGINE).\n");
    if (getenv("AESIR_GHASH_ENGINE") != NULL)
        printf("(AESIR_GHASH_ENGINE=%s is set)\n",
               getenv("AESIR_GHASH_ENGINE"));
}

static int cmd_info(void)
{
    const char *def = aesir_engine_default();
    unsigned def_flags = aesir_engine_flags((size_t)aesir_engine_find(def));
    const char *model, *name, *why = NULL;
    char ident[48];

    env_warnings();
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
    printf("\ncpu model: %s (%s)", model,
           ident[0] != '\0' ? ident : "no CPUID");
    if (getenv("AESIR_CPU_MODEL") != NULL)
        printf("  (AESIR_CPU_MODEL=%s)", getenv("AESIR_CPU_MODEL"));
    printf("\n\n");
    printf("%-13s %-9s %-13s %-8s %s\n", "engine", "available", "constant-time",
           "hardware", "description");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        unsigned f = aesir_engine_flags(i);
        printf("%-13s %-9s %-13s %-8s %s\n", aesir_engine_name(i),
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
    ghash_info();
    return 0;
}

static int cmd_selftest(void)
{
    int failed = 0;

    env_warnings();
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        int err;
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%-13s UNAVAILABLE\n", name);
            continue;
        }
        err = aesir_engine_selftest(name);
        printf("%-13s %s\n", name,
               err == AESIR_OK ? "ok" : aesir_strerror(err));
        failed |= err != AESIR_OK;
    }
    for (size_t i = 0; i < aesir_ghash_engine_count(); i++) {
        const char *name = aesir_ghash_engine_name(i);
        int err;
        if (!(aesir_ghash_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%-20s UNAVAILABLE\n", name);
            continue;
        }
        err = aesir_ghash_engine_selftest(name);
        printf("%-20s %s\n", name,
               err == AESIR_OK ? "ok" : aesir_strerror(err));
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

/* speed_engines -- adds the impls of the engines listed (aesir_cli.c;
 * NULL: every available engine). */
static int speed_engines(const char *list)
{
    const char *names[BENCH_MAX_IMPLS];
    size_t idx[ARGS_MAX_ITEMS], n;
    char err[AESIR_CLI_ERR];
    int rc;

    bench_register_aesir(speed_collect);
    if (list == NULL) {
        for (size_t i = 0; i < speed_n; i++)
            bench_add(speed_impls[i]);
        return 0;
    }
    for (size_t i = 0; i < speed_n; i++)
        names[i] = speed_impls[i]->name;
    rc = aesir_cli_engines(list, names, speed_n, idx, &n, err, sizeof(err));
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        bench_add(speed_impls[idx[i]]);
    return 0;
}

static void speed_usage(FILE *f)
{
    fprintf(
        f, "usage: aesir speed [options]   (aesir engines only; all libraries: "
           "make speed)\n"
           "  --engines LIST  engines, e.g. ttable,ref [every available one]\n"
           "  --modes LIST    ops (ecb-enc ecb-dec cbc-enc cbc-dec cfb128-enc\n"
           "                  cfb128-dec ofb ctr), modes (cbc = both "
           "directions),\n"
           "                  main, all [main = ctr,cbc-enc,cbc-dec,ecb-enc]\n"
           "  --keys LIST     128,192,256 [128,256]\n"
           "  --sizes LIST    bytes (1..64M), k/M suffixes, or all "
           "[64,576,16384]\n"
           "  --passes N      grid repetitions (1..100), best kept [1]\n"
           "  --rounds N      timed rounds per cell (1..21), median [9]\n"
           "  --misalign      buffers at 64-byte alignment + 1\n"
           "  --cpb           tables in cycles per byte instead of GB/s\n"
           "  --csv           CSV of every measurement on stdout, no tables\n"
           "  -q, --quiet     no progress line\n"
           "Lists are comma-separated, without empty or repeated items; each\n"
           "option at most once. A bad value: one line on stderr, exit 2.\n");
}

static int cmd_speed(struct aesir_cli *o)
{
    struct bench_run r;
    struct bench_meta m = {"aesir speed", NULL, NULL, NULL, NULL};
    int rc;

    env_warnings();
    if (speed_engines(o->engines) != 0)
        return 2;
    if (bench_init(&r, &o->cfg, stderr) != 0) {
        fprintf(stderr, "aesir speed: out of memory\n");
        return 2;
    }
    m.command = "aesir speed";
    if (!o->csv) {
        bench_print_header(&r, stdout, &m);
        fflush(stdout);
    }
    rc = bench_verify(&r, o->cfg.ops, o->cfg.keys, stderr) != 0;
    if (!o->csv)
        bench_measure_keysetup(&r);
    rc |= bench_measure(&r) != 0;
    if (o->csv) {
        bench_write_csv(&r, stdout);
    } else {
        bench_print_clock(&r, stdout);
        bench_print_tables(&r, stdout, o->cpb, NULL);
        bench_print_keysetup(&r, stdout);
        bench_print_notes(&r, stdout);
    }
    bench_free(&r);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: aesir info | selftest | speed | keygen | encrypt | "
               "decrypt [options]\n"
               "  info      engines, their properties and the default\n"
               "  selftest  known-answer tests of every runnable engine\n"
               "  speed     time the engines (aesir speed --help; every\n"
               "            library side by side: make speed)\n"
               "  keygen    a new key file (aesir keygen --help)\n"
               "  encrypt   a file or stream, C2SP chunked AES-GCM\n"
               "  decrypt   the same back (aesir decrypt --help)\n"
               "Set AESIR_ENGINE=<name> to override the default engine.\n");
}

int main(int argc, char **argv)
{
    struct aesir_cli c;

    /* Issue 20's commands parse their own options (cmd_crypt.h). */
    if (argc > 1 && strcmp(argv[1], "encrypt") == 0)
        return cmd_encrypt(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "decrypt") == 0)
        return cmd_decrypt(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "keygen") == 0)
        return cmd_keygen(argc - 1, argv + 1);
    if (aesir_cli_parse(&c, argc, argv) != 0) {
        fprintf(stderr, "%s\n", c.err);
        return 2;
    }
    switch (c.cmd) {
    case AESIR_CLI_INFO:
        return cmd_info();
    case AESIR_CLI_SELFTEST:
        return cmd_selftest();
    case AESIR_CLI_SPEED:
        return cmd_speed(&c);
    case AESIR_CLI_SPEED_HELP:
        speed_usage(stdout);
        return 0;
    case AESIR_CLI_HELP:
    default:
        usage(stdout);
        return 0;
    }
}
