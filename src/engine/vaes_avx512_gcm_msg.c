/*
 * vaes_avx512_gcm_msg.c -- vaes-avx512's whole-message GCM path
 * (aesir_vaes_avx512_gcm_msg, x86_gcm.h): a one-shot seal or open with a
 * 12-byte IV, for every message past the short kernel's reach
 * (vaes_avx512_gcm_short.c hands them here), J0 to tag in one call on the
 * batch of vaes_avx512_gcm_batch.h.
 *
 * gcm.c's general path costs some 220 TSC cycles per message on top of
 * the kernels (calls, the message state, each piece hashed and reduced
 * alone); this one adds a few dozen: J0, E_K(J0), the additional data,
 * the data and the length block in one call, with no state in memory
 * between the steps.
 *
 * With a 12-byte IV the counter starts at J0 = IV || 1, the data at
 * J0 + 1, and at most 2^32 - 2 blocks follow (SP 800-38D's limit, checked
 * by gcm.c), so the low word never wraps; vpaddd on it is inc32 anyway.
 * The counters of a batch depend on its position only, so most batches
 * make theirs with one XOR per vector from a table (g5_dtab,
 * vaes_avx512_gcm_batch.h; g5_row below says which).
 *
 * The last part of the data (r = 1 .. 511 bytes, ceil(r / 64) vectors, the
 * last one loaded and stored with a byte mask) and the length block are
 * hashed as one sum with a single reduction: block i of the rb = ceil(r /
 * 16) blocks takes K_(rb + 1 - i), the length block K_1. Only rb = 32 (r =
 * 497 .. 511) has no room for the length block among the 32 powers: it
 * then follows with a product and a reduction of its own; so does the
 * length block after data that ends on a batch, except in encryption of
 * 8 KiB or more (g5_hash_fin).
 *
 * Round keys: for messages of 8 KiB or more they are broadcast once into
 * a buffer of 64-byte keys in the kernel's frame, which the batches load
 * (G5_WIDE_MIN); the stack wipe after the kernel clears it (G5M_STACK_WIDE).
 *
 * CPU: the bulk kernels' (vaes_avx512_gcm.c) and AVX512-VBMI: the hash
 * of each batch makes its byte reversal and Karatsuba halves with two
 * vpermt2b per pair of vectors (G5_VBMI, vaes_avx512_gcm_batch.h), 14
 * operations per 32 blocks instead of 21. Every CPU with VAES and
 * AVX-512 so far (Ice Lake, Tiger Lake, Sapphire Rapids, Zen 4) has it;
 * without it (or with it masked by AESIR_CPU_DISABLE) the entry point
 * returns -1 and gcm.c's general path does the message on the bulk
 * kernels, which do not need it. Measured: docs/engines/vaes.md, "The
 * bulk loop, fourth session".
 *
 * Constant time: as the bulk kernels (vaes_avx512_gcm.c); in addition the
 * counter table's row depends on the batch's position only (a 12-byte
 * IV's counter is public; the kernels for other IVs never come here).
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

/* the bulk kernels' instruction set and AVX512-VBMI (vpermt2b: the
 * batch's hash, G5_VBMI) */
#define ENGINE_ISA                                                             \
    "vaes,vpclmulqdq,aes,pclmul,ssse3,avx2,avx512f,avx512bw,avx512vl,"         \
    "avx512vbmi"
#include "engine.h"
#include <immintrin.h>
#include "ghash_x86.h"

#include "x86_gcm.h"
#define G5_VBMI 1
#include "vaes_avx512_gcm_batch.h"

/* The g5_dtab row of batch k of a whole message, or -1 (g5_ctr). */
ENGINE_INLINE int g5_row(size_t k)
{
    return (k & 7) == 7 ? -1 : (int)(k & 7);
}

/* The byte mask of the first n (0..64) bytes of a vector. */
ENGINE_INLINE __mmask64 g5_bytes(size_t n)
{
    return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
}

/* x times K_1 (the last key-area entry) added into a (Karatsuba, as
 * g5_mul). */
