/*
 * vaes_avx512_gcm.c -- the fused GCM kernels of vaes-avx512 (gcm_enc,
 * gcm_dec; internal.h, aesir_gcm_fn): CTR with GCM's inc32 counter and
 * GHASH of the ciphertext in one pass, the AES rounds of 32 blocks on zmm
 * interleaved with the carry-less products of 32 others, for the GHASH engine
 * ghash-vpclmul-avx512 (whose key layout they read).
 *
 * CPU: VAES && VPCLMULQDQ && AVX512F && AVX512BW && AVX512VL && AES-NI
 * && PCLMULQDQ, with the OS saving zmm state: what vaes-avx512 and
 * ghash-vpclmul-avx512 each need. The AES engine's accessor checks the
 * first part; gcm.c calls the kernels only with the GHASH engine named
 * in .gcm_ghash, whose accessor (and self-test) succeeded, which covers
 * the rest.
 *
 * Why fused. Separately, CTR runs on the AES unit and then GHASH on the
 * carry-less multiplier, each idle while the other works, and the data
 * passes through L1 twice. Here one loop keeps both busy: per iteration
 * 8 zmm of counters (32 blocks) go through the rounds while 8 zmm of
 * ciphertext are multiplied by H^32 .. H^1. (The design of E. Biggers'
 * AES-GCM for AVX10 in Linux, arch/x86/crypto/aes-gcm-avx10-x86_64.S,
 * written here from its description with intrinsics, with twice its
 * batch.)
 *
 *  - Decryption hashes the ciphertext it decrypts in the same iteration:
 *    it is input, loaded once and used twice.
 *  - Encryption hashes the previous iteration's ciphertext while it
 *    encrypts the next (gcc keeps it in registers), so the AES of the
 *    first batch runs alone and the hash of the last batch follows the
 *    loop, merged with the tail's (below).
 *
 * What sets the speed on Zen 4: every vector operation. A zmm vaesenc
 * and a zmm vpclmulqdq take the same two FP pipes (vpclmulqdq for two
 * cycles), and the loop's other vector operations (counters, byte
 * reversal, XORs, shuffles, even vbroadcasti32x4 from memory) were
 * measured to cost some 0.8 core cycles per 4 blocks each, not to hide
 * under the AES rounds. So the loop is written for the fewest operations
 * per 4 blocks (AES-128: 10 AES, 3 products, 1 counter XOR, 1 data XOR,
 * 1 byte reversal, 1.5 for the Karatsuba halves, 1.5 for the sums, and
 * some 2 for the batch's reduction), which took it from 18.6 to about
 * 15.7 core cycles per 4 blocks (docs/engines/vaes.md, "The bulk loop"):
 *
 *  - Hash-key layout (ghash_vpclmul_avx512.c): hk + 16 i = K_(32-i), i =
 *    0..31, K_j = H^j x^-1 as a 128-bit integer in the reflected domain
 *    (ghash_x86.h), highest power first, and at hk + GX_VP512_HALVES
 *    (x86_gcm.h) the Karatsuba half K_lo ^ K_hi of each, made once per
 *    key. A batch's vector v takes the powers at hk + 64 v:
 *
 *      hk +   0: [K32 K31 K30 K29]  <- blocks 0..3 of a batch
 *      ...
 *      hk + 448: [K4  K3  K2  K1 ]  <- blocks 28..31
 *
 *  - Products are Karatsuba's (3 vpclmulqdq per 4 blocks: low, high and
 *    (a_lo ^ a_hi)(b_lo ^ b_hi)); the data halves of two vectors are made
 *    together (g5_hpair), the products summed in pairs by vpternlogq,
 *    unreduced over the batch; the lanes are added, the middle corrected
 *    and the two folds of the reduction go through it (gx5_finish,
 *    src/ghash/ghash_x86_zmm.h): one
 *    reduction per 32 blocks ("aggregated reduction", Gueron and
 *    Kounavis, Intel white paper 323640). The accumulator is XORed into
 *    the batch's first block, whose product is computed last so that the
 *    others need not wait for the previous batch's reduction.
 *  - Counters: the counter block, byte-reversed once, is a little-endian
 *    128-bit integer per lane whose dword 0 is GCM's 32-bit counter
 *    (lanes +0..+3); the caller guarantees the low word does not wrap
 *    within a call (gcm.c, data_blocks), so vpaddd on that dword is inc32
 *    exactly. Generic batches (g5_ctr) byte-reverse each vector and XOR
 *    round key 0; the whole-message path, whose counters depend on the
 *    position only, makes each vector with one XOR (g5_ctr_tab).
 *  - Round keys: nr + 1 keys of 16 bytes at rk + 16 r (vaes-avx512's
 *    encryption schedule), broadcast as they are loaded; for messages of
 *    8 KiB or more the whole-message path broadcasts them once into a
 *    buffer of 64-byte keys and loads those (G5_WIDE_MIN).
 *
 * Files. This one holds the bulk kernels (any counter, state in memory
 * between calls: gcm.c's incremental path) and this design note; the
 * batch they are built of, shared with the whole-message path, is in
 * vaes_avx512_gcm_batch.h; the whole-message path (aesir_vaes_avx512_gcm_msg:
 * the one-shot path with a 12-byte IV for every message past the short
 * kernel's reach, vaes_avx512_gcm_short.c, J0 to tag in one call) is in
 * vaes_avx512_gcm_msg.c.
 *
 * Tails. After the batches, r = 0..31 blocks go through ceil(r / 4)
 * vectors (a kernel for each count), the last loaded and stored with a
 * byte mask (vmovdqu8 with a k-mask: masked-off bytes are neither read
 * nor written and never fault). Their hash takes the last r powers;
 * encryption hashes the last batch (from out) and then the tail (from
 * registers, masked-off lanes zeroed). Every length of whole blocks is
 * done; the kernels always return len rounded down to 16.
 *
 * Constant time: yes, given that vaesenc and vpclmulqdq are (fixed
 * latency on every core that has them). No branch or address depends on
 * the key, H, the counter or the data; branches, masks and the counter
 * table's row depend on nr, the length and the position in the message
 * only.
 *
 * Batch: 8 zmm (32 blocks) per iteration, one reduction per 32 blocks.
 * 4 zmm per batch (one reduction per 16) was slower: the per-batch work
 * weighed twice as much (AES-128 seal 16 KiB 10.9 against 12.1 GB/s
 * then). Keys held in registers for the whole call spilled under gcc 12
 * (AES-256 seal 6.1 GB/s). The batch written out in inline assembly,
 * each hash vector after its round, was 3% slower than what gcc makes
 * of these intrinsics.
 *
 * Measured: docs/engines/vaes.md ("GCM on vaes-avx512"). Unfused
 * (vaes-avx512 CTR, then ghash-vpclmul-avx2), AES-128: 8.1 GB/s at
 * 16 KiB, 8.3 at 1 MiB.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)

#define ENGINE_ISA                                                             \
    "vaes,vpclmulqdq,aes,pclmul,ssse3,avx2,avx512f,avx512bw,avx512vl"
#include "engine.h"
#include <immintrin.h>
#include "ghash_x86.h"
#include "stack_wipe.h"

#include "x86_gcm.h"
#include "vaes_avx512_gcm_batch.h"

/* The kernel state for a call: the caller's counter block (any 128-bit
 * value whose low word does not wrap within the call) and accumulator. */
