/*
 * fuzz_mac.c -- libFuzzer target: CMAC, AES-SIV, key wrap (KW, KWP) and
 * XAES-256-GCM (src/aead/cmac.c, siv.c, kw.c, xaes.c) on every engine
 * this CPU can run, against the ref engine.
 *
 * The first byte picks the mode, the next ones an engine, a key size,
 * lengths, split points, options and a corruption; the key and message
 * bytes come from the input (or, past its end, from a generator seeded
 * by it). Checks:
 *
 *   CMAC  one-shot tag = incremental (fuzzed splits) = aesir_cmac_many
 *         (the message three times, one of them on ref) = ref's tag, for
 *         every tag length 4..16; a tag with a flipped bit fails verify.
 *   SIV   seal (0..4 AD strings, a nonce or none) = ref's, open gives the
 *         message back (in place or not); open of the fuzzed input (a
 *         flipped byte, or the fuzzer's bytes as V || C) returns what ref
 *         returns, zeroed output on AESIR_E_AUTH.
 *   KW    wrap (KW, KWP, either forward function) = ref's, unwrap gives
 *         the key back; unwrap of the fuzzer's bytes returns what ref
 *         returns, with a zeroed output on AESIR_E_AUTH and nothing
 *         written past in_len - 8 bytes; on AESIR_OK the result rewraps
 *         to the input.
 *   XAES  seal = the ref x ghash-ref engines', open round-trips, a
 *         flipped byte of the sealed message fails with a zeroed output.
 *
 * Buffers are exact-size heap blocks at odd offsets (fz_alloc). Seeds in
 * corpus/fuzz_mac/: one per mode and a few lengths (written by a short
 * script: a mode byte, then fixed choices and random bytes).
 */
#include "fuzz.h"

#define MAX_MSG 1200

static const char *pick_engine(struct fz *f)
{
    const char **names;
    size_t n = fz_engines(&names);
    return names[fz_below(f, n)];
}

static size_t pick_len(struct fz *f, size_t max)
{
    return fz_below(f, max + 1);
}

/* ---- CMAC ---------------------------------------------------------------- */

static void fuzz_cmac(struct fz *f)
{
    static aesir_cmac_key k, r;
    const char *e = pick_engine(f);
    size_t kl = 16 + 8 * fz_below(f, 3), len = pick_len(f, MAX_MSG), off = 0;
    uint8_t key[32], tag[16], want[16], t2[16];
    unsigned moff = fz_u8(f) % 16; /* any alignment */
    uint8_t *msg = fz_alloc(len, moff);
    aesir_cmac c;
    aesir_cmac_job jobs[3];

    fz_bytes(f, key, kl);
    fz_bytes(f, msg, len);
    FZ_TRACE("cmac %s kl %zu len %zu\n", e, kl, len);
    FUZZ_CHECK_EQ(aesir_cmac_init_ex(&k, key, kl, e), AESIR_OK);
    FUZZ_CHECK_EQ(aesir_cmac_init_ex(&r, key, kl, "ref"), AESIR_OK);
    FUZZ_CHECK_EQ(aesir_cmac_tag(&r, msg, len, want, 16), AESIR_OK);
    FUZZ_CHECK_EQ(aesir_cmac_tag(&k, msg, len, tag, 16), AESIR_OK);
    FUZZ_CHECK(memcmp(tag, want, 16) == 0);
    for (size_t tl = 4; tl <= 16; tl++) {
        memset(t2, FZ_CANARY, 16);
        FUZZ_CHECK_EQ(aesir_cmac_tag(&k, msg, len, t2, tl), AESIR_OK);
        FUZZ_CHECK(memcmp(t2, want, tl) == 0 &&
                   fz_all(t2 + tl, 16 - tl, FZ_CANARY));
        FUZZ_CHECK_EQ(aesir_cmac_tag_verify(&k, msg, len, want, tl), AESIR_OK);
    }
    FUZZ_CHECK_EQ(aesir_cmac_start(&c, &k), AESIR_OK);
    while (off < len) {
        size_t step = 1 + fz_below(f, 64);
        if (step > len - off)
            step = len - off;
        FUZZ_CHECK_EQ(aesir_cmac_update(&c, msg + off, step), AESIR_OK);
        off += step;
    }
    FUZZ_CHECK_EQ(aesir_cmac_finish(&c, t2, 16), AESIR_OK);
    FUZZ_CHECK(memcmp(t2, want, 16) == 0);
    for (int j = 0; j < 3; j++) {
        jobs[j].key = j == 1 ? &r : &k;
        jobs[j].in = msg;
        jobs[j].len = len;
    }
    FUZZ_CHECK_EQ(aesir_cmac_many(jobs, 3), AESIR_OK);
    for (int j = 0; j < 3; j++)
        FUZZ_CHECK(memcmp(jobs[j].tag, want, 16) == 0);
    want[fz_below(f, 16)] ^= (uint8_t)(1u << fz_below(f, 8));
    FUZZ_CHECK_EQ(aesir_cmac_tag_verify(&k, msg, len, want, 16), AESIR_E_AUTH);
    aesir_cmac_clear(&k);
    aesir_cmac_clear(&r);
    fz_free(msg, moff);
}

