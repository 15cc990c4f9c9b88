/*
 * x86_ocb_core.h -- the OCB3 kernel (RFC 7253 section 4.2; aesir_ocb_fn,
 * internal.h) written once for xmm, ymm and zmm: each including file
 * (aesni_ocb.c, vaes_avx2_ocb.c, vaes_avx512_ocb.c) defines the vector
 * type and a dozen primitives on it, then includes this.
 *
 * A batch is OCB_U = 8 vectors of VW blocks (8, 16 or 32 blocks), eight
 * independent AES chains in flight: enough to fill the AES pipes (a
 * round's latency is 3-4 cycles at one or two issues per cycle).
 *
 * Offsets without a serial chain. Offset_i = Offset_(i-1) xor
 * L_(ntz(i)), so Offset_(i0 + j) = Offset_(i0) xor P_j with P_j the xor
 * of L_(ntz(1)) .. L_(ntz(j)) whenever i0 is a multiple of the batch
 * size B and j < B (ntz(i0 + j) = ntz(j) then). The P_j are the same for
 * every batch and key: the key holds P_1 .. P_32 (ocb.c), loaded once
 * per call into OCB_U vectors T_v (lanes P_(VW v + 1) .. P_(VW v + VW)),
 * and a batch's offsets are base xor T_v -- one XOR per vector, all
 * independent -- except the last block's: P_B has L_(ntz(B)) where
 * block i0 + B needs L_(ntz(i0 + B)), so the last lane gets the XOR of
 * the two (a vector with it in the last lane only). The next base is that last
 * lane, broadcast. (The fixed pattern of ntz within an aligned group
 * of blocks is what Krovetz and Rogaway's OCB3 paper, "The software
 * performance of authenticated-encryption modes", FSE 2011, points to
 * when it argues that OCB's offsets cost almost nothing.)
 *
 * XORs folded into the AES rounds: the first round's input is
 * P xor Offset xor K_0 (one three-way XOR: vpternlogq on AVX-512), and
 * the offset after the cipher goes into the last round key
 * (aesenclast(x, K_nr xor Offset) = E(.) xor Offset; the same for
 * aesdeclast), so a vector costs its AES rounds plus two and a half
 * XORs, which the out-of-order core runs beside them. The checksum (of
 * the plaintext: the input when encrypting, the output when decrypting)
 * is summed lane by lane in one vector accumulator, two vectors per
 * three-way XOR in the batches (on Zen 4 the XORs of zmm vectors take
 * some of the AES pipes' turns, so each one saved is speed), folded to
 * 16 bytes at the end.
 *
 * Head and tail. A call may start at any block index: the blocks up to
 * the next multiple of B, and those after the last whole batch, get
 * their offsets one by one into a buffer and go through the rounds in
 * one pass of ceil(m / VW) vectors (a version per count, so the vectors
 * stay in registers), the last vector partial: masked loads and stores
 * on AVX-512, half-vector ones on AVX2.
 *
 * Constant time: the AES instructions take data-independent time; the
 * branches and the table index (ntz of the block index) depend on the
 * block count and index only, both public. The offset buffers are wiped
 * before returning; the entry point wipes the stack below it (what the
 * compiler spilled: round keys, offsets), as the other fused kernels do.
 *
 * The includer defines: ENGINE_ISA and includes engine.h; vec; VW; the
 * primitives below; OCB_ENC_NAME and OCB_DEC_NAME (the entry points) and
 * OCB_WIPE (stack bytes to wipe after a call).
 *   v_bcast(p)       the 16 bytes at p in every lane
 *   v_bcast_x(x)     the xmm x in every lane
 *   v_first(x)       lane 0 as an xmm
 *   v_load(p) / v_store(p, x)
 *   v_loadn(p, n) / v_storen(p, x, n)   the first n lanes (others read as
 *                    zero, not written)
 *   v_keepn(x, n)    lanes past n zeroed
 *   v_xor(a, b), v_xor3(a, b, c), v_zero()
 *   v_enc, v_enclast, v_dec, v_declast  one AES round on every lane
 *   v_last_bcast(x)  the last lane in every lane
 *   v_last_only(x)   the xmm x in the last lane, zeros elsewhere
 *   v_fold(x)        the xor of the lanes, as an xmm
 */

#define OCB_U 8
#define OCB_B (OCB_U * VW)
#define OCB_LOG2B (VW == 4 ? 5 : VW == 2 ? 4 : 3)

#if defined(__GNUC__) || defined(__clang__)
#define OCB_NOINLINE __attribute__((noinline))
#else
#define OCB_NOINLINE
#endif
#if defined(__clang__)
#define OCB_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define OCB_UNROLL _Pragma("GCC unroll 32")
#else
#define OCB_UNROLL
#endif

ENGINE_INLINE unsigned ocb_ntz(uint64_t i)
{
    return (unsigned)__builtin_ctzll(i);
}

