/*
 * test_xts.c -- XTS-AES (src/modes/xts.c) on every engine this CPU can
 * run (the others are printed as UNAVAILABLE).
 *
 * Usage: test_xts <vector-dir> [part]  -- part is one of
 *   vectors  NIST CAVP XTSGenAES128/256 (cryptography-vectors 44.0.0,
 *            ciphers/AES/XTS: tweak-128hexstr with the 16-byte tweak i,
 *            tweak-dataunitseqno with the sector number) and IEEE 1619
 *            Annex B, both directions, on the engine's own path and on
 *            the generic path. Records whose DataUnitLen is not a
 *            multiple of 8 bits are skipped (the API takes bytes) and
 *            counted; a corrupted expected value must fail to match.
 *   diff     random cases against OpenSSL EVP XTS (AES-128, AES-256)
 *            where OpenSSL is built in, and against the oracle below
 *            (every key size, AES-192 included): AESIR_DIFF_CASES per
 *            engine (default 10000; a twentieth, at least 200, for ref
 *            and ref-otf), random keys, tweaks, lengths 16..4096 bytes
 *            (one in 64 up to 64 KiB where EVP is the oracle), offsets,
 *            in place or not; the
 *            sector API against the tweak API.
 *   fused    engines with fused XTS kernels against the generic path
 *            (the kernel pointers cleared in a copy of the key: white
 *            box) at every length of 1..80 blocks with and without a
 *            partial block, and a few long units.
 *   api      bad input: identical key halves (AESIR_E_KEY_WEAK), key
 *            sizes, NULLs, lengths < 16 and > 2^20 blocks, keys not set
 *            up; nothing written on error; multi-unit calls.
 * Without part, all four. The seed is printed; AESIR_DIFF_SEED repeats
 * a run.
 *
 * The oracle: XTS written here from IEEE 1619 5.3 on aesir_aes blocks
 * with the ref engine (one block at a time, tweak doubled bit by bit),
 * independent of xts.c's code.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef AESIR_TEST_OPENSSL
#include <openssl/evp.h>
#endif

#include "aesir.h"
#include "check.h"
#include "xts.h"

#define MAX_LEN 4096
#define MAX_BIG 65536
#define BUF (MAX_BIG + 64 + 16)

static _Alignas(64) uint8_t pt[BUF], ref_ct[BUF], inbuf[BUF], outbuf[BUF],
    work[BUF];

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

/* Hex string to bytes; returns the byte count, or -1. */
static long unhex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    while (hexval(s[0]) >= 0 && hexval(s[1]) >= 0) {
        if (n == cap)
            return -1;
        out[n++] = (uint8_t)(hexval(s[0]) << 4 | hexval(s[1]));
        s += 2;
    }
    return (long)n;
}

/* ---- the oracle ------------------------------------------------------ */

static void oracle_mulx(uint8_t t[16])
{
    int carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
    t[0] = (uint8_t)(t[0] << 1);
    if (carry)
        t[0] ^= 0x87;
}

static void oracle_block(const aesir_aes *k1, int enc, const uint8_t t[16],
                         uint8_t out[16], const uint8_t in[16])
{
    uint8_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i] ^ t[i];
    if (enc)
        (void)aesir_aes_encrypt_block(k1, x, x);
    else if (aesir_aes_decrypt_block(k1, x, x) != AESIR_OK)
        abort();
    for (int i = 0; i < 16; i++)
        out[i] = x[i] ^ t[i];
}

/* IEEE 1619 5.3.2 / 5.4.2, out of place, with the ref engine. */
static void oracle(int enc, const uint8_t *key, size_t klen,
                   const uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                   size_t len)
{
    static aesir_aes k1, k2;
    size_t h = klen / 2, m = len / 16, b = len % 16, j;
    uint8_t t[16], tn[16], cc[16], pp[16];

    if (aesir_aes_init_ex(&k1, key, h, "ref", AESIR_ENCRYPT | AESIR_DECRYPT) ||
        aesir_aes_init_ex(&k2, key + h, h, "ref", AESIR_ENCRYPT))
        abort();
    (void)aesir_aes_encrypt_block(&k2, t, tweak);
    for (j = 0; j + 1 < m || (b == 0 && j < m); j++) {
        oracle_block(&k1, enc, t, out + 16 * j, in + 16 * j);
        oracle_mulx(t);
    }
    if (b == 0)
        return;
    memcpy(tn, t, 16);
    oracle_mulx(tn);
    oracle_block(&k1, enc, enc ? t : tn, cc, in + 16 * j);
    memcpy(out + 16 * (j + 1), cc, b);
    memcpy(pp, in + 16 * (j + 1), b);
    memcpy(pp + b, cc + b, 16 - b);
    oracle_block(&k1, enc, enc ? tn : t, out + 16 * j, pp);
}

