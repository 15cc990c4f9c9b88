/*
 * ct_msan_intrin.h -- MemorySanitizer shadow rules for the two x86
 * intrinsic families clang's MSan handles "strictly", for the MSan
 * constant-time check only (ct_check_msan; docs/constant-time.md).
 *
 * Force-included (-include) into every library source of that build, and
 * nowhere else: the shipped library, the valgrind check and every other
 * build never see it, and no engine source is changed.
 *
 * Why. MSan propagates shadow (poison) through an intrinsic in one of two
 * ways. An intrinsic whose operands and result all have one type (aesenc,
 * vaesenc, aesimc, pshufb/vpshufb, vpclmulqdq, gf2p8mulb, ...) gets the
 * approximate rule: result shadow = OR of the operands' shadows; secret
 * in, secret out, no report. An intrinsic with an operand of another type
 * (an immediate) and no dedicated handler gets the strict rule: MSan
 * reports every poisoned operand as a use of an uninitialized value and
 * makes the result clean. For a constant-time check that is both a false
 * positive on every call and a false negative after it (the secret is
 * lost). clang 14 (Debian 12's clang) and clang 19 (the newest Debian 12
 * has, tried) handle these strictly:
 *
 *   vpternlogd          _mm{,256,512}_ternarylogic_epi32
 *   vpternlogq          _mm{,256,512}_ternarylogic_epi64
 *   gf2p8affineqb       _mm{,256,512}_gf2p8affine_epi64_epi8
 *   gf2p8affineinvqb    _mm{,256,512}_gf2p8affineinv_epi64_epi8
 *
 * and one it handles loosely (a secret lost, no report): vpmuludq,
 * _mm512_mul_epu32 (below).
 *
 * (found with -mllvm -msan-dump-strict-instructions over every library
 * source, and confirmed one by one by tests/ct_msan_intrin.c, which also
 * checks every other intrinsic the engines use).
 *
 * The same holds for inline asm statements: see "Empty asm statements"
 * below for the engines' empty-asm barriers.
 *
 * What this header does, narrowly:
 *
 * - vpternlogd with a constant truth table is rewritten as the Boolean
 *   function it computes, a sum of the truth table's minterms on the
 *   three operands, in generic vector operations. The value is the same
 *   (the compiler folds it, and on AVX-512 emits vpternlogd again); MSan
 *   propagates AND, OR, NOT and XOR bit-exactly, so nothing is
 *   approximated at all.
 *
 * - gf2p8affine(inv)qb computes, for result byte i in 64-bit lane j,
 *   affine(matrix lane j, x byte i). The instruction itself runs on
 *   declassified *copies* of its operands (so MSan has nothing to report
 *   inside it), and the result's shadow is then set by that dependence:
 *   byte i is poisoned when x byte i or any byte of matrix lane j is
 *   poisoned. Exact at byte granularity; a partly poisoned byte poisons
 *   the whole result byte (conservative). The engine's own values keep
 *   their shadow: only the copies are declassified.
 *
 * Newer LLVM has dedicated handlers for some of these; with a clang whose
 * MSan propagates them itself, this header is harmless (the same values,
 * the same shadow). tests/ct_msan_intrin.c checks the rules hold.
 */
#ifndef AESIR_CT_MSAN_INTRIN_H
#define AESIR_CT_MSAN_INTRIN_H

#if defined(__x86_64__) || defined(__i386__)

#ifndef __has_feature
#error "ct_msan_intrin.h is for clang -fsanitize=memory builds"
#endif
#if !__has_feature(memory_sanitizer)
#error "ct_msan_intrin.h is for clang -fsanitize=memory builds"
#endif

/* Every system header a library source includes, before __asm__ becomes
 * a macro below (some system headers use __asm__ for symbol names). A
 * header that is not here and uses __asm__( fails to compile: loud, never
 * silent. */
#include <cpuid.h>
#include <immintrin.h>
#include <sanitizer/msan_interface.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h> /* these two for tests/ct_msan_intrin.c */
#include <unistd.h>

#define AESIR_MSAN_INL static inline __attribute__((always_inline, unused))

