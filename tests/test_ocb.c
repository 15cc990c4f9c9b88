/*
 * test_ocb.c -- OCB3 (src/aead/ocb.c, RFC 7253) on every AES engine this
 * CPU can run (the others are printed as UNAVAILABLE).
 *
 * Usage: test_ocb [vector-dir] [part]  -- vector-dir is the
 * cryptography_vectors tree (tests/vectors/fetch.sh); part is "all"
 * (default), "vectors", "fused", "api" or "diff". Without a directory
 * the file vectors are skipped (said so; the ctest run always passes it).
 *
 *  1. Vectors: cryptography-vectors 44.0.0 ciphers/AES/OCB3 (rfc7253.txt:
 *     RFC 7253 Appendix A's 16 AES-128 samples; openssl.txt; dkg's
 *     104/112/120-bit nonce forms), the tag length being what the
 *     ciphertext has beyond the plaintext; and, as hex here, Appendix A's
 *     TAGLEN96 sample and its iterated check for AES-128/192/256 with
 *     128-, 96- and 64-bit tags. Each one sealed, opened, and opened with
 *     one bit flipped (AESIR_E_AUTH, output zeroed).
 *  2. Fused against generic: on engines with OCB kernels, every length
 *     0..1200 bytes and start indices 0..40 (an incremental prefix moves
 *     the block index) against the same key with the kernels removed
 *     (white box: ocb.h), in place and not.
 *  3. API: incremental at random split points (AAD between data too)
 *     against one-shot, in place; bad input: nonce and tag lengths, NULL
 *     pointers, short outputs, forged tags and bit flips in ciphertext,
 *     tag, AAD and nonce (AESIR_E_AUTH, output zeroed, *out_len 0),
 *     truncated input, calls out of order, a key cleared under a
 *     message, the 2^36-block limit (white box).
 *  4. Differential against OpenSSL's EVP OCB (built with
 *     AESIR_TEST_OPENSSL): AESIR_DIFF_CASES random cases per engine
 *     (default 4000, every engine: at least 12,000 per class of engine on
 *     x86 -- ref/ref-otf/ttable, the six constant-time software engines,
 *     aesni/vaes-avx2/vaes-avx512 -- the 10,000 per class, in
 *     about 5 s), each with a random
 *     key size, nonce length 1..15, tag length 1..16, AAD 0..300 bytes,
 *     data 0..1100 bytes (one case in 16 up to 9000), in place or not:
 *     EVP's ciphertext and tag must equal the one-shot seal and the
 *     incremental one at random splits; open and incremental verify
 *     return the plaintext. The seed is printed; AESIR_DIFF_SEED repeats.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "check.h"
#include "ocb.h"

#ifdef AESIR_TEST_OPENSSL
#include <openssl/evp.h>
#endif

#define MAXBUF 20000

static uint64_t rng_state = 0x0cb3;

static uint64_t rnd(void)
{
    return splitmix64(&rng_state);
}

static size_t rnd_below(size_t n)
{
    return n == 0 ? 0 : (size_t)(rnd() % n);
}

static void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Hex (spaces skipped) into out; the byte count, or -1. */
static long unhex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    int hi = -1;
    for (; *s != '\0' && *s != '\n' && *s != '\r'; s++) {
        int v;
        if (*s == ' ' || *s == '\t')
            continue;
        if ((v = hexval((unsigned char)*s)) < 0)
            return -1;
        if (hi < 0) {
            hi = v;
        } else {
            if (n >= cap)
                return -1;
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return hi < 0 ? (long)n : -1;
}

/* The available engines: names, and whether each is slow. */
static size_t engines(const char **names, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < aesir_engine_count() && n < cap; i++) {
        const char *name = aesir_engine_name(i);
        if ((aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE) == 0) {
            printf("  %-14s UNAVAILABLE\n", name);
            continue;
        }
        names[n++] = name;
    }
    return n;
}

/* ---- one vector on one engine --------------------------------------- */

static uint8_t buf_a[MAXBUF + 64], buf_b[MAXBUF + 64], buf_c[MAXBUF + 64];

/* Seal, open and a forged open of one vector on engine; 0 when right. */
static int run_vector(const char *engine, const uint8_t *k, size_t klen,
                      const uint8_t *n, size_t nlen, const uint8_t *a,
                      size_t alen, const uint8_t *p, size_t plen,
                      const uint8_t *c, size_t taglen)
{
    aesir_ocb_key key;
    uint8_t tag[16];
    int ok = 1, err;

    if (aesir_ocb_init_ex(&key, k, klen, engine) != AESIR_OK)
        return 1;
    err = aesir_ocb_seal_detached(&key, n, nlen, a, alen, buf_a, tag, taglen, p,
                                  plen);
    ok &= err == AESIR_OK && memcmp(buf_a, c, plen) == 0 &&
          memcmp(tag, c + plen, taglen) == 0;
    err = aesir_ocb_open_detached(&key, n, nlen, a, alen, buf_b, c + plen,
                                  taglen, c, plen);
    ok &= err == AESIR_OK && memcmp(buf_b, p, plen) == 0;
    if (taglen == 16) {
        size_t ol = 0;
        err = aesir_ocb_seal(&key, n, nlen, a, alen, buf_a, sizeof(buf_a), &ol,
                             p, plen);
        ok &= err == AESIR_OK && ol == plen + 16 &&
              memcmp(buf_a, c, plen + 16) == 0;
        err = aesir_ocb_open(&key, n, nlen, a, alen, buf_b, sizeof(buf_b), &ol,
                             c, plen + 16);
        ok &= err == AESIR_OK && ol == plen && memcmp(buf_b, p, plen) == 0;
    }
    /* one bit of the ciphertext or tag flipped */
    memcpy(buf_c, c, plen + taglen);
    buf_c[rnd_below(plen + taglen)] ^= (uint8_t)(1u << rnd_below(8));
    memset(buf_b, 0x5a, plen);
    err = aesir_ocb_open_detached(&key, n, nlen, a, alen, buf_b, buf_c + plen,
                                  taglen, buf_c, plen);
    ok &= err == AESIR_E_AUTH && all_zero(buf_b, plen);
    aesir_ocb_clear(&key);
    return !ok;
}

