/*
 * fuzz_ccm.c -- libFuzzer target: CCM (aesir_ccm_*) on every AES engine
 * this CPU can run, against the ref engine.
 *
 * The input chooses a key size and key, a nonce of 7..13 bytes, a tag of
 * 4..16 bytes (even), the lengths of the additional data and of the
 * message (up to MAX_AAD and MAX_MSG bytes; their bytes come from a
 * generator seeded by the input), the split points of an incremental
 * run, one engine to look at closely, buffer offsets, in place or not,
 * and a corruption (a byte position and an XOR mask, or the fuzzer's own
 * bytes as the sealed message). It checks:
 *
 *   - every engine: the one-shot seal (appended tag) equals the ref
 *     engine's, byte for byte;
 *   - the chosen engine: one-shot = incremental (aesir_ccm_start, _aad,
 *     _encrypt_update, _finish) at the fuzzed split points, pieces in
 *     place or not; detached seal = appended; open(seal(x)) = x one-shot
 *     (appended and detached, in place or not) and incremental
 *     (decrypt_update_unverified + verify);
 *   - open of fuzzed input (the sealed message with a byte flipped, or
 *     the fuzzer's bytes as ciphertext and tag) never releases
 *     plaintext: the result is the ref engine's; on AESIR_E_AUTH
 *     *out_len is 0 and every byte it would have received is zero,
 *     nothing past it is written; on AESIR_OK the plaintext re-seals to
 *     the input.
 *
 * Buffers are exact-size heap blocks at odd offsets (fz_alloc), so that
 * AddressSanitizer sees a byte read or written past them. Why: CCM joins
 * the MAC buffer (B_0, the encoded additional data, the payload) and the
 * keystream at positions the split points choose, and the engines' fused
 * kernels and paired paths at whole blocks between them.
 */
#include "fuzz.h"

#define MAX_MSG 2048
#define MAX_AAD 600
#define MAX_SPLITS 8

struct plan {
    size_t key_len, nonce_len, aad_len, len, tag_len;
    uint8_t key[32], nonce[13];
    const char *aes; /* the chosen engine */
    int inplace, raw_open;
    size_t nsplit;
    size_t split[MAX_SPLITS];
    unsigned split_inplace; /* bit i: piece i in place */
    size_t corrupt_pos;
    uint8_t corrupt_xor;
    unsigned off_in, off_out;
    uint64_t seed;
};

static void read_plan(struct fz *f, struct plan *p)
{
    const char **aes;
    size_t naes = fz_engines(&aes);
    unsigned b0 = fz_u8(f), b1 = fz_u8(f), b2 = fz_u8(f);
    static const size_t key_lens[4] = {16, 24, 32, 16};

    p->key_len = key_lens[b0 & 3];
    p->inplace = b0 >> 2 & 1;
    p->raw_open = b0 >> 3 & 1;
    p->tag_len = 4 + 2 * ((b0 >> 4) % 7);
    p->aes = aes[b1 % naes];
    p->nonce_len = 7 + b2 % 7;
    p->aad_len = fz_u16(f) % (MAX_AAD + 1);
    p->len = fz_u16(f) % (MAX_MSG + 1);
    p->nsplit = fz_u8(f) % (MAX_SPLITS + 1);
    for (size_t i = 0; i < p->nsplit; i++)
        p->split[i] = fz_u16(f) % (MAX_MSG + 1);
    p->split_inplace = fz_u8(f);
    p->corrupt_pos = fz_u16(f);
    p->corrupt_xor = fz_u8(f);
    b2 = fz_u8(f);
    p->off_in = b2 & 15;
    p->off_out = b2 >> 4;
    p->seed = fz_u32(f);
    fz_bytes(f, p->key, sizeof(p->key));
    fz_bytes(f, p->nonce, p->nonce_len);
}

static aesir_ccm_key ref_key, eng_key;

/* Incremental seal (enc) or decrypt+verify at the fuzzed split points
 * (first over the additional data, then over the message); the final
 * rc. Pieces split_inplace marks are copied to out and done in place. */
