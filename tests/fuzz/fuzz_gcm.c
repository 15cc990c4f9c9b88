/*
 * fuzz_gcm.c -- libFuzzer target: GCM and GMAC (aesir_gcm_*, aesir_gmac*)
 * on every pair of an AES engine and a GHASH engine this CPU can run,
 * against the ref x ghash-ref pair (ref's FIPS-197 block function and
 * SP 800-38D's Algorithm 1, bit by bit).
 *
 * The input chooses a key size and key, the IV (96 bits, or 1 to 64
 * bytes: J0 is then GHASH of it), the AAD and the message (up to
 * MAX_AAD and MAX_MSG bytes), a tag length (16 to 12, or 8 and 4 with
 * AESIR_GCM_SHORT_TAGS), the split points of an incremental run, one pair
 * to look at closely, buffer offsets, in place or not, and a corruption
 * (a byte position and an XOR mask, or the fuzzer's own bytes as the
 * sealed message). It checks:
 *
 *   - every pair: the one-shot seal (appended tag) equals the ref pair's,
 *     byte for byte; so does GMAC over the AAD on every GHASH engine
 *     with the chosen AES engine (AES engines differ there only in
 *     E_K(J0));
 *   - the chosen pair: one-shot = incremental (aesir_gcm_start, _aad,
 *     _encrypt_update, _finish) at the fuzzed split points of the AAD and
 *     the data, each piece in place or not; detached seal = appended;
 *     open(seal(x)) = x one-shot (appended and detached, in place or not)
 *     and incremental (decrypt_update_unverified + verify); GMAC's tag
 *     verifies, and is the tag of a seal of no data;
 *   - open of fuzzed input (the sealed message with the fuzzed bytes
 *     flipped, or the fuzzer's bytes as ciphertext and tag) never releases
 *     plaintext: the result is the ref pair's; on AESIR_E_AUTH *out_len is
 *     0 and every byte it would have received is zero, nothing past it is
 *     written; on AESIR_OK (the corruption changed nothing, or a forgery:
 *     checked against the ref pair) the plaintext re-seals to the input;
 *     incremental verify agrees, and gmac_verify of a flipped tag fails.
 *
 * Buffers are exact-size heap blocks at odd offsets (fz_alloc), so
 * AddressSanitizer sees any byte read or written past them. Why: GCM
 * joins an AES engine's CTR path (batches, tails, the 32-bit counter of
 * inc32, which only IVs of other than 96 bits bring near its wrap) with a
 * GHASH engine's batches (1 to 32 blocks per reduction, masked tails) at
 * the boundaries the partial-block buffers of gcm.c set: the edges are
 * where the split points fall.
 */
#include "fuzz.h"

#define MAX_MSG 2048
#define MAX_AAD 600
#define MAX_SPLITS 8
#define FZ_MAX_GHASH 16

/* The GHASH engines this CPU can run, ghash-ref first. */
static size_t fz_ghash_engines(const char ***names)
{
    static const char *list[FZ_MAX_GHASH];
    static size_t n;
    if (n == 0) {
        list[n++] = "ghash-ref";
        for (size_t i = 0; i < aesir_ghash_engine_count() && n < FZ_MAX_GHASH;
             i++) {
            const char *name = aesir_ghash_engine_name(i);
            if ((aesir_ghash_engine_flags(i) & AESIR_ENGINE_AVAILABLE) &&
                strcmp(name, "ghash-ref") != 0)
                list[n++] = name;
        }
    }
    *names = list;
    return n;
}

struct plan {
    size_t key_len, iv_len, aad_len, len, tag_len;
    unsigned options;
    uint8_t key[32], iv[64];
    const char *aes, *ghash; /* the chosen pair */
    int inplace, raw_open;
    size_t nsplit;
    size_t split[MAX_SPLITS];
    unsigned split_inplace; /* bit i: piece i in place */
    size_t corrupt_pos;
    uint8_t corrupt_xor;
    unsigned off_in, off_out;
};

static const size_t tag_lens[8] = {16, 16, 15, 14, 13, 12, 8, 4};

