/*
 * test_chunked.c -- the C2SP chunked-encryption format (tools/chunked.c,
 * tools/chunked_ra.c; c2sp.org/chunked-encryption).
 *
 * The specification publishes no test vectors, so the known answers come
 * from an independent implementation: tests/chunked_kat.py (Python's
 * `cryptography`: HKDFExpand over SHA-512 and AESGCM) gives the SHA-256 of
 * the whole ciphertext for fixed keys, salt, contexts and messages.
 * Then: round trips at the edge sizes fed in random pieces, every
 * truncation point around the chunk boundaries and inside tags, swapped,
 * duplicated and dropped chunks, trailing bytes, flipped bits in each
 * region (each with its own error code and offset), only authenticated
 * plaintext released, the 2^38 chunk limit, and random access against
 * full decryption. Then (issue 20 point 4) single chunks sealed and
 * opened on their own (chunked_seal_chunk/chunked_open_chunk), and all of
 * the above again with the streams' chunked_par set: a fake one that runs
 * small ranges backwards, and the real thread pool (tools/crypt_pool.c):
 * the same bytes, the same errors at the same offsets, the same released
 * plaintext. chunked_enc_in_place (`aesir encrypt`'s path: each chunk
 * sealed where it was read) gives the streaming encryptor's bytes, with
 * and without par.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "check.h"
#include "chunked.h"
#include "chunked_int.h"
#include "crypt_pool.h"

static uint64_t seed = 0x5eed;
/* The chunked_par the helpers below give their streams (NULL: none). */
static const struct chunked_par *test_par;
/* decrypt() through chunked_dec_in_place, as `aesir decrypt` of a file. */
static int dec_in_place;

struct kat {
    size_t key_len;
    const char *ctx;
    size_t n;
    const char *sha256;
};

static const struct kat kats[] = {
    {16, "", 0,
     "17e8953df99c1c9abe724fb513a9b004a27f569012c3611585090774c40224da"},
    {16, "", 5,
     "d126a28fd310993e131f07bd086ad597449f7c1792307d7742e3566787657dfd"},
    {16, "", 16384,
     "3dd660f51f890afd0663ae7f5752b3493aa8a94aae676b43ac8c17c789d5e462"},
    {16, "", 16389,
     "1052bc8eea2ded1ebd91c49bded38ed4fed4c0a64808eb0fe00252bc22123bb8"},
    {16, "aesir test", 0,
     "37b59fa3f73126a43d81b81775fe6cd563a875542489e6c5e2420f68414bd6b6"},
    {16, "aesir test", 5,
     "d9c03dedf3216895bdc9b8c27ecfcaff22045b669024213e28c2b9229a89c005"},
    {16, "aesir test", 16384,
     "490ebd7ad31c9475f5b4ea761ed98101962d0ac4f7920f81f4e33ae17f690d67"},
    {16, "aesir test", 16389,
     "40c972fbfc8bb2c8821ae86082b949512df93eb4668d6e0f90a2c698fa4d0020"},
    {32, "", 0,
     "fa6f2af807d2038dc1e15bb9a9d3e0b6ac4901e83cc09b9f5b0f3848c782cb15"},
    {32, "", 5,
     "e5858a8433edf910b9904a607a34f40ba6ab31f0dd974a55f27ce4976eca0f56"},
    {32, "", 16384,
     "7284753cdc6a53a3212ec0ef3bb45659cecee8a4068f0c62e180f0a8384285a7"},
    {32, "", 16389,
     "5454ecf835d6383059050b10af839d56deaa1b801a08bec5143c94534b4ae267"},
    {32, "aesir test", 0,
     "b4c2a304cf1c4c1c2d3db630f90958b5302661b96a6d2b12def37a7eab7b1cb8"},
    {32, "aesir test", 5,
     "0548ad25fcc5fd7520ab093b88045e552294559a753959116c641e01a40d08ac"},
    {32, "aesir test", 16384,
     "94e37291a27d91b8d588cb19fdf1ba5ad0defb512bf0f1d2065735b0eb15d2c7"},
    {32, "aesir test", 16389,
     "71bb92f4ee4bd87cc464def7bfc51cc5c5ec7e3ecfc1888376e9ff15377f4a3e"},
};

static uint8_t key32[32], other32[32], salt[CHUNKED_SALT];

/* encrypt -- msg (n bytes) in random pieces; returns the ciphertext
 * (malloc'd) and its length. */
static uint8_t *encrypt(const uint8_t *key, size_t key_len, const char *ctx,
                        const uint8_t *msg, size_t n, const uint8_t *s,
                        size_t *ct_len)
{
    static struct chunked_enc e;
    size_t cap = CHUNKED_HEADER + (n / CHUNKED_CHUNK + 1) * CHUNKED_SEALED;
    uint8_t *ct = malloc(cap);
    size_t o = CHUNKED_HEADER, got, at = 0;

    CHECK_EQ(chunked_enc_init(&e, key, key_len, (const uint8_t *)ctx,
                              strlen(ctx), s, ct),
             CHUNKED_OK);
    e.par = test_par;
    while (at < n) {
        size_t piece =
            (size_t)(splitmix64(&seed) % (test_par ? 200000 : 40000));
        if (piece > n - at)
            piece = n - at;
        CHECK_EQ(chunked_enc_update(&e, msg + at, piece, ct + o, cap - o, &got),
                 CHUNKED_OK);
        o += got, at += piece;
    }
    CHECK_EQ(chunked_enc_final(&e, ct + o, cap - o, &got), CHUNKED_OK);
    *ct_len = o + got;
    return ct;
}

