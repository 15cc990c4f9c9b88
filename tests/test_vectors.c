/*
 * test_vectors.c -- the one file-driven vector runner: NIST CAVP AESAVS
 * and GCMVS response files and the RFC 3686 CTR vectors, as shipped in the
 * pinned cryptography-vectors wheel (tests/vectors/fetch.sh prints where).
 *
 * Usage: test_vectors <dir> [all|block|gcm]   (<dir> contains
 * ciphers/AES/...; block: the block-mode files, gcm: the GCM files; all,
 * the default: both)
 *
 * Files, all required (a missing or unreadable one is a failure, never a
 * skip), relative to <dir>/ciphers/AES:
 *   {ECB,CBC,CFB1,CFB8,CFB128,OFB}{GFSbox,KeySbox,VarKey,VarTxt,MMT}
 *       {128,192,256}.rsp          in ECB/, CBC/, CFB/ and OFB/
 *   CTR/aes-{128,192,256}-ctr.txt  RFC 3686 section 6; the IV is the whole
 *                                  counter block, the counter its low 32
 *                                  bits, as RFC 3686 section 4 specifies
 *   GCM/gcmEncryptExtIV{128,192,256}.rsp, GCM/gcmDecrypt{128,192,256}.rsp
 *                                  NIST GCMVS: 7875 records each, every
 *                                  IV (8, 96, 1024 bits), AAD, PT and tag
 *                                  (32..128 bits) length combination
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
 * GCM files have no [ENCRYPT]/[DECRYPT] sections (the file name gives the
 * direction) but [Keylen = n], [IVlen = n], [PTlen = n], [AADlen = n] and
 * [Taglen = n] headers (bits), against which every field of every record
 * is checked; records hold Count, Key, IV, AAD, CT, Tag and PT, or in
 * decryption files a bare FAIL line instead of PT (the tag must be
 * refused). The same strictness applies: an unknown header or attribute,
 * PT together with FAIL, a field of another length than its header says,
 * all fail the file.
 *
 * GCM checks, for every record on every engine pair (AES engine x GHASH
 * engine; the pairs this CPU cannot run are printed as UNAVAILABLE), with
 * the key set up with AESIR_GCM_SHORT_TAGS (the files have 32- and 64-bit
 * tags): encryption through aesir_gcm_seal_detached (out of place and in
 * place), aesir_gcm_seal when the tag has 16 bytes, the incremental API
 * with the AAD and the data cut at points from a PRNG seeded by (file,
 * record), and aesir_gmac when PT is empty; decryption through the open
 * side of the same calls and aesir_gmac_verify. A FAIL record must give
 * AESIR_E_AUTH from each, with the output zeroed and *out_len 0. The
 * output line of a GCM file counts its pairs that passed and names those
 * that failed.
 *
 * Block-mode checks, for every record on every engine this CPU can run
 * (the others print UNAVAILABLE), with a key context prepared for both
 * directions:
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
 * never a library error). This shows that each comparison can fail. For
 * GCM one bit of the expected ciphertext, tag or plaintext is flipped, or,
 * for a decryption without plaintext, the expected verdict inverted (a
 * FAIL record is then expected to open, a valid one to be refused).
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
#include "gcm_pairs.h"

#define MAX_ENGINES 32
#define MAX_PAIRS 512
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

enum attr_id {
    AT_COUNT,
    AT_KEY,
    AT_IV,
    AT_PLAINTEXT,
    AT_CIPHERTEXT,
    AT_AAD,
    AT_TAG,
    AT_FAIL, /* GCM decryption: a bare "FAIL" line instead of PT */
    N_ATTRS
};

/* Attribute names of the block-mode files and of the GCM files (GCMVS
 * spells them differently); the last three are GCM's only: in a block
 * file they are never consumed and fail it. */
static const char *const attr_names[N_ATTRS] = {
    "COUNT", "KEY", "IV", "PLAINTEXT", "CIPHERTEXT", "AAD", "TAG", "FAIL"};
static const char *const gcm_attr_names[N_ATTRS] = {
    "Count", "Key", "IV", "PT", "CT", "AAD", "Tag", "FAIL"};
#define ATTR_NAME(s, a) ((s)->is_gcm ? gcm_attr_names[a] : attr_names[a])