/* ---- file vectors --------------------------------------------------- */

struct vec {
    uint8_t key[32], nonce[16], aad[512], pt[512], ct[600];
    long klen, nlen, alen, plen, clen;
};

/* Runs every vector of file on every engine; the number run, or -1. */
static long file_vectors(const char *dir, const char *file, const char **names,
                         size_t ne)
{
    char path[1024], line[4096];
    FILE *f;
    struct vec v;
    long count = 0;
    int have = 0;

    snprintf(path, sizeof(path), "%s/ciphers/AES/OCB3/%s", dir, file);
    if ((f = fopen(path, "r")) == NULL) {
        fprintf(stderr, "FAIL: cannot open %s\n", path);
        check_failed++;
        return -1;
    }
    memset(&v, 0, sizeof(v));
    for (;;) {
        char *got = fgets(line, sizeof(line), f);
        char *eq = got != NULL ? strchr(line, '=') : NULL;
        if (got != NULL && eq != NULL) {
            const char *val = eq + 1;
            if (strncmp(line, "Key", 3) == 0)
                v.klen = unhex(val, v.key, sizeof(v.key)), have |= 1;
            else if (strncmp(line, "Nonce", 5) == 0)
                v.nlen = unhex(val, v.nonce, sizeof(v.nonce)), have |= 2;
            else if (strncmp(line, "AAD", 3) == 0)
                v.alen = unhex(val, v.aad, sizeof(v.aad)), have |= 4;
            else if (strncmp(line, "Plaintext", 9) == 0)
                v.plen = unhex(val, v.pt, sizeof(v.pt)), have |= 8;
            else if (strncmp(line, "Ciphertext", 10) == 0)
                v.clen = unhex(val, v.ct, sizeof(v.ct)), have |= 16;
        }
        if (have == 31) {
            size_t taglen = (size_t)(v.clen - v.plen);
            CHECK(v.klen > 0 && v.nlen > 0 && v.alen >= 0 && v.plen >= 0 &&
                  v.clen > v.plen && taglen <= 16);
            for (size_t e = 0; e < ne; e++) {
                int bad = run_vector(names[e], v.key, (size_t)v.klen, v.nonce,
                                     (size_t)v.nlen, v.aad, (size_t)v.alen,
                                     v.pt, (size_t)v.plen, v.ct, taglen);
                if (bad)
                    fprintf(stderr, "FAIL %s vector %ld on %s\n", file, count,
                            names[e]);
                CHECK(!bad);
            }
            count++;
            have = 0;
        }
        if (got == NULL)
            break;
    }
    fclose(f);
    return count;
}

/* ---- RFC 7253 Appendix A, as hex ------------------------------------- */

/* The TAGLEN96 sample (Appendix A, after the 16 AES-128 samples). */
static void rfc_taglen96(const char **names, size_t ne)
{
    uint8_t k[16], n[12], s[40], c[52];
    CHECK(unhex("0F0E0D0C0B0A09080706050403020100", k, 16) == 16);
    CHECK(unhex("BBAA9988776655443322110D", n, 12) == 12);
    for (size_t i = 0; i < 40; i++)
        s[i] = (uint8_t)i;
    CHECK(unhex("1792A4E31E0755FB03E31B22116E6C2DDF9EFD6E33D536F1A0124B0A55"
                "BAE884ED93481529C76B6AD0C515F4D1CDD4FDAC4F02AA",
                c, sizeof(c)) == 52);
    for (size_t e = 0; e < ne; e++)
        CHECK(!run_vector(names[e], k, 16, n, 12, s, 40, s, 40, c, 12));
}

/* The iterated check of Appendix A: KEYLEN and TAGLEN select the key
 * zeros(KEYLEN - 8) || num2str(TAGLEN, 8); C accumulates 384 encryptions
 * of zero strings under nonces 1..384, then Output = OCB-ENCRYPT(K,
 * num2str(385, 96), C, <empty>). */
