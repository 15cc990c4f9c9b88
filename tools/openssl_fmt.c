/*
 * openssl_fmt.c -- `openssl enc -pbkdf2` files (openssl_fmt.h has the
 * layout and the warning: the format is unauthenticated).
 *
 * The cipher is the aesir library's incremental CBC (PKCS#7 padding,
 * checked in constant time by aesir_cipher_final) and CTR with a 128-bit
 * counter, as OpenSSL's CRYPTO_ctr128_encrypt counts. PBKDF2-HMAC-SHA256
 * (RFC 8018) and the salt come from libcrypto; nothing here hashes or
 * draws random bytes by itself.
 *
 * Decryption holds the first 16 bytes back until they are all there:
 * the salt is in them, and the key cannot be derived before. The
 * passphrase is copied for that time (the caller's buffer may go away
 * while the header trickles in through a pipe) and wiped once used.
 *
 * Built without OpenSSL (AESIR_HAVE_OPENSSL undefined), parsing still
 * works and both init functions answer TOOL_EXIT_UNAVAILABLE.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "openssl_fmt.h"
#include "tool.h"

#ifdef AESIR_HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#endif

static const char ossl_magic[8] = {'S', 'a', 'l', 't', 'e', 'd', '_', '_'};

static const struct ossl_fmt_cipher ossl_ciphers[] = {
    {"aes-128-cbc", 16, AESIR_MODE_CBC}, {"aes-192-cbc", 24, AESIR_MODE_CBC},
    {"aes-256-cbc", 32, AESIR_MODE_CBC}, {"aes-128-ctr", 16, AESIR_MODE_CTR},
    {"aes-192-ctr", 24, AESIR_MODE_CTR}, {"aes-256-ctr", 32, AESIR_MODE_CTR},
};

ARGS_PRINTF(4, 5)
static int fail(int status, char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    if (err != NULL && errcap > 0) {
        va_start(ap, fmt);
        vsnprintf(err, errcap, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* Wipes n bytes at p in a way the compiler may not drop as a dead store. */
static void wipe(void *p, size_t n)
{
#ifdef AESIR_HAVE_OPENSSL
    OPENSSL_cleanse(p, n);
#else
    volatile unsigned char *v = p;
    while (n-- > 0)
        *v++ = 0;
#endif
}

void ossl_fmt_wipe(struct ossl_fmt *f)
{
    if (f == NULL)
        return;
    aesir_cipher_clear(&f->c);
    aesir_aes_clear(&f->key);
    if (f->pass != NULL) {
        wipe(f->pass, f->pass_len);
        free(f->pass);
    }
    wipe(f, sizeof(*f));
}

static int lower_eq(const char *a, const char *b)
{
    for (; *a != '\0' && *b != '\0'; a++, b++) {
        char c = *a;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != *b)
            return 0;
    }
    return *a == *b;
}

int ossl_fmt_cipher(const char *name, struct ossl_fmt_cipher *out, char *err,
                    size_t errcap)
{
    char q[96];
    if (name == NULL || out == NULL)
        return fail(TOOL_EXIT_UNAVAILABLE, err, errcap, "internal error");
    /* openssl names the cipher as an option: -aes-256-cbc. */
    const char *n = name[0] == '-' ? name + 1 : name;
    for (size_t i = 0; i < sizeof(ossl_ciphers) / sizeof(ossl_ciphers[0]);
         i++) {
        if (lower_eq(n, ossl_ciphers[i].name)) {
            *out = ossl_ciphers[i];
            return 0;
        }
    }
    return fail(TOOL_EXIT_USAGE, err, errcap,
                "unknown cipher '%s' (aes-128-cbc, aes-192-cbc, aes-256-cbc, "
                "aes-128-ctr, aes-192-ctr, aes-256-ctr)",
                args_quote(q, sizeof(q), name));
}

int ossl_fmt_iter(const char *s, uint32_t *out, char *err, size_t errcap)
{
    char q[96];
    uint64_t v;
    int st = args_uint(s, 1, OSSL_FMT_ITER_MAX, &v);
    if (st != ARGS_OK)
        return fail(TOOL_EXIT_USAGE, err, errcap,
                    "bad iteration count '%s': %s (1..%u)",
                    args_quote(q, sizeof(q), s), args_strerror(st),
                    OSSL_FMT_ITER_MAX);
    *out = (uint32_t)v;
    return 0;
}

