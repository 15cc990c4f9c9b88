/*
 * fuzz_gcmsiv.c -- libFuzzer target: AES-GCM-SIV (aesir_gcm_siv_*) on the
 * AES and GHASH engines this CPU can run, against the ref x ghash-ref
 * pair (ref's FIPS-197 block function, POLYVAL through GHASH bit by bit
 * and RFC 8452 Appendix A).
 *
 * The input chooses a key size (16, 32, or 24 with AESIR_GCM_SIV_AES192)
 * and key, the nonce, the AAD and the message (up to MAX_AAD and MAX_MSG
 * bytes), one pair to look at closely, buffer offsets, in place or not,
 * and a corruption (a byte position and an XOR mask, or the fuzzer's own
 * bytes as the sealed message). It checks:
 *
 *   - every AES engine with the chosen GHASH engine, and every GHASH
 *     engine with the chosen AES engine: the seal (appended tag) equals
 *     the ref pair's, byte for byte;
 *   - the chosen pair: in place = out of place; detached = appended; one
 *     output byte short is AESIR_E_OUTPUT_SIZE with nothing written;
 *     open(seal(x)) = x (appended and detached, in place or not);
 *   - open of fuzzed input (the sealed message with the fuzzed bytes
 *     flipped, or the fuzzer's bytes as ciphertext and tag) never releases
 *     plaintext: the verdict is the ref pair's; on AESIR_E_AUTH *out_len
 *     is 0, every byte it would have received is zero and nothing past it
 *     is written; on AESIR_OK the plaintext re-seals to the input.
 *
 * Buffers are exact-size heap blocks at odd offsets (fz_alloc), so
 * AddressSanitizer sees any byte read or written past them. The edges
 * worth reaching: the CTR kernels' batches and masked tails, the 32-bit
 * counter's wrap (any tag whose first four bytes are near 0xffffffff,
 * reachable through raw opens), the GHASH engines' batches under POLYVAL,
 * and partial AAD and data blocks.
 */
#include "fuzz.h"

#define MAX_MSG 2048
#define MAX_AAD 600
#define FZ_MAX_GHASH 16

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
    size_t key_len, aad_len, len;
    unsigned options;
    uint8_t key[32], nonce[12];
    const char *aes, *ghash;
    int inplace, raw_open;
    size_t corrupt_pos;
    uint8_t corrupt_xor;
    unsigned off_in, off_out;
};

static void read_plan(struct fz *f, struct plan *p)
{
    const char **aes, **gh;
    size_t naes = fz_engines(&aes), ngh = fz_ghash_engines(&gh);
    unsigned b0 = fz_u8(f), b1 = fz_u8(f), b2 = fz_u8(f), b3;
    static const size_t key_lens[4] = {16, 32, 24, 16};

    p->key_len = key_lens[b0 & 3];
    p->options = p->key_len == 24 ? AESIR_GCM_SIV_AES192 : 0;
    p->inplace = b0 >> 2 & 1;
    p->raw_open = b0 >> 3 & 1;
    p->aes = aes[b1 % naes];
    p->ghash = gh[b2 % ngh];
    p->aad_len = fz_u16(f) % (MAX_AAD + 1);
    p->len = fz_u16(f) % (MAX_MSG + 1);
    p->corrupt_pos = fz_u16(f);
    p->corrupt_xor = fz_u8(f);
    b3 = fz_u8(f);
    p->off_in = b3 & 15;
    p->off_out = b3 >> 4;
    fz_bytes(f, p->key, sizeof(p->key));
    fz_bytes(f, p->nonce, sizeof(p->nonce));
}

static aesir_gcm_siv_key ref_key, pair_key;

static void init_pair(aesir_gcm_siv_key *k, const struct plan *p,
                      const char *aes, const char *gh)
{
    FUZZ_CHECK_EQ(
        aesir_gcm_siv_init_ex(k, p->key, p->key_len, aes, gh, p->options),
        AESIR_OK);
}