static int rfc_iterated(const char *engine, size_t keylen, size_t taglen,
                        const char *want_hex)
{
    static uint8_t acc[22400];
    aesir_ocb_key key;
    uint8_t k[32] = {0}, n[12] = {0}, zero[128] = {0}, want[16], out[16];
    size_t pos = 0;
    int ok = 1;

    k[keylen - 1] = (uint8_t)(taglen * 8);
    if (aesir_ocb_init_ex(&key, k, keylen, engine) != AESIR_OK)
        return 1;
    for (unsigned i = 0; i < 128; i++) {
        const uint8_t *s = zero;
        for (unsigned j = 1; j <= 3; j++) {
            size_t plen = j == 3 ? 0 : i, alen = j == 2 ? 0 : i;
            aesir_store_be32(n + 8, 3 * i + j);
            ok &= aesir_ocb_seal_detached(&key, n, 12, s, alen, acc + pos,
                                          acc + pos + plen, taglen, s,
                                          plen) == AESIR_OK;
            pos += plen + taglen;
        }
    }
    aesir_store_be32(n + 8, 385);
    ok &= aesir_ocb_seal_detached(&key, n, 12, acc, pos, NULL, out, taglen,
                                  NULL, 0) == AESIR_OK;
    ok &= unhex(want_hex, want, 16) == (long)taglen &&
          memcmp(out, want, taglen) == 0;
    /* and verify it through open, with nothing to decrypt */
    ok &= aesir_ocb_open_detached(&key, n, 12, acc, pos, NULL, want, taglen,
                                  NULL, 0) == AESIR_OK;
    aesir_ocb_clear(&key);
    return !ok;
}

static void rfc_iterated_all(const char **names, size_t ne)
{
    static const struct {
        size_t keylen, taglen;
        const char *out;
    } it[] = {
        {16, 16, "67E944D23256C5E0B6C61FA22FDF1EA2"},
        {24, 16, "F673F2C3E7174AAE7BAE986CA9F29E17"},
        {32, 16, "D90EB8E9C977C88B79DD793D7FFA161C"},
        {16, 12, "77A3D8E73589158D25D01209"},
        {24, 12, "05D56EAD2752C86BE6932C5E"},
        {32, 12, "5458359AC23B0CBA9E6330DD"},
        {16, 8, "192C9B7BD90BA06A"},
        {24, 8, "0066BC6E0EF34E24"},
        {32, 8, "7D4EA5D445501CBE"},
    };
    for (size_t e = 0; e < ne; e++)
        for (size_t i = 0; i < sizeof(it) / sizeof(it[0]); i++) {
            int bad =
                rfc_iterated(names[e], it[i].keylen, it[i].taglen, it[i].out);
            if (bad)
                fprintf(stderr, "FAIL iterated AES-%zu TAGLEN%zu on %s\n",
                        it[i].keylen * 8, it[i].taglen * 8, names[e]);
            CHECK(!bad);
        }
}

/* ---- incremental ---------------------------------------------------- */

/*
 * One message through the incremental API with the data cut at random
 * points and the AAD fed in random pieces before, between and after the
 * data pieces; enc or dec; out gets the whole output. Returns the result
 * of finish/verify (or the first error).
 */
static int incremental(const aesir_ocb_key *key, int enc, const uint8_t *n,
                       size_t nlen, const uint8_t *a, size_t alen, uint8_t *out,
                       const uint8_t *in, size_t len, uint8_t *tag,
                       size_t taglen)
{
    aesir_ocb ctx;
    size_t ai = 0, di = 0, o = 0, got;
    int err = aesir_ocb_start(&ctx, key, n, nlen, taglen);

    while (err == AESIR_OK && (ai < alen || di < len)) {
        if (ai < alen && (di == len || rnd() % 2)) {
            size_t m = 1 + rnd_below(rnd() % 4 == 0 ? alen - ai : 40);
            m = m < alen - ai ? m : alen - ai;
            err = aesir_ocb_aad(&ctx, a + ai, m);
            ai += m;
        } else {
            size_t m = rnd() % 8 == 0
                           ? 0
                           : 1 + rnd_below(rnd() % 4 == 0 ? len - di : 70);
            m = m < len - di ? m : len - di;
            /* in place: out and in at the same offset, so out lags in
             * by what the context holds back */
            err = enc ? aesir_ocb_encrypt_update(&ctx, out + o, MAXBUF - o,
                                                 &got, in + di, m)
                      : aesir_ocb_decrypt_update_unverified(
                            &ctx, out + o, MAXBUF - o, &got, in + di, m);
            di += m, o += got;
        }
    }
    if (err != AESIR_OK)
        return err;
    err = enc ? aesir_ocb_finish(&ctx, out + o, MAXBUF - o, &got, tag, taglen)
              : aesir_ocb_verify(&ctx, out + o, MAXBUF - o, &got, tag, taglen);
    if (err == AESIR_OK && o + got != len)
        return -100;
    return err;
}

/*
 * The same with out == in in every update: each piece is copied to a
 * scratch buffer with room for 15 more bytes and updated there in place
 * (the output is ahead of the input by what the context held back), its
 * output appended to out. Encryption only; the result of finish.
 */
