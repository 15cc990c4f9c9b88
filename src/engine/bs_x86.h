/*
 * bs_x86.h -- the x86 body of the vector bitsliced engines bs-avx2 and
 * bs-avx512: ct64's cipher (ct64_core.h) on four 64-bit lanes of ymm
 * registers, 16 blocks per batch, with the loads, stores and fast paths
 * (ECB, CTR, CBC decryption) written for those registers. The technique,
 * the layout and the constant-time claim are in bs_avx2.c's header.
 *
 * The including file defines, before including:
 *   ENGINE_ISA  "avx2", or "avx2,avx512f,avx512vl", then includes
 *               engine.h: the code here is ENGINE_FN / ENGINE_INLINE
 *   BS_NAME(x)  the engine's name for function x (bs_avx2_##x, ...)
 *   BS_AVX512   0 or 1: with AVX-512VL the compilers use 32 vector
 *               registers, vpternlogq for chains of logic operations and
 *               vprorq for rotations (rot_rc below picks its formula)
 *   BS_STACK    the bytes of stack the entry points wipe after their
 *               bodies (stack_wipe.h)
 * and afterwards builds its struct aesir_engine from the static functions
 * BS_NAME(setkey_enc), BS_NAME(setkey_dec), BS_NAME(encrypt),
 * BS_NAME(decrypt), BS_NAME(ctr) and BS_NAME(cbc_dec).
 */
#ifndef AESIR_BS_X86_H
#define AESIR_BS_X86_H

#include <immintrin.h>

#include "stack_wipe.h"

typedef uint64_t bs_word __attribute__((vector_size(32)));
#define BS_FINAL_SR2 0

/* The same 16-byte pattern in both 128-bit halves (vpshufb works within
 * each half). */
#define BYTES16(...)                                                           \
    {                                                                          \
        __VA_ARGS__, __VA_ARGS__                                               \
    }
/* A permutation of the 8 bytes of a 64-bit lane, in all four lanes. */
#define LANE8(a, b, c, d, e, f, g, h)                                          \
    BYTES16(a, b, c, d, e, f, g, h, a + 8, b + 8, c + 8, d + 8, e + 8, f + 8,  \
            g + 8, h + 8)

/*
 * Byte permutations of a lane for rot_rc: rows_tab[i - 1][s], out byte
 * 2 r + h = in byte 2 ((r + i) mod 4) + (h ^ s): i rows down, and with s
 * = 1 also the other pair of columns (two columns over).
 */
static const _Alignas(32) uint8_t rows_tab[3][2][32] = {
    {LANE8(2, 3, 4, 5, 6, 7, 0, 1), LANE8(3, 2, 5, 4, 7, 6, 1, 0)},
    {LANE8(4, 5, 6, 7, 0, 1, 2, 3), LANE8(5, 4, 7, 6, 1, 0, 3, 2)},
    {LANE8(6, 7, 0, 1, 2, 3, 4, 5), LANE8(7, 6, 1, 0, 3, 2, 5, 4)},
};

