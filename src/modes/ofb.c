/*
 * ofb.c -- output feedback (SP 800-38A section 6.4): O_j = E(O_{j-1}),
 * O_0 = E(IV), and the output blocks are the keystream. Serial by nature;
 * st->iv holds the last output block and st->buf its unused bytes (both
 * are the same block), so calls may split anywhere. Whole blocks go to
 * the engine's fused ofb when it has one (the chain stays in registers,
 * nr AES latencies per block), else one block per engine call.
 */
#include "modes.h"

void aesir_ofb_update(struct cipher_state *st, uint8_t *out,
                      const uint8_t *in, size_t len)
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
