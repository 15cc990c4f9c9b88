/*
 * test_gcm.c -- GCM and GMAC (src/aead/gcm.c) on every engine pair (AES
 * engine x GHASH engine) this CPU can run; the others are listed as
 * UNAVAILABLE. The NIST CAVP files run in test_vectors.c, the random
 * comparison with OpenSSL in test_gcm_diff.c. Here:
 *
 *   mv        McGrew and Viega, "The Galois/Counter Mode of Operation
 *             (GCM)", appendix B, test cases 1-18 (AES-128/192/256; 96-bit,
 *             64-bit and 480-bit IVs), each through every way in: one-shot
 *             seal/open with the appended tag, out of place and in place;
 *             detached with every tag length 12..16; the incremental API
 *             with the AAD and the data cut at random points (empty pieces
 *             included), in place and out of place; GMAC when P is empty.
 *   ways      the same agreement on random messages (IV 1..80 bytes, AAD
 *             0..300, data 0..700, some up to 4 KiB).
 *   flips     every single-bit flip of tag, ciphertext, AAD and IV of a
 *             random message fails aesir_gcm_open, aesir_gcm_open_detached
 *             (full and 12-byte tag) and the incremental verify with
 *             AESIR_E_AUTH; the one-shot calls leave out zeroed and
 *             *out_len 0.
 *   misuse    calls out of order (AAD after data, encrypt and decrypt mixed,
 *             anything after finish, finish on a decryption, verify on an
 *             encryption) return AESIR_E_STATE and end the message; tag
 *             lengths other than 12..16 are AESIR_E_ARGUMENT, 8 and 4 are
 *             allowed with AESIR_GCM_SHORT_TAGS; IV length 0; NULL
 *             arguments; keys not set up, cleared, cleared under a live
 *             message, misaligned; misaligned contexts; nothing written on
 *             a refused one-shot call.
 *   wrap      inc32 (SP 800-38D 6.2) across 2^32: IVs of 16..60 bytes whose
 *             GHASH-derived J0 ends in 0xfffffff0..0xffffffff, solved for in
 *             GF(2^128) from J0 read in the started state (white box);
 *             the ciphertext equals CTR with a 32-bit counter computed
 *             block by block through ECB, and OpenSSL (tag too).
 *   limits    SP 800-38D 5.2.1.1 at its boundaries, white box: data_len and
 *             aad_len set in a started message just below 2^36 - 32 and
 *             2^61 - 1, the update that reaches the limit passes, one byte
 *             more is AESIR_E_INPUT_LENGTH; the one-shot calls refuse one
 *             byte over before touching the (small) buffers.
 *   gmac      aesir_gmac / aesir_gmac_verify against OpenSSL (GCM with no
 *             data) and against aesir_gcm_seal_detached.
 *
 * Slow pairs (ref, ref-otf, ghash-ref) run fewer random messages (printed).
 * AESIR_GCM_SEED repeats a run; the last line is "N passed, M failed".
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "check.h"
#include "gcm.h"
#include "gcm_pairs.h"

#ifdef AESIR_TEST_OPENSSL
#include "gcm_evp.h"
#endif

#define MAX_PAIRS 512
#define MAX_REPORTS 60
#define MAX_MSG 4096

/* The pair or check under way, for failure messages. */
static char where[160];
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

/* ---------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void) /* splitmix64 */
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

static void *xmalloc(size_t n)
{
    void *p = malloc(n != 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "test_gcm: out of memory\n");
        exit(1);
    }
    return p;
}

