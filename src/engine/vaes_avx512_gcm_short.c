/*
 * vaes_avx512_gcm_short.c -- a whole short GCM message in one function on
 * VAES and VPCLMULQDQ with zmm registers: the vaes-avx512 engine's
 * gcm_short path, for the partner GHASH engine ghash-vpclmul-avx512.
 *
 * Why: a 64-byte message through the general code costs some 390 cycles
 * (measured with aesir-bench, gcm-enc 64 B: 0.60 GB/s at 3.69 GHz), of
 * which the AES and carry-less work is about a third; the rest is calls
 * (start, J0, CTR, GHASH per call, length block, tag) and the message
 * state. Peers' short-message paths (intel-ipsec-mb) do everything in one
 * function; so does this one, for messages with a 12-byte IV whose data
 * and additional data take at most 31 blocks together (medium ones, up
 * to GS_MEDIUM bytes, go to a software pipeline: gs_stage8 in
 * vaes_avx512_gcm_stage8.h, stages of 8 vectors, past 512 bytes of
 * decryption and 640 of encryption, gs_medium in vaes_avx512_gcm_medium.h,
 * stages of 4, below; larger ones to the whole-message
 * kernel, aesir_vaes_avx512_gcm_msg in vaes_avx512_gcm.c, so that this entry
 * point takes every length):
 *
 *   - AES: the counters J0 + 1 .. J0 + n (n <= 31 data blocks) in up to 8
 *     zmm of 4 blocks, and J0 in an xmm, through the rounds together. With
 *     a 12-byte IV the counter starts at 1, so it never passes 32 and its
 *     increments are additions to byte 15 alone (no carry to handle).
 *   - Data: masked byte loads and stores, so the last partial block needs
 *     no scalar loop and nothing past the message is read or written.
 *   - GHASH: the m = a + n + 1 blocks (additional data, ciphertext, the
 *     length block; each zero-padded) are hashed as one sum
 *     X_1 H^m + X_2 H^(m-1) + ... + X_m H with a single reduction: the
 *     key area holds H^32 .. H^1 (times x^-1, ghash_x86.h), highest
 *     first, so the powers for the m blocks are the m consecutive entries
 *     ending at H^1 and one unaligned zmm load takes four of them. The
 *     vectors come straight from masked loads and the ciphertext
 *     registers (zero past the data); lanes past a part's end multiply
 *     zero with whatever follows its powers in the key area, adding zero.
 *
 * Constant time: branches and addresses depend on the lengths only; the
 * tag is returned to gcm.c, which compares it in constant time. The
 * keystream and E_K(J0) stay in registers; nothing goes to the stack.
 */
#include "engine.h"
#include "x86_gcm.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#define ENGINE_ISA_SHORT                                                       \
    "vaes,vpclmulqdq,avx512f,avx512bw,avx512vl,aes,pclmul,sse4.1"
#define GS_FN __attribute__((target(ENGINE_ISA_SHORT)))
#define GS_INLINE                                                              \
    static inline __attribute__((always_inline, target(ENGINE_ISA_SHORT)))

#include <immintrin.h>

#include "ghash.h"

/* Blocks of the longest message and additional data taken, and of the
 * powers of H in ghash-vpclmul-avx512's key area. */
#if defined(__clang__)
#define GS_UNROLL
#else
/* gcc keeps arrays of vectors in registers only when their loops unroll
 * before its scalar replacement pass (as in aesni.c) */
#define GS_UNROLL _Pragma("GCC unroll 16")
#endif

#ifndef GS_DATA
#define GS_DATA 31
#endif
#define GS_POWERS 32

GS_INLINE __m512i gs_rk(const uint8_t *rk, unsigned r)
{
    return _mm512_broadcast_i32x4(
        _mm_load_si128((const __m128i *)(const void *)(rk + 16 * r)));
}

/* The byte mask of bytes [64 g, 64 g + 64) that lie below len. */
GS_INLINE __mmask64 gs_mask(size_t len, unsigned g)
{
    size_t have = len > 64 * (size_t)g ? len - 64 * (size_t)g : 0;
    return have >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << have) - 1;
}

