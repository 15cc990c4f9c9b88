/*
 * test_siv.c -- AES-SIV (src/aead/siv.c) on every engine this CPU can
 * run; the others are listed as UNAVAILABLE.
 *
 *   rfc       RFC 5297 appendix A.1 (deterministic) and A.2 (with a
 *             nonce), as hex here: seal and open, appended and detached,
 *             in place and out of place; A.2's nonce given as the nonce
 *             and as a third associated-data string (the same S2V).
 *   vectors   ciphers/AES/SIV/openssl.txt of the pinned cryptography-
 *             vectors package (AES-128/192/256-SIV, 1..3 AAD strings).
 *   random    AESIR_DIFF_CASES cases per engine (a twentieth, at least
 *             200, on ref and ref-otf): key 32/48/64 bytes, 0..5 AD
 *             strings, a nonce or none, plaintext 1..1100 bytes (one in
 *             32 up to 20 KiB), equal to OpenSSL's "AES-n-SIV" where
 *             OpenSSL is built in (OpenSSL skips empty AAD strings and
 *             computes no tag without plaintext: those cases, also
 *             drawn, are compared with the ref engine only), opened back,
 *             and a random bit of V || C flipped: AESIR_E_AUTH, zeroed.
 *   bad       forged V, ciphertext, AD and nonce (every bit of V, bits of
 *             the rest), AD strings missing, extra, reordered, a nonce
 *             dropped; truncated input; key sizes; more than 126
 *             components; NULL pointers; keys not set up; output too
 *             small; nothing written on a refused call.
 *
 * Argument: the vector directory. The last line is "N passed, M failed".
 */
#include "mac_test.h"

#ifdef AESIR_TEST_OPENSSL
#include <openssl/evp.h>

/* OpenSSL's AES-SIV seal of in (len >= 1) with the non-empty AD strings
 * ad[0..n): V to v, ciphertext to out. */
static void evp_siv(const uint8_t *key, size_t klen, const aesir_siv_ad *ad,
                    size_t n, uint8_t *out, uint8_t v[16], const uint8_t *in,
                    size_t len)
{
    static EVP_CIPHER *ci[3];
    static EVP_CIPHER_CTX *c;
    size_t w = klen / 16 - 2; /* 0, 1, 2 */
    int m = 0;

    if (ci[w] == NULL) {
        static const char *names[3] = {"AES-128-SIV", "AES-192-SIV",
                                       "AES-256-SIV"};
        if ((ci[w] = EVP_CIPHER_fetch(NULL, names[w], NULL)) == NULL)
            goto fail;
    }
    if (c == NULL && (c = EVP_CIPHER_CTX_new()) == NULL)
        goto fail;
    if (EVP_EncryptInit_ex(c, ci[w], NULL, key, NULL) != 1)
        goto fail;
    for (size_t i = 0; i < n; i++)
        if (EVP_EncryptUpdate(c, NULL, &m, ad[i].p, (int)ad[i].len) != 1)
            goto fail;
    if (EVP_EncryptUpdate(c, out, &m, in, (int)len) != 1 ||
        EVP_EncryptFinal_ex(c, out + m, &m) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, v) != 1)
        goto fail;
    return;
fail:
    fprintf(stderr, "EVP SIV failed\n");
    exit(2);
}
#endif

#define DEFAULT_CASES 10000
#define SLOW_DIVISOR 20
#define MIN_SLOW_CASES 200
#define MAXMSG (20 * 1024)

static const char *eng[MAX_ENGINES];
static int eng_slow[MAX_ENGINES];
static size_t neng;

