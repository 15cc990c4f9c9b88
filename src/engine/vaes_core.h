/*
 * vaes_core.h -- the width-neutral body of the VAES engines, included by
 * vaes_avx2.c (ymm: 2 blocks per vector) and vaes_avx512.c (zmm: 4 blocks
 * per vector) after each has defined its vector layer. Everything that
 * does not depend on the register width is written once here: the round
 * loops, ECB, the CTR kernel and its counter protocol, CBC and CFB128
 * decryption, CBC encryption and single blocks on xmm, the multi-buffer
 * CBC kernels (their lane manager is lanes.h, shared with aesni), key
 * setup and the engine struct.
 * The techniques, the measurements and the constant-time argument are in
 * the two engine files' headers and docs/engines/vaes.md.
 *
 * Before including, the file defines (everything static, always inlined
 * unless said otherwise):
 *
 *   TGT, FN, ENGINE_INLINE              target attribute; static TGT; static
 *                             inline always_inline TGT
 *   U                         vectors per bulk iteration
 *   VW                        blocks per vector (2 or 4)
 *   vec                       the vector type
 *   vtail                     which blocks of a tail's last vector are
 *                             real (0 when it is not a tail)
 *   v_tail(nblocks)           the vtail of the last vector of nblocks
 *                             >= 1 blocks
 *   v_bcast(x)                the xmm x in every 128-bit lane
 *   VI(op), VSI(op)           the intrinsic _mm256_op or _mm512_op, and
 *                             _mm256_op_si256 or _mm512_op_si512
 *   v_partial(tail, t)        whether a kernel's last vector (in a tail
 *                             when tail, of blocks t) is loaded and
 *                             stored partly
 *   v_load_t(p, part, t),     unaligned; when part, only the blocks t
 *   v_store_t(p, v, part, t)  says are real are read or written (the
 *                             others are never touched in memory)
 *   v_join(prev, cur)         [last block of prev, blocks 0..VW-2 of cur]
 *   v_lanes(hi, lo, step)     lane j holds the 128-bit integer hi:lo +
 *                             j step (lo the lower qword; no carry), all
 *                             constants: a whole-vector constant, so that
 *                             gcc sees it and computes an iteration's
 *                             counters side by side, not in a chain (it
 *                             does not see through a broadcast)
 *   VAES_CTR_BE               1: ctr_n may make an iteration's counters
 *                             by adding to the counter block's last byte
 *                             (see ctr_n); 0: never
 *   VAES_KREG                 optional, 1: the bulk loops of CTR, ECB,
 *                             CBC and CFB128 decryption keep every round
 *                             key in a register (bulk_kreg; needs nr + 1
 *                             + VAES_KREG_U + 3 vector registers)
 *   VAES_KREG_U               optional: vectors per iteration of that
 *                             loop (default U)
 *   VAES_KREG_U_CTR           optional: the same for CTR (default
 *                             VAES_KREG_U)
 *   VAES_PF_IN                optional, with VAES_KREG: prefetch
 *                             distance of that loop's input, bytes (0:
 *                             none)
 *   v_chain(x, p, k)          x ^ p ^ k (the CBC chaining XOR)
 *   mb_load4(in, off, d)      d[s] = block s (at in[j] + off + 16 s) of
 *                             slots j = 0..VW-1, for s = 0..3
 *   mb_store4(out, j0, n, off, d)  the inverse, for the slots j with
 *                             j0 + j < n only (slot 0 always)
 *   mb_gather(in, off), mb_scatter(out, j0, n, off, x)   one block per
 *                             slot, the same way
 *   MB_KREG                   optional: round keys 0..MB_KREG-1 of the
 *                             multi-buffer slots stay in registers for a
 *                             whole kernel call (default 0: all keys are
 *                             memory operands)
 *   VAES_ENGINE_NAME, VAES_DESCRIPTION   for the engine struct
 *
 * It defines the static functions of the engine and the engine struct,
 * ENGINE_NAME(engine); the including file adds the accessor.
 */
#ifndef AESIR_VAES_CORE_H
#define AESIR_VAES_CORE_H

#if !defined(ENGINE_ISA) || !defined(ENGINE_NAME)
#error "vaes_core.h: define ENGINE_ISA and ENGINE_NAME(x) first"
#endif

/* Bytes per vector. */
#define VB (16 * VW)

/* Key setup's wipes (aesni_keys.h, ak_setkey_pair): rk[from, most)
 * zeroed, from a multiple of 16, with xmm stores up to a vector boundary
 * of the offset and whole vectors from there (which may pass most:
 * AESIR_RK_BYTES is a whole number of vectors): AES-128 encryption-only
 * key setup on zmm issues 17 stores instead of 30. The vector stores are
 * unaligned ones: rk is only 16-byte aligned when the caller's context
 * is (a context from malloc), and an aligned zmm store there faults. On
 * a 64-byte-aligned context they cost the same as aligned ones. */
#define AK_ZERO_TO(rk, from, most) vaes_zero_to(rk, from, most)
ENGINE_INLINE void vaes_zero_range(uint8_t *rk, size_t from, size_t most)
{
    for (; from < most && from % VB != 0; from += 16)
        _mm_store_si128((__m128i *)(void *)(rk + from), _mm_setzero_si128());
    for (; from < most; from += VB) {
        VSI(storeu)((vec *)(void *)(rk + from), VSI(setzero)());
        __asm__("" : : "r"(rk) : "memory"); /* stores, not memset() */
    }
}

/* Up to 256 bytes (no bitsliced engine used in the process: 240-byte
 * schedules at most), the wipe goes to 256 with that constant bound, so
 * gcc unrolls it into plain stores: the loops were about 30 of the 205
 * instructions of an AES-128 decryption-only key setup, now 185 (28.6 ->
 * 27.5 TSC cycles per key on Zen 4; docs/engines/vaes.md, "Back-to-back
 * key setups"). Zeroing past most stays inside the area (AESIR_RK_BYTES).
 */
ENGINE_INLINE void vaes_zero_to(uint8_t *rk, size_t from, size_t most)
{
    if (most == 0) /* nothing to wipe (the self-test's one-direction calls) */
        return;
    if (most <= 256)
        vaes_zero_range(rk, from, 256);
    else
        vaes_zero_range(rk, from, most);
}
_Static_assert(AESIR_RK_BYTES >= 256, "round-key area: 256 bytes at least");
_Static_assert(AESIR_RK_BYTES % VB == 0, "round-key area: whole vectors");

#include "aesni_keys.h"

/*
 * An empty asm that keeps v in the register it is in. Without it gcc 12
 * gives each vector a new register every round and copies it back: one
 * vmovdqa per vector per round, twice the uops of the round loop, which
 * at two vaesenc ymm per cycle takes rename bandwidth (vaes-avx2 CTR at
 * 16 KiB: 17.1 GB/s without, 18.4 with). It is applied to a scalar
 * temporary, never to an array element: on x[i] itself it keeps gcc from
 * promoting the array to registers (a store and a reload per vector per
 * round).
 */
#define PIN(v) __asm__("" : "+v"(v))

