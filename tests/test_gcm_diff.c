/*
 * test_gcm_diff.c -- GCM (src/aead/gcm.c) against OpenSSL's EVP
 * (EVP_aes_*_gcm), on every engine pair (AES engine x GHASH engine) this
 * CPU can run; the others are printed as UNAVAILABLE. Built only where
 * OpenSSL's libcrypto is found (tests/CMakeLists.txt).
 *
 * Usage: test_gcm_diff [shard nshards]  -- runs the pairs whose index in
 * the pair listing is shard mod nshards (ctest runs several shards in
 * parallel); without arguments, every pair.
 *
 * Cases: AESIR_DIFF_CASES per pair (default 10000; make test-debug lowers
 * it to 1000, as for test_diff); pairs with a slow engine (ref, ref-otf,
 * ghash-ref) run a twentieth of that, at least 200 (printed). Each case
 * draws a key (128/192/256 bits), an IV of 12 bytes (half the cases) or
 * 1..128 bytes, AAD of 0..1024 bytes (a quarter empty), plaintext of
 * 0..4096 bytes (one case in 64 up to 64 KiB), a tag length 12..16,
 * input and output offsets 0..15 into 64-byte aligned buffers, and
 * whether the case runs in place. Then:
 *   1. EVP encrypts: ciphertext C and 16-byte tag T;
 *   2. aesir_gcm_seal_detached (tag_len bytes) gives C and T's prefix,
 *      writing nothing past its output or tag and leaving the input alone;
 *      aesir_gcm_seal (appended 16-byte tag) gives C || T;
 *   3. aesir_gcm_start/aad/encrypt_update/finish with the AAD and the data
 *      cut at up to 6 random points each (empty pieces included) gives C
 *      and T's prefix; in place when the case says so;
 *   4. aesir_gcm_open_detached, aesir_gcm_open and the incremental
 *      decryption with its own random splits and aesir_gcm_verify return
 *      the plaintext of EVP's C and T;
 *   5. one random bit of C, T, AAD or IV flipped: aesir_gcm_open_detached
 *      says AESIR_E_AUTH and leaves its output zeroed.
 * The seed is printed; AESIR_DIFF_SEED=<seed> repeats a run (each case is
 * derived from the seed, the pair and its number alone). The last line is
 * "<passed> passed, <failed> failed" (in cases).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#include "aesir.h"
#include "check.h"
#include "gcm_evp.h"
#include "gcm_pairs.h"

#define DEFAULT_CASES 10000
#define SLOW_DIVISOR 20
#define MIN_SLOW_CASES 200
#define MAX_LEN 4096
#define MAX_BIG 65536
#define MAX_AAD 1024
#define MAX_IV 128
#define MAX_SPLITS 6
#define GUARD 16
#define CANARY 0xa5
#define BUF (MAX_BIG + 16 + 64 + GUARD)
#define MAX_PAIRS 512
#define MAX_REPORTS 30

struct rng {
    uint64_t s;
};

static size_t below(struct rng *r, size_t n)
{
    return n == 0 ? 0 : (size_t)(splitmix64(&r->s) % n);
}

static void fill(struct rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)splitmix64(&r->s);
}

/* One case's parameters. */
struct gcase {
    uint8_t key[32], iv[MAX_IV];
    size_t klen, iv_len, aad_len, len, tag_len, in_off, out_off;
    int in_place;
};

/* The buffers, 64-byte aligned, reused by every case. */
static _Alignas(64) uint8_t aad[MAX_AAD], pt[BUF], ct[BUF], inbuf[BUF],
    outbuf[BUF], work[BUF];

static unsigned reports;

static void report(const struct gcm_pair *p, uint64_t no, const struct gcase *c,
                   const char *what)
{
    if (reports++ >= MAX_REPORTS)
        return;
    printf("  FAIL %s x %s case %" PRIu64 ": %s (key %zu bits, iv %zu, aad "
           "%zu, len %zu, tag %zu, offsets %zu/%zu, %s)\n",
           p->aes, p->ghash, no, what, 8 * c->klen, c->iv_len, c->aad_len,
           c->len, c->tag_len, c->in_off, c->out_off,
           c->in_place ? "in place" : "out of place");
}

static void draw(struct rng *r, struct gcase *c)
{
    c->klen = 16 + 8 * below(r, 3);
    fill(r, c->key, c->klen);
    c->iv_len = below(r, 2) ? 12 : 1 + below(r, MAX_IV);
    fill(r, c->iv, c->iv_len);
    c->aad_len = below(r, 4) == 0 ? 0 : below(r, MAX_AAD + 1);
    fill(r, aad, c->aad_len);
    c->len = below(r, 64) == 0 ? below(r, MAX_BIG + 1) : below(r, MAX_LEN + 1);
    fill(r, pt, c->len);
    c->tag_len = 12 + below(r, 5);
    c->in_off = below(r, 16);
    c->out_off = below(r, 16);
    c->in_place = below(r, 3) == 0;
}

/* Random cut points: the next piece of what is left. */
static size_t piece(struct rng *r, size_t left, size_t *cuts)
{
    if (left == 0)
        return 0;
    if (*cuts >= MAX_SPLITS)
        return left;
    (*cuts)++;
    return below(r, left + 1);
}

