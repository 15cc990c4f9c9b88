/*
 * harness.c -- the timing engine (see harness.h for the method).
 *
 * Layout of this file, top to bottom: operation names and the impl list;
 * configuration and its parsers; clocks (TSC, perf_event_open core
 * cycles, the add chain that estimates the core clock, CPU identity);
 * run set-up; correctness against aesir's ref engine; timing of the grid
 * (calibration, interleaved rounds, reruns, best pass); key setups per
 * second; the figures of a cell.
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

#include "harness.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "aesir.h"
#include "args.h"

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

/* Most rounds kept per impl and row: rounds + reruns (3 x rounds). */
#define MAX_SAMPLES 64

/* ------------------------------------------------------------------
 * Operations
 * ---------------------------------------------------------------- */

static const char *const op_names[] = {
    "ecb-enc",      "ecb-dec",      "cbc-enc",      "cbc-dec",
    "cfb128-enc",   "cfb128-dec",   "ofb",          "ctr",
    "mb-cbc-enc-1", "mb-cbc-enc-4", "mb-cbc-enc-8", "mb-cbc-enc-16",
    "mb-cbc-mac-1", "mb-cbc-mac-4", "mb-cbc-mac-8", "mb-cbc-mac-16",
};
_Static_assert(sizeof(op_names) / sizeof(op_names[0]) == OP_COUNT,
               "every operation of bench.h needs a name here");

const char *bench_op_name(enum bench_op op)
{
    return (unsigned)op < OP_COUNT ? op_names[op] : "?";
}

int bench_op_parse(const char *name)
{
    for (int op = 0; op < OP_COUNT; op++)
        if (strcmp(name, op_names[op]) == 0)
            return op;
    return -1;
}

int bench_op_is_mb(enum bench_op op)
{
    return op >= OP_MB_CBC_ENC_1 && op <= OP_MB_CBC_MAC_16;
}

int bench_op_is_mac(enum bench_op op)
{
    return op >= OP_MB_CBC_MAC_1 && op <= OP_MB_CBC_MAC_16;
}

size_t bench_op_out_bytes(enum bench_op op, size_t len)
{
    return bench_op_messages(op) * (bench_op_is_mac(op) ? 16 : len);
}

unsigned bench_op_messages(enum bench_op op)
{
    switch (op) {
    case OP_MB_CBC_ENC_4:
    case OP_MB_CBC_MAC_4:
        return 4;
    case OP_MB_CBC_ENC_8:
    case OP_MB_CBC_MAC_8:
        return 8;
    case OP_MB_CBC_ENC_16:
    case OP_MB_CBC_MAC_16:
        return 16;
    default:
        return 1;
    }
}

/* Message j's key: the row's key with j XORed into its last byte, so the
 * N messages of a run have N different keys (and key schedules). */
void bench_mb_key(const uint8_t *key, unsigned key_bits, unsigned j,
                  uint8_t *out)
{
    memcpy(out, key, key_bits / 8);
    out[key_bits / 8 - 1] ^= (uint8_t)j;
}

void bench_mb_iv(const uint8_t iv[16], unsigned j, uint8_t out[16])
{
    memcpy(out, iv, 16);
    out[15] ^= (uint8_t)j;
}

/* Stream modes take any length; ECB and CBC whole blocks. */
static int op_is_stream(enum bench_op op)
{
    return op == OP_CFB128_ENC || op == OP_CFB128_DEC || op == OP_OFB ||
           op == OP_CTR;
}

/* Ops that need the decryption key schedule. */
static int op_decrypts(enum bench_op op)
{
    return op == OP_ECB_DEC || op == OP_CBC_DEC;
}

const size_t bench_grid_sizes[] = {16,   64,   256,   576,
                                   1024, 4096, 16384, 1048576};
const size_t bench_grid_nsizes =
    sizeof(bench_grid_sizes) / sizeof(bench_grid_sizes[0]);

unsigned bench_key_bits(unsigned key_index)
{
    return 128 + 64 * key_index;
}

int bench_key_index(unsigned key_bits)
{
    return key_bits == 128 ? 0 : key_bits == 192 ? 1 : key_bits == 256 ? 2 : -1;
}

/* ------------------------------------------------------------------
 * The impl list
 * ---------------------------------------------------------------- */

static const struct bench_impl *impl_list[BENCH_MAX_IMPLS];
static size_t impl_list_n;

void bench_add(const struct bench_impl *impl)
{
    if (impl_list_n == BENCH_MAX_IMPLS) {
        fprintf(stderr, "bench: more than %d impls; %s ignored\n",
                BENCH_MAX_IMPLS, impl->name);
        return;
    }
    impl_list[impl_list_n++] = impl;
}

