/*
 * outfile.h -- atomic output files for `aesir encrypt|decrypt -o FILE`.
 *
 * The output is written to a temporary file in the target's directory
 * (mkstemp: O_EXCL, mode 0600), fsync'd, then renamed over the target only
 * when the whole operation succeeded, and the directory is fsync'd so the
 * rename survives a crash. On any error, and on SIGINT, SIGTERM or SIGHUP,
 * the temporary file is removed: nothing half-written is ever visible
 * under the target's name.
 *
 * Without --force an existing target is refused; the final step is then
 * link(2), which fails if the target appeared meanwhile (rename(2) would
 * replace it silently), with rename(2) as the fallback on file systems
 * without hard links. The target may never be the input (same device and
 * inode, which also catches hard links and symlinks to it).
 */
#ifndef AESIR_TOOLS_OUTFILE_H
#define AESIR_TOOLS_OUTFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define OUTFILE_PATH_MAX 4096

struct outfile {
    int fd;
    int force;
    int committed;
    char target[OUTFILE_PATH_MAX];
    char tmp[OUTFILE_PATH_MAX];
};

/*
 * outfile_open -- creates the temporary file for target. mode: the
 * permissions the result gets (0600 for plaintext; 0666 & ~umask for
 * ciphertext); in: the input's stat (NULL for stdin). 0, or an exit code
 * (TOOL_EXIT_IO) with the message in err: the target exists (without force),
 * is the input, or its directory is not writable.
 */
int outfile_open(struct outfile *o, const char *target, int force, mode_t mode,
                 const struct stat *in, char *err, size_t cap);

/* outfile_commit -- fsync, close, rename into place, fsync the
 * directory. 0 or TOOL_EXIT_IO (the temporary file is then removed). */
int outfile_commit(struct outfile *o, char *err, size_t cap);

/* outfile_abort -- closes and removes the temporary file (no-op after a
 * commit). */
void outfile_abort(struct outfile *o);

/* write_all -- writes all n bytes to fd (retrying short writes and
 * EINTR). 0, or -1 with errno set. */
int write_all(int fd, const void *buf, size_t n);

#endif /* AESIR_TOOLS_OUTFILE_H */
