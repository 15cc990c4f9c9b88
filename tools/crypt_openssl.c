/*
 * crypt_openssl.c -- `aesir encrypt|decrypt --format openssl`
 * (crypt_openssl.h) on openssl_fmt.h's streaming module.
 */
#define _POSIX_C_SOURCE 200809L
#include "crypt_openssl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openssl_fmt.h"
#include "pw_read.h"
#include "tool.h"

#define IO_BUF (1u << 20)

int crypt_ossl_selected(const struct crypt_ossl_opts *o,
                        const struct crypt_key_opts *ko, int has_range,
                        char *err, size_t cap)
{
    const char *bad = NULL;
    struct ossl_fmt_cipher c;
    uint32_t iter;

    if (o->format == NULL || strcmp(o->format, "c2sp") == 0) {
        if (o->cipher != NULL || o->iter != NULL) {
            snprintf(err, cap, "%s is for --format openssl",
                     o->cipher != NULL ? "--cipher" : "--iter");
            return -1;
        }
        return 0;
    }
    if (strcmp(o->format, "openssl") != 0) {
        snprintf(err, cap, "--format: want c2sp or openssl");
        return -1;
    }
    if (ko->keyfile != NULL)
        bad = "-k (the format takes a passphrase)";
    else if (ko->context != NULL)
        bad = "--context";
    else if (ko->argon2_time != NULL || ko->argon2_memory != NULL)
        bad = "--argon2-time/--argon2-memory";
    else if (ko->max_memory != NULL)
        bad = "--max-memory";
    else if (has_range)
        bad = "--offset/--length";
    if (bad != NULL) {
        snprintf(err, cap, "%s does not go with --format openssl", bad);
        return -1;
    }
    if (o->cipher == NULL) {
        snprintf(err, cap,
                 "--format openssl needs --cipher (e.g. "
                 "aes-256-cbc): the file does not say which");
        return -1;
    }
    if (ossl_fmt_cipher(o->cipher, &c, err, cap) != 0 ||
        (o->iter != NULL && ossl_fmt_iter(o->iter, &iter, err, cap) != 0))
        return -1;
    return 1;
}

/* The passphrase of -p / --passphrase-fd / --passphrase-file. */
static int passphrase(const struct crypt_key_opts *ko, int confirm, char *pass,
                      size_t *n, char *err, size_t cap)
{
    struct pw_source src = crypt_key_pw_source(ko);
    return pw_read(&src, confirm, pass, PW_PASS_MAX + 1, n, err, cap);
}

/* in to out through f (set up), then its final block. */
static int pump(struct ossl_fmt *f, struct crypt_in *in, struct crypt_out *out,
                char *err, size_t cap)
{
    uint8_t *ib = malloc(IO_BUF), *ob = malloc(OSSL_FMT_OUT_CAP(IO_BUF));
    size_t n;
    int rc = 0;

    if (ib == NULL || ob == NULL) {
        snprintf(err, cap, "out of memory");
        rc = TOOL_EXIT_IO;
        ossl_fmt_wipe(f);
    }
    while (rc == 0) {
        ssize_t r = crypt_read(in->fd, ib, IO_BUF);
        if (r < 0) {
            snprintf(err, cap, "reading %s: %s", in->name, strerror(errno));
            rc = TOOL_EXIT_IO;
            ossl_fmt_wipe(f);
            break;
        }
        rc = ossl_fmt_update(f, ob, OSSL_FMT_OUT_CAP(IO_BUF), &n, ib, (size_t)r,
                             err, cap);
        if (rc == 0)
            rc = crypt_write(out, ob, n, err, cap);
        if (rc != 0 || (size_t)r < IO_BUF)
            break;
    }
    if (rc == 0) {
        rc = ossl_fmt_final(f, ob, OSSL_FMT_OUT_CAP(IO_BUF), &n, err, cap);
        if (rc == 0)
            rc = crypt_write(out, ob, n, err, cap);
    } else {
        ossl_fmt_wipe(f);
    }
    if (ob != NULL) /* plaintext, when decrypting */
        chunked_wipe(ob, OSSL_FMT_OUT_CAP(IO_BUF));
    free(ib);
    free(ob);
    return rc;
}

int crypt_ossl_run(const struct crypt_ossl_opts *o,
                   const struct crypt_key_opts *ko, int decrypt,
                   struct crypt_in *in, struct crypt_out *out, char *err,
                   size_t cap)
{
    struct ossl_fmt *f = crypt_alloc(sizeof(*f));
    struct ossl_fmt_cipher c;
    uint32_t iter = OSSL_FMT_ITER_DEFAULT;
    uint8_t hdr[OSSL_FMT_HEADER_LEN];
    char pass[PW_PASS_MAX + 1];
    size_t n = 0;
    int rc;

    fprintf(stderr, "aesir %s: %s\n", decrypt ? "decrypt" : "encrypt",
            OSSL_FMT_WARNING);
    if (f == NULL) {
        snprintf(err, cap, "out of memory");
        return TOOL_EXIT_IO;
    }
    /* checked by crypt_ossl_selected */
    (void)ossl_fmt_cipher(o->cipher, &c, err, cap);
    if (o->iter != NULL)
        (void)ossl_fmt_iter(o->iter, &iter, err, cap);
    rc = passphrase(ko, !decrypt, pass, &n, err, cap);
    if (rc == 0 && decrypt)
        rc =
            ossl_fmt_open_init(f, &c, iter, (const uint8_t *)pass, n, err, cap);
    else if (rc == 0)
        rc = ossl_fmt_seal_init(f, &c, iter, (const uint8_t *)pass, n, hdr, err,
                                cap);
    chunked_wipe(pass, sizeof(pass));
    if (rc == 0 && !decrypt)
        rc = crypt_write(out, hdr, sizeof(hdr), err, cap);
    if (rc == 0)
        rc = pump(f, in, out, err, cap);
    else
        ossl_fmt_wipe(f);
    free(f);
    return rc;
}
