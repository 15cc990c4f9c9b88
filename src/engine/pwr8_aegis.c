/*
 * pwr8_aegis.c -- pwr8's AEGIS (internal.h: aes_round, aegis,
 * aegis_update): the whole-message kernels of aegis_kernel.h on POWER8
 * vector registers for all six variants of draft-irtf-cfrg-aegis-aead
 * (AEGIS-128L and AEGIS-256 on one register per row; the X2 and X4
 * variants on two and four registers per row), the same kernels' blocks
 * on a state in memory for the incremental API, and a single AES round
 * for the generic path.
 *
 * AESRound(x, k) of the draft (section 2) is MixColumns(ShiftRows(
 * SubBytes(x))) ^ k, which is exactly vcipher (Power ISA 2.07B, Vector
 * Cryptographic Instructions; pwr8.c), key XORed last. vcipher sees the
 * block in register order (byte 0 the register's most significant byte,
 * pwr8.c); every load and store here is byte-ordered (vec_xl_be /
 * vec_xst_be), so the rows, the message and the constants are all in
 * that order and the bitwise operations between them do not care. The
 * one 16-byte value built from integers (the lengths block of 3.9) goes
 * through memory (aegis_kernel.h's default).
 *
 * Wider variants: POWER8 has 128-bit vectors only, so a lane of D > 1
 * is a struct of D registers and each kernel operation is D independent
 * instructions -- "more vectors", as the draft's 5.1 puts it. AEGIS-128X2
 * keeps 16 registers of state plus temporaries in the 32 that vcipher
 * can address; AEGIS-128X4 (32 registers of state) does not fit and the
 * compiler spills: the wipe after each kernel covers that (stack sized
 * from the frames, with margin).
 *
 * CPU: POWER8 vector crypto (the pwr8 accessor checks it); compiled in a
 * target region like pwr8.c, where pwr8.c builds its engine. Constant
 * time: yes, given that vcipher is (pwr8.c): no table, branches on the
 * lengths only. Tested under qemu-ppc64le -cpu power8 (make cross-test)
 * and big-endian qemu-ppc64 (tools/pwr8_be_check.sh); no speed is
 * claimed (no POWER hardware here).
 */
#include "internal.h"

#if defined(__powerpc64__) &&                                                  \
    ((defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8) ||            \
     (defined(__clang__) && defined(__CRYPTO__) &&                             \
      defined(__POWER8_VECTOR__)))

#include "engine.h"
#include "aegis.h"
#include "aegis_wide.h"
#include "stack_wipe.h"

#if !(defined(__CRYPTO__) && defined(__POWER8_VECTOR__))
#define PWR8_AEGIS_REGION 1
#pragma GCC push_options
#pragma GCC target("cpu=power8")
#endif

#include <altivec.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned long long vu64;

ENGINE_INLINE vu8 p8_load(const void *p)
{
    return vec_xl_be(0, (const unsigned char *)p);
}

ENGINE_INLINE void p8_store(void *p, vu8 x)
{
    vec_xst_be(x, 0, (unsigned char *)p);
}

ENGINE_INLINE vu8 p8_enc(vu8 x, vu8 k)
{
    return (vu8)__builtin_crypto_vcipher((vu64)x, (vu64)k);
}

/* ---- one register per row: AEGIS-128L, AEGIS-256 ---------------------- */

#define AK_V vu8
#define AK_D 1
#define AK_LOAD(p) p8_load(p)
#define AK_STORE(p, v) p8_store((p), (v))
#define AK_XOR vec_xor
#define AK_AND vec_and
#define AK_ENC p8_enc
#define AK_BCAST(p) p8_load(p)
#define AK_NAME(x) pwr8_aegis1_##x
#include "aegis_kernel.h"

/* ---- D registers per row: the X variants (aegis_wide.h) ------------- */
AEGIS_WIDE(p8x2, 2, vu8, p8_load, p8_store, vec_xor, vec_and, p8_enc)
AEGIS_WIDE(p8x4, 4, vu8, p8_load, p8_store, vec_xor, vec_and, p8_enc)