/*
 * Keystream for data blocks 0 .. 4 G - 1 into ks[0 .. G) and E_K(J0)
 * into *ekj0; G (1..8) is a constant once inlined, so the vectors stay in
 * registers through the rounds.
 */
GS_INLINE void gs_keystream(const uint8_t *rk, unsigned nr,
                            const uint8_t iv[12], __m512i *ks, unsigned G,
                            __m128i *ekj0)
{
    uint32_t w2;
    __m128i j0, e;
    __m512i base, k;

    /* J0 = IV || 0^31 || 1 from an 8-byte and a 4-byte load: built in a
     * stack buffer, the 16-byte load over smaller stores would wait for
     * them to retire (store forwarding fails), on the critical path */
    memcpy(&w2, iv + 8, 4);
    j0 = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)iv),
                          (int)w2, 2);
    j0 = _mm_insert_epi32(j0, 0x01000000, 3);
    base = _mm512_broadcast_i32x4(j0);
    /* block j's counter: J0 + 1 + j, in byte 15 (top byte of dword 3) */
    GS_UNROLL
    for (unsigned g = 0; g < G; g++) {
        __m512i inc = _mm512_set_epi32((int)((4 * g + 4) << 24), 0, 0, 0,
                                       (int)((4 * g + 3) << 24), 0, 0, 0,
                                       (int)((4 * g + 2) << 24), 0, 0, 0,
                                       (int)((4 * g + 1) << 24), 0, 0, 0);
        ks[g] = _mm512_add_epi32(base, inc);
    }
    k = gs_rk(rk, 0);
    e = _mm_xor_si128(j0, _mm512_castsi512_si128(k));
    GS_UNROLL
    for (unsigned g = 0; g < G; g++)
        ks[g] = _mm512_xor_si512(ks[g], k);
    for (unsigned r = 1; r < nr; r++) {
        k = gs_rk(rk, r);
        e = _mm_aesenc_si128(e, _mm512_castsi512_si128(k));
        GS_UNROLL
        for (unsigned g = 0; g < G; g++)
            ks[g] = _mm512_aesenc_epi128(ks[g], k);
    }
    k = gs_rk(rk, nr);
    *ekj0 = _mm_aesenclast_si128(e, _mm512_castsi512_si128(k));
    GS_UNROLL
    for (unsigned g = 0; g < G; g++)
        ks[g] = _mm512_aesenclast_epi128(ks[g], k);
}

/*
 * Masked loads and stores whose masked-out bytes lie on another page take
 * a microcode assist (fault suppression) when that page is not mapped:
 * some 250 TSC cycles on Zen 4 per access (a 16-byte message ending at a
 * page boundary, or a NULL pointer with n = 0, went from ~100 to ~350).
 * So a partial vector whose 64 bytes would cross a page boundary goes
 * through a stack copy instead (a branch on the address and the length,
 * both public); the copy is wiped.
 */
GS_INLINE int gs_crosses(const void *p)
{
    return ((uintptr_t)p & 4095) > 4096 - 64;
}

/* The page-crossing copies, byte by byte through a 64-byte stack buffer,
 * without any library call (around a call the compiler keeps the live
 * vectors -- keystream, sums -- on the stack); the empty asm keeps the
 * loop from becoming a memcpy call. The buffer is wiped. */
GS_INLINE __m512i gs_load(const uint8_t *p, size_t n, __mmask64 k)
{
    _Alignas(64) uint8_t t[64];
    __m512i x;
    if (n >= 64 || !gs_crosses(p))
        return _mm512_maskz_loadu_epi8(k, p);
    _mm512_store_si512((void *)t, _mm512_setzero_si512());
    for (size_t i = 0; i < n; i++) {
        t[i] = p[i];
        __asm__("" : : "r"(t) : "memory");
    }
    x = _mm512_load_si512((const void *)t);
    _mm512_store_si512((void *)t, _mm512_setzero_si512());
    __asm__("" : : "r"(t) : "memory");
    return x;
}

