/*
 * impl_bound.c -- the limit row's bounds as impls (group "bound"), timed
 * like every other row of the grid: same cells, same interleaved rounds,
 * same clock. A share of a bound is then bound cell / aesir cell of one
 * run, op, key size and message size -- two figures taken a few
 * milliseconds apart -- instead of an aesir cell against the limit row,
 * which is measured once at the start of the grid while this VM's core
 * clock drifts 3.2-4.4 GHz within minutes (docs/BENCHMARK.md).
 *
 *   bound/aes    the AES-instruction bound (bench_op_bound_kind() ==
 *                BOUND_AES): ceil(bytes / 64) zmm vectors x nr
 *                instructions (nr-1 vaesenc + 1 vaesenclast per vector,
 *                4 blocks each: limit.c compute_bounds' CTR bound), in 16
 *                independent chains, the round key in a register; the
 *                last ceil(bytes / 64) mod 16 vectors as as many chains.
 *   bound/gcm    the GCM bound (BOUND_GCM): limit.c's GCM mix kernel
 *                (bench_limit_gcm_mix, 64 blocks per iteration) for
 *                ceil(bytes / 1024) iterations -- exact for multiples of
 *                1 KiB only, more work than the bound below that.
 *   bound/chain  the one-chain latency bound (BOUND_CHAIN, and cbc-enc):
 *                one dependency chain of nr-1 aesenc + 1 aesenclast xmm
 *                per 16-byte block, ceil(bytes / 16) blocks (limit.c's
 *                chain_bound_cpb).
 * bytes = len x bench_op_messages(op) (the multi-buffer ops). run() reads
 * and writes only its context (the chains are loaded from it and stored
 * to it, so nothing can be dropped), never in or out: like the limit row,
 * a bound has no memory traffic. Since the harness calls run() per
 * message, a bound cell includes a call (two: run() and the kernel), like
 * every other cell, so at small sizes it is the bound's instructions plus
 * that, not the limit row's throughput figure.
 *
 * x86-64 only (VAES + AVX-512F, VPCLMULQDQ for bound/gcm; AES-NI for
 * bound/chain), checked by probe() with the limit row's CPUID and XCR0
 * tests (bench_limit_features); on other architectures nothing is
 * registered.
 * Not verified (verify.c: no output to check), not counted as a peer
 * (output.c, perf_doc.py), no key setup figures (keysetup.c).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "limit.h"
#include "output.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BOUND_X86 1
#else
#define BOUND_X86 0
#endif

#if BOUND_X86

/*
 * Messages are independent, so out-of-order execution overlaps the end of
 * one call with the start of the next in aesir and the peers alike; a
 * bound must allow the same. So the AES and chain kernels load their
 * chains from `seed` (never written after setup) and store them to
 * `sink` (never read): no dependency from one call to the next. (With
 * the chains stored back and reloaded, each call waited for the last:
 * bound/aes at 64 B ran at 5.3 GB/s AES-128, under aesir's ECB at 11.4.)
 * The GCM kernel loads and stores one state buffer: bound/gcm rotates
 * over GCM_STATES of them, so a call depends only on the one GCM_STATES
 * calls back.
 */
#define GCM_STATES 4

struct bound_ctx {
    _Alignas(64) uint8_t seed[16 * 64]; /* the chains' inputs */
    _Alignas(64) uint8_t sink[16 * 64]; /* the chains' outputs */
    _Alignas(64) uint8_t gcm_state[GCM_STATES][16 * 64];
    _Alignas(64) uint8_t key[4 * 64]; /* round key; the GCM constants */
    unsigned nr;                      /* 10, 12, 14 */
    unsigned msgs;                    /* bench_op_messages(op) */
    unsigned gcm_next;                /* the gcm_state of the next call */
};

typedef void (*bound_kernel)(const uint8_t *seed, uint8_t *sink,
                             const uint8_t *key, uint64_t iters);

/* Rk(I) expands to I(0) ... I(k-1): one instruction per chain. */
#define R1(I) I(0)
#define R2(I) R1(I) I(1)
#define R3(I) R2(I) I(2)
#define R4(I) R3(I) I(3)
#define R5(I) R4(I) I(4)
#define R6(I) R5(I) I(5)
#define R7(I) R6(I) I(6)
#define R8(I) R7(I) I(7)
#define R9(I) R8(I) I(8)
#define R10(I) R9(I) I(9)
#define R11(I) R10(I) I(10)
#define R12(I) R11(I) I(11)
#define R13(I) R12(I) I(12)
#define R14(I) R13(I) I(13)
#define R15(I) R14(I) I(14)
#define R16(I) R15(I) I(15)

