/*
 * cmd_speed.c -- `aesir speed`: the benchmark's harness (bench/harness.h)
 * on aesir's engines only. The user chooses engines, modes, key sizes and
 * sizes (tools/speed_cli.c parses them); the output is tables, or --csv.
 * `make speed` runs aesir-bench instead, which adds the peer libraries and
 * the limit row.
 *
 * The only command that depends on bench/: CMake builds it with
 * speed_cli.c into a small library of its own (aesir_tool_speed) that
 * links the harness, so the other commands never see its headers.
 */
#include <stdio.h>

#include "aesir.h"
#include "args.h"
#include "harness.h"
#include "output.h"
#include "speed_cli.h"
#include "tool.h"

/* The impls bench_register_aesir() offers, collected by its callback
 * (which takes no context pointer: hence a struct the callback reaches
 * through this one pointer, set and cleared around the call). */
struct speed_set {
    const struct bench_impl *impl[BENCH_MAX_IMPLS];
    size_t n;
};
static struct speed_set *speed_collecting;

static void speed_collect(const struct bench_impl *impl)
{
    struct speed_set *s = speed_collecting;

    if (s->n < BENCH_MAX_IMPLS)
        s->impl[s->n++] = impl;
}

/* speed_engines -- adds the impls of the engines listed (speed_cli.c;
 * NULL: every available engine). */
static int speed_engines(const char *list)
{
    struct speed_set s = {{NULL}, 0};
    const char *names[BENCH_MAX_IMPLS];
    size_t idx[ARGS_MAX_ITEMS], n;
    char err[AESIR_CLI_ERR];

    speed_collecting = &s;
    bench_register_aesir(speed_collect);
    speed_collecting = NULL;
    if (list == NULL) {
        for (size_t i = 0; i < s.n; i++)
            bench_add(s.impl[i]);
        return 0;
    }
    for (size_t i = 0; i < s.n; i++)
        names[i] = s.impl[i]->name;
    if (speed_cli_engines(list, names, s.n, idx, &n, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        bench_add(s.impl[idx[i]]);
    return 0;
}

static void cmd_speed_usage(FILE *f)
{
    fprintf(
        f, "usage: aesir speed [options]   (aesir engines only; all libraries: "
           "make speed)\n"
           "Time aesir's engines with the benchmark's harness.\n"
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
           "  -h, --help      this text\n"
           "Lists are comma-separated, without empty or repeated items; each\n"
           "option at most once. A bad value: one line on stderr, exit 2.\n");
}

int cmd_speed(int argc, char **argv)
{
    struct speed_cli o;
    struct bench_run r;
    struct bench_meta m = {"aesir speed", NULL, NULL, NULL, NULL};
    int rc;

    if (speed_cli_parse(&o, argc, argv) != 0) {
        fprintf(stderr, "%s\n", o.err);
        return TOOL_EXIT_USAGE;
    }
    if (o.help) {
        cmd_speed_usage(stdout);
        return TOOL_EXIT_OK;
    }
    tool_env_warnings();
    if (speed_engines(o.engines) != 0)
        return TOOL_EXIT_USAGE;
    if (bench_init(&r, &o.cfg, stderr) != 0) {
        fprintf(stderr, "aesir speed: out of memory\n");
        return TOOL_EXIT_IO;
    }
    if (!o.csv) {
        bench_print_header(&r, stdout, &m);
        fflush(stdout);
    }
    /* A wrong answer from an engine is an integrity failure (1). */
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
