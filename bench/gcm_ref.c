/*
 * gcm_ref.c -- the benchmark's reference for the GCM ops (bench.h):
 * AES-GCM as SP 800-38D writes it, on aesir's "ref" engine through the
 * public API (the block cipher: aesir_ecb_encrypt; GCTR: aesir_ctr_crypt
 * with a 32-bit counter, SP 800-38D's inc32) and a GHASH that multiplies
 * bit by bit (Algorithm 1 of 6.3). Slow (about 100 MB/s) and obviously
 * right: it is what every adapter's output is compared with, and itself
 * checked against the GCM specification's test cases first
 * (bench_gcm_ref_selftest).
 *
 * aesir has no GCM of its own yet; when it has, its adapter is checked
 * against this like every peer.
 */
#include "harness_int.h"

#include <string.h>

#include "aesir.h"

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

/* gf_mul -- x = x * h in GF(2^128), GCM's bit order: bit 0 is the most
 * significant bit of byte 0; R = 11100001 || 0^120 (SP 800-38D, 6.3). */
static void gf_mul(uint8_t x[16], const uint8_t h[16])
{
    uint64_t zh = 0, zl = 0, vh = load_be64(h), vl = load_be64(h + 8);

    for (int i = 0; i < 128; i++) {
        uint64_t bit = (uint64_t)(x[i / 8] >> (7 - i % 8) & 1);
        uint64_t lsb = vl & 1;
        zh ^= vh & (0 - bit);
        zl ^= vl & (0 - bit);
        vl = vl >> 1 | vh << 63;
        vh = vh >> 1 ^ (0xe100000000000000u & (0 - lsb));
    }
    store_be64(x, zh);
    store_be64(x + 8, zl);
}

/* ghash -- y = GHASH_H over p[0..n), a partial last block zero-padded. */
static void ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *p,
                  size_t n)
{
    while (n > 0) {
        size_t b = n < 16 ? n : 16;
        for (size_t i = 0; i < b; i++)
            y[i] ^= p[i];
        gf_mul(y, h);
        p += b;
        n -= b;
    }
}

/* ecb1 -- one block through the cipher. */
static int ecb1(const aesir_aes *k, uint8_t out[16], const uint8_t in[16])
{
    size_t n;
    return aesir_ecb_encrypt(k, AESIR_PAD_NONE, out, 16, &n, in, 16) == AESIR_OK
               ? 0
               : -1;
}

int bench_gcm_ref(enum bench_op op, const uint8_t *key, unsigned bits,
                  const uint8_t iv[16], uint8_t *out, const uint8_t *in,
                  size_t len)
{
    static const uint8_t zero[16];
    uint8_t h[16], j0[16], ek0[16], ctr[16], y[16] = {0}, lens[16], tag[16];
    const uint8_t *aad = NULL, *ct = NULL;
    size_t aad_len = 0, ct_len = 0;
    aesir_aes k;
    int rc = -1;

    if (!bench_op_is_gcm(op) || (op == OP_GHASH && len % 16 != 0))
        return -1;
    if (aesir_aes_init_ex(&k, key, bits / 8, "ref", AESIR_ENCRYPT) != AESIR_OK)
        return -1;
    if (ecb1(&k, h, zero) != 0)
        goto out;
    if (op == OP_GHASH) {
        ghash(y, h, in, len);
        memcpy(out, y, 16);
        rc = 0;
        goto out;
    }
    /* J0 = IV || 0^31 || 1 (a 96-bit IV); the data from inc32(J0). */
    memcpy(j0, iv, 12);
    memcpy(j0 + 12, "\0\0\0\1", 4);
    memcpy(ctr, j0, 16);
    ctr[15] = 2;
    if (ecb1(&k, ek0, j0) != 0)
        goto out;
    switch (op) {
    case OP_GMAC:
        aad = in;
        aad_len = len;
        break;
    case OP_GCM_ENC:
        if (len > 0 && aesir_ctr_crypt(&k, ctr, 32, out, in, len) != AESIR_OK)
            goto out;
        ct = out;
        ct_len = len;
        break;
    default: /* OP_GCM_DEC */
        ct = in;
        ct_len = len;
        break;
    }
    ghash(y, h, aad, aad_len);
    ghash(y, h, ct, ct_len);
    store_be64(lens, (uint64_t)aad_len * 8);
    store_be64(lens + 8, (uint64_t)ct_len * 8);
    ghash(y, h, lens, 16);
    for (int i = 0; i < 16; i++)
        tag[i] = y[i] ^ ek0[i];
    if (op == OP_GCM_ENC) {
        memcpy(out + len, tag, 16);
    } else if (op == OP_GMAC) {
        memcpy(out, tag, 16);
    } else {
        if (memcmp(tag, in + len, 16) != 0)
            goto out; /* the tag does not verify */
        if (len > 0 && aesir_ctr_crypt(&k, ctr, 32, out, in, len) != AESIR_OK)
            goto out;
    }
    rc = 0;
out:
    aesir_aes_clear(&k);
    return rc;
}