/* clang-format off */
/* Block bytes -> ct64's zipped order: c0/c2 interleaved, then c1/c3. */
static const _Alignas(32) uint8_t zip_tab[32] =
    BYTES16(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
/* The inverse: zipped -> block bytes. */
static const _Alignas(32) uint8_t unzip_tab[32] =
    BYTES16(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
/* SR^2 (bytes 2 <-> 3 and 6 <-> 7 of each plane word), then unzip. */
static const _Alignas(32) uint8_t unzip_sr2_tab[32] =
    BYTES16(0, 3, 4, 7, 8, 11, 12, 15, 1, 2, 5, 6, 9, 10, 13, 14);
/* A counter block held as native 64-bit [high, low] -> zipped bytes of
 * its big-endian form. */
static const _Alignas(32) uint8_t ctr_zip_tab[32] =
    BYTES16(7, 15, 6, 14, 5, 13, 4, 12, 3, 11, 2, 10, 1, 9, 0, 8);
/* clang-format on */

ENGINE_INLINE __m256i tab(const uint8_t *t)
{
    return _mm256_load_si256((const __m256i *)(const void *)t);
}

ENGINE_INLINE bs_word shuf(bs_word x, const uint8_t *t)
{
    return (bs_word)_mm256_shuffle_epi8((__m256i)x, tab(t));
}

/*
 * ct64's rot_rc per lane (i rows down, d columns over). Even d: a byte
 * permutation, one vpshufb. Odd d with AVX2: every nibble changes halves
 * of its byte; the low nibbles come from the high nibbles of one
 * permutation, the high ones from the low nibbles of another (7
 * instructions). Odd d with AVX-512VL: ct64's own formula, two rotations
 * (vprorq) and a select (one vpternlogq), which the compilers find in
 * the plain C.
 */
ENGINE_INLINE bs_word rot_rc(bs_word x, unsigned i, unsigned d)
{
    const uint8_t(*t)[32] = rows_tab[i - 1];

    if (d == 0)
        return shuf(x, t[0]);
    if (d == 2)
        return shuf(x, t[1]);
#if BS_AVX512
    {
        const unsigned n = 16 * i + 4 * d;
        const uint64_t lo = 0x0001000100010001u * (0xffffu >> (4 * d));
        return (((x >> n) | (x << (64 - n))) & lo) |
               (((x >> (n - 16)) | (x << (80 - n))) & ~lo);
    }
#else
    return ((shuf(x, t[d == 3]) >> 4) & 0x0f0f0f0f0f0f0f0fu) |
           ((shuf(x, t[d == 1]) << 4) & 0xf0f0f0f0f0f0f0f0u);
#endif
}

ENGINE_INLINE bs_word bs_rk_word(const uint8_t *k, size_t i)
{
    return (bs_word)_mm256_broadcastq_epi64(
        _mm_loadl_epi64((const __m128i *)(const void *)(k + 8 * i)));
}

#include "ct64_core.h"

/* ---------------------------------------------------------------------
 * Bitslicing. a[m] holds blocks 2 m and 2 m + 1 (one per 128-bit half)
 * in zipped byte order; q[s] and q[4 + s] take blocks 4 s .. 4 s + 3.
 * ------------------------------------------------------------------- */

ENGINE_INLINE void from_pairs(bs_word q[8], const __m256i a[8])
{
    for (unsigned s = 0; s < 4; s++) {
        q[s] = (bs_word)_mm256_unpacklo_epi64(a[2 * s], a[2 * s + 1]);
        q[4 + s] = (bs_word)_mm256_unpackhi_epi64(a[2 * s], a[2 * s + 1]);
    }
    transpose8(q);
}

/* The inverse of from_pairs, and the output byte order: t is unzip_tab,
 * or unzip_sr2_tab when the state still needs SR^2. */
ENGINE_INLINE void to_pairs(__m256i a[8], bs_word q[8], const uint8_t *t)
{
    const __m256i idx = tab(t);

    transpose8(q);
    for (unsigned s = 0; s < 4; s++) {
        a[2 * s] = _mm256_shuffle_epi8(
            _mm256_unpacklo_epi64((__m256i)q[s], (__m256i)q[4 + s]), idx);
        a[2 * s + 1] = _mm256_shuffle_epi8(
            _mm256_unpackhi_epi64((__m256i)q[s], (__m256i)q[4 + s]), idx);
    }
}

ENGINE_INLINE const uint8_t *out_tab(unsigned nr)
{
    return nr % 4 == 2 ? unzip_sr2_tab : unzip_tab;
}

ENGINE_INLINE __m256i loadu(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

ENGINE_INLINE void storeu(uint8_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

ENGINE_INLINE void load16(bs_word q[8], const uint8_t *in)
{
    const __m256i z = tab(zip_tab);
    __m256i a[8];

    for (unsigned m = 0; m < 8; m++)
        a[m] = _mm256_shuffle_epi8(loadu(in + 32 * m), z);
    from_pairs(q, a);
}

/* ---------------------------------------------------------------------
 * ECB: 16 blocks per pass, a tail of 5..15 through a buffer, fewer than
 * 5 blocks on ct64.
 * ------------------------------------------------------------------- */

ENGINE_FN void BS_NAME(ecb16)(const uint8_t *rk, unsigned nr, uint8_t *out,
                              const uint8_t *in, int dec)
{
    bs_word q[8];
    __m256i a[8];

    load16(q, in);
    if (dec)
        BS_NAME(decrypt_state)(rk, nr, q);
    else
        BS_NAME(encrypt_state)(rk, nr, q);
    to_pairs(a, q, out_tab(nr));
    for (unsigned m = 0; m < 8; m++)
        storeu(out + 32 * m, a[m]);
}

/* Plain static, like the ECB bodies and the entry points below: they
 * only move bytes and call the kernels, so they need no ENGINE_ISA. */
static void BS_NAME(ecb)(const void *rkv, unsigned nr, uint8_t *out,
                         const uint8_t *in, size_t nblocks, int dec)
{
    const uint8_t *rk = ENGINE_RK(rkv);

    for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256)
        BS_NAME(ecb16)(rk, nr, out, in, dec);
    if (nblocks > 0) {
        _Alignas(32) uint8_t buf[256] = {0};
        memcpy(buf, in, 16 * nblocks);
        BS_NAME(ecb16)(rk, nr, buf, buf, dec);
        memcpy(out, buf, 16 * nblocks);
        aesir_wipe(buf, sizeof(buf));
    }
}

STACK_WIPE_BODY static void BS_NAME(encrypt_body)(const void *rk, unsigned nr,
                                                  uint8_t *out,
                                                  const uint8_t *in,
                                                  size_t nblocks)
{
    BS_NAME(ecb)(rk, nr, out, in, nblocks, 0);
}

STACK_WIPE_BODY static void BS_NAME(decrypt_body)(const void *rk, unsigned nr,
                                                  uint8_t *out,
                                                  const uint8_t *in,
                                                  size_t nblocks)
{
    BS_NAME(ecb)(rk, nr, out, in, nblocks, 1);
}

/* ---------------------------------------------------------------------
 * CTR. c[m] holds the counter blocks 2 m and 2 m + 1 of the batch as
 * native 64-bit [high, low] pairs.
 * ------------------------------------------------------------------- */

/* Adds 16 to each 128-bit counter: the low halves first; a low half that
 * became smaller than 16 wrapped (compared as unsigned through the sign
 * bias), and its all-ones mask, moved to the high half, subtracts -1. */
ENGINE_INLINE __m256i ctr_add16(__m256i c)
{
    const __m256i inc = _mm256_setr_epi64x(0, 16, 0, 16);
    const __m256i bias = _mm256_set1_epi64x((long long)0x8000000000000000u);
    const __m256i lim = _mm256_set1_epi64x((long long)0x8000000000000010u);
    const __m256i v = _mm256_add_epi64(c, inc);
    const __m256i wrap = _mm256_cmpgt_epi64(lim, _mm256_xor_si256(v, bias));
    return _mm256_sub_epi64(v, _mm256_bsrli_epi128(wrap, 8));
}

/* One batch: encrypts the counters in c, XORs the key stream into in,
 * advances c by 16. */
ENGINE_FN void BS_NAME(ctr16)(const uint8_t *rk, unsigned nr, __m256i c[8],
                              uint8_t *out, const uint8_t *in)
{
    const __m256i z = tab(ctr_zip_tab);
    bs_word q[8];
    __m256i a[8];

    for (unsigned m = 0; m < 8; m++) {
        a[m] = _mm256_shuffle_epi8(c[m], z);
        c[m] = ctr_add16(c[m]);
    }
    from_pairs(q, a);
    BS_NAME(encrypt_state)(rk, nr, q);
    to_pairs(a, q, out_tab(nr));
    for (unsigned m = 0; m < 8; m++)
        storeu(out + 32 * m, _mm256_xor_si256(a[m], loadu(in + 32 * m)));
}

STACK_WIPE_BODY ENGINE_FN void BS_NAME(ctr_body)(const void *rkv, unsigned nr,
                                                 uint8_t ctr[16], uint8_t *out,
                                                 const uint8_t *in,
                                                 size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    const uint64_t hi = aesir_load_be64(ctr), lo = aesir_load_be64(ctr + 8);
    __m256i c[8];

    for (unsigned m = 0; m < 8; m++) {
        /* The counter is public: the carries are plain arithmetic. */
        const uint64_t l0 = lo + 2 * m, l1 = l0 + 1;
        c[m] = _mm256_setr_epi64x((long long)(hi + (l0 < lo)), (long long)l0,
                                  (long long)(hi + (l1 < lo)), (long long)l1);
    }
    aesir_ctr_add(ctr, nblocks);
    for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256)
        BS_NAME(ctr16)(rk, nr, c, out, in);
    if (nblocks > 0) {
        _Alignas(32) uint8_t buf[256] = {0};
        memcpy(buf, in, 16 * nblocks);
        BS_NAME(ctr16)(rk, nr, c, buf, buf);
        memcpy(out, buf, 16 * nblocks);
        aesir_wipe(buf, sizeof(buf));
    }
}

/* ---------------------------------------------------------------------
 * CBC decryption. Block j of the batch is D(C_j) ^ C_(j-1); the pairs are
 * stored from the last down, so that with out == in every ciphertext
 * block is read before it is overwritten.
 * ------------------------------------------------------------------- */

ENGINE_FN void BS_NAME(cbc_dec16)(const uint8_t *rk, unsigned nr,
                                  __m128i *chain, uint8_t *out,
                                  const uint8_t *in)
{
    const __m128i first = *chain;
    bs_word q[8];
    __m256i a[8];

    *chain = _mm_loadu_si128((const __m128i *)(const void *)(in + 240));
    load16(q, in);
    BS_NAME(decrypt_state)(rk, nr, q);
    to_pairs(a, q, out_tab(nr));
    for (unsigned m = 7; m > 0; m--)
        storeu(out + 32 * m, _mm256_xor_si256(a[m], loadu(in + 32 * m - 16)));
    storeu(
        out,
        _mm256_xor_si256(
            a[0], _mm256_inserti128_si256(
                      _mm256_castsi128_si256(first),
                      _mm_loadu_si128((const __m128i *)(const void *)in), 1)));
}

STACK_WIPE_BODY ENGINE_FN void
BS_NAME(cbc_dec_body)(const void *rkv, unsigned nr, uint8_t iv[16],
                      uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rkv);
    __m128i chain;

    chain = _mm_loadu_si128((const __m128i *)(const void *)iv);
    for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256)
        BS_NAME(cbc_dec16)(rk, nr, &chain, out, in);
    if (nblocks > 0) {
        /* The last ciphertext block is the next chaining value; read it
         * before out (maybe == in) is written. */
        const __m128i next = _mm_loadu_si128(
            (const __m128i *)(const void *)(in + 16 * (nblocks - 1)));
        _Alignas(32) uint8_t buf[256] = {0};
        memcpy(buf, in, 16 * nblocks);
        BS_NAME(cbc_dec16)(rk, nr, &chain, buf, buf);
        memcpy(out, buf, 16 * nblocks);
        aesir_wipe(buf, sizeof(buf));
        chain = next;
    }
    _mm_storeu_si128((__m128i *)(void *)iv, chain);
}

