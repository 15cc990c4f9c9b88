/*
 * chunked_ra.c -- opening single chunks, and random access to a C2SP
 * chunked-encryption ciphertext (c2sp.org/chunked-encryption,
 * "Implementation notes"): chunk k starts at offset 56 + k * 16400, so a
 * plaintext range needs only its own chunks. chunked_ra_open() first
 * checks the commitment, then the ciphertext length, then authenticates
 * the final chunk, so the plaintext length it reports is authenticated
 * and a range past the end is refused truthfully.
 */
#include "chunked.h"

#include <string.h>

#include "chunked_int.h"

int chunked_open_one(const struct chunked_keys *k, uint64_t i,
                     const uint8_t *in, size_t n, uint8_t *out)
{
    uint8_t nonce[AESIR_GCM_NONCE_BYTES];
    size_t got;

    if (i >= CHUNKED_MAX_CHUNKS)
        return CHUNKED_E_TOO_LONG;
    chunked_nonce(k, i, nonce);
    if (aesir_gcm_open(&k->gcm, nonce, sizeof(nonce), NULL, 0, out,
                       n - CHUNKED_TAG, &got, in, n) != AESIR_OK)
        return CHUNKED_E_AUTH;
    return CHUNKED_OK;
}

int chunked_open_chunk(const struct chunked_keys *k, uint64_t i,
                       const uint8_t *in, size_t n, uint8_t *out)
{
    if (n < CHUNKED_TAG || n > CHUNKED_SEALED)
        return CHUNKED_E_ARG;
    return chunked_open_one(k, i, in, n, out);
}

int chunked_find_final(const struct chunked_keys *k, uint64_t i,
                       const uint8_t *in, size_t n, size_t *trailing)
{
    uint8_t tmp[CHUNKED_CHUNK];
    int found = 0;

    if (n > CHUNKED_SEALED)
        n = CHUNKED_SEALED;
    /* Longest first: a few bytes appended to a file (the usual case) are
     * found in as many tries; a miss costs n GCM opens either way. */
    for (size_t len = n; len-- > CHUNKED_TAG && !found;) {
        if (chunked_open_one(k, i, in, len, tmp) == CHUNKED_OK) {
            *trailing = n - len;
            found = 1;
        }
    }
    chunked_wipe(tmp, sizeof(tmp));
    return found;
}

int chunked_ra_open(struct chunked_ra *r, const uint8_t *key, size_t key_len,
                    const uint8_t *ctx, size_t ctx_len, chunked_read_fn read,
                    void *arg, uint64_t ct_len, struct chunked_error *err)
{
    uint8_t hdr[CHUNKED_HEADER];
    uint64_t body, full, rem;
    size_t n;
    int rc;

    memset(r, 0, sizeof(*r));
    r->read = read;
    r->arg = arg;
    r->ct_len = ct_len;
    if (ct_len < CHUNKED_HEADER)
        return chunked_fail(err, CHUNKED_E_TRUNCATED, ct_len,
                            "truncated: %llu bytes, less than the 56-byte "
                            "header",
                            (unsigned long long)ct_len);
    if (read(arg, 0, hdr, sizeof(hdr)) != 0)
        return chunked_fail(err, CHUNKED_E_READ, 0, "cannot read the header");
    rc = chunked_derive(&r->k, key, key_len, hdr, ctx, ctx_len);
    if (rc != CHUNKED_OK)
        return chunked_fail(err, rc, 0, "key derivation failed");
    if (!chunked_commit_equal(r->k.commit, hdr + CHUNKED_SALT))
        return chunked_fail(err, CHUNKED_E_COMMIT, CHUNKED_SALT,
                            "wrong key or context (the commitment at offset "
                            "24 does not match), or a damaged header");
    /* The valid lengths: 56 + k * 16400 + (16 .. 16399). */
    body = ct_len - CHUNKED_HEADER;
    full = body / CHUNKED_SEALED;
    rem = body % CHUNKED_SEALED;
    if (rem == 0 && full > 0)
        return chunked_fail(err, CHUNKED_E_FULL_FINAL, ct_len,
                            "truncated at offset %llu: chunk %llu is a full "
                            "16384 bytes and the final short chunk is "
                            "missing",
                            (unsigned long long)ct_len,
                            (unsigned long long)(full - 1));
    if (rem < CHUNKED_TAG)
        return chunked_fail(err, CHUNKED_E_TRUNCATED, ct_len,
                            "truncated at offset %llu: the final chunk %llu "
                            "has %llu bytes, less than its 16-byte tag",
                            (unsigned long long)ct_len,
                            (unsigned long long)full, (unsigned long long)rem);
    if (full >= CHUNKED_MAX_CHUNKS)
        return chunked_fail(err, CHUNKED_E_TOO_LONG, ct_len,
                            "more than 2^38 chunks");
    r->chunks = full + 1;
    r->pt_len = full * CHUNKED_CHUNK + (rem - CHUNKED_TAG);
    /* Authenticate the length: the final chunk must open as chunk
     * full. Its plaintext is not kept. */
    rc = chunked_ra_chunk(r, full, r->buf, &n, err);
    chunked_wipe(r->buf, sizeof(r->buf));
    return rc;
}