/* Open of sealed (len bytes and the 16-byte tag) on the chosen pair must
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

    rc_ref = aesir_gcm_siv_open(&ref_key, p->nonce, aad, p->aad_len, want, len,
                                &n_ref, sealed, len + 16);
    FUZZ_CHECK(rc_ref == AESIR_OK || rc_ref == AESIR_E_AUTH);
    FUZZ_CHECK_EQ(n_ref, rc_ref == AESIR_OK ? len : 0);

    memcpy(in, sealed, len + 16);
    rc = aesir_gcm_siv_open(&pair_key, p->nonce, aad, p->aad_len,
                            p->inplace ? in : out, len, &n, in, len + 16);
    FZ_TRACE("  open: %d (ref %d)\n", rc, rc_ref);
    FUZZ_CHECK_EQ(rc, rc_ref);
    if (rc == AESIR_OK) {
        const uint8_t *pt = p->inplace ? in : out;
        size_t m = 0;
        FUZZ_CHECK_EQ(n, len);
        FUZZ_CHECK(memcmp(pt, want, len) == 0);
        FUZZ_CHECK_EQ(aesir_gcm_siv_seal(&pair_key, p->nonce, aad, p->aad_len,
                                         again, len + 16, &m, pt, len),
                      AESIR_OK);
        FUZZ_CHECK(m == len + 16 && memcmp(again, sealed, len + 16) == 0);
    } else {
        FUZZ_CHECK_EQ(n, 0);
        FUZZ_CHECK(fz_all(p->inplace ? in : out, len, 0));
        if (p->inplace)
            FUZZ_CHECK(memcmp(in + len, sealed + len, 16) == 0);
        else
            FUZZ_CHECK(fz_all(out + len, 16, FZ_CANARY));
    }
    /* detached: the same verdict, the same plaintext or zeros */
    memset(out, FZ_CANARY, len + 16);
    rc = aesir_gcm_siv_open_detached(&pair_key, p->nonce, aad, p->aad_len, out,
                                     sealed + len, sealed, len);
    FUZZ_CHECK_EQ(rc, rc_ref);
    if (rc == AESIR_OK)
        FUZZ_CHECK(memcmp(out, want, len) == 0);
    else
        FUZZ_CHECK(fz_all(out, len, 0));
    FUZZ_CHECK(fz_all(out + len, 16, FZ_CANARY));
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
    uint8_t tag[16];
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
    FZ_TRACE("gcm-siv: key %zu, aad %zu, msg %zu, pair %s x %s\n", p.key_len,
             p.aad_len, len, p.aes, p.ghash);

    init_pair(&ref_key, &p, "ref", "ghash-ref");
    FUZZ_CHECK_EQ(aesir_gcm_siv_seal(&ref_key, p.nonce, aad, p.aad_len, want,
                                     len + 16, &n, msg, len),
                  AESIR_OK);
    FUZZ_CHECK_EQ(n, len + 16);

    /* every AES engine with the chosen GHASH engine, every GHASH engine
     * with the chosen AES engine */
    for (size_t i = 0; i < naes + ngh; i++) {
        const char *a = i < naes ? aes[i] : p.aes;
        const char *g = i < naes ? p.ghash : gh[i - naes];
        init_pair(&pair_key, &p, a, g);
        memset(out, FZ_CANARY, len + 16);
        FZ_TRACE("  seal on %s x %s\n", a, g);
        FUZZ_CHECK_EQ(aesir_gcm_siv_seal(&pair_key, p.nonce, aad, p.aad_len,
                                         out, len + 16, &n, msg, len),
                      AESIR_OK);
        FUZZ_CHECK(n == len + 16 && memcmp(out, want, len + 16) == 0);
    }

    /* the chosen pair, closely */
    init_pair(&pair_key, &p, p.aes, p.ghash);
    memcpy(buf, msg, len);
    FUZZ_CHECK_EQ(aesir_gcm_siv_seal(&pair_key, p.nonce, aad, p.aad_len, buf,
                                     len + 16, &n, buf, len),
                  AESIR_OK);
    FUZZ_CHECK(memcmp(buf, want, len + 16) == 0);
    memset(out, FZ_CANARY, len + 16);
    n = 7;
    FUZZ_CHECK_EQ(aesir_gcm_siv_seal(&pair_key, p.nonce, aad, p.aad_len, out,
                                     len + 15, &n, msg, len),
                  AESIR_E_OUTPUT_SIZE);
    FUZZ_CHECK(n == 7 && fz_all(out, len + 16, FZ_CANARY));
    memset(out, FZ_CANARY, len + 16);
    FUZZ_CHECK_EQ(aesir_gcm_siv_seal_detached(&pair_key, p.nonce, aad,
                                              p.aad_len, out, tag, msg, len),
                  AESIR_OK);
    FUZZ_CHECK(memcmp(out, want, len) == 0 && memcmp(tag, want + len, 16) == 0);
    FUZZ_CHECK(fz_all(out + len, 16, FZ_CANARY));

    /* open: the good message, then a corrupted or a raw one */
    check_open(&p, aad, want);
    if (p.raw_open) {
        fz_bytes(&f, buf, len + 16);
    } else {
        memcpy(buf, want, len + 16);
        buf[p.corrupt_pos % (len + 16)] ^= p.corrupt_xor;
    }
    check_open(&p, aad, buf);

    aesir_gcm_siv_clear(&ref_key);
    aesir_gcm_siv_clear(&pair_key);
    fz_free(aad, 3);
    fz_free(msg, p.off_in);
    fz_free(want, 0);
    fz_free(out, p.off_out);
    fz_free(buf, 5);
    return 0;
}
