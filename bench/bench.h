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
    OP_COUNT
};

/* Short names used on the command line and in CSV/JSON: "ecb-enc",
 * "ecb-dec", "cbc-enc", "cbc-dec", "cfb128-enc", "cfb128-dec", "ofb",
 * "ctr". */
const char *bench_op_name(enum bench_op op);
/* -1 when unknown. */
int bench_op_parse(const char *name);

/*
 * One message = one call of run(): the IV (or initial counter block,
 * 128-bit big-endian counter) given at setup is used afresh for every
 * message, as for a new packet, so per-message costs (IV load, counter
 * setup, call overhead) are part of the measurement. No padding: lengths
 * are multiples of 16 for ECB/CBC; any length for the stream modes.
 * out and in never overlap in timing runs.
 */
struct bench_impl {
    const char *name;   /* row label, e.g. "aesir/ttable", "openssl",
                           "openssl-noaesni", "bearssl-ct64" */
    const char *group;  /* "aesir" or "peer" */
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
     * second figure; NULL when the library cannot separate it. */
    int (*keysetup)(enum bench_op op, const uint8_t *key, unsigned key_bits);
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

#endif /* AESIR_BENCH_H */
