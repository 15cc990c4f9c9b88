/*
 * aesni_keys.h -- AES key expansion (FIPS-197 section 5.2) and the
 * equivalent inverse cipher's decryption schedule (section 5.3.5) with
 * AES-NI, for the engines that include it (aesni.c, vaes_avx2.c,
 * vaes_avx512.c).
 *
 * SubWord without aeskeygenassist. When all four columns of a state hold
 * the same word, ShiftRows moves each byte to a column holding the same
 * bytes, so aesenclast(state, key) = SubBytes(state) ^ key: one
 * aesenclast on a broadcast word computes SubWord, and with the round
 * constant as the key, SubWord ^ Rcon, in every column at once. Gueron
 * describes this use of aesenclast for key expansion in "Intel Advanced
 * Encryption Standard (AES) New Instructions Set" (Intel white paper
 * 323641, rev. 3.01, 2012, section on software key expansion); it avoids
 * aeskeygenassist, which is microcoded and slower on several cores.
 *
 * Our own steps on top (see "Rotated broadcasts" and ak_sched128):
 * RotWord is not done per step but carried in the broadcast, and the XOR
 * that makes the next word goes into the aesenclast's round key, which is
 * ready steps ahead (AES-128, AES-256), so the chain that decides the
 * speed is one aesenclast per step (about 4 cycles on Zen 4, against 7
 * for pshufb + aesenclast + pxor). The prefix XOR that makes the other
 * words is done with shuffles that leave the AES pipes free, and every
 * other round key skips it. The decryption schedule is made from the
 * round keys while they are in registers (ak_schedule with dec != NULL):
 * aesimc off the chain, no store and reload.
 *
 * Constant time: only AES instructions, shuffles, ANDs with constants and
 * XORs; the only branches are on the key length.
 *
 * Every function is ENGINE_INLINE (engine.h): always inlined and compiled
 * for the including engine's ENGINE_ISA, which must include "aes,ssse3",
 * so the code is generated inside the caller (VEX-encoded there on an AVX
 * target, no SSE/AVX transition).
 */
#ifndef AESIR_AESNI_KEYS_H
#define AESIR_AESNI_KEYS_H

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "engine.h"

#ifndef ENGINE_ISA
#error "aesni_keys.h: define ENGINE_ISA first"
#endif

/* v, which the compiler may no longer re-associate with what follows
 * (gcc otherwise reorders the XORs of the prefix computations and puts
 * some of them behind the aesenclast). */
ENGINE_INLINE __m128i ak_pin(__m128i v)
{
    __asm__("" : "+x"(v));
    return v;
}

/* [w0, w0^w1, ..] ^ broadcast(word 3 of p): AES-192's words 4..5 of the
 * next window (words 2..3 of the result are never used). */
ENGINE_INLINE __m128i ak_prefix2_xor(__m128i w, __m128i p)
{
    w = _mm_xor_si128(w, _mm_slli_si128(w, 4));
    return ak_pin(_mm_xor_si128(w, _mm_shuffle_epi32(p, 0xff)));
}

/*
 * Rotated broadcasts. R is RotWord, [a0 a1 a2 a3] -> [a1 a2 a3 a0], and
 * B_k(w) = broadcast of R^k(w) (k mod 4). SubBytes commutes with any byte
 * permutation and ShiftRows is the identity on a broadcast, so
 *
 *      aesenclast(B_k(w), K) = B_(k-1)(SubWord(RotWord(w))) ^ K:
 *
 * the chain keeps the last word of each key block as B_k of it, the
 * domain k dropping by one per step, and RotWord costs nothing. The round
 * keys are taken back to plain broadcasts by one pshufb off the chain
 * (ak_unrot). The schedules choose the first k so that the last step's
 * domain is 0.
 *
 * ak_mask[m][k]: B_k of word m (m = 0..3); ak_mask[4][k]: R^k applied to
 * each word.
 */
/* clang-format off */
#define AK_BYTE(base, k, j) ((char)((base) + (((j) + (k)) & 3)))
#define AK_WORD(base, k)                                                       \
    AK_BYTE(base, k, 0), AK_BYTE(base, k, 1), AK_BYTE(base, k, 2),             \
        AK_BYTE(base, k, 3)