GS_INLINE void gs_store(uint8_t *p, size_t n, __mmask64 k, __m512i x)
{
    _Alignas(64) uint8_t t[64];
    if (n >= 64 || !gs_crosses(p)) {
        _mm512_mask_storeu_epi8(p, k, x);
        return;
    }
    _mm512_store_si512((void *)t, x);
    for (size_t i = 0; i < n; i++) {
        p[i] = t[i];
        __asm__("" : : "r"(t) : "memory");
    }
    _mm512_store_si512((void *)t, _mm512_setzero_si512());
    __asm__("" : : "r"(t) : "memory");
}

/* Byte reversal within each 16-byte lane: GCM blocks to the reflected
 * domain of ghash_x86.h. */
GS_INLINE __m512i gs_rev(__m512i x)
{
    return _mm512_shuffle_epi8(
        x, _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                               11, 12, 13, 14, 15)));
}

/* The three partial products of GHASH's sum (Karatsuba's middle as the
 * sum of both cross products), over whole vectors. */
struct gs_acc {
    __m512i lo, hi, mid;
};

/* Adds the 4 blocks x (GCM order, zero lanes add nothing) times the 4
 * powers at p (key-area entries, reflected). Karatsuba: the middle
 * product is (x_lo ^ x_hi)(k_lo ^ k_hi), with k_lo ^ k_hi from the
 * halves table beside the powers (GX_VP512_HALVES, x86_gcm.h), so three
 * carry-less products per vector, not four (on Zen 4 a zmm vpclmulqdq
 * takes the vector pipes two cycles); gs_sum corrects the middle sum by
 * the low and high ones. */
GS_INLINE void gs_mul_add(struct gs_acc *s, __m512i x, const uint8_t *p)
{
    __m512i k = _mm512_loadu_si512((const void *)p);
    __m512i kh = _mm512_loadu_si512((const void *)(p + GX_VP512_HALVES));
    x = gs_rev(x);
    s->lo = _mm512_xor_si512(s->lo, _mm512_clmulepi64_epi128(x, k, 0x00));
    s->hi = _mm512_xor_si512(s->hi, _mm512_clmulepi64_epi128(x, k, 0x11));
    s->mid = _mm512_xor_si512(
        s->mid, _mm512_clmulepi64_epi128(
                    _mm512_xor_si512(x, _mm512_shuffle_epi32(x, _MM_PERM_BADC)),
                    kh, 0x00));
}

GS_INLINE __m128i gs_fold(__m512i v)
{
    __m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(t),
                         _mm256_extracti128_si256(t, 1));
}

/*
 * The products of two vectors x and y (GCM order) with the powers at px
 * and py, added into s: the Karatsuba halves of both made together (the
 * low qwords of both in one vector, the high ones in another, one XOR:
 * three operations for two vectors, not four), each sum with one
 * three-way XOR (as vaes_avx512_gcm_batch.h's pairs do). On Zen 4 every
 * vector operation of the loop costs time, not only the AES rounds and
 * the carry-less products (docs/engines/vaes.md, "The bulk loop").
 */
GS_INLINE void gs_mul_add2(struct gs_acc *s, __m512i x, __m512i y,
                           const uint8_t *px, const uint8_t *py)
{
    const __m512i kx = _mm512_loadu_si512((const void *)px);
    const __m512i ky = _mm512_loadu_si512((const void *)py);
    __m512i m;
    x = gs_rev(x);
    y = gs_rev(y);
    m = _mm512_xor_si512(_mm512_unpacklo_epi64(x, y),
                         _mm512_unpackhi_epi64(x, y));
    s->lo =
        _mm512_ternarylogic_epi64(s->lo, _mm512_clmulepi64_epi128(x, kx, 0x00),
                                  _mm512_clmulepi64_epi128(y, ky, 0x00), 0x96);
    s->hi =
        _mm512_ternarylogic_epi64(s->hi, _mm512_clmulepi64_epi128(x, kx, 0x11),
                                  _mm512_clmulepi64_epi128(y, ky, 0x11), 0x96);
    s->mid = _mm512_ternarylogic_epi64(
        s->mid,
        _mm512_clmulepi64_epi128(
            m, _mm512_loadu_si512((const void *)(px + GX_VP512_HALVES)), 0x00),
        _mm512_clmulepi64_epi128(
            m, _mm512_loadu_si512((const void *)(py + GX_VP512_HALVES)), 0x01),
        0x96);
}

