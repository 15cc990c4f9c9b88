/*
 * test_kat.c -- known answers from the standards themselves, on every
 * engine of the build (an engine this CPU cannot run prints UNAVAILABLE).
 *
 *   FIPS-197 appendix A   the `ref` engine's key expansion, every word w[i]
 *                         for AES-128, -192 and -256; and its decryption
 *                         schedule against the equivalent inverse cipher's
 *                         (section 5.3.5), recomputed here from the
 *                         appendix's words (and, for the appendix C keys,
 *                         held to the round[0..1].ik_sch printed there).
 *   FIPS-197 appendix C   C.1-C.3, cipher and inverse cipher, through the
 *                         one-block and the n-block calls.
 *   SP 800-38A app. F     every example: ECB, CBC, CFB1, CFB8, CFB128, OFB
 *                         and CTR, encrypt and decrypt, all key sizes,
 *                         through the one-shot API and through the
 *                         incremental API fed one byte at a time.
 *
 * Every expected value is transcribed from the two documents, as printed
 * there; none was computed with aesir. (The transcription was checked for
 * typos against `openssl enc` and an independent key expansion.)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "check.h"
#include "internal.h"

/* ------------------------------------------------------------------
 * Checks, reporting, hex
 * ---------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define PRINTF_LIKE __attribute__((format(printf, 2, 3)))
#else
#define PRINTF_LIKE
#endif

/* expect -- one check, counted by check.h; on failure says which. */
static PRINTF_LIKE int expect(int ok, const char *fmt, ...)
{
    va_list ap;

    if (ok) {
        check_passed++;
        return 1;
    }
    check_failed++;
    va_start(ap, fmt);
    fputs("FAIL ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 0;
}

static void show(const char *label, const uint8_t *p, size_t n)
{
    fprintf(stderr, "     %-4s ", label);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%02x", p[i]);
    fputc('\n', stderr);
}

/* A check that out[0..n) is want; shows both when it is not. */
static void expect_bytes(const uint8_t *out, const uint8_t *want, size_t n,
                         const char *engine, const char *sec, const char *what)
{
    if (!expect(memcmp(out, want, n) == 0, "%s %s: %s", engine, sec, what)) {
        show("got", out, n);
        show("want", want, n);
    }
}

/* hex -- decodes s (hex digits, blanks ignored) into out; returns the
 * byte count. A malformed string is a bug in the tables: stop. */
static size_t hex(uint8_t *out, size_t cap, const char *s)
{
    size_t n = 0;
    int hi = -1;

    for (; *s != '\0'; s++) {
        const char *digits = "0123456789abcdef";
        const char *d = strchr(digits, *s);
        if (*s == ' ')
            continue;
        if (d == NULL || (hi >= 0 && n == cap)) {
            fprintf(stderr, "test_kat: bad hex in table: %s\n", s);
            exit(2);
        }
        if (hi < 0) {
            hi = (int)(d - digits);
        } else {
            out[n++] = (uint8_t)(hi << 4 | (int)(d - digits));
            hi = -1;
        }
    }
    if (hi >= 0) {
        fprintf(stderr, "test_kat: odd hex length in table\n");
        exit(2);
    }
    return n;
}

/* One output line per group and engine. */
static unsigned group_passed, group_failed;

static void group_begin(void)
{
    group_passed = check_passed;
    group_failed = check_failed;
}

static void group_end(const char *engine, const char *group)
{
    unsigned bad = check_failed - group_failed;
    printf("%-8s %-34s %s (%u checks)\n", engine, group,
           bad == 0 ? "ok" : "FAILED", check_passed - group_passed + bad);
}

/* ------------------------------------------------------------------
 * FIPS-197 appendix A: key expansion of the ref engine
 * ---------------------------------------------------------------- */

/* The words w[0] .. w[4 Nr + 3] of each example; the cipher key is
 * w[0] .. w[Nk - 1]. */
static const struct {
    const char *sec;
    const char *w;
} fips197_a[] = {
    /* A.1 Expansion of a 128-bit Cipher Key */
    {"A.1", "2b7e1516 28aed2a6 abf71588 09cf4f3c a0fafe17 88542cb1 23a33939"
            " 2a6c7605 f2c295f2 7a96b943 5935807a 7359f67f 3d80477d 4716fe3e"
            " 1e237e44 6d7a883b ef44a541 a8525b7f b671253b db0bad00 d4d1c6f8"
            " 7c839d87 caf2b8bc 11f915bc 6d88a37a 110b3efd dbf98641 ca0093fd"
            " 4e54f70e 5f5fc9f3 84a64fb2 4ea6dc4f ead27321 b58dbad2 312bf560"
            " 7f8d292f ac7766f3 19fadc21 28d12941 575c006e d014f9a8 c9ee2589"
            " e13f0cc8 b6630ca6"},
    /* A.2 Expansion of a 192-bit Cipher Key */
    {"A.2", "8e73b0f7 da0e6452 c810f32b 809079e5 62f8ead2 522c6b7b fe0c91f7"
            " 2402f5a5 ec12068e 6c827f6b 0e7a95b9 5c56fec2 4db7b4bd 69b54118"
            " 85a74796 e92538fd e75fad44 bb095386 485af057 21efb14f a448f6d9"
            " 4d6dce24 aa326360 113b30e6 a25e7ed5 83b1cf9a 27f93943 6a94f767"
            " c0a69407 d19da4e1 ec1786eb 6fa64971 485f7032 22cb8755 e26d1352"
            " 33f0b7b3 40beeb28 2f18a259 6747d26b 458c553e a7e1466c 9411f1df"
            " 821f750a ad07d753 ca400538 8fcc5006 282d166a bc3ce7b5 e98ba06f"
            " 448c773c 8ecc7204 01002202"},
    /* A.3 Expansion of a 256-bit Cipher Key */
    {"A.3", "603deb10 15ca71be 2b73aef0 857d7781 1f352c07 3b6108d7 2d9810a3"
            " 0914dff4 9ba35411 8e6925af a51a8b5f 2067fcde a8b09c1a 93d194cd"
            " be49846e b75d5b9a d59aecb8 5bf3c917 fee94248 de8ebe96 b5a9328a"
            " 2678a647 98312229 2f6c79b3 812c81ad dadf48ba 24360af2 fab8b464"
            " 98c5bfc9 bebd198e 268c3ba7 09e04214 68007bac b2df3316 96e939e4"
            " 6c518d80 c814e204 76a9fb8a 5025c02d 59c58239 de136967 6ccc5a71"
            " fa256395 9674ee15 5886ca5d 2e2f31d7 7e0af1fa 27cf73c3 749c47ab"
            " 18501dda e2757e4f 7401905a cafaaae3 e4d59b34 9adf6ace bd10190d"
            " fe4890d1 e6188d0b 046df344 706c631e"},
};

/* Section 4.2: multiplication in GF(2^8), written afresh for the test. */
static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (; b != 0; b >>= 1) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0));
    }
    return r;
}

