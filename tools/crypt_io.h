/*
 * crypt_io.h -- what `aesir encrypt` and `aesir decrypt` share: the
 * command line (options and the one optional input file), the key
 * source, the input, and the output (an atomic file, or stdout when it is
 * not a terminal).
 */
#ifndef AESIR_TOOLS_CRYPT_IO_H
#define AESIR_TOOLS_CRYPT_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "args.h"
#include "chunked.h"
#include "outfile.h"

#define CRYPT_ERR 512
#define CRYPT_PREFIX_MAX 64 /* = PW_HEADER_MAX of passphrase.h */

/*
 * crypt_key -- what a key source yields: the input key (16 bytes: AES-
 * 128-GCM; 32: AES-256-GCM), the C2SP context string, and a prefix: bytes
 * written in front of the C2SP stream (empty for key files; a passphrase
 * header, which is also the context, for passphrases).
 */
struct crypt_key {
    uint8_t key[32];
    size_t key_len;
    const uint8_t *ctx;
    size_t ctx_len;
    uint8_t prefix[CRYPT_PREFIX_MAX];
    size_t prefix_len;
    uint8_t ctxbuf[CRYPT_PREFIX_MAX + CHUNKED_MAX_CONTEXT]; /* ctx's bytes */
};

/*
 * crypt_scan -- args_scan() over argv[1..argc) with at most one operand
 * (the input file; "-" is stdin; after "--" anything is an operand) into
 * *operand (NULL when none). Returns as args_scan().
 */
int crypt_scan(int argc, char **argv, const struct args_opt *t, int n, int stop,
               unsigned char *seen, const char **val, const char **operand,
               char *msg, size_t cap);

/* crypt_in -- the input: path, or stdin for NULL or "-". */
struct crypt_in {
    int fd;
    int is_file; /* a regular file: its size is known, pread works */
    struct stat st;
    const char *name; /* for messages */
};
int crypt_in_open(struct crypt_in *in, const char *path, char *err, size_t cap);
void crypt_in_close(struct crypt_in *in);
/* crypt_read -- fills buf (up to cap bytes) unless the input ends first:
 * the bytes read (< cap only at the end), or -1 with errno. */
ssize_t crypt_read(int fd, uint8_t *buf, size_t cap);
/*
 * crypt_read_pieces -- crypt_read() of cap bytes into pieces of `piece`
 * bytes placed `stride` bytes apart (stride >= piece): byte k of the
 * input lands at buf[k / piece * stride + k % piece], the gaps are left
 * alone. readv(2), so a slot of many pieces costs one system call, as a
 * contiguous read does. `aesir encrypt` reads each 16384-byte chunk where
 * its sealed form (16400 bytes) will be, and seals it in place.
 */
ssize_t crypt_read_pieces(int fd, uint8_t *buf, size_t cap, size_t piece,
                          size_t stride);
/*
 * crypt_read_range -- input bytes [from, to) of a crypt_read_pieces()
 * layout, from file offset off (pread: the file offset does not move),
 * or from the current position when off < 0: the bytes read (fewer than
 * to - from only at the end), or -1 with errno. Two threads fill the two
 * halves of a slot of a regular file at once (crypt_pipe.c).
 */
ssize_t crypt_read_range(int fd, uint8_t *buf, size_t from, size_t to,
                         size_t piece, size_t stride, off_t off);

/*
 * crypt_out -- the output: an atomic file (-o) or stdout. Refuses stdout
 * when it is a terminal (what: "ciphertext" or "plaintext") or the input
 * itself. mode: the file's permissions.
 */
struct crypt_out {
    int fd;
    int is_file;
    struct outfile f;
};
int crypt_out_open(struct crypt_out *o, const char *path, int force,
                   mode_t mode, const struct crypt_in *in, const char *what,
                   char *err, size_t cap);
/* crypt_write -- 0 or TOOL_EXIT_IO with the message in err. */
int crypt_write(struct crypt_out *o, const void *buf, size_t n, char *err,
                size_t cap);
/*
 * crypt_write_range -- crypt_write() of output bytes [from, to) of a
 * crypt_read_pieces() layout (pieces of `piece` bytes `stride` apart;
 * piece 0: one contiguous run). writev(2), a system call for many
 * pieces: `aesir decrypt` opens each chunk where it was read and writes
 * the plaintexts from between the tags.
 */
int crypt_write_range(struct crypt_out *o, const uint8_t *buf, size_t from,
                      size_t to, size_t piece, size_t stride, char *err,
                      size_t cap);
int crypt_out_commit(struct crypt_out *o, char *err, size_t cap);
void crypt_out_abort(struct crypt_out *o);

/* crypt_alloc -- n bytes, zeroed, 64-byte aligned (the streams hold
 * aesir key objects, and 16 KiB buffers that do not belong on the
 * stack); NULL when out of memory. Freed with free(). */
void *crypt_alloc(size_t n);

/* crypt_exit -- the exit code for a chunked.h status. */
int crypt_exit(int chunked_status);

#endif /* AESIR_TOOLS_CRYPT_IO_H */
