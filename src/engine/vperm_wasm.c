/*
 * vperm_wasm.c -- Hamburg's vector-permute AES on WebAssembly SIMD128:
 * every S-box and every byte move is an i8x16.swizzle.
 *
 * Technique: M. Hamburg, "Accelerating AES with Vector Permute
 * Instructions", CHES 2009; the cipher is the ISA-neutral body in
 * vperm_core.h (described in vperm_ssse3.c and docs/engines/vperm.md),
 * with the same tables (vperm_tables.h). This file is only the ISA layer.
 *
 * i8x16.swizzle(a, s) returns a[s[i]] for s[i] < 16 and 0 otherwise, so
 * VPERM_INF (0x90) and VPERM_INF ^ n look up as 0, exactly as pshufb's
 * top-bit rule does. WebAssembly is little-endian, so the 32- and 64-bit
 * lanes map onto block bytes as on x86.
 *
 * Built when the whole library is compiled with -msimd128 (a module
 * either uses SIMD128 or not: there is no run-time probe in WebAssembly,
 * and a runtime without SIMD refuses such a module at load time). A
 * build without -msimd128 falls back to ct64.
 *
 * Constant time: as constant-time as the engine that runs the module.
 * V8, SpiderMonkey and wasmtime compile swizzle to pshufb (with an index
 * saturation fix-up) on x86 and to TBL on aarch64, both data-independent
 * in timing; no branch or address depends on key or data.
 *
 * Batch: 4 blocks interleaved.
 */
#include "engine.h"

#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

/* SIMD128 is the whole build's (-msimd128): no ENGINE_ISA. */
#define VP_NAME(x) vperm_wasm_##x

typedef v128_t vec;

ENGINE_INLINE vec v_table(const uint8_t t[16])
{
    return wasm_v128_load(t);
}

ENGINE_INLINE vec v_load(const uint8_t *p)
{
    return wasm_v128_load(p);
}

ENGINE_INLINE void v_store(uint8_t *p, vec v)
{
    wasm_v128_store(p, v);
}

ENGINE_INLINE vec v_shuffle(vec tab, vec idx)
{
    return wasm_i8x16_swizzle(tab, idx);
}

ENGINE_INLINE vec v_xor(vec a, vec b)
{
    return wasm_v128_xor(a, b);
}

ENGINE_INLINE vec v_and(vec a, vec b)
{
    return wasm_v128_and(a, b);
}

ENGINE_INLINE vec v_shr4(vec a)
{
    return wasm_u8x16_shr(a, 4);
}

ENGINE_INLINE vec v_splat(uint8_t b)
{
    return wasm_i8x16_splat((int8_t)b);
}

ENGINE_INLINE vec v_word_in(uint32_t w)
{
    return wasm_i32x4_make((int32_t)w, 0, 0, 0);
}

ENGINE_INLINE uint32_t v_word_out(vec v)
{
    return (uint32_t)wasm_i32x4_extract_lane(v, 0);
}

ENGINE_INLINE vec v_load_words(const uint32_t *w)
{
    return wasm_v128_load(w);
}

ENGINE_INLINE vec v_counter(uint64_t hi, uint64_t lo)
{
    return wasm_i64x2_make((int64_t)__builtin_bswap64(hi),
                           (int64_t)__builtin_bswap64(lo));
}

#include "vperm_core.h"

/* AEGIS's round (internal.h, aes_round): vperm_round.h on this ISA
 * layer, so the generic AEGIS runs on this engine's S-box, not ct64's. */
#include "vperm_round.h"

static void vperm_wasm_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    vperm_wasm_aes_round_body(state, rk, n);
    aesir_wipe_stack(512); /* vperm_ssse3_aegis.c's bound */
}

static const struct aesir_engine engine = {
    .name = "vperm-wasm",
    .description = "vector-permute AES (Hamburg), GF((2^4)^2) S-box by "
                   "WebAssembly i8x16.swizzle, 4 blocks interleaved",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = vperm_wasm_setkey_enc,
    .setkey_dec = vperm_wasm_setkey_dec,
    .encrypt = vperm_wasm_encrypt,
    .decrypt = vperm_wasm_decrypt,
    .ctr = vperm_wasm_ctr,
    .cbc_enc = vperm_wasm_cbc_enc,
    .cbc_dec = vperm_wasm_cbc_dec,
    .aes_round = vperm_wasm_aes_round,
};

const struct aesir_engine *aesir_engine_vperm_wasm(void)
{
    return (aesir_cpu_features() & AESIR_CPU_SIMD128) ? &engine : NULL;
}

#else /* no SIMD128 */

const struct aesir_engine *aesir_engine_vperm_wasm(void)
{
    return NULL;
}

#endif