/* ---------------------------------------------------------------------
 * Empty asm statements (compiler barriers).
 *
 * The engines pin values with an empty asm statement, __asm__("" :
 * "+x"(v)), to steer register allocation and re-association (aesni and
 * vaes key schedules, vaes round loops), and hide pointers with
 * __asm__("" : "+r"(p)); aesir_ctr_copy orders two stores with
 * __asm__("" : : : "memory"). Each is the identity on its operands. MSan
 * cannot see into inline asm: it reports every poisoned input operand and
 * makes every output clean -- a false positive at each pin on a secret,
 * and the secret lost after it. Here each non-volatile __asm__(...)
 * statement is kept, operand constraints and all, but in dead code, so
 * the values flow on unchanged and MSan follows them. What changes is
 * only what the barrier was for: the optimizer may now re-associate,
 * keep a value in another register, or merge two stores; no branch or
 * address appears or disappears through that. The real asm statements
 * of the library are written __asm__ volatile(...) (cpu.c's xgetbv) or
 * __asm__ __volatile__(...) (util.c's wipe barrier), which a
 * function-like macro does not match: they stay as they are. An asm
 * statement that computed something would, dropped, change outputs, and
 * ct_check compares every output with `ref`: that fails, never passes.
 * ------------------------------------------------------------------- */
#define __asm__(...)                                                           \
    do {                                                                       \
        if (0)                                                                 \
            __asm__(__VA_ARGS__);                                              \
    } while (0)

/* ---------------------------------------------------------------------
 * vpternlogd: result bit = imm[(a << 2) | (b << 1) | c], per bit.
 * ------------------------------------------------------------------- */

/* The sum of minterms: imm is a constant, so all but its terms fold away. */
AESIR_MSAN_INL __m128i aesir_msan_ternlog128(__m128i a, __m128i b, __m128i c,
                                             int imm)
{
    __m128i r = {0, 0};
    for (int k = 0; k < 8; k++)
        if ((imm >> k) & 1)
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r;
}

AESIR_MSAN_INL __attribute__((target("avx2"))) __m256i
aesir_msan_ternlog256(__m256i a, __m256i b, __m256i c, int imm)
{
    __m256i r = {0, 0, 0, 0};
    for (int k = 0; k < 8; k++)
        if ((imm >> k) & 1)
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r;
}

AESIR_MSAN_INL __attribute__((target("avx512f"))) __m512i
aesir_msan_ternlog512(__m512i a, __m512i b, __m512i c, int imm)
{
    __m512i r = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 8; k++)
        if ((imm >> k) & 1)
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r;
}

#undef _mm_ternarylogic_epi32
#define _mm_ternarylogic_epi32(A, B, C, imm)                                   \
    aesir_msan_ternlog128((__m128i)(A), (__m128i)(B), (__m128i)(C), (imm))
#undef _mm512_ternarylogic_epi32
#define _mm512_ternarylogic_epi32(A, B, C, imm)                                \
    aesir_msan_ternlog512((__m512i)(A), (__m512i)(B), (__m512i)(C), (imm))
#undef _mm256_ternarylogic_epi32
#define _mm256_ternarylogic_epi32(A, B, C, imm)                                \
    aesir_msan_ternlog256((__m256i)(A), (__m256i)(B), (__m256i)(C), (imm))
/* vpternlogq (ghash-vpclmul-avx512's XOR3, the GCM kernels' sums):
 * unmasked, bit for bit the same function as vpternlogd. */
#undef _mm_ternarylogic_epi64
#define _mm_ternarylogic_epi64(A, B, C, imm)                                   \
    aesir_msan_ternlog128((__m128i)(A), (__m128i)(B), (__m128i)(C), (imm))
#undef _mm256_ternarylogic_epi64
#define _mm256_ternarylogic_epi64(A, B, C, imm)                                \
    aesir_msan_ternlog256((__m256i)(A), (__m256i)(B), (__m256i)(C), (imm))
#undef _mm512_ternarylogic_epi64
#define _mm512_ternarylogic_epi64(A, B, C, imm)                                \
    aesir_msan_ternlog512((__m512i)(A), (__m512i)(B), (__m512i)(C), (imm))

/* ---------------------------------------------------------------------
 * gf2p8affine(inv)qb: r byte i depends on x byte i and matrix lane i / 8.
 * ------------------------------------------------------------------- */

/* Sets the shadow of the n bytes of r (computed from declassified copies)
 * from the operands x and m as the engine passed them. */
AESIR_MSAN_INL void aesir_msan_affine_shadow(void *r, const void *x,
                                             const void *m, unsigned n)
{
    unsigned char *rb = (unsigned char *)r;
    const unsigned char *xb = (const unsigned char *)x;
    const unsigned char *mb = (const unsigned char *)m;

    for (unsigned j = 0; j < n; j += 8) {
        int lane = __msan_test_shadow(mb + j, 8) >= 0;
        for (unsigned i = j; i < j + 8; i++)
            if (lane || __msan_test_shadow(xb + i, 1) >= 0)
                __msan_poison(rb + i, 1);
    }
}

