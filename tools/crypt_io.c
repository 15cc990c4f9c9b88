/*
 * crypt_io.c -- the command line, input and output of `aesir encrypt`
 * and `aesir decrypt` (see crypt_io.h).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* preadv(2) */
#include "crypt_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tool.h"

int crypt_scan(int argc, char **argv, const struct args_opt *t, int n, int stop,
               unsigned char *seen, const char **val, const char **operand,
               char *msg, size_t cap)
{
    char **rest = malloc(((size_t)argc + 1) * sizeof(*rest)), q[96];
    int m = 0, rc, only_operands = 0;

    *operand = NULL;
    if (rest == NULL) {
        snprintf(msg, cap, "out of memory");
        return -1;
    }
    rest[m++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int k = 0;
        if (!only_operands && strcmp(a, "--") == 0) {
            only_operands = 1;
            continue;
        }
        if (only_operands || a[0] != '-' || strcmp(a, "-") == 0) {
            if (*operand != NULL) {
                snprintf(msg, cap,
                         "unexpected argument '%s' (one input file "
                         "at most)",
                         args_quote(q, sizeof(q), a));
                free(rest);
                return -1;
            }
            *operand = a;
            continue;
        }
        /* An option: keep it and its value for args_scan. */
        rest[m++] = argv[i];
        while (k < n && strcmp(a, t[k].name) != 0 &&
               (t[k].alias == NULL || strcmp(a, t[k].alias) != 0))
            k++;
        if (k < n && t[k].takes_value && i + 1 < argc)
            rest[m++] = argv[++i];
    }
    rest[m] = NULL;
    rc = args_scan(m, rest, 1, t, n, stop, seen, val, msg, cap);
    free(rest);
    return rc;
}

void *crypt_alloc(size_t n)
{
    size_t size = (n + 63) / 64 * 64;
    void *p = aligned_alloc(64, size);

    if (p != NULL)
        memset(p, 0, size);
    return p;
}