static int incremental_same_pointer(const aesir_ocb_key *key, const uint8_t *n,
                                    size_t nlen, const uint8_t *a, size_t alen,
                                    uint8_t *out, const uint8_t *in, size_t len,
                                    uint8_t *tag, size_t taglen)
{
    static uint8_t piece[MAXBUF + 16];
    aesir_ocb ctx;
    size_t di = 0, o = 0, got;
    int err = aesir_ocb_start(&ctx, key, n, nlen, taglen);

    if (err == AESIR_OK && alen != 0)
        err = aesir_ocb_aad(&ctx, a, alen);
    while (err == AESIR_OK && di < len) {
        size_t m = 1 + rnd_below(rnd() % 4 == 0 ? len - di : 70);
        m = m < len - di ? m : len - di;
        memcpy(piece, in + di, m);
        err = aesir_ocb_encrypt_update(&ctx, piece, m + 15, &got, piece, m);
        memcpy(out + o, piece, got);
        di += m, o += got;
    }
    if (err == AESIR_OK)
        err = aesir_ocb_finish(&ctx, out + o, MAXBUF - o, &got, tag, taglen);
    return err == AESIR_OK && o + got != len ? -100 : err;
}

/* ---- fused against generic ------------------------------------------ */

static void fused_vs_generic(const char **names, size_t ne)
{
    static uint8_t p[1300], a[40], c1[1300], c2[1300], d[1300];
    uint8_t n[12], k[32], t1[16], t2[16];

    rnd_fill(p, sizeof(p));
    rnd_fill(a, sizeof(a));
    for (size_t e = 0; e < ne; e++) {
        aesir_ocb_key key, gen;
        struct ocb_key_state *gs;
        size_t klen = 16 + 8 * (e % 3);
        unsigned bad = 0, cases = 0;

        rnd_fill(k, sizeof(k));
        if (aesir_ocb_init_ex(&key, k, klen, names[e]) != AESIR_OK) {
            CHECK(0);
            continue;
        }
        gs = (struct ocb_key_state *)(void *)key.opaque;
        if (gs->fused_enc == NULL && gs->fused_dec == NULL &&
            gs->fused_whole == NULL) {
            aesir_ocb_clear(&key);
            continue;
        }
        memcpy(&gen, &key, sizeof(key));
        gs = (struct ocb_key_state *)(void *)gen.opaque;
        gs->fused_enc = gs->fused_dec = NULL;
        gs->fused_whole = NULL;
        for (size_t len = 0; len <= 1200; len += 1 + (len > 600) * 7) {
            for (size_t skip = 0; skip <= 40; skip += len < 300 ? 1 : 13) {
                aesir_ocb ctx;
                size_t got, o;
                int inplace = (len + skip) % 2;
                /* skip blocks through an incremental prefix, then the
                 * rest in one update: the kernel starts at block skip */
                size_t pre = 16 * skip < len ? 16 * skip : len / 16 * 16;
                rnd_fill(n, sizeof(n));
                cases++;
                CHECK(aesir_ocb_seal_detached(&gen, n, 12, a, 17, c2, t2, 16, p,
                                              len) == AESIR_OK);
                CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
                CHECK(aesir_ocb_aad(&ctx, a, 17) == AESIR_OK);
                if (inplace)
                    memcpy(c1, p, len);
                CHECK(aesir_ocb_encrypt_update(&ctx, c1, sizeof(c1), &got,
                                               inplace ? c1 : p,
                                               pre) == AESIR_OK);
                o = got;
                CHECK(aesir_ocb_encrypt_update(
                          &ctx, c1 + o, sizeof(c1) - o, &got,
                          inplace ? c1 + pre : p + pre, len - pre) == AESIR_OK);
                o += got;
                CHECK(aesir_ocb_finish(&ctx, c1 + o, sizeof(c1) - o, &got, t1,
                                       16) == AESIR_OK);
                o += got;
                bad += o != len || memcmp(c1, c2, len) != 0 ||
                       memcmp(t1, t2, 16) != 0;
                /* decryption the same way, then one-shot */
                CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
                CHECK(aesir_ocb_aad(&ctx, a, 17) == AESIR_OK);
                if (inplace)
                    memcpy(d, c2, len);
                CHECK(aesir_ocb_decrypt_update_unverified(
                          &ctx, d, sizeof(d), &got, inplace ? d : c2, pre) ==
                      AESIR_OK);
                o = got;
                CHECK(aesir_ocb_decrypt_update_unverified(
                          &ctx, d + o, sizeof(d) - o, &got,
                          inplace ? d + pre : c2 + pre, len - pre) == AESIR_OK);
                o += got;
                CHECK(aesir_ocb_verify(&ctx, d + o, sizeof(d) - o, &got, t2,
                                       16) == AESIR_OK);
                o += got;
                bad += o != len || memcmp(d, p, len) != 0;
                memset(d, 0, len);
                CHECK(aesir_ocb_open_detached(&key, n, 12, a, 17, d, t2, 16, c2,
                                              len) == AESIR_OK);
                bad += memcmp(d, p, len) != 0;
                /* one-shot (the whole-message kernel where the engine has
                 * one) against the generic path, additional data of
                 * 0 .. 40 bytes, in place or not */
                {
                    size_t al = (len + 3 * skip) % 41;
                    CHECK(aesir_ocb_seal_detached(&gen, n, 12, a, al, c2, t2,
                                                  16, p, len) == AESIR_OK);
                    if (inplace)
                        memcpy(c1, p, len);
                    CHECK(aesir_ocb_seal_detached(&key, n, 12, a, al, c1, t1,
                                                  16, inplace ? c1 : p,
                                                  len) == AESIR_OK);
                    bad += memcmp(c1, c2, len) != 0 || memcmp(t1, t2, 16) != 0;
                    if (inplace)
                        memcpy(d, c2, len);
                    CHECK(aesir_ocb_open_detached(&key, n, 12, a, al, d, t2, 16,
                                                  inplace ? d : c2,
                                                  len) == AESIR_OK);
                    bad += memcmp(d, p, len) != 0;
                    t2[len % 16] ^= 1; /* and a forgery: refused, zeroed */
                    memcpy(d, c2, len);
                    CHECK(aesir_ocb_open_detached(&key, n, 12, a, al, d, t2, 16,
                                                  d, len) == AESIR_E_AUTH);
                    for (size_t i = 0; i < len; i++)
                        bad += d[i] != 0;
                    t2[len % 16] ^= 1;
                    if (len != 0) { /* a bit of ciphertext: refused too */
                        memcpy(d, c2, len);
                        d[(len * 7 + skip) % len] ^= 0x40;
                        CHECK(aesir_ocb_open_detached(&key, n, 12, a, al, d, t2,
                                                      16, d,
                                                      len) == AESIR_E_AUTH);
                        for (size_t i = 0; i < len; i++)
                            bad += d[i] != 0;
                    }
                }
            }
        }
        printf("  %-14s fused vs generic: %u cases, %u bad\n", names[e], cases,
               bad);
        CHECK(bad == 0);
        aesir_ocb_clear(&key);
        aesir_ocb_clear(&gen);
    }
}

