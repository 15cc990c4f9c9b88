/*
 * test_gcm_fused.c -- GCM on every pair of AES engine and GHASH engine
 * this CPU runs (so the fused kernels, with their partner, and every
 * unfused pair) against the ref + ghash-ref pair: seal (appended tag)
 * out of place on misaligned buffers and in place, open of the result,
 * and open rejecting a flipped bit, for lengths 0..4096 in odd steps and
 * some up to 64 KiB, random keys of each size, IVs of 12 and other
 * lengths, AAD of 0..47 bytes; the incremental API with odd-sized
 * updates; and counters started near the inc32 wrap (set white-box in
 * the message state, since only a non-96-bit IV reaches there and no IV
 * can be chosen to land on a given J0).
 *
 * The one-shot path with a 12-byte IV (vaes-avx512's whole-message kernel
 * and its short-message kernel) gets every data length 0..1100 and more
 * around the 32-block batches, every AAD length 0..1100 (with and without
 * data), on buffers that end or start at a page next to an inaccessible
 * one (Linux: mmap with PROT_NONE guard pages), so that a read or write
 * past the caller's bytes faults.
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS */
#endif
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "check.h"
#include "gcm_pairs.h"
#include "gcm.h"

#define MAXLEN 65536
#define MAXPAIRS 256

static _Alignas(64) aesir_gcm_key keys[MAXPAIRS];
static _Alignas(64) aesir_gcm_key refkey;
static const char *pair_aes[MAXPAIRS], *pair_gh[MAXPAIRS];
static int pair_hw[MAXPAIRS];
static size_t npairs;

static uint8_t pt[MAXLEN + 64], want[MAXLEN + 64], got[MAXLEN + 64],
    back[MAXLEN + 64];

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static int pair_fused[MAXPAIRS];
static void report(size_t p, const char *what, size_t len);

/* The pairs whose AES engine has fused kernels for that GHASH engine
 * (struct aesir_engine, .gcm_ghash), wherever both run. */
static int fused_expected(const char *aes, const char *ghash)
{
    static const char *const pairs[][2] = {
        {"aesni", "ghash-clmul"},
        {"vaes-avx2", "ghash-vpclmul-avx2"},
        {"vaes-avx512", "ghash-vpclmul-avx512"},
        {"armv8-ce", "ghash-pmull"},
        {"pwr8", "ghash-vpmsumd"},
    };
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
        if (strcmp(aes, pairs[i][0]) == 0 && strcmp(ghash, pairs[i][1]) == 0)
            return 1;
    return 0;
}

/* Whether key k calls fused kernels (white-box: gcm.h's layout). */
static int fused_of(const aesir_gcm_key *k)
{
    const struct gcm_key_state *st = (const void *)k;
    return st->fused_enc != NULL && st->fused_dec != NULL;
}

/* Keys of every available pair for key k. */
static void setup(const uint8_t *k, size_t klen)
{
    npairs = 0;
    CHECK_EQ(aesir_gcm_init_ex(&refkey, k, klen, "ref", "ghash-ref", 0),
             AESIR_OK);
    for (size_t a = 0; a < aesir_engine_count(); a++)
        for (size_t g = 0; g < aesir_ghash_engine_count(); g++) {
            const char *an = aesir_engine_name(a);
            const char *gn = aesir_ghash_engine_name(g);
            if (npairs == MAXPAIRS)
                return;
            if (!(aesir_engine_flags(a) & AESIR_ENGINE_AVAILABLE) ||
                !(aesir_ghash_engine_flags(g) & AESIR_ENGINE_AVAILABLE) ||
                !gcm_pair_wanted(an, gn))
                continue; /* unavailable here, or AESIR_GCM_PAIRS=cross */
            /* an available pair must set up */
            CHECK_EQ(aesir_gcm_init_ex(&keys[npairs], k, klen, an, gn, 0),
                     AESIR_OK);
            pair_aes[npairs] = an;
            pair_gh[npairs] = gn;
            pair_hw[npairs] =
                (aesir_engine_flags(a) & AESIR_ENGINE_HARDWARE) &&
                (aesir_ghash_engine_flags(g) & AESIR_ENGINE_HARDWARE);
            pair_fused[npairs] = fused_of(&keys[npairs]);
            /* a kernel's pair, when it runs, must get the kernel: else
             * this test would pass without ever calling it */
            if (fused_expected(an, gn) && !pair_fused[npairs]) {
                CHECK(0);
                report(npairs, "no fused kernel", 0);
            }
            npairs++;
        }
}

