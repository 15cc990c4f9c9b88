/*
 * gfni.c -- AES with the Galois Field New Instructions: the S-box by
 * gf2p8affineinvqb, no AES instruction anywhere.
 *
 * Technique. GF2P8AFFINEINVQB(x, A, b) (Intel SDM vol. 2; Intel, "Galois
 * Field New Instructions (GFNI) Technology Guide", 2021) computes, for
 * every byte, A.inv(x) + b: the inverse in GF(2^8) modulo AES's
 * polynomial x^8+x^4+x^3+x+1 (inv(0) = 0) followed by an 8x8 bit matrix
 * and a constant. With A the AES affine matrix and b = 0x63 that is the
 * AES S-box (FIPS-197 5.1.1), 16, 32 or 64 bytes per instruction; the
 * observation is widely known (the Technology Guide itself gives it).
 * Any GF(2)-linear map L folds into the same instruction, L.A.inv(x), so
 * one instruction also gives 2.S(x) or A^-1.c.inv(x).
 *
 * Encryption round (ShiftRows never done: the state of round r is kept
 * permuted by ShiftRows^-r, so ShiftRows becomes a change of frame and
 * the MixColumns rotations, conjugated into the frame, are 4 sets of
 * round-dependent vpshufb indices; the round keys are stored in the same
 * frames; one shuffle by ShiftRows^nr at the end):
 *
 *   s  = gf2p8affineinvqb(z, A, 0x63)          SubBytes
 *   r1 = rot1(s), b = s ^ r1                   a_r ^ a_(r+1)
 *   z' = gf2p8affineqb(b, 2) ^ r1 ^ rot2(b) ^ k
 *      = 2a_r ^ 3a_(r+1) ^ a_(r+2) ^ a_(r+3) ^ k   MixColumns, AddRoundKey
 *
 * 2 GF instructions, 2 shuffles, 3 XORs per round for 16/32/64 bytes
 * (the three-input XOR is one vpternlogd on zmm).
 * Serial CBC encryption uses a lower-latency round with 2 independent
 * GF instructions, S = A.inv(z) + 0x63 and 2S = (2A).inv(z) + 0xC6, and
 * z' = (2S ^ k) ^ rot1(S ^ 2S) ^ rot2(S) ^ rot3(S): one GF instruction,
 * an XOR, a shuffle and two XOR levels (one with vpternlogd) per round.
 *
 * Decryption (equivalent inverse cipher, FIPS-197 5.3.5). InvSubBytes is
 * inv(A^-1.y + 0x05). The state is kept in the domain t = A^-1.y + 0x05
 * (and the frame ShiftRows^j): A^-1 is GF(2)-linear per byte, so it
 * passes through InvMixColumns and the XOR with the round key, and
 *
 *   t' = P14 ^ rot1(P11) ^ rot2(P13) ^ rot3(P9) ^ k',
 *   Pc = gf2p8affineinvqb(t, A^-1.c, 0) = A^-1.(c.inv(t)),
 *   k' = A^-1.InvMixColumns(k) + 0x05 (precomputed, in the frame).
 *
 * The first step is one gf2p8affineqb(c, A^-1, 0x05); the last round is
 * gf2p8affineinvqb(t, I, 0), plain inversion (the identity-matrix
 * trick), then the key and one shuffle. 4 GF instructions, 3 shuffles,
 * 4 XORs (2 vpternlogd on zmm) per round.
 *
 * All matrices, constants and shuffle indices come from
 * tools/gen_gfni_matrices.py, which derives them from the field and
 * simulates every round function above against FIPS-197 (S-box and
 * inverse for all 256 inputs, Appendix C for the three key sizes).
 * Key expansion is FIPS-197's, SubWord done by gf2p8affineinvqb.
 *
 *   byte:  15 ......................................... 0
 *   xmm:  | one block, state byte 4c+r (in the frame SR^-r) |
 *   ymm:  | block 2m+1            | block 2m               |
 *   zmm:  | block 4m+3 | 4m+2 | 4m+1 | 4m                   |
 *   every vpshufb index stays within a 16-byte lane (a block).
 *
 * Batch: 16 blocks in flight (8 ymm, or 4 zmm on CPUs with AVX-512BW;
 * on Zen 4 512-bit GF and shuffle instructions are double-pumped, so
 * zmm halves the instruction count at the same uop throughput -- see
 * docs/engines/gfni.md for the figures that chose it); tails by 4, 2
 * and 1 ymm, 1 xmm. CTR, CBC decryption fused; CBC encryption serial on xmm.
 *
 * Constant time: YES. The GF instructions, vpshufb, XOR and vpternlogd
 * have data-independent latency on the x86 cores we know of (one fixed
 * uop sequence each); no branch and no memory address depends on key or
 * data (loop counts depend on nr and block counts, the CTR fast path on
 * the public counter). Valgrind 3.19 cannot execute GFNI, so
 * tests/ct_check lists this engine as not checked; tests/dudect is the
 * evidence (docs/constant-time.md).
 *
 * Flags: ENGINE_CT only. This engine uses no AES instruction, so it is
 * not ENGINE_HW. Every CPU with GFNI also has AES-NI (and the aesni /
 * vaes engines are several times faster), so in practice the engine
 * matters for builds without the AES-instruction engines (CMake
 * -DAESIR_HW_ENGINES=OFF) and as a technique to compare.
 */
#define ENGINE_ISA "gfni,avx2"
#include "engine.h"
#include "stack_wipe.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