/* ---- SIV ------------------------------------------------------------------
 */

static void fuzz_siv(struct fz *f)
{
    static aesir_siv_key k, r;
    const char *e = pick_engine(f);
    size_t kl = 32 + 16 * fz_below(f, 3), n_ad = fz_below(f, 5),
           len = pick_len(f, MAX_MSG), got = 0, rgot = 0;
    int use_nonce = fz_u8(f) & 1, inplace = fz_u8(f) & 1, raw = fz_u8(f) & 1;
    uint8_t key[64], adb[4][40], nonce[16];
    aesir_siv_ad ad[4];
    uint8_t *p = fz_alloc(len, 1), *out = fz_alloc(len + 16, 3),
            *dec = fz_alloc(len + 16, 5), *ref = fz_alloc(len + 16, 0);
    int rc, rrc;

    fz_bytes(f, key, kl);
    for (size_t i = 0; i < n_ad; i++) {
        ad[i].p = adb[i];
        ad[i].len = fz_below(f, 41);
        fz_bytes(f, adb[i], ad[i].len);
    }
    fz_bytes(f, nonce, 16);
    fz_bytes(f, p, len);
    FZ_TRACE("siv %s kl %zu n_ad %zu nonce %d len %zu\n", e, kl, n_ad,
             use_nonce, len);
    FUZZ_CHECK_EQ(aesir_siv_init_ex(&k, key, kl, e), AESIR_OK);
    FUZZ_CHECK_EQ(aesir_siv_init_ex(&r, key, kl, "ref"), AESIR_OK);
    FUZZ_CHECK_EQ(aesir_siv_seal(&r, ad, n_ad, use_nonce ? nonce : NULL,
                                 use_nonce ? 16u : 0u, ref, len + 16, &rgot, p,
                                 len),
                  AESIR_OK);
    if (inplace) {
        memcpy(out, p, len);
        FUZZ_CHECK_EQ(aesir_siv_seal(&k, ad, n_ad, use_nonce ? nonce : NULL,
                                     use_nonce ? 16u : 0u, out, len + 16, &got,
                                     out, len),
                      AESIR_OK);
    } else {
        FUZZ_CHECK_EQ(aesir_siv_seal(&k, ad, n_ad, use_nonce ? nonce : NULL,
                                     use_nonce ? 16u : 0u, out, len + 16, &got,
                                     p, len),
                      AESIR_OK);
    }
    FUZZ_CHECK(got == len + 16 && memcmp(out, ref, len + 16) == 0);
    FUZZ_CHECK_EQ(aesir_siv_open(&k, ad, n_ad, use_nonce ? nonce : NULL,
                                 use_nonce ? 16u : 0u, dec, len, &got, out,
                                 len + 16),
                  AESIR_OK);
    FUZZ_CHECK(got == len && memcmp(dec, p, len) == 0);
    /* the fuzzed input: a flipped byte, or the fuzzer's own bytes */
    if (raw)
        fz_bytes(f, out, len + 16);
    else
        out[fz_below(f, len + 16)] ^= (uint8_t)(1 + fz_below(f, 255));
    rrc = aesir_siv_open(&r, ad, n_ad, use_nonce ? nonce : NULL,
                         use_nonce ? 16u : 0u, ref, len, &rgot, out, len + 16);
    memset(dec, FZ_CANARY, len + 16);
    rc = aesir_siv_open(&k, ad, n_ad, use_nonce ? nonce : NULL,
                        use_nonce ? 16u : 0u, dec, len, &got, out, len + 16);
    FUZZ_CHECK_EQ(rc, rrc);
    if (rc == AESIR_E_AUTH)
        FUZZ_CHECK(got == 0 && fz_all(dec, len, 0) &&
                   fz_all(dec + len, 16, FZ_CANARY));
    else
        FUZZ_CHECK(got == len && memcmp(dec, ref, len) == 0);
    aesir_siv_clear(&k);
    aesir_siv_clear(&r);
    fz_free(p, 1);
    fz_free(out, 3);
    fz_free(dec, 5);
    fz_free(ref, 0);
}