static size_t unhex(uint8_t *out, const char *h)
{
    size_t n = strlen(h) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(h + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}

static aesir_gcm_key key_g, key_short;

static int set_key(aesir_gcm_key *k, const struct gcm_pair *p,
                   const uint8_t *key, size_t klen, unsigned options)
{
    return aesir_gcm_init_ex(k, key, klen, p->aes, p->ghash, options);
}

/* The length of the next piece of a random split: sometimes empty (at most
 * twice per message), else 1 byte, up to 17, up to 300 or all the rest. */
static size_t piece(size_t left, unsigned *empties)
{
    static const size_t bounds[4] = {1, 17, 300, SIZE_MAX};
    size_t b = bounds[below(4)];
    if (*empties < 2 && below(6) == 0) {
        (*empties)++;
        return 0;
    }
    if (left == 0)
        return 0;
    return 1 + below(b < left ? b : left);
}

/* One message through the incremental API, AAD and data cut at random
 * points; enc: the tag from aesir_gcm_finish, else aesir_gcm_verify's
 * verdict on it. out may equal in. */
static int incremental(const aesir_gcm_key *k, int enc, const uint8_t *iv,
                       size_t iv_len, const uint8_t *aad, size_t aad_len,
                       uint8_t *out, const uint8_t *in, size_t len,
                       uint8_t *tag, size_t tag_len)
{
    aesir_gcm ctx;
    unsigned empties = 0;
    size_t off, n;
    int err;

    if ((err = aesir_gcm_start(&ctx, k, iv, iv_len)) != AESIR_OK)
        return err;
    if (below(4) == 0 && (err = aesir_gcm_aad(&ctx, NULL, 0)) != AESIR_OK)
        return err;
    for (off = 0; off < aad_len; off += n) {
        n = piece(aad_len - off, &empties);
        if ((err = aesir_gcm_aad(&ctx, aad + off, n)) != AESIR_OK)
            return err;
    }
    empties = 0;
    for (off = 0; off < len; off += n) {
        n = piece(len - off, &empties);
        err = enc ? aesir_gcm_encrypt_update(&ctx, out + off, in + off, n)
                  : aesir_gcm_decrypt_update_unverified(&ctx, out + off,
                                                        in + off, n);
        if (err != AESIR_OK)
            return err;
    }
    return enc ? aesir_gcm_finish(&ctx, tag, tag_len)
               : aesir_gcm_verify(&ctx, tag, tag_len);
}

/* ---------------------------------------------------------------------
 * Every way in must agree: pt, ct (len bytes) and tag (16) under k.
 * ------------------------------------------------------------------- */

static void all_ways(const aesir_gcm_key *k, const uint8_t *iv, size_t iv_len,
                     const uint8_t *aad, size_t aad_len, const uint8_t *pt,
                     const uint8_t *ct, size_t len, const uint8_t tag[16])
{
    uint8_t *out = xmalloc(len + 16), *buf = xmalloc(len + 16);
    uint8_t *dout = xmalloc(len), t[16];
    size_t out_len;

    /* appended tag, out of place and in place */
    out_len = 0;
    T(aesir_gcm_seal(k, iv, iv_len, aad, aad_len, out, len + 16, &out_len, pt,
                     len) == AESIR_OK);
    T(out_len == len + 16 && memcmp(out, ct, len) == 0 &&
      memcmp(out + len, tag, 16) == 0);
    memcpy(buf, pt, len);
    T(aesir_gcm_seal(k, iv, iv_len, aad, aad_len, buf, len + 16, &out_len, buf,
                     len) == AESIR_OK);
    T(out_len == len + 16 && memcmp(buf, ct, len) == 0 &&
      memcmp(buf + len, tag, 16) == 0);
    memset(dout, 0xa5, len);
    T(aesir_gcm_open(k, iv, iv_len, aad, aad_len, dout, len, &out_len, buf,
                     len + 16) == AESIR_OK);
    T(out_len == len && memcmp(dout, pt, len) == 0);
    T(aesir_gcm_open(k, iv, iv_len, aad, aad_len, buf, len + 16, &out_len, buf,
                     len + 16) == AESIR_OK);
    T(out_len == len && memcmp(buf, pt, len) == 0);

    /* detached, every tag length 12..16 */
    for (size_t tl = 12; tl <= 16; tl++) {
        memset(t, 0, sizeof(t));
        T(aesir_gcm_seal_detached(k, iv, iv_len, aad, aad_len, dout, t, tl, pt,
                                  len) == AESIR_OK);
        T(memcmp(dout, ct, len) == 0 && memcmp(t, tag, tl) == 0 &&
          all_zero(t + tl, 16 - tl));
        memset(dout, 0xa5, len);
        T(aesir_gcm_open_detached(k, iv, iv_len, aad, aad_len, dout, tag, tl,
                                  ct, len) == AESIR_OK);
        T(memcmp(dout, pt, len) == 0);
    }

    /* incremental, random splits, out of place and in place */
    for (int rep = 0; rep < 2; rep++) {
        size_t tl = 12 + below(5);
        memset(t, 0, sizeof(t));
        memset(dout, 0xa5, len);
        T(incremental(k, 1, iv, iv_len, aad, aad_len, dout, pt, len, t, tl) ==
          AESIR_OK);
        T(memcmp(dout, ct, len) == 0 && memcmp(t, tag, tl) == 0);
        memcpy(buf, pt, len);
        T(incremental(k, 1, iv, iv_len, aad, aad_len, buf, buf, len, t, 16) ==
          AESIR_OK);
        T(memcmp(buf, ct, len) == 0 && memcmp(t, tag, 16) == 0);
        T(incremental(k, 0, iv, iv_len, aad, aad_len, dout, ct, len,
                      (uint8_t *)tag, tl) == AESIR_OK);
        T(memcmp(dout, pt, len) == 0);
        T(incremental(k, 0, iv, iv_len, aad, aad_len, buf, buf, len,
                      (uint8_t *)tag, 16) == AESIR_OK);
        T(memcmp(buf, pt, len) == 0);
    }

    /* GMAC is GCM without data */
    if (len == 0) {
        T(aesir_gmac(k, iv, iv_len, aad, aad_len, t, 16) == AESIR_OK);
        T(memcmp(t, tag, 16) == 0);
        T(aesir_gmac_verify(k, iv, iv_len, aad, aad_len, tag, 16) == AESIR_OK);
    }
    free(out);
    free(buf);
    free(dout);
}

/* ---------------------------------------------------------------------
 * McGrew and Viega, appendix B
 * ------------------------------------------------------------------- */

static const char mv_k1[] = "feffe9928665731c6d6a8f9467308308";
static const char mv_k2[] = "feffe9928665731c6d6a8f9467308308feffe9928665731c";
static const char mv_k3[] =
    "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308";
static const char mv_p64[] =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
static const char mv_p60[] =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
static const char mv_a[] = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
static const char mv_iv96[] = "cafebabefacedbaddecaf888";
static const char mv_iv64[] = "cafebabefacedbad";
static const char mv_iv480[] =
    "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
    "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b";
static const char z12[] = "000000000000000000000000";
static const char z16[] = "00000000000000000000000000000000";
static const char z24[] = "000000000000000000000000000000000000000000000000";
static const char z32[] =
    "0000000000000000000000000000000000000000000000000000000000000000";

static const struct mv_case {
    const char *key, *iv, *aad, *pt, *ct, *tag;
} mv_cases[18] = {
    /* 1 */ {z16, z12, "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
    /* 2 */
    {z16, z12, "", z16, "0388dace60b6a392f328c2b971b2fe78",
     "ab6e47d42cec13bdf53a67b21257bddf"},
    /* 3 */
    {mv_k1, mv_iv96, "", mv_p64,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
     "4d5c2af327cd64a62cf35abd2ba6fab4"},
    /* 4 */
    {mv_k1, mv_iv96, mv_a, mv_p60,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    /* 5 */
    {mv_k1, mv_iv64, mv_a, mv_p60,
     "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
     "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
     "3612d2e79e3b0785561be14aaca2fccb"},
    /* 6 */
    {mv_k1, mv_iv480, mv_a, mv_p60,
     "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
     "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
     "619cc5aefffe0bfa462af43c1699d050"},
    /* 7 */ {z24, z12, "", "", "", "cd33b28ac773f74ba00ed1f312572435"},
    /* 8 */
    {z24, z12, "", z16, "98e7247c07f0fe411c267e4384b0f600",
     "2ff58d80033927ab8ef4d4587514f0fb"},
    /* 9 */
    {mv_k2, mv_iv96, "", mv_p64,
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
     "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
     "9924a7c8587336bfb118024db8674a14"},
    /* 10 */
    {mv_k2, mv_iv96, mv_a, mv_p60,
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
     "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
     "2519498e80f1478f37ba55bd6d27618c"},
    /* 11 */
    {mv_k2, mv_iv64, mv_a, mv_p60,
     "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
     "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
     "65dcc57fcf623a24094fcca40d3533f8"},
    /* 12 */
    {mv_k2, mv_iv480, mv_a, mv_p60,
     "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
     "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
     "dcf566ff291c25bbb8568fc3d376a6d9"},
    /* 13 */ {z32, z12, "", "", "", "530f8afbc74536b9a963b4f1c4cb738b"},
    /* 14 */
    {z32, z12, "", z16, "cea7403d4d606b6e074ec5d3baf39d18",
     "d0d1c8a799996bf0265b98b5d48ab919"},
    /* 15 */
    {mv_k3, mv_iv96, "", mv_p64,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
     "b094dac5d93471bdec1a502270e3cc6c"},
    /* 16 */
    {mv_k3, mv_iv96, mv_a, mv_p60,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
     "76fc6ece0f4e1768cddf8853bb2d551b"},
    /* 17 */
    {mv_k3, mv_iv64, mv_a, mv_p60,
     "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
     "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
     "3a337dbf46a792c45e454913fe2ea8f2"},
    /* 18 */
    {mv_k3, mv_iv480, mv_a, mv_p60,
     "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
     "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
     "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"},
};

static void test_mv(const struct gcm_pair *p)
{
    for (size_t i = 0; i < 18; i++) {
        const struct mv_case *c = &mv_cases[i];
        uint8_t key[32], iv[64], aad[32], pt[64], ct[64], tag[16], bad[16];
        uint8_t out[64];
        size_t klen = unhex(key, c->key), iv_len = unhex(iv, c->iv);
        size_t aad_len = unhex(aad, c->aad), len = unhex(pt, c->pt), out_len;

        snprintf(where, sizeof(where), "%s x %s, GCM test case %zu", p->aes,
                 p->ghash, i + 1);
        T(unhex(ct, c->ct) == len && unhex(tag, c->tag) == 16);
        T(set_key(&key_g, p, key, klen, 0) == AESIR_OK);
        all_ways(&key_g, iv, iv_len, aad, aad_len, pt, ct, len, tag);
        memcpy(bad, tag, 16);
        bad[15] ^= 1;
        T(aesir_gcm_open_detached(&key_g, iv, iv_len, aad, aad_len, out, bad,
                                  16, ct, len) == AESIR_E_AUTH);
        T(all_zero(out, len));
        (void)out_len;
    }
}

/* ---------------------------------------------------------------------
 * Random messages: every way agrees
 * ------------------------------------------------------------------- */

static void random_message(uint8_t *key, size_t *klen, uint8_t *iv,
                           size_t *iv_len, size_t max_iv)
{
    *klen = 16 + 8 * below(3);
    fill(key, *klen);
    *iv_len = below(2) ? 12 : 1 + below(max_iv);
    fill(iv, *iv_len);
}

static void test_ways(const struct gcm_pair *p, size_t n)
{
    uint8_t key[32], iv[80], tag[16];
    uint8_t *aad = xmalloc(300), *pt = xmalloc(MAX_MSG), *ct = xmalloc(MAX_MSG);

    snprintf(where, sizeof(where), "%s x %s, random messages", p->aes,
             p->ghash);
    for (size_t i = 0; i < n; i++) {
        size_t klen, iv_len, aad_len = below(301);
        size_t len = below(8) == 0 ? below(MAX_MSG + 1) : below(701);
        random_message(key, &klen, iv, &iv_len, sizeof(iv));
        fill(aad, aad_len);
        fill(pt, len);
        T(set_key(&key_g, p, key, klen, 0) == AESIR_OK);
        T(aesir_gcm_seal_detached(&key_g, iv, iv_len, aad, aad_len, ct, tag, 16,
                                  pt, len) == AESIR_OK);
        all_ways(&key_g, iv, iv_len, aad, aad_len, pt, ct, len, tag);
    }
    free(aad);
    free(pt);
    free(ct);
}

/* ---------------------------------------------------------------------
 * Bit flips
 * ------------------------------------------------------------------- */

/* Opens (iv, aad, sealed) three ways; each must say AESIR_E_AUTH and leave
 * no plaintext. sealed is ct || tag (len + 16 bytes). */
static void open_must_fail(const aesir_gcm_key *k, const uint8_t *iv,
                           size_t iv_len, const uint8_t *aad, size_t aad_len,
                           const uint8_t *sealed, size_t len, int tag_flip_bit)
{
    uint8_t *out = xmalloc(len);
    size_t out_len = 777;

    memset(out, 0xa5, len);
    T(aesir_gcm_open(k, iv, iv_len, aad, aad_len, out, len, &out_len, sealed,
                     len + 16) == AESIR_E_AUTH);
    T(out_len == 0 && all_zero(out, len));
    memset(out, 0xa5, len);
    T(aesir_gcm_open_detached(k, iv, iv_len, aad, aad_len, out, sealed + len,
                              16, sealed, len) == AESIR_E_AUTH);
    T(all_zero(out, len));
    /* a 12-byte tag does not see a flip in its last 4 bytes */
    if (tag_flip_bit < 96) {
        memset(out, 0xa5, len);
        T(aesir_gcm_open_detached(k, iv, iv_len, aad, aad_len, out,
                                  sealed + len, 12, sealed,
                                  len) == AESIR_E_AUTH);
        T(all_zero(out, len));
    }
    T(incremental(k, 0, iv, iv_len, aad, aad_len, out, sealed, len,
                  (uint8_t *)sealed + len, 16) == AESIR_E_AUTH);
    free(out);
}

static void test_flips(const struct gcm_pair *p, size_t messages)
{
    uint8_t key[32], iv[24], aad[40], *sealed, *pt;
    size_t klen, iv_len, out_len;

    snprintf(where, sizeof(where), "%s x %s, bit flips", p->aes, p->ghash);
    for (size_t m = 0; m < messages; m++) {
        size_t aad_len = below(41), len = below(49);
        random_message(key, &klen, iv, &iv_len, sizeof(iv));
        if (m == 0) /* one 96-bit IV, one of another length */
            iv_len = 12;
        else if (iv_len == 12)
            iv_len = 13;
        fill(aad, aad_len);
        pt = xmalloc(len);
        sealed = xmalloc(len + 16);
        fill(pt, len);
        T(set_key(&key_g, p, key, klen, 0) == AESIR_OK);
        T(aesir_gcm_seal(&key_g, iv, iv_len, aad, aad_len, sealed, len + 16,
                         &out_len, pt, len) == AESIR_OK);
        for (size_t b = 0; b < 8 * (len + 16); b++) { /* ciphertext, tag */
            sealed[b / 8] ^= (uint8_t)(1u << (b % 8));
            open_must_fail(&key_g, iv, iv_len, aad, aad_len, sealed, len,
                           b >= 8 * len ? (int)(b - 8 * len) : -1);
            sealed[b / 8] ^= (uint8_t)(1u << (b % 8));
        }
        for (size_t b = 0; b < 8 * aad_len; b++) {
            aad[b / 8] ^= (uint8_t)(1u << (b % 8));
            open_must_fail(&key_g, iv, iv_len, aad, aad_len, sealed, len, -1);
            aad[b / 8] ^= (uint8_t)(1u << (b % 8));
        }
        for (size_t b = 0; b < 8 * iv_len; b++) {
            iv[b / 8] ^= (uint8_t)(1u << (b % 8));
            open_must_fail(&key_g, iv, iv_len, aad, aad_len, sealed, len, -1);
            iv[b / 8] ^= (uint8_t)(1u << (b % 8));
        }
        /* and unflipped it opens */
        T(aesir_gcm_open(&key_g, iv, iv_len, aad, aad_len, sealed, len + 16,
                         &out_len, sealed, len + 16) == AESIR_OK);
        T(out_len == len && memcmp(sealed, pt, len) == 0);
        free(pt);
        free(sealed);
    }
}

/* ---------------------------------------------------------------------
 * Misuse
 * ------------------------------------------------------------------- */

/* A started message on key_g with a 12-byte IV. */
static void start_msg(aesir_gcm *ctx)
{
    static const uint8_t iv[12] = {1, 2, 3};
    T(aesir_gcm_start(ctx, &key_g, iv, sizeof(iv)) == AESIR_OK);
}

/* ctx has ended: every call is AESIR_E_STATE. */
static void ended(aesir_gcm *ctx)
{
    uint8_t b[16] = {0}, tag[16] = {0};
    T(aesir_gcm_aad(ctx, b, 1) == AESIR_E_STATE);
    T(aesir_gcm_encrypt_update(ctx, b, b, 1) == AESIR_E_STATE);
    T(aesir_gcm_decrypt_update_unverified(ctx, b, b, 1) == AESIR_E_STATE);
    T(aesir_gcm_finish(ctx, tag, 16) == AESIR_E_STATE);
    T(aesir_gcm_verify(ctx, tag, 16) == AESIR_E_STATE);
}

static void test_order(void)
{
    aesir_gcm ctx;
    uint8_t b[32] = {0}, tag[16];

    /* AAD after data (also after an empty update, which starts the data) */
    start_msg(&ctx);
    T(aesir_gcm_aad(&ctx, b, 3) == AESIR_OK);
    T(aesir_gcm_encrypt_update(&ctx, b, b, 5) == AESIR_OK);
    T(aesir_gcm_aad(&ctx, b, 1) == AESIR_E_STATE);
    T(all_zero(ctx.opaque, sizeof(ctx.opaque))); /* the error wiped it */
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_decrypt_update_unverified(&ctx, b, b, 0) == AESIR_OK);
    T(aesir_gcm_aad(&ctx, b, 1) == AESIR_E_STATE);
    ended(&ctx);
    /* encrypt after decrypt and the reverse */
    start_msg(&ctx);
    T(aesir_gcm_decrypt_update_unverified(&ctx, b, b, 4) == AESIR_OK);
    T(aesir_gcm_encrypt_update(&ctx, b, b, 4) == AESIR_E_STATE);
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_encrypt_update(&ctx, b, b, 4) == AESIR_OK);
    T(aesir_gcm_decrypt_update_unverified(&ctx, b, b, 4) == AESIR_E_STATE);
    ended(&ctx);
    /* after finish, after verify */
    start_msg(&ctx);
    T(aesir_gcm_encrypt_update(&ctx, b, b, 17) == AESIR_OK);
    T(aesir_gcm_finish(&ctx, tag, 16) == AESIR_OK);
    T(all_zero(ctx.opaque, sizeof(ctx.opaque)));
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_decrypt_update_unverified(&ctx, b, b, 17) == AESIR_OK);
    tag[0] ^= 1; /* (the tag of what was just encrypted, in place) */
    T(aesir_gcm_verify(&ctx, tag, 16) == AESIR_E_AUTH);
    T(all_zero(ctx.opaque, sizeof(ctx.opaque)));
    ended(&ctx);
    /* finish on a decryption, verify on an encryption */
    start_msg(&ctx);
    T(aesir_gcm_decrypt_update_unverified(&ctx, b, b, 3) == AESIR_OK);
    T(aesir_gcm_finish(&ctx, tag, 16) == AESIR_E_STATE);
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_encrypt_update(&ctx, b, b, 3) == AESIR_OK);
    T(aesir_gcm_verify(&ctx, tag, 16) == AESIR_E_STATE);
    ended(&ctx);
    /* abort ends it; a never-started (zeroed) context is not live */
    start_msg(&ctx);
    aesir_gcm_abort(&ctx);
    T(all_zero(ctx.opaque, sizeof(ctx.opaque)));
    ended(&ctx);
    memset(&ctx, 0, sizeof(ctx));
    ended(&ctx);
    aesir_gcm_abort(NULL);
}

