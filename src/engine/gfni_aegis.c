/*
 * gfni_aegis.c -- the gfni engine's AES round for AEGIS (internal.h,
 * aes_round), so that the generic AEGIS (src/aead/aegis.c) runs on this
 * engine's S-box instead of ct64's bitsliced one.
 *
 * AESRound(x, k) = MixColumns(ShiftRows(SubBytes(x))) ^ k (draft-irtf-
 * cfrg-aegis-aead section 2), in the AES basis on both sides: the state
 * leaves the round function after every round, so the frames of gfni.c
 * (ShiftRows deferred across rounds) do not apply and ShiftRows is one
 * shuffle. With a = ShiftRows(S(x)) and a_r the byte r rows down in its
 * column (FIPS-197 5.1.3):
 *
 *   s  = gf2p8affineinvqb(x, A, 0x63)          SubBytes (gfni.c)
 *   a  = ShiftRows(s)                          1 shuffle
 *   r1 = rot1(a), c = a ^ r1                   1 shuffle
 *   out = 2.c ^ r1 ^ rot2(c) ^ k               gf2p8affineqb(c, 2), 1 shuffle
 *       = 2a_r ^ 3a_(r+1) ^ a_(r+2) ^ a_(r+3) ^ k
 *
 * 2 GF instructions, 3 shuffles, 3 XORs per register: two states per
 * ymm (each shuffle index stays inside its 16-byte lane), a last odd
 * state on xmm. The matrices are gfni.c's (tools/gen_gfni_matrices.py).
 *
 * CPU: the gfni engine's (GFNI, AVX2). Constant time: yes, as the engine
 * (gfni.c's header): no branch or address depends on the data.
 */
#define ENGINE_ISA "gfni,avx2"
#include "engine.h"
#include "stack_wipe.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define GF_AFF 0xF1E3C78F1F3E7CF8ULL  /* A: S(x) = A.inv(x) + 0x63 (gfni.c) */
#define GF_MUL2 0x8081028488102040ULL /* x -> 2.x (gfni.c) */

/* vpshufb indices, out[i] = in[idx[i]], byte 4c + r = row r, column c:
 * ShiftRows (row r from column c + r), rows rotated up by 1 and by 2. */
static _Alignas(32) const uint8_t gf_round_idx[3][32] = {
    {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11,
     0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11},
    {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
     1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12},
    {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
     2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13}};

ENGINE_INLINE __m256i y_round(__m256i x, __m256i k)
{
    const __m256i sr = _mm256_load_si256((const __m256i *)gf_round_idx[0]);
    const __m256i rot1 = _mm256_load_si256((const __m256i *)gf_round_idx[1]);
    const __m256i rot2 = _mm256_load_si256((const __m256i *)gf_round_idx[2]);
    const __m256i a =
        _mm256_shuffle_epi8(_mm256_gf2p8affineinv_epi64_epi8(
                                x, _mm256_set1_epi64x((long long)GF_AFF), 0x63),
                            sr);
    const __m256i r1 = _mm256_shuffle_epi8(a, rot1);
    const __m256i c = _mm256_xor_si256(a, r1);
    const __m256i c2 = _mm256_gf2p8affine_epi64_epi8(
        c, _mm256_set1_epi64x((long long)GF_MUL2), 0);
    return _mm256_xor_si256(_mm256_xor_si256(c2, r1),
                            _mm256_xor_si256(_mm256_shuffle_epi8(c, rot2), k));
}

ENGINE_INLINE __m128i x_round(__m128i x, __m128i k)
{
    const __m128i sr = _mm_load_si128((const __m128i *)gf_round_idx[0]);
    const __m128i rot1 = _mm_load_si128((const __m128i *)gf_round_idx[1]);
    const __m128i rot2 = _mm_load_si128((const __m128i *)gf_round_idx[2]);
    const __m128i a =
        _mm_shuffle_epi8(_mm_gf2p8affineinv_epi64_epi8(
                             x, _mm_set1_epi64x((long long)GF_AFF), 0x63),
                         sr);
    const __m128i r1 = _mm_shuffle_epi8(a, rot1);
    const __m128i c = _mm_xor_si128(a, r1);
    const __m128i c2 =
        _mm_gf2p8affine_epi64_epi8(c, _mm_set1_epi64x((long long)GF_MUL2), 0);
    return _mm_xor_si128(_mm_xor_si128(c2, r1),
                         _mm_xor_si128(_mm_shuffle_epi8(c, rot2), k));
}

#define Y_LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define Y_ST(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

/* Four ymm (8 states, one AEGIS-128L update) per pass: their chains of
 * GF instructions and shuffles interleave. */
STACK_WIPE_BODY ENGINE_FN void gfni_aes_round_body(uint8_t *state,
                                                   const uint8_t *rk, size_t n)
{
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        const __m256i a = y_round(Y_LD(state + 16 * i), Y_LD(rk + 16 * i));
        const __m256i b =
            y_round(Y_LD(state + 16 * i + 32), Y_LD(rk + 16 * i + 32));
        const __m256i c =
            y_round(Y_LD(state + 16 * i + 64), Y_LD(rk + 16 * i + 64));
        const __m256i d =
            y_round(Y_LD(state + 16 * i + 96), Y_LD(rk + 16 * i + 96));
        Y_ST(state + 16 * i, a);
        Y_ST(state + 16 * i + 32, b);
        Y_ST(state + 16 * i + 64, c);
        Y_ST(state + 16 * i + 96, d);
    }
    for (; n - i >= 2; i += 2)
        Y_ST(state + 16 * i, y_round(Y_LD(state + 16 * i), Y_LD(rk + 16 * i)));
    if (i < n) {
        __m128i *s = (__m128i *)(void *)(state + 16 * i);
        _mm_storeu_si128(
            s, x_round(_mm_loadu_si128(s),
                       _mm_loadu_si128(
                           (const __m128i *)(const void *)(rk + 16 * i))));
    }
}

void aesir_gfni_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
void aesir_gfni_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    gfni_aes_round_body(state, rk, n);
    aesir_wipe_stack(512);
}

#endif