int chunked_ra_chunk(struct chunked_ra *r, uint64_t k, uint8_t *out,
                     size_t *out_len, struct chunked_error *err)
{
    uint64_t off = CHUNKED_HEADER + k * CHUNKED_SEALED;
    size_t n = CHUNKED_SEALED;

    *out_len = 0;
    if (k >= r->chunks)
        return chunked_fail(err, CHUNKED_E_RANGE, off,
                            "chunk %llu is past the end (%llu chunks)",
                            (unsigned long long)k,
                            (unsigned long long)r->chunks);
    if (k == r->chunks - 1)
        n = (size_t)(r->ct_len - off);
    if (r->read(r->arg, off, r->buf, n) != 0)
        return chunked_fail(err, CHUNKED_E_READ, off,
                            "cannot read chunk %llu at offset %llu",
                            (unsigned long long)k, (unsigned long long)off);
    if (chunked_open_one(&r->k, k, r->buf, n, out) != CHUNKED_OK)
        return chunked_fail(err, CHUNKED_E_AUTH, off,
                            "chunk %llu at offset %llu fails to "
                            "authenticate (tampered, truncated or reordered)",
                            (unsigned long long)k, (unsigned long long)off);
    *out_len = n - CHUNKED_TAG;
    return CHUNKED_OK;
}

int chunked_ra_read(struct chunked_ra *r, uint64_t off, uint8_t *out,
                    size_t len, struct chunked_error *err)
{
    uint8_t pt[CHUNKED_CHUNK];
    int rc = CHUNKED_OK;

    if (off > r->pt_len || len > r->pt_len - off)
        return chunked_fail(err, CHUNKED_E_RANGE, off,
                            "bytes %llu..%llu are past the end of the "
                            "%llu-byte plaintext",
                            (unsigned long long)off,
                            (unsigned long long)(off + len),
                            (unsigned long long)r->pt_len);
    while (len > 0 && rc == CHUNKED_OK) {
        uint64_t k = off / CHUNKED_CHUNK;
        size_t at = (size_t)(off % CHUNKED_CHUNK), n, take;
        rc = chunked_ra_chunk(r, k, pt, &n, err);
        if (rc != CHUNKED_OK)
            break;
        take = n - at < len ? n - at : len;
        memcpy(out, pt + at, take);
        out += take, off += take, len -= take;
    }
    chunked_wipe(pt, sizeof(pt));
    return rc;
}

void chunked_ra_clear(struct chunked_ra *r)
{
    chunked_keys_clear(&r->k);
    chunked_wipe(r->buf, sizeof(r->buf));
}
