/*
 * passphrase.c -- keys from passphrases (see passphrase.h): the header in
 * front of the C2SP stream (c2sp.org/chunked-encryption), its checks, and
 * Argon2id (RFC 9106) through libsodium's crypto_pwhash with
 * crypto_pwhash_ALG_ARGON2ID13 (version 0x13, parallelism 1). Reading the
 * passphrase itself is pw_read.c's.
 *
 * Why these choices:
 *  - The header is checked completely (magic, version, AEAD, both costs,
 *    the memory limit) before the passphrase is asked for: a file that
 *    cannot be opened never makes the user type, and a hostile header
 *    cannot make the tool allocate more than --max-memory.
 *  - The header is the C2SP context string: the stream's key commitment
 *    covers it, so a changed cost, AEAD byte or salt fails decryption even
 *    where Argon2id would not notice (the AEAD byte is not an Argon2 input).
 *  - Argon2id's output is the AES key itself, 16 or 32 bytes: the C2SP
 *    format derives each file's subkeys from it with its own random salt.
 *  - Passphrase and key buffers are wiped with sodium_memzero, which the
 *    compiler may not drop; the key on failure too.
 */
#include "passphrase.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "pw_read.h"
#include "tool.h"

#ifdef AESIR_HAVE_SODIUM
#include <sodium.h>

static const uint8_t pw_magic[8] = {'A', 'E', 'S', 'I', 'R', '-', 'P', 'W'};

enum { PW_VERSION = 1, PW_AEAD_AES128GCM = 1, PW_AEAD_AES256GCM = 2 };
#define PW_SALT_LEN 16