ENGINE_INLINE __m128i ocb_ld(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* The offsets of the next m blocks (from *off, block *index + 1) into
 * offs, and zeros up to the end of the last vector. */
ENGINE_INLINE void ocb_offsets(const uint8_t *l, uint64_t *index, __m128i *off,
                               uint8_t *offs, size_t m)
{
    size_t j;
    for (j = 0; j < m; j++) {
        *off = _mm_xor_si128(*off, ocb_ld(l + 16 * ocb_ntz(++*index)));
        _mm_storeu_si128((__m128i *)(void *)(offs + 16 * j), *off);
    }
    for (; j % VW != 0; j++)
        _mm_storeu_si128((__m128i *)(void *)(offs + 16 * j),
                         _mm_setzero_si128());
}

/* m blocks (1..OCB_B) in nv = ceil(m / VW) vectors, offsets from offs. */
ENGINE_INLINE void ocb_pass(const uint8_t *rk, unsigned nr, const uint8_t *offs,
                            vec *acc, uint8_t *out, const uint8_t *in, size_t m,
                            const unsigned nv, const int dec)
{
    vec x[OCB_U], o[OCB_U];
    size_t last = m - (size_t)VW * (nv - 1); /* lanes of the last vector */

    for (unsigned v = 0; v < nv; v++) {
        vec p = v + 1 < nv ? v_load(in + 16 * VW * v)
                           : v_loadn(in + 16 * VW * v, last);
        o[v] = v_load(offs + 16 * VW * v);
        x[v] = v_xor3(p, o[v], v_bcast(rk));
        if (!dec)
            *acc = v_xor(*acc, p);
    }
    for (unsigned r = 1; r < nr; r++) {
        vec kr = v_bcast(rk + 16 * r);
        for (unsigned v = 0; v < nv; v++)
            x[v] = dec ? v_dec(x[v], kr) : v_enc(x[v], kr);
    }
    for (unsigned v = 0; v < nv; v++) {
        vec kl = v_xor(v_bcast(rk + 16 * nr), o[v]);
        x[v] = dec ? v_declast(x[v], kl) : v_enclast(x[v], kl);
        if (v + 1 < nv) {
            v_store(out + 16 * VW * v, x[v]);
            if (dec)
                *acc = v_xor(*acc, x[v]);
        } else {
            v_storen(out + 16 * VW * v, x[v], last);
            if (dec)
                *acc = v_xor(*acc, v_keepn(x[v], last));
        }
    }
}

#define OCB_PASS_CASE(n)                                                       \
    case n:                                                                    \
        ocb_pass(rk, nr, offs, acc, out, in, m, n, dec);                       \
        break;

/* m blocks (1..OCB_B) with their offsets computed one by one. */
ENGINE_INLINE void ocb_part(const uint8_t *rk, unsigned nr, const uint8_t *l,
                            uint64_t *index, __m128i *off, uint8_t *offs,
                            vec *acc, uint8_t *out, const uint8_t *in, size_t m,
                            const int dec)
{
    ocb_offsets(l, index, off, offs, m);
    switch ((m + VW - 1) / VW) {
        OCB_PASS_CASE(1)
        OCB_PASS_CASE(2)
        OCB_PASS_CASE(3)
        OCB_PASS_CASE(4)
        OCB_PASS_CASE(5)
        OCB_PASS_CASE(6)
        OCB_PASS_CASE(7)
        OCB_PASS_CASE(8)
    default:
        break;
    }
}

/* Whether ocb_batches runs two batches per loop of rounds when asked
 * (ocb_pair; the includer says so where the registers hold them:
 * AVX-512's 32). */
#ifndef OCB_PAIR
#define OCB_PAIR 0
#endif

#ifndef OCB_PF_IN
#define OCB_PF_IN 0
#endif
/* The prefetches in round r (1 .. nr - 1) of a pair: the lines of a
 * pair's input (2 OCB_U vectors of VW blocks, 16 lines of 64 bytes on
 * zmm) OCB_PF_IN bytes ahead, spread over the rounds (a few per round,
 * not a burst). The addresses depend on the pointers only; a prefetch
 * never faults, so reaching past the end of in is harmless. */
ENGINE_INLINE void ocb_pair_prefetch(const uint8_t *in, const unsigned nr,
                                     const unsigned r)
{
    const unsigned lines = 2 * OCB_U * VW / 4;
    for (unsigned i = 0; OCB_PF_IN && i < lines; i++)
        if (i * (nr - 1) / lines == r - 1)
            _mm_prefetch((const char *)in + OCB_PF_IN + 64 * i, _MM_HINT_T0);
}

/*
 * Two consecutive whole batches in one loop of rounds: 2 OCB_U vectors
 * in flight, so that the XORs of one batch's start and end (the loads,
 * the offsets, the checksum, the stores) run beside the other's rounds
 * instead of in the slots around a lone batch's. *b is the first
 * batch's base with K_0 in it (ocb_batches), *a the checksum; both
 * advanced.
 *
 * The frame. With the T_v in registers (8 zmm) and the round keys
 * hoisted out of the loop (another 10-14), the 16 chains do not fit
 * the 32 registers: gcc 12 spilled, its frame grew from 584 to 1224
 * bytes, and the stack wipe that frame needs cost a short message
 * 20-35 cycles (docs/modes/ocb.md, sixth session). Here pt and rk pass
 * through an empty asm at the top of every iteration, so the compiler
 * cannot hoist what they point to: each round key is broadcast where
 * it is used (one load per round for 16 vaesenc) and each T_v is the
 * memory operand of the XOR that needs it (32 loads per 160 vaesenc of
 * AES-128), and what lives across the rounds is the 16 chains, the two
 * bases, the two last-lane terms, K_nr xor K_0 and the checksum: 22
 * registers, no spill.
 */
ENGINE_INLINE void ocb_pair(const uint8_t *rk, const unsigned nr,
                            const uint8_t *pt, const uint8_t *l, vec kk,
                            uint64_t *index, vec *bp, vec *ap, uint8_t *out,
                            const uint8_t *in, const int dec)
{
    vec x[2 * OCB_U], xl[2], bs[2], a = *ap, pp = a;

#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(pt), "+r"(rk));
#endif
    OCB_UNROLL
    for (unsigned h = 0; h < 2; h++) {
        *index += OCB_B;
        xl[h] = v_last_only(_mm_xor_si128(ocb_ld(l + 16 * OCB_LOG2B),
                                          ocb_ld(l + 16 * ocb_ntz(*index))));
    }
    bs[0] = *bp;
    bs[1] =
        v_last_bcast(v_xor3(bs[0], v_load(pt + 16 * VW * (OCB_U - 1)), xl[0]));
    OCB_UNROLL
    for (unsigned v = 0; v < 2 * OCB_U; v++) {
        const unsigned u = v % OCB_U, h = v / OCB_U;
        vec p = v_load(in + 16 * VW * v);
        x[v] = v_xor3(p, u + 1 < OCB_U ? bs[h] : v_xor(bs[h], xl[h]),
                      v_load(pt + 16 * VW * u));
        /* two vectors into the checksum per three-way XOR */
        if (!dec && v % 2 == 0)
            pp = p;
        else if (!dec)
            a = v_xor3(a, pp, p);
    }
#if defined(__GNUC__) || defined(__clang__)
    /* the checksum here, not after the rounds: clang 14 moved its XORs
     * to the end and kept the 16 plaintext vectors meanwhile, on the
     * stack (a frame of 1080 bytes) */
    __asm__("" : "+v"(a));
#endif
    OCB_UNROLL
    for (unsigned r = 1; r < nr; r++) {
        vec kr = v_bcast(rk + 16 * r);
        OCB_UNROLL
        for (unsigned v = 0; v < 2 * OCB_U; v++)
            x[v] = dec ? v_dec(x[v], kr) : v_enc(x[v], kr);
        ocb_pair_prefetch(in, nr, r);
    }
    /* the last round's key K_nr xor Offset = (K_nr xor K_0 xor base)
     * xor T_v: the first XOR once per batch, then one two-operand XOR
     * with T_v from memory per vector (as a three-way XOR per vector,
     * gcc 12 copied K_nr xor K_0 before each: vpternlogq overwrites one
     * of its inputs) */
    const vec kb[2] = {v_xor(kk, bs[0]), v_xor(kk, bs[1])};
    OCB_UNROLL
    for (unsigned v = 0; v < 2 * OCB_U; v++) {
        const unsigned u = v % OCB_U, h = v / OCB_U;
        vec kl = u + 1 < OCB_U ? v_xor(kb[h], v_load(pt + 16 * VW * u))
                               : v_xor3(kb[h], v_load(pt + 16 * VW * u), xl[h]);
        x[v] = dec ? v_declast(x[v], kl) : v_enclast(x[v], kl);
        v_store(out + 16 * VW * v, x[v]);
        if (dec && v % 2 == 1)
            a = v_xor3(a, x[v - 1], x[v]);
    }
    *bp =
        v_last_bcast(v_xor3(bs[1], v_load(pt + 16 * VW * (OCB_U - 1)), xl[1]));
    *ap = a;
}

/* nb whole batches, the first starting at a multiple of OCB_B; nr a
 * constant (ocb_batches_nr), so that the loop of rounds unrolls; with
 * pair (and OCB_PAIR), two at a time while two are left. */
ENGINE_INLINE void ocb_batches(const uint8_t *rk, unsigned nr, const uint8_t *l,
                               uint64_t *index, __m128i *off, vec *acc,
                               uint8_t *out, const uint8_t *in, size_t nb,
                               const int pair, const int dec)
{
    const vec k0 = v_bcast(rk), kk = v_xor(v_bcast(rk + 16 * nr), k0);
    vec b = v_xor(v_bcast_x(*off), k0), a = *acc, t[OCB_U];

    if (OCB_PAIR && pair)
        for (; nb >= 2; nb -= 2, in += 32 * OCB_B, out += 32 * OCB_B)
            ocb_pair(rk, nr, l + 16 * 36, l, kk, index, &b, &a, out, in, dec);
    /* T_v: P_1 .. P_B from the key, after the L table (loaded here, not
     * before the pairs, so that they do not hold 8 registers there) */
    for (unsigned v = 0; nb != 0 && v < OCB_U; v++)
        t[v] = v_load(l + 16 * 36 + 16 * VW * v);

    /* The base is kept with K_0 in it (b = base xor K_0, in every lane,
     * so that the next base is still the last lane of b xor T_(U-1)
     * xor the last lane's term): the first round's input is one
     * three-way XOR per vector (P, b, T_v), and the last round's key
     * K_nr xor Offset = (K_nr xor K_0 xor b) xor T_v one XOR. Few values
     * live across the rounds (the blocks, b, the last lane's term, the
     * checksum): the offsets are not kept, so that nothing needs the
     * stack on zmm. */
    for (; nb > 0; nb--, in += 16 * OCB_B, out += 16 * OCB_B) {
        vec x[OCB_U], xl, pp = a;
        *index += OCB_B;
        xl = v_last_only(_mm_xor_si128(ocb_ld(l + 16 * OCB_LOG2B),
                                       ocb_ld(l + 16 * ocb_ntz(*index))));
        for (unsigned v = 0; v < OCB_U; v++) {
            vec p = v_load(in + 16 * VW * v);
            x[v] = v_xor3(p, v + 1 < OCB_U ? b : v_xor(b, xl), t[v]);
            /* two vectors into the checksum per three-way XOR */
            if (!dec && v % 2 == 0)
                pp = p;
            else if (!dec)
                a = v_xor3(a, pp, p);
        }
        OCB_UNROLL
        for (unsigned r = 1; r < nr; r++) {
            vec kr = v_bcast(rk + 16 * r);
            for (unsigned v = 0; v < OCB_U; v++)
                x[v] = dec ? v_dec(x[v], kr) : v_enc(x[v], kr);
        }
        {
            vec kb = v_xor(kk, b);
            for (unsigned v = 0; v < OCB_U; v++) {
                vec kl = v + 1 < OCB_U ? v_xor(kb, t[v]) : v_xor3(kb, t[v], xl);
                x[v] = dec ? v_declast(x[v], kl) : v_enclast(x[v], kl);
                v_store(out + 16 * VW * v, x[v]);
                if (dec && v % 2 == 1)
                    a = v_xor3(a, x[v - 1], x[v]);
            }
        }
        b = v_last_bcast(v_xor3(b, t[OCB_U - 1], xl));
    }
    *off = _mm_xor_si128(v_first(b), v_first(k0));
    *acc = a;
}

/*
 * ocb_batches with the round count a constant, one copy per key size.
 * With nr a variable, gcc 12 kept the rounds a loop and, after every
 * round, copied each of the eight vectors to another register (eight
 * vmovdqa64 zmm per eight vaesenc, in the loop that is the bound); the
 * unrolled rounds have no copies, and the body's frame went from 1032
 * to 584 bytes. Zen 5, the whole-message kernel called directly (TSC
 * cycles per call, same run, docs/modes/ocb.md): AES-128 16 KiB
 * 877 -> 845 (seal), 897 -> 852 (open), 256 KiB 12974 -> 12740 and
 * 13026 -> 12636; AES-256 16 KiB 1216 -> 1196 and 1235 -> 1209.
 */
ENGINE_INLINE void ocb_batches_nr(const uint8_t *rk, unsigned nr,
                                  const uint8_t *l, uint64_t *index,
                                  __m128i *off, vec *acc, uint8_t *out,
                                  const uint8_t *in, size_t nb, const int pair,
                                  const int dec)
{
    if (nr == 10)
        ocb_batches(rk, 10, l, index, off, acc, out, in, nb, pair, dec);
    else if (nr == 12)
        ocb_batches(rk, 12, l, index, off, acc, out, in, nb, pair, dec);
    else
        ocb_batches(rk, 14, l, index, off, acc, out, in, nb, pair, dec);
}

ENGINE_INLINE size_t ocb_run(const void *rkp, unsigned nr, const uint8_t *l,
                             uint64_t index, uint8_t offset[16],
                             uint8_t checksum[16], uint8_t *out,
                             const uint8_t *in, size_t n, const int dec)
{
    const uint8_t *rk = ENGINE_RK(rkp);
    _Alignas(64) uint8_t offs[16 * OCB_B];
    vec acc = v_zero();
    __m128i off = ocb_ld(offset);
    size_t done = n, h = (OCB_B - index % OCB_B) % OCB_B;

    /* head: up to a multiple of the batch */
    h = h < n ? h : n;
    if (h != 0) {
        ocb_part(rk, nr, l, &index, &off, offs, &acc, out, in, h, dec);
        in += 16 * h, out += 16 * h, n -= h;
    }
    if (n >= OCB_B) {
        ocb_batches_nr(rk, nr, l, &index, &off, &acc, out, in, n / OCB_B, 0,
                       dec);
        in += 16 * (n - n % OCB_B), out += 16 * (n - n % OCB_B);
        n %= OCB_B;
    }
    if (n != 0)
        ocb_part(rk, nr, l, &index, &off, offs, &acc, out, in, n, dec);
    _mm_storeu_si128((__m128i *)(void *)offset, off);
    _mm_storeu_si128((__m128i *)(void *)checksum,
                     _mm_xor_si128(ocb_ld(checksum), v_fold(acc)));
    /* the offsets of the head and the tail, as vector stores: a memset
     * of the whole buffer became rep stos, some 30 cycles to start */
    for (size_t j = 0; j < (h > n ? h : n); j += VW)
        v_store(offs + 16 * j, v_zero());
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : : "r"(offs) : "memory");
#endif
    return done;
}

