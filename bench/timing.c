/*
 * timing.c -- the clocks and the timed round (harness.h has the method).
 *
 * Clocks: the TSC (rdtsc, lfence first) on x86, its rate calibrated
 * against CLOCK_MONOTONIC; elsewhere CLOCK_MONOTONIC in ns. Core cycles
 * from a user-space perf_event_open counter where the kernel gives one;
 * without it the core clock / TSC ratio is estimated with a chain of
 * dependent adds (one cycle each).
 *
 * Why a round is timed as a whole: one message can be shorter than the
 * clock's resolution and its cost includes the indirect call, so a round
 * runs the same message `iters` times back to back between two clock
 * reads, and iters is calibrated so that a round lasts at least round_ms
 * (twice that below 1 KiB, where the per-call part is largest). The clock
 * reads, getrusage() and the perf read() bracket the round, not each
 * message.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* RUSAGE_THREAD, syscall() under -std=c11 */
#endif

#include "harness_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#define BENCH_X86 1
#include <cpuid.h>
#else
#define BENCH_X86 0
#endif

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/perf_event.h>)
#define BENCH_PERF 1
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#endif
#ifndef BENCH_PERF
#define BENCH_PERF 0
#endif

double bench_mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* bench_ticks_now -- the TSC on x86 (lfence: earlier instructions have
 * completed before it is read), elsewhere CLOCK_MONOTONIC in ns. */
static inline uint64_t bench_ticks_now(void)
{
#if BENCH_X86
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#if BENCH_X86
/* tsc_hz_once -- TSC ticks over ~20 ms of CLOCK_MONOTONIC. */
static double tsc_hz_once(void)
{
    double t0 = bench_mono_seconds(), t1;
    uint64_t c0 = bench_ticks_now(), c1;

    do {
        t1 = bench_mono_seconds();
    } while (t1 - t0 < 0.02);
    c1 = bench_ticks_now();
    return (double)(c1 - c0) / (t1 - t0);
}

/* The median of 5 calibrations: one preempted interval cannot move it. */
static double tsc_calibrate(void)
{
    double v[5];
    for (int i = 0; i < 5; i++)
        v[i] = tsc_hz_once();
    qsort(v, 5, sizeof(v[0]), bench_cmp_double);
    return v[2];
}

static int tsc_invariant(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000007u, &a, &b, &c, &d))
        return (d >> 8) & 1;
    return 0;
}
#endif

#if BENCH_PERF
/* The perf counter: opened once per process (one run at a time). */
static int perf_fd = -1;
#endif

/* bench_perf_cycles -- user-space core cycles so far; -1 when unavailable or
 * when the counter was multiplexed (not counting all the time). */
static int64_t bench_perf_cycles(void)
{
#if BENCH_PERF
    uint64_t v[3];
    if (perf_fd < 0 || read(perf_fd, v, sizeof(v)) != (ssize_t)sizeof(v))
        return -1;
    if (v[1] != v[2])
        return -1;
    return (int64_t)v[0];
#else
    return -1;
#endif
}

static void perf_open(struct bench_clock *c)
{
#if BENCH_PERF
    struct perf_event_attr pa;
    int64_t a, b;

    if (perf_fd >= 0) {
        close(perf_fd);
        perf_fd = -1;
    }
    memset(&pa, 0, sizeof(pa));
    pa.type = PERF_TYPE_HARDWARE;
    pa.size = sizeof(pa);
    pa.config = PERF_COUNT_HW_CPU_CYCLES;
    pa.exclude_kernel = 1;
    pa.exclude_hv = 1;
    pa.read_format =
        PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    perf_fd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
    if (perf_fd < 0) {
        snprintf(c->perf_status, sizeof(c->perf_status),
                 "perf_event_open(PERF_COUNT_HW_CPU_CYCLES) failed: %s",
                 strerror(errno));
        return;
    }
    a = bench_perf_cycles();
    for (double t0 = bench_mono_seconds(); bench_mono_seconds() - t0 < 0.002;)
        ; /* 2 ms of user-space work (vDSO clock reads) */
    b = bench_perf_cycles();
    if (a < 0 || b <= a) {
        snprintf(c->perf_status, sizeof(c->perf_status),
                 "perf_event_open opened, but the cycle counter does not "
                 "count (no PMU for this guest?)");
        close(perf_fd);
        perf_fd = -1;
        return;
    }
    c->perf_ok = 1;
    snprintf(c->perf_status, sizeof(c->perf_status),
             "perf_event_open: user-space core cycles (PERF_COUNT_HW_CPU_"
             "CYCLES)");
#else
    snprintf(c->perf_status, sizeof(c->perf_status),
             "perf_event_open not available on this system");
#endif
}

/*
 * chain_ratio -- core clock / tick rate, from n x 8 dependent register
 * adds (1 cycle of latency each on every x86-64 and aarch64 core; a
 * register operand, since some cores fold "add reg, imm" at rename).
 * Returns 0 where there is no such chain.
 */