struct pw_header {
    unsigned aead;
    uint32_t t_cost, m_cost_kib;
    uint8_t salt[PW_SALT_LEN];
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

/* serialize -- h as the version-1 header (PW_HEADER_LEN bytes) into out. */
static void serialize(const struct pw_header *h, uint8_t *out)
{
    memcpy(out, pw_magic, sizeof(pw_magic));
    out[8] = PW_VERSION;
    out[9] = (uint8_t)h->aead;
    put32(out + 10, h->t_cost);
    put32(out + 14, h->m_cost_kib);
    memcpy(out + 18, h->salt, PW_SALT_LEN);
}

/* costs_ok -- the costs are within the limits of passphrase.h (both
 * directions use them, so whatever is written can be read back). */
static int costs_ok(uint32_t t_cost, uint32_t m_cost_kib)
{
    return t_cost >= 1 && t_cost <= PW_T_COST_MAX &&
           m_cost_kib >= PW_M_COST_MIN_KIB;
}

static int bad(char *err, size_t cap, const char *fmt, ...) ARGS_PRINTF(3, 4);

/* bad -- the message into err; returns -1. */
static int bad(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* parse -- buf[0..len) as a header into h; 0, or -1 with the message.
 * The checks run in the order of the fields, so a file that is not ours
 * is named as such, and a newer version before its fields are read. */
static int parse(const uint8_t *buf, size_t len, uint64_t max_m_cost_kib,
                 struct pw_header *h, char *err, size_t cap)
{
    size_t m = len < sizeof(pw_magic) ? len : sizeof(pw_magic);

    if (memcmp(buf, pw_magic, m) != 0)
        return bad(err, cap, "not a passphrase-encrypted file (no %s header)",
                   "AESIR-PW");
    if (len > 8 && buf[8] != PW_VERSION)
        return bad(err, cap,
                   "passphrase header version %u is not supported (want %d)",
                   buf[8], PW_VERSION);
    if (len < PW_HEADER_LEN)
        return bad(err, cap, "truncated passphrase header (%zu of %d bytes)",
                   len, PW_HEADER_LEN);
    h->aead = buf[9];
    h->t_cost = get32(buf + 10);
    h->m_cost_kib = get32(buf + 14);
    memcpy(h->salt, buf + 18, PW_SALT_LEN);
    if (h->aead != PW_AEAD_AES128GCM && h->aead != PW_AEAD_AES256GCM)
        return bad(err, cap, "unknown AEAD %u in the passphrase header",
                   h->aead);
    if (!costs_ok(h->t_cost, h->m_cost_kib))
        return bad(err, cap,
                   "Argon2id costs out of range in the passphrase header "
                   "(time %u, memory %u KiB)",
                   (unsigned)h->t_cost, (unsigned)h->m_cost_kib);
    if (h->m_cost_kib > max_m_cost_kib)
        return bad(err, cap,
                   "the passphrase header asks for %u MiB of memory for "
                   "Argon2id, more than the limit of %llu MiB (--max-memory)",
                   (unsigned)((h->m_cost_kib + 1023) / 1024),
                   (unsigned long long)(max_m_cost_kib / 1024));
    return 0;
}

/* derive -- Argon2id(pass, salt, t, m) -> key_len bytes of key. */
static int derive(const struct pw_header *h, const char *pass, size_t n,
                  uint8_t *key, size_t key_len, char *err, size_t cap)
{
#if SIZE_MAX / 1024 < UINT32_MAX /* 32-bit: the bytes may not fit */
    if (h->m_cost_kib > SIZE_MAX / 1024) {
        snprintf(err, cap, "Argon2id memory cost too large for this system");
        return TOOL_EXIT_IO;
    }
#endif
    if (crypto_pwhash(key, key_len, pass, n, h->salt, h->t_cost,
                      (size_t)h->m_cost_kib * 1024,
                      crypto_pwhash_ALG_ARGON2ID13) != 0) {
        sodium_memzero(key, key_len);
        snprintf(err, cap, "Argon2id failed (out of memory? it needs %u MiB)",
                 (unsigned)((h->m_cost_kib + 1023) / 1024));
        return TOOL_EXIT_IO;
    }
    return 0;
}

static int sodium_ready(char *err, size_t cap)
{
    if (sodium_init() < 0) {
        snprintf(err, cap, "libsodium failed to initialise");
        return TOOL_EXIT_UNAVAILABLE;
    }
    return 0;
}

int pw_seal_setup(const struct pw_source *src, const struct pw_params *p,
                  size_t key_len, uint8_t *key, uint8_t *hdr, size_t *hdr_len,
                  char *err, size_t errcap)
{
    struct pw_header h;
    char pass[PW_PASS_MAX + 1];
    size_t n = 0;
    int rc;

    if (key_len != 16 && key_len != 32) {
        snprintf(err, errcap, "internal error: key length %zu", key_len);
        return TOOL_EXIT_UNAVAILABLE;
    }
    if (!costs_ok(p->t_cost, p->m_cost_kib)) {
        snprintf(err, errcap,
                 "Argon2id costs out of range: time %u (want 1..%d), "
                 "memory %u KiB (want at least %d)",
                 (unsigned)p->t_cost, PW_T_COST_MAX, (unsigned)p->m_cost_kib,
                 PW_M_COST_MIN_KIB);
        return TOOL_EXIT_USAGE;
    }
    if ((rc = sodium_ready(err, errcap)) != 0)
        return rc;
    h.aead = key_len == 16 ? PW_AEAD_AES128GCM : PW_AEAD_AES256GCM;
    h.t_cost = p->t_cost;
    h.m_cost_kib = p->m_cost_kib;
    randombytes_buf(h.salt, sizeof(h.salt));
    rc = pw_read(src, 1, pass, sizeof(pass), &n, err, errcap);
    if (rc == 0)
        rc = derive(&h, pass, n, key, key_len, err, errcap);
    sodium_memzero(pass, sizeof(pass));
    if (rc != 0)
        return rc;
    serialize(&h, hdr);
    *hdr_len = PW_HEADER_LEN;
    return 0;
}

int pw_open_setup(const struct pw_source *src, const uint8_t *buf, size_t len,
                  uint64_t max_m_cost_kib, uint8_t *key, size_t *key_len,
                  size_t *hdr_len, char *err, size_t errcap)
{
    struct pw_header h;
    char pass[PW_PASS_MAX + 1];
    size_t n = 0, klen;
    int rc;

    if (parse(buf, len, max_m_cost_kib, &h, err, errcap) != 0)
        return TOOL_EXIT_AUTH;
    if ((rc = sodium_ready(err, errcap)) != 0)
        return rc;
    klen = h.aead == PW_AEAD_AES128GCM ? 16 : 32;
    rc = pw_read(src, 0, pass, sizeof(pass), &n, err, errcap);
    if (rc == 0)
        rc = derive(&h, pass, n, key, klen, err, errcap);
    sodium_memzero(pass, sizeof(pass));
    if (rc != 0)
        return rc;
    *key_len = klen;
    *hdr_len = PW_HEADER_LEN;
    return 0;
}

#else /* !AESIR_HAVE_SODIUM */

static int unavailable(char *err, size_t cap)
{
    snprintf(err, cap,
             "passphrases are unavailable: built without "
             "libsodium (Argon2id)");
    return TOOL_EXIT_UNAVAILABLE;
}

int pw_seal_setup(const struct pw_source *src, const struct pw_params *p,
                  size_t key_len, uint8_t *key, uint8_t *hdr, size_t *hdr_len,
                  char *err, size_t errcap)
{
    (void)src, (void)p, (void)key_len, (void)key, (void)hdr, (void)hdr_len;
    return unavailable(err, errcap);
}

int pw_open_setup(const struct pw_source *src, const uint8_t *buf, size_t len,
                  uint64_t max_m_cost_kib, uint8_t *key, size_t *key_len,
                  size_t *hdr_len, char *err, size_t errcap)
{
    (void)src, (void)buf, (void)len, (void)max_m_cost_kib, (void)key;
    (void)key_len, (void)hdr_len;
    return unavailable(err, errcap);
}

#endif /* AESIR_HAVE_SODIUM */
