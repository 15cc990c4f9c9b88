/*
 * aesir.h -- the one public header of libaesir.
 *
 * aesir is AES (FIPS-197, 128-, 192- and 256-bit keys) with every serious
 * software technique side by side behind one API ("engines"), and the block
 * cipher modes of NIST SP 800-38A written once on top of them.
 *
 * Conventions
 *   - Every function that can fail returns an int: AESIR_OK (0) or a negative
 *     AESIR_E_* code; aesir_strerror() turns a code into a message.
 *   - No function allocates memory. Contexts are opaque, fixed-size structs
 *     the caller places where it likes (stack, heap, static).
 *   - Buffers need no alignment. Input and output may be the same buffer
 *     (in-place); partially overlapping buffers are not supported.
 *   - Nothing is written to an output buffer when a function fails, except
 *     where a function says otherwise. Lengths may be any size_t value,
 *     SIZE_MAX included: sizes are never computed in a way that wraps.
 *   - Contexts (aesir_aes, aesir_cipher) need 16-byte alignment, which
 *     malloc() gives; see aesir_aes for placement.
 *
 * Threads: every function may be called from any thread at any time,
 * including the first calls of a process: the CPU probe, the choice of
 * the default engine, the engines' self-tests and the other one-time
 * set-up are made safely by whichever thread comes first (atomics; no
 * locks, no allocation). A key context (aesir_aes) that is only read --
 * by encryption, decryption, aesir_cipher_init, multi-buffer jobs -- may
 * be shared between threads; it must not be initialised or cleared while
 * another thread uses it. A cipher context (aesir_cipher) belongs to one
 * thread at a time. tests/test_threads.c checks this under
 * ThreadSanitizer (make tsan).
 *
 * Constant time: engines flagged AESIR_ENGINE_CONSTANT_TIME have no branch
 * and no memory index that depends on the key or the data. The others
 * (ref, ref-otf, ttable) use table look-ups indexed by secret bytes and leak
 * through the cache; they are never chosen by default while a constant-time
 * engine exists (every build has one: ct64 runs anywhere), only when asked
 * for by name. SECURITY.md says how this is checked, and what is wiped.
 */
#ifndef AESIR_H
#define AESIR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define AESIR_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define AESIR_WARN_UNUSED
#endif

/* Symbols of the shared library; everything else in it is hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define AESIR_API __attribute__((visibility("default")))
#else
#define AESIR_API
#endif

#ifdef __cplusplus
#define AESIR_ALIGNAS(n) alignas(n)
#else
#define AESIR_ALIGNAS(n) _Alignas(n)
#endif

#define AESIR_VERSION "0.1.0"
#define AESIR_BLOCK_SIZE 16

/* ---------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------- */

/* clang-format off */
enum {
    AESIR_OK = 0,
    AESIR_E_KEY_LENGTH = -1,        /* key is not 16, 24 or 32 bytes */
    AESIR_E_IV_LENGTH = -2,         /* IV/nonce of the wrong length */
    AESIR_E_PADDING = -3,           /* invalid padding on decryption */
    AESIR_E_OUTPUT_SIZE = -4,       /* output buffer too small */
    AESIR_E_COUNTER_OVERFLOW = -5,  /* CTR counter would wrap */
    AESIR_E_INPUT_LENGTH = -6,      /* length not a multiple of the block */
    AESIR_E_ENGINE_UNKNOWN = -7,    /* no engine of that name in the build */
    AESIR_E_ENGINE_UNAVAILABLE = -8,/* engine known, but not on this CPU */
    AESIR_E_ARGUMENT = -9,          /* NULL pointer or invalid option */
    AESIR_E_STATE = -10,            /* context not initialised, finished, or
                                       keyed for the other direction */
    AESIR_E_SELFTEST = -11,         /* an engine failed its known-answer test */
    AESIR_E_AUTH = -12,             /* authentication failed: tag, or
                                       integrity check, does not match */
    AESIR_E_KEY_WEAK = -13          /* key refused as weak: the two halves
                                       of an XTS key are equal */
};
/* clang-format on */

/*
 * aesir_strerror -- a short English message for an AESIR_* code. Never
 * returns NULL; unknown codes get "unknown error".
 */
AESIR_API const char *aesir_strerror(int err);

/* aesir_version -- the library's version string, e.g. "0.1.0". */
AESIR_API const char *aesir_version(void);

/* ---------------------------------------------------------------------
 * Engines
 *
 * An engine is one implementation technique of the AES block function.
 * Engines are numbered 0 .. aesir_engine_count()-1 in a fixed order.
 * ------------------------------------------------------------------- */

#define AESIR_ENGINE_CONSTANT_TIME 1u /* no secret-dependent branch/index */
#define AESIR_ENGINE_HARDWARE 2u      /* uses AES instructions */
#define AESIR_ENGINE_AVAILABLE 4u     /* this CPU and build can run it */

/* aesir_engine_count -- number of engines compiled into this build. */
AESIR_API size_t aesir_engine_count(void);

/* aesir_engine_name -- name of engine i ("ref", "ttable", ...), or NULL
 * when i is out of range. */
AESIR_API const char *aesir_engine_name(size_t i);

/* aesir_engine_description -- one line saying what engine i is, or NULL
 * when i is out of range. */
AESIR_API const char *aesir_engine_description(size_t i);

/* aesir_engine_flags -- AESIR_ENGINE_* bits of engine i; 0 when i is out
 * of range. */
AESIR_API unsigned aesir_engine_flags(size_t i);

/* aesir_engine_find -- index of the engine called name, or -1. */
AESIR_API int aesir_engine_find(const char *name);

/*
 * aesir_engine_default -- name of the engine used when the caller does not
 * choose: the value of the environment variable AESIR_ENGINE when it names
 * an available engine, else the fastest available constant-time engine
 * (every build has one: ct64 runs anywhere). Read once,
 * on first use. An AESIR_ENGINE value that names no engine of the build,
 * or one this CPU cannot run, is ignored (the rule above then chooses);
 * `aesir info` and `aesir selftest` warn about it. Never NULL.
 */
AESIR_API const char *aesir_engine_default(void);

/*
 * aesir_engine_selftest -- runs the known-answer tests (FIPS-197 appendix
 * C, all key sizes, both directions, one- and many-block paths) on the
 * engine called name. Returns AESIR_OK, AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE or AESIR_E_SELFTEST.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_engine_selftest(const char *name);

/*
 * aesir_cpu_feature -- name of CPU feature i ("aesni", "vaes", "avx512f",
 * "neon", ...), or NULL past the last one; *present (when not NULL) is set
 * to 1 when this CPU has it and the OS enabled it, after the mask in the
 * environment variable AESIR_CPU_DISABLE ("aesni,avx512f" or "all"), which
 * lets tests exercise fallbacks. Items of AESIR_CPU_DISABLE that name no
 * feature are ignored (the others still apply); `aesir info` and `aesir
 * selftest` warn about them. Probed once.
 */
AESIR_API const char *aesir_cpu_feature(size_t i, int *present);

/*
 * aesir_cpu_model -- the CPU model class the default engine's choice
 * depends on: "intel-spr", "intel-icl-client", "amd-zen4", or "other"
 * (no rule of its own). It comes from the CPUID vendor, family and model,
 * or from the environment variable AESIR_CPU_MODEL when that holds one of
 * these names (for tests; other values are ignored). When ident is not
 * NULL it receives this CPU's own identity as text, e.g. "AuthenticAMD
 * family 0x19 model 0x11" (empty where there is no CPUID). Probed once.
 */
AESIR_API const char *aesir_cpu_model(char ident[48]);

/*
 * aesir_engine_ranked -- name of the i-th engine in the order the default
 * is chosen from on this CPU, fastest first: available engines only,
 * constant-time or not (the default is the first constant-time one,
 * unless AESIR_ENGINE names another). NULL past the last. When why is not
 * NULL, *why is set to one line naming the rule that ordered them (per
 * CPU model) and where its figures come from.
 */
AESIR_API const char *aesir_engine_ranked(size_t i, const char **why);

/* ---------------------------------------------------------------------
 * Block cipher: key contexts
 * ------------------------------------------------------------------- */

/*
 * aesir_aes -- an expanded AES key for one engine. Opaque; its size
 * (1984 bytes) is fixed for every engine: a header and the round keys of
 * both directions in the largest layout (the bitsliced engines' AES-256
 * schedules, 960 bytes each). Clear it
 * with aesir_aes_clear() when done: that wipes the key material.
 *
 * Placement: anywhere 16-byte aligned -- the stack, static storage, or
 * memory from malloc() (which returns at least that on the platforms
 * aesir supports; on 32-bit PowerPC, whose stack is only 8-byte aligned
 * in practice, 8 is enough). aesir_aes_init and aesir_aes_init_ex refuse a
 * context that is not 16-byte aligned with AESIR_E_ARGUMENT and write nothing
 * to it; every other function takes such a context (a key copied to a
 * misaligned place, say) for one not initialised: AESIR_E_STATE. A context at a
 * 64-byte boundary (aligned_alloc(64, sizeof(aesir_aes))) has its round keys on
 * whole cache lines, which makes key setup on the VAES engines a little
 * faster; everything else runs at the same speed. A context may be copied
 * (memcpy or assignment) to another 16-byte-aligned place.
 */
typedef struct aesir_aes {
    AESIR_ALIGNAS(16) unsigned char opaque[1984];
} aesir_aes;

/* Directions, for aesir_aes_init_ex() and aesir_cipher_init(). */
#define AESIR_ENCRYPT 1u
#define AESIR_DECRYPT 2u

/*
 * aesir_aes_init -- expands key (key_len = 16, 24 or 32 bytes) for both
 * directions with the default engine. Errors: AESIR_E_KEY_LENGTH,
 * AESIR_E_ARGUMENT (NULL pointer), AESIR_E_SELFTEST (the default engine
 * failed its known-answer test). On error ctx is left cleared.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_aes_init(aesir_aes *ctx, const uint8_t *key, size_t key_len);

/*
 * aesir_aes_init_ex -- as aesir_aes_init(), with the engine chosen by name
 * (NULL: the default) and the directions to prepare (AESIR_ENCRYPT,
 * AESIR_DECRYPT or both; CTR, CFB and OFB need only AESIR_ENCRYPT). The
 * context refuses a direction not prepared; an engine may skip its key
 * schedule or, where that is cheaper than wiping its area, make it
 * anyway. Further errors:
 * AESIR_E_ENGINE_UNKNOWN, AESIR_E_ENGINE_UNAVAILABLE, AESIR_E_ARGUMENT
 * (dirs is 0 or has other bits).
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_aes_init_ex(aesir_aes *ctx, const uint8_t *key, size_t key_len,
                  const char *engine, unsigned dirs);

/* aesir_aes_engine -- name of the engine ctx uses, or NULL when ctx is
 * not initialised. */
AESIR_API const char *aesir_aes_engine(const aesir_aes *ctx);

/* aesir_aes_key_bits -- 128, 192 or 256; 0 when ctx is not initialised. */
AESIR_API unsigned aesir_aes_key_bits(const aesir_aes *ctx);

/*
 * aesir_aes_encrypt_blocks / aesir_aes_decrypt_blocks -- the raw block
 * cipher on n consecutive 16-byte blocks (ECB without padding). Errors:
 * AESIR_E_STATE (ctx not initialised, or not for that direction),
 * AESIR_E_ARGUMENT, AESIR_E_INPUT_LENGTH (16 * nblocks does not fit in a
 * size_t).
 */
AESIR_API int aesir_aes_encrypt_blocks(const aesir_aes *ctx, uint8_t *out,
                                       const uint8_t *in, size_t nblocks);
AESIR_API AESIR_WARN_UNUSED int aesir_aes_decrypt_blocks(const aesir_aes *ctx,
                                                         uint8_t *out,
                                                         const uint8_t *in,
                                                         size_t nblocks);

/* aesir_aes_encrypt_block / aesir_aes_decrypt_block -- one block. */
AESIR_API int aesir_aes_encrypt_block(const aesir_aes *ctx, uint8_t out[16],
                                      const uint8_t in[16]);
AESIR_API AESIR_WARN_UNUSED int aesir_aes_decrypt_block(const aesir_aes *ctx,
                                                        uint8_t out[16],
                                                        const uint8_t in[16]);

/* aesir_aes_clear -- wipes ctx (round keys included). Safe on a cleared
 * or never-initialised context. */
AESIR_API void aesir_aes_clear(aesir_aes *ctx);

/* ---------------------------------------------------------------------
 * Modes of operation (NIST SP 800-38A)
 * ------------------------------------------------------------------- */