static void read_plan(struct fz *f, struct plan *p)
{
    const char **aes, **gh;
    size_t naes = fz_engines(&aes), ngh = fz_ghash_engines(&gh);
    unsigned b0 = fz_u8(f), b1 = fz_u8(f), b2 = fz_u8(f), b3 = fz_u8(f);
    static const size_t key_lens[4] = {16, 24, 32, 16};

    p->key_len = key_lens[b0 & 3];
    p->options = (b0 >> 2 & 1) ? AESIR_GCM_SHORT_TAGS : 0;
    p->tag_len = tag_lens[b0 >> 5];
    if (p->tag_len < 12 && !p->options)
        p->tag_len = 16;
    p->inplace = b0 >> 3 & 1;
    p->raw_open = b0 >> 4 & 1;
    p->aes = aes[b1 % naes];
    p->ghash = gh[b2 % ngh];
    p->iv_len = b3 < 128 ? 12 : 1 + b3 % 64;
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
    fz_bytes(f, p->iv, p->iv_len);
}

static aesir_gcm_key ref_key, pair_key;

static void init_pair(aesir_gcm_key *k, const struct plan *p, const char *aes,
                      const char *gh)
{
    FUZZ_CHECK_EQ(aesir_gcm_init_ex(k, p->key, p->key_len, aes, gh, p->options),
                  AESIR_OK);
}

/* Incremental seal (enc) or decrypt+verify of p->len bytes at the fuzzed
 * split points (first over the AAD, then over the data); returns the
 * final rc. in may equal out for the pieces split_inplace marks: then
 * in is copied to out first. */
static int incremental(const aesir_gcm_key *k, const struct plan *p, int enc,
                       const uint8_t *aad, uint8_t *out, const uint8_t *in,
                       uint8_t *tag)
{
    aesir_gcm ctx;
    size_t done = 0, i = 0;
    int err;

    FUZZ_CHECK_EQ(aesir_gcm_start(&ctx, k, p->iv, p->iv_len), AESIR_OK);
    while (done < p->aad_len) {
        size_t n = i < p->nsplit ? p->split[i] : p->aad_len;
        n = n < p->aad_len - done ? n : p->aad_len - done;
        i++;
        FUZZ_CHECK_EQ(aesir_gcm_aad(&ctx, aad + done, n), AESIR_OK);
        done += n;
    }
    done = 0;
    while (done < p->len) {
        size_t n = i < p->nsplit ? p->split[i] : p->len;
        const uint8_t *src = in + done;
        n = n < p->len - done ? n : p->len - done;
        if (p->split_inplace >> (i % 8) & 1) {
            memmove(out + done, in + done, n);
            src = out + done;
        }
        i++;
        FZ_TRACE("  %s_update(%zu bytes at %zu%s)\n",
                 enc ? "encrypt" : "decrypt", n, done,
                 src == out + done ? ", in place" : "");
        FUZZ_CHECK_EQ(
            enc ? aesir_gcm_encrypt_update(&ctx, out + done, src, n)
                : aesir_gcm_decrypt_update_unverified(&ctx, out + done, src, n),
            AESIR_OK);
        done += n;
    }
    err = enc ? aesir_gcm_finish(&ctx, tag, p->tag_len)
              : aesir_gcm_verify(&ctx, tag, p->tag_len);
    /* the message is over either way */
    FUZZ_CHECK_EQ(aesir_gcm_finish(&ctx, tag, p->tag_len), AESIR_E_STATE);
    return err;
}

/* Open of sealed (len bytes and a 16-byte tag) on the chosen pair must
 * give what the ref pair gives, and release nothing on AESIR_E_AUTH. */
