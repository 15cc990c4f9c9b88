/*
 * crypt_pipe.c -- the reader and writer threads around the crypto of
 * `aesir encrypt/decrypt` (crypt_pipe.h).
 *
 * Three counters under one mutex say where every slot is: slots
 * [written, handed) are the writer's, [handed, read) are read and wait
 * for the caller, and the reader may fill slot `read` only while
 * read - written < CRYPT_PIPE_SLOTS, so it never touches a slot the
 * caller or the writer still holds. Slot k of the sequence is
 * slot[k % CRYPT_PIPE_SLOTS]. One condition variable, broadcast on every
 * change: three threads, a few changes per MiB.
 *
 * The reader can be cancelled only while it is in crypt_read() (it
 * holds no lock there, and cancellation is disabled everywhere else), so
 * pipe_end() can stop it when a pipe brings no more input.
 *
 * A regular file is read by two threads: the reader fills the first half
 * of each slot and a co-reader the second half at once, both with
 * pread(2) at offsets counted from where the file stood at the start.
 * Copying from the page cache is then no longer one core's work: a 1 GiB
 * file in /dev/shm took 0.158 s to read in 1 MiB preads on one thread and
 * 0.080 s on two (Zen 4, 2 vCPUs), while the whole encryption to
 * /dev/null took 0.19-0.21 s, its reader the bottleneck (docs/tool.md
 * "Speed"). A read from a regular file cannot block for ever, so the
 * reader of a file is never cancelled: pipe_end() waits for its slot.
 */
#define _POSIX_C_SOURCE 200809L
#include "crypt_pipe.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chunked.h"
#include "progress.h"
#include "tool.h"

#define MAX_THREADS_PER_SLOT 8

struct crypt_pipe {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned long read, handed, written; /* slot sequence numbers */
    int stop;                            /* the reader: read no more */
    int closing; /* the writer: exit once [written, handed) is written */
    int reading; /* the reader is in crypt_read(): cancel it there */
    int werr;    /* the writer's exit code, 0 */
    char err[CRYPT_ERR];
    int fd;
    struct crypt_pipe_shape sh;
    size_t in_size; /* bytes allocated for each slot's in */
    const uint8_t *lead;
    size_t lead_len;
    crypt_pipe_write_fn write;
    void *arg;
    pthread_t reader, writer;
    int started; /* threads running: 0, 1 (reader) or 2 (both) */
    /* A regular file: the co-reader reads the second half of each slot.
     * co_mu and co_cv are the reader's and the co-reader's only. */
    int split;
    off_t pos; /* split: the file offset of the next byte to read */
    pthread_t co_reader;
    int co_started;
    pthread_mutex_t co_mu;
    pthread_cond_t co_cv;
    enum { CO_IDLE, CO_ASKED, CO_DONE, CO_QUIT } co_state;
    uint8_t *co_buf;
    size_t co_from, co_to;
    off_t co_off;
    ssize_t co_r;
    int co_err;
    struct crypt_slot slot[CRYPT_PIPE_SLOTS];
};

size_t crypt_pipe_chunks(unsigned threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > MAX_THREADS_PER_SLOT)
        threads = MAX_THREADS_PER_SLOT;
    return 64 * (size_t)threads;
}

static void *co_reader(void *v)
{
    struct crypt_pipe *p = v;

    pthread_mutex_lock(&p->co_mu);
    for (;;) {
        ssize_t r;
        int e;
        while (p->co_state != CO_ASKED && p->co_state != CO_QUIT)
            pthread_cond_wait(&p->co_cv, &p->co_mu);
        if (p->co_state == CO_QUIT)
            break;
        pthread_mutex_unlock(&p->co_mu);
        errno = 0;
        r = crypt_read_range(p->fd, p->co_buf, p->co_from, p->co_to,
                             p->sh.piece, p->sh.stride, p->co_off);
        e = errno;
        pthread_mutex_lock(&p->co_mu);
        p->co_r = r;
        p->co_err = e;
        p->co_state = CO_DONE;
        pthread_cond_broadcast(&p->co_cv);
    }
    pthread_mutex_unlock(&p->co_mu);
    return NULL;
}