/* Tag lengths: 12..16 always, 8 and 4 only with AESIR_GCM_SHORT_TAGS. */
static void test_tag_lengths(void)
{
    static const size_t bad[] = {0, 3, 5, 6, 7, 9, 10, 11, 17, 32};
    static const uint8_t iv[12] = {9};
    uint8_t msg[20] = {1}, out[20], tag[32], full[16];
    aesir_gcm ctx;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const aesir_gcm_key *keys[2] = {&key_g, &key_short};
        for (int s = 0; s < 2; s++) {
            const aesir_gcm_key *k = keys[s];
            memset(out, 0x5a, sizeof(out));
            memset(tag, 0x5a, sizeof(tag));
            T(aesir_gcm_seal_detached(k, iv, 12, msg, 3, out, tag, bad[i], msg,
                                      sizeof(msg)) == AESIR_E_ARGUMENT);
            T(all_eq(out, 0x5a, sizeof(out)) && all_eq(tag, 0x5a, 32));
            T(aesir_gcm_open_detached(k, iv, 12, msg, 3, out, tag, bad[i], msg,
                                      sizeof(msg)) == AESIR_E_ARGUMENT);
            T(all_eq(out, 0x5a, sizeof(out)));
            T(aesir_gmac(k, iv, 12, msg, 3, tag, bad[i]) == AESIR_E_ARGUMENT);
            T(all_eq(tag, 0x5a, 32));
            T(aesir_gmac_verify(k, iv, 12, msg, 3, tag, bad[i]) ==
              AESIR_E_ARGUMENT);
            T(aesir_gcm_start(&ctx, k, iv, 12) == AESIR_OK);
            T(aesir_gcm_finish(&ctx, tag, bad[i]) == AESIR_E_ARGUMENT);
            T(all_eq(tag, 0x5a, 32));
            ended(&ctx);
            T(aesir_gcm_start(&ctx, k, iv, 12) == AESIR_OK);
            T(aesir_gcm_verify(&ctx, tag, bad[i]) == AESIR_E_ARGUMENT);
            ended(&ctx);
        }
    }
    T(aesir_gcm_seal_detached(&key_g, iv, 12, msg, 3, out, full, 16, msg,
                              sizeof(msg)) == AESIR_OK);
    for (size_t tl = 4; tl <= 8; tl += 4) {
        /* refused without the option */
        T(aesir_gcm_seal_detached(&key_g, iv, 12, msg, 3, out, tag, tl, msg,
                                  sizeof(msg)) == AESIR_E_ARGUMENT);
        T(aesir_gcm_open_detached(&key_g, iv, 12, msg, 3, out, full, tl, out,
                                  sizeof(msg)) == AESIR_E_ARGUMENT);
        T(aesir_gmac(&key_g, iv, 12, msg, 3, tag, tl) == AESIR_E_ARGUMENT);
        T(aesir_gcm_start(&ctx, &key_g, iv, 12) == AESIR_OK);
        T(aesir_gcm_finish(&ctx, tag, tl) == AESIR_E_ARGUMENT);
        /* accepted with it: the prefix of the full tag */
        memset(tag, 0x5a, sizeof(tag));
        T(aesir_gcm_seal_detached(&key_short, iv, 12, msg, 3, out, tag, tl, msg,
                                  sizeof(msg)) == AESIR_OK);
        T(memcmp(tag, full, tl) == 0 && all_eq(tag + tl, 0x5a, 32 - tl));
        T(aesir_gcm_open_detached(&key_short, iv, 12, msg, 3, out, full, tl,
                                  out, sizeof(msg)) == AESIR_OK);
        T(memcmp(out, msg, sizeof(msg)) == 0);
        T(aesir_gcm_seal_detached(&key_short, iv, 12, msg, 3, out, tag, 16, msg,
                                  sizeof(msg)) == AESIR_OK);
        tag[tl - 1] ^= 0x80;
        T(aesir_gcm_open_detached(&key_short, iv, 12, msg, 3, out, tag, tl, out,
                                  sizeof(msg)) == AESIR_E_AUTH);
        T(all_zero(out, sizeof(out)));
        T(aesir_gcm_start(&ctx, &key_short, iv, 12) == AESIR_OK);
        T(aesir_gcm_aad(&ctx, msg, 3) == AESIR_OK);
        T(aesir_gcm_encrypt_update(&ctx, out, msg, sizeof(msg)) == AESIR_OK);
        T(aesir_gcm_finish(&ctx, tag, tl) == AESIR_OK);
        T(memcmp(tag, full, tl) == 0);
        T(aesir_gcm_start(&ctx, &key_short, iv, 12) == AESIR_OK);
        T(aesir_gcm_aad(&ctx, msg, 3) == AESIR_OK);
        T(aesir_gcm_decrypt_update_unverified(&ctx, out, out, sizeof(msg)) ==
          AESIR_OK);
        T(aesir_gcm_verify(&ctx, full, tl) == AESIR_OK);
        T(aesir_gmac(&key_short, iv, 12, msg, 3, tag, tl) == AESIR_OK);
        T(aesir_gmac_verify(&key_short, iv, 12, msg, 3, tag, tl) == AESIR_OK);
    }
}