/*
 * The test cases of McGrew and Viega, "The Galois/Counter Mode of
 * Operation (GCM)", 2005 (the vectors SP 800-38D points to): all-zero key
 * and IV, an empty or one-block zero plaintext; AES-128 (cases 1, 2) and
 * AES-256 (cases 13, 14).
 */
static const struct {
    unsigned bits;
    size_t len;
    uint8_t ct_tag[32];
} gcm_kat[] = {
    {128,
     0,
     {0x58, 0xe2, 0xfc, 0xce, 0xfa, 0x7e, 0x30, 0x61, 0x36, 0x7f, 0x1d, 0x57,
      0xa4, 0xe7, 0x45, 0x5a}},
    {128, 16, {0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92, 0xf3, 0x28, 0xc2,
               0xb9, 0x71, 0xb2, 0xfe, 0x78, 0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec,
               0x13, 0xbd, 0xf5, 0x3a, 0x67, 0xb2, 0x12, 0x57, 0xbd, 0xdf}},
    {256,
     0,
     {0x53, 0x0f, 0x8a, 0xfb, 0xc7, 0x45, 0x36, 0xb9, 0xa9, 0x63, 0xb4, 0xf1,
      0xc4, 0xcb, 0x73, 0x8b}},
    {256, 16, {0xce, 0xa7, 0x40, 0x3d, 0x4d, 0x60, 0x6b, 0x6e, 0x07, 0x4e, 0xc5,
               0xd3, 0xba, 0xf3, 0x9d, 0x18, 0xd0, 0xd1, 0xc8, 0xa7, 0x99, 0x99,
               0x6b, 0xf0, 0x26, 0x5b, 0x98, 0xb5, 0xd4, 0x8a, 0xb9, 0x19}},
};

int bench_gcm_ref_selftest(void)
{
    static const uint8_t key[32], iv[16], zero[16];
    uint8_t out[32], back[16];

    for (size_t i = 0; i < sizeof(gcm_kat) / sizeof(gcm_kat[0]); i++) {
        size_t n = gcm_kat[i].len;
        if (bench_gcm_ref(OP_GCM_ENC, key, gcm_kat[i].bits, iv, out, zero, n) !=
                0 ||
            memcmp(out, gcm_kat[i].ct_tag, n + 16) != 0)
            return -1;
        /* decryption verifies the tag, and refuses a wrong one */
        if (bench_gcm_ref(OP_GCM_DEC, key, gcm_kat[i].bits, iv, back, out, n) !=
                0 ||
            memcmp(back, zero, n) != 0)
            return -1;
        out[n] ^= 1;
        if (bench_gcm_ref(OP_GCM_DEC, key, gcm_kat[i].bits, iv, back, out, n) ==
            0)
            return -1;
    }
    return 0;
}
