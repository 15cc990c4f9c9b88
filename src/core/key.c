/*
 * key.c -- the aesir_aes key context: validation, engine choice, key
 * expansion for the directions asked for, the raw block functions and
 * wiping.
 */
#include "internal.h"

/*
 * Zeroes rk[from, to), from rounded down to 16 bytes (the schedule is
 * written after, over the rounded part) and to rounded up to 16 (inside
 * the area: to is at most AESIR_RK_BYTES, a multiple of 16). rk is
 * 16-byte aligned. Up to 256 bytes (what the
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

/*
 * The schedules for an engine without setkey_pair: the directions asked
 * for are overwritten up to the engine's reach and zeroed from there to
 * `most`, a direction not asked for is zeroed up to `most`.
 */
int aesir_setkey_generic(struct aesir_key_state *ks, const uint8_t *key,
                         size_t key_len, unsigned dirs, uint64_t reach)
{
    const struct aesir_engine *e = ks->engine;
    size_t most = (size_t)(reach >> 32);

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
    return AESIR_OK;
}

/* A key setup that failed leaves the context cleared. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static int
init_failed(aesir_aes *ctx, int err)
{
    aesir_aes_clear(ctx);
    return err;
}

/*
 * Key setup speed matters (one key per packet in some protocols), so
 * only the bytes that can hold an earlier key are wiped. Every schedule
 * ever written into a context lies within the first `most` bytes of its
 * area (dispatch.c: reach), so after the engine's setkey_pair or
 * setkey_generic no byte of either area holds anything of an earlier
 * key. Nothing is read from the context, which may be uninitialised
 * memory.
 *
 * The path is a chain of tail calls (checks here; the look-up and the
 * header in dispatch.c; the schedules in the engine), so no register is
 * saved and, after the schedules' stores, nothing is reloaded from the
 * stack: such a reload whose address matched a pending store in bits
 * 0..11 waited for it ("4K aliasing"), which made key setup 1.7x slower
 * or not depending on where the stack lay (measured, aesni AES-128: 46 or
 * 78 TSC cycles per key; docs/engines/aesni.md).
 */
int aesir_aes_init_ex(aesir_aes *ctx, const uint8_t *key, size_t key_len,
                      const char *engine, unsigned dirs)
{
    if (ctx == NULL || (uintptr_t)ctx % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned ctx */
    if (key == NULL || dirs == 0 || (dirs & ~(AESIR_ENCRYPT | AESIR_DECRYPT)))
        return init_failed(ctx, AESIR_E_ARGUMENT);
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return init_failed(ctx, AESIR_E_KEY_LENGTH);
    return aesir_engine_setkey(ctx, engine, key, key_len, dirs);
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
    if (nblocks > SIZE_MAX / 16) /* no buffer holds 16 * nblocks bytes */
        return AESIR_E_INPUT_LENGTH;
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
    if (nblocks > SIZE_MAX / 16) /* no buffer holds 16 * nblocks bytes */
        return AESIR_E_INPUT_LENGTH;
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
