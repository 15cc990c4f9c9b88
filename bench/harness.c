/*
 * harness.c -- a run (see harness.h for the method): its set-up (the
 * impls' probes and claims, the clocks, the buffers), the identity of the
 * machine it runs on, and its notes. The rest of the harness, by concern,
 * is listed in harness_int.h.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* gmtime_r, strtok_r under -std=c11 */
#endif

#include "harness_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#define BENCH_X86 1
#include <cpuid.h>
#else
#define BENCH_X86 0
#endif

/* ------------------------------------------------------------------
 * CPU identity
 * ---------------------------------------------------------------- */

/* cpuinfo_value -- the value of the first line of /proc/cpuinfo whose
 * key (the text before ':', blanks trimmed) is key; 0 when none. */
static int cpuinfo_value(const char *key, char *buf, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int found = 0;

    if (f == NULL)
        return 0;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        char *colon = strchr(line, ':'), *v;
        size_t n;
        if (colon == NULL)
            continue;
        n = (size_t)(colon - line);
        while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
            n--;
        if (n != strlen(key) || strncmp(line, key, n) != 0)
            continue;
        v = colon + 1;
        while (*v == ' ')
            v++;
        v[strcspn(v, "\n")] = '\0';
        snprintf(buf, cap, "%s", v);
        found = 1;
    }
    fclose(f);
    return found;
}

/* cpuinfo_field -- the value of the first of keys that /proc/cpuinfo
 * has (keys in order of preference). */
static int cpuinfo_field(const char *const *keys, char *buf, size_t cap)
{
    for (size_t k = 0; keys[k] != NULL; k++)
        if (cpuinfo_value(keys[k], buf, cap))
            return 1;
    return 0;
}

static void cpu_model(char *buf, size_t cap)
{
    static const char *const keys[] = {"model name", "cpu model", "cpu",
                                       "Model", NULL};
    snprintf(buf, cap, "unknown CPU");
    if (cpuinfo_field(keys, buf, cap))
        return;
#if BENCH_X86
    {
        unsigned r[12];
        if (__get_cpuid(0x80000000u, &r[0], &r[1], &r[2], &r[3]) &&
            r[0] >= 0x80000004u) {
            for (unsigned i = 0; i < 3; i++)
                __get_cpuid(0x80000002u + i, &r[4 * i], &r[4 * i + 1],
                            &r[4 * i + 2], &r[4 * i + 3]);
            snprintf(buf, cap, "%.48s", (const char *)r);
        }
    }
#endif
}

/* cpu_flags -- the CPU features that matter for AES, as /proc/cpuinfo
 * names them. */
static void cpu_flags(char *buf, size_t cap)
{
    static const char *const keys[] = {"flags", "Features", NULL};
    static const char *const want[] = {
        "sse2",     "ssse3", "sse4_1",     "avx",   "avx2",       "avx512f",
        "avx512vl", "aes",   "pclmulqdq",  "vaes",  "vpclmulqdq", "gfni",
        "sha_ni",   "bmi2",  "hypervisor", "asimd", "pmull",      "sha2",
        "altivec",  "vsx",   NULL};
    char all[4096], *tok, *save = NULL;
    size_t used = 0;

    buf[0] = '\0';
    if (!cpuinfo_field(keys, all, sizeof(all)))
        return;
    for (tok = strtok_r(all, " ", &save); tok != NULL;
         tok = strtok_r(NULL, " ", &save))
        for (size_t i = 0; want[i] != NULL; i++)
            if (strcmp(tok, want[i]) == 0 && used + strlen(tok) + 2 < cap)
                used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                                         used ? " " : "", tok);
}

/* load_average -- the 1-minute load average, or -1. */
static double load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double v = -1;

    if (f != NULL) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* ------------------------------------------------------------------
 * Run set-up
 * ---------------------------------------------------------------- */

