/*
 * vaes_avx512.c -- the VAES-AVX512 engine: AES instructions on 512-bit
 * registers, four blocks per instruction.
 *
 * Technique. VAES (Ice Lake and later) widens aesenc, aesenclast, aesdec
 * and aesdeclast to ymm and zmm registers: one vaesenc zmm runs one round
 * on four independent blocks, each 128-bit lane with the same round key
 * (here broadcast from a 16-byte key with vbroadcasti32x4). On Sapphire
 * Rapids vaesenc zmm issues one per cycle with a latency of 3 cycles, so
 * at least 3 independent zmm vectors must be in flight to keep the unit
 * busy; the bulk loops keep U = 8 (32 blocks), enough to also cover the
 * loads, stores, counter arithmetic and loop overhead, which go to other
 * ports. This is the interleaving of Gueron's "Intel AES New
 * Instructions" white paper (8 blocks in parallel for aesenc xmm) and of
 * Drucker, Gueron and Krasnov, "Making AES great again: the forthcoming
 * vectorized AES instruction" (ITNG 2018), which sizes the parallelism
 * for VAES.
 *
 * Fused paths:
 *  - ECB encrypt/decrypt and CBC decryption: 8 zmm per iteration. CBC
 *    decryption needs C_{i-1} beside each block: the first vector of an
 *    iteration gets it from the previous iteration's last ciphertext block
 *    with one valignq, the others load it unaligned from in - 16. All
 *    loads of an iteration happen before its stores, so in == out works.
 *  - CFB128 decryption: the same kernel with the loads swapped (the
 *    cipher input is C_(i-1), the XOR into the last round key C_i).
 *  - CTR: the counter block, byte-reversed, is a little-endian 128-bit
 *    integer in each lane (low 64 bits in the lower qword); counters are
 *    made with vpaddq and swapped back with vpshufb. A call whose low 64
 *    bits would wrap is split at the wrap, so inside each part vpaddq on
 *    the low qword is exact; carries across 32 bits cost nothing and
 *    carries across 64 bits cost one split. The plaintext is folded into
 *    the last round key (aesenclast(x, k ^ p) = E(ctr) ^ p).
 *  - CBC encryption is serial; it runs on xmm with all round keys in
 *    registers at the aesenc latency bound: nr aesenc latencies per block.
 *    The XOR with the next plaintext block (and round key 0) is folded
 *    into aesenclast's key, so nothing but AES rounds is on the chain.
 *  - Multi-buffer CBC encryption (cbc_enc_many): up to 16 independent
 *    messages, 4 per zmm, each 128-bit lane with its own round keys, so
 *    that many chains together fill the AES unit (see the section below).
 * Tails. After the bulk loop, 1..31 blocks remain: they go in one more
 * pass of ceil(r / 4) zmm vectors (a version of the kernel for each count
 * 1..8), the last vector loaded and stored with a byte mask
 * (vmovdqu8 with k-mask, whose masked-off bytes never fault). A 64-byte
 * message is one vector, a 576-byte one a full pass and one vector. The
 * tail kernels also have their rounds unrolled (nr made a constant), so a
 * short message runs straight-line code.
 * See docs/engines/vaes.md for the measurements behind these choices.
 *
 * Round keys: nr + 1 keys of 16 bytes at rk + 16 r (FIPS-197 byte order,
 * as aesenc wants them); the decryption schedule is the equivalent inverse
 * cipher's (reversed, aesimc on rounds 1..nr-1). Expansion: aesni_keys.h.
 *
 * Constant time: yes. The AES instructions take data-independent time;
 * branches and addresses depend only on nr, the block count, the counter
 * and (multi-buffer) the message lengths and count (public); no table
 * look-ups. The multi-buffer path copies round keys into a stack table,
 * wiped before it returns.
 *
 * Batch: 32 blocks. Requires VAES, AVX512F, AVX512BW (byte masks),
 * AVX512VL and AES-NI (key expansion), and OS support for zmm state.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "aesni_keys.h"

#define TGT __attribute__((target("vaes,avx512f,avx512bw,avx512vl,aes")))
#define FN static TGT
#define INL static inline __attribute__((always_inline)) TGT

/*
 * An empty asm that keeps v in the register it is in. Without it gcc 12
 * gives each vector a new register every round and copies it back: one
 * vmovdqa64 per vector per round, twice the uops of the round loop. It is
 * applied to a scalar temporary, never to an array element: on x[i]
 * itself it keeps gcc from promoting the array to registers (a store and
 * a reload per vector per round).
 */
#define PIN(v) __asm__("" : "+v"(v))

