/*
 * test_gcm_siv_diff.c -- AES-GCM-SIV (src/aead/gcm_siv.c) against
 * libgcrypt's GCRY_CIPHER_MODE_GCM_SIV, an independent implementation of
 * RFC 8452, on every engine pair (AES engine x GHASH engine) this CPU can
 * run; the others are printed as UNAVAILABLE. Built where libgcrypt is
 * found (tests/CMakeLists.txt; required in CI).
 *
 * Usage: test_gcm_siv_diff [shard nshards] -- the pairs whose index in the
 * pair listing is shard mod nshards (ctest runs the shards in parallel);
 * without arguments, every pair.
 *
 * Cases: AESIR_DIFF_CASES per pair (default 2000; make test-debug sets
 * 1000); pairs with a slow engine (ref, ref-otf, ghash-ref) run a
 * twentieth, but at least 1250 (or AESIR_DIFF_CASES when smaller), so
 * that with the 8 GHASH and 12 AES engines of this Zen 4 every AES engine
 * gets 10,000 cases or more per run (14,100; ref and ref-otf 10,000) and
 * every GHASH engine 15,000 or more (printed per pair). Each case
 * draws a key (128 or 256 bits), a nonce, AAD of 0..1024 bytes (a quarter
 * empty), plaintext of 0..4096 bytes (one case in 64 up to 64 KiB; one in
 * 8 a multiple of 16), input and output offsets 0..15 into 64-byte aligned
 * buffers, and whether the case runs in place. Then:
 *   1. libgcrypt seals: ciphertext C and tag T;
 *   2. aesir_gcm_siv_seal_detached gives C and T, writing nothing past its
 *      output and leaving the input alone; aesir_gcm_siv_seal (appended
 *      tag, in place when the case says so) gives C || T;
 *   3. aesir_gcm_siv_open_detached and aesir_gcm_siv_open return the
 *      plaintext of C and T (in place when the case says so);
 *   4. one random bit of C, T, AAD or the nonce flipped: open_detached
 *      says AESIR_E_AUTH and leaves its output zeroed, and libgcrypt
 *      refuses the same forgery.
 * The seed is printed; AESIR_DIFF_SEED=<seed> repeats a run. The last
 * line is "<passed> passed, <failed> failed" (in cases).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gcrypt.h>

#include "aesir.h"
#include "check.h"
#include "gcm_pairs.h"

#define DEFAULT_CASES 2000
#define SLOW_DIVISOR 20
#define MIN_SLOW_CASES 1250
#define MAX_LEN 4096
#define MAX_BIG 65536
#define MAX_AAD 1024
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

struct scase {
    uint8_t key[32], nonce[12];
    size_t klen, aad_len, len, in_off, out_off;
    int in_place;
};

static _Alignas(64) uint8_t aad[MAX_AAD], pt[BUF], ct[BUF], inbuf[BUF],
    outbuf[BUF];

static unsigned reports;

static void report(const struct gcm_pair *p, uint64_t no, const struct scase *c,
                   const char *what)
{
    if (reports++ >= MAX_REPORTS)
        return;
    printf("  FAIL %s x %s case %" PRIu64 ": %s (key %zu bits, aad %zu, len "
           "%zu, offsets %zu/%zu, %s)\n",
           p->aes, p->ghash, no, what, 8 * c->klen, c->aad_len, c->len,
           c->in_off, c->out_off, c->in_place ? "in place" : "out of place");
}

static void draw(struct rng *r, struct scase *c)
{
    c->klen = below(r, 2) ? 16 : 32;
    fill(r, c->key, c->klen);
    fill(r, c->nonce, 12);
    c->aad_len = below(r, 4) == 0 ? 0 : below(r, MAX_AAD + 1);
    fill(r, aad, c->aad_len);
    c->len = below(r, 64) == 0 ? below(r, MAX_BIG + 1) : below(r, MAX_LEN + 1);
    if (below(r, 8) == 0)
        c->len &= ~(size_t)15;
    fill(r, pt, c->len);
    c->in_off = below(r, 16);
    c->out_off = below(r, 16);
    c->in_place = below(r, 3) == 0;
}

/* libgcrypt: seal (enc) or open; 0 on success. */
static int gcry_run(const struct scase *c, const uint8_t *a, size_t alen,
                    const uint8_t nonce[12], int enc, uint8_t *out,
                    const uint8_t *in, uint8_t tag[16])
{
    gcry_cipher_hd_t h;
    int algo = c->klen == 16 ? GCRY_CIPHER_AES128 : GCRY_CIPHER_AES256;
    gcry_error_t e;

    if (gcry_cipher_open(&h, algo, GCRY_CIPHER_MODE_GCM_SIV, 0) != 0)
        return -1;
    e = gcry_cipher_setkey(h, c->key, c->klen);
    if (e == 0)
        e = gcry_cipher_setiv(h, nonce, 12);
    if (e == 0 && alen != 0)
        e = gcry_cipher_authenticate(h, a, alen);
    if (enc) {
        if (e == 0)
            e = gcry_cipher_encrypt(h, out, c->len, in, c->len);
        if (e == 0)
            e = gcry_cipher_gettag(h, tag, 16);
    } else {
        if (e == 0)
            e = gcry_cipher_set_decryption_tag(h, tag, 16);
        if (e == 0)
            e = gcry_cipher_decrypt(h, out, c->len, in, c->len);
        if (e == 0)
            e = gcry_cipher_checktag(h, tag, 16);
    }
    gcry_cipher_close(h);
    return e == 0 ? 0 : -1;
}