#ifdef AESIR_TEST_OPENSSL
/* OpenSSL EVP XTS (32- or 64-byte keys); exits on an EVP error. */
static void evp_xts(int enc, const uint8_t *key, size_t klen,
                    const uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                    size_t len)
{
    static EVP_CIPHER_CTX *c;
    const EVP_CIPHER *ci = klen == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts();
    int n = 0;

    if (c == NULL && (c = EVP_CIPHER_CTX_new()) == NULL)
        goto fail;
    if (EVP_CipherInit_ex(c, ci, NULL, key, tweak, enc) != 1 ||
        EVP_CipherUpdate(c, out, &n, in, (int)len) != 1 || (size_t)n != len)
        goto fail;
    return;
fail:
    fprintf(stderr, "EVP XTS call failed (len %zu)\n", len);
    exit(2);
}
#endif

/* ---- engines --------------------------------------------------------- */

/* The engine at index i when it runs here, else NULL (printed). */
static const char *engine_at(size_t i, const char *part)
{
    const char *name = aesir_engine_name(i);
    if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
        printf("%s %-14s UNAVAILABLE\n", part, name);
        return NULL;
    }
    return name;
}

static int slow_engine(const char *name)
{
    return strcmp(name, "ref") == 0 || strcmp(name, "ref-otf") == 0;
}

/* A copy of key with the fused kernels cleared: the generic path. */
static void generic_copy(aesir_xts_key *dst, const aesir_xts_key *src)
{
    struct xts_key_state *st;
    memcpy(dst, src, sizeof(*dst));
    st = (struct xts_key_state *)(void *)dst->opaque;
    st->enc = st->dec = NULL;
}

static int has_fused(const aesir_xts_key *key)
{
    const struct xts_key_state *st =
        (const struct xts_key_state *)(const void *)key->opaque;
    return st->enc != NULL;
}

/* ---- vectors --------------------------------------------------------- */

struct vec_counts {
    unsigned records, skipped, mismatches;
};

/* One record on key k (and its generic copy g, when not NULL). */
static void vec_record(const aesir_xts_key *k, const aesir_xts_key *g,
                       int seqno, uint64_t seq, const uint8_t tweak[16],
                       const uint8_t *p, const uint8_t *c, size_t len,
                       struct vec_counts *vc)
{
    const aesir_xts_key *keys[2] = {k, g};
    for (int w = 0; w < 2 && keys[w] != NULL; w++) {
        int e1, e2;
        if (seqno) {
            e1 = aesir_xts_encrypt_sector(keys[w], seq, work, p, len);
            memcpy(outbuf, c, len);
            e2 = aesir_xts_decrypt_sector(keys[w], seq, outbuf, outbuf, len);
        } else {
            e1 = aesir_xts_encrypt(keys[w], tweak, work, p, len);
            memcpy(outbuf, c, len);
            e2 = aesir_xts_decrypt(keys[w], tweak, outbuf, outbuf, len);
        }
        if (e1 != AESIR_OK || e2 != AESIR_OK || memcmp(work, c, len) != 0 ||
            memcmp(outbuf, p, len) != 0)
            vc->mismatches++;
    }
}

/*
 * Runs the .rsp file on engine `engine`. When selfcheck is set, every
 * record's expected CT has one bit flipped: every record must then fail.
 */
