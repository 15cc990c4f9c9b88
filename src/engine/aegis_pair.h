/*
 * aegis_pair.h -- the AEGIS-128L one-shot kernel (internal.h,
 * aesir_aegis_fn) with its eight state rows paired in four 256-bit
 * registers, for the engines with 256-bit VAES (vaes-avx2, vaes-avx512).
 *
 * Why: an AEGIS-128L update is 8 AES rounds, and Zen 4 issues two
 * 128-bit AESENC per cycle, exactly the 4 cycles that one AESENC's
 * latency allows an update: the one-lane kernel (aegis_kernel.h, xmm)
 * has no slack, and every XOR, AND, load or store of the keystream that
 * the scheduler puts on an AES pipe delays a round of the chain. With
 * data it ran at about 5.9 core cycles an update against 5.0 without.
 * A 256-bit VAESENC does two rounds in one operation, so the update
 * takes 4 of them and the pipes have room for the rest.
 *
 * The pairing (draft-irtf-cfrg-aegis-aead-17 section 3.3: S'i =
 * AESRound(S(i-1), Si), M0 into S0 and M1 into S4): P_j = (S_j, S_j+4),
 * the low 128-bit lane S_j, for j = 0..3. Then
 *
 *   P'1 = AESENC(P0, P1)   (S0 -> S'1, S4 -> S'5)
 *   P'2 = AESENC(P1, P2)   (S1 -> S'2, S5 -> S'6)
 *   P'3 = AESENC(P2, P3)   (S2 -> S'3, S6 -> S'7)
 *   P'0 = AESENC(swap(P3), P0) ^ (M0, M1)   (S7 -> S'0, S3 -> S'4)
 *
 * where swap exchanges the two lanes (one lane-crossing shuffle); the
 * message is one 32-byte load. Row pair 0 is kept lazily as in
 * aegis_kernel.h (P0 = B0 ^ X0, X0 the XOR of the messages so far), so
 * the chain of an update is the AESENC alone. The ring of dependences
 * goes through the four pairs and the swap once: (4 x 4 + 1 + L) / 4
 * cycles an update with L the swap's latency, against (8 x 4 + 2) / 8
 * for single rows, but with half the AES operations. On Zen 4 (L = 3
 * for VALIGNQ or VPERM2I128) a loop of updates alone runs at about 5.05
 * core cycles either way; the gain is where the rounds compete with
 * other work for the AES pipes: with the keystream, and between
 * messages, whose Init and Finalize (17 updates) overlap when one
 * message follows another. Measured against aegis_kernel.h's one-lane
 * kernel (both vaes-avx512 flavours in one binary, gcc 12, TSC cycles
 * per message, best of 500 batches of 64, 32-byte tag): seal of 0 / 64
 * / 576 / 16384 bytes 57 / 65 / 129 / 2096 -> 45 / 54 / 115 / 1970,
 * open 57 / 65 / 136 / 2291 -> 45 / 55 / 119 / 2106.
 *
 * AEGIS-256 paired the same way (P_j = (S_j, S_j+3)) was slower with
 * data (16 KiB seal 3568 -> 4400 cycles: a ring of 3 pairs and the swap,
 * (12 + 1 + 3) / 3 = 5.3 cycles an update against 4.2, and its 16-byte
 * keystream needs the high lanes extracted): not used.
 *
 * The keystream (3.6): Z0 = S1 ^ S6 ^ (S2 & S3), Z1 = S2 ^ S5 ^ (S6 &
 * S7), that is (Z0, Z1) = P1 ^ swap(P2) ^ (P2 & P3); the tag (3.9):
 * S0 ^ S1 ^ S2 ^ S3 || S4 ^ S5 ^ S6 ^ S7 = P0 ^ P1 ^ P2 ^ P3, one store.
 *
 * Included after engine.h, stack_wipe.h, aegis.h and <immintrin.h>, with
 * AP_NAME(x) (the engine's name for function x), AP_SWAP(v) (the lanes
 * of a __m256i exchanged), and optionally AP_XOR3 / AP_XORAND (as
 * aegis_kernel.h's AK_XOR3 / AK_XORAND, on __m256i) and AP_MASK(n)
 * (below). Defines AP_NAME(l)
 * with aesir_aegis_fn's arguments minus the variant.
 *
 * Constant time: AES instructions, bit operations and shuffles by
 * constants; branches and addresses on lengths only. Partial blocks go
 * through a zero-padded copy on the stack, wiped here; the caller wipes
 * the frame (STACK_WIPE_BODY).
 */

