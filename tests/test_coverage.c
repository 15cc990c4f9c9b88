/*
 * test_coverage.c -- the behaviour behind the lines `make coverage` found
 * no other test running (docs/testing.md). Each check is a documented
 * behaviour the other tests do not assert:
 *
 *   small_reach_wipe   re-keying a context leaves nothing of the earlier
 *                      key while only AES-instruction engines have been
 *                      used in the process: their key setup then wipes
 *                      with 16-byte stores up to 240 bytes, not with the
 *                      memset that test_api reaches (a bitsliced engine
 *                      used first raises the bound to 960 bytes). It must
 *                      run first, in a process of its own.
 *   unavailable        an engine of the registry this CPU cannot run (the
 *                      other ISAs' engines, always present) is refused
 *                      with AESIR_E_ENGINE_UNAVAILABLE by key setup, which
 *                      leaves the context cleared, and by the self-test.
 *   block_calls        the raw block calls and the incremental block
 *                      modes: NULL buffers, an update whose output does
 *                      not fit (nothing consumed: the retry gives the
 *                      one-shot output), a PKCS#7 final that does not fit
 *                      (the context stays usable) or whose input is not
 *                      whole blocks (an error that wipes the context).
 *   oneshot_errors     the unpadded ECB/CBC one-shot checks in their
 *                      documented order, nothing written on failure; the
 *                      NULL out_len of the padded path; CFB1 with NULL
 *                      buffers.
 *   many_batches       aesir_cbc_encrypt_many and aesir_cbc_mac_many with
 *                      more jobs of one engine and key size than the mode
 *                      layer hands an engine at once (64), against
 *                      aesir_cbc_encrypt one message at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "check.h"

static const uint8_t iv0[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
                                0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(seed * 131u + i * 29u + (i >> 8));
}

static int available(size_t i)
{
    return (aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE) != 0;
}

/* ------------------------------------------------------------------ */

/* A context keyed with AES-256 and then AES-128 equals one keyed only
 * with AES-128: the new schedule plus the wipe of the bytes the old one
 * filled beyond it. On the AES-instruction engines only, first thing in
 * the process (see the top of the file). */
static void test_small_reach_wipe(void)
{
    static aesir_aes used, fresh;
    static const unsigned dirs[] = {AESIR_ENCRYPT, AESIR_DECRYPT,
                                    AESIR_ENCRYPT | AESIR_DECRYPT};
    uint8_t k1[32], k2[32];
    size_t runs = 0;

    fill(k1, sizeof(k1), 1);
    fill(k2, sizeof(k2), 2);
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if (!available(i) || !(aesir_engine_flags(i) & AESIR_ENGINE_HARDWARE))
            continue;
        for (size_t d1 = 0; d1 < 3; d1++)
            for (size_t d2 = 0; d2 < 3; d2++)
                for (size_t l2 = 16; l2 < 32; l2 += 8) {
                    aesir_aes_clear(&used);
                    aesir_aes_clear(&fresh);
                    CHECK_EQ(aesir_aes_init_ex(&used, k1, 32, name, dirs[d1]),
                             AESIR_OK);
                    CHECK_EQ(aesir_aes_init_ex(&used, k2, l2, name, dirs[d2]),
                             AESIR_OK);
                    CHECK_EQ(aesir_aes_init_ex(&fresh, k2, l2, name, dirs[d2]),
                             AESIR_OK);
                    CHECK(memcmp(&used, &fresh, sizeof(used)) == 0);
                    runs++;
                }
    }
    printf("small_reach_wipe: %zu re-keyings on AES-instruction engines\n",
           runs);
    aesir_aes_clear(&used);
    aesir_aes_clear(&fresh);
}

/* ------------------------------------------------------------------ */

static void test_unavailable(void)
{
    uint8_t key[16], blk[16] = {0};
    size_t n = 0;
    aesir_aes k;

    fill(key, sizeof(key), 3);
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if (available(i))
            continue;
        n++;
        /* a working context first: the failed init must clear it */
        CHECK_EQ(aesir_aes_init(&k, key, sizeof(key)), AESIR_OK);
        CHECK_EQ(aesir_aes_init_ex(&k, key, sizeof(key), name, AESIR_ENCRYPT),
                 AESIR_E_ENGINE_UNAVAILABLE);
        CHECK(aesir_aes_engine(&k) == NULL);
        CHECK_EQ(aesir_aes_key_bits(&k), 0u);
        CHECK_EQ(aesir_aes_encrypt_block(&k, blk, blk), AESIR_E_STATE);
        CHECK_EQ(aesir_engine_selftest(name), AESIR_E_ENGINE_UNAVAILABLE);
        /* twice: the verdict is not cached as a success */
        CHECK_EQ(aesir_engine_selftest(name), AESIR_E_ENGINE_UNAVAILABLE);
    }
    /* the registry always holds another ISA's engines */
    CHECK(n > 0);
    aesir_aes_clear(&k);
}

