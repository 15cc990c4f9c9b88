/*
 * fuzz_ocb.c -- libFuzzer target: OCB3 (aesir_ocb_*, RFC 7253) on every
 * engine this CPU can run, against the ref engine.
 *
 * The input (read_plan) chooses a key size and key, a nonce of 1..15
 * bytes, a tag length of 1..16 bytes, the AAD and the message (up to
 * MAX_AAD and MAX_MSG bytes), the split points of an incremental run,
 * one engine to look at closely, buffer offsets, in place or not, and a
 * corruption (a byte position and an XOR mask, or the fuzzer's own bytes
 * as the sealed message). It checks:
 *
 *   - every engine: the one-shot seal (detached, the plan's tag length)
 *     equals ref's, byte for byte (the engines' OCB kernels start at
 *     block 0: heads and tails of every batch size);
 *   - the chosen engine: one-shot = incremental (start, aad, update,
 *     finish) at the fuzzed split points, AAD pieces before, between and
 *     after the data, data pieces in place or not (out lagging in by
 *     what the context holds back); open(seal(x)) = x one-shot
 *     (appended with a 16-byte tag, detached) and incremental;
 *   - open of fuzzed input (the sealed message with a byte flipped, or
 *     the fuzzer's bytes as ciphertext and tag) gives ref's result; on
 *     AESIR_E_AUTH nothing is released (*out_len 0, every byte it would
 *     have received zero, nothing past it written) and incremental
 *     verify agrees; on AESIR_OK the plaintext re-seals to the input.
 *
 * Buffers are exact-size heap blocks at odd offsets (fz_alloc), so
 * AddressSanitizer sees any byte read or written past them.
 * tests/fuzz/make-seeds-ocb.py writes the seeds in corpus/fuzz_ocb/.
 */
#include "fuzz.h"

#define MAX_MSG 2100
#define MAX_AAD 600
#define MAX_SPLITS 8

struct plan {
    size_t key_len, nonce_len, tag_len, aad_len, len;
    uint8_t key[32], nonce[15];
    const char *engine;
    int inplace, raw_open;
    size_t nsplit, split[MAX_SPLITS];
    unsigned split_inplace;
    size_t corrupt_pos;
    uint8_t corrupt_xor;
    unsigned off_in, off_out;
};

static void read_plan(struct fz *f, struct plan *p)
{
    const char **names;
    size_t ne = fz_engines(&names);
    unsigned b0 = fz_u8(f), b1 = fz_u8(f), b2 = fz_u8(f), b3;
    static const size_t key_lens[4] = {16, 24, 32, 16};

    p->key_len = key_lens[b0 & 3];
    p->inplace = b0 >> 2 & 1;
    p->raw_open = b0 >> 3 & 1;
    p->tag_len = 1 + (b0 >> 4);
    p->engine = names[b1 % ne];
    p->nonce_len = 1 + b2 % 15;
    p->aad_len = fz_u16(f) % (MAX_AAD + 1);
    p->len = fz_u16(f) % (MAX_MSG + 1);
    p->nsplit = fz_u8(f) % (MAX_SPLITS + 1);
    for (size_t i = 0; i < p->nsplit; i++)
        p->split[i] = fz_u16(f) % (MAX_MSG + 1);
    p->split_inplace = fz_u8(f);
    p->corrupt_pos = fz_u16(f);
    p->corrupt_xor = fz_u8(f);
    b3 = fz_u8(f);
    p->off_in = b3 & 15;
    p->off_out = b3 >> 4;
    fz_bytes(f, p->key, sizeof(p->key));
    fz_bytes(f, p->nonce, p->nonce_len);
}

static aesir_ocb_key ref_key, eng_key;

/* Incremental seal (enc) or decrypt + verify of p->len bytes: the AAD
 * and the data cut at the fuzzed split points, the AAD's pieces
 * alternating with the data's. Pieces marked in split_inplace are copied
 * to out first and done in place there. Returns finish/verify's rc. */
