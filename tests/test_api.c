/*
 * test_api.c -- the API's contract outside the happy path: every error
 * code is provoked and checked, failed decryptions hand out no plaintext,
 * contexts are wiped, the CTR counter never wraps silently, padding
 * options behave as documented, and in-place streaming with a partly
 * filled buffer is correct. Runs on every available engine where the
 * engine matters.
 *
 * With AESIR_EXPECT_DEFAULT=<name> in the environment it also checks that
 * the default engine is <name> (ctest runs it that way with AESIR_ENGINE
 * set, to test the override and its fallback).
 */
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "check.h"
#include "internal.h" /* the context's layout, for the wiping checks */

static const uint8_t key16[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae,
                                  0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88,
                                  0x09, 0xcf, 0x4f, 0x3c};
static const uint8_t iv0[16] = {0};

static void test_strerror(void)
{
    for (int e = 0; e >= AESIR_E_SELFTEST; e--) {
        CHECK(aesir_strerror(e) != NULL);
        CHECK(strcmp(aesir_strerror(e), "unknown error") != 0);
        for (int f = 0; f > e; f--)
            CHECK(strcmp(aesir_strerror(e), aesir_strerror(f)) != 0);
    }
    CHECK(strcmp(aesir_strerror(-1000), "unknown error") == 0);
    CHECK(strcmp(aesir_strerror(5), "unknown error") == 0);
}

static void test_key_errors(const char *engine)
{
    aesir_aes k;
    uint8_t key[40] = {0}, blk[16] = {0};
    static const size_t bad_lengths[] = {0, 1, 15, 17, 20, 23, 25, 31, 33, 40};

    for (size_t i = 0; i < sizeof(bad_lengths) / sizeof(bad_lengths[0]); i++) {
        CHECK_EQ(
            aesir_aes_init_ex(&k, key, bad_lengths[i], engine, AESIR_ENCRYPT),
            AESIR_E_KEY_LENGTH);
        /* A failed init leaves a cleared context that refuses to work. */
        CHECK_EQ(aesir_aes_encrypt_block(&k, blk, blk), AESIR_E_STATE);
        CHECK(aesir_aes_engine(&k) == NULL);
    }
    CHECK_EQ(aesir_aes_init_ex(&k, NULL, 16, engine, AESIR_ENCRYPT),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_aes_init_ex(NULL, key, 16, engine, AESIR_ENCRYPT),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_aes_init_ex(&k, key, 16, engine, 0), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_aes_init_ex(&k, key, 16, engine, 4), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_aes_init_ex(&k, key, 16, "no-such-engine", AESIR_ENCRYPT),
             AESIR_E_ENGINE_UNKNOWN);

    /* An encrypt-only key refuses to decrypt, and the reverse. */
    CHECK_EQ(aesir_aes_init_ex(&k, key, 24, engine, AESIR_ENCRYPT), AESIR_OK);
    CHECK_EQ(aesir_aes_key_bits(&k), 192u);
    CHECK_EQ(aesir_aes_encrypt_block(&k, blk, blk), AESIR_OK);
    CHECK_EQ(aesir_aes_decrypt_block(&k, blk, blk), AESIR_E_STATE);
    CHECK_EQ(aesir_aes_init_ex(&k, key, 32, engine, AESIR_DECRYPT), AESIR_OK);
    CHECK_EQ(aesir_aes_decrypt_block(&k, blk, blk), AESIR_OK);
    CHECK_EQ(aesir_aes_encrypt_block(&k, blk, blk), AESIR_E_STATE);
    CHECK_EQ(aesir_aes_encrypt_blocks(&k, NULL, blk, 1), AESIR_E_STATE);

    /* Clearing wipes every byte, round keys included. */
    CHECK_EQ(
        aesir_aes_init_ex(&k, key16, 16, engine, AESIR_ENCRYPT | AESIR_DECRYPT),
        AESIR_OK);
    CHECK(!all_zero(&k, sizeof(k)));
    CHECK_EQ(aesir_aes_encrypt_blocks(&k, NULL, blk, 1), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_aes_encrypt_blocks(&k, NULL, NULL, 0), AESIR_OK);
    aesir_aes_clear(&k);
    CHECK(all_zero(&k, sizeof(k)));
    CHECK_EQ(aesir_aes_encrypt_block(&k, blk, blk), AESIR_E_STATE);
    aesir_aes_clear(NULL);
}

