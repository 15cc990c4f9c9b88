/*
 * test_xaes.c -- XAES-256-GCM (src/aead/xaes.c) on every AES engine this
 * CPU can run (each with its default GHASH partner); the others are
 * listed as UNAVAILABLE.
 *
 *   spec      the two test vectors of c2sp.org/XAES-256-GCM ("Test
 *             vectors"): seal and open, appended and detached, in place.
 *   accum     the specification's accumulated randomized test: key,
 *             nonce, plaintext<0..255> and aad<0..255> read from one
 *             SHAKE-128 stream of the empty input, every ciphertext
 *             (with its tag) absorbed by a second SHAKE-128, 32 bytes of
 *             it compared with the specification's hash: 10,000
 *             iterations on every engine (each message also opened back).
 *             The 1,000,000-iteration hash runs on the default engine
 *             (2.2 s of CPU in Release on vaes-avx512), unless
 *             AESIR_XAES_MILLION=0 or AESIR_DIFF_CASES is below 10000
 *             (make test-debug). SHAKE-128 is
 *             written here (FIPS 202), so the test needs no library and
 *             runs in the cross matrix; its first output bytes are the
 *             specification's "7f9c2ba4...", and where OpenSSL is built in
 *             a long stream is compared with EVP's SHAKE128.
 *   random    where OpenSSL is built in, 500 random messages per engine
 *             against an independent derivation: L, K1 and Kx with
 *             OpenSSL's AES-256-ECB, the message with EVP AES-256-GCM.
 *   bad       forged tags, ciphertexts, AAD and nonces (AESIR_E_AUTH,
 *             output zeroed, *out_len 0), truncated input, NULL
 *             pointers, keys not set up or cleared, output too small;
 *             nothing written on a refused call.
 *
 * The last line is "N passed, M failed".
 */
#include "mac_test.h"

#ifdef AESIR_TEST_OPENSSL
#include <openssl/evp.h>
#endif

static const char *eng[MAX_ENGINES];
static int eng_slow[MAX_ENGINES];
static size_t neng;

/* ---- SHAKE-128 (FIPS 202): Keccak-f[1600], rate 168 bytes ------------ */

struct shake {
    uint64_t s[25];
    size_t pos;
    int squeezing;
};

static uint64_t rotl64(uint64_t x, unsigned n)
{
    return n == 0 ? x : (x << n) | (x >> (64 - n));
}

/* The 24 rounds: theta, rho and pi, chi, iota (FIPS 202 3.2). */
static void keccak_f(uint64_t a[25])
{
    static const uint64_t rc[24] = {
        0x0000000000000001u, 0x0000000000008082u, 0x800000000000808au,
        0x8000000080008000u, 0x000000000000808bu, 0x0000000080000001u,
        0x8000000080008081u, 0x8000000000008009u, 0x000000000000008au,
        0x0000000000000088u, 0x0000000080008009u, 0x000000008000000au,
        0x000000008000808bu, 0x800000000000008bu, 0x8000000000008089u,
        0x8000000000008003u, 0x8000000000008002u, 0x8000000000000080u,
        0x000000000000800au, 0x800000008000000au, 0x8000000080008081u,
        0x8000000000008080u, 0x0000000080000001u, 0x8000000080008008u};
    /* rho offsets by lane index x + 5y (FIPS 202 table 2) */
    static const unsigned rho[25] = {0,  1, 62, 28, 27, 36, 44, 6,  55,
                                     20, 3, 10, 43, 25, 39, 41, 45, 15,
                                     21, 8, 18, 2,  61, 56, 14};
    for (unsigned r = 0; r < 24; r++) {
        uint64_t c[5], b[25];
        for (unsigned x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (unsigned x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
            for (unsigned y = 0; y < 25; y += 5)
                a[y + x] ^= d;
        }
        /* pi: B[y, 2x + 3y] = rot(A[x, y]) */
        for (unsigned x = 0; x < 5; x++)
            for (unsigned y = 0; y < 5; y++)
                b[y + 5 * ((2 * x + 3 * y) % 5)] =
                    rotl64(a[x + 5 * y], rho[x + 5 * y]);
        for (unsigned y = 0; y < 25; y += 5)
            for (unsigned x = 0; x < 5; x++)
                a[y + x] =
                    b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]);
        a[0] ^= rc[r];
    }
}

