/*
 * vperm_core.h -- the ISA-neutral body of Hamburg's vector-permute AES,
 * included by each vperm-* engine (vperm_ssse3.c, vperm_avx2.c,
 * vperm_neon.c, vperm_altivec.c, vperm_wasm.c) after it has included
 * engine.h (with its ENGINE_ISA, if any: the code here is ENGINE_FN and
 * ENGINE_INLINE) and defined its ISA layer:
 *
 *   VP_NAME(x)                  the engine's name for function x
 *                               (vperm_ssse3_##x, ...)
 *   VP_CORE_BULK                0 to leave out the bulk paths (below);
 *                               1 if not defined
 *   vec                         a 16-byte vector type
 *   v_table(t)                  load a 16-byte aligned table
 *   v_load(p), v_store(p, v)    unaligned 16-byte load and store
 *   v_shuffle(tab, idx)         out[q] = tab[idx[q] & 15], or 0 when
 *                               idx[q] is VPERM_INF ^ n (n < 16)
 *   v_xor, v_and                bitwise
 *   v_shr4(v)                   shift right by 4 (bits may cross bytes:
 *                               callers mask)
 *   v_splat(b)                  b in every byte
 *   v_word_in(w), v_word_out(v) a 32-bit word to and from bytes 0..3,
 *                               little-endian (S-box in the key schedule)
 *   v_load_words(w)             four words as a round key, each
 *                               little-endian in block byte order
 *   v_counter(hi, lo)           the 128-bit big-endian block hi:lo
 *
 * The last four may be the memory-based vp_mem_* versions defined below
 * (#define v_counter vp_mem_counter before the include).
 *
 * Vector lanes are only ever touched through these, in memory byte order,
 * so the body is the same on little- and big-endian machines. The
 * technique, the tables and the constant-time argument are described in
 * vperm_ssse3.c's header and docs/engines/vperm.md; the tables come from
 * vperm_tables.h (tools/gen_vperm_tables.py).
 *
 * It defines the engine's static functions VP_NAME(setkey_enc),
 * VP_NAME(setkey_dec) and, unless VP_CORE_BULK is 0, VP_NAME(encrypt),
 * VP_NAME(decrypt), VP_NAME(ctr), VP_NAME(cbc_enc) and VP_NAME(cbc_dec);
 * the including file builds its struct aesir_engine from them. With
 * VP_CORE_BULK 0 (vperm_avx2.c, which has bulk paths of its own) it
 * defines the key setup and the one-block functions VP_NAME(enc1) and
 * VP_NAME(dec1) only.
 */
#ifndef AESIR_VPERM_CORE_H
#define AESIR_VPERM_CORE_H

#include "stack_wipe.h"
#include "vperm_tables.h"

#ifndef VP_CORE_BULK
#define VP_CORE_BULK 1
#endif

/* ---------------------------------------------------------------------
 * Scalar <-> vector moves through memory, for ISA layers without a
 * cheaper way (big-endian AltiVec): words are little-endian in block byte
 * order (word c of a round key is bytes 4c .. 4c+3), counters big-endian.
 * ------------------------------------------------------------------- */

static inline void vp_store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

ENGINE_INLINE vec vp_mem_load_words(const uint32_t *w)
{
    _Alignas(16) uint8_t b[16];
    vec v;
    for (unsigned c = 0; c < 4; c++)
        vp_store_le32(b + 4 * c, w[c]);
    v = v_load(b);
    aesir_wipe(b, sizeof(b));
    return v;
}

ENGINE_INLINE vec vp_mem_word_in(uint32_t w)
{
    const uint32_t ws[4] = {w, 0, 0, 0};
    return vp_mem_load_words(ws);
}

ENGINE_INLINE uint32_t vp_mem_word_out(vec v)
{
    _Alignas(16) uint8_t b[16];
    uint32_t w;
    v_store(b, v);
    w = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
        ((uint32_t)b[3] << 24);
    aesir_wipe(b, sizeof(b));
    return w;
}

