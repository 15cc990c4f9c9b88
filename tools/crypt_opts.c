/*
 * crypt_opts.c -- the options of `aesir encrypt` and `aesir decrypt`
 * (crypt_opts.h): one table, each option marked with the commands that
 * take it; a command's parser sees only its own rows.
 */
#define _POSIX_C_SOURCE 200809L
#include "crypt_opts.h"
#include "crypt_pipe.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "crypt_pool.h"
#include "tool.h"

#define ENC 1
#define DEC 2

static const struct {
    struct args_opt opt;
    int cmds;
} table[CO_COUNT] = {
    [CO_KEY] = {{"--key", "-k", 1}, ENC | DEC},
    [CO_PASS] = {{"--passphrase", "-p", 0}, ENC | DEC},
    [CO_PASS_FD] = {{"--passphrase-fd", NULL, 1}, ENC | DEC},
    [CO_PASS_FILE] = {{"--passphrase-file", NULL, 1}, ENC | DEC},
    [CO_ARGON2_TIME] = {{"--argon2-time", NULL, 1}, ENC},
    [CO_ARGON2_MEMORY] = {{"--argon2-memory", NULL, 1}, ENC},
    [CO_MAX_MEMORY] = {{"--max-memory", NULL, 1}, DEC},
    [CO_OUT] = {{"--output", "-o", 1}, ENC | DEC},
    [CO_FORCE] = {{"--force", "-f", 0}, ENC | DEC},
    [CO_CONTEXT] = {{"--context", NULL, 1}, ENC | DEC},
    [CO_OFFSET] = {{"--offset", NULL, 1}, DEC},
    [CO_LENGTH] = {{"--length", NULL, 1}, DEC},
    [CO_THREADS] = {{"--threads", NULL, 1}, ENC | DEC},
    [CO_QUIET] = {{"--quiet", "-q", 0}, ENC | DEC},
    [CO_STATS] = {{"--stats", NULL, 0}, ENC | DEC},
    [CO_FORMAT] = {{"--format", NULL, 1}, ENC | DEC},
    [CO_CIPHER] = {{"--cipher", NULL, 1}, ENC | DEC},
    [CO_ITER] = {{"--iter", NULL, 1}, ENC | DEC},
    [CO_HELP] = {{"--help", "-h", 0}, ENC | DEC},
};

/* scan -- the command's rows of the table through crypt_scan(), the
 * results put back at their crypt_opt index. */
static int scan(struct crypt_opts *o, int argc, char **argv, int cmd, char *err,
                size_t cap)
{
    struct args_opt t[CO_COUNT];
    unsigned char seen[CO_COUNT];
    const char *val[CO_COUNT];
    int map[CO_COUNT], n = 0, help = 0, rc;

    for (int i = 0; i < CO_COUNT; i++) {
        if (!(table[i].cmds & cmd))
            continue;
        if (i == CO_HELP)
            help = n;
        map[n] = i;
        t[n++] = table[i].opt;
    }
    rc = crypt_scan(argc, argv, t, n, help, seen, val, &o->in_path, err, cap);
    for (int j = 0; j < n; j++) {
        o->seen[map[j]] = seen[j];
        o->val[map[j]] = val[j];
    }
    return rc;
}

/* range -- --offset and --length. */
static int range(struct crypt_opts *o, char *err, size_t cap)
{
    struct crypt_range *rg = &o->range;
    char q[96];

    rg->on = o->seen[CO_OFFSET] || o->seen[CO_LENGTH];
    rg->off = 0;
    rg->len = UINT64_MAX;
    if (o->seen[CO_OFFSET] &&
        args_size(o->val[CO_OFFSET], 0, UINT64_MAX >> 1, &rg->off) != ARGS_OK) {
        snprintf(err, cap, "--offset: '%s' is not a byte count",
                 args_quote(q, sizeof(q), o->val[CO_OFFSET]));
        return -1;
    }
    if (o->seen[CO_LENGTH] &&
        args_size(o->val[CO_LENGTH], 0, UINT64_MAX >> 1, &rg->len) != ARGS_OK) {
        snprintf(err, cap, "--length: '%s' is not a byte count",
                 args_quote(q, sizeof(q), o->val[CO_LENGTH]));
        return -1;
    }
    return 0;
}

