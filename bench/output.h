/*
 * output.h -- what a run prints and writes: the header (machine, clocks,
 * method), one terminal table per operation and key size, key setups per
 * second, the loud notes, and CSV/JSON files of every measurement.
 *
 * The limit row (bench/limit.c, aesir-bench only) reaches the tables as a
 * struct bench_bound, so this file does not depend on limit.h.
 */
#ifndef AESIR_BENCH_OUTPUT_H
#define AESIR_BENCH_OUTPUT_H

#include <stdio.h>

#include "harness.h"

/* The hardware bound for AES (CTR, AES instructions only), per key index;
 * valid = 0 when there is none (no limit row, or not measured here). */
struct bench_bound {
    int valid;
    char insn[32];                /* the instruction it comes from */
    double gbps[BENCH_NKEYS];     /* at the limit's core clock */
    double cpb_core[BENCH_NKEYS]; /* core cycles per byte */
    double cpb_tsc[BENCH_NKEYS];  /* TSC cycles per byte */
    int saturated;                /* more chains did not raise the rate */
    double core_ghz;              /* the clock the GB/s assume */
    double clmul_per_cycle;       /* 64x64 carry-less multiplies/cycle */
    double aes_latency;           /* core cycles of one aesenc xmm in a
                                     chain (0: not measured): the serial
                                     modes' bound is nr of them a block */
    double memcpy_gbps_16k, memcpy_gbps_1m;
    /* The GCM bound (gcm-enc, gcm-dec): the instruction mix of one GCM
     * block (AES rounds, carry-less multiplies, XORs) at its measured
     * throughput; gcm_valid = 0 when not measured. */
    int gcm_valid;
    char gcm_insn[48];
    double gcm_gbps[BENCH_NKEYS];
    double gcm_cpb_core[BENCH_NKEYS];
    double gcm_cpb_tsc[BENCH_NKEYS];
    /* The one-chain latency bound (cmac, ccm-enc, ccm-dec, siv-enc,
     * siv-dec: one CBC-MAC chain per message, each block waiting for the
     * last): nr x the latency of one aesenc in a dependent chain (the
     * limit row's xmm latency) per 16 bytes, at the limit's core clock;
     * chain_valid = 0 when the latency was not measured. */
    int chain_valid;
    double chain_gbps[BENCH_NKEYS];
    double chain_cpb_core[BENCH_NKEYS];
    double chain_cpb_tsc[BENCH_NKEYS];
};

/* Which bound an op's table shows: none, the AES bound, the GCM bound or
 * the one-chain bound. */
enum bench_bound_kind { BOUND_NONE, BOUND_AES, BOUND_GCM, BOUND_CHAIN };
enum bench_bound_kind bench_op_bound_kind(enum bench_op op);

/* What the files say about how the run was made. */
struct bench_meta {
    const char *program;             /* "aesir-bench", "aesir speed" */
    const char *command;             /* the command line */
    const char *peers_built;         /* may be NULL */
    const char *peers_missing;       /* may be NULL */
    const struct bench_bound *bound; /* may be NULL */
};

/* Human-readable size: "64 B", "16 KiB", "1 MiB". */
const char *bench_size_label(size_t size, char buf[32]);

void bench_print_header(const struct bench_run *r, FILE *f,
                        const struct bench_meta *m);
/* bench_print_clock -- the core clock / TSC range seen (after a run). */
void bench_print_clock(const struct bench_run *r, FILE *f);
/* bench_print_tables -- GB/s, or cycles per byte when cpb (core cycles
 * when perf gave them, else TSC cycles). */
void bench_print_tables(const struct bench_run *r, FILE *f, int cpb,
                        const struct bench_bound *b);
void bench_print_keysetup(const struct bench_run *r, FILE *f);

/* bench_bound_fraction -- the fraction of the bound b a cell of op
 * reaches (1 = at the bound; above 1, the bound is wrong); < 0 when
 * unknown or when op has no bound (gmac and ghash: no AES per block; the
 * GCM ops without a GCM bound). */
double bench_bound_fraction(const struct bench_run *r,
                            const struct bench_cell *c, enum bench_op op,
                            size_t size, unsigned key_index,
                            const struct bench_bound *b);
/* bench_same_run_fraction -- the fraction of bound impl b's cell (same
 * run, op, key index, size index) that impl i's cell reaches: b's cycles
 * / i's cycles per message (core cycles when perf gave them for both,
 * else TSC ticks); < 0 when either cell is missing, or for a GCM-bound
 * op whose bytes are not whole 1 KiB iterations of bound/gcm. */
double bench_same_run_fraction(const struct bench_run *r, size_t i, size_t b,
                               enum bench_op op, unsigned key_index,
                               size_t size_index);
/* bench_print_notes -- mismatches and failures; nothing when none. */
void bench_print_notes(const struct bench_run *r, FILE *f);

/* CSV: impl,group,op,key_bits,size,gbps,cpb_tsc,cpb_core,median_ns,
 * rounds,passes,misaligned,messages -- one line per measured cell (size:
 * bytes per message; messages: per run(), N for the multi-buffer ops,
 * whose gbps and cycles/byte count all N messages). */
int bench_write_csv(const struct bench_run *r, FILE *f);
/* CSV: impl,group,key_bits,direction,setups_per_sec,ns_per_setup,method;
 * direction is encrypt, decrypt (the AES schedules) or gcm (a GCM key). */
int bench_write_keysetup_csv(const struct bench_run *r, FILE *f);
/* JSON: meta, impls, results, keysetup, notes, limit. */
int bench_write_json(const struct bench_run *r, FILE *f,
                     const struct bench_meta *m);

#endif /* AESIR_BENCH_OUTPUT_H */
