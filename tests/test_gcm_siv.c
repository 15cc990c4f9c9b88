/*
 * test_gcm_siv.c -- AES-GCM-SIV (src/aead/gcm_siv.c) on every engine pair
 * (AES engine x GHASH engine) this CPU can run; the others are listed as
 * UNAVAILABLE. The random comparison with libgcrypt is test_gcm_siv_diff.c.
 *
 * Usage: test_gcm_siv <cryptography_vectors dir>. Parts:
 *
 *   rfc       RFC 8452 Appendix C vectors the vector package lacks (it
 *             leaves out the empty messages): C.1's two empty-plaintext
 *             AES-128 cases, C.2's empty AES-256 case, and C.3's two
 *             counter-wrap cases; and Wycheproof's constructed
 *             counter-overflow cases (aes_gcm_siv_test.json, tcId 116-120),
 *             whose tags start the 32-bit counter at or just below 2^32 on
 *             a 3-block message. Each through seal (appended, out of place
 *             and in place), seal_detached, open and open_detached (in
 *             place too).
 *   derive    C.1's first case, white box: the record-authentication and
 *             record-encryption keys the RFC prints, recomputed here with
 *             aesir_aes_encrypt_block on LE32(i) || nonce.
 *   file      ciphers/AES/GCM-SIV/openssl.txt (RFC 8452 C.1-C.3 with data:
 *             46 records, AES-128 and AES-256) and aes-192-gcm-siv.txt (46
 *             records, the AES-192 extension, with AESIR_GCM_SIV_AES192),
 *             every record on every pair, all four calls.
 *   kernel    every engine's GCM-SIV CTR path (engine->ctr32le, white box)
 *             against counter blocks made one by one and encrypted with the
 *             engine's bulk ECB: random keys, 1..300 blocks, counters
 *             starting anywhere and at 2^32 - 1 .. 2^32 - 40 (the wrap
 *             without carry, section 4 step 10), in place and not; and on
 *             the whole mode, a key with the engine's paths (CTR, fused
 *             decryption) against the same key with them removed (the
 *             generic code): random messages up to 9 KiB, in place and
 *             not, and a flipped bit refused.
 *   upto      every GHASH engine's POLYVAL key set-up for short calls
 *             (polyval_init_upto) against the full one, every call length
 *             up to the bound it was set up for.
 *   bad       every single-bit flip of tag, ciphertext, AAD and nonce of a
 *             random message fails open and open_detached with AESIR_E_AUTH,
 *             out zeroed and *out_len 0; truncated input (in_len < 16), NULL
 *             arguments, short output, keys not set up / cleared /
 *             misaligned, key lengths (24 without the option), unknown
 *             options and engines; the RFC limits (2^36 bytes of plaintext
 *             and AAD) accepted at the limit by the checks and refused one
 *             byte over, without touching the (small) buffers.
 *
 * The last line is "N passed, M failed".
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "check.h"
#include "gcm_pairs.h"
#include "gcm_siv.h"

#define MAX_PAIRS 512
#define MAX_REPORTS 60
#define MAX_MSG 9216

static char where[200];
static unsigned reports;

#define T(cond)                                                                \
    do {                                                                       \
        if (cond) {                                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            if (reports++ < MAX_REPORTS)                                       \
                fprintf(stderr, "FAIL %s:%d [%s]: %s\n", __FILE__, __LINE__,   \
                        where, #cond);                                         \
        }                                                                      \
    } while (0)

static uint64_t rng_state = 0x5eed6c5d;

static uint64_t rnd(void)
{
    return splitmix64(&rng_state);
}

static size_t below(size_t n)
{
    return n == 0 ? 0 : (size_t)(rnd() % n);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static size_t unhex(uint8_t *out, size_t cap, const char *h)
{
    size_t n = strlen(h) / 2;
    if (n > cap)
        n = cap;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        if (sscanf(h + 2 * i, "%2x", &v) != 1)
            return i;
        out[i] = (uint8_t)v;
    }
    return n;
}

/* ---------------------------------------------------------------------
 * One known-answer record through every call
 * ------------------------------------------------------------------- */

struct kat {
    uint8_t key[32], nonce[12], aad[512], pt[1024], ct[1024], tag[16];
    size_t klen, aad_len, len;
};