/* The incremental API on one message; returns finish's or verify's result
 * or the first error. out may equal in. */
static int incremental(struct rng *r, const aesir_gcm_key *k,
                       const struct gcase *c, int enc, uint8_t *out,
                       const uint8_t *in, uint8_t *tag)
{
    aesir_gcm ctx;
    size_t off, n, cuts = below(r, MAX_SPLITS + 1);
    int err;

    if ((err = aesir_gcm_start(&ctx, k, c->iv, c->iv_len)) != AESIR_OK)
        return err;
    for (off = 0; off < c->aad_len; off += n) {
        n = piece(r, c->aad_len - off, &cuts);
        if ((err = aesir_gcm_aad(&ctx, aad + off, n)) != AESIR_OK)
            return err;
    }
    cuts = below(r, MAX_SPLITS + 1);
    for (off = 0; off < c->len; off += n) {
        n = piece(r, c->len - off, &cuts);
        err = enc ? aesir_gcm_encrypt_update(&ctx, out + off, in + off, n)
                  : aesir_gcm_decrypt_update_unverified(&ctx, out + off,
                                                        in + off, n);
        if (err != AESIR_OK)
            return err;
    }
    return enc ? aesir_gcm_finish(&ctx, tag, c->tag_len)
               : aesir_gcm_verify(&ctx, tag, c->tag_len);
}

static int guard_ok(const uint8_t *p)
{
    for (size_t i = 0; i < GUARD; i++)
        if (p[i] != CANARY)
            return 0;
    return 1;
}

