/*
 * cmd_decrypt.c -- `aesir decrypt (-k KEYFILE | -p) [-o OUT] [--force]
 * [--context STR] [--offset N] [--length M] [--threads N] [--quiet] [IN]`: the
 * C2SP chunked-encryption format (c2sp.org/chunked-encryption; chunked.h),
 * behind a passphrase header with -p (crypt_key.h).
 *
 * Nothing unauthenticated is ever written. To a file (-o), the plaintext
 * goes to a temporary file that replaces OUT only once the whole message
 * verified (outfile.h). To stdout, each chunk is written once it
 * authenticated; a failure anywhere then ends with exit 1 and a message
 * naming the problem and the byte offset, after the chunks before it.
 *
 * Speed: a stream is read 64 chunks (~1 MiB) per thread at a time (8
 * MiB at most); with more than one thread (--threads, default the online
 * CPUs) the whole chunks of a read are opened on a thread pool
 * (crypt_pool.h). A regular file's chunks are opened where they were
 * read (chunked_dec_in_place: no second buffer's cache traffic) and
 * written from between their tags; a pipe's go into an output buffer,
 * since a chunk that fails must keep its ciphertext for the error
 * message and a pipe cannot be read again. chunked_dec_*() then
 * releases exactly what the one-thread path would: the chunks before the
 * first failure, in order, with the same message and offset; what other
 * threads opened after it is wiped, never written. Reading, opening and
 * writing overlap (crypt_pipe.h): the next read and the previous write
 * happen while a batch is opened; a batch's output is handed to the
 * writer only once opened, and nothing after a failure.
 *
 * --offset/--length: on a regular file, only the chunks holding the
 * range are read (pread) and opened, plus the final chunk, which
 * authenticates the length (chunked_ra.c); on a pipe the chunks before
 * the range are read and authenticated but not written, and reading
 * stops at the end of the range.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunked.h"
#include "tool.h"
#include "crypt_io.h"
#include "crypt_key.h"
#include "crypt_openssl.h"
#include "crypt_opts.h"
#include "crypt_pipe.h"
#include "crypt_pool.h"

#define OUT_BUF (64 * CHUNKED_CHUNK)

static void usage(FILE *f)
{
    fputs(
        "usage: aesir decrypt (-k KEYFILE | -p) [-o OUT] [--force] "
        "[--context STR]\n"
        "                     [--offset N] [--length M] [--threads N] "
        "[--quiet]\n"
        "                     [--stats] [IN]\n"
        "  -k, --key FILE    key file (aesir keygen)\n"
        "  -p, --passphrase  the passphrase it was encrypted with\n"
        "  --passphrase-fd N    the passphrase: first line of fd N "
        "(implies -p)\n"
        "  --passphrase-file F  the passphrase: first line of F "
        "(implies -p)\n"
        "  --max-memory MiB  refuse a header asking Argon2id for more "
        "[1024]\n"
        "  -o, --output OUT  write to OUT, only if all of it verifies "
        "[stdout]\n"
        "  -f, --force       replace an existing OUT\n"
        "  --context STR     the context string given to encrypt\n"
        "  --offset N        plaintext from byte N (k/M/G suffixes) [0]\n"
        "  --length M        M bytes of plaintext [to the end]\n"
        "  --threads N       open chunks on N threads [online CPUs, at "
        "most 16]\n"
        "  -q, --quiet       no progress line\n"
        "  --stats           at the end, bytes, wall time and the crypto's "
        "time\n"
        "                    on stderr (not with --format openssl,\n"
        "                    --offset or --length)\n"
        "  --format F        c2sp (default), or openssl: the unauthenticated\n"
        "                    files of `openssl enc -pbkdf2` (a passphrase)\n"
        "  --cipher NAME     with --format openssl: "
        "aes-{128,192,256}-{cbc,ctr}\n"
        "  --iter N          with --format openssl: PBKDF2 iterations [10000]\n"
        "IN: a file, or stdin when absent or '-'.\n",
        f);
}

/* The pipe's writer (crypt_pipe.h): the plaintext stream, of which
 * only the range goes out. pos is the writer thread's own. */
struct emitter {
    struct crypt_out *out;
    const struct crypt_range *rg;
    uint64_t pos; /* plaintext offset of the next byte to emit */
};

/* emit -- the part of the slot's plaintext, [pos, pos + n), that lies in
 * the range. */
