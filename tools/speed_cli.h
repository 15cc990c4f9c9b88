/*
 * speed_cli.h -- the command line of `aesir speed`, as functions that
 * neither print nor exit: tools/cmd_speed.c runs what they return,
 * tests/fuzz/fuzz_args.c fuzzes them. It fills the benchmark's grid
 * (bench/harness.h), so only `aesir speed` depends on bench/.
 *
 * Strict (tools/args.h): an unknown option, a stray argument, an option
 * given twice, a number that is not whole, unsigned, in range and fully
 * consumed, a list that is empty or has an empty or repeated item: each
 * is an error of one line, naming the bad value.
 */
#ifndef AESIR_TOOLS_SPEED_CLI_H
#define AESIR_TOOLS_SPEED_CLI_H

#include <stddef.h>

#include "aesir_cli.h"
#include "harness.h"

struct speed_cli {
    int help;                /* -h or --help was given: print usage */
    struct bench_config cfg; /* the grid */
    const char *engines;     /* --engines, or NULL: every one */
    int csv, cpb;
    char err[AESIR_CLI_ERR]; /* "aesir speed: ..." after a -1 */
};

/*
 * speed_cli_parse -- argv[1..argc) (argv[0]: the command's name, not
 * read) into c: 0, or -1 with one line in c->err.
 */
int speed_cli_parse(struct speed_cli *c, int argc, char **argv);

/*
 * speed_cli_engines -- the --engines list against the impl names of
 * `aesir speed` (names[j] = "aesir/<engine>", n <= 64): idx[0..*nidx) the
 * impls in the order listed. An item is an engine name, "aesir/" in front
 * allowed. Returns 0, or -1 with one line in err: an item that names no
 * engine or one this CPU cannot run, or names the same impl as another.
 */
int speed_cli_engines(const char *list, const char *const *names, size_t n,
                      size_t *idx, size_t *nidx, char *err, size_t cap);

#endif /* AESIR_TOOLS_SPEED_CLI_H */
