/*
 * cfb.c -- cipher feedback (SP 800-38A section 6.3) with 128-, 8- and
 * 1-bit segments.
 *
 * CFB-s keeps a 128-bit shift register I (st->iv). For each s-bit segment,
 * O = E(I); the segment is XORed with the leftmost s bits of O; the
 * ciphertext segment is shifted into I from the right. CFB128 keeps the
 * unused part of O in st->buf so that calls may split anywhere; the
 * register then receives each ciphertext byte as it is made, so it is
 * complete exactly when the next block is needed.
 *
 * Every segment needs one block encryption, so CFB8 costs a block per
 * byte and CFB1 a block per bit: they exist for compatibility, not speed.
 */
#include "modes.h"

void aesir_cfb128_update(struct cipher_state *st, uint8_t *out,
                         const uint8_t *in, size_t len)
{
    unsigned pos = st->n;
    const int enc = st->dir == AESIR_ENCRYPT;

    for (size_t i = 0; i < len; i++) {
        uint8_t c, x = in[i];
        if (pos == 16) {
            aesir_encrypt1(st, st->buf, st->iv);
            pos = 0;
        }
        out[i] = x ^ st->buf[pos];
        c = enc ? out[i] : x;
        st->iv[pos++] = c;
    }
    st->n = pos;
}

/* One CFB8 step: the register moves left by one byte. */
static uint8_t cfb8_byte(struct cipher_state *st, uint8_t x)
{
    uint8_t o[16], y, c;

    aesir_encrypt1(st, o, st->iv);
    y = x ^ o[0];
    c = st->dir == AESIR_ENCRYPT ? y : x;
    memmove(st->iv, st->iv + 1, 15);
    st->iv[15] = c;
    return y;
}

void aesir_cfb8_update(struct cipher_state *st, uint8_t *out,
                       const uint8_t *in, size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = cfb8_byte(st, in[i]);
}

/* One CFB1 step: the register moves left by one bit. */
static unsigned cfb1_bit(struct cipher_state *st, unsigned bit)
{
    uint8_t o[16];
    unsigned y, c;

    aesir_encrypt1(st, o, st->iv);
    y = bit ^ (unsigned)(o[0] >> 7);
    c = st->dir == AESIR_ENCRYPT ? y : bit;
    for (int i = 0; i < 15; i++)
        st->iv[i] = (uint8_t)(st->iv[i] << 1 | st->iv[i + 1] >> 7);
    st->iv[15] = (uint8_t)(st->iv[15] << 1 | c);
    return y;
}

void aesir_cfb1_update_bits(struct cipher_state *st, uint8_t *out,
                            const uint8_t *in, size_t nbits)
{
    for (size_t byte = 0; byte < (nbits + 7) / 8; byte++) {
        unsigned x = in[byte], y = 0;
        unsigned nb = nbits - 8 * byte < 8 ? (unsigned)(nbits - 8 * byte) : 8;
        for (unsigned j = 0; j < nb; j++)
            y |= cfb1_bit(st, (x >> (7 - j)) & 1u) << (7 - j);
        out[byte] = (uint8_t)y;
    }
}
