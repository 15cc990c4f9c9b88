/*
 * test_passphrase.c -- tools/passphrase.c: the passphrase header and
 * Argon2id (RFC 9106) key derivation of `aesir encrypt/decrypt -p`.
 *
 * Without arguments, the unit tests: pw_seal_setup writes the documented
 * header (passphrase.h: magic, version, AEAD, big-endian costs, salt) and
 * its key equals a direct crypto_pwhash (Argon2id v1.3) of the same
 * passphrase, salt and costs; pw_open_setup reads it back to the same key;
 * every malformed header (magic, version, AEAD, costs, truncation, memory
 * above the limit) is refused before anything is read from the passphrase
 * source; the first-line rules of files and descriptors; bad parameters.
 *
 * With arguments, one call for tests/test_tool_pass.py, which drives the
 * terminal cases through a pseudo-terminal:
 *   test_passphrase tty-seal          pw_seal_setup from the terminal
 *   test_passphrase tty-open HDRHEX   pw_open_setup from the terminal
 *   test_passphrase file-open HDRHEX FILE
 * each printing "rc=N key=HEX hdr=HEX" on stdout and the message on
 * stderr (t_cost 1, m_cost 64 KiB: fast).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "passphrase.h"
#include "tool.h"

#define PASS "correct horse"
#define T_COST 1
#define M_COST 64 /* KiB */

static char tmpdir[] = "/tmp/test_passphrase.XXXXXX";

/* file -- a file in tmpdir holding n bytes of s; returns its path. */
static const char *file(const char *name, const char *s, size_t n)
{
    static char path[4][256];
    static int k;
    char *p = path[k++ % 4];
    FILE *f;

    snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, name);
    f = fopen(p, "wb");
    if (f == NULL || fwrite(s, 1, n, f) != n || fclose(f) != 0) {
        perror(p);
        exit(1);
    }
    return p;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* A pipe holding s, its read end non-blocking: what is left tells what
 * pw_*_setup consumed. */
static int pipe_with(const char *s, int *wr)
{
    int p[2];

    if (pipe(p) != 0 || write(p[1], s, strlen(s)) != (ssize_t)strlen(s))
        exit(1);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    *wr = p[1];
    return p[0];
}

/* left -- the bytes still in the pipe, into buf (NUL-terminated). */
static size_t left(int fd, char *buf, size_t cap)
{
    ssize_t r = read(fd, buf, cap - 1);
    size_t n = r > 0 ? (size_t)r : 0;

    buf[n] = '\0';
    return n;
}

static void test_seal_layout(size_t key_len)
{
    struct pw_source src = {file("pass", PASS "\n", strlen(PASS) + 1), -1};
    struct pw_params p = {T_COST, M_COST};
    uint8_t key[32], want[32], hdr[PW_HEADER_MAX], hdr2[PW_HEADER_MAX];
    size_t hlen = 0, hlen2 = 0;
    char err[256] = "";

    memset(hdr, 0xee, sizeof(hdr));
    CHECK_EQ(
        pw_seal_setup(&src, &p, key_len, key, hdr, &hlen, err, sizeof(err)), 0);
    CHECK_EQ(hlen, (size_t)PW_HEADER_LEN);
    CHECK(hlen <= PW_HEADER_MAX);
    CHECK(memcmp(hdr, "AESIR-PW", 8) == 0);
    CHECK_EQ(hdr[8], 1);                           /* version */
    CHECK_EQ(hdr[9], key_len == 16 ? 1 : 2);       /* AEAD */
    CHECK(memcmp(hdr + 10, "\0\0\0\1", 4) == 0);   /* t_cost, big-endian */
    CHECK(memcmp(hdr + 14, "\0\0\0\x40", 4) == 0); /* m_cost 64 KiB */
    CHECK(!all_zero(hdr + 18, 16));                /* the salt */
    CHECK(all_eq(hdr + PW_HEADER_LEN, 0xee, PW_HEADER_MAX - PW_HEADER_LEN));
    /* The key is Argon2id(passphrase, salt, t, m), nothing else. */
    CHECK_EQ(crypto_pwhash(want, key_len, PASS, strlen(PASS), hdr + 18, T_COST,
                           M_COST * 1024, crypto_pwhash_ALG_ARGON2ID13),
             0);
    CHECK(memcmp(key, want, key_len) == 0);
    /* A fresh salt each time. */
    CHECK_EQ(
        pw_seal_setup(&src, &p, key_len, want, hdr2, &hlen2, err, sizeof(err)),
        0);
    CHECK(memcmp(hdr + 18, hdr2 + 18, 16) != 0);
    CHECK(memcmp(key, want, key_len) != 0);
}

