/*
 * crypt_pool.h -- a small thread pool for `aesir encrypt` and `aesir
 * decrypt` (issue 20 point 4): C2SP chunks are independent (each has its
 * own nonce, c2sp.org/chunked-encryption), so a batch of chunks is cut
 * into ranges sealed or opened on several cores at once. The pool is a
 * chunked_par (chunked.h): the calling thread hands out the ranges, works
 * on them too, and returns once every range is done, so the output stays
 * in order and the caller alone does I/O.
 */
#ifndef AESIR_TOOLS_CRYPT_POOL_H
#define AESIR_TOOLS_CRYPT_POOL_H

#include <stddef.h>

#include "chunked.h"

#define CRYPT_POOL_MAX 64 /* --threads' upper bound */

struct crypt_pool;

/* crypt_pool_default -- the online CPUs, at most 16 (beyond that the
 * memory bandwidth, not AES, is the limit), at least 1. */
unsigned crypt_pool_default(void);

/*
 * crypt_pool_new -- a pool of threads - 1 workers (the caller is the
 * last), 2 <= threads <= CRYPT_POOL_MAX. The workers block every signal,
 * so handlers (outfile.c's clean-up on SIGINT/SIGTERM) run on the main
 * thread. NULL when threads cannot be started.
 */
struct crypt_pool *crypt_pool_new(unsigned threads);

/* crypt_pool_par -- the pool as a chunked_par for chunked_enc/dec. */
void crypt_pool_par(struct crypt_pool *p, struct chunked_par *par);

/* crypt_pool_threads -- --threads' value (NULL: crypt_pool_default())
 * into *n: 1..CRYPT_POOL_MAX, else -1 with a message in err. */
int crypt_pool_threads(const char *arg, unsigned *n, char *err, size_t cap);

/* crypt_pool_free -- stops and joins the workers; NULL is fine. */
void crypt_pool_free(struct crypt_pool *p);

#endif /* AESIR_TOOLS_CRYPT_POOL_H */
