/*
 * lanes.h -- the lane manager of the multi-buffer CBC paths
 * (cbc_enc_many and cbc_mac_many, internal.h), shared by the engines that
 * run many independent messages side by side (aesni.c: 8 slots of one
 * xmm each; vaes_core.h: 16 slots, 2 or 4 per vector). One CBC chain
 * keeps one AES instruction in flight where the units take several; W
 * messages, one block of each per round, fill them.
 *
 * The manager keeps MB_SLOTS slots, each running one message (lane) with
 * its own round keys, copied at assignment into column j of a stack
 * table whose row r holds round key r of every slot, so that one base
 * register addresses all of them and a kernel takes each key as a memory
 * operand (VB bytes of a row: the keys of the slots of one vector):
 *
 *   kt[r]:  | K_r slot 0 | K_r slot 1 | ... | K_r slot W-1 |   (r = 0..nr)
 *
 * A kernel call runs the busy slots, 0..n-1, in lock step for as many
 * blocks as the shortest of them has left (a loop with no per-block
 * branch on the lanes). Then each finished slot hands its last
 * ciphertext block back to its lane's iv and takes the next waiting lane,
 * or, when none is left, the last busy slot moves into the hole, so the
 * busy slots stay 0..n-1. The last lane of all runs alone through the
 * engine's single-message path, the latency bound.
 *
 * Kernels process slots MB_GROUP at a time (the slots of one vector), so
 * the slots n.. of the last, partly busy group are dummies: they run
 * with the other slots of their vector and their results are never
 * stored. Their key columns and chaining values are zeroed when the
 * first lanes are assigned (a column freed later keeps a finished lane's
 * keys), so no kernel reads uninitialised memory; before each kernel call
 * their input pointer is slot 0's, and so is their output pointer, never
 * stored through, so that no kernel does arithmetic on an uninitialised
 * pointer (undefined even unused; UBSan).
 *
 * The engine defines ENGINE_ISA (and includes engine.h), ENGINE_NAME(x)
 * and
 *
 *   MB_SLOTS   W, the slots
 *   MB_GROUP   slots per kernel vector (1: no dummies)
 *   MB_STACK   bytes of stack the manager and its kernels may reach, all
 *              of them wiped after a call that interleaved (see
 *              MB_ENTRY)
 *
 * then includes this file, writes its kernels, of type mb_run_fn, and
 * instantiates the entry points with MB_ENTRY.
 *
 * Constant time: the manager branches on the (public) message lengths
 * and count only. The key table and the chaining values (a MAC's inner
 * ones are secret) are on the stack, wiped before the entry point
 * returns.
 */
#ifndef AESIR_LANES_H
#define AESIR_LANES_H

#include "engine.h"
#include "stack_wipe.h"

#if !defined(ENGINE_NAME) || !defined(MB_SLOTS) || !defined(MB_GROUP) ||       \
    !defined(MB_STACK)
#error "lanes.h: define ENGINE_NAME(x), MB_SLOTS, MB_GROUP and MB_STACK first"
#endif

/* The manager's state; kt and chain are vector-aligned for the kernels
 * (64: a zmm). */
struct mb {
    _Alignas(64) uint8_t kt[15][MB_SLOTS][16]; /* kt[r][j]: K_r of slot j */
    _Alignas(64) uint8_t chain[MB_SLOTS][16];  /* IV or last ciphertext */
    const uint8_t *in[MB_SLOTS];
    uint8_t *out[MB_SLOTS];
    size_t left[MB_SLOTS]; /* blocks */
    struct aesir_cbc_lane *lane[MB_SLOTS];
};

/*
 * A kernel: steps blocks of slots 0..n-1 (and the dummies up to the next
 * multiple of MB_GROUP), from m->in[j] to m->out[j] (for CBC-MAC,
 * nothing stored), the chaining values read from and left in
 * m->chain[j]. The manager advances in, out and left afterwards.
 */
typedef void mb_run_fn(struct mb *m, unsigned n, unsigned nr, size_t steps);

/* Slot j takes lane l: its round keys into column j of the table. */
ENGINE_INLINE void mb_assign(struct mb *m, unsigned j, struct aesir_cbc_lane *l,
                             unsigned nr)
{
    const uint8_t *rk = ENGINE_RK(l->rk);
    /* 11 keys in a loop the compilers unroll, then 0, 2 or 4: a loop
     * over all nr + 1 cost more than the AES work of a one-block
     * message */
    for (unsigned r = 0; r <= 10; r++)
        memcpy(m->kt[r][j], rk + 16 * r, 16);
    for (unsigned r = 11; r <= nr; r++)
        memcpy(m->kt[r][j], rk + 16 * r, 16);
    memcpy(m->chain[j], l->iv, 16);
    m->in[j] = l->in;
    m->out[j] = l->out;
    m->left[j] = l->nblocks;
    m->lane[j] = l;
}

