/*
 * vaes_avx2.c -- the VAES-AVX2 engine: AES instructions on 256-bit
 * registers, two blocks per instruction.
 *
 * Technique. VAES (Ice Lake, Zen 3 and later) widens aesenc, aesenclast,
 * aesdec and aesdeclast to ymm registers: one vaesenc ymm runs one round
 * on two independent blocks, each 128-bit lane with the same round key
 * (broadcast from a 16-byte key with vbroadcasti128). On Sapphire Rapids
 * vaesenc ymm issues two per cycle with a latency of 3 cycles, so at
 * least 6 independent ymm vectors must be in flight; the bulk loops keep
 * U = 8 (16 blocks), which with a round key and the counter constants
 * fits the 16 ymm registers. The same rate as 512-bit VAES on this core
 * (4 block-rounds per cycle), without AVX-512. Interleaving after
 * Gueron's "Intel AES New Instructions" white paper and Drucker, Gueron
 * and Krasnov, "Making AES great again: the forthcoming vectorized AES
 * instruction" (ITNG 2018).
 *
 * Fused paths:
 *  - ECB encrypt/decrypt and CBC decryption: 8 ymm per iteration. CBC
 *    decryption takes the chaining block of the first vector of an
 *    iteration from the previous iteration's last ciphertext with one
 *    vperm2i128; the others load it unaligned from in - 16. All loads of
 *    an iteration happen before its stores, so in == out works.
 *  - CFB128 decryption: the same kernel with the loads swapped (the
 *    cipher input is C_(i-1), the XOR into the last round key C_i).
 *  - CTR: the counter block, byte-reversed, is a little-endian 128-bit
 *    integer per lane (low 64 bits in the lower qword); counters are made
 *    with vpaddq and swapped back with vpshufb. A call whose low 64 bits
 *    would wrap is split at the wrap, so inside each part vpaddq on the
 *    low qword is exact (carries across 32 bits are free, across 64 bits
 *    they cost one split). While the counter's last byte does not wrap
 *    within an iteration, the vectors are made from one byte-swapped
 *    block by vpaddq on that byte (one vpshufb per iteration instead of
 *    one per vector). The plaintext is folded into the last round key:
 *    aesenclast(x, k ^ p) = E(ctr) ^ p.
 *  - CBC encryption is serial; it runs on xmm with the round keys in
 *    registers at the aesenc latency bound, the XOR with the next
 *    plaintext folded into aesenclast's key.
 *  - Multi-buffer CBC encryption (cbc_enc_many): up to 16 independent
 *    messages, 2 per ymm, each lane with its own round keys, so that
 *    many chains together fill the AES units (see the section below).
 * Tails. After the bulk loop, 1..15 blocks remain; they go in one more
 * pass of ceil(r / 2) vectors (a version of the kernel for each count
 * 1..8), the last of which, for an odd r, is loaded and stored as an xmm
 * (its upper lane computes garbage that is never stored). A 64-byte
 * message is two ymm vectors in flight, not four single blocks. The tail
 * kernels also have their rounds unrolled (nr made a constant), so a
 * short message runs straight-line code.
 * See docs/engines/vaes.md for the measurements behind these choices.
 *
 * Round keys: nr + 1 keys of 16 bytes at rk + 16 r (FIPS-197 byte order);
 * the decryption schedule is the equivalent inverse cipher's (reversed,
 * aesimc on rounds 1..nr-1). Expansion: aesni_keys.h.
 *
 * Constant time: yes. The AES instructions take data-independent time;
 * branches and addresses depend only on nr, the block count, the counter
 * and (multi-buffer) the message lengths and count (public); no table
 * look-ups. The multi-buffer path copies round keys into a stack table,
 * wiped before it returns.
 *
 * Batch: 16 blocks. Requires VAES, AVX2 and AES-NI (key expansion, the
 * xmm paths), and OS support for ymm state.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "aesni_keys.h"

#define TGT __attribute__((target("vaes,avx2,aes")))
#define FN static TGT
#define INL static inline __attribute__((always_inline)) TGT

/*
 * An empty asm that keeps v in the register it is in. Without it gcc 12
 * gives each vector a new register every round and copies it back: one
 * vmovdqa per vector per round, which at two vaesenc ymm per cycle takes
 * rename bandwidth (CTR at 16 KiB: 17.1 GB/s without, 18.4 with). It is
 * applied to a scalar temporary, never to an array element: on x[i]
 * itself it keeps gcc from promoting the array to registers (a store and
 * a reload per vector per round).
 */