/* check -- everything after the scan; 0 or -1 with the message. */
static int check(struct crypt_opts *o, char *err, size_t cap)
{
    o->key.keyfile = o->val[CO_KEY];
    o->key.passphrase = o->seen[CO_PASS];
    o->key.pass_fd = o->val[CO_PASS_FD];
    o->key.pass_file = o->val[CO_PASS_FILE];
    o->key.argon2_time = o->val[CO_ARGON2_TIME];
    o->key.argon2_memory = o->val[CO_ARGON2_MEMORY];
    o->key.max_memory = o->val[CO_MAX_MEMORY];
    o->key.context = o->val[CO_CONTEXT];
    o->ossl_opts.format = o->val[CO_FORMAT];
    o->ossl_opts.cipher = o->val[CO_CIPHER];
    o->ossl_opts.iter = o->val[CO_ITER];
    if (crypt_key_check(&o->key, err, cap) != 0 || range(o, err, cap) != 0)
        return -1;
    o->ossl =
        crypt_ossl_selected(&o->ossl_opts, &o->key, o->range.on, err, cap);
    if (o->ossl < 0)
        return -1;
    /* --stats times the C2SP stream (crypt_pipe.c); the other paths
     * have no crypto step to time apart from their I/O. */
    if (o->seen[CO_STATS] && (o->ossl || o->range.on)) {
        snprintf(err, cap, "--stats does not go with %s",
                 o->ossl ? "--format openssl" : "--offset/--length");
        return -1;
    }
    return crypt_pool_threads(o->val[CO_THREADS], &o->threads, err, cap);
}

int crypt_opts_parse(struct crypt_opts *o, int argc, char **argv, int decrypt,
                     void (*usage)(FILE *))
{
    char err[CRYPT_ERR];
    int rc;

    memset(o, 0, sizeof(*o));
    o->cmd = decrypt ? "decrypt" : "encrypt";
    o->decrypt = decrypt;
    o->threads = 1;
    rc = scan(o, argc, argv, decrypt ? DEC : ENC, err, sizeof(err));
    if (rc == 1) {
        usage(stdout);
        return -1;
    }
    if (rc == 0)
        rc = check(o, err, sizeof(err));
    if (rc == 0)
        return 0;
    fprintf(stderr, "aesir %s: %s\n", o->cmd, err);
    return TOOL_EXIT_USAGE;
}

int crypt_start(const struct crypt_opts *o, mode_t mode, struct crypt_in *in,
                struct crypt_key *k, uint8_t *lead, size_t *lead_len,
                struct crypt_out *out, char *err, size_t cap)
{
    int rc = crypt_in_open(in, o->in_path, err, cap);

    memset(k, 0, sizeof(*k));
    if (lead_len != NULL)
        *lead_len = 0;
    if (rc == 0 && !o->ossl) {
        rc = o->decrypt
                 ? crypt_key_decrypt(&o->key, in, k, lead, lead_len, err, cap)
                 : crypt_key_encrypt(&o->key, k, err, cap);
        if (rc != 0)
            crypt_in_close(in);
    }
    if (rc != 0) {
        fprintf(stderr, "aesir %s: %s\n", o->cmd, err);
        return rc;
    }
    signal(SIGPIPE, SIG_IGN);
    rc = crypt_out_open(out, o->val[CO_OUT], o->seen[CO_FORCE], mode, in,
                        o->decrypt ? "plaintext" : "ciphertext", err, cap);
    if (rc != 0)
        return crypt_finish(o, rc, in, out, k, err, cap);
    return 0;
}

int crypt_finish(const struct crypt_opts *o, int rc, struct crypt_in *in,
                 struct crypt_out *out, struct crypt_key *k, char *err,
                 size_t cap)
{
    if (rc == 0)
        rc = crypt_out_commit(out, err, cap);
    else
        crypt_out_abort(out);
    if (rc != 0)
        fprintf(stderr, "aesir %s: %s\n", o->cmd, err);
    crypt_in_close(in);
    crypt_key_wipe(k);
    return rc;
}

int crypt_opts_pipe_flags(const struct crypt_opts *o)
{
    return (o->seen[CO_QUIET] ? CRYPT_PIPE_QUIET : 0) |
           (o->seen[CO_STATS] ? CRYPT_PIPE_STATS : 0);
}