static int mem_read(void *arg, uint64_t off, uint8_t *buf, size_t len);

/* released_or_wiped -- after a failure, each chunk's room from chunk f
 * on in an in-place batch (m chunks at buf, the ciphertext's ct) holds
 * its ciphertext or zeros: no plaintext opened past the failure is
 * left. */
static void released_or_wiped(const uint8_t *buf, const uint8_t *ct, size_t f,
                              size_t m)
{
    for (size_t j = f; j < m; j++) {
        const uint8_t *p = buf + j * CHUNKED_SEALED;
        CHECK(all_eq(p, 0, CHUNKED_CHUNK) ||
              memcmp(p, ct + j * CHUNKED_SEALED, CHUNKED_CHUNK) == 0);
    }
}

/*
 * decrypt_in_place -- ct as `aesir decrypt` feeds a file to
 * chunked_dec_in_place (tools/cmd_decrypt.c): a first batch of the header
 * and b - 1 whole chunks, then batches of b chunks (b random: 1, 2, 3 or
 * 64; all at once when whole), final on the first short batch (an empty
 * one when the input ends on a batch boundary); the failing chunk re-read
 * from ct. Returns as decrypt().
 */
static int decrypt_in_place(const uint8_t *key, size_t key_len, const char *ctx,
                            const uint8_t *ct, size_t n, uint8_t *out,
                            size_t *out_len, struct chunked_error *err,
                            int whole)
{
    static const size_t bs[] = {1, 2, 3, 64};
    static struct chunked_dec d;
    size_t b = whole ? n / CHUNKED_SEALED + 2 : bs[splitmix64(&seed) % 4];
    size_t cap = CHUNKED_HEADER + (b - 1) * CHUNKED_SEALED, at = 0, o = 0;
    const uint8_t *src[2] = {ct, (const uint8_t *)(uintptr_t)n};
    uint8_t *buf = malloc(b * CHUNKED_SEALED);
    int rc;

    CHECK_EQ(
        chunked_dec_init(&d, key, key_len, (const uint8_t *)ctx, strlen(ctx)),
        CHUNKED_OK);
    d.par = test_par;
    d.reread = mem_read;
    d.reread_arg = src;
    for (;;) {
        size_t len = n - at < cap ? n - at : cap, pt_at, pt_len;
        int final = len < cap;
        memcpy(buf, ct + at, len);
        rc = chunked_dec_in_place(&d, buf, len, final, &pt_at, &pt_len, err);
        CHECK(pt_len == 0 || pt_at == (at == 0 ? CHUNKED_HEADER : 0));
        for (size_t j = 0; j * CHUNKED_CHUNK < pt_len; j++) {
            size_t m = pt_len - j * CHUNKED_CHUNK;
            memcpy(out + o, buf + pt_at + j * CHUNKED_SEALED,
                   m < CHUNKED_CHUNK ? m : CHUNKED_CHUNK);
            o += m < CHUNKED_CHUNK ? m : CHUNKED_CHUNK;
        }
        if (rc != CHUNKED_OK && len > pt_at)
            released_or_wiped(buf + pt_at, ct + at + pt_at,
                              pt_len / CHUNKED_CHUNK,
                              (len - pt_at) / CHUNKED_SEALED);
        at += len, cap = b * CHUNKED_SEALED;
        if (rc != CHUNKED_OK || final)
            break;
    }
    *out_len = o;
    chunked_dec_clear(&d);
    free(buf);
    return rc;
}

/* decrypt -- ct in random pieces (whole, when whole is set); the
 * plaintext released into out (*out_len), the status of the end, and
 * err. */
static int decrypt(const uint8_t *key, size_t key_len, const char *ctx,
                   const uint8_t *ct, size_t n, uint8_t *out, size_t *out_len,
                   struct chunked_error *err, int whole)
{
    static struct chunked_dec d;
    size_t o = 0, got, at = 0;
    int rc;

    if (dec_in_place)
        return decrypt_in_place(key, key_len, ctx, ct, n, out, out_len, err,
                                whole);
    CHECK_EQ(
        chunked_dec_init(&d, key, key_len, (const uint8_t *)ctx, strlen(ctx)),
        CHUNKED_OK);
    d.par = test_par;
    while (at < n) {
        size_t piece =
            whole ? n
                  : (size_t)(splitmix64(&seed) % (test_par ? 200000 : 40000));
        if (piece > n - at)
            piece = n - at;
        rc = chunked_dec_update(&d, ct + at, piece, out + o,
                                chunked_dec_out_max(&d, piece), &got, err);
        o += got, at += piece;
        if (rc != CHUNKED_OK) {
            *out_len = o;
            chunked_dec_clear(&d);
            return rc;
        }
    }
    rc = chunked_dec_final(&d, out + o, CHUNKED_CHUNK, &got, err);
    *out_len = o + got;
    chunked_dec_clear(&d);
    return rc;
}