#define AK_BCAST(m, k)                                                         \
    {AK_WORD(4 * (m), k), AK_WORD(4 * (m), k), AK_WORD(4 * (m), k),            \
     AK_WORD(4 * (m), k)}
#define AK_ROTW(k) {AK_WORD(0, k), AK_WORD(4, k), AK_WORD(8, k), AK_WORD(12, k)}
#define AK_ALLK(F, m) {F(m, 0), F(m, 1), F(m, 2), F(m, 3)}
#define AK_ROTW_(m, k) AK_ROTW(k)
/* clang-format on */

static const _Alignas(16) char ak_mask[5][4][16] = {
    AK_ALLK(AK_BCAST, 0), AK_ALLK(AK_BCAST, 1), AK_ALLK(AK_BCAST, 2),
    AK_ALLK(AK_BCAST, 3), AK_ALLK(AK_ROTW_, 0)};

/* B_k(word m of v); a pshufd (no AES pipe) when there is no rotation. */
ENGINE_INLINE __m128i ak_bc(__m128i v, unsigned m, unsigned k)
{
    if ((k & 3) == 0) {
        /* an immediate for clang, which checks before inlining */
        switch (m & 3) {
        case 0:
            return _mm_shuffle_epi32(v, 0x00);
        case 1:
            return _mm_shuffle_epi32(v, 0x55);
        case 2:
            return _mm_shuffle_epi32(v, 0xaa);
        default:
            return _mm_shuffle_epi32(v, 0xff);
        }
    }
    return _mm_shuffle_epi8(
        v, _mm_load_si128((const __m128i *)(const void *)ak_mask[m][k & 3]));
}

/* B_(-k)-rotation of every word: takes B_k(w) back to a plain broadcast. */
ENGINE_INLINE __m128i ak_unrot(__m128i v, unsigned k)
{
    if ((k & 3) == 0)
        return v;
    return _mm_shuffle_epi8(
        v,
        _mm_load_si128((const __m128i *)(const void *)ak_mask[4][(4 - k) & 3]));
}

/* B_k(Rcon[i]) for the i-th step (i = 0..9), k = 0..3: R^k moves byte 0
 * of the word to byte (4 - k) mod 4. A table, so that the round constant
 * is a memory operand of aesenclast (built from an immediate, gcc spends
 * three instructions on each). */
/* clang-format off */
#define AK_RCW(rc, k) ((uint32_t)(rc) << (8 * ((4 - (k)) & 3)))
#define AK_RC4(rc, k) {AK_RCW(rc, k), AK_RCW(rc, k), AK_RCW(rc, k), AK_RCW(rc, k)}
#define AK_RC(rc) {AK_RC4(rc, 0), AK_RC4(rc, 1), AK_RC4(rc, 2), AK_RC4(rc, 3)}
/* clang-format on */
static const _Alignas(16) uint32_t ak_rcon_tab[10][4][4] = {
    AK_RC(0x01), AK_RC(0x02), AK_RC(0x04), AK_RC(0x08), AK_RC(0x10),
    AK_RC(0x20), AK_RC(0x40), AK_RC(0x80), AK_RC(0x1b), AK_RC(0x36)};

ENGINE_INLINE __m128i ak_rcon(unsigned i, unsigned k)
{
    /* gcc sees through a load from a constant table and builds the value
     * from an immediate (movabs, vpbroadcastq: two more instructions per
     * step); an address it cannot see through keeps it a memory operand */
    const uint32_t(*tab)[4][4] = ak_rcon_tab;
    __asm__("" : "+r"(tab));
    return _mm_load_si128((const __m128i *)(const void *)tab[i][k & 3]);
}