typedef enum aesir_mode {
    AESIR_MODE_ECB = 1,
    AESIR_MODE_CBC = 2,
    AESIR_MODE_CFB128 = 3,
    AESIR_MODE_CFB8 = 4,
    AESIR_MODE_CFB1 = 5,
    AESIR_MODE_OFB = 6,
    AESIR_MODE_CTR = 7
} aesir_mode;

/*
 * Padding, for ECB and CBC (the option argument of aesir_cipher_init()).
 *
 * AESIR_PAD_NONE  -- input must be a multiple of 16 bytes, else
 *                    AESIR_E_INPUT_LENGTH.
 * AESIR_PAD_PKCS7 -- PKCS#7 (RFC 5652 section 6.3): 1..16 bytes, each equal
 *                    to the pad length, always added. Decryption checks
 *                    every pad byte in constant time and returns
 *                    AESIR_E_PADDING, with no plaintext, when it is wrong.
 *                    (Padding errors are an oracle if an attacker can
 *                    submit ciphertexts and observe the outcome; use an
 *                    AEAD mode against active attackers.)
 * AESIR_PAD_ZERO  -- 0..15 zero bytes fill the last block (none when the
 *                    input is already a multiple of 16). Decryption cannot
 *                    know the true length: it returns every byte,
 *                    trailing zeros included, and the caller must know the
 *                    length by other means. Plaintexts that end in zero
 *                    bytes do not survive a round trip unchanged in length.
 */
#define AESIR_PAD_NONE 0u
#define AESIR_PAD_PKCS7 1u
#define AESIR_PAD_ZERO 2u

/*
 * aesir_cipher -- incremental state of one message in one mode. Opaque,
 * fixed size, 16-byte aligned (aesir_cipher_init refuses another address
 * with AESIR_E_ARGUMENT). It keeps a pointer to the key context: the key
 * must outlive the cipher context. A key cleared (or set up again without
 * the direction the mode needs) while a cipher context uses it is
 * noticed: update and final then return AESIR_E_STATE.
 */
typedef struct aesir_cipher {
    AESIR_ALIGNAS(16) unsigned char opaque[192];
} aesir_cipher;

/*
 * aesir_cipher_init -- starts a message.
 *   key:     a key context initialised for the direction needed (CBC and
 *            ECB decryption need AESIR_DECRYPT; every other case needs
 *            AESIR_ENCRYPT).
 *   mode:    AESIR_MODE_*.
 *   dir:     AESIR_ENCRYPT or AESIR_DECRYPT.
 *   iv:      16 bytes (iv_len = 16) for every mode but ECB, which takes
 *            none (iv = NULL, iv_len = 0). For CTR, the initial counter
 *            block.
 *   option:  ECB/CBC: AESIR_PAD_*. CTR: the counter width in bits, 32, 64
 *            or 128 (0 means 128): the low `option` bits of the counter
 *            block, read big-endian, are the counter; the bits above never
 *            change. Other modes: 0.
 * Errors: AESIR_E_ARGUMENT, AESIR_E_IV_LENGTH, AESIR_E_STATE.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_cipher_init(aesir_cipher *c, const aesir_aes *key, aesir_mode mode,
                  unsigned dir, const uint8_t *iv, size_t iv_len,
                  unsigned option);

/*
 * aesir_cipher_update -- processes in_len bytes (any length, any split).
 * Writes *out_len bytes to out, at most aesir_cipher_update_size(c,
 * in_len). For CFB128, CFB8, CFB1, OFB and CTR the output is exactly
 * in_len bytes (CFB1 works on whole bytes here, 8 segments of one bit per
 * byte, most significant bit first; see aesir_cfb1_encrypt for bit
 * lengths). For ECB and CBC, output lags behind input by up to one block
 * (two when decrypting with PKCS#7 padding, whose last block is held back
 * until final).
 * Errors: AESIR_E_OUTPUT_SIZE (out_cap too small; nothing is consumed),
 * AESIR_E_COUNTER_OVERFLOW (CTR: the counter would wrap within this call;
 * nothing is consumed and the context stays usable for shorter input),
 * AESIR_E_STATE, AESIR_E_ARGUMENT.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_cipher_update(aesir_cipher *c, uint8_t *out, size_t out_cap,
                    size_t *out_len, const uint8_t *in, size_t in_len);

/*
 * aesir_cipher_final -- finishes the message: writes the last block for
 * ECB/CBC (padding added, or checked and removed), nothing for the other
 * modes, then wipes the context. At most 16 bytes are written: 16 when
 * encrypting with padding and a partial block or PKCS#7 pending; when
 * decrypting with PKCS#7, the last block's plaintext, 0..15 bytes (the
 * padding is checked before the size: out_cap = 15 always suffices).
 * Errors: AESIR_E_INPUT_LENGTH (no padding and input not a multiple of
 * 16; or a decryption whose total input is not), AESIR_E_PADDING (nothing
 * is written), AESIR_E_OUTPUT_SIZE (nothing is written and the context
 * stays usable: call again with a larger buffer), AESIR_E_ARGUMENT (NULL
 * out_len, or NULL out with out_cap > 0), AESIR_E_STATE. Any error other
 * than AESIR_E_OUTPUT_SIZE wipes the context.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_cipher_final(aesir_cipher *c,
                                                   uint8_t *out, size_t out_cap,
                                                   size_t *out_len);

/* aesir_cipher_update_size -- the most bytes aesir_cipher_update() can
 * write for in_len more input bytes (0 for an uninitialised context, or
 * one whose key was cleared); SIZE_MAX when that number does not fit in
 * a size_t (no buffer is that large: the update would fail). */
AESIR_API size_t aesir_cipher_update_size(const aesir_cipher *c, size_t in_len);

/* aesir_cipher_clear -- wipes c without finishing; safe on any context. */
AESIR_API void aesir_cipher_clear(aesir_cipher *c);

/*
 * One-shot functions. Each gives what aesir_cipher_init + update + final
 * give on the whole input, output and errors alike. For ECB and CBC,
 * out_cap is the size of out; the output length is written to *out_len.
 * out_cap must be at least:
 *   encryption, AESIR_PAD_NONE     in_len (a multiple of 16)
 *   encryption, AESIR_PAD_PKCS7    in_len rounded down to a multiple of
 *                                  16, plus 16
 *   encryption, AESIR_PAD_ZERO     in_len rounded up to a multiple of 16
 *   decryption, AESIR_PAD_PKCS7    the plaintext's length, in_len - pad
 *                                  (the padding is read first; in_len
 *                                  - 1 always suffices)
 *   decryption, otherwise          in_len
 * Every check is made before anything is written: on any error *out_len
 * is 0 and out is left as it was (in place: the input survives).
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ecb_encrypt(const aesir_aes *key, unsigned padding, uint8_t *out,
                  size_t out_cap, size_t *out_len, const uint8_t *in,
                  size_t in_len);
AESIR_API AESIR_WARN_UNUSED int
aesir_ecb_decrypt(const aesir_aes *key, unsigned padding, uint8_t *out,
                  size_t out_cap, size_t *out_len, const uint8_t *in,
                  size_t in_len);
AESIR_API AESIR_WARN_UNUSED int
aesir_cbc_encrypt(const aesir_aes *key, const uint8_t iv[16], unsigned padding,
                  uint8_t *out, size_t out_cap, size_t *out_len,
                  const uint8_t *in, size_t in_len);
AESIR_API AESIR_WARN_UNUSED int
aesir_cbc_decrypt(const aesir_aes *key, const uint8_t iv[16], unsigned padding,
                  uint8_t *out, size_t out_cap, size_t *out_len,
                  const uint8_t *in, size_t in_len);

/*
 * Multi-buffer CBC encryption
 *
 * CBC encryption of one message is serial: block i needs ciphertext i-1,
 * so one message runs at the latency of the AES rounds, a fraction of
 * what the AES units can do. Many independent messages (packets of
 * different connections on an IPsec or TLS server) can instead go
 * through the pipeline side by side, one block of each per round, and
 * together reach the throughput bound.
 *
 * aesir_cbc_job -- one message of aesir_cbc_encrypt_many().
 *   key:    a key context initialised for AESIR_ENCRYPT, on any engine
 *           and of any size; jobs may mix them.
 *   in:     len bytes of plaintext.
 *   out:    len bytes of ciphertext; may equal in (in-place), must not
 *           otherwise overlap in, nor any buffer of another job.
 *   len:    a multiple of 16 (no padding is added); 0 is allowed.
 *   iv:     on input the IV; on success the last ciphertext block (the
 *           IV unchanged when len is 0), so that a message cut into
 *           pieces continues with the next call.
 *   status: set by the call: AESIR_OK or this job's error.
 */
typedef struct aesir_cbc_job {
    const aesir_aes *key;
    const uint8_t *in;
    uint8_t *out;
    size_t len;
    uint8_t iv[16];
    int status;
} aesir_cbc_job;

/*
 * aesir_cbc_encrypt_many -- CBC-encrypts the njobs jobs, each exactly as
 * aesir_cbc_encrypt(key, iv, AESIR_PAD_NONE, ...) would, interleaving
 * their blocks across the AES pipeline when the engine supports it
 * (aesni, vaes-avx2, vaes-avx512) and one job after another otherwise.
 * It pays from 2 messages on: with 8 or 16 messages of a few KiB in
 * flight, several times the speed of encrypting them one after another
 * (docs/engines/vaes.md). Jobs may be in any order and of any lengths;
 * a job's iv and status are its only fields the call writes.
 * Each job is checked on its own: AESIR_E_STATE (key NULL, not
 * initialised, or not for AESIR_ENCRYPT), AESIR_E_INPUT_LENGTH (len not
 * a multiple of 16), AESIR_E_ARGUMENT (in or out NULL with len > 0). A
 * job that fails writes nothing to out and leaves its iv unchanged; the
 * other jobs are still encrypted. Returns AESIR_OK when every job
 * succeeded, else the error of the first job that failed (the status of
 * each job says which); AESIR_E_ARGUMENT when jobs is NULL and njobs >
 * 0. Contexts shared between jobs are only read.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_cbc_encrypt_many(aesir_cbc_job *jobs,
                                                       size_t njobs);

/*
 * aesir_cbc_mac_many -- the CBC-MAC chain of the njobs jobs: for each,
 * exactly the iv that aesir_cbc_encrypt_many would return (the last block
 * of the CBC encryption of in under the job's iv, or the iv itself when
 * len is 0), with no ciphertext written anywhere: out is not used and may
 * be NULL. Blocks of different jobs are interleaved as in
 * aesir_cbc_encrypt_many (aesni, vaes-avx2, vaes-avx512), and it pays in
 * the same cases: from 2 messages on (docs/engines/vaes.md has figures).
 * Checks, statuses and the return value as for aesir_cbc_encrypt_many,
 * except that a NULL out is not an error.
 *
 * With an all-zero iv, this is the raw CBC-MAC (ISO/IEC 9797-1 MAC
 * algorithm 1, no padding). On its own it is a secure MAC only for
 * messages of one fixed length per key: it is the building block of
 * CMAC (NIST SP 800-38B) and CCM (SP 800-38C), which make it safe for
 * messages of any length. A message cut into pieces continues with the
 * next call through the returned iv.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_cbc_mac_many(aesir_cbc_job *jobs,
                                                   size_t njobs);

/* Stream-like modes: out receives exactly len bytes. */
AESIR_API AESIR_WARN_UNUSED int
aesir_cfb128_encrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                     const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_cfb128_decrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                     const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_cfb8_encrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                   const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_cfb8_decrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                   const uint8_t *in, size_t len);
/*
 * aesir_cfb1_encrypt / aesir_cfb1_decrypt -- CFB with 1-bit segments on a
 * message of nbits bits, packed most significant bit first: bit i is bit
 * (7 - i % 8) of byte i / 8. The output has the same packing; the unused
 * low bits of a last partial byte are set to zero. in and out hold
 * nbits / 8 bytes, rounded up.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_cfb1_encrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                   const uint8_t *in, size_t nbits);
AESIR_API AESIR_WARN_UNUSED int
aesir_cfb1_decrypt(const aesir_aes *key, const uint8_t iv[16], uint8_t *out,
                   const uint8_t *in, size_t nbits);
/* aesir_ofb_crypt -- OFB; the same function encrypts and decrypts. */
AESIR_API AESIR_WARN_UNUSED int aesir_ofb_crypt(const aesir_aes *key,
                                                const uint8_t iv[16],
                                                uint8_t *out, const uint8_t *in,
                                                size_t len);
/* aesir_ctr_crypt -- CTR; counter_bits is 32, 64 or 128 (see
 * aesir_cipher_init). AESIR_E_COUNTER_OVERFLOW when len bytes need more
 * counter values than remain before the counter would wrap. */