/* Expands the key and starts the cipher at iv. */
static int key_iv(struct ossl_fmt *f, const uint8_t *key, const uint8_t *iv,
                  char *err, size_t errcap)
{
    /* CBC decryption needs the inverse key schedule; the rest, only the
     * forward one. OpenSSL's CTR counts with all 128 bits of the block
     * (CRYPTO_ctr128_encrypt), so the counter is 128 bits wide here. */
    unsigned dirs = f->cipher.mode == AESIR_MODE_CBC && f->decrypt
                        ? AESIR_DECRYPT
                        : AESIR_ENCRYPT;
    unsigned opt = f->cipher.mode == AESIR_MODE_CBC ? AESIR_PAD_PKCS7 : 128;
    int rc = aesir_aes_init_ex(&f->key, key, f->cipher.key_len, NULL, dirs);
    if (rc == AESIR_OK)
        rc = aesir_cipher_init(&f->c, &f->key, f->cipher.mode,
                               f->decrypt ? AESIR_DECRYPT : AESIR_ENCRYPT, iv,
                               16, opt);
    if (rc != AESIR_OK)
        return fail(TOOL_EXIT_UNAVAILABLE, err, errcap, "AES setup failed: %s",
                    aesir_strerror(rc));
    f->keyed = 1;
    return 0;
}

/* Derives key and IV from the salt in f->hdr and starts the cipher. */
static int derive(struct ossl_fmt *f, const uint8_t *pass, size_t pass_len,
                  char *err, size_t errcap)
{
#ifdef AESIR_HAVE_OPENSSL
    uint8_t kiv[32 + 16];
    size_t klen = f->cipher.key_len;
    int st = 0;
    if (pass_len > (size_t)2147483647)
        return fail(TOOL_EXIT_USAGE, err, errcap, "passphrase too long");
    if (PKCS5_PBKDF2_HMAC((const char *)pass, (int)pass_len,
                          f->hdr + sizeof(ossl_magic), 8, (int)f->iter,
                          EVP_sha256(), (int)(klen + 16), kiv) != 1) {
        st = fail(TOOL_EXIT_UNAVAILABLE, err, errcap,
                  "PBKDF2 failed (OpenSSL's PKCS5_PBKDF2_HMAC)");
        goto out;
    }
    st = key_iv(f, kiv, kiv + klen, err, errcap);
out:
    wipe(kiv, sizeof(kiv));
    return st;
#else
    (void)f;
    (void)pass;
    (void)pass_len;
    return fail(TOOL_EXIT_UNAVAILABLE, err, errcap,
                "built without OpenSSL: the OpenSSL enc format is "
                "unavailable");
#endif
}

static int start(struct ossl_fmt *f, const struct ossl_fmt_cipher *c,
                 uint32_t iter, size_t pass_len, char *err, size_t errcap)
{
    memset(f, 0, sizeof(*f));
#ifndef AESIR_HAVE_OPENSSL
    (void)c;
    (void)iter;
    (void)pass_len;
    return fail(TOOL_EXIT_UNAVAILABLE, err, errcap,
                "built without OpenSSL: the OpenSSL enc format is "
                "unavailable");
#else
    if (c == NULL || c->name == NULL)
        return fail(TOOL_EXIT_UNAVAILABLE, err, errcap, "internal error");
    if (iter < 1 || iter > OSSL_FMT_ITER_MAX)
        return fail(TOOL_EXIT_USAGE, err, errcap,
                    "bad iteration count %lu (1..%u)", (unsigned long)iter,
                    OSSL_FMT_ITER_MAX);
    if (pass_len == 0)
        return fail(TOOL_EXIT_USAGE, err, errcap, "empty passphrase");
    f->cipher = *c;
    f->iter = iter;
    return 0;
#endif
}

int ossl_fmt_seal_init(struct ossl_fmt *f, const struct ossl_fmt_cipher *c,
                       uint32_t iter, const uint8_t *pass, size_t pass_len,
                       uint8_t hdr[OSSL_FMT_HEADER_LEN], char *err,
                       size_t errcap)
{
    int st = start(f, c, iter, pass_len, err, errcap);
    if (st != 0)
        return st;
#ifdef AESIR_HAVE_OPENSSL
    memcpy(f->hdr, ossl_magic, sizeof(ossl_magic));
    if (RAND_bytes(f->hdr + sizeof(ossl_magic), 8) != 1) {
        ossl_fmt_wipe(f);
        return fail(TOOL_EXIT_IO, err, errcap,
                    "no random salt (OpenSSL's RAND_bytes failed)");
    }
    st = derive(f, pass, pass_len, err, errcap);
    if (st != 0) {
        ossl_fmt_wipe(f);
        return st;
    }
    memcpy(hdr, f->hdr, OSSL_FMT_HEADER_LEN);
    f->hdr_have = OSSL_FMT_HEADER_LEN;
#else
    (void)pass;
    (void)hdr;
#endif
    return 0;
}

int ossl_fmt_open_init(struct ossl_fmt *f, const struct ossl_fmt_cipher *c,
                       uint32_t iter, const uint8_t *pass, size_t pass_len,
                       char *err, size_t errcap)
{
    int st = start(f, c, iter, pass_len, err, errcap);
    if (st != 0)
        return st;
    f->decrypt = 1;
    f->pass = malloc(pass_len);
    if (f->pass == NULL) {
        ossl_fmt_wipe(f);
        return fail(TOOL_EXIT_IO, err, errcap, "out of memory");
    }
    memcpy(f->pass, pass, pass_len);
    f->pass_len = pass_len;
    return 0;
}

