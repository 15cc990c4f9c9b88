/*
 * x86_aegis.h -- the AEGIS entry points of the x86 engines with AES
 * instructions (internal.h: aes_round, aegis), each in a file beside its
 * engine:
 *
 *   aesni_aegis.c        xmm: AEGIS-128L and AEGIS-256
 *   vaes_avx2_aegis.c    xmm, and ymm for AEGIS-128X2 / AEGIS-256X2
 *   vaes_avx512_aegis.c  xmm, ymm, and zmm for AEGIS-128X4 / AEGIS-256X4
 *
 * The kernels are aegis_kernel.h at each width; a variant an engine has
 * no kernel for runs the generic AEGIS (src/aead/aegis.c) on the
 * engine's aes_round.
 */
#ifndef AESIR_X86_AEGIS_H
#define AESIR_X86_AEGIS_H

#include "internal.h"

#define X86_AEGIS_DECLARE(engine)                                              \
    void aesir_##engine##_aes_round(uint8_t *state, const uint8_t *rk,         \
                                    size_t n);                                 \
    int aesir_##engine##_aegis(                                                \
        int variant, const uint8_t *key, const uint8_t *nonce,                 \
        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,   \
        size_t len, uint8_t *tag, size_t tag_len, int decrypt);                \
    int aesir_##engine##_aegis_update(int variant, unsigned op,                \
                                      uint8_t *state, uint8_t *out,            \
                                      const uint8_t *in, size_t nblocks);

X86_AEGIS_DECLARE(aesni)
X86_AEGIS_DECLARE(vaes_avx2)
X86_AEGIS_DECLARE(vaes_avx512)
aesir_aegis_fn aesir_vaes_avx512_aegis_for(int variant);

/*
 * The entry points' common part: the kernel for variant from the
 * engine's list (CASES(X): X(variant, kernel, bytes) per variant), then
 * a wipe of the stack the kernel's frame used (state spills, the padded
 * block, the lanes of the tag; x86_aegis_wipe, below): its frame
 * measured from the compiled code (x1 240 bytes with the saved
 * registers with gcc 12, up to 336 with clang 14, whose spills reach
 * 312 bytes below the return address; x2 320, x4 896 + 64 of alignment
 * with gcc 12) with margin, checked by tests/test_residue.c. A wipe is
 * some 3 TSC cycles per 320 bytes, still a thirtieth of an empty
 * message, so it is sized per kernel. aegis_update is the same list's
 * kernels with a "u": the
 * incremental API's blocks (aegis_kernel.h).
 */
#define X86_AEGIS_ENTRY(engine, CASES)                                         \
    X86_AEGIS_WIPERS()                                                         \
    int aesir_##engine##_aegis(                                                \
        int variant, const uint8_t *key, const uint8_t *nonce,                 \
        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,   \
        size_t len, uint8_t *tag, size_t tag_len, int decrypt)                 \
    {                                                                          \
        switch (variant) {                                                     \
            CASES(AEGIS_CASE)                                                  \
        default:                                                               \
            return -1;                                                         \
        }                                                                      \
        return 0;                                                              \
    }                                                                          \
    int aesir_##engine##_aegis_update(int variant, unsigned op,                \
                                      uint8_t *state, uint8_t *out,            \
                                      const uint8_t *in, size_t nblocks)       \
    {                                                                          \
        switch (variant) {                                                     \
            CASES(AEGIS_UCASE)                                                 \
        default:                                                               \
            return -1;                                                         \
        }                                                                      \
        return 0;                                                              \
    }
#define AEGIS_CASE(v, fn, bytes)                                               \
    case v:                                                                    \
        fn(key, nonce, aad, aad_len, out, in, len, tag, tag_len, decrypt);     \
        if ((bytes) != 0)                                                      \
            x86_aegis_wipe(bytes);                                             \
        break;
#define AEGIS_UCASE(v, fn, bytes)                                              \
    case v:                                                                    \
        if (nblocks != 0) {                                                    \
            fn##u(state, op, out, in, nblocks);                                \
            x86_aegis_wipe(AEGIS_USTACK);                                      \
        }                                                                      \
        (void)(bytes);                                                         \
        break;

/*
 * The stack wipe after a kernel, as aesir_wipe_stack (internal.h: an
 * out-of-line function whose array lies where the kernel's frame was)
 * but of a fixed size per call site, by unrolled vector stores of
 * X86_AEGIS_WIPE_T (the engine file may define a wider one). gcc makes
 * aesir_wipe_stack's memset a REP STOSQ, whose start-up took 65% of its
 * 10 TSC cycles for 320 bytes: a tenth of an empty AEGIS-128L message
 * (Zen 4, perf); these take about 3. Volatile stores, so that no
 * compiler turns them back into a memset.
 */
#ifndef X86_AEGIS_WIPE_T
#define X86_AEGIS_WIPE_T __m128i_u
#define X86_AEGIS_WIPE_ZERO _mm_setzero_si128()
#endif
#define X86_AEGIS_WIPER(bytes)                                                 \
    __attribute__((noinline, unused))                                          \
    ENGINE_FN void x86_aegis_wipe##bytes(void)                                 \
    {                                                                          \
        unsigned char b[bytes];                                                \
        for (size_t i = 0; i < sizeof(b); i += sizeof(X86_AEGIS_WIPE_T))       \
            *(volatile X86_AEGIS_WIPE_T *)(void *)(b + i) =                    \
                X86_AEGIS_WIPE_ZERO;                                           \
    }
