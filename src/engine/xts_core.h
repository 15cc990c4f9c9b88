/*
 * xts_core.h -- the body of the fused XTS kernels of aesni, vaes-avx2 and
 * vaes-avx512 (IEEE 1619-2018 5.3.1 on whole blocks: C_j = E(P_j ^ T_j)
 * ^ T_j, T_(j+1) = T_j * x), written once for any vector width.
 *
 * Layout. A vector holds VW consecutive blocks (1 on xmm, 2 on ymm, 4 on
 * zmm), one per 128-bit lane; an iteration takes U vectors, U * VW
 * blocks (8, 16, 32). Vector v's tweak register holds, lane by lane,
 * T_(i + VW v) .. T_(i + VW v + VW - 1):
 *
 *      tw[0] = | T_i      | T_i x    | T_i x^2  | T_i x^3  |   (zmm)
 *      tw[1] = | T_i x^4  | T_i x^5  | T_i x^6  | T_i x^7  |
 *      ...
 *      tw[7] = | T_i x^28 | ...                 | T_i x^31 |
 *
 * so that each lane steps on independently: after an iteration every
 * lane is multiplied by x^(U VW) (x^32 on zmm, x^16 on ymm, x^8 on xmm),
 * U VW / 8 whole bytes. A multiply by x^(8m) of a little-endian 128-bit
 * lane is a left shift by m bytes (vpslldq, within each lane) and the m
 * bytes shifted out, d = the lane's top 8m bits, folded back in as
 * d * (x^7 + x^2 + x + 1) = d ^ d<<1 ^ d<<2 ^ d<<7 (an integer of at most
 * 8m + 7 < 64 bits, so it lands in the low qword without a further
 * reduction): the "shifts with the 0x87 reduction per lane" of the
 * Linux and BoringSSL VAES XTS code, here without VPCLMULQDQ (which
 * aesni and vaes-avx2 do not require; with it the fold is one
 * carry-less multiply by 0x87, the same count of instructions on
 * these CPUs as the three shifts and two XORs). No lane waits for
 * another: the tweak chain is U VW times shorter than doubling block by
 * block, and its instructions go to other ports than the AES rounds.
 *
 * The first tweaks of a call: T * x^k for k = 1 .. VW-1 in one xmm (by
 * the same shift-and-fold, shift counts in a register), then
 * tw[v] = tw[0] * x^(VW v). The next call's tweak (T_n, n blocks on) is
 * lane 0 of tw[0] times x^r after the r = n mod (U VW) blocks of the
 * tail.
 *
 * Whitening: P ^ T ^ K0 in one step (vpternlog with AVX-512VL, else two
 * XORs), and the last round's key XORed with T (aesenclast(x, K_nr ^ T)
 * = E(..) ^ T), so the output needs no XOR of its own. Decryption is
 * the same with aesdec on the equivalent inverse cipher's schedule.
 *
 * Tails: after the bulk loop r < U VW blocks remain; they take
 * ceil(r / VW) vectors in one pass (a kernel per vector count), the last
 * vector loaded and stored with a mask (zmm: byte mask; ymm: one xmm;
 * xmm: whole blocks).
 *
 * The includer defines, before including this file: ENGINE_ISA and
 * engine.h, the vector type `vec`, XW_VW and XW_U, XW_STEP (U VW / 8),
 * and the width layer:
 *   xv_bcast(__m128i)      the 16-byte key in every lane
 *   xv_load/xv_store       a whole vector, unaligned
 *   xv_load_part/xv_store_part(p, [v,] lb)  the first lb blocks only
 *   xv_xor, xv_xor3        XOR of two, three vectors
 *   xv_enc, xv_enclast, xv_dec, xv_declast   one AES round per lane
 *   xv_sll64, xv_srl64(v, __m128i count)     qword shifts by a count
 *   XV_SLLI64(v, imm), XV_SLLB(v, imm), XV_SRLB(v, imm)  by constants
 *                          (qword bits; bytes within each lane)
 *   xv_from_lanes(__m128i t[XW_VW])  lane j = t[j]
 *   xv_lane0(v)            lane 0 as an xmm
 * and XTS_NAME(x), the engine's prefix.
 *
 * Constant time: AES instructions, shifts and XORs only; branches and
 * addresses depend on nr and the block count (public).
 */
#ifndef AESIR_XTS_CORE_H
#define AESIR_XTS_CORE_H

#if defined(__clang__)
#define XW_UNROLL _Pragma("clang loop unroll(full)")
#else
#define XW_UNROLL _Pragma("GCC unroll 16")
#endif

/* d * (x^7 + x^2 + x + 1) for d of at most 56 bits per qword. */
ENGINE_INLINE vec xts_fold(vec d)
{
    return xv_xor(xv_xor3(d, XV_SLLI64(d, 1), XV_SLLI64(d, 2)),
                  XV_SLLI64(d, 7));
}

/* t * x^k per lane, 0 <= k <= 56, k in a register (the set-up and the
 * tail's tweak: no immediate). */