/*
 * The manager of cbc_enc_many and (mac, a constant) cbc_mac_many: run is
 * the kernel, single the single-message path (the engine's cbc_enc, or
 * its CBC-MAC chain; with mac both store nothing but the chaining
 * values). run and single are constants at every call, so the calls are
 * direct. Returns 1 when it interleaved lanes, 0 when each went through
 * the single-message path (secrets in registers only).
 */
ENGINE_INLINE int mb_manage(unsigned nr, struct aesir_cbc_lane *lanes,
                            size_t nlanes, const int mac, mb_run_fn *run,
                            aesir_cbc_fn single)
{
    struct mb m;
    struct aesir_cbc_lane *l;
    size_t next = 0, busy = 0;
    unsigned n = 0;

    for (size_t i = 0; i < nlanes && busy < 2; i++)
        busy += lanes[i].nblocks != 0;
    if (busy < 2) { /* nothing to interleave */
        for (size_t i = 0; i < nlanes; i++)
            single(lanes[i].rk, nr, lanes[i].iv, lanes[i].out, lanes[i].in,
                   lanes[i].nblocks);
        return 0;
    }
    while (n < MB_SLOTS &&
           (l = aesir_cbc_lane_next(lanes, nlanes, &next)) != NULL)
        mb_assign(&m, n++, l, nr);
    for (unsigned j = n; j % MB_GROUP != 0; j++) { /* the first dummies */
        for (unsigned r = 0; r <= nr; r++)
            memset(m.kt[r][j], 0, 16);
        memset(m.chain[j], 0, 16);
    }
    while (n > 1) {
        size_t steps = m.left[0];
        for (unsigned j = 1; j < n; j++)
            steps = m.left[j] < steps ? m.left[j] : steps;
        for (unsigned j = n; j % MB_GROUP != 0; j++) {
            m.in[j] = m.in[0];
            m.out[j] = m.out[0];
        }
        run(&m, n, nr, steps);
        for (unsigned j = 0; j < n; j++) {
            m.in[j] += 16 * steps;
            if (!mac) /* a MAC lane's out may be NULL */
                m.out[j] += 16 * steps;
            m.left[j] -= steps;
        }
        for (unsigned j = 0; j < n;) {
            if (m.left[j] != 0) {
                j++;
                continue;
            }
            memcpy(m.lane[j]->iv, m.chain[j], 16);
            if ((l = aesir_cbc_lane_next(lanes, nlanes, &next)) != NULL) {
                mb_assign(&m, j, l, nr);
                continue;
            }
            if (j != --n) { /* the last busy slot fills the hole */
                mb_assign(&m, j, m.lane[n], nr);
                memcpy(m.chain[j], m.chain[n], 16);
                m.in[j] = m.in[n];
                m.out[j] = m.out[n];
                m.left[j] = m.left[n];
            }
        }
    }
    if (n == 1) { /* the last lane alone: the single-message path */
        l = m.lane[0];
        memcpy(l->iv, m.chain[0], 16);
        single(l->rk, nr, l->iv, m.out[0], m.in[0], m.left[0]);
    }
    return 1;
}

/*
 * MB_ENTRY(kind, run, single, mac) -- the engine's entry point
 * ENGINE_NAME(cbc_<kind>_many) (kind enc, mac 0; or kind mac, mac 1, run
 * and single its CBC-MAC versions): the manager, out of
 * line (ENGINE_NAME(cbc_<kind>_many_body)), then, when it interleaved,
 * MB_STACK bytes of the stack it and its kernels used wiped
 * (aesir_wipe_stack, internal.h): the key table (rows 0..nr of every
 * slot, those of dummy and freed slots included), the chaining values
 * and whatever the compilers spilled there (round keys, a MAC's
 * chaining values, regrouped blocks). The memset comes once per call
 * that runs several messages at once; tests/test_residue.c checks that
 * the bound covers what is left.
 */
#define MB_ENTRY(kind, run, single, mac)                                       \
    STACK_WIPE_BODY ENGINE_FN int ENGINE_NAME(cbc_##kind##_many_body)(         \
        unsigned nr, struct aesir_cbc_lane *lanes, size_t nlanes)              \
    {                                                                          \
        return mb_manage(nr, lanes, nlanes, (mac), (run), (single));           \
    }                                                                          \
    static void ENGINE_NAME(cbc_##kind##_many)(                                \
        unsigned nr, struct aesir_cbc_lane *lanes, size_t nlanes)              \
    {                                                                          \
        if (ENGINE_NAME(cbc_##kind##_many_body)(nr, lanes, nlanes))            \
            aesir_wipe_stack(MB_STACK);                                        \
    }

#endif /* AESIR_LANES_H */