/* A version-1 header for AEAD aead and costs t, m with a fixed salt. */
static void header(uint8_t *h, unsigned aead, uint32_t t, uint32_t m)
{
    memcpy(h, "AESIR-PW", 8);
    h[8] = 1;
    h[9] = (uint8_t)aead;
    put32(h + 10, t);
    put32(h + 14, m);
    for (int i = 0; i < 16; i++)
        h[18 + i] = (uint8_t)(0xa0 + i);
}

static void test_open(void)
{
    uint8_t buf[PW_HEADER_MAX], key[32], want[32];
    size_t klen = 0, hlen = 0;
    char err[256], rest[64];
    int wr, rd;

    /* A descriptor: the first line only, the rest left unread. */
    header(buf, 2, T_COST, M_COST);
    memset(buf + PW_HEADER_LEN, 0x55, sizeof(buf) - PW_HEADER_LEN);
    rd = pipe_with(PASS "\nnext line\n", &wr);
    {
        struct pw_source src = {NULL, rd};
        CHECK_EQ(pw_open_setup(&src, buf, sizeof(buf), M_COST, key, &klen,
                               &hlen, err, sizeof(err)),
                 0);
    }
    CHECK_EQ(klen, 32u);
    CHECK_EQ(hlen, (size_t)PW_HEADER_LEN);
    CHECK_EQ(crypto_pwhash(want, 32, PASS, strlen(PASS), buf + 18, T_COST,
                           M_COST * 1024, crypto_pwhash_ALG_ARGON2ID13),
             0);
    CHECK(memcmp(key, want, 32) == 0);
    CHECK(left(rd, rest, sizeof(rest)) == 10 &&
          strcmp(rest, "next line\n") == 0);
    close(rd), close(wr);

    /* Files: "\r\n", no newline, and a second line all give the same key;
     * the AEAD byte 1 gives 16 bytes. */
    {
        static const char *const forms[] = {PASS "\r\n", PASS,
                                            PASS "\nsomething else\n"};
        for (size_t i = 0; i < 3; i++) {
            struct pw_source src = {file("form", forms[i], strlen(forms[i])),
                                    -1};
            memset(key, 0, sizeof(key));
            CHECK_EQ(pw_open_setup(&src, buf, PW_HEADER_LEN, M_COST, key, &klen,
                                   &hlen, err, sizeof(err)),
                     0);
            CHECK(klen == 32 && memcmp(key, want, 32) == 0);
        }
    }
    header(buf, 1, T_COST, M_COST);
    {
        struct pw_source src = {file("p16", PASS, strlen(PASS)), -1};
        CHECK_EQ(crypto_pwhash(want, 16, PASS, strlen(PASS), buf + 18, T_COST,
                               M_COST * 1024, crypto_pwhash_ALG_ARGON2ID13),
                 0);
        CHECK_EQ(pw_open_setup(&src, buf, PW_HEADER_LEN, M_COST, key, &klen,
                               &hlen, err, sizeof(err)),
                 0);
        CHECK(klen == 16 && memcmp(key, want, 16) == 0);
    }
}

/* bad_header -- pw_open_setup refuses buf[0..len) with TOOL_EXIT_AUTH and
 * a message holding text, without reading the passphrase. */