/* fill_split -- input bytes [lead, in_cap) of buf, the second half on
 * the co-reader: the bytes read, or -1 with *err. When the file ends in
 * the first half, what the second half found (the file may have grown
 * meanwhile) is not counted, so the slot is always a prefix of the
 * input. */
static ssize_t fill_split(struct crypt_pipe *p, uint8_t *buf, size_t lead,
                          size_t cap, int *err)
{
    size_t piece = p->sh.piece;
    size_t h = piece < cap ? cap / piece / 2 * piece : cap / 2;
    ssize_t r1, r2;

    if (h <= lead)
        h = lead + (cap - lead) / 2;
    pthread_mutex_lock(&p->co_mu);
    p->co_buf = buf;
    p->co_from = h;
    p->co_to = cap;
    p->co_off = p->pos + (off_t)(h - lead);
    p->co_state = CO_ASKED;
    pthread_cond_broadcast(&p->co_cv);
    pthread_mutex_unlock(&p->co_mu);
    errno = 0;
    r1 = crypt_read_range(p->fd, buf, lead, h, piece, p->sh.stride, p->pos);
    *err = errno;
    pthread_mutex_lock(&p->co_mu);
    while (p->co_state != CO_DONE)
        pthread_cond_wait(&p->co_cv, &p->co_mu);
    p->co_state = CO_IDLE;
    r2 = p->co_r;
    if (r1 >= 0 && (size_t)r1 == h - lead && r2 < 0)
        *err = p->co_err;
    pthread_mutex_unlock(&p->co_mu);
    if (r1 < 0)
        return -1;
    if ((size_t)r1 == h - lead) {
        if (r2 < 0)
            return -1;
        r1 += r2;
    }
    p->pos += (off_t)r1;
    return r1;
}

/* fill -- reads slot s, of at most cap bytes (the lead first, for the
 * first one). */
static void fill(struct crypt_pipe *p, struct crypt_slot *s, size_t lead,
                 size_t cap)
{
    ssize_t r;
    int old, e;

    if (lead != 0)
        memcpy(s->in, p->lead, lead); /* contiguous: pipe_new() */
    if (p->split) {
        r = fill_split(p, s->in, lead, cap, &e);
    } else {
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
        errno = 0;
        r = crypt_read_range(p->fd, s->in, lead, cap, p->sh.piece, p->sh.stride,
                             -1);
        e = errno;
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    }
    s->rerr = r < 0 ? (e != 0 ? e : EIO) : 0;
    s->in_len = r < 0 ? 0 : lead + (size_t)r;
    s->end = r < 0 || s->in_len < cap;
}

static void *reader(void *v)
{
    struct crypt_pipe *p = v;
    size_t lead = p->lead_len, cap = p->sh.first_cap;
    int old;

    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        struct crypt_slot *s;
        while (!p->stop && p->read - p->written >= CRYPT_PIPE_SLOTS)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->stop)
            break;
        s = &p->slot[p->read % CRYPT_PIPE_SLOTS];
        p->reading = !p->split; /* a file's read ends: not cancelled */
        pthread_mutex_unlock(&p->mu);
        fill(p, s, lead, cap);
        lead = 0, cap = p->sh.in_cap;
        pthread_mutex_lock(&p->mu);
        p->reading = 0;
        p->read++;
        pthread_cond_broadcast(&p->cv);
        if (s->end)
            break;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void *writer(void *v)
{
    struct crypt_pipe *p = v;
    char err[CRYPT_ERR];

    pthread_mutex_lock(&p->mu);
    for (;;) {
        struct crypt_slot *s;
        int rc = 0;
        while (p->written == p->handed && !p->closing)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->written == p->handed)
            break; /* closing, and everything is written */
        s = &p->slot[p->written % CRYPT_PIPE_SLOTS];
        if (p->werr == 0) {
            pthread_mutex_unlock(&p->mu);
            rc = p->write(p->arg, s, err, sizeof(err));
            pthread_mutex_lock(&p->mu);
        }
        if (rc != 0) {
            /* Nothing more is written; the caller's next
             * pipe_next() returns NULL. */
            p->werr = rc;
            p->stop = 1;
            memcpy(p->err, err, strlen(err) + 1);
        }
        p->written++;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* release -- wipes and frees the slots and p; the threads are gone. */
static void release(struct crypt_pipe *p)
{
    for (int i = 0; i < CRYPT_PIPE_SLOTS; i++) {
        if (p->slot[i].in != NULL)
            chunked_wipe(p->slot[i].in, p->in_size);
        if (p->sh.out_cap != 0 && p->slot[i].out != NULL)
            chunked_wipe(p->slot[i].out, p->sh.out_cap);
        free(p->slot[i].in);
        if (p->sh.out_cap != 0)
            free(p->slot[i].out);
    }
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->co_cv);
    pthread_mutex_destroy(&p->co_mu);
    free(p);
}