/* The [NAME = value] headers of a GCM file (GCMVS section 6), in bits;
 * every record is checked against them. */
enum gcm_param { GP_KEY, GP_IV, GP_PT, GP_AAD, GP_TAG, N_GPARAMS };
static const char *const gcm_param_names[N_GPARAMS] = {
    "Keylen", "IVlen", "PTlen", "AADlen", "Taglen"};

/* One GCM record decoded and checked. */
struct gcm_vec {
    unsigned count, dir, line;
    int fail; /* a decryption record whose tag must be refused */
    const uint8_t *key, *iv, *aad, *pt, *ct, *tag;
    size_t key_len, iv_len, aad_len, len, tag_len;
};

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
    int is_gcm;       /* a GCMVS file: gcmEncryptExtIV or gcmDecrypt */
    unsigned gcm_dir; /* its direction, from the file's name */
    unsigned long gparam[N_GPARAMS];
    unsigned gparam_set; /* bits of enum gcm_param seen */
    struct gcm_vec *gvecs;
    size_t gvec_cap, nfail;
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
        suite_error(s, r->first_line, "record without %s", ATTR_NAME(s, a));
        return NULL;
    }
    if (s->mode == AESIR_MODE_CFB1)
        p = decode_bits(s, t, nbits);
    else if ((p = decode_hex(s, t, &len)) != NULL)
        *nbits = 8 * len;
    if (p == NULL)
        suite_error(s, r->line[a], "malformed %s \"%s\"", ATTR_NAME(s, a), t);
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

/* A GCM hex attribute, required, whose bit length must be the header's
 * gcm_param p. */
static const uint8_t *gcm_field(struct suite *s, struct record *r,
                                enum attr_id a, enum gcm_param p, size_t *len)
{
    const char *t = take(r, a);
    const uint8_t *v;

    if (t == NULL) {
        suite_error(s, r->first_line, "record without %s", ATTR_NAME(s, a));
        return NULL;
    }
    if ((v = decode_hex(s, t, len)) == NULL) {
        suite_error(s, r->line[a], "malformed %s \"%s\"", ATTR_NAME(s, a), t);
        return NULL;
    }
    if (8 * *len != s->gparam[p]) {
        suite_error(s, r->line[a], "%zu-bit %s under [%s = %lu]", 8 * *len,
                    ATTR_NAME(s, a), gcm_param_names[p], s->gparam[p]);
        return NULL;
    }
    return v;
}

/* A GCM record: Count, Key, IV, AAD, CT, Tag, and PT, or (decryption
 * only) a FAIL line instead of PT; each field as long as the headers
 * say. Anything else, or PT and FAIL together, fails the file. */
static int add_gcm_record(struct suite *s, struct record *r)
{
    struct gcm_vec v;
    const char *t;
    size_t ctlen;

    memset(&v, 0, sizeof(v));
    v.dir = r->dir;
    v.line = r->first_line;
    if (s->gparam_set != (1u << N_GPARAMS) - 1)
        return suite_error(s, r->first_line, "record before the headers");
    if (s->gparam[GP_KEY] != s->key_bits)
        return suite_error(s, r->first_line, "[Keylen = %lu] in a %u-bit file",
                           s->gparam[GP_KEY], s->key_bits);
    if ((t = take(r, AT_COUNT)) == NULL || parse_count(t, &v.count) != 0)
        return suite_error(s, r->first_line, "missing or malformed Count");
    if ((v.key = gcm_field(s, r, AT_KEY, GP_KEY, &v.key_len)) == NULL ||
        (v.iv = gcm_field(s, r, AT_IV, GP_IV, &v.iv_len)) == NULL ||
        (v.aad = gcm_field(s, r, AT_AAD, GP_AAD, &v.aad_len)) == NULL ||
        (v.ct = gcm_field(s, r, AT_CIPHERTEXT, GP_PT, &ctlen)) == NULL ||
        (v.tag = gcm_field(s, r, AT_TAG, GP_TAG, &v.tag_len)) == NULL)
        return -1;
    v.len = ctlen;
    if (v.dir == AESIR_DECRYPT && take(r, AT_FAIL) != NULL) {
        if (r->present & 1u << AT_PLAINTEXT)
            return suite_error(s, r->line[AT_PLAINTEXT], "PT in a FAIL record");
        v.fail = 1;
        s->nfail++;
    } else if ((v.pt = gcm_field(s, r, AT_PLAINTEXT, GP_PT, &ctlen)) == NULL) {
        return -1;
    }
    for (unsigned a = 0; a < N_ATTRS; a++)
        if (r->present & ~r->used & 1u << a)
            return suite_error(s, r->line[a], "attribute %s not consumed",
                               ATTR_NAME(s, a));
    if (s->nvec == s->gvec_cap) {
        size_t cap = s->gvec_cap != 0 ? 2 * s->gvec_cap : 256;
        struct gcm_vec *bigger = realloc(s->gvecs, cap * sizeof(*bigger));
        if (bigger == NULL)
            return suite_error(s, 0, "out of memory");
        s->gvecs = bigger;
        s->gvec_cap = cap;
    }
    s->gvecs[s->nvec++] = v;
    return 0;
}

