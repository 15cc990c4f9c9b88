/*
 * harness_int.h -- what the files of the harness share, and nothing the
 * users of harness.h need: the op sets, the random bytes, the buffers as
 * the impls see them, and the timed unit (a round of one impl's work).
 *
 * The harness by concern (harness.h is the one interface):
 *   grid.c      operations, key and message sizes, the impl list, the
 *               default configurations, where a cell lives, its figures
 *   options.c   the --ops / --keys / --sizes list parsers
 *   timing.c    clocks (TSC, perf core cycles, the add chain) and one
 *               timed round; calibration of a round's length
 *   harness.c   a run: set-up, the impls' probes, CPU identity, notes
 *   verify.c    correctness of every impl against aesir's ref engine
 *   gcm_ref.c   the reference for the GCM ops (aesir's ref engine + a
 *               bitwise GHASH)
 *   rows.c      the grid timed row by row, impls interleaved by round
 *   keysetup.c  key setups per second
 */
#ifndef AESIR_BENCH_HARNESS_INT_H
#define AESIR_BENCH_HARNESS_INT_H

#include <stdint.h>
#include <string.h>

#include "harness.h"

/* Most rounds kept per impl and row: rounds + reruns (3 x rounds). */
#define BENCH_MAX_SAMPLES 64

/* Sets of ops (bench_ops: bit BENCH_OP_BIT(op)). */
#define B_(op) BENCH_OP_BIT(op)
#define OPS_MB_ENC                                                             \
    (B_(OP_MB_CBC_ENC_1) | B_(OP_MB_CBC_ENC_4) | B_(OP_MB_CBC_ENC_8) |         \
     B_(OP_MB_CBC_ENC_16))
#define OPS_MB                                                                 \
    (OPS_MB_ENC | B_(OP_MB_CBC_MAC_1) | B_(OP_MB_CBC_MAC_4) |                  \
     B_(OP_MB_CBC_MAC_8) | B_(OP_MB_CBC_MAC_16) | B_(OP_MB_CMAC_8))
#define OPS_GCM (B_(OP_GCM_ENC) | B_(OP_GCM_DEC) | B_(OP_GMAC) | B_(OP_GHASH))
/* The default run: the CBC-MAC ops only with --full or --ops; issue 19's
 * modes only with --full or --ops (e.g. --ops modes). */
#define OPS_MAIN                                                               \
    (B_(OP_CTR) | B_(OP_CBC_ENC) | B_(OP_CBC_DEC) | B_(OP_ECB_ENC) |           \
     OPS_MB_ENC | OPS_GCM)
#define OPS_ALL ((bench_ops)-1 >> (64 - OP_COUNT))
/* Issue 19's modes and MACs: xts-enc .. xaes-gcm-enc ("modes"); the ops
 * before them ("blocks": what the grid had before issue 19). */
#define OPS_MODES19 (OPS_ALL & ~(B_(OP_XTS_ENC) - 1))
#define OPS_BLOCKS (OPS_ALL & ~OPS_MODES19)
_Static_assert(OP_COUNT <= 64, "bench_ops has 64 bits");

/* bench_len_fits -- non-zero when impl takes op's messages of len bytes
 * (bench_impl.max_len). */
static inline int bench_len_fits(const struct bench_impl *im, enum bench_op op,
                                 size_t len)
{
    size_t max = im->max_len != NULL ? im->max_len(op) : 0;
    return max == 0 || len <= max;
}

/* Stream modes take any length; ECB and CBC whole blocks. */
int bench_op_is_stream(enum bench_op op);
/* Ops that need the decryption key schedule. */
int bench_op_decrypts(enum bench_op op);

/* Random bytes (splitmix64; keys and messages need no secrecy here). */
static inline uint64_t bench_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline void bench_rng_fill(uint64_t *s, uint8_t *p, size_t n)
{
    while (n > 0) {
        uint64_t v = bench_rng_next(s);
        for (int i = 0; i < 8 && n > 0; i++, n--, v >>= 8)
            *p++ = (uint8_t)v;
    }
}

