/*
 * rows.c -- the grid timed (bench_measure, harness.h): one row at a time
 * (an op, a key size, a message size), every runnable impl of the row on
 * the same buffers, one round of each in turn: key setup (not timed) and
 * calibration, a warm-up round, then timed rounds until each impl has
 * `rounds` good ones (or 3 x rounds tries); the median good round goes
 * into the cell when it beats the earlier passes.
 */
#include "harness_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double round_target(const struct bench_run *r, size_t len)
{
    double ms = r->cfg.round_ms * (len < 1024 ? 2 : 1);
    return ms * 1e-3 * r->clock.tick_hz;
}

/* cpu_times -- total and steal jiffies of all CPUs (/proc/stat); 0 when
 * unknown. */
static int cpu_times(double *total, double *steal)
{
    FILE *f = fopen("/proc/stat", "r");
    unsigned long long v[8] = {0};
    int n = 0;

    if (f != NULL) {
        n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
        fclose(f);
    }
    if (n != 8)
        return 0;
    *total = 0;
    for (int i = 0; i < 8; i++)
        *total += (double)v[i];
    *steal = (double)v[7];
    return 1;
}

/* The rounds of one impl in the row being timed. */
struct slot {
    size_t impl;
    struct bench_work w;
    struct bench_cell *cell;
    uint64_t iters;
    unsigned n, attempts;
    int failed;
    struct bench_sample s[BENCH_MAX_SAMPLES];
};

/* best_clean -- fastest round without a context switch (any when none). */
static double best_clean(const struct slot *sl)
{
    double best = -1;
    for (unsigned j = 0; j < sl->n; j++)
        if (!sl->s[j].switched && (best < 0 || sl->s[j].tpi < best))
            best = sl->s[j].tpi;
    for (unsigned j = 0; best < 0 && j < sl->n; j++)
        if (best < 0 || sl->s[j].tpi < best)
            best = sl->s[j].tpi;
    return best;
}

/*
 * sample_good -- a round counts unless it is far slower than the best
 * (slack), or saw an involuntary context switch and is noticeably slower
 * (a third of the slack): on a loaded machine most rounds see a switch,
 * and one that cost a few microseconds of a 2 ms round is still good.
 */
static int sample_good(const struct bench_sample *s, double best, double slack)
{
    if (s->tpi > slack * best)
        return 0;
    return !s->switched || s->tpi <= (1 + (slack - 1) / 3) * best;
}

static unsigned good_count(const struct slot *sl, double slack)
{
    double best = best_clean(sl);
    unsigned n = 0;
    for (unsigned j = 0; j < sl->n; j++)
        n += sample_good(&sl->s[j], best, slack);
    return n;
}

static int cmp_sample(const void *a, const void *b)
{
    const struct bench_sample *x = a, *y = b;
    return x->tpi < y->tpi ? -1 : x->tpi > y->tpi;
}

/* finish_slot -- the median of the good rounds (of every round when too
 * few were good) into the cell, when it beats the passes before. */
static void finish_slot(struct bench_run *r, struct slot *sl, double clk)
{
    struct bench_sample good[BENCH_MAX_SAMPLES];
    double best = best_clean(sl);
    unsigned n = 0;
    int noisy;
    const struct bench_sample *med;

    sl->cell->passes++;
    if (sl->failed || sl->n == 0)
        return;
    for (unsigned j = 0; j < sl->n; j++)
        if (sample_good(&sl->s[j], best, r->cfg.slack))
            good[n++] = sl->s[j];
    noisy = n < (r->cfg.rounds + 1) / 2;
    if (noisy) {
        memcpy(good, sl->s, sl->n * sizeof(good[0]));
        n = sl->n;
    }
    qsort(good, n, sizeof(good[0]), cmp_sample);
    med = &good[(n - 1) / 2];
    for (unsigned j = 0; j < n && r->clock.perf_ok; j++)
        if (good[j].cpi > 0)
            bench_clock_ratio_seen(&r->clock, good[j].cpi / good[j].tpi);
    if (!sl->cell->valid || med->tpi < sl->cell->ticks) {
        sl->cell->valid = 1;
        sl->cell->ticks = med->tpi;
        sl->cell->core = med->cpi;
        sl->cell->core_per_tick =
            med->cpi > 0 && med->tpi > 0 ? med->cpi / med->tpi : clk;
        sl->cell->rounds = n;
        sl->cell->noisy = noisy;
        sl->cell->reruns =
            sl->attempts > r->cfg.rounds ? sl->attempts - r->cfg.rounds : 0;
    }
}

