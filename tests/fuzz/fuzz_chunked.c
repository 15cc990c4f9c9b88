/*
 * fuzz_chunked.c -- fuzz target (g): the C2SP chunked-encryption format of
 * `aesir encrypt`/`aesir decrypt` (tools/chunked.h,
 * c2sp.org/chunked-encryption), the part of the tool that reads hostile
 * files.
 *
 * Input: a flags byte (key size, a context, which half), a context length
 * and a split seed, then the data. Two halves:
 *
 *   hostile    the data is a ciphertext. The streaming decryptor takes it
 *              in pieces the seed chooses; it may release only whole
 *              authenticated chunks, and when it reports success the
 *              ciphertext must be canonical: sealing the plaintext again
 *              under the same key, context and salt gives back exactly the
 *              input (so no other byte string decrypts). Random access
 *              over the same bytes must agree with it: a header the stream
 *              refused is refused, and a range it reads equals the
 *              stream's plaintext when the stream succeeded.
 *              The same bytes opened in place, in batches of whole
 *              chunks as `aesir decrypt` of a file opens them
 *              (chunked_dec_in_place), must give the same status and
 *              release the same plaintext.
 *   round trip the data, repeated to up to 2 KiB, or 40 KiB (past two
 *              chunk boundaries) for one seed in eight, is encrypted in pieces,
 * decrypted in other pieces and must come back; then one byte flipped or the
 *              ciphertext cut where the seed says must fail, releasing at
 *              most the chunks wholly before the damage, each equal to the
 *              original.
 *
 * Every failure must carry one of chunked.h's codes and a one-line,
 * printable message. Needs libcrypto (HKDF); built only when the tool has
 * it (tests/fuzz/CMakeLists.txt).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunked.h"
#include "fuzz.h"

#define MAX_PT (40u * 1024)
#define MAX_CT (MAX_PT + 3 * CHUNKED_SEALED + CHUNKED_HEADER)

static const uint8_t key_bytes[32] = {
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
    0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
    0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};

struct input {
    size_t key_len;
    const uint8_t *ctx;
    size_t ctx_len;
    uint32_t seed;
    const uint8_t *data;
    size_t len;
};

/* The next piece length, 1 .. 3 sealed chunks, from an xorshift seed. */
static size_t piece(uint32_t *s, size_t left)
{
    size_t n;
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    n = 1 + *s % (*s & 1 ? 64 : 3 * CHUNKED_SEALED);
    return n < left ? n : left;
}

static void check_error(int st, const struct chunked_error *e)
{
    size_t n = strlen(e->msg);
    FUZZ_CHECK(st < 0 && st >= CHUNKED_E_UNAVAILABLE);
    FUZZ_CHECK(n > 0 && n < sizeof(e->msg));
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(e->msg[i] >= 0x20 && e->msg[i] < 0x7f);
}

struct mem {
    const uint8_t *p;
    size_t len;
};

static int mem_read(void *arg, uint64_t off, uint8_t *buf, size_t len)
{
    const struct mem *m = arg;
    if (off > m->len || len > m->len - off)
        return -1;
    memcpy(buf, m->p + off, len);
    return 0;
}

/* Streaming decryption of ct in pieces: the status, the plaintext in pt
 * (*pt_len bytes released). */
static int decrypt(const struct input *in, const uint8_t *ct, size_t len,
                   uint8_t *pt, size_t *pt_len)
{
    struct chunked_dec *d = malloc(sizeof(*d));
    struct chunked_error e;
    uint32_t s = in->seed | 1;
    size_t off = 0, n;
    int st;

    FUZZ_CHECK(d != NULL);
    *pt_len = 0;
    st = chunked_dec_init(d, key_bytes, in->key_len, in->ctx, in->ctx_len);
    FUZZ_CHECK_EQ(st, CHUNKED_OK);
    while (st == CHUNKED_OK && off < len) {
        size_t m = piece(&s, len - off);
        FUZZ_CHECK(chunked_dec_out_max(d, m) <= MAX_CT);
        st = chunked_dec_update(d, ct + off, m, pt + *pt_len, MAX_CT, &n, &e);
        /* only whole chunks, and nothing from the failing one */
        FUZZ_CHECK(n % CHUNKED_CHUNK == 0);
        *pt_len += n;
        off += m;
    }
    if (st == CHUNKED_OK) {
        st = chunked_dec_final(d, pt + *pt_len, MAX_CT, &n, &e);
        FUZZ_CHECK(n < CHUNKED_CHUNK);
        if (st == CHUNKED_OK)
            *pt_len += n;
    }
    if (st != CHUNKED_OK)
        check_error(st, &e);
    chunked_dec_clear(d);
    free(d);
    return st;
}

