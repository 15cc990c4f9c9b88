/*
 * test_diff.c -- differential tests of aesir against an oracle, mode by
 * mode and engine by engine. Built twice:
 *   test_diff_openssl  the oracle is OpenSSL's libcrypto (EVP), an
 *                      independent implementation (the native test);
 *   test_diff_ref      (-DAESIR_DIFF_ORACLE_REF) the oracle is aesir's own
 *                      byte-wise `ref` engine, for targets without OpenSSL:
 *                      the cross-architecture matrix (qemu-user, wasm32
 *                      under Node.js), where ref itself is first checked
 *                      by the known-answer and NIST vector tests.
 * Below, "EVP" stands for whichever oracle the build uses.
 *
 * What is compared. For every mode (ECB and CBC without padding and with
 * PKCS#7, CBC with zero padding, CFB128, CFB8, CFB1, OFB, CTR) and every
 * engine this CPU can run, N random cases (AESIR_DIFF_CASES, default
 * 10000) each draw a key size, key, IV, message length, input and output
 * offsets (0..15 into 64-byte aligned buffers, so every alignment is
 * hit), in-place operation (about one case in three) and up to five
 * split points per direction. Each case then checks
 *   1. encryption: the one-shot function equals EVP's ciphertext, with
 *      the same length, writes nothing outside its output and leaves a
 *      separate input unchanged;
 *   2. decryption of EVP's ciphertext gives the original plaintext back;
 *   3. in both directions, aesir_cipher_init/update/final with the input
 *      cut at the split points (pieces may be empty) equals the one-shot
 *      output byte for byte, and no update writes more than
 *      aesir_cipher_update_size() announced. In-place cases run each piece
 *      in place (out == in) in a scratch buffer, as a caller streaming a
 *      file through one buffer would.
 * Zero padding has no EVP counterpart; it is checked by construction: the
 * zero-padded plaintext is encrypted by EVP without padding. CFB1 in EVP
 * counts lengths in bytes and works bit by bit, most significant bit
 * first, which is what aesir_cipher_update does for CFB1 and what
 * aesir_cfb1_encrypt does with nbits = 8 * len. EVP's CTR is a 128-bit
 * big-endian counter that wraps mod 2^128; aesir's (width 128) refuses
 * to wrap instead, which random IVs never reach. So CTR also gets
 *   - "CTR-carry": IVs just below a carry out of the low 1..15 bytes, to
 *     test carry propagation (and the ttable engine's per-256-block
 *     cache) against EVP, plus a 32- or 64-bit counter per case, which
 *     must match EVP when it does not wrap and fail with
 *     AESIR_E_COUNTER_OVERFLOW, writing nothing, when it would;
 *   - "CTR-limit": counters 1 or 2 values below 2^w (w = 32, 64, 128; for
 *     w = 128 the IV of all ff bytes), where exactly that many blocks
 *     succeed and equal EVP and one more byte is AESIR_E_COUNTER_OVERFLOW.
 *
 * Why: OpenSSL is an independent, heavily used implementation; agreement
 * on random keys, lengths, alignments and splits catches what fixed
 * vectors miss (buffering across calls, tails, unaligned loads, aliasing,
 * counter carries).
 *
 * Reproducing. Each case is derived from (seed, mode, case number) alone.
 * The seed is printed; AESIR_DIFF_SEED=<seed> repeats a run. A failure
 * prints every parameter of its case. The last line is always
 * "<passed> passed, <failed> failed" (in cases); the exit status is 1 if
 * any case failed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef AESIR_DIFF_ORACLE_REF
#include <openssl/crypto.h>
#include <openssl/evp.h>
#define ORACLE_NAME "OpenSSL"
#define PROG "test_diff_openssl"
#else
#define ORACLE_NAME "ref"
#define PROG "test_diff_ref"
#endif

#include "aesir.h"
#include "check.h"

#define DEFAULT_CASES 10000
#define MAX_LEN 4096
#define MAX_SPLITS 5
#define GUARD 16                 /* canary bytes checked after output */
#define BUF_SIZE (MAX_LEN + 128) /* length + padding + offset + guard */
#define CANARY 0xa5
#define MAX_REPORTS 50    /* failures printed in full */
#define E_OVERRUN (-1000) /* test code: update wrote too much */

/* ---------------------------------------------------------------------
 * PRNG: splitmix64 (Steele, Lea, Flood 2014). One state per case, derived
 * from the run seed, the mode and the case number, so that any case can
 * be regenerated on its own.
 * ------------------------------------------------------------------- */

struct rng {
    uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
    return splitmix64(&r->s);
}

/* Uniform enough in 0 .. n-1 for n far below 2^64. */
static size_t rnd_below(struct rng *r, size_t n)
{
    return (size_t)(rnd(r) % n);
}