/* open_slot -- key setup (not timed) and calibration (first pass only). */
static int open_slot(struct bench_run *r, struct slot *sl, size_t i,
                     enum bench_op op, unsigned k, size_t si,
                     const uint8_t *key, const uint8_t *iv)
{
    const struct bench_impl *im = r->impls[i].impl;
    size_t len = bench_op_size(r, op, si);

    memset(sl, 0, sizeof(*sl));
    sl->impl = i;
    sl->cell = bench_cell_at(r, i, op, k, si);
    sl->cell->msgs = bench_op_messages(op);
    sl->w.impl = im;
    sl->w.out = bench_buf_out(r);
    sl->w.in = bench_buf_in(r);
    sl->w.len = len;
    sl->w.ctx = im->setup(op, key, bench_key_bits(k), iv);
    if (sl->w.ctx == NULL) {
        bench_note(r, "%s %s AES-%u: setup() failed while timing", im->name,
                   bench_op_name(op), bench_key_bits(k));
        r->run_errors++;
        return -1;
    }
    if (sl->cell->iters == 0)
        sl->cell->iters =
            bench_calibrate(&sl->w, round_target(r, len * sl->cell->msgs));
    sl->iters = sl->cell->iters;
    if (sl->iters == 0) {
        bench_note(r, "%s %s AES-%u %zu B: run() failed while timing", im->name,
                   bench_op_name(op), bench_key_bits(k), len);
        r->run_errors++;
        im->release(sl->w.ctx);
        return -1;
    }
    return 0;
}

/* sweep -- one round of every slot that still needs one, in turn,
 * starting at a different slot each time. Returns how many ran. */
static unsigned sweep(struct bench_run *r, struct slot *sl, size_t n,
                      unsigned sw)
{
    unsigned ran = 0;

    for (size_t x = 0; x < n; x++) {
        struct slot *s = &sl[(x + sw) % n];
        struct bench_sample smp;
        if (s->failed || s->n == BENCH_MAX_SAMPLES)
            continue;
        if (sw > 0 && (good_count(s, r->cfg.slack) >= r->cfg.rounds ||
                       s->attempts >= 3 * r->cfg.rounds))
            continue;
        if (bench_time_round(&s->w, s->iters, &smp) != 0) {
            s->failed = 1;
            bench_note(r, "%s: run() failed while timing", s->w.impl->name);
            r->run_errors++;
            continue;
        }
        ran++;
        if (sw == 0)
            continue; /* warm-up round */
        s->s[s->n++] = smp;
        s->attempts++;
    }
    return ran;
}

static void progress(const struct bench_run *r, unsigned pass, size_t done,
                     size_t total, enum bench_op op, unsigned bits, size_t len)
{
    if (!r->cfg.verbose)
        return;
    fprintf(stderr, "\r  pass %u/%u  row %zu/%zu  %-10s AES-%u %7zu B   ",
            pass + 1, r->cfg.passes, done + 1, total, bench_op_name(op), bits,
            len);
    fflush(stderr);
}

/* dec_input -- a decryption op (gcm-dec, ...) decrypts what its
 * encryption op made: the input buffer gets the reference's ciphertext and
 * tag of a random message of len bytes under the row's key and IV
 * (gcm_ref.c, or the op's reference impl: modes_ref.c), so every impl
 * verifies a good tag and does all the work. */
static int dec_input(struct bench_run *r, enum bench_op op, const uint8_t *key,
                     unsigned bits, const uint8_t *iv, size_t len)
{
    uint8_t *plain = malloc(len ? len : 1);
    enum bench_op enc = (enum bench_op)bench_op_enc_of(op);
    int rc = -1;

    if (plain != NULL) {
        bench_rng_fill(&r->rng, plain, len);
        rc = op == OP_GCM_DEC ? bench_gcm_ref(OP_GCM_ENC, key, bits, iv,
                                              bench_buf_in(r), plain, len)
                              : bench_mode_ref(r, enc, key, bits, iv,
                                               bench_buf_in(r), plain, len);
    }
    if (rc != 0) {
        bench_note(r,
                   "%s AES-%u %zu B: no input (out of memory, or no "
                   "reference): not timed",
                   bench_op_name(op), bits, len);
        r->run_errors++;
    }
    free(plain);
    return rc;
}