ENGINE_INLINE __m128i key128(const uint8_t *rk, unsigned r)
{
    return _mm_load_si128((const __m128i *)(const void *)(rk + 16 * (size_t)r));
}

/* Whole vectors: p vector-aligned, or unaligned (u). */
ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return VSI(load)((const vec *)(const void *)p);
}

ENGINE_INLINE void v_store(uint8_t *p, vec v)
{
    VSI(store)((vec *)(void *)p, v);
}

ENGINE_INLINE vec v_loadu(const uint8_t *p)
{
    return VSI(loadu)((const vec *)(const void *)p);
}

ENGINE_INLINE void v_storeu(uint8_t *p, vec v)
{
    VSI(storeu)((vec *)(void *)p, v);
}

/* One AES round on every lane; XOR; vpaddq; vpshufb. */
#define v_xor VSI(xor)
#define v_enc VI(aesenc_epi128)
#define v_enclast VI(aesenclast_epi128)
#define v_dec VI(aesdec_epi128)
#define v_declast VI(aesdeclast_epi128)
#define v_add64 VI(add_epi64)

/* Each 16-byte block byte-reversed: big-endian counter block <->
 * little-endian 128-bit integer. */
ENGINE_INLINE vec v_bswap(vec v)
{
    return VI(shuffle_epi8)(v,
                            v_bcast(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
                                                  7, 6, 5, 4, 3, 2, 1, 0)));
}

ENGINE_INLINE vec v_key(const uint8_t *rk, unsigned r)
{
    return v_bcast(key128(rk, r));
}

/* Rounds 1 .. nr-1 on n vectors (nr >= 10, hence the do-while). */
ENGINE_INLINE void rounds_n(const uint8_t *rk, unsigned nr, vec *x, unsigned n,
                            int dec)
{
    unsigned r = 1;
    do {
        vec k = v_key(rk, r);
        for (unsigned i = 0; i < n; i++) {
            vec t = dec ? v_dec(x[i], k) : v_enc(x[i], k);
            PIN(t);
            x[i] = t;
        }
    } while (++r < nr);
}

/*
 * Round 0 and rounds 1 .. nr-1 on n vectors; the last round is the
 * caller's, which may fold an XOR into its key. n is a constant at every
 * call, so the loops over i unroll and x stays in registers. In the bulk
 * loops the round loop stays a loop (one key broadcast per round for all
 * n vectors). For the tails (unroll), nr is made a constant so that the
 * rounds unroll as well: a tail pass is short, and a round loop's exit
 * branch there cost as much as the AES work (ECB, 64 bytes: 7.1 GB/s with
 * the loop, 11.6 unrolled).
 */
ENGINE_INLINE void start_n(const uint8_t *rk, unsigned nr, vec *x, unsigned n,
                           int dec, int unroll)
{
    const vec k = v_key(rk, 0);
    for (unsigned i = 0; i < n; i++)
        x[i] = v_xor(x[i], k);
    if (!unroll)
        rounds_n(rk, nr, x, n, dec);
    else if (nr == 10)
        rounds_n(rk, 10, x, n, dec);
    else if (nr == 12)
        rounds_n(rk, 12, x, n, dec);
    else
        rounds_n(rk, 14, x, n, dec);
}

/* Vector i of a kernel's n is a tail's last vector, and is loaded and
 * stored as only partly real. (Written the same way as before the two
 * engines shared this code: with the test in another order, gcc 12 kept
 * the vectors of vaes-avx2's odd CBC-decryption tails on the stack, 10%
 * slower at 240 bytes.) */
ENGINE_INLINE int part_of(int tail, vtail t, unsigned i, unsigned n)
{
    return v_partial(tail, t) && i == n - 1;
}

/* The tail: ceil(nblocks / VW) vectors, the last one only partly real,
 * through kernel K(n, t) for the constant n it needs. */
/* clang-format off */
#define TAIL_SWITCH(nblocks, K)                                            \
    do {                                                                   \
        vtail t_ = v_tail(nblocks);                                       \
        switch (((nblocks) + VW - 1) / VW) {                               \
        case 1: K(1, t_); break;                                           \
        case 2: K(2, t_); break;                                           \
        case 3: K(3, t_); break;                                           \
        case 4: K(4, t_); break;                                           \
        case 5: K(5, t_); break;                                           \
        case 6: K(6, t_); break;                                           \
        case 7: K(7, t_); break;                                           \
        case 8: K(8, t_); break;                                           \
        }                                                                  \
    } while (0)
/* clang-format on */

/* ---------------------------------------------------------------------
 * Bulk loops with the round keys in registers (CTR, ECB, CBC and CFB128
 * decryption)
 * ------------------------------------------------------------------- */

#ifndef VAES_KREG
#define VAES_KREG 0
#endif
#ifndef VAES_KREG_U /* vectors per iteration of bulk_kreg */
#define VAES_KREG_U U
#endif
#ifndef VAES_KREG_U_CTR /* the same for CTR */
#define VAES_KREG_U_CTR VAES_KREG_U
#endif
#define KREG_UMAX                                                              \
    (VAES_KREG_U > VAES_KREG_U_CTR ? VAES_KREG_U : VAES_KREG_U_CTR)
#if defined(__clang__)
#define VAES_UNROLL_FULL _Pragma("clang loop unroll(full)")
#else
#define VAES_UNROLL_FULL _Pragma("GCC unroll 16")
#endif
#ifndef VAES_PF_IN
#define VAES_PF_IN 0
#endif

/* The input lines of an iteration of n vectors VAES_PF_IN bytes ahead
 * fetched into L1 (prefetcht0). The addresses depend on the pointers
 * only; a prefetch never faults, so reading past the end of in is
 * harmless. */
ENGINE_INLINE void bulk_prefetch(const uint8_t *in, unsigned n)
{
    for (unsigned i = 0; VAES_PF_IN && i < VB * n / 64; i++)
        _mm_prefetch((const char *)in + VAES_PF_IN + 64 * i, _MM_HINT_T0);
}

/* What bulk_kreg's loop computes (a constant at each use). */
enum kreg_mode {
    KREG_CTR,     /* E(counter) ^ P */
    KREG_ECB_ENC, /* E(P) */
    KREG_ECB_DEC, /* D(C) */
    KREG_CBC_DEC, /* D(C_j) ^ C_(j-1) */
    KREG_CFB_DEC  /* E(C_(j-1)) ^ C_j */
};

/* Vectors per iteration of bulk_kreg in mode m. */
ENGINE_INLINE unsigned kreg_u(enum kreg_mode m)
{
    return m == KREG_CTR ? VAES_KREG_U_CTR : VAES_KREG_U;
}

/* x[0..n) = the counters from *cp onward, whitened with k0; *cp and *lop
 * advanced by VW n (ctr_n's counters, with its be test done here). */
