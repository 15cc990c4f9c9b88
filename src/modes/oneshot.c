/*
 * oneshot.c -- the one-shot mode functions. Each gives exactly what init +
 * update + final of the incremental API give on the whole input (output
 * and error codes; tests/fuzz/fuzz_modes.c checks it), and makes every
 * check before it writes anything, so a failing call writes nothing:
 * PKCS#7 decryption looks at the last block's padding first
 * (padded_decrypt).
 *
 * For per-call cost on short messages, ECB, CBC, CTR, CFB128 and OFB skip
 * the cipher context (its set-up and wipe cost about as much as a 64-byte
 * message). They make the same checks in the same order, so they return
 * the same errors, then run the mode's own block code (aesir_ecb_run,
 * aesir_cbc_run, aesir_ctr_oneshot, aesir_cfb128_oneshot,
 * aesir_ofb_oneshot) on the caller's buffers.
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

/*
 * Blocks a one-shot ECB/CBC call writes before any plaintext is known:
 * all of them, padding included, for encryption (PKCS#7: one more when
 * in_len is a multiple of 16; zeros: a partial block rounded up), all
 * for decryption without padding or with zeros, and all but the last
 * for PKCS#7 decryption, whose last block's length the padding decides
 * (padded_decrypt). No overflow: in_len / 16 + 1 fits a size_t.
 */
static size_t blocks_written(unsigned dir, unsigned padding, size_t in_len)
{
    size_t nb = in_len / 16;
    if (dir == AESIR_ENCRYPT && padding == AESIR_PAD_PKCS7)
        return nb + 1;
    if (dir == AESIR_ENCRYPT && padding == AESIR_PAD_ZERO)
        return nb + (in_len % 16 != 0);
    if (dir == AESIR_DECRYPT && padding == AESIR_PAD_PKCS7)
        return nb - 1; /* in_len >= 16 (length_check) */
    return nb;
}

/*
 * The checks of a one-shot ECB/CBC call, in the order init + update +
 * final of the incremental API make them, so both return the same error;
 * all of them before anything is written. *ks is the checked key on
 * AESIR_OK.
 */
static int block_checks(const aesir_aes *key, aesir_mode mode, unsigned dir,
                        const uint8_t *iv, unsigned padding, const uint8_t *out,
                        size_t out_cap, size_t *out_len, const uint8_t *in,
                        size_t in_len, const struct aesir_key_state **ks)
{
    int err;

    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    if ((err = length_check(dir, padding, in_len)) != AESIR_OK)
        return err;
    if (key == NULL)
        return AESIR_E_ARGUMENT;
    if ((*ks = aesir_key_state(key, dir)) == NULL)
        return AESIR_E_STATE;
    if (mode == AESIR_MODE_CBC && iv == NULL)
        return AESIR_E_ARGUMENT;
    if (in_len != 0 && (in == NULL || out == NULL))
        return AESIR_E_ARGUMENT;
    if (blocks_written(dir, padding, in_len) > out_cap / 16)
        return AESIR_E_OUTPUT_SIZE;
    /* aesir_cipher_final's check */
    if (out == NULL && out_cap != 0)
        return AESIR_E_ARGUMENT;
    return AESIR_OK;
}

/* nblocks >= 1 whole blocks of ECB or CBC (a local chaining value from
 * iv, which is then not changed). */
static void block_run(const struct aesir_key_state *ks, aesir_mode mode,
                      unsigned dir, const uint8_t *iv, uint8_t *out,
                      const uint8_t *in, size_t nblocks)
{
    uint8_t chain[16];

    if (mode == AESIR_MODE_ECB) {
        aesir_ecb_run(ks, dir, out, in, nblocks);
    } else {
        memcpy(chain, iv, 16);
        aesir_cbc_run(ks, dir, chain, out, in, nblocks);
    }
}

/* Padded encryption: the whole blocks, then the last block made of the
 * tail and the padding. The tail is read before the last block is
 * written over it (in-place). */
AESIR_SLOW_PATH static void padded_encrypt(const struct aesir_key_state *ks,
                                           aesir_mode mode, const uint8_t *iv,
                                           unsigned padding, uint8_t *out,
                                           const uint8_t *in, size_t in_len)
{
    size_t nfull = in_len / 16, tail = in_len % 16;
    uint8_t last[16], chain[16];

    if (padding == AESIR_PAD_ZERO && tail == 0) {
        if (nfull != 0)
            block_run(ks, mode, AESIR_ENCRYPT, iv, out, in, nfull);
        return;
    }
    if (tail != 0)
        memcpy(last, in + 16 * nfull, tail);
    memset(last + tail, padding == AESIR_PAD_PKCS7 ? (int)(16 - tail) : 0,
           16 - tail);
    if (mode == AESIR_MODE_ECB) {
        if (nfull != 0)
            aesir_ecb_run(ks, AESIR_ENCRYPT, out, in, nfull);
        aesir_ecb_run(ks, AESIR_ENCRYPT, out + 16 * nfull, last, 1);
    } else {
        memcpy(chain, iv, 16);
        if (nfull != 0)
            aesir_cbc_run(ks, AESIR_ENCRYPT, chain, out, in, nfull);
        aesir_cbc_run(ks, AESIR_ENCRYPT, chain, out + 16 * nfull, last, 1);
    }
    aesir_wipe(last, sizeof(last));
}