#define PIN(v) __asm__("" : "+v"(v))

/* Vectors per bulk iteration. */
#define U 8

INL __m128i key128(const uint8_t *rk, unsigned r)
{
    return _mm_load_si128((const __m128i *)(rk + 16 * (size_t)r));
}

INL __m256i key256(const uint8_t *rk, unsigned r)
{
    return _mm256_broadcastsi128_si256(key128(rk, r));
}

/* A vector of two blocks, or of one (half: the upper lane is garbage
 * that is never stored). */
INL __m256i load_v(const uint8_t *p, int half)
{
    return half ? _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p))
                : _mm256_loadu_si256((const __m256i *)p);
}

INL void store_v(uint8_t *p, __m256i v, int half)
{
    if (half)
        _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(v));
    else
        _mm256_storeu_si256((__m256i *)p, v);
}

/* Rounds 1 .. nr-1 on n vectors (nr >= 10, hence the do-while). */
INL void rounds_n(const uint8_t *rk, unsigned nr, __m256i *x, unsigned n,
                  int dec)
{
    unsigned r = 1;
    do {
        __m256i k = key256(rk, r);
        for (unsigned i = 0; i < n; i++) {
            __m256i t = dec ? _mm256_aesdec_epi128(x[i], k)
                            : _mm256_aesenc_epi128(x[i], k);
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
INL void start_n(const uint8_t *rk, unsigned nr, __m256i *x, unsigned n,
                 int dec, int unroll)
{
    const __m256i k = key256(rk, 0);
    for (unsigned i = 0; i < n; i++)
        x[i] = _mm256_xor_si256(x[i], k);
    if (!unroll)
        rounds_n(rk, nr, x, n, dec);
    else if (nr == 10)
        rounds_n(rk, 10, x, n, dec);
    else if (nr == 12)
        rounds_n(rk, 12, x, n, dec);
    else
        rounds_n(rk, 14, x, n, dec);
}

/* The tail: ceil(nblocks / 2) vectors, the last one half when nblocks is
 * odd, through kernel K(n, half) for the constant n it needs. */
/* clang-format off */
#define TAIL_SWITCH(nblocks, K)                                            \
    do {                                                                   \
        int half_ = (int)((nblocks) & 1);                                  \
        switch (((nblocks) + 1) / 2) {                                     \
        case 1: K(1, half_); break;                                        \
        case 2: K(2, half_); break;                                        \
        case 3: K(3, half_); break;                                        \
        case 4: K(4, half_); break;                                        \
        case 5: K(5, half_); break;                                        \
        case 6: K(6, half_); break;                                        \
        case 7: K(7, half_); break;                                        \
        case 8: K(8, half_); break;                                        \
        }                                                                  \
    } while (0)
/* clang-format on */

/* ---------------------------------------------------------------------
 * ECB
 * ------------------------------------------------------------------- */

INL void ecb_n(const uint8_t *rk, unsigned nr, uint8_t *out, const uint8_t *in,
               unsigned n, int tail, int half, int dec)
{
    __m256i x[U], k;
    for (unsigned i = 0; i < n; i++)
        x[i] = load_v(in + 32 * i, half && i == n - 1);
    start_n(rk, nr, x, n, dec, tail);
    k = key256(rk, nr);
    for (unsigned i = 0; i < n; i++)
        x[i] = dec ? _mm256_aesdeclast_epi128(x[i], k)
                   : _mm256_aesenclast_epi128(x[i], k);
    for (unsigned i = 0; i < n; i++)
        store_v(out + 32 * i, x[i], half && i == n - 1);
}

INL void ecb(const void *rkv, unsigned nr, uint8_t *out, const uint8_t *in,
             size_t nblocks, int dec)
{
    const uint8_t *rk = rkv;
    for (; nblocks >= 2 * U; nblocks -= 2 * U) {
        ecb_n(rk, nr, out, in, U, 0, 0, dec);
        in += 32 * U;
        out += 32 * U;
    }
#define K(n, half) ecb_n(rk, nr, out, in, n, 1, half, dec)
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

#define BSWAP128                                                               \
    _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/*
 * n vectors of counters from *c (lanes: little-endian counters) onward.
 * With be, the caller has checked that the counter's last byte does not
 * wrap within these 2n blocks: then block j's counter block is the first
 * one with j added to its last byte, which is the top byte of the upper
 * qword, so one vpaddq makes each vector from the byte-swapped first one
 * (one vpshufb per call instead of one per vector: the shuffles compete
 * with vaesenc ymm for ports 0 and 1).
 */
INL void ctr_n(const uint8_t *rk, unsigned nr, __m256i *c, uint8_t *out,
               const uint8_t *in, unsigned n, int tail, int half, int be)
{
    const __m256i bswap = _mm256_broadcastsi128_si256(BSWAP128);
    const __m256i two = _mm256_set_epi64x(0, 2, 0, 2);
    __m256i x[U], k;
    if (be) {
        const __m256i c0 = _mm256_shuffle_epi8(*c, bswap);
        for (unsigned i = 0; i < n; i++)
            x[i] = _mm256_add_epi64(
                c0, _mm256_set_epi64x((long long)(2 * i) << 56, 0,
                                      (long long)(2 * i) << 56, 0));
        *c = _mm256_add_epi64(*c, _mm256_set_epi64x(0, 2 * n, 0, 2 * n));
    } else {
        for (unsigned i = 0; i < n; i++) {
            x[i] = _mm256_shuffle_epi8(*c, bswap);
            *c = _mm256_add_epi64(*c, two);
        }
    }
    start_n(rk, nr, x, n, 0, tail);
    k = key256(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m256i p = load_v(in + 32 * i, half && i == n - 1);
        x[i] = _mm256_aesenclast_epi128(x[i], _mm256_xor_si256(k, p));
    }
    for (unsigned i = 0; i < n; i++)
        store_v(out + 32 * i, x[i], half && i == n - 1);
}

/* nblocks counters from the 128-bit counter hi:lo, whose low 64 bits do
 * not wrap on the way. */
INL void ctr_run(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo,
                 uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m256i c = _mm256_add_epi64(_mm256_broadcastsi128_si256(_mm_set_epi64x(
                                     (long long)hi, (long long)lo)),
                                 _mm256_set_epi64x(0, 1, 0, 0));

    for (; nblocks >= 2 * U; nblocks -= 2 * U) {
        /* The last byte of the first counter; 2U - 1 more must fit. */
        if ((lo & 0xff) <= 256 - 2 * U)
            ctr_n(rk, nr, &c, out, in, U, 0, 0, 1);
        else
            ctr_n(rk, nr, &c, out, in, U, 0, 0, 0);
        lo += 2 * U;
        in += 32 * U;
        out += 32 * U;
    }
#define K(n, half) ctr_n(rk, nr, &c, out, in, n, 1, half, 0)
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
 * line so that ctr_crypt's short path below has no stack frame and loads
 * none of the bulk loop's constants. */
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
 * two vectors inline, without the general path's set-up.
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
        __m256i c = _mm256_add_epi64(
            _mm256_broadcastsi128_si256(
                _mm_set_epi64x((long long)hi, (long long)lo)),
            _mm256_set_epi64x(0, 1, 0, 0));
        if (nblocks <= 2)
            ctr_n(rk, nr, &c, out, in, 1, 1, (int)(nblocks & 1), 0);
        else
            ctr_n(rk, nr, &c, out, in, 2, 1, (int)(nblocks & 1), 0);
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
 * in (in the upper lane); on return, the last vector's ciphertext (when
 * it is whole). Every load precedes every store.
 */
INL void cbc_dec_n(const uint8_t *rk, unsigned nr, __m256i *prev, uint8_t *out,
                   const uint8_t *in, unsigned n, int tail, int half)
{
    __m256i x[U], k;
    for (unsigned i = 0; i < n; i++)
        x[i] = load_v(in + 32 * i, half && i == n - 1);
    start_n(rk, nr, x, n, 1, tail);
    k = key256(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m256i c;
        if (i == 0) /* [prev upper lane, C0] */
            c = _mm256_permute2x128_si256(*prev, load_v(in, half && n == 1),
                                          0x21);
        else
            c = load_v(in + 32 * i - 16, half && i == n - 1);
        x[i] = _mm256_aesdeclast_epi128(x[i], _mm256_xor_si256(k, c));
    }
    if (!half)
        *prev = _mm256_loadu_si256((const __m256i *)(in + 32 * (n - 1)));
    for (unsigned i = 0; i < n; i++)
        store_v(out + 32 * i, x[i], half && i == n - 1);
}

FN void cbc_dec(const void *rkv, unsigned nr, uint8_t iv[16], uint8_t *out,
                const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = rkv;
    __m128i next_iv;
    __m256i prev;

    if (nblocks == 0)
        return;
    next_iv = _mm_loadu_si128((const __m128i *)(in + 16 * (nblocks - 1)));
    prev = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)iv));
    for (; nblocks >= 2 * U; nblocks -= 2 * U) {
        cbc_dec_n(rk, nr, &prev, out, in, U, 0, 0);
        in += 32 * U;
        out += 32 * U;
    }
#define K(n, half) cbc_dec_n(rk, nr, &prev, out, in, n, 1, half)
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
 * with the two loads swapped. Vector i encrypts [C_(2i-1), C_2i], loaded
 * unaligned from in + 32 i - 16 (the first vector: the upper lane of
 * *prev and C0, by vperm2i128), and C_j itself is folded into the last
 * round key. *prev gets the last vector's ciphertext when it is whole.
 * Every load precedes every store, so in == out works.
 */
INL void cfb_dec_n(const uint8_t *rk, unsigned nr, __m256i *prev, uint8_t *out,
                   const uint8_t *in, unsigned n, int tail, int half)
{
    __m256i x[U], k;
    for (unsigned i = 0; i < n; i++) {
        if (i == 0) /* [prev upper lane, C0] */
            x[i] = _mm256_permute2x128_si256(*prev, load_v(in, half && n == 1),
                                             0x21);
        else
            x[i] = load_v(in + 32 * i - 16, half && i == n - 1);
    }
    start_n(rk, nr, x, n, 0, tail);
    k = key256(rk, nr);
    for (unsigned i = 0; i < n; i++) {
        __m256i c = load_v(in + 32 * i, half && i == n - 1);
        x[i] = _mm256_aesenclast_epi128(x[i], _mm256_xor_si256(k, c));
    }
    if (!half)
        *prev = _mm256_loadu_si256((const __m256i *)(in + 32 * (n - 1)));
    for (unsigned i = 0; i < n; i++)
        store_v(out + 32 * i, x[i], half && i == n - 1);
}

FN void cfb_dec(const void *rkv, unsigned nr, uint8_t iv[16], uint8_t *out,
                const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = rkv;
    __m128i next_iv;
    __m256i prev;

    if (nblocks == 0)
        return;
    next_iv = _mm_loadu_si128((const __m128i *)(in + 16 * (nblocks - 1)));
    prev = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)iv));
    for (; nblocks >= 2 * U; nblocks -= 2 * U) {
        cfb_dec_n(rk, nr, &prev, out, in, U, 0, 0);
        in += 32 * U;
        out += 32 * U;
    }