/* Section 5.3.3, equation 5.10: s'_r = sum over j of m[(j - r) mod 4] s_j
 * with m = {0e, 0b, 0d, 09}, on each of the four columns. */
static void inv_mix_columns(uint8_t s[16])
{
    static const uint8_t m[4] = {0x0e, 0x0b, 0x0d, 0x09};
    for (int c = 0; c < 4; c++) {
        uint8_t t[4] = {0};
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < 4; j++)
                t[r] ^= gmul(s[4 * c + j], m[(j - r + 4) % 4]);
        memcpy(s + 4 * c, t, 4);
    }
}

/* Section 5.3.5, figure 15: dw is w with the round keys in reverse order
 * and InvMixColumns applied to rounds 1 .. Nr-1. */
static void eq_inv_schedule(uint8_t *dw, const uint8_t *w, unsigned nr)
{
    for (unsigned r = 0; r <= nr; r++) {
        memcpy(dw + 16 * r, w + 16 * (nr - r), 16);
        if (r != 0 && r != nr)
            inv_mix_columns(dw + 16 * r);
    }
}

/* Checks ref's decryption schedule for key against eq_inv_schedule() of
 * w, round key by round key. */
static void check_dec_schedule(const struct aesir_engine *ref,
                               const uint8_t *key, size_t key_len,
                               const uint8_t *w, const char *sec)
{
    _Alignas(64) uint8_t drk[AESIR_RK_BYTES];
    uint8_t dw[16 * 15];
    unsigned nr = (unsigned)key_len / 4 + 6;
    char what[48];

    memset(drk, 0xa5, sizeof(drk));
    ref->setkey_dec(drk, key, key_len);
    eq_inv_schedule(dw, w, nr);
    for (unsigned r = 0; r <= nr; r++) {
        snprintf(what, sizeof(what), "decryption round key %u (5.3.5)", r);
        expect_bytes(drk + 16 * r, dw + 16 * r, 16, "ref", sec, what);
    }
}

