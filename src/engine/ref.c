/*
 * ref.c -- the reference engine: AES exactly as FIPS-197 writes it.
 *
 * State is the 4x4 byte matrix of FIPS-197 section 3.4, stored column by
 * column as the 16 input bytes (state[r + 4c] = in[r + 4c]). Each round
 * function is a small function named after the standard's transformation
 * (section 5.1: SubBytes, ShiftRows, MixColumns, AddRoundKey; section 5.3:
 * their inverses), and the key expansion is section 5.2 word for word.
 * Decryption uses the equivalent inverse cipher of section 5.3.5: the same
 * sequence of steps as encryption, with InvMixColumns applied to the
 * middle round keys at key setup, which is the structure the table and
 * vector engines use for decryption too.
 *
 * This engine is the oracle every other engine is tested against; it is
 * written to be read next to the standard, not to be fast.
 *
 * Constant time: NO. SubBytes is a 256-byte table indexed by secret
 * bytes, and table look-ups leak their index through the cache
 * (Bernstein 2005). Use only when asked for by name.
 *
 * Round keys: (nr + 1) * 16 bytes, round key r at rk + 16 r, in the byte
 * order of the state.
 * Batch: 1 block.
 */
#include "internal.h"
#include "stack_wipe.h"

/* The S-box and its inverse (FIPS-197 figures 7 and 14): src/core/sbox.c. */
#define sbox aesir_sbox
#define inv_sbox aesir_inv_sbox

/* Section 4.2.1: multiplication by x in GF(2^8) mod x^8+x^4+x^3+x+1. */
static uint8_t xtime(uint8_t b)
{
    return (uint8_t)((b << 1) ^ (0x1b & -(b >> 7)));
}

/* Section 4.2: multiplication in GF(2^8) by repeated xtime. b is always
 * one of the public MixColumns coefficients, so looping on its bits only
 * as far as its top bit depends on nothing secret. */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (; b != 0; b >>= 1) {
        r ^= (uint8_t)(a & -(b & 1));
        a = xtime(a);
    }
    return r;
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

/* Section 5.1.2: row r is rotated left by r columns. */
static void shift_rows(uint8_t s[16])
{
    uint8_t t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
    memcpy(s, t, 16);
}

/* Section 5.3.1: row r is rotated right by r columns. */
static void inv_shift_rows(uint8_t s[16])
{
    uint8_t t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[r + 4 * ((c + r) % 4)] = s[r + 4 * c];
    memcpy(s, t, 16);
}

/* Section 5.1.3 / 5.3.3: each column times a(x) = {03}x^3+{01}x^2+{01}x+
 * {02}, or a^-1(x) = {0b}x^3+{0d}x^2+{09}x+{0e}, with coefficients m. */
static void mix_column(uint8_t col[4], const uint8_t m[4])
{
    uint8_t t[4];
    for (int r = 0; r < 4; r++)
        t[r] = gf_mul(col[0], m[(4 - r) % 4]) ^ gf_mul(col[1], m[(5 - r) % 4]) ^
               gf_mul(col[2], m[(6 - r) % 4]) ^ gf_mul(col[3], m[(7 - r) % 4]);
    memcpy(col, t, 4);
}

static const uint8_t mix_coeffs[4] = {0x02, 0x03, 0x01, 0x01};
static const uint8_t inv_mix_coeffs[4] = {0x0e, 0x0b, 0x0d, 0x09};

static void mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++)
        mix_column(s + 4 * c, mix_coeffs);
}

static void inv_mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++)
        mix_column(s + 4 * c, inv_mix_coeffs);
}

/* Section 5.1.4 */
static void add_round_key(uint8_t s[16], const uint8_t *k)
{
    for (int i = 0; i < 16; i++)
        s[i] ^= k[i];
}

