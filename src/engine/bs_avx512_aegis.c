/*
 * bs_avx512_aegis.c -- bs-avx512's AES round for AEGIS (internal.h,
 * aes_round): bs_round.h on this engine's body (bs_x86.h, BS_AVX512 =
 * 1), 16 blocks per bitsliced pass, so that the generic AEGIS
 * (src/aead/aegis.c) runs on the engine's own circuits rather than on
 * ct64's scalar ones. Constant-time as the engine (bs_avx2.c's header).
 */
#define ENGINE_ISA "avx2,avx512f,avx512vl"
#include "engine.h"

#if (defined(__x86_64__) || defined(__i386__)) &&                              \
    (defined(__GNUC__) || defined(__clang__))

#define BS_NAME(x) bs_avx512_aegis_##x
#define BS_AVX512 1
#define BS_STACK 1728
/* Only the bitslicing and the circuits of the engine body are used. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "bs_x86.h"
#pragma GCC diagnostic pop
#include "bs_round.h"

void aesir_bs_avx512_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
void aesir_bs_avx512_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    bs_avx512_aegis_aes_round_body(state, rk, n);
    aesir_wipe_stack(2048);
}

#endif
