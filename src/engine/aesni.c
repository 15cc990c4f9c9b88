/*
 * aesni.c -- the AES-NI engine: x86 AES instructions on 128-bit SSE
 * registers, 8 blocks in flight.
 *
 * Technique. AESENC performs one full AES round (ShiftRows, SubBytes,
 * MixColumns, AddRoundKey) on one xmm register, AESENCLAST the last round
 * (no MixColumns); AESDEC and AESDECLAST do the same for the equivalent
 * inverse cipher of FIPS-197 section 5.3.5, whose middle round keys are
 * passed through InvMixColumns by AESIMC at key setup (S. Gueron, "Intel
 * Advanced Encryption Standard (AES) New Instructions Set", Intel white
 * paper 323641, rev. 3.0, 2010).
 *
 * Throughput. AESENC has a latency of 3 cycles and a throughput of 2 per
 * cycle on the cores we target (Ice Lake, Sapphire Rapids; 4 and 1 on
 * Skylake, 7 and 1 on Haswell), so one block alone keeps the AES units
 * busy 1/6 of the time. The parallel modes (ECB, CTR, CBC and CFB
 * decryption) therefore run 8 independent blocks through each round
 * before moving to the next round (the interleaving Gueron's white paper
 * recommends): 8 >= latency x throughput on every x86 core with AES-NI we
 * know of. A tail of 1..7 blocks takes a kernel of exactly that width
 * (ENGINE_TAIL7): up to 6 lanes cost the same 3 cycles per round as one,
 * so a tail never runs block by block and no lane is wasted.
 *
 * CBC encryption is serial; it keeps the chaining value in a register
 * and folds the chaining XOR into the last round's key, so each block
 * costs exactly nr AES latencies (aes_x86_serial.h; CFB128 encryption and
 * OFB the same way). Many independent messages, though, can share the
 * pipeline: the multi-buffer paths (aesni_cbc_enc_many, and
 * aesni_cbc_mac_many for CBC-MAC) run 8 of them side by side, each with
 * its own keys.
 *
 * Key expansion without AESKEYGENASSIST (aesni_keys.h, shared with the
 * VAES engines). FIPS-197 section 5.2 needs SubWord(RotWord(w)) ^ Rcon
 * for the last word w of the previous key block. With RotWord(w)
 * broadcast into all four columns of a register, ShiftRows is the
 * identity, so AESENCLAST with the key Rcon in every column returns
 * SubWord(RotWord(w)) ^ Rcon in all four columns -- the broadcast the
 * schedule XORs in (the "aesenclast trick", a known alternative used by
 * several AES-NI libraries; AESKEYGENASSIST is slow on most cores). The
 * broadcast, the running prefix XOR and the next word's XOR are arranged
 * so that one AESENCLAST per step is the whole dependency chain for
 * AES-128 and AES-256 (aesni_keys.h explains how); the decryption
 * schedule is made from the round keys while they are in registers.
 *
 * Layout. Round keys are 16-byte vectors in block byte order (what AESENC
 * takes), round r at rk + 16 r:
 *
 *   rk_enc:  K0 K1 ... K(nr)                    (FIPS-197 5.2)
 *   rk_dec:  K(nr) imc(K(nr-1)) ... imc(K1) K0  (FIPS-197 5.3.5, in the
 *                                                order decryption uses)
 *
 * AES-192 produces 6 words per step; two registers carry them,
 *
 *   a = [w0 w1 w2 w3]   b = [w4 w5 .. ..]
 *
 * and round keys are assembled from them with PUNPCKLQDQ and SHUFPD, so
 * every store is a whole aligned 16-byte round key.
 *
 * Constant time: YES, given that the AES instructions are (they are
 * fixed-latency, table-free hardware on every x86 core that has them).
 * No branch or address depends on key or data; the only branches are on
 * nr, on the block count, in CTR on the (public) counter value and in
 * the multi-buffer path on the (public) message lengths and count.
 * Secrets live in xmm registers and the round-key area; the compilers
 * checked (gcc 12, clang 14) keep the 8 lanes in registers, so there are
 * no stack temporaries to wipe, except the multi-buffer path's copy of
 * its messages' round keys, wiped with the rest of its frame before it
 * returns.
 *
 * Batch: 8 blocks.
 */