/*
 * Three targets in one file, as the file has two engines: the xmm and ymm
 * code is ENGINE_ISA's (ENGINE_FN, ENGINE_INLINE); the zmm bulk paths add
 * AVX-512F and BW (GF_ZMM_*), and the AVX-512 engine's serial CBC
 * encryption AVX-512F and VL, for vpternlogd on xmm (GF_VL_*). Each
 * enables only what it uses: with VL in the zmm set, the ymm tails the
 * zmm paths inline could be given EVEX encodings and ymm16-31; with BW in
 * the VL set, the serial xmm code likewise.
 */
#define GF_ZMM_TARGET __attribute__((target(ENGINE_ISA ",avx512f,avx512bw")))
#define GF_ZMM_FN static GF_ZMM_TARGET
#define GF_ZMM_INLINE static inline __attribute__((always_inline)) GF_ZMM_TARGET
#define GF_VL_TARGET __attribute__((target(ENGINE_ISA ",avx512f,avx512vl")))
#define GF_VL_FN static GF_VL_TARGET
#define GF_VL_INLINE static inline __attribute__((always_inline)) GF_VL_TARGET

/* ---------------------------------------------------------------------
 * Constants: generated by tools/gen_gfni_matrices.py, checked there.
 * A matrix is a 64-bit word, row i (the input-bit mask of output bit i)
 * in byte 7-i (Intel SDM, GF2P8AFFINEQB).
 * ------------------------------------------------------------------- */

#define GF_AFF 0xF1E3C78F1F3E7CF8ULL    /* A: S(x) = A.inv(x) + 0x63 */
#define GF_AFF2 0xF809E33F771F3E7CULL   /* 2.A */
#define GF_ID 0x0102040810204080ULL     /* identity: plain inversion */
#define GF_AFFINV 0xA44992254A942952ULL /* A^-1 */
#define GF_MUL2 0x8081028488102040ULL   /* x -> 2.x */
#define GF_DEC14 0x6F3F7FFFFE1DDBB7ULL  /* A^-1.14 */
#define GF_DEC11 0xE264C99326EC78F1ULL  /* A^-1.11 */
#define GF_DEC13 0x9952A4489143E6CCULL  /* A^-1.13 */
#define GF_DEC9 0xB040800103266CD8ULL   /* A^-1.9 */
#define GF_C63 0x63                     /* S(0) */
#define GF_C63X2 0xC6                   /* 2.0x63 */
#define GF_C05 0x05                     /* A^-1.0x63 */

/* gf_sr[j] = ShiftRows^j (vpshufb indices: out[i] = in[idx[i]]) */
static _Alignas(16) const uint8_t gf_sr[4][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11},
    {0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 5, 14, 7},
    {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3},
};
/* gf_isr[j] = ShiftRows^-j */
static _Alignas(16) const uint8_t gf_isr[4][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3},
    {0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 5, 14, 7},
    {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11},
};
/* gf_rotm[j]: row r <- row r+m of each column, in the frame
 * ShiftRows^-j, i.e. ShiftRows^-j o rot_m o ShiftRows^j. */
static _Alignas(16) const uint8_t gf_rot1[4][16] = {
    {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12},
    {5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0},
    {9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4},
    {13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8},
};
static _Alignas(16) const uint8_t gf_rot2[4][16] = {
    {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13},
    {10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5},
    {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13},
    {10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5},
};
static _Alignas(16) const uint8_t gf_rot3[4][16] = {
    {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14},
    {15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10},
    {11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6},
    {7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2},
};

/* ---------------------------------------------------------------------
 * Vector primitives, one set per width, same names but the prefix, so
 * that GF_CIPHER below is written once.
 * ------------------------------------------------------------------- */

#define X_GFI(v, q, b) _mm_gf2p8affineinv_epi64_epi8((v), x_mat(q), (b))
#define X_GF(v, q, b) _mm_gf2p8affine_epi64_epi8((v), x_mat(q), (b))
#define Y_GFI(v, q, b) _mm256_gf2p8affineinv_epi64_epi8((v), y_mat(q), (b))
#define Y_GF(v, q, b) _mm256_gf2p8affine_epi64_epi8((v), y_mat(q), (b))
#define Z_GFI(v, q, b) _mm512_gf2p8affineinv_epi64_epi8((v), z_mat(q), (b))
#define Z_GF(v, q, b) _mm512_gf2p8affine_epi64_epi8((v), z_mat(q), (b))

typedef __m128i xv;
typedef __m256i yv;
typedef __m512i zv;

ENGINE_INLINE xv x_mat(uint64_t q)
{
    return _mm_set1_epi64x((long long)q);
}
ENGINE_INLINE xv x_bc(const void *p) /* 16 bytes, aligned */
{
    return _mm_load_si128((const xv *)p);
}
ENGINE_INLINE xv x_shuf(xv a, xv idx)
{
    return _mm_shuffle_epi8(a, idx);
}
ENGINE_INLINE xv x_xor(xv a, xv b)
{
    return _mm_xor_si128(a, b);
}
ENGINE_INLINE xv x_xor3(xv a, xv b, xv c)
{
    return _mm_xor_si128(a, _mm_xor_si128(b, c));
}
ENGINE_INLINE xv x_load(const uint8_t *p)
{
    return _mm_loadu_si128((const xv *)(const void *)p);
}
ENGINE_INLINE void x_store(uint8_t *p, xv v)
{
    _mm_storeu_si128((xv *)(void *)p, v);
}

