/*
 * limit.c -- the hardware bound for AES on the running CPU (see limit.h).
 *
 * Method. For an instruction I (aesenc, aesenclast, pclmulqdq at xmm, ymm
 * and zmm width) a kernel runs K independent dependency chains,
 *     x_k <- I(x_k, key)   for k = 0..K-1, repeated,
 * each chain in its own vector register, one more register holding the
 * round key. With K = 1 every instruction waits for the previous one, so
 * cycles per instruction is the latency; as K grows the rate rises until
 * the execution ports are busy every cycle, and then stays flat: that flat
 * rate is the throughput. The kernels are inline assembly (AT&T syntax,
 * accepted by gcc and clang) inside functions carrying per-function target
 * attributes, so one x86-64 binary holds all widths, the register use is
 * exactly as written (no spills at any K tried), and nothing can be folded
 * or dropped: the asm is volatile, loads its chains from memory and stores
 * them back, and the results are XORed into a volatile sink.
 *
 * Timing. Every trial is timed with rdtsc (lfence on both sides) and, when
 * the kernel lets us, with a user-mode PERF_COUNT_HW_CPU_CYCLES counter,
 * which gives core cycles directly. Otherwise (VMs without a virtual PMU,
 * perf_event_paranoid) the core clock is estimated around each instruction
 * sweep from a chain of dependent register adds -- one cycle of latency
 * each on every x86-64 core, and unlike "add reg, imm" not eliminated at
 * rename by any core we know of -- timed by rdtsc and CLOCK_MONOTONIC; a
 * chain of imul (3 cycles each) cross-checks it. A sweep whose clock moved
 * more than 5% between the estimates before and after it is run again (at
 * most three times; the steadiest is kept). Per chain count the best of
 * several trials is kept: preemption and interrupts only ever slow a trial
 * down.
 *
 * The GCM bound: one kernel per key size runs the instruction mix of 64
 * GCM blocks per iteration with 512-bit vectors (see gcm_kernel_<nr>:
 * AES rounds, aggregated Karatsuba GHASH multiplies and reductions, their
 * XORs and shuffles, all as independent streams), so its rate is the
 * throughput of that mix on this core; loads, stores and counters are
 * left out, so a real GCM can at best approach it.
 *
 * Everything here is benchmark code: no part of the library uses it.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* syscall(), clock_gettime() under -std=c11 */
#endif

#include "limit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LIMIT_X86 1
#include <cpuid.h>
#else
#define LIMIT_X86 0
#endif

#if LIMIT_X86 && defined(__linux__) && defined(__has_include)
#if __has_include(<linux/perf_event.h>)
#define LIMIT_PERF 1
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#endif
#ifndef LIMIT_PERF
#define LIMIT_PERF 0
#endif

/* ---- portable parts: clock, memcpy ------------------------------------ */