static void test_expansion(void)
{
    const struct aesir_engine *ref = aesir_engine_ref();

    group_begin();
    if (!expect(ref != NULL, "ref engine missing")) {
        group_end("ref", "FIPS-197 A key expansion");
        return;
    }
    for (size_t i = 0; i < sizeof(fips197_a) / sizeof(fips197_a[0]); i++) {
        _Alignas(64) uint8_t rk[AESIR_RK_BYTES];
        uint8_t w[16 * 15];
        size_t nw = hex(w, sizeof(w), fips197_a[i].w) / 4;
        size_t key_len = 4 * (nw / 4 - 7); /* Nk = Nr - 6 = nw/4 - 7 */

        memset(rk, 0xa5, sizeof(rk));
        ref->setkey_enc(rk, w, key_len);
        for (size_t j = 0; j < nw; j++)
            if (!expect(memcmp(rk + 4 * j, w + 4 * j, 4) == 0, "ref %s: w[%zu]",
                        fips197_a[i].sec, j)) {
                show("got", rk + 4 * j, 4);
                show("want", w + 4 * j, 4);
            }
        check_dec_schedule(ref, w, key_len, w, fips197_a[i].sec);
    }
    group_end("ref", "FIPS-197 A key expansion");
}

/* ------------------------------------------------------------------
 * FIPS-197 appendix C: the block cipher
 * ---------------------------------------------------------------- */

/* ik0 and ik1 are round[0].ik_sch and round[1].ik_sch of the example's
 * EQUIVALENT INVERSE CIPHER listing: anchors for the 5.3.5 check. */
static const struct {
    const char *sec, *key, *pt, *ct, *ik0, *ik1;
} fips197_c[] = {
    /* C.1 AES-128 (Nk=4, Nr=10) */
    {"C.1", "000102030405060708090a0b0c0d0e0f",
     "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a",
     "13111d7fe3944a17f307a78b4d2b30c5", "13aa29be9c8faff6f770f58000f7bf03"},
    /* C.2 AES-192 (Nk=6, Nr=12) */
    {"C.2", "000102030405060708090a0b0c0d0e0f1011121314151617",
     "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191",
     "a4970a331a78dc09c418c271e3a41d5d", "d6bebd0dc209ea494db073803e021bb9"},
    /* C.3 AES-256 (Nk=8, Nr=14) */
    {"C.3", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089",
     "24fc79ccbf0979e9371ac23c6d68de36", "34f1d1ffbfceaa2ffce9e25f2558016e"},
};

#define NC (sizeof(fips197_c) / sizeof(fips197_c[0]))

/* The ref decryption schedules of the appendix C keys, and the two
 * round keys the appendix prints for each. */
static void test_c_schedules(void)
{
    const struct aesir_engine *ref = aesir_engine_ref();

    group_begin();
    for (size_t i = 0; ref != NULL && i < NC; i++) {
        _Alignas(64) uint8_t rk[AESIR_RK_BYTES];
        uint8_t key[32], ik[32], dw[16 * 15];
        size_t key_len = hex(key, sizeof(key), fips197_c[i].key);
        unsigned nr = (unsigned)key_len / 4 + 6;

        hex(ik, 16, fips197_c[i].ik0);
        hex(ik + 16, 16, fips197_c[i].ik1);
        ref->setkey_enc(rk, key, key_len); /* w, checked by appendix A */
        eq_inv_schedule(dw, rk, nr);
        expect_bytes(dw, ik, 32, "test", fips197_c[i].sec,
                     "own 5.3.5 schedule vs round[0..1].ik_sch");
        check_dec_schedule(ref, key, key_len, rk, fips197_c[i].sec);
    }
    group_end("ref", "FIPS-197 C decryption schedules");
}

