/*
 * test_ccm_long_aad.c -- CCM's encodings of the AAD length (NIST SP
 * 800-38C A.2.2): [a]_16 for 0 < a < 2^16 - 2^8; 0xff 0xfe [a]_32 for
 * 2^16 - 2^8 <= a < 2^32 (the "6-byte" form); 0xff 0xff [a]_64 for
 * a >= 2^32 (the "10-byte" form), which only a message with at least
 * 4 GiB of AAD reaches.
 *
 *   model     CCM written here from SP 800-38C on aesir's CBC encryption
 *             (the CBC-MAC of 6.1 step 4: the last block of the CBC
 *             encryption of B0 || encoded a || AAD || padding || payload
 *             || padding under a zero IV, fed in chunks with the chain
 *             carried) and its ECB (the counter blocks Ctr_i of A.3 for
 *             the tag mask S_0 and the keystream); no CCM code of the
 *             library runs in it.
 *   boundary a = 65279 (the 2-byte form's last), 65280 (the 6-byte
 *             form's first), and small and mid-size ones: the library's
 *             one-shot and incremental CCM, the model and (where linked,
 *             AESIR_TEST_OPENSSL) OpenSSL's EVP CCM agree on ciphertext
 *             and tag, every nonce length 7..13 once; the model is so
 *             checked against OpenSSL before it checks the long case.
 *   long      (argument "long") a = 2^32 + 17 through the incremental API
 *             (declared lengths; 4096 pieces of 1 MiB from one buffer,
 *             then 17 bytes) on the default engine, against the model;
 *             then the same message decrypted and verified. OpenSSL's EVP takes
 * the AAD as one int-sized call, so it cannot take part. The time is printed.
 * tests/CMakeLists.txt passes "long" natively only (not under an emulator, not
 * in the sanitizer build).
 *
 * The last line is "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "check.h"

#ifdef AESIR_TEST_OPENSSL
#include <openssl/evp.h>
#endif

#define T(cond)                                                                \
    do {                                                                       \
        if (cond) {                                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            fprintf(stderr, "FAIL %s:%d [%s]: %s\n", __FILE__, __LINE__,       \
                    where, #cond);                                             \
        }                                                                      \
    } while (0)

static char where[128];
static uint64_t rng = 0x63636d6c6f6e6761u;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void fillr(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

#define MIB ((size_t)1 << 20)

/* ---- the model ------------------------------------------------------- */

/* The CBC-MAC of a byte stream fed in pieces: whole blocks through
 * aesir_cbc_encrypt from a staging buffer, the chain carried as the IV
 * of the next call. */
struct cbcmac {
    const aesir_aes *aes;
    uint8_t y[16]; /* the chain: Y_i, zero at first */
    uint8_t *stage, *out;
    size_t n, cap;
    int err;
};

static void mac_blocks(struct cbcmac *m)
{
    size_t whole = m->n & ~(size_t)15, ol;
    if (whole == 0)
        return;
    if (aesir_cbc_encrypt(m->aes, m->y, AESIR_PAD_NONE, m->out, m->cap, &ol,
                          m->stage, whole) != AESIR_OK ||
        ol != whole)
        m->err = 1;
    memcpy(m->y, m->out + whole - 16, 16);
    memmove(m->stage, m->stage + whole, m->n - whole);
    m->n -= whole;
}

static void mac_feed(struct cbcmac *m, const uint8_t *p, size_t len)
{
    while (len > 0) {
        size_t k = m->cap - m->n < len ? m->cap - m->n : len;
        memcpy(m->stage + m->n, p, k);
        m->n += k, p += k, len -= k;
        if (m->n == m->cap)
            mac_blocks(m);
    }
}

/* Zeros to the next block boundary (the padding of 6.1 steps 1-2). */
static void mac_pad(struct cbcmac *m)
{
    static const uint8_t zero[16];
    if (m->n % 16 != 0)
        mac_feed(m, zero, 16 - m->n % 16);
}

