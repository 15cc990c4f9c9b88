/*
 * ct64_aegis.c -- ct64's AES round for AEGIS (internal.h, aes_round):
 * state[i] = MixColumns(ShiftRows(SubBytes(state[i]))) ^ rk[i], four
 * blocks per bitsliced state; constant-time.
 *
 * The cipher's circuits are ct64_core.h's (ct64.c has the technique, the
 * papers and the bit layout: block b, row r, column c, bit k is bit
 * 16 r + 4 c + b of word q[k]). A lone round cannot use fixslicing
 * (ct64.c's rounds keep the state in a rotated form between rounds), so
 * ShiftRows is done here as it is: row r turns by r columns, a rotation
 * by 4 r bits inside each 16-bit row. MixColumns is the core's with
 * column offset 0 (the plain one). The core's S-box circuit leaves out
 * the affine constant 0x63; since MixColumns and ShiftRows map the
 * all-0x63 block to itself, it is XORed in after the round.
 *
 * AEGIS rounds take their keys from the state, so the round keys are
 * bitsliced per call like the blocks: two transpositions in, one out,
 * per four blocks. AEGIS-128L's update (8 rounds) is two such states.
 * The generic AEGIS code (src/aead/aegis.c) uses this round for every
 * engine that has no round of its own, so AEGIS is constant-time on
 * every engine.
 *
 * Constant time: as ct64.c: 64-bit AND, XOR, OR, NOT and shifts by
 * constants; no branch or index on the data; the loop count depends
 * only on n.
 */
#include "engine.h"
#include "stack_wipe.h"

#define ROWS(x) (0x0001000100010001u * (uint64_t)(x))

ENGINE_INLINE uint64_t rotr(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

/* As ct64.c's: row r, column c of the result is row r + i, column c + d
 * of x (mod 4). */
ENGINE_INLINE uint64_t rot_rc(uint64_t x, unsigned i, unsigned d)
{
    const uint64_t lo = ROWS(0xffffu >> (4 * d));

    if (d == 0)
        return rotr(x, 16 * i);
    return (rotr(x, 16 * i + 4 * d) & lo) |
           (rotr(x, 16 * i + 4 * d - 16) & ~lo);
}

typedef uint64_t bs_word;
#define BS_NAME(x) ct64_aegis_##x
#define BS_FINAL_SR2 1

ENGINE_INLINE uint64_t bs_rk_word(const uint8_t *k, size_t i)
{
    uint64_t v;
    memcpy(&v, k + 8 * i, 8);
    return v;
}

/* The core's whole-cipher functions are not used here. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "ct64_core.h"
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

static inline uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* ct64.c's byte interleave of columns c and c + 2, and its inverse. */
static inline uint64_t zip_bytes(uint64_t x)
{
    uint64_t t = (x ^ (x >> 16)) & 0x00000000ffff0000u;
    x ^= t ^ (t << 16);
    t = (x ^ (x >> 8)) & 0x0000ff000000ff00u;
    return x ^ t ^ (t << 8);
}

static inline uint64_t unzip_bytes(uint64_t x)
{
    uint64_t t = (x ^ (x >> 8)) & 0x0000ff000000ff00u;
    x ^= t ^ (t << 8);
    t = (x ^ (x >> 16)) & 0x00000000ffff0000u;
    return x ^ t ^ (t << 16);
}

/* Blocks 0 .. n-1 (n <= 4) of in into the bitsliced q; the rest zero. */
ENGINE_INLINE void load4(uint64_t q[8], const uint8_t *in, size_t n)
{
    for (size_t b = 0; b < 4; b++) {
        const uint8_t *p = in + 16 * b;
        if (b < n) {
            q[b] = zip_bytes(get_le32(p) | (uint64_t)get_le32(p + 8) << 32);
            q[b + 4] =
                zip_bytes(get_le32(p + 4) | (uint64_t)get_le32(p + 12) << 32);
        } else {
            q[b] = q[b + 4] = 0;
        }
    }
    transpose8(q);
}

ENGINE_INLINE void store4(uint8_t *out, uint64_t q[8], size_t n)
{
    transpose8(q);
    for (size_t b = 0; b < n; b++) {
        const uint64_t lo = unzip_bytes(q[b]), hi = unzip_bytes(q[b + 4]);
        put_le32(out + 16 * b, (uint32_t)lo);
        put_le32(out + 16 * b + 4, (uint32_t)hi);
        put_le32(out + 16 * b + 8, (uint32_t)(lo >> 32));
        put_le32(out + 16 * b + 12, (uint32_t)(hi >> 32));
    }
}

/* ShiftRows: row r (bits 16 r .. 16 r + 15) turns left by r columns,
 * i.e. column c receives column c + r: a right rotation by 4 r bits
 * inside the row. */
ENGINE_INLINE uint64_t shift_rows_word(uint64_t x)
{
    uint64_t y = x & 0xffffu; /* row 0 stays */
    for (unsigned r = 1; r < 4; r++) {
        const unsigned s = 4 * r;
        const uint64_t row = x & ((uint64_t)0xffffu << (16 * r));
        const uint64_t lo = ROWS(0xffffu >> s);
        y |= ((row >> s) & lo) | ((row << (16 - s)) & ~lo);
    }
    return y;
}

STACK_WIPE_BODY static void ct64_aes_round_body(uint8_t *state,
                                                const uint8_t *rk, size_t n)
{
    uint64_t q[8], k[8];

    while (n > 0) {
        const size_t m = n < 4 ? n : 4;
        load4(q, state, m);
        load4(k, rk, m);
        sub_bytes(q);
        for (unsigned i = 0; i < 8; i++)
            q[i] = shift_rows_word(q[i]);
        mix_columns(q, 0);
        for (unsigned i = 0; i < 8; i++)
            q[i] ^= k[i];
        /* + 0x63 (bits 0, 1, 5, 6), which the S-box circuit left out */
        q[0] = ~q[0], q[1] = ~q[1], q[5] = ~q[5], q[6] = ~q[6];
        store4(state, q, m);
        state += 16 * m;
        rk += 16 * m;
        n -= m;
    }
    aesir_wipe(q, sizeof(q));
    aesir_wipe(k, sizeof(k));
}

/* Not static: ct64.c's engine struct names it. */
void aesir_ct64_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
void aesir_ct64_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    ct64_aes_round_body(state, rk, n);
    aesir_wipe_stack(960);
}
