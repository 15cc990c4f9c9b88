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
    /*
     * Issue 19's modes. Common rules: the row's key is key_bits / 8 bytes;
     * a mode that needs a longer key or nonce gets it from bench_op_key()
     * and bench_op_nonce() (below); no AAD anywhere unless said; a
     * decryption op's input is its encryption op's output for a random
     * message and it returns non-zero (run() != 0) when the tag or the
     * integrity check fails -- bench_op_tag_byte() names a byte whose
     * change it must refuse.
     *   xts-enc, xts-dec  XTS-AES (IEEE 1619-2018, SP 800-38E): the XTS
     *            key is bench_op_key() of 2 x key_bits (32 bytes for
     *            AES-128, 48 for AES-192, 64 for AES-256: the row's key
     *            then the row's key XOR 0x5c..., never equal halves); the
     *            tweak is the data unit number: the first 8 bytes of the
     *            iv as a little-endian number, as the 16-byte tweak
     *            block (those 8 bytes, then 8 zero bytes); any length
     *            >= 16 (ciphertext stealing); out: len bytes.
     *   ocb-enc, ocb-dec  OCB3 (RFC 7253): 12-byte nonce (iv[0..11]),
     *            16-byte tag; out/in: ciphertext, then the tag (as GCM).
     *   ccm-enc, ccm-dec  CCM (SP 800-38C, RFC 3610): 12-byte nonce
     *            (iv[0..11], so L = 3: messages below 16 MiB), 16-byte
     *            tag after the ciphertext.
     *   cmac     CMAC (SP 800-38B, RFC 4493): in: the message (any
     *            length); out: the 16-byte tag.
     *   mb-cmac-8  8 independent CMACs per run(), message j under
     *            bench_mb_key(j) (as mb-cbc-mac-8); out: tag j at 16 * j.
     *   gcm-siv-enc, gcm-siv-dec  AES-GCM-SIV (RFC 8452), AES-128 and
     *            AES-256: 12-byte nonce (iv[0..11]), tag after the
     *            ciphertext.
     *   siv-enc, siv-dec  AES-SIV (RFC 5297, AES-CMAC-SIV): the SIV key
     *            is bench_op_key() of 2 x key_bits (AES-128 = a 32-byte
     *            SIV key); one associated-data string, the 16-byte iv
     *            (RFC 5297 section 3's nonce as the last header); out/in:
     *            the synthetic IV V (16 bytes) first, then the ciphertext
     *            (RFC 5297 section 2.6's output order).
     *   kw-wrap, kw-unwrap  AES Key Wrap KW (SP 800-38F, RFC 3394) with
     *            the default ICV: in: len bytes (a multiple of 8, >= 16);
     *            out: len + 8 (wrap). unwrap: in len + 8, out len; an
     *            integrity failure returns non-zero.
     *   aegis128l-enc/-dec, aegis256-enc/-dec, aegis128x2-enc,
     *   aegis128x4-enc, aegis256x2-enc, aegis256x4-enc
     *            AEGIS (draft-irtf-cfrg-aegis-aead): the 128 variants at
     *            AES-128 only (16-byte key, nonce = the 16-byte iv), the
     *            256 variants at AES-256 only (32-byte key, 32-byte
     *            nonce = bench_op_nonce()); 32-byte tag (libsodium's
     *            only size) after the ciphertext.
     *   xaes-gcm-enc  XAES-256-GCM (C2SP): AES-256 only, 24-byte nonce
     *            (bench_op_nonce()), 16-byte tag after the ciphertext.
     */
    OP_XTS_ENC,
    OP_XTS_DEC,
    OP_OCB_ENC,
    OP_OCB_DEC,
    OP_CCM_ENC,
    OP_CCM_DEC,
    OP_CMAC,
    OP_MB_CMAC_8,
    OP_GCM_SIV_ENC,
    OP_GCM_SIV_DEC,
    OP_SIV_ENC,
    OP_SIV_DEC,
    OP_KW_WRAP,
    OP_KW_UNWRAP,
    OP_AEGIS128L_ENC,
    OP_AEGIS128L_DEC,
    OP_AEGIS256_ENC,
    OP_AEGIS256_DEC,
    OP_AEGIS128X2_ENC,
    OP_AEGIS128X4_ENC,
    OP_AEGIS256X2_ENC,
    OP_AEGIS256X4_ENC,
    OP_XAES_GCM_ENC,
    OP_COUNT
};

/* A set of ops: bit (1 << op). */
typedef uint64_t bench_ops;
#define BENCH_OP_BIT(op) ((bench_ops)1 << (op))