static void rnd_fill(struct rng *r, uint8_t *p, size_t n)
{
    uint64_t x;
    for (; n >= 8; p += 8, n -= 8) {
        x = rnd(r);
        memcpy(p, &x, 8);
    }
    if (n > 0) {
        x = rnd(r);
        memcpy(p, &x, n);
    }
}

static struct rng case_rng(uint64_t seed, size_t variant, uint64_t no)
{
    uint64_t t = (no << 8) ^ variant;
    struct rng r = {seed ^ splitmix64(&t)};
    return r;
}

/* ---------------------------------------------------------------------
 * Modes under test
 * ------------------------------------------------------------------- */

struct variant {
    const char *name;
    aesir_mode mode;
    unsigned padding;     /* ECB, CBC: AESIR_PAD_*; else 0 */
    const char *evp_mode; /* OpenSSL cipher "AES-<bits>-<evp_mode>" */
    int whole_blocks;     /* message length a multiple of 16 */
    int near_wrap;        /* CTR: IVs just below a carry */
};

static const struct variant variants[] = {
    {"ECB", AESIR_MODE_ECB, AESIR_PAD_NONE, "ECB", 1, 0},
    {"ECB-PKCS7", AESIR_MODE_ECB, AESIR_PAD_PKCS7, "ECB", 0, 0},
    {"CBC", AESIR_MODE_CBC, AESIR_PAD_NONE, "CBC", 1, 0},
    {"CBC-PKCS7", AESIR_MODE_CBC, AESIR_PAD_PKCS7, "CBC", 0, 0},
    {"CBC-zero", AESIR_MODE_CBC, AESIR_PAD_ZERO, "CBC", 0, 0},
    {"CFB128", AESIR_MODE_CFB128, 0, "CFB", 0, 0},
    {"CFB8", AESIR_MODE_CFB8, 0, "CFB8", 0, 0},
    {"CFB1", AESIR_MODE_CFB1, 0, "CFB1", 0, 0},
    {"OFB", AESIR_MODE_OFB, 0, "OFB", 0, 0},
    {"CTR", AESIR_MODE_CTR, 0, "CTR", 0, 0},
    {"CTR-carry", AESIR_MODE_CTR, 0, "CTR", 0, 1},
};

#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static size_t variant_index(const char *name)
{
    size_t i = 0;
    while (i < NVARIANTS - 1 && strcmp(variants[i].name, name) != 0)
        i++;
    return i;
}

static int is_block_mode(aesir_mode m)
{
    return m == AESIR_MODE_ECB || m == AESIR_MODE_CBC;
}

/* Ciphertext length for a plaintext of len bytes. */
static size_t cipher_len(const struct variant *v, size_t len)
{
    if (v->padding == AESIR_PAD_PKCS7)
        return (len / 16 + 1) * 16;
    if (v->padding == AESIR_PAD_ZERO)
        return (len + 15) / 16 * 16;
    return len;
}

/* ---------------------------------------------------------------------
 * Cases per engine.
 *
 * The byte-wise engines "ref" and "ref-otf" compute AES one state byte at
 * a time, as FIPS-197 writes it (ref-otf also re-derives the key schedule
 * in every block); they are over 10 times slower per block than "ttable".
 * CFB8 and CFB1 cost one block encryption per byte and per bit of
 * message, so N cases of up to 4 KiB would take minutes on them. They run
 * N / divisor cases per mode (at least MIN_SLOW_CASES, at most N) and
 * shorter CFB8 and CFB1 messages. Every engine not listed -- "ttable" and
 * every future fast engine -- runs the full N cases at full length.
 * ------------------------------------------------------------------- */

#define MIN_SLOW_CASES 200

static const struct engine_scale {
    const char *name;
    size_t divisor;  /* cases per mode = N / divisor */
    size_t cfb8_max; /* longest CFB8 message, bytes */
    size_t cfb1_max; /* longest CFB1 message, bytes */
} slow_engines[] = {
    {"ref", 20, 1024, 256},
    {"ref-otf", 20, 1024, 256},
};

static const struct engine_scale *scale_of(const char *engine)
{
    for (size_t i = 0; i < sizeof(slow_engines) / sizeof(slow_engines[0]); i++)
        if (strcmp(slow_engines[i].name, engine) == 0)
            return &slow_engines[i];
    return NULL;
}

static size_t cases_for(const char *engine, size_t n)
{
    const struct engine_scale *s = scale_of(engine);
    size_t k;
    if (s == NULL)
        return n;
    k = n / s->divisor;
    if (k < MIN_SLOW_CASES)
        k = MIN_SLOW_CASES;
    return k < n ? k : n;
}

static size_t max_len_for(const char *engine, aesir_mode mode)
{
    const struct engine_scale *s = scale_of(engine);
    if (s != NULL && mode == AESIR_MODE_CFB8)
        return s->cfb8_max;
    if (s != NULL && mode == AESIR_MODE_CFB1)
        return s->cfb1_max;
    return MAX_LEN;
}

