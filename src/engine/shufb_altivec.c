/*
 * shufb_altivec.c -- the Cell SPU's register-file S-box on 32-bit
 * big-endian PowerPC AltiVec (G4 7450 and later): the whole 256-byte
 * S-box sits in 16 vector registers and SubBytes is 16 parallel look-ups
 * into it, made of permutes and bitwise selects only.
 *
 * Technique: the Cell SPU AES of issue 18 ("Implementing AES on the
 * CellBE", Canright et al., 2009). The Cell AES papers found are J. W.
 * Bos, D. A. Osvik and D. Stefan, "Fast Implementations of AES on Various
 * Platforms" (2009) and D. A. Osvik, J. W. Bos, D. Stefan and D. Canright,
 * "Fast Software AES Encryption" (FSE 2010), of which only the abstracts
 * were found: docs/engines/cell.md says what, with the instruction
 * counts beside their figures. The SPU's shufb picks bytes of a 32-byte
 * register pair by the low five bits of each index byte and selb merges
 * two registers under a bit mask; AltiVec's vperm and vsel are the same
 * operations.
 *
 * SubBytes of a state vector x (16 bytes, one look-up each):
 *   - 8 vperm, one per 32-byte slice k of the S-box (registers 2k, 2k+1),
 *     indexed by x: p_k = S[32k + (x & 31)] in every byte;
 *   - 7 vsel in a tree on index bits 5, 6 and 7: 4 pick between slices
 *     2j and 2j+1 by bit 5, 2 between the results by bit 6, 1 by bit 7;
 *   - 5 to make the three masks: a bit moved to the top of its byte
 *     (vslb by 2 or 1, none for bit 7) and spread over the byte by an
 *     arithmetic right shift by 7 (vsrab).
 * 20 instructions per 16 bytes, every one of them on all 16 bytes.
 *
 * The rest of a round is permutes and XORs: ShiftRows folded into the
 * permutes that MixColumns needs anyway (a_k = row rotation k of
 * ShiftRows(t), one vperm each from t), MixColumns as
 * 2(a0 + a1) + a1 + a2 + a3 with 2x by add-to-itself (vaddubm) and 0x1b
 * where the top bit was (vsrab, vand): 33 vector instructions per block
 * per middle round. Decryption runs the standard inverse cipher on the
 * same round keys, the inverse S-box in the 16 registers instead, and
 * InvMixColumns as MixColumns after the pre-multiplication by the
 * circulant (05 00 04 00) (Daemen and Rijmen, "The Design of Rijndael",
 * 4.1.3): 44. With gcc 12 -O3 the 4-block round loop is 176 instructions
 * (encryption) and 220 (decryption): the rest is reloads of what does
 * not fit in the registers (docs/engines/cell.md counts them).
 *
 * Batch: 4 blocks interleaved. The SPU has 128 registers; AltiVec has
 * 32, of which the S-box takes 16, so 4 blocks with their masks and
 * partial look-ups do not fit: gcc keeps part of the S-box in registers
 * and reloads the rest from the stack (docs/engines/cell.md); CMake
 * turns off gcc's scheduling before register allocation for this file,
 * which otherwise spread the blocks' look-ups apart and reloaded nearly
 * twice as much. The reload addresses are the frame's, fixed.
 *
 * Loads need no alignment (the lvsl/vperm pair, as vperm_altivec.c); the
 * round keys too, since a context is only 8-aligned on 32-bit PowerPC
 * (internal.h). Stores go through a 16-aligned slot of a local buffer.
 *
 * Constant time: YES on the 74xx and later AltiVec units, whose vperm
 * and vsel have a fixed latency independent of the operand values; no
 * branch or address depends on key or data (the key schedule's SubWord
 * uses the same look-up). Compiled with -maltivec (CMakeLists.txt); runs
 * only when the kernel reports AltiVec (AT_HWCAP, cpu.c).
 */
#include "engine.h"

#if defined(__ALTIVEC__) && defined(__BIG_ENDIAN__)

#include <altivec.h>

#include "stack_wipe.h"

typedef __vector unsigned char vec;
typedef __vector signed char svec;

/* Byte i of a state is row i % 4 of column i / 4 (FIPS-197 3.4). */
#define SHIFT_ROWS                                                             \
    {                                                                          \
        0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11                   \
    }
