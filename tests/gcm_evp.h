/*
 * gcm_evp.h -- one GCM message through OpenSSL's EVP interface, the
 * oracle of test_gcm_diff.c and of test_gcm.c's counter-wrap and GMAC
 * checks (where OpenSSL is installed).
 */
#ifndef AESIR_TEST_GCM_EVP_H
#define AESIR_TEST_GCM_EVP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/evp.h>

/*
 * evp_gcm -- encrypts (enc = 1: tag receives the 16-byte tag) or decrypts
 * and verifies against tag_len bytes of tag (enc = 0) len bytes of in to
 * out under key (16, 24, 32 bytes) and iv (any length OpenSSL takes:
 * 1..128 bytes). aad and in may be NULL when their length is 0. Returns 1
 * on success, 0 when decryption's tag does not match; exits on an EVP
 * error (the oracle failing is not a test result).
 */
static inline int evp_gcm(int enc, const uint8_t *key, size_t klen,
                          const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                          size_t aad_len, uint8_t *out, const uint8_t *in,
                          size_t len, uint8_t *tag, size_t tag_len)
{
    static EVP_CIPHER_CTX *c;
    const EVP_CIPHER *ci = klen == 16   ? EVP_aes_128_gcm()
                           : klen == 24 ? EVP_aes_192_gcm()
                                        : EVP_aes_256_gcm();
    uint8_t fin[16];
    int n = 0, ok = 1;

    if (c == NULL && (c = EVP_CIPHER_CTX_new()) == NULL)
        goto fail;
    if (EVP_CipherInit_ex(c, ci, NULL, NULL, NULL, enc) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)iv_len, NULL) !=
            1 ||
        EVP_CipherInit_ex(c, NULL, NULL, key, iv, enc) != 1)
        goto fail;
    if (aad_len != 0 && EVP_CipherUpdate(c, NULL, &n, aad, (int)aad_len) != 1)
        goto fail;
    if (len != 0 &&
        (EVP_CipherUpdate(c, out, &n, in, (int)len) != 1 || (size_t)n != len))
        goto fail;
    if (!enc &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, (int)tag_len, tag) != 1)
        goto fail;
    if (EVP_CipherFinal_ex(c, fin, &n) != 1) {
        if (enc)
            goto fail;
        ok = 0;
    }
    if (enc && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag) != 1)
        goto fail;
    return ok;
fail:
    fprintf(stderr, "EVP GCM call failed (iv_len %zu)\n", iv_len);
    exit(2);
}

#endif
