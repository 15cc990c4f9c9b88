/*
 * fuzz_args.c -- fuzz target (d): the command lines of the `aesir` tool
 * and of aesir-bench.
 *
 * The input is split at NUL bytes into arguments. Each argument goes
 * through every value parser of tools/args.c, whose answers are checked
 * against an independent reading (an accepted number must be in range and
 * print back to the same digits; an accepted size must equal its digits
 * times its suffix and read back from args_format_size(); an accepted
 * list must join back to the input). Then the whole argument vector goes
 * through the full parsers, which return instead of exiting: aesir-bench's
 * (bench_cli_parse, and bench_cli_select on a fixed set of impl names)
 * and the tool's (speed_cli_parse on the arguments as options of `aesir
 * speed`, and on those after a first "speed"; speed_cli_engines;
 * aesir_cli_env_warnings with each argument as the value of every
 * environment variable). An accepted configuration must be
 * within every documented range, and its lists must read back the same
 * when printed; a refusal must be one printable line under the program's
 * name. Under ASan and UBSan, as every target.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir_cli.h"
#include "args.h"
#include "bench_cli.h"
#include "fuzz.h"
#include "speed_cli.h"

#define MAX_ARGS 64
#define SIZE_MAX_BYTES ((uint64_t)64 << 20)

/* one_line -- s is a non-empty line of printable ASCII, shorter than cap,
 * starting with prefix. */
static void check_line(const char *s, size_t cap, const char *prefix)
{
    size_t n = strlen(s);

    FUZZ_CHECK(n > 0 && n < cap);
    FUZZ_CHECK(strncmp(s, prefix, strlen(prefix)) == 0);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(s[i] >= 0x20 && s[i] < 0x7f);
}

/* no_zeros -- s without its leading zeros ("0" stays "0"). */
static const char *no_zeros(const char *s)
{
    while (s[0] == '0' && s[1] != '\0')
        s++;
    return s;
}

static int all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return n > 0;
}

static void check_uint(const char *s)
{
    static const uint64_t range[][2] = {
        {0, UINT64_MAX}, {1, 100}, {1, 21}, {0, 4095}, {128, 256}};
    char back[32];

    for (size_t r = 0; r < sizeof(range) / sizeof(range[0]); r++) {
        uint64_t v = 0xdead;
        int rc = args_uint(s, range[r][0], range[r][1], &v);
        if (rc != ARGS_OK) {
            FUZZ_CHECK(rc == ARGS_EMPTY || rc == ARGS_SYNTAX ||
                       rc == ARGS_RANGE);
            FUZZ_CHECK(v == 0xdead); /* untouched */
            continue;
        }
        FUZZ_CHECK(v >= range[r][0] && v <= range[r][1]);
        FUZZ_CHECK(all_digits(s, strlen(s)));
        snprintf(back, sizeof(back), "%llu", (unsigned long long)v);
        FUZZ_CHECK(strcmp(back, no_zeros(s)) == 0);
    }
}

static void check_u64(const char *s)
{
    uint64_t v, w;
    char back[32];

    if (args_u64(s, &v) != ARGS_OK)
        return;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        /* Hex: the digits, without leading zeros, in either case. */
        const char *d = no_zeros(s + 2);
        snprintf(back, sizeof(back), "%llx", (unsigned long long)v);
        FUZZ_CHECK(strlen(back) == strlen(d));
        for (size_t i = 0; back[i] != '\0'; i++)
            FUZZ_CHECK(
                back[i] ==
                (d[i] >= 'A' && d[i] <= 'F' ? (char)(d[i] - 'A' + 'a') : d[i]));
    } else {
        FUZZ_CHECK(args_uint(s, 0, UINT64_MAX, &w) == ARGS_OK && w == v);
    }
}