ENGINE_INLINE void g5_setup(struct g5_state *s, const uint8_t *rk,
                            const unsigned nr, const uint8_t *hk,
                            const uint8_t ctr[16], const uint8_t y[16])
{
    uint64_t hi, lo;
    __m128i c;

    (void)nr;
    s->rk = rk;
    s->wide = 0;
    s->hk = hk;
    /* the counter block as two 8-byte halves (internal.h, aesir_ctr_copy) */
    memcpy(&hi, ctr, 8);
    memcpy(&lo, ctr + 8, 8);
    c = _mm_shuffle_epi8(_mm_set_epi64x((long long)lo, (long long)hi),
                         gx_rev_mask());
    s->c =
        _mm512_add_epi32(g5_bcast(c), _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2,
                                                       0, 0, 0, 1, 0, 0, 0, 0));
    s->acc = gx_load(y, 1);
}

/* Writes back the counter advanced by n blocks (low word only: the
 * caller guarantees no wrap) and the accumulator. */
ENGINE_INLINE void g5_done(const struct g5_state *s, uint8_t ctr[16],
                           uint8_t y[16], size_t n)
{
    uint64_t lo;
    uint32_t w;
    memcpy(&lo, ctr + 8, 8);
    w = __builtin_bswap32((uint32_t)(lo >> 32)) + (uint32_t)n;
    lo = (lo & 0xffffffffu) | (uint64_t)__builtin_bswap32(w) << 32;
    memcpy(ctr + 8, &lo, 8);
    gx_store(y, s->acc, 1);
}