/* ------------------------------------------------------------------ */

/* ECB or CBC, one direction and padding, fed in two updates where the
 * second is first refused for lack of room, then retried. */
static void update_retry(const aesir_aes *k, aesir_mode mode, unsigned dir,
                         unsigned pad, const uint8_t *in, size_t len,
                         const uint8_t *want, size_t want_len)
{
    aesir_cipher c;
    uint8_t out[160];
    size_t n1 = 0, n2 = 99, n3 = 0, need;
    const uint8_t *iv = mode == AESIR_MODE_ECB ? NULL : iv0;

    memset(out, 0xa5, sizeof(out));
    CHECK_EQ(aesir_cipher_init(&c, k, mode, dir, iv, iv ? 16 : 0, pad),
             AESIR_OK);
    CHECK_EQ(aesir_cipher_update(&c, out, sizeof(out), &n1, in, 5), AESIR_OK);
    need = aesir_cipher_update_size(&c, len - 5);
    CHECK(need >= 16);
    /* whole blocks are due: 15 bytes of room cannot do */
    CHECK_EQ(aesir_cipher_update(&c, out + n1, 15, &n2, in + 5, len - 5),
             AESIR_E_OUTPUT_SIZE);
    CHECK_EQ(n2, 0u);
    CHECK(out[n1] == 0xa5 && out[n1 + 14] == 0xa5); /* not written */
    CHECK_EQ(aesir_cipher_update(&c, out + n1, need, &n2, in + 5, len - 5),
             AESIR_OK);
    CHECK_EQ(aesir_cipher_final(&c, out + n1 + n2, sizeof(out) - n1 - n2, &n3),
             AESIR_OK);
    CHECK_EQ(n1 + n2 + n3, want_len);
    CHECK(memcmp(out, want, want_len) == 0);
}

