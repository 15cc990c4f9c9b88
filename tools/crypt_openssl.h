/*
 * crypt_openssl.h -- `aesir encrypt|decrypt --format openssl`: files of
 * `openssl enc -aes-{128,192,256}-{cbc,ctr} -pbkdf2` (openssl_fmt.h)
 * through the commands' input, output and passphrase handling.
 *
 * The format is unauthenticated: every use prints OSSL_FMT_WARNING on
 * stderr. It takes a passphrase only (no key file, no context, no
 * Argon2id, no random access), and the cipher on the command line
 * (--cipher; the file does not say which), with --iter for PBKDF2
 * (OpenSSL's default 10000). Decryption to a file keeps the output only
 * when the padding checked out; to stdout, plaintext comes out as it is
 * decrypted (the padding check, the only one there is, comes at the end).
 */
#ifndef AESIR_TOOLS_CRYPT_OPENSSL_H
#define AESIR_TOOLS_CRYPT_OPENSSL_H

#include <stddef.h>

#include "crypt_io.h"
#include "crypt_key.h"

/* The options of the format (NULL: absent). */
struct crypt_ossl_opts {
    const char *format; /* --format: "c2sp" (default) or "openssl" */
    const char *cipher; /* --cipher NAME */
    const char *iter;   /* --iter N */
};

/*
 * crypt_ossl_selected -- checks --format and the options that go with it
 * (others -- the C2SP ones in ko, or ranges -- given with "openssl" are a
 * usage error, and so are --cipher or --iter without it): 1 when the
 * OpenSSL format is asked for, 0 for C2SP, -1 with a usage message.
 */
int crypt_ossl_selected(const struct crypt_ossl_opts *o,
                        const struct crypt_key_opts *ko, int has_range,
                        char *err, size_t cap);

/* crypt_ossl_run -- encrypts (decrypt 0) or decrypts in to out. 0 or an
 * exit status with a message in err. */
int crypt_ossl_run(const struct crypt_ossl_opts *o,
                   const struct crypt_key_opts *ko, int decrypt,
                   struct crypt_in *in, struct crypt_out *out, char *err,
                   size_t cap);

#endif /* AESIR_TOOLS_CRYPT_OPENSSL_H */
