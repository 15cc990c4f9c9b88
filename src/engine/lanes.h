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
 * busy slots stay 0..n-1 (a last busy slot that is finished too just
 * hands its value back: lanes of one length end together without any
 * keys copied). The last lane of all runs alone through the engine's
 * single-message path, the latency bound.
 *
 * CBC-MAC lanes may have their last block apart (CMAC's, masked with a
 * subkey): a lane of cbc_mac_many whose out is not NULL reads its
 * nblocks - 1 first blocks from in and its last from out, which the
 * manager runs as one more step of the slot (m->fin), so that the
 * chaining value handed back is the tag.
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
 *   MB_KSTACK  optional: the kernels' depth below the manager's frame;
 *              then the manager wipes the part of its table it used and
 *              that depth instead (mb_wipe), not all of MB_STACK
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
    /* a MAC lane's last block, from its out, still to come (or NULL) */
    const uint8_t *fin[MB_SLOTS];
    struct aesir_cbc_lane *lane[MB_SLOTS];
};

/*
 * A kernel: steps blocks of slots 0..n-1 (and the dummies up to the next
 * multiple of MB_GROUP), from m->in[j] to m->out[j] (for CBC-MAC,
 * nothing stored), the chaining values read from and left in
 * m->chain[j]. The manager advances in, out and left afterwards.
 */
typedef void mb_run_fn(struct mb *m, unsigned n, unsigned nr, size_t steps);

/* Slot j takes lane l: its round keys into column j of the table. With
 * mac, a lane whose out is not NULL has its last block there rather
 * than at the end of in (cmac.c: the masked last block), run as one more
 * step once the others are done. */
ENGINE_INLINE void mb_assign(struct mb *m, unsigned j, struct aesir_cbc_lane *l,
                             unsigned nr, const int mac)
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
    m->fin[j] = NULL;
    if (mac && l->out != NULL) { /* nblocks >= 1 (lane_next) */
        if (l->nblocks == 1)
            m->in[j] = l->out;
        else
            m->fin[j] = l->out, m->left[j]--;
    }
    m->lane[j] = l;
}

/* Slot j takes over slot s's running lane (keys, chain and place). */
ENGINE_INLINE void mb_move(struct mb *m, unsigned j, unsigned s, unsigned nr)
{
    const uint8_t *rk = ENGINE_RK(m->lane[s]->rk);
    for (unsigned r = 0; r <= 10; r++)
        memcpy(m->kt[r][j], rk + 16 * r, 16);
    for (unsigned r = 11; r <= nr; r++)
        memcpy(m->kt[r][j], rk + 16 * r, 16);
    memcpy(m->chain[j], m->chain[s], 16);
    m->in[j] = m->in[s];
    m->out[j] = m->out[s];
    m->left[j] = m->left[s];
    m->fin[j] = m->fin[s];
    m->lane[j] = m->lane[s];
}

#ifdef MB_KSTACK
/* The end of a call that interleaved, in the manager's own frame (the
 * engine defines MB_KSTACK): its table's columns 0..hw-1 (the slots it
 * used, dummies included; MB_SLOTS / 2 or all: constant sizes, which the
 * compilers store inline) in rows 0..nr, the chaining values, then the
 * MB_KSTACK bytes below its frame where the kernels' frames were. The
 * rest of the table was never written: wiping all of MB_STACK (6.5 KB
 * on the VAES engines) cost some 156 TSC cycles per call on Zen 4. */
ENGINE_INLINE void mb_wipe(struct mb *m, unsigned hw, unsigned nr)
{
    if (hw <= MB_SLOTS / 2)
        for (unsigned r = 0; r <= nr; r++)
            memset(m->kt[r], 0, 16 * (MB_SLOTS / 2));
    else
        for (unsigned r = 0; r <= nr; r++)
            memset(m->kt[r], 0, 16 * MB_SLOTS);
    memset(m->chain, 0, sizeof(m->chain));
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : : "r"(m) : "memory");
#endif
    aesir_wipe_stack(MB_KSTACK);
}
#endif

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
    unsigned n = 0, hw;

    for (size_t i = 0; i < nlanes && busy < 2; i++)
        busy += lanes[i].nblocks != 0;
    if (busy < 2) { /* nothing to interleave */
        for (size_t i = 0; i < nlanes; i++) {
            const uint8_t *fin =
                mac && lanes[i].nblocks != 0 ? lanes[i].out : NULL;
            single(lanes[i].rk, nr, lanes[i].iv, lanes[i].out, lanes[i].in,
                   lanes[i].nblocks - (fin != NULL));
            if (fin != NULL)
                single(lanes[i].rk, nr, lanes[i].iv, NULL, fin, 1);
        }
        return 0;
    }
    while (n < MB_SLOTS &&
           (l = aesir_cbc_lane_next(lanes, nlanes, &next)) != NULL)
        mb_assign(&m, n++, l, nr, mac);
    for (hw = n; hw % MB_GROUP != 0; hw++) { /* the first dummies */
        for (unsigned r = 0; r <= nr; r++)
            memset(m.kt[r][hw], 0, 16);
        memset(m.chain[hw], 0, 16);
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
            if (m.fin[j] != NULL) { /* a MAC lane's last block */
                m.in[j] = m.fin[j];
                m.fin[j] = NULL;
                m.left[j] = 1;
                j++;
                continue;
            }
            memcpy(m.lane[j]->iv, m.chain[j], 16);
            if ((l = aesir_cbc_lane_next(lanes, nlanes, &next)) != NULL) {
                mb_assign(&m, j, l, nr, mac);
                continue;
            }
            /* none waits: the last busy slot fills the hole, unless it
             * is done too (lanes of one length all end together: no
             * keys copied for them) */
            while (--n > j && m.left[n] == 0 && m.fin[n] == NULL)
                memcpy(m.lane[n]->iv, m.chain[n], 16);
            if (n > j)
                mb_move(&m, j, n, nr);
        }
    }
    if (n == 1) { /* the last lane alone: the single-message path */
        l = m.lane[0];
        memcpy(l->iv, m.chain[0], 16);
        single(l->rk, nr, l->iv, m.out[0], m.in[0], m.left[0]);
        if (m.fin[0] != NULL)
            single(l->rk, nr, l->iv, NULL, m.fin[0], 1);
    }
#ifdef MB_KSTACK
    mb_wipe(&m, hw, nr);
#else
    (void)hw;
#endif
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
 * the bound covers what is left. An engine that defines MB_KSTACK (the
 * depth of its kernels' frames below the manager's) has the manager
 * wipe instead, only what it used (mb_wipe).
 */
#ifdef MB_KSTACK
#define MB_ENTRY_WIPE() ((void)0) /* the body wiped (mb_wipe) */
#else
#define MB_ENTRY_WIPE() aesir_wipe_stack(MB_STACK)
#endif
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
            MB_ENTRY_WIPE();                                                   \
    }

#endif /* AESIR_LANES_H */