static void test_block_calls(const aesir_aes *k)
{
    uint8_t msg[100], ct[128], pt[128], blk[32];
    size_t ct_len = 0, pt_len = 0, n = 0;
    aesir_cipher c, blank;

    /* raw block calls */
    fill(blk, sizeof(blk), 4);
    memcpy(pt, blk, sizeof(blk));
    CHECK_EQ(aesir_aes_decrypt_blocks(k, NULL, blk, 2), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_aes_decrypt_blocks(k, pt, NULL, 2), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_aes_decrypt_blocks(k, NULL, NULL, 0), AESIR_OK);
    CHECK(memcmp(pt, blk, sizeof(blk)) == 0);
    CHECK_EQ(aesir_aes_encrypt_blocks(k, ct, blk, 2), AESIR_OK);
    CHECK_EQ(aesir_aes_decrypt_blocks(k, pt, ct, 2), AESIR_OK);
    CHECK(memcmp(pt, blk, sizeof(blk)) == 0);

    /* contexts that are not live */
    memset(&blank, 0, sizeof(blank));
    CHECK_EQ(
        aesir_cipher_init(NULL, k, AESIR_MODE_CTR, AESIR_ENCRYPT, iv0, 16, 0),
        AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cipher_update_size(&blank, 64), 0u);
    CHECK_EQ(aesir_cipher_update_size(NULL, 64), 0u);
    {
        int e = aesir_cipher_update(NULL, ct, sizeof(ct), &n, msg, 16);
        CHECK(e == AESIR_E_STATE || e == AESIR_E_ARGUMENT);
        e = aesir_cipher_final(NULL, ct, sizeof(ct), &n);
        CHECK(e == AESIR_E_STATE || e == AESIR_E_ARGUMENT);
    }

    /* an update refused for lack of room consumes nothing */
    fill(msg, sizeof(msg), 5);
    for (int mode = AESIR_MODE_ECB; mode <= AESIR_MODE_CBC; mode++)
        for (unsigned pad = AESIR_PAD_NONE; pad <= AESIR_PAD_PKCS7; pad++) {
            size_t len = pad == AESIR_PAD_NONE ? 96 : sizeof(msg);
            int e = mode == AESIR_MODE_ECB
                        ? aesir_ecb_encrypt(k, pad, ct, sizeof(ct), &ct_len,
                                            msg, len)
                        : aesir_cbc_encrypt(k, iv0, pad, ct, sizeof(ct),
                                            &ct_len, msg, len);
            CHECK_EQ(e, AESIR_OK);
            update_retry(k, (aesir_mode)mode, AESIR_ENCRYPT, pad, msg, len, ct,
                         ct_len);
            update_retry(k, (aesir_mode)mode, AESIR_DECRYPT, pad, ct, ct_len,
                         msg, len);
        }

    /* PKCS#7 decryption: a final that does not fit, then one that does */
    CHECK_EQ(aesir_cbc_encrypt(k, iv0, AESIR_PAD_PKCS7, ct, sizeof(ct), &ct_len,
                               msg, 20),
             AESIR_OK);
    CHECK_EQ(ct_len, 32u);
    CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_CBC, AESIR_DECRYPT, iv0, 16,
                               AESIR_PAD_PKCS7),
             AESIR_OK);
    CHECK_EQ(aesir_cipher_update(&c, pt, sizeof(pt), &pt_len, ct, 32),
             AESIR_OK);
    CHECK_EQ(pt_len, 16u); /* the last block is held back */
    CHECK_EQ(aesir_cipher_final(&c, pt + 16, 0, &n), AESIR_E_OUTPUT_SIZE);
    CHECK_EQ(n, 0u);
    CHECK_EQ(aesir_cipher_final(&c, pt + 16, 16, &n), AESIR_OK);
    CHECK_EQ(n, 4u);
    CHECK(memcmp(pt, msg, 20) == 0);

    /* PKCS#7 decryption of input that is not whole blocks: the error
     * wipes the context, which then refuses to go on */
    memset(&c, 0, sizeof(c));
    CHECK_EQ(aesir_cipher_init(&c, k, AESIR_MODE_ECB, AESIR_DECRYPT, NULL, 0,
                               AESIR_PAD_PKCS7),
             AESIR_OK);
    CHECK_EQ(aesir_cipher_update(&c, pt, sizeof(pt), &pt_len, ct, 24),
             AESIR_OK);
    CHECK_EQ(aesir_cipher_final(&c, pt, sizeof(pt), &n), AESIR_E_INPUT_LENGTH);
    CHECK_EQ(n, 0u);
    CHECK(all_zero(&c, sizeof(c)));
    CHECK_EQ(aesir_cipher_final(&c, pt, sizeof(pt), &n), AESIR_E_STATE);
}

/* ------------------------------------------------------------------ */

/* One unpadded one-shot call by number: ECB/CBC x encrypt/decrypt. */
static int unpadded(int op, const aesir_aes *k, const uint8_t *iv, uint8_t *out,
                    size_t cap, size_t *out_len, const uint8_t *in, size_t len)
{
    switch (op) {
    case 0:
        return aesir_ecb_encrypt(k, AESIR_PAD_NONE, out, cap, out_len, in, len);
    case 1:
        return aesir_ecb_decrypt(k, AESIR_PAD_NONE, out, cap, out_len, in, len);
    case 2:
        return aesir_cbc_encrypt(k, iv, AESIR_PAD_NONE, out, cap, out_len, in,
                                 len);
    default:
        return aesir_cbc_decrypt(k, iv, AESIR_PAD_NONE, out, cap, out_len, in,
                                 len);
    }
}