static double chain_ratio_once(uint64_t n)
{
#if defined(__x86_64__) || defined(__aarch64__)
    uint64_t x = 0, one = 1, t0, t1;

    t0 = bench_ticks_now();
    for (uint64_t i = 0; i < n; i++) {
#if defined(__x86_64__)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0"
                         : "+r"(x)
                         : "r"(one));
#else
        __asm__ volatile("add %0, %0, %1\n\tadd %0, %0, %1\n\t"
                         "add %0, %0, %1\n\tadd %0, %0, %1\n\t"
                         "add %0, %0, %1\n\tadd %0, %0, %1\n\t"
                         "add %0, %0, %1\n\tadd %0, %0, %1"
                         : "+r"(x)
                         : "r"(one));
#endif
    }
    t1 = bench_ticks_now();
    return t1 > t0 ? 8.0 * (double)n / (double)(t1 - t0) : 0;
#else
    (void)n;
    return 0;
#endif
}

/* The best of 3 chains of ~0.3 ms: a preempted chain only looks slower. */
static double chain_ratio(const struct bench_clock *c)
{
    uint64_t n = (uint64_t)(c->tick_hz * 3e-4 / 8.0 * 3.0);
    double best = 0;

    if (!c->has_tsc)
        n = 100000;
    for (int i = 0; i < 3; i++) {
        double v = chain_ratio_once(n);
        if (v > best)
            best = v;
    }
    return best;
}

void bench_clock_ratio_seen(struct bench_clock *c, double ratio)
{
    if (ratio <= 0)
        return;
    if (c->ratio_samples == 0 || ratio < c->ratio_min)
        c->ratio_min = ratio;
    if (c->ratio_samples == 0 || ratio > c->ratio_max)
        c->ratio_max = ratio;
    c->ratio_samples++;
}

/* bench_clock_sample -- without perf, one add-chain estimate of the core clock
 * (taken before and after every row, and at the end). */
double bench_clock_sample(struct bench_clock *c)
{
    double v;

    if (c->perf_ok || !c->chain_ok)
        return 0;
    v = chain_ratio(c);
    bench_clock_ratio_seen(c, v);
    return v;
}

void bench_clock_init(struct bench_clock *c)
{
    memset(c, 0, sizeof(*c));
#if BENCH_X86
    c->has_tsc = 1;
    c->tsc_invariant = tsc_invariant();
    c->tick_hz = tsc_calibrate();
#else
    c->tick_hz = 1e9;
#endif
    perf_open(c);
    c->chain_ok = chain_ratio(c) > 0;
}

/* ------------------------------------------------------------------
 * The timed round
 * ---------------------------------------------------------------- */

/* bench_work_run -- iters repetitions; non-zero when one failed. */
static int bench_work_run(const struct bench_work *w, uint64_t iters)
{
    int err = 0;

    if (!w->keysetup) {
        for (uint64_t i = 0; i < iters; i++)
            err |= w->impl->run(w->ctx, w->out, w->in, w->len);
        return err;
    }
    for (uint64_t i = 0; i < iters; i++) {
        if (w->via_setup) {
            void *c = w->impl->setup(w->op, w->key, w->bits, w->key + 32);
            if (c == NULL)
                return -1;
            w->impl->release(c);
        } else {
            err |= w->impl->keysetup(w->op, w->key, w->bits);
        }
    }
    return err;
}

/* Involuntary context switches so far (WASI keeps no count: 0, so under
 * Node.js preempted rounds are not flagged; medians still hold). */
static long nivcsw(void)
{
#if defined(__wasi__)
    return 0;
#else
    struct rusage ru;
#if defined(RUSAGE_THREAD)
    getrusage(RUSAGE_THREAD, &ru);
#else
    getrusage(RUSAGE_SELF, &ru);
#endif
    return ru.ru_nivcsw;
#endif
}

int bench_time_round(const struct bench_work *w, uint64_t iters,
                     struct bench_sample *s)
{
    long cs0 = nivcsw(), cs1;
    int64_t p0 = bench_perf_cycles(), p1;
    uint64_t t0 = bench_ticks_now(), t1;
    int err = bench_work_run(w, iters);

    t1 = bench_ticks_now();
    p1 = bench_perf_cycles();
    cs1 = nivcsw();
    s->tpi = (double)(t1 - t0) / (double)iters;
    s->cpi = p0 >= 0 && p1 > p0 ? (double)(p1 - p0) / (double)iters : -1;
    s->switched = cs1 != cs0;
    return err;
}

uint64_t bench_calibrate(const struct bench_work *w, double target)
{
    uint64_t iters = 1;

    for (;;) {
        uint64_t t0 = bench_ticks_now(), el;
        if (bench_work_run(w, iters) != 0)
            return 0;
        el = bench_ticks_now() - t0;
        if ((double)el >= target / 4 || iters >= ((uint64_t)1 << 40)) {
            double want = (double)iters * target * 1.1 / (double)(el ? el : 1);
            return want < 1 ? 1 : (uint64_t)want + 1;
        }
        iters *= (double)el < target / 64 ? 8 : 2;
    }
}
