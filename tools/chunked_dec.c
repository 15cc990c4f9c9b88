/*
 * chunked_dec.c -- streaming decryption of the C2SP chunked-encryption
 * format (c2sp.org/chunked-encryption; chunked.h).
 *
 * The first 56 bytes are the salt and commitment: the keys are derived
 * and the commitment compared (constant time) before any chunk is looked
 * at, and the input key is wiped right after. Then every 16400 bytes are
 * a full chunk, opened (and released) as soon as they are all there: a
 * full chunk is never the final one, so no look-ahead is needed. When the
 * input ends, what is left must be a final chunk of 16..16399 bytes: an
 * end right after a full chunk, inside the header or inside a tag is a
 * truncation (spec, "Implementation notes").
 */
#include "chunked.h"

#include <stdint.h>
#include <string.h>

#include "chunked_int.h"

/* ---- decryption ---------------------------------------------------- */

int chunked_dec_init(struct chunked_dec *d, const uint8_t *key, size_t key_len,
                     const uint8_t *ctx, size_t ctx_len)
{
    memset(d, 0, sizeof(*d));
    if (!chunked_available())
        return CHUNKED_E_UNAVAILABLE;
    if (chunked_aead_name(key_len) == NULL || ctx_len > CHUNKED_MAX_CONTEXT ||
        (ctx == NULL && ctx_len != 0))
        return CHUNKED_E_ARG;
    memcpy(d->key, key, key_len);
    d->key_len = key_len;
    d->ctx = ctx;
    d->ctx_len = ctx_len;
    return CHUNKED_OK;
}

size_t chunked_dec_out_max(const struct chunked_dec *d, size_t len)
{
    return (d->have + len) / CHUNKED_SEALED * CHUNKED_CHUNK;
}

/* header -- the 56 header bytes are in d->buf: derive, check the
 * commitment before anything else, forget the input key. */
static int header(struct chunked_dec *d, struct chunked_error *err)
{
    int rc =
        chunked_derive(&d->k, d->key, d->key_len, d->buf, d->ctx, d->ctx_len);

    chunked_wipe(d->key, sizeof(d->key));
    if (rc != CHUNKED_OK)
        return chunked_fail(err, rc, 0, "key derivation failed");
    if (!chunked_commit_equal(d->k.commit, d->buf + CHUNKED_SALT))
        return chunked_fail(err, CHUNKED_E_COMMIT, CHUNKED_SALT,
                            "wrong key or context (the commitment at offset "
                            "24 does not match), or a damaged header");
    d->keyed = 1;
    d->off = CHUNKED_HEADER;
    d->have = 0;
    return CHUNKED_OK;
}

/* chunk_failed -- chunk d->chunk, the n sealed bytes at in, failed to
 * open: says why and where (and whether a shorter final chunk followed
 * by trailing bytes is what the input holds). */
static int chunk_failed(struct chunked_dec *d, const uint8_t *in, size_t n,
                        struct chunked_error *err)
{
    size_t trailing;

    if (d->chunk >= CHUNKED_MAX_CHUNKS)
        return chunked_fail(err, CHUNKED_E_TOO_LONG, d->off,
                            "more than 2^38 chunks at offset %llu",
                            (unsigned long long)d->off);
    if (chunked_find_final(&d->k, d->chunk, in, n, &trailing))
        return chunked_fail(err, CHUNKED_E_TRAILING, d->off + n - trailing,
                            "trailing data after the final chunk %llu, from "
                            "offset %llu (%s%zu bytes)",
                            (unsigned long long)d->chunk,
                            (unsigned long long)(d->off + n - trailing),
                            n == CHUNKED_SEALED ? "at least " : "", trailing);
    return chunked_fail(err, CHUNKED_E_AUTH, d->off,
                        "chunk %llu at offset %llu fails to authenticate "
                        "(tampered, truncated or reordered)",
                        (unsigned long long)d->chunk,
                        (unsigned long long)d->off);
}

/* chunk_reread -- chunk d->chunk (n bytes) failed to open in place, which
 * left zeros where its ciphertext was: reads it again (d->reread) to say
 * why. A file that changed meanwhile changes only the wording: the chunk
 * failed either way. */
static int chunk_reread(struct chunked_dec *d, size_t n,
                        struct chunked_error *err)
{
    if (d->chunk >= CHUNKED_MAX_CHUNKS)
        return chunk_failed(d, NULL, n, err);
    if (d->reread(d->reread_arg, d->off, d->buf, n) != 0)
        return chunked_fail(err, CHUNKED_E_AUTH, d->off,
                            "chunk %llu at offset %llu fails to authenticate "
                            "(and cannot be read again to say more)",
                            (unsigned long long)d->chunk,
                            (unsigned long long)d->off);
    return chunk_failed(d, d->buf, n, err);
}