void bench_note(struct bench_run *r, const char *fmt, ...)
{
    va_list ap;
    if (r->nnotes == BENCH_MAX_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(r->notes[r->nnotes++], BENCH_NOTE_LEN, fmt, ap);
    va_end(ap);
}

static size_t cell_count(const struct bench_run *r)
{
    return r->nimpls * OP_COUNT * BENCH_NKEYS * r->cfg.nsizes;
}

static void probe_impls(struct bench_run *r, FILE *log)
{
    r->nimpls = bench_impl_count();
    for (size_t i = 0; i < r->nimpls; i++) {
        struct bench_impl_state *s = &r->impls[i];
        s->impl = bench_impl_at(i);
        s->usable = s->impl->probe == NULL || s->impl->probe();
        if (!s->usable) {
            if (log != NULL)
                fprintf(log, "%s: unavailable here (probe failed)\n",
                        s->impl->name);
            continue;
        }
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            for (int op = 0; op < OP_COUNT; op++)
                if (s->impl->supports((enum bench_op)op, bench_key_bits(k)))
                    s->claimed[k] |= BENCH_OP_BIT(op);
    }
}

int bench_init(struct bench_run *r, const struct bench_config *cfg, FILE *log)
{
    size_t max = 4096;
    time_t now = time(NULL);
    struct tm tm;

    memset(r, 0, sizeof(*r));
    r->cfg = *cfg;
    if (r->cfg.rounds == 0)
        r->cfg.rounds = 1;
    if (r->cfg.rounds > BENCH_MAX_SAMPLES / 3)
        r->cfg.rounds = BENCH_MAX_SAMPLES / 3;
    if (r->cfg.passes == 0)
        r->cfg.passes = 1;
    if (r->cfg.slack < 1.05)
        r->cfg.slack = 1.05;
    r->rng = cfg->seed;
    if (r->cfg.mb_size == 0 || r->cfg.mb_size % 16 != 0)
        r->cfg.mb_size = 4096;
    for (size_t i = 0; i < cfg->nsizes; i++)
        if (cfg->sizes[i] > max)
            max = cfg->sizes[i];
    /* 16 multi-buffer messages side by side */
    if ((cfg->ops & OPS_MB) && 16 * r->cfg.mb_size > max)
        max = 16 * r->cfg.mb_size;
    r->buf_len = max;
    /* Page-aligned (the output --out-offset bytes further), + one cache
     * line for --misalign. Where the output lies against the input in a
     * page decides up to 2x for the multi-buffer ops (4K aliasing,
     * docs/engines/vaes.md), so it is fixed here, not left to malloc. */
    r->cfg.out_offset %= 4096;
    r->in = aligned_alloc(4096, (max + 64 + 4095) / 4096 * 4096);
    r->out_alloc = aligned_alloc(4096, (max + 4096 + 64 + 4095) / 4096 * 4096);
    r->out = r->out_alloc ? r->out_alloc + r->cfg.out_offset : NULL;
    if (r->in == NULL || r->out == NULL) {
        bench_free(r);
        return -1;
    }
    bench_rng_fill(&r->rng, r->in, max + 64);
    memset(r->out, 0, max + 64);
    cpu_model(r->cpu, sizeof(r->cpu));
    cpu_flags(r->cpu_flags, sizeof(r->cpu_flags));
    gmtime_r(&now, &tm);
    strftime(r->date, sizeof(r->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    bench_clock_init(&r->clock);
    r->load_start = load_average();
    r->steal = -1;
    probe_impls(r, log);
    r->cells = calloc(cell_count(r) ? cell_count(r) : 1, sizeof(*r->cells));
    if (r->cells == NULL) {
        bench_free(r);
        return -1;
    }
    return 0;
}

void bench_free(struct bench_run *r)
{
    free(r->in);
    free(r->out_alloc);
    free(r->cells);
    r->in = r->out = r->out_alloc = NULL;
    r->cells = NULL;
}
