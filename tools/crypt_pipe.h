/*
 * crypt_pipe.h -- reading, crypto and writing at the same time for
 * `aesir encrypt` and `aesir decrypt` (issue 20 point 4; double
 * buffering, as in any streaming copy that must not wait for its own
 * disk): a reader thread fills the next slot while the caller seals or
 * opens the current one (on the thread pool, crypt_pool.h) and a writer
 * thread writes the one before.
 *
 *   reader   read slot i+1    read slot i+2    ...
 *   caller   crypt slot i     crypt slot i+1   ...
 *   writer   write slot i-1   write slot i     ...
 *
 * (A regular file is read by two threads, each filling half of a slot:
 * crypt_pipe.c.) The slots go round a ring of CRYPT_PIPE_SLOTS: the reader
 * fills them in turn, the caller takes them in the order they were read, the
 * writer writes them in the order the caller handed them over. So the output is
 * in order, and the writer writes only what the caller put in a slot's
 * out[0..out_len): decryption puts only authenticated plaintext there
 * (chunked_dec_update), and after a failure it hands over no more slots.
 *
 * Errors come out as a one-thread loop would meet them: a write error in
 * an earlier slot wins over a read or crypto error in a later one. The
 * reader and writer block every
 * signal, so SIGINT and SIGTERM are handled on the main thread, which
 * owns the temporary output file (outfile.c). When the caller stops
 * early (a failure; the end of a --length range on a pipe), the reader is
 * cancelled inside read(2), the only place it can be cancelled: a pipe
 * may never bring more input. Every slot is wiped before it is freed
 * (plaintext is in the input when encrypting, in the output when
 * decrypting, which is the input when a file is opened in place).
 */
#ifndef AESIR_TOOLS_CRYPT_PIPE_H
#define AESIR_TOOLS_CRYPT_PIPE_H

#include <stddef.h>
#include <stdint.h>

#include "crypt_io.h"

/* Three slots: one being read, one in the crypto, one being written. */
#define CRYPT_PIPE_SLOTS 3

/* crypt_pipe_chunks -- chunks per slot for a pool of threads: 64 (1 MiB)
 * per thread, for at most 8 threads (3 slots of 8 MiB in and out are
 * enough to keep 16 threads busy with ranges of 16 chunks). Measured for
 * one thread (a rdtsc harness; docs/tool.md "Speed"): with separate
 * input and output, 256 KiB batches seal ~3% faster than 1 MiB ones;
 * in place (encryption) 256 KiB and 1 MiB are alike, within 1-3% of a
 * hot 16 KiB buffer, so 64 chunks stay. */
size_t crypt_pipe_chunks(unsigned threads);

/*
 * crypt_pipe_shape -- the slots' buffers. The input of a slot (in_cap
 * bytes at most; first_cap for the first slot, lead included, when not 0)
 * is read into `in` in pieces of `piece` bytes placed `stride` bytes apart
 * (crypt_read_pieces; piece = stride = in_cap: one contiguous run).
 * out_cap bytes of `out` per slot, or none (out_cap 0): then out is in,
 * and the step writes its output over its input (`aesir encrypt` seals
 * each chunk where it was read, the tag in the gap; `aesir decrypt` of a
 * regular file opens each chunk where it lies, and a shorter first slot,
 * the 56-byte header and whole chunks, keeps every later slot's chunks
 * whole).
 */
struct crypt_pipe_shape {
    size_t in_cap;
    size_t piece, stride;
    size_t out_cap;
    size_t first_cap;
};

struct crypt_slot {
    uint8_t *in;
    size_t in_len; /* bytes read: fewer than the cap only at the end */
    int end;       /* the input ended in this slot */
    int rerr;      /* errno of a failed read (then in_len is 0), else 0 */
    uint8_t *out;
    /* The step's: out_len bytes to write, from out + out_at, in pieces
     * of out_piece bytes out_stride apart (crypt_write_range; 0: one
     * run). The pipe sets all four to 0 before each step. */
    size_t out_len, out_at, out_piece, out_stride;
};

/* crypt_pipe_write_fn -- writes the output of slot s (called on the
 * writer thread, in order): 0, or an exit code with a message in err. */
typedef int (*crypt_pipe_write_fn)(void *arg, const struct crypt_slot *s,
                                   char *err, size_t cap);

/* crypt_pipe_step_fn -- seals or opens slot s (on the calling thread, in
 * order): sets s->out_len (the bytes of s->out to write: also after a
 * failure, for what authenticated before it) and returns 0, with *stop
 * set when no more input is needed, or an exit code with a message in
 * err (no later slot is then read or written). */
typedef int (*crypt_pipe_step_fn)(void *arg, struct crypt_slot *s, int *stop,
                                  char *err, size_t cap);

/* crypt_pipe_run's flags. CRYPT_PIPE_QUIET: no progress line.
 * CRYPT_PIPE_STATS (--stats): at the end, one line on stderr with the
 * bytes read, the wall time, and the time spent in step: CPU time of the
 * calling thread (CLOCK_THREAD_CPUTIME_ID, so neither the I/O threads'
 * work nor time the thread was not running counts) and wall time. With
 * one thread that CPU time is the crypto's own; with a pool, the steps'
 * wall time is the crypto's and the CPU time only the caller's share. */
#define CRYPT_PIPE_QUIET 1
#define CRYPT_PIPE_STATS 2

/*
 * crypt_pipe_run -- the whole stream: reads in (after lead[0..lead_len),
 * bytes already read from it, lead_len < in_cap, only with a contiguous
 * input: piece = in_cap) into slots shaped as sh says, calls step on each
 * slot in order, write on each slot's output in order, until the slot
 * where the input ends, a stop, or a failure. Progress on a TTY unless
 * flags has CRYPT_PIPE_QUIET (progress.h); statistics with
 * CRYPT_PIPE_STATS. 0, or an exit code with the message in err: the
 * first failure in the order a one-thread loop would meet them.
 */
int crypt_pipe_run(const struct crypt_in *in, const struct crypt_pipe_shape *sh,
                   const uint8_t *lead, size_t lead_len,
                   crypt_pipe_step_fn step, void *step_arg,
                   crypt_pipe_write_fn write, void *write_arg, int flags,
                   char *err, size_t cap);

#endif /* AESIR_TOOLS_CRYPT_PIPE_H */
