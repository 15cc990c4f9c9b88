/*
 * output.c -- tables for the terminal, CSV and JSON for the files (see
 * output.h).
 *
 * A table is one operation and key size: a row per impl that claims it,
 * a column per message size; the multi-buffer CBC ops share one table
 * per key size, a column per number of messages in flight. The best peer of
 * each column is marked with
 * '*'; under every aesir row, a line gives aesir's speed relative to that
 * best peer (2.00x = twice as fast), per bound impl with a cell in the
 * table (bench.h: group "bound", never a peer) the fraction of that
 * same-run bound it reaches ("of bound/aes": the bound's cycles / aesir's
 * of the same cell) and, when the limit row exists, the fraction of the
 * limit row's bound (100% = at the bound; above 100% would mean the bound
 * is wrong).
 */
#include "output.h"

#include <stdlib.h>
#include <string.h>

#include "aesir.h"

#define NAME_W 22
#define COL_W 10

const char *bench_size_label(size_t size, char buf[32])
{
    if (size >= 1048576 && size % 1048576 == 0)
        snprintf(buf, 32, "%zu MiB", size / 1048576);
    else if (size >= 1024 && size % 1024 == 0)
        snprintf(buf, 32, "%zu KiB", size / 1024);
    else
        snprintf(buf, 32, "%zu B", size);
    return buf;
}

/* Three significant digits, or so: 0.0712, 1.23, 12.3, 123. */
static const char *fmt3(double v, char buf[32])
{
    /* thresholds just below the next decade, so 0.9999 prints as 1.00 */
    if (v < 0)
        snprintf(buf, 32, "-");
    else if (v < 0.0099995)
        snprintf(buf, 32, "%.4f", v);
    else if (v < 0.9995)
        snprintf(buf, 32, "%.3f", v);
    else if (v < 9.995)
        snprintf(buf, 32, "%.2f", v);
    else if (v < 99.95)
        snprintf(buf, 32, "%.1f", v);
    else
        snprintf(buf, 32, "%.0f", v);
    return buf;
}

static int is_aesir(const struct bench_impl *im)
{
    return strcmp(im->group, "aesir") == 0;
}

/* ------------------------------------------------------------------
 * Header
 * ---------------------------------------------------------------- */

static void list_ops(const struct bench_run *r, FILE *f)
{
    const char *sep = "";
    for (int op = 0; op < OP_COUNT; op++)
        if (r->cfg.ops >> op & 1) {
            fprintf(f, "%s%s", sep, bench_op_name((enum bench_op)op));
            sep = ",";
        }
}

static void list_keys_sizes(const struct bench_run *r, FILE *f)
{
    char b[32];
    const char *sep = "";

    fprintf(f, "; AES-");
    for (unsigned k = 0; k < BENCH_NKEYS; k++)
        if (r->cfg.keys >> k & 1) {
            fprintf(f, "%s%u", sep, bench_key_bits(k));
            sep = ",";
        }
    fprintf(f, "; sizes ");
    for (size_t i = 0; i < r->cfg.nsizes; i++)
        fprintf(f, "%s%s", i ? ", " : "", bench_size_label(r->cfg.sizes[i], b));
    for (int op = 0; op < OP_COUNT; op++)
        if (bench_op_is_mb((enum bench_op)op) && (r->cfg.ops >> op & 1)) {
            fprintf(f, " (mb-*: %s per message)",
                    bench_size_label(r->cfg.mb_size, b));
            break;
        }
}

void bench_print_header(const struct bench_run *r, FILE *f,
                        const struct bench_meta *m)
{
    const struct bench_clock *c = &r->clock;

    fprintf(f, "%s -- aesir %s, %s\n", m->program, aesir_version(), r->date);
    fprintf(f, "CPU:     %s\n", r->cpu);
    if (r->cpu_flags[0] != '\0')
        fprintf(f, "flags:   %s\n", r->cpu_flags);
    if (c->has_tsc)
        fprintf(f,
                "timer:   TSC (rdtsc) at %.4f GHz, calibrated against "
                "CLOCK_MONOTONIC (invariant TSC: %s); cycles/byte are TSC "
                "cycles\n",
                c->tick_hz / 1e9, c->tsc_invariant ? "yes" : "no");
    else
        fprintf(f, "timer:   CLOCK_MONOTONIC (no TSC on this architecture): "
                   "no TSC cycles/byte\n");
    fprintf(f, "cycles:  %s\n", c->perf_status);
    if (!c->perf_ok)
        fprintf(f, "         -> no core cycles; core clock %s\n",
                c->chain_ok ? "estimated from a dependent-add chain timed by "
                              "the timer, during the run"
                            : "not estimated (no add chain here)");
    fprintf(f,
            "buffers: one input/output pair for every impl, %s; output %zu "
            "bytes past a page, input at a page\n",
            r->cfg.misalign ? "MISALIGNED (alignment + 1)" : "aligned",
            r->cfg.out_offset);
    fprintf(f, "grid:    ");
    list_ops(r, f);
    list_keys_sizes(r, f);
    fprintf(f,
            "\nmethod:  impls interleaved round by round; median of %u "
            "rounds >= %.1f ms (x2 below 1 KiB) after warm-up;\n"
            "         rerun: rounds > %.2fx the best, or > %.2fx with an "
            "involuntary context switch\n"
            "         (at most %u tries); %u pass%s, best kept; key setup "
            "not timed\n",
            r->cfg.rounds, r->cfg.round_ms, r->cfg.slack,
            1 + (r->cfg.slack - 1) / 3, 3 * r->cfg.rounds, r->cfg.passes,
            r->cfg.passes == 1 ? "" : "es");
    if (r->cfg.ops & (BENCH_OP_BIT(OP_GCM_ENC) | BENCH_OP_BIT(OP_GCM_DEC) |
                      BENCH_OP_BIT(OP_GMAC) | BENCH_OP_BIT(OP_GHASH)))
        fprintf(f, "gcm:     12-byte IV, 16-byte tag; gcm-enc, gcm-dec: no "
                   "AAD (gcm-dec verifies the tag);\n"
                   "         gmac: tag over AAD = the message, no plaintext; "
                   "ghash: GHASH alone under\n"
                   "         H = AES_K(0), whole blocks, no length block; "
                   "GB/s count the message bytes\n");
    if (m->peers_built != NULL)
        fprintf(f, "peers:   built: %s\n",
                m->peers_built[0] ? m->peers_built : "none");
    if (m->peers_missing != NULL && m->peers_missing[0] != '\0')
        fprintf(f, "         not built: %s\n", m->peers_missing);
    fprintf(f, "impls:  ");
    for (size_t i = 0; i < r->nimpls; i++)
        fprintf(f, " %s%s", r->impls[i].impl->name,
                r->impls[i].usable ? "" : "(unavailable)");
    fprintf(f, "\n");
}