AESIR_API AESIR_WARN_UNUSED int aesir_ctr_crypt(const aesir_aes *key,
                                                const uint8_t iv[16],
                                                unsigned counter_bits,
                                                uint8_t *out, const uint8_t *in,
                                                size_t len);

/* ---------------------------------------------------------------------
 * GCM and GMAC (NIST SP 800-38D)
 * ------------------------------------------------------------------- */

/*
 * GCM is CTR encryption with a GHASH tag (a polynomial hash over the
 * additional data and the ciphertext, in GF(2^128)). aesir computes GHASH
 * with a GHASH engine, listed like the AES engines (aesir_ghash_engine_*);
 * a GCM key pairs an AES engine with a GHASH engine.
 *
 * Nonces (IVs): never use one IV twice with the same key: a repeated IV
 * reveals the XOR of two plaintexts and lets an attacker forge tags for
 * that key. 12 bytes is the standard length and the fast path; random
 * 12-byte IVs are safe for up to 2^32 messages per key (SP 800-38D
 * section 8.3). Other lengths (1 byte and up) are hashed into the first
 * counter block as the standard says.
 *
 * Tags: 16 bytes (AESIR_GCM_TAG_BYTES) unless you have a reason; 12..15
 * bytes are allowed everywhere a tag length is taken. 8 and 4 bytes only
 * with AESIR_GCM_SHORT_TAGS at key set-up: a forgery against a t-bit
 * tag succeeds with probability about 2^-t per try, and SP 800-38D
 * Appendix C (tables 1 and 2) bounds, per key, both the length of each
 * message and the number of decryptions allowed with such tags; follow
 * it (docs/modes/gcm.md) or do not use them.
 *
 * Limits (SP 800-38D 5.2.1.1): plaintext at most 2^36 - 32 bytes per
 * message, additional data and IV at most 2^61 - 1 bytes. Longer input
 * is refused with AESIR_E_INPUT_LENGTH (or AESIR_E_IV_LENGTH), never
 * wrapped.
 */
#define AESIR_GCM_TAG_BYTES 16
#define AESIR_GCM_NONCE_BYTES 12
/* Option for aesir_gcm_init_ex(): allow 8- and 4-byte tags. */
#define AESIR_GCM_SHORT_TAGS 1u

/* aesir_gcm_key -- an AES key with its GHASH key (the hash key H and its
 * precomputed powers or tables). Opaque, AESIR_GCM_KEY_BYTES bytes
 * (6144), no heap; placement rules as for aesir_aes (16-byte aligned;
 * malloc is fine). May be shared by threads once set up. Clear it with
 * aesir_gcm_clear(). */
#define AESIR_GCM_KEY_BYTES 6144
typedef struct aesir_gcm_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_GCM_KEY_BYTES];
} aesir_gcm_key;

/*
 * aesir_gcm_init -- sets up key for GCM and GMAC with a key of 16, 24 or
 * 32 bytes and the default engines (AESIR_ENGINE and AESIR_GHASH_ENGINE
 * override them). Errors: AESIR_E_KEY_LENGTH, AESIR_E_ARGUMENT,
 * AESIR_E_SELFTEST. On error key is cleared.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_init(aesir_gcm_key *key, const uint8_t *k, size_t key_len);
/*
 * aesir_gcm_init_ex -- as aesir_gcm_init(), with the AES engine and the
 * GHASH engine chosen by name and options (AESIR_GCM_SHORT_TAGS, or 0).
 * aes_engine NULL: the default. ghash_engine NULL: the GHASH engine the
 * AES engine has fused AES+GHASH kernels with, when this CPU runs it
 * (aesni: ghash-clmul; vaes-avx512: ghash-vpclmul-avx512; ...), else the
 * default; AESIR_GHASH_ENGINE, when set, wins over both. aesir_gcm_engines()
 * says which were chosen. Errors also: AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE, AESIR_E_ARGUMENT (unknown option bit).
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_init_ex(aesir_gcm_key *key, const uint8_t *k, size_t key_len,
                  const char *aes_engine, const char *ghash_engine,
                  unsigned options);
/* aesir_gcm_engines -- the names of the engines key uses (either pointer
 * may be NULL); AESIR_E_STATE when key is not set up. */
AESIR_API int aesir_gcm_engines(const aesir_gcm_key *key,
                                const char **aes_engine,
                                const char **ghash_engine);
/* aesir_gcm_clear -- wipes key. */
AESIR_API void aesir_gcm_clear(aesir_gcm_key *key);

/*
 * aesir_gcm_seal -- encrypts in_len bytes of in and appends the 16-byte
 * tag: out receives in_len + 16 bytes (out_cap must be at least that;
 * *out_len is set to it). aad (additional data, authenticated, not
 * encrypted) may be NULL when aad_len is 0. out may equal in (in-place);
 * no buffer needs alignment. Errors: AESIR_E_STATE (key not set up),
 * AESIR_E_ARGUMENT, AESIR_E_IV_LENGTH (0 or too long), AESIR_E_INPUT_LENGTH
 * (over the limits above), AESIR_E_OUTPUT_SIZE. Nothing is written on
 * error.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_seal(const aesir_gcm_key *key, const uint8_t *iv, size_t iv_len,
               const uint8_t *aad, size_t aad_len, uint8_t *out, size_t out_cap,
               size_t *out_len, const uint8_t *in, size_t in_len);
/*
 * aesir_gcm_open -- verifies and decrypts what aesir_gcm_seal produced
 * (in_len bytes: ciphertext, then the 16-byte tag): out receives
 * in_len - 16 bytes. The tag is checked (in constant time) before any
 * plaintext is released: on AESIR_E_AUTH out holds no plaintext (the
 * bytes it would have received are zeroed) and *out_len is 0. Other
 * errors: as aesir_gcm_seal, and AESIR_E_INPUT_LENGTH when in_len < 16.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_open(const aesir_gcm_key *key, const uint8_t *iv, size_t iv_len,
               const uint8_t *aad, size_t aad_len, uint8_t *out, size_t out_cap,
               size_t *out_len, const uint8_t *in, size_t in_len);
/*
 * aesir_gcm_seal_detached / aesir_gcm_open_detached -- the same with the
 * tag apart: out and in have len bytes; tag_len is 16..12 (or 8 and 4
 * with AESIR_GCM_SHORT_TAGS; AESIR_E_ARGUMENT otherwise). Open returns
 * AESIR_E_AUTH with out zeroed when the tag does not match.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_seal_detached(const aesir_gcm_key *key, const uint8_t *iv,
                        size_t iv_len, const uint8_t *aad, size_t aad_len,
                        uint8_t *out, uint8_t *tag, size_t tag_len,
                        const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_open_detached(const aesir_gcm_key *key, const uint8_t *iv,
                        size_t iv_len, const uint8_t *aad, size_t aad_len,
                        uint8_t *out, const uint8_t *tag, size_t tag_len,
                        const uint8_t *in, size_t len);

/*
 * aesir_gcm -- one message in steps: aesir_gcm_start, then the additional
 * data in any number of aesir_gcm_aad calls, then the data in any number
 * of update calls of any lengths, in one direction, then
 * aesir_gcm_finish (encryption: the tag) or aesir_gcm_verify
 * (decryption). Holds a pointer to the key, which must outlive it, and
 * the message's secrets (counter, hash state): aesir_gcm_finish/verify
 * and every error but AESIR_E_ARGUMENT on a NULL ctx wipe it;
 * aesir_gcm_abort does so without a result. Calls out of order (aad after
 * data, encrypt and decrypt updates mixed, anything after finish) return
 * AESIR_E_STATE.
 *
 * aesir_gcm_decrypt_update_unverified releases plaintext before the tag
 * is checked: an attacker who changes the ciphertext changes that
 * plaintext, and only the final aesir_gcm_verify says so. Use it only
 * when you must stream (too large to hold), and act on nothing before
 * verify succeeds; otherwise use aesir_gcm_open, which releases nothing
 * unverified, or split the stream into separately sealed chunks (the
 * C2SP chunked-encryption format of `aesir encrypt`).
 */
#define AESIR_GCM_CTX_BYTES 192
typedef struct aesir_gcm {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_GCM_CTX_BYTES];
} aesir_gcm;

/* aesir_gcm_start -- begins a message with iv. Errors: AESIR_E_STATE
 * (key not set up), AESIR_E_ARGUMENT, AESIR_E_IV_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int aesir_gcm_start(aesir_gcm *ctx,
                                                const aesir_gcm_key *key,
                                                const uint8_t *iv,
                                                size_t iv_len);
/* aesir_gcm_aad -- more additional data (before any update). Errors:
 * AESIR_E_STATE, AESIR_E_ARGUMENT, AESIR_E_INPUT_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int aesir_gcm_aad(aesir_gcm *ctx,
                                              const uint8_t *aad, size_t len);
/* aesir_gcm_encrypt_update -- encrypts len bytes of in to out (len bytes;
 * out may equal in). Errors: AESIR_E_STATE, AESIR_E_ARGUMENT,
 * AESIR_E_INPUT_LENGTH (the message would pass 2^36 - 32 bytes). */
AESIR_API AESIR_WARN_UNUSED int aesir_gcm_encrypt_update(aesir_gcm *ctx,
                                                         uint8_t *out,
                                                         const uint8_t *in,
                                                         size_t len);
/* aesir_gcm_decrypt_update_unverified -- decrypts len bytes; the
 * plaintext is NOT authenticated until aesir_gcm_verify succeeds (see
 * above). Errors as aesir_gcm_encrypt_update. */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_decrypt_update_unverified(aesir_gcm *ctx, uint8_t *out,
                                    const uint8_t *in, size_t len);
/* aesir_gcm_finish -- the tag of an encryption (or of GMAC: no update),
 * tag_len bytes as for aesir_gcm_seal_detached. Errors: AESIR_E_STATE
 * (decrypting, or not started), AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int aesir_gcm_finish(aesir_gcm *ctx, uint8_t *tag,
                                                 size_t tag_len);
/* aesir_gcm_verify -- compares the tag of a decryption (or of GMAC) with
 * tag in constant time: AESIR_OK or AESIR_E_AUTH. Errors also:
 * AESIR_E_STATE (encrypting, or not started), AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_verify(aesir_gcm *ctx, const uint8_t *tag, size_t tag_len);
/* aesir_gcm_abort -- ends the message without a result, wiping ctx. */
AESIR_API void aesir_gcm_abort(aesir_gcm *ctx);

/*
 * aesir_gmac / aesir_gmac_verify -- GMAC (SP 800-38D: GCM with no
 * plaintext): a tag over aad_len bytes of aad under key and iv, and its
 * constant-time check (AESIR_E_AUTH on mismatch). Same IV rules as GCM.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_gmac(const aesir_gcm_key *key,
                                           const uint8_t *iv, size_t iv_len,
                                           const uint8_t *aad, size_t aad_len,
                                           uint8_t *tag, size_t tag_len);
AESIR_API AESIR_WARN_UNUSED int
aesir_gmac_verify(const aesir_gcm_key *key, const uint8_t *iv, size_t iv_len,
                  const uint8_t *aad, size_t aad_len, const uint8_t *tag,
                  size_t tag_len);

/*
 * GHASH engines: the GF(2^128) multipliers GCM (and GMAC, and later
 * POLYVAL) run on, listed like the AES engines with the same flags
 * (AESIR_ENGINE_HARDWARE: carry-less multiply instructions). The default
 * is AESIR_GHASH_ENGINE when it names an available engine, else the
 * fastest available constant-time one. ghash-table4 and ghash-table8 are
 * not constant-time: by name only.
 */
AESIR_API size_t aesir_ghash_engine_count(void);
AESIR_API const char *aesir_ghash_engine_name(size_t i);
AESIR_API const char *aesir_ghash_engine_description(size_t i);
AESIR_API unsigned aesir_ghash_engine_flags(size_t i);
AESIR_API int aesir_ghash_engine_find(const char *name);
AESIR_API const char *aesir_ghash_engine_default(void);
/* aesir_ghash_engine_selftest -- the GHASH known-answer tests on the
 * engine called name: AESIR_OK, AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE, AESIR_E_SELFTEST or AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int aesir_ghash_engine_selftest(const char *name);

/* ---------------------------------------------------------------------
 * CMAC, AES-SIV, key wrap (KW, KWP) and XAES-256-GCM
 * ------------------------------------------------------------------- */

/*
 * CMAC (NIST SP 800-38B, RFC 4493): a MAC from AES alone, the CBC-MAC of
 * the message with its last block masked by one of two subkeys (K1 for
 * a whole last block, K2 for a padded one), which makes it secure for
 * messages of any length. One message is one CBC chain: its speed is
 * the latency of the AES rounds; many messages at once
 * (aesir_cmac_many) share the AES pipeline.
 *
 * Tags: 16 bytes (AESIR_CMAC_TAG_BYTES) unless you have a reason; any
 * length from 4 to 16 bytes is taken (the truncation of SP 800-38B 6.2:
 * the leftmost bytes). SP 800-38B Appendix A: with a t-bit tag a forgery
 * succeeds with probability about 2^-t per try; below 8 bytes limit the
 * number of failed verifications per key (docs/modes/cmac.md).
 */
