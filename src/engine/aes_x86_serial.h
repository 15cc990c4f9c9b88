/*
 * aes_x86_serial.h -- the serial modes (CBC encryption, CFB128
 * encryption, OFB) on one xmm AES chain, shared by the aesni engine and
 * the VAES engines (wide registers do not help a chain: each block needs
 * the one before).
 *
 * A serial mode costs nr AES latencies per block at best: the rounds of
 * block i need the output of block i - 1. Everything else is kept off the
 * chain with one identity, AESENCLAST(x, K) = SubBytes(ShiftRows(x)) ^ K:
 * the last round's key absorbs every XOR that follows it, including round
 * 0 of the next block (K0), so the value AESENCLAST returns is already the
 * next block's state after round 0, and the mode's output is that value
 * XORed with what was folded in, computed beside the chain:
 *
 *   CBC  key K(nr) ^ K0 ^ P(i+1)   returns C(i) ^ K0 ^ P(i+1)
 *   CFB  key K(nr) ^ K0 ^ P(i)     returns C(i) ^ K0
 *        (C(i) = E(C(i-1)) ^ P(i))
 *   OFB  key K(nr) ^ K0            returns O(i) ^ K0   (out = in ^ O(i))
 *
 * (For CBC this is the folding Gueron's AES-NI white paper leaves to the
 * reader; the CFB and OFB forms are the same identity.) K0 and K(nr) are
 * loaded into registers once per call; rounds 1 .. nr-1 take their keys
 * as memory operands (serial_rounds says why), with nr a compile-time
 * constant so the rounds unroll. The mode layer measured 53 (OFB) and 69
 * (CFB encryption) core cycles per AES-128 block when it called the
 * engine once per block, against the 40-cycle bound these kernels reach.
 *
 * The includer defines ENGINE_ISA (which must include "aes") and
 * ENGINE_NAME(x), its prefix for out-of-line functions (engine.h), then
 * includes this file once. It defines ENGINE_NAME(cbc_enc),
 * ENGINE_NAME(cfb_enc) and ENGINE_NAME(ofb), of aesir_cbc_fn's type, and
 * ENGINE_NAME(cbc_mac), CBC encryption that stores only the chaining
 * value (the CBC-MAC chain of aesir_cbc_mac_many; out is not used).
 *
 * Constant time: branches on nr and the block count only; secrets stay
 * in xmm registers and the round-key area, nothing on the stack.
 */
#ifndef AESIR_AES_X86_SERIAL_H
#define AESIR_AES_X86_SERIAL_H

#include <immintrin.h>

#include "engine.h"

#if !defined(ENGINE_ISA) || !defined(ENGINE_NAME)
#error "aes_x86_serial.h: define ENGINE_ISA and ENGINE_NAME(x) first"
#endif

enum { SERIAL_CBC, SERIAL_CBC_MAC, SERIAL_CFB, SERIAL_OFB };

ENGINE_INLINE __m128i serial_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ENGINE_INLINE void serial_store(uint8_t *p, __m128i x)
{
    _mm_storeu_si128((__m128i *)(void *)p, x);
}

/* Round key r of the schedule at k. */
ENGINE_INLINE __m128i serial_key(const uint8_t *k, unsigned r)
{
    return _mm_load_si128((const __m128i *)(const void *)(k + 16 * r));
}

/*
 * Rounds 1 .. nr-1 of one block, the round keys as memory operands. The
 * barrier on k keeps gcc from hoisting the loads out of the caller's
 * block loop: it then copied the schedule into a stack array and read it
 * back every call (a round trip through the stack per key, and key
 * material left on the stack), which kept consecutive short calls from
 * overlapping (Zen 4: a 16-byte CBC encryption took 23 TSC cycles per
 * call, 17 with memory operands; docs/engines/vaes.md). A serial
 * chain is latency-bound, so the loads cost nothing: they issue beside
 * it, their addresses known at once.
 *
 * The barrier is volatile: a plain asm with the same input in every
 * iteration is loop-invariant, and clang 14 hoisted it and the
 * loads with it out of the block loop; for AES-256 the 13 keys, K0,
 * K14, their XOR, the chain and the next block need 18 of the 16 xmm
 * registers, and it spilled K14 to the red zone, where it stayed after
 * the call (tests/test_residue.c: the CBC-MAC chain of a one-lane
 * aesir_cbc_mac_many, which CCM runs on its AAD, found it under aesni).
 */
