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
 * The first tweaks of a call (xts_tweaks): the vectors whose lanes are
 * T * x^k with k < 8 (two on zmm, four on ymm, all eight on xmm) by
 * shifts of each qword by its lane's own count and the same fold; every
 * later vector a whole number of bytes on from one of them, as the step
 * is. The next call's tweak (T_n, n blocks on) is lane 0 of tw[0] times
 * x^r after the r = n mod (U VW) blocks of the tail.
 *
 * Whitening and the output XOR: the tweak registers hold T ^ K_nr, the
 * last round's key for the block (aesenclast(x, K_nr ^ T) = E(..) ^ T,
 * so the output needs no XOR of its own), and the whitening is
 * P ^ (T ^ K_nr) ^ (K_0 ^ K_nr), one step (vpternlog with AVX-512VL,
 * else two XORs). The step keeps that form by XORing a constant in its
 * last XOR (xts_body). Decryption is the same with aesdec on the
 * equivalent inverse cipher's schedule.
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
 *   xv_sllv64, xv_srlv64(v, c)  qword shifts, each by its qword of c,
 *   xv_counts(b, s)        lane j's qwords b + s j   (both VW > 1 only)
 *   XV_SLLI64(v, imm), XV_SLLB(v, imm), XV_SRLB(v, imm)  by constants
 *                          (qword bits; bytes within each lane)
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

/* t * x^(8 XW_STEP) per lane, xor c: the step of one iteration (c: the
 * constant of the last-key form, below). With clmul (XW_CLMUL: the
 * engine has a carry-less multiply on its vectors, and the CPU has
 * VPCLMULQDQ) the fold is one multiply by 0x87. */
ENGINE_INLINE vec xts_step(vec t, vec c, int clmul)
{
    vec d = XV_SRLB(t, 16 - XW_STEP);
#ifdef XW_CLMUL
    if (clmul)
        return xv_xor3(XV_SLLB(t, XW_STEP), xv_clmul87(d), c);
#else
    (void)clmul;
#endif
    return xv_xor(xv_xor3(d, XV_SLLI64(d, 1), XV_SLLI64(d, 2)),
                  xv_xor3(XV_SLLI64(d, 7), XV_SLLB(t, XW_STEP), c));
}

/* d * 0x87 per lane (d in the low qword, at most 56 bits): one
 * carry-less multiply where the engine and CPU have one. */
ENGINE_INLINE vec xts_fold_by(vec d, int clmul)
{
#ifdef XW_CLMUL
    if (clmul)
        return xv_clmul87(d);
#else
    (void)clmul;
#endif
    return xts_fold(d);
}

/* t * x^(8m) ^ k per lane, m = 1, 2 or 3 (bytes; immediates for the
 * shifts whatever the optimisation). */
ENGINE_INLINE vec xts_bytes(vec t, unsigned m, vec k, int clmul)
{
    vec s, d;
    if (m == 1)
        s = XV_SLLB(t, 1), d = XV_SRLB(t, 15);
    else if (m == 2)
        s = XV_SLLB(t, 2), d = XV_SRLB(t, 14);
    else
        s = XV_SLLB(t, 3), d = XV_SRLB(t, 13);
    return xv_xor3(s, xts_fold_by(d, clmul), k);
}

#if defined(XW_CLMUL) && XW_STEP != 4
#error "xts_core.h: the carry-less steps are written for zmm (XW_STEP 4)"
#endif

#ifdef XW_CLMUL
/* t * x^(16 XW_STEP) ^ c per lane, for XW_STEP = 4 (zmm): x^64, the low
 * qword up by 8 bytes and the high one times 0x87 (xv_clmul87_hi). */
ENGINE_INLINE vec xts_step2(vec t, vec c)
{
    return xv_xor3(XV_SLLB(t, 8), xv_clmul87_hi(t), c);
}
#endif

#define XW_B (8 / XW_VW) /* vectors whose lanes need shifts of < 8 bits */

#if XW_VW > 1
/* Vector v < XW_B: lane j holds T x^(VW v + j), each lane's own shift
 * count (0..7) in a constant vector: the qwords shifted left, the bits
 * shifted out of the low qword carried into the high one and those of
 * the high qword folded back. */
ENGINE_INLINE vec xts_base(__m128i t, unsigned v, int clmul)
{
    const long long k = XW_VW * v;
    vec tb = xv_bcast(t);
    vec b = xv_srlv64(tb, xv_counts(64 - k, -1)); /* a count of 64 gives 0 */
    return xv_xor3(xv_sllv64(tb, xv_counts(k, 1)), XV_SLLB(b, 8),
                   xts_fold_by(XV_SRLB(b, 8), clmul));
}
#endif

