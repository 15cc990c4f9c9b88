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
 * Whole CFB128 blocks take a faster road once the register is complete
 * (no keystream bytes left over). Decryption is parallel, P_i = C_i ^
 * E(C_(i-1)) with C_(-1) the register: the engine's fused cfb_dec runs it
 * when it has one, otherwise the keystream of a chunk is one bulk ECB
 * call on the ciphertext shifted by a block. Encryption is serial (each
 * register is the previous output block): the engine's fused cfb_enc
 * keeps the chain in registers, otherwise it runs a block per call.
 *
 * Every segment needs one block encryption, so CFB8 costs a block per
 * byte and CFB1 a block per bit: they exist for compatibility, not speed.
 */
#include "modes.h"

#define CHUNK_BLOCKS 32

/* CFB128 decryption of whole blocks on bulk ECB. The register and the
 * first k - 1 ciphertext blocks are copied out before anything is
 * written, so out == in works. */
static void cfb_dec_generic(const struct aesir_key_state *ks, uint8_t iv[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint8_t ksb[16 * CHUNK_BLOCKS];

    while (nblocks > 0) {
        size_t k = nblocks < CHUNK_BLOCKS ? nblocks : CHUNK_BLOCKS;
        memcpy(ksb, iv, 16);
        memcpy(ksb + 16, in, 16 * (k - 1));
        memcpy(iv, in + 16 * (k - 1), 16);
        ks->engine->encrypt(ks->rk_enc, ks->nr, ksb, ksb, k);
        aesir_xor(out, in, ksb, 16 * k);
        in += 16 * k;
        out += 16 * k;
        nblocks -= k;
    }
    aesir_wipe(ksb, sizeof(ksb));
}

/* CFB128 encryption of whole blocks: the engine's fused cfb_enc (the
 * chain in registers), else a block per call: the register is encrypted
 * in place and then replaced by the ciphertext block it produced. */
static void cfb_enc_blocks(const struct aesir_key_state *ks, uint8_t iv[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (ks->engine->cfb_enc != NULL) {
        ks->engine->cfb_enc(ks->rk_enc, ks->nr, iv, out, in, nblocks);
        return;
    }
    for (size_t i = 0; i < nblocks; i++) {
        ks->engine->encrypt(ks->rk_enc, ks->nr, iv, iv, 1);
        aesir_xor(out + 16 * i, in + 16 * i, iv, 16);
        memcpy(iv, out + 16 * i, 16);
    }
}

/*
 * One-shot CFB128 without a cipher context: the same output as
 * aesir_cfb128_update() on a fresh context, straight between the caller's
 * buffers. The register is a local copy of the IV; between blocks it
 * holds only ciphertext (public), so only the keystream block of a
 * partial tail is wiped, and only when a tail used it.
 */
/* nfull >= 1 whole blocks with the register reg. */
static void cfb_whole_blocks(const struct aesir_key_state *ks, unsigned dir,
                             uint8_t reg[16], uint8_t *out, const uint8_t *in,
                             size_t nfull)
{
    if (dir == AESIR_ENCRYPT)
        cfb_enc_blocks(ks, reg, out, in, nfull);
    else if (ks->engine->cfb_dec != NULL)
        ks->engine->cfb_dec(ks->rk_enc, ks->nr, reg, out, in, nfull);
    else
        cfb_dec_generic(ks, reg, out, in, nfull);
}

AESIR_NOINLINE static void cfb_whole(const struct aesir_key_state *ks,
                                     unsigned dir, const uint8_t iv[16],
                                     uint8_t *out, const uint8_t *in,
                                     size_t nfull)
{
    uint8_t reg[16];

    memcpy(reg, iv, 16);
    cfb_whole_blocks(ks, dir, reg, out, in, nfull);
}

AESIR_NOINLINE static void cfb_partial(const struct aesir_key_state *ks,
                                       unsigned dir, const uint8_t iv[16],
                                       uint8_t *out, const uint8_t *in,
                                       size_t nfull, size_t tail)
{
    uint8_t reg[16], ksb[16];

    memcpy(reg, iv, 16);
    if (nfull > 0)
        cfb_whole_blocks(ks, dir, reg, out, in, nfull);
    ks->engine->encrypt(ks->rk_enc, ks->nr, ksb, reg, 1);
    aesir_xor(out + 16 * nfull, in + 16 * nfull, ksb, tail);
    aesir_wipe(ksb, sizeof(ksb));
}

/* Whole blocks (the common case) apart from a partial tail, as in ctr.c:
 * the whole-block path holds nothing in a callee-saved register across
 * the engine call, whose restore could wait for the engine's stores. */
void aesir_cfb128_oneshot(const struct aesir_key_state *ks, unsigned dir,
                          const uint8_t iv[16], uint8_t *out, const uint8_t *in,
                          size_t len)
{
    if (len % 16 == 0)
        cfb_whole(ks, dir, iv, out, in, len / 16);
    else
        cfb_partial(ks, dir, iv, out, in, len / 16, len % 16);
}

/* One byte at keystream position *pos (a new keystream block first when
 * the last one is used up); the ciphertext byte goes into the register. */
static uint8_t cfb128_byte(struct cipher_state *st, unsigned *pos, uint8_t x)
{
    uint8_t y;

    if (*pos == 16) {
        aesir_encrypt1(st, st->buf, st->iv);
        *pos = 0;
    }
    y = x ^ st->buf[*pos];
    st->iv[(*pos)++] = st->dir == AESIR_ENCRYPT ? y : x;
    return y;
}

void aesir_cfb128_update(struct cipher_state *st, uint8_t *out,
                         const uint8_t *in, size_t len)
{
    const struct aesir_key_state *ks = st->ks;
    unsigned pos = st->n;
    size_t nfull;

    /* The rest of a keystream block a previous call began. */
    for (; pos < 16 && len > 0; len--)
        *out++ = cfb128_byte(st, &pos, *in++);
    /* Here pos == 16 or len == 0: the register is a whole ciphertext
     * block, and whole blocks need no keystream buffer. */
    nfull = len / 16;
    if (nfull > 0) {
        if (st->dir == AESIR_ENCRYPT)
            cfb_enc_blocks(ks, st->iv, out, in, nfull);
        else if (ks->engine->cfb_dec != NULL)
            ks->engine->cfb_dec(ks->rk_enc, ks->nr, st->iv, out, in, nfull);
        else
            cfb_dec_generic(ks, st->iv, out, in, nfull);
        in += 16 * nfull;
        out += 16 * nfull;
        len -= 16 * nfull;
    }
    for (; len > 0; len--)
        *out++ = cfb128_byte(st, &pos, *in++);
    st->n = pos;
}

/* One CFB8 step: the register moves left by one byte. o receives the
 * keystream block, E(register), of which the step uses one byte; the
 * caller wipes it. */
static uint8_t cfb8_byte(struct cipher_state *st, uint8_t o[16], uint8_t x)
{
    uint8_t y, c;

    aesir_encrypt1(st, o, st->iv);
    y = x ^ o[0];
    c = st->dir == AESIR_ENCRYPT ? y : x;
    memmove(st->iv, st->iv + 1, 15);
    st->iv[15] = c;
    return y;
}

/* The keystream blocks go through one buffer, wiped once per call. */
void aesir_cfb8_update(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                       size_t len)
{
    uint8_t o[16];

    for (size_t i = 0; i < len; i++)
        out[i] = cfb8_byte(st, o, in[i]);
    aesir_wipe(o, sizeof(o));
}

/* One CFB1 step: the register moves left by one bit; o as in CFB8. */
static unsigned cfb1_bit(struct cipher_state *st, uint8_t o[16], unsigned bit)
{
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
    /* not (nbits + 7) / 8, which wraps to 0 for nbits > SIZE_MAX - 7 */
    size_t nbytes = nbits / 8 + (nbits % 8 != 0);
    uint8_t o[16];

    for (size_t byte = 0; byte < nbytes; byte++) {
        unsigned x = in[byte], y = 0;
        unsigned nb = nbits - 8 * byte < 8 ? (unsigned)(nbits - 8 * byte) : 8;
        for (unsigned j = 0; j < nb; j++)
            y |= cfb1_bit(st, o, (x >> (7 - j)) & 1u) << (7 - j);
        out[byte] = (uint8_t)y;
    }
    aesir_wipe(o, sizeof(o));
}