ENGINE_INLINE void kreg_counters(vec *x, unsigned n, vec *cp, uint64_t *lop,
                                 vec k0, vec sw)
{
    vec c = *cp;
    if (VAES_CTR_BE && (*lop & 0xff) <= 256 - VW * n) { /* ctr_n's be */
        const vec c0 = VI(shuffle_epi8)(c, sw);
        for (unsigned i = 0; i < n; i++)
            x[i] = v_xor(v_add64(c0, v_lanes((long long)(VW * i) << 56, 0, 0)),
                         k0);
        c = v_add64(c, v_lanes(0, VW * n, 0));
    } else {
        const vec step = v_lanes(0, VW, 0);
        for (unsigned i = 0; i < n; i++) {
            x[i] = v_xor(VI(shuffle_epi8)(c, sw), k0);
            c = v_add64(c, step);
        }
    }
    *cp = c;
    *lop += VW * n;
}

/* The ciphertext blocks before vector i's: [prev's last block, C0 ..]
 * for the first vector, an unaligned load from in + VB i - 16 for the
 * others (as cbc_dec_n and cfb_dec_n). */
ENGINE_INLINE vec kreg_prev(vec prev, const uint8_t *in, unsigned i)
{
    return i == 0 ? v_join(prev, v_loadu(in)) : v_loadu(in + VB * i - 16);
}

/*
 * The bulk iterations of CTR, ECB, CBC and CFB128 decryption with every
 * round key in a register for the whole loop (NR a constant: the rounds
 * unrolled) and the input prefetched VAES_PF_IN bytes ahead, for an
 * engine with registers for them (VAES_KREG: zmm, 32 registers; nr + 1
 * keys, kreg_u(mode) data vectors and 2 more). The loops of ctr_n, ecb_n,
 * cbc_dec_n and cfb_dec_n broadcast a round key per round and K_0 and
 * K_nr per iteration, and count their rounds; here none of that is in
 * the loop. One loop for the five: mode, a constant at each use, picks
 * the cipher input (counters, or C_(j-1) for CFB) and what is folded
 * into the last round key (P for CTR, C_(j-1) for CBC, C_j for CFB).
 * Measured on Zen 5 (docs/engines/vaes.md, "CTR at 1 MiB and at the
 * bound", "ECB and CBC decryption at the bound"). *cp is CTR's counter
 * vector (and *lop the low half of the counter), or CBC's and CFB's
 * previous ciphertext block (in its last lane); unused otherwise. Every
 * load of an iteration precedes its stores, so in == out works. Returns
 * the blocks left (< VW kreg_u(mode)); *cp, *lop, *outp, *inp advanced.
 */
ENGINE_INLINE size_t bulk_kreg(const uint8_t *rk, const unsigned NR,
                               const enum kreg_mode mode, vec *cp,
                               uint64_t *lop, uint8_t **outp,
                               const uint8_t **inp, size_t nblocks)
{
    const int dec = mode == KREG_ECB_DEC || mode == KREG_CBC_DEC;
    const unsigned n = kreg_u(mode);
    vec k[15], prev = *cp;
    uint8_t *out = *outp;
    const uint8_t *in = *inp;
    const vec sw = v_bcast(
        _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));

    for (unsigned r = 0; r <= NR; r++)
        k[r] = v_key(rk, r);
    for (; nblocks >= VW * n; nblocks -= VW * n) {
        vec x[KREG_UMAX];
        bulk_prefetch(in, n);
        if (mode == KREG_CTR)
            kreg_counters(x, n, &prev, lop, k[0], sw);
        else if (mode == KREG_CFB_DEC)
            for (unsigned i = 0; i < n; i++)
                x[i] = v_xor(kreg_prev(prev, in, i), k[0]);
        else
            for (unsigned i = 0; i < n; i++)
                x[i] = v_xor(v_loadu(in + VB * i), k[0]);
        /* Unrolled in full, or clang 14 keeps AES-256's rounds a loop
         * over a stack copy of the keys, left in a dead frame. */
        VAES_UNROLL_FULL
        for (unsigned r = 1; r < NR; r++)
            for (unsigned i = 0; i < n; i++) {
                vec t = dec ? v_dec(x[i], k[r]) : v_enc(x[i], k[r]);
                PIN(t);
                x[i] = t;
            }
        for (unsigned i = 0; i < n; i++) {
            if (mode == KREG_CTR || mode == KREG_CFB_DEC)
                x[i] = v_enclast(x[i], v_xor(k[NR], v_loadu(in + VB * i)));
            else if (mode == KREG_ECB_ENC)
                x[i] = v_enclast(x[i], k[NR]);
            else if (mode == KREG_ECB_DEC)
                x[i] = v_declast(x[i], k[NR]);
            else
                x[i] = v_declast(x[i], v_xor(k[NR], kreg_prev(prev, in, i)));
        }
        if (mode == KREG_CBC_DEC || mode == KREG_CFB_DEC)
            prev = v_loadu(in + VB * (n - 1));
        for (unsigned i = 0; i < n; i++)
            v_storeu(out + VB * i, x[i]);
        in += VB * n;
        out += VB * n;
    }
    *cp = prev, *outp = out, *inp = in;
    return nblocks;
}

/* bulk_kreg with NR = nr, a constant in each call (the rounds unrolled
 * per key size). A no-op without VAES_KREG or below one iteration. */
ENGINE_INLINE size_t bulk_kreg_nr(const uint8_t *rk, unsigned nr,
                                  const enum kreg_mode mode, vec *cp,
                                  uint64_t *lop, uint8_t **outp,
                                  const uint8_t **inp, size_t nblocks)
{
    if (!VAES_KREG || nblocks < VW * kreg_u(mode))
        return nblocks;
    if (nr == 10)
        return bulk_kreg(rk, 10, mode, cp, lop, outp, inp, nblocks);
    if (nr == 12)
        return bulk_kreg(rk, 12, mode, cp, lop, outp, inp, nblocks);
    return bulk_kreg(rk, 14, mode, cp, lop, outp, inp, nblocks);
}

/* ---------------------------------------------------------------------
 * ECB
 * ------------------------------------------------------------------- */

/*
 * One block on xmm: a plain aesenc chain with the round keys as memory
 * operands, nr a constant. CFB8 and CFB1 call the engine one block at a
 * time (and OFB and CFB for a partial last block), each call's input the
 * previous call's output, just stored: a masked zmm load and store
 * around a zmm round chain made that round trip 1.7x slower than on xmm
 * (measured when OFB still went block by block, AES-128: 0.65 against
 * 1.16 GB/s; docs/engines/vaes.md).
 */
ENGINE_INLINE __m128i rounds1_nr(const uint8_t *rk, const unsigned nr,
                                 __m128i x, __m128i last, int dec)
{
    x = _mm_xor_si128(x, key128(rk, 0));
    for (unsigned r = 1; r < nr; r++)
        x = dec ? _mm_aesdec_si128(x, key128(rk, r))
                : _mm_aesenc_si128(x, key128(rk, r));
    last = _mm_xor_si128(last, key128(rk, nr));
    return dec ? _mm_aesdeclast_si128(x, last) : _mm_aesenclast_si128(x, last);
}

/* One block x through the cipher, XORed with a on the way out (in the
 * last round key). */
ENGINE_INLINE __m128i rounds1(const uint8_t *rk, unsigned nr, __m128i x,
                              __m128i a, int dec)
{
    if (nr == 10)
        return rounds1_nr(rk, 10, x, a, dec);
    if (nr == 12)
        return rounds1_nr(rk, 12, x, a, dec);
    return rounds1_nr(rk, 14, x, a, dec);
}

