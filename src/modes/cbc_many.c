/*
 * cbc_many.c -- multi-buffer CBC encryption (aesir_cbc_encrypt_many) and
 * CBC-MAC (aesir_cbc_mac_many): many independent messages at once, so
 * that their blocks share the AES pipeline that one CBC chain leaves
 * mostly idle. The MAC is the same chain with nothing stored but its
 * last block: the engines' cbc_mac_many hook, else the single-message
 * CBC path through a small buffer that is wiped after.
 *
 * Every job is checked first, on its own; a job that fails is never
 * touched again. The good jobs are then grouped by (engine, rounds),
 * since an engine's cbc_enc_many hook takes lanes of its own key layout
 * and one round count. A group goes to the hook in batches of up to
 * BATCH lanes (the lane array lives on the stack); the hook interleaves
 * them, refilling a lane as soon as its message ends. An engine without
 * the hook encrypts the group's jobs one after another through the
 * single-message path (its cbc_enc, or the generic CBC code).
 *
 * Grouping needs no allocation: during the call a good job's status holds
 * PENDING until its group has run, so each pass over the jobs picks the
 * first pending job's group and collects the pending jobs that share it.
 * Passes are one per group and batch: a handful in practice.
 */
#include "modes.h"

/* Lanes handed to the hook at once: 64 x 48 bytes of stack. The hook
 * refills its slots from these, so only the last few messages of each
 * batch run with fewer than all slots busy. */
#define BATCH 64

/* A good job whose group has not run yet (never returned: every job ends
 * with AESIR_OK or an error). */
#define PENDING 1

/* mac: out is not used, so it is not checked. */
static int check_job(const aesir_cbc_job *j, const struct aesir_key_state **ks,
                     int mac)
{
    *ks = aesir_key_state(j->key, AESIR_ENCRYPT);
    if (*ks == NULL)
        return AESIR_E_STATE;
    if (j->len % 16 != 0)
        return AESIR_E_INPUT_LENGTH;
    if (j->len != 0 && (j->in == NULL || (!mac && j->out == NULL)))
        return AESIR_E_ARGUMENT;
    return AESIR_OK;
}

/* One job through the single-message path; for a MAC the ciphertext
 * goes through sink, SINK blocks at a time. */
#define SINK 16
static void encrypt_one(const struct aesir_key_state *ks, aesir_cbc_job *j,
                        int mac)
{
    struct cipher_state st;
    uint8_t sink[16 * SINK];

    memset(&st, 0, sizeof(st));
    st.ks = ks;
    st.mode = AESIR_MODE_CBC;
    st.dir = AESIR_ENCRYPT;
    memcpy(st.iv, j->iv, 16);
    if (!mac) {
        aesir_cbc_blocks(&st, j->out, j->in, j->len / 16);
    } else {
        for (size_t b = 0; b < j->len / 16; b += SINK) {
            size_t n = j->len / 16 - b < SINK ? j->len / 16 - b : SINK;
            aesir_cbc_blocks(&st, sink, j->in + 16 * b, n);
        }
        aesir_wipe(sink, sizeof(sink)); /* the chain's inner values */
    }
    memcpy(j->iv, st.iv, 16);
}

/* run_hook -- the n lanes of jobs job[0..n) through e's hook, then the
 * new chaining values back into the jobs. */
static void run_hook(aesir_cbc_many_fn hook, unsigned nr,
                     struct aesir_cbc_lane *lanes, aesir_cbc_job **job,
                     size_t n)
{
    hook(nr, lanes, n);
    for (size_t i = 0; i < n; i++) {
        memcpy(job[i]->iv, lanes[i].iv, 16);
        job[i]->status = AESIR_OK;
    }
}

/* run_group -- every pending job with engine e and nr rounds, from
 * jobs[first] (the first of them) on. */
static void run_group(aesir_cbc_job *jobs, size_t njobs, size_t first,
                      const struct aesir_engine *e, unsigned nr, int mac)
{
    struct aesir_cbc_lane lanes[BATCH];
    aesir_cbc_job *job[BATCH];
    aesir_cbc_many_fn hook = mac ? e->cbc_mac_many : e->cbc_enc_many;
    size_t n = 0;

    for (size_t i = first; i < njobs; i++) {
        const struct aesir_key_state *ks;
        if (jobs[i].status != PENDING)
            continue;
        ks = aesir_key_state(jobs[i].key, AESIR_ENCRYPT);
        if (ks->engine != e || ks->nr != nr)
            continue;
        if (hook == NULL) {
            encrypt_one(ks, &jobs[i], mac);
            jobs[i].status = AESIR_OK;
            continue;
        }
        lanes[n].rk = ks->rk_enc;
        lanes[n].in = jobs[i].in;
        lanes[n].out = mac ? NULL : jobs[i].out;
        lanes[n].nblocks = jobs[i].len / 16;
        memcpy(lanes[n].iv, jobs[i].iv, 16);
        job[n++] = &jobs[i];
        if (n == BATCH) {
            run_hook(hook, nr, lanes, job, n);
            n = 0;
        }
    }
    if (n > 0)
        run_hook(hook, nr, lanes, job, n);
}

static int run_many(aesir_cbc_job *jobs, size_t njobs, int mac)
{
    int first_err = AESIR_OK;

    if (jobs == NULL)
        return njobs == 0 ? AESIR_OK : AESIR_E_ARGUMENT;
    for (size_t i = 0; i < njobs; i++) {
        const struct aesir_key_state *ks;
        int err = check_job(&jobs[i], &ks, mac);
        jobs[i].status = err == AESIR_OK ? PENDING : err;
        if (err != AESIR_OK && first_err == AESIR_OK)
            first_err = err;
    }
    for (size_t i = 0; i < njobs; i++) {
        const struct aesir_key_state *ks;
        if (jobs[i].status != PENDING)
            continue;
        ks = aesir_key_state(jobs[i].key, AESIR_ENCRYPT);
        run_group(jobs, njobs, i, ks->engine, ks->nr, mac);
    }
    return first_err;
}

int aesir_cbc_encrypt_many(aesir_cbc_job *jobs, size_t njobs)
{
    return run_many(jobs, njobs, 0);
}

int aesir_cbc_mac_many(aesir_cbc_job *jobs, size_t njobs)
{
    return run_many(jobs, njobs, 1);
}
