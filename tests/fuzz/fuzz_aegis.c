/*
 * fuzz_aegis.c -- libFuzzer target: AEGIS (aesir_aegis_*, every variant
 * of draft-irtf-cfrg-aegis-aead-17) on every engine this CPU can run,
 * against the ref engine's path (the generic AEGIS of src/aead/aegis.c on
 * ct64's bitsliced round; test_aegis.c checks that path against the
 * draft's vectors and an independent reference).
 *
 * The input chooses the variant, the tag length (16 or 32), the key and
 * nonce, the lengths of the AAD and the message (up to MAX_AAD and
 * MAX_MSG bytes; the bytes themselves from a seeded generator), buffer
 * offsets, in place or not, and a corruption (a byte position and an XOR
 * mask), or the fuzzer's own remaining bytes as a sealed message. It
 * checks, on every engine:
 *
 *   - seal (appended tag) equals ref's byte for byte, and so does the
 *     detached seal; nothing is written past the output;
 *   - open(seal(x)) = x, appended and detached, in place or not;
 *   - open of the corrupted message (or of the fuzzer's bytes) gives
 *     ref's verdict; on AESIR_E_AUTH *out_len is 0 and every byte the
 *     plaintext would have filled is zero, nothing past it written; on
 *     AESIR_OK (no effective corruption, or a forgery ref accepts too)
 *     the plaintext equals ref's;
 *   - the incremental API (aesir_aegis_start .. finish / verify) with the
 *     AAD and the message in random pieces (from the seed: single bytes,
 *     pieces around the rate, large ones) gives ref's ciphertext and tag,
 *     decrypts it back in pieces (in place or not) and verifies, and its
 *     verify of the corrupted message gives ref's verdict.
 *
 * Buffers are exact-size heap blocks at odd offsets (fz_alloc): the
 * kernels' partial-block copies and vector loads at the ends of the
 * buffers are where AddressSanitizer must see nothing.
 */
#include "fuzz.h"

#define MAX_MSG 2048
#define MAX_AAD 600

struct plan {
    int variant;
    size_t kl, tl, len, aad_len;
    int inplace, raw;
    unsigned off_in, off_out;
    size_t corrupt_pos;
    uint8_t corrupt_xor;
    uint8_t key[32], nonce[32];
};

static void read_plan(struct fz *f, struct plan *p)
{
    const uint8_t flags = fz_u8(f);
    p->variant = 1 + (int)(fz_u8(f) % 6);
    p->kl = aesir_aegis_key_bytes(p->variant);
    p->tl = (flags & 1) ? 32 : 16;
    p->inplace = (flags >> 1) & 1;
    p->raw = (flags >> 2) & 1;
    p->len = fz_u16(f) % (MAX_MSG + 1);
    p->aad_len = fz_u16(f) % (MAX_AAD + 1);
    p->off_in = fz_u8(f) % 16;
    p->off_out = fz_u8(f) % 16;
    p->corrupt_pos = fz_u16(f);
    p->corrupt_xor = fz_u8(f);
    fz_bytes(f, p->key, 32);
    fz_bytes(f, p->nonce, 32);
}

/* The next piece of a split from the generator: one byte, up to 300
 * bytes (around the rates, 16 to 128 bytes), or up to all that is left. */
static size_t next_piece(uint64_t *s, size_t left)
{
    const uint64_t r = fz_rng(s);
    size_t n;
    switch (r % 4) {
    case 0:
        n = 1;
        break;
    case 1:
    case 2:
        n = (size_t)(r >> 8) % 301;
        break;
    default:
        n = (size_t)(r >> 8) % (left + 1);
    }
    return n < left ? n : left;
}

/* The message through the incremental API in pieces drawn from *s:
 * encryption (out, tag) or decryption (out; verify's code against tag).
 * Any other failure is a check failure. */