#define ENGINE_ISA "aes,ssse3"
#include "engine.h"
#include "stack_wipe.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

/* The out-of-line functions of the header shared with the VAES engines
 * (aes_x86_serial.h) get this engine's prefix. */
#define ENGINE_NAME(x) aesni_##x

/* Lanes of the wide kernel. */
#define WIDE 8

/* Every loop over lanes has a constant trip count once inlined; gcc only
 * keeps the lanes in registers when these loops unroll before its scalar
 * replacement pass, which the pragma guarantees. */
#if defined(__clang__)
#define LANES
#else
#define LANES _Pragma("GCC unroll 8")
#endif

/* ---- key expansion ---------------------------------------------------- */

/* The schedules come from aesni_keys.h, shared with the VAES engines: the
 * aesenclast trick described above, with RotWord carried in rotated
 * broadcasts and the next word's XOR in the aesenclast's round key (one
 * AESENCLAST of latency per step for AES-128 and AES-256), the prefix XOR
 * on shuffles that leave the AES pipes free, and the decryption schedule
 * made from the round keys while they are still in registers (AESIMC off
 * the chain, no reload). docs/engines/aesni.md has the measurements. */
#include "aesni_keys.h"

ENGINE_FN void aesni_setkey_enc(void *rk, const uint8_t *key, size_t key_len)
{
    (void)ak_schedule(ak_nonnull(__builtin_assume_aligned(rk, 16)), NULL, 16,
                      key, key_len);
}

ENGINE_FN void aesni_setkey_dec(void *rk, const uint8_t *key, size_t key_len)
{
    (void)ak_schedule(NULL, ak_nonnull(__builtin_assume_aligned(rk, 16)), 16,
                      key, key_len);
}

ENGINE_FN int aesni_setkey_pair(void *rk_enc, void *rk_dec, const uint8_t *key,
                                size_t key_len, unsigned dirs, size_t most)
{
    return ak_setkey_pair(rk_enc, rk_dec, key, key_len, dirs, most);
}

/* The same, VEX-encoded, on a CPU with AVX: three-operand instructions
 * need no register copies. AES-128, both schedules: about 135
 * instructions on the path instead of 166; Zen 4, 30.8 TSC cycles per
 * key instead of 32.0. */
__attribute__((target("aes,ssse3,avx"))) static int
aesni_setkey_pair_avx(void *rk_enc, void *rk_dec, const uint8_t *key,
                      size_t key_len, unsigned dirs, size_t most)
{
    return ak_setkey_pair(rk_enc, rk_dec, key, key_len, dirs, most);
}

/* ---- n-lane round kernels --------------------------------------------
 * n is a compile-time constant at every call (the functions are always
 * inlined), so the lane loops unroll and b[] lives in registers. Round
 * keys are read from memory at each round: a load folded into AESENC is
 * free at these rates, and it leaves the 16 xmm registers to the lanes. */

ENGINE_INLINE __m128i rkey(const __m128i *k, unsigned r)
{
    return _mm_load_si128(k + r);
}

/* Hides where k points from the optimiser, so the round-key loads of a
 * kernel are not hoisted into registers across kernels and loop
 * iterations: they stay memory operands of AESENC, and the registers stay
 * with the lanes. Without it gcc holds up to 10 keys in registers and
 * spills lanes (AES state) to the stack in the tails. */
ENGINE_INLINE const __m128i *opaque(const __m128i *k)
{
    __asm__("" : "+r"(k));
    return k;
}

#define ROUND(op, r)                                                           \
    do {                                                                       \
        __m128i t_ = rkey(k, (r));                                             \
        LANES                                                                  \
        for (unsigned j = 0; j < n; j++)                                       \
            b[j] = op(b[j], t_);                                               \
    } while (0)