/* NULL arguments, IV length 0, buffers too small: the error, and nothing
 * written. */
static void test_arguments(const struct gcm_pair *p)
{
    static const uint8_t iv[12] = {7}, k16[16] = {1};
    uint8_t in[56] = {3}, out[64], tag[16];
    size_t out_len;
    aesir_gcm ctx;
    aesir_gcm_key *kk = &key_g;

    /* key set-up */
    T(aesir_gcm_init_ex(NULL, k16, 16, p->aes, p->ghash, 0) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_init_ex(kk, NULL, 16, p->aes, p->ghash, 0) == AESIR_E_ARGUMENT);
    T(all_zero(kk->opaque, sizeof(kk->opaque))); /* cleared on error */
    T(aesir_gcm_init_ex(kk, k16, 16, p->aes, p->ghash, 2) == AESIR_E_ARGUMENT);
    T(aesir_gcm_init_ex(kk, k16, 17, p->aes, p->ghash, 0) ==
      AESIR_E_KEY_LENGTH);
    T(aesir_gcm_init_ex(kk, k16, 16, "bogus", p->ghash, 0) ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_gcm_init_ex(kk, k16, 16, p->aes, "ghash-bogus", 0) ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_gcm_engines(kk, NULL, NULL) == AESIR_E_STATE);
    T(aesir_gcm_init_ex(kk, k16, 16, p->aes, p->ghash, 0) == AESIR_OK);
    {
        const char *a = NULL, *g = NULL;
        T(aesir_gcm_engines(kk, &a, &g) == AESIR_OK);
        T(a != NULL && g != NULL && strcmp(a, p->aes) == 0 &&
          strcmp(g, p->ghash) == 0);
        T(aesir_gcm_engines(kk, NULL, NULL) == AESIR_OK);
        T(aesir_gcm_engines(NULL, &a, &g) == AESIR_E_STATE);
    }

    /* one-shot: NULLs, IV length 0, sizes */
    memset(out, 0x5a, sizeof(out));
    T(aesir_gcm_seal(NULL, iv, 12, NULL, 0, out, 64, &out_len, in, 40) ==
      AESIR_E_STATE);
    T(aesir_gcm_seal(kk, NULL, 12, NULL, 0, out, 64, &out_len, in, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal(kk, iv, 12, NULL, 1, out, 64, &out_len, in, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, NULL, 64, &out_len, in, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, NULL, 64, &out_len, NULL, 0) ==
      AESIR_E_ARGUMENT); /* the tag still needs out */
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, out, 64, &out_len, NULL, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, out, 64, NULL, in, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal(kk, iv, 0, NULL, 0, out, 64, &out_len, in, 40) ==
      AESIR_E_IV_LENGTH);
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, out, 55, &out_len, in, 40) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, out, 15, &out_len, NULL, 0) ==
      AESIR_E_OUTPUT_SIZE);
    T(all_eq(out, 0x5a, sizeof(out)));
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, out, 16, &out_len, NULL, 0) ==
      AESIR_OK);
    T(out_len == 16);
    T(aesir_gcm_seal(kk, iv, 12, NULL, 0, out, 56, &out_len, in, 40) ==
      AESIR_OK);
    memcpy(in, out, 56); /* in: 40 bytes of ciphertext and the tag */
    memset(out, 0x5a, sizeof(out));
    out_len = 99;
    T(aesir_gcm_open(kk, iv, 12, NULL, 0, out, 64, NULL, in, 56) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_open(NULL, iv, 12, NULL, 0, out, 64, &out_len, in, 56) ==
      AESIR_E_STATE);
    T(out_len == 0);
    out_len = 99;
    T(aesir_gcm_open(kk, NULL, 12, NULL, 0, out, 64, &out_len, in, 56) ==
      AESIR_E_ARGUMENT);
    T(out_len == 0);
    T(aesir_gcm_open(kk, iv, 12, NULL, 5, out, 64, &out_len, in, 56) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_open(kk, iv, 12, NULL, 0, NULL, 64, &out_len, in, 56) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_open(kk, iv, 12, NULL, 0, out, 64, &out_len, NULL, 56) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_open(kk, iv, 0, NULL, 0, out, 64, &out_len, in, 56) ==
      AESIR_E_IV_LENGTH);
    T(aesir_gcm_open(kk, iv, 12, NULL, 0, out, 64, &out_len, in, 15) ==
      AESIR_E_INPUT_LENGTH);
    T(aesir_gcm_open(kk, iv, 12, NULL, 0, out, 39, &out_len, in, 56) ==
      AESIR_E_OUTPUT_SIZE);
    T(out_len == 0 && all_eq(out, 0x5a, sizeof(out)));
    T(aesir_gcm_open(kk, iv, 12, NULL, 0, out, 40, &out_len, in, 56) ==
      AESIR_OK);
    T(out_len == 40);
    memset(out, 0x5a, sizeof(out));
    memset(tag, 0x5a, sizeof(tag));
    T(aesir_gcm_seal_detached(kk, NULL, 12, NULL, 0, out, tag, 16, in, 8) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal_detached(kk, iv, 12, NULL, 0, out, NULL, 16, in, 8) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal_detached(kk, iv, 12, NULL, 0, NULL, tag, 16, in, 8) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_seal_detached(kk, iv, 0, NULL, 0, out, tag, 16, in, 8) ==
      AESIR_E_IV_LENGTH);
    T(aesir_gcm_open_detached(kk, iv, 12, NULL, 0, out, NULL, 16, in, 8) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_open_detached(kk, iv, 12, NULL, 0, out, tag, 16, NULL, 8) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_open_detached(kk, iv, 0, NULL, 0, out, tag, 16, in, 8) ==
      AESIR_E_IV_LENGTH);
    T(aesir_gmac(kk, iv, 0, in, 8, tag, 16) == AESIR_E_IV_LENGTH);
    T(aesir_gmac(kk, iv, 12, NULL, 8, tag, 16) == AESIR_E_ARGUMENT);
    T(aesir_gmac(kk, iv, 12, in, 8, NULL, 16) == AESIR_E_ARGUMENT);
    T(aesir_gmac_verify(kk, iv, 0, in, 8, tag, 16) == AESIR_E_IV_LENGTH);
    T(aesir_gmac_verify(kk, iv, 12, in, 8, NULL, 16) == AESIR_E_ARGUMENT);
    T(all_eq(out, 0x5a, sizeof(out)) && all_eq(tag, 0x5a, sizeof(tag)));
    T(aesir_gmac(kk, iv, 12, NULL, 0, tag, 16) == AESIR_OK);

    /* incremental: NULLs and IV length 0 */
    T(aesir_gcm_start(NULL, kk, iv, 12) == AESIR_E_ARGUMENT);
    T(aesir_gcm_start(&ctx, NULL, iv, 12) == AESIR_E_STATE);
    T(aesir_gcm_start(&ctx, kk, NULL, 12) == AESIR_E_ARGUMENT);
    T(aesir_gcm_start(&ctx, kk, iv, 0) == AESIR_E_IV_LENGTH);
    ended(&ctx);
    T(aesir_gcm_aad(NULL, in, 1) == AESIR_E_ARGUMENT);
    T(aesir_gcm_encrypt_update(NULL, out, in, 1) == AESIR_E_ARGUMENT);
    T(aesir_gcm_decrypt_update_unverified(NULL, out, in, 1) ==
      AESIR_E_ARGUMENT);
    T(aesir_gcm_finish(NULL, tag, 16) == AESIR_E_ARGUMENT);
    T(aesir_gcm_verify(NULL, tag, 16) == AESIR_E_ARGUMENT);
    start_msg(&ctx);
    T(aesir_gcm_aad(&ctx, NULL, 1) == AESIR_E_ARGUMENT);
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_encrypt_update(&ctx, NULL, in, 1) == AESIR_E_ARGUMENT);
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_encrypt_update(&ctx, NULL, NULL, 0) == AESIR_OK);
    T(aesir_gcm_encrypt_update(&ctx, out, NULL, 1) == AESIR_E_ARGUMENT);
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_decrypt_update_unverified(&ctx, out, NULL, 1) ==
      AESIR_E_ARGUMENT);
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_finish(&ctx, NULL, 16) == AESIR_E_ARGUMENT);
    ended(&ctx);
    start_msg(&ctx);
    T(aesir_gcm_verify(&ctx, NULL, 16) == AESIR_E_ARGUMENT);
    ended(&ctx);
}

