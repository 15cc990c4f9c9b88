/*
 * stack_wipe.h -- entry points that leave no secrets in dead stack
 * frames, for the software engines (ref, ref-otf, ttable, ct64, bs-avx2,
 * bs-avx512, the vector-permute engines, gfni).
 *
 * Their bodies keep more live values than there are registers (a
 * bitsliced state is 8 words, a vector-permute round a dozen tables and
 * temporaries per block, four or eight blocks interleaved), so the
 * compilers spill state words, output blocks and round keys to the
 * stack, and those stay in the dead frames after the call: the output
 * block of a decryption (plaintext) or of a mode's counter or register
 * (keystream). Which values and where is the compiler's choice, not the
 * code's (gcc 12 and clang 14 leave different ones), so no aesir_wipe()
 * of a named array reaches them all. Instead each entry point runs its
 * body out of line and then wipes the stack the body used
 * (aesir_wipe_stack, internal.h): one memset of a kilobyte or so per
 * call, against hundreds of cycles per block of these engines. The
 * AES-instruction engines keep their secrets in registers and need this
 * only in their multi-buffer managers (aesni.c, vaes_core.h) and fused
 * GCM kernels (STACK_WIPED_GCM). The GHASH
 * engines in C (src/ghash/: ref, ct64, table4, table8) use it too.
 *
 * The bound each entry point passes: the deepest chain of frames under
 * its body, from gcc 12's call graph (-fcallgraph-info=su) with the
 * larger of gcc 12's and clang 14's frame sizes (-fstack-usage), at -O3,
 * plus 256 bytes, rounded up to 64. The memset costs about 23 TSC cycles
 * a kilobyte (glibc's, on Zen 4).
 * tests/test_residue.c scans the stack after every entry point, built by
 * either compiler, and fails on what a bound too short leaves.
 *
 * The macros define an entry point `name` of the engine interface's
 * type (internal.h) that calls `body`, a function of the same type the
 * includer marks STACK_WIPE_BODY (noinline: its frame must lie below the
 * entry point's, not be merged into it), then wipes `bytes` of stack.
 */
#ifndef AESIR_STACK_WIPE_H
#define AESIR_STACK_WIPE_H

#if defined(__GNUC__) || defined(__clang__)
#define STACK_WIPE_BODY __attribute__((noinline))
#else
#define STACK_WIPE_BODY
#endif

/* aesir_setkey_fn */
#define STACK_WIPED_SETKEY(name, body, bytes)                                  \
    static void name(void *rk, const uint8_t *key, size_t key_len)             \
    {                                                                          \
        body(rk, key, key_len);                                                \
        aesir_wipe_stack(bytes);                                               \
    }

/* aesir_blocks_fn */
#define STACK_WIPED_BLOCKS(name, body, bytes)                                  \
    static void name(const void *rk, unsigned nr, uint8_t *out,                \
                     const uint8_t *in, size_t nblocks)                        \
    {                                                                          \
        body(rk, nr, out, in, nblocks);                                        \
        aesir_wipe_stack(bytes);                                               \
    }

/* aesir_ctr_fn and aesir_cbc_fn (the same arguments) */
#define STACK_WIPED_CHAIN(name, body, bytes)                                   \
    static void name(const void *rk, unsigned nr, uint8_t iv[16],              \
                     uint8_t *out, const uint8_t *in, size_t nblocks)          \
    {                                                                          \
        body(rk, nr, iv, out, in, nblocks);                                    \
        aesir_wipe_stack(bytes);                                               \
    }

/* aesir_ghash_fn (src/ghash/ghash.h): the GHASH engines written in C
 * (ghash-ref, ghash-ct64, ghash-table4/8), whose frames hold the hash
 * state, the last of which is J0 or the tag's S, and ghash-ct64's key
 * words. */
#define STACK_WIPED_GHASH(name, body, bytes)                                   \
    static void name(const void *hk, uint8_t y[16], const uint8_t *in,         \
                     size_t nblocks)                                           \
    {                                                                          \
        body(hk, y, in, nblocks);                                              \
        aesir_wipe_stack(bytes);                                               \
    }

/* aesir_gcm_fn (internal.h): the fused GCM kernels of the AES-instruction
 * engines, one kernel per key size (f10, f12, f14, taking rk, hk, ctr, y,
 * out, in, len: nr a constant, the rounds unrolled, the keys in
 * registers). The entry point does nothing below one block, picks the
 * kernel by nr and wipes what the compiler spilled of blocks, keystream
 * and sums. Not static: the engine's struct is in another file. */
#define STACK_WIPED_GCM(name, f10, f12, f14, bytes)                            \
    size_t name(const void *rk, unsigned nr, const void *hk, uint8_t ctr[16],  \
                uint8_t y[16], uint8_t *out, const uint8_t *in, size_t len)    \
    {                                                                          \
        size_t done;                                                           \
        if (len < 16)                                                          \
            return 0;                                                          \
        if (nr == 10)                                                          \
            done = f10(rk, hk, ctr, y, out, in, len);                          \
        else if (nr == 12)                                                     \
            done = f12(rk, hk, ctr, y, out, in, len);                          \
        else                                                                   \
            done = f14(rk, hk, ctr, y, out, in, len);                          \
        aesir_wipe_stack(bytes);                                               \
        return done;                                                           \
    }

#endif /* AESIR_STACK_WIPE_H */