/* Rounds 1..nr (round 0's XOR is the caller's, so CTR can fold it). */
#define ROUNDS(op, oplast)                                                     \
    do {                                                                       \
        ROUND(op, 1);                                                          \
        ROUND(op, 2);                                                          \
        ROUND(op, 3);                                                          \
        ROUND(op, 4);                                                          \
        ROUND(op, 5);                                                          \
        ROUND(op, 6);                                                          \
        ROUND(op, 7);                                                          \
        ROUND(op, 8);                                                          \
        ROUND(op, 9);                                                          \
        if (nr > 10) {                                                         \
            ROUND(op, 10);                                                     \
            ROUND(op, 11);                                                     \
            if (nr > 12) {                                                     \
                ROUND(op, 12);                                                 \
                ROUND(op, 13);                                                 \
            }                                                                  \
        }                                                                      \
        ROUND(oplast, nr);                                                     \
    } while (0)

ENGINE_INLINE void whiten(__m128i *b, unsigned n, const __m128i *k)
{
    __m128i t = rkey(k, 0);
    LANES
    for (unsigned j = 0; j < n; j++)
        b[j] = _mm_xor_si128(b[j], t);
}

ENGINE_INLINE void enc_n(__m128i *b, unsigned n, const __m128i *k, unsigned nr)
{
    k = opaque(k);
    ROUNDS(_mm_aesenc_si128, _mm_aesenclast_si128);
}

ENGINE_INLINE void dec_n(__m128i *b, unsigned n, const __m128i *k, unsigned nr)
{
    k = opaque(k);
    ROUNDS(_mm_aesdec_si128, _mm_aesdeclast_si128);
}

ENGINE_INLINE void load_n(__m128i *b, unsigned n, const uint8_t *in)
{
    LANES
    for (unsigned j = 0; j < n; j++)
        b[j] = _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * j));
}

ENGINE_INLINE void store_n(uint8_t *out, const __m128i *b, unsigned n)
{
    LANES
    for (unsigned j = 0; j < n; j++)
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * j), b[j]);
}

ENGINE_INLINE __m128i loadu(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ENGINE_INLINE void storeu(uint8_t *p, __m128i x)
{
    _mm_storeu_si128((__m128i *)(void *)p, x);
}

/* ---- ECB ---------------------------------------------------------------- */

/* n blocks through the n-lane kernel. */
ENGINE_INLINE void ecb_n(const __m128i *k, unsigned nr, uint8_t *out,
                         const uint8_t *in, unsigned n, int dec)
{
    __m128i b[WIDE];
    load_n(b, n, in);
    whiten(b, n, k);
    if (dec)
        dec_n(b, n, k, nr);
    else
        enc_n(b, n, k, nr);
    store_n(out, b, n);
}

ENGINE_INLINE void ecb(const void *rk, unsigned nr, uint8_t *out,
                       const uint8_t *in, size_t nblocks, int dec)
{
    const __m128i *k = (const __m128i *)__builtin_assume_aligned(rk, 16);
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        ecb_n(k, nr, out, in, WIDE, dec);
#define ECB_TAIL(n) ecb_n(k, nr, out, in, (n), dec)
    ENGINE_TAIL7(ECB_TAIL, nblocks)
#undef ECB_TAIL
}

ENGINE_FN void aesni_encrypt(const void *rk, unsigned nr, uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 0);
}

ENGINE_FN void aesni_decrypt(const void *rk, unsigned nr, uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 1);
}

/* ---- CTR ---------------------------------------------------------------- */

/*
 * The counter is kept byte-reversed in a register, v = the 128-bit
 * big-endian counter as a little-endian integer, so its low 64 bits are
 * lane 0 of a PADDQ. Block j of a group is PSHUFB(v + j). The callers
 * (aesni_ctr, aesni_ctr_long) split the call where the low 64 bits wrap,
 * so within one ctr_run the 64-bit add never needs a carry into the high
 * half, whatever happens at bit 32.
 *
 * While the counter's last byte does not wrap within a group of 8 (31
 * groups out of 32 in a long run, or all of them when the run starts
 * 8-aligned), block j is formed in big-endian form by adding j to that
 * byte with PADDD (it is the top byte of the last 32-bit lane), one
 * instruction instead of PADDQ + PSHUFB: the extra shuffles shared the
 * vector ports with the AES instructions and cost 2% at 16 KiB.
 */
