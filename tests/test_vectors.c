/*
 * test_vectors.c -- the one file-driven vector runner: NIST CAVP AESAVS
 * response files and the RFC 3686 CTR vectors, as shipped in the pinned
 * cryptography-vectors wheel (tests/vectors/fetch.sh prints where).
 *
 * Usage: test_vectors <dir>        (<dir> contains ciphers/AES/...)
 *
 * Files, all required (a missing or unreadable one is a failure, never a
 * skip), relative to <dir>/ciphers/AES:
 *   {ECB,CBC,CFB1,CFB8,CFB128,OFB}{GFSbox,KeySbox,VarKey,VarTxt,MMT}
 *       {128,192,256}.rsp          in ECB/, CBC/, CFB/ and OFB/
 *   CTR/aes-{128,192,256}-ctr.txt  RFC 3686 section 6; the IV is the whole
 *                                  counter block, the counter its low 32
 *                                  bits, as RFC 3686 section 4 specifies
 *
 * Format: `#` comments, `[ENCRYPT]` / `[DECRYPT]` section headers, and
 * records of `NAME = value` lines separated by blank lines: COUNT (decimal),
 * KEY, IV (absent for ECB), PLAINTEXT, CIPHERTEXT (hex, either case; in
 * CFB1 files one '0'/'1' character per bit, packed here most significant
 * bit first). CRLF line ends are accepted. As in BoringSSL's file tests the
 * parser is strict: an unknown section or attribute, an attribute given
 * twice or not consumed by the mode (an IV in an ECB file), malformed hex
 * or bits, a key whose size is not the file's, and a .rsp file whose
 * [ENCRYPT] and [DECRYPT] sections differ in size (AESAVS files pair them;
 * a difference means truncation) all fail the file.
 *
 * Checks, for every record on every engine this CPU can run (the others
 * print UNAVAILABLE), with a key context prepared for both directions:
 *   one-shot     the record's direction through aesir_<mode>_* (ECB and
 *                CBC without padding, CTR with a 32-bit counter);
 *   in-place     the same with out == in;
 *   incremental  aesir_cipher_init/update/final with the input fed in
 *                pieces: once in 1-byte pieces, then three splits drawn
 *                from a PRNG seeded by (file, record, split), zero-length
 *                pieces included. Each piece is copied to a heap buffer of
 *                exactly its size and its output goes to a buffer of exactly
 *                aesir_cipher_update_size() bytes, so the sanitizer build
 *                catches any access past either. CFB1 records whose bit
 *                length is not a multiple of 8 cannot go through the
 *                byte-wise incremental API: their incremental check is a
 *                documented exclusion, counted and printed, not a pass.
 * Inputs and outputs of the one-shot calls are exact-size heap buffers too.
 *
 * Output: one line per file with its record count and PASS/FAIL per engine
 * (details of the first failures above it), then the closing line
 * `N passed, M failed`, where N and M count (file, engine) checks; a
 * missing or malformed file counts as failed on every available engine.
 * Exit status 1 if anything failed or no engine could run.
 *
 * Self-check (AESIR_VECTORS_SELFCHECK=1): one bit of each expected output
 * is flipped before comparing, and a (file, engine) check passes only if
 * every comparison of every record then reports a mismatch (never a match,
 * never a library error). This shows that each comparison can fail.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "check.h"

#define MAX_ENGINES 32
#define DETAILS_PER_CHECK 3 /* failure reports per (file, engine) */
#define N_SPLITS 4          /* incremental splits per record */

/* Runner-side errors, positive so they never collide with AESIR_E_*. */
#define E_OUT_LENGTH 1 /* a call reported the wrong output length */

/* Set once in main(): flip a bit of each expected value. */
static int selfcheck;

/* ---------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------- */

static void *xmalloc(size_t n)
{
    void *p = malloc(n != 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "test_vectors: out of memory\n");
        exit(1);
    }
    return p;
}

/* A heap copy of exactly n bytes, so that ASan sees any over-read. */
static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
    uint8_t *q = xmalloc(n);
    if (n != 0)
        memcpy(q, p, n);
    return q;
}