ENGINE_INLINE __m128i load128(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ENGINE_INLINE void store128(uint8_t *p, __m128i x)
{
    _mm_storeu_si128((__m128i *)(void *)p, x);
}

ENGINE_INLINE void block1(const uint8_t *rk, unsigned nr, uint8_t *out,
                          const uint8_t *in, int dec)
{
    store128(out, rounds1(rk, nr, load128(in), _mm_setzero_si128(), dec));
}

/* n vectors from in to out; in a tail, the last one only partly (t). */
ENGINE_INLINE void ecb_n(const uint8_t *rk, unsigned nr, uint8_t *out,
                         const uint8_t *in, unsigned n, int tail, vtail t,
                         int dec)
{
    vec x[U], k;
    for (unsigned i = 0; i < n; i++)
        x[i] = v_load_t(in + VB * i, part_of(tail, t, i, n), t);
    start_n(rk, nr, x, n, dec, tail);
    k = v_key(rk, nr);
    for (unsigned i = 0; i < n; i++)
        x[i] = dec ? v_declast(x[i], k) : v_enclast(x[i], k);
    for (unsigned i = 0; i < n; i++)
        v_store_t(out + VB * i, x[i], part_of(tail, t, i, n), t);
}

/* More than 4 blocks: out of line (ENGINE_NAME(ecb_bulk_enc) and
 * ENGINE_NAME(ecb_bulk_dec) below), so that the short paths of encrypt
 * and decrypt need no stack frame (as ctr_bulk for CTR). */
ENGINE_INLINE void ecb_bulk(const uint8_t *rk, unsigned nr, uint8_t *out,
                            const uint8_t *in, size_t nblocks, const int dec)
{
    vec none = VSI(setzero)();
    uint64_t lo = 0;
    /* whole iterations with the keys in registers, where the engine
     * has the registers (VAES_KREG); the rest as before */
    nblocks = bulk_kreg_nr(rk, nr, dec ? KREG_ECB_DEC : KREG_ECB_ENC, &none,
                           &lo, &out, &in, nblocks);
    for (; nblocks >= VW * U; nblocks -= VW * U) {
        ecb_n(rk, nr, out, in, U, 0, 0, dec);
        in += VB * U;
        out += VB * U;
    }
#define K(n, t) ecb_n(rk, nr, out, in, n, 1, t, dec)
    if (nblocks > 0)
        TAIL_SWITCH(nblocks, K);
#undef K
}

/* One function per direction, dec a constant in each: with dec an
 * argument, gcc 12 merged the two directions' tail stores and carried
 * the last vector to them through a stack slot, which left a plaintext
 * block in the dead frame after a decryption. */
__attribute__((noinline)) ENGINE_FN void
ENGINE_NAME(ecb_bulk_enc)(const uint8_t *rk, unsigned nr, uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
    ecb_bulk(rk, nr, out, in, nblocks, 0);
}

__attribute__((noinline)) ENGINE_FN void
ENGINE_NAME(ecb_bulk_dec)(const uint8_t *rk, unsigned nr, uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
    ecb_bulk(rk, nr, out, in, nblocks, 1);
}

/* Up to 4 blocks (a 64-byte message) inline: one block on xmm, 2 to 4 in
 * 4 / VW vectors (one masked zmm, or two ymm). */
ENGINE_INLINE void ecb(const void *rkv, unsigned nr, uint8_t *out,
                       const uint8_t *in, size_t nblocks, int dec)
{
    const uint8_t *rk = rkv;
    if (nblocks == 1)
        block1(rk, nr, out, in, dec);
    else if (nblocks <= VW)
        ecb_n(rk, nr, out, in, 1, 1, v_tail(nblocks), dec);
    else if (nblocks <= 4)
        ecb_n(rk, nr, out, in, 4 / VW, 1, v_tail(nblocks), dec);
    else if (dec)
        ENGINE_NAME(ecb_bulk_dec)(rk, nr, out, in, nblocks);
    else
        ENGINE_NAME(ecb_bulk_enc)(rk, nr, out, in, nblocks);
}

ENGINE_FN void ENGINE_NAME(encrypt)(const void *rk, unsigned nr, uint8_t *out,
                                    const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 0);
}

ENGINE_FN void ENGINE_NAME(decrypt)(const void *rk, unsigned nr, uint8_t *out,
                                    const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 1);
}

/* ---------------------------------------------------------------------
 * CTR
 * ------------------------------------------------------------------- */

/*
 * n vectors of counters from *c (lanes: little-endian counters) onward.
 * With be, the caller has checked that the counter's last byte does not
 * wrap within these VW n blocks: then block j's counter block is the
 * first one with j added to its last byte, which is the top byte of the
 * upper qword, so one vpaddq makes each vector from the byte-swapped
 * first one (one vpshufb per call instead of one per vector: on ymm the
 * shuffles compete with vaesenc for ports 0 and 1).
 */
ENGINE_INLINE void ctr_n(const uint8_t *rk, unsigned nr, vec *c, uint8_t *out,
                         const uint8_t *in, unsigned n, int tail, vtail t,
                         int be)
{
    vec x[U], k;
    if (be) {
        const vec c0 = v_bswap(*c);
        for (unsigned i = 0; i < n; i++)
            x[i] = v_add64(c0, v_lanes((long long)(VW * i) << 56, 0, 0));
        *c = v_add64(*c, v_lanes(0, VW * n, 0));
    } else {
        const vec step = v_lanes(0, VW, 0);
        for (unsigned i = 0; i < n; i++) {
            x[i] = v_bswap(*c);
            *c = v_add64(*c, step);
        }
    }
    start_n(rk, nr, x, n, 0, tail);
    k = v_key(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        vec p = v_load_t(in + VB * i, part_of(tail, t, i, n), t);
        x[i] = v_enclast(x[i], v_xor(k, p));
    }
    for (unsigned i = 0; i < n; i++)
        v_store_t(out + VB * i, x[i], part_of(tail, t, i, n), t);
}

/* The counters hi:lo, hi:lo + 1, ... in the lanes of one vector. */
ENGINE_INLINE vec ctr_first(uint64_t hi, uint64_t lo)
{
    return v_add64(v_bcast(_mm_set_epi64x((long long)hi, (long long)lo)),
                   v_lanes(0, 0, 1));
}

/* nblocks counters from the 128-bit counter hi:lo, whose low 64 bits do
 * not wrap on the way. */
ENGINE_INLINE void ctr_run(const uint8_t *rk, unsigned nr, uint64_t hi,
                           uint64_t lo, uint8_t *out, const uint8_t *in,
                           size_t nblocks)
{
    vec c = ctr_first(hi, lo);

    nblocks = bulk_kreg_nr(rk, nr, KREG_CTR, &c, &lo, &out, &in, nblocks);
    for (; nblocks >= VW * U; nblocks -= VW * U) {
        /* The last byte of the first counter; VW U - 1 more must fit. */
        if (VAES_CTR_BE && (lo & 0xff) <= 256 - VW * U)
            ctr_n(rk, nr, &c, out, in, U, 0, 0, 1);
        else
            ctr_n(rk, nr, &c, out, in, U, 0, 0, 0);
        lo += VW * U;
        in += VB * U;
        out += VB * U;
    }
#define K(n, t) ctr_n(rk, nr, &c, out, in, n, 1, t, 0)
    if (nblocks > 0)
        TAIL_SWITCH(nblocks, K);
#undef K
}

