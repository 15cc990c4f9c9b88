/*
 * aesni_ccm.c -- the fused CCM kernels (ccm_enc, ccm_dec; internal.h,
 * aesir_ccm_fn) on xmm registers: CCM's CTR and its CBC-MAC chain in one
 * pass, two blocks in flight per round. aesni uses them, SSE- and
 * VEX-encoded, and so do vaes-avx2 and vaes-avx512 (VEX), whose
 * encryption schedule has the same layout (aesni_keys.h: nr + 1 round
 * keys of 16 bytes at rk + 16 r).
 *
 * Why fused. The CBC-MAC of SP 800-38C (section 6.1) is serial: block i
 * is E(Y_(i-1) ^ B_i), so one message runs at the latency of the AES
 * rounds, nr AESENC latencies per block, and the AES unit, which takes
 * a new AESENC every half cycle or so, idles most of the time. The CTR
 * half is parallel and costs one AESENC slot per round per block: run
 * in the same rounds as the MAC block, it fills a slot the MAC chain
 * leaves empty and adds no latency. So CCM costs what the CBC-MAC alone
 * costs (the one-chain latency bound), and CTR is free. (The same
 * observation in Gueron's and Krasnov's CCM code for OpenSSL and
 * Linux's aesni CCM glue; this kernel is written from the standard.)
 *
 * The chain. Y_i = E(Y_(i-1) ^ P_i): the XOR of the next block is
 * folded into the last round key, AESENCLAST(s, K_nr ^ K_0 ^ P_(i+1)),
 * which yields Y_i ^ K_0 ^ P_(i+1), the next block's state after round
 * 0: the chain is exactly nr AES latencies per block (the trick of CBC
 * encryption in aes_x86_serial.h). Round keys are memory operands (the
 * pointer is hidden from the optimiser in each iteration), so nothing
 * of the key is spilled to the stack; K_0, K_nr and their XOR stay in
 * registers.
 *
 *  - Encryption: the MAC block of P_i and the counter block of P_i go
 *    through the same rounds (they are independent).
 *  - Decryption must decrypt C_i before it can MAC P_i, and the fold
 *    needs P_(i+1) when the round of P_i ends: the counter runs two
 *    blocks ahead. The first two keystream blocks are made together
 *    before the loop; then each iteration MACs P_i beside the keystream
 *    of block i + 2. The last iteration's counter block (past the
 *    message) is computed and dropped, never stored.
 *
 * Counter. The counter block, byte-reversed once, is a little-endian
 * 128-bit integer; block i is that plus i in its low qword (PADDQ) --
 * CCM's counter field is the low q <= 8 bytes and never wraps (ccm.c
 * refuses messages longer than 2^(8q) - 1 bytes), so the low 64 bits
 * never carry -- reversed back (PSHUFB) and XORed with round key 0.
 *
 * Constant time: yes, given that AESENC is. No branch or address depends
 * on the key, the MAC state or the data; branches depend on nr and the
 * block count (public). What a compiler spills is wiped from the stack
 * before the entry points return (below).
 */
#define ENGINE_ISA "aes,ssse3"
#include "engine.h"
#include "stack_wipe.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "x86_ccm.h"

#if defined(__clang__)
#define ROUND_LOOP
#else
#define ROUND_LOOP _Pragma("GCC unroll 14")
#endif

