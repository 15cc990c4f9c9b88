/*
 * pw_read.c -- a passphrase from a file, a file descriptor, or the
 * terminal without echo (passphrase.h states the rules).
 *
 * Files and descriptors (--passphrase-file F, --passphrase-fd N): the
 * first line, read one byte at a time so that nothing after the newline
 * is consumed from a descriptor the caller may read on (a pipe that also
 * carries other lines). The newline, and a carriage return before it, are
 * not part of the passphrase; a line longer than PW_PASS_MAX bytes is
 * refused rather than cut, and so is an empty one.
 *
 * The terminal is /dev/tty, not stdin (which carries the data). Echo is
 * turned off with termios (ECHONL keeps the newline visible) and the old
 * settings are put back on every path: after the read, and from a signal
 * handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT, which restores the
 * terminal and the signal's previous action and raises it again, so the
 * process ends (or the caller's own handler runs: e.g. removing a
 * temporary output file) with a usable terminal. That handler needs the
 * saved settings in static storage: the one piece of global mutable state
 * here, set only while echo is off.
 */
#define _POSIX_C_SOURCE 200809L
#include "pw_read.h"

/* Only with libsodium (passphrase.c is unavailable without it); that also
 * keeps termios and signals out of builds for targets without them
 * (wasm32-wasi: no libsodium found when cross-compiling). */
#ifdef AESIR_HAVE_SODIUM
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "tool.h"

#define PW_TRIES 3

/* The terminal whose echo is off, for the signal handler (see above). */
static const int tty_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIGNALS (sizeof(tty_signals) / sizeof(tty_signals[0]))
static struct {
    volatile sig_atomic_t active; /* echo is off: restore on a signal */
    int fd;
    struct termios saved;
    struct sigaction old[NSIGNALS];
} tty;

static void tty_on_signal(int sig)
{
    int e = errno;

    if (tty.active)
        tcsetattr(tty.fd, TCSAFLUSH, &tty.saved);
    tty.active = 0;
    for (size_t i = 0; i < NSIGNALS; i++)
        if (tty_signals[i] == sig)
            sigaction(sig, &tty.old[i], NULL);
    raise(sig); /* pending until this handler returns: then the old action */
    errno = e;
}

/* tty_quiet -- echo off on fd, with the handlers above; 0 or -1. */
static int tty_quiet(int fd)
{
    struct termios t;
    struct sigaction sa;

    if (tcgetattr(fd, &tty.saved) != 0)
        return -1;
    tty.fd = fd;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = tty_on_signal; /* no SA_RESTART: read() sees EINTR */
    sigemptyset(&sa.sa_mask);
    /* A signal the process ignores (SIGHUP under nohup) stays ignored. */
    for (size_t i = 0; i < NSIGNALS; i++)
        if (sigaction(tty_signals[i], NULL, &tty.old[i]) == 0 &&
            tty.old[i].sa_handler != SIG_IGN)
            sigaction(tty_signals[i], &sa, NULL);
    t = tty.saved;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK);
    t.c_lflag |= ECHONL | ICANON;
    tty.active = 1;
    if (tcsetattr(fd, TCSAFLUSH, &t) != 0) {
        tty.active = 0;
        for (size_t i = 0; i < NSIGNALS; i++)
            sigaction(tty_signals[i], &tty.old[i], NULL);
        return -1;
    }
    return 0;
}

/* tty_restore -- the saved settings and signal actions back. */
static void tty_restore(void)
{
    if (tty.active)
        tcsetattr(tty.fd, TCSAFLUSH, &tty.saved);
    tty.active = 0;
    for (size_t i = 0; i < NSIGNALS; i++)
        sigaction(tty_signals[i], &tty.old[i], NULL);
}

/* read_line -- bytes from fd up to a newline or the end into pass; 0, 1
 * (longer than PW_PASS_MAX), or -1 (errno; EINTR when a signal ended a
 * terminal read). */
static int read_line(int fd, int is_tty, char *pass, size_t cap, size_t *n)
{
    size_t k = 0;
    int longer = 0;
    char c;

    for (;;) {
        ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR && !(is_tty && !tty.active))
            continue;
        if (r < 0)
            return -1;
        if (r == 0 || c == '\n')
            break;
        if (k + 1 >= cap || k >= PW_PASS_MAX) {
            longer = 1;
            if (!is_tty)
                break; /* a file: refused, no need to read on */
            continue;
        }
        pass[k++] = c;
    }
    if (k > 0 && pass[k - 1] == '\r')
        k--;
    pass[k] = '\0';
    *n = k;
    sodium_memzero(&c, sizeof(c));
    return longer;
}