#define K(n, half) cfb_dec_n(rk, nr, &prev, out, in, n, 1, half)
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
 * As in vaes_avx512.c (the manager, the key table kt[r][slot], dummy
 * slots), with 16 slots in 8 ymm vectors of 2: 8 vaesenc ymm per round
 * at 2 per cycle is 4 cycles, above the 3-cycle latency, so 16 messages
 * can keep the AES units busy. Each slot's 4 blocks are two 32-byte
 * loads and stores, regrouped by vperm2i128 (block by block, 16 messages
 * 4 KiB apart ran 3x slower: see vaes_avx512.c). 16 ymm registers hold
 * the 8 chains and a few temporaries; the regrouped blocks live on the
 * stack, which costs loads and stores, not AES issue slots.
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

/* Hides where the key table is, once per step: the keys stay memory
 * operands of vaesenc (88 do not fit in 16 registers). */
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

INL __m256i mb_key(const uint8_t *kt, unsigned r, unsigned v)
{
    return _mm256_load_si256(
        (const __m256i *)(const void *)(kt + 256 * r + 32 * v));
}

/* Rounds 1..nr of the nv vectors x, slot keys from the table. */
INL void mb_rounds(const uint8_t *kt, __m256i *x, unsigned nv, unsigned nr)
{
    for (unsigned r = 1; r < nr; r++)
        for (unsigned v = 0; v < nv; v++) {
            __m256i t = _mm256_aesenc_epi128(x[v], mb_key(kt, r, v));
            PIN(t);
            x[v] = t;
        }
    for (unsigned v = 0; v < nv; v++)
        x[v] = _mm256_aesenclast_epi128(x[v], mb_key(kt, nr, v));
}