ENGINE_INLINE yv y_mat(uint64_t q)
{
    return _mm256_set1_epi64x((long long)q);
}
ENGINE_INLINE yv y_bc(const void *p)
{
    return _mm256_broadcastsi128_si256(_mm_load_si128((const xv *)p));
}
ENGINE_INLINE yv y_shuf(yv a, yv idx)
{
    return _mm256_shuffle_epi8(a, idx);
}
ENGINE_INLINE yv y_xor(yv a, yv b)
{
    return _mm256_xor_si256(a, b);
}
ENGINE_INLINE yv y_xor3(yv a, yv b, yv c)
{
    return _mm256_xor_si256(a, _mm256_xor_si256(b, c));
}
ENGINE_INLINE yv y_load(const uint8_t *p)
{
    return _mm256_loadu_si256((const yv *)(const void *)p);
}
ENGINE_INLINE void y_store(uint8_t *p, yv v)
{
    _mm256_storeu_si256((yv *)(void *)p, v);
}

GF_ZMM_INLINE zv z_mat(uint64_t q)
{
    return _mm512_set1_epi64((long long)q);
}
GF_ZMM_INLINE zv z_bc(const void *p)
{
    return _mm512_broadcast_i32x4(_mm_load_si128((const xv *)p));
}
GF_ZMM_INLINE zv z_shuf(zv a, zv idx)
{
    return _mm512_shuffle_epi8(a, idx);
}
GF_ZMM_INLINE zv z_xor(zv a, zv b)
{
    return _mm512_xor_si512(a, b);
}
GF_ZMM_INLINE zv z_xor3(zv a, zv b, zv c) /* vpternlogd: one instruction */
{
    return _mm512_ternarylogic_epi32(a, b, c, 0x96);
}
GF_ZMM_INLINE zv z_load(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}
GF_ZMM_INLINE void z_store(uint8_t *p, zv v)
{
    _mm512_storeu_si512((void *)p, v);
}

/* ---------------------------------------------------------------------
 * The cipher on nb registers of one width. rk: nr + 1 round keys of 16
 * bytes in the engine's layout (gfni_setkey_enc / gfni_setkey_dec below).
 * ------------------------------------------------------------------- */

#define GF_CIPHER(P, V, PU, INLINE)                                            \
    INLINE void P##_enc(const uint8_t *rk, unsigned nr, V *s, unsigned nb)     \
    {                                                                          \
        const V k0 = P##_bc(rk);                                               \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = P##_xor(s[b], k0);                                          \
        for (unsigned r = 1; r < nr; r++) {                                    \
            const V rot1 = P##_bc(gf_rot1[r & 3]);                             \
            const V rot2 = P##_bc(gf_rot2[r & 3]);                             \
            const V k = P##_bc(rk + 16 * r);                                   \
            for (unsigned b = 0; b < nb; b++) {                                \
                V a = PU##_GFI(s[b], GF_AFF, GF_C63);                          \
                V r1 = P##_shuf(a, rot1);                                      \
                V c = P##_xor(a, r1);                                          \
                s[b] = P##_xor3(PU##_GF(c, GF_MUL2, 0), P##_xor(r1, k),        \
                                P##_shuf(c, rot2));                            \
            }                                                                  \
        }                                                                      \
        const V kl = P##_bc(rk + 16 * nr), sr = P##_bc(gf_sr[nr & 3]);         \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = P##_shuf(P##_xor(PU##_GFI(s[b], GF_AFF, GF_C63), kl), sr);  \
    }                                                                          \
                                                                               \
    INLINE void P##_dec(const uint8_t *rk, unsigned nr, V *s, unsigned nb)     \
    {                                                                          \
        const V k0 = P##_bc(rk);                                               \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = P##_xor(PU##_GF(s[b], GF_AFFINV, GF_C05), k0);              \
        for (unsigned r = 1; r < nr; r++) {                                    \
            const V rot1 = P##_bc(gf_rot1[(0u - r) & 3]);                      \
            const V rot2 = P##_bc(gf_rot2[(0u - r) & 3]);                      \
            const V rot3 = P##_bc(gf_rot3[(0u - r) & 3]);                      \
            const V k = P##_bc(rk + 16 * r);                                   \
            for (unsigned b = 0; b < nb; b++) {                                \
                V t = s[b];                                                    \
                V p14 = PU##_GFI(t, GF_DEC14, 0);                              \
                V p11 = PU##_GFI(t, GF_DEC11, 0);                              \
                V p13 = PU##_GFI(t, GF_DEC13, 0);                              \
                V p9 = PU##_GFI(t, GF_DEC9, 0);                                \
                s[b] = P##_xor3(P##_xor3(p14, k, P##_shuf(p11, rot1)),         \
                                P##_shuf(p13, rot2), P##_shuf(p9, rot3));      \
            }                                                                  \
        }                                                                      \
        const V kl = P##_bc(rk + 16 * nr), isr = P##_bc(gf_isr[nr & 3]);       \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = P##_shuf(P##_xor(PU##_GFI(s[b], GF_ID, 0), kl), isr);       \
    }

GF_CIPHER(x, xv, X, ENGINE_INLINE)
GF_CIPHER(y, yv, Y, ENGINE_INLINE)
GF_CIPHER(z, zv, Z, GF_ZMM_INLINE)

/* Out-of-line groups; the state is copied to locals so that it stays in
 * registers. */
#define GF_GROUP(name, P, V, fn, nb, FN)                                       \
    FN void name(const uint8_t *rk, unsigned nr, V *s)                         \
    {                                                                          \
        V x[nb];                                                               \
        for (unsigned b = 0; b < nb; b++)                                      \
            x[b] = s[b];                                                       \
        P##_##fn(rk, nr, x, nb);                                               \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = x[b];                                                       \
    }

