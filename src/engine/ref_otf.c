/*
 * ref_otf.c -- byte-wise FIPS-197 with the key schedule computed on the
 * fly: the key-agile, memory-minimal form of AES.
 *
 * The round functions are those of FIPS-197 section 5.1 (and 5.3 for
 * decryption) on the 4x4 byte state of section 3.4, stored column by
 * column as the 16 input bytes (state[r + 4c] = in[r + 4c]). What differs
 * from ref.c is the key: the expanded key w[0 .. 4 Nr + 3] of section 5.2
 * is never stored. Each block starts from a key-sized state of Nk words
 * and derives every word of w just before AddRoundKey uses it, from the
 * recurrence of section 5.2 (figure 11):
 *
 *   w[i] = w[i - Nk] ^ T(w[i - 1], i)
 *
 *   T(t, i) = SubWord(RotWord(t)) ^ Rcon[i / Nk]   when i mod Nk = 0
 *           = SubWord(t)                           when Nk = 8 and
 *                                                  i mod Nk = 4
 *           = t                                    otherwise
 *
 * Encryption starts from w[0 .. Nk-1], the cipher key, and runs it
 * forwards, i = Nk, Nk + 1, ... Decryption starts from the last Nk words,
 * w[4 Nr + 4 - Nk .. 4 Nr + 3], and runs it backwards: XOR undoes itself,
 * so w[i - Nk] = w[i] ^ T(w[i - 1], i) for i = 4 Nr + 3, 4 Nr + 2, ...,
 * which hands out the round keys last first, the order the inverse cipher
 * (section 5.3, figure 12) uses them. setkey_dec computes those last Nk
 * words once, at key setup; that is still a key-sized state, and it is
 * the only schedule work not done inside the block.
 *
 * The Nk words live in a ring, w[j] in slot j mod Nk: producing w[i]
 * overwrites w[i - Nk] in its own slot and reads w[i - 1] from the slot
 * before, so the ring always holds the Nk newest words (the Nk oldest
 * when going backwards). Words are produced one at a time as AddRoundKey
 * consumes them, so AES-192, whose 4-word round keys straddle its
 * 6-word groups (round key 1 is w[4..7]: two words of the key, two
 * computed), needs no special case.
 *
 * Decryption is the straightforward inverse cipher of section 5.3
 * (InvShiftRows, InvSubBytes, AddRoundKey, InvMixColumns), not the
 * equivalent inverse cipher of 5.3.5, which would need InvMixColumns
 * applied to every round key as it is made.
 *
 * Why: 32 bytes of key state instead of 240 (AES-256), and no key setup
 * for encryption, for small-RAM targets and for keys that change every
 * block. The price is the whole key schedule again on every block (for
 * AES-128, 40 more S-box look-ups on top of the cipher's 160): slower
 * than the same code with a stored schedule would be. It is here for its
 * memory and key agility, to be read and measured, not to be fast.
 *
 * Constant time: NO. SubBytes and the key schedule's SubWord are 256-byte
 * tables indexed by secret bytes (state and key), and table look-ups leak
 * their index through the cache (Bernstein 2005); hence flags = 0. Use
 * only when asked for by name.
 *
 * Round-key area, both directions (only the first 4 Nk bytes are used; Nk
 * = Nr - 6, so the key length need not be stored):
 *
 *   byte   0      4      8              4 Nk - 4
 *        +------+------+------+  ...  +--------+
 *        |slot 0|slot 1|slot 2|       |slot Nk-1|   word w[j] in slot j mod Nk
 *        +------+------+------+  ...  +--------+
 *
 *   enc      w[0]  .. w[Nk-1]   (the cipher key, as given)
 *   dec 128  w[40] w[41] w[42] w[43]
 *   dec 192  w[48] w[49] w[50] w[51] w[46] w[47]
 *   dec 256  w[56] w[57] w[58] w[59] w[52] w[53] w[54] w[55]
 *
 * Batch: 1 block.
 */
#include "internal.h"

/* FIPS-197 figure 7: the S-box. */
static const uint8_t sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5,
    0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0,
    0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc,
    0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a,
    0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0,
    0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b,
    0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85,
    0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5,
    0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17,
    0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88,
    0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c,
    0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9,
    0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6,
    0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e,
    0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94,
    0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68,
    0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

