/*
 * vperm_ssse3.c -- Hamburg's vector-permute AES on x86 SSSE3: every
 * S-box and every byte move is a pshufb.
 *
 * Technique: M. Hamburg, "Accelerating AES with Vector Permute
 * Instructions", CHES 2009. A byte shuffle with 16 entries is a 4-bit
 * table look-up on 16 bytes at once, whose timing does not depend on the
 * indices. So the S-box is computed in the tower field GF((2^4)^2), where
 * inverting a byte takes nibble inversions and nibble sums only:
 *
 *   x = a t + b tbar (normal basis over GF(16), t^2 + t + z = 0)
 *   i = a, j = b, k = a + b               (the byte holds i | k)
 *   io = 1/(1/i + 1/(z k)) + j,  jo = 1/(1/j + 1/(z k)) + i
 *   1/x = (1/io) w1 + (1/jo) w2           (w1, w2 fixed elements)
 *
 * 1/0 is looked up as an "infinity" byte that pshufb turns into 0 (its
 * top bit is set), which makes the formulas right for every zero that
 * can occur, including AES's 1/0 = 0. The last step, 1/io and 1/jo times
 * w1, w2, then the S-box's affine map, then the basis the next round
 * wants, then 02 for MixColumns, is one table per nibble: "output
 * tables". Everything linear is folded somewhere:
 *  - the state stays in the tower basis between rounds; round keys are
 *    converted to it at key setup (only the input block is converted, by
 *    two look-ups);
 *  - the S-box's constant 0x63 goes into round keys 1..nr (MixColumns
 *    maps a constant column to itself);
 *  - MixColumns is 2a + 3b + c + d = 2a + rot1(a) + rot1(2a + rot1(a)) +
 *    rot3(a): two tables give a and 2a, three pshufbs rotate;
 *  - ShiftRows is never done: the state after round r is kept permuted
 *    by ShiftRows^r, so the rotations are conjugated (a different index
 *    vector for r mod 4), round keys are stored permuted the same way,
 *    and one pshufb at the end puts the bytes in order.
 * Decryption is the equivalent inverse cipher (FIPS-197 5.3.5); its state
 * is kept in the basis L_in A^-1 so that the inverse affine map comes
 * before the inversion, and its output tables give 09, 0b, 0d and 0e
 * times the result, combined by InvMixColumns in Horner form.
 * tools/gen_vperm_tables.py derives every table (src/engine/vperm_tables.h,
 * shared with the other vperm engines) and checks the construction by
 * simulating the whole cipher; docs/engines/vperm.md has the details.
 *
 * One encryption round, per block (12 pshufb, 1 shift):
 *
 *     s (tower basis, permuted)
 *     |-- & 0f --> k -- invz --> 1/(zk) -.
 *     |-- >>4 &0f -> i -- inv --> 1/i -- + -- inv --> + j --> io
 *     `-- i ^ k --> j -- inv --> 1/j -- + -- inv --> + i --> jo
 *                                    (1/(zk) goes into both sums)
 *     a  = enc1_io[io] ^ enc1_jo[jo]          (S-box, tower basis)
 *     a2 = enc2_io[io] ^ enc2_jo[jo]          (02 times it)
 *     t  = a2 ^ fwd[r](a)
 *     s' = t ^ fwd[r](t) ^ bwd[r](a) ^ rk[r]  (MixColumns + key)
 *
 * Code layout for porting: the cipher is written with six helpers
 * (v_table, v_shuffle, v_xor, v_and, v_shr4, v_splat) plus loads and
 * stores; a NEON, AltiVec or wasm engine replaces that block and keeps
 * the rest (and the same tables).
 *
 * Constant time: YES, on CPUs where pshufb's timing does not depend on
 * the index values (we know of no x86 where it does: on recent cores it
 * is one single-cycle uop), and given that the compiler emits no
 * branches for the C here (it has none on data). No branch and no memory
 * address depends on key or data, in the cipher or in the key schedule,
 * whose SubWord uses the same shuffle S-box. Loop counts depend on nr
 * and nblocks only. The CTR path chooses how to build counters from the
 * counter value (public, like any IV); the counter is never an index.
 *
 * Round keys: nr + 1 16-byte vectors per direction (at most 240 bytes of
 * the rk area), each in the byte order the state has where it is added:
 * after encryption round r, byte p of the state sits at sigma^r(p),
 * sigma being ShiftRows' byte selection; after decryption round r, at
 * sigma^-r(p). Encryption: L_in(K_0); L_in(K_r ^ 63) for 0 < r < nr;
 * K_nr ^ 63. Decryption: L_d(K_nr ^ 63); L_d(InvMixColumns(K_{nr-r}) ^
 * 63) for 0 < r < nr; K_0.
 *
 * Batch: 4 blocks interleaved in ECB, CTR and CBC decryption (the 12
 * look-ups of a round form a dependent chain; four independent chains
 * keep the shuffle ports busy); 2 and 1 for the tail. CBC encryption is
 * serial, one block at a time.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#include <emmintrin.h>
#include <tmmintrin.h>

#include "vperm_tables.h"

#define VP_TARGET __attribute__((target("ssse3")))
#define VP_INLINE static inline __attribute__((always_inline)) VP_TARGET

/* ---------------------------------------------------------------------
 * The ISA layer: everything SSSE3-specific about the cipher.
 * ------------------------------------------------------------------- */