ENGINE_INLINE vec xts_mulx_var(vec t, unsigned k)
{
    const __m128i ck = _mm_cvtsi32_si128((int)k);
    const __m128i cr = _mm_cvtsi32_si128((int)(64 - k));
    vec b = xv_srl64(t, cr); /* each qword's top k bits, at the bottom;
                                none when k = 0 (a count of 64) */
    return xv_xor3(xv_sll64(t, ck), XV_SLLB(b, 8), xts_fold(XV_SRLB(b, 8)));
}

ENGINE_INLINE __m128i xts_mulx_var128(__m128i t, unsigned k)
{
    const __m128i ck = _mm_cvtsi32_si128((int)k);
    const __m128i cr = _mm_cvtsi32_si128((int)(64 - k));
    __m128i b = _mm_srl_epi64(t, cr), d = _mm_srli_si128(b, 8);
    d = _mm_xor_si128(
        _mm_xor_si128(d, _mm_slli_epi64(d, 1)),
        _mm_xor_si128(_mm_slli_epi64(d, 2), _mm_slli_epi64(d, 7)));
    return _mm_xor_si128(
        _mm_xor_si128(_mm_sll_epi64(t, ck), _mm_slli_si128(b, 8)), d);
}

/* t * x^(8 XW_STEP) per lane: the step of one iteration. With clmul
 * (XW_CLMUL: the engine has a carry-less multiply on its vectors, and
 * the CPU has VPCLMULQDQ) the fold is one multiply by 0x87. */
ENGINE_INLINE vec xts_step(vec t, int clmul)
{
    vec d = XV_SRLB(t, 16 - XW_STEP);
#ifdef XW_CLMUL
    if (clmul)
        return xv_xor(XV_SLLB(t, XW_STEP), xv_clmul87(d));
#else
    (void)clmul;
#endif
    return xv_xor(XV_SLLB(t, XW_STEP), xts_fold(d));
}

/* The tweak registers for T (block i's tweak). */
ENGINE_INLINE void xts_tweaks(vec tw[XW_U], __m128i t)
{
    __m128i l[XW_VW];
    l[0] = t;
    XW_UNROLL
    for (unsigned j = 1; j < XW_VW; j++)
        l[j] = xts_mulx_var128(t, j);
    tw[0] = xv_from_lanes(l);
    XW_UNROLL
    for (unsigned v = 1; v < XW_U; v++)
        tw[v] = xts_mulx_var(tw[0], XW_VW * v);
}

/* nv vectors (the last with lb blocks when part) through the rounds.
 * NR, dec, nv, part are constants where this is inlined. */
ENGINE_INLINE void xts_pass(const vec *k, unsigned NR, int dec, const vec *tw,
                            uint8_t *out, const uint8_t *in, unsigned nv,
                            int part, size_t lb)
{
    vec x[XW_U];
    XW_UNROLL
    for (unsigned v = 0; v < nv; v++) {
        vec p = part && v + 1 == nv ? xv_load_part(in + 16 * XW_VW * v, lb)
                                    : xv_load(in + 16 * XW_VW * v);
        x[v] = xv_xor3(p, tw[v], k[0]);
    }
    XW_UNROLL
    for (unsigned r = 1; r < NR; r++) {
        XW_UNROLL
        for (unsigned v = 0; v < nv; v++)
            x[v] = dec ? xv_dec(x[v], k[r]) : xv_enc(x[v], k[r]);
    }
    XW_UNROLL
    for (unsigned v = 0; v < nv; v++) {
        vec kl = xv_xor(k[NR], tw[v]);
        x[v] = dec ? xv_declast(x[v], kl) : xv_enclast(x[v], kl);
        if (part && v + 1 == nv)
            xv_store_part(out + 16 * XW_VW * v, x[v], lb);
        else
            xv_store(out + 16 * XW_VW * v, x[v]);
    }
}

/* n >= 1 blocks with NR rounds; tweak in, T_n out. */
ENGINE_INLINE void xts_body(const uint8_t *rk, unsigned NR, int dec, int clmul,
                            uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                            size_t n)
{
    vec k[15], tw[XW_U];
    size_t r, nv, lb;

    XW_UNROLL
    for (unsigned i = 0; i <= NR; i++)
        k[i] = xv_bcast(
            _mm_load_si128((const __m128i *)(const void *)(rk + 16 * i)));
    xts_tweaks(tw, _mm_loadu_si128((const __m128i *)(const void *)tweak));
    for (; n >= XW_U * XW_VW; n -= XW_U * XW_VW) {
        xts_pass(k, NR, dec, tw, out, in, XW_U, 0, XW_VW);
        XW_UNROLL
        for (unsigned v = 0; v < XW_U; v++)
            tw[v] = xts_step(tw[v], clmul);
        in += 16 * XW_U * XW_VW, out += 16 * XW_U * XW_VW;
    }
    r = n;
    nv = (r + XW_VW - 1) / XW_VW;
    lb = r - XW_VW * (nv - (nv > 0));
#define XTS_TAIL(c)                                                            \
    case c:                                                                    \
        if (c <= XW_U)                                                         \
            xts_pass(k, NR, dec, tw, out, in, c, lb != XW_VW, lb);             \
        break;
    switch (nv) {
        XTS_TAIL(1)
        XTS_TAIL(2)
        XTS_TAIL(3)
        XTS_TAIL(4)
        XTS_TAIL(5)
        XTS_TAIL(6)
        XTS_TAIL(7)
        XTS_TAIL(8)
    default:
        break;
    }
#undef XTS_TAIL
    _mm_storeu_si128((__m128i *)(void *)tweak,
                     xts_mulx_var128(xv_lane0(tw[0]), (unsigned)r));
}