static uint8_t *pattern(size_t n)
{
    uint8_t *m = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        m[i] = (uint8_t)(i % 251);
    return m;
}

static void test_kats(void)
{
    uint8_t key[32], s[CHUNKED_SALT], md[32];
    char hex[65];
    unsigned mdlen;

    for (size_t i = 0; i < sizeof(key); i++)
        key[i] = (uint8_t)i;
    for (size_t i = 0; i < sizeof(s); i++)
        s[i] = (uint8_t)(100 + i);
    for (size_t t = 0; t < sizeof(kats) / sizeof(kats[0]); t++) {
        const struct kat *k = &kats[t];
        uint8_t *msg = pattern(k->n), *ct, *pt;
        struct chunked_error err;
        size_t ct_len, pt_len;

        ct = encrypt(key, k->key_len, k->ctx, msg, k->n, s, &ct_len);
        CHECK_EQ(ct_len, CHUNKED_HEADER + k->n +
                             (k->n / CHUNKED_CHUNK + 1) * CHUNKED_TAG);
        EVP_Digest(ct, ct_len, md, &mdlen, EVP_sha256(), NULL);
        for (size_t b = 0; b < 32; b++)
            snprintf(hex + 2 * b, 3, "%02x", md[b]);
        CHECK(strcmp(hex, k->sha256) == 0);
        pt = malloc(k->n + CHUNKED_CHUNK);
        CHECK_EQ(
            decrypt(key, k->key_len, k->ctx, ct, ct_len, pt, &pt_len, &err, 0),
            CHUNKED_OK);
        CHECK(pt_len == k->n && memcmp(pt, msg, k->n) == 0);
        free(msg), free(ct), free(pt);
    }
}

static void test_round_trips(void)
{
    static const size_t sizes[] = {0,     1,     15,    16,    16383, 16384,
                                   16385, 32767, 32768, 32769, 49152, 100000};
    for (size_t kl = 16; kl <= 32; kl += 16)
        for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
            size_t n = sizes[t], ct_len, pt_len;
            uint8_t *msg = pattern(n), *ct, *pt = malloc(n + CHUNKED_CHUNK);
            struct chunked_error err;
            ct = encrypt(key32, kl, "ctx", msg, n, NULL, &ct_len);
            CHECK_EQ(ct_len, CHUNKED_HEADER + n +
                                 (n / CHUNKED_CHUNK + 1) * CHUNKED_TAG);
            for (int whole = 0; whole <= 1; whole++) {
                CHECK_EQ(decrypt(key32, kl, "ctx", ct, ct_len, pt, &pt_len,
                                 &err, whole),
                         CHUNKED_OK);
                CHECK(pt_len == n && memcmp(pt, msg, n) == 0);
            }
            /* Wrong key, other key size, wrong context: the commitment. */
            CHECK_EQ(
                decrypt(other32, kl, "ctx", ct, ct_len, pt, &pt_len, &err, 0),
                CHUNKED_E_COMMIT);
            CHECK(pt_len == 0 && err.offset == 24);
            CHECK_EQ(decrypt(key32, 48 - kl, "ctx", ct, ct_len, pt, &pt_len,
                             &err, 0),
                     CHUNKED_E_COMMIT);
            CHECK_EQ(
                decrypt(key32, kl, "ctX", ct, ct_len, pt, &pt_len, &err, 0),
                CHUNKED_E_COMMIT);
            free(msg), free(ct), free(pt);
        }
}

/* expect -- decrypting ct (n bytes) fails with code at offset off, having
 * released exactly the first `released` plaintext bytes of msg. */
static void expect(const uint8_t *ct, size_t n, const uint8_t *msg, int code,
                   uint64_t off, size_t released, const char *what)
{
    uint8_t *pt = malloc(n + CHUNKED_CHUNK);
    struct chunked_error err;
    size_t pt_len;
    int rc = decrypt(key32, 32, "", ct, n, pt, &pt_len, &err, 0);

    CHECK_EQ(rc, code);
    CHECK_EQ(err.offset, off);
    CHECK_EQ(pt_len, released);
    CHECK(memcmp(pt, msg, pt_len) == 0);
    if (rc != code || err.offset != off || pt_len != released)
        fprintf(stderr, "  %s (length %zu): %d at %llu released %zu: %s\n",
                what, n, rc, (unsigned long long)err.offset, pt_len, err.msg);
    free(pt);
}

/* A 3-chunk message: two full chunks and a short one of 100 bytes. */
#define M3 (2 * CHUNKED_CHUNK + 100)
#define B(k) (CHUNKED_HEADER + (k)*CHUNKED_SEALED)

