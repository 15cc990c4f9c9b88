/*
 * ct64_core.h -- the cipher of the fixsliced bitsliced AES, written once for
 * any word type: the S-box circuits, MixColumns and InvMixColumns in their
 * fixsliced forms, the round sequences and the 8x8 bit transposition.
 * Included by ct64.c (one 64-bit integer: 4 blocks) and, through
 * bs_x86.h, by the vector engines bs-avx2 and bs-avx512 (four 64-bit
 * lanes of a ymm register: 16 blocks), where every 64-bit lane is one
 * independent ct64 state of 4 blocks.
 *
 * The technique, the bit layout of a 64-bit word, the papers and the
 * constant-time argument are in ct64.c's header and docs/engines/ct64.md.
 *
 * Before including, the file includes engine.h (after defining
 * ENGINE_ISA, if any: the functions here are ENGINE_INLINE and ENGINE_FN)
 * and defines:
 *
 *   bs_word                  the word type: uint64_t, or a vector of
 *                            uint64_t lanes (GCC/clang vector extension)
 *   BS_NAME(x)               the engine's name for function x
 *                            (ct64_##x, bs_avx2_##x, ...): the two
 *                            out-of-line functions here are
 *                            BS_NAME(encrypt_state) and
 *                            BS_NAME(decrypt_state)
 *   bs_word rot_rc(x, i, d)  the word whose row r, column c holds row
 *                            r + i, column c + d of x (mod 4), for
 *                            1 <= i <= 3, 0 <= d <= 3 (constants after
 *                            inlining), per 64-bit lane
 *   bs_word bs_rk_word(k, i) 64-bit word i at k (8-byte units, 16-byte
 *                            aligned round key), in every lane
 *   BS_FINAL_SR2             1: encrypt_state and decrypt_state end with
 *                            shift_rows2 for AES-128/256 (see below); 0:
 *                            the caller does it (a vector engine folds it
 *                            into its output byte shuffle)
 *
 * Everything else is C operators: & | ^ ~, shifts by constants within a
 * 64-bit lane, and uint64_t constants as operands (GCC and clang apply a
 * scalar operand to every lane of a vector). So this part is portable C
 * when bs_word is uint64_t: ct64 runs on any 32- or 64-bit CPU of either
 * byte order.
 */
#ifndef AESIR_CT64_CORE_H
#define AESIR_CT64_CORE_H

/* ---------------------------------------------------------------------
 * SubBytes and InvSubBytes: the Boyar-Peralta circuit. The names are the
 * paper's: x circuit inputs (x0 the most significant bit, so x0 = q[7]
 * ... x7 = q[0]), y the top linear layer, t and z the non-linear middle
 * (inversion in GF((2^4)^2)), t46.. and s the bottom linear layer.
 * ------------------------------------------------------------------- */

/* The signals the middle reads: the top layer's outputs and x7. */
struct sbox_top {
    bs_word x7, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14,
        y15, y16, y17, y18, y19, y20, y21;
};

