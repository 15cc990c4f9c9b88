/*
 * progress.h -- a progress line on stderr for long encryptions and
 * decryptions: bytes done, percentage, rate and time left, redrawn with
 * '\r' at most four times a second.
 *
 * Shown only when stderr is a terminal, the input's size is known (a
 * regular file) and over 4 MiB, and --quiet was not given: scripts and
 * pipes see nothing on stderr but errors.
 */
#ifndef AESIR_TOOLS_PROGRESS_H
#define AESIR_TOOLS_PROGRESS_H

#include <stdint.h>

#define PROGRESS_MIN ((uint64_t)4 << 20)

struct progress {
    int on;
    int drawn;
    uint64_t total, done;
    double start, last;
};

/* progress_init -- total: the input size in bytes (0 when unknown). */
void progress_init(struct progress *p, uint64_t total, int quiet);
/* progress_add -- n more bytes done; redraws when due. */
void progress_add(struct progress *p, uint64_t n);
/* progress_end -- erases the line (before an error message or exit). */
void progress_end(struct progress *p);

#endif /* AESIR_TOOLS_PROGRESS_H */