static void test_cipher_init_errors(const aesir_aes *k)
{
    aesir_cipher c;
    uint8_t out[64];
    size_t n = 99;
    aesir_aes blank;

    memset(&blank, 0, sizeof(blank));
    CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_CBC, AESIR_ENCRYPT, iv0, 8, 0),
             AESIR_E_IV_LENGTH);
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_CTR, AESIR_ENCRYPT, iv0, 17, 0),
        AESIR_E_IV_LENGTH);
    CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_OFB, AESIR_ENCRYPT, iv0, 0, 0),
             AESIR_E_IV_LENGTH);
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_ECB, AESIR_ENCRYPT, iv0, 16, 0),
        AESIR_E_IV_LENGTH);
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_CBC, AESIR_ENCRYPT, NULL, 16, 0),
        AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cipher_init(&c, k, (aesir_mode)0, AESIR_ENCRYPT, iv0, 16, 0),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cipher_init(&c, k, (aesir_mode)8, AESIR_ENCRYPT, iv0, 16, 0),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_CBC, 3, iv0, 16, 0),
             AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_CBC, AESIR_ENCRYPT, iv0, 16, 3),
        AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_CTR, AESIR_ENCRYPT, iv0, 16, 16),
        AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_OFB, AESIR_ENCRYPT, iv0, 16, 1),
        AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_cipher_init(&c, NULL, AESIR_MODE_OFB, AESIR_ENCRYPT, iv0, 16, 0),
        AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cipher_init(&c, &blank, AESIR_MODE_OFB, AESIR_ENCRYPT, iv0,
                               16, 0),
             AESIR_E_STATE);
    /* A failed init leaves a context that refuses updates. */
    CHECK_EQ(aesir_cipher_update(&c, out, sizeof(out), &n, out, 16),
             AESIR_E_STATE);
    CHECK_EQ(n, 0u);
    CHECK_EQ(aesir_ctr_crypt(k, iv0, 48, out, out, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, 7, out, sizeof(out), &n, out, 16),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_NONE, out, sizeof(out), NULL,
                               out, 16),
             AESIR_E_ARGUMENT);
}

static void test_lengths_and_output(const aesir_aes *k)
{
    uint8_t in[64] = {1}, out[64];
    size_t n = 99;
    aesir_cipher c;

    /* No padding: the input must be whole blocks. */
    CHECK_EQ(aesir_ecb_encrypt(k, AESIR_PAD_NONE, out, 64, &n, in, 15),
             AESIR_E_INPUT_LENGTH);
    CHECK_EQ(n, 0u);
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_NONE, out, 64, &n, in, 33),
             AESIR_E_INPUT_LENGTH);
    CHECK_EQ(aesir_cbc_decrypt(k, iv0, AESIR_PAD_PKCS7, out, 64, &n, in, 31),
             AESIR_E_INPUT_LENGTH);
    CHECK_EQ(aesir_cbc_decrypt(k, iv0, AESIR_PAD_PKCS7, out, 64, &n, in, 0),
             AESIR_E_INPUT_LENGTH);
    CHECK_EQ(aesir_cbc_decrypt(k, iv0, AESIR_PAD_ZERO, out, 64, &n, in, 17),
             AESIR_E_INPUT_LENGTH);
    /* Incremental: the error surfaces at final. */
    CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_CBC, AESIR_ENCRYPT, iv0, 16,
                               AESIR_PAD_NONE),
             AESIR_OK);
    CHECK_EQ(aesir_cipher_update(&c, out, 64, &n, in, 20), AESIR_OK);
    CHECK_EQ(n, 16u);
    CHECK_EQ(aesir_cipher_final(&c, out, 64, &n), AESIR_E_INPUT_LENGTH);
    CHECK_EQ(aesir_cipher_final(&c, out, 64, &n), AESIR_E_STATE);

    /* Output too small: nothing consumed, nothing written. */
    memset(out, 0xa5, sizeof(out));
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_PKCS7, out, 32, &n, in, 32),
             AESIR_E_OUTPUT_SIZE);
    CHECK_EQ(n, 0u);
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_PKCS7, out, 47, &n, in, 32),
             AESIR_E_OUTPUT_SIZE);
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_PKCS7, out, 48, &n, in, 32),
             AESIR_OK);
    CHECK_EQ(n, 48u);
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_OFB, AESIR_ENCRYPT, iv0, 16, 0),
        AESIR_OK);
    CHECK_EQ(aesir_cipher_update(&c, out, 9, &n, in, 10), AESIR_E_OUTPUT_SIZE);
    CHECK_EQ(aesir_cipher_update(&c, out, 10, &n, in, 10), AESIR_OK);
    CHECK_EQ(n, 10u);
    CHECK_EQ(aesir_cipher_update(&c, out, 10, NULL, in, 10), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cipher_update(&c, NULL, 10, &n, in, 10), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cipher_final(&c, NULL, 0, &n), AESIR_OK);
    CHECK_EQ(n, 0u);
    /* Final with too small a buffer keeps the context usable. */
    CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_ECB, AESIR_ENCRYPT, NULL, 0,
                               AESIR_PAD_PKCS7),
             AESIR_OK);
    CHECK_EQ(aesir_cipher_update(&c, out, 64, &n, in, 5), AESIR_OK);
    CHECK_EQ(n, 0u);
    CHECK_EQ(aesir_cipher_update_size(&c, 11), 16u);
    CHECK_EQ(aesir_cipher_final(&c, out, 15, &n), AESIR_E_OUTPUT_SIZE);
    CHECK_EQ(aesir_cipher_final(&c, out, 16, &n), AESIR_OK);
    CHECK_EQ(n, 16u);
}