#define AESIR_CMAC_TAG_BYTES 16
#define AESIR_CMAC_MIN_TAG_BYTES 4

/* aesir_cmac_key -- an AES key (encryption direction) with its CMAC
 * subkeys K1 and K2. Opaque, AESIR_CMAC_KEY_BYTES bytes (2048), no heap;
 * placement as for aesir_aes (16-byte aligned). May be shared by threads
 * once set up. Clear it with aesir_cmac_clear(). */
#define AESIR_CMAC_KEY_BYTES 2048
typedef struct aesir_cmac_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_CMAC_KEY_BYTES];
} aesir_cmac_key;

/* aesir_cmac_init -- sets up key with an AES key of 16, 24 or 32 bytes
 * and the default engine. Errors: AESIR_E_KEY_LENGTH, AESIR_E_ARGUMENT,
 * AESIR_E_SELFTEST. On error key is cleared. */
AESIR_API AESIR_WARN_UNUSED int
aesir_cmac_init(aesir_cmac_key *key, const uint8_t *k, size_t key_len);
/* aesir_cmac_init_ex -- as aesir_cmac_init(), with the AES engine chosen
 * by name (NULL: the default). Errors also: AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE. */
AESIR_API AESIR_WARN_UNUSED int aesir_cmac_init_ex(aesir_cmac_key *key,
                                                   const uint8_t *k,
                                                   size_t key_len,
                                                   const char *engine);
/* aesir_cmac_engine -- the name of the engine key uses; NULL when key is
 * not set up. */
AESIR_API const char *aesir_cmac_engine(const aesir_cmac_key *key);
/* aesir_cmac_clear -- wipes key. */
AESIR_API void aesir_cmac_clear(aesir_cmac_key *key);

/*
 * aesir_cmac_tag -- the CMAC of len bytes of msg (msg may be NULL when
 * len is 0), its first tag_len bytes (4..16) to tag. Errors:
 * AESIR_E_STATE (key not set up), AESIR_E_ARGUMENT (NULL pointer, or
 * tag_len out of range). Nothing is written on error.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_cmac_tag(const aesir_cmac_key *key,
                                               const uint8_t *msg, size_t len,
                                               uint8_t *tag, size_t tag_len);
/* aesir_cmac_tag_verify -- compares the CMAC of msg with the tag_len
 * bytes of tag in constant time: AESIR_OK or AESIR_E_AUTH; other errors
 * as aesir_cmac_tag. */
AESIR_API AESIR_WARN_UNUSED int
aesir_cmac_tag_verify(const aesir_cmac_key *key, const uint8_t *msg, size_t len,
                      const uint8_t *tag, size_t tag_len);

/*
 * aesir_cmac -- one message in steps: aesir_cmac_start, any number of
 * aesir_cmac_update calls of any lengths, then aesir_cmac_finish (the
 * tag) or aesir_cmac_verify (compared in constant time). The last block
 * is held back until the end (it is masked with K1 or K2). Holds a
 * pointer to the key, which must outlive it, and the chaining value:
 * finish, verify and every error but AESIR_E_ARGUMENT on a NULL ctx wipe
 * it; aesir_cmac_abort does so without a result. A call after the end
 * returns AESIR_E_STATE.
 */
#define AESIR_CMAC_CTX_BYTES 64
typedef struct aesir_cmac {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_CMAC_CTX_BYTES];
} aesir_cmac;

/* aesir_cmac_start -- begins a message. Errors: AESIR_E_STATE (key not
 * set up), AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int aesir_cmac_start(aesir_cmac *ctx,
                                                 const aesir_cmac_key *key);
/* aesir_cmac_update -- len more bytes of the message. Errors:
 * AESIR_E_STATE, AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int
aesir_cmac_update(aesir_cmac *ctx, const uint8_t *msg, size_t len);
/* aesir_cmac_finish -- the tag (tag_len 4..16 bytes). Errors:
 * AESIR_E_STATE, AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int aesir_cmac_finish(aesir_cmac *ctx, uint8_t *tag,
                                                  size_t tag_len);
/* aesir_cmac_verify -- compares the tag with tag in constant time:
 * AESIR_OK or AESIR_E_AUTH. Errors also: AESIR_E_STATE,
 * AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int
aesir_cmac_verify(aesir_cmac *ctx, const uint8_t *tag, size_t tag_len);
/* aesir_cmac_abort -- ends the message without a result, wiping ctx. */
AESIR_API void aesir_cmac_abort(aesir_cmac *ctx);

/*
 * aesir_cmac_job -- one message of aesir_cmac_many().
 *   key:    a CMAC key; jobs may mix keys, engines and key sizes.
 *   in:     len bytes of message (NULL allowed when len is 0).
 *   tag:    set by the call: the full 16-byte CMAC (truncate it yourself).
 *   status: set by the call: AESIR_OK or this job's error.
 */
typedef struct aesir_cmac_job {
    const aesir_cmac_key *key;
    const uint8_t *in;
    size_t len;
    uint8_t tag[16];
    int status;
} aesir_cmac_job;

/*
 * aesir_cmac_many -- the CMAC of each of the njobs jobs, exactly as
 * aesir_cmac_tag would give it (16 bytes), with the whole blocks of
 * different messages interleaved across the AES pipeline on the engines
 * with multi-buffer CBC-MAC lanes (aesni, vaes-avx2, vaes-avx512; see
 * aesir_cbc_mac_many) and one message after another elsewhere. Each job
 * is checked on its own: AESIR_E_STATE (key NULL or not set up),
 * AESIR_E_ARGUMENT (in NULL with len > 0); a job that fails leaves its
 * tag unchanged, the others still run. Returns AESIR_OK when every job
 * succeeded, else the first failed job's error; AESIR_E_ARGUMENT when
 * jobs is NULL and njobs > 0.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_cmac_many(aesir_cmac_job *jobs,
                                                size_t njobs);

/*
 * AES-SIV (RFC 5297, AES-CMAC-SIV): deterministic authenticated
 * encryption. The synthetic IV V = S2V(K1; AD_1, ..., AD_n, [nonce],
 * plaintext) is a CMAC-based PRF of everything; the plaintext is then
 * encrypted with CTR under K2 from V (bits 31 and 63 of the counter
 * cleared, RFC 5297 2.6). Without a nonce, encrypting the same input
 * twice gives the same output (and reveals only that): the key-wrap and
 * misuse-resistant use. With a nonce, it is a nonce-based AEAD that a
 * repeated nonce degrades only to that deterministic leak.
 *
 * Keys: 32, 48 or 64 bytes (two AES keys of 128, 192 or 256 bits: the
 * first half for S2V, the second for CTR). Associated data: a vector of
 * up to AESIR_SIV_MAX_AD strings (each may be empty); the nonce, when
 * given, is one more component after them (RFC 5297 3: at most 126
 * components before the plaintext in all). Output: V (16 bytes) then the
 * ciphertext, as RFC 5297 writes it; or V apart (_detached).
 */
#define AESIR_SIV_TAG_BYTES 16
#define AESIR_SIV_MAX_AD 126

/* aesir_siv_ad -- one associated-data string: len bytes at p (p may be
 * NULL when len is 0). */
typedef struct aesir_siv_ad {
    const uint8_t *p;
    size_t len;
} aesir_siv_ad;

/* aesir_siv_key -- the two keys of AES-SIV. Opaque, AESIR_SIV_KEY_BYTES
 * bytes (4096), no heap, placement as for aesir_aes. Clear it with
 * aesir_siv_clear(). */
#define AESIR_SIV_KEY_BYTES 4096
typedef struct aesir_siv_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_SIV_KEY_BYTES];
} aesir_siv_key;

/* aesir_siv_init -- sets up key from k (key_len 32, 48 or 64) with the
 * default engine. Errors: AESIR_E_KEY_LENGTH, AESIR_E_ARGUMENT,
 * AESIR_E_SELFTEST. On error key is cleared. */
AESIR_API AESIR_WARN_UNUSED int
aesir_siv_init(aesir_siv_key *key, const uint8_t *k, size_t key_len);
/* aesir_siv_init_ex -- as aesir_siv_init(), with the engine chosen by
 * name (NULL: the default). Errors also: AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE. */
AESIR_API AESIR_WARN_UNUSED int aesir_siv_init_ex(aesir_siv_key *key,
                                                  const uint8_t *k,
                                                  size_t key_len,
                                                  const char *engine);
/* aesir_siv_clear -- wipes key. */
AESIR_API void aesir_siv_clear(aesir_siv_key *key);

/*
 * aesir_siv_seal -- encrypts in_len bytes of in: out receives V, then
 * the ciphertext (in_len + 16 bytes; out_cap at least that; *out_len set
 * to it). ad: n_ad strings (ad may be NULL when n_ad is 0). nonce: NULL
 * for none (deterministic), else nonce_len bytes (may be 0: an empty
 * component). out may equal in (in-place: the ciphertext is then moved
 * 16 bytes up). Errors: AESIR_E_STATE (key not set up), AESIR_E_ARGUMENT
 * (NULL pointer, an ad string with NULL p and len > 0, a NULL nonce
 * with nonce_len > 0, more than AESIR_SIV_MAX_AD components),
 * AESIR_E_OUTPUT_SIZE (also when in_len + 16 does not fit in a size_t).
 * Nothing is written on error.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_siv_seal(const aesir_siv_key *key, const aesir_siv_ad *ad, size_t n_ad,
               const uint8_t *nonce, size_t nonce_len, uint8_t *out,
               size_t out_cap, size_t *out_len, const uint8_t *in,
               size_t in_len);
/*
 * aesir_siv_open -- decrypts and verifies what aesir_siv_seal produced
 * (in_len >= 16: V, then the ciphertext): out receives in_len - 16
 * bytes. V is checked in constant time before anything is released: on
 * AESIR_E_AUTH those bytes of out are zeroed and *out_len is 0. out may
 * equal in. Other errors as aesir_siv_seal, and AESIR_E_INPUT_LENGTH when
 * in_len < 16.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_siv_open(const aesir_siv_key *key, const aesir_siv_ad *ad, size_t n_ad,
               const uint8_t *nonce, size_t nonce_len, uint8_t *out,
               size_t out_cap, size_t *out_len, const uint8_t *in,
               size_t in_len);
/* aesir_siv_seal_detached / aesir_siv_open_detached -- the same with V
 * apart: out and in have len bytes (out may equal in); open returns
 * AESIR_E_AUTH with out zeroed when V does not match. */