#define X86_AEGIS_WIPERS()                                                     \
    X86_AEGIS_WIPER(256)                                                       \
    X86_AEGIS_WIPER(320)                                                       \
    X86_AEGIS_WIPER(640)                                                       \
    X86_AEGIS_WIPER(1280)                                                      \
    /* n: one of AEGIS_USTACK, AEGIS_STACK1/2/4 (below), a constant */         \
    static inline void x86_aegis_wipe(size_t n)                                \
    {                                                                          \
        if (n <= 256)                                                          \
            x86_aegis_wipe256();                                               \
        else if (n <= 320)                                                     \
            x86_aegis_wipe320();                                               \
        else if (n <= 640)                                                     \
            x86_aegis_wipe640();                                               \
        else                                                                   \
            x86_aegis_wipe1280();                                              \
    }

/*
 * The one-lane AEGIS-256 kernel's attributes (aegis_kernel.h AK_B_ATTR)
 * on the VEX engines: gcc's scheduler after register allocation (on at
 * -O2) moved the XOR of the message into x0 in between the update's six
 * rounds and interleaved the keystream with them; without it the rounds
 * stay together as written, and Zen 4 runs them faster. Measured (Zen 4,
 * gcc 12, both kernels in one binary, TSC cycles per message): seal of
 * 64 / 576 / 16384 bytes 83 / 193 / 3604 -> 80 / 185 / 3425 with
 * VPTERNLOG (vaes-avx512), 83 / 193 / 3572 -> 80 / 186 / 3419 without
 * (vaes-avx2); open 84 / 200 / 3673 -> 80 / 195 / 3663 and 83 / 204 /
 * 3718 -> 80 / 190 / 3520; a loop of updates alone 3.45 -> 3.17 cycles
 * an update. Not on AEGIS-128L's pair kernel (slower without it: 16 KiB
 * seal 1970 -> 2018) nor on aesni (not measured: SSE encoding).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define X86_AEGIS_B_ATTR __attribute__((optimize("no-schedule-insns2")))
#else
#define X86_AEGIS_B_ATTR
#endif

/* Stack to wipe after a kernel of 1, 2, 4 lanes; after the incremental
 * API's block kernels (AK_NAME(lu), AK_NAME(bu)), which keep the state
 * in registers and had no frame at all with gcc 12 or clang 14 (a
 * margin for a compiler that spills a register or two): the wipe is per update
 * call, and 1280 bytes of it cost some 40 TSC cycles of a 16 KiB update of
 * AEGIS-128X4 (about 1100). */
#define AEGIS_USTACK 256
#define AEGIS_STACK0 0 /* a kernel with no frame (X86_AEGIS_DIRECT) */
#define AEGIS_STACK1 320
#define AEGIS_STACK2 640
#define AEGIS_STACK4 1280

/*
 * A kernel with no frame to wipe (its state and data in registers, its
 * partial blocks by masked loads and stores, no call) as a function of
 * aesir_aegis_fn's type: aegis.c calls it directly (internal.h,
 * aegis_for), without the entry's jump table and the wipe's call. The
 * kernel stays out of line (its frame below this one's): this wrapper
 * drops the variant argument and passes the rest on.
 */
#define X86_AEGIS_DIRECT(name, fn)                                             \
    static int name(int variant, const uint8_t *key, const uint8_t *nonce,     \
                    const uint8_t *aad, size_t aad_len, uint8_t *out,          \
                    const uint8_t *in, size_t len, uint8_t *tag,               \
                    size_t tag_len, int decrypt)                               \
    {                                                                          \
        (void)variant;                                                         \
        fn(key, nonce, aad, aad_len, out, in, len, tag, tag_len, decrypt);     \
        return 0;                                                              \
    }

/* One AES round per block, xmm (the generic path of the variants an
 * engine has no kernel for). */
#define X86_AES_ROUND(engine)                                                  \
    STACK_WIPE_BODY ENGINE_FN void engine##_aes_round_body(                    \
        uint8_t *state, const uint8_t *rk, size_t n)                           \
    {                                                                          \
        for (size_t i = 0; i < n; i++) {                                       \
            __m128i x = _mm_loadu_si128(                                       \
                (const __m128i *)(const void *)(state + 16 * i));              \
            const __m128i k =                                                  \
                _mm_loadu_si128((const __m128i *)(const void *)(rk + 16 * i)); \
            _mm_storeu_si128((__m128i *)(void *)(state + 16 * i),              \
                             _mm_aesenc_si128(x, k));                          \
        }                                                                      \
    }                                                                          \
    void aesir_##engine##_aes_round(uint8_t *state, const uint8_t *rk,         \
                                    size_t n)                                  \
    {                                                                          \
        engine##_aes_round_body(state, rk, n);                                 \
        aesir_wipe_stack(256);                                                 \
    }

#endif /* AESIR_X86_AEGIS_H */