typedef __m128i vec;

/* A 16-byte table (16-byte aligned). */
VP_INLINE vec v_table(const uint8_t t[16])
{
    return _mm_load_si128((const vec *)(const void *)t);
}

VP_INLINE vec v_load(const uint8_t *p)
{
    return _mm_loadu_si128((const vec *)(const void *)p);
}

VP_INLINE void v_store(uint8_t *p, vec v)
{
    _mm_storeu_si128((vec *)(void *)p, v);
}

/* out[q] = tab[idx[q] & 15], or 0 when idx[q] has its top bit set. */
VP_INLINE vec v_shuffle(vec tab, vec idx)
{
    return _mm_shuffle_epi8(tab, idx);
}

VP_INLINE vec v_xor(vec a, vec b)
{
    return _mm_xor_si128(a, b);
}

VP_INLINE vec v_and(vec a, vec b)
{
    return _mm_and_si128(a, b);
}

/* Shift right by 4; bits may cross bytes (x86 has no byte shift), so
 * callers mask the result. */
VP_INLINE vec v_shr4(vec a)
{
    return _mm_srli_epi16(a, 4);
}

VP_INLINE vec v_splat(uint8_t b)
{
    return _mm_set1_epi8((char)b);
}

/* ---------------------------------------------------------------------
 * The cipher, in terms of the helpers above.
 * ------------------------------------------------------------------- */

VP_INLINE vec lo_nibbles(vec x)
{
    return v_and(x, v_splat(0x0f));
}

VP_INLINE vec hi_nibbles(vec x)
{
    return v_and(v_shr4(x), v_splat(0x0f));
}

/* A GF(2)-linear map of every byte: the XOR of its images of the two
 * nibbles. */
VP_INLINE vec linear(vec x, const uint8_t lo[16], const uint8_t hi[16])
{
    return v_xor(v_shuffle(v_table(lo), lo_nibbles(x)),
                 v_shuffle(v_table(hi), hi_nibbles(x)));
}

/* The tower-field inversion up to its last step: io and jo, whose
 * inverses are the two halves of 1/x. 5 look-ups. */
VP_INLINE void invert(vec x, vec *io, vec *jo)
{
    const vec inv = v_table(vp_inv);
    const vec k = lo_nibbles(x), i = hi_nibbles(x), j = v_xor(i, k);
    const vec zk = v_shuffle(v_table(vp_invz), k); /* 1/(z k) */

    *io = v_xor(v_shuffle(inv, v_xor(v_shuffle(inv, i), zk)), j);
    *jo = v_xor(v_shuffle(inv, v_xor(v_shuffle(inv, j), zk)), i);
}

/* The last step through one pair of output tables: L(m / x) for the
 * linear map L and multiplier m the tables were built for. */
VP_INLINE vec output(vec io, vec jo, const uint8_t tio[16],
                     const uint8_t tjo[16])
{
    return v_xor(v_shuffle(v_table(tio), io), v_shuffle(v_table(tjo), jo));
}

/* Encrypts nb blocks in s (nb a constant after inlining: the loops over b
 * are unrolled and the blocks' dependency chains interleave). */
VP_INLINE void enc_blocks(const vec *rk, unsigned nr, vec *s, unsigned nb)
{
    for (unsigned b = 0; b < nb; b++)
        s[b] = v_xor(linear(s[b], vp_in_lo, vp_in_hi), rk[0]);
    for (unsigned r = 1; r < nr; r++) {
        const vec fwd = v_table(vp_fwd[r & 3]);
        const vec bwd = v_table(vp_bwd[r & 3]);
        for (unsigned b = 0; b < nb; b++) {
            vec io, jo, a, a2, t;
            invert(s[b], &io, &jo);
            a = output(io, jo, vp_enc1_io, vp_enc1_jo);
            a2 = output(io, jo, vp_enc2_io, vp_enc2_jo);
            t = v_xor(a2, v_shuffle(a, fwd));
            s[b] = v_xor(v_xor(t, v_shuffle(t, fwd)),
                         v_xor(v_shuffle(a, bwd), rk[r]));
        }
    }
    for (unsigned b = 0; b < nb; b++) {
        vec io, jo;
        invert(s[b], &io, &jo);
        s[b] = v_shuffle(v_xor(output(io, jo, vp_encl_io, vp_encl_jo), rk[nr]),
                         v_table(vp_sr[nr & 3]));
    }
}