static void check_size(const char *s)
{
    uint64_t v, digits, again;
    size_t n = strspn(s, "0123456789");
    unsigned shift = 0;
    char d[64], back[32];

    if (args_size(s, 1, UINT64_MAX, &v) != ARGS_OK) {
        /* Within a range, it is refused when out of it. */
        if (args_size(s, 0, UINT64_MAX, &v) == ARGS_OK) {
            FUZZ_CHECK(v == 0);
        }
        return;
    }
    FUZZ_CHECK(v >= 1);
    /* digits, then [kKmMgG][i], then [B], and nothing else; past its
     * leading zeros, a 64-bit number has at most 20 digits */
    while (n > 1 && s[0] == '0')
        s++, n--;
    FUZZ_CHECK(n > 0 && n <= 20);
    memcpy(d, s, n);
    d[n] = '\0';
    switch (s[n]) {
    case 'k':
    case 'K':
        shift = 10;
        break;
    case 'm':
    case 'M':
        shift = 20;
        break;
    case 'g':
    case 'G':
        shift = 30;
        break;
    default:
        break;
    }
    {
        const char *p = s + n + (shift != 0);
        if (shift != 0 && *p == 'i')
            p++;
        if (*p == 'B')
            p++;
        FUZZ_CHECK(*p == '\0');
    }
    FUZZ_CHECK(args_uint(d, 0, UINT64_MAX, &digits) == ARGS_OK);
    FUZZ_CHECK(digits <= UINT64_MAX >> shift && digits << shift == v);
    /* Printed back, it reads the same. */
    args_format_size(back, sizeof(back), v);
    FUZZ_CHECK(args_size(back, v, v, &again) == ARGS_OK && again == v);
    /* The range is honoured. */
    if (v > SIZE_MAX_BYTES)
        FUZZ_CHECK(args_size(s, 1, SIZE_MAX_BYTES, &again) == ARGS_RANGE);
}

static void check_decimal(const char *s)
{
    double v, again;
    char back[64];

    if (args_decimal(s, 0.01, 1000, &v) != ARGS_OK)
        return;
    FUZZ_CHECK(v >= 0.01 && v <= 1000);
    FUZZ_CHECK(strspn(s, "0123456789.") == strlen(s));
    /* %.17g: no exponent in this range, and the same double back. */
    snprintf(back, sizeof(back), "%.17g", v);
    FUZZ_CHECK(args_decimal(back, 0.01, 1000, &again) == ARGS_OK);
    FUZZ_CHECK(again == v);
}

static void check_quote(const char *s, size_t small)
{
    char q[96], tiny[16];

    args_quote(q, sizeof(q), s);
    check_line(q[0] != '\0' ? q : "-", sizeof(q), "");
    if (strlen(s) <= 12 && strpbrk(s, "\\") == NULL) {
        int plain = 1;
        for (const char *p = s; *p != '\0'; p++)
            plain &= *p >= 0x20 && *p < 0x7f;
        if (plain)
            FUZZ_CHECK(strcmp(q, s) == 0);
    }
    /* Any capacity: NUL-terminated within it. */
    args_quote(tiny, small, s);
    FUZZ_CHECK(strlen(tiny) < small);
}

static void check_split(const char *s)
{
    struct args_list l;
    size_t bad = 99, o = 0;
    char *joined;
    int rc = args_split(s, &l, &bad);

    if (rc != ARGS_OK) {
        FUZZ_CHECK(rc == ARGS_EMPTY || rc == ARGS_EMPTY_ITEM ||
                   rc == ARGS_DUPLICATE || rc == ARGS_TOO_MANY ||
                   rc == ARGS_TOO_LONG);
        if (rc == ARGS_EMPTY_ITEM || rc == ARGS_DUPLICATE)
            FUZZ_CHECK(bad < l.n);
        if (rc == ARGS_DUPLICATE)
            for (size_t i = 0; i < bad; i++)
                if (strcmp(l.item[i], l.item[bad]) == 0)
                    o = 1;
        FUZZ_CHECK(rc != ARGS_DUPLICATE || o == 1);
        return;
    }
    FUZZ_CHECK(l.n >= 1 && l.n <= ARGS_MAX_ITEMS);
    joined = malloc(strlen(s) + 1);
    FUZZ_CHECK(joined != NULL);
    for (size_t i = 0; i < l.n; i++) {
        size_t k = strlen(l.item[i]);
        FUZZ_CHECK(k > 0 && strchr(l.item[i], ',') == NULL);
        for (size_t j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(l.item[i], l.item[j]) != 0);
        if (i > 0)
            joined[o++] = ',';
        memcpy(joined + o, l.item[i], k);
        o += k;
    }
    joined[o] = '\0';
    FUZZ_CHECK(strcmp(joined, s) == 0);
    free(joined);
}

