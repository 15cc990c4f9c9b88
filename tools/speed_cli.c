/*
 * speed_cli.c -- the command line of `aesir speed` (see speed_cli.h). The
 * value parsers are tools/args.c's and the list parsers bench/options.c's,
 * shared with aesir-bench.
 */
#include "speed_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "aesir.h"
#include "args.h"

static int fail(struct speed_cli *c, const char *fmt, ...) ARGS_PRINTF(2, 3);

static int fail(struct speed_cli *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->err, sizeof(c->err), fmt, ap);
    va_end(ap);
    return -1;
}

enum speed_opt {
    S_HELP,
    S_CSV,
    S_CPB,
    S_MISALIGN,
    S_QUIET,
    S_ENGINES, /* the first that takes a value */
    S_OPS,
    S_KEYS,
    S_SIZES,
    S_PASSES,
    S_ROUNDS,
    S_COUNT
};

static const struct args_opt speed_opts[S_COUNT] = {
    [S_HELP] = {"--help", "-h", 0},     [S_CSV] = {"--csv", NULL, 0},
    [S_CPB] = {"--cpb", NULL, 0},       [S_MISALIGN] = {"--misalign", NULL, 0},
    [S_QUIET] = {"--quiet", "-q", 0},   [S_ENGINES] = {"--engines", NULL, 1},
    [S_OPS] = {"--modes", "--ops", 1},  [S_KEYS] = {"--keys", NULL, 1},
    [S_SIZES] = {"--sizes", NULL, 1},   [S_PASSES] = {"--passes", NULL, 1},
    [S_ROUNDS] = {"--rounds", NULL, 1},
};

/* speed_value -- the value v of option id into c. */
static int speed_value(struct speed_cli *c, int id, const char *opt,
                       const char *v)
{
    struct bench_config *g = &c->cfg;
    char msg[AESIR_CLI_ERR];
    struct args_list l;
    size_t bad;
    uint64_t x;
    int rc = 0;

    switch (id) {
    case S_ENGINES: /* resolved later: speed_cli_engines() */
        rc = args_split(v, &l, &bad);
        if (rc != ARGS_OK)
            rc = args_list_error(msg, sizeof(msg), rc, &l, bad, "engines");
        c->engines = v;
        break;
    case S_OPS:
        rc = bench_parse_ops(v, &g->ops, msg, sizeof(msg));
        break;
    case S_KEYS:
        rc = bench_parse_keys(v, &g->keys, msg, sizeof(msg));
        break;
    case S_SIZES:
        rc = bench_parse_sizes(v, g->sizes, &g->nsizes, msg, sizeof(msg));
        break;
    case S_PASSES:
        rc = args_uint_msg(v, 1, 100, "a whole number", &x, msg, sizeof(msg));
        g->passes = rc == ARGS_OK ? (unsigned)x : g->passes;
        break;
    case S_ROUNDS:
        rc = args_uint_msg(v, 1, 21, "a whole number", &x, msg, sizeof(msg));
        g->rounds = rc == ARGS_OK ? (unsigned)x : g->rounds;
        break;
    default:
        return fail(c, "aesir speed: internal error: option %d", id);
    }
    return rc == 0 ? 0 : fail(c, "aesir speed: %s: %s", opt, msg);
}

int speed_cli_parse(struct speed_cli *c, int argc, char **argv)
{
    const char *val[S_COUNT];
    unsigned char seen[S_COUNT];
    char msg[AESIR_CLI_ERR];
    int rc;

    memset(c, 0, sizeof(*c));
    bench_config_default(&c->cfg);
    c->cfg.passes = 1;
    c->cfg.verbose = isatty(2);
    rc = args_scan(argc, argv, 1, speed_opts, S_COUNT, S_HELP, seen, val, msg,
                   sizeof(msg));
    if (rc < 0)
        return fail(c, "aesir speed: %s (aesir speed --help)", msg);
    if (rc > 0) {
        c->help = 1;
        return 0;
    }
    c->csv = seen[S_CSV];
    c->cpb = seen[S_CPB];
    c->cfg.misalign = seen[S_MISALIGN];
    if (seen[S_QUIET])
        c->cfg.verbose = 0;
    for (int id = S_ENGINES; id < S_COUNT; id++)
        if (seen[id] && speed_value(c, id, speed_opts[id].name, val[id]) != 0)
            return -1;
    return 0;
}

int speed_cli_engines(const char *list, const char *const *names, size_t n,
                      size_t *idx, size_t *nidx, char *err, size_t cap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS];
    char msg[AESIR_CLI_ERR], q[96];
    size_t bad;
    int rc = args_split(list, &l, &bad);

    *nidx = 0;
    if (n > 64)
        n = 64;
    if (rc != ARGS_OK) {
        args_list_error(msg, sizeof(msg), rc, &l, bad, "engines");
        snprintf(err, cap, "aesir speed: --engines: %s", msg);
        return -1;
    }
    for (size_t i = 0; i < l.n; i++) {
        const char *name = l.item[i];
        size_t j;
        if (strncmp(name, "aesir/", 6) == 0)
            name += 6;
        for (j = 0; j < n; j++)
            if (strncmp(names[j], "aesir/", 6) == 0 &&
                strcmp(names[j] + 6, name) == 0)
                break;
        if (j == n) {
            snprintf(err, cap,
                     "aesir speed: --engines: '%s' %s (aesir info "
                     "lists them)",
                     args_quote(q, sizeof(q), l.item[i]),
                     aesir_engine_find(name) < 0
                         ? "names no engine"
                         : "is not available on this CPU");
            return -1;
        }
        m[i] = (uint64_t)1 << j;
        idx[i] = j;
    }
    if (args_overlap(&l, m, msg, sizeof(msg)) != 0) {
        snprintf(err, cap, "aesir speed: --engines: %s", msg);
        return -1;
    }
    *nidx = l.n;
    return 0;
}