static int vec_file(const char *path, int seqno, const char *engine,
                    int selfcheck, struct vec_counts *vc)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    uint8_t key[64], tweak[16], p[64], c[64];
    long klen = -1, plen = -1, clen = -1;
    unsigned long bits = 0;
    uint64_t seq = 0;
    int have_t = 0;
    aesir_xts_key k, g;

    if (f == NULL) {
        printf("missing vector file %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        char *v = strstr(line, " = ");
        if (v == NULL)
            continue;
        v += 3;
        if (strncmp(line, "COUNT", 5) == 0) {
            klen = plen = clen = -1;
            have_t = 0;
        } else if (strncmp(line, "DataUnitLen", 11) == 0) {
            bits = strtoul(v, NULL, 10);
        } else if (strncmp(line, "Key", 3) == 0) {
            klen = unhex(v, key, sizeof(key));
        } else if (strncmp(line, "i ", 2) == 0) {
            have_t = unhex(v, tweak, 16) == 16;
        } else if (strncmp(line, "DataUnitSeqNumber", 17) == 0) {
            seq = strtoull(v, NULL, 10);
            have_t = 1;
        } else if (strncmp(line, "PT", 2) == 0) {
            plen = unhex(v, p, sizeof(p));
        } else if (strncmp(line, "CT", 2) == 0) {
            clen = unhex(v, c, sizeof(c));
        }
        if (klen < 0 || plen < 0 || clen < 0 || !have_t)
            continue;
        /* a complete record */
        if (bits % 8 != 0) {
            vc->skipped++;
        } else if ((size_t)plen != bits / 8 || plen != clen ||
                   (klen != 32 && klen != 64)) {
            printf("bad record in %s\n", path);
            fclose(f);
            return -1;
        } else {
            if (aesir_xts_init_ex(&k, key, (size_t)klen, engine) != AESIR_OK) {
                vc->mismatches++;
            } else {
                unsigned before = vc->mismatches;
                if (selfcheck)
                    c[(size_t)plen - 1] ^= 1;
                generic_copy(&g, &k);
                vec_record(&k, has_fused(&k) ? &g : NULL, seqno, seq, tweak, p,
                           c, (size_t)plen, vc);
                if (selfcheck && vc->mismatches == before)
                    CHECK(!"selfcheck: a corrupted record matched");
            }
            vc->records++;
        }
        klen = plen = clen = -1;
        have_t = 0;
    }
    fclose(f);
    aesir_xts_clear(&k);
    return 0;
}

/*
 * IEEE Std 1619-2018 Annex B (B.1 vectors 2 and 3: XTS-AES-128, data
 * unit sequence number 0x3333333333, 32 bytes of 0x44). Vector 1's two
 * zero keys are identical halves: refused (api part).
 */
static void annex_b(const char *engine)
{
    static const char *const keys[2] = {
        "1111111111111111111111111111111122222222222222222222222222222222",
        "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f022222222222222222222222222222222"};
    static const char *const cts[2] = {
        "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0",
        "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89"};
    uint8_t key[32], c[32], p[32], out[32];
    aesir_xts_key k;

    memset(p, 0x44, sizeof(p));
    for (int v = 0; v < 2; v++) {
        CHECK(unhex(keys[v], key, 32) == 32 && unhex(cts[v], c, 32) == 32);
        CHECK_EQ(aesir_xts_init_ex(&k, key, 32, engine), AESIR_OK);
        CHECK_EQ(
            aesir_xts_encrypt_sector(&k, UINT64_C(0x3333333333), out, p, 32),
            AESIR_OK);
        CHECK(memcmp(out, c, 32) == 0);
        CHECK_EQ(
            aesir_xts_decrypt_sector(&k, UINT64_C(0x3333333333), out, c, 32),
            AESIR_OK);
        CHECK(memcmp(out, p, 32) == 0);
    }
    aesir_xts_clear(&k);
}

static void part_vectors(const char *dir)
{
    static const char *const files[4][2] = {
        {"tweak-128hexstr/XTSGenAES128.rsp", "0"},
        {"tweak-128hexstr/XTSGenAES256.rsp", "0"},
        {"tweak-dataunitseqno/XTSGenAES128.rsp", "1"},
        {"tweak-dataunitseqno/XTSGenAES256.rsp", "1"}};
    char path[4096];

    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *e = engine_at(i, "vectors");
        struct vec_counts vc = {0, 0, 0};
        if (e == NULL)
            continue;
        for (int f = 0; f < 4; f++) {
            snprintf(path, sizeof(path), "%s/ciphers/AES/XTS/%s", dir,
                     files[f][0]);
            CHECK_EQ(vec_file(path, files[f][1][0] == '1', e, 0, &vc), 0);
        }
        CHECK_EQ(vc.mismatches, 0);
        CHECK_EQ(vc.records, 2800); /* 4000 less the 1200 skipped */
        CHECK_EQ(vc.skipped, 1200);
        annex_b(e);
        printf("vectors %-14s %u records, %u mismatches, %u skipped "
               "(DataUnitLen not a multiple of 8)\n",
               e, vc.records, vc.mismatches, vc.skipped);
    }
    /* the runner can fail: every corrupted record is a mismatch */
    {
        struct vec_counts vc = {0, 0, 0};
        snprintf(path, sizeof(path), "%s/ciphers/AES/XTS/%s", dir, files[2][0]);
        CHECK_EQ(vec_file(path, 1, NULL, 1, &vc), 0);
        CHECK(vc.records > 0 && vc.mismatches >= vc.records);
        printf("vectors selfcheck: %u of %u corrupted records failed\n",
               vc.mismatches, vc.records);
    }
}