/* Section 5.2: KeyExpansion into Nb (Nr + 1) = 4 (Nr + 1) words. */
static void ref_key_expansion(uint8_t *w, const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, nr = nk + 6;
    uint8_t rcon = 0x01;

    memcpy(w, key, key_len);
    for (unsigned i = nk; i < 4 * (nr + 1); i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            /* RotWord, SubWord, then Rcon[i/Nk] = {02}^(i/Nk - 1). */
            uint8_t t0 = t[0];
            t[0] = sbox[t[1]] ^ rcon;
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = sbox[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
}

STACK_WIPE_BODY static void ref_setkey_enc_body(void *rk, const uint8_t *key,
                                                size_t key_len)
{
    ref_key_expansion(rk, key, key_len);
}

/* Section 5.3.5: the equivalent inverse cipher's schedule dw: round keys
 * in reverse order, InvMixColumns applied to rounds 1 .. Nr-1. */
STACK_WIPE_BODY static void ref_setkey_dec_body(void *rk, const uint8_t *key,
                                                size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    uint8_t w[16 * 15];
    uint8_t *dw = rk;

    ref_key_expansion(w, key, key_len);
    for (unsigned r = 0; r <= nr; r++) {
        memcpy(dw + 16 * r, w + 16 * (nr - r), 16);
        if (r != 0 && r != nr)
            inv_mix_columns(dw + 16 * r);
    }
    aesir_wipe(w, sizeof(w));
}

/* Section 5.1, figure 5: Cipher(). */
static void cipher(uint8_t s[16], const uint8_t *w, unsigned nr)
{
    add_round_key(s, w);
    for (unsigned r = 1; r < nr; r++) {
        sub_bytes(s);
        shift_rows(s);
        mix_columns(s);
        add_round_key(s, w + 16 * r);
    }
    sub_bytes(s);
    shift_rows(s);
    add_round_key(s, w + 16 * nr);
}

/* Section 5.3.5, figure 15: EqInvCipher(). */
static void eq_inv_cipher(uint8_t s[16], const uint8_t *dw, unsigned nr)
{
    add_round_key(s, dw);
    for (unsigned r = 1; r < nr; r++) {
        inv_sub_bytes(s);
        inv_shift_rows(s);
        inv_mix_columns(s);
        add_round_key(s, dw + 16 * r);
    }
    inv_sub_bytes(s);
    inv_shift_rows(s);
    add_round_key(s, dw + 16 * nr);
}

STACK_WIPE_BODY static void ref_encrypt_body(const void *rk, unsigned nr,
                                             uint8_t *out, const uint8_t *in,
                                             size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++) {
        uint8_t s[16];
        memcpy(s, in + 16 * i, 16);
        cipher(s, rk, nr);
        memcpy(out + 16 * i, s, 16);
    }
}

STACK_WIPE_BODY static void ref_decrypt_body(const void *rk, unsigned nr,
                                             uint8_t *out, const uint8_t *in,
                                             size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++) {
        uint8_t s[16];
        memcpy(s, in + 16 * i, 16);
        eq_inv_cipher(s, rk, nr);
        memcpy(out + 16 * i, s, 16);
    }
}

/*
 * The entry points wipe the stack their bodies used (stack_wipe.h): gcc
 * vectorises the byte loops and parks the state, plaintext and round
 * keys in stack slots to take bytes out of them. The bodies reach 552
 * bytes deep (stack_wipe.h says how that is measured and what is added).
 */
#define REF_STACK 832
STACK_WIPED_SETKEY(ref_setkey_enc, ref_setkey_enc_body, REF_STACK)
STACK_WIPED_SETKEY(ref_setkey_dec, ref_setkey_dec_body, REF_STACK)
STACK_WIPED_BLOCKS(ref_encrypt, ref_encrypt_body, REF_STACK)
STACK_WIPED_BLOCKS(ref_decrypt, ref_decrypt_body, REF_STACK)

static const struct aesir_engine engine = {
    .name = "ref",
    .description = "byte-wise FIPS-197, the test oracle (table S-box)",
    .flags = 0,
    .batch = 1,
    .setkey_enc = ref_setkey_enc,
    .setkey_dec = ref_setkey_dec,
    .encrypt = ref_encrypt,
    .decrypt = ref_decrypt,
};

const struct aesir_engine *aesir_engine_ref(void)
{
    return &engine;
}