ENGINE_INLINE void g5_mul_k1(struct gx5_sums *a, __m128i x, const uint8_t *hk)
{
    const __m128i k =
        _mm_loadu_si128((const __m128i *)(const void *)(hk + 496));
    const __m128i xm = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
    const __m128i km = _mm_xor_si128(k, _mm_shuffle_epi32(k, 0x4e));
    a->lo = _mm512_xor_si512(
        a->lo, _mm512_zextsi128_si512(_mm_clmulepi64_si128(x, k, 0x00)));
    a->hi = _mm512_xor_si512(
        a->hi, _mm512_zextsi128_si512(_mm_clmulepi64_si128(x, k, 0x11)));
    a->mid = _mm512_xor_si512(
        a->mid, _mm512_zextsi128_si512(_mm_clmulepi64_si128(xm, km, 0x00)));
}

/* acc = (acc ^ x) K_1, reduced: a lone block (the length block). */
ENGINE_INLINE void g5_hash_one(struct g5_state *s, __m128i x)
{
    s->acc =
        gx_mul(_mm_xor_si128(s->acc, x),
               _mm_loadu_si128((const __m128i *)(const void *)(s->hk + 496)));
}

/*
 * Encryption of a long message whose data ends on a batch (len a
 * multiple of 512 from G5_WIDE_MIN on: 16 KiB, 1 MiB): the last batch,
 * hashed after the loop with nothing beside it, and the length block as
 * one group of 33 blocks with one reduction: block i of the batch takes
 * H^(34 - i), the length block H. Otherwise the batch's sum is reduced
 * and the length block follows with a product and a reduction of its
 * own: two reductions in a row at the message's end (16 KiB AES-256
 * seal: 0.3-0.5 points of the GCM bound). Decryption keeps that order:
 * a last batch of its own in the loop changed gcc 12's code for the loop
 * and cost 2.5 points at 16 KiB and 1 MiB. The key area holds
 * K_32 .. K_1 only, so the batch takes the table shifted by one entry
 * (vector v at hk - 16 + 64 v), and vector 0 [K_33 K_32 K_31 K_30] and
 * its Karatsuba halves are made once per message (g5_fin_make, K_33 =
 * K_32 K_1) at its start, where the first batch's rounds leave the
 * carry-less multiplier idle, into two more 64-byte slots of the
 * broadcast-key buffer (wiped with it).
 */
#define G5_FIN 15 /* the slots' index in kw, after the round keys */

ENGINE_INLINE void g5_fin_make(const uint8_t *hk, uint8_t *kw)
{
    const __m128i k33 =
        gx_mul(_mm_loadu_si128((const __m128i *)(const void *)hk),
               _mm_loadu_si128((const __m128i *)(const void *)(hk + 496)));
    const __mmask64 up = ~(__mmask64)0xffff; /* lanes 1..3 */

    _mm512_store_si512(
        (void *)(kw + 64 * G5_FIN),
        _mm512_inserti32x4(_mm512_maskz_loadu_epi8(up, hk - 16), k33, 0));
    _mm512_store_si512(
        (void *)(kw + 64 * (G5_FIN + 1)),
        _mm512_inserti32x4(
            _mm512_maskz_loadu_epi8(up, hk + GX_VP512_HALVES - 16),
            _mm_xor_si128(k33, _mm_shuffle_epi32(k33, 0x4e)), 0));
}

/* The powers (halves: their halves) of vector v of the shifted group. */
ENGINE_INLINE vec g5_fin_key(const struct g5_state *s, unsigned v,
                             const int halves)
{
    if (v == 0)
        return _mm512_load_si512(
            (const void *)(s->rk + 64 * (G5_FIN + (unsigned)halves)));
    return g5_loadu(s->hk + (halves ? GX_VP512_HALVES : 0) - 16 + 64 * v);
}