/* Vectors per bulk iteration. */
#define U 8

typedef unsigned long long mask64;

INL __m128i key128(const uint8_t *rk, unsigned r)
{
    return _mm_load_si128((const __m128i *)(rk + 16 * (size_t)r));
}

INL __m512i key512(const uint8_t *rk, unsigned r)
{
    return _mm512_broadcast_i32x4(key128(rk, r));
}

/* Bytes of the first b blocks of a vector (b = 1..4). */
INL mask64 lane_mask(size_t b)
{
    return b >= 4 ? ~0ull : (1ull << (16 * b)) - 1;
}

INL __m512i load_v(const uint8_t *p, int masked, mask64 m)
{
    return masked ? _mm512_maskz_loadu_epi8(m, p) : _mm512_loadu_si512(p);
}

INL void store_v(uint8_t *p, __m512i v, int masked, mask64 m)
{
    if (masked)
        _mm512_mask_storeu_epi8(p, m, v);
    else
        _mm512_storeu_si512(p, v);
}

/* Rounds 1 .. nr-1 on n vectors (nr >= 10, hence the do-while). */
INL void rounds_n(const uint8_t *rk, unsigned nr, __m512i *x, unsigned n,
                  int dec)
{
    unsigned r = 1;
    do {
        __m512i k = key512(rk, r);
        for (unsigned i = 0; i < n; i++) {
            __m512i t = dec ? _mm512_aesdec_epi128(x[i], k)
                            : _mm512_aesenc_epi128(x[i], k);
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
INL void start_n(const uint8_t *rk, unsigned nr, __m512i *x, unsigned n,
                 int dec, int unroll)
{
    const __m512i k = key512(rk, 0);
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm512_xor_si512(x[i], k);
    if (!unroll)
        rounds_n(rk, nr, x, n, dec);
    else if (nr == 10)
        rounds_n(rk, 10, x, n, dec);
    else if (nr == 12)
        rounds_n(rk, 12, x, n, dec);
    else
        rounds_n(rk, 14, x, n, dec);
}

/* The tail: ceil(nblocks / 4) vectors, the last one masked to its
 * blocks, through kernel K(n, mask) for the constant n it needs. */
/* clang-format off */
#define TAIL_SWITCH(nblocks, K)                                            \
    do {                                                                   \
        mask64 m_ = lane_mask((nblocks) - 4 * (((nblocks) - 1) / 4));      \
        switch (((nblocks) + 3) / 4) {                                     \
        case 1: K(1, m_); break;                                           \
        case 2: K(2, m_); break;                                           \
        case 3: K(3, m_); break;                                           \
        case 4: K(4, m_); break;                                           \
        case 5: K(5, m_); break;                                           \
        case 6: K(6, m_); break;                                           \
        case 7: K(7, m_); break;                                           \
        case 8: K(8, m_); break;                                           \
        }                                                                  \
    } while (0)
/* clang-format on */

/* ---------------------------------------------------------------------
 * ECB
 * ------------------------------------------------------------------- */

/* n vectors from in to out; the last one masked to m when masked. */
INL void ecb_n(const uint8_t *rk, unsigned nr, uint8_t *out, const uint8_t *in,
               unsigned n, int masked, mask64 m, int dec)
{
    __m512i x[U], k;
    for (unsigned i = 0; i < n; i++)
        x[i] = load_v(in + 64 * i, masked && i == n - 1, m);
    start_n(rk, nr, x, n, dec, masked);
    k = key512(rk, nr);
    for (unsigned i = 0; i < n; i++)
        x[i] = dec ? _mm512_aesdeclast_epi128(x[i], k)
                   : _mm512_aesenclast_epi128(x[i], k);
    for (unsigned i = 0; i < n; i++)
        store_v(out + 64 * i, x[i], masked && i == n - 1, m);
}

INL void ecb(const void *rkv, unsigned nr, uint8_t *out, const uint8_t *in,
             size_t nblocks, int dec)
{
    const uint8_t *rk = rkv;
    for (; nblocks >= 4 * U; nblocks -= 4 * U) {
        ecb_n(rk, nr, out, in, U, 0, 0, dec);
        in += 64 * U;
        out += 64 * U;
    }
#define K(n, m) ecb_n(rk, nr, out, in, n, 1, m, dec)
    if (nblocks > 0)
        TAIL_SWITCH(nblocks, K);
#undef K
}

FN void encrypt(const void *rk, unsigned nr, uint8_t *out, const uint8_t *in,
                size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 0);
}

FN void decrypt(const void *rk, unsigned nr, uint8_t *out, const uint8_t *in,
                size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 1);
}

/* ---------------------------------------------------------------------
 * CTR
 * ------------------------------------------------------------------- */

/* Reverses the bytes of each 128-bit lane: big-endian counter block <->
 * little-endian 128-bit integer. */
#define BSWAP_LANES                                                            \
    _mm512_broadcast_i32x4(                                                    \
        _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))

