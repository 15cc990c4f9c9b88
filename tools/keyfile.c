/*
 * keyfile.c -- reading and writing aesir key files (format in keyfile.h
 * and docs/tool.md, "Key files"). The checksum is SHA-512 from OpenSSL's
 * libcrypto (EVP_Digest): no hash is written here.
 */
#define _POSIX_C_SOURCE 200809L
#include "keyfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "args.h"
#include "tool.h"

#define PREFIX "aesir-key-"
#define VERSION "v1-"
#define FILE_MAX 4096 /* a key file is a few lines: refuse anything big */

/* checksum -- the first 4 bytes of SHA-512(prefix || key). */
static int checksum(const char *prefix, size_t plen, const uint8_t *key,
                    size_t len, uint8_t out[4])
{
    uint8_t buf[64], md[EVP_MAX_MD_SIZE];
    unsigned n;
    int ok;

    if (plen + len > sizeof(buf))
        return -1;
    memcpy(buf, prefix, plen);
    memcpy(buf + plen, key, len);
    ok = EVP_Digest(buf, plen + len, md, &n, EVP_sha512(), NULL) == 1;
    memcpy(out, md, 4);
    OPENSSL_cleanse(buf, sizeof(buf));
    OPENSSL_cleanse(md, sizeof(md));
    return ok ? 0 : -1;
}

int keyfile_encode(const uint8_t *key, size_t len, char line[KEYFILE_LINE_MAX])
{
    uint8_t sum[4];
    int n;

    if (len != 16 && len != 32)
        return -1;
    n = snprintf(line, KEYFILE_LINE_MAX, PREFIX VERSION "aes%zu-", len * 8);
    if (checksum(line, (size_t)n, key, len, sum) != 0)
        return -1;
    for (size_t i = 0; i < len; i++)
        n += snprintf(line + n, KEYFILE_LINE_MAX - (size_t)n, "%02x", key[i]);
    snprintf(line + n, KEYFILE_LINE_MAX - (size_t)n, "-%02x%02x%02x%02x",
             sum[0], sum[1], sum[2], sum[3]);
    return 0;
}

static int hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* digits -- n hex digits at s into out; -1 at the first bad one. */
static int digits(const char *s, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i += 2) {
        if (hex(s[i]) < 0 || hex(s[i + 1]) < 0)
            return -1;
        out[i / 2] = (uint8_t)(hex(s[i]) << 4 | hex(s[i + 1]));
    }
    return 0;
}

/* parse_line -- one key line of n bytes. */
static int parse_line(const char *s, size_t n, uint8_t *key, size_t *len,
                      char *err, size_t cap)
{
    size_t plen = strlen(PREFIX VERSION), bits, ndig = 0;
    uint8_t sum[4], want[4], tmp[32];
    char q[96], word[16];

    if (n < strlen(PREFIX) || memcmp(s, PREFIX, strlen(PREFIX)) != 0) {
        snprintf(err, cap,
                 "not an aesir key: the key line must start with "
                 "'" PREFIX VERSION "'");
        return -1;
    }
    if (n < plen || memcmp(s + strlen(PREFIX), VERSION, 3) != 0) {
        size_t w = strcspn(s + strlen(PREFIX), "-\n");
        snprintf(word, sizeof(word), "%.*s", (int)(w < 12 ? w : 12),
                 s + strlen(PREFIX));
        snprintf(err, cap,
                 "unknown key version '%s' (this aesir reads v1 keys)",
                 args_quote(q, sizeof(q), word));
        return -1;
    }
    if (n >= plen + 7 && memcmp(s + plen, "aes128-", 7) == 0)
        bits = 128;
    else if (n >= plen + 7 && memcmp(s + plen, "aes256-", 7) == 0)
        bits = 256;
    else {
        snprintf(err, cap, "unknown cipher in the key (want aes128 or aes256)");
        return -1;
    }
    plen += 7;
    while (plen + ndig < n && s[plen + ndig] != '-')
        ndig++;
    if (ndig != bits / 4) {
        snprintf(err, cap,
                 "wrong key length: %zu hex digits, want %zu for aes%zu "
                 "(a digit lost or added?)",
                 ndig, bits / 4, bits);
        return -1;
    }
    if (n != plen + ndig + 9) {
        snprintf(err, cap,
                 "the key's checksum (8 hex digits after the last "
                 "'-') is missing or of the wrong length");
        return -1;
    }
    if (digits(s + plen, ndig, tmp) != 0 ||
        digits(s + plen + ndig + 1, 8, sum) != 0) {
        snprintf(err, cap, "a character that is not a hex digit in the key");
        OPENSSL_cleanse(tmp, sizeof(tmp));
        return -1;
    }
    if (checksum(s, plen, tmp, bits / 8, want) != 0 ||
        CRYPTO_memcmp(sum, want, 4) != 0) {
        snprintf(err, cap,
                 "the key's checksum does not match: a typo in the "
                 "key file");
        OPENSSL_cleanse(tmp, sizeof(tmp));
        return -1;
    }
    memcpy(key, tmp, bits / 8);
    *len = bits / 8;
    OPENSSL_cleanse(tmp, sizeof(tmp));
    return 0;
}

