/*
 * crypt_key.h -- where `aesir encrypt` and `aesir decrypt` get their key:
 * a key file (-k, keyfile.h) or a passphrase (-p, --passphrase-fd,
 * --passphrase-file; passphrase.h), and the C2SP context string.
 *
 * With a key file the C2SP stream stands alone and its context string is
 * --context. With a passphrase the stream is preceded by the passphrase
 * header (Argon2id costs and salt), and the context string is that header
 * followed by --context: changing a byte of the header, or giving another
 * --context, makes the key commitment fail before any chunk is opened.
 */
#ifndef AESIR_TOOLS_CRYPT_KEY_H
#define AESIR_TOOLS_CRYPT_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "crypt_io.h"
#include "passphrase.h"

/* The key-source options as the command line gave them (NULL/0: absent). */
struct crypt_key_opts {
    const char *keyfile;       /* -k FILE */
    int passphrase;            /* -p */
    const char *pass_fd;       /* --passphrase-fd N */
    const char *pass_file;     /* --passphrase-file F */
    const char *argon2_time;   /* --argon2-time N (encrypt) */
    const char *argon2_memory; /* --argon2-memory MiB (encrypt) */
    const char *max_memory;    /* --max-memory MiB (decrypt) */
    const char *context;       /* --context STR */
};

/*
 * crypt_key_check -- the options' combination and values, before anything
 * is read: one of -k and a passphrase source, Argon2id costs only with a
 * passphrase and in range. 0, or -1 with a usage message in err.
 */
int crypt_key_check(const struct crypt_key_opts *o, char *err, size_t cap);

/*
 * crypt_key_encrypt -- k for encryption (its prefix is the passphrase
 * header, or empty). 0, or an exit status (tool.h) with a message.
 */
int crypt_key_encrypt(const struct crypt_key_opts *o, struct crypt_key *k,
                      char *err, size_t cap);

/*
 * crypt_key_decrypt -- k for decryption. With a passphrase the header is
 * read from in first: the bytes read past it (at most CRYPT_PREFIX_MAX)
 * go to lead[0..*lead_len), the start of the C2SP stream. 0, or an exit
 * status with a message.
 */
int crypt_key_decrypt(const struct crypt_key_opts *o, struct crypt_in *in,
                      struct crypt_key *k, uint8_t *lead, size_t *lead_len,
                      char *err, size_t cap);

/* crypt_key_pw_source -- where the passphrase comes from (the
 * terminal, --passphrase-fd, --passphrase-file), for pw_read(). */
struct pw_source crypt_key_pw_source(const struct crypt_key_opts *o);

/* crypt_key_wipe -- the key and everything derived from it. */
void crypt_key_wipe(struct crypt_key *k);

#endif /* AESIR_TOOLS_CRYPT_KEY_H */
