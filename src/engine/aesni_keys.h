/*
 * aesni_keys.h -- AES key expansion (FIPS-197 section 5.2) and the
 * equivalent inverse cipher's decryption schedule (section 5.3.5) with
 * AES-NI, for the engines that include it (vaes_avx2.c, vaes_avx512.c).
 *
 * SubWord without aeskeygenassist. When all four columns of a state hold
 * the same word, ShiftRows moves each byte to a column holding the same
 * bytes, so aesenclast(state, key) = SubBytes(state) ^ key: one
 * aesenclast on a broadcast word computes SubWord, and with the round
 * constant as the key, SubWord ^ Rcon, in every column at once. RotWord
 * is folded into the pshufb that broadcasts the word. Gueron describes
 * this use of aesenclast for key expansion in "Intel Advanced Encryption
 * Standard (AES) New Instructions Set" (Intel white paper 323641, rev.
 * 3.01, 2012, section on software key expansion); it avoids
 * aeskeygenassist, which is microcoded and slower on several cores. The
 * rest of each step is the prefix XOR of the previous words (two
 * shift-and-XOR pairs).
 *
 * Constant time: only AES instructions, shuffles and XORs; the only
 * branches are on the key length.
 *
 * Every function is always_inline with the target "aes,ssse3", a subset
 * of the including engines' targets, so the code is generated inside the
 * caller (VEX-encoded there, no SSE/AVX transition).
 */
#ifndef AESIR_AESNI_KEYS_H
#define AESIR_AESNI_KEYS_H

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "internal.h"

#define AK_FN static inline __attribute__((always_inline, target("aes,ssse3")))

/* v, which the compiler may no longer re-associate with what follows:
 * without it, gcc folds prefix_xor's last XOR behind the aesenclast, two
 * XORs on the chain instead of one (6 cycles per step instead of 5). */
AK_FN __m128i ak_pin(__m128i v)
{
    __asm__("" : "+x"(v));
    return v;
}

/* [w0, w0^w1, w0^w1^w2, w0^w1^w2^w3] for w = [w0, w1, w2, w3]. */
AK_FN __m128i ak_prefix_xor(__m128i w)
{
    w = _mm_xor_si128(w, _mm_slli_si128(w, 4));
    return ak_pin(_mm_xor_si128(w, _mm_slli_si128(w, 8)));
}

/* [w0, w0^w1, ..] ^ broadcast(word 3 of p): AES-192's words 4..5 of the
 * next window (words 2..3 of the result are never used). */
AK_FN __m128i ak_prefix2_xor(__m128i w, __m128i p)
{
    w = _mm_xor_si128(w, _mm_slli_si128(w, 4));
    return ak_pin(_mm_xor_si128(w, _mm_shuffle_epi32(p, 0xff)));
}

/* SubWord(RotWord(word i of w)) ^ rcon, in all four columns. rot is the
 * pshufb mask that broadcasts word i rotated by one byte. */
AK_FN __m128i ak_subrot(__m128i w, __m128i rot, uint32_t rcon)
{
    return _mm_aesenclast_si128(_mm_shuffle_epi8(w, rot),
                                _mm_set1_epi32((int)rcon));
}

/* SubWord(word 3 of w) in all four columns (AES-256's middle step). */
AK_FN __m128i ak_sub3(__m128i w)
{
    return _mm_aesenclast_si128(_mm_shuffle_epi32(w, 0xff),
                                _mm_setzero_si128());
}

/* The rotation masks: word 3 (bytes 12..15) and word 1 (bytes 4..7),
 * RotWord [a0 a1 a2 a3] -> [a1 a2 a3 a0], broadcast. */
#define AK_ROT3                                                                \
    _mm_setr_epi8(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15,  \
                  12)
#define AK_ROT1 _mm_setr_epi8(5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4)

/* Round key r goes to out + stride * r (16-byte aligned). */
#define AK_PUT(out, stride, r, v)                                              \
    _mm_store_si128((__m128i *)((out) + (stride) * (size_t)(r)), (v))

