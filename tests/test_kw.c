/*
 * test_kw.c -- key wrap, KW and KWP (src/aead/kw.c), on every engine this
 * CPU can run; the others are listed as UNAVAILABLE.
 *
 *   vectors   the NIST CAVP key-wrap files of the pinned
 *             cryptography-vectors package, keywrap/kwtestvectors/
 *             KW_AE, KW_AD, KWP_AE, KWP_AD for AES-128/192/256 and their
 *             _inv variants (AESIR_KW_INVERSE): 500 records each. AE
 *             records wrap to C and unwrap back (in place for every
 *             fourth record, out of place for the others); AD records unwrap to
 * P, or, for the 20 FAIL records of each file, return AESIR_E_AUTH with the
 * output zeroed and *out_len 0. rfc       RFC 3394 section 4 (4.1-4.6) and RFC
 * 5649 section 6, as hex. random    AESIR_DIFF_CASES random cases per engine (a
 * twentieth, at least 200, on ref and ref-otf), KW and KWP in turn: random key
 * size and length (KW 16..1024 bytes in steps of 8, KWP 1..1024), wrap equal to
 * OpenSSL's EVP_aes_*_wrap(_pad) where OpenSSL is built in and to the ref
 * engine's, unwrap back, and a random bit of the wrapped key flipped:
 * AESIR_E_AUTH, output zeroed (OpenSSL refuses it too). bad       lengths (KW
 * below 16 / 24 or not a multiple of 8, KWP 0, unwrap inputs not a multiple of
 * 8 or below 16), output too small (nothing written), NULL pointers, unknown
 * option bits, keys without the direction needed, every single-bit flip of a
 * wrapped key, truncated and extended wrapped keys, KWP length fields out of
 * range.
 *
 * Argument: the vector directory. The last line is "N passed, M failed".
 */
#include "mac_test.h"

#ifdef AESIR_TEST_OPENSSL
#include <openssl/evp.h>

/* OpenSSL's wrap (enc) or unwrap of in; returns the output length, or 0
 * when unwrapping fails. */
static size_t evp_kw(int pad, int enc, const uint8_t *key, size_t klen,
                     uint8_t *out, const uint8_t *in, size_t len)
{
    static EVP_CIPHER_CTX *c;
    const EVP_CIPHER *ci = pad ? (klen == 16   ? EVP_aes_128_wrap_pad()
                                  : klen == 24 ? EVP_aes_192_wrap_pad()
                                               : EVP_aes_256_wrap_pad())
                               : (klen == 16   ? EVP_aes_128_wrap()
                                  : klen == 24 ? EVP_aes_192_wrap()
                                               : EVP_aes_256_wrap());
    int n = 0, m = 0;

    if (c == NULL && (c = EVP_CIPHER_CTX_new()) == NULL)
        goto fail;
    EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (EVP_CipherInit_ex(c, ci, NULL, key, NULL, enc) != 1)
        goto fail;
    if (EVP_CipherUpdate(c, out, &n, in, (int)len) != 1) {
        if (enc)
            goto fail;
        return 0;
    }
    if (EVP_CipherFinal_ex(c, out + n, &m) != 1) {
        if (enc)
            goto fail;
        return 0;
    }
    return (size_t)(n + m);
fail:
    fprintf(stderr, "EVP key wrap failed\n");
    exit(2);
}
#endif

#define DEFAULT_CASES 10000
#define SLOW_DIVISOR 20
#define MIN_SLOW_CASES 200
#define MAXLEN 1040

static const char *eng[MAX_ENGINES];
static int eng_slow[MAX_ENGINES];
static size_t neng;

typedef int (*kw_fn)(const aesir_aes *, unsigned, uint8_t *, size_t, size_t *,
                     const uint8_t *, size_t);

static kw_fn wrap_of(int pad)
{
    return pad ? aesir_kwp_wrap : aesir_kw_wrap;
}

static kw_fn unwrap_of(int pad)
{
    return pad ? aesir_kwp_unwrap : aesir_kw_unwrap;
}

/* ---- vectors ------------------------------------------------------------ */

struct file_arg {
    const char *e;
    int pad, ad;
    unsigned opt;
    size_t n, fails;
};