void bench_print_clock(const struct bench_run *r, FILE *f)
{
    const struct bench_clock *c = &r->clock;

    if (r->load_start >= 0)
        fprintf(f, "load:    %.2f (1-minute load average) at the start%s\n",
                r->load_start,
                r->load_start > 0.5 ? ": other work is running, expect noise"
                                    : "");
    if (r->steal >= 0)
        fprintf(f,
                "steal:   %.1f%% of CPU time taken by the hypervisor "
                "during the grid\n",
                100 * r->steal);

    if (c->ratio_samples == 0) {
        fprintf(f, "core clock: not measured\n");
        return;
    }
    fprintf(f,
            "core clock / %s: %.3f .. %.3f over the run (%s, %u "
            "samples)",
            c->has_tsc ? "TSC" : "timer", c->ratio_min, c->ratio_max,
            c->perf_ok ? "perf core cycles per round" : "dependent-add chain",
            c->ratio_samples);
    if (c->has_tsc)
        fprintf(f, ": %.2f .. %.2f GHz", c->ratio_min * c->tick_hz / 1e9,
                c->ratio_max * c->tick_hz / 1e9);
    fprintf(f, "\n");
}

/* ------------------------------------------------------------------
 * Tables
 * ---------------------------------------------------------------- */

/* The figure shown in a table, bigger or smaller is better per mode. */
static double shown(const struct bench_run *r, const struct bench_cell *c,
                    size_t size, int cpb)
{
    if (!cpb)
        return bench_cell_gbps(r, c, size);
    if (r->clock.perf_ok && c->core > 0)
        return bench_cell_cpb_core(c, size);
    return bench_cell_cpb_tsc(r, c, size);
}

/*
 * A column of a table: one op and size index. The table of an op has a
 * column per message size; the multi-buffer table has a column per
 * multi-buffer op (1, 4, 8, 16 messages in flight), all at cfg.mb_size.
 */
struct column {
    enum bench_op op;
    size_t si, size;
    long best; /* the fastest peer in the column, or -1 */
};

/* best_peer -- index of the fastest peer in column c, or -1 (aesir's and
 * the bound impls' rows are not peers). */
static long best_peer(const struct bench_run *r, const struct column *c,
                      unsigned k)
{
    long best = -1;
    double bv = 0;

    for (size_t i = 0; i < r->nimpls; i++) {
        const struct bench_cell *x = bench_cell_at(r, i, c->op, k, c->si);
        double v;
        if (is_aesir(r->impls[i].impl) ||
            bench_impl_is_bound(r->impls[i].impl) || !x->valid)
            continue;
        v = bench_cell_gbps(r, x, c->size);
        if (best < 0 || v > bv) {
            best = (long)i;
            bv = v;
        }
    }
    return best;
}

enum bench_bound_kind bench_op_bound_kind(enum bench_op op)
{
    switch (op) {
    case OP_GMAC:
    case OP_GHASH:
    case OP_KW_WRAP: /* 6 serial passes: no bound row */
    case OP_KW_UNWRAP:
        return BOUND_NONE;
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GCM_SIV_ENC: /* AES + carry-less multiplies, as GCM */
    case OP_GCM_SIV_DEC:
    case OP_XAES_GCM_ENC:
        return BOUND_GCM;
    case OP_CMAC:
    case OP_CCM_ENC:
    case OP_CCM_DEC:
    case OP_SIV_ENC:
    case OP_SIV_DEC:
        return BOUND_CHAIN;
    default:
        /* AEGIS runs AES rounds, not AES: no bound */
        if (op >= OP_AEGIS128L_ENC && op <= OP_AEGIS256X4_ENC)
            return BOUND_NONE;
        return BOUND_AES;
    }
}

static const char *bound_label(enum bench_op op, int of)
{
    switch (bench_op_bound_kind(op)) {
    case BOUND_GCM:
        return of ? "  of GCM bound" : "bound (GCM insns)";
    case BOUND_CHAIN:
        return of ? "  of chain bound" : "bound (1 chain)";
    default:
        return of ? "  of AES bound" : "bound (AES insns)";
    }
}