/* ---- API and bad input ---------------------------------------------- */

static void api_random(const char *engine)
{
    static uint8_t p[3000], a[300], c[3000 + 16], d[3000 + 16], w[3000 + 16];
    uint8_t k[32], n[15], t1[16], t2[16];
    aesir_ocb_key key;
    unsigned bad = 0;

    rnd_fill(k, sizeof(k));
    CHECK(aesir_ocb_init_ex(&key, k, 16 + 8 * rnd_below(3), engine) ==
          AESIR_OK);
    for (unsigned i = 0; i < 300; i++) {
        size_t len = rnd_below(rnd() % 4 ? 300 : sizeof(p)),
               alen = rnd_below(sizeof(a)), nlen = 1 + rnd_below(15),
               tl = 1 + rnd_below(16);
        int flip, err;
        rnd_fill(p, len);
        rnd_fill(a, alen);
        rnd_fill(n, nlen);
        bad += aesir_ocb_seal_detached(&key, n, nlen, a, alen, c, t1, tl, p,
                                       len) != AESIR_OK;
        /* incremental encryption, in place */
        memcpy(w, p, len);
        bad += incremental(&key, 1, n, nlen, a, alen, w, w, len, t2, tl) !=
               AESIR_OK;
        bad += memcmp(w, c, len) != 0 || memcmp(t1, t2, tl) != 0;
        /* out == in in every update */
        memset(w, 0, len);
        bad += incremental_same_pointer(&key, n, nlen, a, alen, w, p, len, t2,
                                        tl) != AESIR_OK;
        bad += memcmp(w, c, len) != 0 || memcmp(t1, t2, tl) != 0;
        /* incremental decryption, out of place */
        bad += incremental(&key, 0, n, nlen, a, alen, d, c, len, t1, tl) !=
               AESIR_OK;
        bad += memcmp(d, p, len) != 0;
        /* a forged message: one bit of c, tag, aad or nonce */
        flip = (int)rnd_below(4);
        if (flip == 0 && len == 0)
            flip = 1;
        if (flip == 2 && alen == 0)
            flip = 3;
        switch (flip) {
        case 0:
            c[rnd_below(len)] ^= (uint8_t)(1u << rnd_below(8));
            break;
        case 1:
            t1[rnd_below(tl)] ^= (uint8_t)(1u << rnd_below(8));
            break;
        case 2:
            a[rnd_below(alen)] ^= (uint8_t)(1u << rnd_below(8));
            break;
        default:
            n[rnd_below(nlen)] ^= (uint8_t)(1u << rnd_below(8));
        }
        memset(d, 0x77, len);
        err =
            aesir_ocb_open_detached(&key, n, nlen, a, alen, d, t1, tl, c, len);
        /* a forgery against a t-byte tag succeeds with probability
         * 2^-8t: with short tags only a verdict that is not an error of
         * another kind is required, and the output must then be right */
        if (tl >= 4) {
            bad += err != AESIR_E_AUTH || !all_zero(d, len);
            bad += incremental(&key, 0, n, nlen, a, alen, d, c, len, t1, tl) !=
                   AESIR_E_AUTH;
        } else {
            bad += err == AESIR_E_AUTH ? !all_zero(d, len) : err != AESIR_OK;
        }
    }
    printf("  %-14s incremental and forgeries: 300 cases, %u bad\n", engine,
           bad);
    CHECK(bad == 0);
    aesir_ocb_clear(&key);
}