ENGINE_INLINE vec vp_mem_counter(uint64_t hi, uint64_t lo)
{
    _Alignas(16) uint8_t b[16];
    aesir_store_be64(b, hi);
    aesir_store_be64(b + 8, lo);
    return v_load(b);
}

/* ---------------------------------------------------------------------
 * The cipher, in terms of the helpers above.
 * ------------------------------------------------------------------- */

ENGINE_INLINE vec lo_nibbles(vec x)
{
    return v_and(x, v_splat(0x0f));
}

ENGINE_INLINE vec hi_nibbles(vec x)
{
    return v_and(v_shr4(x), v_splat(0x0f));
}

/* A GF(2)-linear map of every byte: the XOR of its images of the two
 * nibbles. */
ENGINE_INLINE vec linear(vec x, const uint8_t lo[16], const uint8_t hi[16])
{
    return v_xor(v_shuffle(v_table(lo), lo_nibbles(x)),
                 v_shuffle(v_table(hi), hi_nibbles(x)));
}

/* The tower-field inversion up to its last step: io and jo, whose
 * inverses are the two halves of 1/x. 5 look-ups. */
ENGINE_INLINE void invert(vec x, vec *io, vec *jo)
{
    const vec inv = v_table(vp_inv);
    const vec k = lo_nibbles(x), i = hi_nibbles(x), j = v_xor(i, k);
    const vec zk = v_shuffle(v_table(vp_invz), k); /* 1/(z k) */

    *io = v_xor(v_shuffle(inv, v_xor(v_shuffle(inv, i), zk)), j);
    *jo = v_xor(v_shuffle(inv, v_xor(v_shuffle(inv, j), zk)), i);
}

/* The last step through one pair of output tables: L(m / x) for the
 * linear map L and multiplier m the tables were built for. */
ENGINE_INLINE vec output(vec io, vec jo, const uint8_t tio[16],
                         const uint8_t tjo[16])
{
    return v_xor(v_shuffle(v_table(tio), io), v_shuffle(v_table(tjo), jo));
}

/* Encrypts nb blocks in s (nb a constant after inlining: the loops over b
 * are unrolled and the blocks' dependency chains interleave). */
ENGINE_INLINE void enc_blocks(const vec *rk, unsigned nr, vec *s, unsigned nb)
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
ENGINE_INLINE void dec_blocks(const vec *rk, unsigned nr, vec *s, unsigned nb)
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
    ENGINE_FN void name(const vec *rk, unsigned nr, vec *s)                    \
    {                                                                          \
        vec x[nb];                                                             \
        for (unsigned b = 0; b < nb; b++)                                      \
            x[b] = s[b];                                                       \
        blocks(rk, nr, x, nb);                                                 \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = x[b];                                                       \
    }

#if VP_CORE_BULK
GROUP_FN(VP_NAME(enc4), enc_blocks, 4)
GROUP_FN(VP_NAME(enc2), enc_blocks, 2)
#endif
GROUP_FN(VP_NAME(enc1), enc_blocks, 1)
#if VP_CORE_BULK
GROUP_FN(VP_NAME(dec4), dec_blocks, 4)
GROUP_FN(VP_NAME(dec2), dec_blocks, 2)
#endif
GROUP_FN(VP_NAME(dec1), dec_blocks, 1)

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
ENGINE_FN uint32_t VP_NAME(sub_word)(uint32_t w)
{
    vec io, jo;
    invert(linear(v_word_in(w), vp_in_lo, vp_in_hi), &io, &jo);
    return v_word_out(
        v_xor(output(io, jo, vp_encl_io, vp_encl_jo), v_splat(0x63)));
}

/* w: 4 (nr + 1) words, word i = bytes 4i .. 4i+3 as a little-endian
 * integer. Branches depend on i and the key length only. */
static void VP_NAME(expand_key)(uint32_t *w, const uint8_t *key, size_t key_len)
{
    const unsigned nk = (unsigned)key_len / 4, total = 4 * (nk + 7);
    uint32_t rcon = 1;

    for (unsigned i = 0; i < nk; i++)
        w[i] = load_le32(key + 4 * i);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = VP_NAME(sub_word)(rotr32(t, 8)) ^ rcon;
            rcon = xtime4(rcon);
        } else if (nk > 6 && i % nk == 4) {
            t = VP_NAME(sub_word)(t);
        }
        w[i] = w[i - nk] ^ t;
    }
}