/* Encrypts a crafted last block so decryption yields plaintext p. */
static void craft_block(const aesir_aes *k, uint8_t ct[16], const uint8_t p[16])
{
    CHECK_EQ(aesir_aes_encrypt_block(k, ct, p), AESIR_OK);
}

static void test_pkcs7(const aesir_aes *k)
{
    uint8_t p[16], ct[32], out[32];
    size_t n;
    /* Each row: last plaintext block, expected pad length (0 = invalid). */
    static const struct {
        uint8_t tail[4]; /* last 4 bytes; the rest are 0x04 */
        unsigned pad;
    } cases[] = {
        {{4, 4, 4, 4}, 4},    {{4, 4, 4, 0}, 0},  {{4, 4, 4, 5}, 0},
        {{4, 3, 4, 4}, 0},    {{9, 9, 9, 1}, 1},  {{4, 4, 4, 17}, 0},
        {{4, 4, 4, 0xff}, 0}, {{4, 4, 4, 16}, 0},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        memset(p, 4, 16);
        memcpy(p + 12, cases[i].tail, 4);
        craft_block(k, ct, p);
        memset(out, 0xa5, sizeof(out));
        int err =
            aesir_ecb_decrypt(k, AESIR_PAD_PKCS7, out, sizeof(out), &n, ct, 16);
        if (cases[i].pad == 0) {
            CHECK_EQ(err, AESIR_E_PADDING);
            CHECK_EQ(n, 0u);
            /* Nothing of the plaintext is handed out. */
            CHECK(memcmp(out, p, 12) != 0);
        } else {
            CHECK_EQ(err, AESIR_OK);
            CHECK_EQ(n, 16 - cases[i].pad);
            CHECK(memcmp(out, p, n) == 0);
        }
    }
    /* A full block of 16 x 0x10 is valid: empty plaintext. */
    memset(p, 16, 16);
    craft_block(k, ct, p);
    CHECK_EQ(aesir_ecb_decrypt(k, AESIR_PAD_PKCS7, out, 32, &n, ct, 16),
             AESIR_OK);
    CHECK_EQ(n, 0u);
    /* Bad padding after a good block: nothing is written, the good
     * block neither (the padding is checked first). */
    memset(p, 0x11, 16);
    craft_block(k, ct, p);
    memset(p, 0, 16);
    craft_block(k, ct + 16, p);
    memset(out, 0xa5, sizeof(out));
    CHECK_EQ(aesir_ecb_decrypt(k, AESIR_PAD_PKCS7, out, 32, &n, ct, 32),
             AESIR_E_PADDING);
    for (size_t i = 0; i < sizeof(out); i++)
        CHECK_EQ(out[i], 0xa5);
    CHECK_EQ(n, 0u);
    /* CBC in place: the caller's buffer still holds the ciphertext, no
     * plaintext. */
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)i;
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_NONE, ct, 32, &n, out, 32),
             AESIR_OK);
    memcpy(out, ct, 32);
    CHECK_EQ(aesir_cbc_decrypt(k, iv0, AESIR_PAD_PKCS7, out, 32, &n, out, 32),
             AESIR_E_PADDING);
    CHECK(memcmp(out, ct, 32) == 0);
}

static void test_zero_padding(const aesir_aes *k)
{
    uint8_t in[40], ct[48], pt[48];
    size_t n;
    for (int i = 0; i < 40; i++)
        in[i] = (uint8_t)(i + 1);
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_ZERO, ct, 48, &n, in, 20),
             AESIR_OK);
    CHECK_EQ(n, 32u);
    CHECK_EQ(aesir_cbc_decrypt(k, iv0, AESIR_PAD_ZERO, pt, 48, &n, ct, 32),
             AESIR_OK);
    /* Decryption cannot know the true length: the zeros come back. */
    CHECK_EQ(n, 32u);
    CHECK(memcmp(pt, in, 20) == 0 && all_zero(pt + 20, 12));
    /* Whole blocks get no padding at all. */
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_ZERO, ct, 48, &n, in, 32),
             AESIR_OK);
    CHECK_EQ(n, 32u);
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_ZERO, ct, 48, &n, in, 0),
             AESIR_OK);
    CHECK_EQ(n, 0u);
    /* PKCS#7 always pads: 32 bytes in, 48 out. */
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_PKCS7, ct, 48, &n, in, 32),
             AESIR_OK);
    CHECK_EQ(n, 48u);
    CHECK_EQ(aesir_cbc_decrypt(k, iv0, AESIR_PAD_PKCS7, pt, 48, &n, ct, 48),
             AESIR_OK);
    CHECK_EQ(n, 32u);
    CHECK(memcmp(pt, in, 32) == 0);
}

