/*
 * crypt_pool.c -- the thread pool behind `aesir encrypt/decrypt
 * --threads N` (crypt_pool.h; issue 20 point 4).
 *
 * One job at a time: crypt_pool_run() publishes fn, arg and n under the
 * mutex, bumps a generation number and wakes the workers; everyone (the
 * caller included) then takes the next range of n / threads items
 * (rounded up, at most GRAIN) until none is left, and keeps the smallest
 * failure index reported. The caller waits until every range is finished before
 * it returns, so the buffers the ranges write are complete, in order, and no
 * worker touches them afterwards. A failure stops no other range: the C2SP
 * layer wipes what was opened after the first failure.
 *
 * The pool holds no data of its own (the chunks are sealed and opened in
 * the caller's buffers, which the commands wipe), and no global state.
 */
#define _POSIX_C_SOURCE 200809L
#include "crypt_pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "args.h"

#define GRAIN 16 /* items (chunks) per range, at most */

struct crypt_pool {
    pthread_mutex_t mu;
    pthread_cond_t work; /* a new job, or quit */
    pthread_cond_t idle; /* the last range of a job finished */
    unsigned nthreads;   /* workers + the caller */
    unsigned nworkers;   /* started */
    unsigned long gen;   /* job number: workers wait for it to change */
    int quit;
    chunked_range_fn fn;
    void *arg;
    size_t n, grain;
    size_t next;    /* the first item not yet handed out */
    size_t pending; /* ranges handed out and not yet finished */
    size_t first;   /* the smallest failure so far, SIZE_MAX: none */
    pthread_t tid[CRYPT_POOL_MAX];
};

unsigned crypt_pool_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 16 ? 16 : (unsigned)n;
}

int crypt_pool_threads(const char *arg, unsigned *n, char *err, size_t cap)
{
    uint64_t v;
    char q[96];

    if (arg == NULL) {
        *n = crypt_pool_default();
        return 0;
    }
    if (args_uint(arg, 1, CRYPT_POOL_MAX, &v) != ARGS_OK) {
        snprintf(err, cap, "--threads: '%s' is not a number from 1 to %d",
                 args_quote(q, sizeof(q), arg), CRYPT_POOL_MAX);
        return -1;
    }
    *n = (unsigned)v;
    return 0;
}

/* work -- takes ranges of the current job until none is left; called
 * and returns with p->mu held. */
static void work(struct crypt_pool *p)
{
    while (p->next < p->n) {
        size_t lo = p->next, hi = p->n - lo > p->grain ? lo + p->grain : p->n,
               r;
        chunked_range_fn fn = p->fn;
        void *arg = p->arg;

        p->next = hi;
        p->pending++;
        pthread_mutex_unlock(&p->mu);
        r = fn(arg, lo, hi);
        pthread_mutex_lock(&p->mu);
        if (r < p->first)
            p->first = r;
        if (--p->pending == 0 && p->next >= p->n)
            pthread_cond_signal(&p->idle);
    }
}

static void *worker(void *v)
{
    struct crypt_pool *p = v;
    unsigned long seen = 0;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        work(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static size_t run(void *pool, size_t n, chunked_range_fn fn, void *arg)
{
    struct crypt_pool *p = pool;
    size_t first;

    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->n = n;
    /* Ranges of at most GRAIN chunks, so a thread that the scheduler
     * delays (other processes on the cores) holds up at most a little:
     * the others take the rest. A range costs one lock, against ~25 us
     * of GCM for 16 chunks. */
    p->grain = (n + p->nthreads - 1) / p->nthreads;
    if (p->grain > GRAIN)
        p->grain = GRAIN;
    if (p->grain == 0)
        p->grain = 1;
    p->next = 0;
    p->pending = 0;
    p->first = SIZE_MAX;
    p->gen++;
    pthread_cond_broadcast(&p->work);
    work(p);
    while (p->pending > 0)
        pthread_cond_wait(&p->idle, &p->mu);
    first = p->first;
    /* No range is left to hand out: a worker that wakes late for this
     * job finds nothing and goes back to sleep. */
    pthread_mutex_unlock(&p->mu);
    return first;
}

struct crypt_pool *crypt_pool_new(unsigned threads)
{
    struct crypt_pool *p;
    sigset_t all, old;

    if (threads < 2 || threads > CRYPT_POOL_MAX)
        return NULL;
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    p->nthreads = threads;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->idle, NULL);
    /* The workers inherit a full signal mask: SIGINT and SIGTERM are
     * handled on the main thread, which owns the temporary file. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (unsigned i = 0; i + 1 < threads; i++) {
        if (pthread_create(&p->tid[i], NULL, worker, p) != 0)
            break;
        p->nworkers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (p->nworkers + 1 < threads) {
        crypt_pool_free(p);
        return NULL;
    }
    return p;
}

void crypt_pool_par(struct crypt_pool *p, struct chunked_par *par)
{
    par->run = run;
    par->pool = p;
}

void crypt_pool_free(struct crypt_pool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nworkers; i++)
        pthread_join(p->tid[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