static double now_ns(void)
{
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * memcpy_gbps -- the same size bytes copied from one 64-byte aligned
 * buffer to another, over and over (32 MiB per round), median of 9 rounds
 * after one warm-up round; GB/s counts bytes copied (not read + written).
 * The call goes through a volatile pointer so that the compiler cannot
 * elide or inline it: this is the C library's memcpy. Returns -1 when the
 * buffers cannot be allocated.
 */
static double memcpy_gbps(size_t size)
{
    void *(*volatile copy)(void *, const void *, size_t) = memcpy;
    enum { ROUNDS = 9 };
    size_t reps = ((size_t)32 << 20) / size;
    double t[ROUNDS];
    uint8_t *src = aligned_alloc(64, size);
    uint8_t *dst = aligned_alloc(64, size);

    if (src == NULL || dst == NULL) {
        free(src);
        free(dst);
        return -1.0;
    }
    for (size_t i = 0; i < size; i++)
        src[i] = (uint8_t)(i * 131u + 7u);
    for (int r = -1; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (size_t i = 0; i < reps; i++)
            copy(dst, src, size);
        double t1 = now_ns();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    qsort(t, ROUNDS, sizeof t[0], cmp_double);
    free(src);
    free(dst);
    return (double)size * (double)reps / t[ROUNDS / 2];
}

static const char *arch_name(void)
{
#if defined(__x86_64__)
    return "x86-64";
#elif defined(__i386__)
    return "x86 (32-bit)";
#elif defined(__aarch64__)
    return "aarch64";
#elif defined(__arm__)
    return "arm";
#elif defined(__powerpc64__)
    return "ppc64";
#elif defined(__powerpc__)
    return "ppc";
#elif defined(__s390x__)
    return "s390x";
#elif defined(__riscv)
    return "riscv";
#elif defined(__wasm__)
    return "wasm";
#else
    return "unknown";
#endif
}

/* The instruction rows, named on every architecture. */
enum { KIND_ENC, KIND_LAST, KIND_CLMUL, KINDS };

static const char *const insn_names[KINDS][BENCH_LIMIT_WIDTHS] = {
    {"aesenc xmm", "vaesenc ymm", "vaesenc zmm"},
    {"aesenclast xmm", "vaesenclast ymm", "vaesenclast zmm"},
    {"pclmulqdq xmm", "vpclmulqdq ymm", "vpclmulqdq zmm"},
};

/* ---- x86-64: the kernels ---------------------------------------------- */
#if LIMIT_X86

static const int chain_counts[BENCH_LIMIT_MAX_TRIES] = {
    1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24};

/* CHk(I) expands to I(0) I(1) ... I(k-1): one instruction per chain. */
#define CH1(I) I(0)
#define CH2(I) CH1(I) I(1)
#define CH3(I) CH2(I) I(2)
#define CH4(I) CH3(I) I(3)
#define CH5(I) CH4(I) I(4)
#define CH6(I) CH5(I) I(5)
#define CH7(I) CH6(I) I(6)
#define CH8(I) CH7(I) I(7)
#define CH9(I) CH8(I) I(8)
#define CH10(I) CH9(I) I(9)
#define CH11(I) CH10(I) I(10)
#define CH12(I) CH11(I) I(11)
#define CH13(I) CH12(I) I(12)
#define CH14(I) CH13(I) I(13)
#define CH15(I) CH14(I) I(14)
#define CH16(I) CH15(I) I(15)
#define CH17(I) CH16(I) I(16)
#define CH18(I) CH17(I) I(17)
#define CH19(I) CH18(I) I(18)
#define CH20(I) CH19(I) I(19)
#define CH21(I) CH20(I) I(20)
#define CH22(I) CH21(I) I(21)
#define CH23(I) CH22(I) I(22)
#define CH24(I) CH23(I) I(23)
/* Each loop iteration runs every chain DEPTH times (an assembler .rept,
 * which keeps every string literal under the 4095 characters ISO C
 * promises), so that the loop branch is at most one uop in DEPTH+1 even
 * with one chain. */
#define DEPTH 8
#define STR_(x) #x
#define STR(x) STR_(x)

/* Operand %1: the chains' state in memory; %2: the key; %0: the count. */
#define X_LD(n) "movdqu " #n "*16(%1), %%xmm" #n "\n\t"
#define X_ST(n) "movdqu %%xmm" #n ", " #n "*16(%1)\n\t"
#define X_KEY "movdqu (%2), %%xmm15\n\t"
#define X_ENC(n) "aesenc %%xmm15, %%xmm" #n "\n\t"
#define X_LAST(n) "aesenclast %%xmm15, %%xmm" #n "\n\t"
#define X_CLMUL(n) "pclmulqdq $0, %%xmm15, %%xmm" #n "\n\t"

#define Y_LD(n) "vmovdqu " #n "*32(%1), %%ymm" #n "\n\t"
#define Y_ST(n) "vmovdqu %%ymm" #n ", " #n "*32(%1)\n\t"
#define Y_KEY "vmovdqu (%2), %%ymm15\n\t"
#define Y_ENC(n) "vaesenc %%ymm15, %%ymm" #n ", %%ymm" #n "\n\t"
#define Y_LAST(n) "vaesenclast %%ymm15, %%ymm" #n ", %%ymm" #n "\n\t"
#define Y_CLMUL(n) "vpclmulqdq $0, %%ymm15, %%ymm" #n ", %%ymm" #n "\n\t"

#define Z_LD(n) "vmovdqu64 " #n "*64(%1), %%zmm" #n "\n\t"
#define Z_ST(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%1)\n\t"
#define Z_KEY "vmovdqu64 (%2), %%zmm24\n\t"
#define Z_ENC(n) "vaesenc %%zmm24, %%zmm" #n ", %%zmm" #n "\n\t"
#define Z_LAST(n) "vaesenclast %%zmm24, %%zmm" #n ", %%zmm" #n "\n\t"
#define Z_CLMUL(n) "vpclmulqdq $0, %%zmm24, %%zmm" #n ", %%zmm" #n "\n\t"

#define X_CLOB                                                                 \
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",    \
        "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
#define Z_CLOB                                                                 \
    X_CLOB, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",     \
        "xmm23", "xmm24"

typedef void (*kernel_fn)(uint8_t *st, const uint8_t *key, uint64_t iters);

/* One kernel: K chains of OP, iters loop iterations of K * DEPTH
 * instructions. TAIL clears the upper vector state after ymm/zmm so that
 * later SSE code pays no transition penalty. */
/* clang-format off */
#define KFN(name, tgt, K, OP, LD, ST, KEY, TAIL, ...)                          \
    __attribute__((target(tgt), noinline)) static void name(                   \
        uint8_t *st, const uint8_t *key, uint64_t iters)                       \
    {                                                                          \
        __asm__ volatile(KEY CH##K(LD)                                         \
                         ".p2align 5\n"                                        \
                         "1:\n\t"                                              \
                         ".rept " STR(DEPTH) "\n\t" CH##K(OP) ".endr\n\t"    \
                         "dec %0\n\t"                                          \
                         "jnz 1b\n\t"                                          \
                         CH##K(ST) TAIL                                        \
                         : "+r"(iters)                                         \
                         : "r"(st), "r"(key)                                   \
                         : "memory", "cc", __VA_ARGS__);                       \
    }
/* clang-format on */

/* Chain counts 1..14 (xmm, ymm: 16 registers) and 16..24 (zmm: 32). */
#define KSET14(p, tgt, OP, LD, ST, KEY, TAIL, ...)                             \
    KFN(p##_1, tgt, 1, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                     \
    KFN(p##_2, tgt, 2, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                     \
    KFN(p##_3, tgt, 3, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                     \
    KFN(p##_4, tgt, 4, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                     \
    KFN(p##_5, tgt, 5, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                     \
    KFN(p##_6, tgt, 6, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                     \
    KFN(p##_8, tgt, 8, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                     \
    KFN(p##_10, tgt, 10, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                   \
    KFN(p##_12, tgt, 12, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                   \
    KFN(p##_14, tgt, 14, OP, LD, ST, KEY, TAIL, __VA_ARGS__)
#define KSET24(p, tgt, OP, LD, ST, KEY, TAIL, ...)                             \
    KSET14(p, tgt, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                         \
    KFN(p##_16, tgt, 16, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                   \
    KFN(p##_20, tgt, 20, OP, LD, ST, KEY, TAIL, __VA_ARGS__)                   \
    KFN(p##_24, tgt, 24, OP, LD, ST, KEY, TAIL, __VA_ARGS__)
#define KTAB14(p)                                                              \
    {                                                                          \
        p##_1, p##_2, p##_3, p##_4, p##_5, p##_6, p##_8, p##_10, p##_12,       \
            p##_14, NULL, NULL, NULL                                           \
    }
#define KTAB24(p)                                                              \
    {                                                                          \
        p##_1, p##_2, p##_3, p##_4, p##_5, p##_6, p##_8, p##_10, p##_12,       \
            p##_14, p##_16, p##_20, p##_24                                     \
    }

#define VZ "vzeroupper\n\t"
KSET14(k_enc_x, "aes,sse4.1", X_ENC, X_LD, X_ST, X_KEY, "", X_CLOB)
KSET14(k_last_x, "aes,sse4.1", X_LAST, X_LD, X_ST, X_KEY, "", X_CLOB)
KSET14(k_clmul_x, "pclmul,sse4.1", X_CLMUL, X_LD, X_ST, X_KEY, "", X_CLOB)
KSET14(k_enc_y, "vaes,avx2", Y_ENC, Y_LD, Y_ST, Y_KEY, VZ, X_CLOB)
KSET14(k_last_y, "vaes,avx2", Y_LAST, Y_LD, Y_ST, Y_KEY, VZ, X_CLOB)
KSET14(k_clmul_y, "vpclmulqdq,avx2", Y_CLMUL, Y_LD, Y_ST, Y_KEY, VZ, X_CLOB)
KSET24(k_enc_z, "vaes,avx512f", Z_ENC, Z_LD, Z_ST, Z_KEY, VZ, Z_CLOB)
KSET24(k_last_z, "vaes,avx512f", Z_LAST, Z_LD, Z_ST, Z_KEY, VZ, Z_CLOB)
KSET24(k_clmul_z, "vpclmulqdq,avx512f", Z_CLMUL, Z_LD, Z_ST, Z_KEY, VZ, Z_CLOB)

static const kernel_fn
    kernels[KINDS][BENCH_LIMIT_WIDTHS][BENCH_LIMIT_MAX_TRIES] = {
        {KTAB14(k_enc_x), KTAB14(k_enc_y), KTAB24(k_enc_z)},
        {KTAB14(k_last_x), KTAB14(k_last_y), KTAB24(k_last_z)},
        {KTAB14(k_clmul_x), KTAB14(k_clmul_y), KTAB24(k_clmul_z)},
};

/*
 * The GCM bound's kernel: the instruction mix of 64 GCM blocks (16 zmm
 * vectors of 4 blocks) per loop iteration, as a fused AES-CTR + GHASH
 * kernel with 512-bit vectors must execute it at the least (counter
 * generation, byte swaps, loads and stores not counted):
 *
 *   AES      per vector: 1 vpxorq (round-0 key), NR-1 vaesenc, 1 vaesenclast,
 *            1 vpxorq (data into the last round key, XORed by vaesenclast)
 *   GHASH    aggregated over 16 blocks (4 vectors), one reduction each:
 *            Karatsuba, 3 vpclmulqdq per vector + 2 for the reduction = 14;
 *            simple vector ops: 4 vpshufd + 4 vpxorq (hi ^ lo of the data),
 *            6 vpternlogd (sums of LO, MI, HI), 1 (middle fix-up), 4
 *            (reduction: 2 shuffles, 2 XORs), 4 (4 lanes folded to 1), 1
 *            (the running hash into the first block) = 24
 *
 * i.e. per 64 blocks 16(NR+1) AES instructions, 32 vpxorq for AES, 56
 * vpclmulqdq and 96 simple GHASH ops (as 32 groups of vpshufd, vpxorq,
 * vpternlogd). The 16 AES chains (zmm0-15) are independent, as are the
 * GHASH ops (fixed sources, their own destinations), so the loop runs at
 * the machine's throughput for the mix, not at any latency; the GHASH ops
 * are spread evenly over the rounds, as a real kernel interleaves them.
 * Registers: zmm16 round key, zmm17 data, zmm18-19 GHASH sources (hash-key
 * powers, data), zmm20-23 product destinations, zmm24-31 the others.
 */
#define G_ENC16                                                                \
    "vaesenc %%zmm16, %%zmm0, %%zmm0\n\tvaesenc %%zmm16, %%zmm1, %%zmm1\n\t"   \
    "vaesenc %%zmm16, %%zmm2, %%zmm2\n\tvaesenc %%zmm16, %%zmm3, %%zmm3\n\t"   \
    "vaesenc %%zmm16, %%zmm4, %%zmm4\n\tvaesenc %%zmm16, %%zmm5, %%zmm5\n\t"   \
    "vaesenc %%zmm16, %%zmm6, %%zmm6\n\tvaesenc %%zmm16, %%zmm7, %%zmm7\n\t"   \
    "vaesenc %%zmm16, %%zmm8, %%zmm8\n\tvaesenc %%zmm16, %%zmm9, %%zmm9\n\t"   \
    "vaesenc %%zmm16, %%zmm10, %%zmm10\n\tvaesenc %%zmm16, %%zmm11, "          \
    "%%zmm11\n\t"                                                              \
    "vaesenc %%zmm16, %%zmm12, %%zmm12\n\tvaesenc %%zmm16, %%zmm13, "          \
    "%%zmm13\n\t"                                                              \
    "vaesenc %%zmm16, %%zmm14, %%zmm14\n\tvaesenc %%zmm16, %%zmm15, "          \
    "%%zmm15\n\t"
#define G_LAST16                                                               \
    "vaesenclast %%zmm24, %%zmm0, %%zmm0\n\t"                                  \
    "vaesenclast %%zmm25, %%zmm1, %%zmm1\n\t"                                  \
    "vaesenclast %%zmm24, %%zmm2, %%zmm2\n\t"                                  \
    "vaesenclast %%zmm25, %%zmm3, %%zmm3\n\t"                                  \
    "vaesenclast %%zmm24, %%zmm4, %%zmm4\n\t"                                  \
    "vaesenclast %%zmm25, %%zmm5, %%zmm5\n\t"                                  \
    "vaesenclast %%zmm24, %%zmm6, %%zmm6\n\t"                                  \
    "vaesenclast %%zmm25, %%zmm7, %%zmm7\n\t"                                  \
    "vaesenclast %%zmm24, %%zmm8, %%zmm8\n\t"                                  \
    "vaesenclast %%zmm25, %%zmm9, %%zmm9\n\t"                                  \
    "vaesenclast %%zmm24, %%zmm10, %%zmm10\n\t"                                \
    "vaesenclast %%zmm25, %%zmm11, %%zmm11\n\t"                                \
    "vaesenclast %%zmm24, %%zmm12, %%zmm12\n\t"                                \
    "vaesenclast %%zmm25, %%zmm13, %%zmm13\n\t"                                \
    "vaesenclast %%zmm24, %%zmm14, %%zmm14\n\t"                                \
    "vaesenclast %%zmm25, %%zmm15, %%zmm15\n\t"
/* round-0 key into every chain; and the data into the last round key
 * (16 vpxorq each) */
#define G_WHITEN16                                                             \
    "vpxorq %%zmm16, %%zmm0, %%zmm0\n\tvpxorq %%zmm16, %%zmm1, %%zmm1\n\t"     \
    "vpxorq %%zmm16, %%zmm2, %%zmm2\n\tvpxorq %%zmm16, %%zmm3, %%zmm3\n\t"     \
    "vpxorq %%zmm16, %%zmm4, %%zmm4\n\tvpxorq %%zmm16, %%zmm5, %%zmm5\n\t"     \
    "vpxorq %%zmm16, %%zmm6, %%zmm6\n\tvpxorq %%zmm16, %%zmm7, %%zmm7\n\t"     \
    "vpxorq %%zmm16, %%zmm8, %%zmm8\n\tvpxorq %%zmm16, %%zmm9, %%zmm9\n\t"     \
    "vpxorq %%zmm16, %%zmm10, %%zmm10\n\tvpxorq %%zmm16, %%zmm11, %%zmm11\n\t" \
    "vpxorq %%zmm16, %%zmm12, %%zmm12\n\tvpxorq %%zmm16, %%zmm13, %%zmm13\n\t" \
    "vpxorq %%zmm16, %%zmm14, %%zmm14\n\tvpxorq %%zmm16, %%zmm15, %%zmm15\n\t"
#define G_DATAKEY16                                                            \
    ".rept 8\n\tvpxorq %%zmm17, %%zmm16, %%zmm24\n\t"                          \
    "vpxorq %%zmm17, %%zmm16, %%zmm25\n\t.endr\n\t"
/* one carry-less multiply, one group of three simple GHASH ops */
#define G_CLMUL "vpclmulqdq $0x01, %%zmm18, %%zmm19, %%zmm20\n\t"
#define G_SIMPLE3                                                              \
    "vpshufd $0x4e, %%zmm19, %%zmm21\n\t"                                      \
    "vpxorq %%zmm18, %%zmm19, %%zmm22\n\t"                                     \
    "vpternlogd $0x96, %%zmm18, %%zmm19, %%zmm26\n\t"

/* gcm_kernel_<nr>: NR-1 rounds, each with its share of the GHASH ops; the
 * remainder after the last round. */
/* clang-format off */
#define GCM_KFN(name, NR)                                                      \
    __attribute__((target("vaes,vpclmulqdq,avx512f"), noinline)) static void   \
    name(uint8_t *st, const uint8_t *key, uint64_t iters)                      \
    {                                                                          \
        __asm__ volatile(                                                      \
            "vmovdqu64 (%2), %%zmm16\n\t"                                      \
            "vmovdqu64 64(%2), %%zmm17\n\t"                                    \
            "vmovdqu64 128(%2), %%zmm18\n\t"                                   \
            "vmovdqu64 192(%2), %%zmm19\n\t"                                   \
            CH16(Z_LD)                                                         \
            ".p2align 5\n"                                                     \
            "1:\n\t"                                                           \
            G_WHITEN16 G_DATAKEY16                                             \
            ".rept " #NR " - 1\n\t" G_ENC16                                    \
            ".rept 56 / (" #NR " - 1)\n\t" G_CLMUL ".endr\n\t"                 \
            ".rept 32 / (" #NR " - 1)\n\t" G_SIMPLE3 ".endr\n\t"               \
            ".endr\n\t"                                                        \
            ".rept 56 - 56 / (" #NR " - 1) * (" #NR " - 1)\n\t" G_CLMUL        \
            ".endr\n\t"                                                        \
            ".rept 32 - 32 / (" #NR " - 1) * (" #NR " - 1)\n\t" G_SIMPLE3      \
            ".endr\n\t"                                                        \
            G_LAST16                                                           \
            "dec %0\n\t"                                                       \
            "jnz 1b\n\t"                                                       \
            CH16(Z_ST) VZ                                                      \
            : "+r"(iters)                                                      \
            : "r"(st), "r"(key)                                                \
            : "memory", "cc", Z_CLOB, "xmm25", "xmm26", "xmm27", "xmm28",      \
              "xmm29", "xmm30", "xmm31");                                      \
    }
/* clang-format on */
GCM_KFN(gcm_kernel_10, 10)
GCM_KFN(gcm_kernel_12, 12)
GCM_KFN(gcm_kernel_14, 14)

/* ---- x86-64: CPU features, TSC, perf ---------------------------------- */

/* present[kind == KIND_CLMUL][width]: CPUID says the CPU has it and XCR0
 * says the OS saves the registers it needs. */
static void cpu_features(int present[2][BENCH_LIMIT_WIDTHS])
{
    unsigned a, b, c, d, c1 = 0, b7 = 0, c7 = 0;
    uint64_t xcr0 = 0;

    memset(present, 0, 2 * BENCH_LIMIT_WIDTHS * sizeof(int));
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    c1 = c;
    if (__get_cpuid_max(0, NULL) >= 7 &&
        __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        b7 = b;
        c7 = c;
    }
    if (c1 & (1u << 27)) { /* OSXSAVE: xgetbv is allowed */
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((uint64_t)hi << 32) | lo;
    }
    int sse41 = (c1 >> 19) & 1;
    int avx_os = (xcr0 & 0x6) == 0x6 && ((c1 >> 28) & 1); /* XMM|YMM */
    int avx2 = avx_os && ((b7 >> 5) & 1);
    int avx512 = avx2 && (xcr0 & 0xe6) == 0xe6 && ((b7 >> 16) & 1);
    int vaes = (c7 >> 9) & 1, vpclmul = (c7 >> 10) & 1;

    present[0][BENCH_LIMIT_XMM] = sse41 && ((c1 >> 25) & 1); /* AES-NI */
    present[1][BENCH_LIMIT_XMM] = sse41 && ((c1 >> 1) & 1);  /* PCLMUL */
    present[0][BENCH_LIMIT_YMM] = avx2 && vaes;
    present[1][BENCH_LIMIT_YMM] = avx2 && vpclmul;
    present[0][BENCH_LIMIT_ZMM] = avx512 && vaes;
    present[1][BENCH_LIMIT_ZMM] = avx512 && vpclmul;
}

/* lfence on both sides keeps the timed work from leaking out of the
 * interval (rdtsc is not ordered by itself). */
static inline uint64_t rdtsc_fenced(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc\n\tlfence"
                     : "=a"(lo), "=d"(hi)
                     :
                     : "memory");
    return ((uint64_t)hi << 32) | lo;
}

struct ctx {
    int perf_fd; /* -1: no hardware cycle counter */
    int verbose;
    double ghz_sum, ghz_min, ghz_max;
    int ghz_n;
    volatile uint64_t sink;
    uint8_t state[24 * 64];
    uint8_t key[64];
    _Alignas(64) uint8_t gcm_in[4 * 64]; /* the GCM kernel's constants */
};

static uint64_t perf_cycles(const struct ctx *c)
{
#if LIMIT_PERF
    uint64_t v = 0;
    if (c->perf_fd >= 0 && read(c->perf_fd, &v, sizeof v) == (ssize_t)sizeof v)
        return v;
#else
    (void)c;
#endif
    return 0;
}

static int perf_open(void)
{
#if LIMIT_PERF
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_CPU_CYCLES;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0L);
    return fd >= 0 ? (int)fd : -1;
#else
    return -1;
#endif
}

static void perf_close(struct ctx *c)
{
#if LIMIT_PERF
    if (c->perf_fd >= 0)
        close(c->perf_fd);
#endif
    c->perf_fd = -1;
}

/* A chain of dependent register adds: 64 per loop iteration, one cycle
 * each; the loop counter is a second, independent chain. */
static void add_chain(struct ctx *c, uint64_t iters)
{
    uint64_t acc = c->sink, inc = 3;
#define ADD "add %2, %1\n\t"
#define ADD8 ADD ADD ADD ADD ADD ADD ADD ADD
    __asm__ volatile(".p2align 5\n"
                     "1:\n\t" ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
                     "dec %0\n\tjnz 1b"
                     : "+r"(iters), "+r"(acc)
                     : "r"(inc)
                     : "cc");
#undef ADD8
#undef ADD
    c->sink ^= acc;
}

/* The same with imul (3 cycles each on current x86-64 cores), 32 per
 * loop iteration: a cross-check of the add chain. */
static void imul_chain(struct ctx *c, uint64_t iters)
{
    uint64_t acc = c->sink | 1, mul = 0x9e3779b97f4a7c15u;
#define MUL "imul %2, %1\n\t"
#define MUL8 MUL MUL MUL MUL MUL MUL MUL MUL
    __asm__ volatile(".p2align 5\n"
                     "1:\n\t" MUL8 MUL8 MUL8 MUL8 "dec %0\n\tjnz 1b"
                     : "+r"(iters), "+r"(acc)
                     : "r"(mul)
                     : "cc");
#undef MUL8
#undef MUL
    c->sink ^= acc;
}

/* One clock estimate: GHz of the core and core cycles per TSC tick. */
struct clk {
    double ghz, per_tick;
};

/*
 * clock_estimate -- the fastest of 11 runs of the add chain (imul when
 * check), about 0.1 ms each at 3 GHz: short, so that some runs escape
 * interrupts and preemption even on a busy core. A run can only look
 * slower than the clock, never faster. With a hardware
 * counter the cycles are counted, not inferred from the chain. Only the
 * add chain feeds the clock range.
 */
static struct clk clock_estimate(struct ctx *c, int check)
{
    const uint64_t iters = check ? 1u << 11 : 1u << 12;
    const double chain_cycles =
        check ? 3.0 * 32 * (double)iters : 64.0 * (double)iters;
    struct clk best = {0, 0};

    for (int r = 0; r < 11; r++) {
        double t0 = now_ns();
        uint64_t s0 = rdtsc_fenced(), p0 = perf_cycles(c);
        if (check)
            imul_chain(c, iters);
        else
            add_chain(c, iters);
        uint64_t p1 = perf_cycles(c), s1 = rdtsc_fenced();
        double t1 = now_ns();
        double cyc =
            c->perf_fd >= 0 && !check ? (double)(p1 - p0) : chain_cycles;
        struct clk e = {cyc / (t1 - t0), cyc / (double)(s1 - s0)};
        if (e.ghz > best.ghz)
            best = e;
    }
    if (!check) {
        c->ghz_sum += best.ghz;
        c->ghz_n++;
        if (c->ghz_min == 0 || best.ghz < c->ghz_min)
            c->ghz_min = best.ghz;
        if (best.ghz > c->ghz_max)
            c->ghz_max = best.ghz;
    }
    return best;
}

/* Instructions per trial: about 0.2-0.6 ms; 1 warm-up + 9 timed trials. */
#define TRIAL_INSNS (1u << 19)
#define TRIALS 9

/*
 * sweep -- one instruction at one width: the rate at every chain count,
 * the clock estimated before and after. Returns the clock drift over the
 * sweep (|after - before| / before).
 */
static double sweep(struct ctx *c, struct bench_limit_width *w,
                    const kernel_fn *fns)
{
    double tick_rate[BENCH_LIMIT_MAX_TRIES] = {0};
    struct clk before = clock_estimate(c, 0);

    w->tried = 0;
    for (int i = 0; i < BENCH_LIMIT_MAX_TRIES && fns[i] != NULL; i++) {
        const int k = chain_counts[i];
        const uint64_t iters = TRIAL_INSNS / ((unsigned)k * DEPTH) + 1;
        const double insns = (double)iters * k * DEPTH;
        uint64_t best_ticks = UINT64_MAX, best_cyc = UINT64_MAX;

        for (int t = -1; t < TRIALS; t++) {
            uint64_t s0 = rdtsc_fenced(), p0 = perf_cycles(c);
            fns[i](c->state, c->key, iters);
            uint64_t p1 = perf_cycles(c), s1 = rdtsc_fenced();
            if (t < 0)
                continue; /* warm-up: caches, uop cache, wake-up */
            if (s1 - s0 < best_ticks)
                best_ticks = s1 - s0;
            if (p1 - p0 < best_cyc)
                best_cyc = p1 - p0;
        }
        w->chains[i] = k;
        tick_rate[i] = insns / (double)best_ticks;
        /* 0: convert from TSC ticks once the clock is known, below */
        w->rate[i] = c->perf_fd >= 0 && best_cyc > 0 && best_cyc != UINT64_MAX
                         ? insns / (double)best_cyc
                         : 0;
        w->tried = i + 1;
    }
    struct clk after = clock_estimate(c, 0);
    double per_tick = (before.per_tick + after.per_tick) / 2;

    double best = 0, best_tick = 0;
    for (int i = 0; i < w->tried; i++) {
        if (w->rate[i] == 0)
            w->rate[i] = tick_rate[i] / per_tick;
        if (w->rate[i] > best) {
            best = w->rate[i];
            best_tick = tick_rate[i];
        }
    }
    int sat = 0;
    while (sat < w->tried - 1 && w->rate[sat] < 0.97 * best)
        sat++;
    w->rounds_per_cycle = best;
    w->rounds_per_tsc_cycle = best_tick;
    w->blocks_per_cycle = best * w->lanes;
    w->latency_cycles = w->rate[0] > 0 ? 1.0 / w->rate[0] : 0;
    w->saturating_chains = w->chains[sat];
    w->saturated = sat < w->tried - 1;

    for (int i = 0; c->verbose && i < w->tried; i++)
        fprintf(stderr, "limit: %-16s K=%-2d %6.3f /cycle  %6.3f /TSC cycle\n",
                w->insn, w->chains[i], w->rate[i], tick_rate[i]);
    double drift = after.ghz > before.ghz ? after.ghz / before.ghz - 1
                                          : before.ghz / after.ghz - 1;
    if (c->verbose)
        fprintf(stderr,
                "limit: %-16s best %.3f/cycle at K>=%d%s; clock %.3f -> "
                "%.3f GHz (%.1f%% drift)\n",
                w->insn, best, w->saturating_chains,
                w->saturated ? "" : " (NOT saturated)", before.ghz, after.ghz,
                100 * drift);
    return drift;
}

/* Runs sweep() until the clock held within 5% (at most 3 times) and
 * keeps the steadiest run. */
static void measure(struct ctx *c, struct bench_limit_width *w,
                    const kernel_fn *fns)
{
    struct bench_limit_width keep = *w;
    double keep_drift = 1e9;

    for (int attempt = 0; attempt < 3; attempt++) {
        struct bench_limit_width cur = *w;
        double drift = sweep(c, &cur, fns);
        if (drift < keep_drift) {
            keep = cur;
            keep_drift = drift;
        }
        if (c->perf_fd >= 0 || drift <= 0.05)
            break;
    }
    *w = keep;
    for (size_t i = 0; i < sizeof c->state; i += 8) {
        uint64_t v;
        memcpy(&v, c->state + i, 8);
        c->sink ^= v;
    }
}

/* Loop iterations (64 blocks each) per GCM trial: ~0.1-0.3 ms. */
#define GCM_ITERS 2048

/*
 * measure_gcm -- the GCM mix (gcm_kernel_<nr>) for each key size: the
 * fastest of TRIALS trials after a warm-up, in core cycles per iteration
 * (from perf, or from TSC ticks and the clock estimated around it).
 */
static void measure_gcm(struct ctx *c, struct bench_limit *l)
{
    static const kernel_fn fns[BENCH_LIMIT_KEYS] = {
        gcm_kernel_10, gcm_kernel_12, gcm_kernel_14};

    for (size_t i = 0; i < sizeof c->gcm_in; i++)
        c->gcm_in[i] = (uint8_t)(i * 41u + 3u);
    for (int k = 0; k < BENCH_LIMIT_KEYS; k++) {
        struct clk before = clock_estimate(c, 0), after;
        uint64_t best_ticks = UINT64_MAX, best_cyc = UINT64_MAX;

        for (int t = -1; t < TRIALS; t++) {
            uint64_t s0 = rdtsc_fenced(), p0 = perf_cycles(c);
            fns[k](c->state, c->gcm_in, GCM_ITERS);
            uint64_t p1 = perf_cycles(c), s1 = rdtsc_fenced();
            if (t < 0)
                continue;
            if (s1 - s0 < best_ticks)
                best_ticks = s1 - s0;
            if (p1 - p0 < best_cyc)
                best_cyc = p1 - p0;
        }
        after = clock_estimate(c, 0);
        double cyc =
            c->perf_fd >= 0 && best_cyc > 0 && best_cyc != UINT64_MAX
                ? (double)best_cyc
                : (double)best_ticks * (before.per_tick + after.per_tick) / 2;
        l->gcm_iter_cycles[k] = cyc / GCM_ITERS;
        l->gcm_bound_cpb[k] = cyc / GCM_ITERS / (64 * 16);
        l->gcm_bound_tsc_cpb[k] = (double)best_ticks / GCM_ITERS / (64 * 16);
        if (c->verbose)
            fprintf(stderr,
                    "limit: GCM mix AES-%d: %.1f cycles per 64 blocks, "
                    "%.4f c/B\n",
                    128 + 64 * k, l->gcm_iter_cycles[k], l->gcm_bound_cpb[k]);
    }
    l->gcm_measured = 1;
}

static void measure_x86(struct bench_limit *l, int verbose)
{
    struct bench_limit_width *rows[KINDS] = {l->aes, l->aes_last, l->clmul};
    int present[2][BENCH_LIMIT_WIDTHS];
    struct ctx c;

    memset(&c, 0, sizeof c);
    c.verbose = verbose;
    for (size_t i = 0; i < sizeof c.state; i++)
        c.state[i] = (uint8_t)(i * 29u + 1u);
    for (size_t i = 0; i < sizeof c.key; i++)
        c.key[i] = (uint8_t)(i * 73u + 5u);
    cpu_features(present);
    for (int k = 0; k < KINDS; k++)
        for (int w = 0; w < BENCH_LIMIT_WIDTHS; w++) {
            rows[k][w].present = present[k == KIND_CLMUL][w];
        }

    /* Warm-up: about 20 ms of adds, so the core leaves its idle clock. */
    c.perf_fd = -1;
    add_chain(&c, 1u << 20);

    /* A counter that does not count one cycle per dependent add is not
     * counting this core's cycles (some VMs): do without it. */
    c.perf_fd = perf_open();
    if (c.perf_fd >= 0) {
        uint64_t p0 = perf_cycles(&c);
        add_chain(&c, 1u << 14);
        double per_add = (double)(perf_cycles(&c) - p0) / (64.0 * (1u << 14));
        if (per_add < 0.9 || per_add > 1.2) {
            if (verbose)
                fprintf(stderr,
                        "limit: perf counts %.2f cycles per add; "
                        "not used\n",
                        per_add);
            perf_close(&c);
        }
    }
    l->cycle_source =
        c.perf_fd >= 0
            ? "perf_event_open (PERF_COUNT_HW_CPU_CYCLES, user mode)"
            : "estimated: chain of dependent adds (1 cycle each) timed by "
              "the TSC (perf_event_open unavailable)";

    double ns0 = now_ns();
    uint64_t tsc0 = rdtsc_fenced();
    l->core_ghz_before = clock_estimate(&c, 0).ghz;
    l->core_ghz_check = clock_estimate(&c, 1).ghz;
    for (int k = 0; k < KINDS; k++)
        for (int w = 0; w < BENCH_LIMIT_WIDTHS; w++)
            if (rows[k][w].present)
                measure(&c, &rows[k][w], kernels[k][w]);
    if (present[0][BENCH_LIMIT_ZMM] && present[1][BENCH_LIMIT_ZMM])
        measure_gcm(&c, l);
    l->core_ghz_after = clock_estimate(&c, 0).ghz;
    uint64_t tsc1 = rdtsc_fenced();
    double ns1 = now_ns();

    l->tsc_ghz = (double)(tsc1 - tsc0) / (ns1 - ns0);
    l->core_ghz = c.ghz_sum / c.ghz_n;
    l->core_ghz_min = c.ghz_min;
    l->core_ghz_max = c.ghz_max;
    l->measured = 1;
    perf_close(&c);
    if (verbose)
        fprintf(stderr,
                "limit: TSC %.3f GHz; core %.3f GHz (add chain), "
                "%.3f GHz (imul chain)\n",
                l->tsc_ghz, l->core_ghz, l->core_ghz_check);
}

/*
 * compute_bounds -- CTR cycles/byte from the AES rows: per block, R-1
 * aesenc and one aesenclast (see ctr_bound_cpb in limit.h).
 */
static void compute_bounds(struct bench_limit *l)
{
    static const int rounds[BENCH_LIMIT_KEYS] = {10, 12, 14};

    l->best_width = -1;
    for (int w = 0; w < BENCH_LIMIT_WIDTHS; w++) {
        const struct bench_limit_width *e = &l->aes[w], *z = &l->aes_last[w];
        if (!e->present || e->rounds_per_cycle <= 0)
            continue;
        double last = z->present && z->rounds_per_cycle > 0
                          ? z->rounds_per_cycle
                          : e->rounds_per_cycle;
        for (int k = 0; k < BENCH_LIMIT_KEYS; k++)
            l->ctr_bound_cpb_width[w][k] =
                ((rounds[k] - 1) / e->rounds_per_cycle + 1 / last) / e->lanes /
                16;
        if (l->best_width < 0 || l->ctr_bound_cpb_width[w][0] <
                                     l->ctr_bound_cpb_width[l->best_width][0])
            l->best_width = w;
    }
    for (int k = 0; k < BENCH_LIMIT_KEYS && l->gcm_measured; k++) {
        l->gcm_bound_gbps[k] = l->core_ghz / l->gcm_bound_cpb[k];
        /* the same TSC/core ratio as the CTR bound, for consistency */
        l->gcm_bound_tsc_cpb[k] =
            l->gcm_bound_cpb[k] * l->tsc_ghz / l->core_ghz;
    }
    /* one chain: every round waits for the one before (latency, not
     * throughput) */
    if (l->aes[BENCH_LIMIT_XMM].present &&
        l->aes[BENCH_LIMIT_XMM].latency_cycles > 0) {
        double lat = l->aes[BENCH_LIMIT_XMM].latency_cycles;
        double last = l->aes_last[BENCH_LIMIT_XMM].present &&
                              l->aes_last[BENCH_LIMIT_XMM].latency_cycles > 0
                          ? l->aes_last[BENCH_LIMIT_XMM].latency_cycles
                          : lat;
        for (int k = 0; k < BENCH_LIMIT_KEYS; k++) {
            double cpb = ((rounds[k] - 1) * lat + last) / 16;
            l->chain_bound_cpb[k] = cpb;
            l->chain_bound_tsc_cpb[k] = cpb * l->tsc_ghz / l->core_ghz;
            l->chain_bound_gbps[k] = l->core_ghz / cpb;
        }
    }
    if (l->best_width < 0)
        return;
    for (int k = 0; k < BENCH_LIMIT_KEYS; k++) {
        double cpb = l->ctr_bound_cpb_width[l->best_width][k];
        l->ctr_bound_cpb[k] = cpb;
        l->ctr_bound_tsc_cpb[k] = cpb * l->tsc_ghz / l->core_ghz;
        l->ctr_bound_gbps[k] = l->core_ghz / cpb;
    }
}

#endif /* LIMIT_X86 */

/* ---- the API -------------------------------------------------------- */

void bench_limit_features(int present[2][BENCH_LIMIT_WIDTHS])
{
#if LIMIT_X86
    cpu_features(present);
#else
    memset(present, 0, 2 * BENCH_LIMIT_WIDTHS * sizeof(int));
#endif
}

void bench_limit_gcm_mix(unsigned nr, uint64_t iters, uint8_t *state,
                         const uint8_t *in)
{
#if LIMIT_X86
    /* the kernels' loop is dec/jnz: 0 iterations would be 2^64 */
    if (iters == 0)
        return;
    if (nr == 10)
        gcm_kernel_10(state, in, iters);
    else if (nr == 12)
        gcm_kernel_12(state, in, iters);
    else if (nr == 14)
        gcm_kernel_14(state, in, iters);
#else
    (void)nr;
    (void)iters;
    (void)state;
    (void)in;
#endif
}

int bench_limit_run(struct bench_limit *out, int verbose)
{
    double t0 = now_ns();
    int rc = 0;

    memset(out, 0, sizeof *out);
    out->arch = arch_name();
    out->best_width = -1;
    out->cycle_source = "none (not measured on this architecture)";
    for (int w = 0; w < BENCH_LIMIT_WIDTHS; w++) {
        out->aes[w].insn = insn_names[KIND_ENC][w];
        out->aes_last[w].insn = insn_names[KIND_LAST][w];
        out->clmul[w].insn = insn_names[KIND_CLMUL][w];
        out->aes[w].lanes = out->aes_last[w].lanes = out->clmul[w].lanes = 1
                                                                           << w;
    }
#if LIMIT_X86
    measure_x86(out, verbose);
    compute_bounds(out);
#else
    (void)verbose;
#endif
    out->memcpy_gbps_16k = memcpy_gbps(16 << 10);
    out->memcpy_gbps_1m = memcpy_gbps(1 << 20);
    if (out->memcpy_gbps_16k < 0 || out->memcpy_gbps_1m < 0)
        rc = -1;
    out->seconds = (now_ns() - t0) / 1e9;
    return rc;
}

static void print_rows(const char *title, const struct bench_limit_width *r,
                       const char *unit, FILE *f)
{
    fprintf(f, "  %-16s %8s %9s %8s %7s %9s\n", title, "/cycle", unit,
            "latency", "chains", "/TSC cyc");
    for (int w = 0; w < BENCH_LIMIT_WIDTHS; w++) {
        if (!r[w].present) {
            fprintf(f, "  %-16s not present on this CPU/OS\n", r[w].insn);
            continue;
        }
        fprintf(f, "  %-16s %8.3f %9.3f %8.2f %5d%s %9.3f\n", r[w].insn,
                r[w].rounds_per_cycle, r[w].blocks_per_cycle,
                r[w].latency_cycles, r[w].saturating_chains,
                r[w].saturated ? "  " : " ?", r[w].rounds_per_tsc_cycle);
    }
}

void bench_limit_print(const struct bench_limit *l, FILE *f)
{
    static const char *const wname[BENCH_LIMIT_WIDTHS] = {"xmm", "ymm", "zmm"};
    static const char *const kname[BENCH_LIMIT_KEYS] = {"AES-128", "AES-192",
                                                        "AES-256"};

    fprintf(f, "limit: hardware bound on this CPU (%s)\n", l->arch);
    if (!l->measured) {
        fprintf(f, "  AES and carry-less multiply instructions: not measured "
                   "on this architecture\n");
    } else {
        fprintf(f, "  cycles: %s\n", l->cycle_source);
        fprintf(f,
                "  clock: TSC %.3f GHz; core %.3f GHz before, %.3f after, "
                "%.3f-%.3f over the run (imul check %.3f)\n",
                l->tsc_ghz, l->core_ghz_before, l->core_ghz_after,
                l->core_ghz_min, l->core_ghz_max, l->core_ghz_check);
        print_rows("AES round", l->aes, "blocks", f);
        print_rows("AES last round", l->aes_last, "blocks", f);
        print_rows("carry-less mul", l->clmul, "64x64", f);
        fprintf(f, "  (/cycle: instructions per core cycle with enough "
                   "chains; chains: fewest reaching it,\n"
                   "   ? = still rising at the most tried; latency in core "
                   "cycles)\n");
    }
    if (l->measured && l->best_width >= 0) {
        fprintf(f, "  CTR bound, core cycles/byte (AES rounds only: counter, "
                   "XOR, loads, stores ignored)\n");
        fprintf(f, "  %-8s %8s %8s %8s  %9s %9s\n", "", wname[0], wname[1],
                wname[2], "TSC c/B", "GB/s");
        for (int k = 0; k < BENCH_LIMIT_KEYS; k++) {
            fprintf(f, "  %-8s", kname[k]);
            for (int w = 0; w < BENCH_LIMIT_WIDTHS; w++) {
                if (l->ctr_bound_cpb_width[w][k] > 0)
                    fprintf(f, " %7.4f%c", l->ctr_bound_cpb_width[w][k],
                            w == l->best_width ? '*' : ' ');
                else
                    fprintf(f, " %8s", "-");
            }
            fprintf(f, "  %9.4f %9.2f\n", l->ctr_bound_tsc_cpb[k],
                    l->ctr_bound_gbps[k]);
        }
        fprintf(f,
                "  (* best width; GB/s at %.3f GHz; AES-128 %.2f-%.2f GB/s "
                "over the clock range seen)\n",
                l->core_ghz, l->core_ghz_min / l->ctr_bound_cpb[0],
                l->core_ghz_max / l->ctr_bound_cpb[0]);
    } else if (l->measured) {
        fprintf(f, "  CTR bound: no AES instructions on this CPU\n");
    }
    if (l->measured && l->chain_bound_cpb[0] > 0) {
        fprintf(f, "  one-chain bound (cmac, ccm-*, siv-*): R-1 aesenc + "
                   "aesenclast xmm latencies per block\n");
        fprintf(f, "  %-8s %12s %9s %9s %9s\n", "", "cycles/block", "c/B",
                "TSC c/B", "GB/s");
        for (int k = 0; k < BENCH_LIMIT_KEYS; k++)
            fprintf(f, "  %-8s %12.1f %9.4f %9.4f %9.2f\n", kname[k],
                    16 * l->chain_bound_cpb[k], l->chain_bound_cpb[k],
                    l->chain_bound_tsc_cpb[k], l->chain_bound_gbps[k]);
    }
    if (l->gcm_measured) {
        fprintf(f, "  GCM bound (gcm-enc/gcm-dec), zmm: per 64 blocks 16(NR+1) "
                   "vaesenc/vaesenclast + 32 vpxorq,\n"
                   "  56 vpclmulqdq (Karatsuba, 16-block aggregation) + 96 "
                   "shuffles/XORs; loads, stores, counters ignored\n");
        fprintf(f, "  %-8s %12s %9s %9s %9s\n", "", "cycles/64bl", "c/B",
                "TSC c/B", "GB/s");
        for (int k = 0; k < BENCH_LIMIT_KEYS; k++)
            fprintf(f, "  %-8s %12.1f %9.4f %9.4f %9.2f\n", kname[k],
                    l->gcm_iter_cycles[k], l->gcm_bound_cpb[k],
                    l->gcm_bound_tsc_cpb[k], l->gcm_bound_gbps[k]);
    } else if (l->measured) {
        fprintf(f, "  GCM bound: not measured (needs VAES, VPCLMULQDQ and "
                   "AVX-512)\n");
    }
    fprintf(f, "  memcpy: %.2f GB/s at 16 KiB, %.2f GB/s at 1 MiB\n",
            l->memcpy_gbps_16k, l->memcpy_gbps_1m);
}