static void set_counter(uint8_t ctr[16], uint8_t fill, unsigned bits)
{
    memset(ctr, 0x42, 16);
    memset(ctr + 16 - bits / 8, fill, bits / 8);
}

/* The counter's last value is usable; one more block is an error. */
static void test_ctr_overflow(const aesir_aes *k)
{
    static const unsigned widths[] = {32, 64, 128};
    uint8_t ctr[16], buf[64] = {0}, ref[64];
    aesir_cipher c;
    size_t n;

    for (int w = 0; w < 3; w++) {
        unsigned bits = widths[w];
        set_counter(ctr, 0xff, bits);
        ctr[15] = 0xfe; /* two values left */
        memset(buf, 0, sizeof(buf));
        CHECK_EQ(aesir_ctr_crypt(k, ctr, bits, buf, buf, 33),
                 AESIR_E_COUNTER_OVERFLOW);
        CHECK_EQ(aesir_ctr_crypt(k, ctr, bits, buf, buf, 32), AESIR_OK);
        /* The keystream is E(..fe), E(..ff): nothing above w changed. */
        CHECK_EQ(aesir_aes_encrypt_block(k, ref, ctr), AESIR_OK);
        ctr[15] = 0xff;
        CHECK_EQ(aesir_aes_encrypt_block(k, ref + 16, ctr), AESIR_OK);
        CHECK(memcmp(buf, ref, 32) == 0);

        /* Incremental: byte by byte up to the end, then refusal, and the
         * refused call consumes nothing. */
        ctr[15] = 0xfe;
        CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_CTR, AESIR_ENCRYPT, ctr,
                                   16, bits),
                 AESIR_OK);
        memset(buf, 0, sizeof(buf));
        for (int i = 0; i < 31; i++)
            CHECK_EQ(aesir_cipher_update(&c, buf + i, 1, &n, buf + i, 1),
                     AESIR_OK);
        CHECK_EQ(aesir_cipher_update(&c, buf + 31, 2, &n, buf + 31, 2),
                 AESIR_E_COUNTER_OVERFLOW);
        CHECK_EQ(n, 0u);
        CHECK_EQ(aesir_cipher_update(&c, buf + 31, 1, &n, buf + 31, 1),
                 AESIR_OK);
        CHECK(memcmp(buf, ref, 32) == 0);
        CHECK_EQ(aesir_cipher_update(&c, buf, 1, &n, buf, 1),
                 AESIR_E_COUNTER_OVERFLOW);
        CHECK_EQ(aesir_cipher_update(&c, buf, 0, &n, buf, 0), AESIR_OK);
        aesir_cipher_clear(&c);

        /* A narrower counter carries no further than its width. */
        if (bits < 128) {
            set_counter(ctr, 0x00, bits);
            ctr[15] = 0x01;
            CHECK_EQ(aesir_ctr_crypt(k, ctr, bits, buf, buf, 16), AESIR_OK);
        }
    }
    /* 32-bit: a full 2^32-block range is fine to ask for in principle;
     * starting at 1 leaves 2^32 - 1 blocks. Check the arithmetic without
     * running it by asking for one block too many from near the top. */
    set_counter(ctr, 0xff, 32);
    memset(ctr + 12, 0, 4);
    ctr[12] = 0xff; /* ff000000: 2^24 values left = 256 MiB */
    CHECK_EQ(
        aesir_cipher_init(&c, k, AESIR_MODE_CTR, AESIR_ENCRYPT, ctr, 16, 32),
        AESIR_OK);
    CHECK_EQ(
        aesir_cipher_update(&c, buf, SIZE_MAX, &n, buf, ((size_t)1 << 28) + 1),
        AESIR_E_COUNTER_OVERFLOW);
    aesir_cipher_clear(&c);
}

