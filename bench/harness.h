/*
 * harness.h -- the timing engine shared by aesir-bench and `aesir speed`.
 *
 * A run is a grid: impls (bench.h) x operation x key size x message size.
 * One "row" of the grid is one (operation, key size, message size): every
 * impl that supports it is timed on the same pair of 64-byte-aligned
 * buffers, round by round in turn (round 1 of every impl, then round 2,
 * ...), so that a noisy stretch of the machine hits all impls of a row
 * alike. Per impl and row: key setup (not timed), iterations per round
 * calibrated so that a round lasts at least round_ms, one warm-up round,
 * then `rounds` timed rounds; a round far slower than the best round of
 * that impl in that row (slack), or slower by a third of that and seen
 * to be preempted (getrusage: an involuntary context switch), is run
 * again, up to 3 x rounds tries. The figure is the median round; the whole grid
 * is repeated `passes` times and each cell keeps its best pass.
 *
 * Clocks: the TSC (rdtsc) on x86, calibrated against CLOCK_MONOTONIC,
 * elsewhere CLOCK_MONOTONIC itself; core cycles from perf_event_open
 * (user space only) where the kernel gives them. The ratio core clock /
 * TSC is tracked over the run (from perf, or estimated with a chain of
 * dependent adds timed by the TSC) and reported as a range.
 *
 * Before anything is timed, bench_verify() checks every impl against
 * aesir's "ref" engine through the public API; a mismatch drops that impl
 * for that operation.
 *
 * Everything here is benchmark code: the library never uses it. One run
 * at a time per process (the impl list and the perf counter are global).
 */
#ifndef AESIR_BENCH_HARNESS_H
#define AESIR_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#define BENCH_MAX_IMPLS 64
#define BENCH_MAX_SIZES 16
#define BENCH_NKEYS 3 /* 128, 192, 256 */
/* Key setup kinds: 0 encryption schedule, 1 decryption schedule, 2 GCM
 * key (keysetup() called with gcm-enc). */
#define BENCH_KS_KINDS 3
#define BENCH_KS_GCM 2
#define BENCH_MAX_NOTES 128
#define BENCH_NOTE_LEN 240

/* The sizes of the full grid, and how many there are. */
extern const size_t bench_grid_sizes[];
extern const size_t bench_grid_nsizes;

/* Key size index (0, 1, 2) <-> bits (128, 192, 256). */
unsigned bench_key_bits(unsigned key_index);
int bench_key_index(unsigned key_bits);

/* ------------------------------------------------------------------
 * The list of impls (filled by the bench_register_* functions)
 * ---------------------------------------------------------------- */

/* bench_add -- a bench_add_fn: appends impl to the process's list (at
 * most BENCH_MAX_IMPLS; more are ignored with a message). */
void bench_add(const struct bench_impl *impl);
size_t bench_impl_count(void);
const struct bench_impl *bench_impl_at(size_t i);
/* Non-zero for a bound impl (group BENCH_GROUP_BOUND, bench.h): not
 * verified, no key setups, never a peer. */
int bench_impl_is_bound(const struct bench_impl *im);

/* registry.c (aesir-bench only): every adapter compiled in, in a fixed
 * order, handed to add; and what the build found and did not find. */
void bench_register_all(bench_add_fn add);
const char *bench_peers_built(void);   /* "openssl gcrypt ..." */
const char *bench_peers_missing(void); /* "wolfssl (library not found) ..." */

/* ------------------------------------------------------------------
 * Configuration
 * ---------------------------------------------------------------- */

struct bench_config {
    bench_ops ops;                 /* bit BENCH_OP_BIT(op) per operation */
    unsigned keys;                 /* bit k: key index k (128/192/256) */
    size_t sizes[BENCH_MAX_SIZES]; /* message sizes, ascending */
    size_t nsizes;
    unsigned rounds;   /* timed rounds per cell (median) */
    unsigned passes;   /* grid repetitions (best kept) */
    double round_ms;   /* a round lasts at least this */
    double slack;      /* rerun a round slower than
                          slack x the best one */
    int misalign;      /* buffers at +1 from their alignment */
    size_t out_offset; /* the output buffer starts this many bytes
                          (< 4096) past a page, the input at a page */
    int verbose;       /* progress on stderr */
    uint64_t seed;     /* keys, IVs, messages */
    size_t mb_size;    /* message size of the multi-buffer ops (their rows
                          have this one size instead of sizes[]) */
};