/* Decrypts nb blocks: InvMixColumns 0e a + 0b b + 0d c + 09 d as
 * ((09 a) rot + 0d a) rot + 0b a) rot + 0e a, rot the row rotation. */
VP_INLINE void dec_blocks(const vec *rk, unsigned nr, vec *s, unsigned nb)
{
    for (unsigned b = 0; b < nb; b++)
        s[b] = v_xor(linear(s[b], vp_din_lo, vp_din_hi), rk[0]);
    for (unsigned r = 1; r < nr; r++) {
        const vec rot = v_table(vp_fwd[(0u - r) & 3]);
        for (unsigned b = 0; b < nb; b++) {
            vec io, jo, acc;
            invert(s[b], &io, &jo);
            acc = output(io, jo, vp_dec9_io, vp_dec9_jo);
            acc = v_xor(v_shuffle(acc, rot),
                        output(io, jo, vp_dec13_io, vp_dec13_jo));
            acc = v_xor(v_shuffle(acc, rot),
                        output(io, jo, vp_dec11_io, vp_dec11_jo));
            acc = v_xor(v_shuffle(acc, rot),
                        output(io, jo, vp_dec14_io, vp_dec14_jo));
            s[b] = v_xor(acc, rk[r]);
        }
    }
    for (unsigned b = 0; b < nb; b++) {
        vec io, jo;
        invert(s[b], &io, &jo);
        s[b] = v_shuffle(v_xor(output(io, jo, vp_decl_io, vp_decl_jo), rk[nr]),
                         v_table(vp_sr[(0u - nr) & 3]));
    }
}

/* Out-of-line versions for 4, 2 and 1 blocks, shared by the modes. The
 * state is copied to locals so that the compiler keeps it in registers
 * (through the pointer it might alias the round keys). */
#define GROUP_FN(name, blocks, nb)                                             \
    VP_TARGET static void name(const vec *rk, unsigned nr, vec *s)             \
    {                                                                          \
        vec x[nb];                                                             \
        for (unsigned b = 0; b < nb; b++)                                      \
            x[b] = s[b];                                                       \
        blocks(rk, nr, x, nb);                                                 \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = x[b];                                                       \
    }

GROUP_FN(enc4, enc_blocks, 4)
GROUP_FN(enc2, enc_blocks, 2)
GROUP_FN(enc1, enc_blocks, 1)
GROUP_FN(dec4, dec_blocks, 4)
GROUP_FN(dec2, dec_blocks, 2)
GROUP_FN(dec1, dec_blocks, 1)

typedef void (*group_fn)(const vec *rk, unsigned nr, vec *s);

/* ---------------------------------------------------------------------
 * Key schedule: FIPS-197 5.2 on 32-bit words, SubWord by the shuffle
 * S-box, then each round key converted to the engine's layout.
 * ------------------------------------------------------------------- */

static inline uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* Times 02 in each byte, without tables or branches. */
static inline uint32_t xtime4(uint32_t x)
{
    uint32_t hi = (x >> 7) & 0x01010101u;
    return ((x & 0x7f7f7f7fu) << 1) ^ (hi << 4) ^ (hi << 3) ^ (hi << 1) ^ hi;
}

/* Columns are little-endian words: row r at bits 8r, so rotr32(x, 8)
 * puts row r + 1 in row r. MixColumns: xtime(a + b) + b + c + d. */
static inline uint32_t mix_column(uint32_t x)
{
    uint32_t x1 = rotr32(x, 8);
    return xtime4(x ^ x1) ^ x1 ^ rotr32(x, 16) ^ rotr32(x, 24);
}

/* InvMixColumns = MixColumns times the circulant (05 00 04 00) (Daemen
 * and Rijmen, "The Design of Rijndael", 4.1.3). */
static inline uint32_t inv_mix_column(uint32_t x)
{
    return mix_column(x ^ xtime4(xtime4(x ^ rotr32(x, 16))));
}