/*
 * prefix_xor(w) the other way round, with shuffles that do not compete
 * with the AES instructions: on Zen 4 pshufb and the byte shifts
 * (pslldq, psrldq, palignr) issue on the same two pipes as aesenclast and
 * aesimc, movlhps, shufps and pshufd do not (measured: 50 aesenclast with
 * 50 pslldq take 74 cycles, with 50 shufps 36). *u = w ^ w << 64 = [w0,
 * w1, w0^w2, w1^w3], then u ^ [0, w0, u1, u2]. Word 3 of *u, w1 ^ w3, is
 * what the expansions need two steps ahead (the XOR of all words of the
 * next key block, in which t cancels).
 */
ENGINE_INLINE __m128i ak_prefix_u(__m128i w, __m128i *u)
{
    __m128 t = _mm_movelh_ps(_mm_setzero_ps(), _mm_castsi128_ps(w));
    __m128i v = _mm_xor_si128(w, _mm_castps_si128(t));
    __m128 s = _mm_shuffle_ps(t, _mm_castsi128_ps(v), 0x98); /* t0 t2 v1 v2 */
    *u = ak_pin(v);
    return ak_pin(_mm_xor_si128(v, _mm_castps_si128(s)));
}

/* p, which the caller guarantees is not NULL: tells the compiler, so that
 * ak_schedule's enc/dec tests fold (else it keeps one test and a second
 * copy of the whole schedule). */
ENGINE_INLINE uint8_t *ak_nonnull(void *p)
{
    if (p == NULL)
        __builtin_unreachable();
    return (uint8_t *)p;
}

/* Words 0 and 2: prefix_xor(bcast(t)) = bcast(t) & AK_M02. */
#define AK_M02 _mm_set_epi32(0, -1, 0, -1)

/* Round key r goes to out + stride * r (16-byte aligned). */
#define AK_PUT(out, stride, r, v)                                              \
    _mm_store_si128((__m128i *)((out) + (stride) * (size_t)(r)), (v))

/* Round key r: to enc + stride * r and, through aesimc unless it is the
 * first or last, to dec + stride * (nr - r) (the equivalent inverse
 * cipher's order, FIPS-197 5.3.5). Either may be NULL. */
ENGINE_INLINE void ak_put(uint8_t *enc, uint8_t *dec, size_t stride,
                          unsigned nr, unsigned r, __m128i v)
{
    if (enc != NULL)
        AK_PUT(enc, stride, r, v);
    if (dec != NULL)
        AK_PUT(dec, stride, nr - r,
               r == 0 || r == nr ? v : _mm_aesimc_si128(v));
}

#if defined(__clang__)
#define AK_UNROLL _Pragma("unroll")
#else
#define AK_UNROLL _Pragma("GCC unroll 16")
#endif

/*
 * AES-128 (FIPS-197 5.2, Nk = 4): x' = p ^ bcast(t), p = prefix_xor(x),
 * t = SubWord(RotWord(x3)) ^ rc. The chain value is y_n = B_k(x_n[3]).
 * With q = k - 1,
 *
 *      y_(n+1) = B_q(x_(n+1)[3]) = B_q(p3) ^ B_q(t)
 *              = aesenclast(y_n, B_q(p3) ^ B_q(rc)),
 *
 * where p3 = s_n, the XOR of all words of x_n. Unrolling the recurrence
 * (x_(n+1) = p_n ^ bcast(t_n): the t cancel in even counts), s_(n+1) =
 * x_n[1] ^ x_n[3], s_(n+2) = x_n[2] ^ x_n[3] and s_(n+3) = x_n[3]; and 4
 * steps apart the domain is the same, so B_q(s_n) = y_(n-3). The round
 * key of every aesenclast, y_(n-3) ^ B_q(rc), is ready three steps ahead:
 * the chain is one aesenclast per step (4 cycles on Zen 4; 7 with a
 * pshufb broadcast and a pxor on it, the usual form). The round keys hang
 * off it: e = y_(n+1) ^ y_(n-3) = B_q(t), x_(n+1) = p_n ^ B_0(t).
 * z[n] holds B_q(s_n): from the key for n < 3, y_(n-3) after. k starts at
 * 2 so that the last step's domain is 0.
 *
 * The prefix XOR is a second chain (x -> prefix_xor -> x'), nearly as
 * long per step as the aesenclast. Every other key skips it: prefix_xor
 * of bcast(t) is [t, 0, t, 0] and prefix_xor twice is the *u of
 * ak_prefix_u, so x_(n+2) = u_n ^ [t_n, 0, t_n, 0] ^ bcast(t_(n+1)).
 */