/* bench_config_default -- `make speed`'s subset: ctr, cbc-enc, cbc-dec,
 * ecb-enc, the multi-buffer CBC encryption (1, 4, 8, 16 messages of
 * 4 KiB) and the GCM ops (gcm-enc, gcm-dec, gmac, ghash); AES-128 and
 * AES-256; 64, 576 and 16384 bytes; 9 rounds of at
 * least 2 ms (4 ms below 1 KiB), 2 passes. */
void bench_config_default(struct bench_config *cfg);
/* bench_config_full -- the whole grid: every op, key size and size; 3
 * passes. */
void bench_config_full(struct bench_config *cfg);

/*
 * Parsers for comma-separated lists; each returns 0, or -1 with a one-line
 * message in err (cap bytes; no program or option name: the caller adds
 * them). Strict (tools/args.h): no empty list, no empty item, no item
 * twice, and no item that names only what another one names ("ctr,all",
 * "1k,1024").
 *   ops:   op names ("cbc-dec"), mode names meaning all of their ops
 *          ("cbc" = cbc-enc,cbc-dec; "gcm" = gcm-enc,gcm-dec, not
 *          gcm-siv; "mb" = the nine multi-buffer ops; "aegis128l" =
 *          aegis128l-enc,aegis128l-dec), "main" (the default set),
 *          "modes" (issue 19's: xts-enc .. xaes-gcm-enc), "blocks" (every
 *          op before them), "all".
 *   keys:  128,192,256 (or "all").
 *   sizes: bytes 1..64M, with an optional k/K (x1024) or m/M (x1048576)
 *          suffix (args_size()), or "all" (the grid); at most
 *          BENCH_MAX_SIZES different sizes, sorted.
 */
int bench_parse_ops(const char *list, bench_ops *ops, char *err, size_t cap);
int bench_parse_keys(const char *list, unsigned *keys, char *err, size_t cap);
int bench_parse_sizes(const char *list, size_t *sizes, size_t *nsizes,
                      char *err, size_t cap);

/* ------------------------------------------------------------------
 * A run
 * ---------------------------------------------------------------- */

/* What the clocks are, and what the core clock did during the run. */
struct bench_clock {
    int has_tsc;                 /* ticks are TSC cycles (x86), else ns */
    int tsc_invariant;           /* CPUID says the TSC is invariant */
    double tick_hz;              /* ticks per second (TSC frequency, or 1e9) */
    int perf_ok;                 /* core cycles from perf_event_open */
    char perf_status[160];       /* why not, or "user-space core cycles" */
    int chain_ok;                /* core clock estimated by an add chain */
    double ratio_min, ratio_max; /* core clock / tick rate, over the run */
    unsigned ratio_samples;
};

/* One measured cell: one impl x op x key size x size, best pass. */
struct bench_cell {
    int valid;
    double ticks; /* per message: median round, best pass */
    double core;  /* core cycles per message, < 0 when unknown */
    /* core clock / tick rate around the best pass's row (perf, or the add
     * chain before and after it), <= 0 when unknown; recorded in the JSON,
     * not used to judge bound cells (see bench_bound_fraction) */
    double core_per_tick;
    unsigned rounds; /* rounds the median was taken over */
    unsigned reruns; /* rounds run again (preempted / outliers) */
    unsigned passes; /* passes that measured this cell */
    int noisy;       /* fewer than half the rounds were clean: the median
                        is of every round (machine busy) */
    uint64_t iters;  /* run() calls per round */
    unsigned msgs;   /* messages per run() (bench_op_messages) */
};

/* Key setups per second for one impl, key size and kind: the AES
 * schedule for encryption or decryption, or a GCM key (the schedule and
 * the hash key with whatever the library precomputes from it). */
struct bench_keysetup {
    int valid;
    int via_setup; /* 1: setup()+release(), keysetup() is NULL */
    double per_sec;
    double ns; /* per key setup */
};