/* FIPS-197 figure 14: the inverse S-box. */
static const uint8_t inv_sbox[256] = {
    0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38,
    0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb,
    0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87,
    0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb,
    0x54, 0x7b, 0x94, 0x32, 0xa6, 0xc2, 0x23, 0x3d,
    0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
    0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2,
    0x76, 0x5b, 0xa2, 0x49, 0x6d, 0x8b, 0xd1, 0x25,
    0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16,
    0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92,
    0x6c, 0x70, 0x48, 0x50, 0xfd, 0xed, 0xb9, 0xda,
    0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
    0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a,
    0xf7, 0xe4, 0x58, 0x05, 0xb8, 0xb3, 0x45, 0x06,
    0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02,
    0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b,
    0x3a, 0x91, 0x11, 0x41, 0x4f, 0x67, 0xdc, 0xea,
    0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
    0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85,
    0xe2, 0xf9, 0x37, 0xe8, 0x1c, 0x75, 0xdf, 0x6e,
    0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89,
    0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b,
    0xfc, 0x56, 0x3e, 0x4b, 0xc6, 0xd2, 0x79, 0x20,
    0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
    0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31,
    0xb1, 0x12, 0x10, 0x59, 0x27, 0x80, 0xec, 0x5f,
    0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d,
    0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef,
    0xa0, 0xe0, 0x3b, 0x4d, 0xae, 0x2a, 0xf5, 0xb0,
    0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
    0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26,
    0xe1, 0x69, 0x14, 0x63, 0x55, 0x21, 0x0c, 0x7d,
};

/* Section 5.2: Rcon[j] = [x^(j-1), {00}, {00}, {00}]; only the first
 * byte is stored. j = i / Nk runs from 1 to 10 (AES-128). */
static const uint8_t rcon[11] = {
    0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36,
};

/* ---------------------------------------------------------------------
 * The key schedule, one word at a time (section 5.2)
 * ------------------------------------------------------------------- */

/*
 * Nk consecutive words of the expanded key, w[j] in slot j mod Nk
 * (ring + 4 (j mod Nk)). i is the index of the next word to produce when
 * going forwards, or one past the next word to use when going backwards.
 */
struct key_window {
    uint8_t ring[32];
    unsigned nk;
    unsigned i;
};

static void window_init(struct key_window *kw, const uint8_t *state,
                        unsigned nk, unsigned i)
{
    memcpy(kw->ring, state, 4 * nk);
    kw->nk = nk;
    kw->i = i;
}

static uint8_t *window_slot(struct key_window *kw, unsigned j)
{
    return kw->ring + 4 * (j % kw->nk);
}

/*
 * One step of KeyExpansion (figure 11) in place, for i >= Nk: XORs
 * T(w[i - 1], i) into slot i mod Nk. When the slot holds w[i - Nk] it then
 * holds w[i] (forwards); when it holds w[i] it then holds w[i - Nk]
 * (backwards). Either way w[i - 1] is in the slot before.
 */
static void schedule_step(struct key_window *kw, unsigned i)
{
    const uint8_t *prev = window_slot(kw, i - 1);
    uint8_t *w = window_slot(kw, i);

    if (i % kw->nk == 0) {
        /* SubWord(RotWord(temp)) xor Rcon[i/Nk] */
        w[0] ^= sbox[prev[1]] ^ rcon[i / kw->nk];
        w[1] ^= sbox[prev[2]];
        w[2] ^= sbox[prev[3]];
        w[3] ^= sbox[prev[0]];
    } else if (kw->nk > 6 && i % kw->nk == 4) {
        /* AES-256 only: SubWord(temp) */
        for (int k = 0; k < 4; k++)
            w[k] ^= sbox[prev[k]];
    } else {
        for (int k = 0; k < 4; k++)
            w[k] ^= prev[k];
    }
}

/* Section 5.1.4: XORs the next round key, w[i .. i+3], into the state,
 * producing each word just before it is used. */