/* One case; 0 when it passes. */
static int run_case(const struct gcm_pair *p, uint64_t no, struct rng *r)
{
    struct scase c;
    aesir_gcm_siv_key k;
    uint8_t tag[16], t2[16];
    uint8_t *in, *out;
    size_t n;
    int bad = 0;

    draw(r, &c);
    if (gcry_run(&c, aad, c.aad_len, c.nonce, 1, ct, pt, tag) != 0) {
        report(p, no, &c, "libgcrypt seal failed");
        return 1;
    }
    if (aesir_gcm_siv_init_ex(&k, c.key, c.klen, p->aes, p->ghash, 0) !=
        AESIR_OK) {
        report(p, no, &c, "init_ex failed");
        return 1;
    }
    in = inbuf + c.in_off;
    out = c.in_place ? in : outbuf + c.out_off;

    /* 2. seal_detached, then seal */
    memcpy(in, pt, c.len);
    memset(out == in ? in + c.len : out, CANARY, (out == in ? 0 : c.len) + 32);
    if (aesir_gcm_siv_seal_detached(&k, c.nonce, aad, c.aad_len, out, t2, in,
                                    c.len) != AESIR_OK ||
        memcmp(out, ct, c.len) != 0 || memcmp(t2, tag, 16) != 0) {
        report(p, no, &c, "seal_detached differs");
        bad = 1;
    }
    if (out[c.len] != CANARY || (out != in && memcmp(in, pt, c.len) != 0)) {
        report(p, no, &c, "seal_detached wrote past out or into in");
        bad = 1;
    }
    memcpy(in, pt, c.len);
    if (aesir_gcm_siv_seal(&k, c.nonce, aad, c.aad_len, out, c.len + 16, &n, in,
                           c.len) != AESIR_OK ||
        n != c.len + 16 || memcmp(out, ct, c.len) != 0 ||
        memcmp(out + c.len, tag, 16) != 0 || out[c.len + 16] != CANARY) {
        report(p, no, &c, "seal differs");
        bad = 1;
    }
    /* 3. open_detached, open */
    memcpy(in, ct, c.len);
    if (aesir_gcm_siv_open_detached(&k, c.nonce, aad, c.aad_len, out, tag, in,
                                    c.len) != AESIR_OK ||
        memcmp(out, pt, c.len) != 0) {
        report(p, no, &c, "open_detached differs");
        bad = 1;
    }
    memcpy(in, ct, c.len);
    memcpy(in + c.len, tag, 16);
    if (aesir_gcm_siv_open(&k, c.nonce, aad, c.aad_len, out, c.len, &n, in,
                           c.len + 16) != AESIR_OK ||
        n != c.len || memcmp(out, pt, c.len) != 0) {
        report(p, no, &c, "open differs");
        bad = 1;
    }
    /* 4. a forgery: one bit of C, T, AAD or nonce */
    {
        uint8_t nonce[12], *a = aad;
        size_t which = below(r, 4), bit;
        memcpy(nonce, c.nonce, 12);
        memcpy(in, ct, c.len);
        memcpy(t2, tag, 16);
        if (which == 0 && c.len == 0)
            which = 1;
        if (which == 2 && c.aad_len == 0)
            which = 3;
        switch (which) {
        case 0:
            bit = below(r, 8 * c.len);
            in[bit / 8] ^= (uint8_t)(1u << bit % 8);
            break;
        case 1:
            bit = below(r, 128);
            t2[bit / 8] ^= (uint8_t)(1u << bit % 8);
            break;
        case 2:
            bit = below(r, 8 * c.aad_len);
            a[bit / 8] ^= (uint8_t)(1u << bit % 8);
            break;
        default:
            bit = below(r, 96);
            nonce[bit / 8] ^= (uint8_t)(1u << bit % 8);
            break;
        }
        memset(outbuf, CANARY, c.len + 32);
        if (aesir_gcm_siv_open_detached(&k, nonce, a, c.aad_len, outbuf, t2, in,
                                        c.len) != AESIR_E_AUTH ||
            !all_zero(outbuf, c.len) || outbuf[c.len] != CANARY) {
            report(p, no, &c, "forgery not refused, or output not zeroed");
            bad = 1;
        }
        if (gcry_run(&c, a, c.aad_len, nonce, 0, outbuf, in, t2) == 0) {
            report(p, no, &c, "libgcrypt accepted the forgery");
            bad = 1;
        }
        if (which == 2)
            a[bit / 8] ^= (uint8_t)(1u << bit % 8);
    }
    aesir_gcm_siv_clear(&k);
    return bad;
}