static int inc_run(const aesir_aegis_key *k, const struct plan *p, uint64_t *s,
                   const uint8_t *aad, uint8_t *out, const uint8_t *in,
                   size_t len, uint8_t *tag, int decrypt)
{
    aesir_aegis ctx;
    size_t o, n;

    FUZZ_CHECK_EQ(aesir_aegis_start(&ctx, k, p->nonce, p->kl), AESIR_OK);
    for (o = 0; o < p->aad_len; o += n) {
        n = next_piece(s, p->aad_len - o);
        FUZZ_CHECK_EQ(aesir_aegis_aad(&ctx, aad + o, n), AESIR_OK);
    }
    for (o = 0; o < len; o += n) {
        n = next_piece(s, len - o);
        FUZZ_CHECK_EQ(
            decrypt ? aesir_aegis_decrypt_update_unverified(&ctx, out + o,
                                                            in + o, n)
                    : aesir_aegis_encrypt_update(&ctx, out + o, in + o, n),
            AESIR_OK);
    }
    if (decrypt)
        return aesir_aegis_verify(&ctx, tag, p->tl);
    FUZZ_CHECK_EQ(aesir_aegis_finish(&ctx, tag, p->tl), AESIR_OK);
    return AESIR_OK;
}

/* Opens in (n bytes: ciphertext || tag) with k into a fresh exact-size
 * buffer; checks the promises on failure; returns the code, the
 * plaintext in *pt (n - tl bytes) for the caller to compare and free. */