/* Counters hi:lo .. hi:lo+nblocks-1 stay below the wrap of the low 64
 * bits (nblocks >= 1). */
ENGINE_INLINE int no_wrap(uint64_t lo, size_t nblocks)
{
    return (uint64_t)(nblocks - 1) <= UINT64_MAX - lo;
}

/* The counter block at ctr as hi:lo, read as two 8-byte halves (the
 * protocol of internal.h, aesir_ctr_copy), and written back the same way. */
ENGINE_INLINE void ctr_get(const uint8_t ctr[16], uint64_t *hi, uint64_t *lo)
{
    memcpy(hi, ctr, 8);
    memcpy(lo, ctr + 8, 8);
    *hi = __builtin_bswap64(*hi); /* x86 is little-endian */
    *lo = __builtin_bswap64(*lo);
}

ENGINE_INLINE void ctr_put(uint8_t ctr[16], uint64_t hi, uint64_t lo)
{
    hi = __builtin_bswap64(hi);
    lo = __builtin_bswap64(lo);
    memcpy(ctr, &hi, 8);
    memcpy(ctr + 8, &lo, 8);
}

/*
 * nblocks >= 1 counters from the block at ctr, whose low 64 bits do not
 * wrap on the way. The next counter is written back before the rounds
 * start, so no scalar lives across them. Kept out of line so that
 * ENGINE_NAME(ctr)'s short path has no stack frame and loads none of the bulk
 * loop's constants; it takes the counter block itself, so all six
 * arguments are in registers. Both matter on Zen 4: when hi and lo were
 * passed through the stack, or kept across the rounds (gcc spilled them),
 * a 576-byte call took 97-113 TSC cycles instead of 75 whenever its stack
 * slots happened to fall where the previous call's output stores were
 * still draining (4K aliasing; which depends on where the stack is, so
 * on ASLR: bimodal timings from run to run).
 */
__attribute__((noinline)) ENGINE_FN void
ENGINE_NAME(ctr_bulk)(const uint8_t *rk, unsigned nr, uint8_t ctr[16],
                      uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint64_t hi, lo, next;
    ctr_get(ctr, &hi, &lo);
    next = lo + nblocks;
    ctr_put(ctr, hi + (next < lo), next);
    ctr_run(rk, nr, hi, lo, out, in, nblocks);
}

/*
 * The counter is read as hi:lo and written back with the same two 8-byte
 * accesses (ctr_get, ctr_put), so that a call that follows at once gets it
 * by store forwarding. (Reading it back as one 16-byte load after two
 * 8-byte stores, or as two 8-byte loads after one 16-byte store, stalls
 * the next call until this one has finished: 30% of the speed at 512
 * bytes.) Up to 4 blocks (a 64-byte packet) take 4 / VW vectors inline
 * (one masked zmm, or two ymm): 1.5x faster at 64 bytes than through
 * ctr_bulk, whose set-up costs as much as the AES rounds there. A call
 * that crosses the wrap of the low 64 bits (once per 2^64 blocks) is
 * split there; ctr_bulk's write-back carries into the high half.
 */
ENGINE_FN void ENGINE_NAME(ctr)(const void *rkv, unsigned nr, uint8_t ctr[16],
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = rkv;
    uint64_t hi, lo;
    vec c;

    if (nblocks == 0)
        return;
    ctr_get(ctr, &hi, &lo);
    if (!no_wrap(lo, nblocks)) {
        size_t k = (size_t)(0 - lo); /* lo != 0 here */
        ENGINE_NAME(ctr_bulk)(rk, nr, ctr, out, in, k);
        ENGINE_NAME(ctr_bulk)
        (rk, nr, ctr, out + 16 * k, in + 16 * k, nblocks - k);
        return;
    }
    if (nblocks > 4) {
        ENGINE_NAME(ctr_bulk)(rk, nr, ctr, out, in, nblocks);
        return;
    }
    if (nblocks == 1) {
        /* on xmm, as ECB's block1: no masked zmm load and store */
        __m128i b = _mm_set_epi64x((long long)__builtin_bswap64(lo),
                                   (long long)__builtin_bswap64(hi));
        store128(out, rounds1(rk, nr, b, load128(in), 0));
        lo += 1;
        ctr_put(ctr, hi + (lo == 0), lo);
        return;
    }
    c = ctr_first(hi, lo);
    if (nblocks <= VW)
        ctr_n(rk, nr, &c, out, in, 1, 1, v_tail(nblocks), 0);
    else
        ctr_n(rk, nr, &c, out, in, 4 / VW, 1, v_tail(nblocks), 0);
    lo += nblocks;
    ctr_put(ctr, hi + (lo < nblocks), lo);
}

/* ---------------------------------------------------------------------
 * CBC and CFB128 decryption
 * ------------------------------------------------------------------- */

/*
 * n vectors of CBC decryption. *prev holds the ciphertext block before
 * in (in its last lane); on return, the last vector's ciphertext (outside
 * a tail). Every load precedes every store, so in == out works.
 */
ENGINE_INLINE void cbc_dec_n(const uint8_t *rk, unsigned nr, vec *prev,
                             uint8_t *out, const uint8_t *in, unsigned n,
                             int tail, vtail t)
{
    vec x[U], k;
    for (unsigned i = 0; i < n; i++)
        x[i] = v_load_t(in + VB * i, part_of(tail, t, i, n), t);
    start_n(rk, nr, x, n, 1, tail);
    k = v_key(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        vec c;
        if (i == 0) /* [prev's last block, C0 ..] */
            c = v_join(*prev, v_load_t(in, part_of(tail, t, 0, n), t));
        else
            c = v_load_t(in + VB * i - 16, part_of(tail, t, i, n), t);
        x[i] = v_declast(x[i], v_xor(k, c));
    }
    if (!tail)
        *prev = v_loadu(in + VB * (n - 1));
    for (unsigned i = 0; i < n; i++)
        v_store_t(out + VB * i, x[i], part_of(tail, t, i, n), t);
}

/*
 * n vectors of CFB128 decryption, P_j = C_j ^ E(C_(j-1)): CBC decryption
 * with the two loads swapped. Vector i encrypts C_(VW i - 1) ..
 * C_(VW i + VW - 2), loaded unaligned from in + VB i - 16 (the first
 * vector: the last block of *prev and C0.., by v_join), and C_j itself is
 * folded into the last round key. A tail's last vector loads both with
 * the same t: its b blocks need b cipher inputs. *prev gets the last
 * vector's ciphertext outside a tail. Every load precedes every store, so
 * in == out works.
 */