/* Ctr_i (A.3): flags q - 1, the nonce, i in q bytes. */
static void ctr_block(uint8_t b[16], const uint8_t *nonce, size_t nl,
                      uint64_t i)
{
    const size_t q = 15 - nl;
    b[0] = (uint8_t)(q - 1);
    memcpy(b + 1, nonce, nl);
    for (size_t k = 0; k < q; k++)
        b[15 - k] = k < 8 ? (uint8_t)(i >> (8 * k)) : 0;
}

/* The AAD as the caller feeds it: aad_len bytes of the repeated buffer
 * src (src_len bytes). */
static void feed_aad(struct cbcmac *m, const uint8_t *src, size_t src_len,
                     uint64_t aad_len)
{
    while (aad_len > 0) {
        size_t k = aad_len < src_len ? (size_t)aad_len : src_len;
        mac_feed(m, src, k);
        aad_len -= k;
    }
}

/* CCM encryption (SP 800-38C 6.1) of msg with aad_len bytes of AAD (the
 * buffer src repeated): ct and tag (tl bytes). 0 on success. */
static int model_ccm(const aesir_aes *aes, const uint8_t *nonce, size_t nl,
                     const uint8_t *src, size_t src_len, uint64_t aad_len,
                     const uint8_t *msg, size_t len, uint8_t *ct, uint8_t *tag,
                     size_t tl)
{
    struct cbcmac m;
    uint8_t b0[16], enc[10], blk[16], ks[16];
    const size_t q = 15 - nl;
    size_t el = 0;

    memset(&m, 0, sizeof(m));
    m.aes = aes;
    m.cap = 4 * MIB;
    m.stage = malloc(m.cap);
    m.out = malloc(m.cap);
    if (m.stage == NULL || m.out == NULL)
        return 1;
    /* B0 (A.2.1): flags Adata, [(t - 2) / 2]_3, [q - 1]_3; N; [len]_8q */
    b0[0] =
        (uint8_t)((aad_len != 0 ? 0x40 : 0) | ((tl - 2) / 2) << 3 | (q - 1));
    memcpy(b0 + 1, nonce, nl);
    for (size_t k = 0; k < q; k++)
        b0[15 - k] = k < 8 ? (uint8_t)((uint64_t)len >> (8 * k)) : 0;
    mac_feed(&m, b0, 16);
    /* the encoding of a (A.2.2) */
    if (aad_len == 0) {
        el = 0;
    } else if (aad_len < 0xff00) {
        enc[0] = (uint8_t)(aad_len >> 8), enc[1] = (uint8_t)aad_len;
        el = 2;
    } else if (aad_len < (UINT64_C(1) << 32)) {
        enc[0] = 0xff, enc[1] = 0xfe;
        for (size_t k = 0; k < 4; k++)
            enc[2 + k] = (uint8_t)(aad_len >> (24 - 8 * k));
        el = 6;
    } else {
        enc[0] = 0xff, enc[1] = 0xff;
        for (size_t k = 0; k < 8; k++)
            enc[2 + k] = (uint8_t)(aad_len >> (56 - 8 * k));
        el = 10;
    }
    mac_feed(&m, enc, el);
    feed_aad(&m, src, src_len, aad_len);
    mac_pad(&m);
    mac_feed(&m, msg, len);
    mac_pad(&m);
    mac_blocks(&m);
    /* T = MSB_t(Y_r); C = P ^ MSB_len(S_1 || S_2 ..), tag ^ S_0 */
    ctr_block(blk, nonce, nl, 0);
    if (aesir_aes_encrypt_blocks(aes, ks, blk, 1) != AESIR_OK)
        m.err = 1;
    for (size_t k = 0; k < tl; k++)
        tag[k] = m.y[k] ^ ks[k];
    for (size_t o = 0; o < len; o += 16) {
        const size_t n = len - o < 16 ? len - o : 16;
        ctr_block(blk, nonce, nl, o / 16 + 1);
        if (aesir_aes_encrypt_blocks(aes, ks, blk, 1) != AESIR_OK)
            m.err = 1;
        for (size_t k = 0; k < n; k++)
            ct[o + k] = msg[o + k] ^ ks[k];
    }
    free(m.stage);
    free(m.out);
    return m.err;
}