AESIR_API AESIR_WARN_UNUSED int
aesir_siv_seal_detached(const aesir_siv_key *key, const aesir_siv_ad *ad,
                        size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                        uint8_t *out, uint8_t v[16], const uint8_t *in,
                        size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_siv_open_detached(const aesir_siv_key *key, const aesir_siv_ad *ad,
                        size_t n_ad, const uint8_t *nonce, size_t nonce_len,
                        uint8_t *out, const uint8_t v[16], const uint8_t *in,
                        size_t len);

/*
 * Key wrap (NIST SP 800-38F, RFC 3394 for KW, RFC 5649 for KWP): keys
 * (or any short secret) encrypted and authenticated under a key-
 * encryption key, deterministically, 8 bytes longer. KW takes a multiple
 * of 8 bytes, at least 16; KWP any length from 1 to 2^32 - 1 bytes
 * (padded with zeros and its length authenticated). Unwrapping checks the
 * integrity value (and KWP's length and padding) in constant time and
 * returns AESIR_E_AUTH, with no plaintext, when the check fails.
 *
 * The key is an aesir_aes: wrapping uses its AESIR_ENCRYPT direction,
 * unwrapping AESIR_DECRYPT (AESIR_E_STATE when it lacks it). With
 * AESIR_KW_INVERSE, the variants of SP 800-38F section 5.1 with the
 * inverse cipher as the forward function (CAVP's "_inv" sets): wrapping
 * uses AESIR_DECRYPT and unwrapping AESIR_ENCRYPT.
 *
 * Output: wrap writes in_len + 8 bytes (KWP: in_len rounded up to a
 * multiple of 8, plus 8); unwrap of a KW input writes in_len - 8 bytes;
 * of a KWP input, the original length (at most in_len - 8; out_cap must
 * be at least in_len - 8, as the length is known only after the
 * check). *out_len gets the count. out may equal in. Errors:
 * AESIR_E_STATE, AESIR_E_ARGUMENT (NULL pointer, unknown option bit),
 * AESIR_E_INPUT_LENGTH (KW: in_len not a multiple of 8, or below 16 for
 * wrap and 24 for unwrap, or over 2^54 semiblocks; KWP: 0 or over
 * 2^32 - 1 bytes to wrap, unwrap input not a multiple of 8 or below 16),
 * AESIR_E_OUTPUT_SIZE, AESIR_E_AUTH (unwrap; out is zeroed). Every other
 * check is made before anything is written.
 */
#define AESIR_KW_INVERSE 1u

AESIR_API AESIR_WARN_UNUSED int aesir_kw_wrap(const aesir_aes *kek,
                                              unsigned options, uint8_t *out,
                                              size_t out_cap, size_t *out_len,
                                              const uint8_t *in, size_t in_len);
AESIR_API AESIR_WARN_UNUSED int aesir_kw_unwrap(const aesir_aes *kek,
                                                unsigned options, uint8_t *out,
                                                size_t out_cap, size_t *out_len,
                                                const uint8_t *in,
                                                size_t in_len);
AESIR_API AESIR_WARN_UNUSED int aesir_kwp_wrap(const aesir_aes *kek,
                                               unsigned options, uint8_t *out,
                                               size_t out_cap, size_t *out_len,
                                               const uint8_t *in,
                                               size_t in_len);
AESIR_API AESIR_WARN_UNUSED int
aesir_kwp_unwrap(const aesir_aes *kek, unsigned options, uint8_t *out,
                 size_t out_cap, size_t *out_len, const uint8_t *in,
                 size_t in_len);

/*
 * XAES-256-GCM (C2SP, c2sp.org/XAES-256-GCM): AES-256-GCM with 24-byte
 * nonces, safe to choose at random for any practical number of messages
 * per key. Each message gets its own AES-256-GCM key, derived from the
 * key and the first 12 bytes of the nonce with two AES-256 blocks (a
 * CMAC-based KDF, SP 800-108r1 counter mode); the last 12 bytes are the
 * GCM nonce. Tags are 16 bytes. Costs one GCM key setup per message.
 * Limits as GCM's per message.
 */
#define AESIR_XAES_KEY_LEN 32
#define AESIR_XAES_NONCE_BYTES 24
#define AESIR_XAES_TAG_BYTES 16

/* aesir_xaes_key -- the AES-256 key with the CMAC subkey K1 of the
 * derivation and the engines chosen. Opaque, AESIR_XAES_KEY_BYTES bytes
 * (2048), placement as for aesir_aes. Clear it with aesir_xaes_clear(). */
#define AESIR_XAES_KEY_BYTES 2048
typedef struct aesir_xaes_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_XAES_KEY_BYTES];
} aesir_xaes_key;

/* aesir_xaes_init -- sets up key from a 32-byte k with the default
 * engines. Errors: AESIR_E_ARGUMENT, AESIR_E_SELFTEST. On error key is
 * cleared. */
AESIR_API AESIR_WARN_UNUSED int aesir_xaes_init(aesir_xaes_key *key,
                                                const uint8_t k[32]);
/* aesir_xaes_init_ex -- as aesir_xaes_init(), with the AES engine and
 * the GHASH engine of the per-message GCM keys chosen by name as for
 * aesir_gcm_init_ex (NULL: the default). Errors also:
 * AESIR_E_ENGINE_UNKNOWN, AESIR_E_ENGINE_UNAVAILABLE. */
AESIR_API AESIR_WARN_UNUSED int aesir_xaes_init_ex(aesir_xaes_key *key,
                                                   const uint8_t k[32],
                                                   const char *aes_engine,
                                                   const char *ghash_engine);
/* aesir_xaes_clear -- wipes key. */
AESIR_API void aesir_xaes_clear(aesir_xaes_key *key);

/* aesir_xaes_seal / aesir_xaes_open -- as aesir_gcm_seal and
 * aesir_gcm_open with a 24-byte nonce (ciphertext, then the 16-byte
 * tag). Open returns AESIR_E_AUTH with the output zeroed when the tag
 * does not match. */
AESIR_API AESIR_WARN_UNUSED int
aesir_xaes_seal(const aesir_xaes_key *key, const uint8_t nonce[24],
                const uint8_t *aad, size_t aad_len, uint8_t *out,
                size_t out_cap, size_t *out_len, const uint8_t *in,
                size_t in_len);
AESIR_API AESIR_WARN_UNUSED int
aesir_xaes_open(const aesir_xaes_key *key, const uint8_t nonce[24],
                const uint8_t *aad, size_t aad_len, uint8_t *out,
                size_t out_cap, size_t *out_len, const uint8_t *in,
                size_t in_len);
/* aesir_xaes_seal_detached / aesir_xaes_open_detached -- the same with
 * the 16-byte tag apart (out and in have len bytes). */
AESIR_API AESIR_WARN_UNUSED int
aesir_xaes_seal_detached(const aesir_xaes_key *key, const uint8_t nonce[24],
                         const uint8_t *aad, size_t aad_len, uint8_t *out,
                         uint8_t tag[16], const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_xaes_open_detached(const aesir_xaes_key *key, const uint8_t nonce[24],
                         const uint8_t *aad, size_t aad_len, uint8_t *out,
                         const uint8_t tag[16], const uint8_t *in, size_t len);

/* ---------------------------------------------------------------------
 * CCM (NIST SP 800-38C, RFC 3610)
 * ------------------------------------------------------------------- */

/*
 * CCM is CTR encryption with a CBC-MAC tag over a first block B0 (flags,
 * nonce, message length), the encoded additional data and the
 * plaintext. It is what Bluetooth LE, Zigbee, 802.11 (CCMP), 802.15.4
 * and the TLS 1.3 CCM suites use. The CBC-MAC chain is serial: one block
 * at a time at the latency of the AES rounds, so CCM is about as fast as
 * CBC encryption; aesir runs the CTR half in the MAC chain's shadow
 * (docs/modes/ccm.md).
 *
 * Nonces: 7..13 bytes; never use one nonce twice with the same key (a
 * repeated nonce reveals the XOR of two plaintexts and breaks the tag).
 * The nonce length n fixes q = 15 - n, the bytes that hold the message
 * length: a message must be shorter than 2^(8q) bytes (64 KiB with a
 * 13-byte nonce, 2^64 with a 7-byte one); a longer one is refused with
 * AESIR_E_INPUT_LENGTH, never wrapped. Additional data: any length
 * (SP 800-38C A.2.2 encodes it in 2, 6 or 10 bytes).
 *
 * Tags: 4, 6, 8, 10, 12, 14 or 16 bytes (AESIR_E_ARGUMENT otherwise);
 * the tag length is part of B0, so a tag of one length never verifies as
 * a truncation of another. 16 unless a protocol says otherwise; a t-byte
 * tag is forged with probability about 2^(-8t) per try.
 */
#define AESIR_CCM_TAG_BYTES 16
#define AESIR_CCM_NONCE_MIN 7
#define AESIR_CCM_NONCE_MAX 13

/* aesir_ccm_key -- an AES key for CCM. Opaque, AESIR_CCM_KEY_BYTES bytes
 * (2048), no heap; placement rules as for aesir_aes (16-byte aligned;
 * malloc is fine). May be shared by threads once set up. Clear it with
 * aesir_ccm_clear(). */
#define AESIR_CCM_KEY_BYTES 2048
typedef struct aesir_ccm_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_CCM_KEY_BYTES];
} aesir_ccm_key;

/*
 * aesir_ccm_init -- sets up key for CCM with a key of 16, 24 or 32 bytes
 * and the default engine (AESIR_ENGINE overrides it). Errors:
 * AESIR_E_KEY_LENGTH, AESIR_E_ARGUMENT, AESIR_E_SELFTEST. On error key is
 * cleared.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_init(aesir_ccm_key *key, const uint8_t *k, size_t key_len);
/* aesir_ccm_init_ex -- the same with the AES engine chosen by name (NULL:
 * the default). Errors also: AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE. */
AESIR_API AESIR_WARN_UNUSED int aesir_ccm_init_ex(aesir_ccm_key *key,
                                                  const uint8_t *k,
                                                  size_t key_len,
                                                  const char *engine);
/* aesir_ccm_engine -- the name of the engine key uses, or NULL when key
 * is not set up. */
AESIR_API const char *aesir_ccm_engine(const aesir_ccm_key *key);
/* aesir_ccm_clear -- wipes key. */
AESIR_API void aesir_ccm_clear(aesir_ccm_key *key);

/*
 * aesir_ccm_seal -- encrypts in_len bytes of in and appends a tag of
 * tag_len bytes: out receives in_len + tag_len bytes (out_cap must be at
 * least that; *out_len is set to it). aad may be NULL when aad_len is 0.
 * out may equal in (in-place); no buffer needs alignment. Errors:
 * AESIR_E_STATE (key not set up), AESIR_E_ARGUMENT (NULL pointer, tag
 * length), AESIR_E_IV_LENGTH (nonce not 7..13 bytes),
 * AESIR_E_INPUT_LENGTH (in_len does not fit in 15 - nonce_len bytes),
 * AESIR_E_OUTPUT_SIZE. Every check is made before anything is written.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_seal(const aesir_ccm_key *key, const uint8_t *nonce, size_t nonce_len,
               const uint8_t *aad, size_t aad_len, uint8_t *out, size_t out_cap,
               size_t *out_len, const uint8_t *in, size_t in_len,
               size_t tag_len);
/*
 * aesir_ccm_open -- verifies and decrypts what aesir_ccm_seal produced
 * with the same tag_len (in_len bytes: ciphertext, then the tag): out
 * receives in_len - tag_len bytes. The tag is checked in constant time
 * before any plaintext is released: on AESIR_E_AUTH out holds no
 * plaintext (the bytes it would have received are zeroed) and *out_len
 * is 0. Other errors: as aesir_ccm_seal, and AESIR_E_INPUT_LENGTH when
 * in_len < tag_len.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_open(const aesir_ccm_key *key, const uint8_t *nonce, size_t nonce_len,
               const uint8_t *aad, size_t aad_len, uint8_t *out, size_t out_cap,
               size_t *out_len, const uint8_t *in, size_t in_len,
               size_t tag_len);
/*
 * aesir_ccm_seal_detached / aesir_ccm_open_detached -- the same with the
 * tag apart: out and in have len bytes, tag has tag_len. Open returns
 * AESIR_E_AUTH with out zeroed when the tag does not match.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_seal_detached(const aesir_ccm_key *key, const uint8_t *nonce,
                        size_t nonce_len, const uint8_t *aad, size_t aad_len,
                        uint8_t *out, uint8_t *tag, size_t tag_len,
                        const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_open_detached(const aesir_ccm_key *key, const uint8_t *nonce,
                        size_t nonce_len, const uint8_t *aad, size_t aad_len,
                        uint8_t *out, const uint8_t *tag, size_t tag_len,
                        const uint8_t *in, size_t len);

/*
 * aesir_ccm -- one message in steps. CCM must know the lengths of the
 * additional data and of the message before its first block (B0), so
 * aesir_ccm_start takes them with the nonce and the tag length; then the
 * additional data in any number of aesir_ccm_aad calls adding up to
 * exactly aad_len, then the data in any number of update calls in one
 * direction adding up to exactly msg_len, then aesir_ccm_finish
 * (encryption: the tag) or aesir_ccm_verify (decryption). More bytes
 * than declared: AESIR_E_INPUT_LENGTH; data before all the additional
 * data, encrypt and decrypt updates mixed, anything after the end:
 * AESIR_E_STATE; finish or verify before all of it: AESIR_E_INPUT_LENGTH.
 * Holds a pointer to the key, which must outlive it, and the message's
 * secrets (counter, MAC chain): finish/verify and every error but
 * AESIR_E_ARGUMENT on a NULL ctx wipe it; aesir_ccm_abort does so
 * without a result.
 *
 * aesir_ccm_decrypt_update_unverified releases plaintext before the tag
 * is checked: an attacker who changes the ciphertext changes that
 * plaintext, and only aesir_ccm_verify says so. Use it only when you must
 * stream, and act on nothing before verify succeeds; otherwise use
 * aesir_ccm_open, which releases nothing unverified.
 */
#define AESIR_CCM_CTX_BYTES 192
typedef struct aesir_ccm {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_CCM_CTX_BYTES];
} aesir_ccm;

/* aesir_ccm_start -- begins a message: nonce (7..13 bytes), the exact
 * lengths of the additional data and of the message, and the tag length.
 * Errors: AESIR_E_STATE (key not set up), AESIR_E_ARGUMENT (NULL, tag
 * length), AESIR_E_IV_LENGTH, AESIR_E_INPUT_LENGTH (msg_len does not fit
 * in 15 - nonce_len bytes). */
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_start(aesir_ccm *ctx, const aesir_ccm_key *key, const uint8_t *nonce,
                size_t nonce_len, uint64_t aad_len, uint64_t msg_len,
                size_t tag_len);