/*
 * groups x 4 blocks of slots 0..n-1 in nv vectors of 2 slots. Each
 * slot's 4 blocks are read as two 32-byte loads and written as two
 * stores; vperm2i128 regroups them through st[s][v] = block s of the 2
 * slots of vector v (16 registers do not hold them all: the compiler
 * keeps st on the stack, which costs loads and stores, not AES slots).
 */
INL void mb_kernel4(struct mb *m, unsigned nv, unsigned n, const unsigned nr,
                    size_t groups)
{
    const uint8_t *kt = &m->kt[0][0][0];
    __m256i x[8], st0[8], st1[8], st2[8], st3[8];

    for (unsigned v = 0; v < nv; v++)
        x[v] =
            _mm256_load_si256((const __m256i *)(const void *)m->chain[2 * v]);
    for (size_t off = 0; off < 64 * groups; off += 64) {
        kt = mb_opaque(kt);
        for (unsigned v = 0; v < nv; v++) {
            const uint8_t *a = m->in[2 * v] + off, *b = m->in[2 * v + 1] + off;
            __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)a);
            __m256i a1 =
                _mm256_loadu_si256((const __m256i *)(const void *)(a + 32));
            __m256i b0 = _mm256_loadu_si256((const __m256i *)(const void *)b);
            __m256i b1 =
                _mm256_loadu_si256((const __m256i *)(const void *)(b + 32));
            st0[v] = _mm256_permute2x128_si256(a0, b0, 0x20);
            st1[v] = _mm256_permute2x128_si256(a0, b0, 0x31);
            st2[v] = _mm256_permute2x128_si256(a1, b1, 0x20);
            st3[v] = _mm256_permute2x128_si256(a1, b1, 0x31);
        }