size_t bench_impl_count(void)
{
    return impl_list_n;
}

const struct bench_impl *bench_impl_at(size_t i)
{
    return i < impl_list_n ? impl_list[i] : NULL;
}

/* ------------------------------------------------------------------
 * Configuration
 * ---------------------------------------------------------------- */

#define OPS_MB_ENC                                                             \
    ((1u << OP_MB_CBC_ENC_1) | (1u << OP_MB_CBC_ENC_4) |                       \
     (1u << OP_MB_CBC_ENC_8) | (1u << OP_MB_CBC_ENC_16))
#define OPS_MB                                                                 \
    (OPS_MB_ENC | (1u << OP_MB_CBC_MAC_1) | (1u << OP_MB_CBC_MAC_4) |          \
     (1u << OP_MB_CBC_MAC_8) | (1u << OP_MB_CBC_MAC_16))
/* The default run: the CBC-MAC ops only with --full or --ops. */
#define OPS_MAIN                                                               \
    ((1u << OP_CTR) | (1u << OP_CBC_ENC) | (1u << OP_CBC_DEC) |                \
     (1u << OP_ECB_ENC) | OPS_MB_ENC)
#define OPS_ALL ((1u << OP_COUNT) - 1)

void bench_config_default(struct bench_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->ops = OPS_MAIN;
    cfg->keys = 1u | 4u;
    cfg->sizes[0] = 64;
    cfg->sizes[1] = 576;
    cfg->sizes[2] = 16384;
    cfg->nsizes = 3;
    cfg->rounds = 9;
    cfg->passes = 2;
    cfg->round_ms = 2.0;
    cfg->slack = 1.3;
    cfg->mb_size = 4096;
    cfg->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15u;
}

void bench_config_full(struct bench_config *cfg)
{
    bench_config_default(cfg);
    cfg->ops = OPS_ALL;
    cfg->keys = 7u;
    for (size_t i = 0; i < bench_grid_nsizes; i++)
        cfg->sizes[i] = bench_grid_sizes[i];
    cfg->nsizes = bench_grid_nsizes;
    cfg->passes = 3;
}

/*
 * The list parsers (harness.h). Each list goes through args_split()
 * (tools/args.h): not empty, no empty item, no item twice. Then no item
 * may name only what another item already names ("ctr,all", "cbc,cbc-enc",
 * "128,all", "1k,1024"): a repeated item is more often a typo than a wish.
 */

/* ops_matching -- ops called name, or whose name is name + "-..." (a mode
 * name stands for its directions). */
static uint32_t ops_matching(const char *name)
{
    uint32_t m = 0;
    size_t n = strlen(name);

    if (strcmp(name, "all") == 0)
        return OPS_ALL;
    if (strcmp(name, "main") == 0)
        return OPS_MAIN;
    for (int op = 0; op < OP_COUNT; op++)
        if (strcmp(op_names[op], name) == 0 ||
            (strncmp(op_names[op], name, n) == 0 && op_names[op][n] == '-'))
            m |= 1u << op;
    return m;
}

int bench_parse_ops(const char *list, uint32_t *ops, char *err, size_t cap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS], all = 0;
    size_t bad;
    int rc = args_split(list, &l, &bad);

    if (rc != ARGS_OK)
        return args_list_error(err, cap, rc, &l, bad, "operations");
    for (size_t i = 0; i < l.n; i++) {
        m[i] = ops_matching(l.item[i]);
        if (m[i] == 0) {
            char q[96];
            size_t o =
                (size_t)snprintf(err, cap, "'%s' is not an operation (known:",
                                 args_quote(q, sizeof(q), l.item[i]));
            for (int op = 0; op < OP_COUNT && o < cap; op++)
                o += (size_t)snprintf(err + o, cap - o, " %s", op_names[op]);
            if (o < cap)
                snprintf(err + o, cap - o,
                         "; a mode such as cbc or mb; main; all)");
            return -1;
        }
        all |= m[i];
    }
    if (args_overlap(&l, m, err, cap) != 0)
        return -1;
    *ops = (uint32_t)all;
    return 0;
}