ENGINE_INLINE void ak_sched128(uint8_t *enc, uint8_t *dec, size_t stride,
                               const uint8_t *key)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)key), u;
    __m128i p = ak_prefix_u(x, &u), y = ak_bc(x, 3, 2), z[13], t, m;
    unsigned k = 2;

    z[0] = ak_bc(p, 3, 1); /* x0 ^ x1 ^ x2 ^ x3 */
    z[1] = ak_bc(u, 3, 0); /* x1 ^ x3 */
    z[2] = ak_bc(_mm_xor_si128(x, _mm_slli_si128(x, 4)), 3, 3); /* x2^x3 */
    z[3] = y;                                                   /* x3 */
    ak_put(enc, dec, stride, 10, 0, x);
    AK_UNROLL
    for (unsigned i = 0; i < 10; i++) {
        unsigned q = (k - 1) & 3;
        y = _mm_aesenclast_si128(y, _mm_xor_si128(z[i], ak_rcon(i, q)));
        if (i + 4 < 13)
            z[i + 4] = y;
        t = ak_unrot(_mm_xor_si128(y, z[i]), q);
        if ((i & 1) == 0) {
            x = _mm_xor_si128(p, t);
            m = _mm_and_si128(t, AK_M02);
        } else {
            x = _mm_xor_si128(_mm_xor_si128(u, m), t);
            p = ak_prefix_u(x, &u);
        }
        ak_put(enc, dec, stride, 10, i + 1, x);
        k = q;
    }
}

/*
 * AES-192 (Nk = 6) on the six-word window a = w0..w3, b = w4 w5 (low
 * half; the upper half is never used): a' = pa ^ bcast(t), b' = [w4 ^ h,
 * w4 ^ w5 ^ h] ^ bcast(t) with pa = prefix_xor(a), h = pa3, t =
 * SubWord(RotWord(w5)) ^ rc. The next chain word w5' is c ^ t, c the XOR
 * of all six words: a1 ^ a3 ^ b1 of the window before (the six t
 * cancel), ready a step ahead, so y' = B_q(c) ^ aesenclast(y, B_q(rc))
 * and the chain is one aesenclast and one pxor per step. (c also unrolls
 * to last words two, four and six steps back, which would put the XOR in
 * the round key as for AES-128, but the extra shuffles cost more than the
 * pxor: measured.) Every two steps give three round keys:
 *
 *      words:  a0 a0 a0 a0 | b0 b0 a1 a1 | a1 a1 b1 b1 | a2 ...
 *      keys:   rk 3j        rk 3j+1       rk 3j+2       rk 3j+3
 *
 * k starts at 0 (the first broadcast is a pshufd) and ends there.
 */
