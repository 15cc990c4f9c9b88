/*
 * key.c -- the aesir_aes key context: validation, engine choice, key
 * expansion for the directions asked for, the raw block functions and
 * wiping.
 */
#include "internal.h"

static struct aesir_key_state *state_of(aesir_aes *ctx)
{
    return (struct aesir_key_state *)(void *)ctx->opaque;
}

int aesir_aes_init_ex(aesir_aes *ctx, const uint8_t *key, size_t key_len,
                      const char *engine, unsigned dirs)
{
    struct aesir_key_state *ks;
    const struct aesir_engine *e;
    int err;

    if (ctx == NULL)
        return AESIR_E_ARGUMENT;
    ks = state_of(ctx);
    /* Key setup speed matters (one key per packet in some protocols):
     * no volatile byte loop over 4 KiB here; the schedules asked for are
     * overwritten, a direction not asked for is wiped (a memset) so no
     * earlier key lingers in it. */
    ks->magic = 0;
    err = AESIR_E_ARGUMENT;
    if (key == NULL || dirs == 0 || (dirs & ~(AESIR_ENCRYPT | AESIR_DECRYPT)))
        goto fail;
    err = AESIR_E_KEY_LENGTH;
    if (key_len != 16 && key_len != 24 && key_len != 32)
        goto fail;
    e = aesir_engine_by_name(engine, &err);
    if (e == NULL)
        goto fail;

    ks->engine = e;
    ks->nr = (uint32_t)(key_len / 4 + 6);
    ks->key_len = (uint32_t)key_len;
    ks->dirs = dirs;
    if (dirs & AESIR_ENCRYPT)
        e->setkey_enc(ks->rk_enc, key, key_len);
    else
        aesir_wipe(ks->rk_enc, sizeof(ks->rk_enc));
    if (dirs & AESIR_DECRYPT)
        e->setkey_dec(ks->rk_dec, key, key_len);
    else
        aesir_wipe(ks->rk_dec, sizeof(ks->rk_dec));
    ks->magic = AESIR_KEY_MAGIC;
    return AESIR_OK;

fail:
    aesir_aes_clear(ctx);
    return err;
}

int aesir_aes_init(aesir_aes *ctx, const uint8_t *key, size_t key_len)
{
    return aesir_aes_init_ex(ctx, key, key_len, NULL,
                             AESIR_ENCRYPT | AESIR_DECRYPT);
}

const char *aesir_aes_engine(const aesir_aes *ctx)
{
    const struct aesir_key_state *ks = aesir_key_state(ctx, 0);
    return ks != NULL ? ks->engine->name : NULL;
}

unsigned aesir_aes_key_bits(const aesir_aes *ctx)
{
    const struct aesir_key_state *ks = aesir_key_state(ctx, 0);
    return ks != NULL ? 8 * ks->key_len : 0;
}

int aesir_aes_encrypt_blocks(const aesir_aes *ctx, uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    const struct aesir_key_state *ks = aesir_key_state(ctx, AESIR_ENCRYPT);
    if (ks == NULL)
        return AESIR_E_STATE;
    if (nblocks != 0 && (out == NULL || in == NULL))
        return AESIR_E_ARGUMENT;
    if (nblocks != 0)
        ks->engine->encrypt(ks->rk_enc, ks->nr, out, in, nblocks);
    return AESIR_OK;
}

int aesir_aes_decrypt_blocks(const aesir_aes *ctx, uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    const struct aesir_key_state *ks = aesir_key_state(ctx, AESIR_DECRYPT);
    if (ks == NULL)
        return AESIR_E_STATE;
    if (nblocks != 0 && (out == NULL || in == NULL))
        return AESIR_E_ARGUMENT;
    if (nblocks != 0)
        ks->engine->decrypt(ks->rk_dec, ks->nr, out, in, nblocks);
    return AESIR_OK;
}

int aesir_aes_encrypt_block(const aesir_aes *ctx, uint8_t out[16],
                            const uint8_t in[16])
{
    return aesir_aes_encrypt_blocks(ctx, out, in, 1);
}

int aesir_aes_decrypt_block(const aesir_aes *ctx, uint8_t out[16],
                            const uint8_t in[16])
{
    return aesir_aes_decrypt_blocks(ctx, out, in, 1);
}

void aesir_aes_clear(aesir_aes *ctx)
{
    if (ctx != NULL)
        aesir_wipe(ctx->opaque, sizeof(ctx->opaque));
}