/* Block counts for the n-block calls: below, at and past every batch. */
static const size_t nblocks[] = {1, 2, 3, 4, 7, 8, 9, 16, 31, 33};

static void test_block_cipher(const char *engine)
{
    group_begin();
    for (size_t i = 0; i < NC; i++) {
        const char *sec = fips197_c[i].sec;
        aesir_aes k;
        uint8_t key[32], pt[16], ct[16], out[16], buf[16 * 33];
        size_t key_len = hex(key, sizeof(key), fips197_c[i].key);
        int err;

        hex(pt, 16, fips197_c[i].pt);
        hex(ct, 16, fips197_c[i].ct);
        err = aesir_aes_init_ex(&k, key, key_len, engine,
                                AESIR_ENCRYPT | AESIR_DECRYPT);
        if (!expect(err == AESIR_OK, "%s %s: init: %s", engine, sec,
                    aesir_strerror(err)))
            continue;
        expect(aesir_aes_key_bits(&k) == 8 * key_len &&
                   aesir_aes_engine(&k) != NULL &&
                   strcmp(aesir_aes_engine(&k), engine) == 0,
               "%s %s: key context reports the wrong engine or size", engine,
               sec);

        err = aesir_aes_encrypt_block(&k, out, pt);
        expect(err == AESIR_OK, "%s %s: encrypt_block: %s", engine, sec,
               aesir_strerror(err));
        expect_bytes(out, ct, 16, engine, sec, "encrypt_block");
        err = aesir_aes_decrypt_block(&k, out, ct);
        expect(err == AESIR_OK, "%s %s: decrypt_block: %s", engine, sec,
               aesir_strerror(err));
        expect_bytes(out, pt, 16, engine, sec, "decrypt_block");

        /* n copies of the block, in place: every copy must come out. */
        for (size_t j = 0; j < sizeof(nblocks) / sizeof(nblocks[0]); j++) {
            size_t n = nblocks[j], bad = 0;
            for (size_t b = 0; b < n; b++)
                memcpy(buf + 16 * b, pt, 16);
            err = aesir_aes_encrypt_blocks(&k, buf, buf, n);
            for (size_t b = 0; b < n; b++)
                bad += memcmp(buf + 16 * b, ct, 16) != 0;
            expect(err == AESIR_OK && bad == 0,
                   "%s %s: encrypt_blocks n=%zu: %s, %zu wrong blocks", engine,
                   sec, n, aesir_strerror(err), bad);
            err = aesir_aes_decrypt_blocks(&k, buf, buf, n);
            bad = 0;
            for (size_t b = 0; b < n; b++)
                bad += memcmp(buf + 16 * b, pt, 16) != 0;
            expect(err == AESIR_OK && bad == 0,
                   "%s %s: decrypt_blocks n=%zu: %s, %zu wrong blocks", engine,
                   sec, n, aesir_strerror(err), bad);
        }
        aesir_aes_clear(&k);
    }
    group_end(engine, "FIPS-197 C.1-C.3 cipher");
}

/* ------------------------------------------------------------------
 * SP 800-38A appendix F: the modes
 * ---------------------------------------------------------------- */

/* Keys of F.1-F.5 (AES-128, -192, -256), the IV of F.2-F.4, the initial
 * counter block of F.5, and the plaintext of every example: F.3.1-F.3.6
 * take its first 16 bits, F.3.7-F.3.12 its first 18 bytes. */
static const char *const sp_key[3] = {
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
};
#define SP_IV "000102030405060708090a0b0c0d0e0f"
#define SP_CTR "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
#define SP_PT                                                                  \
    "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"        \
    " 30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710"

/*
 * One row per pair of examples: the appendix prints each encryption
 * (enc) and then its decryption (dec), same key, IV and texts. The
 * ciphertext is the concatenation of the printed blocks or segments.
 */
struct mode_kat {
    const char *enc, *dec;
    aesir_mode mode;
    unsigned key; /* index into sp_key */
    size_t nbits; /* message length */
    const char *ct;
};