/* aesir_ccm_aad -- more additional data. Errors: AESIR_E_STATE,
 * AESIR_E_ARGUMENT, AESIR_E_INPUT_LENGTH (past aad_len). */
AESIR_API AESIR_WARN_UNUSED int aesir_ccm_aad(aesir_ccm *ctx,
                                              const uint8_t *aad, size_t len);
/* aesir_ccm_encrypt_update -- encrypts len bytes of in to out (len bytes;
 * out may equal in). Errors: AESIR_E_STATE (additional data missing),
 * AESIR_E_ARGUMENT, AESIR_E_INPUT_LENGTH (past msg_len). */
AESIR_API AESIR_WARN_UNUSED int aesir_ccm_encrypt_update(aesir_ccm *ctx,
                                                         uint8_t *out,
                                                         const uint8_t *in,
                                                         size_t len);
/* aesir_ccm_decrypt_update_unverified -- decrypts len bytes; the
 * plaintext is NOT authenticated until aesir_ccm_verify succeeds (see
 * above). Errors as aesir_ccm_encrypt_update. */
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_decrypt_update_unverified(aesir_ccm *ctx, uint8_t *out,
                                    const uint8_t *in, size_t len);
/* aesir_ccm_finish -- the tag of an encryption; tag_len must be the one
 * given to aesir_ccm_start (AESIR_E_ARGUMENT otherwise). Errors also:
 * AESIR_E_STATE (decrypting, or not started), AESIR_E_INPUT_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int aesir_ccm_finish(aesir_ccm *ctx, uint8_t *tag,
                                                 size_t tag_len);
/* aesir_ccm_verify -- compares the tag of a decryption with tag in
 * constant time: AESIR_OK or AESIR_E_AUTH. Errors also: AESIR_E_STATE
 * (encrypting, or not started), AESIR_E_ARGUMENT (tag_len not the one
 * given to aesir_ccm_start), AESIR_E_INPUT_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int
aesir_ccm_verify(aesir_ccm *ctx, const uint8_t *tag, size_t tag_len);
/* aesir_ccm_abort -- ends the message without a result, wiping ctx. */
AESIR_API void aesir_ccm_abort(aesir_ccm *ctx);

/* ---------------------------------------------------------------------
 * GCM-SIV (RFC 8452): nonce-misuse-resistant AEAD
 * ------------------------------------------------------------------- */

/*
 * AES-GCM-SIV (RFC 8452) derives a fresh message-authentication key and
 * message-encryption key from the key and each nonce (section 4), hashes
 * the additional data and the plaintext with POLYVAL, encrypts the hash
 * into the tag, and encrypts the plaintext in CTR mode with the tag as
 * the initial counter. POLYVAL runs on the GHASH engines
 * (aesir_ghash_engine_*), as GCM's GHASH does; a GCM-SIV key pairs an
 * AES engine with a GHASH engine.
 *
 * Nonces: 12 bytes. Unlike GCM, a repeated nonce does not break the
 * scheme: it reveals only whether the same (additional data, plaintext)
 * pair was sealed twice under it. Still use a fresh nonce per message
 * (random is fine) where you can, and keep to the bounds on messages and
 * bytes per key that RFC 8452 section 9 and its references give.
 *
 * Tags: always 16 bytes (AESIR_GCM_SIV_TAG_BYTES).
 *
 * Keys: 16 bytes (AEAD_AES_128_GCM_SIV) or 32 bytes (AEAD_AES_256_GCM_SIV).
 * 24-byte keys (AES-192, not in RFC 8452) only with the option
 * AESIR_GCM_SIV_AES192 at set-up: an extension some test suites use (the
 * key-generating key and the derived encryption key are AES-192; five
 * derivation blocks give the 8-byte halves), not interoperable with the
 * RFC's two algorithms.
 *
 * Limits (RFC 8452 section 6): plaintext and additional data at most
 * 2^36 bytes each; longer input is refused with AESIR_E_INPUT_LENGTH.
 *
 * There is no incremental API: sealing needs the whole plaintext hashed
 * before the first byte can be encrypted (the tag is the counter), and
 * opening must not release plaintext before the tag over all of it is
 * checked. Split long streams into separately sealed chunks.
 */
#define AESIR_GCM_SIV_TAG_BYTES 16
#define AESIR_GCM_SIV_NONCE_BYTES 12
/* Option for aesir_gcm_siv_init_ex(): accept 24-byte (AES-192) keys. */
#define AESIR_GCM_SIV_AES192 1u

/* aesir_gcm_siv_key -- a key-generating key with its engines. Opaque,
 * AESIR_GCM_SIV_KEY_BYTES bytes (2048), no heap; placement rules as for
 * aesir_aes (16-byte aligned; malloc is fine). May be shared by threads
 * once set up. Clear it with aesir_gcm_siv_clear(). */
#define AESIR_GCM_SIV_KEY_BYTES 2048
typedef struct aesir_gcm_siv_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_GCM_SIV_KEY_BYTES];
} aesir_gcm_siv_key;

/*
 * aesir_gcm_siv_init -- sets up key with a key of 16 or 32 bytes and the
 * default engines (AESIR_ENGINE and AESIR_GHASH_ENGINE override them).
 * Errors: AESIR_E_KEY_LENGTH, AESIR_E_ARGUMENT, AESIR_E_SELFTEST. On
 * error key is cleared.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_siv_init(aesir_gcm_siv_key *key, const uint8_t *k, size_t key_len);
/*
 * aesir_gcm_siv_init_ex -- as aesir_gcm_siv_init(), with the AES engine
 * and the GHASH engine chosen by name (NULL: as for aesir_gcm_init_ex)
 * and options (AESIR_GCM_SIV_AES192, or 0). Errors also:
 * AESIR_E_ENGINE_UNKNOWN, AESIR_E_ENGINE_UNAVAILABLE, AESIR_E_ARGUMENT
 * (unknown option bit).
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_siv_init_ex(aesir_gcm_siv_key *key, const uint8_t *k, size_t key_len,
                      const char *aes_engine, const char *ghash_engine,
                      unsigned options);
/* aesir_gcm_siv_engines -- the names of the engines key uses (either
 * pointer may be NULL); AESIR_E_STATE when key is not set up. */
AESIR_API int aesir_gcm_siv_engines(const aesir_gcm_siv_key *key,
                                    const char **aes_engine,
                                    const char **ghash_engine);
/* aesir_gcm_siv_clear -- wipes key. */
AESIR_API void aesir_gcm_siv_clear(aesir_gcm_siv_key *key);

/*
 * aesir_gcm_siv_seal -- encrypts in_len bytes of in under nonce and
 * appends the 16-byte tag: out receives in_len + 16 bytes (out_cap must
 * be at least that; *out_len is set to it). aad may be NULL when aad_len
 * is 0. out may equal in (in-place); no buffer needs alignment; in and
 * out must not overlap otherwise. Errors: AESIR_E_STATE (key not set
 * up), AESIR_E_ARGUMENT, AESIR_E_INPUT_LENGTH (over the limits above),
 * AESIR_E_OUTPUT_SIZE. Nothing is written on error.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_siv_seal(const aesir_gcm_siv_key *key,
                   const uint8_t nonce[AESIR_GCM_SIV_NONCE_BYTES],
                   const uint8_t *aad, size_t aad_len, uint8_t *out,
                   size_t out_cap, size_t *out_len, const uint8_t *in,
                   size_t in_len);
/*
 * aesir_gcm_siv_open -- verifies and decrypts what aesir_gcm_siv_seal
 * produced (in_len bytes: ciphertext, then the 16-byte tag): out receives
 * in_len - 16 bytes. The tag is checked (in constant time) before the
 * call returns plaintext: on AESIR_E_AUTH out holds none (the bytes it
 * would have received are zeroed) and *out_len is 0. Other errors: as
 * aesir_gcm_siv_seal, and AESIR_E_INPUT_LENGTH when in_len < 16.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_siv_open(const aesir_gcm_siv_key *key,
                   const uint8_t nonce[AESIR_GCM_SIV_NONCE_BYTES],
                   const uint8_t *aad, size_t aad_len, uint8_t *out,
                   size_t out_cap, size_t *out_len, const uint8_t *in,
                   size_t in_len);
/*
 * aesir_gcm_siv_seal_detached / aesir_gcm_siv_open_detached -- the same
 * with the 16-byte tag apart: out and in have len bytes. Open returns
 * AESIR_E_AUTH with out zeroed when the tag does not match.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_siv_seal_detached(const aesir_gcm_siv_key *key,
                            const uint8_t nonce[AESIR_GCM_SIV_NONCE_BYTES],
                            const uint8_t *aad, size_t aad_len, uint8_t *out,
                            uint8_t tag[AESIR_GCM_SIV_TAG_BYTES],
                            const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_gcm_siv_open_detached(const aesir_gcm_siv_key *key,
                            const uint8_t nonce[AESIR_GCM_SIV_NONCE_BYTES],
                            const uint8_t *aad, size_t aad_len, uint8_t *out,
                            const uint8_t tag[AESIR_GCM_SIV_TAG_BYTES],
                            const uint8_t *in, size_t len);

/* ---------------------------------------------------------------------
 * OCB3 (RFC 7253)
 * ------------------------------------------------------------------- */

/*
 * OCB3 encrypts and authenticates in one pass of the block cipher: each
 * block is enciphered once, between two XORs with an offset (a
 * key-derived mask that changes with the block index), and the tag is
 * the encipherment of a checksum of the plaintext. All blocks are
 * independent, so OCB runs at the speed of ECB on every engine.
 * Decryption uses the AES inverse cipher: an OCB key holds both
 * directions.
 *
 * Nonces: 1..15 bytes (RFC 7253 allows up to 120 bits; 12 bytes,
 * AESIR_OCB_NONCE_BYTES, is the recommended length and the one other
 * libraries default to). Never use one nonce twice with the same key: a
 * repeated nonce reveals the XOR of plaintext blocks and lets an
 * attacker forge. The nonce need not be random: a counter is fine.
 *
 * Tags: any length from 1 to 16 bytes; 16 (AESIR_OCB_TAG_BYTES) unless
 * you have a reason. The tag length is part of OCB's nonce formatting
 * (RFC 7253 section 4.2), so a message sealed with one tag length does
 * not open with another -- not even with a prefix of its tag. A t-byte
 * tag admits a forgery with probability about 2^-8t per try: under 8
 * bytes only where the number of decryption attempts is bounded.
 *
 * Limits: the data and the additional data of one message must each be
 * below 2^36 blocks of 16 bytes (1 TiB; AESIR_E_INPUT_LENGTH beyond),
 * which keeps the offset table in the key object finite; RFC 7253's
 * security bound asks for far fewer blocks per key (section 5).
 */
#define AESIR_OCB_TAG_BYTES 16
#define AESIR_OCB_NONCE_BYTES 12
#define AESIR_OCB_NONCE_MAX_BYTES 15

/* aesir_ocb_key -- an AES key (both directions) with OCB's precomputed
 * offsets L_*, L_$ and L_0 .. L_35 (RFC 7253 section 4.1) and their
 * running sums for the parallel kernels. Opaque, AESIR_OCB_KEY_BYTES
 * bytes (3200), no heap; placement rules as for
 * aesir_aes (16-byte aligned; malloc is fine). May be shared by threads
 * once set up. Clear it with aesir_ocb_clear(). */
#define AESIR_OCB_KEY_BYTES 3200
typedef struct aesir_ocb_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_OCB_KEY_BYTES];
} aesir_ocb_key;

/*
 * aesir_ocb_init -- sets up key for OCB3 with a key of 16, 24 or 32
 * bytes and the default engine (AESIR_ENGINE overrides it). Errors:
 * AESIR_E_KEY_LENGTH, AESIR_E_ARGUMENT, AESIR_E_SELFTEST. On error key
 * is cleared.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_init(aesir_ocb_key *key, const uint8_t *k, size_t key_len);
/* aesir_ocb_init_ex -- as aesir_ocb_init(), with the AES engine chosen by
 * name (NULL: the default). Errors also: AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE. */
AESIR_API AESIR_WARN_UNUSED int aesir_ocb_init_ex(aesir_ocb_key *key,
                                                  const uint8_t *k,
                                                  size_t key_len,
                                                  const char *engine);
/* aesir_ocb_engine -- the name of the AES engine key uses, or NULL when
 * key is not set up. */
AESIR_API const char *aesir_ocb_engine(const aesir_ocb_key *key);
/* aesir_ocb_clear -- wipes key. */
AESIR_API void aesir_ocb_clear(aesir_ocb_key *key);

