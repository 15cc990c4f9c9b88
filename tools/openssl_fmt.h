/*
 * openssl_fmt.h -- files of `openssl enc -aes-{128,192,256}-{cbc,ctr}
 * -pbkdf2 [-iter N]`, read and written by `aesir decrypt|encrypt --format
 * openssl` for users who already have such files (issue 20, point 5).
 *
 * WARNING: this format is NOT authenticated. Nothing in it detects a
 * changed byte: a flipped ciphertext bit flips the same plaintext bit
 * (CTR) or garbles one block and flips a bit of the next (CBC). A wrong
 * passphrase, cipher or iteration count is detected only by chance: CBC
 * fails the PKCS#7 padding check of the last block most of the time (that
 * is all `openssl enc -d` reports as "bad decrypt"), but about 1 time in
 * 256 the garbage ends in a valid pad byte and decrypts "successfully" to
 * garbage; CTR has no padding, so it never notices and always "succeeds"
 * with garbage. Use the C2SP chunked format (aesir's default) for anything
 * new.
 *
 * The layout (OpenSSL's apps/enc.c with -pbkdf2; not written down in any
 * standard):
 *
 *   offset  size  field
 *        0     8  magic "Salted__"
 *        8     8  salt (random, fresh for each file)
 *       16   ...  ciphertext: CBC with PKCS#7 padding (1..16 bytes always
 *                 added), or CTR (as long as the plaintext; the whole
 *                 16-byte block is the big-endian counter, 128 bits)
 *
 * Key and IV: PBKDF2-HMAC-SHA256 (RFC 8018 section 5.2) of the passphrase
 * and the 8-byte salt, with the iteration count given on the command line
 * (it is not stored in the file; OpenSSL's default is 10000), yields
 * key_len + 16 bytes: the key (16, 24 or 32 bytes), then the 16-byte IV.
 * PBKDF2 and the salt's random bytes come from OpenSSL's libcrypto
 * (PKCS5_PBKDF2_HMAC, RAND_bytes); the cipher is the aesir library's
 * incremental CBC and CTR (aesir_cipher_*). Files of `openssl enc`
 * without -pbkdf2 (the old EVP_BytesToKey derivation) have the same
 * header but a different key: they fail like a wrong passphrase.
 *
 * Decryption is streaming, so plaintext comes out before the end of the
 * input is seen, i.e. before the padding (the only check there is) has
 * been checked: a caller writing to a file keeps it only on success.
 *
 * Every function returns 0 or an exit status of tools/tool.h with a
 * one-line message (no program name) in err: TOOL_EXIT_USAGE (unknown
 * cipher, iteration count out of range, empty passphrase),
 * TOOL_EXIT_AUTH (not a "Salted__" file, truncated, bad padding),
 * TOOL_EXIT_UNAVAILABLE (built without OpenSSL, an internal error, a CTR
 * counter that would wrap: one file in about 2^100 of a few GiB).
 */
#ifndef AESIR_TOOLS_OPENSSL_FMT_H
#define AESIR_TOOLS_OPENSSL_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "aesir.h"

#define OSSL_FMT_HEADER_LEN 16        /* "Salted__" + 8-byte salt */
#define OSSL_FMT_ITER_DEFAULT 10000   /* as `openssl enc -pbkdf2` */
#define OSSL_FMT_ITER_MAX 2147483647u /* PKCS5_PBKDF2_HMAC takes an int */

/* The warning the commands print on stderr when they use this format. */
#define OSSL_FMT_WARNING                                                       \
    "warning: the OpenSSL enc format is not authenticated: tampering is "      \
    "not detected, and a wrong passphrase only sometimes (CBC) or never "      \
    "(CTR)"

/* One of the six ciphers: "aes-{128,192,256}-{cbc,ctr}". */
struct ossl_fmt_cipher {
    const char *name; /* the canonical (lower-case) name */
    size_t key_len;   /* 16, 24 or 32 */
    aesir_mode mode;  /* AESIR_MODE_CBC or AESIR_MODE_CTR */
};

/*
 * ossl_fmt -- one message being encrypted or decrypted. Contains the
 * expanded key, which the cipher context points to: do not move or copy
 * it between init and final. ossl_fmt_final and every error wipe it;
 * ossl_fmt_wipe wipes it at any time (safe on a wiped or zeroed one).
 */
