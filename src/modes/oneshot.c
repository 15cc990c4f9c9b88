/*
 * oneshot.c -- the one-shot mode functions, each exactly init + update +
 * final of the incremental API on the whole input, so both paths are one
 * code path. Length errors that would only show in final are checked
 * first, so that a failing call writes nothing; the one failure that can
 * only be known after decrypting (bad PKCS#7 padding) wipes what was
 * written.
 *
 * Exceptions, for per-call cost on short messages: ECB and CBC without
 * padding, CTR, CFB128 and OFB skip the cipher context (its set-up and wipe
 * cost about as much as a 64-byte message). They make the same checks in
 * the same order, so they return the same errors, then run the mode's own
 * block code (aesir_ecb_run, aesir_cbc_run, aesir_ctr_oneshot,
 * aesir_cfb128_oneshot, aesir_ofb_oneshot) on the caller's buffers.
 */
#include "modes.h"

static int length_check(unsigned dir, unsigned padding, size_t in_len)
{
    if (padding > AESIR_PAD_ZERO)
        return AESIR_E_ARGUMENT;
    if (dir == AESIR_DECRYPT || padding == AESIR_PAD_NONE)
        if (in_len % 16 != 0)
            return AESIR_E_INPUT_LENGTH;
    if (dir == AESIR_DECRYPT && padding == AESIR_PAD_PKCS7 && in_len == 0)
        return AESIR_E_INPUT_LENGTH;
    return AESIR_OK;
}

AESIR_SLOW_PATH static int block_oneshot(const aesir_aes *key, aesir_mode mode,
                                         unsigned dir, const uint8_t *iv,
                                         unsigned padding, uint8_t *out,
                                         size_t out_cap, size_t *out_len,
                                         const uint8_t *in, size_t in_len)
{
    aesir_cipher c;
    size_t n1 = 0, n2 = 0;
    int err;

    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    if ((err = length_check(dir, padding, in_len)) != AESIR_OK)
        return err;
    err = aesir_cipher_init(&c, key, mode, dir, iv,
                            mode == AESIR_MODE_ECB ? 0 : 16, padding);
    if (err == AESIR_OK)
        err = aesir_cipher_update(&c, out, out_cap, &n1, in, in_len);
    if (err == AESIR_OK)
        err = aesir_cipher_final(&c, out + n1, out_cap - n1, &n2);
    aesir_cipher_clear(&c);
    if (err != AESIR_OK) {
        if (n1 != 0)
            aesir_wipe(out, n1);
        return err;
    }
    *out_len = n1 + n2;
    return AESIR_OK;
}

/*
 * ECB and CBC one-shot: with padding, block_oneshot; without, the engine
 * on the caller's buffers (CBC with a local chaining value). The checks
 * are block_oneshot's, then those of aesir_cipher_init (key, IV),
 * aesir_cipher_update and aesir_cipher_final, in that order.
 */
static int unpadded_oneshot(const aesir_aes *key, aesir_mode mode, unsigned dir,
                            const uint8_t *iv, unsigned padding, uint8_t *out,
                            size_t out_cap, size_t *out_len, const uint8_t *in,
                            size_t in_len)
{
    const struct aesir_key_state *ks;
    uint8_t chain[16];
    int err;

    if (padding != AESIR_PAD_NONE)
        return block_oneshot(key, mode, dir, iv, padding, out, out_cap, out_len,
                             in, in_len);
    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    if ((err = length_check(dir, padding, in_len)) != AESIR_OK)
        return err;
    if (key == NULL)
        return AESIR_E_ARGUMENT;
    if ((ks = aesir_key_state(key, dir)) == NULL)
        return AESIR_E_STATE;
    if (mode == AESIR_MODE_CBC && iv == NULL)
        return AESIR_E_ARGUMENT;
    if (in_len != 0 && (in == NULL || out == NULL))
        return AESIR_E_ARGUMENT;
    if (out_cap < in_len)
        return AESIR_E_OUTPUT_SIZE;
    /* aesir_cipher_final's check; only an empty message can reach it. */
    if (out == NULL && out_cap != 0)
        return AESIR_E_ARGUMENT;
    /* Nothing can fail from here. *out_len is written before the engine
     * runs so that nothing is held across its call: a register restored
     * from the stack after the engine's output stores waits for them when
     * the two addresses share bits 0..11 (4K aliasing; see ctr.c). */
    *out_len = in_len;
    if (in_len != 0 && mode == AESIR_MODE_ECB) {
        aesir_ecb_run(ks, dir, out, in, in_len / 16);
    } else if (in_len != 0) {
        memcpy(chain, iv, 16);
        aesir_cbc_run(ks, dir, chain, out, in, in_len / 16);
    }
    return AESIR_OK;
}

int aesir_ecb_encrypt(const aesir_aes *key, unsigned padding, uint8_t *out,
                      size_t out_cap, size_t *out_len, const uint8_t *in,
                      size_t in_len)
{
    return unpadded_oneshot(key, AESIR_MODE_ECB, AESIR_ENCRYPT, NULL, padding,
                            out, out_cap, out_len, in, in_len);
}

int aesir_ecb_decrypt(const aesir_aes *key, unsigned padding, uint8_t *out,
                      size_t out_cap, size_t *out_len, const uint8_t *in,
                      size_t in_len)
{
    return unpadded_oneshot(key, AESIR_MODE_ECB, AESIR_DECRYPT, NULL, padding,
                            out, out_cap, out_len, in, in_len);
}