/* Every way in for one known answer on engine e: want = V || C. */
static void check_kat(const char *e, const uint8_t *key, size_t klen,
                      const aesir_siv_ad *ad, size_t n_ad, const uint8_t *nonce,
                      size_t nonce_len, const uint8_t *p, size_t len,
                      const uint8_t *want)
{
    aesir_siv_key k;
    uint8_t *out = xmalloc(len + 32), *buf = xmalloc(len + 32), v[16];
    size_t got = 0;

    T(aesir_siv_init_ex(&k, key, klen, e) == AESIR_OK);
    T(aesir_siv_seal(&k, ad, n_ad, nonce, nonce_len, out, len + 16, &got, p,
                     len) == AESIR_OK);
    T(got == len + 16 && memcmp(out, want, len + 16) == 0);
    memcpy(buf, p, len); /* in place */
    T(aesir_siv_seal(&k, ad, n_ad, nonce, nonce_len, buf, len + 16, &got, buf,
                     len) == AESIR_OK);
    T(got == len + 16 && memcmp(buf, want, len + 16) == 0);
    T(aesir_siv_seal_detached(&k, ad, n_ad, nonce, nonce_len, out, v, p, len) ==
      AESIR_OK);
    T(memcmp(v, want, 16) == 0 && memcmp(out, want + 16, len) == 0);
    T(aesir_siv_open(&k, ad, n_ad, nonce, nonce_len, out, len, &got, want,
                     len + 16) == AESIR_OK);
    T(got == len && memcmp(out, p, len) == 0);
    memcpy(buf, want, len + 16); /* in place */
    T(aesir_siv_open(&k, ad, n_ad, nonce, nonce_len, buf, len, &got, buf,
                     len + 16) == AESIR_OK);
    T(got == len && memcmp(buf, p, len) == 0);
    memcpy(buf, want + 16, len);
    T(aesir_siv_open_detached(&k, ad, n_ad, nonce, nonce_len, buf, want, buf,
                              len) == AESIR_OK);
    T(memcmp(buf, p, len) == 0);
    aesir_siv_clear(&k);
    free(out);
    free(buf);
}

static void rfc(void)
{
    uint8_t k1[32], ad1[24], p1[14], w1[30];
    uint8_t k2[32], ad2a[40], ad2b[10], n2[16], p2[47], w2[63];
    aesir_siv_ad a1[1], a2[3];

    unhex(k1, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfd"
              "feff");
    unhex(ad1, "101112131415161718191a1b1c1d1e1f2021222324252627");
    unhex(p1, "112233445566778899aabbccddee");
    unhex(w1, "85632d07c6e8f37f950acd320a2ecc9340c02b9690c4dc04daef7f6afe5c");
    unhex(k2, "7f7e7d7c7b7a797877767574737271704041424344454647484"
              "94a4b4c4d4e4f");
    unhex(ad2a, "00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddcc"
                "bbaa99887766554433221100");
    unhex(ad2b, "102030405060708090a0");
    unhex(n2, "09f911029d74e35bd84156c5635688c0");
    unhex(p2, "7468697320697320736f6d6520706c61696e7465787420746f20656e63"
              "72797074207573696e67205349562d414553");
    unhex(w2, "7bdb6e3b432667eb06f4d14bff2fbd0fcb900f2fddbe404326601965c8"
              "89bf17dba77ceb094fa663b7a3f748ba8af829ea64ad544a272e9c485b"
              "62a3fd5c0d");
    a1[0].p = ad1, a1[0].len = sizeof(ad1);
    a2[0].p = ad2a, a2[0].len = sizeof(ad2a);
    a2[1].p = ad2b, a2[1].len = sizeof(ad2b);
    a2[2].p = n2, a2[2].len = sizeof(n2);
    for (size_t i = 0; i < neng; i++) {
        snprintf(where, sizeof(where), "%s RFC 5297 A.1", eng[i]);
        check_kat(eng[i], k1, 32, a1, 1, NULL, 0, p1, sizeof(p1), w1);
        snprintf(where, sizeof(where), "%s RFC 5297 A.2", eng[i]);
        check_kat(eng[i], k2, 32, a2, 2, n2, sizeof(n2), p2, sizeof(p2), w2);
        check_kat(eng[i], k2, 32, a2, 3, NULL, 0, p2, sizeof(p2), w2);
    }
}

struct file_arg {
    const char *e;
    size_t n;
};