static int open_checked(const aesir_aegis_key *k, const struct plan *p,
                        const uint8_t *aad, const uint8_t *in, size_t n,
                        uint8_t **pt)
{
    const size_t m = n - p->tl;
    uint8_t *out = fz_alloc(m + 1, p->off_out); /* one canary byte past */
    size_t ol = 12345;
    int err = aesir_aegis_open(k, p->nonce, p->kl, aad, p->aad_len, out, m, &ol,
                               in, n, p->tl);
    FUZZ_CHECK(out[m] == FZ_CANARY);
    if (err == AESIR_E_AUTH)
        FUZZ_CHECK(ol == 0 && fz_all(out, m, 0));
    else
        FUZZ_CHECK(err == AESIR_OK && ol == m);
    *pt = out;
    return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char **engines;
    const size_t ne = fz_engines(&engines);
    struct fz f = {data, size};
    struct plan p;
    aesir_aegis_key kref, k;
    uint8_t *msg, *aad, *want, *sealed;
    uint64_t seed;
    size_t n, ol;

    read_plan(&f, &p);
    seed = fz_u32(&f);
    if (p.raw) { /* the rest of the input: ciphertext || tag */
        p.len = f.n > p.tl ? (f.n - p.tl < MAX_MSG ? f.n - p.tl : MAX_MSG) : 0;
    }
    n = p.len + p.tl;
    msg = fz_alloc(p.len, p.off_in);
    aad = fz_alloc(p.aad_len, 3);
    want = fz_alloc(n, 0);
    sealed = fz_alloc(n, p.off_in);
    fz_fill(&seed, msg, p.len);
    fz_fill(&seed, aad, p.aad_len);
    FUZZ_CHECK_EQ(aesir_aegis_init_ex(&kref, p.variant, p.key, p.kl, "ref"),
                  AESIR_OK);
    FUZZ_CHECK_EQ(aesir_aegis_seal(&kref, p.nonce, p.kl, aad, p.aad_len, want,
                                   n, &ol, msg, p.len, p.tl),
                  AESIR_OK);
    /* the message to open: the sealed one corrupted, or the input's */
    memcpy(sealed, want, n);
    if (p.raw)
        fz_bytes(&f, sealed, n);
    else if (n != 0)
        sealed[p.corrupt_pos % n] ^= p.corrupt_xor;

    for (size_t e = 0; e < ne; e++) {
        uint8_t *out, *pt, *ptref, *tag;
        int err, err_ref;
        FZ_TRACE("aegis variant %d engine %s len %zu aad %zu tag %zu\n",
                 p.variant, engines[e], p.len, p.aad_len, p.tl);
        FUZZ_CHECK_EQ(
            aesir_aegis_init_ex(&k, p.variant, p.key, p.kl, engines[e]),
            AESIR_OK);
        /* seal, appended: in place or not */
        out = fz_alloc(n, p.off_out);
        if (p.inplace)
            memcpy(out, msg, p.len);
        FUZZ_CHECK_EQ(aesir_aegis_seal(&k, p.nonce, p.kl, aad, p.aad_len, out,
                                       n, &ol, p.inplace ? out : msg, p.len,
                                       p.tl),
                      AESIR_OK);
        FUZZ_CHECK(ol == n && memcmp(out, want, n) == 0);
        /* detached */
        tag = fz_alloc(p.tl, 5);
        if (p.inplace)
            memcpy(out, msg, p.len);
        FUZZ_CHECK_EQ(aesir_aegis_seal_detached(&k, p.nonce, p.kl, aad,
                                                p.aad_len, out, tag, p.tl,
                                                p.inplace ? out : msg, p.len),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(out, want, p.len) == 0);
        FUZZ_CHECK(memcmp(tag, want + p.len, p.tl) == 0);
        /* open of the good message, detached, in place or not */
        memcpy(out, want, p.len);
        pt = p.inplace ? out : fz_alloc(p.len, p.off_in);
        FUZZ_CHECK_EQ(aesir_aegis_open_detached(&k, p.nonce, p.kl, aad,
                                                p.aad_len, pt, tag, p.tl, out,
                                                p.len),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(pt, msg, p.len) == 0);
        if (!p.inplace)
            fz_free(pt, p.off_in);
        fz_free(tag, 5);
        fz_free(out, p.off_out);
        /* open of the corrupted (or fuzzed) message: ref's verdict */
        err = open_checked(&k, &p, aad, sealed, n, &pt);
        err_ref = open_checked(&kref, &p, aad, sealed, n, &ptref);
        FUZZ_CHECK_EQ(err, err_ref);
        FUZZ_CHECK(memcmp(pt, ptref, p.len) == 0);
        fz_free(pt, p.off_out);
        fz_free(ptref, p.off_out);
        /* incremental: seal in pieces, open back in pieces, and the
         * corrupted message's verdict */
        {
            uint64_t s = seed ^ (0x9e3779b97f4a7c15u * (e + 1));
            uint8_t *t = fz_alloc(p.tl, 7);
            int v;
            out = fz_alloc(p.len, p.off_out);
            if (p.inplace)
                memcpy(out, msg, p.len);
            FUZZ_CHECK_EQ(inc_run(&k, &p, &s, aad, out, p.inplace ? out : msg,
                                  p.len, t, 0),
                          AESIR_OK);
            FUZZ_CHECK(memcmp(out, want, p.len) == 0);
            FUZZ_CHECK(memcmp(t, want + p.len, p.tl) == 0);
            pt = p.inplace ? out : fz_alloc(p.len, p.off_in);
            FUZZ_CHECK_EQ(inc_run(&k, &p, &s, aad, pt, out, p.len, t, 1),
                          AESIR_OK);
            FUZZ_CHECK(memcmp(pt, msg, p.len) == 0);
            if (!p.inplace)
                fz_free(pt, p.off_in);
            memcpy(t, sealed + p.len, p.tl);
            v = inc_run(&k, &p, &s, aad, out, sealed, p.len, t, 1);
            FUZZ_CHECK_EQ(v, err_ref);
            fz_free(out, p.off_out);
            fz_free(t, 7);
        }
        aesir_aegis_clear(&k);
    }
    aesir_aegis_clear(&kref);
    fz_free(msg, p.off_in);
    fz_free(aad, 3);
    fz_free(want, 0);
    fz_free(sealed, p.off_in);
    return 0;
}
