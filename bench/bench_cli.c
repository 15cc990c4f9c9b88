/*
 * bench_cli.c -- aesir-bench's command line (see bench_cli.h).
 *
 * Two passes. The first (args_scan) finds every option and its value, in
 * command-line order: an unknown option, a stray argument, a missing
 * value or an option given twice stops it. The second applies the values
 * in the order of the table below, so that --full, which resets the
 * grid, comes before the options that change it wherever it was written.
 */
#include "bench_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "aesir.h"
#include "args.h"

enum opt {
    O_HELP,
    O_FULL, /* first of the applied ones: it resets the grid */
    O_CHECK,
    O_MISALIGN,
    O_CPB,
    O_LIST,
    O_NO_FILES,
    O_NO_LIMIT,
    O_INJECT,
    O_QUIET,
    O_IMPLS, /* the first that takes a value */
    O_OUT,
    O_OPS,
    O_KEYS,
    O_SIZES,
    O_MB_SIZE,
    O_SEED,
    O_PASSES,
    O_ROUNDS,
    O_ROUND_MS,
    O_SLACK,
    O_OUT_OFFSET,
    O_COUNT
};

static const struct args_opt opts[O_COUNT] = {
    [O_HELP] = {"--help", "-h", 0},
    [O_FULL] = {"--full", NULL, 0},
    [O_CHECK] = {"--check", NULL, 0},
    [O_MISALIGN] = {"--misalign", NULL, 0},
    [O_CPB] = {"--cpb", NULL, 0},
    [O_LIST] = {"--list", NULL, 0},
    [O_NO_FILES] = {"--no-files", NULL, 0},
    [O_NO_LIMIT] = {"--no-limit", NULL, 0},
    [O_INJECT] = {"--inject-mismatch", NULL, 0},
    [O_QUIET] = {"--quiet", "-q", 0},
    [O_IMPLS] = {"--impls", NULL, 1},
    [O_OUT] = {"--out", NULL, 1},
    [O_OPS] = {"--ops", NULL, 1},
    [O_KEYS] = {"--keys", NULL, 1},
    [O_SIZES] = {"--sizes", NULL, 1},
    [O_MB_SIZE] = {"--mb-size", NULL, 1},
    [O_SEED] = {"--seed", NULL, 1},
    [O_PASSES] = {"--passes", NULL, 1},
    [O_ROUNDS] = {"--rounds", NULL, 1},
    [O_ROUND_MS] = {"--round-ms", NULL, 1},
    [O_SLACK] = {"--slack", NULL, 1},
    [O_OUT_OFFSET] = {"--out-offset", NULL, 1},
};

/* The largest message size, as harness.c's size lists take it. */
#define SIZE_MAX_BYTES ((uint64_t)64 << 20)

static int fail(struct bench_cli *o, const char *fmt, ...) ARGS_PRINTF(2, 3);

static int fail(struct bench_cli *o, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(o->err, sizeof(o->err), "aesir-bench: ");

    va_start(ap, fmt);
    vsnprintf(o->err + n, sizeof(o->err) - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static void join_command(int argc, char **argv, char *buf, size_t cap)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int i = 0; i < argc && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used,
                                 strchr(argv[i], ' ') ? "%s'%s'" : "%s%s",
                                 i ? " " : "", argv[i]);
}

/* count -- v as a whole number lo..hi; what says what it should be. */
static int count(struct bench_cli *o, int id, const char *v, uint64_t lo,
                 uint64_t hi, const char *what, uint64_t *out)
{
    char msg[BENCH_CLI_ERR];

    if (args_uint_msg(v, lo, hi, what, out, msg, sizeof(msg)) == ARGS_OK)
        return 0;
    return fail(o, "%s: %s", opts[id].name, msg);
}

static int decimal(struct bench_cli *o, int id, const char *v, double lo,
                   double hi, double *out)
{
    char q[96];
    int rc = args_decimal(v, lo, hi, out);

    if (rc == ARGS_OK)
        return 0;
    args_quote(q, sizeof(q), v);
    if (rc == ARGS_RANGE)
        return fail(o, "%s: '%s' is out of range; want %g..%g", opts[id].name,
                    q, lo, hi);
    return fail(o,
                "%s: '%s' is not a decimal number (such as 2 or 0.5); "
                "want %g..%g",
                opts[id].name, q, lo, hi);
}

