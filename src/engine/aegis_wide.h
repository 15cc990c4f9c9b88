/*
 * aegis_wide.h -- a row of D AES blocks as D 128-bit registers, for the
 * X2 and X4 variants of draft-irtf-cfrg-aegis-aead (section 5) on ISAs
 * whose vectors hold one block (POWER8 AltiVec/VSX, AArch64 NEON): the
 * AK_* operations of aegis_kernel.h on a struct of D registers, each
 * operation D independent instructions. Lane i of a row (instance i,
 * "V[j,i]" of 5.1) is register v[i], the 16 bytes at p + 16 i.
 *
 * AEGIS_WIDE(T, D, B, LD, ST, XOR, AND, ENC) defines the type T (a
 * struct of D values of the register type B) and T##_load, T##_store,
 * T##_bcast, T##_xor, T##_and, T##_enc from the one-register operations
 * given (ENC(x, k) = AESRound(x, k), draft section 2), ENGINE_INLINE, so
 * the includer's target attributes apply; the loops have constant trip
 * counts and unroll, and the struct members stay in registers when they
 * fit (16 for X2's 8 rows; X4's 32 rows do not fit in 32 registers, and
 * the compiler spills: the includer wipes the stack after the kernel).
 * The includer then points aegis_kernel.h's AK_V, AK_D, AK_LOAD,
 * AK_STORE, AK_BCAST, AK_XOR, AK_AND and AK_ENC at them.
 *
 * AEGIS_WIDE_ENTRIES(aegis, update, CASES) then defines the engine's two
 * hooks (internal.h: aesir_aegis_fn, aesir_aegis_update_fn) from its
 * list of kernels, CASES(X) giving X(variant, kernel, bytes) per variant:
 * the whole-message kernel, or for update the same kernel's blocks on a
 * state in memory (its name with a "u", aegis_kernel.h), then a wipe of
 * the bytes of stack the kernel's frame may have used (the engine's
 * kernels are STACK_WIPE_BODY). A variant not in the list: -1.
 */
#ifndef AESIR_AEGIS_WIDE_H
#define AESIR_AEGIS_WIDE_H

#if defined(__clang__)
#define AEGIS_WIDE_UNROLL
#else
#define AEGIS_WIDE_UNROLL _Pragma("GCC unroll 4")
#endif

#define AEGIS_WIDE(T, D, B, LD, ST, XOR, AND, ENC)                             \
    typedef struct {                                                           \
        B v[D];                                                                \
    } T;                                                                       \
    ENGINE_INLINE T T##_load(const void *p)                                    \
    {                                                                          \
        T r;                                                                   \
        AEGIS_WIDE_UNROLL for (unsigned i = 0; i < (D); i++) r.v[i] =          \
            LD((const uint8_t *)p + 16 * i);                                   \
        return r;                                                              \
    }                                                                          \
    ENGINE_INLINE void T##_store(void *p, T x)                                 \
    {                                                                          \
        AEGIS_WIDE_UNROLL for (unsigned i = 0; i < (D); i++)                   \
            ST((uint8_t *)p + 16 * i, x.v[i]);                                 \
    }                                                                          \
    ENGINE_INLINE T T##_bcast(const void *p)                                   \
    {                                                                          \
        T r;                                                                   \
        const B x = LD((const uint8_t *)p);                                    \
        AEGIS_WIDE_UNROLL for (unsigned i = 0; i < (D); i++) r.v[i] = x;       \
        return r;                                                              \
    }                                                                          \
    ENGINE_INLINE T T##_xor(T a, T b)                                          \
    {                                                                          \
        AEGIS_WIDE_UNROLL for (unsigned i = 0; i < (D); i++) a.v[i] =          \
            XOR(a.v[i], b.v[i]);                                               \
        return a;                                                              \
    }                                                                          \
    ENGINE_INLINE T T##_and(T a, T b)                                          \
    {                                                                          \
        AEGIS_WIDE_UNROLL for (unsigned i = 0; i < (D); i++) a.v[i] =          \
            AND(a.v[i], b.v[i]);                                               \
        return a;                                                              \
    }                                                                          \
    ENGINE_INLINE T T##_enc(T a, T k)                                          \
    {                                                                          \
        AEGIS_WIDE_UNROLL for (unsigned i = 0; i < (D); i++) a.v[i] =          \
            ENC(a.v[i], k.v[i]);                                               \
        return a;                                                              \
    }

#define AEGIS_WIDE_CASE(v, fn, bytes)                                          \
    case v:                                                                    \
        fn(key, nonce, aad, aad_len, out, in, len, tag, tag_len, decrypt);     \
        aesir_wipe_stack(bytes);                                               \
        break;
#define AEGIS_WIDE_UCASE(v, fn, bytes)                                         \
    case v:                                                                    \
        if (nblocks != 0) { /* 0: aegis.c asks at key set-up */                \
            fn##u(state, op, out, in, nblocks);                                \
            aesir_wipe_stack(bytes);                                           \
        }                                                                      \
        break;

#define AEGIS_WIDE_ENTRIES(aegis, update, CASES)                               \
    int aegis(int variant, const uint8_t *key, const uint8_t *nonce,           \
              const uint8_t *aad, size_t aad_len, uint8_t *out,                \
              const uint8_t *in, size_t len, uint8_t *tag, size_t tag_len,     \
              int decrypt);                                                    \
    int aegis(int variant, const uint8_t *key, const uint8_t *nonce,           \
              const uint8_t *aad, size_t aad_len, uint8_t *out,                \
              const uint8_t *in, size_t len, uint8_t *tag, size_t tag_len,     \
              int decrypt)                                                     \
    {                                                                          \
        switch (variant) {                                                     \
            CASES(AEGIS_WIDE_CASE)                                             \
        default:                                                               \
            return -1;                                                         \
        }                                                                      \
        return 0;                                                              \
    }                                                                          \
    int update(int variant, unsigned op, uint8_t *state, uint8_t *out,         \
               const uint8_t *in, size_t nblocks);                             \
    int update(int variant, unsigned op, uint8_t *state, uint8_t *out,         \
               const uint8_t *in, size_t nblocks)                              \
    {                                                                          \
        switch (variant) {                                                     \
            CASES(AEGIS_WIDE_UCASE)                                            \
        default:                                                               \
            return -1;                                                         \
        }                                                                      \
        return 0;                                                              \
    }

#endif /* AESIR_AEGIS_WIDE_H */