/* The bound of op's table, per key index: the AES bound (CTR), the GCM
 * bound for gcm-enc and gcm-dec (and GCM-SIV, XAES-256-GCM), the
 * one-chain bound for CMAC, CCM and SIV, none for gmac, ghash, KW and
 * AEGIS. */
static int bound_of(const struct bench_bound *b, enum bench_op op,
                    const double **gbps, const double **cpb_core,
                    const double **cpb_tsc)
{
    if (b == NULL)
        return 0;
    switch (bench_op_bound_kind(op)) {
    case BOUND_NONE:
        return 0;
    case BOUND_GCM:
        *gbps = b->gcm_gbps;
        *cpb_core = b->gcm_cpb_core;
        *cpb_tsc = b->gcm_cpb_tsc;
        return b->gcm_valid;
    case BOUND_CHAIN:
        *gbps = b->chain_gbps;
        *cpb_core = b->chain_cpb_core;
        *cpb_tsc = b->chain_cpb_tsc;
        return b->chain_valid;
    default:
        break;
    }
    *gbps = b->gbps;
    *cpb_core = b->cpb_core;
    *cpb_tsc = b->cpb_tsc;
    return b->valid;
}

/* Fraction of the bound reached: bound cycles / measured cycles, in the
 * same clock (core cycles when perf gave them, else TSC cycles, which
 * assumes the limit row's clock). Not the add-chain clock sampled around
 * the cell's row (c->core_per_tick): on a Zen 5 VM it read 2-6% above
 * the clock the vector code ran at (docs/PERFORMANCE.md, the note on
 * core_per_tick). */
double bench_bound_fraction(const struct bench_run *r,
                            const struct bench_cell *c, enum bench_op op,
                            size_t size, unsigned k,
                            const struct bench_bound *b)
{
    const double *gbps, *core, *tsc;

    if (!bound_of(b, op, &gbps, &core, &tsc) || !c->valid)
        return -1;
    if (r->clock.perf_ok && c->core > 0 && core[k] > 0)
        return core[k] / bench_cell_cpb_core(c, size);
    if (r->clock.has_tsc && tsc[k] > 0)
        return tsc[k] / bench_cell_cpb_tsc(r, c, size);
    return gbps[k] > 0 ? bench_cell_gbps(r, c, size) / gbps[k] : -1;
}

static void print_impl_row(const struct bench_run *r, FILE *f, size_t i,
                           const struct column *cols, size_t ncols, unsigned k,
                           int cpb)
{
    char v[32], cell[40];

    fprintf(f, "%-*s", NAME_W, r->impls[i].impl->name);
    for (size_t x = 0; x < ncols; x++) {
        const struct column *col = &cols[x];
        const struct bench_cell *c = bench_cell_at(r, i, col->op, k, col->si);
        if (!c->valid)
            snprintf(cell, sizeof(cell), "-");
        else
            snprintf(cell, sizeof(cell), "%s%s%s",
                     fmt3(shown(r, c, col->size, cpb), v), c->noisy ? "~" : "",
                     col->best == (long)i ? "*" : " ");
        fprintf(f, "%*s", COL_W, cell);
    }
    fprintf(f, "\n");
}

double bench_same_run_fraction(const struct bench_run *r, size_t i, size_t b,
                               enum bench_op op, unsigned k, size_t si)
{
    const struct bench_cell *c = bench_cell_at(r, i, op, k, si);
    const struct bench_cell *x = bench_cell_at(r, b, op, k, si);
    size_t bytes = bench_op_size(r, op, si) * bench_op_messages(op);

    if (!c->valid || !x->valid || c->ticks <= 0)
        return -1;
    /* bound/gcm runs whole 64-block (1 KiB) iterations: a bound only for
     * whole iterations */
    if (bench_op_bound_kind(op) == BOUND_GCM && bytes % 1024 != 0)
        return -1;
    if (r->clock.perf_ok && c->core > 0 && x->core > 0)
        return x->core / c->core;
    return x->ticks / c->ticks;
}

/* One column's share of a bound, "87.3% ", or "- " when fr < 0 (no
 * cell). */
static void print_share_cell(FILE *f, double fr)
{
    char cell[40], v[32];
    if (fr < 0)
        snprintf(cell, sizeof(cell), "- ");
    else
        snprintf(cell, sizeof(cell), "%s%% ", fmt3(100 * fr, v));
    fprintf(f, "%*s", COL_W, cell);
}

/* print_same_run_lines -- under aesir row i, per bound impl with a cell
 * in the table, the fraction of that same-run bound reached (bench.h:
 * group "bound"): "  of bound/aes". */
static void print_same_run_lines(const struct bench_run *r, FILE *f, size_t i,
                                 const struct column *cols, size_t ncols,
                                 unsigned k)
{
    char label[40];

    for (size_t b = 0; b < r->nimpls; b++) {
        int any = 0;
        if (!bench_impl_is_bound(r->impls[b].impl))
            continue;
        for (size_t x = 0; x < ncols; x++)
            any |= bench_cell_at(r, b, cols[x].op, k, cols[x].si)->valid;
        if (!any)
            continue;
        snprintf(label, sizeof(label), "  of %s", r->impls[b].impl->name);
        fprintf(f, "%-*s", NAME_W, label);
        for (size_t x = 0; x < ncols; x++) {
            print_share_cell(
                f, bench_same_run_fraction(r, i, b, cols[x].op, k, cols[x].si));
        }
        fprintf(f, "\n");
    }
}