#define SHAKE_RATE 168

static void shake_init(struct shake *h)
{
    memset(h, 0, sizeof(*h));
}

static void shake_absorb(struct shake *h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h->s[h->pos / 8] ^= (uint64_t)p[i] << (8 * (h->pos % 8));
        if (++h->pos == SHAKE_RATE) {
            keccak_f(h->s);
            h->pos = 0;
        }
    }
}

static void shake_squeeze(struct shake *h, uint8_t *out, size_t n)
{
    if (!h->squeezing) { /* pad: the SHAKE suffix 1111, then 10*1 */
        h->s[h->pos / 8] ^= (uint64_t)0x1f << (8 * (h->pos % 8));
        h->s[(SHAKE_RATE - 1) / 8] ^= (uint64_t)0x80
                                      << (8 * ((SHAKE_RATE - 1) % 8));
        keccak_f(h->s);
        h->pos = 0;
        h->squeezing = 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (h->pos == SHAKE_RATE) {
            keccak_f(h->s);
            h->pos = 0;
        }
        out[i] = (uint8_t)(h->s[h->pos / 8] >> (8 * (h->pos % 8)));
        h->pos++;
    }
}

static void shake_selftest(void)
{
    struct shake h;
    uint8_t out[16], want[16];
    snprintf(where, sizeof(where), "SHAKE-128");
    shake_init(&h);
    shake_squeeze(&h, out, 16);
    unhex(want, "7f9c2ba4e88f827d616045507605853e");
    T(memcmp(out, want, 16) == 0);
#ifdef AESIR_TEST_OPENSSL
    {
        /* a long stream of a long input, against EVP */
        static uint8_t in[1000], mine[1000], evp[1000];
        EVP_MD_CTX *c = EVP_MD_CTX_new();
        for (size_t i = 0; i < sizeof(in); i++)
            in[i] = (uint8_t)(i * 7);
        shake_init(&h);
        shake_absorb(&h, in, 333);
        shake_absorb(&h, in + 333, sizeof(in) - 333);
        shake_squeeze(&h, mine, 17);
        shake_squeeze(&h, mine + 17, sizeof(mine) - 17);
        if (c == NULL || EVP_DigestInit_ex(c, EVP_shake128(), NULL) != 1 ||
            EVP_DigestUpdate(c, in, sizeof(in)) != 1 ||
            EVP_DigestFinalXOF(c, evp, sizeof(evp)) != 1) {
            fprintf(stderr, "EVP SHAKE128 failed\n");
            exit(2);
        }
        EVP_MD_CTX_free(c);
        T(memcmp(mine, evp, sizeof(mine)) == 0);
    }
#endif
}

/* ---- the specification's vectors ---------------------------------------- */

static void check_kat(const char *e, const uint8_t key[32],
                      const uint8_t nonce[24], const uint8_t *aad,
                      size_t aad_len, const uint8_t *p, size_t len,
                      const uint8_t *want)
{
    aesir_xaes_key k;
    uint8_t out[64], tag[16];
    size_t got = 0;

    T(aesir_xaes_init_ex(&k, key, e, NULL) == AESIR_OK);
    T(aesir_xaes_seal(&k, nonce, aad, aad_len, out, sizeof(out), &got, p,
                      len) == AESIR_OK);
    T(got == len + 16 && memcmp(out, want, len + 16) == 0);
    memcpy(out, p, len);
    T(aesir_xaes_seal_detached(&k, nonce, aad, aad_len, out, tag, out, len) ==
      AESIR_OK);
    T(memcmp(out, want, len) == 0 && memcmp(tag, want + len, 16) == 0);
    T(aesir_xaes_open(&k, nonce, aad, aad_len, out, sizeof(out), &got, want,
                      len + 16) == AESIR_OK);
    T(got == len && memcmp(out, p, len) == 0);
    memcpy(out, want, len);
    T(aesir_xaes_open_detached(&k, nonce, aad, aad_len, out, want + len, out,
                               len) == AESIR_OK);
    T(memcmp(out, p, len) == 0);
    aesir_xaes_clear(&k);
}