static int emit(void *arg, const struct crypt_slot *s, char *err, size_t cap)
{
    struct emitter *em = arg;
    size_t n = s->out_len;
    uint64_t lo = em->rg->off, pos = em->pos,
             hi = em->rg->len == UINT64_MAX ? UINT64_MAX
                                            : em->rg->off + em->rg->len;
    uint64_t a = pos > lo ? pos : lo, b = pos + n < hi ? pos + n : hi;

    em->pos += n;
    if (a >= b)
        return 0;
    return crypt_write_range(em->out, s->out + s->out_at, (size_t)(a - pos),
                             (size_t)(b - pos), s->out_piece, s->out_stride,
                             err, cap);
}

static int past_end(const struct crypt_range *rg, uint64_t total, char *err,
                    size_t cap)
{
    if (rg->off > total)
        snprintf(err, cap,
                 "--offset %llu is past the end of the %llu-byte plaintext",
                 (unsigned long long)rg->off, (unsigned long long)total);
    else if (rg->len != UINT64_MAX && rg->len > total - rg->off)
        snprintf(err, cap,
                 "bytes %llu..%llu are past the end of the %llu-byte "
                 "plaintext",
                 (unsigned long long)rg->off,
                 (unsigned long long)(rg->off + rg->len),
                 (unsigned long long)total);
    else
        return 0;
    return TOOL_EXIT_USAGE;
}

/* range_done -- every chunk the range needs authenticated (pos: the
 * plaintext so far): a stream stops reading there. */
static int range_done(const struct crypt_range *rg, uint64_t pos)
{
    return rg->len != UINT64_MAX && pos >= rg->off + rg->len;
}

struct opener {
    struct chunked_dec *d;
    size_t out_cap; /* of each slot; 0: opened in place */
    const struct crypt_range *rg;
    uint64_t pos; /* the plaintext released so far */
};

/* open_slot -- the pipe's step: opens what slot s read into its output,
 * and the final chunk at the input's end (unless the range is complete:
 * then nothing more is read). */
static int open_slot(void *arg, struct crypt_slot *s, int *stop, char *err,
                     size_t cap)
{
    struct opener *o = arg;
    struct chunked_error ce;
    size_t n, m = 0;
    int st;

    if (o->out_cap == 0) {
        /* A file, without a range (random_access): to its end. */
        st = chunked_dec_in_place(o->d, s->in, s->in_len, s->end, &s->out_at,
                                  &n, &ce);
        s->out_piece = CHUNKED_CHUNK;
        s->out_stride = CHUNKED_SEALED;
        *stop = 0;
    } else {
        st = chunked_dec_update(o->d, s->in, s->in_len, s->out, o->out_cap, &n,
                                &ce);
        *stop = range_done(o->rg, o->pos + n);
        if (st == CHUNKED_OK && s->end && !*stop)
            st = chunked_dec_final(o->d, s->out + n, o->out_cap - n, &m, &ce);
    }
    /* What authenticated before a failure still goes out. */
    s->out_len = n + m;
    o->pos += n + m;
    if (st != CHUNKED_OK) {
        snprintf(err, cap, "%s", ce.msg);
        return crypt_exit(st);
    }
    return 0;
}

struct src {
    int fd;
    uint64_t base; /* where the C2SP stream starts (after a prefix) */
};

static int pread_all(void *arg, uint64_t off, uint8_t *buf, size_t len)
{
    const struct src *s = arg;

    while (len > 0) {
        ssize_t r = pread(s->fd, buf, len, (off_t)(s->base + off));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        buf += r, off += (uint64_t)r, len -= (size_t)r;
    }
    return 0;
}

/*
 * stream -- decrypts the input from its current position, after
 * lead[0..lead_len) (the stream's first bytes, read with a passphrase
 * header). A regular file (without a range: random_access) is opened in
 * place (chunked_dec_in_place), its failing chunk re-read with pread to
 * word the failure; a pipe, which cannot be read again, is opened into a
 * second buffer.
 */