/* T: the vector type, V: the builtin's byte-vector type, F: the builtin. */
#define AESIR_MSAN_AFFINE(T, V, F, X, M, I)                                    \
    __extension__({                                                            \
        T aesir_msan_x_ = (X), aesir_msan_m_ = (M);                            \
        T aesir_msan_xc_ = aesir_msan_x_, aesir_msan_mc_ = aesir_msan_m_;      \
        T aesir_msan_r_;                                                       \
        __msan_unpoison(&aesir_msan_xc_, sizeof(T));                           \
        __msan_unpoison(&aesir_msan_mc_, sizeof(T));                           \
        aesir_msan_r_ = (T)F((V)aesir_msan_xc_, (V)aesir_msan_mc_, (char)(I)); \
        aesir_msan_affine_shadow(&aesir_msan_r_, &aesir_msan_x_,               \
                                 &aesir_msan_m_, sizeof(T));                   \
        aesir_msan_r_;                                                         \
    })

#undef _mm_gf2p8affine_epi64_epi8
#define _mm_gf2p8affine_epi64_epi8(X, M, I)                                    \
    AESIR_MSAN_AFFINE(__m128i, __v16qi, __builtin_ia32_vgf2p8affineqb_v16qi,   \
                      X, M, I)
#undef _mm_gf2p8affineinv_epi64_epi8
#define _mm_gf2p8affineinv_epi64_epi8(X, M, I)                                 \
    AESIR_MSAN_AFFINE(__m128i, __v16qi,                                        \
                      __builtin_ia32_vgf2p8affineinvqb_v16qi, X, M, I)
#undef _mm256_gf2p8affine_epi64_epi8
#define _mm256_gf2p8affine_epi64_epi8(X, M, I)                                 \
    AESIR_MSAN_AFFINE(__m256i, __v32qi, __builtin_ia32_vgf2p8affineqb_v32qi,   \
                      X, M, I)
#undef _mm256_gf2p8affineinv_epi64_epi8
#define _mm256_gf2p8affineinv_epi64_epi8(X, M, I)                              \
    AESIR_MSAN_AFFINE(__m256i, __v32qi,                                        \
                      __builtin_ia32_vgf2p8affineinvqb_v32qi, X, M, I)
#undef _mm512_gf2p8affine_epi64_epi8
#define _mm512_gf2p8affine_epi64_epi8(X, M, I)                                 \
    AESIR_MSAN_AFFINE(__m512i, __v64qi, __builtin_ia32_vgf2p8affineqb_v64qi,   \
                      X, M, I)
#undef _mm512_gf2p8affineinv_epi64_epi8
#define _mm512_gf2p8affineinv_epi64_epi8(X, M, I)                              \
    AESIR_MSAN_AFFINE(__m512i, __v64qi,                                        \
                      __builtin_ia32_vgf2p8affineinvqb_v64qi, X, M, I)

/* ---------------------------------------------------------------------
 * vpmuludq (ghash-ctmul-avx512): clang 14 lowers _mm512_mul_epu32 to a
 * 64-bit multiply of the zero-extended low dwords, and MSan's rule for a
 * multiply ORs the operand shadows: the high dword of each product (bits
 * 32..63, which depend on the secret low dwords) came out clean. Here the
 * product runs on declassified copies and each result lane is poisoned
 * when a byte of either operand's low dword in that lane is: exact at
 * lane granularity (every product bit may depend on every operand bit).
 * ------------------------------------------------------------------- */

AESIR_MSAN_INL void aesir_msan_mul32_shadow(void *r, const void *a,
                                            const void *b)
{
    unsigned char *rb = (unsigned char *)r;
    const unsigned char *ab = (const unsigned char *)a;
    const unsigned char *bb = (const unsigned char *)b;

    for (unsigned j = 0; j < 64; j += 8)
        if (__msan_test_shadow(ab + j, 4) >= 0 ||
            __msan_test_shadow(bb + j, 4) >= 0)
            __msan_poison(rb + j, 8);
}

#undef _mm512_mul_epu32
#define _mm512_mul_epu32(A, B)                                                 \
    __extension__({                                                            \
        __m512i aesir_msan_a_ = (A), aesir_msan_b_ = (B);                      \
        __m512i aesir_msan_ac_ = aesir_msan_a_,                                \
                aesir_msan_bc_ = aesir_msan_b_;                                \
        __m512i aesir_msan_r_;                                                 \
        __msan_unpoison(&aesir_msan_ac_, 64);                                  \
        __msan_unpoison(&aesir_msan_bc_, 64);                                  \
        aesir_msan_r_ = (_mm512_mul_epu32)(aesir_msan_ac_, aesir_msan_bc_);    \
        aesir_msan_mul32_shadow(&aesir_msan_r_, &aesir_msan_a_,                \
                                &aesir_msan_b_);                               \
        aesir_msan_r_;                                                         \
    })

#endif /* x86 */
#endif /* AESIR_CT_MSAN_INTRIN_H */