#define INV_SHIFT_ROWS                                                         \
    {                                                                          \
        0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3                   \
    }
/* ROT(k): row r of each column takes row r + k of the same column. */
#define ROT(k)                                                                 \
    {                                                                          \
        (k) & 3, ((k) + 1) & 3, ((k) + 2) & 3, ((k) + 3) & 3, 4 + ((k)&3),     \
            4 + (((k) + 1) & 3), 4 + (((k) + 2) & 3), 4 + (((k) + 3) & 3),     \
            8 + ((k)&3), 8 + (((k) + 1) & 3), 8 + (((k) + 2) & 3),             \
            8 + (((k) + 3) & 3), 12 + ((k)&3), 12 + (((k) + 1) & 3),           \
            12 + (((k) + 2) & 3), 12 + (((k) + 3) & 3)                         \
    }

/* 16 bytes from any address: two aligned loads that cover them and the
 * permute that picks them (the AltiVec manual's idiom). The addresses
 * depend only on p. */
ENGINE_INLINE vec load(const uint8_t *p)
{
    return vec_perm(vec_ld(0, p), vec_ld(15, p), vec_lvsl(0, p));
}

/* 16 bytes to any address, through a 16-aligned slot of a local buffer
 * (aligned by hand: the stack is not trusted to honour _Alignas here). */
ENGINE_INLINE void store(uint8_t *p, vec v)
{
    uint8_t buf[32];
    uint8_t *a = buf + ((16u - ((uintptr_t)buf & 15u)) & 15u);
    vec_st(v, 0, a);
    memcpy(p, a, 16);
}

ENGINE_INLINE void load_box(vec box[16], const uint8_t *table)
{
    for (unsigned i = 0; i < 16; i++)
        box[i] = load(table + 16 * i);
}

/* box[x] in every byte of x (the header's 8 vperm + 7 vsel + 5). */
ENGINE_INLINE vec lookup(const vec box[16], vec x)
{
    const vec seven = vec_splat_u8(7);
    const vec m5 = (vec)vec_sra((svec)vec_sl(x, vec_splat_u8(2)), seven);
    const vec m6 = (vec)vec_sra((svec)vec_sl(x, vec_splat_u8(1)), seven);
    const vec m7 = (vec)vec_sra((svec)x, seven);
    vec q[4];

    for (unsigned j = 0; j < 4; j++)
        q[j] = vec_sel(vec_perm(box[4 * j], box[4 * j + 1], x),
                       vec_perm(box[4 * j + 2], box[4 * j + 3], x), m5);
    return vec_sel(vec_sel(q[0], q[1], m6), vec_sel(q[2], q[3], m6), m7);
}

/* Times 02 in every byte: shift left (add to itself), 0x1b where the top
 * bit was. */
ENGINE_INLINE vec xtime(vec v)
{
    const vec top = (vec)vec_sra((svec)v, vec_splat_u8(7));
    return vec_xor(vec_add(v, v), vec_and(top, vec_splats((uint8_t)0x1b)));
}

/* MixColumns of a, given its row rotations a1, a2, a3. */
ENGINE_INLINE vec mix(vec a, vec a1, vec a2, vec a3)
{
    return vec_xor(vec_xor(xtime(vec_xor(a, a1)), a1), vec_xor(a2, a3));
}

/* Round key r of the schedule at rk (any alignment; perm = lvsl of rk). */
ENGINE_INLINE vec round_key(const uint8_t *rk, vec perm, unsigned r)
{
    return vec_perm(vec_ld((int)(16 * r), rk), vec_ld((int)(16 * r + 15), rk),
                    perm);
}