/* PKCS#7 decryption: the last block first, so that bad padding or too
 * small a buffer for the plaintext it implies fails before anything is
 * written; then the other blocks (in-place, they never reach the last
 * block's input, which has been read) and the last block's bytes. The
 * buffer needs room for the plaintext only. */
AESIR_SLOW_PATH static int padded_decrypt(const struct aesir_key_state *ks,
                                          aesir_mode mode, const uint8_t *iv,
                                          uint8_t *out, size_t out_cap,
                                          size_t *out_len, const uint8_t *in,
                                          size_t in_len)
{
    size_t nb = in_len / 16, plain;
    const uint8_t *prev = nb > 1 ? in + 16 * (nb - 2) : iv;
    uint8_t p[16];
    unsigned pad = aesir_pkcs7_last(ks, mode, prev, in + 16 * (nb - 1), p);
    int err = AESIR_OK;

    if (pad == 0) {
        err = AESIR_E_PADDING;
    } else if ((plain = in_len - pad) > out_cap) {
        err = AESIR_E_OUTPUT_SIZE;
    } else {
        if (nb > 1)
            block_run(ks, mode, AESIR_DECRYPT, iv, out, in, nb - 1);
        if (pad != 16)
            memcpy(out + 16 * (nb - 1), p, 16 - pad);
        *out_len = plain;
    }
    aesir_wipe(p, sizeof(p));
    return err;
}

/* Padded ECB/CBC one-shot: the checks, then padded_encrypt or
 * padded_decrypt (zero-padding decryption is unpadded decryption). Out of
 * line, so that the unpadded path below keeps no register across a call. */
AESIR_SLOW_PATH static int padded_oneshot(const aesir_aes *key, aesir_mode mode,
                                          unsigned dir, const uint8_t *iv,
                                          unsigned padding, uint8_t *out,
                                          size_t out_cap, size_t *out_len,
                                          const uint8_t *in, size_t in_len)
{
    const struct aesir_key_state *ks;
    int err = block_checks(key, mode, dir, iv, padding, out, out_cap, out_len,
                           in, in_len, &ks);

    if (err != AESIR_OK)
        return err;
    if (dir == AESIR_DECRYPT && padding == AESIR_PAD_PKCS7)
        return padded_decrypt(ks, mode, iv, out, out_cap, out_len, in, in_len);
    if (dir == AESIR_ENCRYPT) {
        padded_encrypt(ks, mode, iv, padding, out, in, in_len);
        *out_len = 16 * blocks_written(dir, padding, in_len);
    } else if (in_len != 0) {
        block_run(ks, mode, dir, iv, out, in, in_len / 16);
        *out_len = in_len;
    }
    return AESIR_OK;
}

/*
 * ECB and CBC one-shot: with padding, padded_oneshot; without, the checks
 * and then the engine on the caller's buffers.
 */
static int block_oneshot(const aesir_aes *key, aesir_mode mode, unsigned dir,
                         const uint8_t *iv, unsigned padding, uint8_t *out,
                         size_t out_cap, size_t *out_len, const uint8_t *in,
                         size_t in_len)
{
    const struct aesir_key_state *ks;
    int err;

    if (padding != AESIR_PAD_NONE)
        return padded_oneshot(key, mode, dir, iv, padding, out, out_cap,
                              out_len, in, in_len);
    err = block_checks(key, mode, dir, iv, padding, out, out_cap, out_len, in,
                       in_len, &ks);
    if (err != AESIR_OK)
        return err;
    /* Nothing can fail from here. *out_len is written before the engine
     * runs so that nothing is held across its call: a register restored
     * from the stack after the engine's output stores waits for them when
     * the two addresses share bits 0..11 (4K aliasing; see ctr.c). */
    *out_len = in_len;
    if (in_len != 0)
        block_run(ks, mode, dir, iv, out, in, in_len / 16);
    return AESIR_OK;
}

int aesir_ecb_encrypt(const aesir_aes *key, unsigned padding, uint8_t *out,
                      size_t out_cap, size_t *out_len, const uint8_t *in,
                      size_t in_len)
{
    return block_oneshot(key, AESIR_MODE_ECB, AESIR_ENCRYPT, NULL, padding, out,
                         out_cap, out_len, in, in_len);
}

int aesir_ecb_decrypt(const aesir_aes *key, unsigned padding, uint8_t *out,
                      size_t out_cap, size_t *out_len, const uint8_t *in,
                      size_t in_len)
{
    return block_oneshot(key, AESIR_MODE_ECB, AESIR_DECRYPT, NULL, padding, out,
                         out_cap, out_len, in, in_len);
}

int aesir_cbc_encrypt(const aesir_aes *key, const uint8_t iv[16],
                      unsigned padding, uint8_t *out, size_t out_cap,
                      size_t *out_len, const uint8_t *in, size_t in_len)
{
    return block_oneshot(key, AESIR_MODE_CBC, AESIR_ENCRYPT, iv, padding, out,
                         out_cap, out_len, in, in_len);
}

int aesir_cbc_decrypt(const aesir_aes *key, const uint8_t iv[16],
                      unsigned padding, uint8_t *out, size_t out_cap,
                      size_t *out_len, const uint8_t *in, size_t in_len)
{
    return block_oneshot(key, AESIR_MODE_CBC, AESIR_DECRYPT, iv, padding, out,
                         out_cap, out_len, in, in_len);
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