static const struct mode_kat sp800_38a[] = {
    /* F.1 ECB Example Vectors */
    {"F.1.1", "F.1.2", AESIR_MODE_ECB, 0, 512,
     "3ad77bb40d7a3660a89ecaf32466ef97 f5d3d58503b9699de785895a96fdbaaf"
     " 43b1cd7f598ece23881b00e3ed030688 7b0c785e27e8ad3f8223207104725dd4"},
    {"F.1.3", "F.1.4", AESIR_MODE_ECB, 1, 512,
     "bd334f1d6e45f25ff712a214571fa5cc 974104846d0ad3ad7734ecb3ecee4eef"
     " ef7afd2270e2e60adce0ba2face6444e 9a4b41ba738d6c72fb16691603c18e0e"},
    {"F.1.5", "F.1.6", AESIR_MODE_ECB, 2, 512,
     "f3eed1bdb5d2a03c064b5a7e3db181f8 591ccb10d410ed26dc5ba74a31362870"
     " b6ed21b99ca6f4f9f153e7b1beafed1d 23304b7a39f9f3ff067d8d8f9e24ecc7"},
    /* F.2 CBC Example Vectors */
    {"F.2.1", "F.2.2", AESIR_MODE_CBC, 0, 512,
     "7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2"
     " 73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7"},
    {"F.2.3", "F.2.4", AESIR_MODE_CBC, 1, 512,
     "4f021db243bc633d7178183a9fa071e8 b4d9ada9ad7dedf4e5e738763f69145a"
     " 571b242012fb7ae07fa9baac3df102e0 08b0e27988598881d920a9e64f5615cd"},
    {"F.2.5", "F.2.6", AESIR_MODE_CBC, 2, 512,
     "f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d"
     " 39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b"},
    /* F.3.1-F.3.6 CFB1: 16 one-bit segments. Plaintext bits
     * 0110101111000001 (6bc1); ciphertext bits 0110100010110011 (68b3),
     * 1001001101011001 (9359), 1001000000101001 (9029). */
    {"F.3.1", "F.3.2", AESIR_MODE_CFB1, 0, 16, "68b3"},
    {"F.3.3", "F.3.4", AESIR_MODE_CFB1, 1, 16, "9359"},
    {"F.3.5", "F.3.6", AESIR_MODE_CFB1, 2, 16, "9029"},
    /* F.3.7-F.3.12 CFB8: 18 one-byte segments */
    {"F.3.7", "F.3.8", AESIR_MODE_CFB8, 0, 144,
     "3b79424c9c0dd436bace9e0ed4586a4f32b9"},
    {"F.3.9", "F.3.10", AESIR_MODE_CFB8, 1, 144,
     "cda2521ef0a905ca44cd057cbf0d47a0678a"},
    {"F.3.11", "F.3.12", AESIR_MODE_CFB8, 2, 144,
     "dc1f1a8520a64db55fcc8ac554844e889700"},
    /* F.3.13-F.3.18 CFB128 */
    {"F.3.13", "F.3.14", AESIR_MODE_CFB128, 0, 512,
     "3b3fd92eb72dad20333449f8e83cfb4a c8a64537a0b3a93fcde3cdad9f1ce58b"
     " 26751f67a3cbb140b1808cf187a4f4df c04b05357c5d1c0eeac4c66f9ff7f2e6"},
    {"F.3.15", "F.3.16", AESIR_MODE_CFB128, 1, 512,
     "cdc80d6fddf18cab34c25909c99a4174 67ce7f7f81173621961a2b70171d3d7a"
     " 2e1e8a1dd59b88b1c8e60fed1efac4c9 c05f9f9ca9834fa042ae8fba584b09ff"},
    {"F.3.17", "F.3.18", AESIR_MODE_CFB128, 2, 512,
     "dc7e84bfda79164b7ecd8486985d3860 39ffed143b28b1c832113c6331e5407b"
     " df10132415e54b92a13ed0a8267ae2f9 75a385741ab9cef82031623d55b1e471"},
    /* F.4 OFB Example Vectors */
    {"F.4.1", "F.4.2", AESIR_MODE_OFB, 0, 512,
     "3b3fd92eb72dad20333449f8e83cfb4a 7789508d16918f03f53c52dac54ed825"
     " 9740051e9c5fecf64344f7a82260edcc 304c6528f659c77866a510d9c1d6ae5e"},
    {"F.4.3", "F.4.4", AESIR_MODE_OFB, 1, 512,
     "cdc80d6fddf18cab34c25909c99a4174 fcc28b8d4c63837c09e81700c1100401"
     " 8d9a9aeac0f6596f559c6d4daf59a5f2 6d9f200857ca6c3e9cac524bd9acc92a"},
    {"F.4.5", "F.4.6", AESIR_MODE_OFB, 2, 512,
     "dc7e84bfda79164b7ecd8486985d3860 4febdc6740d20b3ac88f6ad82a4fb08d"
     " 71ab47a086e86eedf39d1c5bba97c408 0126141d67f37be8538f5a8be740e484"},
    /* F.5 CTR Example Vectors (counter blocks ...feff, ...ff00: the
     * carry out of the last byte happens in block 2) */
    {"F.5.1", "F.5.2", AESIR_MODE_CTR, 0, 512,
     "874d6191b620e3261bef6864990db6ce 9806f66b7970fdff8617187bb9fffdff"
     " 5ae4df3edbd5d35e5b4f09020db03eab 1e031dda2fbe03d1792170a0f3009cee"},
    {"F.5.3", "F.5.4", AESIR_MODE_CTR, 1, 512,
     "1abc932417521ca24f2b0459fe7e6e0b 090339ec0aa6faefd5ccc2c6f4ce8e94"
     " 1e36b26bd1ebc670d1bd1d665620abf7 4f78a7f6d29809585a97daec58c6b050"},
    {"F.5.5", "F.5.6", AESIR_MODE_CTR, 2, 512,
     "601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5"
     " 2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6"},
};