/* Encrypts nb blocks in s (nb a constant after inlining). */
ENGINE_INLINE void enc_blocks(const vec box[16], const uint8_t *rk, unsigned nr,
                              vec *s, unsigned nb)
{
    const vec perm = vec_lvsl(0, rk), sr = (vec)SHIFT_ROWS;
    /* ShiftRows followed by each row rotation, as one permute each. */
    const vec p1 = vec_perm(sr, sr, (vec)ROT(1));
    const vec p2 = vec_perm(sr, sr, (vec)ROT(2));
    const vec p3 = vec_perm(sr, sr, (vec)ROT(3));
    vec k = round_key(rk, perm, 0);

    for (unsigned b = 0; b < nb; b++)
        s[b] = vec_xor(s[b], k);
    for (unsigned r = 1; r < nr; r++) {
        k = round_key(rk, perm, r);
        for (unsigned b = 0; b < nb; b++) {
            const vec t = lookup(box, s[b]);
            s[b] = vec_xor(mix(vec_perm(t, t, sr), vec_perm(t, t, p1),
                               vec_perm(t, t, p2), vec_perm(t, t, p3)),
                           k);
        }
    }
    k = round_key(rk, perm, nr);
    for (unsigned b = 0; b < nb; b++) {
        const vec t = lookup(box, s[b]);
        s[b] = vec_xor(vec_perm(t, t, sr), k);
    }
}

/* Decrypts nb blocks: the inverse cipher of FIPS-197 5.3 on the
 * encryption schedule; InvMixColumns(y) = MixColumns(y + 04 (y + rot2 y)). */
ENGINE_INLINE void dec_blocks(const vec box[16], const uint8_t *rk, unsigned nr,
                              vec *s, unsigned nb)
{
    const vec perm = vec_lvsl(0, rk), isr = (vec)INV_SHIFT_ROWS;
    const vec r1 = (vec)ROT(1), r2 = (vec)ROT(2), r3 = (vec)ROT(3);
    vec k = round_key(rk, perm, nr);

    for (unsigned b = 0; b < nb; b++)
        s[b] = vec_xor(s[b], k);
    for (unsigned r = nr - 1; r > 0; r--) {
        k = round_key(rk, perm, r);
        for (unsigned b = 0; b < nb; b++) {
            const vec t = lookup(box, s[b]);
            vec y = vec_xor(vec_perm(t, t, isr), k);
            y = vec_xor(y, xtime(xtime(vec_xor(y, vec_perm(y, y, r2)))));
            s[b] = mix(y, vec_perm(y, y, r1), vec_perm(y, y, r2),
                       vec_perm(y, y, r3));
        }
    }
    k = round_key(rk, perm, 0);
    for (unsigned b = 0; b < nb; b++) {
        const vec t = lookup(box, s[b]);
        s[b] = vec_xor(vec_perm(t, t, isr), k);
    }
}

/* nb blocks from in to out (all loaded before any is stored: in == out
 * works). */
ENGINE_INLINE void group(const vec box[16], const uint8_t *rk, unsigned nr,
                         uint8_t *out, const uint8_t *in, unsigned nb,
                         int decrypt)
{
    vec s[4];

    for (unsigned b = 0; b < nb; b++)
        s[b] = load(in + 16 * b);
    if (decrypt)
        dec_blocks(box, rk, nr, s, nb);
    else
        enc_blocks(box, rk, nr, s, nb);
    for (unsigned b = 0; b < nb; b++)
        store(out + 16 * b, s[b]);
}

/* ECB: groups of 4, then 2 and 1. The box is loaded once per call. */
ENGINE_INLINE void ecb(const void *rkv, unsigned nr, uint8_t *out,
                       const uint8_t *in, size_t n, int decrypt)
{
    const uint8_t *rk = rkv;
    vec box[16];

    load_box(box, decrypt ? aesir_inv_sbox : aesir_sbox);
    for (; n >= 4; n -= 4, in += 64, out += 64)
        group(box, rk, nr, out, in, 4, decrypt);
    if (n >= 2) {
        group(box, rk, nr, out, in, 2, decrypt);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1)
        group(box, rk, nr, out, in, 1, decrypt);
}

STACK_WIPE_BODY static void
shufb_altivec_encrypt_body(const void *rk, unsigned nr, uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 0);
}

STACK_WIPE_BODY static void
shufb_altivec_decrypt_body(const void *rk, unsigned nr, uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 1);
}

/* S(w) on the four bytes of w, by the vector look-up. */
ENGINE_INLINE void sub_word(const vec box[16], uint8_t w[4])
{
    uint8_t buf[32];
    uint8_t *a = buf + ((16u - ((uintptr_t)buf & 15u)) & 15u);

    memset(a, 0, 16);
    memcpy(a, w, 4);
    vec_st(lookup(box, vec_ld(0, a)), 0, a);
    memcpy(w, a, 4);
    aesir_wipe(buf, sizeof(buf));
}