static void record(const struct vec *v, void *arg)
{
    struct file_arg *a = arg;
    const char *hk = vec_get(v, "K"), *hc = vec_get(v, "C"),
               *hp = vec_get(v, "P");
    uint8_t key[32], *c, *p, *out;
    size_t klen, clen, plen = 0, got = 99;
    aesir_aes k;

    if (hk == NULL || hc == NULL || (hp == NULL && !v->fail)) {
        T(!"key-wrap record without K, C, P/FAIL");
        return;
    }
    c = xmalloc(strlen(hc) / 2 + 16);
    p = xmalloc((hp ? strlen(hp) / 2 : 0) + 16);
    out = xmalloc(strlen(hc) / 2 + 16);
    klen = unhex(key, hk);
    clen = unhex(c, hc);
    if (hp != NULL)
        plen = unhex(p, hp);
    T(aesir_aes_init_ex(&k, key, klen, a->e, AESIR_ENCRYPT | AESIR_DECRYPT) ==
      AESIR_OK);
    if (v->fail) {
        memset(out, 0x55, clen);
        T(unwrap_of(a->pad)(&k, a->opt, out, clen, &got, c, clen) ==
          AESIR_E_AUTH);
        T(got == 0 && all_zero(out, clen - 8));
        a->fails++;
    } else {
        /* unwrap, out of place (in place: every fourth record) */
        int inplace = a->n % 4 == 0;
        if (inplace)
            memcpy(out, c, clen);
        T(unwrap_of(a->pad)(&k, a->opt, out, clen, &got, inplace ? out : c,
                            clen) == AESIR_OK);
        T(got == plen && memcmp(out, p, plen) == 0);
        if (!a->ad) {
            /* wrap, out of place (in place: every fourth record) */
            if (inplace)
                memcpy(out, p, plen);
            T(wrap_of(a->pad)(&k, a->opt, out, clen, &got, inplace ? out : p,
                              plen) == AESIR_OK);
            T(got == clen && memcmp(out, c, clen) == 0);
        }
    }
    aesir_aes_clear(&k);
    free(c);
    free(p);
    free(out);
    a->n++;
}