/* One kernel per key size, direction and step (c: 0 shifts, 1
 * carry-less multiply): the rounds unrolled. */
#define XTS_KERNEL(name, NR, dec, c)                                           \
    ENGINE_FN STACK_WIPE_BODY void XTS_NAME(name)(                             \
        const uint8_t *rk, uint8_t tweak[16], uint8_t *out, const uint8_t *in, \
        size_t n)                                                              \
    {                                                                          \
        xts_body(rk, NR, dec, c, tweak, out, in, n);                           \
    }
#define XTS_KERNELS(dir, dec, c)                                               \
    XTS_KERNEL(dir##10, 10, dec, c)                                            \
    XTS_KERNEL(dir##12, 12, dec, c)                                            \
    XTS_KERNEL(dir##14, 14, dec, c)

/* The stack wipes of XTS_CALL, one per key size: b bytes (a multiple
 * of 64) of the stack just below the caller's frame zeroed, as
 * aesir_wipe_stack (internal.h) does, but by vector stores of a
 * constant count rather than a call to memset (some 20 TSC cycles of a
 * 576-byte unit's 170 for 704 bytes, Zen 4). The array is of bytes and
 * the stores unaligned, so that the frame is not realigned: a frame
 * aligned to 32 or 64 bytes starts its array up to 56 bytes below the
 * caller's, where a kernel's frame that is not realigned (clang's) has
 * what test_residue finds. */
#define XTS_WIPE(name, b)                                                      \
    ENGINE_FN STACK_WIPE_BODY void XTS_NAME(name)(void)                        \
    {                                                                          \
        uint8_t w[b];                                                          \
        XW_UNROLL                                                              \
        for (size_t i = 0; i < (b) / sizeof(vec); i++)                         \
            xv_store(w + i * sizeof(vec), xv_bcast(_mm_setzero_si128()));      \
        __asm__ __volatile__("" : : "r"(w) : "memory");                        \
    }
#define XTS_WIPES(b10, b12, b14)                                               \
    XTS_WIPE(wipe10, b10)                                                      \
    XTS_WIPE(wipe12, b12)                                                      \
    XTS_WIPE(wipe14, b14)

/* The kernel of dir for nr, then the stack it used wiped (what the
 * compiler spilled of tweaks, round keys, data): b10, b12, b14 bytes by
 * key size, the bound of stack_wipe.h (the larger frame of gcc 12 and
 * clang 14, -fstack-usage, plus 256, rounded up to 64), so that
 * AES-128's smaller frame is not paid for at 256. */
#define XTS_CALL(dir, b10, b12, b14)                                           \
    do {                                                                       \
        if (nr == 10) {                                                        \
            XTS_NAME(dir##10)(k, tweak, out, in, n);                           \
            XTS_NAME(wipe10)();                                                \
        } else if (nr == 12) {                                                 \
            XTS_NAME(dir##12)(k, tweak, out, in, n);                           \
            XTS_NAME(wipe12)();                                                \
        } else {                                                               \
            XTS_NAME(dir##14)(k, tweak, out, in, n);                           \
            XTS_NAME(wipe14)();                                                \
        }                                                                      \
    } while (0)

/* The entry point (aesir_xts_fn). */
#define XTS_ENTRY(name, dir, b10, b12, b14)                                    \
    void name(const void *rk, unsigned nr, uint8_t tweak[16], uint8_t *out,    \
              const uint8_t *in, size_t n)                                     \
    {                                                                          \
        const uint8_t *k = ENGINE_RK(rk);                                      \
        XTS_CALL(dir, b10, b12, b14);                                          \
    }

/* The same choosing the carry-less kernels (dir##c) when the CPU has
 * VPCLMULQDQ (after AESIR_CPU_DISABLE), the shift kernels otherwise. */
#define XTS_ENTRY_CLMUL(name, dir, b10, b12, b14)                              \
    void name(const void *rk, unsigned nr, uint8_t tweak[16], uint8_t *out,    \
              const uint8_t *in, size_t n)                                     \
    {                                                                          \
        const uint8_t *k = ENGINE_RK(rk);                                      \
        if (aesir_cpu_features() & AESIR_CPU_VPCLMUL)                          \
            XTS_CALL(dir##c, b10, b12, b14);                                   \
        else                                                                   \
            XTS_CALL(dir, b10, b12, b14);                                      \
    }

#endif /* AESIR_XTS_CORE_H */