GF_GROUP(gfni_x_enc1, x, xv, enc, 1, ENGINE_FN)
GF_GROUP(gfni_x_dec1, x, xv, dec, 1, ENGINE_FN)
GF_GROUP(gfni_y_enc8, y, yv, enc, 8, ENGINE_FN)
GF_GROUP(gfni_y_enc4, y, yv, enc, 4, ENGINE_FN)
GF_GROUP(gfni_y_enc2, y, yv, enc, 2, ENGINE_FN)
GF_GROUP(gfni_y_enc1, y, yv, enc, 1, ENGINE_FN)
GF_GROUP(gfni_y_dec8, y, yv, dec, 8, ENGINE_FN)
GF_GROUP(gfni_y_dec4, y, yv, dec, 4, ENGINE_FN)
GF_GROUP(gfni_y_dec2, y, yv, dec, 2, ENGINE_FN)
GF_GROUP(gfni_y_dec1, y, yv, dec, 1, ENGINE_FN)
GF_GROUP(gfni_z_enc4, z, zv, enc, 4, GF_ZMM_FN)
GF_GROUP(gfni_z_dec4, z, zv, dec, 4, GF_ZMM_FN)

/* ---------------------------------------------------------------------
 * Key expansion (FIPS-197 5.2), SubWord by gf2p8affineinvqb; then the
 * round keys are moved into the engine's frames and domains.
 * ------------------------------------------------------------------- */

ENGINE_INLINE uint32_t sub_word(uint32_t w)
{
    xv v = _mm_cvtsi32_si128((int)w);
    return (uint32_t)_mm_cvtsi128_si32(X_GFI(v, GF_AFF, GF_C63));
}