/* ---------------------------------------------------------------------
 * Test cases
 * ------------------------------------------------------------------- */

struct splits {
    size_t n;
    size_t at[MAX_SPLITS]; /* sorted cut positions, 0 .. length */
};

struct tcase {
    uint64_t no;
    size_t key_len, len, ioff, ooff;
    int in_place;
    unsigned ctr_option; /* incremental CTR option: 0 or 128 (both 128) */
    unsigned ctr_narrow; /* CTR-carry extra one-shot width: 32 or 64 */
    uint8_t key[32], iv[16];
    struct splits enc, dec;
};

static void gen_splits(struct rng *r, size_t total, struct splits *s)
{
    s->n = rnd_below(r, MAX_SPLITS + 1);
    for (size_t i = 0; i < s->n; i++) {
        size_t x = rnd_below(r, total + 1), j = i;
        for (; j > 0 && s->at[j - 1] > x; j--)
            s->at[j] = s->at[j - 1];
        s->at[j] = x;
    }
}

/*
 * Lengths: multiples of 16 for the unpadded block modes; otherwise any
 * length, one case in eight short (0..48) for the edge cases.
 *
 * CFB8 and CFB1 cost a block encryption per byte and per bit, five times
 * per case (EVP and four aesir passes). With uniform lengths up to 4 KiB,
 * CFB1 alone took 53 s on ttable at N = 10000 (Release), and CFB8 18 s of
 * the sanitizer run at N = 1000. Their state is a 16-byte shift register
 * and their code has no bulk path, so long messages add little: one case
 * in 16 draws from the full range, the others stay within serial_short()
 * bytes (512 and 2048 segments).
 */
static size_t serial_short(aesir_mode mode)
{
    if (mode == AESIR_MODE_CFB8)
        return 512;
    return mode == AESIR_MODE_CFB1 ? 256 : 0;
}

static size_t gen_len(struct rng *r, const struct variant *v, size_t max)
{
    size_t short_max = serial_short(v->mode);

    if (v->whole_blocks)
        return 16 * rnd_below(r, max / 16 + 1);
    if (short_max != 0 && max > short_max && rnd_below(r, 16) != 0)
        max = short_max;
    if (rnd_below(r, 8) == 0 && max > 48)
        return rnd_below(r, 49);
    return rnd_below(r, max + 1);
}

/* b -= x, as a 128-bit big-endian integer (x < 2^16). */
static void be_sub(uint8_t b[16], unsigned x)
{
    unsigned borrow = 0;
    for (int i = 15; i >= 0; i--) {
        unsigned d = (x & 0xffu) + borrow;
        borrow = b[i] < d;
        b[i] = (uint8_t)(b[i] - d);
        x >>= 8;
    }
}

/* An IV whose low k bytes are all ff minus less than 256 blocks, so that
 * a message of up to 256 blocks often carries out of them. Byte 0 is kept
 * below ff: the 128-bit counter itself never wraps, as in real use. */
static void near_wrap_iv(struct rng *r, uint8_t iv[16])
{
    static const size_t widths[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15};
    size_t k = widths[rnd_below(r, sizeof(widths) / sizeof(widths[0]))];

    memset(iv + 16 - k, 0xff, k);
    be_sub(iv, (unsigned)rnd_below(r, 256));
    if (iv[0] == 0xff)
        iv[0] = 0xfe;
}

static void gen_case(const struct variant *v, size_t vi, uint64_t seed,
                     uint64_t no, size_t max_len, struct tcase *tc, uint8_t *pt)
{
    struct rng r = case_rng(seed, vi, no);

    tc->no = no;
    tc->key_len = 16 + 8 * rnd_below(&r, 3);
    rnd_fill(&r, tc->key, tc->key_len);
    rnd_fill(&r, tc->iv, 16);
    if (v->near_wrap)
        near_wrap_iv(&r, tc->iv);
    tc->len = gen_len(&r, v, max_len);
    tc->ioff = rnd_below(&r, 16);
    tc->ooff = rnd_below(&r, 16);
    tc->in_place = rnd_below(&r, 3) == 0;
    tc->ctr_option = rnd_below(&r, 2) ? 128 : 0;
    tc->ctr_narrow = rnd_below(&r, 2) ? 64 : 32;
    gen_splits(&r, tc->len, &tc->enc);
    gen_splits(&r, cipher_len(v, tc->len), &tc->dec);
    rnd_fill(&r, pt, tc->len);
}

/* ---------------------------------------------------------------------
 * The oracle: OpenSSL's EVP, or aesir's ref engine
 * ------------------------------------------------------------------- */

#ifndef AESIR_DIFF_ORACLE_REF

static EVP_CIPHER_CTX *g_evp;
static EVP_CIPHER *g_ciphers[NVARIANTS][3]; /* [variant][key size] */

static void evp_die(const char *what)
{
    fprintf(stderr, PROG ": OpenSSL %s failed\n", what);
    exit(2);
}

