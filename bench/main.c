/*
 * main.c -- aesir-bench: every aesir engine and every peer library built
 * in, timed in one process on the same buffers (see harness.h), with the
 * limit row (bench/limit.c) when it is built.
 *
 *   aesir-bench            `make speed`'s subset (see --help)
 *   aesir-bench --full     the whole grid (`make speed-full`)
 *   aesir-bench --check    correctness of every adapter on every op and
 *                          key size it claims, plus a tiny timing run of
 *                          every harness path; exit 1 on any failure (CI)
 *
 * A run prints the header, the limit row, one table per operation and key
 * size and the key setups per second, and writes results.csv,
 * keysetup.csv, results.json and tables.txt into the output directory
 * (by default the directory this program is in: build/bench/).
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* readlink() under -std=c11 */
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_cli.h"
#include "harness.h"
#include "output.h"

#ifdef BENCH_HAVE_LIMIT
#include "limit.h"
#endif

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: aesir-bench [options]\n"
        "  --check          verify every impl on every op and key size it\n"
        "                   claims, then a tiny timing run; exit 1 on any\n"
        "                   failure (seconds; what CI runs)\n"
        "  --full           the whole grid: every op, key size, size; 3 "
        "passes\n"
        "  --impls LIST     only these impls: exact names (aesir/ may be\n"
        "                   left out), else every name containing the\n"
        "                   item (--impls aesir,openssl); a peer not\n"
        "                   built here is skipped with a warning\n"
        "  --ops LIST       ops (ecb-enc ecb-dec cbc-enc cbc-dec cfb128-enc\n"
        "                   cfb128-dec ofb ctr mb-cbc-enc-N mb-cbc-mac-N,\n"
        "                   N = 1 4 8 16, gcm-enc gcm-dec gmac ghash;\n"
        "                   issue 19's: xts- ocb- ccm- gcm-siv- siv-\n"
        "                   aegis128l- aegis256- -enc/-dec, cmac mb-cmac-8\n"
        "                   kw-wrap kw-unwrap aegis128x2-enc aegis128x4-enc\n"
        "                   aegis256x2-enc aegis256x4-enc xaes-gcm-enc;\n"
        "                   conventions: bench/bench.h), prefixes (cbc;\n"
        "                   gcm = gcm-enc,gcm-dec; mb-cbc-enc = its four;\n"
        "                   mb = all nine), main, modes (issue 19's),\n"
        "                   blocks (all but those), all\n"
        "                   [main = ctr,cbc-enc,cbc-dec,ecb-enc,mb-cbc-enc,\n"
        "                   gcm-enc,gcm-dec,gmac,ghash]\n"
        "  --keys LIST      128,192,256 [128,256]\n"
        "  --sizes LIST     bytes (1..64M), k/M suffixes, or all\n"
        "                   [64,576,16384]\n"
        "                   (all = 16,64,256,576,1k,4k,16k,1M)\n"
        "  --mb-size N      bytes per message of the multi-buffer (mb-*)\n"
        "                   rows, a multiple of 16 [4k]\n"
        "  --passes N       grid repetitions (1..100), best kept\n"
        "                   [2; --full 3]\n"
        "  --rounds N       timed rounds per cell (1..21), median [9]\n"
        "  --round-ms MS    shortest round (0.01..1000), doubled below\n"
        "                   1 KiB [2]\n"
        "  --slack X        rerun rounds slower than X x the best\n"
        "                   (1.05..100) [1.3]\n"
        "  --misalign       buffers at 64-byte alignment + 1\n"
        "  --out-offset N   output buffer N bytes (0..4095) past a page,\n"
        "                   the input at a page [0]\n"
        "  --cpb            tables in cycles per byte instead of GB/s\n"
        "  --seed N         keys, IVs and messages (decimal, or 0x hex)\n"
        "  --out DIR        where the files go [this program's directory]\n"
        "  --no-files       write no files\n"
        "  --no-limit       skip the limit row\n"
        "  --list           list the impls and what they claim, then exit\n"
        "  --inject-mismatch  add an impl whose output is wrong (to test\n"
        "                   that --check fails)\n"
        "  -q, --quiet      no progress line\n"
        "Lists are comma-separated, without empty or repeated items; each\n"
        "option at most once. A bad value: one line on stderr, exit 2.\n");
}