/* w: 4 (nr + 1) words, byte 0 of the key in the low byte of w[0]. */
ENGINE_FN unsigned gfni_expand_key(uint32_t *w, const uint8_t *key,
                                   size_t key_len)
{
    const unsigned nk = (unsigned)(key_len / 4), nr = nk + 6;
    uint32_t rcon = 1;

    memcpy(w, key, key_len);
    for (unsigned i = nk; i < 4 * (nr + 1); i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word((t >> 8) | (t << 24)) ^ rcon;
            rcon = (rcon << 1) ^ (0x11b & (0u - (rcon >> 7)));
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    return nr;
}

/* Encryption keys: round key r in the frame ShiftRows^-r. */
STACK_WIPE_BODY ENGINE_FN void
gfni_setkey_enc_body(void *rkv, const uint8_t *key, size_t key_len)
{
    uint8_t *rk = rkv;
    uint32_t w[60];
    const unsigned nr = gfni_expand_key(w, key, key_len);

    for (unsigned r = 0; r <= nr; r++)
        x_store(rk + 16 * r, x_shuf(x_load((const uint8_t *)&w[4 * r]),
                                    x_bc(gf_isr[r & 3])));
    aesir_wipe(w, sizeof(w));
}

/* Decryption keys: rk[0] = A^-1.k_nr; rk[j] = SR^j(A^-1.InvMixColumns(
 * k_(nr-j)) + 0x05), where A^-1.c is one gf2p8affineqb each (the
 * GF_DECc matrices without the inversion); rk[nr] = SR^nr(k_0). */
STACK_WIPE_BODY ENGINE_FN void
gfni_setkey_dec_body(void *rkv, const uint8_t *key, size_t key_len)
{
    uint8_t *rk = rkv;
    uint32_t w[60];
    const unsigned nr = gfni_expand_key(w, key, key_len);
    xv k;

    k = x_load((const uint8_t *)&w[4 * nr]);
    x_store(rk, X_GF(k, GF_AFFINV, 0));
    for (unsigned j = 1; j < nr; j++) {
        k = x_load((const uint8_t *)&w[4 * (nr - j)]);
        k = x_xor(x_xor(X_GF(k, GF_DEC14, GF_C05),
                        x_shuf(X_GF(k, GF_DEC11, 0), x_bc(gf_rot1[0]))),
                  x_xor(x_shuf(X_GF(k, GF_DEC13, 0), x_bc(gf_rot2[0])),
                        x_shuf(X_GF(k, GF_DEC9, 0), x_bc(gf_rot3[0]))));
        x_store(rk + 16 * j, x_shuf(k, x_bc(gf_sr[j & 3])));
    }
    k = x_load((const uint8_t *)&w[0]);
    x_store(rk + 16 * nr, x_shuf(k, x_bc(gf_sr[nr & 3])));
    aesir_wipe(w, sizeof(w));
    aesir_wipe(&k, sizeof(k));
}

/* ---------------------------------------------------------------------
 * Bulk on ymm (AVX2): groups of 8, 4, 1 registers, the last odd block on
 * xmm. Groups load all their input before they store (in == out).
 * ------------------------------------------------------------------- */

typedef void (*y_group_fn)(const uint8_t *rk, unsigned nr, yv *s);
typedef void (*x_group_fn)(const uint8_t *rk, unsigned nr, xv *s);

ENGINE_INLINE void y_ecb_group(const uint8_t *rk, unsigned nr, uint8_t *out,
                               const uint8_t *in, unsigned nb, y_group_fn f)
{
    yv s[8];
    for (unsigned b = 0; b < nb; b++)
        s[b] = y_load(in + 32 * b);
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        y_store(out + 32 * b, s[b]);
}

/* ECB after the wide loop: fewer than 16 blocks. */
ENGINE_INLINE void y_ecb_tail(const uint8_t *rk, unsigned nr, uint8_t *out,
                              const uint8_t *in, size_t n, y_group_fn f4,
                              y_group_fn f2, y_group_fn f1, x_group_fn x1)
{
    for (; n >= 8; n -= 8, in += 128, out += 128)
        y_ecb_group(rk, nr, out, in, 4, f4);
    if (n >= 4) {
        y_ecb_group(rk, nr, out, in, 2, f2);
        n -= 4, in += 64, out += 64;
    }
    if (n >= 2) {
        y_ecb_group(rk, nr, out, in, 1, f1);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1) {
        xv s = x_load(in);
        x1(rk, nr, &s);
        x_store(out, s);
    }
}

STACK_WIPE_BODY ENGINE_FN void gfni_y_encrypt_body(const void *rkv, unsigned nr,
                                                   uint8_t *out,
                                                   const uint8_t *in, size_t n)
{
    const uint8_t *rk = rkv;
    for (; n >= 16; n -= 16, in += 256, out += 256)
        y_ecb_group(rk, nr, out, in, 8, gfni_y_enc8);
    y_ecb_tail(rk, nr, out, in, n, gfni_y_enc4, gfni_y_enc2, gfni_y_enc1,
               gfni_x_enc1);
}

STACK_WIPE_BODY ENGINE_FN void gfni_y_decrypt_body(const void *rkv, unsigned nr,
                                                   uint8_t *out,
                                                   const uint8_t *in, size_t n)
{
    const uint8_t *rk = rkv;
    for (; n >= 16; n -= 16, in += 256, out += 256)
        y_ecb_group(rk, nr, out, in, 8, gfni_y_dec8);
    y_ecb_tail(rk, nr, out, in, n, gfni_y_dec4, gfni_y_dec2, gfni_y_dec1,
               gfni_x_dec1);
}

/* Bulk on zmm: 16 blocks (4 zmm) per group, the rest by the ymm code. */
GF_ZMM_FN void gfni_z_ecb(const uint8_t *rk, unsigned nr, uint8_t *out,
                          const uint8_t *in, size_t n, int dec)
{
    for (; n >= 16; n -= 16, in += 256, out += 256) {
        zv s[4];
        for (unsigned b = 0; b < 4; b++)
            s[b] = z_load(in + 64 * b);
        if (dec)
            gfni_z_dec4(rk, nr, s);
        else
            gfni_z_enc4(rk, nr, s);
        for (unsigned b = 0; b < 4; b++)
            z_store(out + 64 * b, s[b]);
    }
    if (dec)
        y_ecb_tail(rk, nr, out, in, n, gfni_y_dec4, gfni_y_dec2, gfni_y_dec1,
                   gfni_x_dec1);
    else
        y_ecb_tail(rk, nr, out, in, n, gfni_y_enc4, gfni_y_enc2, gfni_y_enc1,
                   gfni_x_enc1);
}

STACK_WIPE_BODY GF_ZMM_FN void gfni_z_encrypt_body(const void *rk, unsigned nr,
                                                   uint8_t *out,
                                                   const uint8_t *in, size_t n)
{
    gfni_z_ecb(rk, nr, out, in, n, 0);
}

STACK_WIPE_BODY GF_ZMM_FN void gfni_z_decrypt_body(const void *rk, unsigned nr,
                                                   uint8_t *out,
                                                   const uint8_t *in, size_t n)
{
    gfni_z_ecb(rk, nr, out, in, n, 1);
}

/* ---------------------------------------------------------------------
 * CTR. While the low 32 bits of the counter do not wrap within the call
 * (a public property of the counter), the counter blocks are kept with
 * their last word byte-reversed, stepped by vpaddd and put back in byte
 * order with one vpshufb; otherwise they are made one by one with a full
 * 128-bit increment (the scalar pair hi, lo).
 * ------------------------------------------------------------------- */

/* Byte order of a block with its last 32-bit word reversed (an
 * involution: the same vector converts both ways). */
static _Alignas(16) const uint8_t ctr_swap32[16] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12};

ENGINE_INLINE xv x_counter(uint64_t hi, uint64_t lo)
{
    return _mm_set_epi64x((long long)__builtin_bswap64(lo),
                          (long long)__builtin_bswap64(hi));
}

ENGINE_INLINE xv x_counter_next(uint64_t *hi, uint64_t *lo)
{
    xv c = x_counter(*hi, *lo);
    *lo += 1;
    *hi += *lo == 0;
    return c;
}

ENGINE_INLINE yv y_counters_slow(uint64_t *hi, uint64_t *lo)
{
    xv c0 = x_counter_next(hi, lo), c1 = x_counter_next(hi, lo);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(c0), c1, 1);
}

/* nb registers of counters, from c (fast) or from hi, lo. */
ENGINE_INLINE void y_ctr_group(const uint8_t *rk, unsigned nr, yv *c, int fast,
                               uint64_t *hi, uint64_t *lo, uint8_t *out,
                               const uint8_t *in, unsigned nb, y_group_fn f)
{
    const yv swap = y_bc(ctr_swap32);
    const yv two = _mm256_set_epi32(2, 0, 0, 0, 2, 0, 0, 0);
    yv s[8];

    for (unsigned b = 0; b < nb; b++) {
        if (fast) {
            s[b] = y_shuf(*c, swap);
            *c = _mm256_add_epi32(*c, two);
        } else {
            s[b] = y_counters_slow(hi, lo);
        }
    }
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        y_store(out + 32 * b, y_xor(y_load(in + 32 * b), s[b]));
    aesir_wipe(s, sizeof(s)); /* keystream */
}

