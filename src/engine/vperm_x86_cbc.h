/*
 * vperm_x86_cbc.h -- serial CBC encryption for the x86 vector-permute
 * engines, written for latency rather than throughput (used by
 * vperm_avx2.c; vperm_ssse3.c could include it as well). Included after
 * vperm_core.h (it uses the same round keys and tables), compiled for the
 * engine's ENGINE_ISA: the same C gives legacy-SSE code in the SSSE3
 * engine and VEX 3-operand code in the AVX2 one. It defines
 * VP_NAME(cbc_enc_serial), a body for STACK_WIPED_CHAIN.
 *
 * Why a separate path. CBC encryption cannot interleave blocks, so its
 * speed is the length of one round's dependency chain. On the cores we
 * measured a shuffle has a latency of 2 cycles (Zen 4) and XOR/AND/shift
 * 1; vperm_core.h's round (after M. Hamburg, "Accelerating AES with
 * Vector Permute Instructions", CHES 2009) has on its critical path
 *
 *   psrlw, pand (i), pxor (j), pshufb 1/j, pxor 1/(zk), pshufb, pxor i
 *   (jo), pshufb enc1_jo, pxor (a), pshufb fwd, pxor (t), pshufb fwd,
 *   pxor, pxor                         = 5 shuffles + 9 ALU = 19 cycles
 *
 * and 19-20 cycles per round is what it runs at. Two changes shorten
 * the chain to 17 cycles (5 shuffles + 7 ALU) without adding shuffles:
 *
 *  1. MixColumns as a flat sum, 2a + rot(2a) + rot(a) + rot^2(a) +
 *     rot^3(a) + k: the four rotations start together, one shuffle after
 *     a and 2a, instead of two dependent shuffles (rot^2 = fwd o fwd,
 *     made once per call).
 *  2. The block boundary. The last round's output goes through encl (AES
 *     basis), the key, ShiftRows, the XOR with the next plaintext and the
 *     next block's input basis change. All of that is linear and
 *     L_in o encl = enc1, so the next block's first state is
 *     enc1_io[sr(io)] ^ enc1_jo[sr(jo)] ^ (L_in(sr(K_nr) ^ p) ^ rk[0]),
 *     the bracket computed off the chain from the plaintext. The
 *     ciphertext (encl, key) is a side branch that nothing waits for.
 *
 * Measured on Zen 4 this gains only 0-5% over vperm_core.h's cbc_enc:
 * the two shuffle pipes, not the chain alone, set the pace. A variant
 * that kept the state as two nibble registers (no split on the chain,
 * 15 cycles) needs 21 shuffles per round and ran 8% slower than the
 * baseline; docs/engines/vperm.md has the figures.
 *
 * Constant time: as the engine that includes it. No branch and no
 * address depends on key or data.
 */
#ifndef AESIR_VPERM_X86_CBC_H
#define AESIR_VPERM_X86_CBC_H

ENGINE_INLINE __m128i ser_tab(const uint8_t t[16])
{
    return _mm_load_si128((const __m128i *)(const void *)t);
}

ENGINE_INLINE __m128i ser_shuf(__m128i tab, __m128i idx)
{
    return _mm_shuffle_epi8(tab, idx);
}

ENGINE_INLINE __m128i ser_x(__m128i a, __m128i b)
{
    return _mm_xor_si128(a, b);
}

/* L_in(y) ^ k: a block's first state from its input y. */
ENGINE_INLINE __m128i ser_in(__m128i y, __m128i k)
{
    const __m128i m = _mm_set1_epi8(0x0f);
    return ser_x(ser_x(ser_shuf(ser_tab(vp_in_lo), _mm_and_si128(y, m)),
                       ser_shuf(ser_tab(vp_in_hi),
                                _mm_and_si128(_mm_srli_epi16(y, 4), m))),
                 k);
}

STACK_WIPE_BODY ENGINE_FN void
VP_NAME(cbc_enc_serial)(const void *rkv, unsigned nr, uint8_t iv[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *rk = rkv;
    const __m128i m = _mm_set1_epi8(0x0f);
    const __m128i inv = ser_tab(vp_inv), invz = ser_tab(vp_invz);
    const __m128i e1io = ser_tab(vp_enc1_io), e1jo = ser_tab(vp_enc1_jo);
    const __m128i e2io = ser_tab(vp_enc2_io), e2jo = ser_tab(vp_enc2_jo);
    const __m128i srn = ser_tab(vp_sr[nr & 3]);
    _Alignas(16) uint8_t fwd2[4][16];
    __m128i srk, c, s;

    if (nblocks == 0)
        return;
    for (unsigned q = 0; q < 4; q++)
        _mm_store_si128((__m128i *)(void *)fwd2[q],
                        ser_shuf(ser_tab(vp_fwd[q]), ser_tab(vp_fwd[q])));
    /* The last round key in output byte order, as the ciphertext has it. */
    srk = ser_shuf(rk[nr], srn);
    c = ser_x(_mm_loadu_si128((const __m128i *)(const void *)iv),
              _mm_loadu_si128((const __m128i *)(const void *)in));
    s = ser_in(c, rk[0]);
    for (size_t b = 0;; b++) {
        __m128i io, jo, sio, sjo;
        for (unsigned r = 1;; r++) {
            /* vperm_core.h's invert(). */
            const __m128i k = _mm_and_si128(s, m);
            const __m128i i = _mm_and_si128(_mm_srli_epi16(s, 4), m);
            const __m128i j = ser_x(i, k), zk = ser_shuf(invz, k);
            io = ser_x(ser_shuf(inv, ser_x(ser_shuf(inv, i), zk)), j);
            jo = ser_x(ser_shuf(inv, ser_x(ser_shuf(inv, j), zk)), i);
            if (r == nr)
                break;
            {
                /* MixColumns as a flat sum: the four rotations start
                 * together, one shuffle after a and 2a. */
                const __m128i fwd = ser_tab(vp_fwd[r & 3]);
                const __m128i a = ser_x(ser_shuf(e1io, io), ser_shuf(e1jo, jo));
                const __m128i a2 =
                    ser_x(ser_shuf(e2io, io), ser_shuf(e2jo, jo));
                const __m128i r1 =
                    ser_x(ser_shuf(a, fwd), ser_shuf(a, ser_tab(fwd2[r & 3])));
                const __m128i r2 = ser_x(ser_shuf(a, ser_tab(vp_bwd[r & 3])),
                                         ser_shuf(a2, fwd));
                s = ser_x(ser_x(a2, rk[r]), ser_x(r1, r2));
            }
        }
        /* Put the S-box outputs in output byte order once: both the
         * ciphertext and the next block's state start from them. */
        sio = ser_shuf(io, srn);
        sjo = ser_shuf(jo, srn);
        c = ser_x(ser_x(ser_shuf(ser_tab(vp_encl_io), sio),
                        ser_shuf(ser_tab(vp_encl_jo), sjo)),
                  srk);
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * b), c);
        if (b + 1 == nblocks)
            break;
        /* L_in(c ^ p) ^ rk[0] without waiting for c: L_in o encl is
         * enc1, and the rest does not depend on the chain. */
        s = ser_x(
            ser_x(ser_shuf(e1io, sio), ser_shuf(e1jo, sjo)),
            ser_in(ser_x(_mm_loadu_si128((
                             const __m128i *)(const void *)(in + 16 * (b + 1))),
                         srk),
                   rk[0]));
    }
    _mm_storeu_si128((__m128i *)(void *)iv, c);
}

#endif /* AESIR_VPERM_X86_CBC_H */