/* Sealing pt in pieces under the given salt: the ciphertext length. */
static size_t encrypt(const struct input *in, const uint8_t *salt,
                      const uint8_t *pt, size_t len, uint8_t *ct)
{
    struct chunked_enc *e = malloc(sizeof(*e));
    uint32_t s = in->seed ^ 0x9e3779b9u;
    size_t off = 0, o = CHUNKED_HEADER, n;

    FUZZ_CHECK(e != NULL);
    FUZZ_CHECK_EQ(chunked_enc_init(e, key_bytes, in->key_len, in->ctx,
                                   in->ctx_len, salt, ct),
                  CHUNKED_OK);
    while (off < len) {
        size_t m = piece(&s, len - off);
        FUZZ_CHECK(o + chunked_enc_out_max(e, m) <= MAX_CT);
        FUZZ_CHECK_EQ(
            chunked_enc_update(e, pt + off, m, ct + o, MAX_CT - o, &n),
            CHUNKED_OK);
        o += n;
        off += m;
    }
    FUZZ_CHECK_EQ(chunked_enc_final(e, ct + o, MAX_CT - o, &n), CHUNKED_OK);
    chunked_enc_clear(e);
    free(e);
    return o + n;
}

/* Random access over ct must agree with the stream's verdict. */
static void random_access(const struct input *in, const uint8_t *ct, size_t len,
                          int stream_st, const uint8_t *pt, size_t pt_len)
{
    struct chunked_ra *r = malloc(sizeof(*r));
    struct mem m = {ct, len};
    struct chunked_error e;
    uint8_t *out = malloc(MAX_CT);
    uint32_t s = in->seed | 2;
    int st;

    FUZZ_CHECK(r != NULL && out != NULL);
    st = chunked_ra_open(r, key_bytes, in->key_len, in->ctx, in->ctx_len,
                         mem_read, &m, len, &e);
    if (st != CHUNKED_OK) {
        check_error(st, &e);
    } else {
        /* header, length and final chunk were accepted */
        FUZZ_CHECK(stream_st != CHUNKED_E_COMMIT);
        if (stream_st == CHUNKED_OK)
            FUZZ_CHECK_EQ(r->pt_len, pt_len);
        for (int i = 0; i < 3 && r->pt_len > 0; i++) {
            uint64_t off = piece(&s, (size_t)r->pt_len) - 1;
            size_t n = piece(&s, (size_t)(r->pt_len - off));
            st = chunked_ra_read(r, off, out, n, &e);
            if (st != CHUNKED_OK)
                check_error(st, &e);
            else if (stream_st == CHUNKED_OK)
                FUZZ_CHECK(memcmp(out, pt + off, n) == 0);
        }
    }
    chunked_ra_clear(r);
    free(r);
    free(out);
}

/* `aesir decrypt` of a file (chunked_dec_in_place): ct copied into
 * batches of b whole chunks (the first with the header), each opened where
 * it lies, a failing chunk re-read from ct. It must agree with the
 * streaming decryptor: the same status and the same plaintext released. */
static void in_place(const struct input *in, const uint8_t *ct, size_t len,
                     int stream_st, const uint8_t *pt, size_t pt_len)
{
    struct chunked_dec *d = malloc(sizeof(*d));
    size_t b = 1 + in->seed % 3;
    size_t cap = CHUNKED_HEADER + (b - 1) * CHUNKED_SEALED;
    uint8_t *buf = malloc(b * CHUNKED_SEALED);
    struct mem m = {ct, len};
    struct chunked_error e;
    size_t off = 0, got = 0, at, n;
    int st;

    FUZZ_CHECK(d != NULL && buf != NULL);
    FUZZ_CHECK_EQ(
        chunked_dec_init(d, key_bytes, in->key_len, in->ctx, in->ctx_len),
        CHUNKED_OK);
    d->reread = mem_read;
    d->reread_arg = &m;
    for (;;) {
        size_t k = len - off < cap ? len - off : cap;
        int final = k < cap; /* the input ends in this batch (or before) */
        memcpy(buf, ct + off, k);
        st = chunked_dec_in_place(d, buf, k, final, &at, &n, &e);
        for (size_t j = 0; j * CHUNKED_CHUNK < n; j++) {
            size_t c = n - j * CHUNKED_CHUNK;
            c = c < CHUNKED_CHUNK ? c : CHUNKED_CHUNK;
            FUZZ_CHECK(got + c <= pt_len);
            FUZZ_CHECK(memcmp(buf + at + j * CHUNKED_SEALED, pt + got, c) == 0);
            got += c;
        }
        off += k, cap = b * CHUNKED_SEALED;
        if (st != CHUNKED_OK || final)
            break;
    }
    if (st != CHUNKED_OK)
        check_error(st, &e);
    FUZZ_CHECK_EQ(st, stream_st);
    FUZZ_CHECK_EQ(got, pt_len);
    chunked_dec_clear(d);
    free(d);
    free(buf);
}

