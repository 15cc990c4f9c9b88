/*
 * engine.h -- what every engine file shares: one way to say "compiled for
 * this instruction set" and "always inlined", the dispatch of a tail of
 * 1..7 blocks to a kernel specialised for that count, and the round-key
 * pointer the engines may assume aligned.
 *
 * An engine file defines ENGINE_ISA before including this header when its
 * code needs instructions beyond the build's baseline: the string GCC and
 * clang take in __attribute__((target(...))), e.g. "aes,ssse3". Without
 * it the code is compiled with the build's own flags (portable engines,
 * and those whose ISA the whole file is compiled for). Then:
 *
 *   ENGINE_FN      an out-of-line static function, compiled for ENGINE_ISA
 *                  (entry points, and kernels kept out of line on purpose);
 *   ENGINE_INLINE  a static helper compiled for ENGINE_ISA and always
 *                  inlined: the engines' state must stay in registers, and
 *                  rotation amounts, lane counts and round counts become
 *                  constants only once their helpers are inlined.
 *
 * Engine-local kernels carry the engine's prefix (aesni_ctr8, ct64_encrypt,
 * ...), so that profiles and disassembly name the engine.
 */
#ifndef AESIR_ENGINE_H
#define AESIR_ENGINE_H

#include "internal.h"

#if defined(__GNUC__) || defined(__clang__)
#ifdef ENGINE_ISA
#define ENGINE_TARGET __attribute__((target(ENGINE_ISA)))
#else
#define ENGINE_TARGET
#endif
#define ENGINE_FN static ENGINE_TARGET
#define ENGINE_INLINE static inline __attribute__((always_inline)) ENGINE_TARGET
/* The round-key areas are 16-byte aligned (AESIR_CTX_ALIGN, internal.h). */
#define ENGINE_RK(p) ((const uint8_t *)__builtin_assume_aligned((p), 16))
#else
#define ENGINE_TARGET
#define ENGINE_FN static
#define ENGINE_INLINE static inline
#define ENGINE_RK(p) ((const uint8_t *)(p))
#endif

/*
 * The last 1..7 blocks of a bulk call: KERNEL(n) with n a constant, so
 * each case is a kernel specialised for its block count (lanes unrolled,
 * registers allocated for n) rather than one loop with a variable trip
 * count. m outside 1..7 does nothing.
 */
#define ENGINE_TAIL7(KERNEL, m)                                                \
    switch (m) {                                                               \
    case 1:                                                                    \
        KERNEL(1);                                                             \
        break;                                                                 \
    case 2:                                                                    \
        KERNEL(2);                                                             \
        break;                                                                 \
    case 3:                                                                    \
        KERNEL(3);                                                             \
        break;                                                                 \
    case 4:                                                                    \
        KERNEL(4);                                                             \
        break;                                                                 \
    case 5:                                                                    \
        KERNEL(5);                                                             \
        break;                                                                 \
    case 6:                                                                    \
        KERNEL(6);                                                             \
        break;                                                                 \
    case 7:                                                                    \
        KERNEL(7);                                                             \
        break;                                                                 \
    default:                                                                   \
        break;                                                                 \
    }

/*
 * ENGINE_NAME(x): in a header shared by several engines (aes_x86_serial.h,
 * vaes_core.h, lanes.h), the name of an out-of-line function: x with the
 * including engine's prefix, so that each engine's copy is named after it
 * in profiles and disassembly. The engine file defines it, as it does
 * ENGINE_ISA, before including such a header:
 *
 *     #define ENGINE_NAME(x) vaes_avx512_##x
 *
 * Code used by one engine only names its functions directly.
 */

#endif /* AESIR_ENGINE_H */