static const char *describe(int err)
{
    if (err == E_OUT_LENGTH)
        return "wrong output length reported";
    return aesir_strerror(err);
}

static const char *dir_name(unsigned dir)
{
    return dir == AESIR_ENCRYPT ? "ENCRYPT" : "DECRYPT";
}

/* xorshift32 (Marsaglia 2003): small and deterministic; state never 0. */
static uint32_t prng_next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* The murmur3 finaliser, to spread (file, record, split) over the seed. */
static uint32_t prng_seed(size_t file_no, size_t rec_no, unsigned split)
{
    uint32_t h = (uint32_t)(file_no * 1000003u + rec_no * 131u + split);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h | 1u;
}

static double seconds(clock_t t)
{
    return (double)t / CLOCKS_PER_SEC;
}

/* ---------------------------------------------------------------------
 * Vector files
 * ------------------------------------------------------------------- */

enum attr_id { AT_COUNT, AT_KEY, AT_IV, AT_PLAINTEXT, AT_CIPHERTEXT, N_ATTRS };

static const char *const attr_names[N_ATTRS] = {"COUNT", "KEY", "IV",
                                                "PLAINTEXT", "CIPHERTEXT"};

/* One record as parsed: values still text (NUL-terminated in the file
 * buffer). present and used are bit masks of attr_id. */
struct record {
    const char *val[N_ATTRS];
    unsigned line[N_ATTRS];
    unsigned present, used;
    unsigned dir;
    unsigned first_line;
};

/* One record decoded and checked, ready to run. */
struct vec {
    unsigned count, dir, line;
    const uint8_t *key, *iv; /* iv is NULL for ECB */
    size_t key_len;
    const uint8_t *pt, *ct;
    size_t len;   /* bytes of pt and ct */
    size_t nbits; /* message length in bits (8 * len but for CFB1) */
};

/* One vector file: its text, the decoded records and where their bytes
 * live (arena: every decoded byte comes from at least one character of
 * text, so text_len + 1 bytes always suffice). */
struct suite {
    char rel[64]; /* path under ciphers/AES, for messages */
    aesir_mode mode;
    unsigned key_bits;
    int is_rsp;
    char *text;
    size_t text_len;
    uint8_t *arena;
    size_t arena_used;
    struct vec *vecs;
    size_t nvec, vec_cap, nenc, ndec;
};

static int suite_error(const struct suite *s, unsigned line, const char *fmt,
                       ...)
{
    va_list ap;
    if (line != 0)
        printf("  FAIL %s:%u: ", s->rel, line);
    else
        printf("  FAIL %s: ", s->rel);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    return -1;
}