/* g5_hpair (vaes_avx512_gcm_batch.h) with the shifted group's powers. */
ENGINE_INLINE void g5_fin_pair(struct gx5_sums *a, const struct g5_state *s,
                               const uint8_t *h, unsigned j)
{
    const unsigned v = G5_HV(j), w = G5_HV(j + 1);
    const vec dv = g5_hraw(s, h, v), dw = g5_hraw(s, h, w);
    const vec kv = g5_fin_key(s, v, 0), kw = g5_fin_key(s, w, 0);
    const vec lo = _mm512_permutex2var_epi8(
        dv, _mm512_load_si512((const void *)g5_perm[0]), dw);
    const vec hi = _mm512_permutex2var_epi8(
        dv, _mm512_load_si512((const void *)g5_perm[1]), dw);
    const vec m = _mm512_xor_si512(lo, hi);
    struct g5_prod p, q;

    p.lo = _mm512_clmulepi64_epi128(lo, kv, 0x00);
    p.hi = _mm512_clmulepi64_epi128(hi, kv, 0x10);
    p.mid = _mm512_clmulepi64_epi128(m, g5_fin_key(s, v, 1), 0x00);
    q.lo = _mm512_clmulepi64_epi128(lo, kw, 0x01);
    q.hi = _mm512_clmulepi64_epi128(hi, kw, 0x11);
    q.mid = _mm512_clmulepi64_epi128(m, g5_fin_key(s, w, 1), 0x01);
    g5_add2(a, &p, &q, j == 0);
}

/* Encryption's last hash: the batch at h (the last) and the length
 * block, one reduction. */
ENGINE_INLINE void g5_hash_fin(struct g5_state *s, const uint8_t *h,
                               __m128i len_blk)
{
    struct gx5_sums a;
    G5_UNROLL
    for (unsigned j = 0; j < G5_V; j += 2)
        g5_fin_pair(&a, s, h, j);
    g5_mul_k1(&a, len_blk, s->hk);
    s->acc = gx5_finish(&a);
}

/*
 * Hashes r = 1 .. 511 bytes at p (zero-padded to rb blocks); with len_blk
 * (fin) the length block after them, in the same sum when rb < 32. A loop
 * over the vectors, not unrolled: used for the additional data only.
 */
ENGINE_INLINE void g5_hash_part(struct g5_state *s, const uint8_t *p, size_t r,
                                const int fin, __m128i len_blk)
{
    const size_t rb = (r + 15) / 16;
    const int fold = fin && rb < 32;
    const uint8_t *kt = s->hk + 16 * (32 - rb - (size_t)fold);
    struct gx5_sums a;

    a.lo = a.mid = a.hi = _mm512_setzero_si512();
    for (size_t j = 0; 64 * j < r; j++) {
        vec d = _mm512_shuffle_epi8(
            _mm512_maskz_loadu_epi8(g5_bytes(r - 64 * j), p + 64 * j),
            g5_rev());
        if (j == 0)
            d = _mm512_xor_si512(d, _mm512_zextsi128_si512(s->acc));
        const __mmask64 km = g5_mask(rb - 4 * j);
        g5_mul(&a, d, _mm512_maskz_loadu_epi8(km, kt + 64 * j),
               _mm512_maskz_loadu_epi8(km, kt + GX_VP512_HALVES + 64 * j), 0);
    }
    if (fold)
        g5_mul_k1(&a, len_blk, s->hk);
    s->acc = gx5_finish(&a);
    if (fin && !fold)
        g5_hash_one(s, len_blk);
}

/* Additional data of any length; with fin the length block too (GMAC:
 * no data follows). */
ENGINE_INLINE void g5_hash_aad(struct g5_state *s, const uint8_t *p, size_t len,
                               const int fin, __m128i len_blk)
{
    /* (The powers and their Karatsuba halves held in 16 zmm across this
     * loop gained about 1% for GMAC at 16 KiB, and gcc 12 then gave the
     * function an 840-byte frame, deeper than the stack wipe.) */
    for (; len >= 16 * G5_B; len -= 16 * G5_B, p += 16 * G5_B)
        g5_hash_batch(s, p);
    if (len != 0)
        g5_hash_part(s, p, len, fin, len_blk);
    else if (fin)
        g5_hash_one(s, len_blk);
}

/*
 * The data's last r = 1 .. 511 bytes in n = ceil(r / 64) vectors (n a
 * constant) and the length block. Encryption first hashes the previous
 * batch (prev, when there is one), independent of the tail's AES.
 */