int ossl_fmt_raw_init(struct ossl_fmt *f, const struct ossl_fmt_cipher *c,
                      int decrypt, const uint8_t *key, const uint8_t iv[16],
                      char *err, size_t errcap)
{
    memset(f, 0, sizeof(*f));
    if (c == NULL || c->name == NULL || key == NULL || iv == NULL)
        return fail(TOOL_EXIT_UNAVAILABLE, err, errcap, "internal error");
    f->cipher = *c;
    f->decrypt = decrypt != 0;
    f->raw = 1;
    f->hdr_have = OSSL_FMT_HEADER_LEN; /* none expected */
    int st = key_iv(f, key, iv, err, errcap);
    if (st != 0)
        ossl_fmt_wipe(f);
    return st;
}

/* Decryption: takes header bytes from *in; derives once all 16 are in. */
static int take_header(struct ossl_fmt *f, const uint8_t **in, size_t *in_len,
                       char *err, size_t errcap)
{
    size_t n = OSSL_FMT_HEADER_LEN - f->hdr_have;
    if (n > *in_len)
        n = *in_len;
    memcpy(f->hdr + f->hdr_have, *in, n);
    f->hdr_have += n;
    *in += n;
    *in_len -= n;
    /* Refuse a wrong magic as soon as its bytes are there. */
    size_t m =
        f->hdr_have < sizeof(ossl_magic) ? f->hdr_have : sizeof(ossl_magic);
    if (memcmp(f->hdr, ossl_magic, m) != 0)
        return fail(TOOL_EXIT_AUTH, err, errcap,
                    "not an OpenSSL enc file with a salt: no \"Salted__\" "
                    "at byte 0 (written with -nosalt?)");
    if (f->hdr_have < OSSL_FMT_HEADER_LEN)
        return 0;
    int st = derive(f, f->pass, f->pass_len, err, errcap);
    wipe(f->pass, f->pass_len);
    free(f->pass);
    f->pass = NULL;
    f->pass_len = 0;
    return st;
}

int ossl_fmt_update(struct ossl_fmt *f, uint8_t *out, size_t out_cap,
                    size_t *out_len, const uint8_t *in, size_t in_len,
                    char *err, size_t errcap)
{
    int st;
    *out_len = 0;
    if (f->decrypt && !f->keyed) {
        f->in_total += in_len;
        st = take_header(f, &in, &in_len, err, errcap);
        if (st != 0) {
            ossl_fmt_wipe(f);
            return st;
        }
        f->in_total -= in_len; /* counted again below */
    }
    if (in_len == 0)
        return 0;
    if (!f->keyed) {
        ossl_fmt_wipe(f);
        return fail(TOOL_EXIT_UNAVAILABLE, err, errcap,
                    "internal error: update without init");
    }
    int rc = aesir_cipher_update(&f->c, out, out_cap, out_len, in, in_len);
    if (rc != AESIR_OK) {
        unsigned long long at = (unsigned long long)f->in_total;
        ossl_fmt_wipe(f);
        return fail(TOOL_EXIT_UNAVAILABLE, err, errcap, "%s at byte %llu",
                    aesir_strerror(rc), at);
    }
    f->in_total += in_len;
    return 0;
}

int ossl_fmt_final(struct ossl_fmt *f, uint8_t *out, size_t out_cap,
                   size_t *out_len, char *err, size_t errcap)
{
    int st = 0;
    *out_len = 0;
    if (f->decrypt && f->hdr_have < OSSL_FMT_HEADER_LEN) {
        st = fail(TOOL_EXIT_AUTH, err, errcap,
                  "truncated: %zu of the %d header bytes (\"Salted__\" and "
                  "salt)",
                  f->hdr_have, OSSL_FMT_HEADER_LEN);
        goto out;
    }
    if (!f->keyed) {
        st = fail(TOOL_EXIT_UNAVAILABLE, err, errcap,
                  "internal error: final without init");
        goto out;
    }
    uint64_t body =
        f->in_total - (f->decrypt && !f->raw ? OSSL_FMT_HEADER_LEN : 0);
    if (f->decrypt && f->cipher.mode == AESIR_MODE_CBC &&
        (body == 0 || body % 16 != 0)) {
        st = fail(TOOL_EXIT_AUTH, err, errcap,
                  "truncated: the CBC ciphertext after the header is %llu "
                  "bytes, not a positive multiple of 16",
                  (unsigned long long)body);
        goto out;
    }
    int rc = aesir_cipher_final(&f->c, out, out_cap, out_len);
    if (rc == AESIR_E_PADDING) {
        st = fail(TOOL_EXIT_AUTH, err, errcap,
                  "bad decrypt: the padding of the last block (byte %llu) "
                  "is wrong: wrong passphrase, cipher or iteration count, "
                  "or a damaged file",
                  (unsigned long long)(f->in_total - 16));
    } else if (rc != AESIR_OK) {
        st = fail(TOOL_EXIT_UNAVAILABLE, err, errcap, "%s", aesir_strerror(rc));
    }
out:
    ossl_fmt_wipe(f);
    return st;
}