/* n vectors of counters from *c (lanes: little-endian counters) onward. */
INL void ctr_n(const uint8_t *rk, unsigned nr, __m512i *c, uint8_t *out,
               const uint8_t *in, unsigned n, int masked, mask64 m)
{
    const __m512i bswap = BSWAP_LANES;
    const __m512i four = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
    __m512i x[U], k;
    for (unsigned i = 0; i < n; i++) {
        x[i] = _mm512_shuffle_epi8(*c, bswap);
        *c = _mm512_add_epi64(*c, four);
    }
    start_n(rk, nr, x, n, 0, masked);
    k = key512(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m512i p = load_v(in + 64 * i, masked && i == n - 1, m);
        x[i] = _mm512_aesenclast_epi128(x[i], _mm512_xor_si512(k, p));
    }
    for (unsigned i = 0; i < n; i++)
        store_v(out + 64 * i, x[i], masked && i == n - 1, m);
}

/* nblocks counters from the 128-bit counter hi:lo, whose low 64 bits do
 * not wrap on the way. */
INL void ctr_run(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo,
                 uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m512i c = _mm512_add_epi64(
        _mm512_broadcast_i32x4(_mm_set_epi64x((long long)hi, (long long)lo)),
        _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0));

    for (; nblocks >= 4 * U; nblocks -= 4 * U) {
        ctr_n(rk, nr, &c, out, in, U, 0, 0);
        in += 64 * U;
        out += 64 * U;
    }
#define K(n, m) ctr_n(rk, nr, &c, out, in, n, 1, m)
    if (nblocks > 0)
        TAIL_SWITCH(nblocks, K);
#undef K
}

/* Counters hi:lo .. hi:lo+nblocks-1 stay below the wrap of the low 64
 * bits (nblocks >= 1). */
INL int no_wrap(uint64_t lo, size_t nblocks)
{
    return (uint64_t)(nblocks - 1) <= UINT64_MAX - lo;
}

/* Any length; the call is split where the low 64 bits wrap. Kept out of
 * line so that ctr_crypt's one-vector path below has no stack frame and
 * loads none of the bulk loop's constants. */
__attribute__((noinline)) FN void ctr_long(const uint8_t *rk, unsigned nr,
                                           uint64_t *hi_, uint64_t *lo_,
                                           uint8_t *out, const uint8_t *in,
                                           size_t nblocks)
{
    uint64_t hi = *hi_, lo = *lo_;
    do {
        /* Up to the wrap of the low 64 bits (room 0: 2^64), then the rest. */
        uint64_t room = 0 - lo;
        size_t k =
            room != 0 && (uint64_t)nblocks > room ? (size_t)room : nblocks;
        ctr_run(rk, nr, hi, lo, out, in, k);
        lo += k;
        hi += lo < k;
        in += 16 * k;
        out += 16 * k;
        nblocks -= k;
    } while (nblocks > 0);
    *hi_ = hi;
    *lo_ = lo;
}

/*
 * The counter is read into hi:lo and written back with the same two 8-byte
 * accesses (the protocol of internal.h, aesir_ctr_copy), so that a call
 * that follows at once gets it by store forwarding. (Reading it back as
 * one 16-byte load after two 8-byte stores, or as two 8-byte loads after
 * one 16-byte store, stalls the next call until this one has finished:
 * 30% of the speed at 512 bytes.) Up to 4 blocks (a 64-byte packet) take
 * one masked vector inline: 1.5x faster at 64 bytes than through the
 * general path, whose set-up costs as much as the AES rounds there.
 */
FN void ctr_crypt(const void *rkv, unsigned nr, uint8_t ctr[16], uint8_t *out,
                  const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = rkv;
    uint64_t hi, lo;

    memcpy(&hi, ctr, 8);
    memcpy(&lo, ctr + 8, 8);
    hi = __builtin_bswap64(hi); /* x86 is little-endian */
    lo = __builtin_bswap64(lo);
    if (nblocks <= 4 && no_wrap(lo, nblocks)) {
        __m512i c = _mm512_add_epi64(
            _mm512_broadcast_i32x4(
                _mm_set_epi64x((long long)hi, (long long)lo)),
            _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0));
        ctr_n(rk, nr, &c, out, in, 1, 1, lane_mask(nblocks));
        lo += nblocks;
        hi += lo < nblocks;
    } else {
        ctr_long(rk, nr, &hi, &lo, out, in, nblocks);
    }
    hi = __builtin_bswap64(hi);
    lo = __builtin_bswap64(lo);
    memcpy(ctr, &hi, 8);
    memcpy(ctr + 8, &lo, 8);
}