static void report(size_t p, const char *what, size_t len)
{
    fprintf(stderr, "  %s + %s: %s at %zu bytes\n", pair_aes[p], pair_gh[p],
            what, len);
}

/* One message on pair p against want (ciphertext and tag of ref). */
static void one(size_t p, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                size_t aadlen, size_t len)
{
    size_t olen = 0, mis = rnd() % 4, mis2 = rnd() % 4;
    uint8_t *out = got + mis;
    int ok;

    /* out of place, misaligned */
    memcpy(back + mis2, pt, len);
    CHECK_EQ(aesir_gcm_seal(&keys[p], iv, ivlen, aad, aadlen, out, len + 16,
                            &olen, back + mis2, len),
             AESIR_OK);
    ok = olen == len + 16 && memcmp(out, want, len + 16) == 0;
    CHECK(ok);
    if (!ok)
        report(p, "seal", len);
    /* in place */
    memcpy(out, pt, len);
    CHECK_EQ(aesir_gcm_seal(&keys[p], iv, ivlen, aad, aadlen, out, len + 16,
                            &olen, out, len),
             AESIR_OK);
    ok = memcmp(out, want, len + 16) == 0;
    CHECK(ok);
    if (!ok)
        report(p, "seal in place", len);
    /* open out of place, then in place */
    CHECK_EQ(aesir_gcm_open(&keys[p], iv, ivlen, aad, aadlen, back + mis2, len,
                            &olen, out, len + 16),
             AESIR_OK);
    ok = olen == len && memcmp(back + mis2, pt, len) == 0;
    CHECK(ok);
    if (!ok)
        report(p, "open", len);
    CHECK_EQ(aesir_gcm_open(&keys[p], iv, ivlen, aad, aadlen, out, len, &olen,
                            out, len + 16),
             AESIR_OK);
    ok = memcmp(out, pt, len) == 0;
    CHECK(ok);
    if (!ok)
        report(p, "open in place", len);
    /* a flipped bit anywhere (ciphertext or tag) */
    memcpy(out, want, len + 16);
    out[rnd() % (len + 16)] ^= (uint8_t)(1u << (rnd() % 8));
    CHECK_EQ(aesir_gcm_open(&keys[p], iv, ivlen, aad, aadlen, back, len, &olen,
                            out, len + 16),
             AESIR_E_AUTH);
}

/* The incremental API in odd-sized steps (the fused kernels get block
 * runs starting after partial blocks). */
static void steps(size_t p, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                  size_t aadlen, size_t len)
{
    aesir_gcm ctx;
    uint8_t tag[16];
    size_t off = 0;
    int ok;

    CHECK_EQ(aesir_gcm_start(&ctx, &keys[p], iv, ivlen), AESIR_OK);
    CHECK_EQ(aesir_gcm_aad(&ctx, aad, aadlen), AESIR_OK);
    while (off < len) {
        size_t n = 1 + rnd() % 700;
        n = n < len - off ? n : len - off;
        CHECK_EQ(aesir_gcm_encrypt_update(&ctx, got + off, pt + off, n),
                 AESIR_OK);
        off += n;
    }
    CHECK_EQ(aesir_gcm_finish(&ctx, tag, 16), AESIR_OK);
    ok = memcmp(got, want, len) == 0 && memcmp(tag, want + len, 16) == 0;
    CHECK(ok);
    if (!ok)
        report(p, "incremental seal", len);
    CHECK_EQ(aesir_gcm_start(&ctx, &keys[p], iv, ivlen), AESIR_OK);
    CHECK_EQ(aesir_gcm_aad(&ctx, aad, aadlen), AESIR_OK);
    for (off = 0; off < len;) {
        size_t n = 1 + rnd() % 700;
        n = n < len - off ? n : len - off;
        CHECK_EQ(aesir_gcm_decrypt_update_unverified(&ctx, back + off,
                                                     want + off, n),
                 AESIR_OK);
        off += n;
    }
    CHECK_EQ(aesir_gcm_verify(&ctx, want + len, 16), AESIR_OK);
    CHECK(memcmp(back, pt, len) == 0);
}