/*
 * FIPS-197 5.2 on bytes: word i is w[4i .. 4i+3]. Branches depend on i
 * and the key length only; the round constant is public. Both directions
 * use this schedule (the decryption runs it backwards).
 */
STACK_WIPE_BODY static void
shufb_altivec_setkey_body(void *rk, const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, total = 4 * (nk + 7);
    uint8_t w[240], t[4], rcon = 1;
    vec box[16];

    load_box(box, aesir_sbox);
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            const uint8_t t0 = t[0];
            t[0] = t[1], t[1] = t[2], t[2] = t[3], t[3] = t0;
            sub_word(box, t);
            t[0] ^= rcon;
            rcon = (uint8_t)((rcon << 1) ^ (0x1b & -(rcon >> 7)));
        } else if (nk > 6 && i % nk == 4) {
            sub_word(box, t);
        }
        for (unsigned j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
    memcpy(rk, w, 4 * total);
    aesir_wipe(w, sizeof(w));
    aesir_wipe(t, sizeof(t));
}

/* AEGIS's round (internal.h, aes_round): a middle round of enc_blocks
 * on each state with its own key, AESRound of draft-irtf-cfrg-aegis-aead
 * section 2 (the S-box in the registers, ShiftRows folded into the
 * MixColumns permutes); the box is loaded once per call. */
STACK_WIPE_BODY static void
shufb_altivec_aes_round_body(uint8_t *state, const uint8_t *rk, size_t n)
{
    const vec sr = (vec)SHIFT_ROWS;
    const vec p1 = vec_perm(sr, sr, (vec)ROT(1));
    const vec p2 = vec_perm(sr, sr, (vec)ROT(2));
    const vec p3 = vec_perm(sr, sr, (vec)ROT(3));
    vec box[16];

    load_box(box, aesir_sbox);
    for (size_t i = 0; i < n; i++) {
        const vec t = lookup(box, load(state + 16 * i));
        store(state + 16 * i,
              vec_xor(mix(vec_perm(t, t, sr), vec_perm(t, t, p1),
                          vec_perm(t, t, p2), vec_perm(t, t, p3)),
                      load(rk + 16 * i)));
    }
}

/* The entry points wipe the stack their body used (stack_wipe.h): the
 * spilled S-box is public, but spilled states and round keys are not.
 * The bodies' frames are 752 bytes at most (setkey; gcc 12 -O3
 * -fstack-usage, ppc32, with or without -fno-schedule-insns: 656 with),
 * and they call only the C library's memcpy and memset: plus 256,
 * rounded up. test_residue.c, built by hand for ppc
 * and run under qemu-ppc -cpu 7450, finds nothing left with this bound,
 * and secrets left with 16 (docs/engines/cell.md). */
#define SHUFB_STACK 1024
STACK_WIPED_SETKEY(shufb_altivec_setkey, shufb_altivec_setkey_body, SHUFB_STACK)
STACK_WIPED_BLOCKS(shufb_altivec_encrypt, shufb_altivec_encrypt_body,
                   SHUFB_STACK)
STACK_WIPED_BLOCKS(shufb_altivec_decrypt, shufb_altivec_decrypt_body,
                   SHUFB_STACK)

static void shufb_altivec_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    shufb_altivec_aes_round_body(state, rk, n);
    aesir_wipe_stack(SHUFB_STACK);
}

static const struct aesir_engine engine = {
    .name = "shufb-altivec",
    .description = "Cell SPU-style AES: 256-byte S-box in 16 AltiVec "
                   "registers, vperm on 32-byte slices + vsel tree, "
                   "4 blocks interleaved",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = shufb_altivec_setkey,
    .setkey_dec = shufb_altivec_setkey,
    .encrypt = shufb_altivec_encrypt,
    .decrypt = shufb_altivec_decrypt,
    .aes_round = shufb_altivec_aes_round,
};

const struct aesir_engine *aesir_engine_shufb_altivec(void)
{
    return (aesir_cpu_features() & AESIR_CPU_ALTIVEC) ? &engine : NULL;
}

#else /* not big-endian AltiVec */

const struct aesir_engine *aesir_engine_shufb_altivec(void)
{
    return NULL;
}

#endif
