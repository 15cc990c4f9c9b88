/*
 * crypt_key.c -- key files and passphrases for encrypt and decrypt
 * (crypt_key.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "crypt_key.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "keyfile.h"
#include "passphrase.h"
#include "tool.h"

_Static_assert(CRYPT_PREFIX_MAX == PW_HEADER_MAX, "a passphrase header fits");

/* Argon2id memory in MiB: what fits m_cost's 32 bits of KiB. */
#define MIB_MAX (UINT32_MAX / 1024)

static int uses_passphrase(const struct crypt_key_opts *o)
{
    return o->passphrase || o->pass_fd != NULL || o->pass_file != NULL;
}

/* A value of option name in lo..hi into *v (an absent one leaves *v). */
static int value(const char *name, const char *s, uint64_t lo, uint64_t hi,
                 uint64_t *v, char *err, size_t cap)
{
    char m[160];

    if (s == NULL)
        return 0;
    if (args_uint_msg(s, lo, hi, "a whole number", v, m, sizeof(m)) !=
        ARGS_OK) {
        snprintf(err, cap, "%s: %s", name, m);
        return -1;
    }
    return 0;
}

int crypt_key_check(const struct crypt_key_opts *o, char *err, size_t cap)
{
    uint64_t v;

    if (o->keyfile == NULL && !uses_passphrase(o)) {
        snprintf(err, cap, "a key is needed: -k KEYFILE or -p");
        return -1;
    }
    if (o->keyfile != NULL && uses_passphrase(o)) {
        snprintf(err, cap,
                 "-k and a passphrase (-p, --passphrase-fd, "
                 "--passphrase-file) exclude each other");
        return -1;
    }
    if (o->pass_fd != NULL && o->pass_file != NULL) {
        snprintf(err, cap,
                 "--passphrase-fd and --passphrase-file exclude each other");
        return -1;
    }
    if (!uses_passphrase(o) &&
        (o->argon2_time != NULL || o->argon2_memory != NULL ||
         o->max_memory != NULL)) {
        snprintf(err, cap, "%s is for passphrases (-p)",
                 o->argon2_time != NULL     ? "--argon2-time"
                 : o->argon2_memory != NULL ? "--argon2-memory"
                                            : "--max-memory");
        return -1;
    }
    if (o->context != NULL && strlen(o->context) > CHUNKED_MAX_CONTEXT) {
        snprintf(err, cap, "--context: longer than %u bytes",
                 CHUNKED_MAX_CONTEXT);
        return -1;
    }
    if (value("--passphrase-fd", o->pass_fd, 0, INT32_MAX, &v, err, cap) ||
        value("--argon2-time", o->argon2_time, 1, PW_T_COST_MAX, &v, err,
              cap) ||
        value("--argon2-memory", o->argon2_memory, 1, MIB_MAX, &v, err, cap) ||
        value("--max-memory", o->max_memory, 1, MIB_MAX, &v, err, cap))
        return -1;
    return 0;
}

struct pw_source crypt_key_pw_source(const struct crypt_key_opts *o)
{
    struct pw_source s = {o->pass_file, -1};
    uint64_t fd = 0;

    if (o->pass_fd != NULL && args_u64(o->pass_fd, &fd) == ARGS_OK)
        s.fd = (int)fd; /* in range: crypt_key_check */
    return s;
}

/* The context string: prefix (the passphrase header) || --context. */
static void set_context(const struct crypt_key_opts *o, struct crypt_key *k)
{
    size_t n = o->context != NULL ? strlen(o->context) : 0;

    memcpy(k->ctxbuf, k->prefix, k->prefix_len);
    if (n != 0)
        memcpy(k->ctxbuf + k->prefix_len, o->context, n);
    k->ctx = k->ctxbuf;
    k->ctx_len = k->prefix_len + n;
}

int crypt_key_encrypt(const struct crypt_key_opts *o, struct crypt_key *k,
                      char *err, size_t cap)
{
    struct pw_params p = {PW_T_COST_DEFAULT, PW_M_COST_DEFAULT_KIB};
    struct pw_source src = crypt_key_pw_source(o);
    uint64_t t = p.t_cost, mib = p.m_cost_kib / 1024;
    int rc;

    memset(k, 0, sizeof(*k));
    if (!uses_passphrase(o)) {
        rc = keyfile_load(o->keyfile, k->key, &k->key_len, err, cap);
    } else {
        (void)value("--argon2-time", o->argon2_time, 1, PW_T_COST_MAX, &t, err,
                    cap);
        (void)value("--argon2-memory", o->argon2_memory, 1, MIB_MAX, &mib, err,
                    cap);
        p.t_cost = (uint32_t)t;
        p.m_cost_kib = (uint32_t)(mib * 1024);
        /* passphrases always make AES-256-GCM keys */
        rc = pw_seal_setup(&src, &p, 32, k->key, k->prefix, &k->prefix_len, err,
                           cap);
        k->key_len = 32;
    }
    if (rc == 0)
        set_context(o, k);
    else
        crypt_key_wipe(k);
    return rc;
}

int crypt_key_decrypt(const struct crypt_key_opts *o, struct crypt_in *in,
                      struct crypt_key *k, uint8_t *lead, size_t *lead_len,
                      char *err, size_t cap)
{
    struct pw_source src = crypt_key_pw_source(o);
    uint64_t mib = PW_MAX_M_COST_DEFAULT_KIB / 1024;
    ssize_t r;
    int rc;

    memset(k, 0, sizeof(*k));
    *lead_len = 0;
    if (!uses_passphrase(o)) {
        rc = keyfile_load(o->keyfile, k->key, &k->key_len, err, cap);
        if (rc == 0)
            set_context(o, k);
        return rc;
    }
    (void)value("--max-memory", o->max_memory, 1, MIB_MAX, &mib, err, cap);
    r = crypt_read(in->fd, lead, CRYPT_PREFIX_MAX);
    if (r < 0) {
        snprintf(err, cap, "reading %s: %s", in->name, strerror(errno));
        return TOOL_EXIT_IO;
    }
    rc = pw_open_setup(&src, lead, (size_t)r, mib * 1024, k->key, &k->key_len,
                       &k->prefix_len, err, cap);
    if (rc != 0) {
        crypt_key_wipe(k);
        return rc;
    }
    memcpy(k->prefix, lead, k->prefix_len);
    *lead_len = (size_t)r - k->prefix_len;
    memmove(lead, lead + k->prefix_len, *lead_len);
    set_context(o, k);
    return 0;
}

void crypt_key_wipe(struct crypt_key *k)
{
    chunked_wipe(k, sizeof(*k));
}