OCB_NOINLINE ENGINE_FN size_t ENGINE_NAME(ocb_enc_body)(
    const void *rk, unsigned nr, const uint8_t *l, uint64_t index,
    uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
    size_t n)
{
    return ocb_run(rk, nr, l, index, offset, checksum, out, in, n, 0);
}

OCB_NOINLINE ENGINE_FN size_t ENGINE_NAME(ocb_dec_body)(
    const void *rk, unsigned nr, const uint8_t *l, uint64_t index,
    uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
    size_t n)
{
    return ocb_run(rk, nr, l, index, offset, checksum, out, in, n, 1);
}

/* The entry points: the body, then its stack wiped (OCB_WIPE bytes). */
size_t OCB_ENC_NAME(const void *rk, unsigned nr, const uint8_t *l,
                    uint64_t index, uint8_t offset[16], uint8_t checksum[16],
                    uint8_t *out, const uint8_t *in, size_t n)
{
    size_t done = ENGINE_NAME(ocb_enc_body)(rk, nr, l, index, offset, checksum,
                                            out, in, n);
    aesir_wipe_stack(OCB_WIPE);
    return done;
}

size_t OCB_DEC_NAME(const void *rk, unsigned nr, const uint8_t *l,
                    uint64_t index, uint8_t offset[16], uint8_t checksum[16],
                    uint8_t *out, const uint8_t *in, size_t n)
{
    size_t done = ENGINE_NAME(ocb_dec_body)(rk, nr, l, index, offset, checksum,
                                            out, in, n);
    aesir_wipe_stack(OCB_WIPE);
    return done;
}