/* list -- one of harness.c's list parsers, its message prefixed. */
static int list(struct bench_cli *o, int id, int rc, const char *msg)
{
    return rc == 0 ? 0 : fail(o, "%s: %s", opts[id].name, msg);
}

/* apply -- the value v of option id (NULL for a flag) into o. */
static int apply(struct bench_cli *o, int id, const char *v)
{
    struct bench_config *c = &o->cfg;
    char msg[BENCH_CLI_ERR], q[96], hi[24];
    uint64_t x;
    struct args_list l;
    size_t bad;
    int rc;

    switch (id) {
    case O_FULL:
        bench_config_full(c);
        return 0;
    case O_CHECK:
        return o->check = 1, 0;
    case O_MISALIGN:
        return c->misalign = 1, 0;
    case O_CPB:
        return o->cpb = 1, 0;
    case O_LIST:
        return o->list = 1, 0;
    case O_NO_FILES:
        return o->files = 0, 0;
    case O_NO_LIMIT:
        return o->limit = 0, 0;
    case O_INJECT:
        return o->inject = 1, 0;
    case O_QUIET:
        return c->verbose = 0, 0;
    case O_IMPLS: /* the names are known later: bench_cli_select() */
        rc = args_split(v, &l, &bad);
        if (rc != ARGS_OK)
            return list(o, id,
                        args_list_error(msg, sizeof(msg), rc, &l, bad, "impls"),
                        msg);
        return o->impls = v, 0;
    case O_OUT:
        if (*v == '\0')
            return fail(o, "--out: empty directory name");
        return o->out = v, 0;
    case O_OPS:
        return list(o, id, bench_parse_ops(v, &c->ops, msg, sizeof(msg)), msg);
    case O_KEYS:
        return list(o, id, bench_parse_keys(v, &c->keys, msg, sizeof(msg)),
                    msg);
    case O_SIZES:
        return list(
            o, id, bench_parse_sizes(v, c->sizes, &c->nsizes, msg, sizeof(msg)),
            msg);
    case O_MB_SIZE:
        if (args_size(v, 16, SIZE_MAX_BYTES, &x) != ARGS_OK || x % 16 != 0)
            return fail(o,
                        "--mb-size: '%s' is not one size, a multiple of "
                        "16 bytes in 16..%s (k and M suffixes allowed)",
                        args_quote(q, sizeof(q), v),
                        args_format_size(hi, sizeof(hi), SIZE_MAX_BYTES));
        return c->mb_size = (size_t)x, 0;
    case O_SEED:
        if (args_u64(v, &x) != ARGS_OK)
            return fail(o,
                        "--seed: '%s' is not a seed (decimal, or 0x and "
                        "hex digits; at most 64 bits)",
                        args_quote(q, sizeof(q), v));
        return c->seed = x, 0;
    case O_PASSES:
        if (count(o, id, v, 1, 100, "a whole number", &x) != 0)
            return -1;
        return c->passes = (unsigned)x, 0;
    case O_ROUNDS:
        if (count(o, id, v, 1, 21, "a whole number", &x) != 0)
            return -1;
        return c->rounds = (unsigned)x, 0;
    case O_ROUND_MS:
        return decimal(o, id, v, 0.01, 1000, &c->round_ms);
    case O_SLACK:
        return decimal(o, id, v, 1.05, 100, &c->slack);
    case O_OUT_OFFSET:
        if (count(o, id, v, 0, 4095, "whole bytes", &x) != 0)
            return -1;
        return c->out_offset = (size_t)x, 0;
    default:
        return fail(o, "internal error: option %d", id);
    }
}

int bench_cli_parse(struct bench_cli *o, int argc, char **argv)
{
    const char *val[O_COUNT];
    unsigned char seen[O_COUNT];
    char msg[BENCH_CLI_ERR];
    int rc;

    memset(o, 0, sizeof(*o));
    bench_config_default(&o->cfg);
    o->cfg.verbose = isatty(2);
    o->files = o->limit = 1;
    join_command(argc, argv, o->command, sizeof(o->command));
    rc = args_scan(argc, argv, 1, opts, O_COUNT, O_HELP, seen, val, msg,
                   sizeof(msg));
    if (rc < 0)
        return fail(o, "%s (aesir-bench --help lists the options)", msg);
    if (rc > 0)
        return 1;
    for (int id = O_FULL; id < O_COUNT; id++)
        if (seen[id] && apply(o, id, val[id]) != 0)
            return -1;
    return 0;
}

