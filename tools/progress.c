/*
 * progress.c -- the progress line (see progress.h). The clock is
 * CLOCK_MONOTONIC, so a change of the wall clock cannot make the rate or
 * the estimate jump.
 */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(struct progress *p, uint64_t total, int quiet)
{
    p->on = !quiet && total > PROGRESS_MIN && isatty(STDERR_FILENO);
    p->drawn = 0;
    p->total = total;
    p->done = 0;
    p->start = now();
    p->last = p->start - 1; /* draw at the first update */
}

/* human -- v bytes as "123.4 MiB". */
static void human(char *buf, size_t cap, double v)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;

    while (v >= 1024 && u < 4)
        v /= 1024, u++;
    snprintf(buf, cap, u == 0 ? "%.0f %s" : "%.1f %s", v, unit[u]);
}

static void draw(struct progress *p, double t)
{
    char done[32], total[32], rate[32], eta[32] = "--:--";
    double secs = t - p->start, r = secs > 0 ? (double)p->done / secs : 0;

    human(done, sizeof(done), (double)p->done);
    human(total, sizeof(total), (double)p->total);
    human(rate, sizeof(rate), r);
    if (r > 0 && p->total >= p->done) {
        unsigned long left = (unsigned long)((double)(p->total - p->done) / r);
        snprintf(eta, sizeof(eta), "%lu:%02lu", left / 60, left % 60);
    }
    fprintf(stderr, "\r%s / %s (%3.0f%%)  %s/s  ETA %s  ", done, total,
            p->total > 0 ? 100.0 * (double)p->done / (double)p->total : 0.0,
            rate, eta);
    fflush(stderr);
    p->drawn = 1;
}

void progress_add(struct progress *p, uint64_t n)
{
    double t;

    p->done += n;
    if (!p->on)
        return;
    t = now();
    if (t - p->last < 0.25)
        return;
    p->last = t;
    draw(p, t);
}

void progress_end(struct progress *p)
{
    if (p->on && p->drawn) {
        /* Erase the line: carriage return, clear to end of line. */
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->drawn = 0;
}