static void evp_setup(void)
{
    char name[32];

    g_evp = EVP_CIPHER_CTX_new();
    if (g_evp == NULL)
        evp_die("EVP_CIPHER_CTX_new");
    for (size_t v = 0; v < NVARIANTS; v++) {
        for (size_t k = 0; k < 3; k++) {
            snprintf(name, sizeof(name), "AES-%zu-%s", 128 + 64 * k,
                     variants[v].evp_mode);
            g_ciphers[v][k] = EVP_CIPHER_fetch(NULL, name, NULL);
            if (g_ciphers[v][k] == NULL)
                evp_die(name);
        }
    }
}

static void evp_teardown(void)
{
    for (size_t v = 0; v < NVARIANTS; v++)
        for (size_t k = 0; k < 3; k++)
            EVP_CIPHER_free(g_ciphers[v][k]);
    EVP_CIPHER_CTX_free(g_evp);
}

/* EVP encryption of in with the variant's cipher; pkcs7 selects EVP's
 * padding (PKCS#7), otherwise none. */
static size_t evp_encrypt(size_t vi, int pkcs7, const uint8_t *key,
                          size_t key_len, const uint8_t *iv, uint8_t *out,
                          const uint8_t *in, size_t len)
{
    const EVP_CIPHER *c = g_ciphers[vi][(key_len - 16) / 8];
    int n1 = 0, n2 = 0;

    if (!EVP_EncryptInit_ex(g_evp, c, NULL, key, iv) ||
        !EVP_CIPHER_CTX_set_padding(g_evp, pkcs7) ||
        !EVP_EncryptUpdate(g_evp, out, &n1, in, (int)len) ||
        !EVP_EncryptFinal_ex(g_evp, out + n1, &n2))
        evp_die("encryption");
    return (size_t)n1 + (size_t)n2;
}

#else /* AESIR_DIFF_ORACLE_REF */

static void evp_setup(void)
{
}

static void evp_teardown(void)
{
}

static void ref_die(const char *what, int err)
{
    fprintf(stderr, PROG ": ref %s failed: %s\n", what, aesir_strerror(err));
    exit(2);
}

/* The variant's one-shot encryption on the ref engine; pkcs7 selects
 * PKCS#7 padding for ECB and CBC, otherwise none. */
static size_t evp_encrypt(size_t vi, int pkcs7, const uint8_t *key,
                          size_t key_len, const uint8_t *iv, uint8_t *out,
                          const uint8_t *in, size_t len)
{
    const unsigned pad = pkcs7 ? AESIR_PAD_PKCS7 : AESIR_PAD_NONE;
    aesir_aes k;
    size_t n = len;
    int err = aesir_aes_init_ex(&k, key, key_len, "ref", AESIR_ENCRYPT);

    if (err != AESIR_OK)
        ref_die("key setup", err);
    err = mode_oneshot(&k, variants[vi].mode, AESIR_ENCRYPT,
                       variants[vi].mode == AESIR_MODE_CTR ? 128 : pad, iv, out,
                       len + 16, &n, in, len, 8 * len);
    aesir_aes_clear(&k);
    if (err != AESIR_OK)
        ref_die("encryption", err);
    return n;
}

#endif

/* ---------------------------------------------------------------------
 * Failure reports
 * ------------------------------------------------------------------- */

/* What one check is about: used only to describe a failure. */
struct job {
    const struct variant *v;
    const char *engine;
    const struct tcase *tc;
    uint64_t seed;
    unsigned dir;
};

static unsigned g_reports;

static void splits_str(const struct splits *s, char *buf, size_t cap)
{
    size_t used = (size_t)snprintf(buf, cap, "{");
    for (size_t i = 0; i < s->n && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%zu", i ? "," : "",
                                 s->at[i]);
    if (used < cap)
        snprintf(buf + used, cap - used, "}");
}

static void hex_str(const uint8_t *p, size_t n, char *buf)
{
    for (size_t i = 0; i < n; i++)
        snprintf(buf + 2 * i, 3, "%02x", p[i]);
}

static int fail(const struct job *j, const char *fmt, ...)
{
    const struct tcase *tc = j->tc;
    char se[80], sd[80], iv[33];
    va_list ap;

    if (g_reports++ >= MAX_REPORTS) {
        if (g_reports == MAX_REPORTS + 1)
            printf("  (further failures are counted, not shown)\n");
        return 1;
    }
    splits_str(&tc->enc, se, sizeof(se));
    splits_str(&tc->dec, sd, sizeof(sd));
    hex_str(tc->iv, 16, iv);
    printf("FAIL mode=%s %s engine=%s key=%zu-bit len=%zu in_off=%zu "
           "out_off=%zu in_place=%d splits(enc)=%s splits(dec)=%s",
           j->v->name, j->dir == AESIR_ENCRYPT ? "encrypt" : "decrypt",
           j->engine, 8 * tc->key_len, tc->len, tc->ioff, tc->ooff,
           tc->in_place, se, sd);
    if (j->v->mode == AESIR_MODE_CTR)
        printf(" ctr_option=%u iv=%s", tc->ctr_option, iv);
    printf(" seed=0x%016" PRIx64 " case=%" PRIu64 "\n  ", j->seed, tc->no);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    return 1;
}