static void test_truncation(const uint8_t *msg, const uint8_t *ct,
                            size_t ct_len)
{
    /* Inside the header, and the header alone. */
    for (size_t n = 0; n <= CHUNKED_HEADER; n++)
        expect(ct, n, msg, CHUNKED_E_TRUNCATED, n, 0, "header");
    /* Around each chunk boundary: a cut just after a full chunk is a
     * missing final chunk; 1..15 bytes into a chunk is inside a tag;
     * 16..41 bytes in, a final chunk that fails. Just before a boundary,
     * a full chunk cut short (the costly trailing-data search: a few). */
    for (size_t k = 1; k <= 2; k++) {
        expect(ct, B(k), msg, CHUNKED_E_FULL_FINAL, B(k), k * CHUNKED_CHUNK,
               "boundary");
        for (size_t r = 1; r < 42; r++)
            expect(ct, B(k) + r, msg,
                   r < CHUNKED_TAG ? CHUNKED_E_TRUNCATED : CHUNKED_E_AUTH,
                   r < CHUNKED_TAG ? B(k) + r : B(k), k * CHUNKED_CHUNK,
                   "after boundary");
        expect(ct, B(k) - 1, msg, CHUNKED_E_AUTH, B(k - 1),
               (k - 1) * CHUNKED_CHUNK, "before boundary");
    }
    for (size_t r = 1; r <= CHUNKED_TAG; r++) /* inside the final tag */
        expect(ct, ct_len - r, msg, CHUNKED_E_AUTH, B(2), 2 * CHUNKED_CHUNK,
               "final tag");
    expect(ct, B(0) + 1, msg, CHUNKED_E_TRUNCATED, B(0) + 1, 0, "chunk 0");
}

static void test_tamper(const uint8_t *msg, const uint8_t *ct, size_t ct_len)
{
    uint8_t *bad = malloc(ct_len + 30000);
    static const size_t flips[] = {0,    23,        24,         55,
                                   56,   B(1) - 1,  B(1),       B(2) - 1,
                                   B(2), B(2) + 99, B(2) + 100, B(2) + 115};

    for (size_t f = 0; f < sizeof(flips) / sizeof(flips[0]); f++) {
        size_t at = flips[f];
        size_t k = at < B(1) ? 0 : at < B(2) ? 1 : 2;
        memcpy(bad, ct, ct_len);
        bad[at] ^= (uint8_t)(1u << (f % 8));
        if (at < CHUNKED_HEADER)
            expect(bad, ct_len, msg, CHUNKED_E_COMMIT, 24, 0, "flip header");
        else
            expect(bad, ct_len, msg, CHUNKED_E_AUTH, B(k), k * CHUNKED_CHUNK,
                   "flip chunk");
    }
    /* Swapped chunks 0 and 1; chunk 0 twice; chunk 1 dropped. */
    memcpy(bad, ct, ct_len);
    memcpy(bad + B(0), ct + B(1), CHUNKED_SEALED);
    memcpy(bad + B(1), ct + B(0), CHUNKED_SEALED);
    expect(bad, ct_len, msg, CHUNKED_E_AUTH, B(0), 0, "swapped");
    memcpy(bad, ct, ct_len);
    memcpy(bad + B(1), ct + B(0), CHUNKED_SEALED);
    expect(bad, ct_len, msg, CHUNKED_E_AUTH, B(1), CHUNKED_CHUNK, "dup");
    memcpy(bad, ct, B(1));
    memcpy(bad + B(1), ct + B(2), ct_len - B(2));
    expect(bad, ct_len - CHUNKED_SEALED, msg, CHUNKED_E_AUTH, B(1),
           CHUNKED_CHUNK, "dropped");
    /* Trailing bytes after the final chunk: a few, and more than a chunk
     * (then the short chunk and the start of the junk fill a full one). */
    static const size_t extra[] = {1, 15, 16, 17, 1000, 20000};
    for (size_t t = 0; t < sizeof(extra) / sizeof(extra[0]); t++) {
        memcpy(bad, ct, ct_len);
        memset(bad + ct_len, 0xa5, extra[t]);
        expect(bad, ct_len + extra[t], msg, CHUNKED_E_TRAILING, ct_len,
               2 * CHUNKED_CHUNK, "trailing");
    }
    free(bad);
}

static int mem_read(void *arg, uint64_t off, uint8_t *buf, size_t len)
{
    const uint8_t **p = arg;
    const uint8_t *ct = p[0];
    uint64_t n = (uint64_t)(uintptr_t)p[1];

    if (off > n || len > n - off)
        return -1;
    memcpy(buf, ct + off, len);
    return 0;
}