/* ---------------------------------------------------------------------
 * CBC
 * ------------------------------------------------------------------- */

/*
 * n vectors of CBC decryption. *prev holds the ciphertext block before
 * in (in lane 3); on return, the last vector's ciphertext (when the last
 * vector is full). Every load precedes every store.
 */
INL void cbc_dec_n(const uint8_t *rk, unsigned nr, __m512i *prev, uint8_t *out,
                   const uint8_t *in, unsigned n, int masked, mask64 m)
{
    __m512i x[U], k;
    for (unsigned i = 0; i < n; i++)
        x[i] = load_v(in + 64 * i, masked && i == n - 1, m);
    start_n(rk, nr, x, n, 1, masked);
    k = key512(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m512i c;
        if (i == 0) /* [prev lane 3, C0, C1, C2] */
            c = _mm512_alignr_epi64(load_v(in, masked && n == 1, m), *prev, 6);
        else
            c = load_v(in + 64 * i - 16, masked && i == n - 1, m);
        x[i] = _mm512_aesdeclast_epi128(x[i], _mm512_xor_si512(k, c));
    }
    if (!masked)
        *prev = _mm512_loadu_si512(in + 64 * (n - 1));
    for (unsigned i = 0; i < n; i++)
        store_v(out + 64 * i, x[i], masked && i == n - 1, m);
}

FN void cbc_dec(const void *rkv, unsigned nr, uint8_t iv[16], uint8_t *out,
                const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = rkv;
    __m128i next_iv;
    __m512i prev;

    if (nblocks == 0)
        return;
    next_iv = _mm_loadu_si128((const __m128i *)(in + 16 * (nblocks - 1)));
    prev = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)iv));
    for (; nblocks >= 4 * U; nblocks -= 4 * U) {
        cbc_dec_n(rk, nr, &prev, out, in, U, 0, 0);
        in += 64 * U;
        out += 64 * U;
    }
#define K(n, m) cbc_dec_n(rk, nr, &prev, out, in, n, 1, m)
    if (nblocks > 0)
        TAIL_SWITCH(nblocks, K);
#undef K
    _mm_storeu_si128((__m128i *)iv, next_iv);
}

/* ---------------------------------------------------------------------
 * CFB128 decryption
 * ------------------------------------------------------------------- */

/*
 * n vectors of CFB128 decryption, P_j = C_j ^ E(C_(j-1)): CBC decryption
 * with the two loads swapped. Vector i encrypts C_(4i-1) .. C_(4i+2),
 * loaded unaligned from in + 64 i - 16 (the first vector: lane 3 of
 * *prev and C0..C2, by valignq), and C_j itself is folded into the last
 * round key. The masked last vector loads both with the same mask: its b
 * blocks need b cipher inputs. *prev gets the last vector's ciphertext
 * when it is whole. Every load precedes every store, so in == out works.
 */
INL void cfb_dec_n(const uint8_t *rk, unsigned nr, __m512i *prev, uint8_t *out,
                   const uint8_t *in, unsigned n, int masked, mask64 m)
{
    __m512i x[U], k;
    for (unsigned i = 0; i < n; i++) {
        if (i == 0) /* [prev lane 3, C0, C1, C2] */
            x[i] = _mm512_alignr_epi64(load_v(in, masked && n == 1, m), *prev,
                                       6);
        else
            x[i] = load_v(in + 64 * i - 16, masked && i == n - 1, m);
    }
    start_n(rk, nr, x, n, 0, masked);
    k = key512(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m512i c = load_v(in + 64 * i, masked && i == n - 1, m);
        x[i] = _mm512_aesenclast_epi128(x[i], _mm512_xor_si512(k, c));
    }
    if (!masked)
        *prev = _mm512_loadu_si512(in + 64 * (n - 1));
    for (unsigned i = 0; i < n; i++)
        store_v(out + 64 * i, x[i], masked && i == n - 1, m);
}

