/*
 * check.h -- the few lines every test program shares: a CHECK macro that
 * counts and reports, and the closing "N passed, M failed" line.
 */
#ifndef AESIR_TEST_CHECK_H
#define AESIR_TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aesir.h"

#if defined(__GNUC__) || defined(__clang__)
__attribute__((unused))
#endif
static unsigned check_passed,
    check_failed;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) {                                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);    \
        }                                                                      \
    } while (0)

#define CHECK_EQ(a, b) CHECK((a) == (b))

/* 1 when the n bytes at p all equal v (a buffer left as it was, or
 * wiped), else 0. */
static inline int all_eq(const void *p, unsigned char v, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v)
            return 0;
    return 1;
}

static inline int all_zero(const void *p, size_t n)
{
    return all_eq(p, 0, n);
}

/*
 * mode_oneshot -- the one-shot function of mode in direction dir (one
 * place for the switch the tests share). option is the padding for ECB
 * and CBC (with the output capacity cap) and the counter width for CTR;
 * CFB1 takes nbits bits, the other modes len bytes. *out_len is what was
 * written: set by ECB and CBC, the input's byte length for the others.
 */
static inline int mode_oneshot(const aesir_aes *k, aesir_mode mode,
                               unsigned dir, unsigned option,
                               const uint8_t iv[16], uint8_t *out, size_t cap,
                               size_t *out_len, const uint8_t *in, size_t len,
                               size_t nbits)
{
    const int enc = dir == AESIR_ENCRYPT;

    *out_len = mode == AESIR_MODE_CFB1 ? (nbits + 7) / 8 : len;
    switch (mode) {
    case AESIR_MODE_ECB:
        return enc ? aesir_ecb_encrypt(k, option, out, cap, out_len, in, len)
                   : aesir_ecb_decrypt(k, option, out, cap, out_len, in, len);
    case AESIR_MODE_CBC:
        return enc ? aesir_cbc_encrypt(k, iv, option, out, cap, out_len, in,
                                       len)
                   : aesir_cbc_decrypt(k, iv, option, out, cap, out_len, in,
                                       len);
    case AESIR_MODE_CFB128:
        return enc ? aesir_cfb128_encrypt(k, iv, out, in, len)
                   : aesir_cfb128_decrypt(k, iv, out, in, len);
    case AESIR_MODE_CFB8:
        return enc ? aesir_cfb8_encrypt(k, iv, out, in, len)
                   : aesir_cfb8_decrypt(k, iv, out, in, len);
    case AESIR_MODE_CFB1:
        return enc ? aesir_cfb1_encrypt(k, iv, out, in, nbits)
                   : aesir_cfb1_decrypt(k, iv, out, in, nbits);
    case AESIR_MODE_OFB:
        return aesir_ofb_crypt(k, iv, out, in, len);
    case AESIR_MODE_CTR:
        return aesir_ctr_crypt(k, iv, option, out, in, len);
    }
    return AESIR_E_ARGUMENT;
}

/* splitmix64 (Steele, Lea and Flood, 2014): the tests' one PRNG step;
 * advances *s and returns the next 64-bit value. */
static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline int check_summary(void)
{
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}

#endif