/* The shared middle, 30 XOR and 32 AND: the 18 products z0..z17. */
ENGINE_INLINE void sbox_middle(bs_word z[18], const struct sbox_top *p)
{
    const bs_word x7 = p->x7, y1 = p->y1, y2 = p->y2, y3 = p->y3;
    const bs_word y4 = p->y4, y5 = p->y5, y6 = p->y6, y7 = p->y7;
    const bs_word y8 = p->y8, y9 = p->y9, y10 = p->y10, y11 = p->y11;
    const bs_word y12 = p->y12, y13 = p->y13, y14 = p->y14, y15 = p->y15;
    const bs_word y16 = p->y16, y17 = p->y17, y18 = p->y18, y19 = p->y19;
    const bs_word y20 = p->y20, y21 = p->y21;

    const bs_word t2 = y12 & y15, t3 = y3 & y6, t4 = t3 ^ t2;
    const bs_word t5 = y4 & x7, t6 = t5 ^ t2, t7 = y13 & y16;
    const bs_word t8 = y5 & y1, t9 = t8 ^ t7, t10 = y2 & y7;
    const bs_word t11 = t10 ^ t7, t12 = y9 & y11, t13 = y14 & y17;
    const bs_word t14 = t13 ^ t12, t15 = y8 & y10, t16 = t15 ^ t12;
    const bs_word t17 = t4 ^ t14, t18 = t6 ^ t16, t19 = t9 ^ t14;
    const bs_word t20 = t11 ^ t16, t21 = t17 ^ y20, t22 = t18 ^ y19;
    const bs_word t23 = t19 ^ y21, t24 = t20 ^ y18;

    const bs_word t25 = t21 ^ t22, t26 = t21 & t23, t27 = t24 ^ t26;
    const bs_word t28 = t25 & t27, t29 = t28 ^ t22, t30 = t23 ^ t24;
    const bs_word t31 = t22 ^ t26, t32 = t31 & t30, t33 = t32 ^ t24;
    const bs_word t34 = t23 ^ t33, t35 = t27 ^ t33, t36 = t24 & t35;
    const bs_word t37 = t36 ^ t34, t38 = t27 ^ t36, t39 = t29 & t38;
    const bs_word t40 = t25 ^ t39;

    const bs_word t41 = t40 ^ t37, t42 = t29 ^ t33, t43 = t29 ^ t40;
    const bs_word t44 = t33 ^ t37, t45 = t42 ^ t41;
    z[0] = t44 & y15, z[1] = t37 & y6, z[2] = t33 & x7;
    z[3] = t43 & y16, z[4] = t40 & y1, z[5] = t29 & y7;
    z[6] = t42 & y11, z[7] = t45 & y17, z[8] = t41 & y10;
    z[9] = t44 & y12, z[10] = t37 & y3, z[11] = t33 & y4;
    z[12] = t43 & y13, z[13] = t40 & y5, z[14] = t29 & y2;
    z[15] = t42 & y9, z[16] = t45 & y14, z[17] = t41 & y8;
}

/* SubBytes + 0x63 (the XNORs of the paper are XORs here): 23 + 62 + 30 =
 * 115 gates. */
