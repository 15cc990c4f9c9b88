/*
 * bench.h -- the benchmark's one interface: an implementation ("impl") is
 * one row of the tables -- an aesir engine, or a peer library in one of
 * its configurations -- and the harness times every impl on the same
 * buffers, interleaved round by round, in one process.
 *
 * An adapter file (bench/peer_<lib>.c, bench/impl_aesir.c) provides impls
 * through a registration function listed in bench/registry.c. Adapters
 * for peers are compiled only when the peer was found at build time
 * (BENCH_HAVE_<LIB> defined); a peer that cannot run on this CPU says so
 * through its probe().
 */
#ifndef AESIR_BENCH_H
#define AESIR_BENCH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Operations. A new mode adds its operations here (before OP_COUNT) and to
 * bench_op_name(); the harness and the adapters that support it pick it
 * up from there.
 */
enum bench_op {
    OP_ECB_ENC,
    OP_ECB_DEC,
    OP_CBC_ENC,
    OP_CBC_DEC,
    OP_CFB128_ENC,
    OP_CFB128_DEC,
    OP_OFB,
    OP_CTR,
    /* Multi-buffer CBC encryption: 1, 4, 8 or 16 independent messages in
     * flight per run() (see below). */
    OP_MB_CBC_ENC_1,
    OP_MB_CBC_ENC_4,
    OP_MB_CBC_ENC_8,
    OP_MB_CBC_ENC_16,
    /* Multi-buffer CBC-MAC (the same chains, only each message's last
     * block kept): run() writes message j's 16-byte MAC to out + 16 * j. */
    OP_MB_CBC_MAC_1,
    OP_MB_CBC_MAC_4,
    OP_MB_CBC_MAC_8,
    OP_MB_CBC_MAC_16,
    /*
     * AES-GCM (SP 800-38D) with a 12-byte IV -- the first 12 bytes of the
     * iv given at setup() -- and a 16-byte tag; any message length.
     *   gcm-enc  in: plaintext (len bytes), no AAD; out: ciphertext (len
     *            bytes), then the tag (16).
     *   gcm-dec  in: ciphertext (len bytes), then the tag (16), no AAD;
     *            out: plaintext (len). Decryption with verification:
     *            run() returns non-zero when the tag does not match.
     *   gmac     in: AAD (len bytes), no plaintext; out: the tag (16).
     *   ghash    GHASH alone (SP 800-38D, 6.4) under H = AES_K(0^128):
     *            in: len bytes (whole blocks only, like ECB and CBC),
     *            hashed from Y = 0, no length block; out: Y (16 bytes).
     * A library without a public GHASH does not claim ghash, or runs
     * GMAC and says so (ghash_is_gmac below).
     */
    OP_GCM_ENC,
    OP_GCM_DEC,
    OP_GMAC,
    OP_GHASH,
    OP_COUNT
};

/* Short names used on the command line and in CSV/JSON: "ecb-enc",
 * "ecb-dec", "cbc-enc", "cbc-dec", "cfb128-enc", "cfb128-dec", "ofb",
 * "ctr", "mb-cbc-enc-1", "mb-cbc-enc-4", "mb-cbc-enc-8", "mb-cbc-enc-16",
 * "mb-cbc-mac-1", "mb-cbc-mac-4", "mb-cbc-mac-8", "mb-cbc-mac-16",
 * "gcm-enc", "gcm-dec", "gmac", "ghash". */
const char *bench_op_name(enum bench_op op);
/* -1 when unknown. */
int bench_op_parse(const char *name);

/*
 * Messages per run(): N for the multi-buffer ops, 1 for the others. A
 * multi-buffer run() gets N messages of len bytes each, back to back in
 * in and out (message j at offset j * len), and returns when all N are
 * encrypted; message j has its own key and IV, bench_mb_key() and
 * bench_mb_iv() of the row's key and IV, as N packets of N different
 * connections. Its figures count all N x len bytes.
 */
unsigned bench_op_messages(enum bench_op op);
/* Non-zero for the multi-buffer ops (both kinds). */
int bench_op_is_mb(enum bench_op op);
/* Non-zero for the multi-buffer CBC-MAC ops. */
int bench_op_is_mac(enum bench_op op);
/* Bytes run() writes for messages of len bytes: N x len, or N x 16 for
 * the MAC ops; len + 16 for gcm-enc (the tag), 16 for gmac and ghash. */
