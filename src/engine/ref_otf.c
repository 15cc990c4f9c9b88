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
 * (section 5.3, figure 12) uses them. ref_otf_setkey_dec computes those last Nk
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
#include "stack_wipe.h"

/* The S-box and its inverse (FIPS-197 figures 7 and 14): src/core/sbox.c. */
#define sbox aesir_sbox
#define inv_sbox aesir_inv_sbox

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
static void ref_otf_schedule_step(struct key_window *kw, unsigned i)
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
            ref_otf_schedule_step(kw, i);
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
            ref_otf_schedule_step(kw, i);
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
    return (uint8_t)((k & 1 ? a : 0) ^ (k & 2 ? a2 : 0) ^ (k & 4 ? a4 : 0) ^
                     (k & 8 ? a8 : 0));
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
STACK_WIPE_BODY static void
ref_otf_setkey_enc_body(void *rk, const uint8_t *key, size_t key_len)
{
    memcpy(rk, key, key_len);
}

/*
 * The decryption state is the last Nk words of the expanded key, computed
 * here once by running the schedule forwards to its end (words are made
 * and dropped one at a time; the full schedule never exists). The ring
 * then holds them in slot order, which is the layout stored.
 */
STACK_WIPE_BODY static void
ref_otf_setkey_dec_body(void *rk, const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, nr = nk + 6;
    struct key_window kw;

    window_init(&kw, key, nk, 0);
    for (unsigned i = nk; i < 4 * (nr + 1); i++)
        ref_otf_schedule_step(&kw, i);
    memcpy(rk, kw.ring, key_len);
    aesir_wipe(&kw, sizeof(kw));
}

STACK_WIPE_BODY static void ref_otf_encrypt_body(const void *rk, unsigned nr,
                                                 uint8_t *out,
                                                 const uint8_t *in,
                                                 size_t nblocks)
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

STACK_WIPE_BODY static void ref_otf_decrypt_body(const void *rk, unsigned nr,
                                                 uint8_t *out,
                                                 const uint8_t *in,
                                                 size_t nblocks)
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

/*
 * The entry points: each body, then the stack it used wiped
 * (stack_wipe.h). The key window is wiped by name above; the state
 * block, the output block it ends as (plaintext, or a mode's keystream)
 * and whatever the compiler spills are not. The bodies reach 352 bytes
 * deep.
 */
#define OTF_STACK 640
STACK_WIPED_SETKEY(ref_otf_setkey_enc, ref_otf_setkey_enc_body, OTF_STACK)
STACK_WIPED_SETKEY(ref_otf_setkey_dec, ref_otf_setkey_dec_body, OTF_STACK)
STACK_WIPED_BLOCKS(ref_otf_encrypt, ref_otf_encrypt_body, OTF_STACK)
STACK_WIPED_BLOCKS(ref_otf_decrypt, ref_otf_decrypt_body, OTF_STACK)

static const struct aesir_engine engine = {
    .name = "ref-otf",
    .description = "byte-wise FIPS-197, round keys made on the fly per block "
                   "(table S-box)",
    .flags = 0,
    .batch = 1,
    .setkey_enc = ref_otf_setkey_enc,
    .setkey_dec = ref_otf_setkey_dec,
    .encrypt = ref_otf_encrypt,
    .decrypt = ref_otf_decrypt,
};

const struct aesir_engine *aesir_engine_ref_otf(void)
{
    return &engine;
}