/* The tail of a CTR call (n < 16 blocks left of total), then the
 * counter written back. c: the next two counters and hi, lo the current
 * scalar counter, whichever of the two the public `fast` says is in use;
 * in the fast case hi, lo catch up from ctr (not yet written back). */
ENGINE_INLINE void y_ctr_tail(const uint8_t *rk, unsigned nr, uint8_t ctr[16],
                              yv c, int fast, uint64_t hi, uint64_t lo,
                              uint8_t *out, const uint8_t *in, size_t n,
                              size_t total)
{
    for (; n >= 8; n -= 8, in += 128, out += 128)
        y_ctr_group(rk, nr, &c, fast, &hi, &lo, out, in, 4, gfni_y_enc4);
    if (n >= 4) {
        y_ctr_group(rk, nr, &c, fast, &hi, &lo, out, in, 2, gfni_y_enc2);
        n -= 4, in += 64, out += 64;
    }
    if (n >= 2) {
        y_ctr_group(rk, nr, &c, fast, &hi, &lo, out, in, 1, gfni_y_enc1);
        n -= 2, in += 32, out += 32;
    }
    if (fast) {
        const size_t done = total - n;
        hi = aesir_load_be64(ctr);
        lo = aesir_load_be64(ctr + 8) + done;
        hi += lo < done;
    }
    if (n == 1) {
        xv s = x_counter_next(&hi, &lo);
        gfni_x_enc1(rk, nr, &s);
        x_store(out, x_xor(x_load(in), s));
        aesir_wipe(&s, sizeof(s));
    }
    aesir_store_be64(ctr, hi);
    aesir_store_be64(ctr + 8, lo);
}

/* Lane 0 = ctr, lane 1 = ctr + 1, last words byte-reversed. */
ENGINE_INLINE yv y_ctr_start(const uint8_t ctr[16])
{
    const yv swap = y_bc(ctr_swap32);
    return _mm256_add_epi32(
        y_shuf(_mm256_broadcastsi128_si256(x_load(ctr)), swap),
        _mm256_set_epi32(1, 0, 0, 0, 0, 0, 0, 0));
}

STACK_WIPE_BODY ENGINE_FN void gfni_y_ctr_body(const void *rkv, unsigned nr,
                                               uint8_t ctr[16], uint8_t *out,
                                               const uint8_t *in,
                                               size_t nblocks)
{
    const uint8_t *rk = rkv;
    uint64_t hi = aesir_load_be64(ctr), lo = aesir_load_be64(ctr + 8);
    /* Public: whether the low word can carry during this call. */
    const int fast = (uint64_t)(uint32_t)lo + nblocks <= 0x100000000ull;
    yv c = y_ctr_start(ctr);
    size_t n = nblocks;

    for (; n >= 16; n -= 16, in += 256, out += 256)
        y_ctr_group(rk, nr, &c, fast, &hi, &lo, out, in, 8, gfni_y_enc8);
    y_ctr_tail(rk, nr, ctr, c, fast, hi, lo, out, in, n, nblocks);
}

/* zmm: 4 counters per register. */
STACK_WIPE_BODY GF_ZMM_FN void gfni_z_ctr_body(const void *rkv, unsigned nr,
                                               uint8_t ctr[16], uint8_t *out,
                                               const uint8_t *in,
                                               size_t nblocks)
{
    const uint8_t *rk = rkv;
    uint64_t hi = aesir_load_be64(ctr), lo = aesir_load_be64(ctr + 8);
    const int fast = (uint64_t)(uint32_t)lo + nblocks <= 0x100000000ull;
    const zv swap = z_bc(ctr_swap32);
    const zv four =
        _mm512_set_epi32(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0);
    zv c = _mm512_add_epi32(
        z_shuf(_mm512_broadcast_i32x4(x_load(ctr)), swap),
        _mm512_set_epi32(3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0));
    size_t n = nblocks;

    for (; n >= 16; n -= 16, in += 256, out += 256) {
        zv s[4];
        for (unsigned b = 0; b < 4; b++) {
            if (fast) {
                s[b] = z_shuf(c, swap);
                c = _mm512_add_epi32(c, four);
            } else {
                xv q[4];
                for (unsigned i = 0; i < 4; i++)
                    q[i] = x_counter_next(&hi, &lo);
                s[b] = _mm512_inserti32x4(
                    _mm512_inserti32x4(
                        _mm512_inserti32x4(_mm512_castsi128_si512(q[0]), q[1],
                                           1),
                        q[2], 2),
                    q[3], 3);
            }
        }
        gfni_z_enc4(rk, nr, s);
        for (unsigned b = 0; b < 4; b++)
            z_store(out + 64 * b, z_xor(z_load(in + 64 * b), s[b]));
        aesir_wipe(s, sizeof(s));
    }
    y_ctr_tail(rk, nr, ctr, _mm512_castsi512_si256(c), fast, hi, lo, out, in, n,
               nblocks);
}

/* ---------------------------------------------------------------------
 * CBC decryption: register b of a group holds blocks 2b, 2b+1 and is
 * XORed after decryption with blocks 2b-1, 2b: an unaligned load from
 * in + 32b - 16, except for the group's first register, whose low lane
 * is the previous ciphertext block (the IV at first).
 * ------------------------------------------------------------------- */