/* The reduced sum of s (reflected): gs_reduce without an extra block.
 * The middle corrected on all four lanes, the lanes halved to two, the
 * two folds on those two lanes, then the two added (the reduction is
 * linear; gx5_finish's order, ghash_x86_zmm.h): 15 instructions where
 * folding each sum to one lane first took 19, and the medium kernels,
 * which reduce once per stage, are bound by their instruction count on
 * Zen 5. */
GS_INLINE __m128i gs_reduce0(const struct gs_acc *s)
{
    const __m256i c = _mm256_set1_epi64x((long long)0xc200000000000000u);
    const __m512i m4 = _mm512_ternarylogic_epi64(s->mid, s->lo, s->hi, 0x96);
    const __m256i lo = _mm256_xor_si256(_mm512_castsi512_si256(s->lo),
                                        _mm512_extracti64x4_epi64(s->lo, 1));
    const __m256i hi = _mm256_xor_si256(_mm512_castsi512_si256(s->hi),
                                        _mm512_extracti64x4_epi64(s->hi, 1));
    __m256i md = _mm256_xor_si256(_mm512_castsi512_si256(m4),
                                  _mm512_extracti64x4_epi64(m4, 1));
    __m256i r;
    md = _mm256_ternarylogic_epi64(md, _mm256_shuffle_epi32(lo, 0x4e),
                                   _mm256_clmulepi64_epi128(lo, c, 0x00), 0x96);
    r = _mm256_ternarylogic_epi64(hi, _mm256_shuffle_epi32(md, 0x4e),
                                  _mm256_clmulepi64_epi128(md, c, 0x00), 0x96);
    return _mm_xor_si128(_mm256_castsi256_si128(r),
                         _mm256_extracti128_si256(r, 1));
}

/*
 * The reduced sum of s plus t (reflected) times K_1 (the last power,
 * entry 31; t = 0 adds nothing), reflected. The lanes are added, the
 * Karatsuba middle corrected, t's schoolbook products added; then the
 * reduction's two folds (ghash_x86.h) go through the middle sum instead of
 * folding it into the others first (E. Biggers' order): the low sum's low
 * qword times 0xc2.. and the swapped low sum into the middle, the same
 * from the middle into the high sum.
 */
GS_INLINE __m128i gs_reduce(const struct gs_acc *s, const uint8_t *hk,
                            __m128i t)
{
    __m128i k = _mm_loadu_si128(
        (const __m128i *)(const void *)(hk + 16 * (GS_POWERS - 1)));
    __m128i c = _mm_set1_epi64x((long long)0xc200000000000000u);
    __m128i l = gs_fold(s->lo), h = gs_fold(s->hi);
    __m128i md = _mm_ternarylogic_epi64(gs_fold(s->mid), l, h, 0x96);

    l = _mm_xor_si128(l, _mm_clmulepi64_si128(t, k, 0x00));
    h = _mm_xor_si128(h, _mm_clmulepi64_si128(t, k, 0x11));
    md = _mm_ternarylogic_epi64(md, _mm_clmulepi64_si128(t, k, 0x01),
                                _mm_clmulepi64_si128(t, k, 0x10), 0x96);
    md = _mm_ternarylogic_epi64(md, _mm_shuffle_epi32(l, 0x4e),
                                _mm_clmulepi64_si128(l, c, 0x00), 0x96);
    return _mm_ternarylogic_epi64(h, _mm_shuffle_epi32(md, 0x4e),
                                  _mm_clmulepi64_si128(md, c, 0x00), 0x96);
}

/*
 * Adds the length block t (reflected) times H, the last power (entry
 * GS_POWERS - 1), into the sums, whose end then needs only gs_reduce0
 * (15 instructions) where adding t there took gs_reduce (29) and
 * lengthened the tag's dependency chain. The lengths are known before
 * any data, so where the sums are fresh (zero: the XORs fold away) these
 * products run beside the first rounds. The Karatsuba middle of t with
 * the halves table's entry, as gs_mul_add does; lanes 1-3 add nothing.
 */
