/*
 * test_aegis.c -- AEGIS (src/aead/aegis.c, draft-irtf-cfrg-aegis-aead-17)
 * on every AES engine this CPU can run; the others are listed as
 * UNAVAILABLE. Each engine is one of three paths (aesir_aegis_engine):
 * its fused kernel, the generic code on its own AES round, or the generic
 * code on ct64's round.
 *
 *   draft     every test vector of the draft's Appendix A: A.1 (AESRound)
 *             on every engine's round; A.2.1 and A.3.1 (Update) and the
 *             initial states of A.4.1, A.5.1, A.6.1, A.7.1 on the
 *             reference below; the AEAD vectors A.2.2-A.2.10 (AEGIS-128L),
 *             A.3.2-A.3.10 (AEGIS-256), A.4-A.7 (128X2, 128X4, 256X2,
 *             256X4) on every engine with both tag lengths, appended and
 *             detached, in place and not; vectors 6-9 of A.2 and A.3
 *             must fail (AESIR_E_AUTH, output zeroed). (A.8, AEGISMAC, is
 *             not implemented.)
 *   reference a second AEGIS, written here from the draft's pseudo-code
 *             (sections 3, 4, 5) on a byte-wise AES round with the S-box
 *             computed from its definition (FIPS-197 5.1.1), compared with
 *             the library on random keys, nonces, AAD (0..300 bytes) and
 *             messages (0..700, some up to 5000 bytes), every variant:
 *             AESIR_DIFF_CASES cases per variant (default 10000; make
 *             test-debug sets 1000), each on every engine whose path
 *             (its kernel and round functions) no earlier engine has,
 *             one in 16 on the others (all the engines on ct64's round
 *             run the same code): every path sees all of them.
 *   sodium    with libsodium >= 1.0.19 linked (tests/sodium-current.sh;
 *             AESIR_TEST_SODIUM): the same random cases for AEGIS-128L
 *             and AEGIS-256 against crypto_aead_aegis128l/256 (32-byte
 *             tags), both directions.
 *   rounds    every engine's aes_round hook against the byte-wise round
 *             on random blocks, n = 1..40.
 *   flips     single-bit flips of ciphertext, tag, AAD and nonce fail with
 *             AESIR_E_AUTH, the output zeroed and *out_len 0.
 *   misuse    NULL arguments, unknown variants, wrong key, nonce and tag
 *             lengths, short output, keys not set up, cleared or
 *             misaligned, lengths over 2^61 - 1: the right error and
 *             nothing written.
 *
 * AESIR_DIFF_SEED repeats a run; the last line is "N passed, M failed".
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "check.h"
#include "aegis.h"
#include "internal.h"

#ifdef AESIR_TEST_SODIUM
#include <sodium.h>
#endif

#define MAX_REPORTS 40
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

static uint64_t rng;
#ifdef AESIR_TEST_SODIUM
static size_t sodium_checks;
#endif

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static size_t below(size_t n)
{
    return n == 0 ? 0 : (size_t)(rnd() % n);
}

static void fillr(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static size_t unhex(uint8_t *out, const char *h)
{
    size_t n = strlen(h) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1)
            v = 0;
        out[i] = (uint8_t)v;
    }
    return n;
}

static const int variants[6] = {AESIR_AEGIS_128L,  AESIR_AEGIS_256,
                                AESIR_AEGIS_128X2, AESIR_AEGIS_128X4,
                                AESIR_AEGIS_256X2, AESIR_AEGIS_256X4};
static const char *vname(int v)
{
    static const char *const n[] = {"?",           "AEGIS-128L",  "AEGIS-256",
                                    "AEGIS-128X2", "AEGIS-128X4", "AEGIS-256X2",
                                    "AEGIS-256X4"};
    return v >= 1 && v <= 6 ? n[v] : "?";
}

/* ---------------------------------------------------------------------
 * The reference: the draft's pseudo-code, byte by byte.
 * ------------------------------------------------------------------- */

static uint8_t sbox[256], mul2[256], mul3[256];

static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    while (b) {
        if (b & 1)
            p ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
        b >>= 1;
    }
    return p;
}

/* FIPS-197 5.1.1: the inverse in GF(2^8), then the affine map. */
static void make_sbox(void)
{
    for (unsigned x = 0; x < 256; x++) {
        uint8_t inv = 0, s;
        for (unsigned y = 1; y < 256 && x != 0; y++)
            if (gmul((uint8_t)x, (uint8_t)y) == 1)
                inv = (uint8_t)y;
        s = inv;
        for (unsigned i = 1; i < 5; i++)
            s ^= (uint8_t)((inv << i) | (inv >> (8 - i)));
        sbox[x] = s ^ 0x63;
        mul2[x] = gmul((uint8_t)x, 2);
        mul3[x] = gmul((uint8_t)x, 3);
    }
}

/* AESRound(in, rk) (draft section 2): byte i = row i % 4, column i / 4. */
static void ref_round(uint8_t out[16], const uint8_t in[16],
                      const uint8_t rk[16])
{
    uint8_t s[16];
    for (unsigned c = 0; c < 4; c++)
        for (unsigned r = 0; r < 4; r++)
            s[r + 4 * c] = sbox[in[r + 4 * ((c + r) % 4)]];
    for (unsigned c = 0; c < 4; c++) {
        const uint8_t *a = s + 4 * c;
        out[4 * c + 0] = mul2[a[0]] ^ mul3[a[1]] ^ a[2] ^ a[3] ^ rk[4 * c];
        out[4 * c + 1] = a[0] ^ mul2[a[1]] ^ mul3[a[2]] ^ a[3] ^ rk[4 * c + 1];
        out[4 * c + 2] = a[0] ^ a[1] ^ mul2[a[2]] ^ mul3[a[3]] ^ rk[4 * c + 2];
        out[4 * c + 3] = mul3[a[0]] ^ a[1] ^ a[2] ^ mul2[a[3]] ^ rk[4 * c + 3];
    }
}

static const uint8_t C0[16] = {0x00, 0x01, 0x01, 0x02, 0x03, 0x05, 0x08, 0x0d,
                               0x15, 0x22, 0x37, 0x59, 0x90, 0xe9, 0x79, 0x62};
static const uint8_t C1[16] = {0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2, 0x2f, 0xf1,
                               0x20, 0x11, 0x31, 0x42, 0x73, 0xb5, 0x28, 0xdd};

struct ref {
    int big;    /* AEGIS-256 family */
    unsigned d; /* degree */
    unsigned n; /* state blocks per instance: 8 or 6 */
    uint8_t V[8][4][16];
};

/* Update(M0, M1) of 5.4.1 / Update(M) of 5.5.1 (M split per lane). */
static void ref_update(struct ref *s, const uint8_t *m0, const uint8_t *m1)
{
    uint8_t nv[8][16];
    for (unsigned i = 0; i < s->d; i++) {
        for (unsigned j = 0; j < s->n; j++) {
            uint8_t k[16];
            memcpy(k, s->V[j][i], 16);
            if (j == 0)
                for (unsigned b = 0; b < 16; b++)
                    k[b] ^= m0[16 * i + b];
            if (j == 4 && !s->big)
                for (unsigned b = 0; b < 16; b++)
                    k[b] ^= m1[16 * i + b];
            ref_round(nv[j], s->V[(j + s->n - 1) % s->n][i], k);
        }
        for (unsigned j = 0; j < s->n; j++)
            memcpy(s->V[j][i], nv[j], 16);
    }
}

static void ref_setup(struct ref *s, int variant)
{
    memset(s, 0, sizeof(*s));
    s->big = variant == AESIR_AEGIS_256 || variant == AESIR_AEGIS_256X2 ||
             variant == AESIR_AEGIS_256X4;
    s->d = (variant == AESIR_AEGIS_128X2 || variant == AESIR_AEGIS_256X2)   ? 2
           : (variant == AESIR_AEGIS_128X4 || variant == AESIR_AEGIS_256X4) ? 4
                                                                            : 1;
    s->n = s->big ? 6 : 8;
}

static void ctx_xor(struct ref *s, unsigned j)
{
    for (unsigned i = 0; i < s->d; i++) {
        s->V[j][i][0] ^= (uint8_t)i;
        s->V[j][i][1] ^= (uint8_t)(s->d - 1);
    }
}

static void xor16(uint8_t *o, const uint8_t *a, const uint8_t *b)
{
    for (unsigned i = 0; i < 16; i++)
        o[i] = a[i] ^ b[i];
}