/* Index of the first differing byte, or -1. */
static long first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (memcmp(a, b, n) == 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return (long)i;
    return -1;
}

static int all_canary(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != CANARY)
            return 0;
    return 1;
}

static const char *err_str(int err)
{
    return err == E_OVERRUN ? "update wrote more than update_size"
                            : aesir_strerror(err);
}

/* ---------------------------------------------------------------------
 * aesir side
 * ------------------------------------------------------------------- */

static _Alignas(64) uint8_t g_pt[BUF_SIZE];      /* plaintext */
static _Alignas(64) uint8_t g_pexp[BUF_SIZE];    /* expected decryption */
static _Alignas(64) uint8_t g_ct[BUF_SIZE];      /* EVP ciphertext */
static _Alignas(64) uint8_t g_in[BUF_SIZE];      /* misaligned input */
static _Alignas(64) uint8_t g_out[BUF_SIZE];     /* one-shot output */
static _Alignas(64) uint8_t g_inc[BUF_SIZE];     /* incremental output */
static _Alignas(64) uint8_t g_scratch[BUF_SIZE]; /* in-place pieces */

/* The one-shot function of the variant; *out_len as for ECB/CBC. */
static int oneshot(const struct variant *v, const aesir_aes *k, unsigned dir,
                   const uint8_t *iv, uint8_t *out, size_t cap, size_t *out_len,
                   const uint8_t *in, size_t len)
{
    const unsigned option = v->mode == AESIR_MODE_CTR ? 128 : v->padding;
    int err = mode_oneshot(k, v->mode, dir, option, iv, out, cap, out_len, in,
                           len, 8 * len);
    if (err != AESIR_OK && v->mode != AESIR_MODE_ECB &&
        v->mode != AESIR_MODE_CBC)
        *out_len = 0;
    return err;
}

/* One direction of a case: input, expected output, split points. */
struct dir_io {
    const uint8_t *in;
    size_t in_len;
    const uint8_t *exp;
    size_t exp_len;
    const struct splits *sp;
};

/* Checks the one-shot function against the expected (EVP) output. */
static int check_oneshot(const struct job *j, const aesir_aes *k,
                         const struct dir_io *io)
{
    const struct tcase *tc = j->tc;
    size_t cap = io->in_len > io->exp_len ? io->in_len : io->exp_len;
    uint8_t *out = g_out + tc->ooff, *in = g_in + tc->ioff;
    size_t n = 0;
    long d;
    int err;

    memset(g_out, CANARY, tc->ooff + cap + GUARD);
    if (tc->in_place)
        in = out;
    memcpy(in, io->in, io->in_len);
    err = oneshot(j->v, k, j->dir, tc->iv, out, cap, &n, in, io->in_len);
    if (err != AESIR_OK)
        return fail(j, "one-shot returned %d (%s)", err, err_str(err));
    if (n != io->exp_len)
        return fail(j, "one-shot output length %zu, " ORACLE_NAME " %zu", n,
                    io->exp_len);
    if ((d = first_diff(out, io->exp, n)) >= 0)
        return fail(
            j, "one-shot output differs from " ORACLE_NAME " at byte %ld", d);
    if (!all_canary(g_out, tc->ooff) || !all_canary(out + cap, GUARD))
        return fail(j, "one-shot wrote outside its output buffer");
    if (!tc->in_place && memcmp(in, io->in, io->in_len) != 0)
        return fail(j, "one-shot modified its input");
    return 0;
}

static unsigned cipher_option(const struct variant *v, const struct tcase *tc)
{
    if (is_block_mode(v->mode))
        return v->padding;
    return v->mode == AESIR_MODE_CTR ? tc->ctr_option : 0;
}

/* One update; in place, the piece is copied to a scratch buffer (at the
 * output offset) and processed there with out == in. */
static int update_piece(aesir_cipher *c, int in_place, size_t ooff,
                        uint8_t *out, size_t *n, const uint8_t *in, size_t len)
{
    size_t cap = aesir_cipher_update_size(c, len);
    int err;

    if (!in_place) {
        err = aesir_cipher_update(c, out, cap, n, in, len);
    } else {
        uint8_t *p = g_scratch + ooff;
        memcpy(p, in, len);
        err = aesir_cipher_update(c, p, cap > len ? cap : len, n, p, len);
        if (err == AESIR_OK)
            memcpy(out, p, *n);
    }
    if (err == AESIR_OK && *n > cap)
        return E_OVERRUN;
    return err;
}