static _Alignas(64) uint8_t buf[MAX_MSG + 64], buf2[MAX_MSG + 64];

static void run_kat(const aesir_gcm_siv_key *k, const struct kat *v)
{
    size_t n = 0;
    uint8_t tag[16];

    /* seal, appended, out of place and in place */
    memset(buf, 0xa5, v->len + 32);
    T(aesir_gcm_siv_seal(k, v->nonce, v->aad, v->aad_len, buf, v->len + 16, &n,
                         v->pt, v->len) == AESIR_OK);
    T(n == v->len + 16 && memcmp(buf, v->ct, v->len) == 0 &&
      memcmp(buf + v->len, v->tag, 16) == 0 && buf[v->len + 16] == 0xa5);
    memcpy(buf, v->pt, v->len);
    T(aesir_gcm_siv_seal(k, v->nonce, v->aad, v->aad_len, buf, v->len + 16, &n,
                         buf, v->len) == AESIR_OK);
    T(memcmp(buf, v->ct, v->len) == 0 && memcmp(buf + v->len, v->tag, 16) == 0);
    /* seal_detached */
    T(aesir_gcm_siv_seal_detached(k, v->nonce, v->aad, v->aad_len, buf2, tag,
                                  v->pt, v->len) == AESIR_OK);
    T(memcmp(buf2, v->ct, v->len) == 0 && memcmp(tag, v->tag, 16) == 0);
    /* open, appended, in place (buf holds ct || tag) */
    n = 99;
    T(aesir_gcm_siv_open(k, v->nonce, v->aad, v->aad_len, buf, v->len, &n, buf,
                         v->len + 16) == AESIR_OK);
    T(n == v->len && memcmp(buf, v->pt, v->len) == 0);
    /* open_detached, out of place and in place */
    memset(buf, 0xa5, v->len + 16);
    T(aesir_gcm_siv_open_detached(k, v->nonce, v->aad, v->aad_len, buf, v->tag,
                                  v->ct, v->len) == AESIR_OK);
    T(memcmp(buf, v->pt, v->len) == 0 && buf[v->len] == 0xa5);
    memcpy(buf, v->ct, v->len);
    T(aesir_gcm_siv_open_detached(k, v->nonce, v->aad, v->aad_len, buf, v->tag,
                                  buf, v->len) == AESIR_OK);
    T(memcmp(buf, v->pt, v->len) == 0);
}

/* The key for pair p (options as given); 0 on success. */
static int pair_key(aesir_gcm_siv_key *k, const struct gcm_pair *p,
                    const uint8_t *key, size_t klen, unsigned options)
{
    int err = aesir_gcm_siv_init_ex(k, key, klen, p->aes, p->ghash, options);
    T(err == AESIR_OK);
    return err;
}

/* ---------------------------------------------------------------------
 * rfc: vectors in the source
 * ------------------------------------------------------------------- */

struct hexkat {
    const char *what, *key, *nonce, *aad, *pt, *ct, *tag;
};