static void spec(void)
{
    static const uint8_t nonce[] = "ABCDEFGHIJKLMNOPQRSTUVWX";
    static const uint8_t aad[] = "c2sp.org/XAES-256-GCM";
    static const uint8_t p[] = "XAES-256-GCM";
    uint8_t k1[32], k3[32], c1[28], c3[28];

    memset(k1, 0x01, 32);
    memset(k3, 0x03, 32);
    unhex(c1, "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271");
    unhex(c3, "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d");
    for (size_t i = 0; i < neng; i++) {
        snprintf(where, sizeof(where), "%s spec vector 1", eng[i]);
        check_kat(eng[i], k1, nonce, NULL, 0, p, 12, c1);
        snprintf(where, sizeof(where), "%s spec vector 2", eng[i]);
        check_kat(eng[i], k3, nonce, aad, 21, p, 12, c3);
    }
}

/* ---- accumulated -------------------------------------------------------- */

/* The accumulated test on engine e (NULL: the default), n iterations:
 * 1 when the hash is want. */
static int accumulated(const char *e, uint64_t n, const char *want_hex)
{
    struct shake rng, hash;
    uint8_t key[32], nonce[24], p[256], aad[256], out[256 + 16], dec[256], len,
        alen, h[32], want[32];
    aesir_xaes_key k;
    int ok = 1;

    shake_init(&rng);
    shake_init(&hash);
    for (uint64_t i = 0; i < n; i++) {
        size_t got = 0;
        shake_squeeze(&rng, key, 32);
        shake_squeeze(&rng, nonce, 24);
        shake_squeeze(&rng, &len, 1);
        shake_squeeze(&rng, p, len);
        shake_squeeze(&rng, &alen, 1);
        shake_squeeze(&rng, aad, alen);
        if (aesir_xaes_init_ex(&k, key, e, NULL) != AESIR_OK ||
            aesir_xaes_seal(&k, nonce, aad, alen, out, sizeof(out), &got, p,
                            len) != AESIR_OK ||
            got != (size_t)len + 16u)
            ok = 0;
        shake_absorb(&hash, out, (size_t)len + 16);
        if (aesir_xaes_open(&k, nonce, aad, alen, dec, sizeof(dec), &got, out,
                            (size_t)len + 16) != AESIR_OK ||
            got != len || memcmp(dec, p, len) != 0)
            ok = 0;
    }
    aesir_xaes_clear(&k);
    shake_squeeze(&hash, h, 32);
    unhex(want, want_hex);
    return ok && memcmp(h, want, 32) == 0;
}