/* ---- KW / KWP -------------------------------------------------------------
 */

typedef int (*kw_fn)(const aesir_aes *, unsigned, uint8_t *, size_t, size_t *,
                     const uint8_t *, size_t);

static void fuzz_kw(struct fz *f)
{
    static aesir_aes k, r;
    const char *e = pick_engine(f);
    int pad = fz_u8(f) & 1;
    unsigned opt = fz_u8(f) & AESIR_KW_INVERSE;
    size_t kl = 16 + 8 * fz_below(f, 3), len, got = 0, rgot = 0, wl;
    kw_fn wrap = pad ? aesir_kwp_wrap : aesir_kw_wrap;
    kw_fn unwrap = pad ? aesir_kwp_unwrap : aesir_kw_unwrap;
    uint8_t key[32], *p, *w, *ref, *out;
    int rc, rrc;

    len = pad ? 1 + fz_below(f, 600) : 8 * (2 + fz_below(f, 70));
    wl = (len + 7) / 8 * 8 + 8;
    p = fz_alloc(len, 7);
    w = fz_alloc(wl, 2);
    ref = fz_alloc(wl, 0);
    out = fz_alloc(wl - 8, 9);
    fz_bytes(f, key, kl);
    fz_bytes(f, p, len);
    FZ_TRACE("kw %s pad %d opt %u kl %zu len %zu\n", e, pad, opt, kl, len);
    FUZZ_CHECK_EQ(
        aesir_aes_init_ex(&k, key, kl, e, AESIR_ENCRYPT | AESIR_DECRYPT),
        AESIR_OK);
    FUZZ_CHECK_EQ(
        aesir_aes_init_ex(&r, key, kl, "ref", AESIR_ENCRYPT | AESIR_DECRYPT),
        AESIR_OK);
    FUZZ_CHECK_EQ(wrap(&r, opt, ref, wl, &rgot, p, len), AESIR_OK);
    FUZZ_CHECK_EQ(wrap(&k, opt, w, wl, &got, p, len), AESIR_OK);
    FUZZ_CHECK(got == wl && rgot == wl && memcmp(w, ref, wl) == 0);
    FUZZ_CHECK_EQ(unwrap(&k, opt, out, wl - 8, &got, w, wl), AESIR_OK);
    FUZZ_CHECK(got == len && memcmp(out, p, len) == 0);
    /* the fuzzer's bytes as a wrapped key, or one byte changed */
    if (fz_u8(f) & 1)
        fz_bytes(f, w, wl);
    else
        w[fz_below(f, wl)] ^= (uint8_t)(1 + fz_below(f, 255));
    rrc = unwrap(&r, opt, ref, wl - 8, &rgot, w, wl);
    memset(out, FZ_CANARY, wl - 8);
    rc = unwrap(&k, opt, out, wl - 8, &got, w, wl);
    FUZZ_CHECK_EQ(rc, rrc);
    if (rc == AESIR_E_AUTH) {
        FUZZ_CHECK(got == 0 && fz_all(out, wl - 8, 0));
    } else {
        FUZZ_CHECK(got == rgot && memcmp(out, ref, got) == 0);
        FUZZ_CHECK_EQ(wrap(&k, opt, ref, wl, &rgot, out, got), AESIR_OK);
        FUZZ_CHECK(rgot == wl && memcmp(ref, w, wl) == 0);
    }
    aesir_aes_clear(&k);
    aesir_aes_clear(&r);
    fz_free(p, 7);
    fz_free(w, 2);
    fz_free(ref, 0);
    fz_free(out, 9);
}

