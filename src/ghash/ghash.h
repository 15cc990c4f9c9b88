/*
 * ghash.h -- the GHASH engine interface: multiplication in GF(2^128) for
 * GCM and GMAC (SP 800-38D section 6.4), POLYVAL (RFC 8452 section 3) on
 * top of it, and the XTS tweak doubling (IEEE 1619 section 5.2).
 *
 * A GHASH engine is one multiplication technique on one ISA, like an AES
 * engine (internal.h): a const struct with its name and properties, one
 * accessor per file that returns NULL when this CPU or build cannot run
 * it, listed once in src/core/engines.def. Engines never see partial
 * blocks, lengths or tags (src/aead/ does); they never allocate.
 *
 * Byte order. GCM's field elements are 16-byte strings in which bit 0 of
 * the element (the coefficient of x^0) is the most significant bit of
 * byte 0 (SP 800-38D 6.3). The accumulator y passed to an engine is in
 * that byte order, in memory, so that every engine agrees on it and the
 * generic code can read or seed it.
 */
#ifndef AESIR_GHASH_H
#define AESIR_GHASH_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of an engine's hash-key area (16-byte aligned): the largest
 * layout, Shoup's 8-bit table (256 entries of 16 bytes, ghash-table8). */
#define AESIR_GHASH_KEY_BYTES 4096

/*
 * init: from the hash key h (16 bytes, GCM byte order: H = E_K(0^128))
 *       writes the engine's precomputed key (powers of H, tables) to hk.
 *       Only the first bytes the layout needs are written.
 * ghash: for each of the nblocks 16-byte blocks X_i of in,
 *       y = (y xor X_i) * H, in GF(2^128) as SP 800-38D defines it.
 *       nblocks may be 0. in needs no alignment.
 * polyval_init, polyval: the same for POLYVAL (RFC 8452 section 3:
 *       little-endian field elements, dot(a, b) = a * b * x^-128); both
 *       optional, NULL means the generic code (polyval.c, by RFC 8452
 *       Appendix A: byte reversal around GHASH with H * x) serves POLYVAL
 *       through ghash. s is in POLYVAL's byte order.
 */
typedef void (*aesir_ghash_init_fn)(void *hk, const uint8_t h[16]);
typedef void (*aesir_ghash_fn)(const void *hk, uint8_t y[16], const uint8_t *in,
                               size_t nblocks);

struct aesir_ghash_engine {
    const char *name;
    const char *description;
    unsigned flags; /* ENGINE_CT, ENGINE_HW (internal.h) */
    unsigned batch; /* blocks per call that reach full speed */
    aesir_ghash_init_fn init;
    aesir_ghash_fn ghash;
    aesir_ghash_init_fn polyval_init; /* optional */
    aesir_ghash_fn polyval;           /* optional */
};

/* The accessors, one per engine file (src/core/engines.def); each returns
 * its engine, or NULL when this CPU or build cannot run it. The registry
 * (dispatch.c) is the way to reach them: a build without the HW engines
 * does not define theirs. */
#define GHASH_ENGINE(id, name, ct, kind, rank)                                 \
    const struct aesir_ghash_engine *aesir_ghash_##id(void);
#include "engines.def"

/* The registry (dispatch.c): engine i in engines.def order, NULL when
 * this CPU or build cannot run it or i is past the end. */
size_t aesir_ghash_engine_count(void);
const struct aesir_ghash_engine *aesir_ghash_engine_at(size_t i);
const char *aesir_ghash_engine_name_at(size_t i);

/*
 * Doubling in XTS's field (IEEE 1619-2018 5.2: the tweak is a 128-bit
 * little-endian integer; multiply by x, reduce by x^128 + x^7 + x^2 + x + 1)
 * in constant time: the carry becomes a mask, not a branch.
 */
static inline void aesir_xts_mul_x(uint8_t t[16])
{
    unsigned carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)((t[i] << 1) | (t[i - 1] >> 7));
    t[0] = (uint8_t)((t[0] << 1) ^ (0x87u & (0u - carry)));
}

#endif /* AESIR_GHASH_H */