ENGINE_INLINE void y_cbc_dec_group(const uint8_t *rk, unsigned nr, xv *prev,
                                   uint8_t *out, const uint8_t *in, unsigned nb,
                                   y_group_fn f)
{
    yv s[8], c[8];

    c[0] =
        _mm256_inserti128_si256(_mm256_castsi128_si256(*prev), x_load(in), 1);
    for (unsigned b = 1; b < nb; b++)
        c[b] = y_load(in + 32 * b - 16);
    for (unsigned b = 0; b < nb; b++)
        s[b] = y_load(in + 32 * b);
    *prev = x_load(in + 32 * nb - 16);
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        y_store(out + 32 * b, y_xor(s[b], c[b]));
    aesir_wipe(s, sizeof(s)); /* plaintext before the XOR */
}

ENGINE_INLINE void y_cbc_dec_tail(const uint8_t *rk, unsigned nr,
                                  uint8_t iv[16], xv prev, uint8_t *out,
                                  const uint8_t *in, size_t n)
{
    for (; n >= 8; n -= 8, in += 128, out += 128)
        y_cbc_dec_group(rk, nr, &prev, out, in, 4, gfni_y_dec4);
    if (n >= 4) {
        y_cbc_dec_group(rk, nr, &prev, out, in, 2, gfni_y_dec2);
        n -= 4, in += 64, out += 64;
    }
    if (n >= 2) {
        y_cbc_dec_group(rk, nr, &prev, out, in, 1, gfni_y_dec1);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1) {
        xv c = x_load(in), x = c;
        gfni_x_dec1(rk, nr, &x);
        x_store(out, x_xor(x, prev));
        prev = c;
        aesir_wipe(&x, sizeof(x));
    }
    x_store(iv, prev);
}

STACK_WIPE_BODY ENGINE_FN void gfni_y_cbc_dec_body(const void *rkv, unsigned nr,
                                                   uint8_t iv[16], uint8_t *out,
                                                   const uint8_t *in, size_t n)
{
    const uint8_t *rk = rkv;
    xv prev = x_load(iv);

    for (; n >= 16; n -= 16, in += 256, out += 256)
        y_cbc_dec_group(rk, nr, &prev, out, in, 8, gfni_y_dec8);
    y_cbc_dec_tail(rk, nr, iv, prev, out, in, n);
}

/* zmm: register b holds blocks 4b..4b+3, XORed with the 64 bytes at
 * in + 64b - 16 (the first register's low lane: prev). */
STACK_WIPE_BODY GF_ZMM_FN void gfni_z_cbc_dec_body(const void *rkv, unsigned nr,
                                                   uint8_t iv[16], uint8_t *out,
                                                   const uint8_t *in, size_t n)
{
    const uint8_t *rk = rkv;
    xv prev = x_load(iv);

    for (; n >= 16; n -= 16, in += 256, out += 256) {
        zv s[4], c[4];
        c[0] = _mm512_inserti32x4(
            _mm512_castsi256_si512(_mm256_inserti128_si256(
                _mm256_castsi128_si256(prev), x_load(in), 1)),
            x_load(in + 16), 2);
        c[0] = _mm512_inserti32x4(c[0], x_load(in + 32), 3);
        for (unsigned b = 1; b < 4; b++)
            c[b] = z_load(in + 64 * b - 16);
        for (unsigned b = 0; b < 4; b++)
            s[b] = z_load(in + 64 * b);
        prev = x_load(in + 240);
        gfni_z_dec4(rk, nr, s);
        for (unsigned b = 0; b < 4; b++)
            z_store(out + 64 * b, z_xor(s[b], c[b]));
        aesir_wipe(s, sizeof(s));
    }
    y_cbc_dec_tail(rk, nr, iv, prev, out, in, n);
}

/* ---------------------------------------------------------------------
 * CBC encryption: serial, one block at a time on xmm, the latency round
 * of the header: S and 2S from two independent gf2p8affineinvqb, the
 * four products rotated at once. The chain per round is GF (3 cycles
 * on Zen 4), XOR, shuffle, two XORs -- one with vpternlogd where
 * AVX-512VL is there. The block boundary: the ciphertext is
 * SR^nr(S ^ k_nr), and the next state is it XOR (p ^ k_0), the bracket
 * computed off the chain.
 * ------------------------------------------------------------------- */

#define GF_CBC_ENC(name, FN, XOR3)                                             \
    STACK_WIPE_BODY FN void name(const void *rkv, unsigned nr, uint8_t iv[16], \
                                 uint8_t *out, const uint8_t *in, size_t n)    \
    {                                                                          \
        const uint8_t *rk = rkv;                                               \
        const xv k0 = x_bc(rk), kl = x_bc(rk + 16 * nr);                       \
        const xv sr = x_bc(gf_sr[nr & 3]);                                     \
        xv c = x_load(iv);                                                     \
                                                                               \
        for (; n > 0; n--, in += 16, out += 16) {                              \
            xv z = x_xor(c, x_xor(x_load(in), k0));                            \
            for (unsigned r = 1; r < nr; r++) {                                \
                const unsigned j = r & 3;                                      \
                xv s = X_GFI(z, GF_AFF, GF_C63);                               \
                xv s2 = X_GFI(z, GF_AFF2, GF_C63X2);                           \
                xv a = x_xor(s2, x_bc(rk + 16 * r));                           \
                xv b = x_shuf(x_xor(s, s2), x_bc(gf_rot1[j]));                 \
                xv d = x_xor(x_shuf(s, x_bc(gf_rot2[j])),                      \
                             x_shuf(s, x_bc(gf_rot3[j])));                     \
                z = XOR3(a, b, d);                                             \
            }                                                                  \
            c = x_shuf(x_xor(X_GFI(z, GF_AFF, GF_C63), kl), sr);               \
            x_store(out, c);                                                   \
        }                                                                      \
        x_store(iv, c);                                                        \
    }

