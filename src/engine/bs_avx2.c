/*
 * bs_avx2.c -- bitsliced, fixsliced AES on AVX2: ct64's cipher on four
 * 64-bit lanes of ymm registers, 16 blocks at a time; constant-time.
 *
 * Technique. Bitslicing as in E. Kasper and P. Schwabe, "Faster and
 * Timing-Attack Resistant AES-GCM" (CHES 2009): bit k of every byte of
 * the batch sits in register q[k], SubBytes is a Boolean circuit on the
 * eight registers, ShiftRows and MixColumns move bits between fixed
 * positions. The cipher itself is ct64's, not a new one: the S-box
 * circuit of J. Boyar and R. Peralta ("A new combinational logic
 * minimization technique with applications to cryptology", SEA 2010;
 * 115 gates; our 120-gate inverse shares its middle), fixslicing after
 * A. Adomnicai and T. Peyrin ("Fixslicing AES-like Ciphers", TCHES 2021)
 * so that ShiftRows is never executed, and the equivalent inverse cipher
 * for decryption. The code is literally shared: ct64_core.h is written
 * for a word type, which is uint64_t in ct64.c and here
 *
 *     typedef uint64_t bs_word __attribute__((vector_size(32)));
 *
 * so every C operator of the cipher acts on four independent 64-bit ct64
 * states at once. Why this route rather than Kasper-Schwabe's own layout
 * (8 blocks in eight 128-bit registers): it keeps one cipher, one
 * key schedule and one round-key layout for three engines (ct64, bs-avx2,
 * bs-avx512) -- round keys are ct64's 64-bit words, broadcast to the four
 * lanes as they are used (vpbroadcastq from memory, a load-port uop), so
 * key setup is ct64's and the key area stays 960 bytes for AES-256. The
 * cost of the wider registers is only in the rotations ct64 does with
 * one rorx: here "one row down" (rotation by 16 or 32) and "two columns
 * right" are byte permutations inside each lane, one vpshufb; an odd
 * column offset moves nibbles, two vpshufb, two shifts, two ANDs and one
 * OR. The rest of a round (S-box 115 gates, MixColumns, round key) is one
 * AVX2 instruction per C operator; recent cores run three (Intel) or four
 * (AMD Zen 4) such vector logic instructions per cycle.
 *
 * Layout. Each 64-bit lane L (0..3) of q[k] is ct64's word q[k] for four
 * blocks of the batch: bit 16 r + 4 c + s of the lane is bit k of byte
 * r + 4 c (row r, column c) of the block in slot s of that lane.
 *
 *    ymm q[k]   lane 3          lane 2          lane 1          lane 0
 *             +---------------+---------------+---------------+---------------+
 *             | ct64 word     | ct64 word     | ct64 word     | ct64 word     |
 *             | blocks        | blocks        | blocks        | blocks        |
 *             | 3 7 11 15     | 1 5 9 13      | 2 6 10 14     | 0 4 8 12      |
 *             +---------------+---------------+---------------+---------------+
 *    one lane:  bit 63..48 row 3 | 47..32 row 2 | 31..16 row 1 | 15..0 row 0
 *    one row:   4 bits per column (column 3 .. column 0)
 *    one column: bit s = the block in slot s (slot s of lane L is block
 *               4 s + (0, 2, 1, 3)[L])
 *
 * The block-to-lane order is what the loads give for free: a 32-byte load
 * holds two blocks; one vpshufb puts each block's bytes in ct64's zipped
 * order (columns 0/2 interleaved, then 1/3), and vpunpck{l,h}qdq of two
 * such registers gives two of the words q[s] and q[4 + s] that ct64's
 * load_blocks builds, for four blocks in the four lanes. The 8x8 bit
 * transposition is ct64's code on vectors. Storing runs it backwards; the
 * SR^2 that fixslicing leaves after the last round of AES-128 and
 * AES-256 is a byte permutation common to all eight planes, so it is
 * folded into the output vpshufb.
 *
 * Fast paths: ECB both directions, CTR (the sixteen 128-bit big-endian
 * counters live in eight ymm registers as native 64-bit halves; one
 * vpaddq, compare and shift per register per batch carries into the high
 * half; one vpshufb byte-swaps and zips them), CBC decryption (stored
 * from the last block pair down, so out == in works). Calls of fewer than
 * 5 blocks, which cost less on one 4-block ct64 state than on a 16-block
 * batch, go to ct64 (same round keys); so do the serial modes' single
 * blocks. Tails of 5..15 blocks run one batch through a stack buffer.
 *
 * Constant time: yes, under ct64's conditions (the compiler emits no
 * branch for the C, and AVX2 logic, shift, vpshufb and vpunpck
 * instructions have operand-independent timing, true of every x86 we
 * know of). No branch and no memory address depends on key or data; the
 * shuffle index vectors are constants; loop counts depend on nr and the
 * number of blocks only. tests/ct_check.c runs this engine under valgrind
 * (which executes AVX2) with keys and data marked undefined.
 *
 * Batch: 16 blocks (256 bytes). Needs AVX2 and OS support for ymm state.
 */
#define ENGINE_ISA "avx2"
#include "engine.h"

#if (defined(__x86_64__) || defined(__i386__)) &&                              \
    (defined(__GNUC__) || defined(__clang__))

#define BS_NAME(x) bs_avx2_##x
#define BS_AVX512 0
/* The bodies reach 1920 bytes deep (ECB; stack_wipe.h). */
#define BS_STACK 2176
#include "bs_x86.h"

void aesir_bs_avx2_aes_round(uint8_t *state, const uint8_t *rk, size_t n);

static const struct aesir_engine engine = {
    .name = "bs-avx2",
    .description = "bitsliced, fixsliced, ct64 on 4 x 64-bit AVX2 lanes, "
                   "16 blocks, Boyar-Peralta S-box (Kasper-Schwabe, "
                   "Adomnicai-Peyrin)",
    .flags = ENGINE_CT,
    .batch = 16,
    .setkey_enc = bs_avx2_setkey_enc,
    .setkey_dec = bs_avx2_setkey_dec,
    .encrypt = bs_avx2_encrypt,
    .decrypt = bs_avx2_decrypt,
    .ctr = bs_avx2_ctr,
    .cbc_dec = bs_avx2_cbc_dec,
    .aes_round = aesir_bs_avx2_aes_round, /* bs_avx2_aegis.c */
};

const struct aesir_engine *aesir_engine_bs_avx2(void)
{
    return (aesir_cpu_features() & AESIR_CPU_AVX2) ? &engine : NULL;
}

#else /* not x86, or a compiler without GCC vector extensions */

const struct aesir_engine *aesir_engine_bs_avx2(void)
{
    return NULL;
}

#endif