int bench_parse_keys(const char *list, unsigned *keys, char *err, size_t cap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS], all = 0;
    size_t bad;
    int rc = args_split(list, &l, &bad);

    if (rc != ARGS_OK)
        return args_list_error(err, cap, rc, &l, bad, "key sizes");
    for (size_t i = 0; i < l.n; i++) {
        uint64_t bits;
        int k = -1;
        if (strcmp(l.item[i], "all") == 0) {
            m[i] = 7;
        } else {
            if (args_uint(l.item[i], 128, 256, &bits) == ARGS_OK)
                k = bench_key_index((unsigned)bits);
            if (k < 0) {
                char q[96];
                snprintf(err, cap,
                         "'%s' is not a key size (128, 192, 256 or all)",
                         args_quote(q, sizeof(q), l.item[i]));
                return -1;
            }
            m[i] = (uint64_t)1 << k;
        }
        all |= m[i];
    }
    if (args_overlap(&l, m, err, cap) != 0)
        return -1;
    *keys = (unsigned)all;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The largest message size: the buffers are this big, twice. */
#define BENCH_SIZE_MAX ((size_t)64 << 20)

/* size_bit -- the bit of size v among the distinct sizes seen so far
 * (added when new), or -1 past BENCH_MAX_SIZES of them. */
static int size_bit(size_t v, size_t *seen, size_t *nseen)
{
    for (size_t i = 0; i < *nseen; i++)
        if (seen[i] == v)
            return (int)i;
    if (*nseen == BENCH_MAX_SIZES)
        return -1;
    seen[*nseen] = v;
    return (int)(*nseen)++;
}

int bench_parse_sizes(const char *list, size_t *sizes, size_t *nsizes,
                      char *err, size_t cap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS];
    size_t seen[BENCH_MAX_SIZES], nseen = 0, bad;
    int rc = args_split(list, &l, &bad);
    char q[96], hi[24];

    _Static_assert(BENCH_MAX_SIZES <= 64, "a size is a bit of a uint64_t");
    if (rc != ARGS_OK)
        return args_list_error(err, cap, rc, &l, bad, "sizes");
    for (size_t i = 0; i < l.n; i++) {
        int b = 0;
        m[i] = 0;
        if (strcmp(l.item[i], "all") == 0) {
            for (size_t g = 0; g < bench_grid_nsizes && b >= 0; g++)
                if ((b = size_bit(bench_grid_sizes[g], seen, &nseen)) >= 0)
                    m[i] |= (uint64_t)1 << b;
        } else {
            uint64_t v;
            rc = args_size(l.item[i], 1, BENCH_SIZE_MAX, &v);
            if (rc != ARGS_OK) {
                args_quote(q, sizeof(q), l.item[i]);
                if (rc == ARGS_RANGE)
                    snprintf(err, cap, "'%s' is out of range (1..%s bytes)", q,
                             args_format_size(hi, sizeof(hi), BENCH_SIZE_MAX));
                else
                    snprintf(err, cap,
                             "'%s' is not a size (bytes, or with a k or M "
                             "suffix: 64, 16k, 1M; or all)",
                             q);
                return -1;
            }
            if ((b = size_bit((size_t)v, seen, &nseen)) >= 0)
                m[i] = (uint64_t)1 << b;
        }
        if (b < 0) {
            snprintf(err, cap, "more than %d different sizes", BENCH_MAX_SIZES);
            return -1;
        }
    }
    if (args_overlap(&l, m, err, cap) != 0)
        return -1;
    memcpy(sizes, seen, nseen * sizeof(sizes[0]));
    qsort(sizes, nseen, sizeof(sizes[0]), cmp_size);
    *nsizes = nseen;
    return 0;
}

/* ------------------------------------------------------------------
 * Random bytes (splitmix64; keys and messages need no secrecy here)
 * ---------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void rng_fill(uint64_t *s, uint8_t *p, size_t n)
{
    while (n > 0) {
        uint64_t v = rng_next(s);
        for (int i = 0; i < 8 && n > 0; i++, n--, v >>= 8)
            *p++ = (uint8_t)v;
    }
}

/* ------------------------------------------------------------------
 * Clocks
 * ---------------------------------------------------------------- */

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ticks_now -- the TSC on x86 (lfence: earlier instructions have
 * completed before it is read), elsewhere CLOCK_MONOTONIC in ns. */
static inline uint64_t ticks_now(void)
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#if BENCH_X86
/* tsc_hz_once -- TSC ticks over ~20 ms of CLOCK_MONOTONIC. */
static double tsc_hz_once(void)
{
    double t0 = mono_seconds(), t1;
    uint64_t c0 = ticks_now(), c1;

    do {
        t1 = mono_seconds();
    } while (t1 - t0 < 0.02);
    c1 = ticks_now();
    return (double)(c1 - c0) / (t1 - t0);
}