GS_INLINE void gs_len_add(struct gs_acc *s, const uint8_t *hk, __m128i t)
{
    const uint8_t *p = hk + 16 * (GS_POWERS - 1);
    __m128i k = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i kh =
        _mm_loadu_si128((const __m128i *)(const void *)(p + GX_VP512_HALVES));
    s->lo = _mm512_xor_si512(
        s->lo, _mm512_zextsi128_si512(_mm_clmulepi64_si128(t, k, 0x00)));
    s->hi = _mm512_xor_si512(
        s->hi, _mm512_zextsi128_si512(_mm_clmulepi64_si128(t, k, 0x11)));
    s->mid = _mm512_xor_si512(
        s->mid, _mm512_zextsi128_si512(_mm_clmulepi64_si128(
                    _mm_xor_si128(t, _mm_shuffle_epi32(t, 0x4e)), kh, 0x00)));
}

/*
 * The message for G vectors of data (G a constant once inlined). Block i
 * of the m = a + n + 1 hashed blocks takes power H^(m - i), key-area
 * entry 32 - m + i: the additional data's vectors, the data's and the
 * length block each load theirs from that offset, so nothing is gathered
 * through memory (a vector load over several smaller stores would wait
 * for them to retire: store forwarding fails). safe: the page-crossing
 * copies; aad1: aad_len <= 64.
 */
GS_INLINE void gs_run(const uint8_t *rk, unsigned nr, const uint8_t *hk,
                      const uint8_t iv[12], const uint8_t *aad, size_t aad_len,
                      uint8_t *out, const uint8_t *in, size_t len,
                      uint8_t tag[16], int decrypt, unsigned G, int safe,
                      int aad1)
{
    unsigned a = (unsigned)((aad_len + 15) / 16);
    unsigned n = (unsigned)((len + 15) / 16);
    const uint8_t *pw = hk + 16 * (size_t)(GS_POWERS - (a + n + 1));
    struct gs_acc s;
    __m512i ks[8];
    __m128i ekj0, y;

    s.lo = s.hi = s.mid = _mm512_setzero_si512();
    gs_len_add(&s, hk,
               _mm_set_epi64x((long long)((uint64_t)aad_len * 8),
                              (long long)((uint64_t)len * 8)));
    gs_keystream(rk, nr, iv, ks, G, &ekj0);
    /* aad1: at most one vector of additional data, no loop (with a loop
     * gcc ran out of registers, spilled two scalars and so realigned
     * the frame to 64 bytes and saved 6 registers: 1-2 TSC cycles of a
     * 64-byte open) */
    for (unsigned i = 0; aad1 ? i == 0 && a != 0 : i < a; i += 4)
        gs_mul_add(&s,
                   safe ? gs_load(aad + 16 * i, aad_len - 16 * i,
                                  gs_mask(aad_len, i / 4))
                        : _mm512_maskz_loadu_epi8(gs_mask(aad_len, i / 4),
                                                  aad + 16 * i),
                   pw + 16 * i);
    GS_UNROLL
    for (unsigned g = 0; g < G; g++) {
        __m512i x, o;
        if (g + 1 < G || len % 64 == 0) {
            /* a whole vector (only the last can be partial): plain
             * accesses, no mask to make */
            x = _mm512_loadu_si512((const void *)(in + 64 * g));
            o = _mm512_xor_si512(x, ks[g]);
            _mm512_storeu_si512((void *)(out + 64 * g), o);
        } else {
            __mmask64 k = gs_mask(len, g);
            x = safe ? gs_load(in + 64 * g, len - 64 * g, k)
                     : _mm512_maskz_loadu_epi8(k, in + 64 * g);
            o = _mm512_maskz_mov_epi8(k, _mm512_xor_si512(x, ks[g]));
            if (safe)
                gs_store(out + 64 * g, len - 64 * g, k, o);
            else
                _mm512_mask_storeu_epi8(out + 64 * g, k, o);
        }
        gs_mul_add(&s, decrypt ? x : o, pw + 16 * (a + 4 * g));
    }
    y = _mm_shuffle_epi8(
        gs_reduce0(&s),
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(y, ekj0));
}

/* ---- medium messages ------------------------------------------------ */

#include "vaes_avx512_gcm_medium.h"

