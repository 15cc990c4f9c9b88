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
#include "internal.h"

#if defined(__GNUC__) || defined(__clang__)
#define RK(p) ((const uint8_t *)__builtin_assume_aligned((p), 64))
#else
#define RK(p) ((const uint8_t *)(p))
#endif

/* The round functions must be inlined into the round sequence: the
 * rotation amounts depend on the column offset, a constant only after
 * inlining, and the state must stay in registers. */
#if defined(__GNUC__) || defined(__clang__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif

/* A 16-bit row pattern repeated in the four rows of a word. */
#define ROWS(x) (0x0001000100010001u * (uint64_t)(x))

INLINE uint64_t rotr(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

/*
 * The word whose row r, column c holds row r + i, column c + d of x (both
 * mod 4), for 1 <= i <= 3 and 0 <= d <= 3: a rotation by i rows and d
 * columns. Columns c < 4 - d come from a plain 64-bit rotation; the others
 * wrap around inside their row, which is the rotation one row less.
 */
INLINE uint64_t rot_rc(uint64_t x, unsigned i, unsigned d)
{
    const uint64_t lo = ROWS(0xffffu >> (4 * d));

    if (d == 0)
        return rotr(x, 16 * i);
    return (rotr(x, 16 * i + 4 * d) & lo) |
           (rotr(x, 16 * i + 4 * d - 16) & ~lo);
}

/* ---------------------------------------------------------------------
 * SubBytes and InvSubBytes: the Boyar-Peralta circuit. The names are the
 * paper's: x circuit inputs (x0 the most significant bit, so x0 = q[7]
 * ... x7 = q[0]), y the top linear layer, t and z the non-linear middle
 * (inversion in GF((2^4)^2)), t46.. and s the bottom linear layer.
 * ------------------------------------------------------------------- */

/* The signals the middle reads: the top layer's outputs and x7. */
struct sbox_top {
    uint64_t x7, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14,
        y15, y16, y17, y18, y19, y20, y21;
};

/* The shared middle, 30 XOR and 32 AND: the 18 products z0..z17. */
INLINE void sbox_middle(uint64_t z[18], const struct sbox_top *p)
{
    const uint64_t x7 = p->x7, y1 = p->y1, y2 = p->y2, y3 = p->y3;
    const uint64_t y4 = p->y4, y5 = p->y5, y6 = p->y6, y7 = p->y7;
    const uint64_t y8 = p->y8, y9 = p->y9, y10 = p->y10, y11 = p->y11;
    const uint64_t y12 = p->y12, y13 = p->y13, y14 = p->y14, y15 = p->y15;
    const uint64_t y16 = p->y16, y17 = p->y17, y18 = p->y18, y19 = p->y19;
    const uint64_t y20 = p->y20, y21 = p->y21;

    const uint64_t t2 = y12 & y15, t3 = y3 & y6, t4 = t3 ^ t2;
    const uint64_t t5 = y4 & x7, t6 = t5 ^ t2, t7 = y13 & y16;
    const uint64_t t8 = y5 & y1, t9 = t8 ^ t7, t10 = y2 & y7;
    const uint64_t t11 = t10 ^ t7, t12 = y9 & y11, t13 = y14 & y17;
    const uint64_t t14 = t13 ^ t12, t15 = y8 & y10, t16 = t15 ^ t12;
    const uint64_t t17 = t4 ^ t14, t18 = t6 ^ t16, t19 = t9 ^ t14;
    const uint64_t t20 = t11 ^ t16, t21 = t17 ^ y20, t22 = t18 ^ y19;
    const uint64_t t23 = t19 ^ y21, t24 = t20 ^ y18;

    const uint64_t t25 = t21 ^ t22, t26 = t21 & t23, t27 = t24 ^ t26;
    const uint64_t t28 = t25 & t27, t29 = t28 ^ t22, t30 = t23 ^ t24;
    const uint64_t t31 = t22 ^ t26, t32 = t31 & t30, t33 = t32 ^ t24;
    const uint64_t t34 = t23 ^ t33, t35 = t27 ^ t33, t36 = t24 & t35;
    const uint64_t t37 = t36 ^ t34, t38 = t27 ^ t36, t39 = t29 & t38;
    const uint64_t t40 = t25 ^ t39;

    const uint64_t t41 = t40 ^ t37, t42 = t29 ^ t33, t43 = t29 ^ t40;
    const uint64_t t44 = t33 ^ t37, t45 = t42 ^ t41;
    z[0] = t44 & y15, z[1] = t37 & y6, z[2] = t33 & x7;
    z[3] = t43 & y16, z[4] = t40 & y1, z[5] = t29 & y7;
    z[6] = t42 & y11, z[7] = t45 & y17, z[8] = t41 & y10;
    z[9] = t44 & y12, z[10] = t37 & y3, z[11] = t33 & y4;
    z[12] = t43 & y13, z[13] = t40 & y5, z[14] = t29 & y2;
    z[15] = t42 & y9, z[16] = t45 & y14, z[17] = t41 & y8;
}

/* SubBytes + 0x63 (the XNORs of the paper are XORs here): 23 + 62 + 30 =
 * 115 gates. */
INLINE void sub_bytes(uint64_t q[8])
{
    const uint64_t x0 = q[7], x1 = q[6], x2 = q[5], x3 = q[4];
    const uint64_t x4 = q[3], x5 = q[2], x6 = q[1], x7 = q[0];
    struct sbox_top p;
    uint64_t z[18];

    /* Top linear layer: 23 XOR. */
    const uint64_t y14 = x3 ^ x5, y13 = x0 ^ x6, y9 = x0 ^ x3, y8 = x0 ^ x5;
    const uint64_t t0 = x1 ^ x2, y1 = t0 ^ x7, y4 = y1 ^ x3;
    const uint64_t y12 = y13 ^ y14, y2 = y1 ^ x0, y5 = y1 ^ x6;
    const uint64_t y3 = y5 ^ y8, t1 = x4 ^ y12, y15 = t1 ^ x5;
    const uint64_t y20 = t1 ^ x1, y6 = y15 ^ x7, y10 = y15 ^ t0;
    const uint64_t y11 = y20 ^ y9, y7 = x7 ^ y11, y17 = y10 ^ y11;
    const uint64_t y19 = y10 ^ y8, y16 = t0 ^ y11, y21 = y13 ^ y16;
    const uint64_t y18 = x0 ^ y16;

    p.x7 = x7, p.y1 = y1, p.y2 = y2, p.y3 = y3, p.y4 = y4, p.y5 = y5;
    p.y6 = y6, p.y7 = y7, p.y8 = y8, p.y9 = y9, p.y10 = y10, p.y11 = y11;
    p.y12 = y12, p.y13 = y13, p.y14 = y14, p.y15 = y15, p.y16 = y16;
    p.y17 = y17, p.y18 = y18, p.y19 = y19, p.y20 = y20, p.y21 = y21;
    sbox_middle(z, &p);

    /* Bottom linear layer: 30 XOR. */
    const uint64_t t46 = z[15] ^ z[16], t47 = z[10] ^ z[11];
    const uint64_t t48 = z[5] ^ z[13], t49 = z[9] ^ z[10];
    const uint64_t t50 = z[2] ^ z[12], t51 = z[2] ^ z[5];
    const uint64_t t52 = z[7] ^ z[8], t53 = z[0] ^ z[3];
    const uint64_t t54 = z[6] ^ z[7], t55 = z[16] ^ z[17];
    const uint64_t t56 = z[12] ^ t48, t57 = t50 ^ t53, t58 = z[4] ^ t46;
    const uint64_t t59 = z[3] ^ t54, t60 = t46 ^ t57, t61 = z[14] ^ t57;
    const uint64_t t62 = t52 ^ t58, t63 = t49 ^ t58, t64 = z[4] ^ t59;
    const uint64_t t65 = t61 ^ t62, t66 = z[1] ^ t63, t67 = t64 ^ t65;
    const uint64_t s3 = t53 ^ t66;

    q[7] = t59 ^ t63; /* s0 */
    q[6] = t64 ^ s3;  /* s1, XNOR in the paper */
    q[5] = t55 ^ t67; /* s2, XNOR */
    q[4] = s3;        /* s3 */
    q[3] = t51 ^ t66; /* s4 */
    q[2] = t47 ^ t65; /* s5 */
    q[1] = t56 ^ t62; /* s6, XNOR */
    q[0] = t48 ^ t60; /* s7, XNOR */
}

/*
 * InvSubBytes of y + 0x63 (the constant is in the round key): L(S'(L(y)))
 * with L folded into both linear layers, 23 + 62 + 35 = 120 gates. The
 * new layers are our own, found by a greedy search for short XOR programs
 * (the distance heuristic of Boyar and Peralta for the top, Paar's
 * pairing heuristic for the bottom) and checked on all 256 inputs by the
 * tests. Here the inputs are the bit-planes q[0..7] directly.
 */
INLINE void inv_sub_bytes(uint64_t q[8])
{
    const uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    const uint64_t q4 = q[4], q5 = q[5], q6 = q[6], q7 = q[7];
    struct sbox_top p;
    uint64_t z[18];

    /* Top: the forward top layer after L, 23 XOR. */
    const uint64_t y19 = q0 ^ q3, y3 = q4 ^ q7, y9 = q3 ^ q4;
    const uint64_t y1 = q0 ^ y9, y13 = q1 ^ y1, y18 = q5 ^ y9;
    const uint64_t y8 = q6 ^ q7, y10 = y19 ^ y8, y5 = q4 ^ q6;
    const uint64_t y2 = y13 ^ y5, y6 = q4 ^ y8, y4 = y9 ^ y2;
    const uint64_t y12 = y3 ^ y4, y14 = q3 ^ y6, y7 = q5 ^ y4;
    const uint64_t y16 = y1 ^ y7, y21 = q1 ^ y7, u0 = q2 ^ q7;
    const uint64_t x7 = q5 ^ u0, y20 = y2 ^ u0, y11 = y9 ^ y20;
    const uint64_t y17 = y10 ^ y11, y15 = y6 ^ x7;

    p.x7 = x7, p.y1 = y1, p.y2 = y2, p.y3 = y3, p.y4 = y4, p.y5 = y5;
    p.y6 = y6, p.y7 = y7, p.y8 = y8, p.y9 = y9, p.y10 = y10, p.y11 = y11;
    p.y12 = y12, p.y13 = y13, p.y14 = y14, p.y15 = y15, p.y16 = y16;
    p.y17 = y17, p.y18 = y18, p.y19 = y19, p.y20 = y20, p.y21 = y21;
    sbox_middle(z, &p);

    /* Bottom: L after the forward bottom layer, 35 XOR; output bit k. */
    const uint64_t v0 = z[6] ^ z[15], v1 = z[13] ^ v0, v2 = z[12] ^ v1;
    const uint64_t v3 = z[16] ^ v2, v4 = z[3] ^ z[4], v5 = z[8] ^ v3;
    const uint64_t v6 = z[2] ^ z[10], v7 = z[1] ^ v4, v8 = z[4] ^ z[5];
    const uint64_t v9 = z[9] ^ z[17], v10 = z[8] ^ v6, v11 = z[14] ^ v10;
    const uint64_t v12 = z[0] ^ v5, v13 = v7 ^ v11, v14 = v9 ^ z[15];
    const uint64_t v15 = v4 ^ v3, v16 = v12 ^ v8, v17 = v8 ^ v6;
    const uint64_t v18 = v17 ^ v2, v19 = v18 ^ z[17], v20 = v19 ^ z[11];
    const uint64_t v21 = v20 ^ z[7], v22 = v13 ^ v0, v23 = v22 ^ z[16];
    const uint64_t v24 = v23 ^ z[12], v25 = v13 ^ v9, v26 = v5 ^ z[5];

    q[0] = v14 ^ z[11];
    q[1] = v15 ^ z[7];
    q[2] = v16 ^ z[1];
    q[3] = v21 ^ z[0];
    q[4] = v12 ^ z[2];
    q[5] = v24 ^ z[11];
    q[6] = v25 ^ v1;
    q[7] = v26 ^ z[3];
}

/* ---------------------------------------------------------------------
 * MixColumns, conjugated for fixslicing: column offset d = 0 is plain
 * MixColumns; d = j is SR^-j . MixColumns . SR^j. With R1 = rot_rc(., 1,
 * d), R2 = rot_rc(., 2, 2d mod 4), the output is
 *   2 a + 3 R1(a) + R2(a) + R1 R2(a) = 2 t + R1(a) + R2(t),  t = a + R1(a).
 * Multiplication by 2 in GF(2^8) on bit-planes moves plane k to k + 1
 * and adds plane 7 into planes 0, 1, 3, 4 (x^8 = x^4 + x^3 + x + 1).
 * ------------------------------------------------------------------- */

INLINE void mix_columns(uint64_t q[8], unsigned d)
{
    const unsigned e = (2 * d) & 3;
    const uint64_t a7 = rot_rc(q[7], 1, d), t7 = q[7] ^ a7;
    uint64_t a, t, prev;

    /* Plane by plane, so that few values are live at once. */
    a = rot_rc(q[0], 1, d), t = q[0] ^ a;
    q[0] = t7 ^ a ^ rot_rc(t, 2, e), prev = t;
    a = rot_rc(q[1], 1, d), t = q[1] ^ a;
    q[1] = prev ^ t7 ^ a ^ rot_rc(t, 2, e), prev = t;
    a = rot_rc(q[2], 1, d), t = q[2] ^ a;
    q[2] = prev ^ a ^ rot_rc(t, 2, e), prev = t;
    a = rot_rc(q[3], 1, d), t = q[3] ^ a;
    q[3] = prev ^ t7 ^ a ^ rot_rc(t, 2, e), prev = t;
    a = rot_rc(q[4], 1, d), t = q[4] ^ a;
    q[4] = prev ^ t7 ^ a ^ rot_rc(t, 2, e), prev = t;
    a = rot_rc(q[5], 1, d), t = q[5] ^ a;
    q[5] = prev ^ a ^ rot_rc(t, 2, e), prev = t;
    a = rot_rc(q[6], 1, d), t = q[6] ^ a;
    q[6] = prev ^ a ^ rot_rc(t, 2, e);
    q[7] = t ^ a7 ^ rot_rc(t7, 2, e);
}

/* InvMixColumns = MixColumns . (a -> a + 4 (a + R2(a))), same offset d.
 * Multiplication by 4: plane k goes to k + 2, planes 6 and 7 fold back
 * through x^8 = x^4 + x^3 + x + 1 and x^9 = x^5 + x^4 + x^2 + x. */
INLINE void inv_mix_columns(uint64_t q[8], unsigned d)
{
    const unsigned e = (2 * d) & 3;
    const uint64_t u0 = q[0] ^ rot_rc(q[0], 2, e);
    const uint64_t u1 = q[1] ^ rot_rc(q[1], 2, e);
    const uint64_t u2 = q[2] ^ rot_rc(q[2], 2, e);
    const uint64_t u3 = q[3] ^ rot_rc(q[3], 2, e);
    const uint64_t u4 = q[4] ^ rot_rc(q[4], 2, e);
    const uint64_t u5 = q[5] ^ rot_rc(q[5], 2, e);
    const uint64_t u6 = q[6] ^ rot_rc(q[6], 2, e);
    const uint64_t u7 = q[7] ^ rot_rc(q[7], 2, e);
    const uint64_t u67 = u6 ^ u7;

    q[0] ^= u6;
    q[1] ^= u67;
    q[2] ^= u0 ^ u7;
    q[3] ^= u1 ^ u6;
    q[4] ^= u2 ^ u67;
    q[5] ^= u3 ^ u7;
    q[6] ^= u4;
    q[7] ^= u5;
    mix_columns(q, d);
}

/* SR^2 (= SR^-2): rows 1 and 3 turn by two columns, a byte swap inside
 * their 16 bits; rows 0 and 2 stay. Brings the fixsliced state of an
 * AES-128 or AES-256 after its last round back to the true state. */
INLINE uint64_t shift_rows2_word(uint64_t x)
{
    return (x & 0x0000ffff0000ffffu) | ((x >> 8) & 0x00ff000000ff0000u) |
           ((x << 8) & 0xff000000ff000000u);
}

INLINE void shift_rows2(uint64_t q[8])
{
    q[0] = shift_rows2_word(q[0]);
    q[1] = shift_rows2_word(q[1]);
    q[2] = shift_rows2_word(q[2]);
    q[3] = shift_rows2_word(q[3]);
    q[4] = shift_rows2_word(q[4]);
    q[5] = shift_rows2_word(q[5]);
    q[6] = shift_rows2_word(q[6]);
    q[7] = shift_rows2_word(q[7]);
}

/* SR^n for any n, row by row (row r turns by n r columns): used on round
 * keys only. */
static void shift_rows_pow(uint64_t q[8], unsigned n)
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
INLINE void add_63(uint64_t q[8])
{
    q[0] = ~q[0];
    q[1] = ~q[1];
    q[5] = ~q[5];
    q[6] = ~q[6];
}

/* ---------------------------------------------------------------------
 * Rounds.
 * ------------------------------------------------------------------- */

INLINE uint64_t rk_word(const uint8_t *rk, size_t i)
{
    uint64_t v;
    memcpy(&v, rk + 8 * i, 8);
    return v;
}

INLINE void add_round_key(uint64_t q[8], const uint8_t *rk, unsigned r)
{
    const uint8_t *k = rk + 64 * (size_t)r;
    q[0] ^= rk_word(k, 0);
    q[1] ^= rk_word(k, 1);
    q[2] ^= rk_word(k, 2);
    q[3] ^= rk_word(k, 3);
    q[4] ^= rk_word(k, 4);
    q[5] ^= rk_word(k, 5);
    q[6] ^= rk_word(k, 6);
    q[7] ^= rk_word(k, 7);
}

INLINE void enc_round(uint64_t q[8], const uint8_t *rk, unsigned r, unsigned d)
{
    sub_bytes(q);
    mix_columns(q, d);
    add_round_key(q, rk, r);
}

INLINE void dec_round(uint64_t q[8], const uint8_t *rk, unsigned r, unsigned d)
{
    inv_sub_bytes(q);
    inv_mix_columns(q, d);
    add_round_key(q, rk, r);
}

INLINE void copy8(uint64_t d[8], const uint64_t s[8])
{
    d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = s[3];
    d[4] = s[4], d[5] = s[5], d[6] = s[6], d[7] = s[7];
}

/*
 * Round r uses column offset r mod 4 (encryption) or -r mod 4
 * (decryption). The rounds with MixColumns are 1 .. nr - 1, so the last
 * of them has offset 1 (AES-128, AES-256) or 3 (AES-192): the loop leaves
 * a group of four there, which keeps one copy of each round in the code.
 */
static void encrypt_state(const uint8_t *rk, unsigned nr, uint64_t q[8])
{
    uint64_t s[8];

    copy8(s, q);
    add_round_key(s, rk, 0);
    for (unsigned r = 1;; r += 4) {
        enc_round(s, rk, r, 1);
        if (r + 1 == nr)
            break;
        enc_round(s, rk, r + 1, 2);
        enc_round(s, rk, r + 2, 3);
        if (r + 3 == nr)
            break;
        enc_round(s, rk, r + 3, 0);
    }
    sub_bytes(s);
    add_round_key(s, rk, nr);
    if (nr % 4 == 2)
        shift_rows2(s);
    copy8(q, s);
}

static void decrypt_state(const uint8_t *rk, unsigned nr, uint64_t q[8])
{
    uint64_t s[8];

    copy8(s, q);
    add_round_key(s, rk, 0);
    for (unsigned r = 1;; r += 4) {
        dec_round(s, rk, r, 3);
        if (r + 1 == nr)
            break;
        dec_round(s, rk, r + 1, 2);
        dec_round(s, rk, r + 2, 1);
        if (r + 3 == nr)
            break;
        dec_round(s, rk, r + 3, 0);
    }
    inv_sub_bytes(s);
    add_round_key(s, rk, nr);
    if (nr % 4 == 2)
        shift_rows2(s);
    copy8(q, s);
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

/* Exchanges the bits of b under m with the bits of a under m << n. */
#define SWAP_BITS(a, b, m, n)                                                  \
    do {                                                                       \
        const uint64_t t_ = (((a) >> (n)) ^ (b)) & (m);                        \
        (b) ^= t_;                                                             \
        (a) ^= t_ << (n);                                                      \
    } while (0)

/*
 * Word j bit 8 m + k <-> word k bit 8 m + j: in each byte position m the
 * eight words form an 8x8 bit matrix, transposed by swapping index bits
 * one at a time (word bit 0 with bit-in-byte 0, then 1, then 2). It is
 * its own inverse.
 */
static inline void transpose8(uint64_t w[8])
{
    const uint64_t m1 = 0x5555555555555555u, m2 = 0x3333333333333333u;
    const uint64_t m4 = 0x0f0f0f0f0f0f0f0fu;

    SWAP_BITS(w[0], w[1], m1, 1);
    SWAP_BITS(w[2], w[3], m1, 1);
    SWAP_BITS(w[4], w[5], m1, 1);
    SWAP_BITS(w[6], w[7], m1, 1);
    SWAP_BITS(w[0], w[2], m2, 2);
    SWAP_BITS(w[1], w[3], m2, 2);
    SWAP_BITS(w[4], w[6], m2, 2);
    SWAP_BITS(w[5], w[7], m2, 2);
    SWAP_BITS(w[0], w[4], m4, 4);
    SWAP_BITS(w[1], w[5], m4, 4);
    SWAP_BITS(w[2], w[6], m4, 4);
    SWAP_BITS(w[3], w[7], m4, 4);
}

/*
 * Word 4 p + b, byte 2 r + h (p, h in {0, 1}) is row r of column p + 2 h
 * of block b, so after the transposition bit k of that byte is in q[k]
 * at 8 (2 r + h) + 4 p + b = 16 r + 4 (p + 2 h) + b, as drawn above.
 * Blocks n .. 3 are zero.
 */
INLINE void load_blocks(uint64_t q[8], const uint8_t *in, size_t n)
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
INLINE void store_blocks(uint8_t *out, const uint8_t *x, const uint64_t q[8],
                         size_t n)
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
static uint32_t sub_word(uint32_t x)
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
static void expand_key(uint32_t w[60], const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, nwords = 4 * (nk + 7);
    uint32_t rcon = 0x01;

    for (unsigned i = 0; i < nk; i++)
        w[i] = get_le32(key + 4 * i);
    for (unsigned i = nk; i < nwords; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word((t >> 8) | (t << 24)) ^ rcon;
            /* rcon doubles in GF(2^8); it is public. */
            rcon = (rcon << 1) ^ (0x11b & -(rcon >> 7));
        } else if (nk == 8 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
}

/* Round key w[0..3] bitsliced into all four blocks: loaded as block 0,
 * then each column's bit copied to the three other blocks' bits. */
static void load_key(uint64_t q[8], const uint32_t w[4])
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

static void put_rk(void *rk, unsigned r, const uint64_t q[8])
{
    memcpy((uint8_t *)rk + 64 * (size_t)r, q, 64);
}

static void setkey_enc(void *rk, const uint8_t *key, size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    uint32_t w[60];
    uint64_t q[8];

    expand_key(w, key, key_len);
    for (unsigned r = 0; r <= nr; r++) {
        load_key(q, w + 4 * r);
        shift_rows_pow(q, (4 - (r & 3)) & 3); /* SR^-r */
        if (r != 0)
            add_63(q);
        put_rk(rk, r, q);
    }
    aesir_wipe(q, sizeof(q));
    aesir_wipe(w, sizeof(w));
}

static void setkey_dec(void *rk, const uint8_t *key, size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    uint32_t w[60];
    uint64_t q[8];

    expand_key(w, key, key_len);
    for (unsigned r = 0; r <= nr; r++) {
        load_key(q, w + 4 * (nr - r));
        if (r != 0 && r != nr)
            inv_mix_columns(q, 0);
        shift_rows_pow(q, r & 3); /* SR^r */
        if (r != nr)
            add_63(q);
        put_rk(rk, r, q);
    }
    aesir_wipe(q, sizeof(q));
    aesir_wipe(w, sizeof(w));
}

/* ---------------------------------------------------------------------
 * Bulk ECB, CTR, CBC decryption.
 * ------------------------------------------------------------------- */

static void encrypt(const void *rkv, unsigned nr, uint8_t *out,
                    const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = RK(rkv);
    uint64_t q[8];

    if (nblocks == 1) {
        /* The serial modes' call: with n constant the compiler drops
         * the work on the three empty blocks. */
        load_blocks(q, in, 1);
        encrypt_state(rk, nr, q);
        store_blocks(out, NULL, q, 1);
        return;
    }
    while (nblocks > 0) {
        const size_t n = nblocks < 4 ? nblocks : 4;
        load_blocks(q, in, n);
        encrypt_state(rk, nr, q);
        store_blocks(out, NULL, q, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

static void decrypt(const void *rkv, unsigned nr, uint8_t *out,
                    const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = RK(rkv);
    uint64_t q[8];

    while (nblocks > 0) {
        const size_t n = nblocks < 4 ? nblocks : 4;
        load_blocks(q, in, n);
        decrypt_state(rk, nr, q);
        store_blocks(out, NULL, q, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

/* The 32-bit word whose little-endian bytes are the big-endian bytes of
 * x, i.e. a byte swap. */
INLINE uint32_t swap32(uint32_t x)
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
static void ctr_crypt(const void *rkv, unsigned nr, uint8_t ctr[16],
                      uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = RK(rkv);
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
        encrypt_state(rk, nr, q);
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
static void cbc_dec(const void *rkv, unsigned nr, uint8_t iv[16], uint8_t *out,
                    const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = RK(rkv);
    uint8_t chain[80]; /* iv, then the ciphertext blocks of this pass */
    uint64_t q[8];

    memcpy(chain, iv, 16);
    while (nblocks > 0) {
        const size_t n = nblocks < 4 ? nblocks : 4;
        memcpy(chain + 16, in, 16 * n);
        load_blocks(q, chain + 16, n);
        decrypt_state(rk, nr, q);
        store_blocks(out, chain, q, n);
        memcpy(chain, chain + 16 * n, 16);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    memcpy(iv, chain, 16);
    aesir_wipe(q, sizeof(q));
}

static const struct aesir_engine engine = {
    .name = "ct64",
    .description = "bitsliced, fixsliced 64-bit, 4 blocks, Boyar-Peralta "
                   "S-box (Kasper-Schwabe, Adomnicai-Peyrin)",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = setkey_enc,
    .setkey_dec = setkey_dec,
    .encrypt = encrypt,
    .decrypt = decrypt,
    .ctr = ctr_crypt,
    .cbc_dec = cbc_dec,
};

const struct aesir_engine *aesir_engine_ct64(void)
{
    return &engine;
}