/* The lines under an aesir row: vs best peer, of each same-run bound
 * impl, and of the limit row's bound. */
static void print_aesir_lines(const struct bench_run *r, FILE *f, size_t i,
                              const struct column *cols, size_t ncols,
                              unsigned k, const struct bench_bound *b)
{
    char cell[40], v[32];
    const double *gb, *core, *tsc;
    int any = 0;

    for (size_t x = 0; x < ncols; x++)
        any |= cols[x].best >= 0;
    if (any) {
        fprintf(f, "%-*s", NAME_W, "  vs best peer");
        for (size_t x = 0; x < ncols; x++) {
            const struct column *col = &cols[x];
            const struct bench_cell *c =
                bench_cell_at(r, i, col->op, k, col->si);
            if (!c->valid || col->best < 0)
                snprintf(cell, sizeof(cell), "- ");
            else
                snprintf(
                    cell, sizeof(cell), "%sx ",
                    fmt3(bench_cell_gbps(r, c, col->size) /
                             bench_cell_gbps(r,
                                             bench_cell_at(r, (size_t)col->best,
                                                           col->op, k, col->si),
                                             col->size),
                         v));
            fprintf(f, "%*s", COL_W, cell);
        }
        fprintf(f, "\n");
    }
    print_same_run_lines(r, f, i, cols, ncols, k);
    if (bound_of(b, cols[0].op, &gb, &core, &tsc)) {
        fprintf(f, "%-*s", NAME_W, bound_label(cols[0].op, 1));
        for (size_t x = 0; x < ncols; x++) {
            const struct column *col = &cols[x];
            const struct bench_cell *c =
                bench_cell_at(r, i, col->op, k, col->si);
            print_share_cell(f, c->valid ? bench_bound_fraction(r, c, col->op,
                                                                col->size, k, b)
                                         : -1);
        }
        fprintf(f, "\n");
    }
}

static void print_bound_row(const struct bench_run *r, FILE *f, unsigned k,
                            const struct column *cols, size_t ncols, int cpb,
                            const struct bench_bound *b)
{
    char v[32], cell[40];
    const double *gbps, *core, *tsc;
    double x;

    if (!bound_of(b, cols[0].op, &gbps, &core, &tsc))
        return;
    x = !cpb               ? gbps[k]
        : r->clock.perf_ok ? core[k]
        : r->clock.has_tsc ? tsc[k]
                           : -1;
    fprintf(f, "%-*s", NAME_W, bound_label(cols[0].op, 0));
    for (size_t c = 0; c < ncols; c++) {
        snprintf(cell, sizeof(cell), "%s ", fmt3(x, v));
        fprintf(f, "%*s", COL_W, cell);
    }
    fprintf(f, "\n");
}

/* claims -- impl i has a row in this table: it said it supports one of
 * its columns. */
static int claims(const struct bench_run *r, size_t i,
                  const struct column *cols, size_t ncols, unsigned k)
{
    int any = 0;
    for (size_t x = 0; x < ncols; x++)
        any |= (r->impls[i].claimed[k] >> cols[x].op & 1);
    return r->impls[i].usable && any;
}

/* dropped -- an op of the table was dropped for impl i (a mismatch). */
static int dropped(const struct bench_run *r, size_t i,
                   const struct column *cols, size_t ncols)
{
    int any = 0;
    for (size_t x = 0; x < ncols; x++)
        any |= (r->impls[i].dropped >> cols[x].op & 1);
    return any;
}

/* print_columns -- the table under its title and column heads. */
static void print_columns(const struct bench_run *r, FILE *f,
                          struct column *cols, size_t ncols, unsigned k,
                          int cpb, const struct bench_bound *b)
{
    for (size_t i = 0; i < r->nimpls; i++) {
        if (!claims(r, i, cols, ncols, k))
            continue;
        if (dropped(r, i, cols, ncols)) {
            fprintf(f, "%-*s  DROPPED: output differs from aesir ref\n", NAME_W,
                    r->impls[i].impl->name);
            continue;
        }
        print_impl_row(r, f, i, cols, ncols, k, cpb);
        if (is_aesir(r->impls[i].impl))
            print_aesir_lines(r, f, i, cols, ncols, k, b);
    }
    if (ncols > 0)
        print_bound_row(r, f, k, cols, ncols, cpb, b);
}

static const char *unit_of(const struct bench_run *r, int cpb)
{
    return !cpb ? "GB/s, higher is better"
           : r->clock.perf_ok
               ? "core cycles/byte, lower is better"
               : (r->clock.has_tsc ? "TSC cycles/byte, lower is better"
                                   : "no cycle counter");
}

static void print_table(const struct bench_run *r, FILE *f, enum bench_op op,
                        unsigned k, int cpb, const struct bench_bound *b)
{
    struct column cols[BENCH_MAX_SIZES];
    size_t n = bench_op_nsizes(r, op);
    char sz[32];
    int peers = 0;

    for (size_t si = 0; si < n; si++) {
        cols[si].op = op;
        cols[si].si = si;
        cols[si].size = bench_op_size(r, op, si);
        cols[si].best = best_peer(r, &cols[si], k);
        peers |= cols[si].best >= 0;
    }
    fprintf(f, "\n== %s, AES-%u: %s%s ==\n", bench_op_name(op),
            bench_key_bits(k), unit_of(r, cpb), peers ? "; * best peer" : "");
    fprintf(f, "%-*s", NAME_W, "impl");
    for (size_t si = 0; si < n; si++)
        fprintf(f, "%*s ", COL_W - 1, bench_size_label(cols[si].size, sz));
    fprintf(f, "\n");
    print_columns(r, f, cols, n, k, cpb, b);
}