/*
 * The entry points. Calls of fewer than 5 blocks, which cost less on one
 * 4-block ct64 state than on a 16-block batch, go to ct64 (same round
 * keys), whose entry points wipe their own stack. The others run their
 * body, then wipe the stack it used (stack_wipe.h): with 16 ymm
 * registers (AVX2) the bitsliced state and the S-box circuit spill,
 * output blocks and round-key broadcasts included; with 32 (AVX-512VL)
 * less, but still. The includer sets the bound, BS_STACK.
 */

static void BS_NAME(encrypt)(const void *rk, unsigned nr, uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    if (nblocks < 5) {
        aesir_engine_ct64()->encrypt(rk, nr, out, in, nblocks);
        return;
    }
    BS_NAME(encrypt_body)(rk, nr, out, in, nblocks);
    aesir_wipe_stack(BS_STACK);
}

static void BS_NAME(decrypt)(const void *rk, unsigned nr, uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    if (nblocks < 5) {
        aesir_engine_ct64()->decrypt(rk, nr, out, in, nblocks);
        return;
    }
    BS_NAME(decrypt_body)(rk, nr, out, in, nblocks);
    aesir_wipe_stack(BS_STACK);
}

static void BS_NAME(ctr)(const void *rk, unsigned nr, uint8_t ctr[16],
                         uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (nblocks < 5) {
        aesir_engine_ct64()->ctr(rk, nr, ctr, out, in, nblocks);
        return;
    }
    BS_NAME(ctr_body)(rk, nr, ctr, out, in, nblocks);
    aesir_wipe_stack(BS_STACK);
}

static void BS_NAME(cbc_dec)(const void *rk, unsigned nr, uint8_t iv[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (nblocks < 5) {
        aesir_engine_ct64()->cbc_dec(rk, nr, iv, out, in, nblocks);
        return;
    }
    BS_NAME(cbc_dec_body)(rk, nr, iv, out, in, nblocks);
    aesir_wipe_stack(BS_STACK);
}

/* ---------------------------------------------------------------------
 * Key setup: ct64's, whose round keys this engine reads.
 * ------------------------------------------------------------------- */

static void BS_NAME(setkey_enc)(void *rk, const uint8_t *key, size_t key_len)
{
    aesir_engine_ct64()->setkey_enc(rk, key, key_len);
}

static void BS_NAME(setkey_dec)(void *rk, const uint8_t *key, size_t key_len)
{
    aesir_engine_ct64()->setkey_dec(rk, key, key_len);
}

#endif /* AESIR_BS_X86_H */