static void test_random_access(void)
{
    size_t n = 5 * CHUNKED_CHUNK + 777, ct_len;
    uint8_t *msg = pattern(n), *ct, *out = malloc(n);
    static struct chunked_ra r;
    struct chunked_error err;
    const uint8_t *src[2];

    ct = encrypt(key32, 32, "", msg, n, NULL, &ct_len);
    src[0] = ct, src[1] = (const uint8_t *)(uintptr_t)ct_len;
    CHECK_EQ(
        chunked_ra_open(&r, key32, 32, NULL, 0, mem_read, src, ct_len, &err),
        CHUNKED_OK);
    CHECK_EQ(r.pt_len, n);
    for (int t = 0; t < 300; t++) {
        uint64_t off = splitmix64(&seed) % (n + 1);
        uint64_t len = splitmix64(&seed) % (n - off + 1);
        if (t % 3 == 0)
            len %= 100;
        CHECK_EQ(chunked_ra_read(&r, off, out, (size_t)len, &err), CHUNKED_OK);
        CHECK(memcmp(out, msg + off, (size_t)len) == 0);
    }
    CHECK_EQ(chunked_ra_read(&r, n, out, 0, &err), CHUNKED_OK);
    CHECK_EQ(chunked_ra_read(&r, n, out, 1, &err), CHUNKED_E_RANGE);
    CHECK_EQ(chunked_ra_read(&r, n + 1, out, 0, &err), CHUNKED_E_RANGE);
    CHECK_EQ(chunked_ra_read(&r, 10, out, n, &err), CHUNKED_E_RANGE);
    /* A tampered chunk fails only the ranges that use it. */
    ct[B(2) + 7] ^= 1;
    CHECK_EQ(chunked_ra_read(&r, 0, out, 2 * CHUNKED_CHUNK, &err), CHUNKED_OK);
    CHECK_EQ(chunked_ra_read(&r, 2 * CHUNKED_CHUNK + 5, out, 1, &err),
             CHUNKED_E_AUTH);
    CHECK_EQ(err.offset, B(2));
    chunked_ra_clear(&r);
    /* Open: a bad length, a tampered final chunk, a wrong key. */
    CHECK_EQ(chunked_ra_open(&r, key32, 32, NULL, 0, mem_read, src, B(5), &err),
             CHUNKED_E_FULL_FINAL);
    CHECK_EQ(
        chunked_ra_open(&r, key32, 32, NULL, 0, mem_read, src, B(5) + 15, &err),
        CHUNKED_E_TRUNCATED);
    CHECK_EQ(chunked_ra_open(&r, key32, 32, NULL, 0, mem_read, src, 55, &err),
             CHUNKED_E_TRUNCATED);
    CHECK_EQ(chunked_ra_open(&r, key32, 32, NULL, 0, mem_read, src, ct_len - 1,
                             &err),
             CHUNKED_E_AUTH);
    CHECK_EQ(
        chunked_ra_open(&r, key32, 16, NULL, 0, mem_read, src, ct_len, &err),
        CHUNKED_E_COMMIT);
    free(msg), free(ct), free(out);
}

static void test_limits(void)
{
    static struct chunked_enc e;
    uint8_t hdr[CHUNKED_HEADER], out[CHUNKED_SEALED], in[1] = {0};
    size_t got;

    /* The counter may not reach 2^38, encrypting or decrypting. */
    CHECK_EQ(chunked_enc_init(&e, key32, 32, NULL, 0, NULL, hdr), CHUNKED_OK);
    e.chunk = CHUNKED_MAX_CHUNKS - 1;
    CHECK_EQ(chunked_enc_final(&e, out, sizeof(out), &got), CHUNKED_OK);
    CHECK_EQ(chunked_enc_init(&e, key32, 32, NULL, 0, NULL, hdr), CHUNKED_OK);
    e.chunk = CHUNKED_MAX_CHUNKS;
    CHECK_EQ(chunked_enc_final(&e, out, sizeof(out), &got), CHUNKED_E_TOO_LONG);
    CHECK_EQ(chunked_open_one(&e.k, CHUNKED_MAX_CHUNKS, out, 16, out),
             CHUNKED_E_TOO_LONG);
    /* Bad arguments. */
    CHECK_EQ(chunked_enc_init(&e, key32, 24, NULL, 0, NULL, hdr),
             CHUNKED_E_ARG);
    CHECK_EQ(
        chunked_enc_init(&e, key32, 32, in, CHUNKED_MAX_CONTEXT + 1, NULL, hdr),
        CHUNKED_E_ARG);
    /* The nonce: base XOR the big-endian counter in the last 5 bytes. */
    uint8_t n0[12], n1[12];
    chunked_nonce(&e.k, 0, n0);
    chunked_nonce(&e.k, 0x2a0000000bull, n1);
    CHECK(memcmp(n0, n1, 7) == 0 && (n0[7] ^ n1[7]) == 0x2a &&
          (n0[11] ^ n1[11]) == 0x0b && n0[8] == n1[8]);
}

/* Single chunks on their own: chunk k sealed alone is the stream's chunk
 * k; opened alone it gives the plaintext back; a wrong index or a
 * flipped bit fails and leaves zeros. */