ENGINE_INLINE __m128i bswap_mask(void)
{
    return _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

ENGINE_INLINE void ctr_n(const __m128i *k, unsigned nr, __m128i v, uint8_t *out,
                         const uint8_t *in, unsigned n, int byte15)
{
    __m128i b[WIDE];
    const __m128i bs = bswap_mask(), k0 = rkey(k, 0);
    const __m128i be = _mm_shuffle_epi8(v, bs);
    LANES
    for (unsigned j = 0; j < n; j++)
        b[j] = _mm_xor_si128(
            byte15
                ? _mm_add_epi32(be, _mm_set_epi32((int)(j << 24), 0, 0, 0))
                : _mm_shuffle_epi8(_mm_add_epi64(v, _mm_set_epi64x(0, j)), bs),
            k0);
    enc_n(b, n, k, nr);
    LANES
    for (unsigned j = 0; j < n; j++)
        storeu(out + 16 * j, _mm_xor_si128(b[j], loadu(in + 16 * j)));
}

/* m blocks from the byte-reversed counter v, no carry out of the low 64
 * bits among them. */
ENGINE_INLINE void ctr_run(const __m128i *k, unsigned nr, __m128i v,
                           uint8_t *out, const uint8_t *in, size_t m)
{
    const __m128i step = _mm_set_epi64x(0, WIDE);
    unsigned low = (unsigned)_mm_cvtsi128_si32(v) & 0xff;
    for (; m >= WIDE; m -= WIDE, in += 16 * WIDE, out += 16 * WIDE) {
        if (low <= 256 - WIDE)
            ctr_n(k, nr, v, out, in, WIDE, 1);
        else
            ctr_n(k, nr, v, out, in, WIDE, 0);
        v = _mm_add_epi64(v, step);
        low = (low + WIDE) & 0xff;
    }
#define CTR_TAIL(n) ctr_n(k, nr, v, out, in, (n), 0)
    ENGINE_TAIL7(CTR_TAIL, m)
#undef CTR_TAIL
}

/*
 * Runs end where the low 64 bits of the counter wrap (at most once per
 * 2^64 blocks; never within a call that uses a 32- or 64-bit counter
 * correctly). Kept out of line so that aesni_ctr's short path below has no
 * stack frame.
 */
__attribute__((noinline)) ENGINE_FN void
aesni_ctr_long(const __m128i *k, unsigned nr, uint64_t *hi_, uint64_t *lo_,
               uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint64_t hi = *hi_, lo = *lo_;
    do {
        /* Up to the wrap of the low 64 bits (room 0: 2^64), then the rest. */
        uint64_t room = 0 - lo;
        size_t m =
            room != 0 && (uint64_t)nblocks > room ? (size_t)room : nblocks;
        ctr_run(k, nr, _mm_set_epi64x((long long)hi, (long long)lo), out, in,
                m);
        lo += m;
        hi += lo < m;
        in += 16 * m, out += 16 * m, nblocks -= m;
    } while (nblocks > 0);
    *hi_ = hi;
    *lo_ = lo;
}

/*
 * The counter block is read and written back as two 8-byte halves, the
 * protocol of internal.h (aesir_ctr_copy), so that the next call, or this
 * one after the caller's copy of the IV, gets it by store forwarding
 * instead of waiting for the stores to retire. Fewer than 8 blocks (a
 * 64-byte packet) run the tail kernel inline.
 */
ENGINE_FN void aesni_ctr(const void *rk, unsigned nr, uint8_t ctr[16],
                         uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *k = (const __m128i *)__builtin_assume_aligned(rk, 16);
    uint64_t hi, lo;

    memcpy(&hi, ctr, 8);
    memcpy(&lo, ctr + 8, 8);
    hi = __builtin_bswap64(hi); /* x86 is little-endian */
    lo = __builtin_bswap64(lo);
    if (nblocks < WIDE && (uint64_t)(nblocks - 1) <= UINT64_MAX - lo) {
        __m128i v = _mm_set_epi64x((long long)hi, (long long)lo);
#define CTR_TAIL(n) ctr_n(k, nr, v, out, in, (n), 0)
        ENGINE_TAIL7(CTR_TAIL, nblocks)
#undef CTR_TAIL
        lo += nblocks;
        hi += lo < nblocks;
    } else {
        aesni_ctr_long(k, nr, &hi, &lo, out, in, nblocks);
    }
    hi = __builtin_bswap64(hi);
    lo = __builtin_bswap64(lo);
    memcpy(ctr, &hi, 8);
    memcpy(ctr + 8, &lo, 8);
}

/* ---- CBC ---------------------------------------------------------------- */

/*
 * Encryption, like CFB128 encryption and OFB, is a chain: one block at
 * a time at nr AES latencies per block, with every XOR folded into the
 * last round's key (aes_x86_serial.h, shared with the VAES engines).
 */
#include "aes_x86_serial.h"

/*
 * Decryption: 8 blocks decrypt in parallel, then p_j = D(c_j) ^ c_(j-1).
 * The previous ciphertexts are re-read from in rather than held (8 lanes
 * take half the registers already), so with in == out the lanes are stored
 * last first: storing p_j overwrites c_j only after p_(j+1) has used it.
 * The next chaining value is read before anything is stored.
 */
ENGINE_INLINE void cbc_dec_n(const __m128i *k, unsigned nr, __m128i *chain,
                             uint8_t *out, const uint8_t *in, unsigned n)
{
    __m128i b[WIDE];
    __m128i prev = *chain;
    load_n(b, n, in);
    *chain = b[n - 1];
    whiten(b, n, k);
    dec_n(b, n, k, nr);
    LANES
    for (unsigned j = n; j-- > 1;)
        storeu(out + 16 * j, _mm_xor_si128(b[j], loadu(in + 16 * (j - 1))));
    storeu(out, _mm_xor_si128(b[0], prev));
}

ENGINE_FN void aesni_cbc_dec(const void *rk, unsigned nr, uint8_t iv[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *k = (const __m128i *)__builtin_assume_aligned(rk, 16);
    __m128i chain = loadu(iv);
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        cbc_dec_n(k, nr, &chain, out, in, WIDE);
#define CBC_TAIL(n) cbc_dec_n(k, nr, &chain, out, in, (n))
    ENGINE_TAIL7(CBC_TAIL, nblocks)
#undef CBC_TAIL
    storeu(iv, chain);
}

/* ---- CFB128 decryption -------------------------------------------------
 *
 * P_j = C_j ^ E(C_(j-1)): the cipher inputs are the ciphertext shifted
 * by one block (the chaining value first), so 8 encryptions run side by
 * side as in ECB. All inputs, and the next chaining value C_(n-1), are
 * loaded before the first store; then each store of P_j is preceded by
 * its own load of C_j, which no later lane needs, so in == out works.
 */
ENGINE_INLINE void cfb_dec_n(const __m128i *k, unsigned nr, __m128i *chain,
                             uint8_t *out, const uint8_t *in, unsigned n)
{
    __m128i b[WIDE];
    b[0] = *chain;
    LANES
    for (unsigned j = 1; j < n; j++)
        b[j] = loadu(in + 16 * (j - 1));
    *chain = loadu(in + 16 * (n - 1));
    whiten(b, n, k);
    enc_n(b, n, k, nr);
    LANES
    for (unsigned j = 0; j < n; j++)
        storeu(out + 16 * j, _mm_xor_si128(b[j], loadu(in + 16 * j)));
}

ENGINE_FN void aesni_cfb_dec(const void *rk, unsigned nr, uint8_t iv[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *k = (const __m128i *)__builtin_assume_aligned(rk, 16);
    __m128i chain = loadu(iv);
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        cfb_dec_n(k, nr, &chain, out, in, WIDE);
#define CFB_TAIL(n) cfb_dec_n(k, nr, &chain, out, in, (n))
    ENGINE_TAIL7(CFB_TAIL, nblocks)
#undef CFB_TAIL
    storeu(iv, chain);
}

/* ---- multi-buffer CBC encryption and CBC-MAC ---------------------------
 *
 * One CBC chain uses 1/6 of the AES units (see the file comment); 8
 * independent messages, one block of each per round, fill them. The lane
 * manager (lanes.h, shared with the VAES engines) keeps 8 slots, one
 * xmm each, their round keys in a stack table whose row r holds round
 * key r of every slot, so each AESENC takes its key as a memory operand;
 * here are its kernels: one per number of busy slots n (like the tails),
 * with the lanes in registers.
 *
 * 8 slots: 8 AESENC per round at 2 per cycle is 4 cycles, more than the
 * 3-cycle latency, so the loop is throughput-bound and the chaining XOR
 * (C ^ P ^ K0, P ^ K0 computed off the chain) costs no time; no folding
 * into the last key is needed here.
 *
 * The manager and its kernels reach 3920 bytes deep (stack_wipe.h), the
 * bound MB_ENTRY wipes.
 */
#define MB_SLOTS 8
#define MB_GROUP 1
#define MB_STACK 4224
#include "lanes.h"

#define MB_ROUND(op, r)                                                        \
    do {                                                                       \
        LANES                                                                  \
        for (unsigned j = 0; j < n; j++)                                       \
            b[j] = op(b[j], _mm_load_si128(kt + MB_SLOTS * (r) + j));          \
    } while (0)

/* steps blocks of slots 0..n-1; with mac (a constant) nothing is stored
 * but the chaining values. */
ENGINE_INLINE void mb_kernel(struct mb *m, unsigned n, unsigned nr,
                             size_t steps, const int mac)
{
    const __m128i *kt = opaque((const __m128i *)(const void *)m->kt);
    __m128i b[MB_SLOTS];

    LANES
    for (unsigned j = 0; j < n; j++)
        b[j] = _mm_load_si128((const __m128i *)(const void *)m->chain[j]);
    for (size_t off = 0; off < 16 * steps; off += 16) {
        LANES
        for (unsigned j = 0; j < n; j++)
            b[j] = _mm_xor_si128(b[j], _mm_xor_si128(loadu(m->in[j] + off),
                                                     _mm_load_si128(kt + j)));
        MB_ROUND(_mm_aesenc_si128, 1);
        MB_ROUND(_mm_aesenc_si128, 2);
        MB_ROUND(_mm_aesenc_si128, 3);
        MB_ROUND(_mm_aesenc_si128, 4);
        MB_ROUND(_mm_aesenc_si128, 5);
        MB_ROUND(_mm_aesenc_si128, 6);
        MB_ROUND(_mm_aesenc_si128, 7);
        MB_ROUND(_mm_aesenc_si128, 8);
        MB_ROUND(_mm_aesenc_si128, 9);
        if (nr > 10) {
            MB_ROUND(_mm_aesenc_si128, 10);
            MB_ROUND(_mm_aesenc_si128, 11);
            if (nr > 12) {
                MB_ROUND(_mm_aesenc_si128, 12);
                MB_ROUND(_mm_aesenc_si128, 13);
            }
        }
        MB_ROUND(_mm_aesenclast_si128, nr);
        if (!mac) {
            LANES
            for (unsigned j = 0; j < n; j++)
                storeu(m->out[j] + off, b[j]);
        }
    }
    LANES
    for (unsigned j = 0; j < n; j++)
        _mm_store_si128((__m128i *)(void *)m->chain[j], b[j]);
}

ENGINE_INLINE void mb_run(struct mb *m, unsigned n, unsigned nr, size_t steps,
                          const int mac)
{
#define MB_KERNEL(w) mb_kernel(m, (w), nr, steps, mac)
    if (n == MB_SLOTS)
        MB_KERNEL(MB_SLOTS);
    else
        ENGINE_TAIL7(MB_KERNEL, n)
#undef MB_KERNEL
}

/* The kernels, one set for each kind of chain (mb_run_fn; gcc inlines
 * each into the manager, its only caller). */
ENGINE_FN void aesni_mb_run_enc(struct mb *m, unsigned n, unsigned nr,
                                size_t steps)
{
    mb_run(m, n, nr, steps, 0);
}

ENGINE_FN void aesni_mb_run_mac(struct mb *m, unsigned n, unsigned nr,
                                size_t steps)
{
    mb_run(m, n, nr, steps, 1);
}

MB_ENTRY(enc, aesni_mb_run_enc, aesni_cbc_enc, 0)
MB_ENTRY(mac, aesni_mb_run_mac, aesni_cbc_mac, 1)

/* Fused GCM with ghash-clmul's key: aesni_gcm.c. OCB3: aesni_ocb.c. AEGIS:
 * aesni_aegis.c. */
#include "x86_gcm.h"
/* Fused CCM (CTR + CBC-MAC): aesni_ccm.c. */
#include "x86_ccm.h"
#include "ocb_kernels.h"
/* Fused XTS: aesni_xts.c, aesni_xts_avx.c. */
#include "x86_xts.h"
#include "x86_aegis.h"

/* GCM-SIV's CTR: aesni_gcmsiv.c. */
#include "x86_gcmsiv.h"

#define ENGINE_FIELDS(pair, genc, gdec, siv, oenc, odec)                       \
    .name = "aesni",                                                           \
    .description = "x86 AES-NI on SSE registers, 8 blocks in flight",          \
    .flags = ENGINE_CT | ENGINE_HW, .batch = WIDE,                             \
    .setkey_enc = aesni_setkey_enc, .setkey_dec = aesni_setkey_dec,            \
    .setkey_pair = pair, .encrypt = aesni_encrypt, .decrypt = aesni_decrypt,   \
    .ctr = aesni_ctr, .cbc_enc = aesni_cbc_enc, .cfb_enc = aesni_cfb_enc,      \
    .ofb = aesni_ofb, .cbc_dec = aesni_cbc_dec, .cfb_dec = aesni_cfb_dec,      \
    .cbc_enc_many = aesni_cbc_enc_many, .cbc_mac_many = aesni_cbc_mac_many,    \
    .gcm_enc = genc, .gcm_dec = gdec, .gcm_ghash = "ghash-clmul",              \
    .ctr32le = siv, .ocb_enc = oenc, .ocb_dec = odec,                          \
    .aes_round = aesir_aesni_aes_round, .aegis = aesir_aesni_aegis,            \
    .aegis_update = aesir_aesni_aegis_update

static const struct aesir_engine aesni_engine = {
    ENGINE_FIELDS(aesni_setkey_pair, aesir_aesni_gcm_enc, aesir_aesni_gcm_dec,
                  aesir_aesni_ctr32le, aesir_aesni_ocb_enc,
                  aesir_aesni_ocb_dec),
    .ccm_enc = aesir_aesni_ccm_enc, .ccm_dec = aesir_aesni_ccm_dec,
    .xts_enc = aesir_aesni_xts_enc, .xts_dec = aesir_aesni_xts_dec};
static const struct aesir_engine aesni_engine_avx = {
    ENGINE_FIELDS(aesni_setkey_pair_avx, aesir_aesni_gcm_enc_avx,
                  aesir_aesni_gcm_dec_avx, aesir_aesni_ctr32le_avx,
                  aesir_aesni_ocb_enc_avx, aesir_aesni_ocb_dec_avx),
    .ccm_enc = aesir_aesni_ccm_enc_avx, .ccm_dec = aesir_aesni_ccm_dec_avx,
    .xts_enc = aesir_aesni_xts_enc_avx, .xts_dec = aesir_aesni_xts_dec_avx};

const struct aesir_engine *aesir_engine_aesni(void)
{
    const uint32_t need = AESIR_CPU_AESNI | AESIR_CPU_SSSE3 | AESIR_CPU_SSE2;
    uint32_t have = aesir_cpu_features();
    if ((have & need) != need)
        return NULL;
    return (have & AESIR_CPU_AVX) ? &aesni_engine_avx : &aesni_engine;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_aesni(void)
{
    return NULL;
}

#endif