/* ---- XAES-256-GCM ---------------------------------------------------------
 */

static void fuzz_xaes(struct fz *f)
{
    static aesir_xaes_key k, r;
    const char *e = pick_engine(f);
    size_t len = pick_len(f, MAX_MSG), alen = fz_below(f, 100), got = 0;
    uint8_t key[32], nonce[24], aad[100];
    uint8_t *p = fz_alloc(len, 4), *out = fz_alloc(len + 16, 1),
            *ref = fz_alloc(len + 16, 0), *dec = fz_alloc(len, 6);

    fz_bytes(f, key, 32);
    fz_bytes(f, nonce, 24);
    fz_bytes(f, aad, alen);
    fz_bytes(f, p, len);
    FZ_TRACE("xaes %s len %zu aad %zu\n", e, len, alen);
    FUZZ_CHECK_EQ(aesir_xaes_init_ex(&k, key, e, NULL), AESIR_OK);
    FUZZ_CHECK_EQ(aesir_xaes_init_ex(&r, key, "ref", "ghash-ref"), AESIR_OK);
    FUZZ_CHECK_EQ(
        aesir_xaes_seal(&r, nonce, aad, alen, ref, len + 16, &got, p, len),
        AESIR_OK);
    FUZZ_CHECK_EQ(
        aesir_xaes_seal(&k, nonce, aad, alen, out, len + 16, &got, p, len),
        AESIR_OK);
    FUZZ_CHECK(got == len + 16 && memcmp(out, ref, len + 16) == 0);
    FUZZ_CHECK_EQ(
        aesir_xaes_open(&k, nonce, aad, alen, dec, len, &got, out, len + 16),
        AESIR_OK);
    FUZZ_CHECK(got == len && memcmp(dec, p, len) == 0);
    out[fz_below(f, len + 16)] ^= (uint8_t)(1 + fz_below(f, 255));
    FUZZ_CHECK_EQ(
        aesir_xaes_open(&k, nonce, aad, alen, dec, len, &got, out, len + 16),
        AESIR_E_AUTH);
    FUZZ_CHECK(got == 0 && fz_all(dec, len, 0));
    aesir_xaes_clear(&k);
    aesir_xaes_clear(&r);
    fz_free(p, 4);
    fz_free(out, 1);
    fz_free(ref, 0);
    fz_free(dec, 6);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz f = {data, size};
    switch (fz_u8(&f) % 4) {
    case 0:
        fuzz_cmac(&f);
        break;
    case 1:
        fuzz_siv(&f);
        break;
    case 2:
        fuzz_kw(&f);
        break;
    default:
        fuzz_xaes(&f);
        break;
    }
    return 0;
}