/* Short names used on the command line and in CSV/JSON: "ecb-enc",
 * "ecb-dec", "cbc-enc", "cbc-dec", "cfb128-enc", "cfb128-dec", "ofb",
 * "ctr", "mb-cbc-enc-1", "mb-cbc-enc-4", "mb-cbc-enc-8", "mb-cbc-enc-16",
 * "mb-cbc-mac-1", "mb-cbc-mac-4", "mb-cbc-mac-8", "mb-cbc-mac-16",
 * "gcm-enc", "gcm-dec", "gmac", "ghash", "xts-enc", "xts-dec",
 * "ocb-enc", "ocb-dec", "ccm-enc", "ccm-dec", "cmac", "mb-cmac-8",
 * "gcm-siv-enc", "gcm-siv-dec", "siv-enc", "siv-dec", "kw-wrap",
 * "kw-unwrap", "aegis128l-enc", "aegis128l-dec", "aegis256-enc",
 * "aegis256-dec", "aegis128x2-enc", "aegis128x4-enc", "aegis256x2-enc",
 * "aegis256x4-enc", "xaes-gcm-enc". */
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
 * the MAC ops; len + 16 for gcm-enc (the tag), 16 for gmac and ghash;
 * len + the tag for issue 19's encryption ops (+ 8 for kw-wrap), 16 for
 * cmac, 8 x 16 for mb-cmac-8. */
size_t bench_op_out_bytes(enum bench_op op, size_t len);
/* Bytes run() reads for messages of len bytes: len, N x len for the
 * multi-buffer ops, len + 16 for gcm-dec (the tag), len + the tag (or +8)
 * for issue 19's decryption ops. */
size_t bench_op_in_bytes(enum bench_op op, size_t len);
/* Non-zero for the GCM ops (gcm-enc, gcm-dec, gmac, ghash). */
int bench_op_is_gcm(enum bench_op op);
/* Non-zero for issue 19's ops (xts-enc .. xaes-gcm-enc). */
int bench_op_is_mode19(enum bench_op op);
/* For a decryption op, its encryption op (whose output is its input);
 * -1 for the others. */
int bench_op_enc_of(enum bench_op op);
/* Non-zero when op's run() must refuse its input with the byte at
 * bench_op_tag_byte(op, len) changed (a tag or integrity check), -1 when
 * it has none (encryption ops, xts-dec). */
long bench_op_tag_byte(enum bench_op op, size_t len);
/* Non-zero when op takes a message of len bytes (XTS: >= 16; KW: a
 * multiple of 8, >= 16; ECB, CBC and GHASH: whole blocks). */
int bench_op_len_ok(enum bench_op op, size_t len);
/* Non-zero when op runs at key_bits (AEGIS and XAES: one key size each;
 * GCM-SIV: 128 and 256). */
int bench_op_key_ok(enum bench_op op, unsigned key_bits);
/* The op's key when it is longer than the row's (XTS, SIV: n = 2 x
 * key_bits / 8): the row's key, then the row's key with every byte XORed
 * with 0x5c. out gets n bytes (at most 64). */
void bench_op_key(const uint8_t *key, unsigned key_bits, uint8_t *out,
                  size_t n);
/* The op's nonce when longer than 16 bytes (AEGIS-256: 32, XAES: 24):
 * the iv, then the iv with every byte XORed with 0x5c. */
void bench_op_nonce(const uint8_t iv[16], uint8_t *out, size_t n);
/* XTS: the 16-byte tweak of the iv (see xts-enc above). */
void bench_xts_tweak(const uint8_t iv[16], uint8_t tweak[16]);

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
    const char *group; /* "aesir", "peer" or BENCH_GROUP_BOUND */
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
    /* Optional: the longest message op takes, when the library has a
     * limit (intel-ipsec-mb's jobs: under 64 KiB for CMAC and CCM, which
     * cannot be split); NULL or 0: none. Longer rows are not timed for
     * this impl (the cell stays empty) and not verified. */
    size_t (*max_len)(enum bench_op op);
};

/*
 * Group "bound" (bench/impl_bound.c: bound/aes, bound/gcm, bound/chain):
 * the limit row's bounds as impls, timed in the same cells and rounds as
 * the others so that a share of a bound is a same-run ratio. A bound impl
 * executes the bound's instructions for len bytes and touches neither in
 * nor out, so it is NOT verified (verify.c marks its claimed ops verified
 * without comparing anything), has no key setup figures (keysetup.c), is
 * never a peer (not the best peer of a column, output.c and
 * perf_doc.py), and is not held to the limit row's bound (main.c).
 */
#define BENCH_GROUP_BOUND "bound"

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
void bench_register_bound(bench_add_fn add);     /* impl_bound.c */

#endif /* AESIR_BENCH_H */