/* One function per direction and first stage (constants in each
 * instance: one pipeline each), the rounds switched inside. */
#define GS_MEDIUM_FN(name, dec, pre)                                           \
    GS_FN __attribute__((noinline)) static void name(                          \
        const uint8_t *rk, unsigned nr, const uint8_t *hk,                     \
        const uint8_t iv[12], const uint8_t *aad, size_t aad_len,              \
        uint8_t *out, const uint8_t *in, size_t len, uint8_t tag[16])          \
    {                                                                          \
        if (nr == 10)                                                          \
            gs_medium(rk, 10, hk, iv, aad, aad_len, out, in, len, tag, dec,    \
                      pre);                                                    \
        else if (nr == 12)                                                     \
            gs_medium(rk, 12, hk, iv, aad, aad_len, out, in, len, tag, dec,    \
                      pre);                                                    \
        else                                                                   \
            gs_medium(rk, 14, hk, iv, aad, aad_len, out, in, len, tag, dec,    \
                      pre);                                                    \
    }
GS_MEDIUM_FN(gs_medium_dec, 1, 0)

#include "vaes_avx512_gcm_wide.h"

/* Decryption of 8 or 9 vectors (449 .. 576 B): one pass
 * (vaes_avx512_gcm_wide.h). At 8 vectors it measures the same as the
 * medium kernel, but with the 9-vector instance alone in this function
 * the 576-byte open measured 12 TSC cycles slower (91 against 78-79;
 * same instructions, code placement not analysed): keep both. */
GS_FN __attribute__((noinline)) static void
gs_wide_dec_body(const uint8_t *rk, unsigned nr, const uint8_t *hk,
                 const uint8_t iv[12], const uint8_t *aad, size_t aad_len,
                 uint8_t *out, const uint8_t *in, size_t len, uint8_t tag[16])
{
#define GS_WIDE_NR(nrc)                                                        \
    if (len > 64 * 8)                                                          \
        gs_wide_dec(rk, nrc, hk, iv, aad, aad_len, out, in, len, tag, 9);      \
    else                                                                       \
        gs_wide_dec(rk, nrc, hk, iv, aad, aad_len, out, in, len, tag, 8);
    if (nr == 10) {
        GS_WIDE_NR(10)
    } else if (nr == 12) {
        GS_WIDE_NR(12)
    } else {
        GS_WIDE_NR(14)
    }
#undef GS_WIDE_NR
}
GS_MEDIUM_FN(gs_medium_enc, 0, 0)
/* encryption of 513 .. GS_PRE_MAX bytes: a first stage of GS_PRE
 * vectors */
GS_MEDIUM_FN(gs_medium_enc_pre, 0, GS_PRE)
#undef GS_MEDIUM_FN

#include "vaes_avx512_gcm_stage8.h"

/* Stages of 8 vectors (vaes_avx512_gcm_stage8.h), one function per
 * direction, the rounds switched inside. */
#define GS_STAGE8_FN(name, dec)                                                \
    GS_FN __attribute__((noinline)) static void name(                          \
        const uint8_t *rk, unsigned nr, const uint8_t *hk,                     \
        const uint8_t iv[12], const uint8_t *aad, size_t aad_len,              \
        uint8_t *out, const uint8_t *in, size_t len, uint8_t tag[16])          \
    {                                                                          \
        if (nr == 10)                                                          \
            gs_stage8(rk, 10, hk, iv, aad, aad_len, out, in, len, tag, dec);   \
        else if (nr == 12)                                                     \
            gs_stage8(rk, 12, hk, iv, aad, aad_len, out, in, len, tag, dec);   \
        else                                                                   \
            gs_stage8(rk, 14, hk, iv, aad, aad_len, out, in, len, tag, dec);   \
    }
GS_STAGE8_FN(gs_stage8_enc, 0)
GS_STAGE8_FN(gs_stage8_dec, 1)
#undef GS_STAGE8_FN

/* The medium kernels by direction and length: 8-vector stages from
 * where they measured faster (GS_STAGE8_MIN, GS_STAGE8_ENC_MIN), the
 * one-pass decryption and the first stage of GS_PRE below. */