/* init + update at every split + final; the output goes to out. */
static int incremental(const struct job *j, const aesir_aes *k,
                       const struct dir_io *io, uint8_t *out, size_t *out_len)
{
    const struct tcase *tc = j->tc;
    const struct variant *v = j->v;
    const uint8_t *in = g_in + tc->ioff;
    size_t pos = 0, total = 0, n = 0;
    aesir_cipher c;
    int err;

    memcpy(g_in + tc->ioff, io->in, io->in_len);
    err = aesir_cipher_init(
        &c, k, v->mode, j->dir, v->mode == AESIR_MODE_ECB ? NULL : tc->iv,
        v->mode == AESIR_MODE_ECB ? 0 : 16, cipher_option(v, tc));
    for (size_t i = 0; err == AESIR_OK && i <= io->sp->n; i++) {
        size_t end = i < io->sp->n ? io->sp->at[i] : io->in_len;
        err = update_piece(&c, tc->in_place, tc->ooff, out + total, &n,
                           in + pos, end - pos);
        total += n;
        pos = end;
    }
    if (err == AESIR_OK && tc->in_place) {
        err = aesir_cipher_final(&c, g_scratch + tc->ooff, 32, &n);
        memcpy(out + total, g_scratch + tc->ooff, n);
    } else if (err == AESIR_OK) {
        err = aesir_cipher_final(&c, out + total, 32, &n);
    }
    aesir_cipher_clear(&c);
    *out_len = total + n;
    return err;
}

/* Checks the incremental API against the expected output, which the
 * one-shot output equals whenever check_oneshot passed. */
static int check_incremental(const struct job *j, const aesir_aes *k,
                             const struct dir_io *io)
{
    uint8_t *out = g_inc + j->tc->ooff;
    size_t n = 0;
    long d;
    int err = incremental(j, k, io, out, &n);

    if (err != AESIR_OK)
        return fail(j, "incremental returned %d (%s)", err, err_str(err));
    if (n != io->exp_len)
        return fail(j, "incremental output length %zu, expected %zu", n,
                    io->exp_len);
    if ((d = first_diff(out, io->exp, n)) >= 0)
        return fail(j,
                    "incremental output differs from " ORACLE_NAME "'s (which "
                    "the one-shot must equal) at byte %ld",
                    d);
    return 0;
}

/* CTR with a 32- or 64-bit counter: equal to EVP (128-bit) while the low
 * w bits do not wrap, else AESIR_E_COUNTER_OVERFLOW and nothing written. */
static int check_ctr_narrow(const struct job *j, const aesir_aes *k)
{
    const struct tcase *tc = j->tc;
    unsigned w = tc->ctr_narrow;
    uint64_t lo = 0, room;
    size_t nblocks = (tc->len + 15) / 16;
    uint8_t *out = g_out + tc->ooff;
    int wraps, err;
    long d;

    for (int i = 8; i < 16; i++)
        lo = lo << 8 | tc->iv[i];
    room = w == 64 ? UINT64_MAX - lo : 0xffffffffu - (lo & 0xffffffffu);
    wraps = nblocks > 0 && (uint64_t)(nblocks - 1) > room;
    memset(g_out, CANARY, tc->ooff + tc->len + GUARD);
    err = aesir_ctr_crypt(k, tc->iv, w, out, g_pt, tc->len);
    if (wraps) {
        if (err != AESIR_E_COUNTER_OVERFLOW)
            return fail(j, "%u-bit CTR should overflow, returned %d (%s)", w,
                        err, err_str(err));
        if (!all_canary(g_out, tc->ooff + tc->len + GUARD))
            return fail(j, "%u-bit CTR wrote output on overflow", w);
        return 0;
    }
    if (err != AESIR_OK)
        return fail(j, "%u-bit CTR returned %d (%s)", w, err, err_str(err));
    if ((d = first_diff(out, g_ct, tc->len)) >= 0)
        return fail(j, "%u-bit CTR differs from " ORACLE_NAME " at byte %ld", w,
                    d);
    return 0;
}

