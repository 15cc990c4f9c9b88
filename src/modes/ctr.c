/*
 * ctr.c -- counter mode (SP 800-38A section 6.5 and appendix B.1).
 *
 * The counter is the low w bits (w = 32, 64 or 128) of the 16-byte counter
 * block, read big-endian; the bits above w are a fixed nonce. Instead of
 * wrapping silently (which would reuse keystream), a call that would need
 * more counter values than remain returns AESIR_E_COUNTER_OVERFLOW before
 * it produces anything. The last value, 2^w - 1, is usable; after it the
 * context is marked spent (st->ctr_done).
 *
 * Full blocks go to the engine's fused ctr path when it has one
 * (ttable's caches rounds 1 and 2, Bernstein-Schwabe 2008), otherwise
 * counter blocks are made in a stack buffer and encrypted with bulk ECB.
 */
#include "modes.h"

#define CHUNK_BLOCKS 32

/* Counter values left before the w-bit counter in ctr wraps, saturated
 * at 2^64 - 1. Never 0: the value in ctr itself is still usable. */
static uint64_t ctr_room_of(const uint8_t ctr[16], unsigned w)
{
    uint64_t lo = aesir_load_be64(ctr + 8);
    uint64_t hi = aesir_load_be64(ctr);

    if (w == 32)
        return ((uint64_t)1 << 32) - (lo & 0xffffffffu);
    if (w == 128 && hi != UINT64_MAX)
        return UINT64_MAX;
    /* 2^64 - lo, saturated at 2^64 - 1 when lo == 0. */
    return lo == 0 ? UINT64_MAX : 0 - lo;
}

/* The same for a context: 0 once its last counter value is used. */
static uint64_t ctr_room(const struct cipher_state *st)
{
    return st->ctr_done ? 0 : ctr_room_of(st->iv, 8u * st->option);
}

static void ctr_generic(const struct aesir_key_state *ks, uint8_t ctr[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint8_t ksb[16 * CHUNK_BLOCKS];

    while (nblocks > 0) {
        size_t k = nblocks < CHUNK_BLOCKS ? nblocks : CHUNK_BLOCKS;
        for (size_t i = 0; i < k; i++) {
            memcpy(ksb + 16 * i, ctr, 16);
            aesir_ctr_add(ctr, 1);
        }
        ks->engine->encrypt(ks->rk_enc, ks->nr, ksb, ksb, k);
        aesir_xor(out, in, ksb, 16 * k);
        in += 16 * k;
        out += 16 * k;
        nblocks -= k;
    }
    aesir_wipe(ksb, sizeof(ksb));
}

/* k keystream blocks from ctr (advanced past them) XORed into in: the
 * engine's fused path when it has one. */
static void ctr_run(const struct aesir_key_state *ks, uint8_t ctr[16],
                    uint8_t *out, const uint8_t *in, size_t k)
{
    if (ks->engine->ctr != NULL)
        ks->engine->ctr(ks->rk_enc, ks->nr, ctr, out, in, k);
    else
        ctr_generic(ks, ctr, out, in, k);
}

void aesir_ctr_blocks(const struct aesir_key_state *ks, uint8_t ctr[16],
                      uint8_t *out, const uint8_t *in, size_t k)
{
    ctr_run(ks, ctr, out, in, k);
}

/* Encrypts k counter blocks into the stream; marks the context spent when
 * the last one used was 2^w - 1. */
static void ctr_blocks(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                       size_t k, uint64_t room)
{
    ctr_run(st->ks, st->iv, out, in, k);
    if (k == room)
        st->ctr_done = 1;
}

int aesir_ctr_update(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                     size_t len)
{
    unsigned pos = st->n;
    size_t left = 16 - pos, nfull, tail;
    uint64_t room = ctr_room(st);

    if (len <= left) {
        aesir_xor(out, in, st->buf + pos, len);
        st->n = pos + (unsigned)len;
        return AESIR_OK;
    }
    nfull = (len - left) / 16;
    tail = (len - left) % 16;
    if ((uint64_t)nfull + (tail != 0) > room)
        return AESIR_E_COUNTER_OVERFLOW;

    aesir_xor(out, in, st->buf + pos, left);
    in += left, out += left;
    if (nfull > 0) {
        ctr_blocks(st, out, in, nfull, room);
        room -= nfull;
        in += 16 * nfull, out += 16 * nfull;
    }
    st->n = 16;
    if (tail != 0) {
        memset(st->buf, 0, 16);
        ctr_blocks(st, st->buf, st->buf, 1, room);
        aesir_xor(out, in, st->buf, tail);
        st->n = (unsigned)tail;
    }
    return AESIR_OK;
}

/*
 * One-shot CTR without a cipher context: the same overflow check and the
 * same keystream as aesir_ctr_update() on a fresh context, straight
 * between the caller's buffers. Only the counter copy (public, derived
 * from the IV) and the keystream block of a partial tail live here; the
 * keystream block is wiped, and only when a tail used it, so whole-block
 * messages pay no wipe.
 */
/*
 * Whole blocks only, the common case, kept apart so that nothing is held
 * in a callee-saved register across the engine call: their restores
 * (stack loads) would come after the engine's output stores, and a load
 * whose address shares bits 0..11 with a store still draining waits for
 * it (4K aliasing). Where ASLR put the stack decided whether consecutive
 * calls overlapped: 576 bytes took 76 or 102-110 TSC cycles on Zen 4.
 */
AESIR_NOINLINE static int ctr_whole(const struct aesir_key_state *ks,
                                    const uint8_t iv[16], uint8_t *out,
                                    const uint8_t *in, size_t nblocks)
{
    uint8_t ctr[16];
    aesir_ctr_copy(ctr, iv);
    ctr_run(ks, ctr, out, in, nblocks);
    return AESIR_OK;
}

/* nblocks whole blocks (maybe none) and a partial one of tail bytes. */
AESIR_NOINLINE static int ctr_partial(const struct aesir_key_state *ks,
                                      const uint8_t iv[16], uint8_t *out,
                                      const uint8_t *in, size_t nblocks,
                                      size_t tail)
{
    uint8_t ctr[16], ksb[16];
    aesir_ctr_copy(ctr, iv);
    if (nblocks > 0)
        ctr_run(ks, ctr, out, in, nblocks);
    ks->engine->encrypt(ks->rk_enc, ks->nr, ksb, ctr, 1);
    aesir_xor(out + 16 * nblocks, in + 16 * nblocks, ksb, tail);
    aesir_wipe(ksb, sizeof(ksb));
    return AESIR_OK;
}

/* The check, then a tail call: this function keeps nothing across. */
int aesir_ctr_oneshot(const struct aesir_key_state *ks, const uint8_t iv[16],
                      unsigned w, uint8_t *out, const uint8_t *in, size_t len)
{
    size_t nfull = len / 16, tail = len % 16;

    if ((uint64_t)nfull + (tail != 0) > ctr_room_of(iv, w))
        return AESIR_E_COUNTER_OVERFLOW;
    if (tail == 0)
        return ctr_whole(ks, iv, out, in, nfull);
    return ctr_partial(ks, iv, out, in, nfull, tail);
}