/* names_exactly -- item is name, or the part of name after its '/'
 * ("aesni" for "aesir/aesni"). */
static int names_exactly(const char *item, const char *name)
{
    const char *slash = strchr(name, '/');
    return strcmp(item, name) == 0 ||
           (slash != NULL && strcmp(item, slash + 1) == 0);
}

/* missing_peer -- item names a peer listed in missing ("name(reason)
 * ..."): it starts with that name, '-' left out on both sides
 * ("ipsec-mb" and "ipsecmb", "bearssl-x86ni" and "bearssl"). */
static int missing_peer(const char *item, const char *missing)
{
    const char *p = missing;

    while (p != NULL && *p != '\0') {
        size_t n = strcspn(p, " (");
        const char *s = item;
        size_t k = 0;
        while (k < n && *s != '\0') {
            if (*s == '-') {
                s++;
                continue;
            }
            if (p[k] == '-') {
                k++;
                continue;
            }
            if (*s != p[k])
                break;
            s++, k++;
        }
        if (n > 0 && k == n)
            return 1;
        p += strcspn(p, " ");
        p += strspn(p, " ");
    }
    return 0;
}

/* unavailable_engine -- item names an aesir engine ("aesir/gfni" or
 * "gfni") that is not among the impls: this CPU cannot run it. */
static int unavailable_engine(const char *item)
{
    if (strncmp(item, "aesir/", 6) == 0)
        item += 6;
    return aesir_engine_find(item) >= 0;
}

int bench_cli_select(const char *filter, const char *const *names, size_t n,
                     const char *missing, unsigned char *sel, char *err,
                     size_t cap, char *warn, size_t wcap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS], all = 0;
    char msg[BENCH_CLI_ERR], q[96];
    size_t bad, kept = 0, w = 0;
    const char *why;
    int rc;

    if (wcap > 0)
        warn[0] = '\0';
    if (n > 64)
        n = 64;
    memset(sel, filter == NULL, n);
    if (filter == NULL)
        return 0;
    rc = args_split(filter, &l, &bad);
    if (rc != ARGS_OK) {
        args_list_error(msg, sizeof(msg), rc, &l, bad, "impls");
        snprintf(err, cap, "aesir-bench: --impls: %s", msg);
        return -1;
    }
    for (size_t i = 0; i < l.n; i++) {
        const char *item = l.item[i];
        int exact = 0;
        uint64_t mi = 0;
        for (size_t j = 0; j < n && !exact; j++)
            exact = names_exactly(item, names[j]);
        for (size_t j = 0; j < n; j++)
            if (exact ? names_exactly(item, names[j])
                      : strstr(names[j], item) != NULL)
                mi |= (uint64_t)1 << j;
        args_quote(q, sizeof(q), item);
        why = NULL;
        if (mi == 0 && unavailable_engine(item))
            why = "this CPU cannot run it";
        else if (mi == 0 && missing != NULL && missing_peer(item, missing))
            why = "peer not built";
        if (why != NULL) {
            if (w < wcap)
                w += (size_t)snprintf(warn + w, wcap - w, "%s'%s' (%s)",
                                      w == 0 ? "aesir-bench: warning: "
                                               "--impls: skipped "
                                             : ", ",
                                      q, why);
            continue;
        }
        if (mi == 0) {
            snprintf(err, cap,
                     "aesir-bench: --impls: '%s' selects no impl "
                     "(aesir-bench --list shows them)",
                     q);
            return -1;
        }
        /* Kept items move down over the skipped ones. */
        l.item[kept] = item;
        m[kept++] = mi;
        all |= mi;
    }
    l.n = kept;
    if (args_overlap(&l, m, msg, sizeof(msg)) != 0) {
        snprintf(err, cap, "aesir-bench: --impls: %s", msg);
        return -1;
    }
    if (all == 0) {
        snprintf(err, cap,
                 "aesir-bench: --impls: selects no impl built here "
                 "(aesir-bench --list shows them)");
        return -1;
    }
    for (size_t j = 0; j < n; j++)
        sel[j] = (all >> j & 1) != 0;
    return 0;
}