int crypt_in_open(struct crypt_in *in, const char *path, char *err, size_t cap)
{
    char q[96];

    memset(in, 0, sizeof(*in));
    if (path == NULL || strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
        in->name = "stdin";
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        in->name = path;
    }
    if (in->fd < 0 || fstat(in->fd, &in->st) != 0) {
        snprintf(err, cap, "%s: %s", args_quote(q, sizeof(q), in->name),
                 strerror(errno));
        return TOOL_EXIT_IO;
    }
    if (S_ISDIR(in->st.st_mode)) {
        snprintf(err, cap, "%s: is a directory",
                 args_quote(q, sizeof(q), in->name));
        return TOOL_EXIT_IO;
    }
    in->is_file = S_ISREG(in->st.st_mode);
    /* Read once from start to end: the kernel may read ahead more
     * (a hint; a file system without read-ahead ignores it). */
    if (in->is_file)
        (void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return 0;
}

void crypt_in_close(struct crypt_in *in)
{
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    in->fd = -1;
}

ssize_t crypt_read(int fd, uint8_t *buf, size_t cap)
{
    return crypt_read_pieces(fd, buf, cap, cap, cap);
}

ssize_t crypt_read_pieces(int fd, uint8_t *buf, size_t cap, size_t piece,
                          size_t stride)
{
    return crypt_read_range(fd, buf, 0, cap, piece, stride, -1);
}

/* Pieces per readv(2) or writev(2): 128 chunks of 16 KiB are 2 MiB per
 * call. */
#define IOVS 128

/* iov_fill -- iovecs for bytes [at, to) of a pieces layout, at most IOVS
 * of them: how many. */
static int iov_fill(struct iovec *v, const uint8_t *buf, size_t at, size_t to,
                    size_t piece, size_t stride)
{
    int c = 0;

    for (; at < to && c < IOVS; c++) {
        size_t o = at % piece, len = piece - o;
        if (len > to - at)
            len = to - at;
        v[c].iov_base = (uint8_t *)buf + at / piece * stride + o;
        v[c].iov_len = len;
        at += len;
    }
    return c;
}

ssize_t crypt_read_range(int fd, uint8_t *buf, size_t from, size_t to,
                         size_t piece, size_t stride, off_t off)
{
    size_t n = from;

    while (n < to) {
        struct iovec v[IOVS];
        /* From input byte n on (a read may end inside a piece). */
        int c = iov_fill(v, buf, n, to, piece, stride);
        ssize_t r = off < 0 ? readv(fd, v, c)
                            : preadv(fd, v, c, off + (off_t)(n - from));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        n += (size_t)r;
    }
    return (ssize_t)(n - from);
}

int crypt_out_open(struct crypt_out *o, const char *path, int force,
                   mode_t mode, const struct crypt_in *in, const char *what,
                   char *err, size_t cap)
{
    struct stat st;

    memset(o, 0, sizeof(*o));
    o->f.fd = -1;
    if (path != NULL && strcmp(path, "-") != 0) {
        o->is_file = 1;
        if (outfile_open(&o->f, path, force, mode,
                         in->fd == STDIN_FILENO && !in->is_file ? NULL
                                                                : &in->st,
                         err, cap) != 0)
            return TOOL_EXIT_IO;
        o->fd = o->f.fd;
        return 0;
    }
    o->fd = STDOUT_FILENO;
    if (isatty(STDOUT_FILENO)) {
        snprintf(err, cap,
                 "refusing to write %s to a terminal (use -o FILE or "
                 "redirect stdout)",
                 what);
        return TOOL_EXIT_USAGE;
    }
    /* `aesir encrypt f >> f` would read its own output forever. */
    if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_dev == in->st.st_dev && st.st_ino == in->st.st_ino) {
        snprintf(err, cap,
                 "refusing to write to the input: stdout is the "
                 "input file");
        return TOOL_EXIT_IO;
    }
    return 0;
}

int crypt_write(struct crypt_out *o, const void *buf, size_t n, char *err,
                size_t cap)
{
    return crypt_write_range(o, buf, 0, n, 0, 0, err, cap);
}

int crypt_write_range(struct crypt_out *o, const uint8_t *buf, size_t from,
                      size_t to, size_t piece, size_t stride, char *err,
                      size_t cap)
{
    char q[96];

    if (piece == 0)
        piece = stride = to;
    while (from < to) {
        struct iovec v[IOVS];
        /* From output byte `from` on (a write may end inside a piece). */
        int c = iov_fill(v, buf, from, to, piece, stride);
        ssize_t w = writev(o->fd, v, c);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            snprintf(err, cap, "writing %s: %s",
                     o->is_file ? args_quote(q, sizeof(q), o->f.target)
                                : "stdout",
                     strerror(errno));
            return TOOL_EXIT_IO;
        }
        from += (size_t)w;
    }
    return 0;
}

int crypt_out_commit(struct crypt_out *o, char *err, size_t cap)
{
    if (o->is_file)
        return outfile_commit(&o->f, err, cap);
    return 0;
}

void crypt_out_abort(struct crypt_out *o)
{
    if (o->is_file)
        outfile_abort(&o->f);
}

int crypt_exit(int status)
{
    switch (status) {
    case CHUNKED_OK:
        return 0;
    case CHUNKED_E_COMMIT:
    case CHUNKED_E_AUTH:
    case CHUNKED_E_TRUNCATED:
    case CHUNKED_E_FULL_FINAL:
    case CHUNKED_E_TRAILING:
    case CHUNKED_E_TOO_LONG:
        return TOOL_EXIT_AUTH;
    case CHUNKED_E_RANGE:
        return TOOL_EXIT_USAGE;
    case CHUNKED_E_READ:
        return TOOL_EXIT_IO;
    default:
        return TOOL_EXIT_UNAVAILABLE;
    }
}