static const struct {
    aesir_mode mode;
    const char *name;
} sp_groups[] = {
    {AESIR_MODE_ECB, "SP 800-38A F.1 ECB"},
    {AESIR_MODE_CBC, "SP 800-38A F.2 CBC"},
    {AESIR_MODE_CFB1, "SP 800-38A F.3.1-6 CFB1"},
    {AESIR_MODE_CFB8, "SP 800-38A F.3.7-12 CFB8"},
    {AESIR_MODE_CFB128, "SP 800-38A F.3.13-18 CFB128"},
    {AESIR_MODE_OFB, "SP 800-38A F.4 OFB"},
    {AESIR_MODE_CTR, "SP 800-38A F.5 CTR"},
};

/* The one-shot call for mode and dir; ECB and CBC without padding, CTR
 * with a 128-bit counter. *out_len is what was written. */
static int oneshot(const aesir_aes *k, aesir_mode mode, unsigned dir,
                   const uint8_t iv[16], uint8_t *out, size_t *out_len,
                   const uint8_t *in, size_t nbits)
{
    const size_t len = (nbits + 7) / 8;
    const unsigned option = mode == AESIR_MODE_CTR ? 128 : AESIR_PAD_NONE;
    return mode_oneshot(k, mode, dir, option, iv, out, len, out_len, in, len,
                        nbits);
}

/* The incremental API fed one byte per update, with an output buffer of
 * exactly len bytes; *out_len is the total of update and final. */
static int bytewise(const aesir_aes *k, aesir_mode mode, unsigned dir,
                    const uint8_t iv[16], uint8_t *out, size_t *out_len,
                    const uint8_t *in, size_t len)
{
    aesir_cipher c;
    size_t total = 0, n = 0;
    const int ecb = mode == AESIR_MODE_ECB;
    int err = aesir_cipher_init(&c, k, mode, dir, ecb ? NULL : iv, ecb ? 0 : 16,
                                mode == AESIR_MODE_CTR ? 128 : 0);

    for (size_t i = 0; err == AESIR_OK && i < len; i++) {
        err = aesir_cipher_update(&c, out + total, len - total, &n, in + i, 1);
        total += n;
    }
    if (err == AESIR_OK) {
        err = aesir_cipher_final(&c, out + total, len - total, &n);
        total += n;
    }
    aesir_cipher_clear(&c);
    *out_len = total;
    return err;
}