/* ---- diff ------------------------------------------------------------ */

static uint64_t seed;

static size_t below(uint64_t *s, size_t n)
{
    return n == 0 ? 0 : (size_t)(splitmix64(s) % n);
}

static void fill(uint64_t *s, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)splitmix64(s);
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? strtoull(v, NULL, 0) : dflt;
}

/* One random case on engine e; returns 1 when it passed. */
static int diff_case(const char *e, size_t ei, uint64_t no)
{
    uint64_t s = seed ^ (no << 20) ^ ei;
    uint8_t key[64], tweak[16];
    size_t klen = 32 + 16 * below(&s, 3);
    size_t len, in_off = below(&s, 16), out_off = below(&s, 16);
    int in_place = below(&s, 3) == 0, ok = 1, sector = below(&s, 4) == 0;
    uint64_t sec = splitmix64(&s);
    uint8_t *in = inbuf + in_off, *out;
    aesir_xts_key k;

    (void)splitmix64(&s);
    /* up to 64 KiB where EVP is the oracle; the ref oracle (AES-192) at
     * a few MB/s stays below 4 KiB, so that the run takes seconds */
    len = below(&s, 64) == 0 && klen != 48 ? 16 + below(&s, MAX_BIG - 15)
                                           : 16 + below(&s, MAX_LEN - 15);
    fill(&s, key, klen);
    if (sector) {
        memset(tweak, 0, 16);
        for (int i = 0; i < 8; i++)
            tweak[i] = (uint8_t)(sec >> (8 * i));
    } else {
        fill(&s, tweak, 16);
    }
    fill(&s, pt, len);
    out = in_place ? in : outbuf + out_off;
    if (aesir_xts_init_ex(&k, key, klen, e) != AESIR_OK)
        return 0;
#ifdef AESIR_TEST_OPENSSL
    if (klen != 48)
        evp_xts(1, key, klen, tweak, ref_ct, pt, len);
    else
#endif
        oracle(1, key, klen, tweak, ref_ct, pt, len);
        /* the oracle itself against EVP, on a few cases */
#ifdef AESIR_TEST_OPENSSL
    if (klen != 48 && no % 16 == 0 && len <= MAX_LEN) {
        oracle(1, key, klen, tweak, work, pt, len);
        ok &= memcmp(work, ref_ct, len) == 0;
    }
#endif
    memcpy(in, pt, len);
    out[len] = 0xa5;
    ok &= (sector ? aesir_xts_encrypt_sector(&k, sec, out, in, len)
                  : aesir_xts_encrypt(&k, tweak, out, in, len)) == AESIR_OK;
    ok &= memcmp(out, ref_ct, len) == 0 && out[len] == 0xa5;
    if (!in_place)
        ok &= memcmp(in, pt, len) == 0;
    /* decryption, the other way round */
    memcpy(in, ref_ct, len);
    ok &= (sector ? aesir_xts_decrypt_sector(&k, sec, out, in, len)
                  : aesir_xts_decrypt(&k, tweak, out, in, len)) == AESIR_OK;
    ok &= memcmp(out, pt, len) == 0 && out[len] == 0xa5;
#ifdef AESIR_TEST_OPENSSL
    if (klen != 48 && no % 8 == 0) {
        evp_xts(0, key, klen, tweak, work, ref_ct, len);
        ok &= memcmp(work, pt, len) == 0;
    }
#endif
    aesir_xts_clear(&k);
    if (!ok)
        printf("  FAIL %s case %" PRIu64 ": key %zu bytes, len %zu, offsets "
               "%zu/%zu, %s, %s\n",
               e, no, klen, len, in_off, out_off,
               in_place ? "in place" : "out of place",
               sector ? "sector" : "tweak");
    return ok;
}

