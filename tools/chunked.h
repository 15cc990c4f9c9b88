/*
 * chunked.h -- the C2SP chunked-encryption format (c2sp.org/chunked-
 * encryption, v1) over aesir's AES-GCM: AES-128-GCM or AES-256-GCM as
 * the AEAD ("Cobblestone-128/-256"), HKDF-Expand over SHA-512 (RFC 5869,
 * from OpenSSL's libcrypto) as the key derivation.
 *
 *   key || base nonce || commitment = HKDF-Expand(prk = input key,
 *       info = "c2sp.org/chunked-encryption@v1+" || aead || 0x00 || salt
 *              || context)
 *   ciphertext = salt (24) || commitment (32) || chunk 0 || chunk 1 ...
 *
 * The plaintext is cut into 16384-byte chunks; the final chunk is always
 * shorter (possibly empty), which is what marks the end of the message.
 * Chunk i is sealed with nonce = base nonce XOR i (big-endian) and no AAD,
 * so chunk k starts at ciphertext offset 56 + k * 16400.
 *
 * Three ways in: a streaming encryptor and a streaming decryptor, each fed
 * in pieces of any size, and random access (chunked_ra_*) over a
 * read-at-offset callback. The decryptor checks the commitment (in
 * constant time) before it opens any chunk, releases the plaintext of a
 * chunk only once the chunk authenticated, and reports success only for a
 * correctly terminated stream. Every failure is a distinct code with a
 * message that names the problem and the ciphertext byte offset.
 *
 * Built without OpenSSL (no AESIR_TOOL_OPENSSL), every entry point fails
 * with CHUNKED_E_UNAVAILABLE.
 */
#ifndef AESIR_TOOLS_CHUNKED_H
#define AESIR_TOOLS_CHUNKED_H

#include <stddef.h>
#include <stdint.h>

#include "aesir.h"

#define CHUNKED_CHUNK 16384u                         /* plaintext chunk size */
#define CHUNKED_TAG 16u                              /* GCM tag */
#define CHUNKED_SEALED (CHUNKED_CHUNK + CHUNKED_TAG) /* a full sealed chunk */
#define CHUNKED_SALT 24u
#define CHUNKED_COMMIT 32u
#define CHUNKED_HEADER (CHUNKED_SALT + CHUNKED_COMMIT) /* 56 */
#define CHUNKED_MAX_CHUNKS ((uint64_t)1 << 38) /* the spec's hard limit */
#define CHUNKED_MAX_CONTEXT 1024u /* ours: a bound on the HKDF info */

enum chunked_status {
    CHUNKED_OK = 0,
    CHUNKED_E_COMMIT = -1,      /* commitment mismatch: wrong key or context */
    CHUNKED_E_AUTH = -2,        /* a chunk fails to authenticate */
    CHUNKED_E_TRUNCATED = -3,   /* ends inside the header or a tag, or early */
    CHUNKED_E_FULL_FINAL = -4,  /* ends after a full chunk: no final chunk */
    CHUNKED_E_TRAILING = -5,    /* bytes after the final short chunk */
    CHUNKED_E_TOO_LONG = -6,    /* the chunk counter would reach 2^38 */
    CHUNKED_E_RANGE = -7,       /* random access past the end */
    CHUNKED_E_ARG = -8,         /* bad key length, context too long, misuse */
    CHUNKED_E_READ = -9,        /* the read callback failed */
    CHUNKED_E_CRYPTO = -10,     /* libcrypto failed (HKDF, random bytes) */
    CHUNKED_E_UNAVAILABLE = -11 /* built without OpenSSL */
};

/* chunked_error -- a failure: its code, the ciphertext offset it concerns
 * and a one-line message naming both. */
struct chunked_error {
    int code;
    uint64_t offset;
    char msg[200];
};

/* chunked_available -- 1 when built with libcrypto, else 0. */
int chunked_available(void);