static void record(const struct vec *v, void *arg)
{
    struct file_arg *a = arg;
    static const char *adn[3] = {"AAD", "AAD2", "AAD3"};
    const char *hk = vec_get(v, "Key"), *ht = vec_get(v, "Tag"),
               *hp = vec_get(v, "Plaintext"), *hc = vec_get(v, "Ciphertext");
    uint8_t key[64], adb[3][256], *p, *w;
    aesir_siv_ad ad[3];
    size_t klen, len, n_ad = 0;

    if (hk == NULL || ht == NULL || hp == NULL || hc == NULL) {
        T(!"SIV record without Key, Tag, Plaintext, Ciphertext");
        return;
    }
    klen = unhex(key, hk);
    for (size_t i = 0; i < 3; i++) {
        const char *h = vec_get(v, adn[i]);
        if (h == NULL || strlen(h) / 2 > sizeof(adb[i]))
            break;
        ad[i].p = adb[i];
        ad[i].len = unhex(adb[i], h);
        n_ad++;
    }
    p = xmalloc(strlen(hp) / 2 + 1);
    w = xmalloc(strlen(hp) / 2 + 17);
    len = unhex(p, hp);
    T(unhex(w, ht) == 16);
    T(unhex(w + 16, hc) == len);
    check_kat(a->e, key, klen, ad, n_ad, NULL, 0, p, len, w);
    free(p);
    free(w);
    a->n++;
}

static void vectors(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/ciphers/AES/SIV/openssl.txt", dir);
    for (size_t i = 0; i < neng; i++) {
        struct file_arg a = {eng[i], 0};
        snprintf(where, sizeof(where), "%s openssl.txt", eng[i]);
        vec_file(path, record, &a);
        T(a.n == 4);
        printf("vectors  %-14s %zu records\n", eng[i], a.n);
    }
}

/* ---- random ----------------------------------------------------------- */