static void test_single_chunks(const uint8_t *msg, const uint8_t *ct,
                               size_t ct_len)
{
    static struct chunked_keys k;
    static uint8_t buf[CHUNKED_SEALED], pt[CHUNKED_CHUNK];
    size_t last = ct_len - B(2);

    CHECK_EQ(chunked_derive(&k, key32, 32, ct, NULL, 0), CHUNKED_OK);
    for (size_t i = 0; i < 2; i++) {
        CHECK_EQ(chunked_seal_chunk(&k, i, msg + i * CHUNKED_CHUNK,
                                    CHUNKED_CHUNK, buf),
                 CHUNKED_OK);
        CHECK(memcmp(buf, ct + B(i), CHUNKED_SEALED) == 0);
        CHECK_EQ(chunked_open_chunk(&k, i, ct + B(i), CHUNKED_SEALED, pt),
                 CHUNKED_OK);
        CHECK(memcmp(pt, msg + i * CHUNKED_CHUNK, CHUNKED_CHUNK) == 0);
    }
    CHECK_EQ(chunked_seal_chunk(&k, 2, msg + 2 * CHUNKED_CHUNK, 100, buf),
             CHUNKED_OK);
    CHECK(memcmp(buf, ct + B(2), last) == 0);
    CHECK_EQ(chunked_open_chunk(&k, 2, ct + B(2), last, pt), CHUNKED_OK);
    CHECK(memcmp(pt, msg + 2 * CHUNKED_CHUNK, 100) == 0);
    /* Chunk 1 opened as chunk 0 or 2, a flipped bit: refused, zeroed. */
    memset(pt, 0xee, sizeof(pt));
    CHECK_EQ(chunked_open_chunk(&k, 0, ct + B(1), CHUNKED_SEALED, pt),
             CHUNKED_E_AUTH);
    CHECK(all_eq(pt, 0, CHUNKED_CHUNK));
    CHECK_EQ(chunked_open_chunk(&k, 2, ct + B(1), CHUNKED_SEALED, pt),
             CHUNKED_E_AUTH);
    memcpy(buf, ct + B(1), CHUNKED_SEALED);
    buf[500] ^= 4;
    memset(pt, 0xee, sizeof(pt));
    CHECK_EQ(chunked_open_chunk(&k, 1, buf, CHUNKED_SEALED, pt),
             CHUNKED_E_AUTH);
    CHECK(all_eq(pt, 0, CHUNKED_CHUNK));
    /* Lengths out of bounds, the 2^38 limit. */
    CHECK_EQ(chunked_open_chunk(&k, 1, buf, CHUNKED_TAG - 1, pt),
             CHUNKED_E_ARG);
    CHECK_EQ(chunked_open_chunk(&k, 1, buf, CHUNKED_SEALED + 1, pt),
             CHUNKED_E_ARG);
    CHECK_EQ(chunked_seal_chunk(&k, 1, msg, CHUNKED_CHUNK + 1, buf),
             CHUNKED_E_ARG);
    CHECK_EQ(chunked_seal_chunk(&k, CHUNKED_MAX_CHUNKS, msg, 1, buf),
             CHUNKED_E_TOO_LONG);
    chunked_keys_clear(&k);
}

/*
 * in_place -- msg (n bytes) through chunked_enc_in_place as `aesir
 * encrypt` feeds it (tools/cmd_encrypt.c): batches of `batch` whole
 * chunks, each chunk placed where its sealed form goes, the last batch
 * final; the ciphertext (header included, malloc'd) and its length.
 */
static uint8_t *in_place(const uint8_t *msg, size_t n, size_t batch,
                         size_t *ct_len)
{
    static struct chunked_enc e;
    size_t cap = CHUNKED_HEADER + (n / CHUNKED_CHUNK + 1) * CHUNKED_SEALED,
           o = CHUNKED_HEADER, at = 0, got;
    uint8_t *ct = malloc(cap), *buf = malloc(batch * CHUNKED_SEALED);

    CHECK_EQ(chunked_enc_init(&e, key32, 32, NULL, 0, salt, ct), CHUNKED_OK);
    e.par = test_par;
    for (;;) {
        size_t len =
            n - at < batch * CHUNKED_CHUNK ? n - at : batch * CHUNKED_CHUNK;
        int final = len < batch * CHUNKED_CHUNK;
        memset(buf, 0xa5, batch * CHUNKED_SEALED); /* the gaps: stale */
        for (size_t j = 0; j * CHUNKED_CHUNK < len; j++) {
            size_t m = len - j * CHUNKED_CHUNK;
            memcpy(buf + j * CHUNKED_SEALED, msg + at + j * CHUNKED_CHUNK,
                   m < CHUNKED_CHUNK ? m : CHUNKED_CHUNK);
        }
        CHECK_EQ(chunked_enc_in_place(&e, buf, len, final, &got), CHUNKED_OK);
        CHECK_EQ(got, len / CHUNKED_CHUNK * CHUNKED_SEALED +
                          (final ? len % CHUNKED_CHUNK + CHUNKED_TAG : 0));
        CHECK(o + got <= cap);
        if (o + got > cap)
            break;
        memcpy(ct + o, buf, got);
        o += got, at += len;
        if (final)
            break;
    }
    free(buf);
    *ct_len = o;
    return ct;
}

/* chunked_enc_in_place: byte for byte what the streaming encryptor
 * writes, at the edge sizes and batch sizes of 1 to 64 chunks; and its
 * misuse refused. */