int keyfile_parse(const char *text, uint8_t *key, size_t *len, char *err,
                  size_t cap)
{
    int found = 0;

    for (const char *p = text; *p != '\0';) {
        size_t n = strcspn(p, "\n"), m = n;
        while (m > 0 &&
               (p[m - 1] == '\r' || p[m - 1] == ' ' || p[m - 1] == '\t'))
            m--;
        if (m > 0 && p[0] != '#') {
            if (found) {
                snprintf(err, cap, "more than one key line");
                return -1;
            }
            if (parse_line(p, m, key, len, err, cap) != 0)
                return -1;
            found = 1;
        }
        p += n + (p[n] == '\n');
    }
    if (!found)
        snprintf(err, cap, "no key in the file");
    return found ? 0 : -1;
}

int keyfile_load(const char *path, uint8_t *key, size_t *len, char *err,
                 size_t cap)
{
    char text[FILE_MAX + 1], q[96], msg[160];
    struct stat st;
    size_t n = 0;
    int fd, rc;

    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, cap, "key file '%s': %s", args_quote(q, sizeof(q), path),
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        return TOOL_EXIT_IO;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > FILE_MAX) {
        snprintf(err, cap, "key file '%s': not a key file (%s)",
                 args_quote(q, sizeof(q), path),
                 S_ISREG(st.st_mode) ? "too big" : "not a regular file");
        close(fd);
        return TOOL_EXIT_USAGE;
    }
    if (st.st_mode & (S_IRWXG | S_IRWXO))
        fprintf(stderr,
                "aesir: warning: key file '%s' is accessible by others "
                "(mode %04o); chmod 600 it\n",
                args_quote(q, sizeof(q), path), (unsigned)(st.st_mode & 07777));
    for (ssize_t r; n < FILE_MAX; n += (size_t)r) {
        r = read(fd, text + n, FILE_MAX - n);
        if (r < 0 && errno == EINTR) {
            r = 0;
            continue;
        }
        if (r <= 0) {
            if (r < 0) {
                snprintf(err, cap, "key file '%s': %s",
                         args_quote(q, sizeof(q), path), strerror(errno));
                close(fd);
                return TOOL_EXIT_IO;
            }
            break;
        }
    }
    close(fd);
    text[n] = '\0';
    if (strlen(text) != n) {
        snprintf(err, cap, "key file '%s': not a key file (binary data)",
                 args_quote(q, sizeof(q), path));
        OPENSSL_cleanse(text, sizeof(text));
        return TOOL_EXIT_USAGE;
    }
    rc = keyfile_parse(text, key, len, msg, sizeof(msg));
    OPENSSL_cleanse(text, sizeof(text));
    if (rc != 0) {
        snprintf(err, cap, "key file '%s': %s", args_quote(q, sizeof(q), path),
                 msg);
        return TOOL_EXIT_USAGE;
    }
    return 0;
}