#define AP_LO(v) _mm256_castsi256_si128(v)
#define AP_HI(v) _mm256_extracti128_si256((v), 1)
#define AP_PAIR(lo, hi) _mm256_set_m128i((hi), (lo))
#define AP_LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define AP_ST(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define AP_LD1(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#ifndef AP_XOR3
#define AP_XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256((a), (b)), (c))
#endif
#ifndef AP_XORAND
#define AP_XORAND(a, b, c) _mm256_xor_si256((a), _mm256_and_si256((b), (c)))
#endif

/* The rounds of an update; the message goes into x0 (AP_UPDATE). */
#define AP_ROUNDS()                                                            \
    do {                                                                       \
        const __m256i t0_ = _mm256_xor_si256(b0, x0);                          \
        b0 = _mm256_aesenc_epi128(AP_SWAP(p3), b0);                            \
        p3 = _mm256_aesenc_epi128(p2, p3);                                     \
        p2 = _mm256_aesenc_epi128(p1, p2);                                     \
        p1 = _mm256_aesenc_epi128(t0_, p1);                                    \
    } while (0)

/*
 * Partial blocks, n bytes (0 < n < 32): AP_LDN the first n bytes at p
 * and zeros, AP_STN the first n bytes of v to p, AP_CUT v with the
 * bytes from n on zeroed. With AP_MASK(n) (the engine's byte mask of n
 * ones: AVX-512BW) they are masked loads and stores, which read and
 * write no byte past n and fault on none; otherwise a zero-padded copy
 * in buf. The masked forms keep the kernel free of calls, so the state
 * is not spilled around memset and memcpy: clang 14 gave the copying
 * kernel a 288-byte frame below six saved registers.
 */
#ifdef AP_MASK
#define AP_LDN(p, n) _mm256_maskz_loadu_epi8(AP_MASK(n), (p))
#define AP_STN(p, v, n) _mm256_mask_storeu_epi8((p), AP_MASK(n), (v))
#define AP_CUT(v, n) _mm256_maskz_mov_epi8(AP_MASK(n), (v))
#else
#define AP_LDN(p, n) (memset(buf, 0, 32), memcpy(buf, (p), (n)), AP_LD(buf))
#define AP_STN(p, v, n) (AP_ST(buf, (v)), (void)memcpy((p), buf, (n)))
#define AP_CUT(v, n)                                                           \
    (AP_ST(buf, (v)), memset(buf + (n), 0, 32 - (n)), AP_LD(buf))
#endif

/* One update with the message pair m (32 bytes: M0 low, M1 high). */
#define AP_UPDATE(m)                                                           \
    do {                                                                       \
        const __m256i m_ = (m);                                                \
        AP_ROUNDS();                                                           \
        x0 = _mm256_xor_si256(x0, m_);                                         \
    } while (0)

/* x ^ (Z0, Z1) of the state (p1, p2, p3) */
#define AP_ZXQ(x, q1, q2, q3)                                                  \
    AP_XORAND(AP_XOR3((x), (q1), AP_SWAP(q2)), (q2), (q3))
#define AP_ZX(x) AP_ZXQ((x), p1, p2, p3)