static void test_in_place(void)
{
    static const size_t sizes[] = {0,
                                   1,
                                   16383,
                                   16384,
                                   16385,
                                   32768,
                                   M3,
                                   200 * CHUNKED_CHUNK + 7,
                                   64 * CHUNKED_CHUNK};
    static const size_t batches[] = {1, 2, 3, 64};
    static struct chunked_enc e;
    uint8_t hdr[CHUNKED_HEADER], *buf = malloc(2 * CHUNKED_SEALED);
    const struct chunked_par *par = test_par;
    size_t got;

    for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
        size_t n = sizes[t], ref_len, ct_len;
        uint8_t *msg = pattern(n), *ref;
        test_par = NULL;
        ref = encrypt(key32, 32, "", msg, n, salt, &ref_len);
        test_par = par;
        for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
            uint8_t *ct = in_place(msg, n, batches[b], &ct_len);
            CHECK(ct_len == ref_len && memcmp(ct, ref, ct_len) == 0);
            free(ct);
        }
        free(msg), free(ref);
    }
    /* Misuse: a partial chunk before the end, plaintext left waiting by
     * chunked_enc_update, a finished stream. */
    memset(buf, 0, 2 * CHUNKED_SEALED);
    CHECK_EQ(chunked_enc_init(&e, key32, 32, NULL, 0, NULL, hdr), CHUNKED_OK);
    e.par = par;
    CHECK_EQ(chunked_enc_in_place(&e, buf, CHUNKED_CHUNK + 1, 0, &got),
             CHUNKED_E_ARG);
    CHECK_EQ(got, 0);
    CHECK_EQ(chunked_enc_update(&e, buf, 5, buf, 0, &got), CHUNKED_OK);
    CHECK_EQ(chunked_enc_in_place(&e, buf, CHUNKED_CHUNK, 0, &got),
             CHUNKED_E_ARG);
    CHECK_EQ(chunked_enc_final(&e, buf, CHUNKED_SEALED, &got), CHUNKED_OK);
    CHECK_EQ(chunked_enc_in_place(&e, buf, 0, 1, &got), CHUNKED_E_ARG);
    /* The 2^38 limit: the chunk that would reach it is refused, after
     * the ones before it. */
    CHECK_EQ(chunked_enc_init(&e, key32, 32, NULL, 0, NULL, hdr), CHUNKED_OK);
    e.par = par;
    e.chunk = CHUNKED_MAX_CHUNKS - 1;
    CHECK_EQ(chunked_enc_in_place(&e, buf, 2 * CHUNKED_CHUNK, 0, &got),
             CHUNKED_E_TOO_LONG);
    CHECK_EQ(got, CHUNKED_SEALED);
    chunked_enc_clear(&e);
    free(buf);
}

/* chunked_dec_in_place's misuse refused: no re-read callback, a partial
 * chunk before the end, bytes left waiting by chunked_dec_update; the
 * 2^38 limit; a failing chunk that cannot be read again. */
/* dec_start -- d ready for chunked_dec_in_place, re-reading from src. */
static void dec_start(struct chunked_dec *d, const uint8_t **src)
{
    CHECK_EQ(chunked_dec_init(d, key32, 32, NULL, 0), CHUNKED_OK);
    d->reread = mem_read;
    d->reread_arg = src;
    d->par = test_par;
}

static void test_dec_in_place_misuse(const uint8_t *ct, size_t ct_len)
{
    static struct chunked_dec d;
    struct chunked_error err;
    uint8_t *buf = malloc(ct_len);
    const uint8_t *src[2] = {ct, (const uint8_t *)(uintptr_t)ct_len};
    size_t at, got;

    memcpy(buf, ct, ct_len);
    CHECK_EQ(chunked_dec_init(&d, key32, 32, NULL, 0), CHUNKED_OK);
    CHECK_EQ(chunked_dec_in_place(&d, buf, ct_len, 1, &at, &got, &err),
             CHUNKED_E_ARG);
    d.reread = mem_read;
    d.reread_arg = src;
    CHECK_EQ(chunked_dec_in_place(&d, buf, B(1) + 1, 0, &at, &got, &err),
             CHUNKED_E_ARG);
    CHECK_EQ(got, 0);
    chunked_dec_clear(&d);
    dec_start(&d, src);
    CHECK_EQ(chunked_dec_update(&d, buf, B(0) + 5, buf, 0, &got, &err),
             CHUNKED_OK);
    CHECK_EQ(chunked_dec_in_place(&d, buf + B(0) + 5, B(1) - B(0) - 5, 0, &at,
                                  &got, &err),
             CHUNKED_E_ARG);
    chunked_dec_clear(&d);
    /* A chunk index of 2^38 is refused before anything is opened. */
    dec_start(&d, src);
    CHECK_EQ(chunked_dec_in_place(&d, buf, CHUNKED_HEADER, 0, &at, &got, &err),
             CHUNKED_OK);
    d.chunk = CHUNKED_MAX_CHUNKS;
    CHECK_EQ(
        chunked_dec_in_place(&d, buf + B(0), B(2) - B(0), 0, &at, &got, &err),
        CHUNKED_E_TOO_LONG);
    CHECK_EQ(got, 0);
    chunked_dec_clear(&d);
    /* A flipped bit in chunk 1, whose re-read fails: still an
     * authentication failure at its offset, after chunk 0. */
    memcpy(buf, ct, ct_len);
    buf[B(1) + 7] ^= 4;
    src[1] = (const uint8_t *)(uintptr_t)B(1);
    dec_start(&d, src);
    CHECK_EQ(chunked_dec_in_place(&d, buf, ct_len, 1, &at, &got, &err),
             CHUNKED_E_AUTH);
    CHECK(at == CHUNKED_HEADER && got == CHUNKED_CHUNK && err.offset == B(1) &&
          strstr(err.msg, "read again") != NULL);
    CHECK_EQ(chunked_dec_in_place(&d, buf, 0, 1, &at, &got, &err),
             CHUNKED_E_ARG);
    chunked_dec_clear(&d);
    free(buf);
}

/* The edge suites of the streaming decryptor, through chunked_dec_in_place
 * (the encryptor's side is the same). */
