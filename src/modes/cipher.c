/*
 * cipher.c -- the incremental API (aesir_cipher_*): argument checks, then
 * dispatch to the mode. Every mode's state fits one struct cipher_state.
 */
#include "modes.h"

static struct cipher_state *state_of(aesir_cipher *c)
{
    return (struct cipher_state *)(void *)c->opaque;
}

static int is_block_mode(unsigned mode)
{
    return mode == AESIR_MODE_ECB || mode == AESIR_MODE_CBC;
}

/* The directions of the key a mode runs: only ECB and CBC decryption
 * run the inverse cipher. */
static unsigned key_dirs(unsigned mode, unsigned dir)
{
    return is_block_mode(mode) ? dir : AESIR_ENCRYPT;
}

/*
 * The state of an initialised context whose key is still initialised for
 * what the mode needs, else NULL. The key is checked on every call: a
 * context keeps only a pointer to it, and a key cleared (or re-keyed for
 * other directions) after aesir_cipher_init must give AESIR_E_STATE, not
 * a call through a wiped engine pointer. A key re-keyed for the same
 * directions is used as it now is.
 */
static struct cipher_state *live_state(aesir_cipher *c)
{
    struct cipher_state *st;
    const struct aesir_key_state *ks;
    unsigned need;

    if (c == NULL)
        return NULL;
    st = state_of(c);
    if (st->magic != AESIR_CIPHER_MAGIC)
        return NULL;
    ks = st->ks;
    need = key_dirs(st->mode, st->dir);
    if (ks->magic != AESIR_KEY_MAGIC || (ks->dirs & need) != need)
        return NULL;
    return st;
}

/* Validates option for mode; stores what the mode keeps of it. */
static int set_option(struct cipher_state *st, unsigned option)
{
    if (is_block_mode(st->mode)) {
        if (option > AESIR_PAD_ZERO)
            return AESIR_E_ARGUMENT;
        st->option = (uint8_t)option;
    } else if (st->mode == AESIR_MODE_CTR) {
        if ((option = aesir_ctr_bits(option)) == 0)
            return AESIR_E_ARGUMENT;
        st->option = (uint8_t)(option / 8);
    } else if (option != 0) {
        return AESIR_E_ARGUMENT;
    }
    return AESIR_OK;
}

static int set_iv(struct cipher_state *st, const uint8_t *iv, size_t iv_len)
{
    if (st->mode == AESIR_MODE_ECB)
        return iv_len == 0 ? AESIR_OK : AESIR_E_IV_LENGTH;
    if (iv_len != 16)
        return AESIR_E_IV_LENGTH;
    if (iv == NULL)
        return AESIR_E_ARGUMENT;
    memcpy(st->iv, iv, 16);
    return AESIR_OK;
}

int aesir_cipher_init(aesir_cipher *c, const aesir_aes *key, aesir_mode mode,
                      unsigned dir, const uint8_t *iv, size_t iv_len,
                      unsigned option)
{
    struct cipher_state *st;
    unsigned need;
    int err;

    if (c == NULL || (uintptr_t)c % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned c */
    st = state_of(c);
    memset(st, 0, sizeof(*st));
    if (key == NULL || mode < AESIR_MODE_ECB || mode > AESIR_MODE_CTR ||
        (dir != AESIR_ENCRYPT && dir != AESIR_DECRYPT))
        return AESIR_E_ARGUMENT;
    need = key_dirs(mode, dir);
    st->ks = aesir_key_state(key, need);
    if (st->ks == NULL)
        return AESIR_E_STATE;
    st->mode = (uint8_t)mode;
    st->dir = (uint8_t)dir;
    if ((err = set_option(st, option)) != AESIR_OK ||
        (err = set_iv(st, iv, iv_len)) != AESIR_OK) {
        aesir_cipher_clear(c);
        return err;
    }
    /* Stream modes: no keystream bytes left yet. */
    st->n = is_block_mode(mode) ? 0 : 16;
    st->magic = AESIR_CIPHER_MAGIC;
    return AESIR_OK;
}

size_t aesir_cipher_update_size(const aesir_cipher *c, size_t in_len)
{
    struct cipher_state *st = live_state((aesir_cipher *)(uintptr_t)c);
    if (st == NULL)
        return 0;
    return is_block_mode(st->mode) ? aesir_blockmode_update_size(st, in_len)
                                   : in_len;
}

static int stream_update(struct cipher_state *st, uint8_t *out,
                         const uint8_t *in, size_t len)
{
    switch (st->mode) {
    case AESIR_MODE_CFB128:
        aesir_cfb128_update(st, out, in, len);
        return AESIR_OK;
    case AESIR_MODE_CFB8:
        aesir_cfb8_update(st, out, in, len);
        return AESIR_OK;
    case AESIR_MODE_CFB1:
        /* In pieces so that 8 * len cannot overflow. */
        while (len > 0) {
            size_t k = len < 4096 ? len : 4096;
            aesir_cfb1_update_bits(st, out, in, 8 * k);
            in += k, out += k, len -= k;
        }
        return AESIR_OK;
    case AESIR_MODE_OFB:
        aesir_ofb_update(st, out, in, len);
        return AESIR_OK;
    default:
        return aesir_ctr_update(st, out, in, len);
    }
}

int aesir_cipher_update(aesir_cipher *c, uint8_t *out, size_t out_cap,
                        size_t *out_len, const uint8_t *in, size_t in_len)
{
    struct cipher_state *st = live_state(c);

    if (out_len != NULL)
        *out_len = 0;
    if (st == NULL)
        return AESIR_E_STATE;
    if (out_len == NULL || (in_len != 0 && (in == NULL || out == NULL)))
        return AESIR_E_ARGUMENT;
    if (is_block_mode(st->mode))
        return aesir_blockmode_update(st, out, out_cap, out_len, in, in_len);
    if (out_cap < in_len)
        return AESIR_E_OUTPUT_SIZE;
    if (in_len == 0)
        return AESIR_OK;
    int err = stream_update(st, out, in, in_len);
    if (err == AESIR_OK)
        *out_len = in_len;
    return err;
}

int aesir_cipher_final(aesir_cipher *c, uint8_t *out, size_t out_cap,
                       size_t *out_len)
{
    struct cipher_state *st = live_state(c);
    int err = AESIR_OK;

    if (out_len != NULL)
        *out_len = 0;
    if (st == NULL) {
        /* a context whose key was cleared is wiped too */
        aesir_cipher_clear(c);
        return AESIR_E_STATE;
    }
    if (out_len == NULL || (out == NULL && out_cap != 0))
        err = AESIR_E_ARGUMENT;
    else if (is_block_mode(st->mode))
        err = aesir_blockmode_final(st, out, out_cap, out_len);
    if (err == AESIR_E_OUTPUT_SIZE)
        return err;
    aesir_cipher_clear(c);
    return err;
}

/* Only the bytes the state uses can hold anything. */
void aesir_cipher_clear(aesir_cipher *c)
{
    if (c != NULL)
        aesir_wipe(c->opaque, sizeof(struct cipher_state));
}