/* S(x) on the four bytes of w. */
VP_TARGET static uint32_t sub_word(uint32_t w)
{
    vec io, jo;
    invert(linear(_mm_cvtsi32_si128((int)w), vp_in_lo, vp_in_hi), &io, &jo);
    return (uint32_t)_mm_cvtsi128_si32(
        v_xor(output(io, jo, vp_encl_io, vp_encl_jo), v_splat(0x63)));
}

/* w: 4 (nr + 1) words, word i = bytes 4i .. 4i+3 as a little-endian
 * integer. Branches depend on i and the key length only. */
static void expand_key(uint32_t *w, const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, total = 4 * (nk + 7);
    uint32_t rcon = 1;

    for (unsigned i = 0; i < nk; i++)
        w[i] = load_le32(key + 4 * i);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word(rotr32(t, 8)) ^ rcon;
            rcon = xtime4(rcon);
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
}

VP_INLINE vec load_words(const uint32_t *w)
{
    return _mm_loadu_si128((const vec *)(const void *)w);
}

VP_TARGET static void setkey_enc(void *rkv, const uint8_t *key, size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    const vec c63 = v_splat(0x63);
    vec *rk = rkv;
    uint32_t w[60];

    expand_key(w, key, key_len);
    rk[0] = linear(load_words(w), vp_in_lo, vp_in_hi);
    for (unsigned r = 1; r < nr; r++)
        rk[r] = v_shuffle(
            linear(v_xor(load_words(w + 4 * r), c63), vp_in_lo, vp_in_hi),
            v_table(vp_sr[(0u - r) & 3]));
    rk[nr] = v_shuffle(v_xor(load_words(w + 4 * nr), c63),
                       v_table(vp_sr[(0u - nr) & 3]));
    aesir_wipe(w, sizeof(w));
}

VP_TARGET static void setkey_dec(void *rkv, const uint8_t *key, size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    const vec c63 = v_splat(0x63);
    vec *rk = rkv;
    uint32_t w[60], k[4];

    expand_key(w, key, key_len);
    rk[0] = linear(v_xor(load_words(w + 4 * nr), c63), vp_din_lo, vp_din_hi);
    for (unsigned r = 1; r < nr; r++) {
        for (unsigned c = 0; c < 4; c++)
            k[c] = inv_mix_column(w[4 * (nr - r) + c]);
        rk[r] =
            v_shuffle(linear(v_xor(load_words(k), c63), vp_din_lo, vp_din_hi),
                      v_table(vp_sr[r & 3]));
    }
    rk[nr] = v_shuffle(load_words(w), v_table(vp_sr[nr & 3]));
    aesir_wipe(w, sizeof(w));
    aesir_wipe(k, sizeof(k));
}

/* ---------------------------------------------------------------------
 * Bulk ECB and the mode fast paths, in groups of 4 blocks, then 2 and 1
 * for the tail. Each group is an inline function called with a constant
 * block count, so that its loops unroll (a loop of a variable number of
 * stores would become a call to memcpy), and it loads all its input
 * before it stores, so in == out works.
 * ------------------------------------------------------------------- */

VP_INLINE void ecb_group(const vec *rk, unsigned nr, uint8_t *out,
                         const uint8_t *in, vec *s, unsigned nb, group_fn f)
{
    for (unsigned b = 0; b < nb; b++)
        s[b] = v_load(in + 16 * b);
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        v_store(out + 16 * b, s[b]);
}

VP_INLINE void ecb(const vec *rk, unsigned nr, uint8_t *out, const uint8_t *in,
                   size_t n, group_fn f4, group_fn f2, group_fn f1)
{
    vec s[4];

    for (; n >= 4; n -= 4, in += 64, out += 64)
        ecb_group(rk, nr, out, in, s, 4, f4);
    if (n >= 2) {
        ecb_group(rk, nr, out, in, s, 2, f2);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1)
        ecb_group(rk, nr, out, in, s, 1, f1);
}

VP_TARGET static void encrypt(const void *rk, unsigned nr, uint8_t *out,
                              const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, enc4, enc2, enc1);
}

VP_TARGET static void decrypt(const void *rk, unsigned nr, uint8_t *out,
                              const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, dec4, dec2, dec1);
}

/*
 * CTR. When the low 32 bits of the counter cannot carry during the call,
 * counter blocks are made with a 32-bit vector add: the block is kept
 * with its last four bytes reversed (swap), so that word 3 is the low 32
 * bits of the counter as a little-endian integer, and one pshufb restores
 * the byte order. Otherwise every block is made from the 128-bit counter
 * (hi, lo), incremented with a carry into the high 64 bits.
 */