/* In-place streaming with bytes already buffered (the shifted path). */
static void test_inplace_buffered(const aesir_aes *k)
{
    enum { LEN = 1500 };
    static uint8_t msg[LEN + 32], ref[LEN + 32], buf[LEN + 32];
    static const unsigned first[] = {1, 5, 15, 16, 17, 31};
    size_t n, n1, n2, n3;

    for (int i = 0; i < LEN; i++)
        msg[i] = (uint8_t)(i * 7 + 3);
    for (int mode = AESIR_MODE_ECB; mode <= AESIR_MODE_CBC; mode++)
        for (unsigned dir = AESIR_ENCRYPT; dir <= AESIR_DECRYPT; dir++)
            for (unsigned pad = 0; pad <= AESIR_PAD_PKCS7; pad++)
                for (size_t f = 0; f < sizeof(first) / sizeof(first[0]); f++) {
                    aesir_cipher c;
                    unsigned a = first[f];
                    int err =
                        mode == AESIR_MODE_ECB
                            ? (dir == AESIR_ENCRYPT
                                   ? aesir_ecb_encrypt(k, pad, ref, sizeof(ref),
                                                       &n, msg, LEN - 4)
                                   : aesir_ecb_decrypt(k, pad, ref, sizeof(ref),
                                                       &n, msg, LEN - 12))
                            : (dir == AESIR_ENCRYPT
                                   ? aesir_cbc_encrypt(k, iv0, pad, ref,
                                                       sizeof(ref), &n, msg,
                                                       LEN - 4)
                                   : aesir_cbc_decrypt(k, iv0, pad, ref,
                                                       sizeof(ref), &n, msg,
                                                       LEN - 12));
                    size_t len = dir == AESIR_ENCRYPT ? LEN - 4 : LEN - 12;
                    if (pad == AESIR_PAD_NONE && dir == AESIR_ENCRYPT)
                        len = LEN - 12; /* whole blocks */
                    if (pad == AESIR_PAD_NONE && dir == AESIR_ENCRYPT)
                        err =
                            mode == AESIR_MODE_ECB
                                ? aesir_ecb_encrypt(k, pad, ref, sizeof(ref),
                                                    &n, msg, len)
                                : aesir_cbc_encrypt(k, iv0, pad, ref,
                                                    sizeof(ref), &n, msg, len);
                    if (dir == AESIR_DECRYPT && pad == AESIR_PAD_PKCS7)
                        continue; /* random data: padding would fail */
                    CHECK_EQ(err, AESIR_OK);
                    CHECK_EQ(
                        aesir_cipher_init(&c, k, (aesir_mode)mode, dir,
                                          mode == AESIR_MODE_ECB ? NULL : iv0,
                                          mode == AESIR_MODE_ECB ? 0 : 16, pad),
                        AESIR_OK);
                    /* First a bytes from msg, the rest in place in buf. */
                    memcpy(buf, msg + a, len - a);
                    CHECK_EQ(aesir_cipher_update(&c, ref + LEN + 16, 16, &n1,
                                                 msg, a),
                             AESIR_OK);
                    CHECK_EQ(n1, a >= 16 ? 16u : 0u);
                    {
                        uint8_t first_out[16];
                        memcpy(first_out, ref + LEN + 16, n1);
                        CHECK_EQ(aesir_cipher_update(&c, buf, sizeof(buf), &n2,
                                                     buf, len - a),
                                 AESIR_OK);
                        CHECK_EQ(aesir_cipher_final(&c, buf + n2,
                                                    sizeof(buf) - n2, &n3),
                                 AESIR_OK);
                        CHECK_EQ(n1 + n2 + n3, n);
                        CHECK(memcmp(first_out, ref, n1) == 0);
                        CHECK(memcmp(buf, ref + n1, n2 + n3) == 0);
                    }
                }
}

/* The one-shot stream modes without a context (CFB128, CTR): the errors
 * of aesir_cipher_init and aesir_cipher_update in the same order, nothing
 * written on an error, and in place (out == in) equal to out of place. */