/* check_config -- an accepted grid is within every documented range, and
 * its sizes and key sizes, printed back as lists, parse the same. */
static void check_config(const struct bench_config *c)
{
    char list[OP_COUNT * 16 + BENCH_MAX_SIZES * 24 + 8], err[BENCH_CLI_ERR],
        one[24];
    size_t sizes[BENCH_MAX_SIZES], n = 0, o = 0;
    unsigned keys = 0;
    bench_ops ops = 0;

    FUZZ_CHECK(c->ops != 0 && (c->ops >> (OP_COUNT - 1)) <= 1);
    FUZZ_CHECK(c->keys != 0 && c->keys <= 7);
    FUZZ_CHECK(c->nsizes >= 1 && c->nsizes <= BENCH_MAX_SIZES);
    for (size_t i = 0; i < c->nsizes; i++) {
        FUZZ_CHECK(c->sizes[i] >= 1 && c->sizes[i] <= SIZE_MAX_BYTES);
        FUZZ_CHECK(i == 0 || c->sizes[i - 1] < c->sizes[i]);
        o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? "," : "",
                              args_format_size(one, sizeof(one), c->sizes[i]));
    }
    FUZZ_CHECK(bench_parse_sizes(list, sizes, &n, err, sizeof(err)) == 0);
    FUZZ_CHECK(n == c->nsizes &&
               memcmp(sizes, c->sizes, n * sizeof(sizes[0])) == 0);
    o = 0;
    for (unsigned k = 0; k < BENCH_NKEYS; k++)
        if (c->keys >> k & 1)
            o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%u",
                                  o ? "," : "", bench_key_bits(k));
    FUZZ_CHECK(bench_parse_keys(list, &keys, err, sizeof(err)) == 0);
    FUZZ_CHECK(keys == c->keys);
    o = 0;
    for (int op = 0; op < OP_COUNT; op++)
        if (c->ops >> op & 1)
            o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s",
                                  o ? "," : "",
                                  bench_op_name((enum bench_op)op));
    FUZZ_CHECK(o < sizeof(list));
    FUZZ_CHECK(bench_parse_ops(list, &ops, err, sizeof(err)) == 0);
    FUZZ_CHECK(ops == c->ops);
    FUZZ_CHECK(c->passes >= 1 && c->passes <= 100);
    FUZZ_CHECK(c->rounds >= 1 && c->rounds <= 21);
    FUZZ_CHECK(c->round_ms >= 0.01 && c->round_ms <= 1000);
    FUZZ_CHECK(c->slack >= 1.05 && c->slack <= 100);
    FUZZ_CHECK(c->out_offset <= 4095);
    FUZZ_CHECK(c->mb_size >= 16 && c->mb_size <= SIZE_MAX_BYTES &&
               c->mb_size % 16 == 0);
}

/* The impls of a machine with three peers built and five missing. */
static const char *const impl_names[] = {
    "aesir/ref",       "aesir/ref-otf",   "aesir/ttable",  "aesir/ct64",
    "aesir/aesni",     "aesir/vaes-avx2", "aesir/default", "openssl",
    "openssl-noaesni", "gcrypt",          "gcrypt-nohw",   "nettle"};
static const char missing[] =
    "sodium(library not found) ipsecmb(library not found) "
    "bearssl(library not found) wolfssl(library not found) "
    "mbedtls(AESIR_BENCH_PEERS=OFF)";
#define NIMPLS (sizeof(impl_names) / sizeof(impl_names[0]))