/* Init (3.4, 4.4, 5.4.2, 5.5.2). */
static void ref_init(struct ref *s, const uint8_t *key, const uint8_t *nonce)
{
    uint8_t v[4][64];
    if (!s->big) {
        for (unsigned i = 0; i < s->d; i++) {
            xor16(s->V[0][i], key, nonce);
            memcpy(s->V[1][i], C1, 16);
            memcpy(s->V[2][i], C0, 16);
            memcpy(s->V[3][i], C1, 16);
            xor16(s->V[4][i], key, nonce);
            xor16(s->V[5][i], key, C0);
            xor16(s->V[6][i], key, C1);
            xor16(s->V[7][i], key, C0);
            memcpy(v[0] + 16 * i, nonce, 16);
            memcpy(v[1] + 16 * i, key, 16);
        }
        for (unsigned r = 0; r < 10; r++) {
            ctx_xor(s, 3);
            ctx_xor(s, 7);
            ref_update(s, v[0], v[1]);
        }
    } else {
        for (unsigned i = 0; i < s->d; i++) {
            xor16(s->V[0][i], key, nonce);
            xor16(s->V[1][i], key + 16, nonce + 16);
            memcpy(s->V[2][i], C1, 16);
            memcpy(s->V[3][i], C0, 16);
            xor16(s->V[4][i], key, C0);
            xor16(s->V[5][i], key + 16, C1);
            memcpy(v[0] + 16 * i, key, 16);
            memcpy(v[1] + 16 * i, key + 16, 16);
            xor16(v[2] + 16 * i, key, nonce);
            xor16(v[3] + 16 * i, key + 16, nonce + 16);
        }
        for (unsigned r = 0; r < 4; r++)
            for (unsigned q = 0; q < 4; q++) {
                ctx_xor(s, 3);
                ctx_xor(s, 5);
                ref_update(s, v[q], NULL);
            }
    }
}

/* The keystream z (z0 || z1 for the 128 family) of 5.4.4 / 5.5.4. */
static void ref_z(const struct ref *s, uint8_t *z)
{
    const unsigned d = s->d;
    for (unsigned i = 0; i < d; i++)
        for (unsigned b = 0; b < 16; b++) {
            const uint8_t(*V)[4][16] = s->V;
            if (!s->big) {
                z[16 * i + b] =
                    V[6][i][b] ^ V[1][i][b] ^ (V[2][i][b] & V[3][i][b]);
                z[16 * d + 16 * i + b] =
                    V[2][i][b] ^ V[5][i][b] ^ (V[6][i][b] & V[7][i][b]);
            } else {
                z[16 * i + b] = V[1][i][b] ^ V[4][i][b] ^ V[5][i][b] ^
                                (V[2][i][b] & V[3][i][b]);
            }
        }
}

static void ref_absorb(struct ref *s, const uint8_t *x)
{
    ref_update(s, x, x + 16 * s->d);
}

/* Finalize (5.4.7, 5.5.7) on a copy: both tags. */
static void ref_final(const struct ref *s0, uint64_t adlen, uint64_t mlen,
                      uint8_t t16[16], uint8_t t32[32])
{
    struct ref s = *s0;
    uint8_t u[16], t[64];
    const unsigned lr = s.big ? 3 : 2;
    for (unsigned b = 0; b < 8; b++) {
        u[b] = (uint8_t)((adlen * 8) >> (8 * b));
        u[8 + b] = (uint8_t)((mlen * 8) >> (8 * b));
    }
    for (unsigned i = 0; i < s.d; i++)
        xor16(t + 16 * i, s.V[lr][i], u);
    for (unsigned r = 0; r < 7; r++)
        ref_update(&s, t, t);
    memset(t16, 0, 16);
    memset(t32, 0, 32);
    for (unsigned i = 0; i < s.d; i++) {
        for (unsigned j = 0; j < s.n - (s.big ? 0 : 1); j++)
            xor16(t16, t16, s.V[j][i]);
        for (unsigned j = 0; j < s.n; j++) {
            uint8_t *h = t32 + (j < s.n / 2 ? 0 : 16);
            xor16(h, h, s.V[j][i]);
        }
    }
}

/* Encrypt (5.2) or Decrypt (5.3) without the check: out, both tags. */
static void ref_aead(int variant, const uint8_t *key, const uint8_t *nonce,
                     const uint8_t *ad, size_t adlen, const uint8_t *in,
                     size_t len, uint8_t *out, uint8_t t16[16], uint8_t t32[32],
                     int decrypt)
{
    struct ref s;
    uint8_t x[128], z[128];
    size_t rate;
    ref_setup(&s, variant);
    rate = (s.big ? 16 : 32) * (size_t)s.d;
    ref_init(&s, key, nonce);
    for (size_t o = 0; o < adlen; o += rate) {
        memset(x, 0, sizeof(x));
        memcpy(x, ad + o, adlen - o < rate ? adlen - o : rate);
        ref_absorb(&s, x);
    }
    for (size_t o = 0; o < len; o += rate) {
        const size_t n = len - o < rate ? len - o : rate;
        ref_z(&s, z);
        memset(x, 0, sizeof(x));
        memcpy(x, in + o, n);
        for (size_t b = 0; b < n; b++)
            out[o + b] = x[b] ^ z[b];
        if (decrypt) {
            memset(x, 0, sizeof(x));
            memcpy(x, out + o, n);
        }
        ref_absorb(&s, x);
    }
    ref_final(&s, adlen, len, t16, t32);
}

/* ---------------------------------------------------------------------
 * Draft vectors (Appendix A).
 * ------------------------------------------------------------------- */

#define K128 "10010000000000000000000000000000"
#define N128 "10000200000000000000000000000000"
#define K256 K128 "00000000000000000000000000000000"
#define N256 N128 "00000000000000000000000000000000"
#define KX128 "000102030405060708090a0b0c0d0e0f"
#define NX128 "101112131415161718191a1b1c1d1e1f"
#define KX256 KX128 NX128
#define NX256 NX128 "202122232425262728292a2b2c2d2e2f"
#define AD8 "0001020304050607"
#define M32 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define M14 "000102030405060708090a0b0c0d"
#define AD42                                                                   \
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"         \
    "20212223242526272829"
#define M40                                                                    \
    "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f"         \
    "3031323334353637"
#define ADX "0102030401020304"
#define MX /* "04050607" 30 times: 120 bytes */                                \
    "0405060704050607040506070405060704050607040506070405060704050607"         \
    "0405060704050607040506070405060704050607040506070405060704050607"         \
    "0405060704050607040506070405060704050607040506070405060704050607"         \
    "040506070405060704050607040506070405060704050607"

struct tv {
    const char *sec;
    int variant;
    const char *key, *nonce, *ad, *msg, *ct, *tag128, *tag256;
};

