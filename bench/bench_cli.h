/*
 * bench_cli.h -- aesir-bench's command line, parsed into a struct: main.c
 * runs what it says, tests/fuzz/fuzz_args.c fuzzes it. Nothing here
 * prints, exits or times anything.
 *
 * Strict (tools/args.h): every number whole, unsigned, in range and fully
 * consumed; every list non-empty, with no empty item and no item twice;
 * every option at most once; an unknown option or a stray argument is an
 * error. An error is one line in err, naming the bad value.
 */
#ifndef AESIR_BENCH_CLI_H
#define AESIR_BENCH_CLI_H

#include <stddef.h>

#include "harness.h"

#define BENCH_CLI_ERR 512

struct bench_cli {
    struct bench_config cfg;
    int check, cpb, list, files, limit, inject;
    const char *impls;       /* the --impls filter, or NULL */
    const char *out;         /* output directory, or NULL */
    char command[1024];      /* the command line, for the files */
    char err[BENCH_CLI_ERR]; /* "aesir-bench: ..." after a -1 */
};

/*
 * bench_cli_parse -- argv into o: 0 to run, 1 for -h/--help, -1 on error
 * (o->err). --full resets the grid before the other options are applied,
 * whatever its place. argv[0] is the program.
 */
int bench_cli_parse(struct bench_cli *o, int argc, char **argv);

/*
 * bench_cli_select -- the impls that the --impls filter (NULL: all)
 * selects among names[0..n) (n <= 64), as sel[i] = 1 or 0. An item is an
 * exact name ("aesir/aesni", or "aesni" for it), else, when no impl has
 * that name, a part of names ("aesir" = every aesir impl).
 *
 * An item that selects nothing is an error unless it names an aesir
 * engine this CPU cannot run (registered only when it can) or a peer this
 * build lacks (missing: bench_peers_missing(), "wolfssl(library not
 * found) ..."): such items are skipped and named in warn (one line, empty
 * when none), so that a command written for a machine with every peer and
 * CPU feature still runs. Also an error: an item that selects only impls
 * another item selects ("aesir,ttable"), or a filter that selects nothing
 * at all.
 * Returns 0, or -1 with one line in err.
 */
int bench_cli_select(const char *filter, const char *const *names, size_t n,
                     const char *missing, unsigned char *sel, char *err,
                     size_t cap, char *warn, size_t wcap);

#endif /* AESIR_BENCH_CLI_H */