/* The buffers as the impls see them: aligned, or at +1. */
static inline uint8_t *bench_buf_in(const struct bench_run *r)
{
    return r->in + (r->cfg.misalign ? 1 : 0);
}

static inline uint8_t *bench_buf_out(const struct bench_run *r)
{
    return r->out + (r->cfg.misalign ? 1 : 0);
}

/* ------------------------------------------------------------------
 * gcm_ref.c
 * ---------------------------------------------------------------- */

/* bench_gcm_ref -- a GCM op (bench.h) with the reference: aesir's ref
 * engine and a bitwise GHASH. in holds bench_op_in_bytes(op, len) bytes,
 * out receives bench_op_out_bytes(op, len). Returns 0, or -1 (not a GCM
 * op, a ghash length that is not whole blocks, or for gcm-dec a tag that
 * does not verify). */
int bench_gcm_ref(enum bench_op op, const uint8_t *key, unsigned bits,
                  const uint8_t iv[16], uint8_t *out, const uint8_t *in,
                  size_t len);
/* bench_gcm_ref_selftest -- the reference against the GCM
 * specification's test cases; 0 when it passes. */
int bench_gcm_ref_selftest(void);

/* ------------------------------------------------------------------
 * modes_ref.c
 * ---------------------------------------------------------------- */

/* bench_mode_ref -- an encryption op of issue 19 (or cmac, mb-cmac-8)
 * with the op's reference impl (see modes_ref.c): out receives
 * bench_op_out_bytes(op, len). 0, or -1 (no impl claims it, or it
 * failed). */
int bench_mode_ref(const struct bench_run *r, enum bench_op op,
                   const uint8_t *key, unsigned bits, const uint8_t iv[16],
                   uint8_t *out, const uint8_t *in, size_t len);
/* bench_mode_ref_name -- the name of that impl, NULL when none. */
const char *bench_mode_ref_name(const struct bench_run *r, enum bench_op op,
                                unsigned bits);

/* ------------------------------------------------------------------
 * timing.c
 * ---------------------------------------------------------------- */

double bench_mono_seconds(void);
int bench_cmp_double(const void *a, const void *b);

/* bench_clock_init -- TSC calibration, the perf counter, the add chain. */
void bench_clock_init(struct bench_clock *c);
/* bench_clock_ratio_seen -- one core clock / tick ratio into the range. */
void bench_clock_ratio_seen(struct bench_clock *c, double ratio);
/* bench_clock_sample -- without perf, one add-chain estimate of the core
 * clock (taken before and after every row, and at the end); returns the
 * core clock / tick ratio it saw, 0 when none was taken. */
double bench_clock_sample(struct bench_clock *c);

/* What one round repeats: messages of one impl, or its key setups. */
struct bench_work {
    const struct bench_impl *impl;
    void *ctx; /* messages */
    uint8_t *out;
    const uint8_t *in;
    size_t len;
    enum bench_op op; /* key setups */
    const uint8_t *key;
    unsigned bits;
    int via_setup;
    int keysetup;
};

/* One timed round: ticks and core cycles per repetition. */
struct bench_sample {
    double tpi;   /* ticks per iteration */
    double cpi;   /* core cycles per iteration, < 0 unknown */
    int switched; /* an involuntary context switch happened */
};

/* bench_time_round -- iters repetitions of w between two clock reads;
 * non-zero when one failed. */
int bench_time_round(const struct bench_work *w, uint64_t iters,
                     struct bench_sample *s);
/* bench_calibrate -- iterations for a round of at least target ticks; the
 * doubling runs double as warm-up. 0 when the work failed. */
uint64_t bench_calibrate(const struct bench_work *w, double target);

#endif /* AESIR_BENCH_HARNESS_INT_H */