/* pipe_end -- waits until every slot handed over is written, stops the
 * reader, wipes and frees: 0, or the writer's exit code and message. */
static int pipe_end(struct crypt_pipe *p, char *err, size_t cap)
{
    int rc;

    if (p == NULL)
        return 0;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    p->closing = 1;
    if (p->reading)
        pthread_cancel(p->reader);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (p->started >= 2)
        pthread_join(p->writer, NULL);
    if (p->started >= 1)
        pthread_join(p->reader, NULL);
    if (p->co_started) {
        pthread_mutex_lock(&p->co_mu);
        p->co_state = CO_QUIT; /* the reader is gone: nothing is asked */
        pthread_cond_broadcast(&p->co_cv);
        pthread_mutex_unlock(&p->co_mu);
        pthread_join(p->co_reader, NULL);
    }
    rc = p->werr;
    if (rc != 0 && err != NULL && cap > 0) {
        size_t n = strlen(p->err);
        if (n >= cap)
            n = cap - 1;
        memcpy(err, p->err, n);
        err[n] = '\0';
    }
    release(p);
    return rc;
}

/* pipe_new -- starts reading fd (after lead; with two threads when
 * is_file says it is a regular file) and the writer; NULL when out of
 * memory or the threads cannot be started. */
static struct crypt_pipe *pipe_new(int fd, int is_file,
                                   const struct crypt_pipe_shape *sh,
                                   const uint8_t *lead, size_t lead_len,
                                   crypt_pipe_write_fn write, void *arg)
{
    struct crypt_pipe *p;
    sigset_t all, old;

    if (sh->piece == 0 || sh->stride < sh->piece ||
        sh->in_cap % sh->piece != 0 || sh->first_cap > sh->in_cap ||
        (sh->first_cap % sh->piece != 0 && sh->piece != sh->in_cap) ||
        (lead_len != 0 && sh->piece != sh->in_cap))
        return NULL;
    if ((p = calloc(1, sizeof(*p))) == NULL)
        return NULL;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->cv, NULL);
    pthread_mutex_init(&p->co_mu, NULL);
    pthread_cond_init(&p->co_cv, NULL);
    p->fd = fd;
    p->sh = *sh;
    if (p->sh.first_cap == 0)
        p->sh.first_cap = sh->in_cap;
    if (lead_len >= p->sh.first_cap) {
        release(p);
        return NULL;
    }
    p->in_size = sh->in_cap / sh->piece * sh->stride;
    p->lead = lead;
    p->lead_len = lead_len;
    p->write = write;
    p->arg = arg;
    for (int i = 0; i < CRYPT_PIPE_SLOTS; i++) {
        p->slot[i].in = crypt_alloc(p->in_size);
        p->slot[i].out =
            sh->out_cap != 0 ? crypt_alloc(sh->out_cap) : p->slot[i].in;
        if (p->slot[i].in == NULL || p->slot[i].out == NULL) {
            release(p);
            return NULL;
        }
    }
    /* The threads inherit a full signal mask: signals go to the main
     * thread (crypt_pipe.h). */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    /* Without a co-reader (or a file offset) the reader reads alone. */
    if (is_file && (p->pos = lseek(fd, 0, SEEK_CUR)) >= 0 &&
        pthread_create(&p->co_reader, NULL, co_reader, p) == 0)
        p->split = p->co_started = 1;
    if (pthread_create(&p->reader, NULL, reader, p) == 0) {
        p->started = 1;
        if (pthread_create(&p->writer, NULL, writer, p) == 0)
            p->started = 2;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (p->started < 2) {
        pipe_end(p, NULL, 0);
        return NULL;
    }
    return p;
}