static void message(size_t len, int sw_too, int incremental)
{
    uint8_t iv[40], aad[48];
    size_t ivlen = rnd() % 4 == 0 ? 1 + rnd() % 40 : 12;
    size_t aadlen = rnd() % 48, olen;

    fill(iv, sizeof(iv));
    fill(aad, aadlen);
    fill(pt, len);
    CHECK_EQ(aesir_gcm_seal(&refkey, iv, ivlen, aad, aadlen, want, len + 16,
                            &olen, pt, len),
             AESIR_OK);
    for (size_t p = 0; p < npairs; p++) {
        if (!pair_hw[p] && !sw_too)
            continue;
        one(p, iv, ivlen, aad, aadlen, len);
        if (incremental)
            steps(p, iv, ivlen, aad, aadlen, len);
    }
}

/* Messages whose counter starts `before` blocks short of the inc32 wrap:
 * each pair against ref from the same doctored state. */
static void near_wrap(size_t len, uint32_t before)
{
    uint8_t iv[16], tag_ref[16], tag[16];
    aesir_gcm ctx;

    fill(iv, sizeof(iv));
    fill(pt, len);
    CHECK_EQ(aesir_gcm_start(&ctx, &refkey, iv, 16), AESIR_OK);
    aesir_store_be32(((struct gcm_state *)(void *)ctx.opaque)->ctr + 12,
                     0u - before);
    CHECK_EQ(aesir_gcm_encrypt_update(&ctx, want, pt, len), AESIR_OK);
    CHECK_EQ(aesir_gcm_finish(&ctx, tag_ref, 16), AESIR_OK);
    for (size_t p = 0; p < npairs; p++) {
        int ok;
        if (!pair_hw[p])
            continue;
        CHECK_EQ(aesir_gcm_start(&ctx, &keys[p], iv, 16), AESIR_OK);
        aesir_store_be32(((struct gcm_state *)(void *)ctx.opaque)->ctr + 12,
                         0u - before);
        CHECK_EQ(aesir_gcm_encrypt_update(&ctx, got, pt, len), AESIR_OK);
        CHECK_EQ(aesir_gcm_finish(&ctx, tag, 16), AESIR_OK);
        ok = memcmp(got, want, len) == 0 && memcmp(tag, tag_ref, 16) == 0;
        CHECK(ok);
        if (!ok)
            report(p, "near the wrap", len);
        /* decryption the same way */
        CHECK_EQ(aesir_gcm_start(&ctx, &keys[p], iv, 16), AESIR_OK);
        aesir_store_be32(((struct gcm_state *)(void *)ctx.opaque)->ctr + 12,
                         0u - before);
        CHECK_EQ(aesir_gcm_decrypt_update_unverified(&ctx, back, want, len),
                 AESIR_OK);
        CHECK_EQ(aesir_gcm_verify(&ctx, tag_ref, 16), AESIR_OK);
        CHECK(memcmp(back, pt, len) == 0);
    }
}

#if defined(__linux__)
/* A region of GUARD_CAP bytes between two PROT_NONE pages. */
#define GUARD_CAP (3 * 4096)
static uint8_t *guarded(void)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t cap = (GUARD_CAP + pg - 1) / pg * pg;
    uint8_t *m = mmap(NULL, cap + 2 * pg, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m, pg, PROT_NONE) != 0 ||
        mprotect(m + pg + cap, pg, PROT_NONE) != 0)
        return NULL;
    return m + pg + cap - GUARD_CAP; /* GUARD_CAP bytes, then the guard */
}

static uint8_t *g_in, *g_out, *g_aad;

/* n bytes of region r at its end (at_end) or its start. */
static uint8_t *place(uint8_t *r, size_t n, int at_end)
{
    return at_end ? r + GUARD_CAP - n : r;
}

/* One message with a 12-byte IV through the one-shot detached calls on
 * every hardware pair, its buffers against guard pages: out of place, in
 * place, open, open of a flipped bit (output wiped). */