/* open_chunk -- opens chunk d->chunk (n sealed bytes at in) into out
 * (in itself: then a failure is worded from a re-read, chunk_reread). */
static int open_chunk(struct chunked_dec *d, const uint8_t *in, size_t n,
                      uint8_t *out, struct chunked_error *err)
{
    if (chunked_open_one(&d->k, d->chunk, in, n, out) != CHUNKED_OK)
        return out == in ? chunk_reread(d, n, err)
                         : chunk_failed(d, in, n, err);
    d->chunk++;
    d->off += n;
    return CHUNKED_OK;
}

/* A batch of whole chunks for chunked_par: chunk first + j of in to out. */
struct open_batch {
    const struct chunked_keys *k;
    uint64_t first;
    const uint8_t *in;
    uint8_t *out;
    size_t stride; /* of out: CHUNKED_CHUNK, or CHUNKED_SEALED in place */
};

static size_t open_range(void *arg, size_t lo, size_t hi)
{
    const struct open_batch *b = arg;

    for (size_t j = lo; j < hi; j++)
        if (chunked_open_one(b->k, b->first + j, b->in + j * CHUNKED_SEALED,
                             CHUNKED_SEALED,
                             b->out + j * b->stride) != CHUNKED_OK)
            return j;
    return SIZE_MAX;
}

/*
 * open_many -- opens the m whole chunks at in into out (chunk j's
 * plaintext at out + j * stride), through d->par when it is set; returns
 * how many authenticated before the first failure (all m, normally) and
 * accounts for them. Chunks after a failure may have been opened by
 * other threads: their plaintext is wiped, since nothing after a failure
 * is released. The caller then words the failure of the next chunk
 * (open_chunk or chunk_reread), as the sequential path does.
 */
static size_t open_many(struct chunked_dec *d, const uint8_t *in, size_t m,
                        uint8_t *out, size_t stride)
{
    struct open_batch b = {&d->k, d->chunk, in, out, stride};
    size_t f = d->par != NULL ? d->par->run(d->par->pool, m, open_range, &b)
                              : open_range(&b, 0, m);

    if (f < m)
        chunked_wipe(out + f * stride, (m - f) * stride);
    else
        f = m;
    d->chunk += f;
    d->off += (uint64_t)f * CHUNKED_SEALED;
    return f;
}

int chunked_dec_update(struct chunked_dec *d, const uint8_t *in, size_t len,
                       uint8_t *out, size_t cap, size_t *out_len,
                       struct chunked_error *err)
{
    size_t o = 0;
    int rc = CHUNKED_OK;

    *out_len = 0;
    if (d->failed)
        return chunked_fail(err, CHUNKED_E_ARG, d->off, "decryption failed");
    if (cap < chunked_dec_out_max(d, len))
        return chunked_fail(err, CHUNKED_E_ARG, d->off, "output too small");
    while (len > 0 && rc == CHUNKED_OK) {
        size_t want = d->keyed ? CHUNKED_SEALED : CHUNKED_HEADER;
        size_t take = want - d->have;
        if (d->keyed && d->have == 0 && d->par != NULL &&
            len >= 2 * CHUNKED_SEALED) {
            size_t f =
                open_many(d, in, len / CHUNKED_SEALED, out + o, CHUNKED_CHUNK);
            in += f * CHUNKED_SEALED, len -= f * CHUNKED_SEALED;
            o += f * CHUNKED_CHUNK;
            if (len < CHUNKED_SEALED)
                continue;
            /* A failure at the next chunk: the sequential step below
             * reports it (or it was the last whole chunk). */
        }
        if (d->keyed && d->have == 0 && len >= CHUNKED_SEALED) {
            /* Whole chunks straight from the input. */
            rc = open_chunk(d, in, CHUNKED_SEALED, out + o, err);
            in += CHUNKED_SEALED, len -= CHUNKED_SEALED;
            o += rc == CHUNKED_OK ? CHUNKED_CHUNK : 0;
            continue;
        }
        if (take > len)
            take = len;
        memcpy(d->buf + d->have, in, take);
        d->have += take, in += take, len -= take;
        if (d->have < want)
            break;
        if (!d->keyed) {
            rc = header(d, err);
            continue;
        }
        rc = open_chunk(d, d->buf, CHUNKED_SEALED, out + o, err);
        o += rc == CHUNKED_OK ? CHUNKED_CHUNK : 0;
        d->have = 0;
    }
    *out_len = o;
    if (rc != CHUNKED_OK)
        d->failed = rc;
    return rc;
}