FN void cfb_dec(const void *rkv, unsigned nr, uint8_t iv[16], uint8_t *out,
                const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = rkv;
    __m128i next_iv;
    __m512i prev;

    if (nblocks == 0)
        return;
    next_iv = _mm_loadu_si128((const __m128i *)(in + 16 * (nblocks - 1)));
    prev = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)iv));
    for (; nblocks >= 4 * U; nblocks -= 4 * U) {
        cfb_dec_n(rk, nr, &prev, out, in, U, 0, 0);
        in += 64 * U;
        out += 64 * U;
    }
#define K(n, m) cfb_dec_n(rk, nr, &prev, out, in, n, 1, m)
    if (nblocks > 0)
        TAIL_SWITCH(nblocks, K);
#undef K
    _mm_storeu_si128((__m128i *)iv, next_iv);
}

/*
 * CBC encryption with nr known at compile time, so that all round keys
 * stay in registers. With m = P_{i+1} ^ k0, aesenclast(x, k_nr ^ m) =
 * C_i ^ m is already the next block's state after round 0; C_i = that ^ m
 * is computed beside the chain.
 */
INL void cbc_enc_nr(const uint8_t *rk, const unsigned nr, uint8_t iv[16],
                    uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m128i k[15], x, m;
    for (unsigned r = 0; r <= nr; r++)
        k[r] = key128(rk, r);
    x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)iv), k[0]);
    x = _mm_xor_si128(x, _mm_loadu_si128((const __m128i *)in));
    for (size_t i = 0; i + 1 < nblocks; i++) {
        for (unsigned r = 1; r < nr; r++)
            x = _mm_aesenc_si128(x, k[r]);
        m = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + 16 * (i + 1))),
                          k[0]);
        x = _mm_aesenclast_si128(x, _mm_xor_si128(k[nr], m));
        _mm_storeu_si128((__m128i *)(out + 16 * i), _mm_xor_si128(x, m));
    }
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, k[r]);
    x = _mm_aesenclast_si128(x, k[nr]);
    _mm_storeu_si128((__m128i *)(out + 16 * (nblocks - 1)), x);
    _mm_storeu_si128((__m128i *)iv, x);
}

FN void cbc_enc(const void *rk, unsigned nr, uint8_t iv[16], uint8_t *out,
                const uint8_t *in, size_t nblocks)
{
    if (nblocks == 0)
        return;
    if (nr == 10)
        cbc_enc_nr(rk, 10, iv, out, in, nblocks);
    else if (nr == 12)
        cbc_enc_nr(rk, 12, iv, out, in, nblocks);
    else
        cbc_enc_nr(rk, 14, iv, out, in, nblocks);
}

/* ---------------------------------------------------------------------
 * Multi-buffer CBC encryption
 *
 * One CBC chain keeps one vaesenc in flight where the unit takes one per
 * cycle at a latency of 3; 16 independent messages fill it: 4 zmm of 4
 * messages each, every 128-bit lane with its own round keys. The manager
 * (cbc_enc_many) gives each of 16 slots a message (lane) and copies the
 * lane's round keys into column j of a stack table, so that row r holds
 * round key r of 16 slots and a 64-byte load is the key operand of one
 * vaesenc for 4 slots:
 *
 *   kt[r]:  | K_r slot 0 | K_r slot 1 | ... | K_r slot 15 |   (r = 0..nr)
 *           '---- zmm of vector 0 ----'     '- vector 3 -'
 *
 * A kernel call runs the busy slots in lock step for as many blocks as the
 * shortest has left; then finished slots take the next waiting lane, or
 * the last busy slot moves into the hole (busy slots stay 0..n-1, in
 * ceil(n/4) vectors; the rest of the last vector are dummies that read
 * slot 0's input and store nothing). The last lane alone goes to cbc_enc.
 *
 * Data moves 4 blocks at a time: each slot's 4 blocks are one 64-byte
 * load, and a 4 x 4 transpose of 128-bit blocks (8 vshufi64x2) turns the
 * 4 loads of a vector into its 4 steps; the ciphertexts go back the same
 * way. Gathering block by block (vinserti32x4 / vextracti32x4) was 3x
 * slower with 16 messages 4 KiB apart (4.7 instead of 14 GB/s): 32
 * streams at the same offset in their pages share one L1 set (12 ways),
 * so a line touched 4 times 40 cycles apart was refetched every time.
 *
 * The chaining XOR is one vpternlogd (C ^ P ^ K0). With 16 slots the
 * loop is throughput-bound (40 vaesenc per 16 blocks, 31 cycles of
 * chain); with 8, latency-bound at 31 cycles per 8 blocks.
 */

#define MB_SLOTS 16

