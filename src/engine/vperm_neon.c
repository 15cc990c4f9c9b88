/*
 * vperm_neon.c -- Hamburg's vector-permute AES on aarch64 Advanced SIMD:
 * every S-box and every byte move is a TBL.
 *
 * Technique: M. Hamburg, "Accelerating AES with Vector Permute
 * Instructions", CHES 2009; the cipher itself is the ISA-neutral body in
 * vperm_core.h (described in vperm_ssse3.c and docs/engines/vperm.md),
 * with the same tables (vperm_tables.h). This file is only the ISA layer.
 *
 * TBL with one table register (vqtbl1q_u8) returns table[idx] for idx <
 * 16 and 0 for any larger index, so the "infinity" byte VPERM_INF (0x90)
 * and VPERM_INF ^ n look up as 0, exactly as pshufb's top-bit rule does.
 * USHR by 4 on bytes does not cross byte boundaries (the core masks the
 * result anyway).
 *
 * Constant time: YES, given that TBL's timing does not depend on the
 * index values (it is a fixed-latency permute on the Cortex-A and
 * Neoverse cores whose optimisation guides we know of); no branch or
 * address depends on key or data. Of interest where the CPU has no AES
 * instructions (Raspberry Pi 4's Cortex-A72 as shipped, many Cortex-A53
 * boards): there the alternative is table-based AES.
 *
 * Batch: 4 blocks interleaved (32 vector registers hold the four states,
 * the tables and the temporaries without spilling).
 */
#include "engine.h"

#if defined(__aarch64__)

#include <arm_neon.h>

/* NEON is in every aarch64 build's baseline: no ENGINE_ISA. */
#define VP_NAME(x) vperm_neon_##x

typedef uint8x16_t vec;

ENGINE_INLINE vec v_table(const uint8_t t[16])
{
    return vld1q_u8(t);
}

ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return vld1q_u8(p);
}

ENGINE_INLINE void v_store(uint8_t *p, vec v)
{
    vst1q_u8(p, v);
}

ENGINE_INLINE vec v_shuffle(vec tab, vec idx)
{
    return vqtbl1q_u8(tab, idx);
}

ENGINE_INLINE vec v_xor(vec a, vec b)
{
    return veorq_u8(a, b);
}

ENGINE_INLINE vec v_and(vec a, vec b)
{
    return vandq_u8(a, b);
}

ENGINE_INLINE vec v_shr4(vec a)
{
    return vshrq_n_u8(a, 4);
}

ENGINE_INLINE vec v_splat(uint8_t b)
{
    return vdupq_n_u8(b);
}

/* Lane 0 of a 32-bit view is bytes 0..3, little-endian, on little-endian
 * aarch64; big-endian aarch64 goes through memory. */
#if defined(__AARCH64EB__)
#define v_word_in vp_mem_word_in
#define v_word_out vp_mem_word_out
#define v_load_words vp_mem_load_words
#define v_counter vp_mem_counter
#else
ENGINE_INLINE vec v_word_in(uint32_t w)
{
    return vreinterpretq_u8_u32(vsetq_lane_u32(w, vdupq_n_u32(0), 0));
}

ENGINE_INLINE uint32_t v_word_out(vec v)
{
    return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

ENGINE_INLINE vec v_load_words(const uint32_t *w)
{
    return vreinterpretq_u8_u32(vld1q_u32(w));
}

ENGINE_INLINE vec v_counter(uint64_t hi, uint64_t lo)
{
    return vcombine_u8(vrev64_u8(vcreate_u8(hi)), vrev64_u8(vcreate_u8(lo)));
}
#endif

#include "vperm_core.h"

/* AEGIS's round (internal.h, aes_round): vperm_round.h on this ISA
 * layer, so the generic AEGIS runs on this engine's S-box, not ct64's. */
#include "vperm_round.h"

static void vperm_neon_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    vperm_neon_aes_round_body(state, rk, n);
    aesir_wipe_stack(512); /* vperm_ssse3_aegis.c's bound */
}

static const struct aesir_engine engine = {
    .name = "vperm-neon",
    .description = "vector-permute AES (Hamburg), GF((2^4)^2) S-box by "
                   "NEON tbl, 4 blocks interleaved",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = vperm_neon_setkey_enc,
    .setkey_dec = vperm_neon_setkey_dec,
    .encrypt = vperm_neon_encrypt,
    .decrypt = vperm_neon_decrypt,
    .ctr = vperm_neon_ctr,
    .cbc_enc = vperm_neon_cbc_enc,
    .cbc_dec = vperm_neon_cbc_dec,
    .aes_round = vperm_neon_aes_round,
};

const struct aesir_engine *aesir_engine_vperm_neon(void)
{
    return (aesir_cpu_features() & AESIR_CPU_NEON) ? &engine : NULL;
}

#else /* not aarch64 */

const struct aesir_engine *aesir_engine_vperm_neon(void)
{
    return NULL;
}

#endif
