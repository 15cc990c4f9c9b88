/*
 * outfile.c -- atomic output files (see outfile.h).
 *
 * The one piece of global mutable state in the crypt commands lives here:
 * the path of the current temporary file, for the signal handler, which
 * can only reach it through a global. It is set once the file exists and
 * cleared before the file is renamed or removed; the handler calls only
 * async-signal-safe functions (unlink, signal, raise) and then dies by the
 * same signal, so the exit status still says what happened.
 */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "tool.h"

static char sig_tmp[OUTFILE_PATH_MAX];
static volatile sig_atomic_t sig_armed;

static void on_signal(int sig)
{
    if (sig_armed)
        unlink(sig_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void arm(const char *path)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;

    memcpy(sig_tmp, path, strlen(path) + 1);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaction(sigs[i], &sa, NULL);
    sig_armed = 1;
}

/* disarm -- before the temporary name goes away (renamed or removed), so
 * a late signal cannot unlink a file of the same name made by another. */
static void disarm(void)
{
    sig_armed = 0;
}

int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* split -- the directory of path into dir ("." when none). */
static void dir_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');

    if (slash == NULL)
        snprintf(dir, cap, ".");
    else if (slash == path)
        snprintf(dir, cap, "/");
    else
        snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

int outfile_open(struct outfile *o, const char *target, int force, mode_t mode,
                 const struct stat *in, char *err, size_t cap)
{
    const char *base = strrchr(target, '/');
    char dir[OUTFILE_PATH_MAX], q[96];
    struct stat st;

    memset(o, 0, sizeof(*o));
    o->fd = -1;
    o->force = force;
    base = base != NULL ? base + 1 : target;
    if (strlen(target) + 32 >= sizeof(o->tmp) || *base == '\0') {
        snprintf(err, cap, "output '%s': not a file name",
                 args_quote(q, sizeof(q), target));
        return TOOL_EXIT_USAGE;
    }
    if (stat(target, &st) == 0) {
        if (in != NULL && st.st_dev == in->st_dev && st.st_ino == in->st_ino) {
            snprintf(err, cap,
                     "refusing to overwrite the input: '%s' is the "
                     "input file",
                     args_quote(q, sizeof(q), target));
            return TOOL_EXIT_IO;
        }
        if (!force) {
            snprintf(err, cap, "refusing to overwrite '%s' (use --force)",
                     args_quote(q, sizeof(q), target));
            return TOOL_EXIT_IO;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, cap, "output '%s' is not a regular file",
                     args_quote(q, sizeof(q), target));
            return TOOL_EXIT_IO;
        }
    }
    snprintf(o->target, sizeof(o->target), "%s", target);
    dir_of(target, dir, sizeof(dir));
    if (snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.aesir-XXXXXX", dir, base) >=
        (int)sizeof(o->tmp)) {
        snprintf(err, cap, "output '%s': name too long",
                 args_quote(q, sizeof(q), target));
        o->tmp[0] = '\0';
        return TOOL_EXIT_USAGE;
    }
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        snprintf(err, cap, "cannot create a file in '%s': %s",
                 args_quote(q, sizeof(q), dir), strerror(errno));
        return TOOL_EXIT_IO;
    }
    arm(o->tmp);
    if (fchmod(o->fd, mode) != 0) {
        snprintf(err, cap, "chmod '%s': %s", args_quote(q, sizeof(q), o->tmp),
                 strerror(errno));
        outfile_abort(o);
        return TOOL_EXIT_IO;
    }
    return 0;
}

int outfile_commit(struct outfile *o, char *err, size_t cap)
{
    char dir[OUTFILE_PATH_MAX], q[96];
    int dfd;

    if (fsync(o->fd) != 0 || close(o->fd) != 0) {
        snprintf(err, cap, "writing '%s': %s",
                 args_quote(q, sizeof(q), o->target), strerror(errno));
        o->fd = -1;
        outfile_abort(o);
        return TOOL_EXIT_IO;
    }
    o->fd = -1;
    if (!o->force && link(o->tmp, o->target) == 0) {
        disarm();
        unlink(o->tmp);
    } else if (!o->force && errno == EEXIST) {
        snprintf(err, cap,
                 "refusing to overwrite '%s' (it appeared while "
                 "writing; use --force)",
                 args_quote(q, sizeof(q), o->target));
        outfile_abort(o);
        return TOOL_EXIT_IO;
    } else {
        disarm();
        if (rename(o->tmp, o->target) != 0) {
            snprintf(err, cap, "renaming into '%s': %s",
                     args_quote(q, sizeof(q), o->target), strerror(errno));
            unlink(o->tmp);
            return TOOL_EXIT_IO;
        }
    }
    o->committed = 1;
    /* Make the new directory entry durable too. */
    dir_of(o->target, dir, sizeof(dir));
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}

void outfile_abort(struct outfile *o)
{
    if (o->committed)
        return;
    disarm();
    if (o->fd >= 0)
        close(o->fd);
    o->fd = -1;
    if (o->tmp[0] != '\0')
        unlink(o->tmp);
    o->tmp[0] = '\0';
}