static int incremental(const aesir_ocb_key *k, const struct plan *p, int enc,
                       const uint8_t *aad, uint8_t *out, const uint8_t *in,
                       uint8_t *tag)
{
    aesir_ocb ctx;
    size_t ad = 0, done = 0, o = 0, i = 0, got;
    int err;

    FUZZ_CHECK_EQ(aesir_ocb_start(&ctx, k, p->nonce, p->nonce_len, p->tag_len),
                  AESIR_OK);
    while (ad < p->aad_len || done < p->len) {
        size_t s = i < p->nsplit ? p->split[i] : MAX_MSG;
        if (ad < p->aad_len && (i % 2 == 0 || done == p->len)) {
            size_t n = s < p->aad_len - ad ? s : p->aad_len - ad;
            FUZZ_CHECK_EQ(aesir_ocb_aad(&ctx, aad + ad, n), AESIR_OK);
            ad += n;
        } else if (done < p->len) {
            size_t n = s < p->len - done ? s : p->len - done;
            const uint8_t *src = in + done;
            /* in place: the piece goes to out where it would be read,
             * and out receives the output o bytes in (o <= done) */
            if (p->split_inplace >> (i % 8) & 1) {
                memmove(out + done, in + done, n);
                src = out + done;
            }
            FZ_TRACE("  %s_update(%zu bytes at %zu, out at %zu)\n",
                     enc ? "encrypt" : "decrypt", n, done, o);
            FUZZ_CHECK_EQ(enc ? aesir_ocb_encrypt_update(
                                    &ctx, out + o, p->len - o, &got, src, n)
                              : aesir_ocb_decrypt_update_unverified(
                                    &ctx, out + o, p->len - o, &got, src, n),
                          AESIR_OK);
            FUZZ_CHECK(got % 16 == 0 && o + got <= done + n);
            o += got, done += n;
        }
        i++;
    }
    err =
        enc ? aesir_ocb_finish(&ctx, out + o, p->len - o, &got, tag, p->tag_len)
            : aesir_ocb_verify(&ctx, out + o, p->len - o, &got, tag,
                               p->tag_len);
    FUZZ_CHECK_EQ(o + (err == AESIR_OK ? got : 0),
                  err == AESIR_OK ? p->len : o);
    FUZZ_CHECK(err == AESIR_OK || got == 0);
    /* the message is over either way */
    FUZZ_CHECK_EQ(aesir_ocb_finish(&ctx, NULL, 0, &got, tag, p->tag_len),
                  AESIR_E_STATE);
    return err;
}

/* Detached open of ct (len bytes) and tag on the chosen engine: ref's
 * result, nothing released on AESIR_E_AUTH, a re-seal on AESIR_OK. */