/* chunked_aead_name -- "AEAD_AES_128_GCM" or "AEAD_AES_256_GCM" for a key
 * of 16 or 32 bytes, else NULL. */
const char *chunked_aead_name(size_t key_len);

/* chunked_wipe -- zeroes n bytes in a way the compiler keeps (keys,
 * plaintext buffers). */
void chunked_wipe(void *p, size_t n);

/*
 * chunked_par -- many chunks at once (issue 20 point 4: chunks are
 * independent). run(pool, n, fn, arg) calls fn(arg, lo, hi) over disjoint
 * ranges [lo, hi) that together cover [0, n), possibly on several threads
 * at once, returns when all have returned, and returns the smallest value
 * any fn returned. fn returns SIZE_MAX when its whole range succeeded,
 * else the index of its first failure (and stops there).
 * tools/crypt_pool.c is one; NULL in a stream means one chunk after the
 * other on the caller's thread.
 */
typedef size_t (*chunked_range_fn)(void *arg, size_t lo, size_t hi);
struct chunked_par {
    size_t (*run)(void *pool, size_t n, chunked_range_fn fn, void *arg);
    void *pool;
};

/* The per-message secrets derived from the input key and salt. */
struct chunked_keys {
    aesir_gcm_key gcm;
    uint8_t nonce[AESIR_GCM_NONCE_BYTES];
    uint8_t commit[CHUNKED_COMMIT];
};

/*
 * chunked_derive -- HKDF-Expand-SHA-512(key, info) into k: the AEAD key
 * (set up in k->gcm), base nonce and commitment. key_len is 16 or 32;
 * ctx may be NULL when ctx_len is 0, ctx_len <= CHUNKED_MAX_CONTEXT.
 */
int chunked_derive(struct chunked_keys *k, const uint8_t *key, size_t key_len,
                   const uint8_t salt[CHUNKED_SALT], const uint8_t *ctx,
                   size_t ctx_len);
/* chunked_keys_clear -- wipes k. */
void chunked_keys_clear(struct chunked_keys *k);

/*
 * chunked_seal_chunk -- seals chunk i (n <= CHUNKED_CHUNK bytes of
 * plaintext) into out (n + CHUNKED_TAG bytes), independently of any
 * other chunk: k is only read, so threads may share it (aesir's GCM keys
 * may be used concurrently once set up). CHUNKED_E_TOO_LONG when i >=
 * 2^38. Whether the chunk is a full one or the final one is the caller's
 * business (a full chunk is never the final one).
 */
int chunked_seal_chunk(const struct chunked_keys *k, uint64_t i,
                       const uint8_t *in, size_t n, uint8_t *out);
/*
 * chunked_open_chunk -- opens chunk i (n sealed bytes, CHUNKED_TAG <= n
 * <= CHUNKED_SEALED) into out (n - CHUNKED_TAG bytes, zeroed when it
 * fails): CHUNKED_OK, CHUNKED_E_AUTH or CHUNKED_E_TOO_LONG. Like
 * chunked_seal_chunk, safe on several threads with the same k.
 */
int chunked_open_chunk(const struct chunked_keys *k, uint64_t i,
                       const uint8_t *in, size_t n, uint8_t *out);

/* ---- streaming encryption ---------------------------------------- */

struct chunked_enc {
    struct chunked_keys k;
    uint64_t chunk; /* index of the next chunk to seal */
    size_t have;    /* plaintext bytes waiting in buf */
    int finished;
    const struct chunked_par *par; /* set after init; NULL: sequential */
    uint8_t buf[CHUNKED_CHUNK];
};

/*
 * chunked_enc_init -- starts a message: a random salt (RAND_bytes), or
 * the given one when salt is not NULL (tests only: a salt must never
 * repeat for a key), and the 56-byte header (salt || commitment) to write
 * first into header.
 */