struct bench_impl_state {
    const struct bench_impl *impl;
    int usable;                      /* probe() said yes */
    bench_ops claimed[BENCH_NKEYS];  /* op bits supports() said yes to */
    bench_ops verified[BENCH_NKEYS]; /* op bits that matched aesir ref */
    bench_ops dropped;               /* op bits dropped after a failure */
    struct bench_keysetup ks[BENCH_NKEYS][BENCH_KS_KINDS]; /* [key][kind] */
};

struct bench_run {
    struct bench_config cfg;
    struct bench_clock clock;
    size_t nimpls;
    struct bench_impl_state impls[BENCH_MAX_IMPLS];
    struct bench_cell *cells; /* see bench_cell_at() */
    uint8_t *in, *out;        /* the shared buffers (aligned or +1) */
    uint8_t *out_alloc;       /* what was allocated for out */
    size_t buf_len;
    unsigned nnotes; /* loud messages for the output */
    char notes[BENCH_MAX_NOTES][BENCH_NOTE_LEN];
    unsigned mismatches; /* verification failures */
    unsigned run_errors; /* run()/setup() failures while timing */
    double seconds;      /* wall time of bench_measure() */
    double load_start;   /* 1-min load average, < 0 unknown */
    double steal;        /* hypervisor steal over the grid,
                            fraction of CPU time; < 0 unknown */
    char cpu[128];       /* CPU model */
    char cpu_flags[256]; /* the AES-relevant CPU flags */
    char date[40];       /* UTC, ISO 8601 */
    uint64_t rng;
};

/*
 * bench_init -- takes the impls added so far (bench_add), calls their
 * probe(), asks supports() for every op and key size, sets up the clocks
 * and the buffers. Returns 0, or -1 (no memory). log gets one line per
 * impl that is unavailable.
 */
int bench_init(struct bench_run *r, const struct bench_config *cfg, FILE *log);
void bench_free(struct bench_run *r);

/*
 * bench_verify -- every usable impl, every op in ops and key index in
 * keys it claims: random key, IV and messages (several lengths, the
 * grid's sizes among them), output compared with aesir's ref engine; the
 * same context is used twice to check the IV is taken afresh. A mismatch
 * (or a failing setup()/run()) drops the impl for that op, adds a note
 * and prints it loudly to log. Returns the number of failures.
 */
unsigned bench_verify(struct bench_run *r, bench_ops ops, unsigned keys,
                      FILE *log);

/* bench_measure -- times the configured grid. Returns 0, or -1 when a
 * run() failed during timing (the cell is then invalid, and noted). */
int bench_measure(struct bench_run *r);

/* bench_measure_keysetup -- key setups per second per impl, configured
 * key size and direction: median of 7 rounds of >= 1 ms, once per pass,
 * best pass kept. */
void bench_measure_keysetup(struct bench_run *r);

/* bench_runnable -- non-zero when impl i is timed for op and key index. */
int bench_runnable(const struct bench_run *r, size_t i, enum bench_op op,
                   unsigned key_index);

/* bench_op_nsizes / bench_op_size -- the message sizes of op's rows:
 * cfg.sizes, or cfg.mb_size alone for the multi-buffer ops. */
size_t bench_op_nsizes(const struct bench_run *r, enum bench_op op);
size_t bench_op_size(const struct bench_run *r, enum bench_op op, size_t si);

/* bench_cell_at -- the cell of impl i, op, key index and size index. */
struct bench_cell *bench_cell_at(const struct bench_run *r, size_t i,
                                 enum bench_op op, unsigned key_index,
                                 size_t size_index);

/* bench_note -- records a loud message (also for the files). */
void bench_note(struct bench_run *r, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Figures of a cell (size: bytes per message): GB/s (1e9 B/s), cycles per
 * byte (TSC; < 0 without a TSC), core cycles per byte (< 0 when unknown),
 * ns per run() call. The bytes of a run() are size x the cell's msgs. */
double bench_cell_gbps(const struct bench_run *r, const struct bench_cell *c,
                       size_t size);
double bench_cell_cpb_tsc(const struct bench_run *r, const struct bench_cell *c,
                          size_t size);
double bench_cell_cpb_core(const struct bench_cell *c, size_t size);
double bench_cell_ns(const struct bench_run *r, const struct bench_cell *c);

#endif /* AESIR_BENCH_HARNESS_H */