ENGINE_INLINE void ak_sched192(uint8_t *enc, uint8_t *dec, size_t stride,
                               const uint8_t *key)
{
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)key);
    __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(key + 16));
    __m128i c = _mm_xor_si128(a, b), y = _mm_shuffle_epi32(b, 0x55), z;
    __m128i pa = a, m = a;
    unsigned k = 0;

    /* c: word 1 = w0 ^ w1 ^ w2 ^ w3 ^ w4 ^ w5 */
    c = _mm_xor_si128(c, _mm_srli_si128(c, 8));
    c = _mm_xor_si128(c, _mm_slli_si128(c, 4));
    z = ak_bc(c, 1, 3);
    AK_UNROLL
    for (unsigned j = 0; j < 8; j++) {
        unsigned q = (k - 1) & 3;
        __m128i e = _mm_aesenclast_si128(y, ak_rcon(j, q));
        __m128i t = ak_unrot(e, q), ua, a1, b1;
        if ((j & 1) == 0) {
            /* pa = prefix_xor(a), a1 = pa ^ bcast(t) */
            pa = ak_prefix_u(a, &ua);
            a1 = _mm_xor_si128(pa, t);
            m = _mm_xor_si128(ua, _mm_and_si128(t, AK_M02));
        } else {
            /* as in AES-128: prefix_xor(a) = u ^ [t', 0, t', 0] (the t
             * and u of the step before), its word 3 = u3 */
            ua = ak_pin(
                _mm_xor_si128(a, _mm_castps_si128(_mm_movelh_ps(
                                     _mm_setzero_ps(), _mm_castsi128_ps(a)))));
            a1 = _mm_xor_si128(m, t);
            pa = m;
        }
        y = _mm_xor_si128(z, e);
        /* word 3: a1 ^ a3 ^ b1 */
        z = ak_bc(_mm_xor_si128(ua, _mm_slli_si128(b, 8)), 3, q - 1);
        b1 = _mm_xor_si128(ak_prefix2_xor(b, pa), t);
        if ((j & 1) == 0) {
            ak_put(enc, dec, stride, 12, 3 * (j / 2), a);
            ak_put(enc, dec, stride, 12, 3 * (j / 2) + 1,
                   _mm_unpacklo_epi64(b, a1));
        } else {
            ak_put(enc, dec, stride, 12, 3 * (j / 2) + 2,
                   _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(a),
                                                   _mm_castsi128_pd(b), 1)));
        }
        a = a1;
        b = b1;
        k = q;
    }
    ak_put(enc, dec, stride, 12, 12, a);
}

/*
 * AES-256 (Nk = 8): a' = pa ^ bcast(SubWord(RotWord(b3)) ^ rc), b' = pb ^
 * bcast(SubWord(a'3)) (FIPS-197 5.2, i mod 8 = 4). Each half follows
 * AES-128's recurrence, so its B_q(s) is its own chain value three pairs
 * back; the two aesenclast alternate (the second with no rotation and no
 * Rcon, so the domain drops once per pair): 13 aesenclast back to back.
 * The prefix XOR of each half is skipped every other step as in AES-128.
 * k starts at 3 so that the last step's domain is 0.
 */
ENGINE_INLINE void ak_sched256(uint8_t *enc, uint8_t *dec, size_t stride,
                               const uint8_t *key)
{
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)key);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(key + 16));
    __m128i ua, ub, pa = ak_prefix_u(a, &ua), pb = ak_prefix_u(b, &ub);
    __m128i y = ak_bc(b, 3, 3), za[10], zb[10], t, ma, mb;
    unsigned k = 3;

    za[0] = ak_bc(pa, 3, 2);
    za[1] = ak_bc(ua, 3, 1);
    za[2] = ak_bc(_mm_xor_si128(a, _mm_slli_si128(a, 4)), 3, 0);
    zb[0] = ak_bc(pb, 3, 2);
    zb[1] = ak_bc(ub, 3, 1);
    zb[2] = ak_bc(_mm_xor_si128(b, _mm_slli_si128(b, 4)), 3, 0);
    za[3] = ak_bc(a, 3, 3);
    zb[3] = y;
    ak_put(enc, dec, stride, 14, 0, a);
    ak_put(enc, dec, stride, 14, 1, b);
    AK_UNROLL
    for (unsigned j = 0; j < 7; j++) {
        unsigned q = (k - 1) & 3;
        y = _mm_aesenclast_si128(y, _mm_xor_si128(za[j], ak_rcon(j, q)));
        if (j + 4 < 10)
            za[j + 4] = y;
        t = ak_unrot(_mm_xor_si128(y, za[j]), q);
        if ((j & 1) == 0) {
            a = _mm_xor_si128(pa, t);
            ma = _mm_and_si128(t, AK_M02);
        } else {
            a = _mm_xor_si128(_mm_xor_si128(ua, ma), t);
            pa = ak_prefix_u(a, &ua);
        }
        ak_put(enc, dec, stride, 14, 2 * j + 2, a);
        if (j == 6)
            break;
        y = _mm_aesenclast_si128(y, zb[j]);
        if (j + 4 < 10)
            zb[j + 4] = y;
        t = ak_unrot(_mm_xor_si128(y, zb[j]), q);
        if ((j & 1) == 0) {
            b = _mm_xor_si128(pb, t);
            mb = _mm_and_si128(t, AK_M02);
        } else {
            b = _mm_xor_si128(_mm_xor_si128(ub, mb), t);
            pb = ak_prefix_u(b, &ub);
        }
        ak_put(enc, dec, stride, 14, 2 * j + 3, b);
        k = q;
    }
}

