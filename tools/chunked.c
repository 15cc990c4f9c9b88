/*
 * chunked.c -- the C2SP chunked-encryption format (c2sp.org/chunked-
 * encryption): key derivation and the streaming encryptor (the
 * decryptor: chunked_dec.c; random access: chunked_ra.c). See chunked.h
 * for the format.
 *
 * The key derivation is one HKDF-Expand call (RFC 5869 section 2.3; no
 * Extract step, as the spec says, since the input key is uniformly random)
 * with SHA-512, done by OpenSSL's EVP_KDF "HKDF" in EXPAND_ONLY mode: no
 * hash or KDF is written here. The chunks are sealed and opened with
 * aesir's own one-shot AES-GCM (aesir_gcm_seal/aesir_gcm_open), which
 * releases nothing of a chunk whose tag does not match.
 */
#include "chunked.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef AESIR_TOOL_OPENSSL
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#endif

#include "chunked_int.h"

#define INFO_PREFIX "c2sp.org/chunked-encryption@v1+"

int chunked_available(void)
{
#ifdef AESIR_TOOL_OPENSSL
    return 1;
#else
    return 0;
#endif
}

const char *chunked_aead_name(size_t key_len)
{
    return key_len == 16   ? "AEAD_AES_128_GCM"
           : key_len == 32 ? "AEAD_AES_256_GCM"
                           : NULL;
}

void chunked_wipe(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    /* memset at memset's speed (the pipeline wipes megabytes), then an
     * empty asm that takes p and clobbers memory: the compiler must
     * assume the zeros are read, so it cannot drop the stores (the
     * explicit_bzero technique). */
    if (n == 0)
        return;
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    /* A volatile pointer, so the compiler cannot drop the stores. */
    volatile unsigned char *v = p;
    while (n-- > 0)
        *v++ = 0;
#endif
}

int chunked_fail(struct chunked_error *err, int code, uint64_t off,
                 const char *fmt, ...)
{
    va_list ap;

    if (err != NULL) {
        err->code = code;
        err->offset = off;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return code;
}

int chunked_derive(struct chunked_keys *k, const uint8_t *key, size_t key_len,
                   const uint8_t salt[CHUNKED_SALT], const uint8_t *ctx,
                   size_t ctx_len)
{
#ifdef AESIR_TOOL_OPENSSL
    const char *aead = chunked_aead_name(key_len);
    uint8_t info[sizeof(INFO_PREFIX) + 16 + CHUNKED_SALT + CHUNKED_MAX_CONTEXT];
    uint8_t okm[32 + AESIR_GCM_NONCE_BYTES + CHUNKED_COMMIT];
    size_t n = 0, okm_len = key_len + AESIR_GCM_NONCE_BYTES + CHUNKED_COMMIT;
    int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY, ok;
    char digest[] = "SHA512";
    OSSL_PARAM p[5];
    EVP_KDF *kdf;
    EVP_KDF_CTX *kc = NULL;

    if (aead == NULL || ctx_len > CHUNKED_MAX_CONTEXT ||
        (ctx == NULL && ctx_len != 0))
        return CHUNKED_E_ARG;
    /* info = prefix || aead || 0x00 || salt || context */
    memcpy(info, INFO_PREFIX, strlen(INFO_PREFIX));
    n += strlen(INFO_PREFIX);
    memcpy(info + n, aead, strlen(aead) + 1); /* with its NUL: the 0x00 */
    n += strlen(aead) + 1;
    memcpy(info + n, salt, CHUNKED_SALT);
    n += CHUNKED_SALT;
    if (ctx_len != 0)
        memcpy(info + n, ctx, ctx_len);
    n += ctx_len;

    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0);
    p[1] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
    p[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key,
                                             key_len);
    p[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info, n);
    p[4] = OSSL_PARAM_construct_end();
    kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf != NULL)
        kc = EVP_KDF_CTX_new(kdf);
    ok = kc != NULL && EVP_KDF_derive(kc, okm, okm_len, p) == 1;
    EVP_KDF_CTX_free(kc);
    EVP_KDF_free(kdf);
    if (ok)
        ok = aesir_gcm_init(&k->gcm, okm, key_len) == AESIR_OK;
    if (ok) {
        memcpy(k->nonce, okm + key_len, AESIR_GCM_NONCE_BYTES);
        memcpy(k->commit, okm + key_len + AESIR_GCM_NONCE_BYTES,
               CHUNKED_COMMIT);
    }
    chunked_wipe(okm, sizeof(okm));
    return ok ? CHUNKED_OK : CHUNKED_E_CRYPTO;
#else
    (void)k, (void)key, (void)key_len, (void)salt, (void)ctx, (void)ctx_len;
    return CHUNKED_E_UNAVAILABLE;