int aesir_cbc_encrypt(const aesir_aes *key, const uint8_t iv[16],
                      unsigned padding, uint8_t *out, size_t out_cap,
                      size_t *out_len, const uint8_t *in, size_t in_len)
{
    return unpadded_oneshot(key, AESIR_MODE_CBC, AESIR_ENCRYPT, iv, padding,
                            out, out_cap, out_len, in, in_len);
}

int aesir_cbc_decrypt(const aesir_aes *key, const uint8_t iv[16],
                      unsigned padding, uint8_t *out, size_t out_cap,
                      size_t *out_len, const uint8_t *in, size_t in_len)
{
    return unpadded_oneshot(key, AESIR_MODE_CBC, AESIR_DECRYPT, iv, padding,
                            out, out_cap, out_len, in, in_len);
}

static int stream_oneshot(const aesir_aes *key, aesir_mode mode, unsigned dir,
                          const uint8_t *iv, unsigned option, uint8_t *out,
                          const uint8_t *in, size_t len)
{
    aesir_cipher c;
    size_t n = 0;
    int err = aesir_cipher_init(&c, key, mode, dir, iv, 16, option);
    if (err == AESIR_OK)
        err = aesir_cipher_update(&c, out, len, &n, in, len);
    aesir_cipher_clear(&c);
    return err;
}

/*
 * The checks of aesir_cipher_init (key, IV) and aesir_cipher_update
 * (buffers) for a stream mode's one-shot without a context, in that
 * order; *ks is the checked key on AESIR_OK. (CTR's counter-width check
 * comes between the key and the IV in aesir_cipher_init; it and both
 * later checks return AESIR_E_ARGUMENT, so the caller may make it after
 * these.)
 */
static int stream_checks(const aesir_aes *key, const uint8_t *iv,
                         const uint8_t *out, const uint8_t *in, size_t len,
                         const struct aesir_key_state **ks)
{
    if (key == NULL)
        return AESIR_E_ARGUMENT;
    if ((*ks = aesir_key_state(key, AESIR_ENCRYPT)) == NULL)
        return AESIR_E_STATE;
    if (iv == NULL || (len != 0 && (in == NULL || out == NULL)))
        return AESIR_E_ARGUMENT;
    return AESIR_OK;
}

/* CFB128 one-shot: stream_checks, then cfb.c on the caller's buffers. */
static int cfb128_oneshot(const aesir_aes *key, unsigned dir, const uint8_t *iv,
                          uint8_t *out, const uint8_t *in, size_t len)
{
    const struct aesir_key_state *ks;
    int err = stream_checks(key, iv, out, in, len, &ks);

    if (err == AESIR_OK && len != 0)
        aesir_cfb128_oneshot(ks, dir, iv, out, in, len);
    return err;
}

int aesir_cfb128_encrypt(const aesir_aes *key, const uint8_t iv[16],
                         uint8_t *out, const uint8_t *in, size_t len)
{
    return cfb128_oneshot(key, AESIR_ENCRYPT, iv, out, in, len);
}

int aesir_cfb128_decrypt(const aesir_aes *key, const uint8_t iv[16],
                         uint8_t *out, const uint8_t *in, size_t len)
{
    return cfb128_oneshot(key, AESIR_DECRYPT, iv, out, in, len);
}

int aesir_cfb8_encrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                       const uint8_t *in, size_t len)
{
    return stream_oneshot(key, AESIR_MODE_CFB8, AESIR_ENCRYPT, iv, 0, out, in,
                          len);
}

int aesir_cfb8_decrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                       const uint8_t *in, size_t len)
{
    return stream_oneshot(key, AESIR_MODE_CFB8, AESIR_DECRYPT, iv, 0, out, in,
                          len);
}

static int cfb1_oneshot(const aesir_aes *key, unsigned dir, const uint8_t *iv,
                        uint8_t *out, const uint8_t *in, size_t nbits)
{
    aesir_cipher c;
    int err = aesir_cipher_init(&c, key, AESIR_MODE_CFB1, dir, iv, 16, 0);
    if (err == AESIR_OK && nbits != 0 && (in == NULL || out == NULL))
        err = AESIR_E_ARGUMENT;
    if (err == AESIR_OK)
        aesir_cfb1_update_bits((struct cipher_state *)(void *)c.opaque, out, in,
                               nbits);
    aesir_cipher_clear(&c);
    return err;
}

int aesir_cfb1_encrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                       const uint8_t *in, size_t nbits)
{
    return cfb1_oneshot(key, AESIR_ENCRYPT, iv, out, in, nbits);
}

int aesir_cfb1_decrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                       const uint8_t *in, size_t nbits)
{
    return cfb1_oneshot(key, AESIR_DECRYPT, iv, out, in, nbits);
}

/* OFB one-shot: stream_checks, then ofb.c on the caller's buffers. */
int aesir_ofb_crypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                    const uint8_t *in, size_t len)
{
    const struct aesir_key_state *ks;
    int err = stream_checks(key, iv, out, in, len, &ks);

    if (err == AESIR_OK && len != 0)
        aesir_ofb_oneshot(ks, iv, out, in, len);
    return err;
}

/* CTR one-shot: stream_checks and the counter width, then ctr.c on the
 * caller's buffers. */
int aesir_ctr_crypt(const aesir_aes *key, const uint8_t iv[16],
                    unsigned counter_bits, uint8_t *out, const uint8_t *in,
                    size_t len)
{
    const struct aesir_key_state *ks;
    unsigned w = aesir_ctr_bits(counter_bits);
    int err = stream_checks(key, iv, out, in, len, &ks);

    if (err != AESIR_OK)
        return err;
    if (w == 0)
        return AESIR_E_ARGUMENT;
    if (len == 0)
        return AESIR_OK;
    return aesir_ctr_oneshot(ks, iv, w, out, in, len);
}