ENGINE_INLINE void cfb_dec_n(const uint8_t *rk, unsigned nr, vec *prev,
                             uint8_t *out, const uint8_t *in, unsigned n,
                             int tail, vtail t)
{
    vec x[U], k;
    for (unsigned i = 0; i < n; i++) {
        if (i == 0) /* [prev's last block, C0 ..] */
            x[i] = v_join(*prev, v_load_t(in, part_of(tail, t, 0, n), t));
        else
            x[i] = v_load_t(in + VB * i - 16, part_of(tail, t, i, n), t);
    }
    start_n(rk, nr, x, n, 0, tail);
    k = v_key(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        vec c = v_load_t(in + VB * i, part_of(tail, t, i, n), t);
        x[i] = v_enclast(x[i], v_xor(k, c));
    }
    if (!tail)
        *prev = v_loadu(in + VB * (n - 1));
    for (unsigned i = 0; i < n; i++)
        v_store_t(out + VB * i, x[i], part_of(tail, t, i, n), t);
}

/* CBC (cfb = 0) or CFB128 (cfb = 1) decryption: the loop around the
 * kernels. */
ENGINE_INLINE void dec_chained(const void *rkv, unsigned nr, uint8_t iv[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks,
                               int cfb)
{
    const uint8_t *rk = rkv;
    __m128i next_iv;
    vec prev;
    uint64_t lo = 0;

    if (nblocks == 0)
        return;
    if (nblocks == 1) {
        /* on xmm, as ECB's block1: no masked zmm load and store */
        __m128i c = load128(in), v = load128(iv);
        store128(out,
                 cfb ? rounds1(rk, nr, v, c, 0) : rounds1(rk, nr, c, v, 1));
        store128(iv, c);
        return;
    }
    next_iv = _mm_loadu_si128((const __m128i *)(in + 16 * (nblocks - 1)));
    prev = v_bcast(_mm_loadu_si128((const __m128i *)iv));
    nblocks = bulk_kreg_nr(rk, nr, cfb ? KREG_CFB_DEC : KREG_CBC_DEC, &prev,
                           &lo, &out, &in, nblocks);
    for (; nblocks >= VW * U; nblocks -= VW * U) {
        if (cfb)
            cfb_dec_n(rk, nr, &prev, out, in, U, 0, 0);
        else
            cbc_dec_n(rk, nr, &prev, out, in, U, 0, 0);
        in += VB * U;
        out += VB * U;
    }
#define K(n, t)                                                                \
    do {                                                                       \
        if (cfb)                                                               \
            cfb_dec_n(rk, nr, &prev, out, in, n, 1, t);                        \
        else                                                                   \
            cbc_dec_n(rk, nr, &prev, out, in, n, 1, t);                        \
    } while (0)
    if (nblocks > 0)
        TAIL_SWITCH(nblocks, K);
#undef K
    _mm_storeu_si128((__m128i *)iv, next_iv);
}

ENGINE_FN void ENGINE_NAME(cbc_dec)(const void *rk, unsigned nr, uint8_t iv[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks)
{
    dec_chained(rk, nr, iv, out, in, nblocks, 0);
}

ENGINE_FN void ENGINE_NAME(cfb_dec)(const void *rk, unsigned nr, uint8_t iv[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks)
{
    dec_chained(rk, nr, iv, out, in, nblocks, 1);
}

/* ---------------------------------------------------------------------
 * Serial modes: CBC encryption, CFB128 encryption, OFB, on one xmm chain
 * at the AES latency bound (aes_x86_serial.h, shared with aesni).
 * ------------------------------------------------------------------- */

#include "aes_x86_serial.h"

/* ---------------------------------------------------------------------
 * Multi-buffer CBC encryption and CBC-MAC
 *
 * One CBC chain keeps one vaesenc in flight where the units take 4
 * block-rounds per cycle at a latency of 3 to 4; 16 independent messages
 * fill them: MB_NV vectors of VW messages each, every 128-bit lane with
 * its own round keys. The lane manager (lanes.h, shared with aesni) gives
 * each of 16 slots a message and its round keys a column of a stack
 * table, so that a VB-byte load from row r is the key operand of one
 * vaesenc for VW slots:
 *
 *   kt[r]:  | K_r slot 0 | K_r slot 1 | ... | K_r slot 15 |   (r = 0..nr)
 *           '- vector 0 (VW slots) -'  ...  '- MB_NV - 1 -'
 *
 * Here are its kernels, one per number of busy vectors ceil(n / VW) (the
 * rest of the last vector are dummies, whose results are not stored).
 *
 * Data moves 4 blocks at a time: each slot's 4 blocks are read and
 * written as whole vectors and regrouped in registers (mb_load4,
 * mb_store4), so that every cache line is touched once. Gathering block
 * by block was 3x slower with 16 messages 4 KiB apart (4.7 instead of 14
 * GB/s on zmm): 32 streams at the same offset in their pages share one L1
 * set (12 ways), so a line touched 4 times 40 cycles apart was refetched
 * every time. Steps not a multiple of 4 are gathered block by block.
 *
 * The stack MB_ENTRY wipes: besides the manager's table and chaining
 * values, the kernels' copies of K0 and K1 (MB_KREG: gcc 12 stores them
 * to the stack besides holding them in registers) and what they spill
 * (on ymm the regrouped blocks and chains by design: plaintext, and a
 * MAC's chain). The manager and its kernels reach 6288 bytes deep; the
 * memset comes once per call that runs several messages at once, work of
 * 10^4 cycles and more.
 * ------------------------------------------------------------------- */

#define MB_SLOTS 16
#define MB_GROUP VW
#define MB_STACK 6528
#if VW == 4
/* zmm: the manager wipes the columns of its table it used and this
 * depth below its frame (lanes.h, mb_wipe), not all of MB_STACK: the
 * bound of stack_wipe.h, the deeper of the kernels' frames (mb_run_enc
 * and mb_run_mac: gcc 12 1096 bytes, clang 14 1208, -fstack-usage)
 * plus 256, rounded up to 64; test_residue checks it in both builds. */
#define MB_KSTACK 1472
#endif
#include "lanes.h"

#define MB_NV (MB_SLOTS / VW)

/* Hides where the key table is, once per step, so the compilers keep
 * round keys as memory operands of vaesenc instead of hoisting them into
 * registers (44 keys do not fit) and spilling them to the stack (clang
 * did on zmm: 12.8 instead of 13.8 GB/s). */
ENGINE_INLINE const uint8_t *mb_opaque(const uint8_t *p)
{
    __asm__("" : "+r"(p));
    return p;
}

/* The kernels' view of the round keys: K_0 .. K_{MB_KREG-1} of the busy
 * vectors held in registers for the whole call (the engine sets MB_KREG;
 * zero: every key is a memory operand), the rest read from the table. */
#ifndef MB_KREG
#define MB_KREG 0
#endif

struct mb_keys {
    const uint8_t *kt;
    vec reg[MB_KREG > 0 ? MB_KREG : 1][MB_NV];
};

ENGINE_INLINE void mb_keys_init(struct mb_keys *k, const struct mb *m,
                                unsigned nv)
{
    k->kt = &m->kt[0][0][0];
#if MB_KREG > 0
    for (unsigned r = 0; r < MB_KREG; r++)
        for (unsigned v = 0; v < nv; v++)
            k->reg[r][v] = v_load(m->kt[r][VW * v]);
#else
    (void)nv;
#endif
}

ENGINE_INLINE vec mb_key(const struct mb_keys *k, unsigned r, unsigned v)
{
#if MB_KREG > 0
    if (r < MB_KREG)
        return k->reg[r][v];
#endif
    return v_load(k->kt + 256 * r + VB * v);
}

/* Rounds 1..nr of the nv vectors x. */
ENGINE_INLINE void mb_rounds(const struct mb_keys *k, vec *x, unsigned nv,
                             unsigned nr)
{
    for (unsigned r = 1; r < nr; r++)
        for (unsigned v = 0; v < nv; v++) {
            vec t = v_enc(x[v], mb_key(k, r, v));
            PIN(t);
            x[v] = t;
        }
    for (unsigned v = 0; v < nv; v++)
        x[v] = v_enclast(x[v], mb_key(k, nr, v));
}

/* One CBC step on the nv vectors: x = E(x ^ P ^ K0), and d = x, the
 * ciphertext. */
ENGINE_INLINE void mb_step(struct mb_keys *k, vec *x, vec *d, unsigned nv,
                           unsigned nr)
{
    k->kt = mb_opaque(k->kt);
    for (unsigned v = 0; v < nv; v++)
        x[v] = v_chain(x[v], d[v], mb_key(k, 0, v));
    mb_rounds(k, x, nv, nr);
    for (unsigned v = 0; v < nv; v++)
        d[v] = x[v];
}

/*
 * groups x 4 blocks of slots 0..n-1, in nv vectors of VW slots (slots n..
 * of the last vector are dummies: they read slot 0's input and store
 * nothing). d[s][v]: block s of the VW slots of vector v (one array per
 * step, so that every index is a loop variable the compilers unroll).
 */
ENGINE_INLINE void mb_kernel4(struct mb *m, unsigned nv, unsigned n,
                              const unsigned nr, size_t groups, const int mac)
{
    struct mb_keys k;
    vec x[MB_NV], d[4][MB_NV];

    mb_keys_init(&k, m, nv);
    for (unsigned v = 0; v < nv; v++)
        x[v] = v_load(m->chain[VW * v]);
    for (size_t off = 0; off < 64 * groups; off += 64) {
        for (unsigned v = 0; v < nv; v++)
            mb_load4(m->in + VW * v, off, &d[0][v], &d[1][v], &d[2][v],
                     &d[3][v]);
        mb_step(&k, x, d[0], nv, nr);
        mb_step(&k, x, d[1], nv, nr);
        mb_step(&k, x, d[2], nv, nr);
        mb_step(&k, x, d[3], nv, nr);
        for (unsigned v = 0; v < nv && !mac; v++)
            mb_store4(m->out + VW * v, VW * v, n, off, d[0][v], d[1][v],
                      d[2][v], d[3][v]);
    }
    for (unsigned v = 0; v < nv; v++)
        v_store(m->chain[VW * v], x[v]);
}

/*
 * The CBC-MAC version of mb_kernel4 (nothing stored): the chaining XOR
 * moved off the chain. A step is x = E(x ^ P): the XOR of the next
 * block (and of K_0, the whitening) between one block's last round and
 * the next's first costs a cycle of latency per block beside the 4 nr
 * of the rounds, and nothing else limits a MAC of few messages (8
 * messages are 2 zmm chains: latency, not the AES pipes). aesenclast
 * XORs its key last, so with the key K_nr ^ K_0 ^ P_next (computed
 * while the rounds run) it leaves x ^ P_next ^ K_0, the next block's
 * first-round input, directly; only the call's last block takes K_nr
 * alone, leaving the chaining value itself. (Zen 4, 8 messages of 4 KiB
 * with AES-256 under 8 keys, aesir_cmac_many: the chains took 10504
 * TSC cycles against 10764, the bound being 10038; docs/modes/cmac.md.)
 */
ENGINE_INLINE void mb_mac4(struct mb *m, unsigned nv, const unsigned nr,
                           size_t groups)
{
    struct mb_keys k;
    vec x[MB_NV], d[4][MB_NV], kk[MB_NV];

    mb_keys_init(&k, m, nv);
    for (unsigned v = 0; v < nv; v++) {
        kk[v] = v_xor(mb_key(&k, nr, v), mb_key(&k, 0, v));
        mb_load4(m->in + VW * v, 0, &d[0][v], &d[1][v], &d[2][v], &d[3][v]);
        x[v] = v_chain(v_load(m->chain[VW * v]), d[0][v], mb_key(&k, 0, v));
    }
    for (size_t off = 0; off < 64 * groups; off += 64) {
        for (unsigned s = 0; s < 4; s++) {
            vec kl[MB_NV];
            k.kt = mb_opaque(k.kt);
            if (s < 3)
                for (unsigned v = 0; v < nv; v++)
                    kl[v] = v_xor(kk[v], d[s + 1][v]);
            else if (off + 64 < 64 * groups)
                for (unsigned v = 0; v < nv; v++) {
                    /* the next group's blocks: d[0..3] are used */
                    mb_load4(m->in + VW * v, off + 64, &d[0][v], &d[1][v],
                             &d[2][v], &d[3][v]);
                    kl[v] = v_xor(kk[v], d[0][v]);
                }
            else
                for (unsigned v = 0; v < nv; v++)
                    kl[v] = mb_key(&k, nr, v);
            for (unsigned r = 1; r < nr; r++)
                for (unsigned v = 0; v < nv; v++) {
                    vec t = v_enc(x[v], mb_key(&k, r, v));
                    PIN(t);
                    x[v] = t;
                }
            for (unsigned v = 0; v < nv; v++)
                x[v] = v_enclast(x[v], kl[v]);
        }
    }
    for (unsigned v = 0; v < nv; v++)
        v_store(m->chain[VW * v], x[v]);
}

/* steps (< 4) single blocks, gathered and scattered slot by slot. */
ENGINE_INLINE void mb_kernel1(struct mb *m, unsigned nv, unsigned n,
                              unsigned nr, size_t off0, size_t steps,
                              const int mac)
{
    struct mb_keys k;
    vec x[MB_NV];

    mb_keys_init(&k, m, nv);
    for (unsigned v = 0; v < nv; v++)
        x[v] = v_load(m->chain[VW * v]);
    for (size_t off = off0; off < off0 + 16 * steps; off += 16) {
        k.kt = mb_opaque(k.kt);
        for (unsigned v = 0; v < nv; v++)
            x[v] =
                v_chain(x[v], mb_gather(m->in + VW * v, off), mb_key(&k, 0, v));
        mb_rounds(&k, x, nv, nr);
        for (unsigned v = 0; v < nv && !mac; v++)
            mb_scatter(m->out + VW * v, VW * v, n, off, x[v]);
    }
    for (unsigned v = 0; v < nv; v++)
        v_store(m->chain[VW * v], x[v]);
}

/* The kernels for nv vectors; nr a constant in the bulk kernel, so its
 * rounds unroll. With mac (a constant) nothing is stored but the chaining
 * values. */
ENGINE_INLINE void mb_kernels(struct mb *m, unsigned nv, unsigned n,
                              unsigned nr, size_t steps, const int mac)
{
    /* mb_mac4 on zmm only: on ymm (16 registers for up to 8 vectors of
     * chains) it made gcc's frame deeper than MB_STACK */
    if (steps >= 4 && mac && VW == 4) {
        if (nr == 10)
            mb_mac4(m, nv, 10, steps / 4);
        else if (nr == 12)
            mb_mac4(m, nv, 12, steps / 4);
        else
            mb_mac4(m, nv, 14, steps / 4);
    } else if (steps >= 4) {
        if (nr == 10)
            mb_kernel4(m, nv, n, 10, steps / 4, mac);
        else if (nr == 12)
            mb_kernel4(m, nv, n, 12, steps / 4, mac);
        else
            mb_kernel4(m, nv, n, 14, steps / 4, mac);
    }
    if (steps % 4 != 0)
        mb_kernel1(m, nv, n, nr, 16 * (steps & ~(size_t)3), steps % 4, mac);
}

ENGINE_INLINE void mb_run(struct mb *m, unsigned n, unsigned nr, size_t steps,
                          const int mac)
{
    unsigned nv = (n + VW - 1) / VW;
    /* a kernel for each constant nv = 1 .. MB_NV */
    switch (nv) {
    case 1:
        mb_kernels(m, 1, n, nr, steps, mac);
        break;
    case 2:
        mb_kernels(m, 2, n, nr, steps, mac);
        break;
    case 3:
        mb_kernels(m, 3, n, nr, steps, mac);
        break;
#if MB_NV > 4
    case 4:
        mb_kernels(m, 4, n, nr, steps, mac);
        break;
    case 5:
        mb_kernels(m, 5, n, nr, steps, mac);
        break;
    case 6:
        mb_kernels(m, 6, n, nr, steps, mac);
        break;
    case 7:
        mb_kernels(m, 7, n, nr, steps, mac);
        break;
#endif
    default:
        mb_kernels(m, MB_NV, n, nr, steps, mac);
        break;
    }
}

/* Out of line, one for each kind of chain (mb_run_fn): the manager's
 * loop stays small, and (MB_KSTACK) the kernels' frames lie below its
 * own, where mb_wipe reaches them. */
STACK_WIPE_BODY ENGINE_FN void
ENGINE_NAME(mb_run_enc)(struct mb *m, unsigned n, unsigned nr, size_t steps)
{
    mb_run(m, n, nr, steps, 0);
}

STACK_WIPE_BODY ENGINE_FN void
ENGINE_NAME(mb_run_mac)(struct mb *m, unsigned n, unsigned nr, size_t steps)
{
    mb_run(m, n, nr, steps, 1);
}

MB_ENTRY(enc, ENGINE_NAME(mb_run_enc), ENGINE_NAME(cbc_enc), 0)
MB_ENTRY(mac, ENGINE_NAME(mb_run_mac), ENGINE_NAME(cbc_mac), 1)

/* ---------------------------------------------------------------------
 * Key setup and the engine
 * ------------------------------------------------------------------- */

/* aesni_keys.h makes the decryption schedule from the round keys while
 * they are in registers (no store and reload of the encryption one). */
ENGINE_FN void ENGINE_NAME(setkey_enc)(void *rk, const uint8_t *key,
                                       size_t key_len)
{
    (void)ak_schedule(ak_nonnull(rk), NULL, 16, key, key_len);
}

ENGINE_FN void ENGINE_NAME(setkey_dec)(void *rk, const uint8_t *key,
                                       size_t key_len)
{
    (void)ak_schedule(NULL, ak_nonnull(rk), 16, key, key_len);
}

ENGINE_FN int ENGINE_NAME(setkey_pair)(void *rk_enc, void *rk_dec,
                                       const uint8_t *key, size_t key_len,
                                       unsigned dirs, size_t most)
{
    return ak_setkey_pair(rk_enc, rk_dec, key, key_len, dirs, most);
}

#include "x86_ccm.h"

static const struct aesir_engine ENGINE_NAME(engine) = {
    .name = VAES_ENGINE_NAME,
    .description = VAES_DESCRIPTION,
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = VW * U,
    .setkey_enc = ENGINE_NAME(setkey_enc),
    .setkey_dec = ENGINE_NAME(setkey_dec),
    .setkey_pair = ENGINE_NAME(setkey_pair),
    .encrypt = ENGINE_NAME(encrypt),
    .decrypt = ENGINE_NAME(decrypt),
    .ctr = ENGINE_NAME(ctr),
    .cbc_enc = ENGINE_NAME(cbc_enc),
    .cfb_enc = ENGINE_NAME(cfb_enc),
    .ofb = ENGINE_NAME(ofb),
    .cbc_dec = ENGINE_NAME(cbc_dec),
    .cfb_dec = ENGINE_NAME(cfb_dec),
    .cbc_enc_many = ENGINE_NAME(cbc_enc_many),
    .cbc_mac_many = ENGINE_NAME(cbc_mac_many),
#ifdef VAES_GCM_ENC /* fused GCM kernels, in files of their own */
    .gcm_enc = VAES_GCM_ENC,
    .gcm_dec = VAES_GCM_DEC,
    .gcm_ghash = VAES_GCM_GHASH,
#endif
#ifdef VAES_GCM_SHORT
    .gcm_short = VAES_GCM_SHORT,
#endif
    /* fused CCM: aesni's VEX kernels (aesni_ccm.c, same key layout) */
    .ccm_enc = aesir_aesni_ccm_enc_avx,
    .ccm_dec = aesir_aesni_ccm_dec_avx,
#ifdef VAES_CTR32LE /* GCM-SIV's kernels, in a file of their own */
    .ctr32le = VAES_CTR32LE,
#endif
#ifdef VAES_GCMSIV_DEC
    .gcmsiv_dec = VAES_GCMSIV_DEC,
#endif
#ifdef VAES_GCMSIV_KEYS
    .gcmsiv_keys = VAES_GCMSIV_KEYS,
    .gcmsiv_tag = VAES_GCMSIV_TAG,
#endif
#ifdef VAES_OCB_ENC /* OCB3 kernels: <engine>_ocb.c, ocb_kernels.h */
    .ocb_enc = VAES_OCB_ENC,
    .ocb_dec = VAES_OCB_DEC,
#endif
#ifdef VAES_XTS_ENC /* fused XTS kernels: <engine>_xts.c */
    .xts_enc = VAES_XTS_ENC,
    .xts_dec = VAES_XTS_DEC,
#endif
#ifdef VAES_AEGIS
    .aes_round = VAES_AES_ROUND, /* *_aegis.c */
    .aegis = VAES_AEGIS,
    .aegis_update = VAES_AEGIS_UPDATE,
#ifdef VAES_AEGIS_FOR
    .aegis_for = VAES_AEGIS_FOR,
#endif
#endif
#ifdef VAES_OCB_WHOLE /* whole OCB3 messages: x86_ocb_core.h */
    .ocb_whole = VAES_OCB_WHOLE,
#endif
};

#endif /* AESIR_VAES_CORE_H */
