/*
 * polyval.c -- POLYVAL (RFC 8452, section 3) on any GHASH engine, and
 * the two "multiply by x" helpers of RFC 8452 appendix A.
 *
 * POLYVAL works in GF(2^128) modulo x^128 + x^127 + x^126 + x^121 + 1
 * with little-endian elements and dot(a, b) = a * b * x^-128. Appendix A
 * shows it is GHASH in disguise:
 *
 *   POLYVAL(H, X_1, ..., X_n) =
 *     ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)),
 *                       ByteReverse(X_1), ..., ByteReverse(X_n)))
 *
 * and the same holds for every intermediate value (S_j is the byte
 * reversal of GHASH's Y_j), so a running POLYVAL state can be carried
 * across calls. An engine with a native POLYVAL (polyval_init and
 * polyval set) is used directly; for the others the blocks are reversed
 * into a small buffer, 16 at a time, and hashed by the engine's ghash.
 *
 * Constant time: as the engine; the reversals and the two mulX are
 * branch-free and index nothing by data.
 */
#include "internal.h"
#include "ghash.h"

/* Blocks reversed per call of the engine's ghash. */
#define POLYVAL_CHUNK 16

static void reverse16(uint8_t out[16], const uint8_t in[16])
{
    for (int i = 0; i < 16; i++)
        out[i] = in[15 - i];
}

/* mulX_GHASH: the GCM element times x. Bit 0 of byte 0 is x^0, so this
 * is a right shift of the 128-bit big-endian string; the bit that leaves
 * (x^128) comes back as R = 0xe1 || 0^120. */
void aesir_ghash_mulx(uint8_t b[16])
{
    unsigned carry = b[15] & 1u;
    for (int i = 15; i > 0; i--)
        b[i] = (uint8_t)((b[i] >> 1) | (b[i - 1] << 7));
    b[0] = (uint8_t)((b[0] >> 1) ^ (0xe1u & (0u - carry)));
}

/* mulX_POLYVAL: the POLYVAL element times x: a left shift of the 128-bit
 * little-endian integer; x^128 = x^127 + x^126 + x^121 + 1. */
void aesir_polyval_mulx(uint8_t b[16])
{
    unsigned mask = 0u - ((unsigned)b[15] >> 7);
    for (int i = 15; i > 0; i--)
        b[i] = (uint8_t)((b[i] << 1) | (b[i - 1] >> 7));
    b[0] = (uint8_t)((b[0] << 1) ^ (1u & mask));
    b[15] ^= (uint8_t)(0xc2u & mask);
}

void aesir_polyval_init(const struct aesir_ghash_engine *e, void *hk,
                        const uint8_t h[16])
{
    uint8_t g[16];
    if (e->polyval_init != NULL) {
        e->polyval_init(hk, h);
        return;
    }
    reverse16(g, h);
    aesir_ghash_mulx(g);
    e->init(hk, g);
    aesir_wipe(g, sizeof(g));
}

void aesir_polyval_init_upto(const struct aesir_ghash_engine *e, void *hk,
                             const uint8_t h[16], size_t max_blocks)
{
    if (e->polyval_init_upto != NULL && e->polyval != NULL) {
        e->polyval_init_upto(hk, h, max_blocks);
        return;
    }
    aesir_polyval_init(e, hk, h);
}

void aesir_polyval(const struct aesir_ghash_engine *e, const void *hk,
                   uint8_t s[16], const uint8_t *in, size_t nblocks)
{
    uint8_t y[16], buf[POLYVAL_CHUNK * 16];
    if (e->polyval != NULL) {
        e->polyval(hk, s, in, nblocks);
        return;
    }
    reverse16(y, s);
    while (nblocks > 0) {
        size_t n = nblocks < POLYVAL_CHUNK ? nblocks : POLYVAL_CHUNK;
        for (size_t i = 0; i < n; i++)
            reverse16(buf + 16 * i, in + 16 * i);
        e->ghash(hk, y, buf, n);
        in += 16 * n;
        nblocks -= n;
    }
    reverse16(s, y);
    aesir_wipe(y, sizeof(y));
    aesir_wipe(buf, sizeof(buf));
}