static void vectors(const char *dir)
{
    char path[1024], name[64];
    for (size_t i = 0; i < neng; i++) {
        size_t total = 0, fails = 0;
        clock_t t0 = clock();
        for (int pad = 0; pad < 2; pad++)
            for (int ad = 0; ad < 2; ad++)
                for (int bits = 128; bits <= 256; bits += 64)
                    for (int inv = 0; inv < 2; inv++) {
                        struct file_arg a = {
                            eng[i], pad, ad, inv ? AESIR_KW_INVERSE : 0u, 0, 0};
                        snprintf(name, sizeof(name), "%s_%s_%d%s",
                                 pad ? "KWP" : "KW", ad ? "AD" : "AE", bits,
                                 inv ? "_inv" : "");
                        snprintf(path, sizeof(path),
                                 "%s/keywrap/kwtestvectors/%s.txt", dir, name);
                        snprintf(where, sizeof(where), "%s %s", eng[i], name);
                        vec_file(path, record, &a);
                        T(a.n == 500 && a.fails == (ad ? 100u : 0u));
                        total += a.n;
                        fails += a.fails;
                    }
        printf("vectors  %-14s %zu records (%zu FAIL) in 24 files (%.1f s)\n",
               eng[i], total, fails, (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
}

/* ---- RFC 3394 section 4, RFC 5649 section 6 ---------------------------- */

static void rfc(void)
{
    static const struct {
        int pad;
        const char *kek, *data, *wrapped;
    } ex[] = {
        /* RFC 3394 4.1 .. 4.6 */
        {0, "000102030405060708090A0B0C0D0E0F",
         "00112233445566778899AABBCCDDEEFF",
         "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"},
        {0, "000102030405060708090A0B0C0D0E0F1011121314151617",
         "00112233445566778899AABBCCDDEEFF",
         "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D"},
        {0, "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
         "00112233445566778899AABBCCDDEEFF",
         "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7"},
        {0, "000102030405060708090A0B0C0D0E0F1011121314151617",
         "00112233445566778899AABBCCDDEEFF0001020304050607",
         "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2"},
        {0, "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
         "00112233445566778899AABBCCDDEEFF0001020304050607",
         "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1"},
        {0, "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
         "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
         "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB98"
         "8B9B7A02DD21"},
        /* RFC 5649 section 6 */
        {1, "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8",
         "c37b7e6492584340bed12207808941155068f738",
         "138bdeaa9b8fa7fc61f97742e72248ee5ae6ae5360d1ae6a5f54f373fa543b6a"},
        {1, "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8",
         "466f7250617369", "afbeb0f07dfbf5419200f2ccb50bb24f"},
    };
    for (size_t i = 0; i < neng; i++)
        for (size_t j = 0; j < sizeof(ex) / sizeof(ex[0]); j++) {
            uint8_t kek[32], data[32], w[40], out[48];
            size_t kl = unhex(kek, ex[j].kek), dl = unhex(data, ex[j].data),
                   wl = unhex(w, ex[j].wrapped), got = 0;
            aesir_aes k;
            snprintf(where, sizeof(where), "%s rfc example %zu", eng[i], j);
            T(aesir_aes_init_ex(&k, kek, kl, eng[i],
                                AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
            T(wrap_of(ex[j].pad)(&k, 0, out, sizeof(out), &got, data, dl) ==
              AESIR_OK);
            T(got == wl && memcmp(out, w, wl) == 0);
            T(unwrap_of(ex[j].pad)(&k, 0, out, sizeof(out), &got, w, wl) ==
              AESIR_OK);
            T(got == dl && memcmp(out, data, dl) == 0);
            aesir_aes_clear(&k);
        }
}

/* ---- random ---------------------------------------------------------------
 */

static void random_cases(uint64_t n)
{
    uint8_t in[MAXLEN], w[MAXLEN + 16], w2[MAXLEN + 16], out[MAXLEN + 16];
    for (size_t i = 0; i < neng; i++) {
        uint64_t cases = n;
        clock_t t0 = clock();
        if (eng_slow[i]) {
            cases = n / SLOW_DIVISOR;
            if (cases < MIN_SLOW_CASES)
                cases = MIN_SLOW_CASES < n ? MIN_SLOW_CASES : n;
        }
        for (uint64_t c = 0; c < cases; c++) {
            int pad = (int)(c & 1);
            size_t klen = 16 + 8 * below(3), len, wl = 0, got = 0, bit;
            unsigned opt = below(4) == 0 ? AESIR_KW_INVERSE : 0;
            uint8_t key[32];
            aesir_aes k, r;
            len = pad ? 1 + below(below(4) == 0 ? 1024 : 40)
                      : 8 * (2 + below(below(4) == 0 ? 127 : 6));
            fill(key, klen);
            fill(in, len);
            snprintf(where, sizeof(where),
                     "%s random case %" PRIu64 " %s klen %zu len %zu opt %u",
                     eng[i], c, pad ? "KWP" : "KW", klen, len, opt);
            T(aesir_aes_init_ex(&k, key, klen, eng[i],
                                AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
            T(wrap_of(pad)(&k, opt, w, sizeof(w), &wl, in, len) == AESIR_OK);
            T(wl == (len + 7) / 8 * 8 + 8);
#ifdef AESIR_TEST_OPENSSL
            if (opt == 0) {
                T(evp_kw(pad, 1, key, klen, w2, in, len) == wl &&
                  memcmp(w, w2, wl) == 0);
            }
#endif
            if (c % 8 == 0) {
                T(aesir_aes_init_ex(&r, key, klen, "ref",
                                    AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
                T(wrap_of(pad)(&r, opt, w2, sizeof(w2), &got, in, len) ==
                      AESIR_OK &&
                  got == wl && memcmp(w, w2, wl) == 0);
                aesir_aes_clear(&r);
            }
            T(unwrap_of(pad)(&k, opt, out, sizeof(out), &got, w, wl) ==
              AESIR_OK);
            T(got == len && memcmp(out, in, len) == 0);
            /* one bit of the wrapped key flipped */
            bit = below(8 * wl);
            w[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            memset(out, 0x55, sizeof(out));
            T(unwrap_of(pad)(&k, opt, out, sizeof(out), &got, w, wl) ==
              AESIR_E_AUTH);
            T(got == 0 && all_zero(out, wl - 8) &&
              all_eq(out + wl - 8, 0x55, sizeof(out) - (wl - 8)));
#ifdef AESIR_TEST_OPENSSL
            if (opt == 0)
                T(evp_kw(pad, 0, key, klen, w2, w, wl) == 0);
#endif
            aesir_aes_clear(&k);
        }
        printf("random   %-14s %" PRIu64 " cases%s (%.1f s)\n", eng[i], cases,
#ifdef AESIR_TEST_OPENSSL
               ", against OpenSSL (the non-inverse ones)",
#else
               "",
#endif
               (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
}

/* ---- bad input ------------------------------------------------------------
 */

static void bad(const char *e)
{
    aesir_aes k, enc_only, dec_only, zero;
    uint8_t key[16], in[64], w[80], out[80];
    size_t got, wl = 0;

    snprintf(where, sizeof(where), "%s bad input", e);
    fill(key, 16);
    fill(in, sizeof(in));
    T(aesir_aes_init_ex(&k, key, 16, e, AESIR_ENCRYPT | AESIR_DECRYPT) ==
      AESIR_OK);
    T(aesir_aes_init_ex(&enc_only, key, 16, e, AESIR_ENCRYPT) == AESIR_OK);
    T(aesir_aes_init_ex(&dec_only, key, 16, e, AESIR_DECRYPT) == AESIR_OK);
    memset(&zero, 0, sizeof(zero));
    for (int pad = 0; pad < 2; pad++) {
        kw_fn wr = wrap_of(pad), un = unwrap_of(pad);
        /* wrap lengths */
        for (size_t len = 0; len <= 40; len++) {
            int ok = pad ? len >= 1 : len >= 16 && len % 8 == 0;
            got = 77;
            memset(w, 0xaa, sizeof(w));
            T(wr(&k, 0, w, sizeof(w), &got, in, len) ==
              (ok ? AESIR_OK : AESIR_E_INPUT_LENGTH));
            if (!ok)
                T(got == 0 && all_eq(w, 0xaa, sizeof(w)));
        }
        /* unwrap lengths */
        T(wr(&k, 0, w, sizeof(w), &wl, in, 32) == AESIR_OK);
        for (size_t len = 0; len < 24; len++) {
            if (pad && len == 16)
                continue; /* one semiblock: a valid length */
            memset(out, 0xaa, sizeof(out));
            T(un(&k, 0, out, sizeof(out), &got, w, len) ==
              AESIR_E_INPUT_LENGTH);
            T(got == 0 && all_eq(out, 0xaa, sizeof(out)));
        }
        T(un(&k, 0, out, sizeof(out), &got, w, 41) == AESIR_E_INPUT_LENGTH);
        /* output too small: nothing written */
        memset(out, 0xaa, sizeof(out));
        T(wr(&k, 0, out, 39, &got, in, 32) == AESIR_E_OUTPUT_SIZE);
        T(un(&k, 0, out, 31, &got, w, 40) == AESIR_E_OUTPUT_SIZE);
        T(all_eq(out, 0xaa, sizeof(out)));
        /* NULLs, options, keys */
        T(wr(&k, 0, out, sizeof(out), NULL, in, 32) == AESIR_E_ARGUMENT);
        T(wr(&k, 0, NULL, sizeof(out), &got, in, 32) == AESIR_E_ARGUMENT);
        T(wr(&k, 0, out, sizeof(out), &got, NULL, 32) == AESIR_E_ARGUMENT);
        T(un(&k, 0, out, sizeof(out), NULL, w, 40) == AESIR_E_ARGUMENT);
        T(un(&k, 0, NULL, sizeof(out), &got, w, 40) == AESIR_E_ARGUMENT);
        T(un(&k, 0, out, sizeof(out), &got, NULL, 40) == AESIR_E_ARGUMENT);
        T(wr(&k, 2, out, sizeof(out), &got, in, 32) == AESIR_E_ARGUMENT);
        T(un(&k, 4, out, sizeof(out), &got, w, 40) == AESIR_E_ARGUMENT);
        T(wr(NULL, 0, out, sizeof(out), &got, in, 32) == AESIR_E_STATE);
        T(wr(&zero, 0, out, sizeof(out), &got, in, 32) == AESIR_E_STATE);
        T(un(&zero, 0, out, sizeof(out), &got, w, 40) == AESIR_E_STATE);
        T(wr(&dec_only, 0, out, sizeof(out), &got, in, 32) == AESIR_E_STATE);
        T(un(&enc_only, 0, out, sizeof(out), &got, w, 40) == AESIR_E_STATE);
        T(wr(&enc_only, AESIR_KW_INVERSE, out, sizeof(out), &got, in, 32) ==
          AESIR_E_STATE);
        T(un(&dec_only, AESIR_KW_INVERSE, out, sizeof(out), &got, w, 40) ==
          AESIR_E_STATE);
        T(wr(&enc_only, 0, out, sizeof(out), &got, in, 32) == AESIR_OK);
        T(un(&dec_only, 0, out, sizeof(out), &got, w, 40) == AESIR_OK &&
          got == 32 && memcmp(out, in, 32) == 0);
        /* the inverse variant is another function: its unwrap of a
         * normal wrap fails */
        T(un(&k, AESIR_KW_INVERSE, out, sizeof(out), &got, w, 40) ==
          AESIR_E_AUTH);
        /* every bit flipped; truncated; extended */
        for (size_t b = 0; b < 8 * wl; b++) {
            uint8_t f[80];
            memcpy(f, w, wl);
            f[b / 8] ^= (uint8_t)(1u << (b % 8));
            memset(out, 0x55, sizeof(out));
            T(un(&k, 0, out, sizeof(out), &got, f, wl) == AESIR_E_AUTH);
            T(got == 0 && all_zero(out, wl - 8));
        }
        T(un(&k, 0, out, sizeof(out), &got, w, wl - 8) == AESIR_E_AUTH);
        memcpy(out, w, wl);
        memset(out + wl, 0, 8);
        T(un(&k, 0, out, sizeof(out), &got, out, wl + 8) == AESIR_E_AUTH);
        T(all_zero(out, wl));
    }
    /* KWP: a valid wrap of a forged length field (ICV2 || len, wrapped
     * as one block): lengths 0, 9..16 and 2^32-1 for an 8-byte payload,
     * and nonzero padding */
    {
        static const uint32_t lens[] = {0, 9, 12, 16, 0xffffffffu};
        for (size_t i = 0; i < 6; i++) {
            uint8_t b[16] = {0xa6, 0x59, 0x59, 0xa6};
            if (i < 5) {
                b[4] = (uint8_t)(lens[i] >> 24),
                b[5] = (uint8_t)(lens[i] >> 16);
                b[6] = (uint8_t)(lens[i] >> 8), b[7] = (uint8_t)lens[i];
            } else {
                b[7] = 5; /* 5 bytes, then 3 bytes of padding, one nonzero */
                b[15] = 1;
            }
            T(aesir_aes_encrypt_block(&k, b, b) == AESIR_OK);
            memset(out, 0x55, sizeof(out));
            got = 77;
            T(aesir_kwp_unwrap(&k, 0, out, sizeof(out), &got, b, 16) ==
              AESIR_E_AUTH);
            T(got == 0 && all_zero(out, 8));
        }
    }
    aesir_aes_clear(&k);
    aesir_aes_clear(&enc_only);
    aesir_aes_clear(&dec_only);
}

int main(int argc, char **argv)
{
    uint64_t n;

    if (argc < 2) {
        fprintf(stderr, "usage: test_kw VECTOR_DIR\n");
        return 2;
    }
    seed_rng("test_kw");
    n = env_u64("AESIR_DIFF_CASES", DEFAULT_CASES);
    neng = engines("test_kw", eng, eng_slow);
    vectors(argv[1]);
    rfc();
    random_cases(n);
    for (size_t i = 0; i < neng; i++)
        bad(eng[i]);
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