ENGINE_INLINE void g5_last(struct g5_state *s, const unsigned nr, uint8_t *out,
                           const uint8_t *in, size_t r, const unsigned n,
                           const uint8_t *prev, const int dec, __m128i len_blk)
{
    const size_t rb = (r + 15) / 16;
    const int fold = rb < 32;
    struct gx5_sums a;

    g5_tail_pass(s, nr, out, in, n, g5_bytes(r - 64 * (n - 1)),
                 g5_mask(rb - 4 * (n - 1)),
                 s->hk + 16 * (32 - rb - (size_t)fold), prev, dec, &a);
    if (fold)
        g5_mul_k1(&a, len_blk, s->hk);
    s->acc = gx5_finish(&a);
    if (!fold)
        g5_hash_one(s, len_blk);
}

/* E_K(J0) for the J0 in j0 (GCM byte order). */
ENGINE_INLINE __m128i g5_ekj0(const uint8_t *rk, const unsigned nr, __m128i j0)
{
    __m128i e =
        _mm_xor_si128(j0, _mm_load_si128((const __m128i *)(const void *)rk));
    G5_UNROLL
    for (unsigned r = 1; r < nr; r++)
        e = _mm_aesenc_si128(
            e, _mm_load_si128((const __m128i *)(const void *)(rk + 16 * r)));
    return _mm_aesenclast_si128(
        e, _mm_load_si128((const __m128i *)(const void *)(rk + 16 * nr)));
}

/* The data (len > 0 bytes) and the length block; wide (a constant): the
 * round keys broadcast into kw first, for long messages (G5_WIDE_MIN;
 * kw lies in the kernel's frame, which the entry point wipes). */
ENGINE_INLINE void g5_data(struct g5_state *s, const uint8_t *rk,
                           const unsigned nr, uint8_t *out, const uint8_t *in,
                           size_t len, __m128i len_blk, uint8_t *kw,
                           const int dec, const int wide)
{
    const uint8_t *prev = NULL;
    size_t k = 0; /* the batch's number */

    if (wide) {
        G5_UNROLL
        for (unsigned r = 0; r <= nr; r++)
            _mm512_store_si512(
                (void *)(kw + 64 * r),
                g5_bcast(_mm_load_si128(
                    (const __m128i *)(const void *)(rk + 16 * r))));
        if (!dec && len % (16 * G5_B) == 0)
            g5_fin_make(s->hk, kw);
        s->rk = kw;
    }
    s->wide = wide;
    if (dec) {
        for (; len >= 16 * G5_B; len -= 16 * G5_B, k++) {
            g5_batch(s, nr, out, in, in, 1, g5_row(k));
            in += 16 * G5_B, out += 16 * G5_B;
        }
    } else if (len >= 16 * G5_B) {
        g5_batch(s, nr, out, in, NULL, 0, g5_row(0));
        prev = out;
        in += 16 * G5_B, out += 16 * G5_B, len -= 16 * G5_B;
        for (k = 1; len >= 16 * G5_B; len -= 16 * G5_B, k++) {
            g5_batch(s, nr, out, in, prev, 1, g5_row(k));
            prev = out;
            in += 16 * G5_B, out += 16 * G5_B;
        }
    }
    if (len == 0) {
        if (wide && !dec) {
            g5_hash_fin(s, prev, len_blk);
            return;
        }
        if (prev != NULL)
            g5_hash_batch(s, prev);
        g5_hash_one(s, len_blk);
    } else {
#define LAST(n)                                                                \
    g5_last(s, nr, out, in, len, (n) <= G5_V ? (n) : G5_V, prev, dec, len_blk)
        G5_TAILS((len + 63) / 64, LAST)
#undef LAST
    }
}

/* Messages from this length on take the broadcast round keys: below it
 * broadcasting them and wiping the copy cost more than the loads saved
 * (AES-256 seal 2 KiB: 540 -> 580 TSC cycles; 16 KiB: AES-128 2940 ->
 * 2860, 1 MiB 186k -> 179k). */
#define G5_WIDE_MIN 8192