int chunked_enc_init(struct chunked_enc *e, const uint8_t *key, size_t key_len,
                     const uint8_t *ctx, size_t ctx_len, const uint8_t *salt,
                     uint8_t header[CHUNKED_HEADER]);

/* chunked_enc_out_max -- the most chunked_enc_update() may write for len
 * more bytes of input. */
size_t chunked_enc_out_max(const struct chunked_enc *e, size_t len);

/*
 * chunked_enc_update -- takes all len bytes of in and writes every chunk
 * that is now full, sealed, to out (*out_len bytes; cap must be at least
 * chunked_enc_out_max(e, len)). Whole chunks go straight from in to out,
 * through e->par when it is set (same bytes as without).
 */
int chunked_enc_update(struct chunked_enc *e, const uint8_t *in, size_t len,
                       uint8_t *out, size_t cap, size_t *out_len);

/*
 * chunked_enc_final -- seals the final short chunk (possibly empty) into
 * out (at most CHUNKED_SEALED - 1 bytes) and wipes the keys.
 */
int chunked_enc_final(struct chunked_enc *e, uint8_t *out, size_t cap,
                      size_t *out_len);
void chunked_enc_clear(struct chunked_enc *e);

/*
 * chunked_enc_in_place -- seals len bytes of plaintext where they lie:
 * chunk j of them (16384 bytes; the last one may be shorter) at
 * buf + j * CHUNKED_SEALED, so that each sealed chunk (16400 bytes) ends
 * where the next plaintext chunk begins, and buf[0..*out_len) is then the
 * ciphertext, as chunked_enc_update() (and, with final, chunked_enc_final())
 * would have written it. Whole chunks go through e->par when it is set.
 * Without final, len must be a multiple of CHUNKED_CHUNK; no plaintext may
 * be waiting from chunked_enc_update() (CHUNKED_E_ARG otherwise). buf has
 * room for len / CHUNKED_CHUNK * CHUNKED_SEALED bytes, and one sealed
 * chunk more with final.
 */
int chunked_enc_in_place(struct chunked_enc *e, uint8_t *buf, size_t len,
                         int final, size_t *out_len);

/* ---- streaming decryption ---------------------------------------- */

struct chunked_dec {
    struct chunked_keys k;
    uint8_t key[32]; /* the input key, until the header has arrived */
    size_t key_len;
    const uint8_t *ctx; /* the caller's, kept alive until the header */
    size_t ctx_len;
    int keyed;      /* the header arrived and the commitment matched */
    int failed;     /* a failure was reported: every later call fails */
    uint64_t chunk; /* index of the next chunk to open */
    uint64_t off;   /* ciphertext offset of buf[0] */
    size_t have;    /* bytes waiting in buf */
    const struct chunked_par *par; /* set after init; NULL: sequential */
    /* Set after init for chunked_dec_in_place(): reads the ciphertext
     * again (offsets from its first byte, the header's). */
    int (*reread)(void *arg, uint64_t off, uint8_t *buf, size_t len);
    void *reread_arg;
    uint8_t buf[CHUNKED_SEALED];
};

int chunked_dec_init(struct chunked_dec *d, const uint8_t *key, size_t key_len,
                     const uint8_t *ctx, size_t ctx_len);

/* chunked_dec_out_max -- the most chunked_dec_update() may write for len
 * more bytes of input. */
size_t chunked_dec_out_max(const struct chunked_dec *d, size_t len);

/*
 * chunked_dec_update -- takes len bytes of ciphertext; writes to out the
 * plaintext of every full chunk that is now complete and authenticated
 * (*out_len bytes). On failure (commitment, a chunk) nothing of the
 * failing chunk is written, err says what and where, and the decryptor
 * refuses all further input. With d->par, whole chunks are opened through
 * it; the result (out, *out_len, the error and its offset) is the same as
 * without: the chunks before the first failure, nothing after it.
 */