/* The kind of a multi-buffer op: 0 CBC encryption, 1 CBC-MAC, 2 CMAC. */
static int mb_kind(enum bench_op op)
{
    return op == OP_MB_CMAC_8 ? 2 : bench_op_is_mac(op);
}

/* print_mb_table -- the multi-buffer ops of one kind (mac: 0 CBC
 * encryption, 1 CBC-MAC, 2 CMAC) and key size side by side: a column per
 * number of messages in flight. */
static void print_mb_table(const struct bench_run *r, FILE *f, unsigned k,
                           int mac, int cpb, const struct bench_bound *b)
{
    static const char *const kind_name[] = {"CBC encryption", "CBC-MAC",
                                            "CMAC"};
    struct column cols[OP_COUNT];
    size_t n = 0;
    char sz[32], head[32];
    int peers = 0;

    for (int op = 0; op < OP_COUNT; op++)
        if (bench_op_is_mb((enum bench_op)op) &&
            mb_kind((enum bench_op)op) == mac && (r->cfg.ops >> op & 1)) {
            cols[n].op = (enum bench_op)op;
            cols[n].si = 0;
            cols[n].size = r->cfg.mb_size;
            cols[n].best = best_peer(r, &cols[n], k);
            peers |= cols[n].best >= 0;
            n++;
        }
    if (n == 0)
        return;
    fprintf(f,
            "\n== multi-buffer %s, AES-%u: N messages of %s in "
            "flight, each with its own key;\n   %s (all N messages)%s ==\n",
            kind_name[mac], bench_key_bits(k),
            bench_size_label(r->cfg.mb_size, sz), unit_of(r, cpb),
            peers ? "; * best peer" : "");
    fprintf(f, "%-*s", NAME_W, "impl");
    for (size_t x = 0; x < n; x++) {
        snprintf(head, sizeof(head), "N=%u", bench_op_messages(cols[x].op));
        fprintf(f, "%*s ", COL_W - 1, head);
    }
    fprintf(f, "\n");
    print_columns(r, f, cols, n, k, cpb, b);
}

/* noisy_cells -- cells whose figure comes from a busy stretch. */
static unsigned noisy_cells(const struct bench_run *r)
{
    unsigned n = 0;
    for (size_t i = 0; i < r->nimpls; i++)
        for (int op = 0; op < OP_COUNT; op++)
            for (unsigned k = 0; k < BENCH_NKEYS; k++)
                for (size_t si = 0; si < bench_op_nsizes(r, (enum bench_op)op);
                     si++) {
                    const struct bench_cell *c =
                        bench_cell_at(r, i, (enum bench_op)op, k, si);
                    n += c->valid && c->noisy;
                }
    return n;
}