static void random_cases(uint64_t n)
{
    uint8_t *in = xmalloc(MAXMSG + 16), *out = xmalloc(MAXMSG + 32),
            *dec = xmalloc(MAXMSG + 32), *ref = xmalloc(MAXMSG + 32);
    uint8_t adb[6][128];
    for (size_t i = 0; i < neng; i++) {
        uint64_t cases = n, evp = 0;
        clock_t t0 = clock();
        if (eng_slow[i]) {
            cases = n / SLOW_DIVISOR;
            if (cases < MIN_SLOW_CASES)
                cases = MIN_SLOW_CASES < n ? MIN_SLOW_CASES : n;
        }
        for (uint64_t c = 0; c < cases; c++) {
            aesir_siv_ad ad[6];
            aesir_siv_key k, r;
            uint8_t key[64], v[16];
            size_t klen = 32 + 16 * below(3), n_ad = below(6), got = 0, bit;
            size_t len = below(32) == 0 ? below(MAXMSG + 1) : below(1101);
            int use_nonce = (int)below(2), empties = len == 0;
            for (size_t j = 0; j < n_ad + (size_t)use_nonce; j++) {
                ad[j].p = adb[j];
                ad[j].len = below(8) == 0 ? 0 : 1 + below(127);
                empties |= ad[j].len == 0;
                fill(adb[j], ad[j].len);
            }
            fill(key, klen);
            fill(in, len);
            snprintf(where, sizeof(where),
                     "%s random case %" PRIu64 " klen %zu n_ad %zu nonce %d "
                     "len %zu",
                     eng[i], c, klen, n_ad, use_nonce, len);
            T(aesir_siv_init_ex(&k, key, klen, eng[i]) == AESIR_OK);
            T(aesir_siv_seal(&k, ad, n_ad, use_nonce ? ad[n_ad].p : NULL,
                             use_nonce ? ad[n_ad].len : 0, out, len + 16, &got,
                             in, len) == AESIR_OK &&
              got == len + 16);
#ifdef AESIR_TEST_OPENSSL
            if (!empties) {
                evp_siv(key, klen, ad, n_ad + (size_t)use_nonce, ref + 16, ref,
                        in, len);
                T(memcmp(out, ref, len + 16) == 0);
                evp++;
            }
#endif
            if (empties || c % 8 == 0) {
                T(aesir_siv_init_ex(&r, key, klen, "ref") == AESIR_OK);
                T(aesir_siv_seal_detached(&r, ad, n_ad,
                                          use_nonce ? ad[n_ad].p : NULL,
                                          use_nonce ? ad[n_ad].len : 0,
                                          ref + 16, v, in, len) == AESIR_OK);
                T(memcmp(v, out, 16) == 0 &&
                  memcmp(ref + 16, out + 16, len) == 0);
                aesir_siv_clear(&r);
            }
            T(aesir_siv_open(&k, ad, n_ad, use_nonce ? ad[n_ad].p : NULL,
                             use_nonce ? ad[n_ad].len : 0, dec, len, &got, out,
                             len + 16) == AESIR_OK &&
              got == len && memcmp(dec, in, len) == 0);
            bit = below(8 * (len + 16));
            out[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            memset(dec, 0x55, len + 16);
            T(aesir_siv_open(&k, ad, n_ad, use_nonce ? ad[n_ad].p : NULL,
                             use_nonce ? ad[n_ad].len : 0, dec, len, &got, out,
                             len + 16) == AESIR_E_AUTH);
            T(got == 0 && all_zero(dec, len) && all_eq(dec + len, 0x55, 16));
            aesir_siv_clear(&k);
        }
        printf("random   %-14s %" PRIu64 " cases, %" PRIu64
               " against OpenSSL (%.1f s)\n",
               eng[i], cases, evp, (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    free(in);
    free(out);
    free(dec);
    free(ref);
}

/* ---- bad input ---------------------------------------------------------- */

static void bad(const char *e)
{
    static aesir_siv_ad many[130];
    aesir_siv_key k, zero;
    uint8_t key[64], a0[20], a1[30], nonce[16], p[50], w[66], out[66], f[66];
    aesir_siv_ad ad[2] = {{a0, sizeof(a0)}, {a1, sizeof(a1)}}, sw[2];
    size_t got = 0;

    snprintf(where, sizeof(where), "%s bad input", e);
    fill(key, 64);
    fill(a0, sizeof(a0));
    fill(a1, sizeof(a1));
    fill(nonce, sizeof(nonce));
    fill(p, sizeof(p));
    T(aesir_siv_init_ex(&k, key, 64, e) == AESIR_OK);
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, w, sizeof(w), &got, p, 50) ==
      AESIR_OK);
    /* every bit of V, every 3rd of C */
    for (size_t b = 0; b < 8 * sizeof(w); b += b < 128 ? 1 : 3) {
        memcpy(f, w, sizeof(w));
        f[b / 8] ^= (uint8_t)(1u << (b % 8));
        memset(out, 0x55, sizeof(out));
        got = 77;
        T(aesir_siv_open(&k, ad, 2, nonce, 16, out, sizeof(out), &got, f,
                         sizeof(f)) == AESIR_E_AUTH);
        T(got == 0 && all_zero(out, 50) && all_eq(out + 50, 0x55, 16));
        memcpy(out, f + 16, 50);
        T(aesir_siv_open_detached(&k, ad, 2, nonce, 16, out, f, out, 50) ==
          AESIR_E_AUTH);
        T(all_zero(out, 50));
    }
    /* AD and nonce changes */
    a0[3] ^= 1;
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 50, &got, w, 66) ==
      AESIR_E_AUTH);
    a0[3] ^= 1;
    nonce[15] ^= 0x80;
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 50, &got, w, 66) ==
      AESIR_E_AUTH);
    nonce[15] ^= 0x80;
    T(aesir_siv_open(&k, ad, 2, nonce, 15, out, 50, &got, w, 66) ==
      AESIR_E_AUTH);
    T(aesir_siv_open(&k, ad, 2, NULL, 0, out, 50, &got, w, 66) == AESIR_E_AUTH);
    T(aesir_siv_open(&k, ad, 1, nonce, 16, out, 50, &got, w, 66) ==
      AESIR_E_AUTH);
    T(aesir_siv_open(&k, NULL, 0, nonce, 16, out, 50, &got, w, 66) ==
      AESIR_E_AUTH);
    sw[0] = ad[1], sw[1] = ad[0];
    T(aesir_siv_open(&k, sw, 2, nonce, 16, out, 50, &got, w, 66) ==
      AESIR_E_AUTH);
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 50, &got, w, 65) ==
      AESIR_E_AUTH); /* truncated */
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 50, &got, w, 66) == AESIR_OK &&
      got == 50 && memcmp(out, p, 50) == 0);
    /* lengths, sizes, NULLs */
    memset(out, 0xaa, sizeof(out));
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 50, &got, w, 15) ==
      AESIR_E_INPUT_LENGTH);
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 49, &got, w, 66) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, out, 65, &got, p, 50) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, out, 15, &got, p, 0) ==
      AESIR_E_OUTPUT_SIZE);
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, out, SIZE_MAX, &got, p,
                     SIZE_MAX - 15) == AESIR_E_OUTPUT_SIZE);
    T(all_eq(out, 0xaa, sizeof(out)));
    T(aesir_siv_seal(&k, NULL, 1, nonce, 16, out, 66, &got, p, 50) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_seal(&k, ad, 2, NULL, 3, out, 66, &got, p, 50) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, NULL, 66, &got, p, 50) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, out, 66, NULL, p, 50) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, out, 66, &got, NULL, 50) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 66, NULL, w, 66) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_open(&k, ad, 2, nonce, 16, out, 66, &got, NULL, 66) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_seal_detached(&k, ad, 2, nonce, 16, out, NULL, p, 50) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_open_detached(&k, ad, 2, nonce, 16, out, NULL, p, 50) ==
      AESIR_E_ARGUMENT);
    ad[1].p = NULL;
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, out, 66, &got, p, 50) ==
      AESIR_E_ARGUMENT);
    ad[1].p = a1;
    T(all_eq(out, 0xaa, sizeof(out)));
    /* 126 components at most, the nonce included */
    for (size_t i = 0; i < 130; i++)
        many[i].p = a0, many[i].len = i % 3;
    T(aesir_siv_seal(&k, many, 126, NULL, 0, out, 66, &got, p, 50) == AESIR_OK);
    T(aesir_siv_open(&k, many, 126, NULL, 0, out, 66, &got, out, 66) ==
      AESIR_OK);
    T(aesir_siv_seal(&k, many, 125, nonce, 16, out, 66, &got, p, 50) ==
      AESIR_OK);
    T(aesir_siv_seal(&k, many, 127, NULL, 0, out, 66, &got, p, 50) ==
      AESIR_E_ARGUMENT);
    T(aesir_siv_seal(&k, many, 126, nonce, 16, out, 66, &got, p, 50) ==
      AESIR_E_ARGUMENT);
    /* keys */
    memset(&zero, 0, sizeof(zero));
    T(aesir_siv_seal(&zero, ad, 2, nonce, 16, out, 66, &got, p, 50) ==
      AESIR_E_STATE);
    T(aesir_siv_open(&zero, ad, 2, nonce, 16, out, 66, &got, w, 66) ==
      AESIR_E_STATE);
    T(aesir_siv_seal(NULL, ad, 2, nonce, 16, out, 66, &got, p, 50) ==
      AESIR_E_STATE);
    for (size_t kl = 0; kl <= 65; kl++) {
        if (kl == 32 || kl == 48 || kl == 64)
            continue;
        memset(&k, 0x55, sizeof(k));
        T(aesir_siv_init_ex(&k, key, kl, e) == AESIR_E_KEY_LENGTH);
        T(all_zero(&k, sizeof(k)));
    }
    T(aesir_siv_init_ex(&k, NULL, 32, e) == AESIR_E_ARGUMENT);
    T(aesir_siv_init_ex(NULL, key, 32, e) == AESIR_E_ARGUMENT);
    T(aesir_siv_init_ex(&k, key, 32, "no-such-engine") ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_siv_init(&k, key, 32) == AESIR_OK);
    aesir_siv_clear(&k);
    T(all_zero(&k, sizeof(k)));
    T(aesir_siv_seal(&k, ad, 2, nonce, 16, out, 66, &got, p, 50) ==
      AESIR_E_STATE);
}

int main(int argc, char **argv)
{
    uint64_t n;

    if (argc < 2) {
        fprintf(stderr, "usage: test_siv VECTOR_DIR\n");
        return 2;
    }
    seed_rng("test_siv");
    n = env_u64("AESIR_DIFF_CASES", DEFAULT_CASES);
    neng = engines("test_siv", eng, eng_slow);
    rfc();
    vectors(argv[1]);
    random_cases(n);
    for (size_t i = 0; i < neng; i++)
        bad(eng[i]);
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