static void test_stream_oneshot(const aesir_aes *k)
{
    static const size_t lens[] = {1, 15, 16, 17, 64, 100, 576, 1000};
    static uint8_t msg[1024], ref[1024], buf[1024];
    aesir_aes blank, deconly;

    memset(&blank, 0, sizeof(blank));
    CHECK_EQ(aesir_cfb128_encrypt(NULL, iv0, buf, msg, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cfb128_decrypt(&blank, iv0, buf, msg, 16), AESIR_E_STATE);
    CHECK_EQ(aesir_cfb128_decrypt(k, NULL, buf, msg, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cfb128_encrypt(k, iv0, NULL, msg, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cfb128_decrypt(k, iv0, buf, NULL, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cfb128_encrypt(k, iv0, NULL, NULL, 0), AESIR_OK);
    CHECK_EQ(aesir_ctr_crypt(k, iv0, 0, NULL, NULL, 0), AESIR_OK);
    CHECK_EQ(aesir_ctr_crypt(k, NULL, 0, buf, msg, 16), AESIR_E_ARGUMENT);
    /* CFB runs the forward cipher in both directions. */
    if (aesir_aes_init_ex(&deconly, key16, 16, aesir_aes_engine(k),
                          AESIR_DECRYPT) == AESIR_OK) {
        memset(buf, 0x5a, 16);
        CHECK_EQ(aesir_cfb128_decrypt(&deconly, iv0, buf, msg, 16),
                 AESIR_E_STATE);
        CHECK_EQ(aesir_ctr_crypt(&deconly, iv0, 0, buf, msg, 16),
                 AESIR_E_STATE);
        CHECK_EQ(buf[0], 0x5a); /* nothing written */
        aesir_aes_clear(&deconly);
    } else {
        CHECK(0);
    }
    for (size_t i = 0; i < sizeof(msg); i++)
        msg[i] = (uint8_t)(i * 13 + 1);
    for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
        for (int op = 0; op < 3; op++) {
            size_t len = lens[l];
            int e1, e2;
            memcpy(buf, msg, len);
            if (op == 0) {
                e1 = aesir_cfb128_encrypt(k, iv0, ref, msg, len);
                e2 = aesir_cfb128_encrypt(k, iv0, buf, buf, len);
            } else if (op == 1) {
                e1 = aesir_cfb128_decrypt(k, iv0, ref, msg, len);
                e2 = aesir_cfb128_decrypt(k, iv0, buf, buf, len);
            } else {
                e1 = aesir_ctr_crypt(k, iv0, 32, ref, msg, len);
                e2 = aesir_ctr_crypt(k, iv0, 32, buf, buf, len);
            }
            CHECK_EQ(e1, AESIR_OK);
            CHECK_EQ(e2, AESIR_OK);
            CHECK(memcmp(ref, buf, len) == 0);
        }
}

/* A key of n bytes from a small LCG: different for each seed. */
static void fill_key(uint8_t *k, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        k[i] = (uint8_t)(seed >> 24);
    }
}

/*
 * Key setup leaves nothing of an earlier key in the context, while it
 * wipes only what an earlier schedule can have written (key.c): a
 * context set up over another key -- every engine, key length and
 * direction before and after -- is byte for byte the context a cleared
 * one gets, and a direction not asked for holds nothing but zeros or
 * the new key's own schedule (unasked_ok). Two earlier keys
 * each, so that an engine writing further for some keys than for the one
 * its reach was measured with would show.
 */
/* The area of a direction not asked for: all zeros, or (an engine that
 * makes both schedules when that is cheaper than wiping, aesni_keys.h)
 * exactly what a setup for both directions with the same key holds. */
static int unasked_ok(const unsigned char *area, const unsigned char *both)
{
    return all_zero(area, AESIR_RK_BYTES) ||
           memcmp(area, both, AESIR_RK_BYTES) == 0;
}

static void test_reinit_leaves_nothing(void)
{
    static aesir_aes used, fresh, both;
    static const unsigned dirs[] = {AESIR_ENCRYPT, AESIR_DECRYPT,
                                    AESIR_ENCRYPT | AESIR_DECRYPT};
    const struct aesir_key_state *ks =
        (const struct aesir_key_state *)(const void *)used.opaque;
    const struct aesir_key_state *kb =
        (const struct aesir_key_state *)(const void *)both.opaque;
    uint8_t k1[32], k2[32];
    size_t n = aesir_engine_count(), bad = 0, runs = 0;

    fill_key(k2, sizeof(k2), 2);
    for (size_t e1 = 0; e1 < n; e1++) {
        if (!(aesir_engine_flags(e1) & AESIR_ENGINE_AVAILABLE))
            continue;
        for (size_t e2 = 0; e2 < n; e2++) {
            if (!(aesir_engine_flags(e2) & AESIR_ENGINE_AVAILABLE))
                continue;
            for (unsigned l1 = 16; l1 <= 32; l1 += 8)
                for (unsigned l2 = 16; l2 <= 32; l2 += 8)
                    for (size_t d1 = 0; d1 < 3; d1++)
                        for (size_t d2 = 0; d2 < 3; d2++) {
                            int ok;
                            fill_key(k1, sizeof(k1),
                                     (uint32_t)(100 + runs % 2));
                            aesir_aes_clear(&used);
                            aesir_aes_clear(&fresh);
                            ok = aesir_aes_init_ex(&used, k1, l1,
                                                   aesir_engine_name(e1),
                                                   dirs[d1]) == AESIR_OK &&
                                 aesir_aes_init_ex(&used, k2, l2,
                                                   aesir_engine_name(e2),
                                                   dirs[d2]) == AESIR_OK &&
                                 aesir_aes_init_ex(&fresh, k2, l2,
                                                   aesir_engine_name(e2),
                                                   dirs[d2]) == AESIR_OK &&
                                 memcmp(&used, &fresh, sizeof(used)) == 0;
                            ok &=
                                aesir_aes_init_ex(
                                    &both, k2, l2, aesir_engine_name(e2),
                                    AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK;
                            if (!(dirs[d2] & AESIR_ENCRYPT))
                                ok &= unasked_ok(ks->rk_enc, kb->rk_enc);
                            if (!(dirs[d2] & AESIR_DECRYPT))
                                ok &= unasked_ok(ks->rk_dec, kb->rk_dec);
                            if (!ok && bad++ < 5)
                                fprintf(stderr,
                                        "re-init %s/%u/%u over %s/%u/%u "
                                        "leaves bytes of the earlier key\n",
                                        aesir_engine_name(e2), l2, dirs[d2],
                                        aesir_engine_name(e1), l1, dirs[d1]);
                            runs++;
                        }
        }
    }
    CHECK(runs > 0);
    CHECK_EQ(bad, (size_t)0);
    aesir_aes_clear(&used);
    aesir_aes_clear(&fresh);
    aesir_aes_clear(&both);
}

/*
 * A context that was never initialised (here: filled with 0xa5) is set up
 * the same as a cleared one, within the round-key areas' schedules (the
 * rest of the garbage is not key material of ours and stays). Engine
 * names: a library-owned pointer, a copy, and near misses (a suffix of a
 * registry name reached through that registry pointer, prefixes,
 * extensions).
 */
static void test_init_garbage_and_names(void)
{
    static aesir_aes junk, clean;
    uint8_t k[32], a[64], b[64], in[64];
    char copy[32];
    size_t n = aesir_engine_count();

    fill_key(k, sizeof(k), 7);
    fill_key(in, sizeof(in), 8);
    for (size_t i = 0; i < n; i++) {
        const char *nm = aesir_engine_name(i);
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        memset(&junk, 0xa5, sizeof(junk));
        aesir_aes_clear(&clean);
        strcpy(copy, nm);
        CHECK_EQ(aesir_aes_init_ex(&junk, k, 32, copy,
                                   AESIR_ENCRYPT | AESIR_DECRYPT),
                 AESIR_OK);
        CHECK_EQ(
            aesir_aes_init_ex(&clean, k, 32, nm, AESIR_ENCRYPT | AESIR_DECRYPT),
            AESIR_OK);
        CHECK(strcmp(aesir_aes_engine(&junk), nm) == 0);
        CHECK_EQ(aesir_aes_encrypt_blocks(&junk, a, in, 4), AESIR_OK);
        CHECK_EQ(aesir_aes_encrypt_blocks(&clean, b, in, 4), AESIR_OK);
        CHECK(memcmp(a, b, sizeof(a)) == 0);
        CHECK_EQ(aesir_aes_decrypt_blocks(&junk, a, in, 4), AESIR_OK);
        CHECK_EQ(aesir_aes_decrypt_blocks(&clean, b, in, 4), AESIR_OK);
        CHECK(memcmp(a, b, sizeof(a)) == 0);
        /* a suffix of the registry's own string is not that engine */
        CHECK(aesir_engine_find(nm + 1) != (int)i);
        copy[strlen(copy) - 1] = '\0';
        CHECK(aesir_engine_find(copy) != (int)i);
        strcpy(copy, nm);
        strcat(copy, "x");
        CHECK_EQ(aesir_engine_find(copy), -1);
        CHECK_EQ(aesir_aes_init_ex(&junk, k, 16, copy, AESIR_ENCRYPT),
                 AESIR_E_ENGINE_UNKNOWN);
    }
    CHECK_EQ(aesir_engine_find(""), -1);
    /* every name found by its string too (not only by the registry's
     * own pointer), available or not */
    for (size_t i = 0; i < n; i++) {
        strcpy(copy, aesir_engine_name(i));
        CHECK_EQ(aesir_engine_find(copy), (int)i);
    }
    aesir_aes_clear(&junk);
    aesir_aes_clear(&clean);
}

static void test_engines(void)
{
    size_t count = aesir_engine_count();
    int def = aesir_engine_find(aesir_engine_default());
    const char *expect = getenv("AESIR_EXPECT_DEFAULT");

    CHECK(count >= 3);
    {
        size_t nf = 0;
        int present = -1;
        while (aesir_cpu_feature(nf, &present) != NULL) {
            CHECK(present == 0 || present == 1);
            nf++;
        }
        CHECK(nf >= 10);
        CHECK(aesir_cpu_feature(nf, &present) == NULL && present == 0);
        CHECK(aesir_cpu_feature(0, NULL) != NULL);
    }
    CHECK(def >= 0);
    CHECK(aesir_engine_flags((size_t)def) & AESIR_ENGINE_AVAILABLE);
    CHECK(aesir_engine_name(count) == NULL);
    CHECK(aesir_engine_description(count) == NULL);
    CHECK_EQ(aesir_engine_flags(count), 0u);
    CHECK_EQ(aesir_engine_find("no-such-engine"), -1);
    CHECK_EQ(aesir_engine_find(NULL), -1);
    CHECK_EQ(aesir_engine_selftest("no-such-engine"), AESIR_E_ENGINE_UNKNOWN);
    CHECK_EQ(aesir_engine_selftest(NULL), AESIR_E_ARGUMENT);
    for (size_t i = 0; i < count; i++) {
        CHECK(aesir_engine_find(aesir_engine_name(i)) == (int)i);
        if (aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)
            CHECK_EQ(aesir_engine_selftest(aesir_engine_name(i)), AESIR_OK);
    }
    /* The byte-wise and table engines are never claimed constant-time. */
    for (size_t i = 0; i < count; i++) {
        const char *nm = aesir_engine_name(i);
        if (!strcmp(nm, "ref") || !strcmp(nm, "ref-otf") ||
            !strcmp(nm, "ttable"))
            CHECK(!(aesir_engine_flags(i) & AESIR_ENGINE_CONSTANT_TIME));
    }
    /* The ranking lists every available engine once, and nothing else;
     * without AESIR_ENGINE the default is its first constant-time one. */
    {
        const char *why = NULL, *name, *first_ct = NULL;
        char ident[48];
        size_t n = 0, avail = 0;
        for (; (name = aesir_engine_ranked(n, &why)) != NULL; n++) {
            int k = aesir_engine_find(name);
            CHECK(k >= 0);
            CHECK(aesir_engine_flags((size_t)k) & AESIR_ENGINE_AVAILABLE);
            for (size_t j = 0; j < n; j++)
                CHECK(strcmp(aesir_engine_ranked(j, NULL), name) != 0);
            if (first_ct == NULL &&
                (aesir_engine_flags((size_t)k) & AESIR_ENGINE_CONSTANT_TIME))
                first_ct = name;
        }
        for (size_t i = 0; i < count; i++)
            avail += (aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE) != 0;
        CHECK_EQ(n, avail);
        CHECK(why != NULL && why[0] != '\0');
        CHECK(aesir_cpu_model(ident) != NULL);
        CHECK(aesir_cpu_model(NULL) == aesir_cpu_model(ident));
        if (getenv("AESIR_ENGINE") == NULL && first_ct != NULL)
            CHECK(strcmp(aesir_engine_default(), first_ct) == 0);
        printf("cpu model: %s (%s); rule: %s\n", aesir_cpu_model(NULL), ident,
               why);
    }
    /* The rule: the default is constant-time whenever any available
     * engine is; only a build without one falls back to ttable. (With
     * AESIR_ENGINE naming an available engine, that engine wins.) */
    if (expect == NULL) {
        int have_ct = 0;
        for (size_t i = 0; i < count; i++)
            have_ct |= (aesir_engine_flags(i) & (AESIR_ENGINE_AVAILABLE |
                                                 AESIR_ENGINE_CONSTANT_TIME)) ==
                       (AESIR_ENGINE_AVAILABLE | AESIR_ENGINE_CONSTANT_TIME);
        if (have_ct)
            CHECK(aesir_engine_flags((size_t)def) & AESIR_ENGINE_CONSTANT_TIME);
        else
            CHECK(strcmp(aesir_engine_default(), "ttable") == 0);
        printf("default engine: %s (%sconstant-time)\n", aesir_engine_default(),
               have_ct ? "" : "no engine is ");
    }
    if (expect != NULL) {
        printf("default engine: %s (expected %s)\n", aesir_engine_default(),
               expect);
        CHECK(strcmp(aesir_engine_default(), expect) == 0);
    }
}

int main(void)
{
    test_strerror();
    test_engines();
    test_reinit_leaves_nothing();
    test_init_garbage_and_names();
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        aesir_aes k;
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%-10s UNAVAILABLE\n", name);
            continue;
        }
        test_key_errors(name);
        if (aesir_aes_init_ex(&k, key16, 16, name,
                              AESIR_ENCRYPT | AESIR_DECRYPT) != AESIR_OK) {
            CHECK(0);
            continue;
        }
        test_cipher_init_errors(&k);
        test_lengths_and_output(&k);
        test_pkcs7(&k);
        test_zero_padding(&k);
        test_ctr_overflow(&k);
        test_inplace_buffered(&k);
        test_stream_oneshot(&k);
        aesir_aes_clear(&k);
        printf("%-10s checked\n", name);
    }
    return check_summary();
}