static int stream(const struct crypt_key *k, struct crypt_in *in,
                  const uint8_t *lead, size_t lead_len, struct crypt_out *out,
                  const struct crypt_range *rg, unsigned threads, int flags,
                  char *err, size_t cap)
{
    struct chunked_dec *d = crypt_alloc(sizeof(*d));
    size_t chunks = crypt_pipe_chunks(threads);
    /* A read's whole chunks opened, then the final chunk after them. */
    size_t in_cap = chunks * CHUNKED_SEALED,
           out_cap = chunks * CHUNKED_CHUNK + CHUNKED_CHUNK;
    struct crypt_pipe_shape sh = {in_cap, in_cap, in_cap, out_cap, 0};
    struct crypt_pool *pool = threads > 1 ? crypt_pool_new(threads) : NULL;
    struct emitter em = {out, rg, 0};
    struct opener o = {d, out_cap, rg, 0};
    off_t pos = in->is_file && !rg->on ? lseek(in->fd, 0, SEEK_CUR) : -1;
    struct src src = {in->fd, (uint64_t)pos - lead_len};
    struct chunked_par par;
    int rc = 0, st;

    if (d == NULL) {
        snprintf(err, cap, "out of memory");
        rc = TOOL_EXIT_IO;
        goto done;
    }
    if ((st = chunked_dec_init(d, k->key, k->key_len, k->ctx, k->ctx_len)) !=
        CHUNKED_OK) {
        snprintf(err, cap, "cannot start");
        rc = crypt_exit(st);
        goto done;
    }
    if (threads > 1 && pool == NULL) {
        snprintf(err, cap, "cannot start %u threads", threads);
        rc = TOOL_EXIT_IO;
        goto done;
    }
    if (pool != NULL) {
        crypt_pool_par(pool, &par);
        d->par = &par;
    }
    if (pos >= 0 && (uint64_t)pos >= lead_len) {
        /* In place: the first slot the header and whole chunks, so that
         * no chunk straddles two slots. */
        sh.out_cap = o.out_cap = 0;
        sh.first_cap = CHUNKED_HEADER + (chunks - 1) * CHUNKED_SEALED;
        d->reread = pread_all;
        d->reread_arg = &src;
    }
    rc = crypt_pipe_run(in, &sh, lead, lead_len, open_slot, &o, emit, &em,
                        flags, err, cap);
    if (rc == 0 && rg->on)
        rc = past_end(rg, o.pos, err, cap);
done:
    crypt_pool_free(pool);
    if (d != NULL)
        chunked_dec_clear(d);
    free(d);
    return rc;
}

/* random_access -- the range of a regular file, chunks by pread. */
static int random_access(const struct crypt_key *k, struct crypt_in *in,
                         struct crypt_out *out, struct crypt_range *rg,
                         char *err, size_t cap)
{
    struct chunked_ra *r = crypt_alloc(sizeof(*r));
    struct src s = {in->fd, k->prefix_len};
    struct chunked_error ce;
    uint8_t *ob = malloc(OUT_BUF);
    uint64_t ct_len = (uint64_t)in->st.st_size - k->prefix_len;
    int rc = 0, st;

    if (r == NULL || ob == NULL) {
        free(r);
        free(ob);
        snprintf(err, cap, "out of memory");
        return TOOL_EXIT_IO;
    }
    st = chunked_ra_open(r, k->key, k->key_len, k->ctx, k->ctx_len, pread_all,
                         &s, ct_len, &ce);
    if (st != CHUNKED_OK) {
        snprintf(err, cap, "%s", ce.msg);
        rc = crypt_exit(st);
    }
    if (rc == 0)
        rc = past_end(rg, r->pt_len, err, cap);
    if (rc == 0 && rg->len == UINT64_MAX)
        rg->len = r->pt_len - rg->off;
    while (rc == 0 && rg->len > 0) {
        size_t n = rg->len < OUT_BUF ? (size_t)rg->len : OUT_BUF;
        st = chunked_ra_read(r, rg->off, ob, n, &ce);
        if (st != CHUNKED_OK) {
            snprintf(err, cap, "%s", ce.msg);
            rc = crypt_exit(st);
            break;
        }
        rc = crypt_write(out, ob, n, err, cap);
        rg->off += n, rg->len -= n;
    }
    chunked_ra_clear(r);
    free(r);
    chunked_wipe(ob, OUT_BUF);
    free(ob);
    return rc;
}

int cmd_decrypt(int argc, char **argv)
{
    char err[CRYPT_ERR];
    struct crypt_opts o;
    struct crypt_key k;
    uint8_t lead[CRYPT_PREFIX_MAX];
    size_t lead_len;
    struct crypt_in in;
    struct crypt_out out;
    int rc;

    if ((rc = crypt_opts_parse(&o, argc, argv, 1, usage)) != 0)
        return rc < 0 ? 0 : rc;
    rc =
        crypt_start(&o, 0600, &in, &k, lead, &lead_len, &out, err, sizeof(err));
    if (rc != 0)
        return rc;
    if (o.ossl)
        rc = crypt_ossl_run(&o.ossl_opts, &o.key, 1, &in, &out, err,
                            sizeof(err));
    else if (o.range.on && in.is_file)
        rc = random_access(&k, &in, &out, &o.range, err, sizeof(err));
    else
        rc = stream(&k, &in, lead, lead_len, &out, &o.range, o.threads,
                    crypt_opts_pipe_flags(&o), err, sizeof(err));
    return crypt_finish(&o, rc, &in, &out, &k, err, sizeof(err));
}