/* Keys not set up, cleared (also under a live message), misaligned;
 * misaligned contexts. */
static void test_key_state(const struct gcm_pair *p)
{
    static const uint8_t iv[12] = {5}, k16[16] = {6};
    static unsigned char raw[sizeof(aesir_gcm_key) + 64];
    static unsigned char rawctx[sizeof(aesir_gcm) + 64];
    uint8_t in[20] = {0}, out[36], tag[16] = {0};
    size_t out_len;
    aesir_gcm ctx;
    /* 4 past a 16-byte boundary: misaligned wherever contexts need 8
     * (32-bit PowerPC) or 16 bytes */
    aesir_gcm_key *mis =
        (aesir_gcm_key *)(void *)(raw + 4 + (16 - (uintptr_t)raw % 16));
    aesir_gcm *misctx =
        (aesir_gcm *)(void *)(rawctx + 4 + (16 - (uintptr_t)rawctx % 16));

    /* never set up, cleared */
    memset(&key_g, 0, sizeof(key_g));
    for (int round = 0; round < 2; round++) {
        T(aesir_gcm_seal(&key_g, iv, 12, NULL, 0, out, 36, &out_len, in, 20) ==
          AESIR_E_STATE);
        T(aesir_gcm_open(&key_g, iv, 12, NULL, 0, out, 36, &out_len, out, 36) ==
          AESIR_E_STATE);
        T(aesir_gcm_seal_detached(&key_g, iv, 12, NULL, 0, out, tag, 16, in,
                                  20) == AESIR_E_STATE);
        T(aesir_gcm_open_detached(&key_g, iv, 12, NULL, 0, out, tag, 16, in,
                                  20) == AESIR_E_STATE);
        T(aesir_gmac(&key_g, iv, 12, in, 3, tag, 16) == AESIR_E_STATE);
        T(aesir_gmac_verify(&key_g, iv, 12, in, 3, tag, 16) == AESIR_E_STATE);
        T(aesir_gcm_start(&ctx, &key_g, iv, 12) == AESIR_E_STATE);
        T(aesir_gcm_engines(&key_g, NULL, NULL) == AESIR_E_STATE);
        ended(&ctx);
        T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
        aesir_gcm_clear(&key_g);
        T(all_zero(key_g.opaque, sizeof(key_g.opaque)));
    }
    aesir_gcm_clear(NULL);

    /* cleared while a message uses it: noticed, not followed */
    T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
    T(aesir_gcm_start(&ctx, &key_g, iv, 12) == AESIR_OK);
    T(aesir_gcm_aad(&ctx, in, 20) == AESIR_OK);
    aesir_gcm_clear(&key_g);
    T(aesir_gcm_aad(&ctx, in, 20) == AESIR_E_STATE);
    T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
    T(aesir_gcm_start(&ctx, &key_g, iv, 12) == AESIR_OK);
    T(aesir_gcm_encrypt_update(&ctx, out, in, 20) == AESIR_OK);
    aesir_gcm_clear(&key_g);
    T(aesir_gcm_encrypt_update(&ctx, out, in, 20) == AESIR_E_STATE);
    T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
    T(aesir_gcm_start(&ctx, &key_g, iv, 12) == AESIR_OK);
    T(aesir_gcm_decrypt_update_unverified(&ctx, out, in, 20) == AESIR_OK);
    aesir_gcm_clear(&key_g);
    T(aesir_gcm_verify(&ctx, tag, 16) == AESIR_E_STATE);
    T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
    T(aesir_gcm_start(&ctx, &key_g, iv, 12) == AESIR_OK);
    aesir_gcm_clear(&key_g);
    T(aesir_gcm_finish(&ctx, tag, 16) == AESIR_E_STATE);

    /* a misaligned key: refused, nothing written; a set-up key copied to
     * a misaligned place is not set up */
    memset(raw, 0x3c, sizeof(raw));
    T(aesir_gcm_init_ex(mis, k16, 16, p->aes, p->ghash, 0) == AESIR_E_ARGUMENT);
    T(all_eq(raw, 0x3c, sizeof(raw)));
    T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
    memcpy(mis, &key_g, sizeof(key_g));
    T(aesir_gcm_seal(mis, iv, 12, NULL, 0, out, 36, &out_len, in, 20) ==
      AESIR_E_STATE);
    T(aesir_gcm_start(&ctx, mis, iv, 12) == AESIR_E_STATE);
    T(aesir_gcm_engines(mis, NULL, NULL) == AESIR_E_STATE);

    /* a misaligned context: refused, nothing written */
    memset(rawctx, 0x3c, sizeof(rawctx));
    T(aesir_gcm_start(misctx, &key_g, iv, 12) == AESIR_E_ARGUMENT);
    T(aesir_gcm_aad(misctx, in, 1) == AESIR_E_STATE);
    T(aesir_gcm_encrypt_update(misctx, out, in, 1) == AESIR_E_STATE);
    T(aesir_gcm_finish(misctx, tag, 16) == AESIR_E_STATE);
    T(aesir_gcm_verify(misctx, tag, 16) == AESIR_E_STATE);
    aesir_gcm_abort(misctx);
    T(all_eq(rawctx, 0x3c, sizeof(rawctx)));
}