static void accum(void)
{
    for (size_t i = 0; i < neng; i++) {
        clock_t t0 = clock();
        snprintf(where, sizeof(where), "%s accumulated 10,000", eng[i]);
        T(accumulated(eng[i], 10000,
                      "e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0"
                      "c210081939"));
        printf("accum    %-14s 10,000 iterations (%.1f s)\n", eng[i],
               (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    /* the million on the default engine: 2.2 s of CPU in Release
     * (vaes-avx512, Zen 4); left out when AESIR_XAES_MILLION=0 or when
     * AESIR_DIFF_CASES asks for a short run (make test-debug: 1000) */
    if (env_u64("AESIR_XAES_MILLION", 1) != 0 &&
        env_u64("AESIR_DIFF_CASES", 10000) >= 10000) {
        clock_t t0 = clock();
        snprintf(where, sizeof(where), "%s accumulated 1,000,000",
                 aesir_engine_default());
        T(accumulated(NULL, 1000000,
                      "2163ae1445985a30b60585ee67daa55674df06901b890593e824b8"
                      "a7c885ab15"));
        printf("accum    %-14s 1,000,000 iterations (%.1f s)\n",
               aesir_engine_default(), (double)(clock() - t0) / CLOCKS_PER_SEC);
    } else {
        printf("accum    1,000,000 iterations: not run (AESIR_XAES_MILLION=0 "
               "or AESIR_DIFF_CASES < 10000)\n");
    }
}

/* ---- random, against OpenSSL -------------------------------------------- */

#ifdef AESIR_TEST_OPENSSL
static void evp_block(const uint8_t key[32], uint8_t *out, const uint8_t *in,
                      size_t n)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int m = 0;
    if (c == NULL ||
        EVP_EncryptInit_ex(c, EVP_aes_256_ecb(), NULL, key, NULL) != 1 ||
        EVP_CIPHER_CTX_set_padding(c, 0) != 1 ||
        EVP_EncryptUpdate(c, out, &m, in, (int)n) != 1) {
        fprintf(stderr, "EVP AES-256-ECB failed\n");
        exit(2);
    }
    EVP_CIPHER_CTX_free(c);
}

/* XAES-256-GCM built from OpenSSL pieces: out gets C || T. */
static void evp_xaes(const uint8_t key[32], const uint8_t nonce[24],
                     const uint8_t *aad, size_t alen, uint8_t *out,
                     const uint8_t *in, size_t len)
{
    uint8_t l[16] = {0}, k1[16], m[32], kx[32];
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, carry;

    evp_block(key, l, l, 16);
    carry = l[0] >> 7; /* K1 = dbl(L), written out bit by bit */
    for (int i = 0; i < 15; i++)
        k1[i] = (uint8_t)(l[i] << 1 | l[i + 1] >> 7);
    k1[15] = (uint8_t)(l[15] << 1);
    if (carry)
        k1[15] ^= 0x87;
    m[0] = 0, m[1] = 1, m[2] = 'X', m[3] = 0;
    memcpy(m + 4, nonce, 12);
    memcpy(m + 16, m, 16);
    m[17] = 2;
    for (int i = 0; i < 16; i++)
        m[i] ^= k1[i], m[16 + i] ^= k1[i];
    evp_block(key, kx, m, 32);
    if (c == NULL ||
        EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, kx, nonce + 12) != 1 ||
        (alen != 0 && EVP_EncryptUpdate(c, NULL, &n, aad, (int)alen) != 1) ||
        (len != 0 && EVP_EncryptUpdate(c, out, &n, in, (int)len) != 1) ||
        EVP_EncryptFinal_ex(c, out + len, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, out + len) != 1) {
        fprintf(stderr, "EVP XAES pieces failed\n");
        exit(2);
    }
    EVP_CIPHER_CTX_free(c);
}

static void random_cases(void)
{
    static uint8_t in[2048], aad[300], out[2048 + 16], ref[2048 + 16];
    for (size_t i = 0; i < neng; i++) {
        for (unsigned c = 0; c < 500; c++) {
            aesir_xaes_key k;
            uint8_t key[32], nonce[24];
            size_t len = below(2049), alen = below(301), got = 0;
            fill(key, 32);
            fill(nonce, 24);
            fill(in, len);
            fill(aad, alen);
            snprintf(where, sizeof(where), "%s random %u len %zu aad %zu",
                     eng[i], c, len, alen);
            T(aesir_xaes_init_ex(&k, key, eng[i], NULL) == AESIR_OK);
            T(aesir_xaes_seal(&k, nonce, aad, alen, out, sizeof(out), &got, in,
                              len) == AESIR_OK &&
              got == len + 16);
            evp_xaes(key, nonce, aad, alen, ref, in, len);
            T(memcmp(out, ref, len + 16) == 0);
            aesir_xaes_clear(&k);
        }
        printf("random   %-14s 500 messages against OpenSSL pieces\n", eng[i]);
    }
}
#endif

/* ---- bad input ------------------------------------------------------------
 */

static void bad(const char *e)
{
    aesir_xaes_key k, zero;
    uint8_t key[32], nonce[24], aad[20], p[40], w[56], f[56], out[56];
    size_t got = 0;

    snprintf(where, sizeof(where), "%s bad input", e);
    fill(key, 32);
    fill(nonce, 24);
    fill(aad, 20);
    fill(p, 40);
    T(aesir_xaes_init_ex(&k, key, e, NULL) == AESIR_OK);
    T(aesir_xaes_seal(&k, nonce, aad, 20, w, sizeof(w), &got, p, 40) ==
      AESIR_OK);
    for (size_t b = 0; b < 8 * sizeof(w); b += 5) {
        memcpy(f, w, sizeof(w));
        f[b / 8] ^= (uint8_t)(1u << (b % 8));
        memset(out, 0x55, sizeof(out));
        got = 77;
        T(aesir_xaes_open(&k, nonce, aad, 20, out, sizeof(out), &got, f, 56) ==
          AESIR_E_AUTH);
        T(got == 0 && all_zero(out, 40) && all_eq(out + 40, 0x55, 16));
    }
    for (size_t b = 0; b < 24 * 8; b += 3) { /* every part of the nonce */
        nonce[b / 8] ^= (uint8_t)(1u << (b % 8));
        T(aesir_xaes_open(&k, nonce, aad, 20, out, sizeof(out), &got, w, 56) ==
          AESIR_E_AUTH);
        nonce[b / 8] ^= (uint8_t)(1u << (b % 8));
    }
    aad[0] ^= 1;
    T(aesir_xaes_open(&k, nonce, aad, 20, out, sizeof(out), &got, w, 56) ==
      AESIR_E_AUTH);
    aad[0] ^= 1;
    T(aesir_xaes_open(&k, nonce, aad, 19, out, sizeof(out), &got, w, 56) ==
      AESIR_E_AUTH);
    T(aesir_xaes_open(&k, nonce, aad, 20, out, sizeof(out), &got, w, 55) ==
      AESIR_E_AUTH);
    memcpy(out, w, 40);
    T(aesir_xaes_open_detached(&k, nonce, aad, 20, out, f, out, 40) ==
      AESIR_E_AUTH);
    T(all_zero(out, 40));
    T(aesir_xaes_open(&k, nonce, aad, 20, out, sizeof(out), &got, w, 56) ==
          AESIR_OK &&
      got == 40 && memcmp(out, p, 40) == 0);
    /* refused calls */
    memset(out, 0xaa, sizeof(out));
    T(aesir_xaes_open(&k, nonce, aad, 20, out, sizeof(out), &got, w, 15) ==
      AESIR_E_INPUT_LENGTH);
    T(aesir_xaes_open(&k, nonce, aad, 20, out, 39, &got, w, 56) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_xaes_seal(&k, nonce, aad, 20, out, 55, &got, p, 40) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_xaes_seal(&k, NULL, aad, 20, out, 56, &got, p, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_xaes_seal(&k, nonce, NULL, 20, out, 56, &got, p, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_xaes_seal(&k, nonce, aad, 20, out, 56, NULL, p, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_xaes_seal(&k, nonce, aad, 20, NULL, 56, &got, p, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_xaes_open(&k, nonce, aad, 20, out, 56, NULL, w, 56) ==
      AESIR_E_ARGUMENT);
    T(aesir_xaes_seal_detached(&k, nonce, aad, 20, out, NULL, p, 40) ==
      AESIR_E_ARGUMENT);
    T(aesir_xaes_open_detached(&k, nonce, aad, 20, out, NULL, p, 40) ==
      AESIR_E_ARGUMENT);
    T(all_eq(out, 0xaa, sizeof(out)));
    memset(&zero, 0, sizeof(zero));
    T(aesir_xaes_seal(&zero, nonce, aad, 20, out, 56, &got, p, 40) ==
      AESIR_E_STATE);
    T(aesir_xaes_open(NULL, nonce, aad, 20, out, 56, &got, w, 56) ==
      AESIR_E_STATE);
    T(aesir_xaes_init_ex(&k, NULL, e, NULL) == AESIR_E_ARGUMENT);
    T(all_zero(&k, sizeof(k)));
    T(aesir_xaes_init_ex(NULL, key, e, NULL) == AESIR_E_ARGUMENT);
    T(aesir_xaes_init_ex(&k, key, "no-such-engine", NULL) ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_xaes_init_ex(&k, key, e, "no-such-ghash") ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_xaes_init(&k, key) == AESIR_OK);
    aesir_xaes_clear(&k);
    T(all_zero(&k, sizeof(k)));
    T(aesir_xaes_seal(&k, nonce, aad, 20, out, 56, &got, p, 40) ==
      AESIR_E_STATE);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    seed_rng("test_xaes");
    neng = engines("test_xaes", eng, eng_slow);
    shake_selftest();
    spec();
    accum();
#ifdef AESIR_TEST_OPENSSL
    random_cases();
#endif
    for (size_t i = 0; i < neng; i++)
        bad(eng[i]);
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