GS_FN static void gs_medium_body(const uint8_t *rk, unsigned nr,
                                 const uint8_t *hk, const uint8_t iv[12],
                                 const uint8_t *aad, size_t aad_len,
                                 uint8_t *out, const uint8_t *in, size_t len,
                                 uint8_t tag[16], int decrypt)
{
    if (decrypt && len > GS_STAGE8_MIN)
        gs_stage8_dec(rk, nr, hk, iv, aad, aad_len, out, in, len, tag);
    else if (!decrypt && len > GS_STAGE8_ENC_MIN)
        gs_stage8_enc(rk, nr, hk, iv, aad, aad_len, out, in, len, tag);
    else if (decrypt && len > 64 * 7 && len <= GS_WIDE_DEC)
        gs_wide_dec_body(rk, nr, hk, iv, aad, aad_len, out, in, len, tag);
    else if (decrypt)
        gs_medium_dec(rk, nr, hk, iv, aad, aad_len, out, in, len, tag);
    else if (len > 64 * GS_PRE && len <= GS_PRE_MAX)
        gs_medium_enc_pre(rk, nr, hk, iv, aad, aad_len, out, in, len, tag);
    else
        gs_medium_enc(rk, nr, hk, iv, aad, aad_len, out, in, len, tag);
}

/* Messages past the one-reduction path: the medium kernels, or the
 * whole-message kernel. */
GS_FN __attribute__((noinline)) static int
gs_long(const void *rk, unsigned nr, const void *hk,
        const struct aesir_gcm_msg *m)
{
    const uint8_t *iv = m->iv, *aad = m->aad, *in = m->in;
    size_t aad_len = m->aad_len, len = m->len;
    uint8_t *out = m->out, *tag = m->tag;
    int decrypt = m->decrypt;
    if (len <= GS_MEDIUM && aad_len <= GS_MAX_AAD) {
        gs_medium_body(ENGINE_RK(rk), nr, (const uint8_t *)hk, iv, aad, aad_len,
                       out, in, len, tag, decrypt);
#if defined(__clang__)
        /* clang 14 spills keystream vectors of the medium and wide
         * functions (frames of 248-2296 bytes, -fstack-usage); gcc
         * 12's 64-72-byte frames hold no secret (test_residue) */
        aesir_wipe_stack(GS_MEDIUM_STACK);
#endif
        return 0;
    }
    return aesir_vaes_avx512_gcm_msg(rk, nr, hk, iv, aad, aad_len, out, in, len,
                                     tag, decrypt);
}

/*
 * The one-reduction path with the page-safe copies (gs_load, gs_store):
 * their 64-byte aligned stack buffer makes a function realign its frame
 * and save registers for it, some 3-4 cycles of a 64-byte message, so
 * it is apart from the common case, gs_run0 .. gs_run8 below. It also
 * takes additional data of more than one vector (65 .. 496 bytes; the
 * common case's instances have no loop over it). All the vector counts
 * in one function: the cases are rare.
 */
GS_FN __attribute__((noinline)) static int
gs_run_safe(const void *rk, unsigned nr, const void *hk,
            const struct aesir_gcm_msg *m)
{
    const uint8_t *k = ENGINE_RK(rk);
    const uint8_t *h = (const uint8_t *)hk;
#define GS_SAFE(G)                                                             \
    gs_run(k, nr, h, m->iv, m->aad, m->aad_len, m->out, m->in, m->len, m->tag, \
           m->decrypt, G, 1, 0)
    switch ((m->len + 63) / 64) {
    case 0:
        GS_SAFE(0);
        break;
    case 1:
        GS_SAFE(1);
        break;
    case 2:
        GS_SAFE(2);
        break;
    case 3:
        GS_SAFE(3);
        break;
    case 4:
        GS_SAFE(4);
        break;
    case 5:
        GS_SAFE(5);
        break;
    case 6:
        GS_SAFE(6);
        break;
    case 7:
        GS_SAFE(7);
        break;
    default:
        GS_SAFE(8);
        break;
    }
#undef GS_SAFE
    return 0;
}