static void bad_header(const uint8_t *buf, size_t len, uint64_t max,
                       const char *text)
{
    uint8_t key[32];
    size_t klen = 99, hlen = 99;
    char err[256] = "", rest[64];
    int wr, rd = pipe_with(PASS "\n", &wr);
    struct pw_source src = {NULL, rd};
    int rc =
        pw_open_setup(&src, buf, len, max, key, &klen, &hlen, err, sizeof(err));

    CHECK_EQ(rc, TOOL_EXIT_AUTH);
    CHECK(strstr(err, text) != NULL);
    CHECK(klen == 99 && hlen == 99);
    CHECK(left(rd, rest, sizeof(rest)) == strlen(PASS) + 1);
    if (rc != TOOL_EXIT_AUTH || strstr(err, text) == NULL)
        fprintf(stderr, "  (len %zu: rc %d, '%s'; want '%s')\n", len, rc, err,
                text);
    close(rd), close(wr);
}

static void test_bad_headers(void)
{
    uint8_t h[PW_HEADER_MAX];

    header(h, 2, T_COST, M_COST);
    for (size_t len = 0; len < PW_HEADER_LEN; len++)
        bad_header(h, len, M_COST, "truncated");
    h[0] = 'a';
    bad_header(h, PW_HEADER_LEN, M_COST, "not a passphrase-encrypted file");
    bad_header(h, 3, M_COST, "not a passphrase-encrypted file");
    header(h, 2, T_COST, M_COST);
    h[7] ^= 1;
    bad_header(h, PW_HEADER_LEN, M_COST, "not a passphrase-encrypted file");
    for (unsigned v = 0; v < 256; v += 1 + (v > 3) * 50) {
        if (v == 1)
            continue;
        header(h, 2, T_COST, M_COST);
        h[8] = (uint8_t)v;
        bad_header(h, PW_HEADER_LEN, M_COST, "version");
        bad_header(h, 9, M_COST, "version");
    }
    for (unsigned a = 0; a < 256; a += 1 + (a > 3) * 60)
        if (a != 1 && a != 2) {
            header(h, a, T_COST, M_COST);
            bad_header(h, PW_HEADER_LEN, M_COST, "unknown AEAD");
        }
    header(h, 2, 0, M_COST);
    bad_header(h, PW_HEADER_LEN, M_COST, "out of range");
    header(h, 2, PW_T_COST_MAX + 1, M_COST);
    bad_header(h, PW_HEADER_LEN, M_COST, "out of range");
    header(h, 2, 0xffffffff, M_COST);
    bad_header(h, PW_HEADER_LEN, M_COST, "out of range");
    header(h, 2, T_COST, PW_M_COST_MIN_KIB - 1);
    bad_header(h, PW_HEADER_LEN, M_COST, "out of range");
    /* The memory limit: one KiB over it is refused, as are 4 TiB. */
    header(h, 2, T_COST, M_COST + 1);
    bad_header(h, PW_HEADER_LEN, M_COST, "--max-memory");
    header(h, 2, T_COST, 0xffffffff);
    bad_header(h, PW_HEADER_LEN, PW_MAX_M_COST_DEFAULT_KIB, "--max-memory");
}

/* seal_rc -- pw_seal_setup's status with the passphrase file holding n
 * bytes of s (s NULL: a file that does not exist). */
static int seal_rc(const char *s, size_t n, uint32_t t, uint32_t m,
                   size_t key_len, char *err, size_t cap)
{
    struct pw_source src = {s != NULL ? file("s", s, n) : "/nonexistent/pw",
                            -1};
    struct pw_params p = {t, m};
    uint8_t key[32], hdr[PW_HEADER_MAX];
    size_t hlen = 0;

    err[0] = '\0';
    return pw_seal_setup(&src, &p, key_len, key, hdr, &hlen, err, cap);
}