int chunked_dec_update(struct chunked_dec *d, const uint8_t *in, size_t len,
                       uint8_t *out, size_t cap, size_t *out_len,
                       struct chunked_error *err);

/*
 * chunked_dec_final -- the input has ended: opens the final short chunk
 * (at most CHUNKED_CHUNK - 1 bytes into out). CHUNKED_OK only for a
 * correctly terminated message; otherwise truncation (inside the header,
 * inside a tag, after a full chunk), a final chunk that fails, or
 * trailing data after a valid final chunk (found by trying the shorter
 * lengths: only on this error path).
 */
int chunked_dec_final(struct chunked_dec *d, uint8_t *out, size_t cap,
                      size_t *out_len, struct chunked_error *err);
void chunked_dec_clear(struct chunked_dec *d);

/*
 * chunked_dec_in_place -- as chunked_dec_update() (and, with final,
 * chunked_dec_final() after it) without a second buffer: each chunk is
 * opened where it lies, its plaintext over its own ciphertext, so the
 * plaintext released is *pt_len bytes at buf + *pt_at in pieces of
 * CHUNKED_CHUNK bytes CHUNKED_SEALED apart (the final piece shorter).
 * The first call may start with the header (*pt_at is then 56); every
 * call but the one with final must hold whole chunks, and none may follow
 * chunked_dec_update() with bytes left waiting (CHUNKED_E_ARG). Same
 * results and errors as the two-buffer calls, with one difference in the
 * means: a chunk that fails in place leaves zeros where it was, so its
 * failure is worded (trailing data or not) from d->reread of its bytes,
 * which must be set (CHUNKED_E_ARG otherwise). Measured (docs/tool.md
 * "Speed"): no second buffer's cache traffic, the one-thread decryption
 * of a file as fast as its encryption, which seals in place.
 */
int chunked_dec_in_place(struct chunked_dec *d, uint8_t *buf, size_t len,
                         int final, size_t *pt_at, size_t *pt_len,
                         struct chunked_error *err);

/* ---- random access ----------------------------------------------- */

/* chunked_read_fn -- reads len bytes at offset off into buf: 0 when all
 * were read, -1 on error or when the source ends first. */
typedef int (*chunked_read_fn)(void *arg, uint64_t off, uint8_t *buf,
                               size_t len);

struct chunked_ra {
    struct chunked_keys k;
    chunked_read_fn read;
    void *arg;
    uint64_t ct_len; /* total ciphertext length */
    uint64_t chunks; /* number of chunks, the final short one included */
    uint64_t pt_len; /* plaintext length */
    uint8_t buf[CHUNKED_SEALED];
};

/*
 * chunked_ra_open -- random access to a ciphertext of ct_len bytes: reads
 * and checks the header (commitment), checks that ct_len is a valid
 * length, and authenticates the final chunk, so pt_len is the true
 * plaintext length (the spec's "authenticate the message length").
 */
int chunked_ra_open(struct chunked_ra *r, const uint8_t *key, size_t key_len,
                    const uint8_t *ctx, size_t ctx_len, chunked_read_fn read,
                    void *arg, uint64_t ct_len, struct chunked_error *err);

/*
 * chunked_ra_chunk -- reads and opens chunk k into out (CHUNKED_CHUNK
 * bytes of room); *out_len is its plaintext length.
 */
int chunked_ra_chunk(struct chunked_ra *r, uint64_t k, uint8_t *out,
                     size_t *out_len, struct chunked_error *err);

/*
 * chunked_ra_read -- plaintext bytes [off, off + len) into out: opens
 * only the chunks that hold them. CHUNKED_E_RANGE when the range goes
 * past pt_len.
 */
int chunked_ra_read(struct chunked_ra *r, uint64_t off, uint8_t *out,
                    size_t len, struct chunked_error *err);
void chunked_ra_clear(struct chunked_ra *r);

#endif /* AESIR_TOOLS_CHUNKED_H */