static void api_bad_input(void)
{
    aesir_ocb_key key, *mis;
    aesir_ocb ctx;
    uint8_t k[16] = {1}, n[16] = {2}, p[64] = {3}, c[96], t[16];
    static unsigned char raw[sizeof(aesir_ocb_key) + 16];
    size_t ol;

    /* key set-up */
    CHECK_EQ(aesir_ocb_init(&key, k, 15), AESIR_E_KEY_LENGTH);
    CHECK(all_zero(&key, sizeof(key)));
    CHECK_EQ(aesir_ocb_init(NULL, k, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_init(&key, NULL, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_init_ex(&key, k, 16, "no-such-engine"),
             AESIR_E_ENGINE_UNKNOWN);
    mis = (aesir_ocb_key *)(void *)(raw + (16 - (uintptr_t)raw % 16) % 16 + 4);
    CHECK_EQ(aesir_ocb_init(mis, k, 16), AESIR_E_ARGUMENT);
    CHECK(aesir_ocb_engine(&key) == NULL);
    /* a key not set up */
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 12, NULL, 0, c, t, 16, p, 16),
             AESIR_E_STATE);
    CHECK_EQ(aesir_ocb_start(&ctx, &key, n, 12, 16), AESIR_E_STATE);
    CHECK(aesir_ocb_init(&key, k, 16) == AESIR_OK);
    CHECK(aesir_ocb_engine(&key) != NULL);

    /* nonce and tag lengths */
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 0, NULL, 0, c, t, 16, p, 16),
             AESIR_E_IV_LENGTH);
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 16, NULL, 0, c, t, 16, p, 16),
             AESIR_E_IV_LENGTH);
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 15, NULL, 0, c, t, 0, p, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 15, NULL, 0, c, t, 17, p, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_open_detached(&key, n, 12, NULL, 0, c, t, 17, p, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_start(&ctx, &key, n, 16, 16), AESIR_E_IV_LENGTH);
    CHECK_EQ(aesir_ocb_start(&ctx, &key, n, 12, 0), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_start(&ctx, &key, NULL, 12, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_start(NULL, &key, n, 12, 16), AESIR_E_ARGUMENT);
    /* NULL pointers */
    CHECK_EQ(aesir_ocb_seal_detached(&key, NULL, 12, NULL, 0, c, t, 16, p, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 12, NULL, 1, c, t, 16, p, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 12, NULL, 0, NULL, t, 16, p, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ocb_seal_detached(&key, n, 12, NULL, 0, c, NULL, 16, p, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_ocb_seal_detached(&key, n, 12, NULL, 0, NULL, t, 16, NULL, 0),
        AESIR_OK);
    /* appended: output sizes, nothing written on error */
    memset(c, 0xee, sizeof(c));
    CHECK_EQ(aesir_ocb_seal(&key, n, 12, NULL, 0, c, 16 + 63, &ol, p, 64),
             AESIR_E_OUTPUT_SIZE);
    CHECK(all_eq(c, 0xee, sizeof(c)));
    CHECK_EQ(aesir_ocb_seal(&key, n, 12, NULL, 0, c, 80, NULL, p, 64),
             AESIR_E_ARGUMENT);
    CHECK(aesir_ocb_seal(&key, n, 12, NULL, 0, c, 80, &ol, p, 64) == AESIR_OK);
    CHECK_EQ(ol, 80);
    CHECK_EQ(aesir_ocb_open(&key, n, 12, NULL, 0, p, 63, &ol, c, 80),
             AESIR_E_OUTPUT_SIZE);
    CHECK_EQ(aesir_ocb_open(&key, n, 12, NULL, 0, p, 64, &ol, c, 15),
             AESIR_E_INPUT_LENGTH);
    /* truncated: one byte less of ciphertext (the tag moves) */
    memset(p, 0x44, sizeof(p));
    ol = 99;
    CHECK_EQ(aesir_ocb_open(&key, n, 12, NULL, 0, p, 64, &ol, c, 79),
             AESIR_E_AUTH);
    CHECK(ol == 0 && all_zero(p, 63));
    CHECK(aesir_ocb_open(&key, n, 12, NULL, 0, p, 64, &ol, c, 80) == AESIR_OK);
    CHECK_EQ(ol, 64);
    /* a tag of one length does not open with another (prefix) */
    CHECK(aesir_ocb_seal_detached(&key, n, 12, NULL, 0, c, t, 16, p, 64) ==
          AESIR_OK);
    CHECK_EQ(aesir_ocb_open_detached(&key, n, 12, NULL, 0, p, t, 12, c, 64),
             AESIR_E_AUTH);
    /* in place, appended */
    memcpy(c, p, 64);
    CHECK(aesir_ocb_seal(&key, n, 7, p, 5, c, sizeof(c), &ol, c, 64) ==
          AESIR_OK);
    CHECK(aesir_ocb_open(&key, n, 7, p, 5, c, sizeof(c), &ol, c, 80) ==
          AESIR_OK);
    CHECK(ol == 64 && memcmp(c, p, 64) == 0);

    /* order of calls */
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK(aesir_ocb_encrypt_update(&ctx, c, sizeof(c), &ol, p, 20) == AESIR_OK);
    CHECK_EQ(ol, 16);
    CHECK_EQ(
        aesir_ocb_decrypt_update_unverified(&ctx, c, sizeof(c), &ol, p, 20),
        AESIR_E_STATE);
    CHECK(all_zero(&ctx, sizeof(ctx))); /* errors wipe the context */
    CHECK_EQ(aesir_ocb_aad(&ctx, p, 1), AESIR_E_STATE);
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK(aesir_ocb_encrypt_update(&ctx, c, sizeof(c), &ol, p, 3) == AESIR_OK);
    CHECK_EQ(aesir_ocb_verify(&ctx, c, sizeof(c), &ol, t, 16), AESIR_E_STATE);
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK(aesir_ocb_decrypt_update_unverified(&ctx, c, sizeof(c), &ol, p, 3) ==
          AESIR_OK);
    CHECK_EQ(ol, 0);
    CHECK_EQ(aesir_ocb_finish(&ctx, c, sizeof(c), &ol, t, 16), AESIR_E_STATE);
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK_EQ(aesir_ocb_finish(&ctx, c, sizeof(c), &ol, t, 12),
             AESIR_E_ARGUMENT); /* not the start's tag length */
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK(aesir_ocb_encrypt_update(&ctx, c, sizeof(c), &ol, p, 5) == AESIR_OK);
    CHECK_EQ(aesir_ocb_finish(&ctx, c, 4, &ol, t, 16), AESIR_E_OUTPUT_SIZE);
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK(aesir_ocb_encrypt_update(&ctx, c, sizeof(c), &ol, p, 5) == AESIR_OK);
    CHECK_EQ(aesir_ocb_encrypt_update(&ctx, c, 15, &ol, p, 11),
             AESIR_E_OUTPUT_SIZE);
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK(aesir_ocb_finish(&ctx, NULL, 0, &ol, t, 16) == AESIR_OK);
    CHECK_EQ(aesir_ocb_finish(&ctx, NULL, 0, &ol, t, 16), AESIR_E_STATE);
    /* verify failing releases none of the last partial block */
    CHECK(aesir_ocb_seal_detached(&key, n, 12, NULL, 0, c, t, 16, p, 21) ==
          AESIR_OK);
    t[0] ^= 1;
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    CHECK(aesir_ocb_decrypt_update_unverified(&ctx, c + 32, 32, &ol, c, 21) ==
          AESIR_OK);
    CHECK_EQ(ol, 16);
    memset(c + 48, 0x99, 5);
    CHECK_EQ(aesir_ocb_verify(&ctx, c + 48, 5, &ol, t, 16), AESIR_E_AUTH);
    CHECK(ol == 0 && all_eq(c + 48, 0x99, 5));
    /* the block limit (white box): 2^36 - 1 blocks at most */
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    ((struct ocb_state *)(void *)ctx.opaque)->blocks = OCB_MAX_BLOCKS - 2;
    CHECK(aesir_ocb_encrypt_update(&ctx, c, sizeof(c), &ol, p, 16) == AESIR_OK);
    CHECK_EQ(aesir_ocb_encrypt_update(&ctx, c, sizeof(c), &ol, p, 16),
             AESIR_E_INPUT_LENGTH);
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    ((struct ocb_state *)(void *)ctx.opaque)->ablocks = OCB_MAX_BLOCKS - 1;
    CHECK_EQ(aesir_ocb_aad(&ctx, p, 16), AESIR_E_INPUT_LENGTH);
    if (sizeof(size_t) > 4)
        CHECK_EQ(aesir_ocb_seal_detached(&key, n, 12, p, (size_t)-1, c, t, 16,
                                         p, 16),
                 AESIR_E_INPUT_LENGTH);
    /* a key cleared under a message */
    CHECK(aesir_ocb_start(&ctx, &key, n, 12, 16) == AESIR_OK);
    aesir_ocb_clear(&key);
    CHECK_EQ(aesir_ocb_encrypt_update(&ctx, c, sizeof(c), &ol, p, 16),
             AESIR_E_STATE);
    aesir_ocb_abort(&ctx);
    CHECK(all_zero(&ctx, sizeof(ctx)));
}

/* ---- against OpenSSL ------------------------------------------------ */

#ifdef AESIR_TEST_OPENSSL
static int evp_seal(const uint8_t *k, size_t klen, const uint8_t *n,
                    size_t nlen, const uint8_t *a, size_t alen, uint8_t *out,
                    const uint8_t *in, size_t len, uint8_t *tag, size_t tl)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *ciph = klen == 16   ? EVP_aes_128_ocb()
                             : klen == 24 ? EVP_aes_192_ocb()
                                          : EVP_aes_256_ocb();
    int ok, l1 = 0, l2 = 0, la = 0;

    ok =
        c != NULL && EVP_EncryptInit_ex(c, ciph, NULL, NULL, NULL) == 1 &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)nlen, NULL) == 1 &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)tl, NULL) == 1 &&
        EVP_EncryptInit_ex(c, NULL, NULL, k, n) == 1;
    if (ok && alen != 0)
        ok = EVP_EncryptUpdate(c, NULL, &la, a, (int)alen) == 1;
    if (ok && len != 0)
        ok = EVP_EncryptUpdate(c, out, &l1, in, (int)len) == 1;
    ok = ok && EVP_EncryptFinal_ex(c, out + l1, &l2) == 1 &&
         (size_t)(l1 + l2) == len &&
         EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)tl, tag) == 1;
    EVP_CIPHER_CTX_free(c);
    return ok;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    return s != NULL && *s != '\0' ? strtoull(s, NULL, 0) : dflt;
}