/* msg NULL: the vector must fail (verification failed). */
static const struct tv tvs[] = {
    {"A.2.2", AESIR_AEGIS_128L, K128, N128, "",
     "00000000000000000000000000000000", "c1c0e58bd913006feba00f4b3cc3594e",
     "abe0ece80c24868a226a35d16bdae37a",
     "25835bfbb21632176cf03840687cb968cace4617af1bd0f7d064c639a5c79ee4"},
    {"A.2.3", AESIR_AEGIS_128L, K128, N128, "", "", "",
     "c2b879a67def9d74e6c14f708bbcc9b4",
     "1360dc9db8ae42455f6e5b6a9d488ea4f2184c4e12120249335c4ee84bafe25d"},
    {"A.2.4", AESIR_AEGIS_128L, K128, N128, AD8, M32,
     "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84",
     "cc6f3372f6aa1bb82388d695c3962d9a",
     "022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3"},
    {"A.2.5", AESIR_AEGIS_128L, K128, N128, AD8, M14,
     "79d94593d8c2119d7e8fd9b8fc77", "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
    {"A.2.6", AESIR_AEGIS_128L, K128, N128, AD42, M40,
     "b31052ad1cca4e291abcf2df3502e6bdb1bfd6db36798be3607b1f94d34478aa"
     "7ede7f7a990fec10",
     "7542a745733014f9474417b337399507",
     "b91e2947a33da8bee89b6794e647baf0fc835ff574aca3fc27c33be0db2aff98"},
    {"A.2.7", AESIR_AEGIS_128L, N128, K128, AD8, NULL,
     "79d94593d8c2119d7e8fd9b8fc77", "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
    {"A.2.8", AESIR_AEGIS_128L, K128, N128, AD8, NULL,
     "79d94593d8c2119d7e8fd9b8fc78", "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
    {"A.2.9", AESIR_AEGIS_128L, K128, N128, "0001020304050608", NULL,
     "79d94593d8c2119d7e8fd9b8fc77", "5c04b3dba849b2701effbe32c7f0fab7",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
    {"A.2.10", AESIR_AEGIS_128L, K128, N128, AD8, NULL,
     "79d94593d8c2119d7e8fd9b8fc77", "6c04b3dba849b2701effbe32c7f0fab8",
     "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ad"},
    {"A.3.2", AESIR_AEGIS_256, K256, N256, "",
     "00000000000000000000000000000000", "754fc3d8c973246dcc6d741412a4b236",
     "3fe91994768b332ed7f570a19ec5896e",
     "1181a1d18091082bf0266f66297d167d2e68b845f61a3b0527d31fc7b7b89f13"},
    {"A.3.3", AESIR_AEGIS_256, K256, N256, "", "", "",
     "e3def978a0f054afd1e761d7553afba3",
     "6a348c930adbd654896e1666aad67de989ea75ebaa2b82fb588977b1ffec864a"},
    {"A.3.4", AESIR_AEGIS_256, K256, N256, AD8, M32,
     "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711",
     "8d86f91ee606e9ff26a01b64ccbdd91d",
     "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a"},
    {"A.3.5", AESIR_AEGIS_256, K256, N256, AD8, M14,
     "f373079ed84b2709faee37358458", "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
    {"A.3.6", AESIR_AEGIS_256, K256, N256, AD42, M40,
     "57754a7d09963e7c787583a2e7b859bb24fa1e04d49fd550b2511a358e3bca25"
     "2a9b1b8b30cc4a67",
     "ab8a7d53fd0e98d727accca94925e128",
     "a3aca270c006094d71c20e6910b5161c0826df233d08919a566ec2c05990f734"},
    {"A.3.7", AESIR_AEGIS_256, N256, K256, AD8, NULL,
     "f373079ed84b2709faee37358458", "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
    {"A.3.8", AESIR_AEGIS_256, K256, N256, AD8, NULL,
     "f373079ed84b2709faee37358459", "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
    {"A.3.9", AESIR_AEGIS_256, K256, N256, "0001020304050608", NULL,
     "f373079ed84b2709faee37358458", "c60b9c2d33ceb058f96e6dd03c215652",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
    {"A.3.10", AESIR_AEGIS_256, K256, N256, AD8, NULL,
     "f373079ed84b2709faee37358458", "c60b9c2d33ceb058f96e6dd03c215653",
     "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2da"},
    {"A.4.2", AESIR_AEGIS_128X2, KX128, NX128, "", "", "",
     "63117dc57756e402819a82e13eca8379",
     "b92c71fdbd358b8a4de70b27631ace90cffd9b9cfba82028412bac41b4f53759"},
    {"A.4.3", AESIR_AEGIS_128X2, KX128, NX128, ADX, MX,
     "5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5f"
     "c6fb4e54bcb6111842c20637252eff747cb3a8f85b37de80919a589fe0f24872"
     "bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c"
     "9d6aacb647ad56be62b29c22cd4b5761b38f43d5a5ee062f",
     "1aebc200804f405cab637f2adebb6d77",
     "c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca"},
    {"A.5.2", AESIR_AEGIS_128X4, KX128, NX128, "", "", "",
     "5bef762d0947c00455b97bb3af30dfa3",
     "a4b25437f4be93cfa856a2f27e4416b42cac79fd4698f2cdbe6af25673e10a68"},
    {"A.5.3", AESIR_AEGIS_128X4, KX128, NX128, ADX, MX,
     "e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce"
     "9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c24ba9dedfbdaa586ffea67ddc"
     "801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac"
     "4ff6b1380c4e46df7b086af6ce6bc1ed594b8dd64aed2a7e",
     "0e56ab94e2e85db80f9d54010caabfb4",
     "69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2"},
    {"A.6.2", AESIR_AEGIS_256X2, KX256, NX256, "", "", "",
     "62cdbab084c83dacdb945bb446f049c8",
     "25d7e799b49a80354c3f881ac2f1027f471a5d293052bd9997abd3ae84014bb7"},
    {"A.6.3", AESIR_AEGIS_256X2, KX256, NX256, ADX, MX,
     "72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7"
     "d0f01e18db4f3bc0adb150702e5d147a8d36522132761b994c1bd395589e2ccf"
     "0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e"
     "1a7223a2a43e398ce6385cd654a19f481cba3b8f25910b42",
     "635d391828520bf1512763f0c8f5cdbd",
     "b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7"},
    {"A.7.2", AESIR_AEGIS_256X4, KX256, NX256, "", "", "",
     "3b7fee6cee7bf17888ad11ed2397beb4",
     "6093a1a8aab20ec635dc1ca71745b01b5bec4fc444c9ffbebd710d4a34d20eaf"},
    {"A.7.3", AESIR_AEGIS_256X4, KX256, NX256, ADX, MX,
     "bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9a"
     "aac6b4f5db810d426be1fdaff4e1454153a34b11da78ed7e418ee2ee9853042e"
     "95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d"
     "0426e702391d2ff5813808b81748a490dd656465fed61f09",
     "b63b611b13975e2f3dc3cb6c2397bfcd",
     "7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c"},
};

/* A.2.1 and A.3.1: one Update. */
static void test_update_vectors(void)
{
    static const char *const s128[8] = {
        "9b7e60b24cc873ea894ecc07911049a3", "330be08f35300faa2ebf9a7b0d274658",
        "7bbd5bd2b049f7b9b515cf26fbe7756c", "c35a00f55ea86c3886ec5e928f87db18",
        "9ebccafce87cab446396c4334592c91f", "58d83e31f256371e60fc6bb257114601",
        "1639b56ea322c88568a176585bc915de", "640818ffb57dc0fbc2e72ae93457e39a"};
    static const char *const a128[8] = {
        "596ab773e4433ca0127c73f60536769d", "790394041a3d26ab697bde865014652d",
        "38cf49e4b65248acd533041b64dd0611", "16d8e58748f437bfff1797f780337cee",
        "9689ecdf08228c74d7e3360cca53d0a5", "a21746bb193a569e331e1aa985d0d729",
        "09d714e6fcf9177a8ed1cde7e3d259a6", "61279ba73167f0ab76f0a11bf203bdff"};
    static const char *const s256[6] = {
        "1fa1207ed76c86f2c4bb40e8b395b43e", "b44c375e6c1e1978db64bcd12e9e332f",
        "0dab84bfa9f0226432ff630f233d4e5b", "d7ef65c9b93e8ee60c75161407b066e7",
        "a760bb3da073fbd92bdc24734b1f56fb", "a828a18d6a964497ac6e7e53c5f55c73"};
    static const char *const a256[6] = {
        "e6bc643bae82dfa3d991b1b323839dcd", "648578232ba0f2f0a3677f617dc052c3",
        "ea788e0e572044a46059212dd007a789", "2f1498ae19b80da13fba698f088a8590",
        "a54c2ee95e8c2a2c3dae2ec743ae6b86", "a3240fceb68e32d5d114df1b5363ab67"};
    struct ref s;
    uint8_t m0[16], m1[16], want[16];

    snprintf(where, sizeof(where), "A.2.1 Update");
    ref_setup(&s, AESIR_AEGIS_128L);
    for (unsigned j = 0; j < 8; j++)
        unhex(s.V[j][0], s128[j]);
    unhex(m0, "033e6975b94816879e42917650955aa0");
    unhex(m1, "fcc1968a46b7e97861bd6e89af6aa55f");
    ref_update(&s, m0, m1);
    for (unsigned j = 0; j < 8; j++) {
        unhex(want, a128[j]);
        T(memcmp(s.V[j][0], want, 16) == 0);
    }
    snprintf(where, sizeof(where), "A.3.1 Update");
    ref_setup(&s, AESIR_AEGIS_256);
    for (unsigned j = 0; j < 6; j++)
        unhex(s.V[j][0], s256[j]);
    unhex(m0, "b165617ed04ab738afb2612c6d18a1ec");
    ref_update(&s, m0, NULL);
    for (unsigned j = 0; j < 6; j++) {
        unhex(want, a256[j]);
        T(memcmp(s.V[j][0], want, 16) == 0);
    }
}

/* A.4.1, A.5.1, A.6.1, A.7.1: the state after Init, V[j,i] for j, then i. */
static const char *const init_128x2[16] = {
    "a4fc1ad9a72942fb88bd2cabbba6509a", "80a40e392fc71084209b6c3319bdc6cc",
    "380f435cf801763b1f0c2a2f7212052d", "73796607b59b1b650ee91c152af1f18a",
    "6ee1de433ea877fa33bc0782abff2dcb", "b9fab2ab496e16d1facaffd5453cbf14",
    "85f94b0d4263bfa86fdf45a603d8b6ac", "90356c8cadbaa2c969001da02e3feca0",
    "09bd69ad3730174bcd2ce9a27cd1357e", "e610b45125796a4fcf1708cef5c4f718",
    "fcdeb0cf0a87bf442fc82383ddb0f6d6", "61ad32a4694d6f3cca313a2d3f4687aa",
    "571c207988659e2cdfbdaae77f4f37e3", "32e6094e217573bf91fb28c145a3efa8",
    "ca549badf8faa58222412478598651cf", "3407279a54ce76d2e2e8a90ec5d108eb"};
static const char *const init_128x4[32] = {
    "924eb07635003a37e6c6575ba8ce1929", "c8b6a5d91475445e936d48e794be0ce2",
    "fcd37d050e24084befe3bbb219d64760", "2e9f58cfb893a8800220242c373a8b18",
    "1a1f60c4fab64e5471dc72edfcf6fe6b", "c1e525ebea2d6375a9edd045dce96381",
    "97a3e25abd228a44d4a14a6d3fe9185c", "c2d4cf7f4287a98744645674265d4ca8",
    "7bb50c534f6ec4780530ff1cce8a16e8", "7b08d57557da0b5ef7b5f7d98b0ba189",
    "6bfcac34ddb68404821a4d665303cb0f", "d95626f6dfad1aed7467622c38529932",
    "af339fd2d50ee45fc47665c647cf6586", "d0669b39d140f0e118a4a511efe2f95a",
    "7a94330f35c194fadda2a87e42cdeccc", "233b640d1f4d56e2757e72c1a9d8ecb1",
    "9f93737d699ba05c11e94f2b201bef5e", "61caf387cf7cfd3f8300ac7680ccfd76",
    "5825a671ecef03b7a9c98a601ae32115", "87a1fe4d558161a8f4c38731f3223032",
    "7a5aca78d636c05bbc702b2980196ab6", "915d868408495d07eb527789f282c575",
    "d0947bfbc1d3309cdffc9be1503aea62", "8834ea57a15b9fbdc0245464a4b8cbef",
    "e46f4cf71a95ac45b6f0823e3aba1a86", "8c4ecef682fc44a8eba911b3fc7d99f9",
    "a4fb61e2c928a2ca760b8772f2ea5f2e", "3d34ea89da73caa3016c280500a155a3",
    "85075f0080e9d618e7eb40f57c32d9f7", "d2ab2b320c6e93b155a3787cb83e5281",
    "0b3af0250ae36831a1b072e499929bcb", "5cce4d00329d69f1aae36aa541347512"};
static const char *const init_256x2[12] = {
    "eca2bf4538442e8712d4972595744039", "201405efa9264f07911db58101903087",
    "3e536a998799408a97f3479a6f779d48", "0d79a7d822a5d215f78c3bf2feb33ae1",
    "cf8c63d6f2b4563cdd9231107c85950e", "78d17ed7d8d563ff11bd202c76864839",
    "d7e0707e6bfbbad913bc94b6993a9fa0", "097e4b1bff40d4c19cb29dfd125d62f2",
    "a373cf6d537dd66bc0ef0f2f9285359f", "c0d0ae0c48f9df3faaf0e7be7768c326",
    "9f76560dcae1efacabdcce446ae283bc", "bd52a6b9c8f976a26ec1409df19e8bfe"};
static const char *const init_256x4[24] = {
    "482a86e8436cd2361063a4b2702769b9", "d95a2be81c9245b22996f68eea0122f9",
    "0c2a3b348b1a5e256c6751377318c41e", "f64436a21653fe7cf2e0829a177db383",
    "e705e8866267717d96092e58e78b574c", "d1dd412142df9806cc267af2fe1d830e",
    "30e7dfd3c9941b8394e95bdf5bac99d9", "9f27186f8a4fab86820689822c3c74d2",
    "e1aa6af5d9e31dde8d94a48a0810fa89", "63555cdf0d98f18fb75b029ad80786c0",
    "a3ee0e4a3429a9539e4fcec385475608", "28ea527d31ef61df498dc107fe02df99",
    "37f06808410c8f3954525ae44584d3be", "8fcc23bca2fe2209f93d34e2da35b33d",
    "33156347df89eaa69ab11096362daccf", "bbe58d9dbe8c5b0469be5a87086db5d4",
    "d1c9eb37fecbc5ada7b351fa4f501f32", "0b9b803283c1538628b507c8f6432434",
    "bfb8b6d4f87cce28825c7e92f54b8728", "8917bb5b09c32f900c6a5a1d63c46264",
    "4f6110c2ef0c3c687e90c1e5532ddf8e", "031bd85d99f64684d23728a0453c72a1",
    "10bc7ec34d4119b5bdeb6c7dfc458247", "591ece530aeaa5c9867220156f5c25e3"};

static void test_init_vectors(void)
{
    static const struct {
        const char *sec;
        int variant;
        const char *const *v;
    } iv[] = {{"A.4.1", AESIR_AEGIS_128X2, init_128x2},
              {"A.5.1", AESIR_AEGIS_128X4, init_128x4},
              {"A.6.1", AESIR_AEGIS_256X2, init_256x2},
              {"A.7.1", AESIR_AEGIS_256X4, init_256x4}};
    for (size_t t = 0; t < 4; t++) {
        struct ref s;
        uint8_t key[32], nonce[32], want[16];
        const int big = iv[t].variant >= AESIR_AEGIS_256X2;
        snprintf(where, sizeof(where), "%s initial state", iv[t].sec);
        unhex(key, big ? KX256 : KX128);
        unhex(nonce, big ? NX256 : NX128);
        ref_setup(&s, iv[t].variant);
        ref_init(&s, key, nonce);
        for (unsigned j = 0; j < s.n; j++)
            for (unsigned i = 0; i < s.d; i++) {
                unhex(want, iv[t].v[j * s.d + i]);
                T(memcmp(s.V[j][i], want, 16) == 0);
            }
    }
}

/* The AEAD vectors against the reference (checks the typing of both). */
static void test_vectors_reference(void)
{
    for (size_t t = 0; t < sizeof(tvs) / sizeof(tvs[0]); t++) {
        const struct tv *v = &tvs[t];
        uint8_t key[32], nonce[32], ad[64], ct[128], out[128], t16[16], t32[32],
            w16[16], w32[32];
        size_t adl, ctl;
        snprintf(where, sizeof(where), "%s reference", v->sec);
        unhex(key, v->key);
        unhex(nonce, v->nonce);
        adl = unhex(ad, v->ad);
        ctl = unhex(ct, v->ct);
        unhex(w16, v->tag128);
        unhex(w32, v->tag256);
        ref_aead(v->variant, key, nonce, ad, adl, ct, ctl, out, t16, t32, 1);
        if (v->msg != NULL) {
            uint8_t m[128];
            T(unhex(m, v->msg) == ctl);
            T(memcmp(out, m, ctl) == 0);
            T(memcmp(t16, w16, 16) == 0);
            T(memcmp(t32, w32, 32) == 0);
        } else {
            T(memcmp(t16, w16, 16) != 0);
            T(memcmp(t32, w32, 32) != 0);
        }
    }
}

/* ---------------------------------------------------------------------
 * The library, engine by engine.
 * ------------------------------------------------------------------- */

/* A.1 and random blocks: the engine's own round, if it has one. */
static void test_round(size_t ei)
{
    const struct aesir_engine *e = aesir_engine_at(ei);
    uint8_t st[40 * 16], rk[40 * 16], want[40 * 16], b[16];
    if (e == NULL || e->aes_round == NULL)
        return;
    snprintf(where, sizeof(where), "%s aes_round A.1", e->name);
    unhex(st, "000102030405060708090a0b0c0d0e0f");
    unhex(rk, "101112131415161718191a1b1c1d1e1f");
    e->aes_round(st, rk, 1);
    unhex(b, "7a7b4e5638782546a8c0477a3b813f43");
    T(memcmp(st, b, 16) == 0);
    snprintf(where, sizeof(where), "%s aes_round random", e->name);
    for (size_t n = 1; n <= 40; n++) {
        fillr(st, 16 * n);
        fillr(rk, 16 * n);
        for (size_t i = 0; i < n; i++)
            ref_round(want + 16 * i, st + 16 * i, rk + 16 * i);
        e->aes_round(st, rk, n);
        T(memcmp(st, want, 16 * n) == 0);
    }
}

static void test_vectors_engine(const char *eng)
{
    for (size_t t = 0; t < sizeof(tvs) / sizeof(tvs[0]); t++) {
        const struct tv *v = &tvs[t];
        aesir_aegis_key k;
        uint8_t key[32], nonce[32], ad[64], ct[128], m[128], tags[2][32];
        uint8_t buf[256], out[256];
        size_t adl, ctl, nl, ol;
        snprintf(where, sizeof(where), "%s %s", eng, v->sec);
        nl = unhex(key, v->key);
        unhex(nonce, v->nonce);
        adl = unhex(ad, v->ad);
        ctl = unhex(ct, v->ct);
        unhex(tags[0], v->tag128);
        unhex(tags[1], v->tag256);
        T(aesir_aegis_init_ex(&k, v->variant, key, nl, eng) == AESIR_OK);
        for (unsigned tl = 16; tl <= 32; tl += 16) {
            const uint8_t *tag = tags[tl / 32];
            /* open, appended, out of place and in place */
            memcpy(buf, ct, ctl);
            memcpy(buf + ctl, tag, tl);
            memset(out, 0xaa, sizeof(out));
            ol = 99;
            if (v->msg == NULL) {
                T(aesir_aegis_open(&k, nonce, nl, ad, adl, out, sizeof(out),
                                   &ol, buf, ctl + tl, tl) == AESIR_E_AUTH);
                T(ol == 0 && all_zero(out, ctl) && out[ctl] == 0xaa);
                T(aesir_aegis_open_detached(&k, nonce, nl, ad, adl, buf, tag,
                                            tl, buf, ctl) == AESIR_E_AUTH);
                T(all_zero(buf, ctl));
                continue;
            }
            unhex(m, v->msg);
            T(aesir_aegis_open(&k, nonce, nl, ad, adl, out, sizeof(out), &ol,
                               buf, ctl + tl, tl) == AESIR_OK);
            T(ol == ctl && memcmp(out, m, ctl) == 0);
            T(aesir_aegis_open(&k, nonce, nl, ad, adl, buf, sizeof(buf), &ol,
                               buf, ctl + tl, tl) == AESIR_OK);
            T(ol == ctl && memcmp(buf, m, ctl) == 0);
            /* seal, appended, out of place and in place */
            memset(out, 0xaa, sizeof(out));
            T(aesir_aegis_seal(&k, nonce, nl, ad, adl, out, sizeof(out), &ol, m,
                               ctl, tl) == AESIR_OK);
            T(ol == ctl + tl && memcmp(out, ct, ctl) == 0 &&
              memcmp(out + ctl, tag, tl) == 0 && out[ctl + tl] == 0xaa);
            memcpy(buf, m, ctl);
            T(aesir_aegis_seal(&k, nonce, nl, ad, adl, buf, ctl + tl, &ol, buf,
                               ctl, tl) == AESIR_OK);
            T(memcmp(buf, ct, ctl) == 0 && memcmp(buf + ctl, tag, tl) == 0);
            /* detached */
            memset(out, 0xaa, sizeof(out));
            T(aesir_aegis_seal_detached(&k, nonce, nl, ad, adl, out, out + 200,
                                        tl, m, ctl) == AESIR_OK);
            T(memcmp(out, ct, ctl) == 0 && memcmp(out + 200, tag, tl) == 0);
            T(aesir_aegis_open_detached(&k, nonce, nl, ad, adl, out, tag, tl,
                                        ct, ctl) == AESIR_OK);
            T(memcmp(out, m, ctl) == 0);
        }
        aesir_aegis_clear(&k);
    }
}

static size_t cases_per(void)
{
    const char *s = getenv("AESIR_DIFF_CASES");
    return s != NULL ? (size_t)strtoull(s, NULL, 10) : 10000;
}

static uint8_t *big_a, *big_b, *big_c, *big_m;
#define BIG 6000

/* The engines this CPU runs. */
#define DUP_EVERY 16
static const char *avail[64];
static size_t navail;

/*
 * Random messages of one variant against the reference (and, for
 * AEGIS-128L and AEGIS-256 with 32-byte tags, libsodium), each case on
 * every engine: seal appended or detached, in place or not, at a random
 * offset; open back; one flipped bit (of the ciphertext, the tag, the
 * AAD or the nonce) must fail with the output zeroed. The reference runs
 * once per case, the engines' keys are set up per case.
 */
/* Engines whose key takes the same code as an earlier one's (the same
 * kernel, block kernel and round: e.g. every engine on ct64's round) run
 * one case in DUP_EVERY: the path is tested in full once, the rest is a
 * check that the engine gets it. */
static void find_dups(int variant, int *dup)
{
    aesir_aegis_key k;
    const struct aegis_key_state *ks =
        (const struct aegis_key_state *)(const void *)k.opaque;
    const size_t kl = aesir_aegis_key_bytes(variant);
    uint8_t key[32] = {0};

    for (size_t e = 0; e < navail; e++) {
        aesir_aes_round_fn r;
        aesir_aegis_fn f;
        aesir_aegis_update_fn u;
        dup[e] = 0;
        if (aesir_aegis_init_ex(&k, variant, key, kl, avail[e]) != AESIR_OK)
            continue;
        r = ks->round, f = ks->kernel, u = ks->update;
        for (size_t o = 0; o < e; o++) {
            if (aesir_aegis_init_ex(&k, variant, key, kl, avail[o]) ==
                    AESIR_OK &&
                ks->round == r && ks->kernel == f && ks->update == u)
                dup[e] = 1;
        }
    }
    aesir_aegis_clear(&k);
}

static void test_random(int variant, size_t cases, const int *dup)
{
    aesir_aegis_key k;
    const size_t kl = aesir_aegis_key_bytes(variant);
    uint8_t key[32], nonce[32], ad[300], t16[16], t32[32], tag[32];
    size_t bad_before = check_failed;
    for (size_t c = 0; c < cases && check_failed - bad_before < 5; c++) {
        const size_t len = below(64) == 0 ? below(BIG - 64) : below(701);
        const size_t adl = below(4) == 0 ? 0 : below(301);
        const size_t tl = below(2) ? 16 : 32;
        uint8_t *m = big_m, *ref = big_b, *p = big_c;
        fillr(key, kl);
        fillr(nonce, kl);
        fillr(ad, adl);
        fillr(m, len);
        ref_aead(variant, key, nonce, ad, adl, m, len, ref, t16, t32, 0);
#ifdef AESIR_TEST_SODIUM
        if (tl == 32 &&
            (variant == AESIR_AEGIS_128L || variant == AESIR_AEGIS_256)) {
            unsigned long long ml;
            uint8_t st[32];
            int r = variant == AESIR_AEGIS_128L
                        ? crypto_aead_aegis128l_encrypt_detached(
                              p, st, &ml, m, len, ad, adl, NULL, nonce, key)
                        : crypto_aead_aegis256_encrypt_detached(
                              p, st, &ml, m, len, ad, adl, NULL, nonce, key);
            snprintf(where, sizeof(where), "%s libsodium", vname(variant));
            if (r != 0 || memcmp(p, ref, len) != 0 || memcmp(st, t32, 32) != 0)
                T(0);
            /* and libsodium opens the reference's output */
            r = variant == AESIR_AEGIS_128L
                    ? crypto_aead_aegis128l_decrypt_detached(
                          p, NULL, ref, len, t32, ad, adl, nonce, key)
                    : crypto_aead_aegis256_decrypt_detached(
                          p, NULL, ref, len, t32, ad, adl, nonce, key);
            if (r != 0 || memcmp(p, m, len) != 0)
                T(0);
            sodium_checks++;
        }
#endif
        for (size_t e = 0; e < navail; e++) {
            const size_t off = below(16);
            const int inplace = (int)below(2);
            uint8_t *o = big_a + off;
            size_t ol;
            if (dup[e] && c % DUP_EVERY != 0)
                continue;
            snprintf(where, sizeof(where), "%s %s random", avail[e],
                     vname(variant));
            if (aesir_aegis_init_ex(&k, variant, key, kl, avail[e]) !=
                AESIR_OK) {
                T(0);
                continue;
            }
            if (inplace)
                memcpy(o, m, len);
            if (below(2)) {
                if (aesir_aegis_seal(&k, nonce, kl, adl ? ad : NULL, adl, o,
                                     len + tl, &ol, inplace ? o : m, len,
                                     tl) != AESIR_OK)
                    T(0);
                memcpy(tag, o + len, tl);
            } else if (aesir_aegis_seal_detached(&k, nonce, kl, ad, adl, o, tag,
                                                 tl, inplace ? o : m,
                                                 len) != AESIR_OK) {
                T(0);
            }
            if (memcmp(o, ref, len) != 0 ||
                memcmp(tag, tl == 16 ? t16 : t32, tl) != 0)
                T(0);
            /* open back, detached, in place or not */
            if (aesir_aegis_open_detached(&k, nonce, kl, ad, adl,
                                          inplace ? o : p, tag, tl, o,
                                          len) != AESIR_OK ||
                memcmp(inplace ? o : p, m, len) != 0)
                T(0);
            /* one flipped bit, put back afterwards */
            {
                const unsigned what = (unsigned)below(4);
                uint8_t *x = what == 0 && len   ? o
                             : what == 1        ? tag
                             : what == 2 && adl ? ad
                                                : nonce;
                const size_t xl = x == o     ? len
                                  : x == tag ? tl
                                  : x == ad  ? adl
                                             : kl;
                const size_t bit = below(8 * xl);
                memcpy(o, ref, len);
                memcpy(tag, tl == 16 ? t16 : t32, tl);
                x[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                memset(p, 0x55, len);
                if (aesir_aegis_open_detached(&k, nonce, kl, ad, adl, p, tag,
                                              tl, o, len) != AESIR_E_AUTH ||
                    !all_zero(p, len))
                    T(0);
                x[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            check_passed++;
        }
    }
    aesir_aegis_clear(&k);
}

/* ---------------------------------------------------------------------
 * The incremental API (aesir_aegis_start .. finish / verify).
 * ------------------------------------------------------------------- */

/* The next piece of a split of what is left (left bytes), by style:
 * 0 one byte at a time, 1 small pieces (0..2 rates + 3, so they straddle
 * the blocks), 2 large random pieces, 3 whole rates with a few odd bytes
 * now and then (the engines' block kernels), 4 all at once. */
static size_t piece(unsigned style, size_t left, size_t rate)
{
    size_t n;
    switch (style) {
    case 0:
        n = 1;
        break;
    case 1:
        n = below(2 * rate + 4);
        break;
    case 2:
        n = below(left + 1);
        break;
    case 3:
        n = rate * (1 + below(8)) + (below(4) == 0 ? below(rate) : 0);
        break;
    default:
        n = left;
    }
    return n < left ? n : left;
}

static size_t rate_of(int variant)
{
    const size_t d = aegis_degree(variant);
    return aegis_family(variant) ? 16 * d : 32 * d;
}

/*
 * One message through the incremental API in pieces: the AAD split by
 * style sa, the data by style sd. Encryption writes out and tag (tl
 * bytes); decryption writes out and returns verify's result against
 * tag. Any other failure returns a distinct code (-100 - step).
 */
static int inc_run(const aesir_aegis_key *k, const uint8_t *nonce, size_t nl,
                   const uint8_t *ad, size_t adl, const uint8_t *in, size_t len,
                   uint8_t *out, uint8_t *tag, size_t tl, int decrypt,
                   unsigned sa, unsigned sd)
{
    aesir_aegis ctx;
    const size_t rate = rate_of(
        ((const struct aegis_key_state *)(const void *)k->opaque)->variant);
    size_t o, n;

    if (aesir_aegis_start(&ctx, k, nonce, nl) != AESIR_OK)
        return -100;
    for (o = 0; o < adl; o += n) {
        n = piece(sa, adl - o, rate);
        if (aesir_aegis_aad(&ctx, ad + o, n) != AESIR_OK)
            return -101;
    }
    for (o = 0; o < len; o += n) {
        n = piece(sd, len - o, rate);
        if ((decrypt ? aesir_aegis_decrypt_update_unverified(&ctx, out + o,
                                                             in + o, n)
                     : aesir_aegis_encrypt_update(&ctx, out + o, in + o, n)) !=
            AESIR_OK)
            return -102;
    }
    if (decrypt)
        return aesir_aegis_verify(&ctx, tag, tl);
    return aesir_aegis_finish(&ctx, tag, tl) == AESIR_OK ? AESIR_OK : -103;
}

/* The draft's vectors through the incremental API, every split style
 * for the AAD and the data, in place and not; the failing vectors fail
 * in verify. */
static void test_vectors_incremental(const char *eng)
{
    for (size_t t = 0; t < sizeof(tvs) / sizeof(tvs[0]); t++) {
        const struct tv *v = &tvs[t];
        aesir_aegis_key k;
        uint8_t key[32], nonce[32], ad[64], ct[128], m[128], tags[2][32];
        uint8_t out[256], tag[32];
        size_t adl, ctl, nl;
        snprintf(where, sizeof(where), "%s %s incremental", eng, v->sec);
        nl = unhex(key, v->key);
        unhex(nonce, v->nonce);
        adl = unhex(ad, v->ad);
        ctl = unhex(ct, v->ct);
        unhex(tags[0], v->tag128);
        unhex(tags[1], v->tag256);
        if (v->msg != NULL)
            unhex(m, v->msg);
        T(aesir_aegis_init_ex(&k, v->variant, key, nl, eng) == AESIR_OK);
        for (unsigned tl = 16; tl <= 32; tl += 16) {
            for (unsigned sa = 0; sa < 5; sa++) {
                for (unsigned sd = 0; sd < 5; sd++) {
                    const int inplace = (sa + sd) & 1;
                    if (v->msg == NULL) {
                        memcpy(out, ct, ctl);
                        T(inc_run(&k, nonce, nl, ad, adl, out, ctl, out,
                                  tags[tl / 32], tl, 1, sa,
                                  sd) == AESIR_E_AUTH);
                        continue;
                    }
                    memset(out, 0xaa, sizeof(out));
                    if (inplace)
                        memcpy(out, m, ctl);
                    T(inc_run(&k, nonce, nl, ad, adl, inplace ? out : m, ctl,
                              out, tag, tl, 0, sa, sd) == AESIR_OK);
                    T(memcmp(out, ct, ctl) == 0 && out[ctl] == 0xaa &&
                      memcmp(tag, tags[tl / 32], tl) == 0);
                    if (!inplace)
                        memcpy(out, ct, ctl);
                    T(inc_run(&k, nonce, nl, ad, adl, out, ctl, out,
                              tags[tl / 32], tl, 1, sa, sd) == AESIR_OK);
                    T(memcmp(out, m, ctl) == 0);
                }
            }
        }
        aesir_aegis_clear(&k);
    }
}

/*
 * Random messages through the incremental API against the reference
 * (and libsodium: AEGIS-128L and AEGIS-256, 32-byte tags), each case on
 * every engine with a distinct path (1 in DUP_EVERY on the others):
 * random split styles for the AAD and the data, in place or not;
 * decryption back, and a flipped ciphertext bit fails verify. Also the
 * one-shot call on the same message, so incremental == one-shot on
 * every engine.
 */
static void test_random_incremental(int variant, size_t cases, const int *dup)
{
    aesir_aegis_key k;
    const size_t kl = aesir_aegis_key_bytes(variant), rate = rate_of(variant);
    uint8_t key[32], nonce[32], ad[600], t16[16], t32[32], tag[32], ot[32];
    size_t bad_before = check_failed;

    for (size_t c = 0; c < cases && check_failed - bad_before < 5; c++) {
        const size_t len = below(32) == 0 ? below(BIG - 64)
                           : below(2)     ? below(9 * rate)
                                          : below(701);
        const size_t adl = below(4) == 0 ? 0 : below(601);
        const size_t tl = below(2) ? 16 : 32;
        uint8_t *m = big_m, *ref = big_b, *p = big_c;
        fillr(key, kl);
        fillr(nonce, kl);
        fillr(ad, adl);
        fillr(m, len);
        ref_aead(variant, key, nonce, ad, adl, m, len, ref, t16, t32, 0);
#ifdef AESIR_TEST_SODIUM
        if (tl == 32 &&
            (variant == AESIR_AEGIS_128L || variant == AESIR_AEGIS_256)) {
            unsigned long long ml;
            uint8_t st[32];
            int r = variant == AESIR_AEGIS_128L
                        ? crypto_aead_aegis128l_encrypt_detached(
                              p, st, &ml, m, len, ad, adl, NULL, nonce, key)
                        : crypto_aead_aegis256_encrypt_detached(
                              p, st, &ml, m, len, ad, adl, NULL, nonce, key);
            snprintf(where, sizeof(where), "%s libsodium (incremental)",
                     vname(variant));
            T(r == 0 && memcmp(p, ref, len) == 0 && memcmp(st, t32, 32) == 0);
            sodium_checks++;
        }
#endif
        for (size_t e = 0; e < navail; e++) {
            const unsigned sa = (unsigned)below(5), sd = (unsigned)below(5);
            const int inplace = (int)below(2);
            uint8_t *o = big_a + below(16);
            size_t ol;
            if (dup[e] && c % DUP_EVERY != 0)
                continue;
            snprintf(where, sizeof(where), "%s %s incremental %zu/%zu %u/%u",
                     avail[e], vname(variant), adl, len, sa, sd);
            if (aesir_aegis_init_ex(&k, variant, key, kl, avail[e]) !=
                AESIR_OK) {
                T(0);
                continue;
            }
            if (inplace)
                memcpy(o, m, len);
            if (inc_run(&k, nonce, kl, ad, adl, inplace ? o : m, len, o, tag,
                        tl, 0, sa, sd) != AESIR_OK ||
                memcmp(o, ref, len) != 0 ||
                memcmp(tag, tl == 16 ? t16 : t32, tl) != 0) {
                T(0);
                continue;
            }
            /* the one-shot call agrees */
            if (aesir_aegis_seal_detached(&k, nonce, kl, ad, adl, p, ot, tl, m,
                                          len) != AESIR_OK ||
                memcmp(p, o, len) != 0 || memcmp(ot, tag, tl) != 0)
                T(0);
            /* decrypt back (other split styles), in place or not */
            if (inc_run(&k, nonce, kl, ad, adl, o, len, inplace ? o : p, tag,
                        tl, 1, sd, sa) != AESIR_OK ||
                memcmp(inplace ? o : p, m, len) != 0)
                T(0);
            /* a flipped bit of the ciphertext or the tag fails verify */
            memcpy(o, ref, len);
            {
                const int in_ct = len != 0 && below(2);
                const size_t bit = below(8 * (in_ct ? len : tl));
                uint8_t *x = in_ct ? o : tag;
                x[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                if (inc_run(&k, nonce, kl, ad, adl, o, len, p, tag, tl, 1, sa,
                            sd) != AESIR_E_AUTH)
                    T(0);
                x[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            (void)ol;
            check_passed++;
        }
    }
    aesir_aegis_clear(&k);
}

/* Calls out of order, bad arguments: the right error, the context wiped
 * (AESIR_E_STATE after), nothing written. */
static void test_misuse_incremental(void)
{
    aesir_aegis_key k;
    aesir_aegis ctx, *mis;
    _Alignas(16) unsigned char raw[sizeof(aesir_aegis) + 16];
    uint8_t key[32] = {1}, nonce[32] = {2}, in[64] = {3}, out[64], tag[32];

    snprintf(where, sizeof(where), "misuse incremental");
    memset(&ctx, 0, sizeof(ctx));
    memset(out, 0xaa, sizeof(out));
    /* before start: a zeroed context */
    T(aesir_aegis_aad(&ctx, in, 1) == AESIR_E_STATE);
    T(aesir_aegis_encrypt_update(&ctx, out, in, 16) == AESIR_E_STATE);
    T(aesir_aegis_decrypt_update_unverified(&ctx, out, in, 16) ==
      AESIR_E_STATE);
    T(aesir_aegis_finish(&ctx, tag, 16) == AESIR_E_STATE);
    T(aesir_aegis_verify(&ctx, tag, 16) == AESIR_E_STATE);
    T(aesir_aegis_aad(NULL, in, 1) == AESIR_E_ARGUMENT);
    T(aesir_aegis_finish(NULL, tag, 16) == AESIR_E_ARGUMENT);
    aesir_aegis_abort(NULL);
    /* a key not set up */
    memset(&k, 0, sizeof(k));
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_E_STATE);
    T(aesir_aegis_start(&ctx, NULL, nonce, 16) == AESIR_E_STATE);
    T(aesir_aegis_start(NULL, &k, nonce, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_init(&k, AESIR_AEGIS_128L, key, 16) == AESIR_OK);
    T(aesir_aegis_start(&ctx, &k, NULL, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_start(&ctx, &k, nonce, 15) == AESIR_E_IV_LENGTH);
    T(aesir_aegis_start(&ctx, &k, nonce, 32) == AESIR_E_IV_LENGTH);
    T(aesir_aegis_aad(&ctx, in, 1) == AESIR_E_STATE); /* failed start */
    /* AAD after data */
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_aad(&ctx, in, 5) == AESIR_OK);
    T(aesir_aegis_encrypt_update(&ctx, out, in, 5) == AESIR_OK);
    T(aesir_aegis_aad(&ctx, in, 1) == AESIR_E_STATE);
    T(aesir_aegis_encrypt_update(&ctx, out, in, 5) == AESIR_E_STATE);
    /* encrypt and decrypt mixed, both ways */
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_encrypt_update(&ctx, out, in, 5) == AESIR_OK);
    T(aesir_aegis_decrypt_update_unverified(&ctx, out, in, 5) == AESIR_E_STATE);
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_decrypt_update_unverified(&ctx, out, in, 5) == AESIR_OK);
    T(aesir_aegis_encrypt_update(&ctx, out, in, 5) == AESIR_E_STATE);
    /* finish after decryption, verify after encryption */
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_decrypt_update_unverified(&ctx, out, in, 5) == AESIR_OK);
    T(aesir_aegis_finish(&ctx, tag, 16) == AESIR_E_STATE);
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_encrypt_update(&ctx, out, in, 5) == AESIR_OK);
    T(aesir_aegis_verify(&ctx, tag, 16) == AESIR_E_STATE);
    /* anything after finish */
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_finish(&ctx, tag, 16) == AESIR_OK);
    T(aesir_aegis_finish(&ctx, tag, 16) == AESIR_E_STATE);
    T(aesir_aegis_encrypt_update(&ctx, out, in, 1) == AESIR_E_STATE);
    T(aesir_aegis_aad(&ctx, in, 1) == AESIR_E_STATE);
    /* bad arguments end the message */
    for (size_t tl = 0; tl <= 40; tl++) {
        if (tl == 16 || tl == 32)
            continue;
        T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
        T(aesir_aegis_finish(&ctx, tag, tl) == AESIR_E_ARGUMENT);
        T(aesir_aegis_finish(&ctx, tag, 16) == AESIR_E_STATE);
        T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
        T(aesir_aegis_verify(&ctx, tag, tl) == AESIR_E_ARGUMENT);
    }
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_aad(&ctx, NULL, 1) == AESIR_E_ARGUMENT);
    T(aesir_aegis_aad(&ctx, in, 1) == AESIR_E_STATE);
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_aad(&ctx, NULL, 0) == AESIR_OK);
    T(aesir_aegis_encrypt_update(&ctx, NULL, in, 1) == AESIR_E_ARGUMENT);
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_encrypt_update(&ctx, NULL, NULL, 0) == AESIR_OK);
    T(aesir_aegis_encrypt_update(&ctx, out, NULL, 1) == AESIR_E_ARGUMENT);
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_finish(&ctx, NULL, 16) == AESIR_E_ARGUMENT);
    /* lengths over 2^61 - 1 in all */
    if (sizeof(size_t) >= 8) {
        const size_t over = (size_t)(UINT64_C(1) << 61);
        T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
        T(aesir_aegis_aad(&ctx, in, over) == AESIR_E_INPUT_LENGTH);
        T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
        T(aesir_aegis_encrypt_update(&ctx, out, in, over) ==
          AESIR_E_INPUT_LENGTH);
        T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
        T(aesir_aegis_encrypt_update(&ctx, out, in, 1) == AESIR_OK);
        T(aesir_aegis_encrypt_update(&ctx, out, in, over - 1) ==
          AESIR_E_INPUT_LENGTH);
    }
    /* abort wipes; a key cleared under a message is noticed */
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    aesir_aegis_abort(&ctx);
    T(all_eq((const uint8_t *)&ctx, 0, sizeof(ctx)));
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    aesir_aegis_clear(&k);
    T(aesir_aegis_aad(&ctx, in, 1) == AESIR_E_STATE);
    T(all_eq((const uint8_t *)&ctx, 0, sizeof(ctx)));
    /* misaligned context */
    T(aesir_aegis_init(&k, AESIR_AEGIS_128L, key, 16) == AESIR_OK);
    mis = (aesir_aegis *)(void *)(raw + 4);
    T(aesir_aegis_start(mis, &k, nonce, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_aad(mis, in, 1) == AESIR_E_ARGUMENT);
    aesir_aegis_abort(mis);
    /* an empty message: finish and verify of AAD alone */
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_finish(&ctx, tag, 32) == AESIR_OK);
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_verify(&ctx, tag, 32) == AESIR_OK);
    tag[31] ^= 1;
    T(aesir_aegis_start(&ctx, &k, nonce, 16) == AESIR_OK);
    T(aesir_aegis_verify(&ctx, tag, 32) == AESIR_E_AUTH);
    T(all_eq(out + 5, 0xaa, sizeof(out) - 5));
    aesir_aegis_clear(&k);
}

/* Errors, and nothing written when a call is refused. */
static void test_misuse(void)
{
    aesir_aegis_key k, *mis;
    _Alignas(16) unsigned char raw[sizeof(aesir_aegis_key) + 16];
    uint8_t key[32] = {1}, nonce[32] = {2}, in[64] = {3}, out[128], tag[32];
    size_t ol;

    snprintf(where, sizeof(where), "misuse");
    T(aesir_aegis_key_bytes(AESIR_AEGIS_128L) == 16);
    T(aesir_aegis_key_bytes(AESIR_AEGIS_256X4) == 32);
    T(aesir_aegis_nonce_bytes(AESIR_AEGIS_128X2) == 16);
    T(aesir_aegis_nonce_bytes(AESIR_AEGIS_256X2) == 32);
    T(aesir_aegis_key_bytes(0) == 0 && aesir_aegis_key_bytes(7) == 0);
    T(aesir_aegis_init(NULL, AESIR_AEGIS_128L, key, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_init(&k, AESIR_AEGIS_128L, NULL, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_init(&k, 0, key, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_init(&k, 7, key, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_init(&k, AESIR_AEGIS_128L, key, 32) == AESIR_E_KEY_LENGTH);
    T(aesir_aegis_init(&k, AESIR_AEGIS_256, key, 16) == AESIR_E_KEY_LENGTH);
    T(aesir_aegis_init_ex(&k, AESIR_AEGIS_128L, key, 16, "no-such") ==
      AESIR_E_ENGINE_UNKNOWN);
    /* a failed init leaves a cleared key */
    T(aesir_aegis_engine(&k, NULL, NULL) == AESIR_E_STATE);
    memset(out, 0xaa, sizeof(out));
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, sizeof(out), &ol, in, 16,
                       16) == AESIR_E_STATE);
    T(aesir_aegis_seal(NULL, nonce, 16, NULL, 0, out, sizeof(out), &ol, in, 16,
                       16) == AESIR_E_STATE);
    T(aesir_aegis_init(&k, AESIR_AEGIS_128L, key, 16) == AESIR_OK);
    {
        const char *e = NULL, *p = NULL;
        T(aesir_aegis_engine(&k, &e, &p) == AESIR_OK && e != NULL && p != NULL);
        T(aesir_aegis_engine(NULL, &e, &p) == AESIR_E_STATE);
    }
    /* nonce, tag length, arguments, capacity */
    T(aesir_aegis_seal(&k, nonce, 15, NULL, 0, out, sizeof(out), &ol, in, 16,
                       16) == AESIR_E_IV_LENGTH);
    T(aesir_aegis_seal(&k, nonce, 32, NULL, 0, out, sizeof(out), &ol, in, 16,
                       16) == AESIR_E_IV_LENGTH);
    T(aesir_aegis_seal(&k, NULL, 16, NULL, 0, out, sizeof(out), &ol, in, 16,
                       16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 1, out, sizeof(out), &ol, in, 16,
                       16) == AESIR_E_ARGUMENT);
    for (size_t tl = 0; tl <= 40; tl++)
        if (tl != 16 && tl != 32) {
            T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, sizeof(out), &ol,
                               in, 16, tl) == AESIR_E_ARGUMENT);
            T(aesir_aegis_seal_detached(&k, nonce, 16, NULL, 0, out, tag, tl,
                                        in, 16) == AESIR_E_ARGUMENT);
            T(aesir_aegis_open_detached(&k, nonce, 16, NULL, 0, out, tag, tl,
                                        in, 16) == AESIR_E_ARGUMENT);
        }
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, 31, &ol, in, 16, 16) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, 47, &ol, in, 16, 32) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, NULL, 64, &ol, in, 16, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, 64, NULL, in, 16, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, 64, &ol, NULL, 16, 16) ==
      AESIR_E_ARGUMENT);
    T(aesir_aegis_seal_detached(&k, nonce, 16, NULL, 0, out, NULL, 16, in,
                                16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_seal_detached(&k, nonce, 16, NULL, 0, NULL, tag, 16, in,
                                16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_open(&k, nonce, 16, NULL, 0, out, sizeof(out), &ol, in, 15,
                       16) == AESIR_E_INPUT_LENGTH);
    T(aesir_aegis_open(&k, nonce, 16, NULL, 0, out, sizeof(out), &ol, in, 31,
                       32) == AESIR_E_INPUT_LENGTH);
    T(aesir_aegis_open(&k, nonce, 16, NULL, 0, out, 15, &ol, in, 32, 16) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_aegis_open(&k, nonce, 16, NULL, 0, out, sizeof(out), &ol, NULL, 32,
                       16) == AESIR_E_ARGUMENT);
    /* lengths over 2^61 - 1, refused before the (small) buffers are read */
    if (sizeof(size_t) >= 8) {
        const size_t over = (size_t)((UINT64_C(1) << 61));
        T(aesir_aegis_seal(&k, nonce, 16, in, over, out, sizeof(out), &ol, in,
                           16, 16) == AESIR_E_INPUT_LENGTH);
        T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, SIZE_MAX, &ol, in, over,
                           16) == AESIR_E_INPUT_LENGTH);
        T(aesir_aegis_seal_detached(&k, nonce, 16, NULL, 0, out, tag, 16, in,
                                    over) == AESIR_E_INPUT_LENGTH);
        T(aesir_aegis_open_detached(&k, nonce, 16, NULL, 0, out, tag, 16, in,
                                    over) == AESIR_E_INPUT_LENGTH);
        T(aesir_aegis_open(&k, nonce, 16, NULL, 0, out, SIZE_MAX, &ol, in,
                           over + 16, 16) == AESIR_E_INPUT_LENGTH);
        /* exactly 2^61 - 1 passes the check (then fails on the output
         * size, which comes after) */
        T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, 64, &ol, in, over - 1,
                           16) == AESIR_E_OUTPUT_SIZE);
    }
    T(all_eq(out, 0xaa, sizeof(out)));
    /* an empty message with NULL buffers */
    T(aesir_aegis_seal_detached(&k, nonce, 16, NULL, 0, NULL, tag, 16, NULL,
                                0) == AESIR_OK);
    T(aesir_aegis_open_detached(&k, nonce, 16, NULL, 0, NULL, tag, 16, NULL,
                                0) == AESIR_OK);
    tag[0] ^= 1;
    T(aesir_aegis_open_detached(&k, nonce, 16, NULL, 0, NULL, tag, 16, NULL,
                                0) == AESIR_E_AUTH);
    /* the appended forms' edges, which the one-expression test of a
     * valid call (aegis.c good_args) must let through or send to the
     * checks one at a time: an empty message (NULL in, NULL out), an
     * output one byte short */
    {
        uint8_t sealed[64];
        T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, sealed, 16, &ol, NULL, 0,
                           16) == AESIR_OK &&
          ol == 16);
        T(aesir_aegis_open(&k, nonce, 16, NULL, 0, NULL, 0, &ol, sealed, 16,
                           16) == AESIR_OK &&
          ol == 0);
        sealed[3] ^= 1;
        ol = 7;
        T(aesir_aegis_open(&k, nonce, 16, NULL, 0, NULL, 0, &ol, sealed, 16,
                           16) == AESIR_E_AUTH &&
          ol == 0);
        T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, sealed, 47, &ol, in, 16,
                           32) == AESIR_E_OUTPUT_SIZE);
        T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, sealed, 48, &ol, in, 16,
                           32) == AESIR_OK &&
          ol == 48);
        T(aesir_aegis_open(&k, nonce, 16, NULL, 0, out + 64, 15, &ol, sealed,
                           48, 32) == AESIR_E_OUTPUT_SIZE);
        T(aesir_aegis_open(&k, nonce, 16, NULL, 0, out + 64, 16, &ol, sealed,
                           48, 32) == AESIR_OK &&
          ol == 16 && memcmp(out + 64, in, 16) == 0);
        memset(out + 64, 0xaa, 16);
    }
    /* cleared, misaligned */
    aesir_aegis_clear(&k);
    T(aesir_aegis_seal(&k, nonce, 16, NULL, 0, out, sizeof(out), &ol, in, 16,
                       16) == AESIR_E_STATE);
    mis = (aesir_aegis_key *)(void *)(raw + 4);
    T(aesir_aegis_init(mis, AESIR_AEGIS_128L, key, 16) == AESIR_E_ARGUMENT);
    T(aesir_aegis_engine(mis, NULL, NULL) == AESIR_E_STATE);
    aesir_aegis_clear(mis);
    T(all_eq(out, 0xaa, sizeof(out)));
}