struct ossl_fmt {
    aesir_aes key;
    aesir_cipher c;
    struct ossl_fmt_cipher cipher;
    uint32_t iter;
    int decrypt;
    int keyed; /* key and c set up */
    int raw;   /* ossl_fmt_raw_init: no header */
    uint8_t hdr[OSSL_FMT_HEADER_LEN];
    size_t hdr_have;   /* decryption: header bytes seen so far */
    uint64_t in_total; /* bytes fed, header included */
    uint8_t *pass;     /* decryption: a copy until the header is read */
    size_t pass_len;
};

/*
 * ossl_fmt_cipher -- name ("aes-256-cbc", ASCII case ignored, also with
 * a leading '-' as openssl takes it) into *out. TOOL_EXIT_USAGE with the
 * list of names when it is none of the six.
 */
int ossl_fmt_cipher(const char *name, struct ossl_fmt_cipher *out, char *err,
                    size_t errcap);

/*
 * ossl_fmt_iter -- an --iter value: a decimal whole number,
 * 1..OSSL_FMT_ITER_MAX (args_uint's strict syntax). TOOL_EXIT_USAGE.
 */
int ossl_fmt_iter(const char *s, uint32_t *out, char *err, size_t errcap);

/*
 * ossl_fmt_seal_init -- starts encryption: draws the salt (RAND_bytes),
 * derives key and IV from pass (pass_len bytes, not empty) with iter
 * PBKDF2 iterations, and writes the header to write first into hdr.
 */
int ossl_fmt_seal_init(struct ossl_fmt *f, const struct ossl_fmt_cipher *c,
                       uint32_t iter, const uint8_t *pass, size_t pass_len,
                       uint8_t hdr[OSSL_FMT_HEADER_LEN], char *err,
                       size_t errcap);

/*
 * ossl_fmt_open_init -- starts decryption. The passphrase is copied (and
 * wiped once the header has arrived and the key is derived, or by
 * ossl_fmt_wipe): the caller may wipe its own copy at once.
 * TOOL_EXIT_IO when the copy cannot be allocated.
 */
int ossl_fmt_open_init(struct ossl_fmt *f, const struct ossl_fmt_cipher *c,
                       uint32_t iter, const uint8_t *pass, size_t pass_len,
                       char *err, size_t errcap);

/*
 * ossl_fmt_raw_init -- starts encryption or decryption (decrypt != 0)
 * with a given key (c->key_len bytes) and IV, without header or PBKDF2:
 * what `openssl enc -nosalt -K HEX -iv HEX` does. For tests (a CTR
 * counter that carries across 64 bits needs a chosen IV) and for callers
 * that have raw keys; no OpenSSL needed.
 */
int ossl_fmt_raw_init(struct ossl_fmt *f, const struct ossl_fmt_cipher *c,
                      int decrypt, const uint8_t *key, const uint8_t iv[16],
                      char *err, size_t errcap);

/*
 * ossl_fmt_update -- in_len more bytes of plaintext (encryption) or of
 * the file (decryption: the header first, in any split) into out; at
 * most in_len + 16 bytes are written (*out_len), so out_cap must be at
 * least OSSL_FMT_OUT_CAP(in_len). An error wipes f: the message is
 * over (do not call ossl_fmt_final). Decryption refuses a wrong magic as
 * soon as its first bytes arrive (TOOL_EXIT_AUTH).
 */
#define OSSL_FMT_OUT_CAP(in_len) ((in_len) + 32)
int ossl_fmt_update(struct ossl_fmt *f, uint8_t *out, size_t out_cap,
                    size_t *out_len, const uint8_t *in, size_t in_len,
                    char *err, size_t errcap);

/*
 * ossl_fmt_final -- ends the message: CBC's last block (encryption: the
 * padded block, 16 bytes; decryption: 0..15 bytes once the padding
 * checks), nothing for CTR; out_cap >= 16. Decryption fails with
 * TOOL_EXIT_AUTH on a short header, a CBC ciphertext that is empty or
 * not a multiple of 16 bytes, or bad padding. Wipes f in every case.
 */
int ossl_fmt_final(struct ossl_fmt *f, uint8_t *out, size_t out_cap,
                   size_t *out_len, char *err, size_t errcap);

/* ossl_fmt_wipe -- wipes keys, passphrase copy and state. */
void ossl_fmt_wipe(struct ossl_fmt *f);

#endif /* AESIR_TOOLS_OPENSSL_FMT_H */