#ifdef OCB_WHOLE_NAME
/*
 * A whole one-shot message (aesir_ocb_whole_fn, internal.h): RFC 7253
 * section 4.2 from the nonce to the tag in one call, so that a short
 * message pays no calls through the engine for Ktop and the tag, no
 * offsets through memory and one stack wipe. Ktop = E_K(nonce block) on
 * one xmm, the block from two 64-bit words in registers (ocb.c); Stretch
 * and the shift by bottom (public: from the nonce) in xmm registers
 * (ocb_offset0); the batches as in ocb_batches; the blocks after the
 * last whole batch start at a multiple of OCB_B, so their offsets are
 * base xor P_j like a batch's (no serial chain), the last vector
 * masked, in one loop of rounds with that last batch (OCB_WHOLE_JOIN);
 * then the partial block's pad E_K(Offset_* ) and the tag
 * E_K(Checksum xor Offset xor L_$) xor sum, both on xmm.
 *
 * Decryption with a whole 16-byte tag (decrypt = OCB_WHOLE_CHECK,
 * ocb_kernels.h) checks instead of recomputing: tag holds the received
 * tag T on entry, D_K(T xor sum) runs beside Ktop's rounds (two
 * independent chains, one latency), and at the end tag receives
 * D_K(T xor sum) xor Checksum xor Offset xor L_$, zero exactly when T
 * is the message's tag (E_K is a permutation). So no AES latency
 * follows the last block: a decryption's tag used to wait for its
 * output's checksum and then 10-14 rounds.
 */