static const struct hexkat rfc_kats[] = {
    /* RFC 8452 Appendix C.1 (AEAD_AES_128_GCM_SIV), first case */
    {"C.1 empty", "01000000000000000000000000000000",
     "030000000000000000000000", "", "", "",
     "dc20e2d83f25705bb49e439eca56de25"},
    /* C.1, the first case with a random-looking key */
    {"C.1 empty 2", "e66021d5eb8e4f4066d4adb9c33560e4",
     "f46e44bb3da0015c94f70887", "", "", "",
     "a4194b79071b01a87d65f706e3949578"},
    /* C.2 (AEAD_AES_256_GCM_SIV), the empty case with a random-looking key */
    {"C.2 empty",
     "e66021d5eb8e4f4066d4adb9c33560e4f46e44bb3da0015c94f7088736864200",
     "e0eaf5284d884a0e77d31646", "", "", "",
     "169fbb2fbf389a995f6390af22228a62"},
    /* C.3 Counter Wrap Tests (AES-256): the initial counter 0xffffffff */
    {"C.3 wrap 1",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "",
     "000000000000000000000000000000004db923dc793ee6497c76dcc03a98e108",
     "f3f80f2cf0cb2dd9c5984fcda908456cc537703b5ba70324a6793a7bf218d3ea",
     "ffffffff000000000000000000000000"},
    {"C.3 wrap 2",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "",
     "eb3640277c7ffd1303c7a542d02d3e4c0000000000000000",
     "18ce4f0b8cb4d0cac65fea8f79257b20888e53e72299e56d",
     "ffffffff000000000000000000000000"},
    /* Wycheproof aes_gcm_siv_test.json, "Testing for ctr overflow"
     * (tcId 116, 117, 118, 119, 120): constructed so that the tag, and so
     * the first counter, is chosen */
    {"wycheproof 116",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "010101010101010101010101", "40c32e00c2fdab59c1a1c573b46b5068",
     "bdd411814564c4218d224d50591c818855a862a0a519ac0b3d71a2edb12aa71eb81959"
     "bcc6b84c45aa424c9aca0b7bdd",
     "000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000",
     "00000000000000000000000000000000"},
    {"wycheproof 117",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "000000000000000000000000", "2cc3a1973e0560f7224a394e52fa8488",
     "d04846a01f472262e60a1cb4cfcbdcb05c3f819628a3a49395c5dae96c434b2417ce07"
     "1699afa74a60c32c0bafd9c01a",
     "000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff"},
    {"wycheproof 118",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "010101010101010101010101", "2e34d12622a441b557eeb1d647c6cb73",
     "79637cee9decf33e3080de3d2c55bd21cd529ba8080b583edb6cfe13cda04bd00debe5"
     "8b8cd48d6e02a1ecfc4d87923a",
     "000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000",
     "fefffffffefffffffefffffffeffffff"},
    {"wycheproof 119",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "000000000000000000000000", "0814a95481bf915a4097949e3525c7e7",
     "6492a73880dac7f36743715b0fc7063d3e46a25044310bba5849ed88bfcb54b0adbe39"
     "78040bda849906e1aa09d1a8e3",
     "000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000",
     "ffffff7f00112233445566778899aabb"},
    {"wycheproof 120",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "010101010101010101010101", "b691ef42f2ab8d1b4a581bb08394b13a",
     "7848d9e872f40bca1b82a4e7185fb75193b3496cc1dc2a72b86ed156ab8389e71687ed"
     "25eb6485e66561fa8c39853368",
     "000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000",
     "ffffffffffffff7f0011223344556677"},
};

static void hex_kat(struct kat *v, const struct hexkat *h)
{
    v->klen = unhex(v->key, sizeof(v->key), h->key);
    unhex(v->nonce, 12, h->nonce);
    v->aad_len = unhex(v->aad, sizeof(v->aad), h->aad);
    v->len = unhex(v->pt, sizeof(v->pt), h->pt);
    unhex(v->ct, sizeof(v->ct), h->ct);
    unhex(v->tag, 16, h->tag);
}

static void test_rfc(const struct gcm_pair *p)
{
    static struct kat v;
    aesir_gcm_siv_key k;
    for (size_t i = 0; i < sizeof(rfc_kats) / sizeof(rfc_kats[0]); i++) {
        hex_kat(&v, &rfc_kats[i]);
        snprintf(where, sizeof(where), "rfc %s x %s: %s", p->aes, p->ghash,
                 rfc_kats[i].what);
        if (pair_key(&k, p, v.key, v.klen, 0) == AESIR_OK)
            run_kat(&k, &v);
    }
    aesir_gcm_siv_clear(&k);
}

/* RFC 8452 C.1, first case: Record authentication key and Record
 * encryption key as the RFC prints them. */
static void test_derive(void)
{
    uint8_t key[16] = {1}, blk[16], got[32], want[32];
    aesir_aes a;
    snprintf(where, sizeof(where), "derive");
    unhex(want, 16, "d9b360279694941ac5dbc6987ada7377");
    unhex(want + 16, 16, "4004a0dcd862f2a57360219d2d44ef6c");
    T(aesir_aes_init(&a, key, 16) == AESIR_OK);
    for (int i = 0; i < 4; i++) {
        memset(blk, 0, 16);
        blk[0] = (uint8_t)i;
        blk[4] = 3; /* nonce 03 00 .. 00 */
        aesir_aes_encrypt_block(&a, blk, blk);
        memcpy(got + 8 * i, blk, 8);
    }
    T(memcmp(got, want, 32) == 0);
    aesir_aes_clear(&a);
}

/* ---------------------------------------------------------------------
 * file: the vector package
 * ------------------------------------------------------------------- */