STACK_WIPE_BODY ENGINE_FN void
AP_NAME(l)(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad,
           size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
           uint8_t *tag, size_t tag_len, int decrypt)
{
    const __m128i k = AP_LD1(key), n = AP_LD1(nonce);
    const __m128i c0 = AP_LD1(aegis_c0), c1 = AP_LD1(aegis_c1);
    const __m128i kn = _mm_xor_si128(k, n), kc0 = _mm_xor_si128(k, c0);
    /* Init (3.4): S = (k ^ n, C1, C0, C1, k ^ n, k ^ C0, k ^ C1, k ^ C0),
     * each update with M0 = n, M1 = k */
    __m256i b0 = AP_PAIR(kn, kn), p1 = AP_PAIR(c1, kc0);
    __m256i p2 = AP_PAIR(c0, _mm_xor_si128(k, c1)), p3 = AP_PAIR(c1, kc0);
    __m256i x0 = _mm256_setzero_si256();
    const __m256i mi = AP_PAIR(n, k);
#ifndef AP_MASK
    uint8_t buf[32];
#endif
    size_t i;

    for (unsigned r = 0; r < 10; r++)
        AP_UPDATE(mi);
    for (i = 0; aad_len - i >= 32; i += 32) /* Absorb */
        AP_UPDATE(AP_LD(aad + i));
    if (i < aad_len)
        AP_UPDATE(AP_LDN(aad + i, aad_len - i));
    if (!decrypt) {
        /* the keystream from a copy of the state, after the rounds in
         * program order: the core issues the oldest ready operation
         * first, so the rounds (the chain) get the pipes before it (16
         * KiB seal 2057 -> 1970 cycles, 576 bytes 117 -> 115) */
        for (i = 0; len - i >= 32; i += 32) { /* Enc (3.6) */
            const __m256i m = AP_LD(in + i), q1 = p1, q2 = p2, q3 = p3;
            AP_UPDATE(m);
            AP_ST(out + i, AP_ZXQ(m, q1, q2, q3));
        }
        if (i < len) {
            const __m256i m = AP_LDN(in + i, len - i);
            AP_STN(out + i, AP_ZX(m), len - i);
            AP_UPDATE(m);
        }
    } else {
        for (i = 0; len - i >= 32; i += 32) { /* Dec (3.7) */
            /* the plaintext joins x0 by a path of its own: x0 is on the
             * chain (S0 = b0 ^ x0, the input of S'1's round), so each
             * pair's path to it closes a cycle (P1 -> x0 -> P1 two
             * updates on). With A = P1 ^ (P2 & P3) and the swap beside
             * it, P1 is two operations from x0 (was three: XOR3, then
             * XORAND, then the swap's XOR), and x0 ^ c is made off the
             * state's path: on Zen 5 (vector logic 2 cycles, AESENC 4)
             * the P1 cycle is then (3 x 2 + 4) / 2 = 5 cycles an update,
             * under the ring's 5.25, against 6 (A and the swap before
             * the rounds in program order: 16 KiB 2100 -> 2000 TSC
             * cycles; after them as in the encryption loop was slower) */
            const __m256i c = AP_LD(in + i), q1 = p1, q2 = p2, q3 = p3;
            const __m256i xc = _mm256_xor_si256(x0, c);
            const __m256i a = AP_XORAND(q1, q2, q3), w = AP_SWAP(q2);
            AP_ROUNDS();
            x0 = AP_XOR3(xc, a, w);
            AP_ST(out + i, AP_XOR3(c, a, w));
        }
        if (i < len) { /* DecPartial (3.8): the plaintext zero-padded */
            const __m256i m = AP_CUT(AP_ZX(AP_LDN(in + i, len - i)), len - i);
            AP_STN(out + i, m, len - i);
            AP_UPDATE(m);
        }
    }
    { /* Finalize (3.9): S2 ^ LE64(ad bits) || LE64(msg bits), both halves */
        const __m128i t =
            _mm_xor_si128(AP_LO(p2), _mm_set_epi64x((long long)(len * 8),
                                                    (long long)(aad_len * 8)));
        const __m256i tt = AP_PAIR(t, t);
        for (unsigned r = 0; r < 7; r++)
            AP_UPDATE(tt);
    }
    {
        const __m256i s =
            _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(b0, x0), p1),
                             _mm256_xor_si256(p2, p3));
        if (tag_len == 16) /* S0 ^ .. ^ S6 */
            _mm_storeu_si128(
                (__m128i *)(void *)tag,
                _mm_xor_si128(_mm_xor_si128(AP_LO(s), AP_HI(s)), AP_HI(p3)));
        else
            AP_ST(tag, s);
    }
#ifndef AP_MASK
    aesir_wipe(buf, sizeof(buf));
#endif
}

#undef AP_UPDATE
#undef AP_LDN
#undef AP_STN
#undef AP_CUT
#undef AP_MASK
#undef AP_ROUNDS
#undef AP_ZX
#undef AP_ZXQ
#undef AP_LO
#undef AP_HI
#undef AP_PAIR
#undef AP_LD
#undef AP_ST
#undef AP_LD1
#undef AP_XOR3
#undef AP_XORAND
#undef AP_SWAP
#undef AP_NAME