static void check_bench(int argc, char **argv)
{
    struct bench_cli o;
    unsigned char sel[NIMPLS];
    char err[BENCH_CLI_ERR], warn[BENCH_CLI_ERR];
    int rc = bench_cli_parse(&o, argc, argv);

    FUZZ_CHECK(rc >= -1 && rc <= 1);
    if (rc < 0)
        check_line(o.err, sizeof(o.err), "aesir-bench: ");
    if (rc != 0)
        return;
    check_config(&o.cfg);
    FUZZ_CHECK(o.out == NULL || o.out[0] != '\0');
    err[0] = '\0';
    if (bench_cli_select(o.impls, impl_names, NIMPLS, missing, sel, err,
                         sizeof(err), warn, sizeof(warn)) != 0) {
        FUZZ_CHECK(o.impls != NULL);
        check_line(err, sizeof(err), "aesir-bench: --impls: ");
    } else {
        size_t k = 0;
        for (size_t i = 0; i < NIMPLS; i++) {
            FUZZ_CHECK(sel[i] <= 1);
            k += sel[i];
        }
        FUZZ_CHECK(k >= 1);
        if (warn[0] != '\0')
            check_line(warn, sizeof(warn), "aesir-bench: warning: ");
    }
}

/* speed_names -- "aesir/<engine>" for every available engine, and
 * "aesir/default", as `aesir speed` registers them. */
static size_t speed_names(const char ***out)
{
    static char buf[64][32];
    static const char *names[64];
    static size_t n;

    if (n == 0) {
        for (size_t i = 0; i < aesir_engine_count() && n < 63; i++)
            if (aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE) {
                snprintf(buf[n], sizeof(buf[n]), "aesir/%s",
                         aesir_engine_name(i));
                names[n] = buf[n];
                n++;
            }
        names[n++] = "aesir/default";
    }
    *out = names;
    return n;
}

static void check_tool(int argc, char **argv)
{
    struct speed_cli c;
    const char **names;
    size_t n = speed_names(&names), idx[ARGS_MAX_ITEMS], nidx = 99;
    char err[AESIR_CLI_ERR];

    if (speed_cli_parse(&c, argc, argv) != 0) {
        check_line(c.err, sizeof(c.err), "aesir speed: ");
        return;
    }
    if (c.help)
        return;
    check_config(&c.cfg);
    if (c.engines == NULL)
        return;
    if (speed_cli_engines(c.engines, names, n, idx, &nidx, err, sizeof(err)) !=
        0) {
        FUZZ_CHECK(nidx == 0);
        check_line(err, sizeof(err), "aesir speed: --engines: ");
        return;
    }
    FUZZ_CHECK(nidx >= 1);
    for (size_t i = 0; i < nidx; i++) {
        FUZZ_CHECK(idx[i] < n);
        for (size_t j = 0; j < i; j++)
            FUZZ_CHECK(idx[i] != idx[j]);
    }
}

static void check_env(const char *v)
{
    char out[2048];
    int lines = aesir_cli_env_warnings(v, v, v, out, sizeof(out));
    const char *p = out;

    FUZZ_CHECK(lines >= 0 && lines <= 3);
    for (int i = 0; i < lines; i++) {
        const char *nl = strchr(p, '\n');
        FUZZ_CHECK(nl != NULL);
        FUZZ_CHECK(strncmp(p, "aesir: warning: AESIR_", 22) == 0);
        for (const char *q = p; q < nl; q++)
            FUZZ_CHECK(*q >= 0x20 && *q < 0x7f);
        p = nl + 1;
    }
    FUZZ_CHECK(*p == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char *argv[MAX_ARGS + 2];
    int argc = 1;

    if (buf == NULL)
        return 0;
    if (size > 0)
        memcpy(buf, data, size);
    buf[size] = '\0';
    /* Arguments: the NUL-separated pieces (an empty input: none). */
    for (size_t i = 0; i < size && argc <= MAX_ARGS; i++) {
        argv[argc++] = buf + i;
        i += strlen(buf + i);
    }
    argv[argc] = NULL;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        check_uint(s);
        check_u64(s);
        check_size(s);
        check_decimal(s);
        check_quote(s, 1 + (size_t)(i % 15));
        check_split(s);
        check_env(s);
    }
    argv[0] = (char *)"aesir-bench";
    check_bench(argc, argv);
    /* The arguments as options of `aesir speed`; when the first is
     * "speed", also the rest (as `aesir` would run them). */
    argv[0] = (char *)"speed";
    check_tool(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "speed") == 0)
        check_tool(argc - 1, argv + 1);
    free(buf);
    return 0;
}