/* The tweak registers for T (block i's tweak), in last-key form (T x^j
 * ^ k, k = K_nr): the first XW_B vectors by per-lane shifts of 0..7
 * bits, each later one a whole number of bytes on from one of them, the
 * XOR with k in the fold's XOR. Some 40 vector instructions on zmm (the
 * set-up of a short unit waits for them: 576 bytes are one iteration). */
ENGINE_INLINE void xts_tweaks(vec kt[XW_U], __m128i t, vec k, int clmul,
                              size_t n)
{
    /* for a unit shorter than an iteration only the vectors it uses
     * (vector 0 always: the next tweak comes from it); the others are
     * never read (k: something defined) */
#define XW_NEED(v) ((v) == 0 || n > XW_VW * (size_t)(v))
#if XW_VW > 1
    vec base[XW_B];
    XW_UNROLL
    for (unsigned v = 0; v < XW_B; v++) {
        base[v] = xts_base(t, v, clmul);
        kt[v] = XW_NEED(v) ? xv_xor(base[v], k) : k;
    }
    XW_UNROLL
    for (unsigned v = XW_B; v < XW_U; v++)
        kt[v] = XW_NEED(v) ? xts_bytes(base[v % XW_B], v / XW_B, k, clmul) : k;
#else
    (void)clmul;
    kt[0] = xv_xor(t, k);
    XW_UNROLL
    for (unsigned v = 1; v < XW_U; v++)
        kt[v] = XW_NEED(v) ? xv_xor(xts_mulx_var128(t, v), k) : k;
#endif
#undef XW_NEED
}

/* nv vectors (the last with lb blocks when part) through the rounds;
 * kt[v] = T ^ K_NR (the tweaks in last-key form), e = K_0 ^ K_NR.
 * NR, dec, nv, part are constants where this is inlined. */
ENGINE_INLINE void xts_pass(const vec *k, unsigned NR, int dec, vec e,
                            const vec *kt, uint8_t *out, const uint8_t *in,
                            unsigned nv, int part, size_t lb)
{
    vec x[XW_U];
    XW_UNROLL
    for (unsigned v = 0; v < nv; v++) {
        vec p = part && v + 1 == nv ? xv_load_part(in + 16 * XW_VW * v, lb)
                                    : xv_load(in + 16 * XW_VW * v);
        x[v] = xv_xor3(p, kt[v], e); /* P ^ T ^ K_0 */
    }
    XW_UNROLL
    for (unsigned r = 1; r < NR; r++) {
        XW_UNROLL
        for (unsigned v = 0; v < nv; v++)
            x[v] = dec ? xv_dec(x[v], k[r]) : xv_enc(x[v], k[r]);
    }
    XW_UNROLL
    for (unsigned v = 0; v < nv; v++) {
        x[v] = dec ? xv_declast(x[v], kt[v]) : xv_enclast(x[v], kt[v]);
        if (part && v + 1 == nv)
            xv_store_part(out + 16 * XW_VW * v, x[v], lb);
        else
            xv_store(out + 16 * XW_VW * v, x[v]);
    }
}

/* The bulk loop of the carry-less kernels: n (a multiple of 64) blocks;
 * tweak in, T_n out, like a kernel. (One more iteration of 32 blocks in
 * it, for units of 64 k + 32 blocks and more, made its frame 968 bytes
 * instead of 392 and the loop spill: AES-256 16 KiB 10% slower.) The
 * entry point (XTS_ENTRY_CLMUL) calls it, then the kernel for the rest:
 * called from the kernel, its frame lay below the kernel's (960 bytes
 * for AES-256 with gcc 12), and the wipe after it had to reach that deep
 * (2368 bytes, 25 TSC cycles alone; the entry point is 12-18 TSC cycles
 * faster on an AES-256 16 KiB unit without it: docs/modes/xts.md). */
#ifdef XW_CLMUL
#ifndef XW_PF_IN
#define XW_PF_IN 0
#endif
/*
 * The input of a pass XW_PF_IN bytes ahead fetched into L1 (prefetcht0;
 * 0: none), for AES-128 only. The addresses depend on the pointer
 * only, and a prefetch never faults. Measured on Zen 5 (vaes-avx512, 1
 * KiB ahead, separate 1 MiB buffers, docs/modes/xts.md): AES-128 3-4%
 * fewer TSC cycles a MiB; AES-256 2% more at 1 MiB and at 16 KiB (its
 * loop is at its instruction-mix floor, and the eight prefetches per
 * pass cost more than the misses they hide), so not there; prefetchw of
 * the output was slower at both key sizes.
 */
ENGINE_INLINE void xts_prefetch(const uint8_t *in, unsigned NR)
{
    for (unsigned i = 0; XW_PF_IN && NR == 10 && i < 16 * XW_U * XW_VW / 64;
         i++)
        _mm_prefetch((const char *)in + XW_PF_IN + 64 * i, _MM_HINT_T0);
}

