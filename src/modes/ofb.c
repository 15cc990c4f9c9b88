/*
 * ofb.c -- output feedback (SP 800-38A section 6.4): O_j = E(O_{j-1}),
 * O_0 = E(IV), and the output blocks are the keystream. Serial by nature;
 * st->iv holds the last output block and st->buf its unused bytes (both
 * are the same block), so calls may split anywhere. Whole blocks go to
 * the engine's fused ofb when it has one (the chain stays in registers,
 * nr AES latencies per block), else one block per engine call.
 */
#include "modes.h"

void aesir_ofb_update(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                      size_t len)
{
    unsigned pos = st->n;

    while (len > 0) {
        if (pos == 16 && len >= 16 && st->ks->engine->ofb != NULL) {
            /* Whole blocks on the engine's chain; the last output block
             * is then used up. */
            const struct aesir_key_state *ks = st->ks;
            size_t nfull = len / 16;
            ks->engine->ofb(ks->rk_enc, ks->nr, st->iv, out, in, nfull);
            memcpy(st->buf, st->iv, 16);
            in += 16 * nfull, out += 16 * nfull, len -= 16 * nfull;
            continue;
        }
        if (pos == 16) {
            aesir_encrypt1(st, st->iv, st->iv);
            memcpy(st->buf, st->iv, 16);
            pos = 0;
        }
        if (pos == 0 && len >= 16) {
            aesir_xor(out, in, st->buf, 16);
            pos = 16;
            in += 16, out += 16, len -= 16;
            continue;
        }
        *out++ = *in++ ^ st->buf[pos++];
        len--;
    }
    st->n = pos;
}

/* Whole blocks one at a time, for engines without a fused ofb. */
AESIR_SLOW_PATH static void ofb_blocks_generic(const struct aesir_key_state *ks,
                                               uint8_t reg[16], uint8_t *out,
                                               const uint8_t *in, size_t nfull)
{
    for (size_t i = 0; i < nfull; i++) {
        ks->engine->encrypt(ks->rk_enc, ks->nr, reg, reg, 1);
        aesir_xor(out + 16 * i, in + 16 * i, reg, 16);
    }
}

/* nfull >= 1 whole blocks with the register reg: the engine's fused ofb,
 * else one block at a time. */
static void ofb_blocks(const struct aesir_key_state *ks, uint8_t reg[16],
                       uint8_t *out, const uint8_t *in, size_t nfull)
{
    if (ks->engine->ofb != NULL)
        ks->engine->ofb(ks->rk_enc, ks->nr, reg, out, in, nfull);
    else
        ofb_blocks_generic(ks, reg, out, in, nfull);
}

AESIR_NOINLINE static void ofb_whole(const struct aesir_key_state *ks,
                                     const uint8_t iv[16], uint8_t *out,
                                     const uint8_t *in, size_t nfull)
{
    uint8_t reg[16];

    memcpy(reg, iv, 16);
    ofb_blocks(ks, reg, out, in, nfull);
    aesir_wipe(reg, sizeof(reg));
}

AESIR_NOINLINE static void ofb_partial(const struct aesir_key_state *ks,
                                       const uint8_t iv[16], uint8_t *out,
                                       const uint8_t *in, size_t nfull,
                                       size_t tail)
{
    uint8_t reg[16];

    memcpy(reg, iv, 16);
    if (nfull > 0)
        ofb_blocks(ks, reg, out, in, nfull);
    ks->engine->encrypt(ks->rk_enc, ks->nr, reg, reg, 1);
    aesir_xor(out + 16 * nfull, in + 16 * nfull, reg, tail);
    aesir_wipe(reg, sizeof(reg));
}

/*
 * One-shot OFB without a cipher context: the same output as
 * aesir_ofb_update() on a fresh context, straight between the caller's
 * buffers (through a context, a 64-byte message took 80 TSC cycles per
 * call on Zen 4; about 42 now). Unlike CFB's, the register holds
 * keystream, so it is wiped. Whole blocks (the common case) go apart from
 * a partial tail, as in ctr.c: the whole-block path holds nothing in a
 * callee-saved register across the engine call, whose restore could wait
 * for the engine's stores.
 */
void aesir_ofb_oneshot(const struct aesir_key_state *ks, const uint8_t iv[16],
                       uint8_t *out, const uint8_t *in, size_t len)
{
    if (len % 16 == 0)
        ofb_whole(ks, iv, out, in, len / 16);
    else
        ofb_partial(ks, iv, out, in, len / 16, len % 16);
}