/*
 * aesir_ocb_seal -- encrypts in_len bytes of in and appends the 16-byte
 * tag: out receives in_len + 16 bytes (out_cap must be at least that;
 * *out_len is set to it). nonce is 1..15 bytes. aad (authenticated, not
 * encrypted) may be NULL when aad_len is 0. out may equal in (in-place);
 * no buffer needs alignment. Errors: AESIR_E_STATE (key not set up),
 * AESIR_E_ARGUMENT, AESIR_E_IV_LENGTH (nonce of 0 or more than 15
 * bytes), AESIR_E_INPUT_LENGTH (over the limits above),
 * AESIR_E_OUTPUT_SIZE. Nothing is written on error.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_seal(const aesir_ocb_key *key, const uint8_t *nonce, size_t nonce_len,
               const uint8_t *aad, size_t aad_len, uint8_t *out, size_t out_cap,
               size_t *out_len, const uint8_t *in, size_t in_len);
/*
 * aesir_ocb_open -- verifies and decrypts what aesir_ocb_seal produced
 * (in_len bytes: ciphertext, then the 16-byte tag): out receives
 * in_len - 16 bytes. The tag is checked (in constant time) before any
 * plaintext is released: on AESIR_E_AUTH out holds no plaintext (the
 * bytes it would have received are zeroed) and *out_len is 0. Other
 * errors: as aesir_ocb_seal, and AESIR_E_INPUT_LENGTH when in_len < 16.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_open(const aesir_ocb_key *key, const uint8_t *nonce, size_t nonce_len,
               const uint8_t *aad, size_t aad_len, uint8_t *out, size_t out_cap,
               size_t *out_len, const uint8_t *in, size_t in_len);
/*
 * aesir_ocb_seal_detached / aesir_ocb_open_detached -- the same with the
 * tag apart: out and in have len bytes; tag_len is 1..16
 * (AESIR_E_ARGUMENT otherwise). Open returns AESIR_E_AUTH with out
 * zeroed when the tag does not match.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_seal_detached(const aesir_ocb_key *key, const uint8_t *nonce,
                        size_t nonce_len, const uint8_t *aad, size_t aad_len,
                        uint8_t *out, uint8_t *tag, size_t tag_len,
                        const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_open_detached(const aesir_ocb_key *key, const uint8_t *nonce,
                        size_t nonce_len, const uint8_t *aad, size_t aad_len,
                        uint8_t *out, const uint8_t *tag, size_t tag_len,
                        const uint8_t *in, size_t len);

/*
 * aesir_ocb -- one message in steps: aesir_ocb_start (with the tag
 * length, which OCB mixes into the nonce), additional data in any number
 * of aesir_ocb_aad calls at any point before the end, data in any number
 * of update calls in one direction, then aesir_ocb_finish (encryption)
 * or aesir_ocb_verify (decryption).
 *
 * OCB enciphers whole blocks, and the last partial block differently
 * from the others, so an update writes only the whole blocks it has
 * completed: *out_len is a multiple of 16, at most len + 15 (out_cap
 * must be at least the bytes written: len + 15 always suffices), and
 * the 0..15 bytes left over come out of finish/verify. out may equal in
 * (in-place) when out_cap covers what the call writes: a call may write
 * up to 15 bytes more than it reads, the bytes earlier calls held back.
 *
 * Holds a pointer to the key, which must outlive it, and the message's
 * secrets (offsets, checksum, buffered data): finish/verify and every
 * error but AESIR_E_ARGUMENT on a NULL ctx wipe it; aesir_ocb_abort does
 * so without a result. Calls out of order (encrypt and decrypt updates
 * mixed, anything after finish) return AESIR_E_STATE.
 *
 * aesir_ocb_decrypt_update_unverified releases plaintext before the tag
 * is checked: an attacker who changes the ciphertext changes that
 * plaintext, and only the final aesir_ocb_verify says so (which releases
 * the last partial block only when the tag matches). Use it only when
 * you must stream, and act on nothing before verify succeeds; otherwise
 * use aesir_ocb_open, which releases nothing unverified.
 */
#define AESIR_OCB_CTX_BYTES 192
typedef struct aesir_ocb {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_OCB_CTX_BYTES];
} aesir_ocb;

/* aesir_ocb_start -- begins a message with nonce and the tag length it
 * will end with (1..16). Errors: AESIR_E_STATE (key not set up),
 * AESIR_E_ARGUMENT (NULL, tag length), AESIR_E_IV_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_start(aesir_ocb *ctx, const aesir_ocb_key *key, const uint8_t *nonce,
                size_t nonce_len, size_t tag_len);
/* aesir_ocb_aad -- more additional data. Errors: AESIR_E_STATE,
 * AESIR_E_ARGUMENT, AESIR_E_INPUT_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int aesir_ocb_aad(aesir_ocb *ctx,
                                              const uint8_t *aad, size_t len);
/* aesir_ocb_encrypt_update -- encrypts len bytes of in; out receives the
 * whole blocks completed (*out_len bytes, see above). Errors:
 * AESIR_E_STATE, AESIR_E_ARGUMENT, AESIR_E_OUTPUT_SIZE,
 * AESIR_E_INPUT_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_encrypt_update(aesir_ocb *ctx, uint8_t *out, size_t out_cap,
                         size_t *out_len, const uint8_t *in, size_t len);
/* aesir_ocb_decrypt_update_unverified -- decrypts len bytes; the
 * plaintext is NOT authenticated until aesir_ocb_verify succeeds (see
 * above). Errors as aesir_ocb_encrypt_update. */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_decrypt_update_unverified(aesir_ocb *ctx, uint8_t *out,
                                    size_t out_cap, size_t *out_len,
                                    const uint8_t *in, size_t len);
/* aesir_ocb_finish -- ends an encryption: the last 0..15 bytes of
 * ciphertext to out (*out_len; out may be NULL when out_cap is 0 and no
 * bytes are left) and the tag, tag_len bytes: the length given to
 * aesir_ocb_start (AESIR_E_ARGUMENT otherwise). Errors: AESIR_E_STATE
 * (decrypting, or not started), AESIR_E_ARGUMENT, AESIR_E_OUTPUT_SIZE. */
AESIR_API AESIR_WARN_UNUSED int aesir_ocb_finish(aesir_ocb *ctx, uint8_t *out,
                                                 size_t out_cap,
                                                 size_t *out_len, uint8_t *tag,
                                                 size_t tag_len);
/* aesir_ocb_verify -- ends a decryption: compares the tag with tag in
 * constant time and, when it matches, writes the last 0..15 bytes of
 * plaintext to out (*out_len): AESIR_OK, or AESIR_E_AUTH with nothing
 * written to out and *out_len 0. Errors also as aesir_ocb_finish
 * (AESIR_E_STATE when encrypting). */
AESIR_API AESIR_WARN_UNUSED int
aesir_ocb_verify(aesir_ocb *ctx, uint8_t *out, size_t out_cap, size_t *out_len,
                 const uint8_t *tag, size_t tag_len);
/* aesir_ocb_abort -- ends the message without a result, wiping ctx. */
AESIR_API void aesir_ocb_abort(aesir_ocb *ctx);

/* ---------------------------------------------------------------------
 * XTS (IEEE Std 1619-2018, NIST SP 800-38E)
 * ------------------------------------------------------------------- */

/*
 * XTS-AES encrypts data units (disk sectors) of 16 bytes and more in
 * place of the data, with no expansion: each unit is encrypted under a
 * 16-byte tweak, by convention the unit's number (its sector), so that
 * equal plaintexts at different places give unrelated ciphertexts. It
 * is confidentiality only: no tag, no integrity. A change to the
 * ciphertext is not detected (it garbles the 16-byte block it touches);
 * an attacker who sees a unit written twice learns which 16-byte blocks
 * changed. Use it for storage, where the length cannot grow; use an
 * AEAD (GCM) elsewhere.
 *
 * Keys: two AES keys of the same size, concatenated: Key1 (the data
 * key) then Key2 (the tweak key): 32 bytes (XTS-AES-128) or 64 bytes
 * (XTS-AES-256), the two sizes of IEEE 1619 and SP 800-38E; 48 bytes
 * (XTS-AES-192) as an extension that neither standard defines but the
 * same construction gives (some test suites and users rely on it; it is
 * not FIPS-approved). Keys whose two halves are equal are refused with
 * AESIR_E_KEY_WEAK (FIPS 140-3 Implementation Guidance C.I).
 *
 * Data units: len >= 16 bytes; a last partial block (len not a multiple
 * of 16) is handled by ciphertext stealing (IEEE 1619 5.3.2). At most
 * 2^20 blocks (16 MiB) per unit, SP 800-38E's limit: longer is refused
 * with AESIR_E_INPUT_LENGTH. Never encrypt two different units under
 * one key with one tweak.
 *
 * Every function below takes in and out of len bytes; out may equal in
 * (in place); no buffer needs alignment; nothing is written on error.
 */
#define AESIR_XTS_TWEAK_BYTES 16
/* The longest data unit: 2^20 blocks of 16 bytes (SP 800-38E). */
#define AESIR_XTS_MAX_BYTES ((size_t)1 << 24)

/* aesir_xts_key -- the two expanded AES keys of XTS (data key both
 * directions, tweak key for encryption). Opaque, AESIR_XTS_KEY_BYTES
 * bytes (4096), no heap; placement rules as for aesir_aes (16-byte
 * aligned; malloc is fine). May be shared by threads once set up. Clear
 * it with aesir_xts_clear(). */
#define AESIR_XTS_KEY_BYTES 4096
typedef struct aesir_xts_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_XTS_KEY_BYTES];
} aesir_xts_key;

/*
 * aesir_xts_init -- sets up key from k, key_len = 32, 48 or 64 bytes
 * (Key1 || Key2), with the default engine (AESIR_ENGINE overrides it).
 * Errors: AESIR_E_KEY_LENGTH, AESIR_E_KEY_WEAK (Key1 == Key2, compared
 * in constant time), AESIR_E_ARGUMENT, AESIR_E_SELFTEST. On error key is
 * cleared.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_xts_init(aesir_xts_key *key, const uint8_t *k, size_t key_len);
/* aesir_xts_init_ex -- as aesir_xts_init(), with the AES engine chosen
 * by name (NULL: the default). Errors also: AESIR_E_ENGINE_UNKNOWN,
 * AESIR_E_ENGINE_UNAVAILABLE. */
AESIR_API AESIR_WARN_UNUSED int aesir_xts_init_ex(aesir_xts_key *key,
                                                  const uint8_t *k,
                                                  size_t key_len,
                                                  const char *engine);
/* aesir_xts_engine -- the name of the engine key uses, or NULL when key
 * is not set up. */
AESIR_API const char *aesir_xts_engine(const aesir_xts_key *key);
/* aesir_xts_clear -- wipes key. Safe on a cleared or never-initialised
 * key. */
AESIR_API void aesir_xts_clear(aesir_xts_key *key);

/*
 * aesir_xts_encrypt / aesir_xts_decrypt -- one data unit of len bytes
 * under the 16-byte tweak (IEEE 1619's i, read as a little-endian
 * 128-bit integer; the value, not its encoding, is what the standard's
 * sector numbers give: see aesir_xts_encrypt_sector). Errors:
 * AESIR_E_STATE (key not set up), AESIR_E_ARGUMENT (NULL pointer),
 * AESIR_E_INPUT_LENGTH (len < 16 or len > AESIR_XTS_MAX_BYTES).
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_xts_encrypt(const aesir_xts_key *key, const uint8_t tweak[16],
                  uint8_t *out, const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_xts_decrypt(const aesir_xts_key *key, const uint8_t tweak[16],
                  uint8_t *out, const uint8_t *in, size_t len);

/*
 * aesir_xts_encrypt_sector / aesir_xts_decrypt_sector -- the same with
 * the tweak made from a data-unit sequence number: the 128-bit
 * little-endian encoding of sector (IEEE 1619 5.1; the CAVP XTSGen
 * "DataUnitSeqNumber" files). Errors as aesir_xts_encrypt.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_xts_encrypt_sector(const aesir_xts_key *key, uint64_t sector,
                         uint8_t *out, const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_xts_decrypt_sector(const aesir_xts_key *key, uint64_t sector,
                         uint8_t *out, const uint8_t *in, size_t len);

/*
 * aesir_xts_encrypt_sectors / aesir_xts_decrypt_sectors -- consecutive
 * data units of sector_size bytes each (16 .. AESIR_XTS_MAX_BYTES), the
 * first with sequence number first_sector, the next first_sector + 1
 * (as a 128-bit number: past 2^64 - 1 the count carries on into the
 * tweak's upper half), and so on: len must be a whole number of units.
 * The same as one aesir_xts_encrypt_sector call per unit. Errors as
 * aesir_xts_encrypt; AESIR_E_INPUT_LENGTH when sector_size is out of
 * range or does not divide len (len 0 is no unit: AESIR_OK).
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_xts_encrypt_sectors(const aesir_xts_key *key, uint64_t first_sector,
                          size_t sector_size, uint8_t *out, const uint8_t *in,
                          size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_xts_decrypt_sectors(const aesir_xts_key *key, uint64_t first_sector,
                          size_t sector_size, uint8_t *out, const uint8_t *in,
                          size_t len);

/* ---------------------------------------------------------------------
 * AEGIS-128L, AEGIS-256, AEGIS-128X2/X4, AEGIS-256X2/X4
 * (draft-irtf-cfrg-aegis-aead-17)
 * ------------------------------------------------------------------- */