/* ---------------------------------------------------------------------
 * inc32 across 2^32: GF(2^128) to solve for the IV
 * ------------------------------------------------------------------- */

/* z = x * y in GF(2^128), SP 800-38D 6.3 (bit by bit; the test's own). */
static void gf_mul(uint8_t z[16], const uint8_t x[16], const uint8_t y[16])
{
    uint8_t v[16], r[16] = {0};
    memcpy(v, y, 16);
    for (int i = 0; i < 128; i++) {
        int lsb = v[15] & 1;
        if (x[i / 8] >> (7 - i % 8) & 1)
            for (int j = 0; j < 16; j++)
                r[j] ^= v[j];
        for (int j = 15; j > 0; j--)
            v[j] = (uint8_t)(v[j] >> 1 | v[j - 1] << 7);
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xe1;
    }
    memcpy(z, r, 16);
}

/* z = a^-1 = a^(2^128 - 2). */
static void gf_inv(uint8_t z[16], const uint8_t a[16])
{
    uint8_t t[16];
    memcpy(t, a, 16);
    for (int i = 1; i < 127; i++) { /* t = a^(2^(i+1) - 1) */
        gf_mul(t, t, t);
        gf_mul(t, t, a);
    }
    gf_mul(z, t, t);
}

/* H = E_K(0^128) through ECB on the ref engine. */
static void hash_key(uint8_t h[16], const uint8_t *key, size_t klen)
{
    static const uint8_t zero[16];
    aesir_aes a;
    size_t n;
    T(aesir_aes_init_ex(&a, key, klen, "ref", AESIR_ENCRYPT) == AESIR_OK);
    T(aesir_ecb_encrypt(&a, AESIR_PAD_NONE, h, 16, &n, zero, 16) == AESIR_OK);
    aesir_aes_clear(&a);
}

/* J0 of iv on k, read from the started state (white box: its counter is
 * inc32(J0)). */
static void peek_j0(const aesir_gcm_key *k, const uint8_t *iv, size_t iv_len,
                    uint8_t j0[16])
{
    aesir_gcm ctx;
    const struct gcm_state *st = (const struct gcm_state *)(void *)ctx.opaque;
    uint32_t low;
    T(aesir_gcm_start(&ctx, k, iv, iv_len) == AESIR_OK);
    memcpy(j0, st->ctr, 16);
    low = ((uint32_t)j0[12] << 24 | (uint32_t)j0[13] << 16 |
           (uint32_t)j0[14] << 8 | j0[15]) -
          1;
    j0[12] = (uint8_t)(low >> 24), j0[13] = (uint8_t)(low >> 16);
    j0[14] = (uint8_t)(low >> 8), j0[15] = (uint8_t)low;
    aesir_gcm_abort(&ctx);
}

/*
 * Makes iv (iv_len >= 16; bytes 16.. as given) such that J0 ends in low:
 * J0 is linear in the first IV block X1, J0(X1) = J0(0) + X1 * H^n with n
 * the number of blocks GHASH takes (the IV padded, and the length block),
 * so X1 = (target + J0(0)) * H^-n.
 */
static void wrap_iv(const aesir_gcm_key *k, const uint8_t h[16], uint8_t *iv,
                    size_t iv_len, uint32_t low)
{
    uint8_t j0[16], d[16] = {0}, hn[16], inv[16];
    size_t n = (iv_len + 15) / 16 + 1;

    memset(iv, 0, 16);
    peek_j0(k, iv, iv_len, j0);
    d[12] = (uint8_t)(j0[12] ^ (low >> 24));
    d[13] = (uint8_t)(j0[13] ^ (low >> 16));
    d[14] = (uint8_t)(j0[14] ^ (low >> 8));
    d[15] = (uint8_t)(j0[15] ^ low);
    memcpy(hn, h, 16);
    for (size_t i = 1; i < n; i++)
        gf_mul(hn, hn, h);
    gf_inv(inv, hn);
    gf_mul(iv, d, inv);
}