/* The whole message for a constant nr. */
ENGINE_INLINE void g5_msg(const uint8_t *rk, const unsigned nr,
                          const uint8_t *hk, const uint8_t iv[12],
                          const uint8_t *aad, size_t aad_len, uint8_t *out,
                          const uint8_t *in, size_t len, uint8_t tag[16],
                          const int dec, const int wide)
{
    /* wide: the round keys broadcast (g5_key), wiped with this frame
     * (G5M_STACK_WIDE); the other kernels have no use for it and the
     * compilers drop it from their frames */
    _Alignas(64) uint8_t kw[64 * (G5_FIN + 2)];
    struct g5_state s;
    const __m128i len_blk = _mm_set_epi64x((long long)((uint64_t)aad_len * 8),
                                           (long long)((uint64_t)len * 8));
    uint64_t w0;
    uint32_t w1;
    __m128i j0, ekj0;

    /* J0 = IV || 0^31 || 1 from an 8-byte and a 4-byte load (no stack
     * buffer: a vector load over smaller stores stalls) */
    memcpy(&w0, iv, 8);
    memcpy(&w1, iv + 8, 4);
    j0 = _mm_set_epi32(0x01000000, (int)w1, (int)(uint32_t)(w0 >> 32),
                       (int)(uint32_t)w0);
    ekj0 = g5_ekj0(rk, nr, j0);
    s.rk = rk;
    s.wide = 0;
    s.hk = hk;
    /* the data's counters J0 + 1 .. J0 + 4, little-endian per lane */
    s.c = _mm512_add_epi32(
        g5_bcast(_mm_shuffle_epi8(j0, gx_rev_mask())),
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1));
    s.acc = _mm_setzero_si128();
    if (aad_len != 0)
        g5_hash_aad(&s, aad, aad_len, len == 0, len_blk);
    else if (len == 0)
        g5_hash_one(&s, len_blk);
    if (wide == 2 && len >= G5_WIDE_MIN)
        g5_data(&s, rk, nr, out, in, len, len_blk, kw, dec, 1);
    else if (len != 0)
        g5_data(&s, rk, nr, out, in, len, len_blk, kw, dec, wide & 1);
    _mm_storeu_si128(
        (__m128i *)(void *)tag,
        _mm_xor_si128(_mm_shuffle_epi8(s.acc, gx_rev_mask()), ekj0));
}

/* The kernels: for each nr and direction one for messages from
 * G5_WIDE_MIN on (the broadcast keys in its frame, which then needs the
 * longer wipe) and one for the others, whose frame is small. wide: 0
 * short messages only, 1 long ones only, 2 either (by len). Which one a
 * long kernel is was measured (gcc 12; docs/modes/gcm.md): the long
 * decryption kernels and AES-128 encryption are of the last kind, whose
 * loop gcc compiles faster than that of a function with the long path
 * alone (AES-256 open 16 KiB 88.2% of the GCM bound against 85.5%;
 * AES-128 seal 16 KiB and 1 MiB 4.5% and 3.5% faster); AES-256
 * encryption is the other way round (seal 16 KiB 87.5% against 84.6%),
 * AES-192 encryption the same either way. */
#define G5M_FN(name, nr, dec, wide)                                            \
    __attribute__((noinline)) ENGINE_FN void name(                             \
        const uint8_t *rk, const uint8_t *hk, const uint8_t iv[12],            \
        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,   \
        size_t len, uint8_t tag[16])                                           \
    {                                                                          \
        g5_msg(rk, nr, hk, iv, aad, aad_len, out, in, len, tag, dec, wide);    \
    }
G5M_FN(g5_msg_enc10, 10, 0, 0)
G5M_FN(g5_msg_enc12, 12, 0, 0)
G5M_FN(g5_msg_enc14, 14, 0, 0)
G5M_FN(g5_msg_dec10, 10, 1, 0)
G5M_FN(g5_msg_dec12, 12, 1, 0)
G5M_FN(g5_msg_dec14, 14, 1, 0)
G5M_FN(g5_msgw_enc10, 10, 0, 2)
G5M_FN(g5_msgw_enc12, 12, 0, 1)
G5M_FN(g5_msgw_enc14, 14, 0, 1)
G5M_FN(g5_msgw_dec10, 10, 1, 2)
G5M_FN(g5_msgw_dec12, 12, 1, 2)
G5M_FN(g5_msgw_dec14, 14, 1, 2)

