/*
 * aesir_cli.h -- the `aesir` tool's command line and environment checks,
 * as functions that neither print nor exit: tools/aesir.c runs what they
 * return, tests/fuzz/fuzz_args.c fuzzes them.
 *
 * Strict (tools/args.h): an unknown command or option, a stray argument,
 * an option given twice, a number that is not whole, unsigned, in range
 * and fully consumed, a list that is empty or has an empty or repeated
 * item: each is an error of one line, naming the bad value.
 */
#ifndef AESIR_TOOLS_CLI_H
#define AESIR_TOOLS_CLI_H

#include <stddef.h>

#include "harness.h"

#define AESIR_CLI_ERR 512

enum aesir_cli_cmd {
    AESIR_CLI_HELP,     /* aesir -h | --help */
    AESIR_CLI_INFO,     /* aesir info */
    AESIR_CLI_SELFTEST, /* aesir selftest */
    AESIR_CLI_SPEED,    /* aesir speed [options] */
    AESIR_CLI_SPEED_HELP
};

struct aesir_cli {
    enum aesir_cli_cmd cmd;
    struct bench_config cfg; /* speed: the grid */
    const char *engines;     /* speed --engines, or NULL: every one */
    int csv, cpb;
    char err[AESIR_CLI_ERR]; /* "aesir ...: ..." after a -1 */
};

/* aesir_cli_parse -- argv into c: 0, or -1 with one line in c->err. */
int aesir_cli_parse(struct aesir_cli *c, int argc, char **argv);

/*
 * aesir_cli_engines -- the --engines list against the impl names of `aesir
 * speed` (names[j] = "aesir/<engine>", n <= 64): idx[0..*nidx) the impls
 * in the order listed. An item is an engine name, "aesir/" in front
 * allowed. Returns 0, or -1 with one line in err: an item that names no
 * engine or one this CPU cannot run, or names the same impl as another.
 */
int aesir_cli_engines(const char *list, const char *const *names, size_t n,
                      size_t *idx, size_t *nidx, char *err, size_t cap);

/*
 * aesir_cli_env_warnings -- a warning line ("aesir: warning: ...\n") into
 * out for each of these environment values that the library ignores
 * (NULL: not set):
 *   engine     AESIR_ENGINE naming no engine, or one that cannot run
 *              here (dispatch.c then applies the default rule);
 *   disable    AESIR_CPU_DISABLE items naming no CPU feature (cpu.c skips
 *              them; "all", "none" and empty items are fine);
 *   model      AESIR_CPU_MODEL naming no model class (cpu.c keeps the
 *              probed model).
 * Returns the number of lines (out holds as many as fit in cap).
 */
int aesir_cli_env_warnings(const char *engine, const char *disable,
                           const char *model, char *out, size_t cap);

#endif /* AESIR_TOOLS_CLI_H */