static void diff_openssl(const char **names, size_t ne)
{
    static uint8_t p[9000], a[300], c1[9000 + 16], c2[9000 + 16], d[9000 + 16];
    uint64_t cases = env_u64("AESIR_DIFF_CASES", 4000);
    uint64_t seed = env_u64("AESIR_DIFF_SEED", (uint64_t)time(NULL));

    printf("differential against OpenSSL EVP OCB: seed %" PRIu64
           " (AESIR_DIFF_SEED), %" PRIu64
           " cases per engine (AESIR_DIFF_CASES)\n",
           seed, cases);
    for (size_t e = 0; e < ne; e++) {
        uint64_t ncase = cases;
        unsigned bad = 0;
        aesir_ocb_key key;

        rng_state = seed ^ (0x9e3779b97f4a7c15u * (e + 1));
        for (uint64_t i = 0; i < ncase; i++) {
            uint8_t k[32], n[15], t1[16], t2[16];
            size_t klen = 16 + 8 * rnd_below(3), nlen = 1 + rnd_below(15),
                   tl = 1 + rnd_below(16),
                   alen = rnd() % 4 ? rnd_below(300) : 0,
                   len = rnd_below(rnd() % 16 ? 1100 : sizeof(p));
            int inplace = (int)(rnd() & 1), err;
            rnd_fill(k, klen);
            rnd_fill(n, nlen);
            rnd_fill(a, alen);
            rnd_fill(p, len);
            if (!evp_seal(k, klen, n, nlen, a, alen, c1, p, len, t1, tl)) {
                bad++;
                continue;
            }
            if (aesir_ocb_init_ex(&key, k, klen, names[e]) != AESIR_OK) {
                bad++;
                continue;
            }
            if (inplace)
                memcpy(c2, p, len);
            err = aesir_ocb_seal_detached(&key, n, nlen, a, alen, c2, t2, tl,
                                          inplace ? c2 : p, len);
            bad += err != AESIR_OK || memcmp(c1, c2, len) != 0 ||
                   memcmp(t1, t2, tl) != 0;
            if (i % 4 == 0) {
                err =
                    incremental(&key, 1, n, nlen, a, alen, c2, p, len, t2, tl);
                bad += err != AESIR_OK || memcmp(c1, c2, len) != 0 ||
                       memcmp(t1, t2, tl) != 0;
                err =
                    incremental(&key, 0, n, nlen, a, alen, d, c1, len, t1, tl);
                bad += err != AESIR_OK || memcmp(d, p, len) != 0;
            }
            if (inplace)
                memcpy(d, c1, len);
            err = aesir_ocb_open_detached(&key, n, nlen, a, alen, d, t1, tl,
                                          inplace ? d : c1, len);
            bad += err != AESIR_OK || memcmp(d, p, len) != 0;
            if (bad != 0 && bad < 4)
                fprintf(stderr,
                        "FAIL %s case %" PRIu64 ": klen %zu nlen %zu tl %zu "
                        "alen %zu len %zu inplace %d\n",
                        names[e], i, klen, nlen, tl, alen, len, inplace);
        }
        aesir_ocb_clear(&key);
        printf("  %-14s %" PRIu64 " cases, %u bad\n", names[e], ncase, bad);
        CHECK(bad == 0);
    }
}
#endif