/*
 * AEGIS is an AEAD built from the AES round function alone (SubBytes,
 * ShiftRows, MixColumns, AddRoundKey): a large state of AES blocks that
 * absorbs the data and yields the keystream. With AES instructions it
 * runs at about twice GCM's speed; the X2 and X4 variants are 2 and 4
 * AEGIS instances side by side for 256- and 512-bit vector AES (VAES on
 * ymm and zmm), the same algorithm with another output: they do not
 * interoperate with AEGIS-128L / AEGIS-256 or with each other.
 *
 *   variant               key   nonce  rate       draft section
 *   AESIR_AEGIS_128L      16    16     32 bytes   3
 *   AESIR_AEGIS_256       32    32     16 bytes   4
 *   AESIR_AEGIS_128X2/X4  16    16     64 / 128   5.4 (D = 2 / 4)
 *   AESIR_AEGIS_256X2/X4  32    32     32 / 64    5.5 (D = 2 / 4)
 *
 * Nonces: never use one nonce twice with the same key (even with another
 * tag length): a repeat reveals the XOR of the two messages and lets an
 * attacker recover the state and forge. Random nonces are safe for up to
 * 2^48 messages per key with the 128-bit-key variants, without practical
 * limit with the 256-bit ones (draft section 10.1.1).
 *
 * Tags: 16 or 32 bytes (AESIR_AEGIS_TAG_BYTES / AESIR_AEGIS_TAG256_BYTES)
 * on every call that takes a tag length; anything else is
 * AESIR_E_ARGUMENT. The 32-byte tag also makes the ciphertext commit to
 * the key (draft section 10.1.2).
 *
 * Limits (draft sections 3 and 4): message and additional data at most
 * 2^61 - 1 bytes each; longer input is AESIR_E_INPUT_LENGTH, never
 * wrapped.
 *
 * Engines: AEGIS needs one AES round, not AES. Engines with AES
 * instructions run whole messages in fused kernels (aesni and armv8-ce:
 * AEGIS-128L/256; vaes-avx2: also the X2 variants on ymm; vaes-avx512:
 * all six, X4 on zmm), the other variants on their single AES round;
 * the software engines run the generic AEGIS on their own round (ct64,
 * vperm-ssse3, vperm-avx2) or on ct64's bitsliced one. Every path is
 * constant-time; aesir_aegis_engine() says which one a key uses;
 * docs/modes/aegis.md has the table and the speeds.
 */
enum {
    AESIR_AEGIS_128L = 1,
    AESIR_AEGIS_256 = 2,
    AESIR_AEGIS_128X2 = 3,
    AESIR_AEGIS_128X4 = 4,
    AESIR_AEGIS_256X2 = 5,
    AESIR_AEGIS_256X4 = 6
};
#define AESIR_AEGIS_TAG_BYTES 16
#define AESIR_AEGIS_TAG256_BYTES 32

/* aesir_aegis_key_bytes / aesir_aegis_nonce_bytes -- the key and nonce
 * lengths of variant (16 or 32), or 0 for an unknown variant. */
AESIR_API size_t aesir_aegis_key_bytes(int variant);
AESIR_API size_t aesir_aegis_nonce_bytes(int variant);

/* aesir_aegis_key -- a variant and its key. Opaque, AESIR_AEGIS_KEY_BYTES
 * bytes, no heap, 16-byte aligned (malloc is fine). May be shared by
 * threads once set up. Clear it with aesir_aegis_clear(). */
#define AESIR_AEGIS_KEY_BYTES 128
typedef struct aesir_aegis_key {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_AEGIS_KEY_BYTES];
} aesir_aegis_key;

/*
 * aesir_aegis_init -- sets up key for variant (AESIR_AEGIS_*) with key_len
 * bytes of k (aesir_aegis_key_bytes(variant)) and the default engine
 * (AESIR_ENGINE overrides it). Errors: AESIR_E_ARGUMENT (NULL, unknown
 * variant), AESIR_E_KEY_LENGTH, AESIR_E_SELFTEST. On error key is
 * cleared.
 */
AESIR_API AESIR_WARN_UNUSED int aesir_aegis_init(aesir_aegis_key *key,
                                                 int variant, const uint8_t *k,
                                                 size_t key_len);
/*
 * aesir_aegis_init_ex -- as aesir_aegis_init() on the AES engine called
 * engine (NULL: the default): its AEGIS kernel for variant when it has
 * one, else its AES round, else ct64's. Errors also:
 * AESIR_E_ENGINE_UNKNOWN, AESIR_E_ENGINE_UNAVAILABLE.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_init_ex(aesir_aegis_key *key, int variant, const uint8_t *k,
                    size_t key_len, const char *engine);
/*
 * aesir_aegis_engine -- what key runs on: the AES engine's name and the
 * path, "kernel" (the engine's fused AEGIS kernel), "round" (the
 * generic AEGIS on the engine's own AES round) or "round-ct64" (on
 * ct64's round); either pointer may be NULL. AESIR_E_STATE when key is
 * not set up.
 */
AESIR_API int aesir_aegis_engine(const aesir_aegis_key *key,
                                 const char **engine, const char **path);
/* aesir_aegis_clear -- wipes key. */
AESIR_API void aesir_aegis_clear(aesir_aegis_key *key);

/*
 * aesir_aegis_seal -- encrypts in_len bytes of in and appends a tag of
 * tag_len bytes (16 or 32): out receives in_len + tag_len bytes (out_cap
 * must be at least that; *out_len is set to it). nonce has nonce_len
 * bytes (aesir_aegis_nonce_bytes). aad may be NULL when aad_len is 0.
 * out may equal in (in-place); no buffer needs alignment. Errors:
 * AESIR_E_STATE (key not set up), AESIR_E_ARGUMENT (NULL buffer with a
 * length, tag_len), AESIR_E_IV_LENGTH, AESIR_E_INPUT_LENGTH (over the
 * limits above), AESIR_E_OUTPUT_SIZE. Nothing is written on error.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_seal(const aesir_aegis_key *key, const uint8_t *nonce,
                 size_t nonce_len, const uint8_t *aad, size_t aad_len,
                 uint8_t *out, size_t out_cap, size_t *out_len,
                 const uint8_t *in, size_t in_len, size_t tag_len);
/*
 * aesir_aegis_open -- verifies and decrypts what aesir_aegis_seal
 * produced with the same tag_len (in_len bytes: ciphertext, then the
 * tag): out receives in_len - tag_len bytes. The tag is checked in
 * constant time before any plaintext is released: on AESIR_E_AUTH out
 * holds no plaintext (the bytes it would have received are zeroed) and
 * *out_len is 0. Other errors: as aesir_aegis_seal, and
 * AESIR_E_INPUT_LENGTH when in_len < tag_len.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_open(const aesir_aegis_key *key, const uint8_t *nonce,
                 size_t nonce_len, const uint8_t *aad, size_t aad_len,
                 uint8_t *out, size_t out_cap, size_t *out_len,
                 const uint8_t *in, size_t in_len, size_t tag_len);
/*
 * aesir_aegis_seal_detached / aesir_aegis_open_detached -- the same with
 * the tag apart: out and in have len bytes, tag has tag_len (16 or 32).
 * Open returns AESIR_E_AUTH with out zeroed when the tag does not match.
 */
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_seal_detached(const aesir_aegis_key *key, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *aad, size_t aad_len,
                          uint8_t *out, uint8_t *tag, size_t tag_len,
                          const uint8_t *in, size_t len);
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_open_detached(const aesir_aegis_key *key, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *aad, size_t aad_len,
                          uint8_t *out, const uint8_t *tag, size_t tag_len,
                          const uint8_t *in, size_t len);

/* ---------------------------------------------------------------------
 * AEGIS, incremental (draft-irtf-cfrg-aegis-aead-17): every variant
 * ------------------------------------------------------------------- */

/*
 * aesir_aegis -- one AEGIS message in pieces, on an aesir_aegis_key: any
 * number of aesir_aegis_aad calls, then either encrypt updates and
 * aesir_aegis_finish, or decrypt updates and aesir_aegis_verify. Pieces
 * may have any length (the context buffers a partial block; an update of
 * len bytes writes len bytes); the result equals the one-shot calls' on
 * the same bytes. Opaque, AESIR_AEGIS_CTX_BYTES bytes, no heap, 16-byte
 * aligned as aesir_aes. Holds a pointer to the key, which must outlive
 * it, and the message's secrets (the state): aesir_aegis_finish/verify
 * and every error but AESIR_E_ARGUMENT on a NULL or misaligned ctx wipe
 * it; aesir_aegis_abort does so without a result. Calls out of order
 * (aad after data, encrypt and decrypt updates mixed, anything after
 * finish or before start) return AESIR_E_STATE.
 *
 * aesir_aegis_decrypt_update_unverified releases plaintext before the
 * tag is checked: act on none of it before aesir_aegis_verify succeeds
 * (as for aesir_gcm_decrypt_update_unverified); aesir_aegis_open
 * releases nothing unverified.
 */
#define AESIR_AEGIS_CTX_BYTES 896
typedef struct aesir_aegis {
    AESIR_ALIGNAS(16) unsigned char opaque[AESIR_AEGIS_CTX_BYTES];
} aesir_aegis;

/* aesir_aegis_start -- begins a message with nonce (nonce_len bytes:
 * aesir_aegis_nonce_bytes). Errors: AESIR_E_STATE (key not set up),
 * AESIR_E_ARGUMENT, AESIR_E_IV_LENGTH. */
AESIR_API AESIR_WARN_UNUSED int aesir_aegis_start(aesir_aegis *ctx,
                                                  const aesir_aegis_key *key,
                                                  const uint8_t *nonce,
                                                  size_t nonce_len);
/* aesir_aegis_aad -- more additional data (before any update). Errors:
 * AESIR_E_STATE, AESIR_E_ARGUMENT, AESIR_E_INPUT_LENGTH (over 2^61 - 1
 * bytes in all). */
AESIR_API AESIR_WARN_UNUSED int aesir_aegis_aad(aesir_aegis *ctx,
                                                const uint8_t *aad, size_t len);
/* aesir_aegis_encrypt_update -- encrypts len bytes of in to out (out may
 * equal in). Errors: AESIR_E_STATE, AESIR_E_ARGUMENT,
 * AESIR_E_INPUT_LENGTH (the message would pass 2^61 - 1 bytes). */
AESIR_API AESIR_WARN_UNUSED int aesir_aegis_encrypt_update(aesir_aegis *ctx,
                                                           uint8_t *out,
                                                           const uint8_t *in,
                                                           size_t len);
/* aesir_aegis_decrypt_update_unverified -- decrypts len bytes; NOT
 * authenticated until aesir_aegis_verify succeeds (above). Errors as
 * aesir_aegis_encrypt_update. */
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_decrypt_update_unverified(aesir_aegis *ctx, uint8_t *out,
                                      const uint8_t *in, size_t len);
/* aesir_aegis_finish -- the tag of an encryption (or of AAD alone),
 * tag_len 16 or 32 bytes. Errors: AESIR_E_STATE (decrypting, or not
 * started), AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_finish(aesir_aegis *ctx, uint8_t *tag, size_t tag_len);
/* aesir_aegis_verify -- compares the tag of a decryption (or of AAD
 * alone) with tag (16 or 32 bytes) in constant time: AESIR_OK or
 * AESIR_E_AUTH. Errors also: AESIR_E_STATE (encrypting, or not started),
 * AESIR_E_ARGUMENT. */
AESIR_API AESIR_WARN_UNUSED int
aesir_aegis_verify(aesir_aegis *ctx, const uint8_t *tag, size_t tag_len);
/* aesir_aegis_abort -- ends the message without a result, wiping ctx. */
AESIR_API void aesir_aegis_abort(aesir_aegis *ctx);

#ifdef __cplusplus
}
#endif

#endif /* AESIR_H */