static size_t file_records;

static void run_file(const char *path, const struct gcm_pair *pairs,
                     size_t npairs, unsigned options)
{
    static struct kat v;
    static char line[8192];
    FILE *f = fopen(path, "r");
    int have = 0;
    size_t records = 0;

    if (f == NULL) {
        snprintf(where, sizeof(where), "%s", path);
        T(!"vector file missing");
        return;
    }
    memset(&v, 0, sizeof(v));
    for (;;) {
        char *s = fgets(line, sizeof(line), f);
        char *eq;
        if (s != NULL) {
            s[strcspn(s, "\r\n")] = 0;
            eq = strstr(s, " = ");
        }
        if (s == NULL || strncmp(s, "COUNT", 5) == 0) {
            if (have) {
                records++;
                for (size_t i = 0; i < npairs; i++) {
                    aesir_gcm_siv_key k;
                    if (!pairs[i].available)
                        continue;
                    snprintf(where, sizeof(where), "%s record %zu, %s x %s",
                             path, records, pairs[i].aes, pairs[i].ghash);
                    if (pair_key(&k, &pairs[i], v.key, v.klen, options) ==
                        AESIR_OK)
                        run_kat(&k, &v);
                    aesir_gcm_siv_clear(&k);
                }
            }
            if (s == NULL)
                break;
            memset(&v, 0, sizeof(v));
            have = 1;
            continue;
        }
        if (line[0] == '#' || eq == NULL)
            continue;
        *eq = 0;
        eq += 3;
        if (strcmp(s, "Key") == 0)
            v.klen = unhex(v.key, sizeof(v.key), eq);
        else if (strcmp(s, "IV") == 0)
            unhex(v.nonce, 12, eq);
        else if (strcmp(s, "AAD") == 0)
            v.aad_len = unhex(v.aad, sizeof(v.aad), eq);
        else if (strcmp(s, "Tag") == 0)
            unhex(v.tag, 16, eq);
        else if (strcmp(s, "Plaintext") == 0)
            v.len = unhex(v.pt, sizeof(v.pt), eq);
        else if (strcmp(s, "Ciphertext") == 0)
            unhex(v.ct, sizeof(v.ct), eq);
        else {
            snprintf(where, sizeof(where), "%s: attribute %s", path, s);
            T(!"unknown attribute");
        }
    }
    fclose(f);
    snprintf(where, sizeof(where), "%s", path);
    T(records == 46);
    file_records += records;
}

/* ---------------------------------------------------------------------
 * kernel: the engines' CTR path against the generic code
 * ------------------------------------------------------------------- */

static void ctr_ref(const struct aesir_engine *e, const void *rk, unsigned nr,
                    uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t ks[16];
        uint32_t c;
        e->encrypt(rk, nr, ks, ctr, 1);
        for (int j = 0; j < 16; j++)
            out[16 * i + j] = in[16 * i + j] ^ ks[j];
        c = (uint32_t)ctr[0] | (uint32_t)ctr[1] << 8 | (uint32_t)ctr[2] << 16 |
            (uint32_t)ctr[3] << 24;
        c++;
        ctr[0] = (uint8_t)c, ctr[1] = (uint8_t)(c >> 8);
        ctr[2] = (uint8_t)(c >> 16), ctr[3] = (uint8_t)(c >> 24);
    }
}

static size_t kernels_tested;

static void test_kernel_engine(const struct aesir_engine *e)
{
    static _Alignas(64) uint8_t rk[AESIR_RK_BYTES];
    static uint8_t in[300 * 16], want[300 * 16], got[300 * 16 + 16];
    uint8_t key[32], c1[16], c2[16];

    kernels_tested++;
    for (int t = 0; t < 300; t++) {
        size_t klen = 16 + 8 * below(3), n = 1 + below(t < 200 ? 40 : 300);
        int in_place = below(2);
        fill(key, klen);
        e->setkey_enc(rk, key, klen);
        fill(in, 16 * n);
        fill(c1, 16);
        if (t % 3 == 0) { /* near the wrap */
            uint32_t c = 0xffffffffu - (uint32_t)below(40);
            c1[0] = (uint8_t)c, c1[1] = (uint8_t)(c >> 8);
            c1[2] = (uint8_t)(c >> 16), c1[3] = (uint8_t)(c >> 24);
        }
        memcpy(c2, c1, 16);
        ctr_ref(e, rk, (unsigned)(klen / 4 + 6), c1, want, in, n);
        got[16 * n] = 0x5a;
        if (in_place) {
            memcpy(got, in, 16 * n);
            e->ctr32le(rk, (unsigned)(klen / 4 + 6), c2, got, got, n);
        } else {
            e->ctr32le(rk, (unsigned)(klen / 4 + 6), c2, got, in, n);
        }
        snprintf(where, sizeof(where), "kernel %s: %zu blocks, key %zu",
                 e->name, n, klen);
        T(memcmp(got, want, 16 * n) == 0 && memcmp(c1, c2, 16) == 0 &&
          got[16 * n] == 0x5a);
    }
}

