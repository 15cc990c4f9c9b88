/*
 * ghash_table.c -- ghash-table4 and ghash-table8: Shoup's table method,
 * with 4-bit and 8-bit windows.
 *
 * Technique (V. Shoup, "On fast and provably secure message
 * authentication based on universal hashing", CRYPTO '96; D. McGrew and
 * J. Viega, "The Galois/Counter Mode of Operation (GCM)", section 4.1).
 * Multiplication by the fixed H is linear over GF(2), so X * H is the
 * XOR over the w-bit pieces of X of (piece * H) * x^(offset): a table M
 * of the 2^w multiples of H, made at key setup, gives each piece's
 * product, and Horner's rule over the pieces, from the last (highest
 * powers of x) to the first, needs only Z = Z * x^w between them. In the
 * word layout of ghash-ref (bit 63 of word 0 is the coefficient of x^0),
 * Z * x^w is a right shift by w of the 128-bit Z; the w bits that leave
 * word 1 stand for x^128 .. x^(127+w), which x^128 = 1 + x + x^2 + x^7
 * folds back into the top 16 bits of word 0: a second table R, indexed
 * by those w bits, a property of the field alone (a static const).
 *
 * A piece's bits, most significant first, are the coefficients of x^0 ..
 * x^(w-1) of its stretch, so M[0b1000...] = H, M[0b0100...] = H * x, and
 * M[a ^ b] = M[a] ^ M[b].
 *
 *   table4: M[16] x 16 bytes = 256 bytes of key; 32 steps per block,
 *           each 1 look-up in M and 1 in R (16 entries);
 *   table8: M[256] x 16 bytes = 4 KiB of key (the size of
 *           AESIR_GHASH_KEY_BYTES); 16 steps per block, R has 256 entries.
 *
 * Key layout: M[i] at hk + 16 i, as the two 64-bit words (native order)
 * of the product.
 *
 * Constant time: NO. Both tables are read at indices taken from the data
 * XORed with the accumulator (a function of H), so the cache lines
 * touched reveal bits of H and of the data to an attacker who shares the
 * cache. Listed by name only; never a default (engines.def).
 *
 * Batch: 1 block.
 */
#include "internal.h"
#include "ghash.h"
#include "../engine/stack_wipe.h"

/* Bits 63 .. 48 of word 0 to XOR in for the bits that leave word 1 in
 * Z * x^4 and Z * x^8: bit b of the index (0 the least significant) is
 * the coefficient of x^(127 - b), which becomes x^(127 + w - b) =
 * x^s * (1 + x + x^2 + x^7), s = w - 1 - b. Generated, then checked by
 * the tests (every differential case runs through them). */
static const uint16_t table4_red[16] = {
    0x0000, 0x1c20, 0x3840, 0x2460, 0x7080, 0x6ca0, 0x48c0, 0x54e0,
    0xe100, 0xfd20, 0xd940, 0xc560, 0x9180, 0x8da0, 0xa9c0, 0xb5e0,
};

