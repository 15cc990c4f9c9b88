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
    /* optional, with a native POLYVAL: as polyval_init, for polyval calls
     * of at most max_blocks blocks each only (the rest of the key area is
     * then left as it was): an engine whose table holds the powers of H
     * computes only those such calls read. GCM-SIV sets up a POLYVAL key
     * per message (src/aead/gcm_siv.c): for a short one, the full table
     * costs more than the hashing. */
    void (*polyval_init_upto)(void *hk, const uint8_t h[16], size_t max_blocks);
};

/* The accessors, one per engine file (src/core/engines.def); each returns
 * its engine, or NULL when this CPU or build cannot run it. The registry
 * (dispatch.c) is the way to reach them: a build without the HW engines
 * does not define theirs. */
#define GHASH_ENGINE(id, name, ct, kind, rank)                                 \
    const struct aesir_ghash_engine *aesir_ghash_##id(void);
#include "engines.def"

/* The registry (dispatch.c): engine i in engines.def order, NULL when
 * this CPU or build cannot run it or i is past the end (the public
 * aesir_ghash_engine_count/name/flags list them all). */
const struct aesir_ghash_engine *aesir_ghash_engine_at(size_t i);
const char *aesir_ghash_engine_name_at(size_t i);
/* The registry index of the engine called name (NULL: the default), or
 * -1 when there is none. */
int aesir_ghash_index(const char *name);
/* The GHASH engine for a GCM key whose caller named none: partner (the
 * AES engine's fused-kernel partner, or NULL) when it is available and
 * AESIR_GHASH_ENGINE does not choose, else the default; -1 when none. */
int aesir_ghash_index_with(const char *partner);
/* The engine at index i, available and self-tested (once per process);
 * NULL with *err set otherwise (as aesir_engine_checked). */
const struct aesir_ghash_engine *aesir_ghash_checked(int i, int *err);
/* For a key of the engine at index i (which aesir_ghash_checked has
 * returned): [*from, *to) is what an earlier key of any GHASH engine may
 * have left beyond what its init writes (empty when *from >= *to), to be
 * wiped. */
void aesir_ghash_key_span(int i, size_t *from, size_t *to);
/*
 * aesir_ghash_selftest_run: known answers on engine e (ghash_selftest.c): the
 * GHASH values of GCM test cases 2 and 4 (McGrew and Viega, "The Galois/
 * Counter Mode of Operation (GCM)", appendix B) and RFC 8452's POLYVAL
 * example (appendix A), the latter through aesir_polyval (so through e's
 * native POLYVAL when it has one). 0 on success, -1 on a wrong answer or
 * a NULL e.
 */
int aesir_ghash_selftest_run(const struct aesir_ghash_engine *e);

/*
 * POLYVAL on any engine (polyval.c). aesir_polyval_init prepares hk
 * (AESIR_GHASH_KEY_BYTES, 16-byte aligned) for key h with e's native
 * polyval_init, or else, by RFC 8452 appendix A, with e->init on
 * mulX_GHASH(ByteReverse(h)). aesir_polyval then does s = dot(s ^ X_i, H)
 * for each block (s in POLYVAL's byte order): e->polyval, or e->ghash on
 * the byte-reversed blocks with s reversed around the call. The two
 * must be used as a pair with the same e.
 */
void aesir_polyval_init(const struct aesir_ghash_engine *e, void *hk,
                        const uint8_t h[16]);
void aesir_polyval(const struct aesir_ghash_engine *e, const void *hk,
                   uint8_t s[16], const uint8_t *in, size_t nblocks);
/* aesir_polyval_init_upto: aesir_polyval_init for aesir_polyval calls of
 * at most max_blocks blocks each (e's polyval_init_upto when it has one,
 * else the full set-up). */
void aesir_polyval_init_upto(const struct aesir_ghash_engine *e, void *hk,
                             const uint8_t h[16], size_t max_blocks);
/* mulX_GHASH and mulX_POLYVAL of RFC 8452 appendix A, in place, in
 * constant time (polyval.c). */
void aesir_ghash_mulx(uint8_t b[16]);
void aesir_polyval_mulx(uint8_t b[16]);

/*
 * For the carry-less-multiply engines (clmul, vpclmul, pmull, vpmsumd),
 * which all work in the "bit-reflected" domain of Gueron and Kounavis
 * (Intel white paper 323640, "Intel Carry-Less Multiplication Instruction
 * and its Usage for Computing the GCM Mode", rev. 2.02, 2014): a block
 * is held as the 128-bit big-endian integer of its 16 bytes, so that
 * the coefficient of x^i is integer bit 127 - i. A carry-less product
 * of two such integers is then the reflected product shifted right by
 * one bit, i.e. multiplied by x; keying with H * x^-1 instead of H
 * cancels that, so no product needs a shift. This writes H * x^-1 as
 * that integer: k[0] its high 64 bits, k[1] its low 64 bits. In the
 * reflected domain x^-1 is a left shift by one, and the coefficient of
 * x^0 that leaves at the top comes back as x^-1 = x^127 + x^6 + x + 1,
 * the integer 0xc2000000000000000000000000000001. Constant time.
 */
static inline void aesir_ghash_key_xinv(uint64_t k[2], const uint8_t h[16])
{
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 8; i++) {
        hi = (hi << 8) | h[i];
        lo = (lo << 8) | h[8 + i];
    }
    uint64_t top = 0 - (hi >> 63);
    k[0] = ((hi << 1) | (lo >> 63)) ^ (top & 0xc200000000000000u);
    k[1] = (lo << 1) ^ (top & 1u);
}

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