/* ------------------------------------------------------------------
 * The impls: every adapter, filtered by --impls
 * ---------------------------------------------------------------- */

static const struct bench_impl *all_impls[BENCH_MAX_IMPLS];
static size_t all_n;

static void collect(const struct bench_impl *impl)
{
    if (all_n < BENCH_MAX_IMPLS)
        all_impls[all_n++] = impl;
}

/*
 * "selftest-broken": the first impl with one bit of every output flipped,
 * so that a test can see --check fail (--inject-mismatch).
 */
static const struct bench_impl *broken_base;

static int broken_probe(void)
{
    return broken_base->probe == NULL || broken_base->probe();
}

static int broken_supports(enum bench_op op, unsigned key_bits)
{
    return broken_base->supports(op, key_bits);
}

static void *broken_setup(enum bench_op op, const uint8_t *key,
                          unsigned key_bits, const uint8_t iv[16])
{
    return broken_base->setup(op, key, key_bits, iv);
}

static int broken_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    int rc = broken_base->run(ctx, out, in, len);
    if (len > 0)
        out[len / 2] ^= 1;
    return rc;
}

static void broken_release(void *ctx)
{
    broken_base->release(ctx);
}

static const struct bench_impl broken_impl = {"selftest-broken",
                                              "peer",
                                              broken_probe,
                                              broken_supports,
                                              broken_setup,
                                              broken_run,
                                              broken_release,
                                              NULL,
                                              0,
                                              NULL};

/* register_impls -- every adapter that --impls selects (bench_cli.c);
 * a peer it names that this build lacks is skipped with a warning. */