static void check_open(const struct plan *p, const uint8_t *aad,
                       const uint8_t *sealed)
{
    size_t len = p->len, n_ref = 7, n = 7;
    uint8_t *want = fz_alloc(len, 0);
    uint8_t *out = fz_alloc(len + 16, p->off_out);
    uint8_t *in = fz_alloc(len + 16, p->off_in);
    uint8_t *again = fz_alloc(len + 16, 0);
    int rc_ref, rc;

    rc_ref = aesir_gcm_open(&ref_key, p->iv, p->iv_len, aad, p->aad_len, want,
                            len, &n_ref, sealed, len + 16);
    FUZZ_CHECK(rc_ref == AESIR_OK || rc_ref == AESIR_E_AUTH);
    FUZZ_CHECK_EQ(n_ref, rc_ref == AESIR_OK ? len : 0);

    memcpy(in, sealed, len + 16);
    rc = aesir_gcm_open(&pair_key, p->iv, p->iv_len, aad, p->aad_len,
                        p->inplace ? in : out, len, &n, in, len + 16);
    FZ_TRACE("  open: %d (ref %d)\n", rc, rc_ref);
    FUZZ_CHECK_EQ(rc, rc_ref);
    if (rc == AESIR_OK) {
        const uint8_t *pt = p->inplace ? in : out;
        size_t m = 0;
        FUZZ_CHECK_EQ(n, len);
        FUZZ_CHECK(memcmp(pt, want, len) == 0);
        /* a plaintext that opens is one that seals to the input */
        FUZZ_CHECK_EQ(aesir_gcm_seal(&pair_key, p->iv, p->iv_len, aad,
                                     p->aad_len, again, len + 16, &m, pt, len),
                      AESIR_OK);
        FUZZ_CHECK(m == len + 16 && memcmp(again, sealed, len + 16) == 0);
    } else {
        FUZZ_CHECK_EQ(n, 0);
        /* no plaintext: what it would have received is zero */
        FUZZ_CHECK(fz_all(p->inplace ? in : out, len, 0));
        if (p->inplace)
            FUZZ_CHECK(memcmp(in + len, sealed + len, 16) == 0);
        else
            FUZZ_CHECK(fz_all(out + len, 16, FZ_CANARY));
    }
    /* detached with the tag cut to tag_len: the same verdict unless the
     * corruption lies in the bytes cut off */
    memset(out, FZ_CANARY, len + 16);
    rc = aesir_gcm_open_detached(&pair_key, p->iv, p->iv_len, aad, p->aad_len,
                                 out, sealed + len, p->tag_len, sealed, len);
    FUZZ_CHECK(rc == AESIR_OK || rc == AESIR_E_AUTH);
    if (rc_ref == AESIR_OK)
        FUZZ_CHECK_EQ(rc, AESIR_OK);
    if (rc == AESIR_OK)
        FUZZ_CHECK(memcmp(out, want, rc_ref == AESIR_OK ? len : 0) == 0);
    else
        FUZZ_CHECK(fz_all(out, len, 0));
    FUZZ_CHECK(fz_all(out + len, 16, FZ_CANARY));
    /* incremental: the plaintext is released unverified, the verdict is
     * the one-shot's */
    memcpy(again, sealed + len, 16);
    rc = incremental(&pair_key, p, 0, aad, out, sealed, again);
    FUZZ_CHECK(rc == AESIR_OK || rc == AESIR_E_AUTH);
    if (p->tag_len == 16 || rc_ref == AESIR_OK)
        FUZZ_CHECK_EQ(rc, rc_ref);
    fz_free(want, 0);
    fz_free(out, p->off_out);
    fz_free(in, p->off_in);
    fz_free(again, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz f = {data, size};
    struct plan p;
    const char **aes, **gh;
    size_t naes = fz_engines(&aes), ngh = fz_ghash_engines(&gh);
    uint8_t *aad, *msg, *want, *out, *buf;
    uint8_t tag[16], gtag[16], rtag[16];
    size_t n = 0, len;

    read_plan(&f, &p);
    len = p.len;
    aad = fz_alloc(p.aad_len, 3);
    msg = fz_alloc(len, p.off_in);
    want = fz_alloc(len + 16, 0);
    out = fz_alloc(len + 16, p.off_out);
    buf = fz_alloc(len + 16, 5);
    fz_bytes(&f, aad, p.aad_len);
    fz_bytes(&f, msg, len);
    FZ_TRACE("gcm: key %zu, iv %zu, aad %zu, msg %zu, tag %zu, pair %s x %s, "
             "%zu splits\n",
             p.key_len, p.iv_len, p.aad_len, len, p.tag_len, p.aes, p.ghash,
             p.nsplit);

    /* the ref pair */
    init_pair(&ref_key, &p, "ref", "ghash-ref");
    FUZZ_CHECK_EQ(aesir_gcm_seal(&ref_key, p.iv, p.iv_len, aad, p.aad_len, want,
                                 len + 16, &n, msg, len),
                  AESIR_OK);
    FUZZ_CHECK_EQ(n, len + 16);
    FUZZ_CHECK_EQ(
        aesir_gmac(&ref_key, p.iv, p.iv_len, aad, p.aad_len, rtag, 16),
        AESIR_OK);

    /* every pair: one-shot seal and GMAC equal the ref pair's */
    for (size_t a = 0; a < naes; a++)
        for (size_t g = 0; g < ngh; g++) {
            init_pair(&pair_key, &p, aes[a], gh[g]);
            memset(out, FZ_CANARY, len + 16);
            FZ_TRACE("  seal on %s x %s\n", aes[a], gh[g]);
            FUZZ_CHECK_EQ(aesir_gcm_seal(&pair_key, p.iv, p.iv_len, aad,
                                         p.aad_len, out, len + 16, &n, msg,
                                         len),
                          AESIR_OK);
            FUZZ_CHECK(n == len + 16 && memcmp(out, want, len + 16) == 0);
            /* GMAC differs between AES engines only in E_K(J0): once
             * per GHASH engine, with the chosen AES engine */
            if (strcmp(aes[a], p.aes) != 0)
                continue;
            FUZZ_CHECK_EQ(
                aesir_gmac(&pair_key, p.iv, p.iv_len, aad, p.aad_len, gtag, 16),
                AESIR_OK);
            FUZZ_CHECK(memcmp(gtag, rtag, 16) == 0);
        }

    /* the chosen pair, closely */
    init_pair(&pair_key, &p, p.aes, p.ghash);
    /* one-shot in place */
    memcpy(buf, msg, len);
    FUZZ_CHECK_EQ(aesir_gcm_seal(&pair_key, p.iv, p.iv_len, aad, p.aad_len, buf,
                                 len + 16, &n, buf, len),
                  AESIR_OK);
    FUZZ_CHECK(memcmp(buf, want, len + 16) == 0);
    /* one output byte short: refused, nothing written */
    memset(out, FZ_CANARY, len + 16);
    n = 7;
    FUZZ_CHECK_EQ(aesir_gcm_seal(&pair_key, p.iv, p.iv_len, aad, p.aad_len, out,
                                 len + 15, &n, msg, len),
                  AESIR_E_OUTPUT_SIZE);
    FUZZ_CHECK(n == 7 && fz_all(out, len + 16, FZ_CANARY));
    /* detached, tag_len bytes */
    memset(out, FZ_CANARY, len + 16);
    FUZZ_CHECK_EQ(aesir_gcm_seal_detached(&pair_key, p.iv, p.iv_len, aad,
                                          p.aad_len, out, tag, p.tag_len, msg,
                                          len),
                  AESIR_OK);
    FUZZ_CHECK(memcmp(out, want, len) == 0 &&
               memcmp(tag, want + len, p.tag_len) == 0);
    FUZZ_CHECK(fz_all(out + len, 16, FZ_CANARY));
    /* incremental = one-shot */
    memcpy(buf, msg, len);
    memset(out, FZ_CANARY, len + 16);
    FUZZ_CHECK_EQ(incremental(&pair_key, &p, 1, aad, out, buf, tag), AESIR_OK);
    FUZZ_CHECK(memcmp(out, want, len) == 0 &&
               memcmp(tag, want + len, p.tag_len) == 0);
    FUZZ_CHECK(fz_all(out + len, 16, FZ_CANARY));
    /* GMAC = the tag of a seal of no data; it verifies, a flipped one
     * does not */
    FUZZ_CHECK_EQ(aesir_gcm_seal_detached(&pair_key, p.iv, p.iv_len, aad,
                                          p.aad_len, NULL, tag, 16, NULL, 0),
                  AESIR_OK);
    FUZZ_CHECK(memcmp(tag, rtag, 16) == 0);
    FUZZ_CHECK_EQ(aesir_gmac_verify(&pair_key, p.iv, p.iv_len, aad, p.aad_len,
                                    rtag, p.tag_len),
                  AESIR_OK);
    memcpy(gtag, rtag, 16);
    gtag[p.corrupt_pos % p.tag_len] ^= (uint8_t)(p.corrupt_xor | 1);
    FUZZ_CHECK_EQ(aesir_gmac_verify(&pair_key, p.iv, p.iv_len, aad, p.aad_len,
                                    gtag, p.tag_len),
                  AESIR_E_AUTH);

    /* open(seal(x)) = x, then fuzzed input: the sealed message with a
     * fuzzed flip, or the fuzzer's own bytes */
    check_open(&p, aad, want);
    if (p.raw_open)
        fz_bytes(&f, want, len + 16);
    else
        want[p.corrupt_pos % (len + 16)] ^= p.corrupt_xor;
    check_open(&p, aad, want);

    aesir_gcm_clear(&pair_key);
    aesir_gcm_clear(&ref_key);
    fz_free(aad, 3);
    fz_free(msg, p.off_in);
    fz_free(want, 0);
    fz_free(out, p.off_out);
    fz_free(buf, 5);
    return 0;
}