static int incremental(const aesir_ccm_key *k, const struct plan *p, int enc,
                       const uint8_t *aad, uint8_t *out, const uint8_t *in,
                       uint8_t *tag)
{
    aesir_ccm ctx;
    size_t done = 0, i = 0;
    int err;

    FUZZ_CHECK_EQ(aesir_ccm_start(&ctx, k, p->nonce, p->nonce_len, p->aad_len,
                                  p->len, p->tag_len),
                  AESIR_OK);
    while (done < p->aad_len) {
        size_t n = i < p->nsplit ? p->split[i] : p->aad_len;
        n = n < p->aad_len - done ? n : p->aad_len - done;
        i++;
        FUZZ_CHECK_EQ(aesir_ccm_aad(&ctx, aad + done, n), AESIR_OK);
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
            enc ? aesir_ccm_encrypt_update(&ctx, out + done, src, n)
                : aesir_ccm_decrypt_update_unverified(&ctx, out + done, src, n),
            AESIR_OK);
        done += n;
    }
    err = enc ? aesir_ccm_finish(&ctx, tag, p->tag_len)
              : aesir_ccm_verify(&ctx, tag, p->tag_len);
    /* the message is over either way */
    FUZZ_CHECK_EQ(aesir_ccm_finish(&ctx, tag, p->tag_len), AESIR_E_STATE);
    return err;
}

/* Open of sealed (len bytes and the tag) on the chosen engine gives what
 * the ref engine gives and releases nothing on AESIR_E_AUTH. */