/*
 * ak_schedule -- the encryption schedule of key (key_len 16, 24 or 32
 * bytes; anything else is treated as 32) to enc, and the equivalent
 * inverse cipher's to dec, round key r at + stride * r; either may be
 * NULL. Pass a constant NULL or a pointer through ak_nonnull(), so that
 * the choice is made at compile time. Returns nr.
 */
ENGINE_INLINE unsigned ak_schedule(uint8_t *enc, uint8_t *dec, size_t stride,
                                   const uint8_t *key, size_t key_len)
{
    if (key_len == 16) {
        ak_sched128(enc, dec, stride, key);
        return 10;
    }
    if (key_len == 24) {
        ak_sched192(enc, dec, stride, key);
        return 12;
    }
    ak_sched256(enc, dec, stride, key);
    return 14;
}

/*
 * ak_setkey_pair -- the engines' setkey_pair (internal.h): the schedules
 * dirs asks for, and every other byte of both areas below most zeroed.
 * AK_ZERO_TO(rk, from, most) zeroes rk[from, most), from a multiple of
 * 16; an engine with wider stores defines it before including this file
 * (it may write past most, up to AESIR_RK_BYTES), and then a direction
 * not asked for is zeroed rather than computed. With 16-byte stores
 * (the default below) zeroing a 240-byte area takes 15 stores, more
 * than the schedule's 11 stores and nr - 1 aesimc, so both schedules are
 * always written (measured on Zen 4, aesni AES-128: decryption only 37.2
 * TSC cycles per key with the area zeroed, 32.5 with both schedules).
 */
#ifndef AK_ZERO_TO
#define AK_ZERO_TO ak_zero_to
#define AK_BOTH_ALWAYS 1
ENGINE_INLINE void ak_zero_to(uint8_t *rk, size_t from, size_t most)
{
    /* 960 bytes once a bitsliced engine has been used in the process:
     * memset()'s wide stores take half as many */
    if (from + 256 < most) {
        memset(rk + from, 0, most - from);
        return;
    }
    for (; from < most; from += 16) {
        AK_PUT(rk, 1, from, _mm_setzero_si128());
        __asm__("" : : "r"(rk) : "memory"); /* stores, not memset() */
    }
}
#else
#define AK_BOTH_ALWAYS 0
#endif

ENGINE_INLINE int ak_setkey_pair(void *rk_enc, void *rk_dec, const uint8_t *key,
                                 size_t key_len, unsigned dirs, size_t most)
{
    uint8_t *enc = ak_nonnull(__builtin_assume_aligned(rk_enc, 16));
    uint8_t *dec = ak_nonnull(__builtin_assume_aligned(rk_dec, 16));
    size_t end;

    if (!AK_BOTH_ALWAYS && dirs == AESIR_ENCRYPT) {
        end = 16 * (size_t)(ak_schedule(enc, NULL, 16, key, key_len) + 1);
        AK_ZERO_TO(enc, end, most);
        AK_ZERO_TO(dec, 0, most);
    } else if (!AK_BOTH_ALWAYS && dirs == AESIR_DECRYPT) {
        end = 16 * (size_t)(ak_schedule(NULL, dec, 16, key, key_len) + 1);
        AK_ZERO_TO(enc, 0, most);
        AK_ZERO_TO(dec, end, most);
    } else {
        end = 16 * (size_t)(ak_schedule(enc, dec, 16, key, key_len) + 1);
        AK_ZERO_TO(enc, end, most);
        AK_ZERO_TO(dec, end, most);
    }
    return AESIR_OK;
}

#endif /* x86 */
#endif /* AESIR_AESNI_KEYS_H */