/* The median of 5 calibrations: one preempted interval cannot move it. */
static double tsc_calibrate(void)
{
    double v[5];
    for (int i = 0; i < 5; i++)
        v[i] = tsc_hz_once();
    qsort(v, 5, sizeof(v[0]), cmp_double);
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

/* perf_cycles -- user-space core cycles so far; -1 when unavailable or
 * when the counter was multiplexed (not counting all the time). */
static int64_t perf_cycles(void)
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
    a = perf_cycles();
    for (double t0 = mono_seconds(); mono_seconds() - t0 < 0.002;)
        ; /* 2 ms of user-space work (vDSO clock reads) */
    b = perf_cycles();
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

    t0 = ticks_now();
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
    t1 = ticks_now();
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

static void ratio_seen(struct bench_clock *c, double ratio)
{
    if (ratio <= 0)
        return;
    if (c->ratio_samples == 0 || ratio < c->ratio_min)
        c->ratio_min = ratio;
    if (c->ratio_samples == 0 || ratio > c->ratio_max)
        c->ratio_max = ratio;
    c->ratio_samples++;
}

/* sample_clock -- without perf, one add-chain estimate of the core clock
 * (taken before the grid, after every row, and at the end). */
static void sample_clock(struct bench_clock *c)
{
    if (!c->perf_ok && c->chain_ok)
        ratio_seen(c, chain_ratio(c));
}

static void clock_init(struct bench_clock *c)
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

size_t bench_op_nsizes(const struct bench_run *r, enum bench_op op)
{
    return bench_op_is_mb(op) ? 1 : r->cfg.nsizes;
}

size_t bench_op_size(const struct bench_run *r, enum bench_op op, size_t si)
{
    if (si >= bench_op_nsizes(r, op))
        return 0;
    return bench_op_is_mb(op) ? r->cfg.mb_size : r->cfg.sizes[si];
}

struct bench_cell *bench_cell_at(const struct bench_run *r, size_t i,
                                 enum bench_op op, unsigned key_index,
                                 size_t size_index)
{
    size_t k = ((i * OP_COUNT + (size_t)op) * BENCH_NKEYS + key_index) *
                   r->cfg.nsizes +
               size_index;
    return &r->cells[k];
}

int bench_runnable(const struct bench_run *r, size_t i, enum bench_op op,
                   unsigned key_index)
{
    const struct bench_impl_state *s = &r->impls[i];
    uint32_t bit = 1u << op;
    return s->usable && (s->verified[key_index] & bit) && !(s->dropped & bit);
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
                    s->claimed[k] |= 1u << op;
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
    if (r->cfg.rounds > MAX_SAMPLES / 3)
        r->cfg.rounds = MAX_SAMPLES / 3;
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
    rng_fill(&r->rng, r->in, max + 64);
    memset(r->out, 0, max + 64);
    cpu_model(r->cpu, sizeof(r->cpu));
    cpu_flags(r->cpu_flags, sizeof(r->cpu_flags));
    gmtime_r(&now, &tm);
    strftime(r->date, sizeof(r->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    clock_init(&r->clock);
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

/* The buffers as the impls see them: aligned, or at +1. */
static uint8_t *buf_in(const struct bench_run *r)
{
    return r->in + (r->cfg.misalign ? 1 : 0);
}

static uint8_t *buf_out(const struct bench_run *r)
{
    return r->out + (r->cfg.misalign ? 1 : 0);
}

/* ------------------------------------------------------------------
 * Correctness: every impl against aesir's ref engine
 * ---------------------------------------------------------------- */

/* ref_compute -- op on in[0..len) with aesir's "ref" engine, through the
 * public API; 0 on success, -1 for an op it does not know. */
static int ref_compute(enum bench_op op, const uint8_t *key, unsigned bits,
                       const uint8_t iv[16], uint8_t *out, const uint8_t *in,
                       size_t len)
{
    aesir_aes k;
    size_t n;
    int err;

    if (bench_op_is_mb(op)) {
        /* N messages, each aesir_cbc_encrypt with its own key and IV; for
         * a MAC, the last block (the IV for an empty message) */
        uint8_t kj[32], ivj[16];
        int mac = bench_op_is_mac(op);
        uint8_t *c = mac ? malloc(len + 16) : NULL;
        if (mac && c == NULL)
            return -1;
        for (unsigned j = 0; j < bench_op_messages(op); j++) {
            uint8_t *o = mac ? c : out + j * len;
            bench_mb_key(key, bits, j, kj);
            bench_mb_iv(iv, j, ivj);
            if (ref_compute(OP_CBC_ENC, kj, bits, ivj, o, in + j * len, len) !=
                0) {
                free(c);
                return -1;
            }
            if (mac)
                memcpy(out + 16 * j, len ? c + len - 16 : ivj, 16);
        }
        free(c);
        return 0;
    }
    err = aesir_aes_init_ex(&k, key, bits / 8, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT);
    if (err != AESIR_OK)
        return -1;
    switch (op) {
    case OP_ECB_ENC:
        err = aesir_ecb_encrypt(&k, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_ECB_DEC:
        err = aesir_ecb_decrypt(&k, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_CBC_ENC:
        err = aesir_cbc_encrypt(&k, iv, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_CBC_DEC:
        err = aesir_cbc_decrypt(&k, iv, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_CFB128_ENC:
        err = aesir_cfb128_encrypt(&k, iv, out, in, len);
        break;
    case OP_CFB128_DEC:
        err = aesir_cfb128_decrypt(&k, iv, out, in, len);
        break;
    case OP_OFB:
        err = aesir_ofb_crypt(&k, iv, out, in, len);
        break;
    case OP_CTR:
        err = aesir_ctr_crypt(&k, iv, 128, out, in, len);
        break;
    default:
        err = -1;
    }
    aesir_aes_clear(&k);
    return err == AESIR_OK ? 0 : -1;
}

/* The lengths a verification uses: a few fixed ones, the grid's sizes,
 * and two that are not whole blocks for the stream modes. */
static size_t verify_lengths(const struct bench_run *r, enum bench_op op,
                             size_t *lens)
{
    static const size_t base[] = {16, 80, 576, 4096};
    size_t n = 0;

    if (bench_op_is_mb(op)) { /* up to the row's size: the buffers hold
                                 16 messages of that */
        for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
            if (base[i] < r->cfg.mb_size)
                lens[n++] = base[i];
        lens[n++] = r->cfg.mb_size;
        return n;
    }
    for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
        lens[n++] = base[i];
    for (size_t i = 0; i < r->cfg.nsizes; i++)
        if (op_is_stream(op) || r->cfg.sizes[i] % 16 == 0)
            lens[n++] = r->cfg.sizes[i];
    if (op_is_stream(op)) {
        lens[n++] = 1;
        lens[n++] = 33;
    }
    return n;
}

/* Loud: on the log, and as a note in every output. */
static void fail_op(struct bench_run *r, size_t i, enum bench_op op, FILE *log,
                    const char *what)
{
    struct bench_impl_state *s = &r->impls[i];

    s->dropped |= 1u << op;
    r->mismatches++;
    bench_note(r, "MISMATCH: %s %s: %s -- %s DROPPED for %s", s->impl->name,
               bench_op_name(op), what, s->impl->name, bench_op_name(op));
    if (log != NULL)
        fprintf(log,
                "\n*** MISMATCH *** %s %s: %s\n*** %s is DROPPED for %s "
                "(seed %llu) ***\n\n",
                s->impl->name, bench_op_name(op), what, s->impl->name,
                bench_op_name(op), (unsigned long long)r->cfg.seed);
}

/* check_one -- impl i against the reference outputs ref[j] for lens[j];
 * 0 when every length matches, twice on the same context. */
static int check_one(struct bench_run *r, size_t i, enum bench_op op,
                     unsigned bits, const uint8_t *key, const uint8_t *iv,
                     const size_t *lens, size_t nlens, uint8_t *const *ref,
                     FILE *log)
{
    const struct bench_impl *im = r->impls[i].impl;
    uint8_t *in = buf_in(r), *out = buf_out(r);
    char what[160];
    void *ctx = im->setup(op, key, bits, iv);

    if (ctx == NULL) {
        snprintf(what, sizeof(what), "AES-%u setup() failed", bits);
        fail_op(r, i, op, log, what);
        return -1;
    }
    for (size_t j = 0; j < nlens; j++)
        for (int again = 0; again < 2; again++) {
            size_t at = 0, bytes = bench_op_out_bytes(op, lens[j]);
            memset(out, 0xa5, bytes);
            if (im->run(ctx, out, in, lens[j]) != 0) {
                snprintf(what, sizeof(what), "AES-%u, %zu bytes: run() failed",
                         bits, lens[j]);
                fail_op(r, i, op, log, what);
                im->release(ctx);
                return -1;
            }
            if (memcmp(out, ref[j], bytes) == 0)
                continue;
            while (out[at] == ref[j][at])
                at++;
            snprintf(what, sizeof(what),
                     "AES-%u, %zu-byte message%s: output differs from aesir "
                     "ref at byte %zu%s",
                     bits, lens[j],
                     again ? " (second message on the same context)" : "", at,
                     bench_op_messages(op) > 1 ? " (of all messages)" : "");
            fail_op(r, i, op, log, what);
            im->release(ctx);
            return -1;
        }
    im->release(ctx);
    return 0;
}

/* verify_cell -- one op and key size: one random key, IV and message,
 * the reference computed once per length, then every impl claiming it. */
static void verify_cell(struct bench_run *r, enum bench_op op, unsigned k,
                        FILE *log)
{
    uint8_t key[32], iv[16], *ref[BENCH_MAX_SIZES + 8];
    size_t lens[BENCH_MAX_SIZES + 8], nlens = verify_lengths(r, op, lens);
    unsigned bits = bench_key_bits(k);
    int any = 0;

    for (size_t i = 0; i < r->nimpls; i++)
        any |= r->impls[i].usable && (r->impls[i].claimed[k] >> op & 1) &&
               !(r->impls[i].dropped >> op & 1);
    if (!any)
        return;
    rng_fill(&r->rng, key, sizeof(key));
    rng_fill(&r->rng, iv, sizeof(iv));
    rng_fill(&r->rng, buf_in(r), r->buf_len);
    for (size_t j = 0; j < nlens; j++) {
        ref[j] = malloc(bench_op_out_bytes(op, lens[j]));
        if (ref[j] == NULL ||
            ref_compute(op, key, bits, iv, ref[j], buf_in(r), lens[j]) != 0) {
            bench_note(r, "no reference for %s AES-%u: not timed",
                       bench_op_name(op), bits);
            for (size_t x = 0; x <= j; x++)
                free(ref[x]);
            return;
        }
    }
    for (size_t i = 0; i < r->nimpls; i++) {
        struct bench_impl_state *s = &r->impls[i];
        if (!s->usable || !(s->claimed[k] >> op & 1) || (s->dropped >> op & 1))
            continue;
        if (check_one(r, i, op, bits, key, iv, lens, nlens, ref, log) == 0)
            s->verified[k] |= 1u << op;
    }
    for (size_t j = 0; j < nlens; j++)
        free(ref[j]);
}

unsigned bench_verify(struct bench_run *r, uint32_t ops, unsigned keys,
                      FILE *log)
{
    unsigned before = r->mismatches;

    for (int op = 0; op < OP_COUNT; op++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if ((ops >> op & 1) && (keys >> k & 1))
                verify_cell(r, (enum bench_op)op, k, log);
    return r->mismatches - before;
}

/* ------------------------------------------------------------------
 * Timing
 * ---------------------------------------------------------------- */

/* What one round repeats: messages of one impl, or its key setups. */
struct work {
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

/* work_run -- iters repetitions; non-zero when one failed. */
static int work_run(const struct work *w, uint64_t iters)
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

/* One timed round: ticks and core cycles per repetition. */
struct sample {
    double tpi;   /* ticks per iteration */
    double cpi;   /* core cycles per iteration, < 0 unknown */
    int switched; /* an involuntary context switch happened */
};

static int time_round(const struct work *w, uint64_t iters, struct sample *s)
{
    long cs0 = nivcsw(), cs1;
    int64_t p0 = perf_cycles(), p1;
    uint64_t t0 = ticks_now(), t1;
    int err = work_run(w, iters);

    t1 = ticks_now();
    p1 = perf_cycles();
    cs1 = nivcsw();
    s->tpi = (double)(t1 - t0) / (double)iters;
    s->cpi = p0 >= 0 && p1 > p0 ? (double)(p1 - p0) / (double)iters : -1;
    s->switched = cs1 != cs0;
    return err;
}

/* calibrate -- iterations for a round of at least target ticks; the
 * doubling runs double as warm-up. 0 when the work failed. */
static uint64_t calibrate(const struct work *w, double target)
{
    uint64_t iters = 1;

    for (;;) {
        uint64_t t0 = ticks_now(), el;
        if (work_run(w, iters) != 0)
            return 0;
        el = ticks_now() - t0;
        if ((double)el >= target / 4 || iters >= ((uint64_t)1 << 40)) {
            double want = (double)iters * target * 1.1 / (double)(el ? el : 1);
            return want < 1 ? 1 : (uint64_t)want + 1;
        }
        iters *= (double)el < target / 64 ? 8 : 2;
    }
}

static double round_target(const struct bench_run *r, size_t len)
{
    double ms = r->cfg.round_ms * (len < 1024 ? 2 : 1);
    return ms * 1e-3 * r->clock.tick_hz;
}

/* The rounds of one impl in the row being timed. */
struct slot {
    size_t impl;
    struct work w;
    struct bench_cell *cell;
    uint64_t iters;
    unsigned n, attempts;
    int failed;
    struct sample s[MAX_SAMPLES];
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
static int sample_good(const struct sample *s, double best, double slack)
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
    const struct sample *x = a, *y = b;
    return x->tpi < y->tpi ? -1 : x->tpi > y->tpi;
}

/* finish_slot -- the median of the good rounds (of every round when too
 * few were good) into the cell, when it beats the passes before. */
static void finish_slot(struct bench_run *r, struct slot *sl)
{
    struct sample good[MAX_SAMPLES];
    double best = best_clean(sl);
    unsigned n = 0;
    int noisy;
    const struct sample *med;

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
            ratio_seen(&r->clock, good[j].cpi / good[j].tpi);
    if (!sl->cell->valid || med->tpi < sl->cell->ticks) {
        sl->cell->valid = 1;
        sl->cell->ticks = med->tpi;
        sl->cell->core = med->cpi;
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
    sl->w.out = buf_out(r);
    sl->w.in = buf_in(r);
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
            calibrate(&sl->w, round_target(r, len * sl->cell->msgs));
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
        struct sample smp;
        if (s->failed || s->n == MAX_SAMPLES)
            continue;
        if (sw > 0 && (good_count(s, r->cfg.slack) >= r->cfg.rounds ||
                       s->attempts >= 3 * r->cfg.rounds))
            continue;
        if (time_round(&s->w, s->iters, &smp) != 0) {
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

/* measure_row -- every runnable impl on one op, key size and message size,
 * interleaved round by round. */
static void measure_row(struct bench_run *r, enum bench_op op, unsigned k,
                        size_t si)
{
    struct slot *sl = calloc(r->nimpls ? r->nimpls : 1, sizeof(*sl));
    uint8_t key[32], iv[16];
    size_t n = 0;

    if (sl == NULL)
        return;
    if (!op_is_stream(op) && bench_op_size(r, op, si) % 16 != 0) {
        free(sl); /* ECB and CBC take whole blocks only */
        return;
    }
    rng_fill(&r->rng, key, sizeof(key));
    rng_fill(&r->rng, iv, sizeof(iv));
    for (size_t i = 0; i < r->nimpls; i++)
        if (bench_runnable(r, i, op, k) &&
            open_slot(r, &sl[n], i, op, k, si, key, iv) == 0)
            n++;
    for (unsigned sw = 0; n > 0 && sweep(r, sl, n, sw) > 0; sw++)
        ;
    for (size_t x = 0; x < n; x++) {
        finish_slot(r, &sl[x]);
        sl[x].w.impl->release(sl[x].w.ctx);
    }
    free(sl);
    sample_clock(&r->clock);
}

int bench_measure(struct bench_run *r)
{
    size_t total = 0, done;
    double t0 = mono_seconds(), tot0, st0, tot1, st1;
    unsigned errors = r->run_errors;
    int have_stat = cpu_times(&tot0, &st0);

    for (int op = 0; op < OP_COUNT; op++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if ((r->cfg.ops >> op & 1) && (r->cfg.keys >> k & 1))
                total += bench_op_nsizes(r, (enum bench_op)op);
    sample_clock(&r->clock);
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
    sample_clock(&r->clock);
    r->seconds = mono_seconds() - t0;
    if (have_stat && cpu_times(&tot1, &st1) && tot1 > tot0)
        r->steal = (st1 - st0) / (tot1 - tot0);
    return r->run_errors == errors ? 0 : -1;
}

/* ------------------------------------------------------------------
 * Key setups per second
 * ---------------------------------------------------------------- */

/* keysetup_op -- an op of impl i that needs the direction asked for and
 * is not dropped; -1 when none. */
static int keysetup_op(const struct bench_run *r, size_t i, unsigned k,
                       int decrypt)
{
    static const enum bench_op enc[] = {OP_ECB_ENC, OP_CTR, OP_CBC_ENC,
                                        OP_CFB128_ENC, OP_OFB};
    static const enum bench_op dec[] = {OP_ECB_DEC, OP_CBC_DEC};
    const struct bench_impl_state *s = &r->impls[i];
    const enum bench_op *list = decrypt ? dec : enc;
    size_t n = decrypt ? 2 : 5;

    for (size_t j = 0; j < n; j++)
        if ((s->claimed[k] >> list[j] & 1) && !(s->dropped >> list[j] & 1) &&
            op_decrypts(list[j]) == decrypt)
            return (int)list[j];
    return -1;
}

/*
 * Key setups are short calls (tens of nanoseconds) and this kind of
 * machine (shared, two vCPUs) changes speed for seconds at a time when a
 * neighbour loads the core: timed one after the other, two impls can
 * land in different phases and their ratio swing by 30%. So the impls
 * are timed in turns, one round (~0.5 ms) each, KS_ROUNDS times; each
 * impl's figure is its median round, and the best over passes is kept.
 */
#define KS_ROUNDS 15

struct ks_cell {
    struct work w;
    uint64_t iters;
    double v[KS_ROUNDS];
    unsigned n;
};

/* ks_prepare -- the work and iteration count of impl i for key k and a
 * direction; 0 when it has no op for it or its key setup failed. */
static int ks_prepare(struct bench_run *r, size_t i, unsigned k, int decrypt,
                      const uint8_t *keyiv, struct ks_cell *c)
{
    struct bench_impl_state *s = &r->impls[i];
    int op = keysetup_op(r, i, k, decrypt);

    memset(c, 0, sizeof(*c));
    if (op < 0)
        return 0;
    c->w.impl = s->impl;
    c->w.op = (enum bench_op)op;
    c->w.key = keyiv;
    c->w.bits = bench_key_bits(k);
    c->w.keysetup = 1;
    c->w.via_setup = s->impl->keysetup == NULL;
    c->iters = calibrate(&c->w, 0.5e-3 * r->clock.tick_hz);
    if (c->iters == 0) {
        bench_note(r, "%s AES-%u: key setup failed", s->impl->name, c->w.bits);
        return 0;
    }
    return 1;
}

/* ks_record -- impl i's median round, kept if faster than an earlier
 * pass's. */
static void ks_record(struct bench_run *r, size_t i, unsigned k, int decrypt,
                      struct ks_cell *c)
{
    struct bench_keysetup *ks = &r->impls[i].ks[k][decrypt];
    double ns;

    if (c->n == 0)
        return;
    qsort(c->v, c->n, sizeof(c->v[0]), cmp_double);
    ns = c->v[(c->n - 1) / 2] / r->clock.tick_hz * 1e9;
    if (ks->valid && ks->ns <= ns)
        return; /* an earlier pass was faster */
    ks->valid = 1;
    ks->via_setup = c->w.via_setup;
    ks->ns = ns;
    ks->per_sec = 1e9 / ns;
}

static void keysetup_all(struct bench_run *r, unsigned k, int decrypt,
                         const uint8_t *keyiv)
{
    static struct ks_cell cell[BENCH_MAX_IMPLS];
    int live[BENCH_MAX_IMPLS];

    for (size_t i = 0; i < r->nimpls; i++)
        live[i] =
            r->impls[i].usable && ks_prepare(r, i, k, decrypt, keyiv, &cell[i]);
    for (unsigned round = 0, tries = 0;
         round < KS_ROUNDS && tries < 3 * KS_ROUNDS; tries++) {
        int switched = 0;
        for (size_t i = 0; i < r->nimpls; i++) {
            struct sample smp;
            if (!live[i])
                continue;
            if (time_round(&cell[i].w, cell[i].iters, &smp) != 0) {
                live[i] = 0;
                cell[i].n = 0;
                continue;
            }
            cell[i].v[round] = smp.tpi;
            switched |= smp.switched;
        }
        /* a round in which any impl was preempted is done again (unless
         * the machine never lets one through) */
        if (!switched || tries >= 2 * KS_ROUNDS) {
            round++;
            for (size_t i = 0; i < r->nimpls; i++)
                cell[i].n = live[i] ? round : 0;
        }
    }
    for (size_t i = 0; i < r->nimpls; i++)
        if (live[i])
            ks_record(r, i, k, decrypt, &cell[i]);
}

void bench_measure_keysetup(struct bench_run *r)
{
    uint8_t keyiv[48];

    rng_fill(&r->rng, keyiv, sizeof(keyiv));
    for (unsigned pass = 0; pass < r->cfg.passes; pass++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if (r->cfg.keys >> k & 1)
                for (int d = 0; d < 2; d++)
                    keysetup_all(r, k, d, keyiv);
}

/* ------------------------------------------------------------------
 * Figures
 * ---------------------------------------------------------------- */

double bench_cell_ns(const struct bench_run *r, const struct bench_cell *c)
{
    return c->ticks / r->clock.tick_hz * 1e9;
}

/* Bytes of one run() of the cell. */
static double cell_bytes(const struct bench_cell *c, size_t size)
{
    return (double)size * (c->msgs > 1 ? c->msgs : 1);
}

double bench_cell_gbps(const struct bench_run *r, const struct bench_cell *c,
                       size_t size)
{
    return cell_bytes(c, size) / bench_cell_ns(r, c);
}

double bench_cell_cpb_tsc(const struct bench_run *r, const struct bench_cell *c,
                          size_t size)
{
    return r->clock.has_tsc ? c->ticks / cell_bytes(c, size) : -1;
}

double bench_cell_cpb_core(const struct bench_cell *c, size_t size)
{
    return c->core > 0 ? c->core / cell_bytes(c, size) : -1;
}