static int line_error(int rc, const char *from, char *err, size_t cap)
{
    if (rc > 0) {
        snprintf(err, cap, "passphrase longer than %d bytes (%s)", PW_PASS_MAX,
                 from);
        return TOOL_EXIT_USAGE;
    }
    snprintf(err, cap, "cannot read the passphrase (%s): %s", from,
             strerror(errno));
    return TOOL_EXIT_IO;
}

static int empty_error(const char *from, char *err, size_t cap)
{
    snprintf(err, cap, "empty passphrase (%s): refused", from);
    return TOOL_EXIT_USAGE;
}

/* from_fd -- the first line of fd (a descriptor or an opened file). */
static int from_fd(int fd, const char *from, char *pass, size_t cap, size_t *n,
                   char *err, size_t errcap)
{
    int rc = read_line(fd, 0, pass, cap, n);

    if (rc != 0)
        return line_error(rc, from, err, errcap);
    return *n == 0 ? empty_error(from, err, errcap) : 0;
}

static void say(int fd, const char *s)
{
    size_t n = strlen(s);

    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* ask -- prompt on the terminal fd and read one line with echo off. */
static int ask(int fd, const char *prompt, char *pass, size_t cap, size_t *n,
               char *err, size_t errcap)
{
    int rc;

    /* Echo off first: the prompt tells the user it is safe to type (and
     * TCSAFLUSH drops what was typed before, echoed). */
    if (tty_quiet(fd) != 0) {
        snprintf(err, errcap, "cannot turn the terminal's echo off: %s",
                 strerror(errno));
        return TOOL_EXIT_IO;
    }
    say(fd, prompt);
    rc = read_line(fd, 1, pass, cap, n);
    tty_restore();
    if (rc < 0 && errno == EINTR) {
        say(fd, "\n");
        snprintf(err, errcap, "interrupted");
        return TOOL_EXIT_IO;
    }
    return rc != 0 ? line_error(rc, "terminal", err, errcap) : 0;
}

/* from_tty -- once, or twice until both agree (PW_TRIES tries). */
static int from_tty(int fd, int confirm, char *pass, size_t cap, size_t *n,
                    char *err, size_t errcap)
{
    char again[PW_PASS_MAX + 1];
    size_t m = 0;
    int rc = 0;

    for (int tries = 1; tries <= PW_TRIES; tries++) {
        rc = ask(fd, "Passphrase: ", pass, cap, n, err, errcap);
        if (rc != 0 && rc != TOOL_EXIT_USAGE)
            break;
        if (rc == 0 && *n == 0)
            rc = empty_error("terminal", err, errcap);
        if (rc == 0 && confirm) {
            rc = ask(fd, "Passphrase (again): ", again, sizeof(again), &m, err,
                     errcap);
            if (rc != 0 && rc != TOOL_EXIT_USAGE)
                break;
            if (rc == 0 && (m != *n || memcmp(again, pass, m) != 0)) {
                snprintf(err, errcap, "the passphrases differ");
                rc = TOOL_EXIT_USAGE;
            }
        }
        if (rc == 0 || !confirm)
            break;
        sodium_memzero(pass, cap);
        if (tries < PW_TRIES) {
            say(fd, "aesir: ");
            say(fd, err);
            say(fd, "; try again.\n");
        }
    }
    sodium_memzero(again, sizeof(again));
    if (rc == TOOL_EXIT_USAGE && confirm) {
        char why[128];
        snprintf(why, sizeof(why), "%s", err);
        snprintf(err, errcap, "%s (%d tries)", why, PW_TRIES);
    }
    return rc;
}

int pw_read(const struct pw_source *src, int confirm, char *pass, size_t cap,
            size_t *n, char *err, size_t errcap)
{
    int fd, rc;

    *n = 0;
    pass[0] = '\0';
    if (src->file != NULL) {
        fd = open(src->file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            snprintf(err, errcap, "cannot open the passphrase file '%s': %s",
                     src->file, strerror(errno));
            return TOOL_EXIT_IO;
        }
        rc = from_fd(fd, "passphrase file", pass, cap, n, err, errcap);
        close(fd);
        return rc;
    }
    if (src->fd >= 0)
        return from_fd(src->fd, "passphrase descriptor", pass, cap, n, err,
                       errcap);
    fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errcap,
                 "no terminal to ask for the passphrase (%s); use "
                 "--passphrase-fd or --passphrase-file",
                 strerror(errno));
        return TOOL_EXIT_IO;
    }
    rc = from_tty(fd, confirm, pass, cap, n, err, errcap);
    close(fd);
    return rc;
}

#else
typedef int pw_read_unavailable; /* ISO C: not an empty file */
#endif /* AESIR_HAVE_SODIUM */