#endif
}

int chunked_commit_equal(const uint8_t *a, const uint8_t *b)
{
#ifdef AESIR_TOOL_OPENSSL
    return CRYPTO_memcmp(a, b, CHUNKED_COMMIT) == 0;
#else
    (void)a, (void)b;
    return 0;
#endif
}

void chunked_keys_clear(struct chunked_keys *k)
{
    aesir_gcm_clear(&k->gcm);
    chunked_wipe(k->nonce, sizeof(k->nonce));
    chunked_wipe(k->commit, sizeof(k->commit));
}

void chunked_nonce(const struct chunked_keys *k, uint64_t i,
                   uint8_t n[AESIR_GCM_NONCE_BYTES])
{
    uint8_t be[8];
    uint64_t lo, x;

    /* base nonce XOR i, i big-endian over the nonce's last 8 bytes (i <
     * 2^38: only the last 5 bytes change). One 64-bit XOR of words read
     * from the key and from registers, stored once: XORing bytes into a
     * fresh copy made the compiler reload it across its own stores (a
     * store-forwarding stall, ~1% of `aesir encrypt --threads 1`'s user
     * time in a perf profile). */
    for (int b = 0; b < 8; b++)
        be[b] = (uint8_t)(i >> (56 - 8 * b));
    memcpy(&lo, k->nonce + AESIR_GCM_NONCE_BYTES - 8, 8);
    memcpy(&x, be, 8);
    lo ^= x;
    memcpy(n, k->nonce, AESIR_GCM_NONCE_BYTES - 8);
    memcpy(n + AESIR_GCM_NONCE_BYTES - 8, &lo, 8);
}

/* ---- encryption ---------------------------------------------------- */

int chunked_enc_init(struct chunked_enc *e, const uint8_t *key, size_t key_len,
                     const uint8_t *ctx, size_t ctx_len, const uint8_t *salt,
                     uint8_t header[CHUNKED_HEADER])
{
    int rc;

    memset(e, 0, sizeof(*e));
    if (salt != NULL) {
        memcpy(header, salt, CHUNKED_SALT);
    } else {
#ifdef AESIR_TOOL_OPENSSL
        if (RAND_bytes(header, CHUNKED_SALT) != 1)
            return CHUNKED_E_CRYPTO;
#else
        return CHUNKED_E_UNAVAILABLE;
#endif
    }
    rc = chunked_derive(&e->k, key, key_len, header, ctx, ctx_len);
    if (rc != CHUNKED_OK)
        return rc;
    memcpy(header + CHUNKED_SALT, e->k.commit, CHUNKED_COMMIT);
    return CHUNKED_OK;
}

size_t chunked_enc_out_max(const struct chunked_enc *e, size_t len)
{
    return (e->have + len) / CHUNKED_CHUNK * CHUNKED_SEALED;
}

int chunked_seal_chunk(const struct chunked_keys *k, uint64_t i,
                       const uint8_t *in, size_t n, uint8_t *out)
{
    uint8_t nonce[AESIR_GCM_NONCE_BYTES];
    size_t got;

    if (i >= CHUNKED_MAX_CHUNKS)
        return CHUNKED_E_TOO_LONG;
    if (n > CHUNKED_CHUNK)
        return CHUNKED_E_ARG;
    chunked_nonce(k, i, nonce);
    if (aesir_gcm_seal(&k->gcm, nonce, sizeof(nonce), NULL, 0, out,
                       n + CHUNKED_TAG, &got, in, n) != AESIR_OK)
        return CHUNKED_E_ARG;
    return CHUNKED_OK;
}

/* seal -- chunk e->chunk of n bytes from in to out. */
static int seal(struct chunked_enc *e, const uint8_t *in, size_t n,
                uint8_t *out)
{
    int rc = chunked_seal_chunk(&e->k, e->chunk, in, n, out);

    if (rc == CHUNKED_OK)
        e->chunk++;
    return rc;
}

/* A batch of whole chunks for chunked_par: chunk first + j from
 * in + j * in_step to out + j * CHUNKED_SEALED (in_step: CHUNKED_CHUNK
 * from a contiguous plaintext, CHUNKED_SEALED in place). */
struct seal_batch {
    const struct chunked_keys *k;
    uint64_t first;
    const uint8_t *in;
    size_t in_step;
    uint8_t *out;
};

static size_t seal_range(void *arg, size_t lo, size_t hi)
{
    const struct seal_batch *b = arg;

    for (size_t j = lo; j < hi; j++)
        if (chunked_seal_chunk(b->k, b->first + j, b->in + j * b->in_step,
                               CHUNKED_CHUNK,
                               b->out + j * CHUNKED_SEALED) != CHUNKED_OK)
            return j;
    return SIZE_MAX;
}