static void add_round_key_fwd(uint8_t s[16], struct key_window *kw)
{
    for (int c = 0; c < 4; c++) {
        const unsigned i = kw->i++;
        const uint8_t *w;
        if (i >= kw->nk)
            schedule_step(kw, i);
        w = window_slot(kw, i);
        for (int r = 0; r < 4; r++)
            s[r + 4 * c] ^= w[r];
    }
}

/* Section 5.3.4: AddRoundKey is its own inverse; here the round key is
 * w[i-4 .. i-1], used last word first, each word replaced by the one Nk
 * places below it as soon as it has been used. */
static void add_round_key_bwd(uint8_t s[16], struct key_window *kw)
{
    for (int c = 3; c >= 0; c--) {
        const unsigned i = --kw->i;
        const uint8_t *w = window_slot(kw, i);
        for (int r = 0; r < 4; r++)
            s[r + 4 * c] ^= w[r];
        if (i >= kw->nk)
            schedule_step(kw, i);
    }
}

/* ---------------------------------------------------------------------
 * Round functions (sections 4.2, 5.1, 5.3)
 * ------------------------------------------------------------------- */

/* Section 4.2.1: multiplication by x modulo x^8 + x^4 + x^3 + x + 1. */
static uint8_t xtime(uint8_t b)
{
    return (uint8_t)((b << 1) ^ ((b >> 7) * 0x1b));
}

/* Section 4.2.1: a * k for a constant k < 16 (every MixColumns and
 * InvMixColumns coefficient is one), as the XOR of the a * x^j, each one
 * more xtime(), for the bits j of k. */
static uint8_t gf_mul(uint8_t a, uint8_t k)
{
    const uint8_t a2 = xtime(a), a4 = xtime(a2), a8 = xtime(a4);
    return (uint8_t)((k & 1 ? a : 0) ^ (k & 2 ? a2 : 0) ^
                     (k & 4 ? a4 : 0) ^ (k & 8 ? a8 : 0));
}

/* Section 5.1.1 */
static void sub_bytes(uint8_t s[16])
{
    for (int i = 0; i < 16; i++)
        s[i] = sbox[s[i]];
}

/* Section 5.3.2 */
static void inv_sub_bytes(uint8_t s[16])
{
    for (int i = 0; i < 16; i++)
        s[i] = inv_sbox[s[i]];
}

/* Section 5.1.2: s'[r][c] = s[r][(c + r) mod 4]. */
static void shift_rows(uint8_t s[16])
{
    uint8_t t[16];
    memcpy(t, s, 16);
    for (int c = 0; c < 4; c++)
        for (int r = 1; r < 4; r++)
            s[r + 4 * c] = t[r + 4 * ((c + r) % 4)];
}

/* Section 5.3.1: s'[r][(c + r) mod 4] = s[r][c]. */
static void inv_shift_rows(uint8_t s[16])
{
    uint8_t t[16];
    memcpy(t, s, 16);
    for (int c = 0; c < 4; c++)
        for (int r = 1; r < 4; r++)
            s[r + 4 * ((c + r) % 4)] = t[r + 4 * c];
}

/* Section 5.1.3: the column times the matrix of {02} {03} {01} {01}. */
static void mix_column(uint8_t col[4])
{
    const uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
    col[0] = gf_mul(a0, 0x02) ^ gf_mul(a1, 0x03) ^ a2 ^ a3;
    col[1] = a0 ^ gf_mul(a1, 0x02) ^ gf_mul(a2, 0x03) ^ a3;
    col[2] = a0 ^ a1 ^ gf_mul(a2, 0x02) ^ gf_mul(a3, 0x03);
    col[3] = gf_mul(a0, 0x03) ^ a1 ^ a2 ^ gf_mul(a3, 0x02);
}

/* Section 5.3.3: the column times the matrix of {0e} {0b} {0d} {09}. */
static void inv_mix_column(uint8_t col[4])
{
    const uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
    col[0] = gf_mul(a0, 0x0e) ^ gf_mul(a1, 0x0b) ^ gf_mul(a2, 0x0d) ^
             gf_mul(a3, 0x09);
    col[1] = gf_mul(a0, 0x09) ^ gf_mul(a1, 0x0e) ^ gf_mul(a2, 0x0b) ^
             gf_mul(a3, 0x0d);
    col[2] = gf_mul(a0, 0x0d) ^ gf_mul(a1, 0x09) ^ gf_mul(a2, 0x0e) ^
             gf_mul(a3, 0x0b);
    col[3] = gf_mul(a0, 0x0b) ^ gf_mul(a1, 0x0d) ^ gf_mul(a2, 0x09) ^
             gf_mul(a3, 0x0e);
}

