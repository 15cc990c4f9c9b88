/*
 * chunked_int.h -- what chunked.c and chunked_ra.c share; not for the
 * commands.
 */
#ifndef AESIR_TOOLS_CHUNKED_INT_H
#define AESIR_TOOLS_CHUNKED_INT_H

#include "chunked.h"

/* chunked_fail -- fills err (when not NULL); returns code. */
int chunked_fail(struct chunked_error *err, int code, uint64_t off,
                 const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* chunked_commit_equal -- the two 32-byte commitments are equal
 * (constant time: CRYPTO_memcmp). */
int chunked_commit_equal(const uint8_t *a, const uint8_t *b);

/* chunked_nonce -- the nonce of chunk i: base nonce XOR i. */
void chunked_nonce(const struct chunked_keys *k, uint64_t i,
                   uint8_t n[AESIR_GCM_NONCE_BYTES]);

/* chunked_open_one -- opens chunk i (n sealed bytes, n >= 16) into out
 * (n - 16 bytes; zeroed on failure). CHUNKED_E_AUTH, CHUNKED_E_TOO_LONG
 * (i >= 2^38) or CHUNKED_OK. */
int chunked_open_one(const struct chunked_keys *k, uint64_t i,
                     const uint8_t *in, size_t n, uint8_t *out);

/* chunked_find_final -- on the error path only: whether some prefix of
 * the n bytes that failed as chunk i is a valid final chunk (16..n-1
 * bytes, and shorter than a full chunk); if so 1, with *trailing the
 * bytes after it. Costs up to about n^2/2 bytes of GCM (~134 MB for a
 * full chunk): once, when a decryption fails. */
int chunked_find_final(const struct chunked_keys *k, uint64_t i,
                       const uint8_t *in, size_t n, size_t *trailing);

#endif /* AESIR_TOOLS_CHUNKED_INT_H */