ENGINE_INLINE void sub_bytes(bs_word q[8])
{
    const bs_word x0 = q[7], x1 = q[6], x2 = q[5], x3 = q[4];
    const bs_word x4 = q[3], x5 = q[2], x6 = q[1], x7 = q[0];
    struct sbox_top p;
    bs_word z[18];

    /* Top linear layer: 23 XOR. */
    const bs_word y14 = x3 ^ x5, y13 = x0 ^ x6, y9 = x0 ^ x3, y8 = x0 ^ x5;
    const bs_word t0 = x1 ^ x2, y1 = t0 ^ x7, y4 = y1 ^ x3;
    const bs_word y12 = y13 ^ y14, y2 = y1 ^ x0, y5 = y1 ^ x6;
    const bs_word y3 = y5 ^ y8, t1 = x4 ^ y12, y15 = t1 ^ x5;
    const bs_word y20 = t1 ^ x1, y6 = y15 ^ x7, y10 = y15 ^ t0;
    const bs_word y11 = y20 ^ y9, y7 = x7 ^ y11, y17 = y10 ^ y11;
    const bs_word y19 = y10 ^ y8, y16 = t0 ^ y11, y21 = y13 ^ y16;
    const bs_word y18 = x0 ^ y16;

    p.x7 = x7, p.y1 = y1, p.y2 = y2, p.y3 = y3, p.y4 = y4, p.y5 = y5;
    p.y6 = y6, p.y7 = y7, p.y8 = y8, p.y9 = y9, p.y10 = y10, p.y11 = y11;
    p.y12 = y12, p.y13 = y13, p.y14 = y14, p.y15 = y15, p.y16 = y16;
    p.y17 = y17, p.y18 = y18, p.y19 = y19, p.y20 = y20, p.y21 = y21;
    sbox_middle(z, &p);

    /* Bottom linear layer: 30 XOR. */
    const bs_word t46 = z[15] ^ z[16], t47 = z[10] ^ z[11];
    const bs_word t48 = z[5] ^ z[13], t49 = z[9] ^ z[10];
    const bs_word t50 = z[2] ^ z[12], t51 = z[2] ^ z[5];
    const bs_word t52 = z[7] ^ z[8], t53 = z[0] ^ z[3];
    const bs_word t54 = z[6] ^ z[7], t55 = z[16] ^ z[17];
    const bs_word t56 = z[12] ^ t48, t57 = t50 ^ t53, t58 = z[4] ^ t46;
    const bs_word t59 = z[3] ^ t54, t60 = t46 ^ t57, t61 = z[14] ^ t57;
    const bs_word t62 = t52 ^ t58, t63 = t49 ^ t58, t64 = z[4] ^ t59;
    const bs_word t65 = t61 ^ t62, t66 = z[1] ^ t63, t67 = t64 ^ t65;
    const bs_word s3 = t53 ^ t66;

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
ENGINE_INLINE void inv_sub_bytes(bs_word q[8])
{
    const bs_word q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    const bs_word q4 = q[4], q5 = q[5], q6 = q[6], q7 = q[7];
    struct sbox_top p;
    bs_word z[18];

    /* Top: the forward top layer after L, 23 XOR. */
    const bs_word y19 = q0 ^ q3, y3 = q4 ^ q7, y9 = q3 ^ q4;
    const bs_word y1 = q0 ^ y9, y13 = q1 ^ y1, y18 = q5 ^ y9;
    const bs_word y8 = q6 ^ q7, y10 = y19 ^ y8, y5 = q4 ^ q6;
    const bs_word y2 = y13 ^ y5, y6 = q4 ^ y8, y4 = y9 ^ y2;
    const bs_word y12 = y3 ^ y4, y14 = q3 ^ y6, y7 = q5 ^ y4;
    const bs_word y16 = y1 ^ y7, y21 = q1 ^ y7, u0 = q2 ^ q7;
    const bs_word x7 = q5 ^ u0, y20 = y2 ^ u0, y11 = y9 ^ y20;
    const bs_word y17 = y10 ^ y11, y15 = y6 ^ x7;

    p.x7 = x7, p.y1 = y1, p.y2 = y2, p.y3 = y3, p.y4 = y4, p.y5 = y5;
    p.y6 = y6, p.y7 = y7, p.y8 = y8, p.y9 = y9, p.y10 = y10, p.y11 = y11;
    p.y12 = y12, p.y13 = y13, p.y14 = y14, p.y15 = y15, p.y16 = y16;
    p.y17 = y17, p.y18 = y18, p.y19 = y19, p.y20 = y20, p.y21 = y21;
    sbox_middle(z, &p);

    /* Bottom: L after the forward bottom layer, 35 XOR; output bit k. */
    const bs_word v0 = z[6] ^ z[15], v1 = z[13] ^ v0, v2 = z[12] ^ v1;
    const bs_word v3 = z[16] ^ v2, v4 = z[3] ^ z[4], v5 = z[8] ^ v3;
    const bs_word v6 = z[2] ^ z[10], v7 = z[1] ^ v4, v8 = z[4] ^ z[5];
    const bs_word v9 = z[9] ^ z[17], v10 = z[8] ^ v6, v11 = z[14] ^ v10;
    const bs_word v12 = z[0] ^ v5, v13 = v7 ^ v11, v14 = v9 ^ z[15];
    const bs_word v15 = v4 ^ v3, v16 = v12 ^ v8, v17 = v8 ^ v6;
    const bs_word v18 = v17 ^ v2, v19 = v18 ^ z[17], v20 = v19 ^ z[11];
    const bs_word v21 = v20 ^ z[7], v22 = v13 ^ v0, v23 = v22 ^ z[16];
    const bs_word v24 = v23 ^ z[12], v25 = v13 ^ v9, v26 = v5 ^ z[5];

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

ENGINE_INLINE void mix_columns(bs_word q[8], unsigned d)
{
    const unsigned e = (2 * d) & 3;
    const bs_word a7 = rot_rc(q[7], 1, d), t7 = q[7] ^ a7;
    bs_word a, t, prev;

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
ENGINE_INLINE void inv_mix_columns(bs_word q[8], unsigned d)
{
    const unsigned e = (2 * d) & 3;
    const bs_word u0 = q[0] ^ rot_rc(q[0], 2, e);
    const bs_word u1 = q[1] ^ rot_rc(q[1], 2, e);
    const bs_word u2 = q[2] ^ rot_rc(q[2], 2, e);
    const bs_word u3 = q[3] ^ rot_rc(q[3], 2, e);
    const bs_word u4 = q[4] ^ rot_rc(q[4], 2, e);
    const bs_word u5 = q[5] ^ rot_rc(q[5], 2, e);
    const bs_word u6 = q[6] ^ rot_rc(q[6], 2, e);
    const bs_word u7 = q[7] ^ rot_rc(q[7], 2, e);
    const bs_word u67 = u6 ^ u7;

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
ENGINE_INLINE bs_word shift_rows2_word(bs_word x)
{
    return (x & 0x0000ffff0000ffffu) | ((x >> 8) & 0x00ff000000ff0000u) |
           ((x << 8) & 0xff000000ff000000u);
}

ENGINE_INLINE void shift_rows2(bs_word q[8])
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

/* Exchanges the bits of b under m with the bits of a under m << n. */
#define SWAP_BITS(a, b, m, n)                                                  \
    do {                                                                       \
        const bs_word t_ = (((a) >> (n)) ^ (b)) & (m);                         \
        (b) ^= t_;                                                             \
        (a) ^= t_ << (n);                                                      \
    } while (0)

/*
 * Word j bit 8 m + k <-> word k bit 8 m + j: in each byte position m the
 * eight words form an 8x8 bit matrix, transposed by swapping index bits
 * one at a time (word bit 0 with bit-in-byte 0, then 1, then 2). It is
 * its own inverse.
 */
ENGINE_INLINE void transpose8(bs_word w[8])
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

/* ---------------------------------------------------------------------
 * Rounds.
 * ------------------------------------------------------------------- */

ENGINE_INLINE void add_round_key(bs_word q[8], const uint8_t *rk, unsigned r)
{
    const uint8_t *k = rk + 64 * (size_t)r;
    q[0] ^= bs_rk_word(k, 0);
    q[1] ^= bs_rk_word(k, 1);
    q[2] ^= bs_rk_word(k, 2);
    q[3] ^= bs_rk_word(k, 3);
    q[4] ^= bs_rk_word(k, 4);
    q[5] ^= bs_rk_word(k, 5);
    q[6] ^= bs_rk_word(k, 6);
    q[7] ^= bs_rk_word(k, 7);
}

ENGINE_INLINE void enc_round(bs_word q[8], const uint8_t *rk, unsigned r,
                             unsigned d)
{
    sub_bytes(q);
    mix_columns(q, d);
    add_round_key(q, rk, r);
}

ENGINE_INLINE void dec_round(bs_word q[8], const uint8_t *rk, unsigned r,
                             unsigned d)
{
    inv_sub_bytes(q);
    inv_mix_columns(q, d);
    add_round_key(q, rk, r);
}

ENGINE_INLINE void copy8(bs_word d[8], const bs_word s[8])
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
ENGINE_FN void BS_NAME(encrypt_state)(const uint8_t *rk, unsigned nr,
                                      bs_word q[8])
{
    bs_word s[8];

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
    if (BS_FINAL_SR2 && nr % 4 == 2)
        shift_rows2(s);
    copy8(q, s);
}

ENGINE_FN void BS_NAME(decrypt_state)(const uint8_t *rk, unsigned nr,
                                      bs_word q[8])
{
    bs_word s[8];

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
    if (BS_FINAL_SR2 && nr % 4 == 2)
        shift_rows2(s);
    copy8(q, s);
}

#endif /* AESIR_CT64_CORE_H */