struct mb {
    _Alignas(64) uint8_t kt[15][MB_SLOTS][16]; /* kt[r][j]: K_r of slot j */
    _Alignas(64) uint8_t chain[MB_SLOTS][16];  /* IV or last ciphertext */
    const uint8_t *in[MB_SLOTS];
    uint8_t *out[MB_SLOTS];
    size_t left[MB_SLOTS];
    struct aesir_cbc_lane *lane[MB_SLOTS];
};

/* Hides where the key table is, once per step, so the compilers keep
 * round keys as memory operands of vaesenc instead of hoisting them into
 * registers (44 keys do not fit) and spilling them to the stack (clang
 * did: 12.8 instead of 13.8 GB/s). */
INL const uint8_t *mb_opaque(const uint8_t *p)
{
    __asm__("" : "+r"(p));
    return p;
}

INL __m128i mb_ld(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

INL void mb_st(uint8_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* Rounds 1..nr of the nv vectors x, slot keys from the table. */
INL void mb_rounds(const uint8_t *kt, __m512i *x, unsigned nv, unsigned nr)
{
    for (unsigned r = 1; r < nr; r++)
        for (unsigned v = 0; v < nv; v++) {
            __m512i t = _mm512_aesenc_epi128(
                x[v], _mm512_load_si512(kt + 256 * r + 64 * v));
            PIN(t);
            x[v] = t;
        }
    for (unsigned v = 0; v < nv; v++)
        x[v] = _mm512_aesenclast_epi128(
            x[v], _mm512_load_si512(kt + 256 * nr + 64 * v));
}

/* 4 x 4 transpose of 128-bit blocks: block s of *ai <-> block i of *as. */
INL void mb_transpose(__m512i *a0, __m512i *a1, __m512i *a2, __m512i *a3)
{
    __m512i t0 = _mm512_shuffle_i64x2(*a0, *a1, 0x44);
    __m512i t1 = _mm512_shuffle_i64x2(*a0, *a1, 0xee);
    __m512i t2 = _mm512_shuffle_i64x2(*a2, *a3, 0x44);
    __m512i t3 = _mm512_shuffle_i64x2(*a2, *a3, 0xee);
    *a0 = _mm512_shuffle_i64x2(t0, t2, 0x88);
    *a1 = _mm512_shuffle_i64x2(t0, t2, 0xdd);
    *a2 = _mm512_shuffle_i64x2(t1, t3, 0x88);
    *a3 = _mm512_shuffle_i64x2(t1, t3, 0xdd);
}

/*
 * groups x 4 blocks of slots 0..n-1, in nv vectors of 4 slots (slots n..
 * of the last vector are dummies: they read slot 0's input and store
 * nothing). Each slot's 4 blocks are one 64-byte load and one 64-byte
 * store, transposed so that vector v at step s holds block s of its 4
 * slots.
 */
INL void mb_kernel4(struct mb *m, unsigned nv, unsigned n, const unsigned nr,
                    size_t groups)
{
    const uint8_t *kt = &m->kt[0][0][0];
    /* ds[v]: block s of the 4 slots of vector v (one array per step, so
     * that every index is a loop variable the compilers unroll) */
    __m512i x[4], d0[4], d1[4], d2[4], d3[4];

    for (unsigned v = 0; v < nv; v++)
        x[v] = _mm512_load_si512(m->chain[4 * v]);
    for (size_t off = 0; off < 64 * groups; off += 64) {
        kt = mb_opaque(kt);
        for (unsigned v = 0; v < nv; v++) {
            d0[v] = _mm512_loadu_si512(m->in[4 * v] + off);
            d1[v] = _mm512_loadu_si512(m->in[4 * v + 1] + off);
            d2[v] = _mm512_loadu_si512(m->in[4 * v + 2] + off);
            d3[v] = _mm512_loadu_si512(m->in[4 * v + 3] + off);
            mb_transpose(&d0[v], &d1[v], &d2[v], &d3[v]);
        }
        /* one CBC step: x = E(x ^ P ^ K0), and d = x, the ciphertext */
#define MB_STEP(d)                                                             \
    do {                                                                       \
        kt = mb_opaque(kt);                                                    \
        for (unsigned v = 0; v < nv; v++)                                      \
            x[v] = _mm512_ternarylogic_epi32(                                  \
                d[v], x[v], _mm512_load_si512(kt + 64 * v), 0x96);             \
        mb_rounds(kt, x, nv, nr);                                              \
        for (unsigned v = 0; v < nv; v++)                                      \
            d[v] = x[v];                                                       \
    } while (0)
        MB_STEP(d0);
        MB_STEP(d1);
        MB_STEP(d2);
        MB_STEP(d3);
#undef MB_STEP
        for (unsigned v = 0; v < nv; v++) {
            mb_transpose(&d0[v], &d1[v], &d2[v], &d3[v]);
            _mm512_storeu_si512(m->out[4 * v] + off, d0[v]);
            if (4 * v + 1 < n)
                _mm512_storeu_si512(m->out[4 * v + 1] + off, d1[v]);
            if (4 * v + 2 < n)
                _mm512_storeu_si512(m->out[4 * v + 2] + off, d2[v]);
            if (4 * v + 3 < n)
                _mm512_storeu_si512(m->out[4 * v + 3] + off, d3[v]);
        }
    }
    for (unsigned v = 0; v < nv; v++)
        _mm512_store_si512(m->chain[4 * v], x[v]);
}

/* steps (< 4) single blocks, gathered and scattered slot by slot. */
INL void mb_kernel1(struct mb *m, unsigned nv, unsigned n, unsigned nr,
                    size_t off0, size_t steps)
{
    const uint8_t *kt = &m->kt[0][0][0];
    __m512i x[4];

    for (unsigned v = 0; v < nv; v++)
        x[v] = _mm512_load_si512(m->chain[4 * v]);
    for (size_t off = off0; off < off0 + 16 * steps; off += 16) {
        kt = mb_opaque(kt);
        for (unsigned v = 0; v < nv; v++) {
            __m512i p = _mm512_castsi128_si512(mb_ld(m->in[4 * v] + off));
            p = _mm512_inserti32x4(p, mb_ld(m->in[4 * v + 1] + off), 1);
            p = _mm512_inserti32x4(p, mb_ld(m->in[4 * v + 2] + off), 2);
            p = _mm512_inserti32x4(p, mb_ld(m->in[4 * v + 3] + off), 3);
            x[v] = _mm512_ternarylogic_epi32(
                x[v], p, _mm512_load_si512(kt + 64 * v), 0x96);
        }
        mb_rounds(kt, x, nv, nr);
        for (unsigned v = 0; v < nv; v++) {
            mb_st(m->out[4 * v] + off, _mm512_castsi512_si128(x[v]));
            if (4 * v + 1 < n)
                mb_st(m->out[4 * v + 1] + off,
                      _mm512_extracti32x4_epi32(x[v], 1));
            if (4 * v + 2 < n)
                mb_st(m->out[4 * v + 2] + off,
                      _mm512_extracti32x4_epi32(x[v], 2));
            if (4 * v + 3 < n)
                mb_st(m->out[4 * v + 3] + off,
                      _mm512_extracti32x4_epi32(x[v], 3));
        }
    }
    for (unsigned v = 0; v < nv; v++)
        _mm512_store_si512(m->chain[4 * v], x[v]);
}

/* The kernels for nv vectors; nr a constant in the bulk kernel, so its
 * rounds unroll. */
INL void mb_kernels(struct mb *m, unsigned nv, unsigned n, unsigned nr,
                    size_t steps)
{
    if (steps >= 4) {
        if (nr == 10)
            mb_kernel4(m, nv, n, 10, steps / 4);
        else if (nr == 12)
            mb_kernel4(m, nv, n, 12, steps / 4);
        else
            mb_kernel4(m, nv, n, 14, steps / 4);
    }
    if (steps % 4 != 0)
        mb_kernel1(m, nv, n, nr, 16 * (steps & ~(size_t)3), steps % 4);
}

FN void mb_run(struct mb *m, unsigned n, unsigned nr, size_t steps)
{
    unsigned nv = (n + 3) / 4;
    for (unsigned j = n; j < 4 * nv; j++)
        m->in[j] = m->in[0];
    switch (nv) {
    case 1:
        mb_kernels(m, 1, n, nr, steps);
        break;
    case 2:
        mb_kernels(m, 2, n, nr, steps);
        break;
    case 3:
        mb_kernels(m, 3, n, nr, steps);
        break;
    default:
        mb_kernels(m, 4, n, nr, steps);
        break;
    }
    for (unsigned j = 0; j < n; j++) {
        m->in[j] += 16 * steps;
        m->out[j] += 16 * steps;
        m->left[j] -= steps;
    }
}

/* Slot j takes lane l: its round keys into column j of the table. */
INL void mb_assign(struct mb *m, unsigned j, struct aesir_cbc_lane *l,
                   unsigned nr)
{
    /* 11 keys in a loop the compiler unrolls, then 0, 2 or 4: a loop
     * over all nr + 1 cost more than the AES work of a one-block
     * message */
    for (unsigned r = 0; r <= 10; r++)
        _mm_store_si128((__m128i *)(void *)m->kt[r][j], key128(l->rk, r));
    for (unsigned r = 11; r <= nr; r++)
        _mm_store_si128((__m128i *)(void *)m->kt[r][j], key128(l->rk, r));
    memcpy(m->chain[j], l->iv, 16);
    m->in[j] = l->in;
    m->out[j] = l->out;
    m->left[j] = l->nblocks;
    m->lane[j] = l;
}

static struct aesir_cbc_lane *mb_next(struct aesir_cbc_lane *lanes,
                                      size_t nlanes, size_t *next)
{
    while (*next < nlanes) {
        struct aesir_cbc_lane *l = &lanes[(*next)++];
        if (l->nblocks != 0)
            return l;
    }
    return NULL;
}

FN void cbc_enc_many(unsigned nr, struct aesir_cbc_lane *lanes, size_t nlanes)
{
    struct mb m;
    struct aesir_cbc_lane *l;
    size_t next = 0, busy = 0;
    unsigned n = 0;

    for (size_t i = 0; i < nlanes && busy < 2; i++)
        busy += lanes[i].nblocks != 0;
    if (busy < 2) {
        for (size_t i = 0; i < nlanes; i++)
            cbc_enc(lanes[i].rk, nr, lanes[i].iv, lanes[i].out, lanes[i].in,
                    lanes[i].nblocks);
        return;
    }
    while (n < MB_SLOTS && (l = mb_next(lanes, nlanes, &next)) != NULL)
        mb_assign(&m, n++, l, nr);
    /* The dummy slots of the last vector (results never stored) read
     * columns no lane took: zeroed, so nothing reads uninitialised
     * memory. Columns freed later keep their old keys. */
    for (unsigned j = n; j % 4 != 0; j++) {
        for (unsigned r = 0; r <= nr; r++)
            _mm_store_si128((__m128i *)(void *)m.kt[r][j], _mm_setzero_si128());
        memset(m.chain[j], 0, 16);
    }
    while (n > 1) {
        size_t steps = m.left[0];
        for (unsigned j = 1; j < n; j++)
            steps = m.left[j] < steps ? m.left[j] : steps;
        mb_run(&m, n, nr, steps);
        for (unsigned j = 0; j < n;) {
            if (m.left[j] != 0) {
                j++;
                continue;
            }
            memcpy(m.lane[j]->iv, m.chain[j], 16);
            if ((l = mb_next(lanes, nlanes, &next)) != NULL) {
                mb_assign(&m, j, l, nr);
                continue;
            }
            if (j != --n) {
                mb_assign(&m, j, m.lane[n], nr);
                memcpy(m.chain[j], m.chain[n], 16);
                m.in[j] = m.in[n];
                m.out[j] = m.out[n];
                m.left[j] = m.left[n];
            }
        }
    }
    if (n == 1) {
        l = m.lane[0];
        memcpy(l->iv, m.chain[0], 16);
        cbc_enc(l->rk, nr, l->iv, m.out[0], m.in[0], m.left[0]);
    }
    aesir_wipe(m.kt, sizeof(m.kt[0]) * (nr + 1));
}

/* ---------------------------------------------------------------------
 * Key setup
 * ------------------------------------------------------------------- */

FN void setkey_enc(void *rk, const uint8_t *key, size_t key_len)
{
    (void)ak_expand(rk, 16, key, key_len);
}

FN void setkey_dec(void *rk, const uint8_t *key, size_t key_len)
{
    ak_invert(rk, 16, ak_expand(rk, 16, key, key_len));
}

static const struct aesir_engine engine = {
    .name = "vaes-avx512",
    .description = "VAES on zmm: 4 blocks per instruction, 32 in flight, "
                   "masked tails",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = 4 * U,
    .setkey_enc = setkey_enc,
    .setkey_dec = setkey_dec,
    .encrypt = encrypt,
    .decrypt = decrypt,
    .ctr = ctr_crypt,
    .cbc_enc = cbc_enc,
    .cbc_dec = cbc_dec,
    .cfb_dec = cfb_dec,
    .cbc_enc_many = cbc_enc_many,
};

const struct aesir_engine *aesir_engine_vaes_avx512(void)
{
    const uint32_t need = AESIR_CPU_AESNI | AESIR_CPU_VAES | AESIR_CPU_AVX512F |
                          AESIR_CPU_AVX512BW | AESIR_CPU_AVX512VL;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_vaes_avx512(void)
{
    return NULL;
}

#endif