/* A GHASH engine's POLYVAL key set up for calls of at most max blocks
 * (polyval_init_upto) against the full set-up, on every call length up
 * to max, the rest of the key area holding garbage. */
static size_t upto_tested;

static void test_polyval_upto(const struct aesir_ghash_engine *e)
{
    static _Alignas(64) unsigned char hk1[AESIR_GHASH_KEY_BYTES],
        hk2[AESIR_GHASH_KEY_BYTES];
    static const size_t maxes[] = {1, 2,  3,  4,  5,  7,  8,
                                   9, 15, 16, 17, 31, 32, 40};
    uint8_t h[16], in[16 * 40], s1[16], s2[16];

    upto_tested++;
    for (size_t i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
        size_t max = maxes[i];
        fill(h, 16);
        memset(hk1, 0xa5, sizeof(hk1));
        aesir_polyval_init_upto(e, hk1, h, max);
        aesir_polyval_init(e, hk2, h);
        for (size_t n = 1; n <= max; n++) {
            fill(in, 16 * n);
            fill(s1, 16);
            memcpy(s2, s1, 16);
            aesir_polyval(e, hk1, s1, in, n);
            aesir_polyval(e, hk2, s2, in, n);
            snprintf(where, sizeof(where), "polyval_init_upto %s: max %zu, %zu",
                     e->name, max, n);
            T(memcmp(s1, s2, 16) == 0);
        }
    }
}

/* The whole mode with the engine's paths (CTR, fused decryption, the
 * per-nonce keys and the tag in one call each), and without them (the
 * generic code): AES-128, AES-256 and the AES-192 extension, additional
 * data past 32 blocks now and then (the keys' longest POLYVAL call). */
static void test_fast_vs_generic(const struct gcm_pair *p)
{
    static _Alignas(64) uint8_t pt[MAX_MSG], c1[MAX_MSG + 16], c2[MAX_MSG + 16];
    aesir_gcm_siv_key k1, k2;
    uint8_t key[32], nonce[12], aad[700];
    size_t n1, n2;

    for (int t = 0; t < 40; t++) {
        const size_t klens[3] = {16, 24, 32};
        size_t klen = klens[below(3)], len = below(MAX_MSG + 1),
               alen = below(4) == 0 ? below(sizeof(aad) + 1) : below(65);
        struct gcm_siv_key_state *st;
        fill(key, klen);
        fill(nonce, 12);
        fill(aad, alen);
        fill(pt, len);
        if (pair_key(&k1, p, key, klen,
                     klen == 24 ? AESIR_GCM_SIV_AES192 : 0) != AESIR_OK)
            return;
        memcpy(&k2, &k1, sizeof(k1));
        st = (struct gcm_siv_key_state *)(void *)k2.opaque;
        st->ctr = NULL;
        st->fused_dec = NULL;
        st->keys = NULL;
        st->tag = NULL;
        snprintf(where, sizeof(where),
                 "fast vs generic %s x %s, key %zu, len %zu, aad %zu", p->aes,
                 p->ghash, klen, len, alen);
        T(aesir_gcm_siv_seal(&k1, nonce, aad, alen, c1, sizeof(c1), &n1, pt,
                             len) == AESIR_OK);
        T(aesir_gcm_siv_seal(&k2, nonce, aad, alen, c2, sizeof(c2), &n2, pt,
                             len) == AESIR_OK);
        T(n1 == n2 && memcmp(c1, c2, n1) == 0);
        /* open: the generic path out of place, the fast one in place */
        T(aesir_gcm_siv_open(&k2, nonce, aad, alen, c1, sizeof(c1), &n1, c2,
                             n2) == AESIR_OK);
        T(n1 == len && memcmp(c1, pt, len) == 0);
        T(aesir_gcm_siv_open(&k1, nonce, aad, alen, c2, sizeof(c2), &n1, c2,
                             n2) == AESIR_OK);
        T(n1 == len && memcmp(c2, pt, len) == 0);
        /* a flipped ciphertext bit: refused on both */
        if (len > 0) {
            T(aesir_gcm_siv_seal(&k1, nonce, aad, alen, c2, sizeof(c2), &n2, pt,
                                 len) == AESIR_OK);
            c2[len / 2] ^= 4;
            T(aesir_gcm_siv_open(&k1, nonce, aad, alen, c2, sizeof(c2), &n1, c2,
                                 n2) == AESIR_E_AUTH);
            T(all_zero(c2, len));
        }
    }
    aesir_gcm_siv_clear(&k1);
    aesir_gcm_siv_clear(&k2);
}