/* The ciphertext of pt under J0: CTR with inc32, block by block through
 * ECB on the ref engine. */
static void ctr32_model(const uint8_t *key, size_t klen, const uint8_t j0[16],
                        uint8_t *ct, const uint8_t *pt, size_t len)
{
    aesir_aes a;
    uint8_t cb[16], ks[16];
    uint32_t low = (uint32_t)j0[12] << 24 | (uint32_t)j0[13] << 16 |
                   (uint32_t)j0[14] << 8 | j0[15];
    size_t n;

    T(aesir_aes_init_ex(&a, key, klen, "ref", AESIR_ENCRYPT) == AESIR_OK);
    memcpy(cb, j0, 12);
    for (size_t off = 0; off < len; off += 16) {
        low++;
        cb[12] = (uint8_t)(low >> 24), cb[13] = (uint8_t)(low >> 16);
        cb[14] = (uint8_t)(low >> 8), cb[15] = (uint8_t)low;
        T(aesir_ecb_encrypt(&a, AESIR_PAD_NONE, ks, 16, &n, cb, 16) ==
          AESIR_OK);
        for (size_t i = 0; i < 16 && off + i < len; i++)
            ct[off + i] = pt[off + i] ^ ks[i];
    }
    aesir_aes_clear(&a);
}

static void test_wrap(const struct gcm_pair *p)
{
    static const uint32_t lows[] = {0xffffffffu, 0xfffffffeu, 0xfffffffdu,
                                    0xfffffff0u};
    static const size_t iv_lens[] = {16, 20, 32, 60};
    uint8_t key[32], h[16], iv[60], j0[16], one[16] = {0x80}, t[16];
    uint8_t pt[700], ct[700], model[700], back[700], tag[16];
    size_t klen, out_len;

    snprintf(where, sizeof(where), "%s x %s, inc32 wrap", p->aes, p->ghash);
    for (size_t i = 0; i < sizeof(lows) / sizeof(lows[0]); i++) {
        size_t iv_len = iv_lens[i], len = 16 * 40 + 1 + below(59);
        klen = 16 + 8 * (i % 3);
        fill(key, klen);
        fill(iv, sizeof(iv));
        fill(pt, len);
        hash_key(h, key, klen);
        gf_inv(t, h);
        gf_mul(t, t, h);
        T(memcmp(t, one, 16) == 0); /* the inverse is one */
        T(set_key(&key_g, p, key, klen, 0) == AESIR_OK);
        wrap_iv(&key_g, h, iv, iv_len, lows[i]);
        peek_j0(&key_g, iv, iv_len, j0);
        T(j0[12] == 0xff && j0[13] == 0xff && j0[14] == 0xff &&
          j0[15] == (uint8_t)lows[i]);
        T(aesir_gcm_seal_detached(&key_g, iv, iv_len, pt, 7, ct, tag, 16, pt,
                                  len) == AESIR_OK);
        ctr32_model(key, klen, j0, model, pt, len);
        T(memcmp(ct, model, len) == 0);
        all_ways(&key_g, iv, iv_len, pt, 7, pt, ct, len, tag);
        T(aesir_gcm_open_detached(&key_g, iv, iv_len, pt, 7, back, tag, 16, ct,
                                  len) == AESIR_OK);
        T(memcmp(back, pt, len) == 0);
#ifdef AESIR_TEST_OPENSSL
        T(evp_gcm(1, key, klen, iv, iv_len, pt, 7, model, pt, len, t, 16) == 1);
        T(memcmp(model, ct, len) == 0 && memcmp(t, tag, 16) == 0);
#endif
        (void)out_len;
    }
}

/* ---------------------------------------------------------------------
 * SP 800-38D limits, white box
 * ------------------------------------------------------------------- */

static void test_limits(const struct gcm_pair *p)
{
    static const uint8_t iv[12] = {4}, k16[16] = {8};
    static uint8_t buf[64], out[80];
    uint8_t tag[16] = {0};
    aesir_gcm ctx;
    struct gcm_state *st = (struct gcm_state *)(void *)ctx.opaque;
    size_t out_len = 0;

    (void)iv; /* used below only where size_t can hold the limits */
    (void)out_len;
    snprintf(where, sizeof(where), "%s x %s, limits", p->aes, p->ghash);
    T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
    for (int enc = 0; enc < 2; enc++) {
        int (*up)(aesir_gcm *, uint8_t *, const uint8_t *, size_t) =
            enc ? aesir_gcm_encrypt_update
                : aesir_gcm_decrypt_update_unverified;
        /* reaching the limit passes, one byte more does not */
        start_msg(&ctx);
        st->data_len = GCM_MAX_DATA - 32;
        T(up(&ctx, out, buf, 20) == AESIR_OK);
        T(up(&ctx, out, buf, 12) == AESIR_OK);
        T(st->data_len == GCM_MAX_DATA);
        T(up(&ctx, out, buf, 0) == AESIR_OK);
        T(up(&ctx, out, buf, 1) == AESIR_E_INPUT_LENGTH);
        ended(&ctx);
        /* in one update: 32 bytes up to the limit pass, from one byte
         * closer they do not */
        start_msg(&ctx);
        st->data_len = GCM_MAX_DATA - 32;
        T(up(&ctx, out, buf, 32) == AESIR_OK);
        T(enc ? aesir_gcm_finish(&ctx, tag, 16) == AESIR_OK
              : aesir_gcm_verify(&ctx, tag, 16) == AESIR_E_AUTH);
        start_msg(&ctx);
        st->data_len = GCM_MAX_DATA - 31;
        T(up(&ctx, out, buf, 32) == AESIR_E_INPUT_LENGTH);
        ended(&ctx);
        start_msg(&ctx);
        st->data_len = GCM_MAX_DATA;
        T(up(&ctx, out, buf, SIZE_MAX) == AESIR_E_INPUT_LENGTH);
        ended(&ctx);
    }
    /* additional data */
    start_msg(&ctx);
    st->aad_len = GCM_MAX_AAD - 5;
    T(aesir_gcm_aad(&ctx, buf, 5) == AESIR_OK);
    T(st->aad_len == GCM_MAX_AAD);
    T(aesir_gcm_aad(&ctx, buf, 0) == AESIR_OK);
    T(aesir_gcm_encrypt_update(&ctx, out, buf, 16) == AESIR_OK);
    T(aesir_gcm_finish(&ctx, tag, 16) == AESIR_OK);
    start_msg(&ctx);
    st->aad_len = GCM_MAX_AAD - 5;
    T(aesir_gcm_aad(&ctx, buf, 6) == AESIR_E_INPUT_LENGTH);
    ended(&ctx);
    start_msg(&ctx);
    st->aad_len = GCM_MAX_AAD;
    T(aesir_gcm_aad(&ctx, buf, SIZE_MAX) == AESIR_E_INPUT_LENGTH);
    ended(&ctx);

#if SIZE_MAX > 0xffffffffu
    {
        /* the one-shot calls: one byte over, refused before any access to
         * the (64-byte) buffers */
        const size_t data = (size_t)GCM_MAX_DATA + 1;
        const size_t aad = (size_t)GCM_MAX_AAD + 1;
        memset(out, 0x5a, sizeof(out));
        memset(tag, 0x5a, sizeof(tag));
        out_len = 99;
        T(aesir_gcm_seal(&key_g, iv, 12, NULL, 0, out, sizeof(out), &out_len,
                         buf, data) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_seal_detached(&key_g, iv, 12, NULL, 0, out, tag, 16, buf,
                                  data) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_open_detached(&key_g, iv, 12, NULL, 0, out, tag, 16, buf,
                                  data) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_open(&key_g, iv, 12, NULL, 0, out, sizeof(out), &out_len,
                         buf, data + 16) == AESIR_E_INPUT_LENGTH);
        T(out_len == 0);
        T(aesir_gcm_seal(&key_g, iv, 12, buf, aad, out, sizeof(out), &out_len,
                         buf, 0) == AESIR_E_INPUT_LENGTH);
        T(aesir_gcm_open_detached(&key_g, iv, 12, buf, aad, out, tag, 16, buf,
                                  0) == AESIR_E_INPUT_LENGTH);
        T(aesir_gmac(&key_g, iv, 12, buf, aad, tag, 16) ==
          AESIR_E_INPUT_LENGTH);
        T(aesir_gmac_verify(&key_g, iv, 12, buf, aad, tag, 16) ==
          AESIR_E_INPUT_LENGTH);
        T(aesir_gmac(&key_g, iv, 12, buf, SIZE_MAX, tag, 16) ==
          AESIR_E_INPUT_LENGTH);
        /* and the IV */
        T(aesir_gcm_seal(&key_g, buf, aad, NULL, 0, out, sizeof(out), &out_len,
                         buf, 0) == AESIR_E_IV_LENGTH);
        T(aesir_gmac(&key_g, buf, SIZE_MAX, NULL, 0, tag, 16) ==
          AESIR_E_IV_LENGTH);
        T(aesir_gcm_start(&ctx, &key_g, buf, aad) == AESIR_E_IV_LENGTH);
        ended(&ctx);
        T(all_eq(out, 0x5a, sizeof(out)) && all_eq(tag, 0x5a, sizeof(tag)));
    }
#endif
}