/* E_K(x) on one xmm with the encryption schedule rk. */
ENGINE_INLINE __m128i ocb_enc1(const uint8_t *rk, unsigned nr, __m128i x)
{
    x = _mm_xor_si128(x, ocb_ld(rk));
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, ocb_ld(rk + 16 * r));
    return _mm_aesenclast_si128(x, ocb_ld(rk + 16 * nr));
}

/* D_K(x) on one xmm with the decryption schedule rk (the equivalent
 * inverse cipher's). */
ENGINE_INLINE __m128i ocb_dec1(const uint8_t *rk, unsigned nr, __m128i x)
{
    x = _mm_xor_si128(x, ocb_ld(rk));
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesdec_si128(x, ocb_ld(rk + 16 * r));
    return _mm_aesdeclast_si128(x, ocb_ld(rk + 16 * nr));
}

ENGINE_INLINE __m128i ocb_bswap(__m128i x)
{
    return _mm_shuffle_epi8(
        x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/*
 * Offset_0 = Stretch[1 + bottom .. 128 + bottom] (RFC 7253 section 4.2)
 * from kt = Ktop, in xmm registers. As a 128-bit integer k = (w0, w1)
 * (lane 1, lane 0), Stretch's third word w2 = w0 xor (w0 << 8 | w1 >>
 * 56) is lane 1 of k xor (k << 8 bits); s = (w1, w2), and Offset_0 =
 * (w0 << b | w1 >> (64 - b), w1 << b | w2 >> (64 - b)) = k << b | s >>
 * (64 - b) lane by lane (a shift by 64 gives zero: no case for b = 0).
 * The shift counts come from the nonce alone, ready before Ktop; what
 * follows Ktop is seven one-cycle instructions, where a way through
 * 64-bit registers (two extractions, the shifts, two insertions) took
 * some twenty cycles on the path every block waits for.
 */
ENGINE_INLINE __m128i ocb_offset0(__m128i kt, unsigned bottom)
{
    const __m128i cl = _mm_cvtsi32_si128((int)bottom);
    const __m128i cr = _mm_cvtsi32_si128((int)(64 - bottom));
    __m128i k = ocb_bswap(kt);
    __m128i s = _mm_alignr_epi8(k, _mm_xor_si128(k, _mm_slli_si128(k, 1)), 8);
    return ocb_bswap(_mm_or_si128(_mm_sll_epi64(k, cl), _mm_srl_epi64(s, cr)));
}

/* Whether the last whole batch joins the blocks after it in
 * ocb_whole_end (the includer says so where the registers hold the
 * vectors: AVX-512's 32), when they are at most OCB_JOIN_MAX vectors:
 * each more makes the body's frame 64 bytes larger, and so its stack
 * wipe (vaes_avx512_ocb.c has the measurement). */
#ifndef OCB_WHOLE_JOIN
#define OCB_WHOLE_JOIN 0
#endif
#ifndef OCB_JOIN_MAX
#define OCB_JOIN_MAX 1
#endif

/*
 * The end of a whole message: nw = 0 or OCB_U vectors of a last whole
 * batch (blocks index + 1 .. index + OCB_B, index a multiple of OCB_B,
 * offsets as in ocb_batches), then the m = 0 .. OCB_B - 1 blocks after
 * it (they start at a multiple of OCB_B, so their offsets are base xor
 * P_j: nv = ceil(m / VW) vectors, the last masked), the r = 0 .. 15
 * bytes of a partial block, the tag. All of them go through one loop
 * of rounds: the batch's vectors, the last ones and the tag's xmm
 * interleaved, so that the 10-14 rounds of latency of the last vector
 * and of the tag hide in the batch's throughput (a 576-byte message is
 * 8 + 1 vectors: run after the batch, its last vector's and the tag's
 * rounds had the pipes to themselves; a 16 KiB seal's tag too). The pad
 * E_K(Offset_*) and, when encrypting, the tag E_K(Checksum xor Offset
 * xor L_$) go through the same rounds, one xmm each: neither waits for
 * the blocks (an encryption's checksum is of its input, complete once
 * the blocks are loaded). A decryption's tag needs its output: after,
 * unless dec is OCB_WHOLE_CHECK: then tc = D_K(T xor sum) (computed at
 * the start) and the tag is only XORs.
 */
ENGINE_INLINE void ocb_whole_end(const uint8_t *rk, const uint8_t *rke,
                                 unsigned nr, const uint8_t *l, uint64_t index,
                                 __m128i off, vec acc, uint8_t *out,
                                 const uint8_t *in, size_t m, const unsigned nw,
                                 const unsigned nv, size_t r,
                                 const uint8_t sum[16], __m128i tc,
                                 uint8_t tag[16], const int dec)
{
    const uint8_t *pt = l + 16 * 36; /* P_1 .. */
    const unsigned nt = nw + nv;
    vec x[OCB_U + OCB_WHOLE_JOIN * OCB_JOIN_MAX],
        k0 = v_bcast(rk), bw = v_zero(), xl = v_zero(), b, pp;
    size_t last = nv > 0 ? m - (size_t)VW * (nv - 1) : 0;
    uint8_t *out2 = out + (nw != 0 ? 16 * OCB_B : 0);
    const uint8_t *in2 = in + (nw != 0 ? 16 * OCB_B : 0);
    __m128i xin = _mm_setzero_si128(), xp = xin, pd, tg = xin, ck;
    _Alignas(16) uint8_t part[16];

    if (nw != 0) {
        /* the batch's base bw, its last lane's term xl (ocb_batches),
         * and Offset_(index + OCB_B), the base of the blocks after it */
        __m128i lx = _mm_xor_si128(ocb_ld(l + 16 * OCB_LOG2B),
                                   ocb_ld(l + 16 * ocb_ntz(index + OCB_B)));
        bw = v_bcast_x(off);
        xl = v_last_only(lx);
        off = _mm_xor_si128(off,
                            _mm_xor_si128(ocb_ld(pt + 16 * (OCB_B - 1)), lx));
    }
    b = v_bcast_x(off);
    /* Offset_m, then Offset_* = Offset_m xor L_* when r != 0 */
    if (m != 0)
        off = _mm_xor_si128(off, ocb_ld(pt + 16 * (m - 1)));
    if (r != 0) {
        off = _mm_xor_si128(off, ocb_ld(l + 16 * 68));
        memset(part, 0, 16);
        memcpy(part, in2 + 16 * m, r); /* before out (which may be in) */
        xin = ocb_ld(part);
        part[r] = 0x80;
        xp = ocb_ld(part); /* P_* || 1 || 0.. when encrypting */
    }
    pd = _mm_xor_si128(off, ocb_ld(rke));
    pp = v_zero();
    for (unsigned v = 0; v < nt; v++) {
        vec p, o;
        if (v < nw) {
            p = v_load(in + 16 * VW * v);
            o = v + 1 < nw ? bw : v_xor(bw, xl);
        } else {
            unsigned u = v - nw;
            p = u + 1 < nv ? v_load(in2 + 16 * VW * u)
                           : v_loadn(in2 + 16 * VW * u, last);
            o = b;
        }
        /* two vectors into the checksum per three-way XOR */
        if (!dec && v % 2 == 0)
            pp = p;
        else if (!dec)
            acc = v_xor3(acc, pp, p);
        x[v] = v_xor3(p, v_load(pt + 16 * VW * (v < nw ? v : v - nw)),
                      v_xor(o, k0));
    }
    if (!dec && nt % 2 == 1)
        acc = v_xor(acc, pp);
    if (!dec)
        tg =
            _mm_xor_si128(_mm_xor_si128(v_fold(acc), xp),
                          _mm_xor_si128(_mm_xor_si128(off, ocb_ld(l + 16 * 69)),
                                        ocb_ld(rke)));
    for (unsigned i = 1; i < nr; i++) {
        vec kr = v_bcast(rk + 16 * i);
        for (unsigned v = 0; v < nt; v++)
            x[v] = dec ? v_dec(x[v], kr) : v_enc(x[v], kr);
        if (r != 0)
            pd = _mm_aesenc_si128(pd, ocb_ld(rke + 16 * i));
        if (!dec)
            tg = _mm_aesenc_si128(tg, ocb_ld(rke + 16 * i));
    }
    {
        vec kn = v_bcast(rk + 16 * nr), kw = v_xor(kn, bw), kb = v_xor(kn, b);
        for (unsigned v = 0; v < nt; v++) {
            vec kl;
            if (v < nw)
                kl = v + 1 < nw ? v_xor(kw, v_load(pt + 16 * VW * v))
                                : v_xor3(kw, v_load(pt + 16 * VW * v), xl);
            else
                kl = v_xor(kb, v_load(pt + 16 * VW * (v - nw)));
            x[v] = dec ? v_declast(x[v], kl) : v_enclast(x[v], kl);
            if (v < nw)
                v_store(out + 16 * VW * v, x[v]);
            else if (v + 1 < nt)
                v_store(out2 + 16 * VW * (v - nw), x[v]);
            else
                v_storen(out2 + 16 * VW * (v - nw), x[v], last);
            if (dec && v + 1 == nt && v >= nw)
                x[v] = v_keepn(x[v], last);
            if (dec && v % 2 == 1)
                acc = v_xor3(acc, x[v - 1], x[v]);
        }
        if (dec && nt % 2 == 1)
            acc = v_xor(acc, x[nt - 1]);
    }
    if (!dec)
        tg = _mm_aesenclast_si128(tg, ocb_ld(rke + 16 * nr));
    if (r != 0) {
        pd = _mm_aesenclast_si128(pd, ocb_ld(rke + 16 * nr));
        _mm_store_si128((__m128i *)(void *)part, _mm_xor_si128(xin, pd));
        memcpy(out2 + 16 * m, part, r);
        if (dec) { /* P_* || 1 || 0.. */
            memset(part + r, 0, 16 - r);
            part[r] = 0x80;
            xp = ocb_ld(part);
        }
        memset(part, 0, 16);
        __asm__ __volatile__("" : : "r"(part) : "memory");
    }
    if (dec) {
        ck = _mm_xor_si128(_mm_xor_si128(v_fold(acc), xp),
                           _mm_xor_si128(off, ocb_ld(l + 16 * 69)));
        if (dec == OCB_WHOLE_CHECK) { /* zero when the tags match */
            _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(ck, tc));
            return;
        }
        tg = ocb_enc1(rke, nr, ck);
    }
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(tg, ocb_ld(sum)));
}

