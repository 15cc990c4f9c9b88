/*
 * key.c -- the aesir_aes key context: validation, key installation for
 * the directions asked for (the engine comes ready from dispatch.c), the
 * wipe of what an earlier key left, the raw block functions and clearing.
 */
#include <stdatomic.h>

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
 * Reach: how far into a round-key area (AESIR_RK_BYTES) an engine's key
 * setup writes. Every key setup wipes the bytes of each area that the new
 * schedule does not overwrite but an earlier key could have filled: up to
 * reach_all, the largest reach of any engine made ready in this process
 * (and so of any schedule ever written into any context by this library:
 * only this file writes schedules, always with an engine made ready
 * below, which raised reach_all first). reach_all only grows, so a
 * program that uses only the AES-instruction engines (240 bytes at most)
 * never pays for the bitsliced engines' 960. It is a global, not a field
 * of the context, because key setup may be given a context that was never
 * initialised, whose fields must not be read.
 *
 * An engine's reach is measured once, when it is first made ready: its
 * setkey_enc and setkey_dec run for each key length on a buffer filled
 * with 0xa5 and again with 0x5a; the last byte that differs from the
 * filling in either run ends the reach (a byte the engine writes cannot
 * equal both fillings). The key is a public one; which bytes an engine
 * writes depends on the key length only, not on the key (its loops are
 * fixed by the length; tests/test_api.c sets every engine up over
 * earlier keys of every engine and checks that nothing of them stays).
 * The buffer has a guard of 64 bytes past the area: an engine that
 * writes there would overflow a context, and is refused.
 */
static _Atomic uint32_t reach_all;

/* Per registry index: the engine once it has passed its self-test and
 * its reach is known (NULL before, and for an engine that is unavailable
 * or failed), and its reach per key length, enc | dec << 16. */
static struct {
    _Atomic(const struct aesir_engine *) engine;
    _Atomic uint32_t reach[3];
} ready[AESIR_NENGINES];

#define REACH_GUARD 64

static size_t reach_of(const unsigned char *buf, unsigned char fill)
{
    size_t n = AESIR_RK_BYTES + REACH_GUARD;
    while (n > 0 && buf[n - 1] == fill)
        n--;
    return n;
}

/* enc | dec << 16 for keys of key_len bytes; a reach past AESIR_RK_BYTES
 * means the engine overflows its area. */
static uint32_t measure_reach(const struct aesir_engine *e, size_t key_len)
{
    static const uint8_t key[32] = {0x52, 0x65, 0x61, 0x63, 0x68};
    _Alignas(64) unsigned char buf[AESIR_RK_BYTES + REACH_GUARD];
    size_t r[2] = {0, 0};

    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++) {
            unsigned char fill = f ? 0x5a : 0xa5;
            size_t n;
            memset(buf, fill, sizeof(buf));
            (d ? e->setkey_dec : e->setkey_enc)(buf, key, key_len);
            n = reach_of(buf, fill);
            r[d] = n > r[d] ? n : r[d];
        }
    aesir_wipe(buf, sizeof(buf));
    return (uint32_t)r[0] | (uint32_t)r[1] << 16;
}

/* The first use of the engine at index i: self-tested (dispatch.c), reach
 * measured and reach_all raised, then published in ready[i]. Kept out of
 * line: inlined, its registers make every key setup save and restore six. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static const struct aesir_engine *
make_ready(int i, int *err)
{
    const struct aesir_engine *e = aesir_engine_checked(i, err);
    uint32_t most = 0, seen;

    if (e == NULL)
        return NULL;
    for (size_t k = 0; k < 3; k++) {
        uint32_t r = measure_reach(e, 16 + 8 * k);
        atomic_store_explicit(&ready[i].reach[k], r, memory_order_relaxed);
        most = (r & 0xffff) > most ? (r & 0xffff) : most;
        most = (r >> 16) > most ? (r >> 16) : most;
    }
    if (most > AESIR_RK_BYTES) {
        *err = AESIR_E_SELFTEST; /* its schedule does not fit a context */
        return NULL;
    }
    seen = atomic_load_explicit(&reach_all, memory_order_relaxed);
    while (seen < most && !atomic_compare_exchange_weak_explicit(
                              &reach_all, &seen, most, memory_order_relaxed,
                              memory_order_relaxed))
        ;
    atomic_store_explicit(&ready[i].engine, e, memory_order_release);
    return e;
}

