/*
 * vperm_altivec.c -- Hamburg's vector-permute AES on 32-bit big-endian
 * PowerPC AltiVec (G4 7450 and later): every S-box and every byte move is
 * a vperm. This is the machine of the paper itself.
 *
 * Technique: M. Hamburg, "Accelerating AES with Vector Permute
 * Instructions", CHES 2009; the cipher is the ISA-neutral body in
 * vperm_core.h (described in vperm_ssse3.c and docs/engines/vperm.md),
 * with the same tables (vperm_tables.h). This file is only the ISA layer.
 *
 * vperm(a, b, idx) selects byte idx & 31 of the 32-byte concatenation
 * a || b, in memory (big-endian element) order. With b = 0 it is a
 * 16-entry look-up whose indices 16..31 return 0: VPERM_INF (0x90) and
 * VPERM_INF ^ n have low five bits 1nnnn, so "1/0" looks up as 0 exactly
 * as pshufb's top-bit rule does on x86. (The paper also uses vperm's 32
 * entries to merge two look-ups into one; the shared tables here keep
 * the 16-entry form, which every other ISA needs.)
 *
 * Only big-endian: on little-endian POWER, compilers renumber vperm's
 * elements and complement its indices, which breaks the 0x90 rule; that
 * machine has the pwr8 engine (AES instructions) anyway.
 *
 * Loads need no alignment: the classic lvsl/vperm pair of the AltiVec
 * programming manual (two aligned loads that cover the 16 bytes and a
 * permute that selects them); the addresses depend only on the public
 * pointer. Unaligned stores go through an aligned buffer.
 *
 * This file must be compiled with -maltivec (CMake adds it on 32-bit
 * PowerPC; GCC's altivec.h refuses to be used otherwise); nothing in it
 * runs unless the kernel reports AltiVec (AT_HWCAP, cpu.c).
 *
 * Constant time: YES on the 74xx and later AltiVec units, whose vperm
 * has a fixed latency independent of the index values; no branch or
 * address depends on key or data.
 *
 * Batch: 4 blocks interleaved (the paper measured about +40% from
 * interleaving on the G4e).
 */
#include "engine.h"

#if defined(__ALTIVEC__) && defined(__BIG_ENDIAN__)

#include <altivec.h>

/* The whole file is compiled for AltiVec (-maltivec, CMakeLists.txt):
 * no ENGINE_ISA. */
#define VP_NAME(x) vperm_altivec_##x

typedef __vector unsigned char vec;

ENGINE_INLINE vec v_table(const uint8_t t[16])
{
    return vec_ld(0, t);
}

ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return vec_perm(vec_ld(0, p), vec_ld(15, p), vec_lvsl(0, p));
}

ENGINE_INLINE void v_store(uint8_t *p, vec v)
{
    _Alignas(16) uint8_t b[16];
    vec_st(v, 0, b);
    memcpy(p, b, 16);
}

ENGINE_INLINE vec v_shuffle(vec tab, vec idx)
{
    return vec_perm(tab, vec_splat_u8(0), idx);
}

ENGINE_INLINE vec v_xor(vec a, vec b)
{
    return vec_xor(a, b);
}

ENGINE_INLINE vec v_and(vec a, vec b)
{
    return vec_and(a, b);
}

ENGINE_INLINE vec v_shr4(vec a)
{
    return vec_sr(a, vec_splat_u8(4));
}

ENGINE_INLINE vec v_splat(uint8_t b)
{
    return vec_splats((unsigned char)b);
}

#define v_word_in vp_mem_word_in
#define v_word_out vp_mem_word_out
#define v_load_words vp_mem_load_words
#define v_counter vp_mem_counter

#include "vperm_core.h"

/* AEGIS's round (internal.h, aes_round): vperm_round.h on this ISA
 * layer, so the generic AEGIS runs on this engine's S-box, not ct64's. */
#include "vperm_round.h"

static void vperm_altivec_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    vperm_altivec_aes_round_body(state, rk, n);
    aesir_wipe_stack(512); /* vperm_ssse3_aegis.c's bound */
}

static const struct aesir_engine engine = {
    .name = "vperm-altivec",
    .description = "vector-permute AES (Hamburg), GF((2^4)^2) S-box by "
                   "AltiVec vperm, 4 blocks interleaved",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = vperm_altivec_setkey_enc,
    .setkey_dec = vperm_altivec_setkey_dec,
    .encrypt = vperm_altivec_encrypt,
    .decrypt = vperm_altivec_decrypt,
    .ctr = vperm_altivec_ctr,
    .cbc_enc = vperm_altivec_cbc_enc,
    .cbc_dec = vperm_altivec_cbc_dec,
    .aes_round = vperm_altivec_aes_round,
};

const struct aesir_engine *aesir_engine_vperm_altivec(void)
{
    return (aesir_cpu_features() & AESIR_CPU_ALTIVEC) ? &engine : NULL;
}

#else /* not big-endian AltiVec */

const struct aesir_engine *aesir_engine_vperm_altivec(void)
{
    return NULL;
}

#endif