#define MB_STEP(st)                                                            \
    do {                                                                       \
        kt = mb_opaque(kt);                                                    \
        for (unsigned v = 0; v < nv; v++)                                      \
            x[v] = _mm256_xor_si256(                                           \
                x[v], _mm256_xor_si256(st[v], mb_key(kt, 0, v)));              \
        mb_rounds(kt, x, nv, nr);                                              \
        for (unsigned v = 0; v < nv; v++)                                      \
            st[v] = x[v];                                                      \
    } while (0)
        MB_STEP(st0);
        MB_STEP(st1);
        MB_STEP(st2);
        MB_STEP(st3);
#undef MB_STEP
        for (unsigned v = 0; v < nv; v++) {
            uint8_t *a = m->out[2 * v] + off, *b = m->out[2 * v + 1] + off;
            _mm256_storeu_si256(
                (__m256i *)(void *)a,
                _mm256_permute2x128_si256(st0[v], st1[v], 0x20));
            _mm256_storeu_si256(
                (__m256i *)(void *)(a + 32),
                _mm256_permute2x128_si256(st2[v], st3[v], 0x20));
            if (2 * v + 1 < n) {
                _mm256_storeu_si256(
                    (__m256i *)(void *)b,
                    _mm256_permute2x128_si256(st0[v], st1[v], 0x31));
                _mm256_storeu_si256(
                    (__m256i *)(void *)(b + 32),
                    _mm256_permute2x128_si256(st2[v], st3[v], 0x31));
            }
        }
    }
    for (unsigned v = 0; v < nv; v++)
        _mm256_store_si256((__m256i *)(void *)m->chain[2 * v], x[v]);
}