/* Runs one case in both directions; returns 1 if anything failed. */
static int run_case(const struct job *j0, size_t vi)
{
    const struct tcase *tc = j0->tc;
    const struct variant *v = j0->v;
    struct job je = *j0, jd = *j0;
    struct dir_io enc, dec;
    size_t plen = tc->len, clen;
    aesir_aes k;
    int bad = 0, err;

    /* The expected decryption: the plaintext, zero-padded for PAD_ZERO. */
    memcpy(g_pexp, g_pt, tc->len);
    if (v->padding == AESIR_PAD_ZERO) {
        plen = cipher_len(v, tc->len);
        memset(g_pexp + tc->len, 0, plen - tc->len);
    }
    clen = evp_encrypt(vi, v->padding == AESIR_PAD_PKCS7, tc->key, tc->key_len,
                       v->mode == AESIR_MODE_ECB ? NULL : tc->iv, g_ct, g_pexp,
                       plen);

    je.dir = AESIR_ENCRYPT;
    jd.dir = AESIR_DECRYPT;
    err = aesir_aes_init_ex(&k, tc->key, tc->key_len, j0->engine,
                            AESIR_ENCRYPT | AESIR_DECRYPT);
    if (err != AESIR_OK)
        return fail(&je, "aesir_aes_init_ex returned %d (%s)", err,
                    err_str(err));
    enc = (struct dir_io){g_pt, tc->len, g_ct, clen, &tc->enc};
    dec = (struct dir_io){g_ct, clen, g_pexp, plen, &tc->dec};
    bad |= check_oneshot(&je, &k, &enc);
    bad |= check_incremental(&je, &k, &enc);
    bad |= check_oneshot(&jd, &k, &dec);
    bad |= check_incremental(&jd, &k, &dec);
    if (v->near_wrap)
        bad |= check_ctr_narrow(&je, &k);
    aesir_aes_clear(&k);
    return bad;
}

/* ---------------------------------------------------------------------
 * CTR at the very end of the counter
 * ------------------------------------------------------------------- */

static uint64_t g_seed; /* for limit_fail */

static int limit_fail(const char *engine, unsigned w, unsigned m,
                      const char *what, int err)
{
    if (g_reports++ < MAX_REPORTS)
        printf("FAIL mode=CTR-limit engine=%s counter=%u-bit, %u value(s) "
               "left, seed=0x%016" PRIx64 ": %s (returned %d, %s)\n",
               engine, w, m, g_seed, what, err, err_str(err));
    return 1;
}

/*
 * A w-bit counter with exactly m values left (low w bits = 2^w - m; for
 * w = 128 and m = 1 the IV of all ff bytes): m blocks, whole or not,
 * succeed and equal EVP; m blocks and one byte more fail with
 * AESIR_E_COUNTER_OVERFLOW and write nothing, one-shot and incremental,
 * and the incremental context stays usable after the refusal.
 */
static int ctr_limit_case(const char *engine, struct rng *r, unsigned w,
                          unsigned m)
{
    uint8_t key[32], iv[16], pt[48], ct[48], out[48 + GUARD];
    size_t key_len = 16 + 8 * rnd_below(r, 3), full = 16 * m, n = 0, n2 = 0;
    size_t cut = rnd_below(r, full + 1), part = full - 1 - rnd_below(r, 15);
    aesir_cipher c;
    aesir_aes k;
    int err, bad = 0;

    rnd_fill(r, key, sizeof(key));
    rnd_fill(r, iv, sizeof(iv));
    rnd_fill(r, pt, sizeof(pt));
    memset(iv + 16 - w / 8, 0xff, w / 8);
    be_sub(iv, m - 1);
    evp_encrypt(variant_index("CTR"), 0, key, key_len, iv, ct, pt, full);
    if ((err = aesir_aes_init_ex(&k, key, key_len, engine,
                                 AESIR_ENCRYPT | AESIR_DECRYPT)) != AESIR_OK)
        return limit_fail(engine, w, m, "aesir_aes_init_ex", err);

    /* One-shot: m blocks and a part of them succeed, one byte more fails. */
    err = aesir_ctr_crypt(&k, iv, w, out, pt, full);
    if (err != AESIR_OK || memcmp(out, ct, full) != 0)
        bad |= limit_fail(engine, w, m, "one-shot of all blocks left", err);
    err = aesir_ctr_crypt(&k, iv, w, out, pt, part);
    if (err != AESIR_OK || memcmp(out, ct, part) != 0)
        bad |= limit_fail(engine, w, m, "one-shot of a partial block", err);
    for (size_t extra = 1; extra <= 16; extra += 15) {
        memset(out, CANARY, sizeof(out));
        err = aesir_ctr_crypt(&k, iv, w, out, pt, full + extra);
        if (err != AESIR_E_COUNTER_OVERFLOW || !all_canary(out, sizeof(out)))
            bad |= limit_fail(engine, w, m, "one-shot past the end", err);
    }

    /* Incremental: too much at once is refused and consumes nothing; the
     * blocks left then pass in two pieces; one byte more is refused; an
     * empty update and final still succeed. */
    if ((err = aesir_cipher_init(&c, &k, AESIR_MODE_CTR, AESIR_ENCRYPT, iv, 16,
                                 w)) != AESIR_OK)
        bad |= limit_fail(engine, w, m, "aesir_cipher_init", err);
    memset(out, CANARY, sizeof(out));
    err = aesir_cipher_update(&c, out, sizeof(out), &n, pt, full + 1);
    if (err != AESIR_E_COUNTER_OVERFLOW || n != 0 ||
        !all_canary(out, sizeof(out)))
        bad |= limit_fail(engine, w, m, "update past the end", err);
    err = aesir_cipher_update(&c, out, cut, &n, pt, cut);
    if (err == AESIR_OK)
        err = aesir_cipher_update(&c, out + n, full - cut, &n2, pt + cut,
                                  full - cut);
    if (err != AESIR_OK || n + n2 != full || memcmp(out, ct, full) != 0)
        bad |= limit_fail(engine, w, m, "updates of all blocks left", err);
    memset(out + full, CANARY, GUARD);
    err = aesir_cipher_update(&c, out + full, GUARD, &n, pt, 1);
    if (err != AESIR_E_COUNTER_OVERFLOW || n != 0 ||
        !all_canary(out + full, GUARD))
        bad |= limit_fail(engine, w, m, "update after the last block", err);
    err = aesir_cipher_update(&c, out + full, GUARD, &n, pt, 0);
    if (err == AESIR_OK)
        err = aesir_cipher_final(&c, out + full, GUARD, &n);
    if (err != AESIR_OK || n != 0)
        bad |= limit_fail(engine, w, m, "empty update and final", err);
    aesir_cipher_clear(&c);
    aesir_aes_clear(&k);
    return bad;
}