/* The path each engine takes: kernel where it has one, its own round, or
 * ct64's; the default engine's path is printed. */
static void test_paths(void)
{
    aesir_aegis_key k;
    uint8_t key[32] = {0};
    for (size_t v = 0; v < 6; v++) {
        const char *e, *p;
        snprintf(where, sizeof(where), "default path %s", vname(variants[v]));
        T(aesir_aegis_init(&k, variants[v], key,
                           aesir_aegis_key_bytes(variants[v])) == AESIR_OK);
        T(aesir_aegis_engine(&k, &e, &p) == AESIR_OK);
        printf("  default %-12s %s, %s\n", vname(variants[v]), e, p);
    }
    aesir_aegis_clear(&k);
}

int main(void)
{
    const size_t cases = cases_per();
    /* the incremental cases: AESIR_DIFF_INC_CASES, else a quarter */
    const char *inc_env = getenv("AESIR_DIFF_INC_CASES");
    const size_t inc_cases =
        inc_env != NULL ? (size_t)strtoull(inc_env, NULL, 10) : cases / 4;
    const char *seed_env = getenv("AESIR_DIFF_SEED");
    uint64_t seed = seed_env != NULL
                        ? strtoull(seed_env, NULL, 0)
                        : 0x6165676973000000u ^ (uint64_t)time(NULL);

    rng = seed;
    make_sbox();
    big_a = malloc(BIG + 128);
    big_b = malloc(BIG + 128);
    big_c = malloc(BIG + 128);
    big_m = malloc(BIG + 128);
    if (!big_a || !big_b || !big_c || !big_m)
        return 1;
#ifdef AESIR_TEST_SODIUM
    if (sodium_init() < 0) {
        printf("FAIL: sodium_init\n");
        return 1;
    }
    printf("test_aegis: against libsodium %s\n", sodium_version_string());
#else
    printf("test_aegis: libsodium >= 1.0.19 not linked (tests/"
           "sodium-current.sh): reference only\n");
#endif
    printf("seed 0x%016" PRIx64 " (AESIR_DIFF_SEED), %zu cases per engine "
           "and variant (AESIR_DIFF_CASES)\n",
           seed, cases);
    test_update_vectors();
    test_init_vectors();
    test_vectors_reference();
    test_misuse();
    test_paths();
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        aesir_aegis_key k;
        uint8_t key[32] = {0};
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("  %-14s UNAVAILABLE\n", name);
            continue;
        }
        avail[navail++] = name;
        printf("  %-14s", name);
        for (size_t v = 0; v < 6; v++) {
            const struct aegis_key_state *ks =
                (const struct aegis_key_state *)(const void *)k.opaque;
            const char *p = "?";
            int upd = 0;
            if (aesir_aegis_init_ex(&k, variants[v], key,
                                    aesir_aegis_key_bytes(variants[v]),
                                    name) == AESIR_OK) {
                (void)aesir_aegis_engine(&k, NULL, &p);
                /* a whole-message kernel comes with its incremental
                 * blocks (aegis_update), and only a kernel does */
                snprintf(where, sizeof(where), "%s %s: aegis_update", name,
                         vname(variants[v]));
                upd = ks->update != NULL;
                T((ks->kernel != NULL) == upd);
            }
            printf(" %s:%s%s", vname(variants[v]), p, upd ? "+update" : "");
        }
        printf("\n");
        aesir_aegis_clear(&k);
        test_round(i);
        test_vectors_engine(name);
        test_vectors_incremental(name);
    }
    test_misuse_incremental();
    for (size_t v = 0; v < 6; v++) {
        int dup[64];
        find_dups(variants[v], dup);
        test_random(variants[v], cases, dup);
        test_random_incremental(variants[v], inc_cases, dup);
        printf("  %-12s %zu random cases (one-shot) and %zu (incremental) "
               "on each distinct path, 1 in %d on the engines that share "
               "one\n",
               vname(variants[v]), cases, inc_cases, DUP_EVERY);
    }
#ifdef AESIR_TEST_SODIUM
    printf("libsodium comparisons: %zu\n", sodium_checks);
#endif
    free(big_a);
    free(big_b);
    free(big_c);
    free(big_m);
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
