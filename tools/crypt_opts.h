/*
 * crypt_opts.h -- the command lines of `aesir encrypt` and `aesir
 * decrypt`: one table of their options (most are common to both), parsed
 * and checked in one place, and the common end of both commands (commit
 * or remove the output, the message, the wipes).
 *
 * Each command accepts only its own options: `encrypt` the Argon2id costs,
 * `decrypt` --max-memory, --offset and --length; any other is "unknown
 * option", as args_scan() says it. Their usage texts stay in the command
 * files (tests/test_tool_help.py checks that every option is documented
 * in --help, the man page and docs/tool.md).
 */
#ifndef AESIR_TOOLS_CRYPT_OPTS_H
#define AESIR_TOOLS_CRYPT_OPTS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "crypt_io.h"
#include "crypt_key.h"
#include "crypt_openssl.h"

enum crypt_opt {
    CO_KEY,
    CO_PASS,
    CO_PASS_FD,
    CO_PASS_FILE,
    CO_ARGON2_TIME,   /* encrypt */
    CO_ARGON2_MEMORY, /* encrypt */
    CO_MAX_MEMORY,    /* decrypt */
    CO_OUT,
    CO_FORCE,
    CO_CONTEXT,
    CO_OFFSET, /* decrypt */
    CO_LENGTH, /* decrypt */
    CO_THREADS,
    CO_QUIET,
    CO_STATS,
    CO_FORMAT,
    CO_CIPHER,
    CO_ITER,
    CO_HELP,
    CO_COUNT
};

/* crypt_range -- --offset and --length (decrypt). */
struct crypt_range {
    int on;            /* either was given */
    uint64_t off, len; /* len UINT64_MAX: to the end */
};

/* The command line, parsed and checked. */
struct crypt_opts {
    const char *cmd; /* "encrypt" or "decrypt", for messages */
    int decrypt;
    unsigned char seen[CO_COUNT];
    const char *val[CO_COUNT];
    const char *in_path;       /* the input operand, NULL: stdin */
    struct crypt_key_opts key; /* the key source */
    struct crypt_ossl_opts ossl_opts;
    int ossl; /* --format openssl */
    struct crypt_range range;
    unsigned threads;
};

/*
 * crypt_opts_parse -- argv of `aesir encrypt` (decrypt 0) or `aesir
 * decrypt` (1) into o, checked in this order: the options themselves,
 * the key source, the range, --format and what goes with it, --threads.
 * 0: run; -1: -h/--help was given and usage() printed on stdout (exit
 * 0); TOOL_EXIT_USAGE: a bad command line, one line on stderr.
 */
int crypt_opts_parse(struct crypt_opts *o, int argc, char **argv, int decrypt,
                     void (*usage)(FILE *));

/* crypt_opts_pipe_flags -- --quiet and --stats as crypt_pipe_run's
 * flags (crypt_pipe.h). */
int crypt_opts_pipe_flags(const struct crypt_opts *o);

/*
 * crypt_start -- what both commands do next: open the input (first, so
 * a missing file is reported before a passphrase is asked for), get the
 * key (none for --format openssl; when decrypting with a passphrase its
 * header is read from the input, and the bytes read past it go to
 * lead[0..*lead_len)), take a closed pipe on stdout as an I/O error
 * (exit 3) rather than a death by SIGPIPE, and open the output with the
 * given mode. 0, or the exit status after the message on stderr (and
 * nothing left open).
 */
int crypt_start(const struct crypt_opts *o, mode_t mode, struct crypt_in *in,
                struct crypt_key *k, uint8_t *lead, size_t *lead_len,
                struct crypt_out *out, char *err, size_t cap);

/*
 * crypt_finish -- the end of both commands, rc being the run's status:
 * on success the output is committed (outfile.h), otherwise removed;
 * then any error is printed as "aesir CMD: message", the input closed and
 * the key wiped. Returns the exit status.
 */
int crypt_finish(const struct crypt_opts *o, int rc, struct crypt_in *in,
                 struct crypt_out *out, struct crypt_key *k, char *err,
                 size_t cap);

#endif /* AESIR_TOOLS_CRYPT_OPTS_H */