ENGINE_INLINE __m128i ccm_bswap(__m128i x)
{
    return _mm_shuffle_epi8(
        x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

ENGINE_INLINE __m128i ccm_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ENGINE_INLINE void ccm_store(uint8_t *p, __m128i x)
{
    _mm_storeu_si128((__m128i *)(void *)p, x);
}

/* Hides where k points, so that the round-key loads stay memory
 * operands in every iteration instead of registers spilled to the
 * stack (as aesni.c's opaque()). */
ENGINE_INLINE const __m128i *ccm_keys(const __m128i *k)
{
    /* volatile: two of these on the same pointer must not be merged into
     * one, which let gcc keep the keys loaded before the decryption loop
     * for the last block after it, spilled to the stack */
    __asm__ __volatile__("" : "+r"(k));
    return k;
}

/* Rounds 1 .. nr-1 on the two blocks a and b. */
#define CCM_ROUNDS2(k, nr, a, b)                                               \
    do {                                                                       \
        ROUND_LOOP                                                             \
        for (unsigned r_ = 1; r_ < (nr); r_++) {                               \
            __m128i t_ = _mm_load_si128((k) + r_);                             \
            a = _mm_aesenc_si128(a, t_);                                       \
            b = _mm_aesenc_si128(b, t_);                                       \
        }                                                                      \
    } while (0)

ENGINE_INLINE void ccm_enc_nr(const __m128i *rk, const unsigned nr,
                              uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                              const uint8_t *in, size_t n)
{
    const __m128i one = _mm_set_epi64x(0, 1), zero = _mm_setzero_si128();
    const __m128i k0 = _mm_load_si128(rk), kl = _mm_load_si128(rk + nr);
    const __m128i kf = _mm_xor_si128(kl, k0);
    __m128i c = ccm_bswap(ccm_load(ctr));
    __m128i p = ccm_load(in);
    __m128i x = _mm_xor_si128(_mm_xor_si128(ccm_load(mac), p), k0);

    for (size_t i = 0; i < n; i++) {
        const __m128i *k = ccm_keys(rk);
        __m128i y = _mm_xor_si128(ccm_bswap(c), k0), pn;
        c = _mm_add_epi64(c, one);
        CCM_ROUNDS2(k, nr, x, y);
        pn = i + 1 < n ? ccm_load(in + 16 * (i + 1)) : zero;
        x = _mm_aesenclast_si128(x, _mm_xor_si128(kf, pn));
        y = _mm_aesenclast_si128(y, _mm_xor_si128(kl, p));
        ccm_store(out + 16 * i, y);
        p = pn;
    }
    /* the last fold XORed K_0 (and a zero block) in: take it out */
    ccm_store(mac, _mm_xor_si128(x, k0));
    ccm_store(ctr, ccm_bswap(c));
}

ENGINE_INLINE void ccm_dec_nr(const __m128i *rk, const unsigned nr,
                              uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                              const uint8_t *in, size_t n)
{
    const __m128i one = _mm_set_epi64x(0, 1), zero = _mm_setzero_si128();
    const __m128i k0 = _mm_load_si128(rk), kl = _mm_load_si128(rk + nr);
    const __m128i kf = _mm_xor_si128(kl, k0);
    const __m128i c0 = ccm_bswap(ccm_load(ctr));
    __m128i c = c0, x, y, pn = _mm_setzero_si128();

    if (n == 1) {
        /* one block: its keystream, then its MAC */
        const __m128i *k = ccm_keys(rk);
        x = _mm_xor_si128(ccm_bswap(c), k0);
        ROUND_LOOP
        for (unsigned r = 1; r < nr; r++)
            x = _mm_aesenc_si128(x, _mm_load_si128(k + r));
        x = _mm_aesenclast_si128(x, _mm_xor_si128(kl, ccm_load(in)));
        ccm_store(out, x);
        x = _mm_xor_si128(_mm_xor_si128(ccm_load(mac), x), k0);
    } else {
        /* the keystream of blocks 0 and 1 together: P_0, and P_1 ahead
         * (n >= 2 here, so that both blocks are used and the compiler
         * keeps them in the same rounds) */
        const __m128i *k = ccm_keys(rk);
        x = _mm_xor_si128(ccm_bswap(c), k0);
        c = _mm_add_epi64(c, one);
        y = _mm_xor_si128(ccm_bswap(c), k0);
        c = _mm_add_epi64(c, one);
        CCM_ROUNDS2(k, nr, x, y);
        x = _mm_aesenclast_si128(x, _mm_xor_si128(kl, ccm_load(in)));
        pn = _mm_aesenclast_si128(y, _mm_xor_si128(kl, ccm_load(in + 16)));
        ccm_store(out, x);
        x = _mm_xor_si128(_mm_xor_si128(ccm_load(mac), x), k0);
    }

    /* x: the MAC state of P_i after round 0; pn = P_(i+1) */
    for (size_t i = 0; i + 1 < n; i++) {
        const __m128i *k = ccm_keys(rk);
        __m128i cin = i + 2 < n ? ccm_load(in + 16 * (i + 2)) : zero;
        y = _mm_xor_si128(ccm_bswap(c), k0);
        c = _mm_add_epi64(c, one);
        CCM_ROUNDS2(k, nr, x, y);
        x = _mm_aesenclast_si128(x, _mm_xor_si128(kf, pn));
        y = _mm_aesenclast_si128(y, _mm_xor_si128(kl, cin));
        ccm_store(out + 16 * (i + 1), pn);
        pn = y;
    }
    /* the MAC of the last block alone */
    {
        const __m128i *k = ccm_keys(rk);
        ROUND_LOOP
        for (unsigned r = 1; r < nr; r++)
            x = _mm_aesenc_si128(x, _mm_load_si128(k + r));
        x = _mm_aesenclast_si128(x, kl);
    }
    ccm_store(mac, x);
    ccm_store(ctr,
              ccm_bswap(_mm_add_epi64(c0, _mm_set_epi64x(0, (long long)n))));
}

/*
 * The entry points: one kernel per key size (nr a constant), each out of
 * line below its entry point, which then wipes the stack it used. gcc 12
 * keeps everything in registers; clang 14 spills K0, K(nr), their XOR
 * and some round keys of the SSE decryption kernel to the red zone
 * (objdump), where the next calls overwrote them only by chance. The
 * kernels use no frame beyond the 128-byte red zone: 256 bytes cover it
 * (tests/test_residue.c checks both compilers' builds).
 */
#define CCM_WIPE_BYTES 256

#define CCM_BODY(name, body, attr, nrv)                                        \
    static STACK_WIPE_BODY attr void name(const __m128i *k, uint8_t ctr[16],   \
                                          uint8_t mac[16], uint8_t *out,       \
                                          const uint8_t *in, size_t n)         \
    {                                                                          \
        body(k, nrv, ctr, mac, out, in, n);                                    \
    }

#define CCM_ENTRY(name, body, attr)                                            \
    CCM_BODY(name##_10, body, attr, 10)                                        \
    CCM_BODY(name##_12, body, attr, 12)                                        \
    CCM_BODY(name##_14, body, attr, 14)                                        \
    attr void name(const void *rk, unsigned nr, uint8_t ctr[16],               \
                   uint8_t mac[16], uint8_t *out, const uint8_t *in,           \
                   size_t nblocks)                                             \
    {                                                                          \
        const __m128i *k = (const __m128i *)__builtin_assume_aligned(rk, 16);  \
        if (nblocks == 0)                                                      \
            return;                                                            \
        if (nr == 10)                                                          \
            name##_10(k, ctr, mac, out, in, nblocks);                          \
        else if (nr == 12)                                                     \
            name##_12(k, ctr, mac, out, in, nblocks);                          \
        else                                                                   \
            name##_14(k, ctr, mac, out, in, nblocks);                          \
        aesir_wipe_stack(CCM_WIPE_BYTES);                                      \
    }

#define SSE_ATTR ENGINE_TARGET
#define AVX_ATTR __attribute__((target("aes,ssse3,avx")))

CCM_ENTRY(aesir_aesni_ccm_enc, ccm_enc_nr, SSE_ATTR)
CCM_ENTRY(aesir_aesni_ccm_dec, ccm_dec_nr, SSE_ATTR)
CCM_ENTRY(aesir_aesni_ccm_enc_avx, ccm_enc_nr, AVX_ATTR)
CCM_ENTRY(aesir_aesni_ccm_dec_avx, ccm_dec_nr, AVX_ATTR)

#endif