STACK_WIPE_BODY ENGINE_FN void
VP_NAME(setkey_enc_body)(void *rkv, const uint8_t *key, size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    const vec c63 = v_splat(0x63);
    vec *rk = rkv;
    uint32_t w[60];

    VP_NAME(expand_key)(w, key, key_len);
    rk[0] = linear(v_load_words(w), vp_in_lo, vp_in_hi);
    for (unsigned r = 1; r < nr; r++)
        rk[r] = v_shuffle(
            linear(v_xor(v_load_words(w + 4 * r), c63), vp_in_lo, vp_in_hi),
            v_table(vp_sr[(0u - r) & 3]));
    rk[nr] = v_shuffle(v_xor(v_load_words(w + 4 * nr), c63),
                       v_table(vp_sr[(0u - nr) & 3]));
    aesir_wipe(w, sizeof(w));
}

STACK_WIPE_BODY ENGINE_FN void
VP_NAME(setkey_dec_body)(void *rkv, const uint8_t *key, size_t key_len)
{
    const unsigned nr = (unsigned)key_len / 4 + 6;
    const vec c63 = v_splat(0x63);
    vec *rk = rkv;
    uint32_t w[60], k[4];

    VP_NAME(expand_key)(w, key, key_len);
    rk[0] = linear(v_xor(v_load_words(w + 4 * nr), c63), vp_din_lo, vp_din_hi);
    for (unsigned r = 1; r < nr; r++) {
        for (unsigned c = 0; c < 4; c++)
            k[c] = inv_mix_column(w[4 * (nr - r) + c]);
        rk[r] =
            v_shuffle(linear(v_xor(v_load_words(k), c63), vp_din_lo, vp_din_hi),
                      v_table(vp_sr[r & 3]));
    }
    rk[nr] = v_shuffle(v_load_words(w), v_table(vp_sr[nr & 3]));
    aesir_wipe(w, sizeof(w));
    aesir_wipe(k, sizeof(k));
}

#if VP_CORE_BULK
/* ---------------------------------------------------------------------
 * Bulk ECB and the mode fast paths, in groups of 4 blocks, then 2 and 1
 * for the tail. Each group is an inline function called with a constant
 * block count, so that its loops unroll (a loop of a variable number of
 * stores would become a call to memcpy), and it loads all its input
 * before it stores, so in == out works.
 * ------------------------------------------------------------------- */

ENGINE_INLINE void ecb_group(const vec *rk, unsigned nr, uint8_t *out,
                             const uint8_t *in, vec *s, unsigned nb, group_fn f)
{
    for (unsigned b = 0; b < nb; b++)
        s[b] = v_load(in + 16 * b);
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        v_store(out + 16 * b, s[b]);
}

ENGINE_INLINE void ecb(const vec *rk, unsigned nr, uint8_t *out,
                       const uint8_t *in, size_t n, group_fn f4, group_fn f2,
                       group_fn f1)
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

STACK_WIPE_BODY ENGINE_FN void VP_NAME(encrypt_body)(const void *rk,
                                                     unsigned nr, uint8_t *out,
                                                     const uint8_t *in,
                                                     size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, VP_NAME(enc4), VP_NAME(enc2), VP_NAME(enc1));
}

STACK_WIPE_BODY ENGINE_FN void VP_NAME(decrypt_body)(const void *rk,
                                                     unsigned nr, uint8_t *out,
                                                     const uint8_t *in,
                                                     size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, VP_NAME(dec4), VP_NAME(dec2), VP_NAME(dec1));
}

/*
 * CTR. Each counter block is made from the 128-bit counter (hi, lo) by
 * the ISA layer's v_counter; the counter is public (like any IV), so its
 * carry may branch.
 */
