/*
 * vperm_avx2_aegis.c -- vperm-avx2's AES round for AEGIS (internal.h,
 * aes_round): vperm_round.h on this engine's ISA layer (vperm_x86.h),
 * so that the generic AEGIS (src/aead/aegis.c) runs on the engine's own
 * vector-permute S-box rather than on ct64's bitsliced one.
 * Constant-time as the engine (vperm_ssse3.c's header).
 */
#define ENGINE_ISA "avx2"
#include "engine.h"

#if defined(__x86_64__) || defined(__i386__)

#define VP_NAME(x) vperm_avx2_aegis_##x
#define VP_CORE_BULK 0
#include "vperm_x86.h"
/* Only the S-box pieces of the core are used here. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "vperm_core.h"
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include "vperm_round.h"

void aesir_vperm_avx2_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
void aesir_vperm_avx2_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    vperm_avx2_aegis_aes_round_body(state, rk, n);
    aesir_wipe_stack(512);
}

#endif