static void part_diff(void)
{
    uint64_t n = env_u64("AESIR_DIFF_CASES", 10000);
    printf("diff: seed %" PRIu64 " (AESIR_DIFF_SEED), %" PRIu64
           " cases per engine (AESIR_DIFF_CASES), oracle %s\n",
           seed, n,
#ifdef AESIR_TEST_OPENSSL
           "OpenSSL EVP (AES-128/256) and the ref oracle (AES-192)"
#else
           "the ref oracle"
#endif
    );
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *e = engine_at(i, "diff");
        uint64_t cases = n, passed = 0, failed = 0;
        if (e == NULL)
            continue;
        if (slow_engine(e))
            cases = n / 20 < 200 ? (n < 200 ? n : 200) : n / 20;
        clock_t t0 = clock();
        for (uint64_t c = 0; c < cases; c++) {
            if (diff_case(e, i, c))
                passed++;
            else if (failed++ > 20)
                break;
        }
        CHECK_EQ(failed, 0);
        check_passed += (unsigned)passed;
        printf("diff %-14s %" PRIu64 " cases, %" PRIu64 " failed (%.1f s)\n", e,
               passed, failed, (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
}

/* ---- fused against generic ------------------------------------------- */

static void fused_one(const aesir_xts_key *k, const aesir_xts_key *g,
                      const uint8_t tweak[16], size_t len, int in_place,
                      unsigned *bad)
{
    uint8_t *in = inbuf + 3, *out = in_place ? in : outbuf + 5;
    int ok = 1;

    memcpy(in, pt, len);
    ok &= aesir_xts_encrypt(g, tweak, work, in, len) == AESIR_OK;
    ok &= aesir_xts_encrypt(k, tweak, out, in, len) == AESIR_OK;
    ok &= memcmp(out, work, len) == 0;
    memcpy(in, work, len);
    ok &= aesir_xts_decrypt(k, tweak, out, in, len) == AESIR_OK;
    ok &= memcmp(out, pt, len) == 0;
    if (!ok && (*bad)++ < 10)
        printf("  FAIL fused != generic at len %zu (%s)\n", len,
               in_place ? "in place" : "out of place");
}

static void part_fused(void)
{
    uint64_t s = seed;
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *e = engine_at(i, "fused");
        unsigned bad = 0, runs = 0;
        aesir_xts_key k, g;
        uint8_t key[64], tweak[16];
        if (e == NULL)
            continue;
        for (size_t klen = 32; klen <= 64; klen += 16) {
            fill(&s, key, klen);
            if (aesir_xts_init_ex(&k, key, klen, e) != AESIR_OK) {
                CHECK(0);
                continue;
            }
            if (!has_fused(&k))
                break;
            generic_copy(&g, &k);
            fill(&s, pt, MAX_BIG);
            for (size_t nb = 1; nb <= 80; nb++) {
                size_t tails[4] = {0, 1, 15, 1 + below(&s, 15)};
                for (int t = 0; t < 4; t++) {
                    fill(&s, tweak, 16);
                    /* tweaks whose top bit carries at once, too */
                    if (t == 1)
                        tweak[15] |= 0x80;
                    fused_one(&k, &g, tweak, 16 * nb + tails[t], t & 1, &bad);
                    runs++;
                }
            }
            for (int r = 0; r < 8; r++) {
                size_t len = 16 + below(&s, MAX_BIG - 15);
                fill(&s, tweak, 16);
                fused_one(&k, &g, tweak, len, r & 1, &bad);
                runs++;
            }
        }
        CHECK_EQ(bad, 0);
        if (runs == 0)
            printf("fused %-14s no fused kernels (generic path)\n", e);
        else
            printf("fused %-14s %u lengths, %u differ\n", e, runs, bad);
        aesir_xts_clear(&k);
        aesir_xts_clear(&g);
    }
}

/* ---- api ------------------------------------------------------------- */

static void part_api(void)
{
    _Alignas(16) unsigned char raw[sizeof(aesir_xts_key) + 16];
    aesir_xts_key k, z;
    uint8_t key[64], tw[16] = {1}, buf[96], out[96];
    static const size_t bad_lens[] = {0, 1, 16, 24, 31, 33, 47, 49, 63, 65};
    uint8_t *big;

    for (int i = 0; i < 64; i++)
        key[i] = (uint8_t)(i * 7 + 1);
    memset(buf, 0x11, sizeof(buf));

    /* key sizes */
    for (size_t i = 0; i < sizeof(bad_lens) / sizeof(bad_lens[0]); i++) {
        memset(&k, 0x5a, sizeof(k));
        CHECK_EQ(aesir_xts_init(&k, key, bad_lens[i]), AESIR_E_KEY_LENGTH);
        CHECK(all_zero(&k, sizeof(k)));
    }
    /* identical halves, every size; IEEE 1619 B.1 vector 1 (zero keys) */
    for (size_t h = 16; h <= 32; h += 8) {
        uint8_t kk[64];
        memcpy(kk, key, h);
        memcpy(kk + h, key, h);
        memset(&k, 0x5a, sizeof(k));
        CHECK_EQ(aesir_xts_init(&k, kk, 2 * h), AESIR_E_KEY_WEAK);
        CHECK(all_zero(&k, sizeof(k)));
        memset(kk, 0, sizeof(kk));
        CHECK_EQ(aesir_xts_init(&k, kk, 2 * h), AESIR_E_KEY_WEAK);
        /* one bit apart is a different key */
        memcpy(kk, key, h);
        memcpy(kk + h, key, h);
        kk[2 * h - 1] ^= 0x80;
        CHECK_EQ(aesir_xts_init(&k, kk, 2 * h), AESIR_OK);
    }
    CHECK(strstr(aesir_strerror(AESIR_E_KEY_WEAK), "XTS") != NULL);
    /* NULLs, engines */
    CHECK_EQ(aesir_xts_init(NULL, key, 32), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_xts_init(&k, NULL, 32), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_xts_init_ex(&k, key, 32, "bogus"), AESIR_E_ENGINE_UNKNOWN);
    CHECK(aesir_xts_engine(&k) == NULL);
    CHECK_EQ(aesir_xts_init((aesir_xts_key *)(void *)(raw + 4), key, 32),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_xts_init(&k, key, 64), AESIR_OK);
    CHECK(aesir_xts_engine(&k) != NULL &&
          strcmp(aesir_xts_engine(&k), aesir_engine_default()) == 0);
    memcpy(out, buf, sizeof(out));
    CHECK_EQ(aesir_xts_encrypt(&k, NULL, out, buf, 32), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_xts_encrypt(&k, tw, NULL, buf, 32), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_xts_decrypt(&k, tw, out, NULL, 32), AESIR_E_ARGUMENT);
    /* lengths */
    for (size_t len = 0; len < 16; len++) {
        CHECK_EQ(aesir_xts_encrypt(&k, tw, out, buf, len),
                 AESIR_E_INPUT_LENGTH);
        CHECK_EQ(aesir_xts_decrypt(&k, tw, out, buf, len),
                 AESIR_E_INPUT_LENGTH);
        CHECK_EQ(aesir_xts_encrypt_sector(&k, 7, out, buf, len),
                 AESIR_E_INPUT_LENGTH);
    }
    /* past 2^20 blocks: refused before anything is read */
    CHECK_EQ(aesir_xts_encrypt(&k, tw, out, buf, AESIR_XTS_MAX_BYTES + 1),
             AESIR_E_INPUT_LENGTH);
    CHECK_EQ(aesir_xts_decrypt(&k, tw, out, buf, SIZE_MAX),
             AESIR_E_INPUT_LENGTH);
    CHECK(memcmp(out, buf, sizeof(out)) == 0); /* nothing written */
    /* exactly 2^20 blocks, in place, and back */
    big = malloc(AESIR_XTS_MAX_BYTES);
    if (big != NULL) {
        uint8_t head[32];
        memset(big, 0x3c, AESIR_XTS_MAX_BYTES);
        CHECK_EQ(aesir_xts_encrypt(&k, tw, big, big, AESIR_XTS_MAX_BYTES),
                 AESIR_OK);
        memcpy(head, big, 32);
        CHECK_EQ(aesir_xts_decrypt(&k, tw, big, big, AESIR_XTS_MAX_BYTES),
                 AESIR_OK);
        CHECK(all_eq(big, 0x3c, AESIR_XTS_MAX_BYTES));
        /* the last 32 bytes alone: the tweak after 2^20 - 2 blocks */
        CHECK(!all_eq(head, 0x3c, 32));
        free(big);
    }
    /* a key not set up, or cleared */
    memset(&z, 0, sizeof(z));
    CHECK_EQ(aesir_xts_encrypt(&z, tw, out, buf, 32), AESIR_E_STATE);
    CHECK_EQ(aesir_xts_decrypt_sectors(&z, 0, 32, out, buf, 64), AESIR_E_STATE);
    CHECK(aesir_xts_engine(&z) == NULL);
    /* sectors: one call per unit; sizes that do not divide are refused
     * with nothing written; the count carries past 2^64 - 1 */
    {
        uint8_t a[96], b2[96];
        uint8_t t128[16] = {0};
        CHECK_EQ(aesir_xts_encrypt_sectors(&k, 41, 48, a, buf, 96), AESIR_OK);
        CHECK_EQ(aesir_xts_encrypt_sector(&k, 41, b2, buf, 48), AESIR_OK);
        CHECK_EQ(aesir_xts_encrypt_sector(&k, 42, b2 + 48, buf + 48, 48),
                 AESIR_OK);
        CHECK(memcmp(a, b2, 96) == 0);
        CHECK_EQ(aesir_xts_decrypt_sectors(&k, 41, 48, a, a, 96), AESIR_OK);
        CHECK(memcmp(a, buf, 96) == 0);
        memcpy(out, buf, sizeof(out));
        CHECK_EQ(aesir_xts_encrypt_sectors(&k, 0, 40, out, buf, 96),
                 AESIR_E_INPUT_LENGTH);
        CHECK_EQ(aesir_xts_encrypt_sectors(&k, 0, 15, out, buf, 90),
                 AESIR_E_INPUT_LENGTH);
        CHECK_EQ(aesir_xts_encrypt_sectors(&k, 0, 32, NULL, buf, 96),
                 AESIR_E_ARGUMENT);
        CHECK(memcmp(out, buf, sizeof(out)) == 0);
        CHECK_EQ(aesir_xts_encrypt_sectors(&k, 0, 32, NULL, NULL, 0), AESIR_OK);
        CHECK_EQ(aesir_xts_encrypt_sectors(&k, UINT64_MAX, 32, a, buf, 64),
                 AESIR_OK);
        CHECK_EQ(aesir_xts_encrypt_sector(&k, UINT64_MAX, b2, buf, 32),
                 AESIR_OK);
        t128[8] = 1; /* 2^64 */
        CHECK_EQ(aesir_xts_encrypt(&k, t128, b2 + 32, buf + 32, 32), AESIR_OK);
        CHECK(memcmp(a, b2, 64) == 0);
    }
    /* sector n is the tweak LE(n) */
    {
        uint8_t a[40], b2[40], t8[16] = {0};
        uint64_t n = UINT64_C(0x0123456789abcdef);
        for (int i = 0; i < 8; i++)
            t8[i] = (uint8_t)(n >> (8 * i));
        CHECK_EQ(aesir_xts_encrypt_sector(&k, n, a, buf, 40), AESIR_OK);
        CHECK_EQ(aesir_xts_encrypt(&k, t8, b2, buf, 40), AESIR_OK);
        CHECK(memcmp(a, b2, 40) == 0);
    }
    aesir_xts_clear(&k);
    CHECK(all_zero(&k, sizeof(k)));
    CHECK_EQ(aesir_xts_encrypt(&k, tw, out, buf, 32), AESIR_E_STATE);
    aesir_xts_clear(NULL);
}

int main(int argc, char **argv)
{
    const char *part = argc > 2 ? argv[2] : "all";
    int all = strcmp(part, "all") == 0;

    seed = env_u64("AESIR_DIFF_SEED", (uint64_t)time(NULL));
    if (argc < 2) {
        fprintf(stderr, "usage: test_xts <vector-dir> [vectors|diff|fused|"
                        "api]\n");
        return 2;
    }
    if (all || strcmp(part, "api") == 0)
        part_api();
    if (all || strcmp(part, "vectors") == 0)
        part_vectors(argv[1]);
    if (all || strcmp(part, "fused") == 0)
        part_fused();
    if (all || strcmp(part, "diff") == 0)
        part_diff();
    return check_summary();
}