/* ---------------------------------------------------------------------
 * bad input
 * ------------------------------------------------------------------- */

static void test_flips(const struct gcm_pair *p, int slow)
{
    static _Alignas(64) uint8_t pt[200], sealed[216], tmp[216], out[216];
    aesir_gcm_siv_key k;
    uint8_t key[32], nonce[12], aad[40];
    size_t klen = below(2) ? 16 : 32, len = 1 + below(slow ? 40 : 200),
           alen = below(41), n;

    fill(key, klen);
    fill(nonce, 12);
    fill(aad, alen);
    fill(pt, len);
    if (pair_key(&k, p, key, klen, 0) != AESIR_OK)
        return;
    snprintf(where, sizeof(where), "flips %s x %s, len %zu aad %zu", p->aes,
             p->ghash, len, alen);
    T(aesir_gcm_siv_seal(&k, nonce, aad, alen, sealed, sizeof(sealed), &n, pt,
                         len) == AESIR_OK);
    /* every bit of ciphertext and tag (slow pairs: a stride) */
    for (size_t bit = 0; bit < 8 * (len + 16); bit += slow ? 37 : 1) {
        memcpy(tmp, sealed, len + 16);
        tmp[bit / 8] ^= (uint8_t)(1u << bit % 8);
        memset(out, 0x5a, sizeof(out));
        n = 77;
        T(aesir_gcm_siv_open(&k, nonce, aad, alen, out, sizeof(out), &n, tmp,
                             len + 16) == AESIR_E_AUTH);
        T(n == 0 && all_zero(out, len) && out[len] == 0x5a);
        /* in place, detached */
        T(aesir_gcm_siv_open_detached(&k, nonce, aad, alen, tmp, tmp + len, tmp,
                                      len) == AESIR_E_AUTH);
        T(all_zero(tmp, len));
    }
    for (size_t bit = 0; bit < 8 * alen; bit += slow ? 11 : 1) {
        aad[bit / 8] ^= (uint8_t)(1u << bit % 8);
        T(aesir_gcm_siv_open(&k, nonce, aad, alen, out, sizeof(out), &n, sealed,
                             len + 16) == AESIR_E_AUTH);
        T(n == 0 && all_zero(out, len));
        aad[bit / 8] ^= (uint8_t)(1u << bit % 8);
    }
    for (size_t bit = 0; bit < 96; bit += slow ? 7 : 1) {
        nonce[bit / 8] ^= (uint8_t)(1u << bit % 8);
        T(aesir_gcm_siv_open_detached(&k, nonce, aad, alen, out, sealed + len,
                                      sealed, len) == AESIR_E_AUTH);
        T(all_zero(out, len));
        nonce[bit / 8] ^= (uint8_t)(1u << bit % 8);
    }
    /* AAD moved into the data or the other way: not the same message */
    if (alen > 0)
        T(aesir_gcm_siv_open(&k, nonce, aad, alen - 1, out, sizeof(out), &n,
                             sealed, len + 16) == AESIR_E_AUTH);
    /* truncated: the last byte dropped (the tag then ends one byte early) */
    T(aesir_gcm_siv_open(&k, nonce, aad, alen, out, sizeof(out), &n, sealed,
                         len + 15) == AESIR_E_AUTH);
    /* and the good message still opens */
    T(aesir_gcm_siv_open(&k, nonce, aad, alen, out, sizeof(out), &n, sealed,
                         len + 16) == AESIR_OK &&
      n == len && memcmp(out, pt, len) == 0);
    aesir_gcm_siv_clear(&k);
}