/* measure_row -- every runnable impl on one op, key size and message size,
 * interleaved round by round. */
static void measure_row(struct bench_run *r, enum bench_op op, unsigned k,
                        size_t si)
{
    struct slot *sl = calloc(r->nimpls ? r->nimpls : 1, sizeof(*sl));
    uint8_t key[32], iv[16];
    size_t n = 0;
    double clk0, clk1, clk;

    if (sl == NULL)
        return;
    if (!bench_op_len_ok(op, bench_op_size(r, op, si))) {
        free(sl); /* ECB and CBC take whole blocks only, KW 8-byte units */
        return;
    }
    bench_rng_fill(&r->rng, key, sizeof(key));
    bench_rng_fill(&r->rng, iv, sizeof(iv));
    for (size_t i = 0; i < r->nimpls; i++)
        n += bench_runnable(r, i, op, k) &&
             bench_len_fits(r->impls[i].impl, op, bench_op_size(r, op, si));
    if (n == 0) {
        free(sl);
        return;
    }
    n = 0;
    if (bench_op_enc_of(op) >= 0 && dec_input(r, op, key, bench_key_bits(k), iv,
                                              bench_op_size(r, op, si)) != 0) {
        free(sl);
        return;
    }
    for (size_t i = 0; i < r->nimpls; i++)
        if (bench_runnable(r, i, op, k) &&
            bench_len_fits(r->impls[i].impl, op, bench_op_size(r, op, si)) &&
            open_slot(r, &sl[n], i, op, k, si, key, iv) == 0)
            n++;
    /* The core clock drifts (4.0-4.4 GHz within minutes on a Zen 5 VM):
     * sampled on both sides of the row, so its cells can be judged against
     * the bounds in core cycles rather than at the limit row's clock. */
    clk0 = bench_clock_sample(&r->clock);
    for (unsigned sw = 0; n > 0 && sweep(r, sl, n, sw) > 0; sw++)
        ;
    clk1 = bench_clock_sample(&r->clock);
    clk = clk0 > 0 && clk1 > 0 ? (clk0 + clk1) / 2 : 0;
    for (size_t x = 0; x < n; x++) {
        finish_slot(r, &sl[x], clk);
        sl[x].w.impl->release(sl[x].w.ctx);
    }
    free(sl);
}

int bench_measure(struct bench_run *r)
{
    size_t total = 0, done;
    double t0 = bench_mono_seconds(), tot0, st0, tot1, st1;
    unsigned errors = r->run_errors;
    int have_stat = cpu_times(&tot0, &st0);

    for (int op = 0; op < OP_COUNT; op++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if ((r->cfg.ops >> op & 1) && (r->cfg.keys >> k & 1))
                total += bench_op_nsizes(r, (enum bench_op)op);
    bench_clock_sample(&r->clock);
    for (unsigned pass = 0; pass < r->cfg.passes; pass++) {
        done = 0;
        for (int op = 0; op < OP_COUNT; op++)
            for (unsigned k = 0; k < BENCH_NKEYS; k++) {
                if (!(r->cfg.ops >> op & 1) || !(r->cfg.keys >> k & 1))
                    continue;
                for (size_t si = 0; si < bench_op_nsizes(r, (enum bench_op)op);
                     si++, done++) {
                    progress(r, pass, done, total, (enum bench_op)op,
                             bench_key_bits(k),
                             bench_op_size(r, (enum bench_op)op, si));
                    measure_row(r, (enum bench_op)op, k, si);
                }
            }
    }
    if (r->cfg.verbose)
        fprintf(stderr, "\r%70s\r", "");
    bench_clock_sample(&r->clock);
    r->seconds = bench_mono_seconds() - t0;
    if (have_stat && cpu_times(&tot1, &st1) && tot1 > tot0)
        r->steal = (st1 - st0) / (tot1 - tot0);
    return r->run_errors == errors ? 0 : -1;
}
