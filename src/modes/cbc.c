/*
 * cbc.c -- cipher block chaining (SP 800-38A section 6.2) on full blocks.
 *
 * Encryption is serial: each block needs the previous ciphertext. The
 * generic path calls the engine once per block; engines with a fused
 * cbc_enc keep the chain in registers.
 *
 * Decryption is parallel: P_i = D(C_i) ^ C_{i-1}. The generic path
 * decrypts a chunk with the engine's bulk ECB into a stack buffer and then
 * XORs, walking the chunk backwards so that in-place operation never
 * overwrites a ciphertext block that is still needed as a chaining value.
 */
#include "modes.h"

#define CHUNK_BLOCKS 32

/* x is the cipher's input, plaintext XOR chaining value: wiped. */
void aesir_cbc_enc_generic(const struct aesir_key_state *ks, uint8_t iv[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint8_t x[16];
    for (size_t i = 0; i < nblocks; i++) {
        aesir_xor(x, in + 16 * i, iv, 16);
        ks->engine->encrypt(ks->rk_enc, ks->nr, iv, x, 1);
        memcpy(out + 16 * i, iv, 16);
    }
    aesir_wipe(x, sizeof(x));
}

void aesir_cbc_dec_generic(const struct aesir_key_state *ks, uint8_t iv[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint8_t tmp[16 * CHUNK_BLOCKS], next_iv[16];

    while (nblocks > 0) {
        size_t k = nblocks < CHUNK_BLOCKS ? nblocks : CHUNK_BLOCKS;
        ks->engine->decrypt(ks->rk_dec, ks->nr, tmp, in, k);
        memcpy(next_iv, in + 16 * (k - 1), 16);
        for (size_t i = k - 1; i > 0; i--)
            aesir_xor(out + 16 * i, tmp + 16 * i, in + 16 * (i - 1), 16);
        aesir_xor(out, tmp, iv, 16);
        memcpy(iv, next_iv, 16);
        in += 16 * k;
        out += 16 * k;
        nblocks -= k;
    }
    aesir_wipe(tmp, sizeof(tmp));
}

void aesir_cbc_blocks(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                      size_t nblocks)
{
    aesir_cbc_run(st->ks, st->dir, st->iv, out, in, nblocks);
}
