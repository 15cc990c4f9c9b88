/*
 * ghash_table16.c -- GHASH with one 256-entry table per input byte: 16
 * look-ups and XORs per block, no reduction step. A benchmark variant,
 * kept out of the library (docs/engines/ghash.md has the measurements
 * and the trade-off).
 *
 * Technique. X * H is linear in X over GF(2), so it is the XOR over the
 * 16 bytes x_j of X of (x_j at position j, zeros elsewhere) * H. With
 * T_j[b] = (byte b at position j) * H for every j and b, made at key
 * setup, a multiplication is
 *
 *   X * H = T_0[x_0] ^ T_1[x_1] ^ ... ^ T_15[x_15]
 *
 * with the reduction modulo x^128 + x^7 + x^2 + x + 1 folded into the
 * tables. This is the largest of the table sizes McGrew and Viega
 * discuss ("The Galois/Counter Mode of Operation (GCM)", section 4.1:
 * 65,536 bytes per key, where Shoup's 8-bit method uses one table of 4
 * KiB and a reduction table); the same idea is used in AES-GCM work on
 * the Cell Broadband Engine.
 *
 * Key setup: the 128 products H * x^i (i = 0 .. 127, one shift each)
 * are the entries of the single-bit indices; every other entry is the
 * XOR of two made before it: 64 KiB of stores per key.
 *
 * Layout: T_j[b] at tables64k + 4096 j + 16 b, as two 64-bit words in
 * native order, word 0 holding x^0 (bit 63) .. x^63 (bit 0).
 *
 * Constant time: NO. Every look-up index is a byte of the data XORed
 * with the accumulator, and with 64 KiB of tables (twice a typical L1
 * data cache) which lines are cached depends on earlier indices too.
 */
#include "ghash_table16.h"

struct t16_entry {
    uint64_t w[2];
};

static uint64_t t16_load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

static void t16_store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

void ghash_table16_init(void *tables64k, const uint8_t h[16])
{
    struct t16_entry(*t)[256] = tables64k;
    uint64_t v0 = t16_load_be64(h), v1 = t16_load_be64(h + 8);
    for (int j = 0; j < 16; j++) {
        t[j][0].w[0] = t[j][0].w[1] = 0;
        /* Bit 7 of byte j is x^(8j), bit 0 is x^(8j+7). */
        for (unsigned bit = 0x80; bit != 0; bit >>= 1) {
            t[j][bit].w[0] = v0;
            t[j][bit].w[1] = v1;
            uint64_t carry = 0 - (v1 & 1);
            v1 = (v1 >> 1) | (v0 << 63);
            v0 = (v0 >> 1) ^ (carry & 0xe100000000000000u);
        }
        for (unsigned p = 2; p < 256; p <<= 1)
            for (unsigned i = 1; i < p; i++) {
                t[j][p + i].w[0] = t[j][p].w[0] ^ t[j][i].w[0];
                t[j][p + i].w[1] = t[j][p].w[1] ^ t[j][i].w[1];
            }
    }
}

void ghash_table16(const void *tables64k, uint8_t y[16], const uint8_t *in,
                   size_t nblocks)
{
    const struct t16_entry(*t)[256] = tables64k;
    uint64_t z0 = t16_load_be64(y), z1 = t16_load_be64(y + 8);
    for (size_t n = 0; n < nblocks; n++, in += 16) {
        uint64_t x0 = z0 ^ t16_load_be64(in);
        uint64_t x1 = z1 ^ t16_load_be64(in + 8);
        z0 = z1 = 0;
        for (int j = 0; j < 8; j++) {
            const struct t16_entry *a = &t[j][(x0 >> (56 - 8 * j)) & 0xff];
            const struct t16_entry *b = &t[8 + j][(x1 >> (56 - 8 * j)) & 0xff];
            z0 ^= a->w[0] ^ b->w[0];
            z1 ^= a->w[1] ^ b->w[1];
        }
    }
    t16_store_be64(y, z0);
    t16_store_be64(y + 8, z1);
}