static const uint16_t table8_red[256] = {
    0x0000, 0x01c2, 0x0384, 0x0246, 0x0708, 0x06ca, 0x048c, 0x054e, 0x0e10,
    0x0fd2, 0x0d94, 0x0c56, 0x0918, 0x08da, 0x0a9c, 0x0b5e, 0x1c20, 0x1de2,
    0x1fa4, 0x1e66, 0x1b28, 0x1aea, 0x18ac, 0x196e, 0x1230, 0x13f2, 0x11b4,
    0x1076, 0x1538, 0x14fa, 0x16bc, 0x177e, 0x3840, 0x3982, 0x3bc4, 0x3a06,
    0x3f48, 0x3e8a, 0x3ccc, 0x3d0e, 0x3650, 0x3792, 0x35d4, 0x3416, 0x3158,
    0x309a, 0x32dc, 0x331e, 0x2460, 0x25a2, 0x27e4, 0x2626, 0x2368, 0x22aa,
    0x20ec, 0x212e, 0x2a70, 0x2bb2, 0x29f4, 0x2836, 0x2d78, 0x2cba, 0x2efc,
    0x2f3e, 0x7080, 0x7142, 0x7304, 0x72c6, 0x7788, 0x764a, 0x740c, 0x75ce,
    0x7e90, 0x7f52, 0x7d14, 0x7cd6, 0x7998, 0x785a, 0x7a1c, 0x7bde, 0x6ca0,
    0x6d62, 0x6f24, 0x6ee6, 0x6ba8, 0x6a6a, 0x682c, 0x69ee, 0x62b0, 0x6372,
    0x6134, 0x60f6, 0x65b8, 0x647a, 0x663c, 0x67fe, 0x48c0, 0x4902, 0x4b44,
    0x4a86, 0x4fc8, 0x4e0a, 0x4c4c, 0x4d8e, 0x46d0, 0x4712, 0x4554, 0x4496,
    0x41d8, 0x401a, 0x425c, 0x439e, 0x54e0, 0x5522, 0x5764, 0x56a6, 0x53e8,
    0x522a, 0x506c, 0x51ae, 0x5af0, 0x5b32, 0x5974, 0x58b6, 0x5df8, 0x5c3a,
    0x5e7c, 0x5fbe, 0xe100, 0xe0c2, 0xe284, 0xe346, 0xe608, 0xe7ca, 0xe58c,
    0xe44e, 0xef10, 0xeed2, 0xec94, 0xed56, 0xe818, 0xe9da, 0xeb9c, 0xea5e,
    0xfd20, 0xfce2, 0xfea4, 0xff66, 0xfa28, 0xfbea, 0xf9ac, 0xf86e, 0xf330,
    0xf2f2, 0xf0b4, 0xf176, 0xf438, 0xf5fa, 0xf7bc, 0xf67e, 0xd940, 0xd882,
    0xdac4, 0xdb06, 0xde48, 0xdf8a, 0xddcc, 0xdc0e, 0xd750, 0xd692, 0xd4d4,
    0xd516, 0xd058, 0xd19a, 0xd3dc, 0xd21e, 0xc560, 0xc4a2, 0xc6e4, 0xc726,
    0xc268, 0xc3aa, 0xc1ec, 0xc02e, 0xcb70, 0xcab2, 0xc8f4, 0xc936, 0xcc78,
    0xcdba, 0xcffc, 0xce3e, 0x9180, 0x9042, 0x9204, 0x93c6, 0x9688, 0x974a,
    0x950c, 0x94ce, 0x9f90, 0x9e52, 0x9c14, 0x9dd6, 0x9898, 0x995a, 0x9b1c,
    0x9ade, 0x8da0, 0x8c62, 0x8e24, 0x8fe6, 0x8aa8, 0x8b6a, 0x892c, 0x88ee,
    0x83b0, 0x8272, 0x8034, 0x81f6, 0x84b8, 0x857a, 0x873c, 0x86fe, 0xa9c0,
    0xa802, 0xaa44, 0xab86, 0xaec8, 0xaf0a, 0xad4c, 0xac8e, 0xa7d0, 0xa612,
    0xa454, 0xa596, 0xa0d8, 0xa11a, 0xa35c, 0xa29e, 0xb5e0, 0xb422, 0xb664,
    0xb7a6, 0xb2e8, 0xb32a, 0xb16c, 0xb0ae, 0xbbf0, 0xba32, 0xb874, 0xb9b6,
    0xbcf8, 0xbd3a, 0xbf7c, 0xbebe,
};

struct tab_entry {
    uint64_t w[2];
};

/* v * x in the word layout: right shift, R folded in by a mask. */
static void tab_mulx(struct tab_entry *out, const struct tab_entry *v)
{
    uint64_t carry = 0 - (v->w[1] & 1);
    out->w[1] = (v->w[1] >> 1) | (v->w[0] << 63);
    out->w[0] = (v->w[0] >> 1) ^ (carry & 0xe100000000000000u);
}

/* M[i] for i < 2^w: M[2^(w-1)] = H, each lower power of two one more
 * factor of x, every other index the XOR of its bits' entries. */
