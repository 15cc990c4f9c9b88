/*
 * selftest.c -- known-answer test run on every engine before its first
 * use: FIPS-197 appendix C (the example vectors for AES-128, -192, -256),
 * encryption and decryption, through the one-block call, a many-block call
 * that is not a multiple of any engine's batch, and the CTR fast path when
 * the engine has one (checked against CTR built from its own bulk ECB on a
 * counter that carries across 32 bits).
 */
#include "internal.h"

static const uint8_t plaintext[16] = {
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
    0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};

/* clang-format off: 8 bytes a row */
/* FIPS-197 C.1, C.2, C.3 ciphertexts for key 00 01 02 ... */
static const uint8_t expected[3][16] = {
    {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80,
     0x70, 0xb4, 0xc5, 0x5a},
    {0xdd, 0xa9, 0x7c, 0xa4, 0x86, 0x4c, 0xdf, 0xe0, 0x6e, 0xaf, 0x70, 0xa0,
     0xec, 0x0d, 0x71, 0x91},
    {0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf, 0xea, 0xfc, 0x49, 0x90,
     0x4b, 0x49, 0x60, 0x89},
};
/* clang-format on */

#define NBLK 19 /* prime, above every batch size, odd tail */

struct scratch {
    _Alignas(64) unsigned char enc[AESIR_RK_BYTES];
    _Alignas(64) unsigned char dec[AESIR_RK_BYTES];
    uint8_t buf[16 * NBLK], ref[16 * NBLK];
};

static int check_blocks(const struct aesir_engine *e, struct scratch *s,
                        unsigned nr, const uint8_t want[16])
{
    uint8_t b[16];
    int bad = 0;

    e->encrypt(s->enc, nr, b, plaintext, 1);
    bad |= aesir_ct_compare(b, want, 16);
    e->decrypt(s->dec, nr, b, b, 1);
    bad |= aesir_ct_compare(b, plaintext, 16);

    for (int i = 0; i < NBLK; i++)
        memcpy(s->buf + 16 * i, plaintext, 16);
    e->encrypt(s->enc, nr, s->buf, s->buf, NBLK);
    for (int i = 0; i < NBLK; i++)
        bad |= aesir_ct_compare(s->buf + 16 * i, want, 16);
    e->decrypt(s->dec, nr, s->buf, s->buf, NBLK);
    for (int i = 0; i < NBLK; i++)
        bad |= aesir_ct_compare(s->buf + 16 * i, plaintext, 16);
    return bad;
}

static int check_ctr(const struct aesir_engine *e, struct scratch *s,
                     unsigned nr)
{
    uint8_t ctr[16], c2[16];

    if (e->ctr == NULL)
        return 0;
    memcpy(ctr, plaintext, 16);
    memset(ctr + 12, 0xff, 3); /* low word ffffffee: carries mid-call */
    memcpy(c2, ctr, 16);
    for (int i = 0; i < NBLK; i++) {
        memcpy(s->ref + 16 * i, c2, 16);
        aesir_ctr_add(c2, 1);
    }
    e->encrypt(s->enc, nr, s->ref, s->ref, NBLK);
    for (int i = 0; i < 16 * NBLK; i++)
        s->buf[i] = (uint8_t)i;
    aesir_xor(s->ref, s->ref, s->buf, 16 * NBLK);
    e->ctr(s->enc, nr, ctr, s->buf, s->buf, NBLK);
    return aesir_ct_compare(s->buf, s->ref, 16 * NBLK) |
           aesir_ct_compare(ctr, c2, 16);
}

/*
 * The schedules of key into s, way 0 through setkey_enc and setkey_dec;
 * ways 1 and 2 through setkey_pair, which is what key setup through the
 * API runs: one direction per call (each a code path of its own), then
 * both at once. 0 when the engine has no such way.
 */
static int set_keys(const struct aesir_engine *e, struct scratch *s,
                    const uint8_t *key, size_t key_len, int way)
{
    const unsigned both = AESIR_ENCRYPT | AESIR_DECRYPT;
    if (way == 0) {
        e->setkey_enc(s->enc, key, key_len);
        e->setkey_dec(s->dec, key, key_len);
        return 1;
    }
    if (e->setkey_pair == NULL)
        return 0;
    /* most = 0: nothing to wipe, so one direction's call leaves the
     * other's schedule as it is */
    if (way == 1) {
        (void)e->setkey_pair(s->enc, s->dec, key, key_len, AESIR_ENCRYPT, 0);
        (void)e->setkey_pair(s->enc, s->dec, key, key_len, AESIR_DECRYPT, 0);
    } else {
        (void)e->setkey_pair(s->enc, s->dec, key, key_len, both, 0);
    }
    return 1;
}

int aesir_engine_selftest_run(const struct aesir_engine *e);

int aesir_engine_selftest_run(const struct aesir_engine *e)
{
    struct scratch s;
    uint8_t key[32];
    int bad = 0;

    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    for (int k = 0; k < 3; k++) {
        size_t key_len = 16 + 8 * (size_t)k;
        unsigned nr = 10 + 2 * (unsigned)k;
        for (int way = 0; way < 3; way++) {
            if (!set_keys(e, &s, key, key_len, way))
                continue;
            bad |= check_blocks(e, &s, nr, expected[k]);
            bad |= check_ctr(e, &s, nr);
        }
    }
    aesir_wipe(&s, sizeof(s));
    return bad;
}