/* seal_par -- seals the m whole chunks at in (in_step apart) through
 * e->par; returns how many sealed before the first failure (all m,
 * normally). The caller seals from there on one by one, which reports
 * the failure. */
static size_t seal_par(struct chunked_enc *e, const uint8_t *in, size_t in_step,
                       size_t m, uint8_t *out)
{
    struct seal_batch b = {&e->k, e->chunk, in, in_step, out};
    size_t f = e->par->run(e->par->pool, m, seal_range, &b);

    if (f > m)
        f = m;
    e->chunk += f;
    return f;
}

int chunked_enc_update(struct chunked_enc *e, const uint8_t *in, size_t len,
                       uint8_t *out, size_t cap, size_t *out_len)
{
    size_t o = 0;
    int rc;

    *out_len = 0;
    if (e->finished || cap < chunked_enc_out_max(e, len))
        return CHUNKED_E_ARG;
    if (e->have > 0) {
        size_t take = CHUNKED_CHUNK - e->have;
        if (take > len)
            take = len;
        memcpy(e->buf + e->have, in, take);
        e->have += take;
        in += take;
        len -= take;
        if (e->have < CHUNKED_CHUNK)
            return CHUNKED_OK;
        /* A full chunk is never the final one: seal it now. */
        if ((rc = seal(e, e->buf, CHUNKED_CHUNK, out)) != CHUNKED_OK)
            return rc;
        o += CHUNKED_SEALED;
        e->have = 0;
    }
    if (e->par != NULL && len >= 2 * CHUNKED_CHUNK) {
        size_t f = seal_par(e, in, CHUNKED_CHUNK, len / CHUNKED_CHUNK, out + o);
        in += f * CHUNKED_CHUNK, len -= f * CHUNKED_CHUNK;
        o += f * CHUNKED_SEALED;
    }
    for (; len >= CHUNKED_CHUNK; in += CHUNKED_CHUNK, len -= CHUNKED_CHUNK) {
        if ((rc = seal(e, in, CHUNKED_CHUNK, out + o)) != CHUNKED_OK) {
            *out_len = o;
            return rc;
        }
        o += CHUNKED_SEALED;
    }
    memcpy(e->buf, in, len);
    e->have = len;
    *out_len = o;
    return CHUNKED_OK;
}

int chunked_enc_final(struct chunked_enc *e, uint8_t *out, size_t cap,
                      size_t *out_len)
{
    int rc;

    *out_len = 0;
    if (e->finished || cap < e->have + CHUNKED_TAG)
        return CHUNKED_E_ARG;
    rc = seal(e, e->buf, e->have, out);
    if (rc == CHUNKED_OK)
        *out_len = e->have + CHUNKED_TAG;
    e->finished = 1;
    chunked_enc_clear(e);
    return rc;
}

/*
 * In place (chunked_enc_in_place): no copy of the plaintext into a second
 * buffer, and half the memory a batch touches, so a batch's input and
 * output fit the cache together (issue 20 point 4: one thread's crypto
 * against aesir's GCM on a hot 16 KiB buffer). aesir_gcm_seal allows
 * out == in; the tag goes into the 16 bytes before the next chunk.
 */
int chunked_enc_in_place(struct chunked_enc *e, uint8_t *buf, size_t len,
                         int final, size_t *out_len)
{
    size_t m = len / CHUNKED_CHUNK, rest = len % CHUNKED_CHUNK, j = 0;
    int rc = CHUNKED_OK;

    *out_len = 0;
    if (e->finished || e->have != 0 || (rest != 0 && !final))
        return CHUNKED_E_ARG;
    if (e->par != NULL && m >= 2)
        j = seal_par(e, buf, CHUNKED_SEALED, m, buf);
    for (; j < m; j++) {
        if ((rc = seal(e, buf + j * CHUNKED_SEALED, CHUNKED_CHUNK,
                       buf + j * CHUNKED_SEALED)) != CHUNKED_OK) {
            *out_len = j * CHUNKED_SEALED;
            return rc;
        }
    }
    *out_len = m * CHUNKED_SEALED;
    if (!final)
        return CHUNKED_OK;
    /* The final chunk: shorter than a full one (possibly empty). */
    rc = seal(e, buf + m * CHUNKED_SEALED, rest, buf + m * CHUNKED_SEALED);
    if (rc == CHUNKED_OK)
        *out_len += rest + CHUNKED_TAG;
    e->finished = 1;
    chunked_enc_clear(e);
    return rc;
}

void chunked_enc_clear(struct chunked_enc *e)
{
    chunked_keys_clear(&e->k);
    chunked_wipe(e->buf, sizeof(e->buf));
    e->have = 0;
}