static void test_oneshot_errors(const aesir_aes *k)
{
    uint8_t in[32], out[32], bits[4];
    size_t n;
    aesir_aes blank;

    memset(&blank, 0, sizeof(blank));
    fill(in, sizeof(in), 6);
    for (int op = 0; op < 4; op++) {
        memset(out, 0x5a, sizeof(out));
        n = 7;
        CHECK_EQ(unpadded(op, k, iv0, out, 32, NULL, in, 32), AESIR_E_ARGUMENT);
        CHECK_EQ(unpadded(op, NULL, iv0, out, 32, &n, in, 32),
                 AESIR_E_ARGUMENT);
        CHECK_EQ(n, 0u);
        CHECK_EQ(unpadded(op, &blank, iv0, out, 32, &n, in, 32), AESIR_E_STATE);
        if (op >= 2)
            CHECK_EQ(unpadded(op, k, NULL, out, 32, &n, in, 32),
                     AESIR_E_ARGUMENT);
        CHECK_EQ(unpadded(op, k, iv0, out, 32, &n, NULL, 32), AESIR_E_ARGUMENT);
        CHECK_EQ(unpadded(op, k, iv0, NULL, 32, &n, in, 32), AESIR_E_ARGUMENT);
        CHECK_EQ(unpadded(op, k, iv0, out, 31, &n, in, 32),
                 AESIR_E_OUTPUT_SIZE);
        CHECK_EQ(n, 0u);
        /* the final's check, which only an empty message reaches */
        CHECK_EQ(unpadded(op, k, iv0, NULL, 16, &n, in, 0), AESIR_E_ARGUMENT);
        CHECK_EQ(unpadded(op, k, iv0, out, 32, &n, in, 15),
                 AESIR_E_INPUT_LENGTH);
        CHECK(out[0] == 0x5a && out[31] == 0x5a); /* nothing written */
    }
    /* the padded path's own out_len check */
    CHECK_EQ(aesir_ecb_encrypt(k, AESIR_PAD_PKCS7, out, 32, NULL, in, 5),
             AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cbc_decrypt(k, iv0, AESIR_PAD_PKCS7, out, 32, NULL, in, 32),
             AESIR_E_ARGUMENT);

    /* CFB1: buffers are needed for any bit at all */
    memset(bits, 0x5a, sizeof(bits));
    CHECK_EQ(aesir_cfb1_encrypt(k, iv0, bits, NULL, 9), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_cfb1_decrypt(k, iv0, NULL, in, 1), AESIR_E_ARGUMENT);
    CHECK(bits[0] == 0x5a && bits[1] == 0x5a);
}

/* ------------------------------------------------------------------ */

#define NJOBS 150 /* two full batches of 64 and a part */

static void test_many_batches(const char *engine)
{
    static uint8_t in[NJOBS][80], out[NJOBS][80], want[NJOBS][80];
    static aesir_cbc_job jobs[NJOBS];
    uint8_t key[24];
    aesir_aes k;
    size_t n;
    int bad = 0;

    fill(key, sizeof(key), 7);
    if (aesir_aes_init_ex(&k, key, sizeof(key), engine, AESIR_ENCRYPT) !=
        AESIR_OK) {
        CHECK(0);
        return;
    }
    for (int mac = 0; mac < 2; mac++) {
        for (size_t i = 0; i < NJOBS; i++) {
            size_t len = 16 * (i % 6); /* 0 .. 80 bytes */
            fill(in[i], sizeof(in[i]), (unsigned)i);
            memset(out[i], 0, sizeof(out[i]));
            jobs[i].key = &k;
            jobs[i].in = in[i];
            jobs[i].out = mac ? NULL : out[i];
            jobs[i].len = len;
            fill(jobs[i].iv, 16, (unsigned)(1000 + i));
            jobs[i].status = -99;
            if (aesir_cbc_encrypt(&k, jobs[i].iv, AESIR_PAD_NONE, want[i],
                                  sizeof(want[i]), &n, in[i], len) != AESIR_OK)
                bad++;
        }
        CHECK_EQ(mac ? aesir_cbc_mac_many(jobs, NJOBS)
                     : aesir_cbc_encrypt_many(jobs, NJOBS),
                 AESIR_OK);
        for (size_t i = 0; i < NJOBS; i++) {
            size_t len = jobs[i].len;
            uint8_t iv[16];
            fill(iv, 16, (unsigned)(1000 + i));
            bad += jobs[i].status != AESIR_OK;
            bad += memcmp(jobs[i].iv, len ? want[i] + len - 16 : iv, 16) != 0;
            if (!mac)
                bad += memcmp(out[i], want[i], len) != 0;
            bad += !all_zero(out[i] + (mac ? 0 : len),
                             sizeof(out[i]) - (mac ? 0 : len));
        }
    }
    CHECK_EQ(bad, 0);
    aesir_aes_clear(&k);
}

int main(void)
{
    uint8_t key[16];

    test_small_reach_wipe(); /* first: see the top of the file */
    test_unavailable();
    fill(key, sizeof(key), 8);
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        aesir_aes k;
        if (!available(i)) {
            printf("%-13s UNAVAILABLE\n", name);
            continue;
        }
        if (aesir_aes_init_ex(&k, key, sizeof(key), name,
                              AESIR_ENCRYPT | AESIR_DECRYPT) != AESIR_OK) {
            CHECK(0);
            continue;
        }
        test_block_calls(&k);
        test_oneshot_errors(&k);
        test_many_batches(name);
        aesir_aes_clear(&k);
        printf("%-13s checked\n", name);
    }
    return check_summary();
}
