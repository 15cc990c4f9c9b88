/*
 * cmd_encrypt.c -- `aesir encrypt (-k KEYFILE | -p) [-o OUT] [--force]
 * [--context STR] [--threads N] [--quiet] [IN]`: IN (or stdin) in the C2SP
 * chunked- encryption format (c2sp.org/chunked-encryption; tools/chunked.h),
 * AES-256-GCM or AES-128-GCM as the key file says.
 *
 * Speed: the input is read 1 MiB (64 chunks) per thread at a time (8 MiB
 * at most), each chunk where its sealed form goes (one readv(2): chunk j
 * at j * 16400), sealed there in place and written with one write(2): no
 * per-chunk copy or system call, and one buffer per batch, not an input
 * and an output (chunked_enc_in_place). With more
 * than one thread (--threads, default the online CPUs) the chunks of a
 * read are sealed on a thread pool (crypt_pool.h). Reading, sealing and
 * writing overlap (crypt_pipe.h): a reader thread reads the next batch
 * and a writer thread writes the previous one while this one is sealed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chunked.h"
#include "tool.h"
#include "crypt_io.h"
#include "crypt_key.h"
#include "crypt_openssl.h"
#include "crypt_opts.h"
#include "crypt_pipe.h"
#include "crypt_pool.h"

static void usage(FILE *f)
{
    fputs(
        "usage: aesir encrypt (-k KEYFILE | -p) [-o OUT] [--force] "
        "[--context STR] [--threads N]\n"
        "                     [--quiet] [--stats] [IN]\n"
        "  -k, --key FILE    key file (aesir keygen): AES-256-GCM or "
        "AES-128-GCM\n"
        "  -p, --passphrase  a passphrase (asked twice on the terminal), "
        "Argon2id,\n"
        "                    AES-256-GCM\n"
        "  --passphrase-fd N    the passphrase: first line of fd N "
        "(implies -p)\n"
        "  --passphrase-file F  the passphrase: first line of F "
        "(implies -p)\n"
        "  --argon2-time N      Argon2id passes [3]\n"
        "  --argon2-memory MiB  Argon2id memory [256]\n"
        "  -o, --output OUT  write to OUT atomically [stdout, never a "
        "terminal]\n"
        "  -f, --force       replace an existing OUT\n"
        "  --context STR     C2SP context string, needed again to decrypt\n"
        "  --threads N       seal chunks on N threads [online CPUs, at "
        "most 16]\n"
        "  -q, --quiet       no progress line\n"
        "  --stats           at the end, bytes, wall time and the crypto's "
        "time\n"
        "                    on stderr (not with --format openssl)\n"
        "  --format F        c2sp (default), or openssl: the unauthenticated\n"
        "                    files of `openssl enc -pbkdf2` (a passphrase)\n"
        "  --cipher NAME     with --format openssl: "
        "aes-{128,192,256}-{cbc,ctr}\n"
        "  --iter N          with --format openssl: PBKDF2 iterations [10000]\n"
        "IN: a file, or stdin when absent or '-'.\n",
        f);
}

/* write_out -- the pipe's writer (crypt_pipe.h): straight to the output. */
static int write_out(void *arg, const struct crypt_slot *s, char *err,
                     size_t cap)
{
    return crypt_write(arg, s->out, s->out_len, err, cap);
}

/* seal_slot -- the pipe's step: seals what slot s read where it lies
 * (the pipe's out is its in), with the final chunk after the input's
 * end. */
static int seal_slot(void *arg, struct crypt_slot *s, int *stop, char *err,
                     size_t cap)
{
    size_t n;
    int st = chunked_enc_in_place(arg, s->in, s->in_len, s->end, &n);

    (void)stop; /* the input's end is the only end */
    s->out_len = 0;
    if (st != CHUNKED_OK) {
        snprintf(err, cap, "%s",
                 st == CHUNKED_E_TOO_LONG ? "input too long (2^38 chunks)"
                                          : "internal error");
        return crypt_exit(st);
    }
    s->out_len = n;
    return 0;
}

/* run -- the encryption proper, once key, input and output are set. */
static int run(const struct crypt_key *k, struct crypt_in *in,
               struct crypt_out *out, unsigned threads, int flags, char *err,
               size_t cap)
{
    struct chunked_enc *e = crypt_alloc(sizeof(*e));
    /* A read's chunks each where its sealed form goes, sealed in place
     * (the final chunk, shorter, fits where a full one would be). */
    struct crypt_pipe_shape sh = {crypt_pipe_chunks(threads) * CHUNKED_CHUNK,
                                  CHUNKED_CHUNK, CHUNKED_SEALED, 0, 0};
    uint8_t hdr[CHUNKED_HEADER];
    struct crypt_pool *pool = threads > 1 ? crypt_pool_new(threads) : NULL;
    struct chunked_par par;
    int rc = TOOL_EXIT_UNAVAILABLE, st;

    if (e == NULL) {
        snprintf(err, cap, "out of memory");
        rc = TOOL_EXIT_IO;
        goto done;
    }
    st = chunked_enc_init(e, k->key, k->key_len, k->ctx, k->ctx_len, NULL, hdr);
    if (st != CHUNKED_OK) {
        snprintf(err, cap, "cannot start: %s",
                 st == CHUNKED_E_UNAVAILABLE ? "built without OpenSSL"
                                             : "libcrypto failed");
        goto done;
    }
    if (threads > 1 && pool == NULL) {
        snprintf(err, cap, "cannot start %u threads", threads);
        rc = TOOL_EXIT_IO;
        goto done;
    }
    if (pool != NULL) {
        crypt_pool_par(pool, &par);
        e->par = &par;
    }
    if ((rc = crypt_write(out, k->prefix, k->prefix_len, err, cap)) != 0 ||
        (rc = crypt_write(out, hdr, sizeof(hdr), err, cap)) != 0)
        goto done;
    rc = crypt_pipe_run(in, &sh, NULL, 0, seal_slot, e, write_out, out, flags,
                        err, cap);
done:
    crypt_pool_free(pool);
    if (e != NULL)
        chunked_enc_clear(e);
    free(e);
    return rc;
}

int cmd_encrypt(int argc, char **argv)
{
    char err[CRYPT_ERR];
    struct crypt_opts o;
    struct crypt_key k;
    struct crypt_in in;
    struct crypt_out out;
    mode_t mask = umask(0);
    int rc;

    umask(mask);
    if ((rc = crypt_opts_parse(&o, argc, argv, 0, usage)) != 0)
        return rc < 0 ? 0 : rc;
    /* Ciphertext gets the usual permissions; the temporary file is 0600
     * until it is complete. */
    rc = crypt_start(&o, 0666 & ~mask, &in, &k, NULL, NULL, &out, err,
                     sizeof(err));
    if (rc != 0)
        return rc;
    if (o.ossl)
        rc = crypt_ossl_run(&o.ossl_opts, &o.key, 0, &in, &out, err,
                            sizeof(err));
    else
        rc = run(&k, &in, &out, o.threads, crypt_opts_pipe_flags(&o), err,
                 sizeof(err));
    return crypt_finish(&o, rc, &in, &out, &k, err, sizeof(err));
}