/* steps (< 4) single blocks, gathered and scattered slot by slot. */
INL void mb_kernel1(struct mb *m, unsigned nv, unsigned n, unsigned nr,
                    size_t off0, size_t steps)
{
    const uint8_t *kt = &m->kt[0][0][0];
    __m256i x[8];

    for (unsigned v = 0; v < nv; v++)
        x[v] =
            _mm256_load_si256((const __m256i *)(const void *)m->chain[2 * v]);
    for (size_t off = off0; off < off0 + 16 * steps; off += 16) {
        kt = mb_opaque(kt);
        for (unsigned v = 0; v < nv; v++) {
            __m256i p = _mm256_castsi128_si256(mb_ld(m->in[2 * v] + off));
            p = _mm256_inserti128_si256(p, mb_ld(m->in[2 * v + 1] + off), 1);
            x[v] =
                _mm256_xor_si256(x[v], _mm256_xor_si256(p, mb_key(kt, 0, v)));
        }
        mb_rounds(kt, x, nv, nr);
        for (unsigned v = 0; v < nv; v++) {
            mb_st(m->out[2 * v] + off, _mm256_castsi256_si128(x[v]));
            if (2 * v + 1 < n)
                mb_st(m->out[2 * v + 1] + off,
                      _mm256_extracti128_si256(x[v], 1));
        }
    }
    for (unsigned v = 0; v < nv; v++)
        _mm256_store_si256((__m256i *)(void *)m->chain[2 * v], x[v]);
}

INL void mb_kernel_nr(struct mb *m, unsigned nv, unsigned n, unsigned nr,
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
    unsigned nv = (n + 1) / 2;
    if (n % 2 != 0)
        m->in[n] = m->in[0];
    switch (nv) {
    case 1:
        mb_kernel_nr(m, 1, n, nr, steps);
        break;
    case 2:
        mb_kernel_nr(m, 2, n, nr, steps);
        break;
    case 3:
        mb_kernel_nr(m, 3, n, nr, steps);
        break;
    case 4:
        mb_kernel_nr(m, 4, n, nr, steps);
        break;
    case 5:
        mb_kernel_nr(m, 5, n, nr, steps);
        break;
    case 6:
        mb_kernel_nr(m, 6, n, nr, steps);
        break;
    case 7:
        mb_kernel_nr(m, 7, n, nr, steps);
        break;
    default:
        mb_kernel_nr(m, 8, n, nr, steps);
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
    for (unsigned j = n; j % 2 != 0; j++) {
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
    .name = "vaes-avx2",
    .description = "VAES on ymm: 2 blocks per instruction, 16 in flight",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = 2 * U,
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

const struct aesir_engine *aesir_engine_vaes_avx2(void)
{
    const uint32_t need = AESIR_CPU_AESNI | AESIR_CPU_VAES | AESIR_CPU_AVX2;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_vaes_avx2(void)
{
    return NULL;
}

#endif