/* Turns a parsed record into a vec, consuming every attribute it needs;
 * any attribute left unconsumed fails the file. */
static int add_record(struct suite *s, struct record *r)
{
    struct vec v;
    const char *t;
    size_t ptbits = 0, ctbits = 0;

    if (s->is_gcm)
        return add_gcm_record(s, r);
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
                               ATTR_NAME(s, a));
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

/* A GCM header, [NAME = decimal]: one of gcm_param_names. */
static int parse_gcm_section(struct suite *s, const char *line, unsigned lineno)
{
    char name[16];
    unsigned long v;
    char end;

    if (sscanf(line, "[%15[A-Za-z] = %lu%c", name, &v, &end) != 3 ||
        end != ']' || line[strlen(line) - 1] != ']')
        return suite_error(s, lineno, "malformed section %s", line);
    for (unsigned i = 0; i < N_GPARAMS; i++)
        if (strcmp(name, gcm_param_names[i]) == 0) {
            s->gparam[i] = v;
            s->gparam_set |= 1u << i;
            return 0;
        }
    return suite_error(s, lineno, "unknown section %s", line);
}

static int parse_section(struct suite *s, const char *line, unsigned lineno,
                         unsigned *dir)
{
    if (s->is_gcm)
        return parse_gcm_section(s, line, lineno);
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

    if (eq == NULL && s->is_gcm && strcmp(line, "FAIL") == 0) {
        name = line;
        value = "";
    } else if (eq == NULL) {
        return suite_error(s, lineno, "expected NAME = value: \"%s\"", line);
    } else {
        *eq = '\0';
        name = trim(line);
        value = trim(eq + 1);
    }
    for (a = 0; a < N_ATTRS; a++)
        if (strcmp(name, ATTR_NAME(s, a)) == 0)
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
    unsigned dir = s->is_gcm ? s->gcm_dir : 0, lineno = 0;

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
    free(s->gvecs);
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

/* ---------------------------------------------------------------------
 * GCM records (GCMVS files) on every engine pair
 * ------------------------------------------------------------------- */

/* One GCM record on one pair: its tally. */
struct grun {
    const struct suite *s;
    const struct gcm_vec *v;
    const struct gcm_pair *p;
    unsigned match, mismatch;
    unsigned *details_left;
};

static void gcm_report(struct grun *r, const char *what, const char *why)
{
    if (*r->details_left == 0)
        return;
    (*r->details_left)--;
    printf("  FAIL %s:%u Count = %u%s %s x %s, %s: %s\n", r->s->rel, r->v->line,
           r->v->count, r->v->fail ? " (FAIL record)" : "", r->p->aes,
           r->p->ghash, what, why);
    if (*r->details_left == 0)
        printf("  (at most %d failures shown per file and pair)\n",
               DETAILS_PER_CHECK);
}

/*
 * One comparison: the call returned err, and wrote got (n bytes; for
 * got_tag, tag_n more). It matches when err is want_err and, on success,
 * the bytes are want (and want_tag), or on AESIR_E_AUTH got is all zero.
 */
static void gcm_verdict(struct grun *r, const char *what, int err, int want_err,
                        const uint8_t *got, const uint8_t *want, size_t n,
                        const uint8_t *got_tag, const uint8_t *want_tag,
                        size_t tag_n)
{
    int ok = err == want_err;
    if (ok && err == AESIR_OK)
        ok = (n == 0 || memcmp(got, want, n) == 0) &&
             (tag_n == 0 || memcmp(got_tag, want_tag, tag_n) == 0);
    else if (ok && err == AESIR_E_AUTH)
        ok = n == 0 || all_zero(got, n);
    if (ok) {
        r->match++;
        if (selfcheck)
            gcm_report(r, what, "matched the corrupted expectation");
    } else {
        r->mismatch++;
        if (!selfcheck)
            gcm_report(r, what,
                       err != want_err ? describe(err) : "wrong output");
    }
}

/* The record through the incremental API, AAD and data cut by the PRNG
 * at seed; returns finish's or verify's result or the first error. */
static int gcm_incremental(const aesir_gcm_key *k, const struct gcm_vec *v,
                           uint32_t seed, uint8_t *out, const uint8_t *in,
                           uint8_t *tag)
{
    aesir_gcm ctx;
    size_t off, n;
    int err;

    if ((err = aesir_gcm_start(&ctx, k, v->iv, v->iv_len)) != AESIR_OK)
        return err;
    for (off = 0; off < v->aad_len; off += n) {
        n = prng_next(&seed) % (v->aad_len - off + 1);
        if ((err = aesir_gcm_aad(&ctx, v->aad + off, n)) != AESIR_OK)
            return err;
    }
    for (off = 0; off < v->len; off += n) {
        n = prng_next(&seed) % (v->len - off + 1);
        err = v->dir == AESIR_ENCRYPT
                  ? aesir_gcm_encrypt_update(&ctx, out + off, in + off, n)
                  : aesir_gcm_decrypt_update_unverified(&ctx, out + off,
                                                        in + off, n);
        if (err != AESIR_OK)
            return err;
    }
    return v->dir == AESIR_ENCRYPT ? aesir_gcm_finish(&ctx, tag, v->tag_len)
                                   : aesir_gcm_verify(&ctx, tag, v->tag_len);
}

/*
 * The checks of one record. Encryption: seal_detached (out of place and
 * in place), seal with the appended tag when the tag has 16 bytes, the
 * incremental API, GMAC when there is no plaintext. Decryption: the same
 * calls' open side; a FAIL record must be refused with AESIR_E_AUTH and
 * the output zeroed (*out_len 0). Every input and output is an exact-size
 * heap buffer.
 */
static void gcm_checks(struct grun *r, const aesir_gcm_key *k, uint32_t seed,
                       const uint8_t *want, const uint8_t *want_tag,
                       int want_err)
{
    const struct gcm_vec *v = r->v;
    const size_t n = v->len, tl = v->tag_len;
    uint8_t *out = xmalloc(n + 16), *buf = xmalloc(n + 16), tag[16];
    size_t out_len;
    int err;

    if (v->dir == AESIR_ENCRYPT) {
        memset(tag, 0, sizeof(tag));
        err = aesir_gcm_seal_detached(k, v->iv, v->iv_len, v->aad, v->aad_len,
                                      out, tag, tl, v->pt, n);
        gcm_verdict(r, "seal_detached", err, want_err, out, want, n, tag,
                    want_tag, tl);
        memcpy(buf, v->pt, n);
        err = aesir_gcm_seal_detached(k, v->iv, v->iv_len, v->aad, v->aad_len,
                                      buf, tag, tl, buf, n);
        gcm_verdict(r, "in-place seal_detached", err, want_err, buf, want, n,
                    tag, want_tag, tl);
        if (tl == 16) {
            err = aesir_gcm_seal(k, v->iv, v->iv_len, v->aad, v->aad_len, out,
                                 n + 16, &out_len, v->pt, n);
            if (err == AESIR_OK && out_len != n + 16)
                err = E_OUT_LENGTH;
            gcm_verdict(r, "seal", err, want_err, out, want, n, out + n,
                        want_tag, 16);
        }
        err = gcm_incremental(k, v, seed, out, v->pt, tag);
        gcm_verdict(r, "incremental", err, want_err, out, want, n, tag,
                    want_tag, tl);
        if (n == 0) {
            err = aesir_gmac(k, v->iv, v->iv_len, v->aad, v->aad_len, tag, tl);
            gcm_verdict(r, "gmac", err, want_err, NULL, NULL, 0, tag, want_tag,
                        tl);
        }
    } else {
        memset(out, 0xa5, n);
        err = aesir_gcm_open_detached(k, v->iv, v->iv_len, v->aad, v->aad_len,
                                      out, v->tag, tl, v->ct, n);
        gcm_verdict(r, "open_detached", err, want_err, out, want, n, NULL, NULL,
                    0);
        memcpy(buf, v->ct, n);
        err = aesir_gcm_open_detached(k, v->iv, v->iv_len, v->aad, v->aad_len,
                                      buf, v->tag, tl, buf, n);
        gcm_verdict(r, "in-place open_detached", err, want_err, buf, want, n,
                    NULL, NULL, 0);
        if (tl == 16) {
            memcpy(buf, v->ct, n);
            memcpy(buf + n, v->tag, 16);
            memset(out, 0xa5, n);
            out_len = 12345;
            err = aesir_gcm_open(k, v->iv, v->iv_len, v->aad, v->aad_len, out,
                                 n, &out_len, buf, n + 16);
            if (out_len != (err == AESIR_OK ? n : 0))
                err = E_OUT_LENGTH;
            gcm_verdict(r, "open", err, want_err, out, want, n, NULL, NULL, 0);
        }
        memcpy(tag, v->tag, tl);
        err = gcm_incremental(k, v, seed, out, v->ct, tag);
        /* decrypt_update_unverified releases plaintext: only the verdict
         * counts on failure */
        if (err == AESIR_E_AUTH)
            memset(out, 0, n);
        gcm_verdict(r, "incremental", err, want_err, out, want, n, NULL, NULL,
                    0);
        if (n == 0) {
            err = aesir_gmac_verify(k, v->iv, v->iv_len, v->aad, v->aad_len,
                                    v->tag, tl);
            gcm_verdict(r, "gmac_verify", err, want_err, NULL, NULL, 0, NULL,
                        NULL, 0);
        }
    }
    free(out);
    free(buf);
}

/* Runs record rec_no of s on pair p; returns 1 if it behaved as this mode
 * of the run wants. In self-check mode the expectation is corrupted: one
 * bit of the expected ciphertext, tag or plaintext flipped, or, for a
 * decryption without plaintext, the expected verdict inverted (a FAIL
 * record then expected to open). */
static int run_gcm_record(const struct suite *s, size_t file_no, size_t rec_no,
                          const struct gcm_pair *p, unsigned *details_left)
{
    const struct gcm_vec *v = &s->gvecs[rec_no];
    static aesir_gcm_key key;
    struct grun r;
    uint8_t *want, *want_tag;
    int want_err = v->fail ? AESIR_E_AUTH : AESIR_OK, err;

    memset(&r, 0, sizeof(r));
    r.s = s, r.v = v, r.p = p, r.details_left = details_left;
    /* (a FAIL record has no plaintext: want is unused, its output must be
     * zeros) */
    want =
        dup_exact(v->dir == AESIR_ENCRYPT || v->fail ? v->ct : v->pt, v->len);
    want_tag = dup_exact(v->tag, v->tag_len);
    if (selfcheck) {
        if (v->dir == AESIR_ENCRYPT) {
            size_t bit = rec_no % (8 * (v->len + v->tag_len));
            uint8_t *b = bit < 8 * v->len ? want + bit / 8
                                          : want_tag + (bit / 8 - v->len);
            *b ^= (uint8_t)(0x80u >> (bit % 8));
        } else if (!v->fail && v->len != 0) {
            want[(rec_no % v->len)] ^= 1;
        } else {
            want_err = v->fail ? AESIR_OK : AESIR_E_AUTH;
        }
    }
    err = aesir_gcm_init_ex(&key, v->key, v->key_len, p->aes, p->ghash,
                            AESIR_GCM_SHORT_TAGS);
    if (err != AESIR_OK) {
        r.mismatch++;
        gcm_report(&r, "aesir_gcm_init_ex", describe(err));
    } else {
        gcm_checks(&r, &key, prng_seed(file_no, rec_no, 0), want, want_tag,
                   want_err);
    }
    aesir_gcm_clear(&key);
    free(want);
    free(want_tag);
    if (selfcheck)
        return r.match == 0 && r.mismatch > 0;
    return r.mismatch == 0 && r.match > 0;
}

/* Loads and runs one GCM file on every available pair; prints its line
 * (the failing pairs by name). */
static void run_gcm_suite(struct suite *s, size_t file_no, const char *dir,
                          const struct gcm_pair *pairs, size_t np,
                          struct totals *t)
{
    int loaded = load_suite(s, dir) == 0;
    unsigned pass = 0, fail = 0;
    char failed[512] = "";
    clock_t t0 = clock();

    for (size_t i = 0; i < np; i++) {
        unsigned details_left = DETAILS_PER_CHECK, bad = 0;
        if (!pairs[i].available)
            continue;
        for (size_t j = 0; loaded && j < s->nvec; j++)
            if (!run_gcm_record(s, file_no, j, &pairs[i], &details_left))
                bad++;
        if (loaded && bad == 0) {
            pass++;
        } else {
            size_t used = strlen(failed);
            fail++;
            snprintf(failed + used, sizeof(failed) - used, " %s x %s (%u)",
                     pairs[i].aes, pairs[i].ghash, bad);
        }
    }
    printf("%-26s", s->rel);
    if (loaded)
        printf(" %4zu records (%zu FAIL)", s->nvec, s->nfail);
    else
        printf(" %-12s", "MISSING/BAD");
    printf("  %u pairs PASS, %u FAIL%s%s  %.2f s CPU\n", pass, fail,
           fail != 0 ? ":" : "", failed,
           (double)(clock() - t0) / CLOCKS_PER_SEC);
    t->passed += pass;
    t->failed += fail;
    if (loaded)
        t->records += s->nvec;
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

/* Every file, in a fixed order: the .rsp sets, then RFC 3686 CTR (the
 * block modes), then the GCMVS files (gcm). */
static void run_all(const char *dir, struct engine_info *eng, size_t neng,
                    const struct gcm_pair *pairs, size_t np, int block, int gcm,
                    struct totals *t)
{
    size_t file_no = 0;
    struct suite s;

    for (size_t m = 0; block && m < COUNT_OF(rsp_modes); m++)
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
    for (size_t b = 0; block && b < COUNT_OF(key_sizes); b++) {
        memset(&s, 0, sizeof(s));
        snprintf(s.rel, sizeof(s.rel), "CTR/aes-%u-ctr.txt", key_sizes[b]);
        s.mode = AESIR_MODE_CTR;
        s.key_bits = key_sizes[b];
        run_suite(&s, file_no++, dir, eng, neng, t);
    }
    file_no = 1000;
    for (unsigned d = 0; gcm && d < 2; d++)
        for (size_t b = 0; b < COUNT_OF(key_sizes); b++) {
            memset(&s, 0, sizeof(s));
            snprintf(s.rel, sizeof(s.rel), "GCM/gcm%s%u.rsp",
                     d == 0 ? "EncryptExtIV" : "Decrypt", key_sizes[b]);
            s.is_gcm = 1;
            s.gcm_dir = d == 0 ? AESIR_ENCRYPT : AESIR_DECRYPT;
            s.key_bits = key_sizes[b];
            run_gcm_suite(&s, file_no++, dir, pairs, np, t);
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
    static struct gcm_pair pairs[MAX_PAIRS];
    struct engine_info eng[MAX_ENGINES];
    struct totals t = {0, 0, 0, 0};
    const char *sc = getenv("AESIR_VECTORS_SELFCHECK");
    size_t neng, navail, np = gcm_pairs_list(pairs, MAX_PAIRS);
    const char *which = argc == 3 ? argv[2] : "all";
    int block = strcmp(which, "all") == 0 || strcmp(which, "block") == 0;
    int gcm = strcmp(which, "all") == 0 || strcmp(which, "gcm") == 0;
    clock_t t0 = clock();

    if ((argc != 2 && argc != 3) || (!block && !gcm)) {
        fprintf(stderr,
                "usage: %s <dir> [all|block|gcm]  (<dir>: the directory "
                "that tests/vectors/fetch.sh prints)\n",
                argv[0]);
        return 1;
    }
    if (np > MAX_PAIRS) {
        printf("FAIL: %zu engine pairs, this runner handles %d\n", np,
               MAX_PAIRS);
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
    if (gcm && gcm_pairs_print("test_vectors", pairs, np) == 0)
        navail = 0;
    run_all(argv[1], eng, neng, pairs, np, block, gcm, &t);
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
