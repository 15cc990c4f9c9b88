/*
 * ct64.c -- bitsliced, fixsliced AES on 64-bit integers, four blocks at a
 * time; constant-time.
 *
 * Technique. Bitslicing (Kasper and Schwabe, "Faster and Timing-Attack
 * Resistant AES-GCM", CHES 2009) turns the state of several blocks
 * sideways: word q[k] holds bit k of every byte, so one AND or XOR on
 * words acts on that bit of all 64 bytes of four blocks at once, and
 * SubBytes becomes a Boolean circuit evaluated on the eight words. There
 * are no tables and no data-dependent addresses anywhere.
 *
 *  - SubBytes is the circuit of Boyar and Peralta, "A new combinational
 *    logic minimization technique with applications to cryptology" (SEA
 *    2010; eprint 2009/191): 115 gates, 32 AND and 83 XOR/XNOR, depth
 *    28. (Their "A depth-16 circuit for the AES S-box", 2012, trades size
 *    for depth: 128 gates.) Its four XNORs add the affine constant 0x63,
 *    which commutes with ShiftRows and MixColumns (MixColumns maps the
 *    all-0x63 state to itself), so they are plain XORs here and 0x63 is
 *    folded into the round keys.
 *  - InvSubBytes reuses the circuit's non-linear middle. With S(x) =
 *    A(x^-1) + 0x63 and L the linear part of A^-1 (FIPS-197 5.3.2),
 *    x^-1 = L(S(x) + 0x63) and InvS(y) = (L(y + 0x63))^-1, hence
 *    InvS(y) = L(S'(L(y + 0x63))) with S' = S + 0x63. The + 0x63 goes
 *    into the decryption round keys, and each L is merged into the
 *    adjacent linear layer: 23 XOR on top, 62 gates of shared middle, 35
 *    XOR at the bottom, 120 gates (L applied separately would cost 32
 *    more).
 *  - ShiftRows and MixColumns are rotations and masks of whole words,
 *    since rows and columns sit at fixed bit offsets (layout below).
 *  - Fixslicing (Adomnicai and Peyrin, "Fixslicing AES-like Ciphers",
 *    TCHES 2021): ShiftRows is never executed. After r rounds the engine
 *    holds X = SR^-r(S) instead of the true state S; round r + 1's
 *    MixColumns is replaced by its conjugate SR^-j . MixColumns . SR^j
 *    (j = r + 1 mod 4), which combines row i of column c with row i + 1
 *    of column c + j: the same word rotations as plain MixColumns plus a
 *    rotation of the columns inside each row (two masks, one more
 *    rotation, one OR). The round keys are stored as SR^-r(K_r), and the
 *    output needs SR^nr, which is the identity for AES-192 and a byte swap
 *    in two rows for AES-128 and AES-256. This replaces the ~19 operations
 *    per word of a masked ShiftRows by 0 to 8 more in MixColumns; CTR
 *    measured 1.6-1.9x faster than the same code with ShiftRows.
 *  - Decryption is the equivalent inverse cipher (FIPS-197 5.3.5), with
 *    the same fixslicing; InvMixColumns is MixColumns after the map
 *    a -> a + 04 (a + rot2(a)), from 0b x^3 + 0d x^2 + 09 x + 0e =
 *    (03 x^3 + x^2 + x + 02)(04 x^2 + 05) mod x^4 + 1, a factorisation
 *    given in Daemen and Rijmen's Rijndael documentation.
 *
 * Layout. Block b (0..3), byte i = row r + 4 * column c (FIPS-197 3.4),
 * bit k of that byte (0 = least significant) is bit 16 r + 4 c + b of
 * word q[k]:
 *
 *       bit 63       48 47       32 31       16 15        0
 *    q[k] +-----------+-----------+-----------+-----------+
 *         |   row 3   |   row 2   |   row 1   |   row 0   |
 *         +-----------+-----------+-----------+-----------+
 *    one row:  15..12    11..8      7..4       3..0
 *             column 3  column 2  column 1  column 0
 *    one column (4 bits): block 3, block 2, block 1, block 0
 *
 * so "the byte below in the same column" is a rotation by 16 and "the next
 * column in the same row" a rotation by 4 inside each 16-bit row. This is
 * the 64-bit arrangement of Pornin's BearSSL aes_ct64 (prior art; this
 * file is written independently). Loading a block reads its four columns
 * as little-endian 32-bit words, interleaves the bytes of columns c and
 * c + 2 into one 64-bit word, and transposes eight such words as 8x8 bit
 * matrices with three layers of swaps; storing is the inverse. All of it
 * is arithmetic on integers after byte-by-byte loads, so it is the same on
 * every host byte order.
 *
 * Round keys: (nr + 1) x 8 words (960 bytes for AES-256), round key r
 * bitsliced with the same key in all four blocks, already in the
 * fixsliced form of round r and with 0x63 folded in (see above).
 * Encryption: word 8 r + k is bit k of SR^-r(K_r) (+ 0x63 for r >= 1).
 * Decryption: word 8 r + k is bit k of SR^r(K'_r) (+ 0x63 for r < nr),
 * K'_r = InvMixColumns(K_nr-r) for 0 < r < nr, K'_0 = K_nr, K'_nr = K_0.
 * The key expansion is FIPS-197 5.2 on bytes with SubWord computed by the
 * same bitsliced circuit, so key setup is constant-time too.
 *
 * Constant time: yes, provided the compiler turns 64-bit AND, XOR, OR,
 * NOT and shifts/rotations by constant amounts into instructions whose
 * time does not depend on their operands (true of every mainstream
 * CPU; on 32-bit targets each becomes a pair of 32-bit operations). No
 * branch and no memory address depends on key or data; loop counts depend
 * only on nr and the number of blocks.
 *
 * Batch: 4 blocks (one bitsliced state). A single block costs about as
 * much as four (three lanes idle), which is what serial modes (CBC
 * encryption, CFB, OFB) pay. Two states side by side (8 blocks) measured
 * no faster: one state already keeps the integer units busy.
 */