#ifdef AESIR_TEST_OPENSSL
/* OpenSSL's CCM encryption: ct and tag; 0 on success. */
static int evp_ccm(const uint8_t key[16], const uint8_t *nonce, size_t nl,
                   const uint8_t *aad, size_t aad_len, const uint8_t *msg,
                   size_t len, uint8_t *ct, uint8_t *tag, size_t tl)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    uint8_t dummy[16];
    int n = 0, ok;

    ok = c != NULL &&
         EVP_EncryptInit_ex(c, EVP_aes_128_ccm(), NULL, NULL, NULL) == 1 &&
         EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)nl, NULL) == 1 &&
         EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)tl, NULL) == 1 &&
         EVP_EncryptInit_ex(c, NULL, NULL, key, nonce) == 1 &&
         EVP_EncryptUpdate(c, NULL, &n, NULL, (int)len) == 1 &&
         (aad_len == 0 ||
          EVP_EncryptUpdate(c, NULL, &n, aad, (int)aad_len) == 1) &&
         EVP_EncryptUpdate(c, len ? ct : dummy, &n, len ? msg : dummy,
                           (int)len) == 1 &&
         EVP_EncryptFinal_ex(c, dummy, &n) == 1 &&
         EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)tl, tag) == 1;
    EVP_CIPHER_CTX_free(c);
    return !ok;
}
#endif

/* ---- the boundary ---------------------------------------------------- */

static void test_boundary(void)
{
    static const size_t lens[] = {1,     14,    15,    255,   256,  1000,
                                  65278, 65279, 65280, 65281, 70000};
    uint8_t key[16], nonce[13], msg[100], ct[100], tag[16], mct[100], mtag[16];
    uint8_t *aad = malloc(70000);
    aesir_ccm_key k;
    aesir_aes aes;

    if (aad == NULL) {
        T(0);
        return;
    }
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        const size_t al = lens[i], nl = 7 + i % 7, len = 1 + i * 9 % 100;
        size_t tl = 4 + 2 * (i % 7);
        aesir_ccm ctx;
        snprintf(where, sizeof(where), "boundary a=%zu nonce %zu", al, nl);
        fillr(key, 16);
        fillr(nonce, nl);
        fillr(msg, len);
        fillr(aad, al);
        T(aesir_ccm_init(&k, key, 16) == AESIR_OK);
        T(aesir_aes_init_ex(&aes, key, 16, NULL, AESIR_ENCRYPT) == AESIR_OK);
        T(model_ccm(&aes, nonce, nl, aad, al, al, msg, len, mct, mtag, tl) ==
          0);
        T(aesir_ccm_seal_detached(&k, nonce, nl, aad, al, ct, tag, tl, msg,
                                  len) == AESIR_OK);
        T(memcmp(ct, mct, len) == 0 && memcmp(tag, mtag, tl) == 0);
        /* incremental, the AAD in two pieces */
        memset(ct, 0, sizeof(ct));
        T(aesir_ccm_start(&ctx, &k, nonce, nl, al, len, tl) == AESIR_OK);
        T(aesir_ccm_aad(&ctx, aad, al / 3) == AESIR_OK);
        T(aesir_ccm_aad(&ctx, aad + al / 3, al - al / 3) == AESIR_OK);
        T(aesir_ccm_encrypt_update(&ctx, ct, msg, len) == AESIR_OK);
        T(aesir_ccm_finish(&ctx, tag, tl) == AESIR_OK);
        T(memcmp(ct, mct, len) == 0 && memcmp(tag, mtag, tl) == 0);
#ifdef AESIR_TEST_OPENSSL
        T(evp_ccm(key, nonce, nl, aad, al, msg, len, ct, tag, tl) == 0);
        T(memcmp(ct, mct, len) == 0 && memcmp(tag, mtag, tl) == 0);
#endif
        (void)tl;
    }
    aesir_ccm_clear(&k);
    aesir_aes_clear(&aes);
    free(aad);
}