static void hostile(const struct input *in, uint8_t *pt, uint8_t *again)
{
    size_t pt_len;
    int st = decrypt(in, in->data, in->len, pt, &pt_len);

    in_place(in, in->data, in->len, st, pt, pt_len);

    if (st == CHUNKED_OK) {
        /* canonical: the same salt, key and context seal it back */
        FUZZ_CHECK(in->len >= CHUNKED_HEADER + CHUNKED_TAG);
        FUZZ_CHECK_EQ(encrypt(in, in->data, pt, pt_len, again), in->len);
        FUZZ_CHECK(memcmp(again, in->data, in->len) == 0);
    }
    random_access(in, in->data, in->len, st, pt, pt_len);
}

static void round_trip(const struct input *in, uint8_t *pt, uint8_t *ct,
                       uint8_t *out)
{
    static const uint8_t salt[CHUNKED_SALT] = {1, 2, 3, 4, 5, 6, 7, 8};
    size_t len = 0, ct_len, out_len, at, released_max;
    uint32_t s = in->seed | 4;

    if (in->len > 0) {
        /* mostly short (fast), one input in eight past chunk boundaries */
        size_t want =
            (size_t)(in->seed %
                     ((in->seed & 0x700u) == 0x700u ? MAX_PT : 2 * 1024));
        while (len < want) {
            size_t n = in->len < want - len ? in->len : want - len;
            memcpy(pt + len, in->data, n);
            len += n;
        }
    }
    ct_len = encrypt(in, salt, pt, len, ct);
    FUZZ_CHECK_EQ(ct_len, CHUNKED_HEADER + len +
                              CHUNKED_TAG * (len / CHUNKED_CHUNK + 1));
    FUZZ_CHECK_EQ(decrypt(in, ct, ct_len, out, &out_len), CHUNKED_OK);
    FUZZ_CHECK(out_len == len && memcmp(out, pt, len) == 0);

    /* damage at byte `at`: flip it, or cut the ciphertext there */
    at = piece(&s, ct_len) - 1;
    at = (at * 7919u + in->seed) % ct_len;
    released_max = at < CHUNKED_HEADER
                       ? 0
                       : (at - CHUNKED_HEADER) / CHUNKED_SEALED * CHUNKED_CHUNK;
    if (in->seed & 0x10000u) {
        int st;
        ct[at] ^= (uint8_t)(1u << (in->seed >> 20 & 7));
        st = decrypt(in, ct, ct_len, out, &out_len);
        FUZZ_CHECK(st != CHUNKED_OK);
        random_access(in, ct, ct_len, st, NULL, 0);
        ct[at] ^= (uint8_t)(1u << (in->seed >> 20 & 7));
    } else {
        FUZZ_CHECK(decrypt(in, ct, at, out, &out_len) != CHUNKED_OK);
    }
    FUZZ_CHECK(out_len <= released_max);
    FUZZ_CHECK(memcmp(out, pt, out_len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *pt, *ct, *out;
    struct input in;

    if (size < 6)
        return 0;
    if (pt == NULL) {
        pt = malloc(MAX_CT);
        ct = malloc(MAX_CT);
        out = malloc(MAX_CT);
        FUZZ_CHECK(pt != NULL && ct != NULL && out != NULL);
    }
    in.key_len = data[0] & 1 ? 16 : 32;
    in.ctx_len = data[0] & 2 ? data[1] % 16u : 0;
    in.seed = (uint32_t)data[2] | (uint32_t)data[3] << 8 |
              (uint32_t)data[4] << 16 | (uint32_t)data[5] << 24;
    data += 6, size -= 6;
    in.ctx = data;
    if (in.ctx_len > size)
        in.ctx_len = size;
    in.data = data + in.ctx_len;
    in.len = size - in.ctx_len;
    if (in.len > MAX_CT - CHUNKED_SEALED)
        in.len = MAX_CT - CHUNKED_SEALED;
    if (data[-6] & 4)
        round_trip(&in, pt, ct, out);
    else
        hostile(&in, pt, ct);
    return 0;
}