/* The tail of r = 1 .. G5_B - 1 blocks in n = ceil(r / 4) vectors (n a
 * constant), reduced (g5_tail_pass, vaes_avx512_gcm_batch.h). */
ENGINE_INLINE void g5_tail(struct g5_state *s, const unsigned nr, uint8_t *out,
                           const uint8_t *in, size_t r, const unsigned n,
                           const uint8_t *prev, const int dec)
{
    const __mmask64 m = g5_mask(r - 4 * (n - 1));
    struct gx5_sums a;

    g5_tail_pass(s, nr, out, in, n, m, m, s->hk + 16 * (32 - r), prev, dec, &a);
    s->acc = gx5_finish(&a);
}

/* The whole call for a constant nr. */
ENGINE_INLINE size_t g5_gcm(const uint8_t *rk, const unsigned nr,
                            const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],
                            uint8_t *out, const uint8_t *in, size_t len,
                            const int dec)
{
    struct g5_state s;
    size_t nblocks = len / 16, left = nblocks;
    const uint8_t *prev = NULL;

    g5_setup(&s, rk, nr, hk, ctr, y);
    if (dec) {
        for (; left >= G5_B; left -= G5_B) {
            g5_batch(&s, nr, out, in, in, 1, -1);
            in += 16 * G5_B, out += 16 * G5_B;
        }
    } else if (left >= G5_B) {
        g5_batch(&s, nr, out, in, NULL, 0, -1);
        prev = out;
        in += 16 * G5_B, out += 16 * G5_B, left -= G5_B;
        for (; left >= G5_B; left -= G5_B) {
            g5_batch(&s, nr, out, in, prev, 1, -1);
            prev = out;
            in += 16 * G5_B, out += 16 * G5_B;
        }
    }
    if (left == 0) {
        if (prev != NULL)
            g5_hash_batch(&s, prev);
    } else {
#define TAIL(n)                                                                \
    g5_tail(&s, nr, out, in, left, (n) <= G5_V ? (n) : G5_V, prev, dec)
        G5_TAILS((left + 3) / 4, TAIL)
#undef TAIL
    }
    g5_done(&s, ctr, y, nblocks);
    return 16 * nblocks;
}

/* One function per direction and key size: nr a constant, the rounds
 * unrolled, every key a register. */
#define G5_FN(name, nr, dec)                                                   \
    __attribute__((noinline)) ENGINE_FN size_t name(                           \
        const uint8_t *rk, const uint8_t *hk, uint8_t ctr[16], uint8_t y[16],  \
        uint8_t *out, const uint8_t *in, size_t len)                           \
    {                                                                          \
        return g5_gcm(rk, nr, hk, ctr, y, out, in, len, dec);                  \
    }
G5_FN(g5_enc10, 10, 0)
G5_FN(g5_enc12, 12, 0)
G5_FN(g5_enc14, 14, 0)
G5_FN(g5_dec10, 10, 1)
G5_FN(g5_dec12, 12, 1)
G5_FN(g5_dec14, 14, 1)

/*
 * The entry points. gcc 12 keeps a few values of the kernels on the
 * stack (the byte-reversal constant, the GHASH accumulator between the
 * loop and the tail, a tail's data vectors); clang 14 none. They are
 * wiped after the kernel (aesir_wipe_stack, internal.h): the kernels'
 * frames reach some 400 bytes below the entry point's (64-byte
 * alignment, 136 bytes of frame, the 128-byte red zone, saved
 * registers).
 */
#define G5_STACK 512

STACK_WIPED_GCM(aesir_vaes_avx512_gcm_enc, g5_enc10, g5_enc12, g5_enc14,
                G5_STACK)

STACK_WIPED_GCM(aesir_vaes_avx512_gcm_dec, g5_dec10, g5_dec12, g5_dec14,
                G5_STACK)

#endif /* x86 */