ENGINE_INLINE __m128i serial_rounds(__m128i x, const uint8_t *k, unsigned nr)
{
    __asm__ __volatile__("" : "+r"(k));
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, serial_key(k, r));
    return x;
}

/* nblocks >= 1 of mode with nr known at compile time. iv: the chaining
 * value (CBC, CFB: the last ciphertext block; OFB: the last output
 * block), updated. in == out works: each input block is read before the
 * output block at its place is written. rk is 16-byte aligned. */
ENGINE_INLINE void serial_nr(const uint8_t *rk, const unsigned nr,
                             uint8_t iv[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks, const int mode)
{
    const __m128i k0 = serial_key(rk, 0), knr = serial_key(rk, nr);
    const __m128i kx = _mm_xor_si128(k0, knr);
    __m128i x = _mm_xor_si128(serial_load(iv), k0);

    if (mode == SERIAL_CBC || mode == SERIAL_CBC_MAC) {
        x = _mm_xor_si128(x, serial_load(in));
        for (size_t i = 0; i + 1 < nblocks; i++) {
            __m128i p = serial_load(in + 16 * (i + 1));
            x = _mm_aesenclast_si128(serial_rounds(x, rk, nr),
                                     _mm_xor_si128(kx, p));
            if (mode == SERIAL_CBC)
                serial_store(out + 16 * i,
                             _mm_xor_si128(x, _mm_xor_si128(p, k0)));
        }
        x = _mm_aesenclast_si128(serial_rounds(x, rk, nr), knr);
        if (mode == SERIAL_CBC)
            serial_store(out + 16 * (nblocks - 1), x);
        serial_store(iv, x);
        return;
    }
    for (size_t i = 0; i < nblocks; i++) {
        __m128i p = serial_load(in + 16 * i);
        if (mode == SERIAL_CFB) {
            x = _mm_aesenclast_si128(serial_rounds(x, rk, nr),
                                     _mm_xor_si128(kx, p));
            serial_store(out + 16 * i, _mm_xor_si128(x, k0));
        } else {
            x = _mm_aesenclast_si128(serial_rounds(x, rk, nr), kx);
            serial_store(out + 16 * i, _mm_xor_si128(p, _mm_xor_si128(x, k0)));
        }
    }
    serial_store(iv, _mm_xor_si128(x, k0));
}

ENGINE_INLINE void serial(const void *rk, unsigned nr, uint8_t iv[16],
                          uint8_t *out, const uint8_t *in, size_t nblocks,
                          const int mode)
{
    if (nblocks == 0)
        return;
    if (nr == 10)
        serial_nr(rk, 10, iv, out, in, nblocks, mode);
    else if (nr == 12)
        serial_nr(rk, 12, iv, out, in, nblocks, mode);
    else
        serial_nr(rk, 14, iv, out, in, nblocks, mode);
}

ENGINE_FN void ENGINE_NAME(cbc_enc)(const void *rk, unsigned nr, uint8_t iv[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks)
{
    serial(rk, nr, iv, out, in, nblocks, SERIAL_CBC);
}

ENGINE_FN void ENGINE_NAME(cbc_mac)(const void *rk, unsigned nr, uint8_t iv[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks)
{
    (void)out;
    serial(rk, nr, iv, NULL, in, nblocks, SERIAL_CBC_MAC);
}

ENGINE_FN void ENGINE_NAME(cfb_enc)(const void *rk, unsigned nr, uint8_t iv[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks)
{
    serial(rk, nr, iv, out, in, nblocks, SERIAL_CFB);
}

ENGINE_FN void ENGINE_NAME(ofb)(const void *rk, unsigned nr, uint8_t iv[16],
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    serial(rk, nr, iv, out, in, nblocks, SERIAL_OFB);
}

#endif /* AESIR_AES_X86_SERIAL_H */