static void mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++)
        mix_column(s + 4 * c);
}

static void inv_mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++)
        inv_mix_column(s + 4 * c);
}

/* ---------------------------------------------------------------------
 * Cipher and inverse cipher (sections 5.1 and 5.3)
 * ------------------------------------------------------------------- */

/* Section 5.1, figure 5: Cipher(), the schedule run forwards from the
 * cipher key. */
static void cipher(uint8_t s[16], struct key_window *kw, const uint8_t *key,
                   unsigned nr)
{
    window_init(kw, key, nr - 6, 0);
    add_round_key_fwd(s, kw);
    for (unsigned round = 1; round < nr; round++) {
        sub_bytes(s);
        shift_rows(s);
        mix_columns(s);
        add_round_key_fwd(s, kw);
    }
    sub_bytes(s);
    shift_rows(s);
    add_round_key_fwd(s, kw);
}

/* Section 5.3, figure 12: InvCipher(), the schedule run backwards from
 * the last Nk words; 4 (Nr + 1) is one past the last word, w[4 Nr + 3]. */
static void inv_cipher(uint8_t s[16], struct key_window *kw,
                       const uint8_t *last, unsigned nr)
{
    window_init(kw, last, nr - 6, 4 * (nr + 1));
    add_round_key_bwd(s, kw);
    for (unsigned round = nr - 1; round > 0; round--) {
        inv_shift_rows(s);
        inv_sub_bytes(s);
        add_round_key_bwd(s, kw);
        inv_mix_columns(s);
    }
    inv_shift_rows(s);
    inv_sub_bytes(s);
    add_round_key_bwd(s, kw);
}

/* ---------------------------------------------------------------------
 * The engine
 * ------------------------------------------------------------------- */

/* The encryption state is the cipher key itself, w[0 .. Nk-1]. */
static void setkey_enc(void *rk, const uint8_t *key, size_t key_len)
{
    memcpy(rk, key, key_len);
}

/*
 * The decryption state is the last Nk words of the expanded key, computed
 * here once by running the schedule forwards to its end (words are made
 * and dropped one at a time; the full schedule never exists). The ring
 * then holds them in slot order, which is the layout stored.
 */
static void setkey_dec(void *rk, const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, nr = nk + 6;
    struct key_window kw;

    window_init(&kw, key, nk, 0);
    for (unsigned i = nk; i < 4 * (nr + 1); i++)
        schedule_step(&kw, i);
    memcpy(rk, kw.ring, key_len);
    aesir_wipe(&kw, sizeof(kw));
}

static void encrypt(const void *rk, unsigned nr, uint8_t *out,
                    const uint8_t *in, size_t nblocks)
{
    struct key_window kw;
    for (size_t i = 0; i < nblocks; i++) {
        uint8_t s[16];
        memcpy(s, in + 16 * i, 16);
        cipher(s, &kw, rk, nr);
        memcpy(out + 16 * i, s, 16);
    }
    aesir_wipe(&kw, sizeof(kw));
}

static void decrypt(const void *rk, unsigned nr, uint8_t *out,
                    const uint8_t *in, size_t nblocks)
{
    struct key_window kw;
    for (size_t i = 0; i < nblocks; i++) {
        uint8_t s[16];
        memcpy(s, in + 16 * i, 16);
        inv_cipher(s, &kw, rk, nr);
        memcpy(out + 16 * i, s, 16);
    }
    aesir_wipe(&kw, sizeof(kw));
}

static const struct aesir_engine engine = {
    .name = "ref-otf",
    .description = "byte-wise FIPS-197, round keys made on the fly per block "
                   "(table S-box)",
    .flags = 0,
    .batch = 1,
    .setkey_enc = setkey_enc,
    .setkey_dec = setkey_dec,
    .encrypt = encrypt,
    .decrypt = decrypt,
};

const struct aesir_engine *aesir_engine_ref_otf(void)
{
    return &engine;
}