static void edge(size_t len, size_t aadlen, int at_end)
{
    uint8_t iv[12], tag_ref[16], tag[16];
    uint8_t *in = place(g_in, len, at_end), *out = place(g_out, len, !at_end);
    uint8_t *aad = place(g_aad, aadlen, at_end);
    int ok;

    fill(iv, sizeof(iv));
    fill(aad, aadlen);
    fill(pt, len);
    CHECK_EQ(aesir_gcm_seal_detached(&refkey, iv, 12, aad, aadlen, want,
                                     tag_ref, 16, pt, len),
             AESIR_OK);
    for (size_t p = 0; p < npairs; p++) {
        if (!pair_hw[p])
            continue;
        memcpy(in, pt, len);
        CHECK_EQ(aesir_gcm_seal_detached(&keys[p], iv, 12, aad, aadlen, out,
                                         tag, 16, in, len),
                 AESIR_OK);
        ok = memcmp(out, want, len) == 0 && memcmp(tag, tag_ref, 16) == 0;
        CHECK(ok);
        if (!ok)
            report(p, "guarded seal", len);
        CHECK_EQ(aesir_gcm_seal_detached(&keys[p], iv, 12, aad, aadlen, in, tag,
                                         16, in, len),
                 AESIR_OK);
        ok = memcmp(in, want, len) == 0 && memcmp(tag, tag_ref, 16) == 0;
        CHECK(ok);
        if (!ok)
            report(p, "guarded seal in place", len);
        CHECK_EQ(aesir_gcm_open_detached(&keys[p], iv, 12, aad, aadlen, out,
                                         tag_ref, 16, in, len),
                 AESIR_OK);
        ok = memcmp(out, pt, len) == 0;
        CHECK(ok);
        if (!ok)
            report(p, "guarded open", len);
        CHECK_EQ(aesir_gcm_open_detached(&keys[p], iv, 12, aad, aadlen, in,
                                         tag_ref, 16, in, len),
                 AESIR_OK);
        ok = memcmp(in, pt, len) == 0;
        CHECK(ok);
        if (!ok)
            report(p, "guarded open in place", len);
        /* a flipped bit in the ciphertext, the AAD or the tag */
        memcpy(in, want, len);
        memcpy(tag, tag_ref, 16);
        {
            size_t at = rnd() % (len + aadlen + 16);
            uint8_t bit = (uint8_t)(1u << (rnd() % 8));
            uint8_t *q = at < len            ? in + at
                         : at < len + aadlen ? aad + (at - len)
                                             : tag + (at - len - aadlen);
            *q ^= bit;
            memset(out, 0x5a, len);
            CHECK_EQ(aesir_gcm_open_detached(&keys[p], iv, 12, aad, aadlen, out,
                                             tag, 16, in, len),
                     AESIR_E_AUTH);
            for (size_t i = 0; i < len; i++)
                if (out[i] != 0) {
                    CHECK(out[i] == 0);
                    break;
                }
            *q ^= bit;
        }
    }
}

static void edges(void)
{
    if (g_in == NULL) { /* once, for all key sizes */
        g_in = guarded();
        g_out = guarded();
        g_aad = guarded();
    }
    CHECK(g_in != NULL && g_out != NULL && g_aad != NULL);
    if (g_in == NULL || g_out == NULL || g_aad == NULL)
        return;
    /* every data length up to 1100 (short kernel, one batch, tails of
     * every shape), with AAD of 0..600 bytes */
    for (size_t len = 0; len <= 1100; len++)
        edge(len, len % 3 == 0 ? 0 : rnd() % 601, len % 2);
    /* two and three batches and their tails */
    for (size_t len = 1020; len <= 1560; len += 1 + rnd() % 4)
        edge(len, rnd() % 40, len % 2);
    /* every AAD length up to 1100: alone (GMAC), with short data, with a
     * batch and a tail */
    for (size_t aadlen = 0; aadlen <= 1100; aadlen++) {
        edge(0, aadlen, aadlen % 2);
        edge(1 + rnd() % 64, aadlen, aadlen % 2);
        if (aadlen % 4 == 0)
            edge(500 + rnd() % 600, aadlen, aadlen % 2);
    }
}
#else
static void edges(void)
{
}
#endif

int main(void)
{
    static const size_t big[] = {4099,  5000,  8192,  8195, 16384,
                                 16389, 32767, 65520, 65536};
    static const size_t klens[] = {16, 24, 32};

    for (size_t ki = 0; ki < 3; ki++) {
        uint8_t k[32];
        fill(k, klens[ki]);
        setup(k, klens[ki]);
        if (ki == 0) {
            printf("%zu engine pairs\n", npairs);
            for (size_t p = 0; p < npairs; p++)
                if (pair_fused[p])
                    printf("fused kernels: %s + %s\n", pair_aes[p], pair_gh[p]);
        }
        for (size_t len = 0; len <= 4096; len += 1 + 2 * (rnd() % 8))
            message(len, len % 97 < 8, len < 1200 && len % 5 == 0);
        for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
            message(big[i], 0, i % 3 == 0);
        for (uint32_t before = 1; before <= 70; before += 3)
            near_wrap(16 * before + before % 16, before);
        near_wrap(4096, 100);
        edges();
    }
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