static void test_dec_in_place(void)
{
    uint8_t *msg = pattern(M3), *ct;
    size_t ct_len;

    dec_in_place = 1;
    test_round_trips();
    ct = encrypt(key32, 32, "", msg, M3, NULL, &ct_len);
    test_truncation(msg, ct, ct_len);
    test_tamper(msg, ct, ct_len);
    dec_in_place = 0;
    test_dec_in_place_misuse(ct, ct_len);
    free(msg), free(ct);
}

/* A fake chunked_par: ranges of 3 run last first on this thread, so an
 * order-dependent bug or a wrong minimum shows. */
static size_t backwards(void *pool, size_t n, chunked_range_fn fn, void *arg)
{
    size_t first = SIZE_MAX;

    (void)pool;
    for (size_t hi = n; hi > 0;) {
        size_t lo = hi > 3 ? hi - 3 : 0, r = fn(arg, lo, hi);
        if (r < first)
            first = r;
        hi = lo;
    }
    return first;
}

/* Everything the streams do, again through par: the same answers. */
static void test_with_par(const struct chunked_par *par, const char *name)
{
    uint8_t *msg = pattern(M3), *ct, *ref, *big, *pt;
    size_t ct_len, ref_len, n = 200 * CHUNKED_CHUNK + 7, pt_len;
    struct chunked_error err;
    unsigned failed = check_failed;

    /* The reference, sequential, with a fixed salt. */
    test_par = NULL;
    big = pattern(n);
    ref = encrypt(key32, 32, "", big, n, salt, &ref_len);
    test_par = par;
    ct = encrypt(key32, 32, "", big, n, salt, &ct_len);
    CHECK(ct_len == ref_len && memcmp(ct, ref, ct_len) == 0);
    pt = malloc(n + CHUNKED_CHUNK);
    CHECK_EQ(decrypt(key32, 32, "", ct, ct_len, pt, &pt_len, &err, 1),
             CHUNKED_OK);
    CHECK(pt_len == n && memcmp(pt, big, n) == 0);
    /* A flipped bit in chunk 150 of a 201-chunk message fed whole: the
     * 150 chunks before it, nothing after; then chunk 150 swapped with 151. */
    ct[B(150) + 9] ^= 1;
    memset(pt, 0xee, n);
    CHECK_EQ(decrypt(key32, 32, "", ct, ct_len, pt, &pt_len, &err, 1),
             CHUNKED_E_AUTH);
    CHECK_EQ(err.offset, B(150));
    CHECK(pt_len == 150 * CHUNKED_CHUNK && memcmp(pt, big, pt_len) == 0);
    /* After them, each chunk's room is untouched or wiped: no plaintext
     * opened by another thread past the failure is left in out. */
    for (size_t j = 150; j < 200; j++)
        CHECK(all_eq(pt + j * CHUNKED_CHUNK, 0xee, CHUNKED_CHUNK) ||
              all_eq(pt + j * CHUNKED_CHUNK, 0, CHUNKED_CHUNK));
    CHECK(strstr(err.msg, "chunk 150 at offset") != NULL);
    ct[B(150) + 9] ^= 1;
    memcpy(ct + B(150), ref + B(151), CHUNKED_SEALED);
    memcpy(ct + B(151), ref + B(150), CHUNKED_SEALED);
    CHECK_EQ(decrypt(key32, 32, "", ct, ct_len, pt, &pt_len, &err, 1),
             CHUNKED_E_AUTH);
    CHECK(err.offset == B(150) && pt_len == 150 * CHUNKED_CHUNK);
    free(ct), free(ref), free(big), free(pt);
    /* The whole suite of edge cases through par. */
    test_round_trips();
    ct = encrypt(key32, 32, "", msg, M3, NULL, &ct_len);
    test_truncation(msg, ct, ct_len);
    test_tamper(msg, ct, ct_len);
    free(msg), free(ct);
    test_in_place();
    test_dec_in_place();
    test_par = NULL;
    if (check_failed != failed)
        fprintf(stderr, "  (with %s)\n", name);
}

int main(void)
{
    uint8_t *msg, *ct;
    size_t ct_len;

    for (size_t i = 0; i < sizeof(key32); i++)
        key32[i] = (uint8_t)(7 * i + 1), other32[i] = (uint8_t)(7 * i + 2);
    memset(salt, 0x33, sizeof(salt));
    CHECK(chunked_available());
    test_kats();
    test_round_trips();
    msg = pattern(M3);
    ct = encrypt(key32, 32, "", msg, M3, NULL, &ct_len);
    CHECK_EQ(ct_len, B(2) + 100 + CHUNKED_TAG);
    test_truncation(msg, ct, ct_len);
    test_tamper(msg, ct, ct_len);
    test_single_chunks(msg, ct, ct_len);
    free(msg), free(ct);
    test_random_access();
    test_limits();
    test_in_place();
    test_dec_in_place();
    {
        struct chunked_par fake = {backwards, NULL}, real;
        struct crypt_pool *pool = crypt_pool_new(4);
        test_with_par(&fake, "ranges backwards");
        CHECK(pool != NULL);
        if (pool != NULL) {
            crypt_pool_par(pool, &real);
            test_with_par(&real, "the thread pool");
            crypt_pool_free(pool);
        }
    }
    return check_summary();
}