static void run_mode_kat(const char *engine, const aesir_aes *keys,
                         const struct mode_kat *v)
{
    uint8_t pt[64], ct[64], iv[16], out[64];
    const size_t len = (v->nbits + 7) / 8;

    hex(pt, sizeof(pt), SP_PT);
    if (hex(ct, sizeof(ct), v->ct) != len) {
        expect(0, "%s: table length does not match", v->enc);
        return;
    }
    hex(iv, sizeof(iv), v->mode == AESIR_MODE_CTR ? SP_CTR : SP_IV);
    for (int d = 0; d < 2; d++) {
        const unsigned dir = d == 0 ? AESIR_ENCRYPT : AESIR_DECRYPT;
        const char *sec = d == 0 ? v->enc : v->dec;
        const uint8_t *in = d == 0 ? pt : ct, *want = d == 0 ? ct : pt;
        size_t n;
        int err;

        memset(out, 0xa5, sizeof(out));
        err = oneshot(&keys[v->key], v->mode, dir, iv, out, &n, in, v->nbits);
        if (expect(err == AESIR_OK && n == len,
                   "%s %s: one-shot: %s, %zu of %zu bytes", engine, sec,
                   aesir_strerror(err), n, len))
            expect_bytes(out, want, len, engine, sec, "one-shot");

        memset(out, 0xa5, sizeof(out));
        err = bytewise(&keys[v->key], v->mode, dir, iv, out, &n, in, len);
        if (expect(err == AESIR_OK && n == len,
                   "%s %s: byte by byte: %s, %zu of %zu bytes", engine, sec,
                   aesir_strerror(err), n, len))
            expect_bytes(out, want, len, engine, sec, "byte by byte");
    }
}

/* F.1's four blocks repeated to n blocks, through the raw n-block calls
 * in place: blocks that differ, so a misplaced block shows. */
static void run_ecb_blocks(const char *engine, const aesir_aes *keys,
                           const struct mode_kat *v)
{
    uint8_t pt[64], ct[64], buf[16 * 36];
    const size_t n = sizeof(buf) / 16;
    int err;

    hex(pt, sizeof(pt), SP_PT);
    hex(ct, sizeof(ct), v->ct);
    for (size_t b = 0; b < n; b += 4)
        memcpy(buf + 16 * b, pt, 64);
    err = aesir_aes_encrypt_blocks(&keys[v->key], buf, buf, n);
    for (size_t b = 0; b < n; b += 4)
        expect(err == AESIR_OK && memcmp(buf + 16 * b, ct, 64) == 0,
               "%s %s: encrypt_blocks n=%zu: %s, blocks %zu-%zu", engine,
               v->enc, n, aesir_strerror(err), b, b + 3);
    err = aesir_aes_decrypt_blocks(&keys[v->key], buf, buf, n);
    for (size_t b = 0; b < n; b += 4)
        expect(err == AESIR_OK && memcmp(buf + 16 * b, pt, 64) == 0,
               "%s %s: decrypt_blocks n=%zu: %s, blocks %zu-%zu", engine,
               v->dec, n, aesir_strerror(err), b, b + 3);
}

static void test_modes(const char *engine)
{
    aesir_aes keys[3];
    int ok = 1;

    for (unsigned i = 0; i < 3; i++) {
        uint8_t key[32];
        size_t key_len = hex(key, sizeof(key), sp_key[i]);
        int err = aesir_aes_init_ex(&keys[i], key, key_len, engine,
                                    AESIR_ENCRYPT | AESIR_DECRYPT);
        ok &= expect(err == AESIR_OK, "%s SP 800-38A key %u: init: %s", engine,
                     i, aesir_strerror(err));
    }
    for (size_t g = 0; ok && g < sizeof(sp_groups) / sizeof(sp_groups[0]);
         g++) {
        group_begin();
        for (size_t i = 0; i < sizeof(sp800_38a) / sizeof(sp800_38a[0]); i++)
            if (sp800_38a[i].mode == sp_groups[g].mode) {
                run_mode_kat(engine, keys, &sp800_38a[i]);
                if (sp800_38a[i].mode == AESIR_MODE_ECB)
                    run_ecb_blocks(engine, keys, &sp800_38a[i]);
            }
        group_end(engine, sp_groups[g].name);
    }
    for (unsigned i = 0; i < 3; i++)
        aesir_aes_clear(&keys[i]);
}

int main(void)
{
    test_expansion();
    test_c_schedules();
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%-8s UNAVAILABLE\n", name);
            continue;
        }
        test_block_cipher(name);
        test_modes(name);
    }
    return check_summary();
}