static int register_impls(const char *filter, int inject)
{
    const char *names[BENCH_MAX_IMPLS];
    unsigned char sel[BENCH_MAX_IMPLS];
    char err[BENCH_CLI_ERR], warn[BENCH_CLI_ERR];

    bench_register_all(collect);
    for (size_t i = 0; i < all_n; i++)
        names[i] = all_impls[i]->name;
    if (bench_cli_select(filter, names, all_n, bench_peers_missing(), sel, err,
                         sizeof(err), warn, sizeof(warn)) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (warn[0] != '\0')
        fprintf(stderr, "%s\n", warn);
    for (size_t i = 0; i < all_n; i++)
        if (sel[i])
            bench_add(all_impls[i]);
    if (inject && all_n > 0) {
        broken_base = all_impls[0];
        bench_add(&broken_impl);
    }
    return 0;
}

static void list_impls(const struct bench_run *r)
{
    printf("%-22s %-6s %-5s %s\n", "impl", "group", "here", "claims");
    for (size_t i = 0; i < r->nimpls; i++) {
        const struct bench_impl_state *s = &r->impls[i];
        printf("%-22s %-6s %-5s", s->impl->name, s->impl->group,
               s->usable ? "yes" : "no");
        for (unsigned k = 0; k < BENCH_NKEYS; k++) {
            printf(" %u:", bench_key_bits(k));
            for (int op = 0; op < OP_COUNT; op++)
                if (s->claimed[k] >> op & 1)
                    printf("%s%s", bench_op_name((enum bench_op)op),
                           op + 1 < OP_COUNT && (s->claimed[k] >> (op + 1))
                               ? ","
                               : "");
        }
        printf("\n");
    }
    printf("peers built: %s\npeers not built: %s\n",
           bench_peers_built()[0] ? bench_peers_built() : "none",
           bench_peers_missing()[0] ? bench_peers_missing() : "none");
}

/* ------------------------------------------------------------------
 * The limit row
 * ---------------------------------------------------------------- */

#ifdef BENCH_HAVE_LIMIT
static struct bench_limit limit;

static void bound_from_limit(struct bench_bound *b)
{
    const struct bench_limit_width *w;

    memset(b, 0, sizeof(*b));
    b->memcpy_gbps_16k = limit.memcpy_gbps_16k;
    b->memcpy_gbps_1m = limit.memcpy_gbps_1m;
    if (!limit.measured || limit.best_width < 0 ||
        limit.best_width >= BENCH_LIMIT_WIDTHS)
        return;
    w = &limit.aes[limit.best_width];
    snprintf(b->insn, sizeof(b->insn), "%s", w->insn ? w->insn : "?");
    b->saturated = w->saturated && limit.aes_last[limit.best_width].saturated;
    b->core_ghz = limit.core_ghz;
    if (limit.aes[BENCH_LIMIT_XMM].present)
        b->aes_latency = limit.aes[BENCH_LIMIT_XMM].latency_cycles;
    for (int x = 0; x < BENCH_LIMIT_WIDTHS; x++)
        if (limit.clmul[x].present &&
            limit.clmul[x].blocks_per_cycle > b->clmul_per_cycle)
            b->clmul_per_cycle = limit.clmul[x].blocks_per_cycle;
    if (limit.gcm_measured) {
        b->gcm_valid = 1;
        snprintf(b->gcm_insn, sizeof(b->gcm_insn),
                 "vaesenc+vpclmulqdq zmm mix");
        for (unsigned k = 0; k < BENCH_NKEYS && k < BENCH_LIMIT_KEYS; k++) {
            b->gcm_gbps[k] = limit.gcm_bound_gbps[k];
            b->gcm_cpb_core[k] = limit.gcm_bound_cpb[k];
            b->gcm_cpb_tsc[k] = limit.gcm_bound_tsc_cpb[k];
        }
    }
    for (unsigned k = 0; k < BENCH_NKEYS && k < BENCH_LIMIT_KEYS; k++) {
        b->chain_gbps[k] = limit.chain_bound_gbps[k];
        b->chain_cpb_core[k] = limit.chain_bound_cpb[k];
        b->chain_cpb_tsc[k] = limit.chain_bound_tsc_cpb[k];
        b->chain_valid |= b->chain_cpb_core[k] > 0;
        b->gbps[k] = limit.ctr_bound_gbps[k];
        b->cpb_core[k] = limit.ctr_bound_cpb[k];
        b->cpb_tsc[k] = limit.ctr_bound_tsc_cpb[k];
        b->valid |= b->cpb_core[k] > 0;
    }
}
#endif

/* The bound an op is held to, for the notes. */
static const char *bound_word(enum bench_op op)
{
    switch (bench_op_bound_kind(op)) {
    case BOUND_GCM:
        return "GCM";
    case BOUND_CHAIN:
        return "one-chain";
    default:
        return "AES";
    }
}

/* run_limit -- measures the limit row into b; 0 when it is not built. */
static int run_limit(struct bench_bound *b, int verbose)
{
    memset(b, 0, sizeof(*b));
#ifdef BENCH_HAVE_LIMIT
    if (verbose)
        fprintf(stderr, "  measuring the limit row...\r");
    bench_limit_run(&limit, 0);
    bound_from_limit(b);
    return 1;
#else
    (void)verbose;
    return 0;
#endif
}

static void print_limit(FILE *f, int have)
{
    fprintf(f, "\n== limit row: what this CPU can do at best ==\n");
#ifdef BENCH_HAVE_LIMIT
    if (have) {
        bench_limit_print(&limit, f);
        return;
    }
#endif
    fprintf(f, "%s\n",
            have ? ""
                 : "not measured (--no-limit, or "
                   "bench/limit.c not built)");
}

/* bound_check -- an impl faster than the bound means the bound is wrong:
 * say so, loudly. The bound impls (bench.h) are skipped: a bound/aes cell
 * against the limit row compares one set of instructions at two moments
 * of a drifting clock, not an implementation with its bound. */
static void bound_check(struct bench_run *r, const struct bench_bound *b)
{
    for (size_t i = 0; i < r->nimpls; i++)
        for (int op = 0;
             op < OP_COUNT && !bench_impl_is_bound(r->impls[i].impl); op++)
            for (unsigned k = 0; k < BENCH_NKEYS; k++)
                for (size_t si = 0; si < bench_op_nsizes(r, (enum bench_op)op);
                     si++) {
                    const struct bench_cell *c =
                        bench_cell_at(r, i, (enum bench_op)op, k, si);
                    size_t size = bench_op_size(r, (enum bench_op)op, si);
                    double fr = bench_bound_fraction(r, c, (enum bench_op)op,
                                                     size, k, b);
                    if (fr > 1.0)
                        bench_note(r,
                                   "BOUND BEATEN: %s %s AES-%u %zu B runs at "
                                   "%.0f%% of the %s bound: "
                                   "the bound is wrong",
                                   r->impls[i].impl->name,
                                   bench_op_name((enum bench_op)op),
                                   bench_key_bits(k), size, 100 * fr,
                                   bound_word((enum bench_op)op));
                }
}

/* A same-run share above this is loud: at parity, aesir-bench's cells
 * scatter by about 1% (docs/BENCHMARK.md: 100-102% of bound/chain for
 * cbc-enc, where a tight loop gives 0.999-1.000). */
#define SAME_RUN_BEATEN 1.03

/* same_run_check -- an aesir cell well above its same-run bound row
 * (bench.h: group "bound") means the bound kernel is wrong: say so. */
static void same_run_check(struct bench_run *r)
{
    for (size_t i = 0; i < r->nimpls; i++)
        for (size_t b = 0; b < r->nimpls; b++) {
            if (strcmp(r->impls[i].impl->group, "aesir") != 0 ||
                !bench_impl_is_bound(r->impls[b].impl))
                continue;
            for (int op = 0; op < OP_COUNT; op++)
                for (unsigned k = 0; k < BENCH_NKEYS; k++)
                    for (size_t si = 0;
                         si < bench_op_nsizes(r, (enum bench_op)op); si++) {
                        double fr = bench_same_run_fraction(
                            r, i, b, (enum bench_op)op, k, si);
                        if (fr > SAME_RUN_BEATEN)
                            bench_note(r,
                                       "BOUND BEATEN: %s %s AES-%u %zu B "
                                       "runs at %.0f%% of %s in the same "
                                       "run: the bound kernel is wrong",
                                       r->impls[i].impl->name,
                                       bench_op_name((enum bench_op)op),
                                       bench_key_bits(k),
                                       bench_op_size(r, (enum bench_op)op, si),
                                       100 * fr, r->impls[b].impl->name);
                    }
        }
}

/* ------------------------------------------------------------------
 * Files
 * ---------------------------------------------------------------- */

/* default_dir -- the directory of this program (build/bench/). */
static void default_dir(const char *argv0, char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    char *slash;

    if (n > 0) {
        buf[n] = '\0';
    } else {
        snprintf(buf, cap, "%s", argv0);
    }
    slash = strrchr(buf, '/');
    if (slash != NULL)
        *slash = '\0';
    else
        snprintf(buf, cap, ".");
}

static int write_file(const char *dir, const char *name,
                      int (*fn)(const struct bench_run *, FILE *,
                                const struct bench_meta *, int),
                      const struct bench_run *r, const struct bench_meta *m,
                      int arg)
{
    char path[4096];
    FILE *f;
    int rc;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    rc = fn(r, f, m, arg);
    rc |= fclose(f);
    if (rc != 0)
        fprintf(stderr, "aesir-bench: writing %s failed\n", path);
    return rc;
}

static int csv_fn(const struct bench_run *r, FILE *f,
                  const struct bench_meta *m, int arg)
{
    (void)m;
    (void)arg;
    return bench_write_csv(r, f);
}

static int ks_fn(const struct bench_run *r, FILE *f, const struct bench_meta *m,
                 int arg)
{
    (void)m;
    (void)arg;
    return bench_write_keysetup_csv(r, f);
}

static int json_fn(const struct bench_run *r, FILE *f,
                   const struct bench_meta *m, int arg)
{
    (void)arg;
    return bench_write_json(r, f, m);
}

static int have_limit_row;

/* report -- everything after the header, for the terminal and
 * tables.txt. */
static void report(const struct bench_run *r, FILE *f,
                   const struct bench_meta *m, int cpb)
{
    bench_print_clock(r, f);
    print_limit(f, have_limit_row);
    bench_print_tables(r, f, cpb, m->bound);
    bench_print_keysetup(r, f);
    bench_print_notes(r, f);
}

static int tables_fn(const struct bench_run *r, FILE *f,
                     const struct bench_meta *m, int cpb)
{
    bench_print_header(r, f, m);
    report(r, f, m, cpb);
    return ferror(f) ? -1 : 0;
}

static int write_files(const struct bench_cli *o, const char *argv0,
                       const struct bench_run *r, const struct bench_meta *m)
{
    char dir[4096];
    int rc = 0;

    if (o->out != NULL)
        snprintf(dir, sizeof(dir), "%s", o->out);
    else
        default_dir(argv0, dir, sizeof(dir));
    rc |= write_file(dir, "results.csv", csv_fn, r, m, 0);
    rc |= write_file(dir, "keysetup.csv", ks_fn, r, m, 0);
    rc |= write_file(dir, "results.json", json_fn, r, m, 0);
    rc |= write_file(dir, "tables.txt", tables_fn, r, m, o->cpb);
    if (rc == 0)
        printf("\nwrote %s/{results.csv,keysetup.csv,results.json,"
               "tables.txt}\n",
               dir);
    return rc;
}

/* ------------------------------------------------------------------
 * --check
 * ---------------------------------------------------------------- */

/* The width of op's column in the --check summary. */
static int op_width(enum bench_op op)
{
    int n = (int)strlen(bench_op_name(op));
    return n > 10 ? n : 10;
}

/* check_summary -- per impl and op: ok for every key size, MISMATCH, or
 * '-' (not claimed). Returns the number of verified cells the smoke run
 * failed to time. */
static unsigned check_summary(const struct bench_run *r)
{
    unsigned untimed = 0;

    printf("\n%-22s", "impl");
    for (int op = 0; op < OP_COUNT; op++)
        printf(" %-*s", op_width((enum bench_op)op),
               bench_op_name((enum bench_op)op));
    printf("\n");
    for (size_t i = 0; i < r->nimpls; i++) {
        const struct bench_impl_state *s = &r->impls[i];
        printf("%-22s", s->impl->name);
        for (int op = 0; op < OP_COUNT; op++) {
            char cell[16] = "";
            int n = 0;
            for (unsigned k = 0; k < BENCH_NKEYS; k++) {
                const struct bench_cell *c =
                    bench_cell_at(r, i, (enum bench_op)op, k, 0);
                if (!(s->verified[k] >> op & 1))
                    continue;
                n++;
                if (!c->valid)
                    untimed++;
            }
            if (!s->usable)
                snprintf(cell, sizeof(cell), "unavail.");
            else if (s->dropped >> op & 1)
                snprintf(cell, sizeof(cell), "MISMATCH");
            else if (n > 0)
                snprintf(cell, sizeof(cell),
                         bench_impl_is_bound(s->impl) ? "bound(%d)" : "ok(%d)",
                         n);
            else
                snprintf(cell, sizeof(cell), "-");
            printf(" %-*s", op_width((enum bench_op)op), cell);
        }
        printf("\n");
    }
    printf("ok(n): matches aesir ref for n key sizes and was timed; "
           "bound(n): a bound impl (no output to check), timed; "
           "-: not claimed\n");
    return untimed;
}

static int run_check(struct bench_cli *o, const struct bench_meta *m)
{
    struct bench_run r;
    struct bench_bound b;
    unsigned bad, untimed;

    o->cfg.ops = BENCH_OP_BIT(OP_COUNT) - 1;
    o->cfg.keys = 7;
    o->cfg.sizes[0] = 576;
    o->cfg.nsizes = 1;
    o->cfg.rounds = 1;
    o->cfg.passes = 1;
    o->cfg.round_ms = 0.05;
    o->cfg.verbose = 0;
    if (bench_init(&r, &o->cfg, stdout) != 0)
        return 2;
    printf("aesir-bench --check: %zu impls; peers built: %s; not built: "
           "%s\n",
           r.nimpls, m->peers_built[0] ? m->peers_built : "none",
           m->peers_missing[0] ? m->peers_missing : "none");
    printf("timer: %s; %s\n", r.clock.has_tsc ? "TSC" : "CLOCK_MONOTONIC",
           r.clock.perf_status);
    bad = bench_verify(&r, o->cfg.ops, o->cfg.keys, stderr);
    if (o->limit)
        run_limit(&b, 0);
    bench_measure_keysetup(&r);
    if (bench_measure(&r) != 0)
        bad++;
    untimed = check_summary(&r);
    bench_print_notes(&r, stdout);
    if (untimed > 0)
        printf("HARNESS FAILURE: %u verified cells were not timed\n", untimed);
    printf("%s\n", bad == 0 && untimed == 0 ? "check: OK" : "check: FAILED");
    bench_free(&r);
    return bad == 0 && untimed == 0 ? 0 : 1;
}

/* ------------------------------------------------------------------ */

static int run_bench(const struct bench_cli *o, const char *argv0,
                     struct bench_meta *m)
{
    struct bench_run r;
    struct bench_bound b;
    int rc = 0;

    if (bench_init(&r, &o->cfg, stderr) != 0) {
        fprintf(stderr, "aesir-bench: out of memory\n");
        return 2;
    }
    if (o->list) {
        list_impls(&r);
        bench_free(&r);
        return 0;
    }
    m->bound = &b;
    have_limit_row = o->limit ? run_limit(&b, o->cfg.verbose) : 0;
    if (!have_limit_row)
        memset(&b, 0, sizeof(b));
    bench_print_header(&r, stdout, m);
    fflush(stdout);
    bench_verify(&r, o->cfg.ops, o->cfg.keys, stderr);
    bench_measure_keysetup(&r);
    if (bench_measure(&r) != 0)
        rc = 1;
    bound_check(&r, &b);
    same_run_check(&r);
    report(&r, stdout, m, o->cpb);
    if (o->files && write_files(o, argv0, &r, m) != 0)
        rc = 1;
    printf("grid timed in %.1f s\n", r.seconds);
    bench_free(&r);
    return rc;
}

int main(int argc, char **argv)
{
    struct bench_cli o;
    struct bench_meta m = {"aesir-bench", NULL, NULL, NULL, NULL};
    int rc = bench_cli_parse(&o, argc, argv);

    if (rc > 0) {
        usage(stdout);
        return 0;
    }
    if (rc < 0) {
        fprintf(stderr, "%s\n", o.err);
        return 2;
    }
    if (register_impls(o.impls, o.inject) != 0)
        return 2;
    m.command = o.command;
    m.peers_built = bench_peers_built();
    m.peers_missing = bench_peers_missing();
    setvbuf(stdout, NULL, _IOLBF, 0);
    rc = o.check ? run_check(&o, &m) : run_bench(&o, argv[0], &m);
    /* Leave without running exit handlers: the private libcrypto that
     * openssl-noaesni loads with dlmopen (peer_openssl.c) crashes in its
     * own at exit (SIGSEGV in a lock it has already freed), after all
     * output. Every stream is flushed first; the files are closed. */
    fflush(NULL);
    _exit(rc);
}
