/*
 * cmd_keygen.c -- `aesir keygen [-o FILE] [--aes128]`: a new random key
 * (OpenSSL's RAND_bytes: the operating system's generator behind a DRBG)
 * in a key file (keyfile.h): AES-256-GCM by default, AES-128-GCM with
 * --aes128.
 *
 * With -o the file is created with O_EXCL and mode 0600, so an existing
 * file (a key someone still needs) is never replaced, and removed again
 * if writing fails. Without -o the key goes to stdout, also when stdout
 * is a terminal: like age-keygen, the key is text meant to be copied, and
 * the user asked for it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "args.h"
#include "tool.h"
#include "keyfile.h"
#include "outfile.h"

enum { O_OUT, O_AES128, O_HELP, O_COUNT };
static const struct args_opt opts[O_COUNT] = {
    {"--output", "-o", 1}, {"--aes128", NULL, 0}, {"--help", "-h", 0}};

static void usage(FILE *f)
{
    fputs("usage: aesir keygen [-o FILE] [--aes128]\n"
          "  -o, --output FILE  create FILE (mode 0600; never replaces one) "
          "[stdout]\n"
          "  --aes128           a 128-bit key (AES-128-GCM) [256-bit: "
          "AES-256-GCM]\n",
          f);
}

int cmd_keygen(int argc, char **argv)
{
    unsigned char seen[O_COUNT];
    const char *val[O_COUNT];
    char msg[256], line[KEYFILE_LINE_MAX], text[512], when[32], q[96];
    uint8_t key[32];
    size_t len;
    time_t now = time(NULL);
    int rc, fd = STDOUT_FILENO;

    rc = args_scan(argc, argv, 1, opts, O_COUNT, O_HELP, seen, val, msg,
                   sizeof(msg));
    if (rc == 1) {
        usage(stdout);
        return 0;
    }
    if (rc != 0) {
        fprintf(stderr, "aesir keygen: %s\n", msg);
        return TOOL_EXIT_USAGE;
    }
    len = seen[O_AES128] ? 16 : 32;
    if (RAND_bytes(key, (int)len) != 1 || keyfile_encode(key, len, line) != 0) {
        OPENSSL_cleanse(key, sizeof(key));
        fprintf(stderr, "aesir keygen: no random bytes from libcrypto\n");
        return TOOL_EXIT_UNAVAILABLE;
    }
    OPENSSL_cleanse(key, sizeof(key));
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(text, sizeof(text),
             "# aesir key (AES-%zu-GCM), created %s. Keep it secret.\n%s\n",
             len * 8, when, line);
    OPENSSL_cleanse(line, sizeof(line));
    if (seen[O_OUT]) {
        fd = open(val[O_OUT], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) {
            fprintf(stderr, "aesir keygen: %s: %s%s\n",
                    args_quote(q, sizeof(q), val[O_OUT]), strerror(errno),
                    errno == EEXIST ? " (refusing to overwrite a key file)"
                                    : "");
            OPENSSL_cleanse(text, sizeof(text));
            return TOOL_EXIT_IO;
        }
    }
    rc = write_all(fd, text, strlen(text));
    if (rc == 0 && seen[O_OUT])
        rc = fsync(fd);
    if (rc != 0)
        fprintf(stderr, "aesir keygen: writing %s: %s\n",
                seen[O_OUT] ? args_quote(q, sizeof(q), val[O_OUT]) : "stdout",
                strerror(errno));
    if (seen[O_OUT]) {
        if (close(fd) != 0 && rc == 0) {
            fprintf(stderr, "aesir keygen: %s: %s\n",
                    args_quote(q, sizeof(q), val[O_OUT]), strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            unlink(val[O_OUT]);
    }
    OPENSSL_cleanse(text, sizeof(text));
    return rc == 0 ? 0 : TOOL_EXIT_IO;
}