static void check_open(const struct plan *p, const uint8_t *aad,
                       const uint8_t *ct, const uint8_t *tag)
{
    size_t len = p->len;
    uint8_t *want = fz_alloc(len, 0);
    uint8_t *out = fz_alloc(len + 1, p->off_out);
    uint8_t *in = fz_alloc(len, p->off_in);
    uint8_t *inc = fz_alloc(len, 0);
    uint8_t t2[16];
    int rc_ref, rc, rc_inc;

    rc_ref =
        aesir_ocb_open_detached(&ref_key, p->nonce, p->nonce_len, aad,
                                p->aad_len, want, tag, p->tag_len, ct, len);
    FUZZ_CHECK(rc_ref == AESIR_OK || rc_ref == AESIR_E_AUTH);
    memcpy(in, ct, len);
    rc = aesir_ocb_open_detached(&eng_key, p->nonce, p->nonce_len, aad,
                                 p->aad_len, p->inplace ? in : out, tag,
                                 p->tag_len, in, len);
    FZ_TRACE("  open: %d (ref %d)\n", rc, rc_ref);
    FUZZ_CHECK_EQ(rc, rc_ref);
    if (rc == AESIR_OK) {
        const uint8_t *pt = p->inplace ? in : out;
        FUZZ_CHECK(memcmp(pt, want, len) == 0);
        FUZZ_CHECK_EQ(aesir_ocb_seal_detached(&eng_key, p->nonce, p->nonce_len,
                                              aad, p->aad_len, inc, t2,
                                              p->tag_len, pt, len),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(inc, ct, len) == 0 &&
                   memcmp(t2, tag, p->tag_len) == 0);
    } else {
        FUZZ_CHECK(fz_all(p->inplace ? in : out, len, 0));
    }
    if (!p->inplace)
        FUZZ_CHECK_EQ(out[len], FZ_CANARY);
    rc_inc = incremental(&eng_key, p, 0, aad, inc, ct, (uint8_t *)tag);
    FUZZ_CHECK_EQ(rc_inc, rc_ref);
    fz_free(want, 0);
    fz_free(out, p->off_out);
    fz_free(in, p->off_in);
    fz_free(inc, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz f = {data, size};
    struct plan p;
    const char **names;
    size_t ne = fz_engines(&names), len, n;
    uint8_t *aad, *msg, *want, *out, *app, *dec;
    uint8_t want_tag[16], tag[16];
    uint64_t seed;

    read_plan(&f, &p);
    len = p.len;
    if (len > MAX_MSG) /* never: read_plan bounds it (and so gcc knows) */
        abort();
    aad = fz_alloc(p.aad_len, 0);
    msg = fz_alloc(len, p.off_in);
    fz_bytes(&f, aad, p.aad_len);
    seed = (uint64_t)size * 0x9e3779b97f4a7c15u ^ len;
    fz_fill(&seed, msg, len);
    fz_bytes(&f, msg, len < f.n ? len : f.n);
    FZ_TRACE("ocb: key %zu nonce %zu tag %zu aad %zu len %zu engine %s\n",
             p.key_len, p.nonce_len, p.tag_len, p.aad_len, len, p.engine);

    want = fz_alloc(len, 0);
    out = fz_alloc(len, p.off_out);
    app = fz_alloc(len + 16, 0);
    dec = fz_alloc(len, 0);
    FUZZ_CHECK_EQ(aesir_ocb_init_ex(&ref_key, p.key, p.key_len, "ref"),
                  AESIR_OK);
    FUZZ_CHECK_EQ(aesir_ocb_seal_detached(&ref_key, p.nonce, p.nonce_len, aad,
                                          p.aad_len, want, want_tag, p.tag_len,
                                          msg, len),
                  AESIR_OK);
    /* every engine: the one-shot seal is ref's */
    for (size_t e = 1; e < ne; e++) {
        FUZZ_CHECK_EQ(aesir_ocb_init_ex(&eng_key, p.key, p.key_len, names[e]),
                      AESIR_OK);
        FUZZ_CHECK_EQ(aesir_ocb_seal_detached(&eng_key, p.nonce, p.nonce_len,
                                              aad, p.aad_len, out, tag,
                                              p.tag_len, msg, len),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(out, want, len) == 0 &&
                   memcmp(tag, want_tag, p.tag_len) == 0);
    }
    /* the chosen engine, closely */
    FUZZ_CHECK_EQ(aesir_ocb_init_ex(&eng_key, p.key, p.key_len, p.engine),
                  AESIR_OK);
    memset(out, FZ_CANARY, len);
    FUZZ_CHECK_EQ(incremental(&eng_key, &p, 1, aad, out, msg, tag), AESIR_OK);
    FUZZ_CHECK(memcmp(out, want, len) == 0 &&
               memcmp(tag, want_tag, p.tag_len) == 0);
    FUZZ_CHECK_EQ(incremental(&eng_key, &p, 0, aad, dec, want, want_tag),
                  AESIR_OK);
    FUZZ_CHECK(memcmp(dec, msg, len) == 0);
    /* appended (16-byte tag), in place, and its open */
    memcpy(app, msg, len);
    FUZZ_CHECK_EQ(aesir_ocb_seal(&eng_key, p.nonce, p.nonce_len, aad, p.aad_len,
                                 app, len + 16, &n, app, len),
                  AESIR_OK);
    FUZZ_CHECK_EQ(n, len + 16);
    FUZZ_CHECK(p.tag_len != 16 || (memcmp(app, want, len) == 0 &&
                                   memcmp(app + len, want_tag, 16) == 0));
    FUZZ_CHECK_EQ(aesir_ocb_open(&eng_key, p.nonce, p.nonce_len, aad, p.aad_len,
                                 app, len + 16, &n, app, len + 16),
                  AESIR_OK);
    FUZZ_CHECK(n == len && memcmp(app, msg, len) == 0);

    /* opens: the genuine message, then a corrupted or fuzzed one */
    check_open(&p, aad, want, want_tag);
    if (p.raw_open) {
        uint8_t *raw = fz_alloc(len, 0);
        fz_bytes(&f, raw, len);
        fz_bytes(&f, tag, p.tag_len);
        check_open(&p, aad, raw, tag);
        fz_free(raw, 0);
    } else if (p.corrupt_xor != 0) {
        size_t pos = p.corrupt_pos % (len + p.tag_len + p.aad_len + 1);
        memcpy(tag, want_tag, p.tag_len);
        if (pos < len)
            want[pos] ^= p.corrupt_xor;
        else if (pos < len + p.tag_len)
            tag[pos - len] ^= p.corrupt_xor;
        else if (pos < len + p.tag_len + p.aad_len)
            aad[pos - len - p.tag_len] ^= p.corrupt_xor;
        else
            p.nonce[0] ^= p.corrupt_xor;
        check_open(&p, aad, want, tag);
    }
    aesir_ocb_clear(&eng_key);
    aesir_ocb_clear(&ref_key);
    fz_free(aad, 0);
    fz_free(msg, p.off_in);
    fz_free(want, 0);
    fz_free(out, p.off_out);
    fz_free(app, 0);
    fz_free(dec, 0);
    return 0;
}