static void test_misuse(void)
{
    _Alignas(16) static uint8_t raw[sizeof(aesir_gcm_siv_key) + 16];
    aesir_gcm_siv_key k, *mis = (aesir_gcm_siv_key *)(void *)(raw + 4);
    uint8_t key[32] = {1}, nonce[12] = {3}, in[64] = {0}, out[96], tag[16];
    size_t n;
    const char *a, *g;

    snprintf(where, sizeof(where), "misuse");
    /* key set-up */
    T(aesir_gcm_siv_init(&k, key, 24) == AESIR_E_KEY_LENGTH);
    T(aesir_gcm_siv_init(&k, key, 0) == AESIR_E_KEY_LENGTH);
    T(aesir_gcm_siv_init(&k, key, 33) == AESIR_E_KEY_LENGTH);
    T(aesir_gcm_siv_init_ex(&k, key, 24, NULL, NULL, AESIR_GCM_SIV_AES192) ==
      AESIR_OK);
    T(aesir_gcm_siv_init_ex(&k, key, 16, NULL, NULL, 2) == AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_init(&k, NULL, 16) == AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_init(NULL, key, 16) == AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_init_ex(&k, key, 16, "no-such", NULL, 0) ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_gcm_siv_init_ex(&k, key, 16, NULL, "no-such", 0) ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_gcm_siv_engines(&k, &a, &g) == AESIR_E_STATE);
    /* a key not set up (cleared by the failed init), misaligned */
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, sizeof(out), &n, in, 16) ==
      AESIR_E_STATE);
    T(aesir_gcm_siv_init(mis, key, 16) == AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_seal(mis, nonce, NULL, 0, out, sizeof(out), &n, in, 16) ==
      AESIR_E_STATE);
    aesir_gcm_siv_clear(mis);
    T(aesir_gcm_siv_init(&k, key, 16) == AESIR_OK);
    T(aesir_gcm_siv_engines(&k, &a, &g) == AESIR_OK && a != NULL && g != NULL);
    T(aesir_gcm_siv_engines(&k, NULL, NULL) == AESIR_OK);
    /* NULL arguments; nothing written on error */
    memset(out, 0x5a, sizeof(out));
    T(aesir_gcm_siv_seal(&k, NULL, NULL, 0, out, sizeof(out), &n, in, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 5, out, sizeof(out), &n, in, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, NULL, sizeof(out), &n, in, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, sizeof(out), NULL, in, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, sizeof(out), &n, NULL, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, 31, &n, in, 16) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, 15, &n, in, 0) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_gcm_siv_seal_detached(&k, nonce, NULL, 0, out, NULL, in, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_open_detached(&k, nonce, NULL, 0, out, NULL, in, 16) ==
      AESIR_E_ARGUMENT);
    T(all_eq(out, 0x5a, sizeof(out)));
    /* empty message with NULL buffers: fine */
    T(aesir_gcm_siv_seal_detached(&k, nonce, NULL, 0, NULL, tag, NULL, 0) ==
      AESIR_OK);
    T(aesir_gcm_siv_open_detached(&k, nonce, NULL, 0, NULL, tag, NULL, 0) ==
      AESIR_OK);
    tag[3] ^= 1;
    T(aesir_gcm_siv_open_detached(&k, nonce, NULL, 0, NULL, tag, NULL, 0) ==
      AESIR_E_AUTH);
    /* truncated input: shorter than a tag */
    for (size_t l = 0; l < 16; l++) {
        n = 9;
        T(aesir_gcm_siv_open(&k, nonce, NULL, 0, out, sizeof(out), &n, in, l) ==
          AESIR_E_INPUT_LENGTH);
        T(n == 0);
    }
    T(aesir_gcm_siv_open(&k, nonce, NULL, 0, out, sizeof(out), NULL, in, 32) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_open(&k, nonce, NULL, 0, out, sizeof(out), &n, NULL, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_siv_open(&k, nonce, NULL, 0, out, 15, &n, in, 32) ==
      AESIR_E_OUTPUT_SIZE);
    T(all_eq(out, 0x5a, sizeof(out)));
    /* limits (RFC 8452 section 6): 2^36 bytes pass the checks, one more is
     * refused before anything is read or written (the buffers are small:
     * a check that let 2^36 through to the data would crash) */
    if (sizeof(size_t) >= 8) {
        uint64_t max = UINT64_C(1) << 36;
        T(aesir_gcm_siv_seal_detached(&k, nonce, NULL, 0, out, tag, in,
                                      (size_t)max + 1) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_siv_seal_detached(&k, nonce, in, (size_t)max + 1, out, tag,
                                      in, 16) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_siv_open_detached(&k, nonce, NULL, 0, out, tag, in,
                                      (size_t)max + 1) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_siv_open(&k, nonce, NULL, 0, out, (size_t)max + 1, &n, in,
                             (size_t)max + 17) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, (size_t)max + 17, &n, in,
                             (size_t)max + 1) == AESIR_E_INPUT_LENGTH);
        /* at the limit the length check passes: the output-size check is
         * next (out_cap too small by one) */
        T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, (size_t)max + 15, &n, in,
                             (size_t)max) == AESIR_E_OUTPUT_SIZE);
        T(aesir_gcm_siv_open(&k, nonce, NULL, 0, out, (size_t)max - 1, &n, in,
                             (size_t)max + 16) == AESIR_E_OUTPUT_SIZE);
        T(all_eq(out, 0x5a, sizeof(out)));
    }
    /* a cleared key */
    aesir_gcm_siv_clear(&k);
    T(aesir_gcm_siv_seal(&k, nonce, NULL, 0, out, sizeof(out), &n, in, 16) ==
      AESIR_E_STATE);
    T(aesir_gcm_siv_open_detached(&k, nonce, NULL, 0, out, tag, in, 16) ==
      AESIR_E_STATE);
    T(all_zero(&k, sizeof(k)));
    aesir_gcm_siv_clear(NULL);
    /* every AES engine name, and every GHASH engine name, is accepted when
     * it is available and refused with AESIR_E_ENGINE_UNAVAILABLE else */
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        int err =
            aesir_gcm_siv_init_ex(&k, key, 16, aesir_engine_name(i), NULL, 0);
        T(err == ((aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)
                      ? AESIR_OK
                      : AESIR_E_ENGINE_UNAVAILABLE));
    }
    aesir_gcm_siv_clear(&k);
}

