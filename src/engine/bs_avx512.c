/*
 * bs_avx512.c -- bitsliced, fixsliced AES with AVX-512VL: bs-avx2's code
 * (ct64's cipher on four 64-bit lanes of ymm registers, 16 blocks per
 * batch) compiled for AVX-512VL; constant-time.
 *
 * Technique, papers (Kasper-Schwabe 2009; Boyar-Peralta S-box circuit;
 * Adomnicai-Peyrin fixslicing), layout: see bs_avx2.c, whose ASCII
 * diagram holds unchanged. The source is the same (bs_x86.h on
 * ct64_core.h); only the instruction set differs, and three of its
 * features matter for a bitsliced cipher:
 *  - 32 vector registers instead of 16: the S-box circuit's live values
 *    fit, and the spills of the AVX2 build disappear;
 *  - vpternlogq, any Boolean function of three inputs in one instruction:
 *    the compilers merge XOR chains (the S-box's linear layers,
 *    MixColumns) and AND-XOR pairs into it by themselves;
 *  - vprorq: a rotation within a 64-bit lane is one instruction, so
 *    ct64's formula for an odd column offset (two rotations and a select,
 *    the select a vpternlogq) costs 3 instructions instead of 7.
 * It still uses ymm, not zmm registers: 16 blocks per batch keeps short
 * messages short, and ymm instructions run on more ports than zmm ones
 * on Intel cores (three against two) while Zen 4 splits zmm in two.
 *
 * Constant time: yes, under the same conditions as bs-avx2 (vpternlogq
 * and vprorq have operand-independent timing, as every logic and
 * constant-shift instruction on x86 we know of). valgrind 3.19 cannot
 * execute AVX-512, so tests/ct_check.c lists this engine as not checked;
 * its C is the one checked through bs-avx2.
 *
 * Batch: 16 blocks. Needs AVX2, AVX-512F and AVX-512VL, and OS support
 * for the AVX-512 state.
 */
#define ENGINE_ISA "avx2,avx512f,avx512vl"
#include "engine.h"

#if (defined(__x86_64__) || defined(__i386__)) &&                              \
    (defined(__GNUC__) || defined(__clang__))

#define BS_NAME(x) bs_avx512_##x
#define BS_AVX512 1
/* The bodies reach 1440 bytes deep (ECB; stack_wipe.h). */
#define BS_STACK 1728
#include "bs_x86.h"

void aesir_bs_avx512_aes_round(uint8_t *state, const uint8_t *rk, size_t n);

static const struct aesir_engine engine = {
    .name = "bs-avx512",
    .description = "bitsliced, fixsliced, ct64 on 4 x 64-bit lanes with "
                   "AVX-512VL (ternlog, 32 registers), 16 blocks, "
                   "Boyar-Peralta S-box (Kasper-Schwabe, Adomnicai-Peyrin)",
    .flags = ENGINE_CT,
    .batch = 16,
    .setkey_enc = bs_avx512_setkey_enc,
    .setkey_dec = bs_avx512_setkey_dec,
    .encrypt = bs_avx512_encrypt,
    .decrypt = bs_avx512_decrypt,
    .ctr = bs_avx512_ctr,
    .cbc_dec = bs_avx512_cbc_dec,
    .aes_round = aesir_bs_avx512_aes_round, /* bs_avx512_aegis.c */
};

const struct aesir_engine *aesir_engine_bs_avx512(void)
{
    const uint32_t need =
        AESIR_CPU_AVX2 | AESIR_CPU_AVX512F | AESIR_CPU_AVX512VL;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86, or a compiler without GCC vector extensions */

const struct aesir_engine *aesir_engine_bs_avx512(void)
{
    return NULL;
}

#endif