static void tab_init(struct tab_entry *m, unsigned w, const uint8_t h[16])
{
    unsigned n = 1u << w;
    m[0].w[0] = m[0].w[1] = 0;
    m[n >> 1].w[0] = aesir_load_be64(h);
    m[n >> 1].w[1] = aesir_load_be64(h + 8);
    for (unsigned p = n >> 2; p > 0; p >>= 1)
        tab_mulx(&m[p], &m[p << 1]);
    for (unsigned p = 2; p < n; p <<= 1)
        for (unsigned j = 1; j < p; j++) {
            m[p + j].w[0] = m[p].w[0] ^ m[j].w[0];
            m[p + j].w[1] = m[p].w[1] ^ m[j].w[1];
        }
}

static void table4_init(void *hk, const uint8_t h[16])
{
    tab_init(hk, 4, h);
}

static void table8_init(void *hk, const uint8_t h[16])
{
    tab_init(hk, 8, h);
}

STACK_WIPE_BODY static void table4_ghash_body(const void *hk, uint8_t y[16],
                                              const uint8_t *in, size_t nblocks)
{
    const struct tab_entry *m = hk;
    uint64_t z0 = aesir_load_be64(y), z1 = aesir_load_be64(y + 8);
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        uint8_t x[16];
        aesir_store_be64(x, z0 ^ aesir_load_be64(in));
        aesir_store_be64(x + 8, z1 ^ aesir_load_be64(in + 8));
        z0 = z1 = 0;
        /* Horner from the last nibble (x^124 .. x^127) to the first;
         * in each byte the low nibble holds the higher powers. */
        for (int j = 15; j >= 0; j--) {
            unsigned nib[2] = {x[j] & 15u, (unsigned)x[j] >> 4};
            for (int k = 0; k < 2; k++) {
                unsigned r = (unsigned)z1 & 15;
                z1 = (z1 >> 4) | (z0 << 60);
                z0 = (z0 >> 4) ^ ((uint64_t)table4_red[r] << 48);
                z0 ^= m[nib[k]].w[0];
                z1 ^= m[nib[k]].w[1];
            }
        }
    }
    aesir_store_be64(y, z0);
    aesir_store_be64(y + 8, z1);
}

STACK_WIPE_BODY static void table8_ghash_body(const void *hk, uint8_t y[16],
                                              const uint8_t *in, size_t nblocks)
{
    const struct tab_entry *m = hk;
    uint64_t z0 = aesir_load_be64(y), z1 = aesir_load_be64(y + 8);
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        uint64_t x0 = z0 ^ aesir_load_be64(in);
        uint64_t x1 = z1 ^ aesir_load_be64(in + 8);
        /* The last byte first: no shift before it. */
        z0 = m[x1 & 0xff].w[0];
        z1 = m[x1 & 0xff].w[1];
        for (int j = 1; j < 16; j++) {
            unsigned b =
                (unsigned)((j < 8 ? x1 >> (8 * j) : x0 >> (8 * (j - 8))) &
                           0xff);
            unsigned r = (unsigned)z1 & 0xff;
            z1 = (z1 >> 8) | (z0 << 56);
            z0 = (z0 >> 8) ^ ((uint64_t)table8_red[r] << 48);
            z0 ^= m[b].w[0];
            z1 ^= m[b].w[1];
        }
    }
    aesir_store_be64(y, z0);
    aesir_store_be64(y + 8, z1);
}

/* The hash state (finally J0 or the tag's S) stays in the frame: wiped
 * (stack_wipe.h; gcc 12's frames are 56 bytes). */
STACK_WIPED_GHASH(table4_ghash, table4_ghash_body, 320)
STACK_WIPED_GHASH(table8_ghash, table8_ghash_body, 320)

static const struct aesir_ghash_engine engine4 = {
    .name = "ghash-table4",
    .description = "Shoup's 4-bit tables (256 B per key; not constant-time)",
    .flags = 0,
    .batch = 1,
    .init = table4_init,
    .ghash = table4_ghash,
};

static const struct aesir_ghash_engine engine8 = {
    .name = "ghash-table8",
    .description = "Shoup's 8-bit tables (4 KiB per key; not constant-time)",
    .flags = 0,
    .batch = 1,
    .init = table8_init,
    .ghash = table8_ghash,
};

const struct aesir_ghash_engine *aesir_ghash_table4(void)
{
    return &engine4;
}

const struct aesir_ghash_engine *aesir_ghash_table8(void)
{
    return &engine8;
}