/*
 * The wipes' sizes. -fstack-usage gives the short kernels gcc 12
 * 72..136 bytes, clang 14 136..216 (saved registers, a few spill slots),
 * the long ones (with the broadcast keys, kw: 1088 bytes, 64-byte
 * aligned) gcc 12 1352..1608, clang 14 1400..1464; stack_wipe.h's rule
 * (the larger plus 256, rounded to 64) would give 512 and 1920. A throwaway
 * check (docs/modes/gcm.md, "GCM AES-256 at 16 KiB": seal or open through
 * this entry point, then look through 8 KiB of dead stack for any round
 * key or hash-key entry) still found one hash-key entry some 2.1 KiB
 * down after a long open (gcc) and round keys down to 2.1 KiB after
 * short opens (clang) with those sizes, where the frames say nothing
 * lies; not found why. With 2304 it finds none; so 2304 for the long
 * kernels, and for the short ones under clang; gcc's short kernels are
 * clean at 512. test_residue (messages up to 2048 bytes) passes for
 * both compilers.
 */
#if defined(__clang__)
#define G5M_STACK 2304
#else
#define G5M_STACK 512
#endif
#define G5M_STACK_WIDE 2304

/*
 * g5_wipe_<n>: zeroes n bytes of stack below the caller's frame, where
 * the kernel's frame was (aesir_wipe_stack's technique, internal.h),
 * with n / 64 zmm stores of its own. aesir_wipe_stack (glibc's memset of
 * a variable size) cost some 25 TSC cycles per message for 512 bytes
 * here, these stores next to nothing (Zen 5, 16 KiB seal and open;
 * docs/modes/gcm.md, "GCM AES-256 at 16 KiB"). Out of line, so that b
 * lies where the kernel's frame did; the asm makes the stores
 * observable.
 */
#define G5M_WIPE(name, n)                                                      \
    __attribute__((noinline)) ENGINE_FN void name(void)                        \
    {                                                                          \
        uint8_t b[n];                                                          \
        for (unsigned i = 0; i < (n) / 64; i++) {                              \
            _mm512_storeu_si512((void *)(b + 64 * i), _mm512_setzero_si512()); \
            /* one store per step: gcc made the loop a rep stos */             \
            __asm__ volatile("" : : "r"(b) : "memory");                        \
        }                                                                      \
    }
G5M_WIPE(g5_wipe_short, G5M_STACK)
G5M_WIPE(g5_wipe_wide, G5M_STACK_WIDE)

int aesir_vaes_avx512_gcm_msg(const void *rk, unsigned nr, const void *hk,
                              const uint8_t iv[12], const uint8_t *aad,
                              size_t aad_len, uint8_t *out, const uint8_t *in,
                              size_t len, uint8_t tag[16], int decrypt)
{
    const uint8_t *k = ENGINE_RK(rk), *h = (const uint8_t *)hk;

    /* every CPU with VAES and AVX-512 so far has VBMI too; without it
     * (or with it masked by AESIR_CPU_DISABLE) gcm.c's general path,
     * on the bulk kernels, does the message */
    if (!(aesir_cpu_features() & AESIR_CPU_AVX512VBMI))
        return -1;
#define G5M_CALL(pre)                                                          \
    do {                                                                       \
        if (decrypt) {                                                         \
            if (nr == 10)                                                      \
                pre##dec10(k, h, iv, aad, aad_len, out, in, len, tag);         \
            else if (nr == 12)                                                 \
                pre##dec12(k, h, iv, aad, aad_len, out, in, len, tag);         \
            else                                                               \
                pre##dec14(k, h, iv, aad, aad_len, out, in, len, tag);         \
        } else {                                                               \
            if (nr == 10)                                                      \
                pre##enc10(k, h, iv, aad, aad_len, out, in, len, tag);         \
            else if (nr == 12)                                                 \
                pre##enc12(k, h, iv, aad, aad_len, out, in, len, tag);         \
            else                                                               \
                pre##enc14(k, h, iv, aad, aad_len, out, in, len, tag);         \
        }                                                                      \
    } while (0)
    if (len >= G5_WIDE_MIN) {
        G5M_CALL(g5_msgw_);
        g5_wipe_wide();
    } else {
        G5M_CALL(g5_msg_);
        g5_wipe_short();
    }
#undef G5M_CALL
    return 0;
}

#endif /* x86 */