void bench_print_tables(const struct bench_run *r, FILE *f, int cpb,
                        const struct bench_bound *b)
{
    unsigned noisy = noisy_cells(r);

    for (int op = 0; op < OP_COUNT; op++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if ((r->cfg.ops >> op & 1) && (r->cfg.keys >> k & 1) &&
                !bench_op_is_mb((enum bench_op)op))
                print_table(r, f, (enum bench_op)op, k, cpb, b);
    for (unsigned k = 0; k < BENCH_NKEYS; k++)
        if (r->cfg.keys >> k & 1)
            for (int mac = 0; mac <= 2; mac++)
                print_mb_table(r, f, k, mac, cpb, b);
    if (b != NULL && b->valid)
        fprintf(f,
                "\nbound: CTR from %s throughput alone (counter, XOR, "
                "loads and stores not counted)%s\n",
                b->insn,
                b->saturated ? ""
                             : " -- NOT saturated: too low a "
                               "rate, the bound is loose");
    if (b != NULL && b->gcm_valid &&
        (r->cfg.ops & (BENCH_OP_BIT(OP_GCM_ENC) | BENCH_OP_BIT(OP_GCM_DEC))))
        fprintf(f,
                "bound: GCM (gcm-enc, gcm-dec) from %s, the mix of one "
                "block\n       (AES rounds + aggregated-GHASH carry-less "
                "multiplies + XORs; loads, stores, counters not counted); "
                "no bound for gmac, ghash\n",
                b->gcm_insn);
    if (b != NULL && b->chain_valid &&
        (r->cfg.ops & (BENCH_OP_BIT(OP_CMAC) | BENCH_OP_BIT(OP_CCM_ENC) |
                       BENCH_OP_BIT(OP_CCM_DEC) | BENCH_OP_BIT(OP_SIV_ENC) |
                       BENCH_OP_BIT(OP_SIV_DEC))))
        fprintf(f,
                "bound: one chain (cmac, ccm-*, siv-*): nr x aesenc latency "
                "(%.2f cycles) per block,\n       one CBC-MAC chain per "
                "message\n",
                b->aes_latency);
    if (noisy > 0)
        fprintf(f,
                "~ %u cells: fewer than half their rounds were clean in "
                "every pass (machine busy);\n  the median of all rounds is "
                "shown, less reliable than the rest\n",
                noisy);
}

/* The kinds of harness.h's ks[][] as CSV/JSON name them. */
static const char *const ks_kind_name[BENCH_KS_KINDS] = {"encrypt", "decrypt",
                                                         "gcm"};

void bench_print_keysetup(const struct bench_run *r, FILE *f)
{
    char a[32], d[32], cell[80];
    int via = 0, gcm = 0;

    fprintf(f,
            "\n== key setups per second, millions (encrypt / decrypt "
            "schedule) ==\n%-*s",
            NAME_W, "impl");
    for (unsigned k = 0; k < BENCH_NKEYS; k++)
        if (r->cfg.keys >> k & 1)
            fprintf(f, "%20s%u", "AES-", bench_key_bits(k));
    fprintf(f, "\n");
    for (size_t i = 0; i < r->nimpls; i++) {
        const struct bench_impl_state *s = &r->impls[i];
        int any = 0;
        for (unsigned k = 0; k < BENCH_NKEYS; k++) {
            any |= s->ks[k][0].valid || s->ks[k][1].valid;
            gcm |= s->ks[k][BENCH_KS_GCM].valid;
        }
        if (!any)
            continue;
        fprintf(f, "%-*s", NAME_W, s->impl->name);
        for (unsigned k = 0; k < BENCH_NKEYS; k++) {
            const struct bench_keysetup *e = &s->ks[k][0], *x = &s->ks[k][1];
            if (!(r->cfg.keys >> k & 1))
                continue;
            snprintf(cell, sizeof(cell), "%s / %s%s",
                     e->valid ? fmt3(e->per_sec / 1e6, a) : "-",
                     x->valid ? fmt3(x->per_sec / 1e6, d) : "-",
                     (e->valid && e->via_setup) || (x->valid && x->via_setup)
                         ? "+"
                         : " ");
            via |= (e->valid && e->via_setup) || (x->valid && x->via_setup);
            fprintf(f, "%23s", cell);
        }
        fprintf(f, "\n");
    }
    if (gcm) {
        /* GCM keys: the schedule and the hash key with its powers or
         * tables, as each library's GCM calls need them */
        fprintf(f,
                "\n== GCM key setups per second, millions (schedule and "
                "hash key) ==\n%-*s",
                NAME_W, "impl");
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if (r->cfg.keys >> k & 1)
                fprintf(f, "%12s%u", "AES-", bench_key_bits(k));
        fprintf(f, "\n");
    }
    for (size_t i = 0; gcm && i < r->nimpls; i++) {
        const struct bench_impl_state *s = &r->impls[i];
        int any = 0;
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            any |= s->ks[k][BENCH_KS_GCM].valid;
        if (!any)
            continue;
        fprintf(f, "%-*s", NAME_W, s->impl->name);
        for (unsigned k = 0; k < BENCH_NKEYS; k++) {
            const struct bench_keysetup *g = &s->ks[k][BENCH_KS_GCM];
            if (!(r->cfg.keys >> k & 1))
                continue;
            snprintf(cell, sizeof(cell), "%s%s",
                     g->valid ? fmt3(g->per_sec / 1e6, a) : "-",
                     g->valid && g->via_setup ? "+" : " ");
            via |= g->valid && g->via_setup;
            fprintf(f, "%15s", cell);
        }
        fprintf(f, "\n");
    }
    if (via)
        fprintf(f, "+ measured as setup() + release() (the library has no "
                   "separate key schedule call)\n");
}

void bench_print_notes(const struct bench_run *r, FILE *f)
{
    if (r->nnotes == 0)
        return;
    fprintf(f, "\n== notes ==\n");
    for (unsigned i = 0; i < r->nnotes; i++)
        fprintf(f, "%s\n", r->notes[i]);
}

/* ------------------------------------------------------------------
 * CSV
 * ---------------------------------------------------------------- */

static void csv_num(FILE *f, double v)
{
    if (v >= 0)
        fprintf(f, ",%.6g", v);
    else
        fprintf(f, ",");
}

int bench_write_csv(const struct bench_run *r, FILE *f)
{
    fprintf(f, "impl,group,op,key_bits,size,gbps,cpb_tsc,cpb_core,median_ns,"
               "rounds,passes,misaligned,messages\n");
    for (size_t i = 0; i < r->nimpls; i++)
        for (int op = 0; op < OP_COUNT; op++)
            for (unsigned k = 0; k < BENCH_NKEYS; k++)
                for (size_t si = 0; si < bench_op_nsizes(r, (enum bench_op)op);
                     si++) {
                    const struct bench_cell *c =
                        bench_cell_at(r, i, (enum bench_op)op, k, si);
                    size_t s = bench_op_size(r, (enum bench_op)op, si);
                    if (!c->valid)
                        continue;
                    fprintf(f, "%s,%s,%s,%u,%zu", r->impls[i].impl->name,
                            r->impls[i].impl->group,
                            bench_op_name((enum bench_op)op), bench_key_bits(k),
                            s);
                    csv_num(f, bench_cell_gbps(r, c, s));
                    csv_num(f, bench_cell_cpb_tsc(r, c, s));
                    csv_num(f, bench_cell_cpb_core(c, s));
                    csv_num(f, bench_cell_ns(r, c));
                    fprintf(f, ",%u,%u,%d,%u\n", c->rounds, c->passes,
                            r->cfg.misalign,
                            bench_op_messages((enum bench_op)op));
                }
    return ferror(f) ? -1 : 0;
}

int bench_write_keysetup_csv(const struct bench_run *r, FILE *f)
{
    fprintf(f, "impl,group,key_bits,direction,setups_per_sec,ns_per_setup,"
               "method\n");
    for (size_t i = 0; i < r->nimpls; i++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            for (int d = 0; d < BENCH_KS_KINDS; d++) {
                const struct bench_keysetup *e = &r->impls[i].ks[k][d];
                if (!e->valid)
                    continue;
                fprintf(f, "%s,%s,%u,%s,%.6g,%.6g,%s\n", r->impls[i].impl->name,
                        r->impls[i].impl->group, bench_key_bits(k),
                        ks_kind_name[d], e->per_sec, e->ns,
                        e->via_setup ? "setup+release" : "keysetup");
            }
    return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------
 * JSON
 * ---------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (v >= 0)
        fprintf(f, "%.6g", v);
    else
        fprintf(f, "null");
}

static void json_meta(const struct bench_run *r, FILE *f,
                      const struct bench_meta *m)
{
    const struct bench_clock *c = &r->clock;

    fprintf(f, "  \"meta\": {\n    \"program\": ");
    json_str(f, m->program);
    fprintf(f, ",\n    \"command\": ");
    json_str(f, m->command);
    fprintf(f, ",\n    \"aesir_version\": ");
    json_str(f, aesir_version());
    fprintf(f, ",\n    \"aesir_default_engine\": ");
    json_str(f, aesir_engine_default());
    fprintf(f, ",\n    \"aesir_default_ghash\": ");
    json_str(f, aesir_ghash_engine_default());
    fprintf(f, ",\n    \"aesir_cpu_disable\": ");
    json_str(f, getenv("AESIR_CPU_DISABLE"));
    fprintf(f, ",\n    \"date\": ");
    json_str(f, r->date);
    fprintf(f, ",\n    \"cpu\": ");
    json_str(f, r->cpu);
    fprintf(f, ",\n    \"cpu_flags\": ");
    json_str(f, r->cpu_flags);
#if defined(__VERSION__)
    fprintf(f, ",\n    \"compiler\": ");
    json_str(f, __VERSION__);
#endif
#if defined(BENCH_BUILD_FLAGS)
    fprintf(f, ",\n    \"build_flags\": ");
    json_str(f, BENCH_BUILD_FLAGS);
#endif
    fprintf(f,
            ",\n    \"timer\": \"%s\",\n    \"tick_hz\": %.6g,\n"
            "    \"tsc_invariant\": %s,\n    \"perf_core_cycles\": %s,\n"
            "    \"perf_status\": ",
            c->has_tsc ? "tsc" : "clock_monotonic", c->tick_hz,
            c->tsc_invariant ? "true" : "false", c->perf_ok ? "true" : "false");
    json_str(f, c->perf_status);
    fprintf(f,
            ",\n    \"core_clock_ratio_source\": \"%s\",\n"
            "    \"core_clock_ratio_min\": ",
            c->perf_ok    ? "perf"
            : c->chain_ok ? "add-chain"
                          : "none");
    json_num(f, c->ratio_samples ? c->ratio_min : -1);
    fprintf(f, ",\n    \"core_clock_ratio_max\": ");
    json_num(f, c->ratio_samples ? c->ratio_max : -1);
    fprintf(f, ",\n    \"load_average_start\": ");
    json_num(f, r->load_start);
    fprintf(f, ",\n    \"steal_fraction\": ");
    json_num(f, r->steal);
    fprintf(f,
            ",\n    \"rounds\": %u,\n    \"passes\": %u,\n"
            "    \"round_ms\": %g,\n    \"slack\": %g,\n"
            "    \"misaligned\": %d,\n    \"out_offset\": %zu,\n"
            "    \"seed\": %llu,\n"
            "    \"seconds\": %.3f,\n    \"peers_built\": ",
            r->cfg.rounds, r->cfg.passes, r->cfg.round_ms, r->cfg.slack,
            r->cfg.misalign, r->cfg.out_offset, (unsigned long long)r->cfg.seed,
            r->seconds);
    json_str(f, m->peers_built);
    fprintf(f, ",\n    \"peers_missing\": ");
    json_str(f, m->peers_missing);
    fprintf(f, "\n  },\n");
}

static void json_impls(const struct bench_run *r, FILE *f)
{
    fprintf(f, "  \"impls\": [");
    for (size_t i = 0; i < r->nimpls; i++) {
        const struct bench_impl_state *s = &r->impls[i];
        const char *sep = "";
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, s->impl->name);
        fprintf(f, ", \"group\": ");
        json_str(f, s->impl->group);
        fprintf(f, ", \"usable\": %s, \"dropped\": [",
                s->usable ? "true" : "false");
        for (int op = 0; op < OP_COUNT; op++)
            if (s->dropped >> op & 1) {
                fprintf(f, "%s\"%s\"", sep, bench_op_name((enum bench_op)op));
                sep = ", ";
            }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n");
}

static void json_results(const struct bench_run *r, FILE *f)
{
    const char *sep = "";

    fprintf(f, "  \"results\": [");
    for (size_t i = 0; i < r->nimpls; i++)
        for (int op = 0; op < OP_COUNT; op++)
            for (unsigned k = 0; k < BENCH_NKEYS; k++)
                for (size_t si = 0; si < bench_op_nsizes(r, (enum bench_op)op);
                     si++) {
                    const struct bench_cell *c =
                        bench_cell_at(r, i, (enum bench_op)op, k, si);
                    size_t s = bench_op_size(r, (enum bench_op)op, si);
                    if (!c->valid)
                        continue;
                    fprintf(f, "%s\n    {\"impl\": ", sep);
                    json_str(f, r->impls[i].impl->name);
                    fprintf(f, ", \"group\": ");
                    json_str(f, r->impls[i].impl->group);
                    fprintf(f,
                            ", \"op\": \"%s\", \"key_bits\": %u, "
                            "\"size\": %zu, \"messages\": %u, \"gbps\": ",
                            bench_op_name((enum bench_op)op), bench_key_bits(k),
                            s, bench_op_messages((enum bench_op)op));
                    json_num(f, bench_cell_gbps(r, c, s));
                    fprintf(f, ", \"cpb_tsc\": ");
                    json_num(f, bench_cell_cpb_tsc(r, c, s));
                    fprintf(f, ", \"cpb_core\": ");
                    json_num(f, bench_cell_cpb_core(c, s));
                    fprintf(f, ", \"core_per_tick\": ");
                    json_num(f, c->core_per_tick > 0 ? c->core_per_tick : -1);
                    fprintf(f, ", \"median_ns\": ");
                    json_num(f, bench_cell_ns(r, c));
                    fprintf(f,
                            ", \"rounds\": %u, \"reruns\": %u, \"passes\": "
                            "%u, \"iters\": %llu, \"noisy\": %s, "
                            "\"misaligned\": %d}",
                            c->rounds, c->reruns, c->passes,
                            (unsigned long long)c->iters,
                            c->noisy ? "true" : "false", r->cfg.misalign);
                    sep = ",";
                }
    fprintf(f, "\n  ],\n");
}

static void json_keysetup(const struct bench_run *r, FILE *f)
{
    const char *sep = "";

    fprintf(f, "  \"keysetup\": [");
    for (size_t i = 0; i < r->nimpls; i++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            for (int d = 0; d < BENCH_KS_KINDS; d++) {
                const struct bench_keysetup *e = &r->impls[i].ks[k][d];
                if (!e->valid)
                    continue;
                fprintf(f, "%s\n    {\"impl\": ", sep);
                json_str(f, r->impls[i].impl->name);
                fprintf(f,
                        ", \"key_bits\": %u, \"direction\": \"%s\", "
                        "\"setups_per_sec\": %.6g, \"ns_per_setup\": "
                        "%.6g, \"method\": \"%s\"}",
                        bench_key_bits(k), ks_kind_name[d], e->per_sec, e->ns,
                        e->via_setup ? "setup+release" : "keysetup");
                sep = ",";
            }
    fprintf(f, "\n  ],\n");
}

static void json_limit(FILE *f, const struct bench_bound *b)
{
    fprintf(f, "  \"limit\": ");
    if (b == NULL || !b->valid) {
        fprintf(f, "null\n");
        return;
    }
    fprintf(f, "{\"insn\": ");
    json_str(f, b->insn);
    fprintf(f,
            ", \"saturated\": %s, \"core_ghz\": %.6g, "
            "\"clmul_per_cycle\": %.6g, \"memcpy_gbps_16k\": %.6g, "
            "\"memcpy_gbps_1m\": %.6g, \"aes_latency\": %.6g, \"ctr\": [",
            b->saturated ? "true" : "false", b->core_ghz, b->clmul_per_cycle,
            b->memcpy_gbps_16k, b->memcpy_gbps_1m, b->aes_latency);
    for (unsigned k = 0; k < BENCH_NKEYS; k++)
        fprintf(f,
                "%s{\"key_bits\": %u, \"gbps\": %.6g, \"cpb_core\": "
                "%.6g, \"cpb_tsc\": %.6g}",
                k ? ", " : "", bench_key_bits(k), b->gbps[k], b->cpb_core[k],
                b->cpb_tsc[k]);
    fprintf(f, "], \"chain\": [");
    for (unsigned k = 0; k < BENCH_NKEYS && b->chain_valid; k++)
        fprintf(f,
                "%s{\"key_bits\": %u, \"gbps\": %.6g, \"cpb_core\": "
                "%.6g, \"cpb_tsc\": %.6g}",
                k ? ", " : "", bench_key_bits(k), b->chain_gbps[k],
                b->chain_cpb_core[k], b->chain_cpb_tsc[k]);
    fprintf(f, "], \"gcm\": [");
    for (unsigned k = 0; k < BENCH_NKEYS && b->gcm_valid; k++)
        fprintf(f,
                "%s{\"key_bits\": %u, \"gbps\": %.6g, \"cpb_core\": "
                "%.6g, \"cpb_tsc\": %.6g}",
                k ? ", " : "", bench_key_bits(k), b->gcm_gbps[k],
                b->gcm_cpb_core[k], b->gcm_cpb_tsc[k]);
    fprintf(f, "]}\n");
}

int bench_write_json(const struct bench_run *r, FILE *f,
                     const struct bench_meta *m)
{
    fprintf(f, "{\n");
    json_meta(r, f, m);
    json_impls(r, f);
    json_results(r, f);
    json_keysetup(r, f);
    fprintf(f, "  \"notes\": [");
    for (unsigned i = 0; i < r->nnotes; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        json_str(f, r->notes[i]);
    }
    fprintf(f, "\n  ],\n");
    json_limit(f, m->bound);
    fprintf(f, "}\n");
    return ferror(f) ? -1 : 0;
}