/* ---------------------------------------------------------------------
 * Driver
 * ------------------------------------------------------------------- */

struct tally {
    uint64_t passed, failed;
};

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_row(const char *mode, const char *engine, uint64_t cases,
                      uint64_t failed, size_t max_len, double secs)
{
    printf("  %-10s %-8s %6" PRIu64 " cases (len <= %4zu) %6" PRIu64
           " failed %7.2f s\n",
           mode, engine, cases, max_len, failed, secs);
    fflush(stdout);
}

static void run_variant(size_t vi, const char *engine, size_t n, uint64_t seed,
                        struct tally *t)
{
    const struct variant *v = &variants[vi];
    size_t cases = cases_for(engine, n), max_len = max_len_for(engine, v->mode);
    uint64_t failed = 0;
    double t0 = now();
    struct tcase tc;
    struct job j = {v, engine, &tc, seed, AESIR_ENCRYPT};

    for (size_t i = 0; i < cases; i++) {
        gen_case(v, vi, seed, i, max_len, &tc, g_pt);
        failed += (uint64_t)run_case(&j, vi);
    }
    t->passed += cases - failed;
    t->failed += failed;
    print_row(v->name, engine, cases, failed, max_len, now() - t0);
}

static void run_ctr_limit(const char *engine, uint64_t seed, struct tally *t)
{
    static const unsigned widths[] = {32, 64, 128};
    struct rng r = case_rng(seed, NVARIANTS, 0);

    g_seed = seed;
    uint64_t cases = 0, failed = 0;
    double t0 = now();

    for (size_t i = 0; i < 3; i++) {
        for (unsigned m = 1; m <= 2; m++) {
            cases++;
            failed += (uint64_t)ctr_limit_case(engine, &r, widths[i], m);
        }
    }
    t->passed += cases - failed;
    t->failed += failed;
    print_row("CTR-limit", engine, cases, failed, 48, now() - t0);
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long x;

    if (s == NULL || *s == '\0')
        return dflt;
    x = strtoull(s, &end, 0);
    if (*end != '\0') {
        fprintf(stderr, PROG ": bad %s=%s\n", name, s);
        exit(2);
    }
    return (uint64_t)x;
}

static uint64_t default_seed(void)
{
    struct timespec ts;
    uint64_t s;
    timespec_get(&ts, TIME_UTC);
    s = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
    return splitmix64(&s);
}

int main(void)
{
    uint64_t seed = env_u64("AESIR_DIFF_SEED", default_seed());
    size_t n = (size_t)env_u64("AESIR_DIFF_CASES", DEFAULT_CASES);
    struct tally t = {0, 0};
    double t0 = now();

#ifndef AESIR_DIFF_ORACLE_REF
    printf(PROG ": aesir %s against %s\n", aesir_version(),
           OpenSSL_version(OPENSSL_VERSION));
#else
    printf(PROG ": aesir %s, every engine against ref\n", aesir_version());
#endif
    printf("seed 0x%016" PRIx64 " (AESIR_DIFF_SEED), %zu cases per mode "
           "(AESIR_DIFF_CASES)\n",
           seed, n);
    evp_setup();
    for (size_t e = 0; e < aesir_engine_count(); e++) {
        const char *engine = aesir_engine_name(e);
        if (!(aesir_engine_flags(e) & AESIR_ENGINE_AVAILABLE)) {
            printf("  %-10s %-8s UNAVAILABLE\n", "*", engine);
            continue;
        }
        for (size_t vi = 0; vi < NVARIANTS; vi++)
            run_variant(vi, engine, n, seed, &t);
        run_ctr_limit(engine, seed, &t);
    }
    evp_teardown();
    printf("total %.2f s\n", now() - t0);
    printf("%" PRIu64 " passed, %" PRIu64 " failed\n", t.passed, t.failed);
    return t.failed != 0;
}