/* final_chunk -- the input ended with the have bytes at in (after the
 * chunks so far): opens them as the final short chunk into out (cap
 * bytes; out may be in), checking first that they can be one. */
static int final_chunk(struct chunked_dec *d, const uint8_t *in, size_t have,
                       uint8_t *out, size_t cap, size_t *out_len,
                       struct chunked_error *err)
{
    int rc;

    *out_len = 0;
    if (d->failed)
        return chunked_fail(err, d->failed, d->off, "decryption failed");
    d->failed = CHUNKED_E_TRUNCATED;
    if (!d->keyed)
        return chunked_fail(err, CHUNKED_E_TRUNCATED, have,
                            "truncated: %zu bytes, less than the 56-byte "
                            "header",
                            have);
    if (have == 0 && d->chunk == 0)
        return chunked_fail(err, CHUNKED_E_TRUNCATED, d->off,
                            "truncated at offset 56: no chunk after the "
                            "header");
    if (have == 0)
        return d->failed = chunked_fail(
                   err, CHUNKED_E_FULL_FINAL, d->off,
                   "truncated at offset %llu: chunk %llu is a full 16384 "
                   "bytes and the final short chunk is missing",
                   (unsigned long long)d->off,
                   (unsigned long long)(d->chunk - 1));
    if (have < CHUNKED_TAG)
        return chunked_fail(err, CHUNKED_E_TRUNCATED, d->off + have,
                            "truncated at offset %llu: the final chunk %llu "
                            "has %zu bytes, less than its 16-byte tag",
                            (unsigned long long)(d->off + have),
                            (unsigned long long)d->chunk, have);
    if (cap < have - CHUNKED_TAG)
        return chunked_fail(err, CHUNKED_E_ARG, d->off, "output too small");
    rc = open_chunk(d, in, have, out, err);
    if (rc != CHUNKED_OK)
        return d->failed = rc;
    *out_len = have - CHUNKED_TAG;
    d->have = 0;
    d->failed = CHUNKED_E_ARG; /* finished: no more input */
    chunked_keys_clear(&d->k);
    return CHUNKED_OK;
}

int chunked_dec_final(struct chunked_dec *d, uint8_t *out, size_t cap,
                      size_t *out_len, struct chunked_error *err)
{
    return final_chunk(d, d->buf, d->have, out, cap, out_len, err);
}

int chunked_dec_in_place(struct chunked_dec *d, uint8_t *buf, size_t len,
                         int final, size_t *pt_at, size_t *pt_len,
                         struct chunked_error *err)
{
    size_t at = 0, m, f, n;
    int rc = CHUNKED_OK;

    *pt_at = *pt_len = 0;
    if (d->failed)
        return chunked_fail(err, CHUNKED_E_ARG, d->off, "decryption failed");
    if (d->reread == NULL || d->have != 0)
        return chunked_fail(err, CHUNKED_E_ARG, d->off, "misuse");
    if (!d->keyed) {
        /* The header, through the common path (no output). */
        at = len < CHUNKED_HEADER ? len : CHUNKED_HEADER;
        if ((rc = chunked_dec_update(d, buf, at, NULL, 0, &n, err)) != 0)
            return rc;
        if (!d->keyed)
            return final ? chunked_dec_final(d, NULL, 0, &n, err)
                         : chunked_fail(err, CHUNKED_E_ARG, 0, "misuse");
        buf += at, len -= at;
    }
    m = len / CHUNKED_SEALED;
    if (!final && len % CHUNKED_SEALED != 0)
        return chunked_fail(err, CHUNKED_E_ARG, d->off, "misuse");
    *pt_at = at;
    f = open_many(d, buf, m, buf, CHUNKED_SEALED);
    *pt_len = f * CHUNKED_CHUNK;
    if (f < m)
        rc = chunk_reread(d, CHUNKED_SEALED, err);
    else if (final)
        rc = final_chunk(d, buf + m * CHUNKED_SEALED, len % CHUNKED_SEALED,
                         buf + m * CHUNKED_SEALED, CHUNKED_CHUNK, &n, err);
    if (rc != CHUNKED_OK)
        d->failed = rc;
    else if (final)
        *pt_len += n;
    return rc;
}

void chunked_dec_clear(struct chunked_dec *d)
{
    chunked_keys_clear(&d->k);
    chunked_wipe(d->key, sizeof(d->key));
    chunked_wipe(d->buf, sizeof(d->buf));
}
