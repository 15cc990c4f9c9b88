/*
 * ghash_ref.c -- ghash-ref: the multiplication of NIST SP 800-38D,
 * section 6.3, Algorithm 1, one bit at a time. The oracle the other
 * GHASH engines are tested against.
 *
 * Technique. With X = x_0 x_1 ... x_127 (bit 0 the leftmost, the
 * coefficient of x^0) and V = Y, for i = 0 .. 127: Z ^= V when x_i = 1;
 * then V = V >> 1, XORed with R = 11100001 || 0^120 when the bit shifted
 * out was 1 (that is V * x, reduced by x^128 + x^7 + x^2 + x + 1). The
 * result is Z = X * Y. A block is two 64-bit words loaded big-endian, so
 * that the string's leftmost bit is bit 63 of the first word:
 *
 *   word 0: x^0 (bit 63) .. x^63 (bit 0)   word 1: x^64 .. x^127
 *
 * Both conditions of the algorithm become masks (0 - bit), so there is
 * no branch and no memory index on H or on the data.
 *
 * Constant time: YES, given that 64-bit shifts, ANDs and XORs are (they
 * are on every CPU we know of). Slow: 128 steps per block, on purpose.
 *
 * Batch: 1 block. Key layout: H as the two words above (16 bytes).
 */
#include "internal.h"
#include "ghash.h"
#include "../engine/stack_wipe.h"

struct ref_key {
    uint64_t h[2];
};

static void ref_init(void *hk, const uint8_t h[16])
{
    struct ref_key *k = hk;
    k->h[0] = aesir_load_be64(h);
    k->h[1] = aesir_load_be64(h + 8);
}

/* z = x * y in GF(2^128), SP 800-38D Algorithm 1. */
static void ref_mul(uint64_t z[2], const uint64_t x[2], const uint64_t y[2])
{
    uint64_t z0 = 0, z1 = 0, v0 = y[0], v1 = y[1];
    for (int i = 0; i < 128; i++) {
        uint64_t bit = (x[i >> 6] >> (63 - (i & 63))) & 1;
        uint64_t take = 0 - bit;
        z0 ^= v0 & take;
        z1 ^= v1 & take;
        uint64_t carry = 0 - (v1 & 1);
        v1 = (v1 >> 1) | (v0 << 63);
        v0 = (v0 >> 1) ^ (carry & 0xe100000000000000u);
    }
    z[0] = z0;
    z[1] = z1;
}

STACK_WIPE_BODY static void ref_ghash_body(const void *hk, uint8_t y[16],
                                           const uint8_t *in, size_t nblocks)
{
    const struct ref_key *k = hk;
    uint64_t acc[2] = {aesir_load_be64(y), aesir_load_be64(y + 8)};
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        uint64_t x[2] = {acc[0] ^ aesir_load_be64(in),
                         acc[1] ^ aesir_load_be64(in + 8)};
        ref_mul(acc, x, k->h);
    }
    aesir_store_be64(y, acc[0]);
    aesir_store_be64(y + 8, acc[1]);
}

/* The hash state (finally J0 or the tag's S) stays in the frame: wiped
 * (stack_wipe.h; gcc 12's frame is 56 bytes). */
STACK_WIPED_GHASH(ref_ghash, ref_ghash_body, 320)

static const struct aesir_ghash_engine engine = {
    .name = "ghash-ref",
    .description = "SP 800-38D Algorithm 1, bit by bit (the oracle)",
    .flags = ENGINE_CT,
    .batch = 1,
    .init = ref_init,
    .ghash = ref_ghash,
};

const struct aesir_ghash_engine *aesir_ghash_ref(void)
{
    return &engine;
}
