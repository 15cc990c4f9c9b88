/*
 * aesir_cli.c -- the `aesir` tool's command line and environment checks
 * (see aesir_cli.h). The value parsers are tools/args.c's and the list
 * parsers bench/options.c's, shared with aesir-bench.
 */
#include "aesir_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "aesir.h"
#include "args.h"

static int fail(struct aesir_cli *c, const char *fmt, ...) ARGS_PRINTF(2, 3);

static int fail(struct aesir_cli *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->err, sizeof(c->err), fmt, ap);
    va_end(ap);
    return -1;
}

/* ------------------------------------------------------------------
 * aesir speed [options]
 * ---------------------------------------------------------------- */

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
static int speed_value(struct aesir_cli *c, int id, const char *opt,
                       const char *v)
{
    struct bench_config *g = &c->cfg;
    char msg[AESIR_CLI_ERR];
    struct args_list l;
    size_t bad;
    uint64_t x;
    int rc = 0;

    switch (id) {
    case S_ENGINES: /* resolved later: aesir_cli_engines() */
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

static int speed_parse(struct aesir_cli *c, int argc, char **argv)
{
    const char *val[S_COUNT];
    unsigned char seen[S_COUNT];
    char msg[AESIR_CLI_ERR];
    int rc;

    c->cmd = AESIR_CLI_SPEED;
    bench_config_default(&c->cfg);
    c->cfg.passes = 1;
    c->cfg.verbose = isatty(2);
    rc = args_scan(argc, argv, 2, speed_opts, S_COUNT, S_HELP, seen, val, msg,
                   sizeof(msg));
    if (rc < 0)
        return fail(c, "aesir speed: %s (aesir speed --help)", msg);
    if (rc > 0) {
        c->cmd = AESIR_CLI_SPEED_HELP;
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

int aesir_cli_parse(struct aesir_cli *c, int argc, char **argv)
{
    static const struct {
        const char *name;
        enum aesir_cli_cmd cmd;
    } cmds[] = {{"info", AESIR_CLI_INFO},
                {"selftest", AESIR_CLI_SELFTEST},
                {"-h", AESIR_CLI_HELP},
                {"--help", AESIR_CLI_HELP}};
    char q[96];

    memset(c, 0, sizeof(*c));
    if (argc < 2)
        return fail(c, "aesir: no command (info, selftest or speed; "
                       "aesir --help)");
    if (strcmp(argv[1], "speed") == 0)
        return speed_parse(c, argc, argv);
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        if (strcmp(argv[1], cmds[i].name) != 0)
            continue;
        if (argc > 2)
            return fail(c, "aesir %s: unexpected argument '%s'", argv[1],
                        args_quote(q, sizeof(q), argv[2]));
        c->cmd = cmds[i].cmd;
        return 0;
    }
    return fail(c,
                argv[1][0] == '-' ? "aesir: unknown option '%s' (aesir "
                                    "--help)"
                                  : "aesir: unknown command '%s' (want "
                                    "info, selftest or speed; aesir --help)",
                args_quote(q, sizeof(q), argv[1]));
}

int aesir_cli_engines(const char *list, const char *const *names, size_t n,
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

/* ------------------------------------------------------------------
 * The environment variables the library reads, checked with its public
 * API only
 * ---------------------------------------------------------------- */

/* line -- appends one formatted line at out + *o (as much as fits). */
static void line(char *out, size_t cap, size_t *o, const char *fmt, ...)
    ARGS_PRINTF(4, 5);

static void line(char *out, size_t cap, size_t *o, const char *fmt, ...)
{
    va_list ap;

    if (*o + 1 >= cap)
        return;
    va_start(ap, fmt);
    *o += (size_t)vsnprintf(out + *o, cap - *o, fmt, ap);
    va_end(ap);
    if (*o + 1 >= cap) { /* cut: keep it one line */
        *o = cap - 1;
        out[*o - 1] = '\n';
        return;
    }
    out[(*o)++] = '\n';
    out[*o] = '\0';
}

/* is_feature -- name (n bytes) is a CPU feature name the library knows. */
static int is_feature(const char *name, size_t n)
{
    const char *f;

    for (size_t i = 0; (f = aesir_cpu_feature(i, NULL)) != NULL; i++)
        if (strlen(f) == n && strncmp(f, name, n) == 0)
            return 1;
    return 0;
}

/* disable_warning -- the AESIR_CPU_DISABLE line, when an item of v names
 * nothing: cpu.c splits v at commas, takes "all" and the feature names
 * exactly (case and spaces count) and skips every other item. Empty
 * items and "none" are skipped too, which is what they mean. */
static int disable_warning(const char *v, char *out, size_t cap, size_t *o)
{
    char bad[256] = "", q[96], known[512];
    size_t nb = 0, nbad = 0, nk = 0;
    const char *f;

    for (const char *s = v; *s != '\0';) {
        size_t len = strcspn(s, ",");
        char item[128];
        if (len > 0 && !(len == 3 && strncmp(s, "all", 3) == 0) &&
            !(len == 4 && strncmp(s, "none", 4) == 0) && !is_feature(s, len)) {
            snprintf(item, sizeof(item), "%.*s", (int)(len < 100 ? len : 100),
                     s);
            if (nb < sizeof(bad))
                nb += (size_t)snprintf(bad + nb, sizeof(bad) - nb, "%s'%s'",
                                       nbad > 0 ? ", " : "",
                                       args_quote(q, sizeof(q), item));
            nbad++;
        }
        s += len + (s[len] == ',');
    }
    if (nbad == 0)
        return 0;
    for (size_t i = 0;
         (f = aesir_cpu_feature(i, NULL)) != NULL && nk < sizeof(known); i++)
        nk += (size_t)snprintf(known + nk, sizeof(known) - nk, "%s ", f);
    line(out, cap, o,
         "aesir: warning: AESIR_CPU_DISABLE=%s: %s %s no CPU feature; the "
         "library ignores %s (known: %sall)",
         args_quote(q, sizeof(q), v), bad, nbad > 1 ? "name" : "names",
         nbad > 1 ? "them" : "it", known);
    return 1;
}

int aesir_cli_env_warnings(const char *engine, const char *disable,
                           const char *model, char *out, size_t cap)
{
    size_t o = 0;
    int lines = 0;
    char q[96];

    if (cap > 0)
        out[0] = '\0';
    /* dispatch.c: a set, non-empty AESIR_ENGINE is taken when it names an
     * engine this CPU can run; else the default rule chooses. */
    if (engine != NULL && *engine != '\0') {
        int i = aesir_engine_find(engine);
        if (i < 0 ||
            !(aesir_engine_flags((size_t)i) & AESIR_ENGINE_AVAILABLE)) {
            line(out, cap, &o,
                 "aesir: warning: AESIR_ENGINE=%s %s; the library ignores "
                 "it and the default rule applies (default: %s)",
                 args_quote(q, sizeof(q), engine),
                 i < 0 ? "names no engine"
                       : "names an engine that is not available here (not "
                         "built, or this CPU cannot run it)",
                 aesir_engine_default());
            lines++;
        }
    }
    if (disable != NULL)
        lines += disable_warning(disable, out, cap, &o);
    /* cpu.c: a value other than a model class name is ignored. */
    if (model != NULL && *model != '\0' &&
        strcmp(model, aesir_cpu_model(NULL)) != 0) {
        line(out, cap, &o,
             "aesir: warning: AESIR_CPU_MODEL=%s names no CPU model class "
             "(see aesir_cpu_model in aesir.h); the library ignores it "
             "(model: %s)",
             args_quote(q, sizeof(q), model), aesir_cpu_model(NULL));
        lines++;
    }
    return lines;
}