/* ---------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static struct gcm_pair pairs[MAX_PAIRS];
    size_t npairs = gcm_pairs_list(pairs, MAX_PAIRS);
    char path[4096];

    if (argc < 2) {
        fprintf(stderr, "usage: test_gcm_siv <cryptography_vectors dir>\n");
        return 2;
    }
    if (npairs > MAX_PAIRS)
        npairs = MAX_PAIRS;
    gcm_pairs_print("test_gcm_siv", pairs, npairs);

    test_derive();
    test_misuse();
    for (size_t i = 0; i < npairs; i++) {
        if (!pairs[i].available)
            continue;
        test_rfc(&pairs[i]);
        for (int t = 0; t < (pairs[i].slow ? 1 : 4); t++)
            test_flips(&pairs[i], pairs[i].slow);
        test_fast_vs_generic(&pairs[i]);
    }
    snprintf(path, sizeof(path), "%s/ciphers/AES/GCM-SIV/openssl.txt", argv[1]);
    run_file(path, pairs, npairs, 0);
    snprintf(path, sizeof(path), "%s/ciphers/AES/GCM-SIV/aes-192-gcm-siv.txt",
             argv[1]);
    run_file(path, pairs, npairs, AESIR_GCM_SIV_AES192);
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const struct aesir_engine *e = aesir_engine_at(i);
        if (e != NULL && e->ctr32le != NULL)
            test_kernel_engine(e);
    }
    for (size_t i = 0; i < aesir_ghash_engine_count(); i++) {
        const struct aesir_ghash_engine *e = aesir_ghash_engine_at(i);
        if (e != NULL && e->polyval_init_upto != NULL)
            test_polyval_upto(e);
    }
    printf("test_gcm_siv: %zu vector records, %zu engines with a GCM-SIV CTR "
           "path, %zu GHASH engines with a short POLYVAL key set-up\n",
           file_records, kernels_tested, upto_tested);
    return check_summary();
}