ENGINE_INLINE xv xor3_plain(xv a, xv b, xv d)
{
    return x_xor(a, x_xor(b, d));
}

GF_VL_INLINE xv xor3_tern(xv a, xv b, xv d)
{
    return _mm_ternarylogic_epi32(a, b, d, 0x96);
}

GF_CBC_ENC(gfni_cbc_enc_avx2_body, ENGINE_FN, xor3_plain)
GF_CBC_ENC(gfni_cbc_enc_vl_body, GF_VL_FN, xor3_tern)

/* ---------------------------------------------------------------------
 * The engine: the zmm bulk paths where AVX-512BW is there, else ymm.
 * ------------------------------------------------------------------- */

#define GF_DESCRIPTION "GFNI S-box (gf2p8affineinvqb), no AES instructions, "

/*
 * The entry points: each body, then the stack it used wiped
 * (stack_wipe.h). Eight ymm blocks in flight spill on 16 registers, and
 * with 32 the out-of-line groups still pass their blocks through memory;
 * gcc 12 left keystream and plaintext there, clang 14 other values. The
 * bodies reach 720 bytes deep (CTR on ymm), CBC decryption 952, the
 * serial CBC encryption 40, key setup 368.
 */
#define GF_STACK 1024
#define GF_CBC_DEC_STACK 1216
#define GF_SERIAL_STACK 320
#define GF_KEY_STACK 640
STACK_WIPED_SETKEY(gfni_setkey_enc, gfni_setkey_enc_body, GF_KEY_STACK)
STACK_WIPED_SETKEY(gfni_setkey_dec, gfni_setkey_dec_body, GF_KEY_STACK)
STACK_WIPED_BLOCKS(gfni_y_encrypt, gfni_y_encrypt_body, GF_STACK)
STACK_WIPED_BLOCKS(gfni_y_decrypt, gfni_y_decrypt_body, GF_STACK)
STACK_WIPED_BLOCKS(gfni_z_encrypt, gfni_z_encrypt_body, GF_STACK)
STACK_WIPED_BLOCKS(gfni_z_decrypt, gfni_z_decrypt_body, GF_STACK)
STACK_WIPED_CHAIN(gfni_y_ctr, gfni_y_ctr_body, GF_STACK)
STACK_WIPED_CHAIN(gfni_z_ctr, gfni_z_ctr_body, GF_STACK)
STACK_WIPED_CHAIN(gfni_y_cbc_dec, gfni_y_cbc_dec_body, GF_CBC_DEC_STACK)
STACK_WIPED_CHAIN(gfni_z_cbc_dec, gfni_z_cbc_dec_body, GF_CBC_DEC_STACK)
STACK_WIPED_CHAIN(gfni_cbc_enc_avx2, gfni_cbc_enc_avx2_body, GF_SERIAL_STACK)
STACK_WIPED_CHAIN(gfni_cbc_enc_vl, gfni_cbc_enc_vl_body, GF_SERIAL_STACK)

void aesir_gfni_aes_round(uint8_t *state, const uint8_t *rk, size_t n);

static const struct aesir_engine engine_avx2 = {
    .name = "gfni",
    .description = GF_DESCRIPTION "AVX2, 2 blocks per ymm, 16 interleaved",
    .flags = ENGINE_CT,
    .batch = 16,
    .setkey_enc = gfni_setkey_enc,
    .setkey_dec = gfni_setkey_dec,
    .encrypt = gfni_y_encrypt,
    .decrypt = gfni_y_decrypt,
    .ctr = gfni_y_ctr,
    .cbc_enc = gfni_cbc_enc_avx2,
    .cbc_dec = gfni_y_cbc_dec,
    .aes_round = aesir_gfni_aes_round, /* gfni_aegis.c */
};

static const struct aesir_engine engine_avx512 = {
    .name = "gfni",
    .description = GF_DESCRIPTION "AVX-512, 4 blocks per zmm, 16 interleaved",
    .flags = ENGINE_CT,
    .batch = 16,
    .setkey_enc = gfni_setkey_enc,
    .setkey_dec = gfni_setkey_dec,
    .encrypt = gfni_z_encrypt,
    .decrypt = gfni_z_decrypt,
    .ctr = gfni_z_ctr,
    .cbc_enc = gfni_cbc_enc_vl,
    .cbc_dec = gfni_z_cbc_dec,
    .aes_round = aesir_gfni_aes_round,
};

/* GFNI with VEX encoding needs AVX; AVX2 for the ymm integer ops. SSSE3
 * (vpshufb) is implied by AVX2 on every CPU but asked for, so that masking
 * it (AESIR_CPU_DISABLE) masks this engine, as it does vperm-avx2. */
const struct aesir_engine *aesir_engine_gfni(void)
{
    const uint32_t need =
        AESIR_CPU_GFNI | AESIR_CPU_SSSE3 | AESIR_CPU_AVX | AESIR_CPU_AVX2;
    const uint32_t wide =
        need | AESIR_CPU_AVX512F | AESIR_CPU_AVX512BW | AESIR_CPU_AVX512VL;
    const uint32_t f = aesir_cpu_features();

    if ((f & wide) == wide)
        return &engine_avx512;
    return (f & need) == need ? &engine_avx2 : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_gfni(void)
{
    return NULL;
}

#endif