static void test_sources(void)
{
    char err[256], big[PW_PASS_MAX + 3];

    CHECK_EQ(seal_rc("", 0, T_COST, M_COST, 32, err, sizeof(err)),
             TOOL_EXIT_USAGE);
    CHECK(strstr(err, "empty passphrase") != NULL);
    CHECK_EQ(
        seal_rc("\nsecond line\n", 13, T_COST, M_COST, 32, err, sizeof(err)),
        TOOL_EXIT_USAGE);
    CHECK_EQ(seal_rc("\r\n", 2, T_COST, M_COST, 32, err, sizeof(err)),
             TOOL_EXIT_USAGE);
    memset(big, 'x', sizeof(big));
    big[PW_PASS_MAX] = '\n';
    CHECK_EQ(
        seal_rc(big, PW_PASS_MAX + 1, T_COST, M_COST, 32, err, sizeof(err)), 0);
    big[PW_PASS_MAX] = 'x';
    CHECK_EQ(
        seal_rc(big, PW_PASS_MAX + 1, T_COST, M_COST, 32, err, sizeof(err)),
        TOOL_EXIT_USAGE);
    CHECK(strstr(err, "longer than") != NULL);
    CHECK_EQ(seal_rc(NULL, 0, T_COST, M_COST, 32, err, sizeof(err)),
             TOOL_EXIT_IO);
    CHECK(strstr(err, "/nonexistent/pw") != NULL);
    /* Parameters. */
    CHECK_EQ(seal_rc(PASS, 4, 0, M_COST, 32, err, sizeof(err)),
             TOOL_EXIT_USAGE);
    CHECK_EQ(seal_rc(PASS, 4, PW_T_COST_MAX + 1, M_COST, 32, err, sizeof(err)),
             TOOL_EXIT_USAGE);
    CHECK_EQ(seal_rc(PASS, 4, 1, PW_M_COST_MIN_KIB - 1, 32, err, sizeof(err)),
             TOOL_EXIT_USAGE);
    CHECK_EQ(seal_rc(PASS, 4, 1, PW_M_COST_MIN_KIB, 16, err, sizeof(err)), 0);
    CHECK_EQ(seal_rc(PASS, 4, 1, M_COST, 24, err, sizeof(err)),
             TOOL_EXIT_UNAVAILABLE);
    /* The defaults are within the limits. */
    CHECK(PW_T_COST_DEFAULT >= 1 && PW_T_COST_DEFAULT <= PW_T_COST_MAX);
    CHECK(PW_M_COST_DEFAULT_KIB >= PW_M_COST_MIN_KIB &&
          PW_M_COST_DEFAULT_KIB <= PW_MAX_M_COST_DEFAULT_KIB);
}

static void hex(const char *name, const uint8_t *p, size_t n)
{
    printf(" %s=", name);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
}

static int unhex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = strlen(s) / 2;

    for (size_t i = 0; i < n && i < cap; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return n <= cap ? (int)n : -1;
}

/* One call for test_tool_pass.py. */
static int one_call(int argc, char **argv)
{
    struct pw_source src = {NULL, -1};
    struct pw_params p = {T_COST, M_COST};
    uint8_t key[32], hdr[PW_HEADER_MAX];
    size_t klen = 32, hlen = 0;
    char err[512] = "";
    int rc, n;

    if (strcmp(argv[1], "tty-seal") == 0) {
        rc = pw_seal_setup(&src, &p, 32, key, hdr, &hlen, err, sizeof(err));
    } else if (argc >= 3 && (n = unhex(argv[2], hdr, sizeof(hdr))) >= 0) {
        src.file = argc >= 4 ? argv[3] : NULL;
        rc = pw_open_setup(&src, hdr, (size_t)n, M_COST, key, &klen, &hlen, err,
                           sizeof(err));
    } else {
        fprintf(stderr, "usage: test_passphrase [tty-seal | tty-open HDRHEX "
                        "| file-open HDRHEX FILE]\n");
        return 2;
    }
    printf("rc=%d", rc);
    if (rc == 0) {
        hex("key", key, klen);
        hex("hdr", hdr, hlen);
    }
    printf("\n");
    if (rc != 0)
        fprintf(stderr, "%s\n", err);
    return rc;
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0)
        return 1;
    if (argc > 1)
        return one_call(argc, argv);
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    test_seal_layout(32);
    test_seal_layout(16);
    test_open();
    test_bad_headers();
    test_sources();
    {
        char cmd[300];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmpdir);
    }
    printf("test_passphrase: %u passed, %u failed\n", check_passed,
           check_failed);
    return check_failed != 0;
}