#define AK_V p8x2
#define AK_D 2
#define AK_LOAD(p) p8x2_load(p)
#define AK_STORE(p, v) p8x2_store((p), (v))
#define AK_XOR p8x2_xor
#define AK_AND p8x2_and
#define AK_ENC p8x2_enc
#define AK_BCAST(p) p8x2_bcast(p)
#define AK_NAME(x) pwr8_aegis2_##x
#include "aegis_kernel.h"

#define AK_V p8x4
#define AK_D 4
#define AK_LOAD(p) p8x4_load(p)
#define AK_STORE(p, v) p8x4_store((p), (v))
#define AK_XOR p8x4_xor
#define AK_AND p8x4_and
#define AK_ENC p8x4_enc
#define AK_BCAST(p) p8x4_bcast(p)
#define AK_NAME(x) pwr8_aegis4_##x
#include "aegis_kernel.h"

/* One AES round on n states (the generic path's hook): 4 at a time, so
 * their vcipher latencies overlap. */
STACK_WIPE_BODY static void pwr8_aes_round_body(uint8_t *state,
                                                const uint8_t *rk, size_t n)
{
    size_t i = 0;
    for (; n - i >= 4; i += 4) {
        const vu8 a = p8_enc(p8_load(state + 16 * i), p8_load(rk + 16 * i));
        const vu8 b =
            p8_enc(p8_load(state + 16 * i + 16), p8_load(rk + 16 * i + 16));
        const vu8 c =
            p8_enc(p8_load(state + 16 * i + 32), p8_load(rk + 16 * i + 32));
        const vu8 d =
            p8_enc(p8_load(state + 16 * i + 48), p8_load(rk + 16 * i + 48));
        p8_store(state + 16 * i, a);
        p8_store(state + 16 * i + 16, b);
        p8_store(state + 16 * i + 32, c);
        p8_store(state + 16 * i + 48, d);
    }
    for (; i < n; i++)
        p8_store(state + 16 * i,
                 p8_enc(p8_load(state + 16 * i), p8_load(rk + 16 * i)));
}

#ifdef PWR8_AEGIS_REGION
#pragma GCC pop_options
#endif

/* Stack to wipe after a kernel of 1, 2, 4 registers per row: the frames
 * (spills, the padded block, the tag's lanes) with margin, checked by
 * tests/test_residue.c where it runs. */
#define P8_STACK1 512
#define P8_STACK2 1024
#define P8_STACK4 2048

/* aesir_pwr8_aegis and aesir_pwr8_aegis_update (aegis_wide.h). The
 * update kernels' frames are smaller than the whole-message ones'
 * (powerpc64le gcc 12 -O3 -fstack-usage: lu 96 / 400 / 1312 bytes for
 * 1 / 2 / 4 registers per row against l 464 / 832 / 1552; bu 64 / 240 /
 * 848 against b 368 / 640 / 1104), so the same bounds cover them. */
#define P8_AEGIS_CASES(X)                                                      \
    X(AESIR_AEGIS_128L, pwr8_aegis1_l, P8_STACK1)                              \
    X(AESIR_AEGIS_256, pwr8_aegis1_b, P8_STACK1)                               \
    X(AESIR_AEGIS_128X2, pwr8_aegis2_l, P8_STACK2)                             \
    X(AESIR_AEGIS_256X2, pwr8_aegis2_b, P8_STACK2)                             \
    X(AESIR_AEGIS_128X4, pwr8_aegis4_l, P8_STACK4)                             \
    X(AESIR_AEGIS_256X4, pwr8_aegis4_b, P8_STACK4)
AEGIS_WIDE_ENTRIES(aesir_pwr8_aegis, aesir_pwr8_aegis_update, P8_AEGIS_CASES)

void aesir_pwr8_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
void aesir_pwr8_aes_round(uint8_t *state, const uint8_t *rk, size_t n)
{
    pwr8_aes_round_body(state, rk, n);
    aesir_wipe_stack(256);
}

#endif /* pwr8's build condition */