size_t bench_op_out_bytes(enum bench_op op, size_t len);
/* Bytes run() reads for messages of len bytes: len, N x len for the
 * multi-buffer ops, len + 16 for gcm-dec (the tag). */
size_t bench_op_in_bytes(enum bench_op op, size_t len);
/* Non-zero for the GCM ops (gcm-enc, gcm-dec, gmac, ghash). */
int bench_op_is_gcm(enum bench_op op);
/* Key (key_bits / 8 bytes) and IV of message j of a multi-buffer run. */
void bench_mb_key(const uint8_t *key, unsigned key_bits, unsigned j,
                  uint8_t *out);
void bench_mb_iv(const uint8_t iv[16], unsigned j, uint8_t out[16]);

/*
 * One message = one call of run() (N messages for the multi-buffer ops,
 * see bench_op_messages()): the IV (or initial counter block,
 * 128-bit big-endian counter) given at setup is used afresh for every
 * message, as for a new packet, so per-message costs (IV load, counter
 * setup, call overhead) are part of the measurement. No padding: lengths
 * are multiples of 16 for ECB/CBC; any length for the stream modes.
 * out and in never overlap in timing runs.
 */
struct bench_impl {
    const char *name;  /* row label, e.g. "aesir/ttable", "openssl",
                          "openssl-noaesni", "bearssl-ct64" */
    const char *group; /* "aesir" or "peer" */
    /* Non-zero when this impl can run here (library initialised, CPU
     * has what it needs). Called once, before anything else. May print
     * why not to stderr. */
    int (*probe)(void);
    /* Non-zero when op with key_bits (128/192/256) is supported. */
    int (*supports)(enum bench_op op, unsigned key_bits);
    /* Key setup for op; returns an opaque context or NULL on failure. */
    void *(*setup)(enum bench_op op, const uint8_t *key, unsigned key_bits,
                   const uint8_t iv[16]);
    /* Processes one message; returns 0 on success. */
    int (*run)(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
    void (*release)(void *ctx);
    /* Optional: one key schedule for op (encryption or decryption
     * direction as op needs) into scratch state, for the key-setups-per-
     * second figure; returns 0 on success, anything else on failure.
     * NULL when the library cannot separate it. */
    int (*keysetup)(enum bench_op op, const uint8_t *key, unsigned key_bits);
    /* Non-zero when the impl's ghash op runs GMAC instead (the message as
     * AAD, the 12-byte IV, out: the 16-byte tag), because its library has
     * no GHASH-alone call: GHASH over the same blocks plus a length block
     * and one AES block, more work than the op asks. --check verifies it
     * against GMAC's reference. */
    int ghash_is_gmac;
};

/*
 * Registration: each adapter file exports one function
 *     void bench_register_<lib>(bench_add_fn add);
 * that calls add() once per impl it provides (impls must stay valid for
 * the whole run: static storage). bench/registry.c calls them all, in a
 * fixed order, under #ifdef BENCH_HAVE_<LIB>.
 */
typedef void (*bench_add_fn)(const struct bench_impl *impl);

void bench_register_aesir(bench_add_fn add);     /* impl_aesir.c */
void bench_register_openssl(bench_add_fn add);   /* peer_openssl.c */
void bench_register_gcrypt(bench_add_fn add);    /* peer_gcrypt.c */
void bench_register_nettle(bench_add_fn add);    /* peer_nettle.c */
void bench_register_sodium(bench_add_fn add);    /* peer_sodium.c */
void bench_register_ipsecmb(bench_add_fn add);   /* peer_ipsecmb.c */
void bench_register_bearssl(bench_add_fn add);   /* peer_bearssl.c */
void bench_register_wolfssl(bench_add_fn add);   /* peer_wolfssl.c */
void bench_register_mbedtls(bench_add_fn add);   /* peer_mbedtls.c */
void bench_register_boringssl(bench_add_fn add); /* peer_boringssl.c */
void bench_register_awslc(bench_add_fn add);     /* peer_awslc.c */
void bench_register_ghash(bench_add_fn add);     /* impl_ghash.c */

#endif /* AESIR_BENCH_H */