#define OCB_END_CASE(w, c)                                                     \
    case c:                                                                    \
        if (c <= OCB_U && (w == 0 || (OCB_WHOLE_JOIN && c <= OCB_JOIN_MAX)))   \
            ocb_whole_end(rk, rke, nr, l, index, off, acc, out, in, n, w, c,   \
                          r, sum, tc, tag, dec);                               \
        break;
#define OCB_END_SWITCH(w)                                                      \
    switch ((n + VW - 1) / VW) {                                               \
        OCB_END_CASE(w, 0)                                                     \
        OCB_END_CASE(w, 1)                                                     \
        OCB_END_CASE(w, 2)                                                     \
        OCB_END_CASE(w, 3)                                                     \
        OCB_END_CASE(w, 4)                                                     \
        OCB_END_CASE(w, 5)                                                     \
        OCB_END_CASE(w, 6)                                                     \
        OCB_END_CASE(w, 7)                                                     \
        OCB_END_CASE(w, 8)                                                     \
    default:                                                                   \
        break;                                                                 \
    }

ENGINE_INLINE void ocb_whole(const void *rkep, const void *rkdp, unsigned nr,
                             const uint8_t *l, uint64_t nonce_hi,
                             uint64_t nonce_lo, unsigned bottom,
                             const uint8_t sum[16], uint8_t *out,
                             const uint8_t *in, size_t len, uint8_t tag[16],
                             const int dec)
{
    const uint8_t *rke = ENGINE_RK(rkep), *rk = ENGINE_RK(dec ? rkdp : rkep);
    size_t n = len / 16, r = len % 16;
    uint64_t index = 0;
    vec acc = v_zero();
    __m128i off, tc = _mm_setzero_si128();

    /* the received tag's decipherment, beside Ktop's (independent) */
    if (dec == OCB_WHOLE_CHECK)
        tc = ocb_dec1(rk, nr, _mm_xor_si128(ocb_ld(tag), ocb_ld(sum)));
    /* Ktop = E_K(nonce block): the block from its two big-endian words
     * (in registers: ocb.c builds them without stores) */
    off = ocb_offset0(ocb_enc1(rke, nr,
                               ocb_bswap(_mm_set_epi64x((long long)nonce_hi,
                                                        (long long)nonce_lo))),
                      bottom);

    if (n >= OCB_B) {
        /* with OCB_WHOLE_JOIN, the last batch goes with what follows it
         * (the blocks after it, the pad, an encryption's tag) */
        size_t nb = n / OCB_B -
                    (size_t)(OCB_WHOLE_JOIN && n % OCB_B <= VW * OCB_JOIN_MAX);
        if (nb != 0) {
            ocb_batches_nr(rk, nr, l, &index, &off, &acc, out, in, nb, 1, dec);
            in += 16 * OCB_B * nb, out += 16 * OCB_B * nb;
            n -= OCB_B * nb;
        }
    }
    if (OCB_WHOLE_JOIN && n >= OCB_B) {
        n -= OCB_B;
        OCB_END_SWITCH(OCB_U)
        return;
    }
    OCB_END_SWITCH(0)
}
#undef OCB_END_CASE
#undef OCB_END_SWITCH