static void check_open(const struct plan *p, const uint8_t *aad,
                       const uint8_t *sealed)
{
    size_t len = p->len, tl = p->tag_len, n_ref = 7, n = 7, m = 0;
    uint8_t *want = fz_alloc(len, 0);
    uint8_t *out = fz_alloc(len + tl, p->off_out);
    uint8_t *in = fz_alloc(len + tl, p->off_in);
    uint8_t *again = fz_alloc(len + tl, 0);
    int rc_ref, rc;

    rc_ref = aesir_ccm_open(&ref_key, p->nonce, p->nonce_len, aad, p->aad_len,
                            want, len, &n_ref, sealed, len + tl, tl);
    FUZZ_CHECK(rc_ref == AESIR_OK || rc_ref == AESIR_E_AUTH);
    FUZZ_CHECK_EQ(n_ref, rc_ref == AESIR_OK ? len : 0);

    memcpy(in, sealed, len + tl);
    rc = aesir_ccm_open(&eng_key, p->nonce, p->nonce_len, aad, p->aad_len,
                        p->inplace ? in : out, len, &n, in, len + tl, tl);
    FZ_TRACE("  open: %d (ref %d)\n", rc, rc_ref);
    FUZZ_CHECK_EQ(rc, rc_ref);
    if (rc == AESIR_OK) {
        const uint8_t *pt = p->inplace ? in : out;
        FUZZ_CHECK_EQ(n, len);
        FUZZ_CHECK(memcmp(pt, want, len) == 0);
        FUZZ_CHECK_EQ(aesir_ccm_seal(&eng_key, p->nonce, p->nonce_len, aad,
                                     p->aad_len, again, len + tl, &m, pt, len,
                                     tl),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(again, sealed, len + tl) == 0);
    } else {
        FUZZ_CHECK_EQ(n, 0);
        FUZZ_CHECK(fz_all(p->inplace ? in : out, len, 0));
        if (!p->inplace)
            FUZZ_CHECK(fz_all(out + len, tl, FZ_CANARY));
    }
    /* detached, out of place, and the incremental verify agree */
    memset(out, FZ_CANARY, len + tl);
    rc =
        aesir_ccm_open_detached(&eng_key, p->nonce, p->nonce_len, aad,
                                p->aad_len, out, sealed + len, tl, sealed, len);
    FUZZ_CHECK_EQ(rc, rc_ref);
    FUZZ_CHECK(rc == AESIR_OK ? memcmp(out, want, len) == 0
                              : fz_all(out, len, 0));
    FUZZ_CHECK(fz_all(out + len, tl, FZ_CANARY));
    memcpy(again, sealed + len, tl);
    rc = incremental(&eng_key, p, 0, aad, out, sealed, again);
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
    const char **aes;
    size_t naes = fz_engines(&aes), len, tl, n = 0;
    uint8_t *aad, *pt, *sealed, *other, *in, *tag;
    uint64_t s;

    memset(&p, 0, sizeof(p));
    read_plan(&f, &p);
    len = p.len, tl = p.tag_len;
    s = p.seed;
    aad = fz_alloc(p.aad_len, 1);
    pt = fz_alloc(len, 3);
    sealed = fz_alloc(len + tl, 5);
    other = fz_alloc(len + tl, p.off_out);
    in = fz_alloc(len + tl, p.off_in);
    tag = fz_alloc(tl, 7);
    fz_fill(&s, aad, p.aad_len);
    fz_fill(&s, pt, len);
    FZ_TRACE("ccm: %s key %zu nonce %zu aad %zu len %zu tag %zu\n", p.aes,
             p.key_len, p.nonce_len, p.aad_len, len, tl);

    FUZZ_CHECK_EQ(aesir_ccm_init_ex(&ref_key, p.key, p.key_len, "ref"),
                  AESIR_OK);
    FUZZ_CHECK_EQ(aesir_ccm_seal(&ref_key, p.nonce, p.nonce_len, aad, p.aad_len,
                                 sealed, len + tl, &n, pt, len, tl),
                  AESIR_OK);
    FUZZ_CHECK_EQ(n, len + tl);

    /* every engine: the same sealed message */
    for (size_t e = 1; e < naes; e++) {
        FUZZ_CHECK_EQ(aesir_ccm_init_ex(&eng_key, p.key, p.key_len, aes[e]),
                      AESIR_OK);
        memset(other, FZ_CANARY, len + tl);
        FUZZ_CHECK_EQ(aesir_ccm_seal(&eng_key, p.nonce, p.nonce_len, aad,
                                     p.aad_len, other, len + tl, &n, pt, len,
                                     tl),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(other, sealed, len + tl) == 0);
    }

    /* the chosen engine, every way in */
    FUZZ_CHECK_EQ(aesir_ccm_init_ex(&eng_key, p.key, p.key_len, p.aes),
                  AESIR_OK);
    memcpy(in, pt, len);
    FUZZ_CHECK_EQ(aesir_ccm_seal_detached(&eng_key, p.nonce, p.nonce_len, aad,
                                          p.aad_len, p.inplace ? in : other,
                                          tag, tl, in, len),
                  AESIR_OK);
    FUZZ_CHECK(memcmp(p.inplace ? in : other, sealed, len) == 0);
    FUZZ_CHECK(memcmp(tag, sealed + len, tl) == 0);
    memset(other, FZ_CANARY, len + tl);
    FUZZ_CHECK_EQ(incremental(&eng_key, &p, 1, aad, other, pt, tag), AESIR_OK);
    FUZZ_CHECK(memcmp(other, sealed, len) == 0);
    FUZZ_CHECK(memcmp(tag, sealed + len, tl) == 0);
    check_open(&p, aad, sealed);

    /* corrupted input: a flipped byte, or the fuzzer's own bytes */
    if (p.raw_open) {
        fz_bytes(&f, other, len + tl);
    } else {
        memcpy(other, sealed, len + tl);
        other[p.corrupt_pos % (len + tl)] ^= p.corrupt_xor;
    }
    check_open(&p, aad, other);

    aesir_ccm_clear(&ref_key);
    aesir_ccm_clear(&eng_key);
    fz_free(aad, 1);
    fz_free(pt, 3);
    fz_free(sealed, 5);
    fz_free(other, p.off_out);
    fz_free(in, p.off_in);
    fz_free(tag, 7);
    return 0;
}