/*
 * Two iterations' tweaks in flight (kt, kb), each stepped by
 * x^(16 XW_STEP) = x^64 on zmm: a lane times x^64 is its low qword moved
 * up and the high one folded back, hi * 0x87 -- a byte shift, one
 * carry-less multiply of the high qword and the XOR, with no shift to
 * isolate the bits shifted out: one vector instruction fewer per vector
 * than the x^32 step. A function of its own, with its own set-up, which
 * the entry point calls for the multiple of 64 blocks first: inlined beside
 * the tails, the 16 tweak vectors made the compilers keep copies of
 * some on the stack and move them in the loop (33 stack accesses per 64
 * blocks against 16 here), and passing the tweak vectors rather than
 * the tweak made them live in memory.
 */
ENGINE_INLINE void xts_bulk2(const uint8_t *rk, unsigned NR, int dec,
                             uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                             size_t n)
{
    vec k[15], kt[XW_U], kb[XW_U], e, c, c2;

    XW_UNROLL
    for (unsigned i = 0; i <= NR; i++)
        k[i] = xv_bcast(
            _mm_load_si128((const __m128i *)(const void *)(rk + 16 * i)));
    e = xv_xor(k[0], k[NR]);
    c = xts_step(k[NR], k[NR], 1);
    c2 = xts_step2(k[NR], k[NR]);
    xts_tweaks(kt, _mm_loadu_si128((const __m128i *)(const void *)tweak), k[NR],
               1, XW_U * XW_VW); /* every vector */
    XW_UNROLL
    for (unsigned v = 0; v < XW_U; v++)
        kb[v] = xts_step(kt[v], c, 1);
    for (; n != 0; n -= 2 * XW_U * XW_VW) {
        xts_prefetch(in, NR);
        xts_pass(k, NR, dec, e, kt, out, in, XW_U, 0, XW_VW);
        XW_UNROLL
        for (unsigned v = 0; v < XW_U; v++)
            kt[v] = xts_step2(kt[v], c2);
        in += 16 * XW_U * XW_VW, out += 16 * XW_U * XW_VW;
        xts_prefetch(in, NR);
        xts_pass(k, NR, dec, e, kb, out, in, XW_U, 0, XW_VW);
        XW_UNROLL
        for (unsigned v = 0; v < XW_U; v++)
            kb[v] = xts_step2(kb[v], c2);
        in += 16 * XW_U * XW_VW, out += 16 * XW_U * XW_VW;
    }
    _mm_storeu_si128((__m128i *)(void *)tweak, xv_lane0(xv_xor(kt[0], k[NR])));
}

#define XTS_BULK(NR, dec)                                                      \
    ENGINE_FN STACK_WIPE_BODY void XTS_NAME(bulk_##NR##_##dec)(                \
        const uint8_t *rk, uint8_t tweak[16], uint8_t *out, const uint8_t *in, \
        size_t n)                                                              \
    {                                                                          \
        xts_bulk2(rk, NR, dec, tweak, out, in, n);                             \
    }
XTS_BULK(10, 0)
XTS_BULK(12, 0)
XTS_BULK(14, 0)
XTS_BULK(10, 1)
XTS_BULK(12, 1)
XTS_BULK(14, 1)
#undef XTS_BULK
#endif

/*
 * n >= 1 blocks with NR rounds; tweak in, T_n out.
 *
 * The tweak registers hold T ^ K_NR (kt, the "last-key form"): the last
 * round's key as it is, and the whitening P ^ T ^ K_0 = P ^ kt ^ e with
 * e = K_0 ^ K_NR, one three-way XOR. The step is linear, so stepping kt
 * gives (T x^s) ^ (K_NR x^s), off by the constant c = (K_NR x^s) ^ K_NR
 * from the next kt; the step's own final XOR takes c as a third input
 * (vpternlog). Per vector and iteration: the whitening and the step's
 * shifts, fold and XOR -- one vector instruction fewer than keeping T
 * and XORing K_NR into it for the last round (Zen 4, where the XORs and
 * shifts of a zmm take the AES pipes' turns part of the time: see
 * docs/modes/xts.md).
 */