OCB_NOINLINE ENGINE_FN void ENGINE_NAME(ocb_whole_body)(
    const void *rke, const void *rkd, unsigned nr, const uint8_t *l,
    uint64_t nonce_hi, uint64_t nonce_lo, unsigned bottom,
    const uint8_t sum[16], uint8_t *out, const uint8_t *in, size_t len,
    uint8_t tag[16], int dec)
{
    if (dec == OCB_WHOLE_CHECK)
        ocb_whole(rke, rkd, nr, l, nonce_hi, nonce_lo, bottom, sum, out, in,
                  len, tag, OCB_WHOLE_CHECK);
    else if (dec)
        ocb_whole(rke, rkd, nr, l, nonce_hi, nonce_lo, bottom, sum, out, in,
                  len, tag, 1);
    else
        ocb_whole(rke, rkd, nr, l, nonce_hi, nonce_lo, bottom, sum, out, in,
                  len, tag, 0);
}

/* The stack the body used (OCB_WHOLE_WIPE bytes: its frame, gcc 12 and
 * clang 14 -fstack-usage, plus 256, rounded up to 64) zeroed by vector
 * stores in a frame of its own just below the caller's, as
 * aesir_wipe_stack does, without the call to memset: 14 cycles instead
 * of some 40 on a short message (Zen 4, 2 KiB). */
OCB_NOINLINE ENGINE_FN void ENGINE_NAME(ocb_whole_wipe)(void)
{
    vec b[OCB_WHOLE_WIPE / sizeof(vec)];
    OCB_UNROLL
    for (size_t i = 0; i < OCB_WHOLE_WIPE / sizeof(vec); i++)
        v_store((uint8_t *)&b[i], v_zero());
    __asm__ __volatile__("" : : "r"(b) : "memory");
}

void OCB_WHOLE_NAME(const void *rke, const void *rkd, unsigned nr,
                    const uint8_t *l, uint64_t nonce_hi, uint64_t nonce_lo,
                    unsigned bottom, const uint8_t sum[16], uint8_t *out,
                    const uint8_t *in, size_t len, uint8_t tag[16], int dec)
{
    ENGINE_NAME(ocb_whole_body)
    (rke, rkd, nr, l, nonce_hi, nonce_lo, bottom, sum, out, in, len, tag, dec);
    ENGINE_NAME(ocb_whole_wipe)();
}
#endif /* OCB_WHOLE_NAME */