/*
 * ak_expand -- writes the nr + 1 round keys of key (key_len 16, 24 or 32
 * bytes; anything else is treated as 32) to out + stride * r; returns nr.
 *
 * AES-192 runs on the six-word window (a = words 0..3, b = words 4..5 in
 * the low half, its upper half never read) and repacks every two steps
 * into three round keys, each stored whole:
 *
 *      words:  a0 a0 a0 a0 | b0 b0 a1 a1 | a1 a1 b1 b1 | a2 ...
 *      keys:   rk 3j        rk 3j+1       rk 3j+2       rk 3j+3
 */
AK_FN unsigned ak_expand(uint8_t *out, size_t stride, const uint8_t *key,
                         size_t key_len)
{
    __m128i a = _mm_loadu_si128((const __m128i *)key);
    uint32_t rcon = 1;

    AK_PUT(out, stride, 0, a);
    if (key_len == 16) {
        for (unsigned r = 1; r <= 10; r++) {
            a = _mm_xor_si128(ak_prefix_xor(a), ak_subrot(a, AK_ROT3, rcon));
            AK_PUT(out, stride, r, a);
            rcon = (rcon << 1) ^ (0x11b & -(rcon >> 7));
        }
        return 10;
    }
    if (key_len == 24) {
        /* Every new register is one XOR away from its aesenclast: word 3
         * of a1 is word 3 of prefix_xor(a) ^ t, and t is a broadcast. */
        __m128i b = _mm_loadl_epi64((const __m128i *)(key + 16));
        for (unsigned j = 0; j < 4; j++) {
            __m128i pa, a1, b1, t;
            t = ak_subrot(b, AK_ROT1, rcon);
            rcon <<= 1;
            pa = ak_prefix_xor(a);
            a1 = _mm_xor_si128(pa, t);
            b1 = _mm_xor_si128(ak_prefix2_xor(b, pa), t);
            AK_PUT(out, stride, 3 * j + 1, _mm_unpacklo_epi64(b, a1));
            AK_PUT(out, stride, 3 * j + 2,
                   _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(a1),
                                                   _mm_castsi128_pd(b1), 1)));
            t = ak_subrot(b1, AK_ROT1, rcon);
            rcon <<= 1;
            pa = ak_prefix_xor(a1);
            a = _mm_xor_si128(pa, t);
            AK_PUT(out, stride, 3 * j + 3, a);
            b = _mm_xor_si128(ak_prefix2_xor(b1, pa), t);
        }
        return 12;
    }
    {
        __m128i b = _mm_loadu_si128((const __m128i *)(key + 16));
        AK_PUT(out, stride, 1, b);
        for (unsigned r = 2;; r += 2) {
            a = _mm_xor_si128(ak_prefix_xor(a), ak_subrot(b, AK_ROT3, rcon));
            AK_PUT(out, stride, r, a);
            if (r == 14)
                break;
            rcon <<= 1;
            b = _mm_xor_si128(ak_prefix_xor(b), ak_sub3(a));
            AK_PUT(out, stride, r + 1, b);
        }
        return 14;
    }
}

/*
 * ak_invert -- turns the encryption schedule at out (stride apart) into
 * the equivalent inverse cipher's, in place: round keys reversed and
 * InvMixColumns (aesimc) applied to rounds 1 .. nr-1.
 */
AK_FN void ak_invert(uint8_t *out, size_t stride, unsigned nr)
{
#define AK_AT(r) ((__m128i *)(out + stride * (size_t)(r)))
    __m128i lo = _mm_load_si128(AK_AT(0)), hi = _mm_load_si128(AK_AT(nr));
    _mm_store_si128(AK_AT(0), hi);
    _mm_store_si128(AK_AT(nr), lo);
    for (unsigned i = 1, j = nr - 1; i <= j; i++, j--) {
        lo = _mm_aesimc_si128(_mm_load_si128(AK_AT(i)));
        hi = _mm_aesimc_si128(_mm_load_si128(AK_AT(j)));
        _mm_store_si128(AK_AT(i), hi);
        _mm_store_si128(AK_AT(j), lo);
    }
#undef AK_AT
}

#endif /* x86 */
#endif /* AESIR_AESNI_KEYS_H */