int main(int argc, char **argv)
{
    static struct gcm_pair pairs[MAX_PAIRS];
    size_t npairs = gcm_pairs_list(pairs, MAX_PAIRS), shard = 0, nshards = 1;
    uint64_t cases = DEFAULT_CASES, seed, passed = 0, failed = 0;
    const char *env;

    if (!gcry_check_version(GCRYPT_VERSION)) {
        fprintf(stderr, "libgcrypt version mismatch\n");
        return 1;
    }
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    if (argc == 3) {
        shard = strtoul(argv[1], NULL, 10);
        nshards = strtoul(argv[2], NULL, 10);
        if (nshards == 0 || shard >= nshards) {
            fprintf(stderr, "usage: test_gcm_siv_diff [shard nshards]\n");
            return 2;
        }
    }
    if ((env = getenv("AESIR_DIFF_CASES")) != NULL && *env != 0)
        cases = strtoull(env, NULL, 10);
    if ((env = getenv("AESIR_DIFF_SEED")) != NULL && *env != 0)
        seed = strtoull(env, NULL, 0);
    else
        seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15u;
    if (npairs > MAX_PAIRS)
        npairs = MAX_PAIRS;
    gcm_pairs_print("test_gcm_siv_diff", pairs, npairs);
    printf("test_gcm_siv_diff: libgcrypt %s, seed 0x%016" PRIx64 ", %" PRIu64
           " cases per pair (slow pairs: a %dth, at least %d), "
           "shard %zu of %zu\n",
           gcry_check_version(NULL), seed, cases, SLOW_DIVISOR, MIN_SLOW_CASES,
           shard, nshards);
    for (size_t i = 0; i < npairs; i++) {
        uint64_t nc = cases, f0 = failed;
        if (!pairs[i].available || i % nshards != shard)
            continue;
        if (pairs[i].slow) {
            nc = cases / SLOW_DIVISOR;
            if (nc < MIN_SLOW_CASES)
                nc = cases < MIN_SLOW_CASES ? cases : MIN_SLOW_CASES;
        }
        for (uint64_t no = 0; no < nc; no++) {
            struct rng r = {seed ^ (i * 0x100000001b3u) ^ (no << 20)};
            (void)splitmix64(&r.s);
            if (run_case(&pairs[i], no, &r) == 0)
                passed++;
            else
                failed++;
        }
        printf("  %s x %s: %" PRIu64 " cases, %" PRIu64 " failed\n",
               pairs[i].aes, pairs[i].ghash, nc, failed - f0);
    }
    printf("%" PRIu64 " passed, %" PRIu64 " failed\n", passed, failed);
    return failed != 0;
}