/*
 * The schedules for an engine without setkey_pair: the directions asked
 * for are overwritten up to the engine's reach and zeroed from there to
 * reach_all, a direction not asked for is zeroed up to reach_all.
 */
static int setkey_generic(struct aesir_key_state *ks, int i, const uint8_t *key,
                          size_t key_len, unsigned dirs)
{
    const struct aesir_engine *e = ks->engine;
    uint32_t reach = atomic_load_explicit(&ready[i].reach[(key_len - 16) / 8],
                                          memory_order_relaxed);
    size_t most = atomic_load_explicit(&reach_all, memory_order_relaxed);

    if (dirs & AESIR_ENCRYPT) {
        wipe_span(ks->rk_enc, reach & 0xffff, most);
        e->setkey_enc(ks->rk_enc, key, key_len);
    } else {
        wipe_span(ks->rk_enc, 0, most);
    }
    if (dirs & AESIR_DECRYPT) {
        wipe_span(ks->rk_dec, reach >> 16, most);
        e->setkey_dec(ks->rk_dec, key, key_len);
    } else {
        wipe_span(ks->rk_dec, 0, most);
    }
    return AESIR_OK;
}

/* The header, then the schedules of a context set up with the ready
 * engine e at registry index i. */
static inline int install(aesir_aes *ctx, int i, const struct aesir_engine *e,
                          const uint8_t *key, size_t key_len, unsigned dirs)
{
    struct aesir_key_state *ks = aesir_key_head(ctx, e, key_len, dirs);
    if (e->setkey_pair != NULL)
        return e->setkey_pair(
            ks->rk_enc, ks->rk_dec, key, key_len, dirs,
            atomic_load_explicit(&reach_all, memory_order_relaxed));
    return setkey_generic(ks, i, key, key_len, dirs);
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

/* Key setup for a name compared in full, an engine not ready yet, or an
 * error. Out of line, so that the fast path saves no registers (the
 * comparison loop needs them). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int
setkey_slow(aesir_aes *ctx, const char *name, const uint8_t *key,
            size_t key_len, unsigned dirs)
{
    int i = aesir_engine_index(name), err;
    const struct aesir_engine *e =
        i >= 0 ? atomic_load_explicit(&ready[i].engine, memory_order_acquire)
               : NULL;
    if (e == NULL && (e = make_ready(i, &err)) == NULL)
        return init_failed(ctx, err);
    return install(ctx, i, e, key, key_len, dirs);
}

/*
 * Key setup speed matters (one key per packet in some protocols), so
 * only the bytes that can hold an earlier key are wiped. Every schedule
 * ever written into a context lies within the first reach_all bytes of
 * its area (above), so after the engine's setkey_pair or setkey_generic
 * no byte of either area holds anything of an earlier key. Nothing is
 * read from the context, which may be uninitialised memory.
 *
 * The path ends in a tail call (checks, the look-up of a ready engine and
 * the header here; the schedules in the engine), so no register is
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
    /* -1 (slow path) for the default not chosen yet, and for a name that
     * must be compared */
    int i = aesir_engine_index_fast(engine);
    const struct aesir_engine *e =
        i >= 0 ? atomic_load_explicit(&ready[i].engine, memory_order_acquire)
               : NULL;
    if (e == NULL)
        return setkey_slow(ctx, engine, key, key_len, dirs);
    return install(ctx, i, e, key, key_len, dirs);
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
    /* through a void pointer: no member access, so a misaligned context
     * is wiped too, without undefined behaviour */
    if (ctx != NULL)
        aesir_wipe((void *)ctx, sizeof(aesir_aes));
}