/*
 * One function per vector count G (0..8) of the one-reduction path
 * without the page-crossing copies and with at most 64 bytes of
 * additional data, each with the engine's signature, so that the entry
 * point reaches it with a jump and a 64-byte message saves only the
 * registers its own instance uses. The rounds are unrolled for each key
 * size (nr a constant in each copy): the loop over a variable nr
 * took 8 instructions a round (counter, index, broadcast, 2 rounds, a
 * move, compare, branch), the unrolled rounds 3; at 64 bytes the call
 * is bound by its instruction count, not by a latency chain.
 */
#define GS_RUN_NR(G, nrc)                                                      \
    gs_run(ENGINE_RK(rk), nrc, (const uint8_t *)hk, m->iv, m->aad, m->aad_len, \
           m->out, m->in, m->len, m->tag, m->decrypt, G, 0, 1)
#define GS_RUN_FN(G)                                                           \
    GS_FN __attribute__((noinline)) static int gs_run##G(                      \
        const void *rk, unsigned nr, const void *hk,                           \
        const struct aesir_gcm_msg *m)                                         \
    {                                                                          \
        if (nr == 10)                                                          \
            GS_RUN_NR(G, 10);                                                  \
        else if (nr == 14)                                                     \
            GS_RUN_NR(G, 14);                                                  \
        else                                                                   \
            GS_RUN_NR(G, 12);                                                  \
        return 0;                                                              \
    }
GS_RUN_FN(0)
GS_RUN_FN(1)
GS_RUN_FN(2)
GS_RUN_FN(3)
GS_RUN_FN(4)
GS_RUN_FN(5)
GS_RUN_FN(6)
GS_RUN_FN(7)
GS_RUN_FN(8)
#undef GS_RUN_FN
#undef GS_RUN_NR

/* 1 when the partial last vector of p's len bytes (if any) would cross
 * into the next page (gs_crosses); p may be NULL when len is 0. Address
 * and length are public. */
GS_INLINE int gs_tail_crosses(const void *p, size_t len)
{
    uintptr_t e = (uintptr_t)p + (len & ~(size_t)63);
    return (len & 63) != 0 && (e & 4095) > 4096 - 64;
}

/* The short-message path (aesir_gcm_short_fn). */
GS_FN int aesir_vaes_avx512_gcm_short(const void *rk, unsigned nr,
                                      const void *hk,
                                      const struct aesir_gcm_msg *m)
{
    size_t len = m->len, aad_len = m->aad_len;
    /* the commonest case first, in fewer tests: at most one vector of
     * data and one of additional data */
    if ((len | aad_len) <= 64) {
        if (gs_tail_crosses(m->in, len) | gs_tail_crosses(m->out, len) |
            gs_tail_crosses(m->aad, aad_len))
            return gs_run_safe(rk, nr, hk, m);
        /* no data: in and out may be NULL, not to be touched */
        return len == 0 ? gs_run0(rk, nr, hk, m) : gs_run1(rk, nr, hk, m);
    }
    /* the data, the additional data and the length block within the 32
     * powers: one sum, one reduction */
    if (len > 16 * GS_DATA || aad_len > 16 * (GS_POWERS - 1) ||
        (len + 15) / 16 + (aad_len + 15) / 16 > GS_POWERS - 1)
        return gs_long(rk, nr, hk, m);
    if ((aad_len > 64) | gs_tail_crosses(m->in, len) |
        gs_tail_crosses(m->out, len) | gs_tail_crosses(m->aad, aad_len))
        return gs_run_safe(rk, nr, hk, m);
    switch ((len + 63) / 64) {
    case 0: /* no data: in and out may be NULL, not to be touched */
        return gs_run0(rk, nr, hk, m);
    case 1:
        return gs_run1(rk, nr, hk, m);
    case 2:
        return gs_run2(rk, nr, hk, m);
    case 3:
        return gs_run3(rk, nr, hk, m);
    case 4:
        return gs_run4(rk, nr, hk, m);
    case 5:
        return gs_run5(rk, nr, hk, m);
    case 6:
        return gs_run6(rk, nr, hk, m);
    case 7:
        return gs_run7(rk, nr, hk, m);
    default:
        return gs_run8(rk, nr, hk, m);
    }
}

#endif
