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

/*
 * Zeroes rk[from, to), from rounded down to 16 bytes (the schedule is
 * written after, over the rounded part) and to rounded up to 16 (inside
 * the area: to is at most AESIR_RK_BYTES, a multiple of 16). rk is
 * 64-byte aligned. Up to 256 bytes (what the
 * AES-instruction engines leave), stores of 16 bytes, four per loop step:
 * a call to memset() would cost more than the stores (measured). Longer
 * spans (once a bitsliced engine has been used: 960 bytes) go to memset(),
 * whose wide stores halve the count.
 */
static void wipe_span(unsigned char *rk, size_t from, size_t to)
{
    size_t i = from & ~(size_t)15;
    if (i >= to)
        return;
    if (to - i > 256) {
        memset(rk + i, 0, to - i);
        return;
    }
    for (; i + 64 <= to; i += 64) {
        memset(rk + i, 0, 64);
#if defined(__GNUC__) || defined(__clang__)
        /* a barrier per step: no call to memset() for the loop */
        __asm__("" : : "r"(rk) : "memory");
#endif
    }
    for (; i < to; i += 16) {
        memset(rk + i, 0, 16);
#if defined(__GNUC__) || defined(__clang__)
        __asm__("" : : "r"(rk) : "memory");
#endif
    }
}

int aesir_aes_init_ex(aesir_aes *ctx, const uint8_t *key, size_t key_len,
                      const char *engine, unsigned dirs)
{
    struct aesir_key_state *ks;
    const struct aesir_engine *e;
    uint64_t reach;
    size_t most;
    int err;

    if (ctx == NULL)
        return AESIR_E_ARGUMENT;
    ks = state_of(ctx);
    /*
     * Key setup speed matters (one key per packet in some protocols), so
     * only the bytes that can hold an earlier key are wiped. Every
     * schedule ever written into a context lies within the first `most`
     * bytes of its area (dispatch.c: reach), so after the wipes below no
     * byte of either area holds anything of an earlier key: the
     * directions asked for are overwritten up to the engine's reach and
     * zeroed from there to `most`, a direction not asked for is zeroed
     * up to `most`. Nothing is read from the context, which may be
     * uninitialised memory.
     */
    ks->magic = 0;
    err = AESIR_E_ARGUMENT;
    if (key == NULL || dirs == 0 || (dirs & ~(AESIR_ENCRYPT | AESIR_DECRYPT)))
        goto fail;
    err = AESIR_E_KEY_LENGTH;
    if (key_len != 16 && key_len != 24 && key_len != 32)
        goto fail;
    e = aesir_engine_ready(engine, key_len, &reach, &err);
    if (e == NULL)
        goto fail;
    most = (size_t)(reach >> 32);

    ks->engine = e;
    ks->nr = (uint32_t)(key_len / 4 + 6);
    ks->key_len = (uint32_t)key_len;
    ks->dirs = dirs;
    if (dirs & AESIR_ENCRYPT) {
        wipe_span(ks->rk_enc, reach & 0xffff, most);
        e->setkey_enc(ks->rk_enc, key, key_len);
    } else {
        wipe_span(ks->rk_enc, 0, most);
    }
    if (dirs & AESIR_DECRYPT) {
        wipe_span(ks->rk_dec, (reach >> 16) & 0xffff, most);
        e->setkey_dec(ks->rk_dec, key, key_len);
    } else {
        wipe_span(ks->rk_dec, 0, most);
    }
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