int main(int argc, char **argv)
{
    const char *names[64];
    const char *dir = argc > 1 ? argv[1] : NULL;
    const char *part = argc > 2 ? argv[2] : "all";
    int all = strcmp(part, "all") == 0;
    size_t ne;

    printf("engines:\n");
    ne = engines(names, 64);
    if (all || strcmp(part, "vectors") == 0) {
        static const char *files[] = {
            "rfc7253.txt", "openssl.txt", "test-vector-1-nonce104.txt",
            "test-vector-1-nonce112.txt", "test-vector-1-nonce120.txt"};
        if (dir == NULL) {
            printf("vector files: no directory given, skipped\n");
        } else {
            for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
                long n = file_vectors(dir, files[i], names, ne);
                printf("%s: %ld vectors x %zu engines\n", files[i], n, ne);
                CHECK(n >= 7);
            }
        }
        rfc_taglen96(names, ne);
        rfc_iterated_all(names, ne);
        printf("RFC 7253 Appendix A: TAGLEN96 sample, iterated check (9 "
               "key/tag sizes) x %zu engines\n",
               ne);
    }
    if (all || strcmp(part, "fused") == 0)
        fused_vs_generic(names, ne);
    if (all || strcmp(part, "api") == 0) {
        api_bad_input();
        for (size_t e = 0; e < ne; e++)
            api_random(names[e]);
    }
#ifdef AESIR_TEST_OPENSSL
    if (all || strcmp(part, "diff") == 0)
        diff_openssl(names, ne);
#else
    printf("differential against OpenSSL: not built (no libcrypto)\n");
#endif
    return check_summary();
}