/* ---- 2^32 + 17 bytes of AAD ------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The message through aesir's incremental CCM: 0 on success; verify's
 * result for a decryption. */
static int lib_long(const aesir_ccm_key *k, const uint8_t *nonce, size_t nl,
                    const uint8_t *buf, uint64_t aad_len, uint8_t *out,
                    const uint8_t *in, size_t len, uint8_t *tag, size_t tl,
                    int decrypt)
{
    aesir_ccm ctx;
    uint64_t left = aad_len;

    if (aesir_ccm_start(&ctx, k, nonce, nl, aad_len, len, tl) != AESIR_OK)
        return -1;
    while (left > 0) {
        const size_t n = left < MIB ? (size_t)left : MIB;
        if (aesir_ccm_aad(&ctx, buf, n) != AESIR_OK)
            return -2;
        left -= n;
    }
    if ((decrypt ? aesir_ccm_decrypt_update_unverified(&ctx, out, in, len)
                 : aesir_ccm_encrypt_update(&ctx, out, in, len)) != AESIR_OK)
        return -3;
    if (decrypt)
        return aesir_ccm_verify(&ctx, tag, tl);
    return aesir_ccm_finish(&ctx, tag, tl);
}

static void test_long(void)
{
    const uint64_t al = (UINT64_C(1) << 32) + 17;
    uint8_t key[16], nonce[12], msg[77], ct[77], pt[77], tag[16], mct[77],
        mtag[16];
    uint8_t *buf = malloc(MIB);
    aesir_ccm_key k;
    aesir_aes aes;
    double t0, t1, t2;

    snprintf(where, sizeof(where), "long a=2^32+17");
    if (buf == NULL || sizeof(size_t) < 8) {
        printf("long: skipped (%s)\n", buf == NULL ? "no memory" : "32-bit");
        free(buf);
        return;
    }
    fillr(key, 16);
    fillr(nonce, 12);
    fillr(msg, sizeof(msg));
    fillr(buf, MIB);
    T(aesir_ccm_init(&k, key, 16) == AESIR_OK);
    T(aesir_aes_init_ex(&aes, key, 16, NULL, AESIR_ENCRYPT) == AESIR_OK);
    t0 = now();
    T(lib_long(&k, nonce, 12, buf, al, ct, msg, sizeof(msg), tag, 16, 0) ==
      AESIR_OK);
    t1 = now();
    T(model_ccm(&aes, nonce, 12, buf, MIB, al, msg, sizeof(msg), mct, mtag,
                16) == 0);
    t2 = now();
    T(memcmp(ct, mct, sizeof(ct)) == 0 && memcmp(tag, mtag, 16) == 0);
    T(lib_long(&k, nonce, 12, buf, al, pt, ct, sizeof(ct), tag, 16, 1) ==
      AESIR_OK);
    T(memcmp(pt, msg, sizeof(msg)) == 0);
    printf("long: a = 2^32 + 17 on %s: aesir CCM %.2f s, model %.2f s\n",
           aesir_ccm_engine(&k), t1 - t0, t2 - t1);
    aesir_ccm_clear(&k);
    aesir_aes_clear(&aes);
    free(buf);
}

int main(int argc, char **argv)
{
    test_boundary();
    if (argc > 1 && strcmp(argv[1], "long") == 0)
        test_long();
    else
        printf("long: not asked for (argument \"long\")\n");
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
