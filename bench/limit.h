/*
 * limit.h -- the "limit" row of the benchmark: what the running CPU can do
 * at best, measured in the same process as the implementations.
 *
 * bench_limit_run() measures
 *   - the throughput and latency of the AES round instructions (aesenc on
 *     xmm, vaesenc on ymm and zmm) and of aesenclast, and of the carry-less
 *     multiplies (pclmulqdq xmm, vpclmulqdq ymm/zmm), each with K
 *     independent dependency chains, K raised until more chains no longer
 *     raise the rate;
 *   - the core clock, from perf_event_open when the kernel gives hardware
 *     cycles, otherwise from a chain of dependent adds (1 cycle each)
 *     timed by the TSC and CLOCK_MONOTONIC around every measurement;
 *   - from those, a lower bound on cycles/byte for CTR with each key size
 *     (rounds only -- see ctr_bound_cpb) and the implied GB/s;
 *   - a bound for GCM: the throughput of the instruction mix one GCM
 *     block needs (AES rounds + GHASH carry-less multiplies + XORs), with
 *     VAES/VPCLMULQDQ/AVX-512 (see gcm_bound_cpb);
 *   - memcpy bandwidth at 16 KiB and 1 MiB.
 * If an implementation ever beats ctr_bound_gbps at the same clock, the
 * bound is wrong: report it, do not clamp the implementation.
 *
 * The instruction rows exist on x86-64 only (one binary carries all three
 * widths through per-function target attributes; each width is measured
 * only where CPUID and XCR0 say the CPU and the OS support it). On every
 * other architecture `measured` is 0, the rows print as "not measured on
 * this architecture", and memcpy is still measured.
 *
 * The whole run takes 0.3-0.6 s on the reference machine (budget: 10 s).
 */
#ifndef AESIR_BENCH_LIMIT_H
#define AESIR_BENCH_LIMIT_H

#include <stdint.h>
#include <stdio.h>

/* Index of a vector width in the aes/aes_last/clmul arrays. */
enum bench_limit_w {
    BENCH_LIMIT_XMM, /* 128 bits, 1 lane: aesenc, pclmulqdq (legacy SSE) */
    BENCH_LIMIT_YMM, /* 256 bits, 2 lanes: VAES/VPCLMULQDQ + AVX2 */
    BENCH_LIMIT_ZMM, /* 512 bits, 4 lanes: VAES/VPCLMULQDQ + AVX-512F */
    BENCH_LIMIT_WIDTHS
};

/* Index of a key size in the ctr_bound_* arrays: 128, 192, 256 bits. */
enum bench_limit_key {
    BENCH_LIMIT_AES128,
    BENCH_LIMIT_AES192,
    BENCH_LIMIT_AES256,
    BENCH_LIMIT_KEYS
};

/* Most chain counts tried for one instruction (1, 2, 3, 4, 5, 6, 8, 10,
 * 12, 14, 16, 20, 24; xmm and ymm stop at 14: 16 registers, one holds
 * the round key, and more chains would spill). */
#define BENCH_LIMIT_MAX_TRIES 13

/*
 * struct bench_limit_width -- one instruction at one width. "Cycles" are
 * core cycles (see bench_limit.cycle_source). For AES a "round" is one
 * instruction and a "block" one 128-bit lane of it; for the carry-less
 * multiplies rounds_per_cycle is instructions per cycle and
 * blocks_per_cycle is 64x64-bit multiplies per cycle.
 */
struct bench_limit_width {
    const char *insn;        /* "aesenc xmm", "vaesenc zmm", "pclmulqdq xmm" */
    int present;             /* CPU and OS support it; 0: all figures 0 */
    int lanes;               /* 128-bit lanes per instruction: 1, 2, 4 */
    double rounds_per_cycle; /* best rate over all chain counts */
    double rounds_per_tsc_cycle; /* the same rate per TSC cycle */
    double blocks_per_cycle;     /* rounds_per_cycle * lanes */
    double latency_cycles;       /* cycles per instruction with one chain */
    int saturating_chains;       /* fewest chains within 3% of the best rate */
    int saturated;               /* 1: more chains than that were tried and did
                                    not raise the rate; 0: the rate may still
                                    rise (the bound is then too low a rate) */
    int tried;                   /* chain counts tried: chains[0..tried-1] */
    int chains[BENCH_LIMIT_MAX_TRIES];
    double rate[BENCH_LIMIT_MAX_TRIES]; /* instructions/cycle at chains[i] */
};

/*
 * struct bench_limit -- everything bench_limit_run() measured.
 *
 * ctr_bound_cpb[k]: a lower bound on core cycles per byte of CTR with key
 * size k, from the AES instructions alone: a block of R rounds (10, 12, 14)
 * costs aesenc and 1 aesenclast, i.e.
 *     ((R-1)/rate(aesenc) + 1/rate(aesenclast)) / lanes / 16  cycles/byte
 * (aesenclast is measured, not assumed; both run on the same ports, so
 * their costs add). The bound ignores the uops of counter generation, the
 * keystream XOR, loads and stores: a real CTR can at best approach it.
 * It is given for the best width (best_width) and for each width.
 */