#define A_LD(n) "vmovdqu64 " #n "*64(%1), %%zmm" #n "\n\t"
#define A_ST(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%3)\n\t"
#define A_ENC(n) "vaesenc %%zmm16, %%zmm" #n ", %%zmm" #n "\n\t"
#define A_LAST(n) "vaesenclast %%zmm16, %%zmm" #n ", %%zmm" #n "\n\t"

/*
 * aes_<nr>_<K>: K zmm chains, iters iterations of nr-1 vaesenc and one
 * vaesenclast per chain (one vector of 4 blocks through all rounds). The
 * rounds are an assembler .rept, not a loop: the stream is exactly the
 * limit row's instructions plus one dec/jnz per K x nr of them.
 * vzeroupper: later SSE code pays no transition.
 */
/* clang-format off */
#define AES_KFN(NR, K)                                                         \
    __attribute__((target("vaes,avx512f"), noinline)) static void              \
        aes_##NR##_##K(const uint8_t *seed, uint8_t *sink, const uint8_t *key, \
                       uint64_t iters)                                         \
    {                                                                          \
        __asm__ volatile("vmovdqu64 (%2), %%zmm16\n\t" R##K(A_LD)             \
                         ".p2align 5\n"                                        \
                         "1:\n\t"                                              \
                         ".rept " #NR " - 1\n\t" R##K(A_ENC) ".endr\n\t"       \
                         R##K(A_LAST)                                          \
                         "dec %0\n\t"                                          \
                         "jnz 1b\n\t"                                          \
                         R##K(A_ST) "vzeroupper\n\t"                           \
                         : "+r"(iters)                                         \
                         : "r"(seed), "r"(key), "r"(sink)                      \
                         : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3",     \
                           "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",     \
                           "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",        \
                           "xmm15", "xmm16");                                  \
    }
/* clang-format on */
#define AES_KSET(NR)                                                           \
    AES_KFN(NR, 1)                                                             \
    AES_KFN(NR, 2)                                                             \
    AES_KFN(NR, 3)                                                             \
    AES_KFN(NR, 4)                                                             \
    AES_KFN(NR, 5)                                                             \
    AES_KFN(NR, 6)                                                             \
    AES_KFN(NR, 7)                                                             \
    AES_KFN(NR, 8)                                                             \
    AES_KFN(NR, 9)                                                             \
    AES_KFN(NR, 10)                                                            \
    AES_KFN(NR, 11)                                                            \
    AES_KFN(NR, 12)                                                            \
    AES_KFN(NR, 13)                                                            \
    AES_KFN(NR, 14)                                                            \
    AES_KFN(NR, 15)                                                            \
    AES_KFN(NR, 16)
#define AES_KTAB(NR)                                                           \
    {                                                                          \
        aes_##NR##_1, aes_##NR##_2, aes_##NR##_3, aes_##NR##_4, aes_##NR##_5,  \
            aes_##NR##_6, aes_##NR##_7, aes_##NR##_8, aes_##NR##_9,            \
            aes_##NR##_10, aes_##NR##_11, aes_##NR##_12, aes_##NR##_13,        \
            aes_##NR##_14, aes_##NR##_15, aes_##NR##_16                        \
    }

AES_KSET(10)
AES_KSET(12)
AES_KSET(14)

static const bound_kernel aes_kernels[3][16] = {AES_KTAB(10), AES_KTAB(12),
                                                AES_KTAB(14)};

/* chain_<nr>: one xmm chain, iters blocks of nr-1 aesenc + aesenclast,
 * each instruction waiting for the one before (a CBC-MAC's chain with the
 * message XOR folded into the last round key, off the chain). */
/* clang-format off */
#define CHAIN_KFN(NR)                                                          \
    __attribute__((target("aes,sse4.1"), noinline)) static void               \
        chain_##NR(const uint8_t *seed, uint8_t *sink, const uint8_t *key,     \
                   uint64_t iters)                                             \
    {                                                                          \
        __asm__ volatile("movdqu (%2), %%xmm1\n\t"                             \
                         "movdqu (%1), %%xmm0\n\t"                             \
                         ".p2align 5\n"                                        \
                         "1:\n\t"                                              \
                         ".rept " #NR " - 1\n\t"                               \
                         "aesenc %%xmm1, %%xmm0\n\t"                           \
                         ".endr\n\t"                                           \
                         "aesenclast %%xmm1, %%xmm0\n\t"                       \
                         "dec %0\n\t"                                          \
                         "jnz 1b\n\t"                                          \
                         "movdqu %%xmm0, (%3)\n\t"                             \
                         : "+r"(iters)                                         \
                         : "r"(seed), "r"(key), "r"(sink)                      \
                         : "memory", "cc", "xmm0", "xmm1");                    \
    }
/* clang-format on */
CHAIN_KFN(10)
CHAIN_KFN(12)
CHAIN_KFN(14)

static const bound_kernel chain_kernels[3] = {chain_10, chain_12, chain_14};

static unsigned nr_index(unsigned nr)
{
    return (nr - 10) / 2;
}

/* The limit row's CPUID and XCR0 checks (limit.c), so that a bound impl
 * runs exactly where the limit row measures its instructions. */
static int present(int clmul, int width)
{
    int p[2][BENCH_LIMIT_WIDTHS];

    bench_limit_features(p);
    return p[clmul][width];
}

static int probe_aes(void)
{
    return present(0, BENCH_LIMIT_ZMM);
}

static int probe_gcm(void)
{
    return present(0, BENCH_LIMIT_ZMM) && present(1, BENCH_LIMIT_ZMM);
}

static int probe_chain(void)
{
    return present(0, BENCH_LIMIT_XMM);
}

static int key_ok(enum bench_op op, unsigned key_bits)
{
    return (key_bits == 128 || key_bits == 192 || key_bits == 256) &&
           bench_op_key_ok(op, key_bits);
}

static int supports_aes(enum bench_op op, unsigned key_bits)
{
    return bench_op_bound_kind(op) == BOUND_AES && key_ok(op, key_bits);
}

static int supports_gcm(enum bench_op op, unsigned key_bits)
{
    return bench_op_bound_kind(op) == BOUND_GCM && key_ok(op, key_bits);
}

/* cbc-enc too: one chain of nr rounds per block, the same instructions
 * as a CBC-MAC's (the "latency bound" of its targets). */
static int supports_chain(enum bench_op op, unsigned key_bits)
{
    return (bench_op_bound_kind(op) == BOUND_CHAIN || op == OP_CBC_ENC) &&
           key_ok(op, key_bits);
}

static void *setup(enum bench_op op, const uint8_t *key, unsigned key_bits,
                   const uint8_t iv[16])
{
    struct bound_ctx *c = aligned_alloc(64, sizeof(*c));

    if (c == NULL)
        return NULL;
    /* any bytes: AES and carry-less multiplies take the same time on
     * every value */
    memset(c, 0, sizeof(*c));
    for (size_t i = 0; i < sizeof(c->seed); i++)
        c->seed[i] = (uint8_t)(iv[i % 16] ^ i);
    for (unsigned j = 0; j < GCM_STATES; j++)
        memcpy(c->gcm_state[j], c->seed, sizeof(c->seed));
    for (size_t i = 0; i < sizeof(c->key); i++)
        c->key[i] = (uint8_t)(key[i % (key_bits / 8)] + i);
    c->nr = key_bits / 32 + 6;
    c->msgs = bench_op_messages(op);
    return c;
}

static void release(void *ctx)
{
    free(ctx);
}

static int run_aes(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct bound_ctx *c = ctx;
    const bound_kernel *k = aes_kernels[nr_index(c->nr)];
    uint64_t v = ((uint64_t)len * c->msgs + 63) / 64;

    (void)out;
    (void)in;
    if (v >= 16)
        k[15](c->seed, c->sink, c->key, v / 16);
    if (v % 16 != 0)
        k[v % 16 - 1](c->seed, c->sink, c->key, 1);
    return 0;
}

static int run_gcm(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct bound_ctx *c = ctx;

    (void)out;
    (void)in;
    bench_limit_gcm_mix(c->nr, ((uint64_t)len * c->msgs + 1023) / 1024,
                        c->gcm_state[c->gcm_next], c->key);
    c->gcm_next = (c->gcm_next + 1) % GCM_STATES;
    return 0;
}

static int run_chain(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct bound_ctx *c = ctx;
    uint64_t blocks = ((uint64_t)len * c->msgs + 15) / 16;

    (void)out;
    (void)in;
    if (blocks > 0)
        chain_kernels[nr_index(c->nr)](c->seed, c->sink, c->key, blocks);
    return 0;
}

static const struct bench_impl bound_impls[] = {
    {"bound/aes", BENCH_GROUP_BOUND, probe_aes, supports_aes, setup, run_aes,
     release, NULL, 0, NULL},
    {"bound/gcm", BENCH_GROUP_BOUND, probe_gcm, supports_gcm, setup, run_gcm,
     release, NULL, 0, NULL},
    {"bound/chain", BENCH_GROUP_BOUND, probe_chain, supports_chain, setup,
     run_chain, release, NULL, 0, NULL},
};

void bench_register_bound(bench_add_fn add)
{
    for (size_t i = 0; i < sizeof(bound_impls) / sizeof(bound_impls[0]); i++)
        add(&bound_impls[i]);
}

#else /* !BOUND_X86 */

void bench_register_bound(bench_add_fn add)
{
    (void)add; /* the kernels are x86-64 assembly: no bound rows here */
}

#endif