/* pipe_next -- the next slot read, in order (waits for it); NULL once
 * the writer failed. */
static struct crypt_slot *pipe_next(struct crypt_pipe *p)
{
    struct crypt_slot *s = NULL;

    pthread_mutex_lock(&p->mu);
    while (p->werr == 0 && p->handed == p->read)
        pthread_cond_wait(&p->cv, &p->mu);
    if (p->werr == 0)
        s = &p->slot[p->handed % CRYPT_PIPE_SLOTS];
    pthread_mutex_unlock(&p->mu);
    if (s != NULL)
        s->out_len = s->out_at = s->out_piece = s->out_stride = 0;
    return s;
}

/* pipe_put -- hands the slot pipe_next() returned to the writer. */
static void pipe_put(struct crypt_pipe *p)
{
    pthread_mutex_lock(&p->mu);
    p->handed++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Seconds on clock c. */
static double secs(clockid_t c)
{
    struct timespec ts;

    if (clock_gettime(c, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Where a run's time went, for --stats (CRYPT_PIPE_STATS). */
struct pipe_stats {
    uint64_t bytes;
    double start, step_cpu, step_wall;
};

static double rate(uint64_t bytes, double s)
{
    return s > 0 ? (double)bytes / s / 1e9 : 0;
}

static void stats_print(const struct pipe_stats *st)
{
    double wall = secs(CLOCK_MONOTONIC) - st->start;

    fprintf(stderr,
            "aesir: stats: %llu bytes read in %.6f s (%.2f GB/s); crypto: "
            "%.6f s CPU on the calling thread (%.2f GB/s), %.6f s wall "
            "(%.2f GB/s)\n",
            (unsigned long long)st->bytes, wall, rate(st->bytes, wall),
            st->step_cpu, rate(st->bytes, st->step_cpu), st->step_wall,
            rate(st->bytes, st->step_wall));
}

int crypt_pipe_run(const struct crypt_in *in, const struct crypt_pipe_shape *sh,
                   const uint8_t *lead, size_t lead_len,
                   crypt_pipe_step_fn step, void *step_arg,
                   crypt_pipe_write_fn write, void *write_arg, int flags,
                   char *err, size_t cap)
{
    struct crypt_pipe *p;
    struct progress pr;
    struct pipe_stats st = {0, secs(CLOCK_MONOTONIC), 0, 0};
    char werr[CRYPT_ERR];
    int rc = 0, wrc;

    p = pipe_new(in->fd, in->is_file, sh, lead, lead_len, write, write_arg);
    if (p == NULL) {
        snprintf(err, cap, "cannot start the I/O threads");
        return TOOL_EXIT_IO;
    }
    progress_init(&pr, in->is_file ? (uint64_t)in->st.st_size : 0,
                  flags & CRYPT_PIPE_QUIET);
    for (;;) {
        struct crypt_slot *s = pipe_next(p);
        size_t r;
        int end, stop = 0;
        if (s == NULL)
            break; /* the writer failed: pipe_end() says how */
        if (s->rerr != 0) {
            snprintf(err, cap, "reading %s: %s", in->name, strerror(s->rerr));
            rc = TOOL_EXIT_IO;
            break;
        }
        if (flags & CRYPT_PIPE_STATS) {
            double c0 = secs(CLOCK_THREAD_CPUTIME_ID),
                   w0 = secs(CLOCK_MONOTONIC);
            rc = step(step_arg, s, &stop, err, cap);
            st.step_cpu += secs(CLOCK_THREAD_CPUTIME_ID) - c0;
            st.step_wall += secs(CLOCK_MONOTONIC) - w0;
            st.bytes += s->in_len;
        } else {
            rc = step(step_arg, s, &stop, err, cap);
        }
        r = s->in_len, end = s->end; /* s is the writer's after this */
        pipe_put(p);
        if (rc != 0 || stop || end)
            break;
        progress_add(&pr, (uint64_t)r);
    }
    progress_end(&pr);
    if (flags & CRYPT_PIPE_STATS)
        stats_print(&st);
    /* A write error came first: it ends the loop above a slot later. */
    if ((wrc = pipe_end(p, werr, sizeof(werr))) != 0) {
        rc = wrc;
        snprintf(err, cap, "%s", werr);
    }
    return rc;
}