/* One case; returns 1 if every check passed. */
static int run_case(const struct gcm_pair *p, aesir_gcm_key *k, uint64_t seed,
                    size_t pair_no, uint64_t no)
{
    uint64_t s = seed ^ (no << 20) ^ pair_no;
    struct rng r = {splitmix64(&s)};
    struct gcase c;
    uint8_t tag[16], t[16 + GUARD], *in, *out;
    size_t out_len, len;
    int ok = 1;

#define FAILIF(cond, what)                                                     \
    do {                                                                       \
        if (cond) {                                                            \
            report(p, no, &c, what);                                           \
            ok = 0;                                                            \
        }                                                                      \
    } while (0)

    draw(&r, &c);
    len = c.len;
    if (aesir_gcm_init_ex(k, c.key, c.klen, p->aes, p->ghash, 0) != AESIR_OK) {
        report(p, no, &c, "key set-up failed");
        return 0;
    }
    evp_gcm(1, c.key, c.klen, c.iv, c.iv_len, aad, c.aad_len, ct, pt, len, tag,
            16);

    /* 2. one-shot, detached tag, at the case's offsets */
    in = inbuf + c.in_off;
    out = c.in_place ? in : outbuf + c.out_off;
    memcpy(in, pt, len);
    memset(out + (c.in_place ? len : 0), CANARY,
           c.in_place ? GUARD : len + GUARD);
    memset(t, CANARY, sizeof(t));
    FAILIF(aesir_gcm_seal_detached(k, c.iv, c.iv_len, aad, c.aad_len, out, t,
                                   c.tag_len, in, len) != AESIR_OK,
           "seal_detached failed");
    FAILIF(memcmp(out, ct, len) != 0, "seal_detached: ciphertext differs");
    FAILIF(memcmp(t, tag, c.tag_len) != 0, "seal_detached: tag differs");
    FAILIF(!guard_ok(out + len), "seal_detached wrote past its output");
    for (size_t i = c.tag_len; i < sizeof(t); i++)
        FAILIF(t[i] != CANARY, "seal_detached wrote past the tag");
    FAILIF(!c.in_place && memcmp(in, pt, len) != 0,
           "seal_detached changed its input");

    /* appended tag */
    memcpy(in, pt, len);
    memset(out + len, CANARY, 16 + GUARD);
    if (!c.in_place)
        memset(out, CANARY, len);
    FAILIF(aesir_gcm_seal(k, c.iv, c.iv_len, aad, c.aad_len, out, len + 16,
                          &out_len, in, len) != AESIR_OK ||
               out_len != len + 16,
           "seal failed");
    FAILIF(memcmp(out, ct, len) != 0 || memcmp(out + len, tag, 16) != 0,
           "seal: ciphertext or tag differs");
    FAILIF(!guard_ok(out + len + 16), "seal wrote past its output");

    /* 3. incremental encryption */
    memcpy(in, pt, len);
    memset(t, CANARY, sizeof(t));
    FAILIF(incremental(&r, k, &c, 1, out, in, t) != AESIR_OK,
           "incremental encryption failed");
    FAILIF(memcmp(out, ct, len) != 0 || memcmp(t, tag, c.tag_len) != 0,
           "incremental encryption differs from EVP");

    /* 4. decryption of EVP's output, three ways */
    memcpy(in, ct, len);
    if (!c.in_place)
        memset(out, CANARY, len);
    memset(out + len, CANARY, GUARD);
    FAILIF(aesir_gcm_open_detached(k, c.iv, c.iv_len, aad, c.aad_len, out, tag,
                                   c.tag_len, in, len) != AESIR_OK,
           "open_detached refused EVP's tag");
    FAILIF(memcmp(out, pt, len) != 0, "open_detached: plaintext differs");
    FAILIF(!guard_ok(out + len), "open_detached wrote past its output");
    memcpy(in, ct, len);
    memcpy(in + len, tag, 16);
    FAILIF(aesir_gcm_open(k, c.iv, c.iv_len, aad, c.aad_len, out, len, &out_len,
                          in, len + 16) != AESIR_OK ||
               out_len != len,
           "open refused EVP's tag");
    FAILIF(memcmp(out, pt, len) != 0, "open: plaintext differs");
    memcpy(in, ct, len);
    FAILIF(incremental(&r, k, &c, 0, out, in, tag) != AESIR_OK,
           "incremental decryption refused EVP's tag");
    FAILIF(memcmp(out, pt, len) != 0,
           "incremental decryption: plaintext differs");

    /* 5. one bit flipped */
    {
        size_t bits = 8 * (len + c.tag_len + c.aad_len + c.iv_len);
        size_t b = below(&r, bits);
        uint8_t *where;
        memcpy(work, ct, len);
        memcpy(t, tag, 16);
        if (b < 8 * len)
            where = work + b / 8;
        else if ((b -= 8 * len) < 8 * c.tag_len)
            where = t + b / 8;
        else if ((b -= 8 * c.tag_len) < 8 * c.aad_len)
            where = aad + b / 8;
        else
            where = c.iv + (b - 8 * c.aad_len) / 8;
        *where ^= (uint8_t)(1u << (b % 8));
        memset(out, CANARY, len);
        FAILIF(aesir_gcm_open_detached(k, c.iv, c.iv_len, aad, c.aad_len, out,
                                       t, c.tag_len, work, len) != AESIR_E_AUTH,
               "a flipped bit was not noticed");
        for (size_t i = 0; i < len && ok; i++)
            FAILIF(out[i] != 0, "output not zeroed after AESIR_E_AUTH");
        *where ^= (uint8_t)(1u << (b % 8));
    }
#undef FAILIF
    return ok;
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
        fprintf(stderr, "test_gcm_diff: bad %s=%s\n", name, s);
        exit(2);
    }
    return (uint64_t)x;
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    static struct gcm_pair pairs[MAX_PAIRS];
    static aesir_gcm_key key;
    struct timespec ts;
    uint64_t seed, passed = 0, failed = 0, n;
    size_t np = gcm_pairs_list(pairs, MAX_PAIRS), shard = 0, nshards = 1;
    double t0 = now();

    if (argc == 3) {
        shard = (size_t)strtoul(argv[1], NULL, 10);
        nshards = (size_t)strtoul(argv[2], NULL, 10);
    }
    if (argc != 1 && (argc != 3 || nshards == 0 || shard >= nshards)) {
        fprintf(stderr, "usage: %s [shard nshards]\n", argv[0]);
        return 2;
    }
    if (np > MAX_PAIRS) {
        printf("FAIL: %zu engine pairs, this test handles %d\n", np, MAX_PAIRS);
        return 1;
    }
    timespec_get(&ts, TIME_UTC);
    seed = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
    seed = env_u64("AESIR_DIFF_SEED", splitmix64(&seed));
    n = env_u64("AESIR_DIFF_CASES", DEFAULT_CASES);
    printf("test_gcm_diff: aesir %s against %s, shard %zu of %zu\n",
           aesir_version(), OpenSSL_version(OPENSSL_VERSION), shard, nshards);
    printf("seed 0x%016" PRIx64 " (AESIR_DIFF_SEED), %" PRIu64
           " cases per pair (AESIR_DIFF_CASES), slow pairs 1/%d of that (at "
           "least %d)\n",
           seed, n, SLOW_DIVISOR, MIN_SLOW_CASES);
    gcm_pairs_print("test_gcm_diff", pairs, np);
    for (size_t i = 0; i < np; i++) {
        uint64_t cases = n, bad = 0;
        double t = now();
        if (i % nshards != shard || !pairs[i].available)
            continue;
        if (pairs[i].slow) {
            cases = n / SLOW_DIVISOR;
            if (cases < MIN_SLOW_CASES)
                cases = MIN_SLOW_CASES;
            if (cases > n)
                cases = n;
        }
        for (uint64_t c = 0; c < cases; c++)
            bad += (uint64_t)!run_case(&pairs[i], &key, seed, i, c);
        passed += cases - bad;
        failed += bad;
        printf("  %-12s x %-21s %6" PRIu64 " cases%s  %s (%" PRIu64
               " failed)  %.2f s\n",
               pairs[i].aes, pairs[i].ghash, cases,
               pairs[i].slow ? " (slow)" : "       ",
               bad == 0 ? "PASS" : "FAIL", bad, now() - t);
    }
    aesir_gcm_clear(&key);
    printf("total %.2f s\n", now() - t0);
    printf("%" PRIu64 " passed, %" PRIu64 " failed\n", passed, failed);
    return failed != 0;
}