#include "engine.h"
#include "stack_wipe.h"

/* The round functions are ENGINE_INLINE: the rotation amounts depend on
 * the column offset, a constant only after inlining, and the state must
 * stay in registers. Portable C: no ENGINE_ISA. */

/* A 16-bit row pattern repeated in the four rows of a word. */
#define ROWS(x) (0x0001000100010001u * (uint64_t)(x))

ENGINE_INLINE uint64_t rotr(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

/*
 * The word whose row r, column c holds row r + i, column c + d of x (both
 * mod 4), for 1 <= i <= 3 and 0 <= d <= 3: a rotation by i rows and d
 * columns. Columns c < 4 - d come from a plain 64-bit rotation; the others
 * wrap around inside their row, which is the rotation one row less.
 */
ENGINE_INLINE uint64_t rot_rc(uint64_t x, unsigned i, unsigned d)
{
    const uint64_t lo = ROWS(0xffffu >> (4 * d));

    if (d == 0)
        return rotr(x, 16 * i);
    return (rotr(x, 16 * i + 4 * d) & lo) |
           (rotr(x, 16 * i + 4 * d - 16) & ~lo);
}

/* ---------------------------------------------------------------------
 * The cipher: ct64_core.h, on one 64-bit word (shared with the vector
 * engines bs-avx2 and bs-avx512, which run it on vectors of such words).
 * ------------------------------------------------------------------- */

typedef uint64_t bs_word;
#define BS_NAME(x) ct64_##x
#define BS_FINAL_SR2 1

ENGINE_INLINE uint64_t bs_rk_word(const uint8_t *k, size_t i)
{
    uint64_t v;
    memcpy(&v, k + 8 * i, 8);
    return v;
}

#include "ct64_core.h"

/* SR^n for any n, row by row (row r turns by n r columns): used on round
 * keys only. */
static void ct64_shift_rows_pow(uint64_t q[8], unsigned n)
{
    for (unsigned k = 0; k < 8; k++) {
        uint64_t y = q[k] & 0xffffu;
        for (unsigned r = 1; r < 4; r++) {
            const unsigned s = 4 * ((n * r) & 3);
            const uint64_t row = q[k] & ((uint64_t)0xffffu << (16 * r));
            const uint64_t lo = ROWS(0xffffu >> s);
            y |= ((row >> s) & lo) | ((row << (16 - s)) & ~lo);
        }
        q[k] = y;
    }
}

/* 0x63 has bits 0, 1, 5, 6. */
ENGINE_INLINE void add_63(uint64_t q[8])
{
    q[0] = ~q[0];
    q[1] = ~q[1];
    q[5] = ~q[5];
    q[6] = ~q[6];
}

/* ---------------------------------------------------------------------
 * Bitslicing: bytes <-> the layout above.
 * ------------------------------------------------------------------- */

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

/* Bytes (least significant first) a0 a1 a2 a3 b0 b1 b2 b3 become
 * a0 b0 a1 b1 a2 b2 a3 b3: two swaps of byte groups inside the word. */
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

/*
 * Word 4 p + b, byte 2 r + h (p, h in {0, 1}) is row r of column p + 2 h
 * of block b, so after the transposition bit k of that byte is in q[k]
 * at 8 (2 r + h) + 4 p + b = 16 r + 4 (p + 2 h) + b, as drawn above.
 * Blocks n .. 3 are zero.
 */
ENGINE_INLINE void load_blocks(uint64_t q[8], const uint8_t *in, size_t n)
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

/* Stores blocks 0 .. n-1 of q, XORed with x (n blocks) when x != NULL. */
ENGINE_INLINE void store_blocks(uint8_t *out, const uint8_t *x,
                                const uint64_t q[8], size_t n)
{
    uint64_t w[8];

    memcpy(w, q, sizeof(w));
    transpose8(w);
    for (size_t b = 0; b < n; b++) {
        const uint64_t lo = unzip_bytes(w[b]), hi = unzip_bytes(w[b + 4]);
        uint32_t c0 = (uint32_t)lo, c2 = (uint32_t)(lo >> 32);
        uint32_t c1 = (uint32_t)hi, c3 = (uint32_t)(hi >> 32);
        if (x != NULL) {
            const uint8_t *s = x + 16 * b;
            c0 ^= get_le32(s);
            c1 ^= get_le32(s + 4);
            c2 ^= get_le32(s + 8);
            c3 ^= get_le32(s + 12);
        }
        put_le32(out + 16 * b, c0);
        put_le32(out + 16 * b + 4, c1);
        put_le32(out + 16 * b + 8, c2);
        put_le32(out + 16 * b + 12, c3);
    }
}

/* ---------------------------------------------------------------------
 * Key schedule.
 * ------------------------------------------------------------------- */

/* SubWord (FIPS-197 5.2) through the same circuit. The word holds its
 * bytes little-endian; bit k of byte j goes to bit 8 j of plane k (the
 * circuit works bit by bit, so any positions will do). */
static uint32_t ct64_sub_word(uint32_t x)
{
    uint64_t q[8];
    uint32_t y = 0;

    for (unsigned k = 0; k < 8; k++)
        q[k] = (x >> k) & 0x01010101u;
    sub_bytes(q);
    for (unsigned k = 0; k < 8; k++)
        y |= (uint32_t)(q[k] & 0x01010101u) << k;
    aesir_wipe(q, sizeof(q));
    return y ^ 0x63636363u;
}

/* FIPS-197 5.2 on 32-bit words holding 4 key bytes little-endian, so
 * RotWord is a rotation right by 8 and Rcon goes into the low byte. */
static void ct64_expand_key(uint32_t w[60], const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, nwords = 4 * (nk + 7);
    uint32_t rcon = 0x01;

    for (unsigned i = 0; i < nk; i++)
        w[i] = get_le32(key + 4 * i);
    for (unsigned i = nk; i < nwords; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = ct64_sub_word((t >> 8) | (t << 24)) ^ rcon;
            /* rcon doubles in GF(2^8); it is public. */
            rcon = (rcon << 1) ^ (0x11b & -(rcon >> 7));
        } else if (nk == 8 && i % nk == 4) {
            t = ct64_sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
}

/* Round key w[0..3] bitsliced into all four blocks: loaded as block 0,
 * then each column's bit copied to the three other blocks' bits. */
static void ct64_load_key(uint64_t q[8], const uint32_t w[4])
{
    uint8_t b[16];

    for (unsigned c = 0; c < 4; c++)
        put_le32(b + 4 * c, w[c]);
    load_blocks(q, b, 1);
    for (unsigned k = 0; k < 8; k++) {
        q[k] |= q[k] << 1;
        q[k] |= q[k] << 2;
    }
    aesir_wipe(b, sizeof(b));
}

static void ct64_put_rk(void *rk, unsigned r, const uint64_t q[8])
{
    memcpy((uint8_t *)rk + 64 * (size_t)r, q, 64);
}

STACK_WIPE_BODY static void ct64_setkey_enc_body(void *rk, const uint8_t *key,
                                                 size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    uint32_t w[60];
    uint64_t q[8];

    ct64_expand_key(w, key, key_len);
    for (unsigned r = 0; r <= nr; r++) {
        ct64_load_key(q, w + 4 * r);
        ct64_shift_rows_pow(q, (4 - (r & 3)) & 3); /* SR^-r */
        if (r != 0)
            add_63(q);
        ct64_put_rk(rk, r, q);
    }
    aesir_wipe(q, sizeof(q));
    aesir_wipe(w, sizeof(w));
}

STACK_WIPE_BODY static void ct64_setkey_dec_body(void *rk, const uint8_t *key,
                                                 size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    uint32_t w[60];
    uint64_t q[8];

    ct64_expand_key(w, key, key_len);
    for (unsigned r = 0; r <= nr; r++) {
        ct64_load_key(q, w + 4 * (nr - r));
        if (r != 0 && r != nr)
            inv_mix_columns(q, 0);
        ct64_shift_rows_pow(q, r & 3); /* SR^r */
        if (r != nr)
            add_63(q);
        ct64_put_rk(rk, r, q);
    }
    aesir_wipe(q, sizeof(q));
    aesir_wipe(w, sizeof(w));
}

/* ---------------------------------------------------------------------
 * Bulk ECB, CTR, CBC decryption.
 * ------------------------------------------------------------------- */

STACK_WIPE_BODY static void ct64_encrypt_body(const void *rkv, unsigned nr,
                                              uint8_t *out, const uint8_t *in,
                                              size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    uint64_t q[8];

    if (nblocks == 1) {
        /* The serial modes' call: with n constant the compiler drops
         * the work on the three empty blocks. */
        load_blocks(q, in, 1);
        ct64_encrypt_state(rk, nr, q);
        store_blocks(out, NULL, q, 1);
        return;
    }
    while (nblocks > 0) {
        const size_t n = nblocks < 4 ? nblocks : 4;
        load_blocks(q, in, n);
        ct64_encrypt_state(rk, nr, q);
        store_blocks(out, NULL, q, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

STACK_WIPE_BODY static void ct64_decrypt_body(const void *rkv, unsigned nr,
                                              uint8_t *out, const uint8_t *in,
                                              size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    uint64_t q[8];

    while (nblocks > 0) {
        const size_t n = nblocks < 4 ? nblocks : 4;
        load_blocks(q, in, n);
        ct64_decrypt_state(rk, nr, q);
        store_blocks(out, NULL, q, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

/* The 32-bit word whose little-endian bytes are the big-endian bytes of
 * x, i.e. a byte swap. */
ENGINE_INLINE uint32_t swap32(uint32_t x)
{
    x = ((x & 0x00ff00ffu) << 8) | ((x >> 8) & 0x00ff00ffu);
    return (x << 16) | (x >> 16);
}

/*
 * CTR: four counter blocks per pass. The counter is a 128-bit big-endian
 * integer kept as two 64-bit halves; the carry into the high half is a
 * comparison, not a branch. The counter blocks go straight into the
 * interleaved words of load_blocks, without a trip through memory.
 */
STACK_WIPE_BODY static void ct64_ctr_body(const void *rkv, unsigned nr,
                                          uint8_t ctr[16], uint8_t *out,
                                          const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    uint64_t hi = aesir_load_be64(ctr), lo = aesir_load_be64(ctr + 8);
    uint64_t q[8];

    while (nblocks > 0) {
        const size_t n = nblocks < 4 ? nblocks : 4;
        for (unsigned b = 0; b < 4; b++) {
            const uint64_t l = lo + b, h = hi + (l < lo);
            /* Columns 0 and 2, then 1 and 3, as load_blocks pairs them. */
            q[b] = zip_bytes(swap32((uint32_t)(h >> 32)) |
                             (uint64_t)swap32((uint32_t)(l >> 32)) << 32);
            q[b + 4] = zip_bytes(swap32((uint32_t)h) |
                                 (uint64_t)swap32((uint32_t)l) << 32);
        }
        transpose8(q);
        ct64_encrypt_state(rk, nr, q);
        store_blocks(out, in, q, n);
        hi += (lo + n) < lo;
        lo += n;
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    aesir_store_be64(ctr, hi);
    aesir_store_be64(ctr + 8, lo);
    aesir_wipe(q, sizeof(q));
}

/* CBC decryption, four blocks per pass: the ciphertext is copied before
 * anything is written, so out == in works. */
STACK_WIPE_BODY static void ct64_cbc_dec_body(const void *rkv, unsigned nr,
                                              uint8_t iv[16], uint8_t *out,
                                              const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    uint8_t chain[80]; /* iv, then the ciphertext blocks of this pass */
    uint64_t q[8];

    memcpy(chain, iv, 16);
    while (nblocks > 0) {
        const size_t n = nblocks < 4 ? nblocks : 4;
        memcpy(chain + 16, in, 16 * n);
        load_blocks(q, chain + 16, n);
        ct64_decrypt_state(rk, nr, q);
        store_blocks(out, chain, q, n);
        memcpy(chain, chain + 16 * n, 16);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    memcpy(iv, chain, 16);
    aesir_wipe(q, sizeof(q));
}

/*
 * The entry points: each body, then the stack it used wiped
 * (stack_wipe.h). The eight state words, the S-box circuit's temporaries
 * and the transposition's words do not fit in 16 registers; gcc and
 * clang spill them, output blocks and round-key words included. The
 * bodies reach 656 bytes deep (CBC decryption).
 */
#define CT64_STACK 960
STACK_WIPED_SETKEY(ct64_setkey_enc, ct64_setkey_enc_body, CT64_STACK)
STACK_WIPED_SETKEY(ct64_setkey_dec, ct64_setkey_dec_body, CT64_STACK)
STACK_WIPED_BLOCKS(ct64_encrypt, ct64_encrypt_body, CT64_STACK)
STACK_WIPED_BLOCKS(ct64_decrypt, ct64_decrypt_body, CT64_STACK)
STACK_WIPED_CHAIN(ct64_ctr, ct64_ctr_body, CT64_STACK)
STACK_WIPED_CHAIN(ct64_cbc_dec, ct64_cbc_dec_body, CT64_STACK)

void aesir_ct64_aes_round(uint8_t *state, const uint8_t *rk, size_t n);

static const struct aesir_engine engine = {
    .name = "ct64",
    .description = "bitsliced, fixsliced 64-bit, 4 blocks, Boyar-Peralta "
                   "S-box (Kasper-Schwabe, Adomnicai-Peyrin)",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = ct64_setkey_enc,
    .setkey_dec = ct64_setkey_dec,
    .encrypt = ct64_encrypt,
    .decrypt = ct64_decrypt,
    .ctr = ct64_ctr,
    .cbc_dec = ct64_cbc_dec,
    .aes_round = aesir_ct64_aes_round, /* ct64_aegis.c */
};

const struct aesir_engine *aesir_engine_ct64(void)
{
    return &engine;
}