struct ctr_state {
    vec swap, c;     /* fast: the counter block, last word reversed */
    uint64_t hi, lo; /* otherwise: the counter as two integers */
    int fast;
};

VP_INLINE void ctr_group(const vec *rk, unsigned nr, struct ctr_state *st,
                         uint8_t *out, const uint8_t *in, vec *s, unsigned nb,
                         group_fn f)
{
    if (st->fast) {
        for (unsigned b = 0; b < nb; b++)
            s[b] = v_shuffle(
                _mm_add_epi32(st->c, _mm_set_epi32((int)b, 0, 0, 0)), st->swap);
        st->c = _mm_add_epi32(st->c, _mm_set_epi32((int)nb, 0, 0, 0));
    } else {
        for (unsigned b = 0; b < nb; b++) {
            s[b] = _mm_set_epi64x((long long)__builtin_bswap64(st->lo),
                                  (long long)__builtin_bswap64(st->hi));
            st->lo++;
            st->hi += st->lo == 0;
        }
    }
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        v_store(out + 16 * b, v_xor(v_load(in + 16 * b), s[b]));
}

VP_TARGET static void ctr_crypt(const void *rkv, unsigned nr, uint8_t ctr[16],
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vec *rk = rkv;
    struct ctr_state st;
    size_t n = nblocks;
    vec s[4];

    st.swap =
        _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12);
    st.c = v_shuffle(v_load(ctr), st.swap);
    st.hi = aesir_load_be64(ctr);
    st.lo = aesir_load_be64(ctr + 8);
    /* Counters lo32 .. lo32 + nblocks - 1 all fit in 32 bits. */
    st.fast = (uint64_t)n <= ((uint64_t)1 << 32) - (uint32_t)st.lo;

    for (; n >= 4; n -= 4, in += 64, out += 64)
        ctr_group(rk, nr, &st, out, in, s, 4, enc4);
    if (n >= 2) {
        ctr_group(rk, nr, &st, out, in, s, 2, enc2);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1)
        ctr_group(rk, nr, &st, out, in, s, 1, enc1);
    aesir_ctr_add(ctr, nblocks);
    aesir_wipe(s, sizeof(s)); /* keystream */
}

VP_TARGET static void cbc_enc(const void *rkv, unsigned nr, uint8_t iv[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vec *rk = rkv;
    vec x = v_load(iv);

    for (size_t i = 0; i < nblocks; i++) {
        x = v_xor(x, v_load(in + 16 * i));
        enc_blocks(rk, nr, &x, 1);
        v_store(out + 16 * i, x);
    }
    v_store(iv, x);
}

/* prev: the ciphertext block before the group (the IV at first). */
VP_INLINE void cbc_dec_group(const vec *rk, unsigned nr, vec *prev,
                             uint8_t *out, const uint8_t *in, vec *s,
                             unsigned nb, group_fn f)
{
    vec c[4];

    for (unsigned b = 0; b < nb; b++)
        s[b] = c[b] = v_load(in + 16 * b);
    f(rk, nr, s);
    v_store(out, v_xor(s[0], *prev));
    for (unsigned b = 1; b < nb; b++)
        v_store(out + 16 * b, v_xor(s[b], c[b - 1]));
    *prev = c[nb - 1];
}

VP_TARGET static void cbc_dec(const void *rkv, unsigned nr, uint8_t iv[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vec *rk = rkv;
    vec prev = v_load(iv), s[4];
    size_t n = nblocks;

    for (; n >= 4; n -= 4, in += 64, out += 64)
        cbc_dec_group(rk, nr, &prev, out, in, s, 4, dec4);
    if (n >= 2) {
        cbc_dec_group(rk, nr, &prev, out, in, s, 2, dec2);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1)
        cbc_dec_group(rk, nr, &prev, out, in, s, 1, dec1);
    v_store(iv, prev);
    aesir_wipe(s, sizeof(s)); /* decrypted blocks before the XOR */
}

static const struct aesir_engine engine = {
    .name = "vperm-ssse3",
    .description = "vector-permute AES (Hamburg), GF((2^4)^2) S-box by "
                   "SSSE3 pshufb, 4 blocks interleaved",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = setkey_enc,
    .setkey_dec = setkey_dec,
    .encrypt = encrypt,
    .decrypt = decrypt,
    .ctr = ctr_crypt,
    .cbc_enc = cbc_enc,
    .cbc_dec = cbc_dec,
};

const struct aesir_engine *aesir_engine_vperm_ssse3(void)
{
    return (aesir_cpu_features() & AESIR_CPU_SSSE3) ? &engine : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_vperm_ssse3(void)
{
    return NULL;
}

#endif
