/*
 * keysetup.c -- key setups per second (bench_measure_keysetup, harness.h):
 * per impl, key size and kind (encryption schedule, decryption schedule,
 * GCM key), through the impl's keysetup() or, when it has none, setup() +
 * release().
 */
#include "harness_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* keysetup_op -- an op of impl i for key setup kind `kind` (harness.h:
 * 0 encryption schedule, 1 decryption schedule, BENCH_KS_GCM a GCM key)
 * that the impl claims and has not dropped; -1 when none. A GCM key setup
 * is keysetup() called with gcm-enc: the adapter makes the library's
 * whole GCM key (schedule and hash key, with the powers or tables it
 * precomputes), as its GCM calls need it. */
static int keysetup_op(const struct bench_run *r, size_t i, unsigned k,
                       int kind)
{
    static const enum bench_op enc[] = {OP_ECB_ENC, OP_CTR, OP_CBC_ENC,
                                        OP_CFB128_ENC, OP_OFB};
    static const enum bench_op dec[] = {OP_ECB_DEC, OP_CBC_DEC};
    static const enum bench_op gcm[] = {OP_GCM_ENC};
    const struct bench_impl_state *s = &r->impls[i];
    const enum bench_op *list = kind == BENCH_KS_GCM ? gcm : kind ? dec : enc;
    size_t n = kind == BENCH_KS_GCM ? 1 : kind ? 2 : 5;

    /* a bound impl has no key schedule (bench.h: group "bound") */
    if (bench_impl_is_bound(s->impl))
        return -1;

    for (size_t j = 0; j < n; j++)
        if ((s->claimed[k] >> list[j] & 1) && !(s->dropped >> list[j] & 1) &&
            (kind == BENCH_KS_GCM || bench_op_decrypts(list[j]) == kind))
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
    struct bench_work w;
    uint64_t iters;
    double v[KS_ROUNDS];
    unsigned n;
};

/* ks_prepare -- the work and iteration count of impl i for key k and a
 * kind; 0 when it has no op for it or its key setup failed. */
static int ks_prepare(struct bench_run *r, size_t i, unsigned k, int kind,
                      const uint8_t *keyiv, struct ks_cell *c)
{
    struct bench_impl_state *s = &r->impls[i];
    int op = keysetup_op(r, i, k, kind);

    memset(c, 0, sizeof(*c));
    if (op < 0)
        return 0;
    c->w.impl = s->impl;
    c->w.op = (enum bench_op)op;
    c->w.key = keyiv;
    c->w.bits = bench_key_bits(k);
    c->w.keysetup = 1;
    c->w.via_setup = s->impl->keysetup == NULL;
    c->iters = bench_calibrate(&c->w, 0.5e-3 * r->clock.tick_hz);
    if (c->iters == 0) {
        bench_note(r, "%s AES-%u: %skey setup failed", s->impl->name, c->w.bits,
                   kind == BENCH_KS_GCM ? "GCM " : "");
        return 0;
    }
    return 1;
}

/* ks_record -- impl i's median round, kept if faster than an earlier
 * pass's. */
static void ks_record(struct bench_run *r, size_t i, unsigned k, int kind,
                      struct ks_cell *c)
{
    struct bench_keysetup *ks = &r->impls[i].ks[k][kind];
    double ns;

    if (c->n == 0)
        return;
    qsort(c->v, c->n, sizeof(c->v[0]), bench_cmp_double);
    ns = c->v[(c->n - 1) / 2] / r->clock.tick_hz * 1e9;
    if (ks->valid && ks->ns <= ns)
        return; /* an earlier pass was faster */
    ks->valid = 1;
    ks->via_setup = c->w.via_setup;
    ks->ns = ns;
    ks->per_sec = 1e9 / ns;
}

static void keysetup_all(struct bench_run *r, unsigned k, int kind,
                         const uint8_t *keyiv)
{
    static struct ks_cell cell[BENCH_MAX_IMPLS];
    int live[BENCH_MAX_IMPLS];

    for (size_t i = 0; i < r->nimpls; i++)
        live[i] =
            r->impls[i].usable && ks_prepare(r, i, k, kind, keyiv, &cell[i]);
    for (unsigned round = 0, tries = 0;
         round < KS_ROUNDS && tries < 3 * KS_ROUNDS; tries++) {
        int switched = 0;
        for (size_t i = 0; i < r->nimpls; i++) {
            struct bench_sample smp;
            if (!live[i])
                continue;
            if (bench_time_round(&cell[i].w, cell[i].iters, &smp) != 0) {
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
            ks_record(r, i, k, kind, &cell[i]);
}

void bench_measure_keysetup(struct bench_run *r)
{
    uint8_t keyiv[48];

    bench_rng_fill(&r->rng, keyiv, sizeof(keyiv));
    for (unsigned pass = 0; pass < r->cfg.passes; pass++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if (r->cfg.keys >> k & 1)
                for (int d = 0; d < BENCH_KS_KINDS; d++)
                    keysetup_all(r, k, d, keyiv);
}