/* Reads the whole file at path, NUL-terminated. Returns 0 or an errno. */
static int read_file(const char *path, char **text, size_t *len)
{
    size_t cap = 1u << 16, n = 0, k;
    char *buf;
    FILE *f = fopen(path, "rb");
    int err = 0;

    if (f == NULL)
        return errno != 0 ? errno : ENOENT;
    buf = xmalloc(cap);
    do {
        if (cap - n < 2) {
            char *bigger = realloc(buf, 2 * cap);
            if (bigger == NULL) {
                err = ENOMEM;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
    } while (k != 0);
    if (err == 0 && ferror(f))
        err = errno != 0 ? errno : EIO;
    fclose(f);
    if (err != 0) {
        free(buf);
        return err;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

static uint8_t *arena_take(struct suite *s, size_t n)
{
    uint8_t *p = s->arena + s->arena_used;
    s->arena_used += n;
    return p;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Hex text to bytes in the arena; NULL when malformed. */
static const uint8_t *decode_hex(struct suite *s, const char *t, size_t *len)
{
    size_t n = strlen(t);
    uint8_t *out;

    if (n % 2 != 0)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (hex_digit(t[i]) < 0)
            return NULL;
    out = arena_take(s, n / 2);
    for (size_t i = 0; i < n / 2; i++)
        out[i] = (uint8_t)(hex_digit(t[2 * i]) << 4 | hex_digit(t[2 * i + 1]));
    *len = n / 2;
    return out;
}

/* CFB1 '0'/'1' text to bytes, most significant bit first, unused low bits
 * of a last partial byte zero; NULL when malformed. */
static const uint8_t *decode_bits(struct suite *s, const char *t, size_t *nbits)
{
    size_t n = strlen(t);
    uint8_t *out;

    for (size_t i = 0; i < n; i++)
        if (t[i] != '0' && t[i] != '1')
            return NULL;
    out = arena_take(s, (n + 7) / 8);
    memset(out, 0, (n + 7) / 8);
    for (size_t i = 0; i < n; i++)
        if (t[i] == '1')
            out[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    *nbits = n;
    return out;
}

/* Marks attribute a consumed and returns its text, or NULL if absent. */
static const char *take(struct record *r, enum attr_id a)
{
    if (!(r->present & 1u << a))
        return NULL;
    r->used |= 1u << a;
    return r->val[a];
}

static int parse_count(const char *t, unsigned *count)
{
    unsigned long v = 0;
    if (*t == '\0')
        return -1;
    for (; *t != '\0'; t++) {
        if (*t < '0' || *t > '9' || v > 100000000ul)
            return -1;
        v = 10 * v + (unsigned long)(*t - '0');
    }
    *count = (unsigned)v;
    return 0;
}

/* Decodes PLAINTEXT or CIPHERTEXT in the file's format. */
static const uint8_t *decode_message(struct suite *s, struct record *r,
                                     enum attr_id a, size_t *nbits)
{
    const char *t = take(r, a);
    const uint8_t *p;
    size_t len;

    if (t == NULL) {
        suite_error(s, r->first_line, "record without %s", attr_names[a]);
        return NULL;
    }
    if (s->mode == AESIR_MODE_CFB1)
        p = decode_bits(s, t, nbits);
    else if ((p = decode_hex(s, t, &len)) != NULL)
        *nbits = 8 * len;
    if (p == NULL)
        suite_error(s, r->line[a], "malformed %s \"%s\"", attr_names[a], t);
    return p;
}

static int decode_key_iv(struct suite *s, struct record *r, struct vec *v)
{
    const char *t;
    size_t len;

    if ((t = take(r, AT_KEY)) == NULL)
        return suite_error(s, r->first_line, "record without KEY");
    if ((v->key = decode_hex(s, t, &v->key_len)) == NULL)
        return suite_error(s, r->line[AT_KEY], "malformed KEY \"%s\"", t);
    if (8 * v->key_len != s->key_bits)
        return suite_error(s, r->line[AT_KEY], "%zu-bit KEY in a %u-bit file",
                           8 * v->key_len, s->key_bits);
    if (s->mode == AESIR_MODE_ECB)
        return 0; /* an IV here is left unconsumed and fails below */
    if ((t = take(r, AT_IV)) == NULL)
        return suite_error(s, r->first_line, "record without IV");
    if ((v->iv = decode_hex(s, t, &len)) == NULL || len != 16)
        return suite_error(s, r->line[AT_IV], "malformed IV \"%s\"", t);
    return 0;
}

/* Turns a parsed record into a vec, consuming every attribute it needs;
 * any attribute left unconsumed fails the file. */
static int add_record(struct suite *s, struct record *r)
{
    struct vec v;
    const char *t;
    size_t ptbits = 0, ctbits = 0;

    memset(&v, 0, sizeof(v));
    v.dir = r->dir;
    v.line = r->first_line;
    if ((t = take(r, AT_COUNT)) == NULL || parse_count(t, &v.count) != 0)
        return suite_error(s, r->first_line, "missing or malformed COUNT");
    if (decode_key_iv(s, r, &v) != 0)
        return -1;
    if ((v.pt = decode_message(s, r, AT_PLAINTEXT, &ptbits)) == NULL ||
        (v.ct = decode_message(s, r, AT_CIPHERTEXT, &ctbits)) == NULL)
        return -1;
    if (ptbits != ctbits)
        return suite_error(s, r->first_line,
                           "PLAINTEXT and CIPHERTEXT differ in length");
    v.nbits = ptbits;
    v.len = (ptbits + 7) / 8;
    if ((s->mode == AESIR_MODE_ECB || s->mode == AESIR_MODE_CBC) &&
        v.len % 16 != 0)
        return suite_error(s, r->first_line, "not a whole number of blocks");
    for (unsigned a = 0; a < N_ATTRS; a++)
        if (r->present & ~r->used & 1u << a)
            return suite_error(s, r->line[a], "attribute %s not consumed",
                               attr_names[a]);
    if (s->nvec == s->vec_cap) {
        size_t cap = s->vec_cap != 0 ? 2 * s->vec_cap : 64;
        struct vec *bigger = realloc(s->vecs, cap * sizeof(*bigger));
        if (bigger == NULL)
            return suite_error(s, 0, "out of memory");
        s->vecs = bigger;
        s->vec_cap = cap;
    }
    s->vecs[s->nvec++] = v;
    if (v.dir == AESIR_ENCRYPT)
        s->nenc++;
    else
        s->ndec++;
    return 0;
}

/* Ends the current record, if any. */
static int flush_record(struct suite *s, struct record *r)
{
    int err = 0;
    if (r->present != 0)
        err = add_record(s, r);
    memset(r, 0, sizeof(*r));
    return err;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Trims spaces, tabs and CRs (CRLF files) at both ends, in place. */
static char *trim(char *p)
{
    char *e = p + strlen(p);
    while (is_space(*p))
        p++;
    while (e > p && is_space(e[-1]))
        *--e = '\0';
    return p;
}

static int parse_section(struct suite *s, const char *line, unsigned lineno,
                         unsigned *dir)
{
    if (strcmp(line, "[ENCRYPT]") == 0)
        *dir = AESIR_ENCRYPT;
    else if (strcmp(line, "[DECRYPT]") == 0)
        *dir = AESIR_DECRYPT;
    else
        return suite_error(s, lineno, "unknown section %s", line);
    return 0;
}

static int parse_attribute(struct suite *s, char *line, unsigned lineno,
                           unsigned dir, struct record *r)
{
    char *eq = strchr(line, '=');
    const char *name, *value;
    unsigned a;

    if (eq == NULL)
        return suite_error(s, lineno, "expected NAME = value: \"%s\"", line);
    *eq = '\0';
    name = trim(line);
    value = trim(eq + 1);
    for (a = 0; a < N_ATTRS; a++)
        if (strcmp(name, attr_names[a]) == 0)
            break;
    if (a == N_ATTRS)
        return suite_error(s, lineno, "unknown attribute %s", name);
    if (r->present & 1u << a)
        return suite_error(s, lineno, "%s given twice in one record", name);
    if (dir == 0)
        return suite_error(s, lineno,
                           "record before any [ENCRYPT] or "
                           "[DECRYPT] section");
    if (r->present == 0) {
        r->first_line = lineno;
        r->dir = dir;
    }
    r->present |= 1u << a;
    r->val[a] = value;
    r->line[a] = lineno;
    return 0;
}

static int parse_line(struct suite *s, char *line, unsigned lineno,
                      unsigned *dir, struct record *r)
{
    line = trim(line);
    if (*line == '\0')
        return flush_record(s, r);
    if (*line == '#')
        return 0;
    if (*line == '[') {
        if (flush_record(s, r) != 0)
            return -1;
        return parse_section(s, line, lineno, dir);
    }
    return parse_attribute(s, line, lineno, *dir, r);
}

/* Parses s->text into s->vecs. */
static int parse_suite(struct suite *s)
{
    struct record r;
    char *p = s->text, *end = s->text + s->text_len;
    unsigned dir = 0, lineno = 0;

    if (memchr(s->text, '\0', s->text_len) != NULL)
        return suite_error(s, 0, "NUL byte in file");
    s->arena = xmalloc(s->text_len + 1);
    memset(&r, 0, sizeof(r));
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *line = p;
        if (nl != NULL) {
            *nl = '\0';
            p = nl + 1;
        } else {
            p = end; /* last line without '\n': text is NUL-terminated */
        }
        if (parse_line(s, line, ++lineno, &dir, &r) != 0)
            return -1;
    }
    if (flush_record(s, &r) != 0)
        return -1;
    if (s->nvec == 0)
        return suite_error(s, 0, "no records");
    if (s->is_rsp && s->nenc != s->ndec)
        return suite_error(s, 0, "%zu [ENCRYPT] but %zu [DECRYPT] records",
                           s->nenc, s->ndec);
    return 0;
}

static int load_suite(struct suite *s, const char *dir)
{
    char path[4096];
    int n = snprintf(path, sizeof(path), "%s/ciphers/AES/%s", dir, s->rel);
    int err;

    if (n < 0 || (size_t)n >= sizeof(path))
        return suite_error(s, 0, "path too long");
    if ((err = read_file(path, &s->text, &s->text_len)) != 0)
        return suite_error(s, 0, "cannot read %s: %s", path, strerror(err));
    return parse_suite(s);
}

static void free_suite(struct suite *s)
{
    free(s->text);
    free(s->arena);
    free(s->vecs);
}

/* ---------------------------------------------------------------------
 * Running one record on one engine
 * ------------------------------------------------------------------- */

/* One record on one engine: what goes in, what must come out, and the
 * tally of its comparisons. */
struct run {
    const struct suite *s;
    const struct vec *v;
    size_t rec_no, file_no;
    const char *engine;
    const aesir_aes *key;
    const uint8_t *in;
    uint8_t *expect; /* one bit flipped in self-check mode */
    size_t n;        /* bytes of in and expect */
    unsigned match, mismatch, error;
    unsigned *details_left;
};

static void print_hex(const char *label, const uint8_t *p, size_t n)
{
    printf("       %-9s", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    putchar('\n');
}

static void report(struct run *r, const char *what, const char *why,
                   const uint8_t *got)
{
    if (*r->details_left == 0)
        return;
    (*r->details_left)--;
    printf("  FAIL %s:%u COUNT = %u [%s] %s, %s: %s\n", r->s->rel, r->v->line,
           r->v->count, dir_name(r->v->dir), r->engine, what, why);
    if (got != NULL) {
        print_hex("input", r->in, r->n);
        print_hex("got", got, r->n);
        print_hex("expected", r->expect, r->n);
    }
    if (*r->details_left == 0)
        printf("  (at most %d failures shown per file and engine)\n",
               DETAILS_PER_CHECK);
}

/* Records the outcome of one comparison. */
static void verdict(struct run *r, const char *what, int err,
                    const uint8_t *got)
{
    if (err != AESIR_OK) {
        r->error++;
        report(r, what, describe(err), NULL);
    } else if (memcmp(got, r->expect, r->n) == 0) {
        r->match++;
        if (selfcheck)
            report(r, what, "matched the corrupted expected value", NULL);
    } else {
        r->mismatch++;
        if (!selfcheck)
            report(r, what, "wrong output", got);
    }
}

static int block_oneshot(const struct run *r, uint8_t *out, const uint8_t *in)
{
    const aesir_aes *k = r->key;
    const uint8_t *iv = r->v->iv;
    const unsigned pad = AESIR_PAD_NONE;
    size_t n = r->n, got = 0;
    int err;

    if (r->s->mode == AESIR_MODE_ECB && r->v->dir == AESIR_ENCRYPT)
        err = aesir_ecb_encrypt(k, pad, out, n, &got, in, n);
    else if (r->s->mode == AESIR_MODE_ECB)
        err = aesir_ecb_decrypt(k, pad, out, n, &got, in, n);
    else if (r->v->dir == AESIR_ENCRYPT)
        err = aesir_cbc_encrypt(k, iv, pad, out, n, &got, in, n);
    else
        err = aesir_cbc_decrypt(k, iv, pad, out, n, &got, in, n);
    if (err == AESIR_OK && got != n)
        err = E_OUT_LENGTH;
    return err;
}

/* The record's direction through the mode's one-shot function. */
static int oneshot(const struct run *r, uint8_t *out, const uint8_t *in)
{
    const aesir_aes *k = r->key;
    const uint8_t *iv = r->v->iv;
    size_t out_len;

    if (r->s->mode == AESIR_MODE_ECB || r->s->mode == AESIR_MODE_CBC)
        return block_oneshot(r, out, in);
    return mode_oneshot(k, r->s->mode, r->v->dir, 32, iv, out, r->n, &out_len,
                        in, r->n, r->v->nbits);
}

/* Length of the next piece of split `split`: split 0 is all 1-byte
 * pieces; the others draw from [0, bound], never two empty pieces in a
 * row, so that every split ends. */
static size_t next_piece(uint32_t *seed, unsigned split, size_t left,
                         size_t total, int *last_empty)
{
    static const size_t bounds[N_SPLITS] = {1, 7, 23, 0 /* total */};
    size_t bound = bounds[split] != 0 ? bounds[split] : total;
    size_t piece;

    if (split == 0)
        return left < 1 ? left : 1;
    piece = prng_next(seed) % (bound + 1);
    if (piece == 0 && *last_empty)
        piece = 1;
    *last_empty = piece == 0;
    return piece < left ? piece : left;
}

/* Feeds one piece: exact-size input copy, output buffer of exactly
 * aesir_cipher_update_size() bytes. Appends to out at *w. */
static int feed_piece(aesir_cipher *c, const uint8_t *in, size_t piece,
                      uint8_t *out, size_t *w, size_t out_total)
{
    size_t cap = aesir_cipher_update_size(c, piece), got = 0;
    uint8_t *pin = dup_exact(in, piece), *pout = xmalloc(cap);
    int err = aesir_cipher_update(c, pout, cap, &got, pin, piece);

    if (err == AESIR_OK && (got > cap || got > out_total - *w))
        err = E_OUT_LENGTH;
    if (err == AESIR_OK) {
        memcpy(out + *w, pout, got);
        *w += got;
    }
    free(pin);
    free(pout);
    return err;
}

/* The record through aesir_cipher_* in the pieces of split `split`. */
static int incremental(const struct run *r, unsigned split, uint8_t *out)
{
    const struct vec *v = r->v;
    const aesir_mode mode = r->s->mode;
    uint32_t seed = prng_seed(r->file_no, r->rec_no, split);
    size_t off = 0, w = 0, got = 0;
    int last_empty = 0;
    aesir_cipher c;
    int err = aesir_cipher_init(&c, r->key, mode, v->dir, v->iv,
                                v->iv != NULL ? 16 : 0,
                                mode == AESIR_MODE_CTR ? 32 : AESIR_PAD_NONE);

    while (err == AESIR_OK && off < r->n) {
        size_t piece = next_piece(&seed, split, r->n - off, r->n, &last_empty);
        err = feed_piece(&c, r->in + off, piece, out, &w, r->n);
        off += piece;
    }
    if (err == AESIR_OK) {
        uint8_t *fin = xmalloc(r->n - w);
        err = aesir_cipher_final(&c, fin, r->n - w, &got);
        if (err == AESIR_OK && got <= r->n - w) {
            memcpy(out + w, fin, got);
            w += got;
        }
        free(fin);
    }
    if (err == AESIR_OK && w != r->n)
        err = E_OUT_LENGTH;
    aesir_cipher_clear(&c);
    return err;
}

/* Whether the byte-wise incremental API can run this record. */
static int incremental_applies(const struct run *r)
{
    return r->s->mode != AESIR_MODE_CFB1 || r->v->nbits % 8 == 0;
}

/* All comparisons of one record on one engine. */
static void run_checks(struct run *r, unsigned *excluded)
{
    uint8_t *in = dup_exact(r->in, r->n), *out = xmalloc(r->n);
    char what[48];

    verdict(r, "one-shot", oneshot(r, out, in), out);
    verdict(r, "in-place one-shot", oneshot(r, in, in), in);
    if (!incremental_applies(r)) {
        (*excluded)++;
    } else {
        for (unsigned split = 0; split < N_SPLITS; split++) {
            memset(out, 0, r->n);
            snprintf(what, sizeof(what), "incremental split %u", split);
            verdict(r, what, incremental(r, split, out), out);
        }
    }
    free(in);
    free(out);
}

/* Runs record rec_no of s on engine; returns 1 if it behaved as this mode
 * of the run wants (all match, or in self-check mode all mismatch). */
static int run_record(const struct suite *s, size_t file_no, size_t rec_no,
                      const char *engine, unsigned *details_left,
                      unsigned *excluded)
{
    const struct vec *v = &s->vecs[rec_no];
    struct run r;
    aesir_aes key;
    int err, ok;

    memset(&r, 0, sizeof(r));
    r.s = s, r.v = v, r.rec_no = rec_no, r.file_no = file_no;
    r.engine = engine;
    r.key = &key;
    r.details_left = details_left;
    r.in = v->dir == AESIR_ENCRYPT ? v->pt : v->ct;
    r.n = v->len;
    r.expect = dup_exact(v->dir == AESIR_ENCRYPT ? v->ct : v->pt, v->len);
    if (selfcheck && v->nbits != 0) {
        size_t bit = rec_no % v->nbits; /* MSB-first, valid in CFB1 too */
        r.expect[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
    }
    err = aesir_aes_init_ex(&key, v->key, v->key_len, engine,
                            AESIR_ENCRYPT | AESIR_DECRYPT);
    if (err != AESIR_OK) {
        r.error++;
        report(&r, "aesir_aes_init_ex", describe(err), NULL);
    } else {
        run_checks(&r, excluded);
    }
    aesir_aes_clear(&key);
    free(r.expect);
    if (selfcheck)
        ok = r.match == 0 && r.error == 0 && r.mismatch > 0;
    else
        ok = r.mismatch == 0 && r.error == 0 && r.match > 0;
    return ok;
}

/* ---------------------------------------------------------------------
 * Driver
 * ------------------------------------------------------------------- */

struct engine_info {
    const char *name;
    int available;
    clock_t time;
};

struct totals {
    unsigned passed, failed; /* (file, engine) checks */
    size_t records, excluded;
};

/* Loads and runs one file on every engine and prints its line. */
static void run_suite(struct suite *s, size_t file_no, const char *dir,
                      struct engine_info *eng, size_t neng, struct totals *t)
{
    unsigned bad[MAX_ENGINES] = {0}, excluded = 0;
    int loaded = load_suite(s, dir) == 0;

    for (size_t e = 0; loaded && e < neng; e++) {
        unsigned details_left = DETAILS_PER_CHECK, ex = 0;
        clock_t t0 = clock();
        if (!eng[e].available)
            continue;
        for (size_t i = 0; i < s->nvec; i++)
            if (!run_record(s, file_no, i, eng[e].name, &details_left, &ex))
                bad[e]++;
        eng[e].time += clock() - t0;
        excluded = ex;
    }
    printf("%-26s", s->rel);
    if (loaded)
        printf(" %4zu records", s->nvec);
    else
        printf(" %-12s", "MISSING/BAD");
    for (size_t e = 0; e < neng; e++) {
        if (!eng[e].available) {
            printf("  %s UNAVAILABLE", eng[e].name);
        } else if (loaded && bad[e] == 0) {
            printf("  %s PASS", eng[e].name);
            t->passed++;
        } else {
            if (loaded)
                printf("  %s FAIL(%u/%zu)", eng[e].name, bad[e], s->nvec);
            else
                printf("  %s FAIL", eng[e].name);
            t->failed++;
        }
    }
    if (excluded != 0)
        printf("  [incremental: %u excluded, bits %% 8 != 0]", excluded);
    putchar('\n');
    if (loaded) {
        t->records += s->nvec;
        t->excluded += excluded;
    }
    free_suite(s);
}

struct mode_files {
    aesir_mode mode;
    const char *dir, *prefix;
};

static const struct mode_files rsp_modes[] = {
    {AESIR_MODE_ECB, "ECB", "ECB"},       {AESIR_MODE_CBC, "CBC", "CBC"},
    {AESIR_MODE_CFB1, "CFB", "CFB1"},     {AESIR_MODE_CFB8, "CFB", "CFB8"},
    {AESIR_MODE_CFB128, "CFB", "CFB128"}, {AESIR_MODE_OFB, "OFB", "OFB"},
};
static const char *const rsp_tests[] = {"GFSbox", "KeySbox", "VarKey", "VarTxt",
                                        "MMT"};
static const unsigned key_sizes[] = {128, 192, 256};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Every file, in a fixed order: the .rsp sets, then RFC 3686 CTR. */
static void run_all(const char *dir, struct engine_info *eng, size_t neng,
                    struct totals *t)
{
    size_t file_no = 0;
    struct suite s;

    for (size_t m = 0; m < COUNT_OF(rsp_modes); m++)
        for (size_t x = 0; x < COUNT_OF(rsp_tests); x++)
            for (size_t b = 0; b < COUNT_OF(key_sizes); b++) {
                memset(&s, 0, sizeof(s));
                snprintf(s.rel, sizeof(s.rel), "%s/%s%s%u.rsp",
                         rsp_modes[m].dir, rsp_modes[m].prefix, rsp_tests[x],
                         key_sizes[b]);
                s.mode = rsp_modes[m].mode;
                s.key_bits = key_sizes[b];
                s.is_rsp = 1;
                run_suite(&s, file_no++, dir, eng, neng, t);
            }
    for (size_t b = 0; b < COUNT_OF(key_sizes); b++) {
        memset(&s, 0, sizeof(s));
        snprintf(s.rel, sizeof(s.rel), "CTR/aes-%u-ctr.txt", key_sizes[b]);
        s.mode = AESIR_MODE_CTR;
        s.key_bits = key_sizes[b];
        run_suite(&s, file_no++, dir, eng, neng, t);
    }
}

static size_t list_engines(struct engine_info *eng, size_t *navail)
{
    size_t n = aesir_engine_count();

    *navail = 0;
    for (size_t i = 0; i < n && i < MAX_ENGINES; i++) {
        eng[i].name = aesir_engine_name(i);
        eng[i].available =
            (aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE) != 0;
        eng[i].time = 0;
        *navail += (size_t)eng[i].available;
        printf("engine %-10s %s\n", eng[i].name,
               eng[i].available ? "available" : "UNAVAILABLE");
    }
    return n;
}

int main(int argc, char **argv)
{
    struct engine_info eng[MAX_ENGINES];
    struct totals t = {0, 0, 0, 0};
    const char *sc = getenv("AESIR_VECTORS_SELFCHECK");
    size_t neng, navail;
    clock_t t0 = clock();

    if (argc != 2) {
        fprintf(stderr,
                "usage: %s <dir>  (the directory that "
                "tests/vectors/fetch.sh prints)\n",
                argv[0]);
        return 1;
    }
    selfcheck = sc != NULL && strcmp(sc, "1") == 0;
    neng = list_engines(eng, &navail);
    if (neng > MAX_ENGINES) {
        printf("FAIL: %zu engines, this runner handles %d\n", neng,
               MAX_ENGINES);
        return 1;
    }
    if (selfcheck)
        printf("self-check: expected outputs corrupted; every record must "
               "fail\n");
    run_all(argv[1], eng, neng, &t);
    printf("%zu records; incremental check excluded for %zu CFB1 records "
           "(bit length not a multiple of 8) per engine\n",
           t.records, t.excluded);
    for (size_t e = 0; e < neng; e++)
        if (eng[e].available)
            printf("engine %-10s %.2f s CPU\n", eng[e].name,
                   seconds(eng[e].time));
    printf("total %.2f s CPU\n", seconds(clock() - t0));
    if (navail == 0)
        printf("FAIL: no engine is available\n");
    printf("%u passed, %u failed\n", t.passed, t.failed);
    return t.failed == 0 && navail > 0 ? 0 : 1;
}