struct bench_limit {
    int measured;     /* 1: instruction rows measured; 0: not on
                         this architecture (memcpy still is) */
    const char *arch; /* "x86-64", "aarch64", "ppc64", ... */
    struct bench_limit_width aes[BENCH_LIMIT_WIDTHS];      /* aesenc */
    struct bench_limit_width aes_last[BENCH_LIMIT_WIDTHS]; /* aesenclast */
    struct bench_limit_width clmul[BENCH_LIMIT_WIDTHS];    /* pclmulqdq */
    const char *cycle_source; /* how core cycles were obtained */
    double tsc_ghz;           /* TSC rate, from CLOCK_MONOTONIC */
    double core_ghz_before;   /* core clock before the instruction rows */
    double core_ghz_after;    /* ... and after them */
    double core_ghz_min, core_ghz_max; /* range over every estimate taken */
    double core_ghz;       /* mean of all estimates; used for GB/s */
    double core_ghz_check; /* the clock from a chain of imul (3 cycles
                              each): should agree with core_ghz */
    int best_width;        /* enum bench_limit_w with the lowest bound; -1 when
                              no AES instruction was measured */
    double ctr_bound_cpb[BENCH_LIMIT_KEYS];     /* core cycles/byte */
    double ctr_bound_tsc_cpb[BENCH_LIMIT_KEYS]; /* TSC cycles/byte */
    double ctr_bound_gbps[BENCH_LIMIT_KEYS];    /* at core_ghz; 1 GB = 1e9 B */
    double ctr_bound_cpb_width[BENCH_LIMIT_WIDTHS][BENCH_LIMIT_KEYS];
    /* The GCM bound (limit.c, gcm_kernel_<nr>): the zmm instruction mix
     * of GCM blocks -- AES rounds, Karatsuba GHASH multiplies with one
     * reduction per 16 blocks, their XORs and shuffles -- as independent
     * streams; needs VAES, VPCLMULQDQ and AVX-512 (gcm_measured = 0
     * otherwise). */
    int gcm_measured;
    double gcm_iter_cycles[BENCH_LIMIT_KEYS];   /* core cycles per 64 blocks */
    double gcm_bound_cpb[BENCH_LIMIT_KEYS];     /* core cycles/byte */
    double gcm_bound_tsc_cpb[BENCH_LIMIT_KEYS]; /* TSC cycles/byte */
    double gcm_bound_gbps[BENCH_LIMIT_KEYS];    /* at core_ghz */
    /* The one-chain latency bound (cmac, ccm-*, siv-*: one CBC-MAC chain
     * per message): per block, R-1 aesenc and one aesenclast xmm one after
     * the other, each at its measured latency (the message XOR folds into
     * the last round key, off the chain); 0 when not measured. */
    double chain_bound_cpb[BENCH_LIMIT_KEYS];     /* core cycles/byte */
    double chain_bound_tsc_cpb[BENCH_LIMIT_KEYS]; /* TSC cycles/byte */
    double chain_bound_gbps[BENCH_LIMIT_KEYS];    /* at core_ghz */
    double memcpy_gbps_16k; /* bytes copied per second / 1e9, median */
    double memcpy_gbps_1m;
    double seconds; /* wall time bench_limit_run() took */
};

/*
 * bench_limit_run -- measures everything above into *out (zeroed first).
 * verbose non-zero prints the rate at every chain count and every clock
 * estimate to stderr. Returns 0 on success, -1 when the memcpy buffers
 * could not be allocated (the instruction rows are still filled in).
 */
int bench_limit_run(struct bench_limit *out, int verbose);

/*
 * bench_limit_features -- what the limit row measures here:
 * present[0][w] the AES instructions at width w (enum bench_limit_w),
 * present[1][w] the carry-less multiply; from CPUID, and XCR0 for the
 * OS's support of the registers (all 0 off x86-64).
 */
void bench_limit_features(int present[2][BENCH_LIMIT_WIDTHS]);

/*
 * bench_limit_gcm_mix -- the GCM bound's kernel (limit.c, gcm_kernel_<nr>)
 * for iters iterations of 64 blocks: the instruction mix the limit row
 * times, exported so that bench/impl_bound.c's bound/gcm runs exactly it
 * in the grid's cells. state: 16 x 64 bytes (the AES chains, loaded and
 * stored back), in: 4 x 64 bytes (round key, data, GHASH sources); nr 10,
 * 12 or 14. Needs VAES, VPCLMULQDQ and AVX-512F (the caller checks);
 * nothing on other architectures, or when iters is 0.
 */
void bench_limit_gcm_mix(unsigned nr, uint64_t iters, uint8_t *state,
                         const uint8_t *in);

/* bench_limit_print -- the human-readable block for the terminal. */
void bench_limit_print(const struct bench_limit *l, FILE *f);

#endif /* AESIR_BENCH_LIMIT_H */