/* ---------------------------------------------------------------------
 * GMAC
 * ------------------------------------------------------------------- */

static void test_gmac(const struct gcm_pair *p, size_t n)
{
    uint8_t key[32], iv[80], aad[300], tag[16], ref[16];
    size_t klen, iv_len;

    snprintf(where, sizeof(where), "%s x %s, GMAC", p->aes, p->ghash);
    for (size_t i = 0; i < n; i++) {
        size_t aad_len = below(sizeof(aad) + 1), tl = 12 + below(5);
        random_message(key, &klen, iv, &iv_len, sizeof(iv));
        fill(aad, aad_len);
        T(set_key(&key_g, p, key, klen, 0) == AESIR_OK);
        memset(tag, 0x5a, sizeof(tag));
        T(aesir_gmac(&key_g, iv, iv_len, aad, aad_len, tag, tl) == AESIR_OK);
        T(all_eq(tag + tl, 0x5a, 16 - tl));
        T(aesir_gcm_seal_detached(&key_g, iv, iv_len, aad, aad_len, NULL, ref,
                                  16, NULL, 0) == AESIR_OK);
        T(memcmp(tag, ref, tl) == 0);
#ifdef AESIR_TEST_OPENSSL
        T(evp_gcm(1, key, klen, iv, iv_len, aad, aad_len, NULL, NULL, 0, ref,
                  16) == 1);
        T(memcmp(tag, ref, tl) == 0);
#endif
        T(aesir_gmac_verify(&key_g, iv, iv_len, aad, aad_len, tag, tl) ==
          AESIR_OK);
        tag[below(tl)] ^= (uint8_t)(1u << below(8));
        T(aesir_gmac_verify(&key_g, iv, iv_len, aad, aad_len, tag, tl) ==
          AESIR_E_AUTH);
    }
}

/* ---------------------------------------------------------------------
 * Driver
 * ------------------------------------------------------------------- */

static uint64_t seed_from_env(void)
{
    const char *s = getenv("AESIR_GCM_SEED");
    struct timespec ts;
    uint64_t x;
    if (s != NULL && *s != '\0')
        return strtoull(s, NULL, 0);
    timespec_get(&ts, TIME_UTC);
    x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
    return x;
}

/* Without a GHASH engine named, a key takes the AES engine's fused
 * partner when this CPU runs it (and AESIR_GHASH_ENGINE is not set),
 * else the default GHASH engine. */
static void test_default_partner(void)
{
    static _Alignas(64) aesir_gcm_key key;
    static const uint8_t k16[16] = {0x17};
    const char *env = getenv("AESIR_GHASH_ENGINE");
    size_t checked = 0;

    snprintf(where, sizeof(where), "default GHASH engine per AES engine");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const struct aesir_engine *e = aesir_engine_at(i);
        const char *aes, *gh, *want = aesir_ghash_engine_default();
        int pi;

        if (e == NULL)
            continue;
        pi = e->gcm_ghash != NULL ? aesir_ghash_engine_find(e->gcm_ghash) : -1;
        if ((env == NULL || *env == '\0') && pi >= 0 &&
            aesir_ghash_engine_flags((size_t)pi) & AESIR_ENGINE_AVAILABLE)
            want = e->gcm_ghash;
        T(aesir_gcm_init_ex(&key, k16, 16, e->name, NULL, 0) == AESIR_OK);
        T(aesir_gcm_engines(&key, &aes, &gh) == AESIR_OK);
        T(strcmp(aes, e->name) == 0);
        T(strcmp(gh, want) == 0);
        checked++;
    }
    aesir_gcm_clear(&key);
    printf("default GHASH engine per AES engine: %zu engines checked\n",
           checked);
}

int main(void)
{
    static struct gcm_pair pairs[MAX_PAIRS];
    size_t np = gcm_pairs_list(pairs, MAX_PAIRS), navail;
    uint64_t seed = seed_from_env();
    clock_t t0 = clock();

    if (np > MAX_PAIRS) {
        printf("FAIL: %zu engine pairs, this test handles %d\n", np, MAX_PAIRS);
        return 1;
    }
    rng_state = seed;
    printf("test_gcm: aesir %s, seed 0x%016" PRIx64 " (AESIR_GCM_SEED)\n",
           aesir_version(), seed);
#ifdef AESIR_TEST_OPENSSL
    printf("test_gcm: counter wrap and GMAC also checked against OpenSSL\n");
#else
    printf("test_gcm: built without OpenSSL: counter wrap checked against "
           "ECB only, GMAC against GCM only\n");
#endif
    navail = gcm_pairs_print("test_gcm", pairs, np);
    test_default_partner();
    for (size_t i = 0; i < np; i++) {
        const struct gcm_pair *p = &pairs[i];
        unsigned failed = check_failed;
        size_t nways = p->slow ? 40 : 200, nflips = p->slow ? 2 : 4;
        clock_t t = clock();
        static const uint8_t k16[16] = {0x42};

        if (!p->available)
            continue;
        test_mv(p);
        test_ways(p, nways);
        test_flips(p, nflips);
        snprintf(where, sizeof(where), "%s x %s, misuse", p->aes, p->ghash);
        T(set_key(&key_g, p, k16, 16, 0) == AESIR_OK);
        T(set_key(&key_short, p, k16, 16, AESIR_GCM_SHORT_TAGS) == AESIR_OK);
        test_order();
        test_tag_lengths();
        test_arguments(p);
        test_key_state(p);
        test_wrap(p);
        test_limits(p);
        test_gmac(p, p->slow ? 20 : 100);
        printf("%-12s x %-21s %s  (18 MV cases, %zu random messages, %zu "
               "bit-flip messages%s) %.2f s\n",
               p->aes, p->ghash, check_failed == failed ? "PASS" : "FAIL",
               nways, nflips, p->slow ? ", slow pair: fewer" : "",
               (double)(clock() - t) / CLOCKS_PER_SEC);
    }
    aesir_gcm_clear(&key_g);
    aesir_gcm_clear(&key_short);
    if (navail == 0) {
        printf("FAIL: no engine pair is available\n");
        check_failed++;
    }
    printf("total %.2f s CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    return check_summary();
}