ENGINE_INLINE void ctr_group(const vec *rk, unsigned nr, uint64_t *hi,
                             uint64_t *lo, uint8_t *out, const uint8_t *in,
                             vec *s, unsigned nb, group_fn f)
{
    for (unsigned b = 0; b < nb; b++) {
        s[b] = v_counter(*hi, *lo);
        *lo += 1;
        *hi += *lo == 0;
    }
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        v_store(out + 16 * b, v_xor(v_load(in + 16 * b), s[b]));
}

STACK_WIPE_BODY ENGINE_FN void VP_NAME(ctr_body)(const void *rkv, unsigned nr,
                                                 uint8_t ctr[16], uint8_t *out,
                                                 const uint8_t *in,
                                                 size_t nblocks)
{
    const vec *rk = rkv;
    uint64_t hi = aesir_load_be64(ctr), lo = aesir_load_be64(ctr + 8);
    size_t n = nblocks;
    vec s[4];

    for (; n >= 4; n -= 4, in += 64, out += 64)
        ctr_group(rk, nr, &hi, &lo, out, in, s, 4, VP_NAME(enc4));
    if (n >= 2) {
        ctr_group(rk, nr, &hi, &lo, out, in, s, 2, VP_NAME(enc2));
        n -= 2, in += 32, out += 32;
    }
    if (n == 1)
        ctr_group(rk, nr, &hi, &lo, out, in, s, 1, VP_NAME(enc1));
    aesir_store_be64(ctr, hi);
    aesir_store_be64(ctr + 8, lo);
    aesir_wipe(s, sizeof(s)); /* keystream */
}

STACK_WIPE_BODY ENGINE_FN void
VP_NAME(cbc_enc_body)(const void *rkv, unsigned nr, uint8_t iv[16],
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
ENGINE_INLINE void cbc_dec_group(const vec *rk, unsigned nr, vec *prev,
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

STACK_WIPE_BODY ENGINE_FN void
VP_NAME(cbc_dec_body)(const void *rkv, unsigned nr, uint8_t iv[16],
                      uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vec *rk = rkv;
    vec prev = v_load(iv), s[4];
    size_t n = nblocks;

    for (; n >= 4; n -= 4, in += 64, out += 64)
        cbc_dec_group(rk, nr, &prev, out, in, s, 4, VP_NAME(dec4));
    if (n >= 2) {
        cbc_dec_group(rk, nr, &prev, out, in, s, 2, VP_NAME(dec2));
        n -= 2, in += 32, out += 32;
    }
    if (n == 1)
        cbc_dec_group(rk, nr, &prev, out, in, s, 1, VP_NAME(dec1));
    v_store(iv, prev);
    aesir_wipe(s, sizeof(s)); /* decrypted blocks before the XOR */
}
#endif /* VP_CORE_BULK */

/*
 * The entry points: each body, then the stack it used wiped
 * (stack_wipe.h). Four blocks in flight with a dozen tables and
 * temporaries each spill on 16 vector registers (32 on NEON: fewer), and
 * which values land on the stack differs from compiler to compiler:
 * round keys with clang 14, output blocks with gcc 12. The bodies reach
 * 384 bytes deep on x86 (key setup; the out-of-line group functions
 * included); the NEON, AltiVec and wasm builds take the same bound,
 * which no scan there has checked.
 */
#define VP_STACK 640
STACK_WIPED_SETKEY(VP_NAME(setkey_enc), VP_NAME(setkey_enc_body), VP_STACK)
STACK_WIPED_SETKEY(VP_NAME(setkey_dec), VP_NAME(setkey_dec_body), VP_STACK)
#if VP_CORE_BULK
STACK_WIPED_BLOCKS(VP_NAME(encrypt), VP_NAME(encrypt_body), VP_STACK)
STACK_WIPED_BLOCKS(VP_NAME(decrypt), VP_NAME(decrypt_body), VP_STACK)
STACK_WIPED_CHAIN(VP_NAME(ctr), VP_NAME(ctr_body), VP_STACK)
STACK_WIPED_CHAIN(VP_NAME(cbc_enc), VP_NAME(cbc_enc_body), VP_STACK)
STACK_WIPED_CHAIN(VP_NAME(cbc_dec), VP_NAME(cbc_dec_body), VP_STACK)
#endif

#endif /* AESIR_VPERM_CORE_H */