ENGINE_INLINE void xts_body(const uint8_t *rk, unsigned NR, int dec, int clmul,
                            uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                            size_t n)
{
    vec k[15], kt[XW_U], e, c;
    size_t r, nv, lb;

    XW_UNROLL
    for (unsigned i = 0; i <= NR; i++)
        k[i] = xv_bcast(
            _mm_load_si128((const __m128i *)(const void *)(rk + 16 * i)));
    e = xv_xor(k[0], k[NR]);
    c = xts_step(k[NR], k[NR], clmul);
    xts_tweaks(kt, _mm_loadu_si128((const __m128i *)(const void *)tweak), k[NR],
               clmul, n);
    for (; n >= XW_U * XW_VW; n -= XW_U * XW_VW) {
        size_t left = n - XW_U * XW_VW;
        xts_pass(k, NR, dec, e, kt, out, in, XW_U, 0, XW_VW);
        /* after the last iteration only the tail's vectors and vector 0
         * (the next tweak) are stepped: on a 36-block unit 1 carry-less
         * step instead of 8 (each one an AES turn on Zen 4) */
        if (left >= XW_U * XW_VW) {
            XW_UNROLL
            for (unsigned v = 0; v < XW_U; v++)
                kt[v] = xts_step(kt[v], c, clmul);
        } else {
            XW_UNROLL
            for (unsigned v = 0; v < XW_U; v++)
                if (v == 0 || left > XW_VW * v)
                    kt[v] = xts_step(kt[v], c, clmul);
        }
        in += 16 * XW_U * XW_VW, out += 16 * XW_U * XW_VW;
    }
    r = n;
    nv = (r + XW_VW - 1) / XW_VW;
    lb = r - XW_VW * (nv - (nv > 0));
#define XTS_TAIL(n)                                                            \
    case n:                                                                    \
        if (n <= XW_U)                                                         \
            xts_pass(k, NR, dec, e, kt, out, in, n, lb != XW_VW, lb);          \
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
    _mm_storeu_si128(
        (__m128i *)(void *)tweak,
        xts_mulx_var128(xv_lane0(xv_xor(kt[0], k[NR])), (unsigned)r));
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
/* The ones after the bulk loop of the carry-less kernels (64 blocks or
 * more), called by the entry point: the bulk loop's own frame. */
#define XTS_WIPES_BULK(b10, b12, b14)                                          \
    XTS_WIPE(wipe10b, b10)                                                     \
    XTS_WIPE(wipe12b, b12)                                                     \
    XTS_WIPE(wipe14b, b14)

/* The kernel of dir for nr, then the stack it used wiped (what the
 * compiler spilled of tweaks, round keys, data): by key size, the bound
 * of stack_wipe.h (the larger depth of gcc 12 and clang 14,
 * -fstack-usage, plus 256, rounded up to 64), so that AES-128's smaller
 * frame is not paid for at 256. With dir bulk_ and sfx _0 or _1 (the
 * direction) the bulk loop and its own wipe. */
#define XTS_CALL_SFX(dir, sfx, wsfx)                                           \
    do {                                                                       \
        if (nr == 10) {                                                        \
            XTS_NAME(dir##10##sfx)(k, tweak, out, in, n);                      \
            XTS_NAME(wipe10##wsfx)();                                          \
        } else if (nr == 12) {                                                 \
            XTS_NAME(dir##12##sfx)(k, tweak, out, in, n);                      \
            XTS_NAME(wipe12##wsfx)();                                          \
        } else {                                                               \
            XTS_NAME(dir##14##sfx)(k, tweak, out, in, n);                      \
            XTS_NAME(wipe14##wsfx)();                                          \
        }                                                                      \
    } while (0)
#define XTS_CALL(dir, wsfx) XTS_CALL_SFX(dir, , wsfx)

/* The entry point (aesir_xts_fn). */
#define XTS_ENTRY(name, dir)                                                   \
    void name(const void *rk, unsigned nr, uint8_t tweak[16], uint8_t *out,    \
              const uint8_t *in, size_t n)                                     \
    {                                                                          \
        const uint8_t *k = ENGINE_RK(rk);                                      \
        XTS_CALL(dir, );                                                       \
    }

/* The same choosing the carry-less kernels (dir##c) when the CPU has
 * VPCLMULQDQ (after AESIR_CPU_DISABLE), the shift kernels otherwise;
 * with it, 64 blocks and more go through the bulk loop first (dec: 0 or
 * 1, its direction), the rest through the kernel. The includer defines
 * XTS_WIPES_BULK too. */
#define XTS_ENTRY_CLMUL(name, dir, dec)                                        \
    void name(const void *rk, unsigned nr, uint8_t tweak[16], uint8_t *out,    \
              const uint8_t *in, size_t n)                                     \
    {                                                                          \
        const uint8_t *k = ENGINE_RK(rk);                                      \
        if (!(aesir_cpu_features() & AESIR_CPU_VPCLMUL)) {                     \
            XTS_CALL(dir, );                                                   \
            return;                                                            \
        }                                                                      \
        if (n >= 2 * XW_U * XW_VW) {                                           \
            size_t all = n;                                                    \
            n -= n % (2 * XW_U * XW_VW);                                       \
            XTS_CALL_SFX(bulk_, _##dec, b);                                    \
            in += 16 * n, out += 16 * n, n = all - n;                          \
        }                                                                      \
        if (n != 0)                                                            \
            XTS_CALL(dir##c, );                                                \
    }

#endif /* AESIR_XTS_CORE_H */
