/*
 * test_ghash.c -- the GHASH engines (src/ghash/): on every engine of the
 * registry this CPU can run (UNAVAILABLE printed for the others),
 *
 *   - the self-test (aesir_ghash_selftest_run);
 *   - known answers: the GHASH values of GCM test cases 2, 3 and 4
 *     (McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)",
 *     appendix B) and RFC 8452 appendix A's POLYVAL(H, X_1, X_2), also
 *     the same through GHASH with mulX_GHASH(ByteReverse(H));
 *   - against ghash-ref: random H and starting y, random block counts
 *     (0..70, and some up to 1000) hashed in one call by ref and in
 *     pieces of random sizes by the engine, from misaligned input; the
 *     same for POLYVAL (the engine's native one, or the generic one);
 *   - that init writes nothing past AESIR_GHASH_KEY_BYTES and the input
 *     is left as it was;
 *
 * and, outside the library: bench/ghash_table16.c against ghash-ref,
 * mulX_GHASH and mulX_POLYVAL (RFC 8452 appendix A) and aesir_xts_mul_x
 * against a bitwise model.
 *
 * AESIR_GHASH_CASES sets the random cases per engine (default 400).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h"
#include "ghash.h"
#include "ghash_table16.h"

#define MAX_BLOCKS 1000
#define CANARY 0xa5

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1du;
}

static void rnd_bytes(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rnd() >> 56);
}

static void unhex(uint8_t *out, const char *hex)
{
    for (size_t i = 0; hex[2 * i] != '\0'; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* The key area, with room for a canary behind it. */
static _Alignas(64) unsigned char hk[AESIR_GHASH_KEY_BYTES + 64];
static _Alignas(64) unsigned char hk_ref[AESIR_GHASH_KEY_BYTES];

struct kat {
    const char *name, *h, *in, *want;
};

/* GHASH(H, A, C) of GCM test cases 2..4: the input is A and C, each
 * zero-padded to whole blocks, then the lengths block. */
static const struct kat ghash_kats[] = {
    {"GCM test case 2", "66e94bd4ef8a2c3b884cfa59ca342b2e",
     "0388dace60b6a392f328c2b971b2fe78"
     "00000000000000000000000000000080",
     "f38cbb1ad69223dcc3457ae5b6b0f885"},
    {"GCM test case 3", "b83b533708bf535d0aa6e52980d53b78",
     "42831ec2217774244b7221b784d0d49c"
     "e3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa05"
     "1ba30b396a0aac973d58e091473f5985"
     "00000000000000000000000000000200",
     "7f1b32b81b820d02614f8895ac1d4eac"},
    {"GCM test case 4", "b83b533708bf535d0aa6e52980d53b78",
     "feedfacedeadbeeffeedfacedeadbeef"
     "abaddad2000000000000000000000000"
     "42831ec2217774244b7221b784d0d49c"
     "e3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa05"
     "1ba30b396a0aac973d58e09100000000"
     "00000000000000a000000000000001e0",
     "698e57f70e6ecc7fd9463b7260a9ae5f"},
    /* RFC 8452 appendix A: GHASH with mulX_GHASH(ByteReverse(H)) on the
     * reversed blocks, the byte reversal of POLYVAL's result. */
    {"RFC 8452 A, GHASH side", "dcbaa5dd137c188ebb21492c23c9b112",
     "62a2012dbb621740b6df838c66954f4f"
     "62f3c9d3205fe4bb06d02127dd4da2d1",
     "7eb7e5f56c86b7e5fa1961847bb4a3f7"},
};

static const char pv_h[] = "25629347589242761d31f826ba4b757b";
static const char pv_in[] = "4f4f95668c83dfb6401762bb2d01a262"
                            "d1a24ddd2721d006bbe45f20d3c9f362";
static const char pv_want[] = "f7a3b47b846119fae5b7866cf5e5b77e";

static void kat_engine(const struct aesir_ghash_engine *e)
{
    uint8_t h[16], in[112], want[16], y[16], copy[112];
    for (size_t i = 0; i < sizeof(ghash_kats) / sizeof(ghash_kats[0]); i++) {
        const struct kat *k = &ghash_kats[i];
        size_t n = strlen(k->in) / 32;
        unhex(h, k->h);
        unhex(in, k->in);
        unhex(want, k->want);
        memcpy(copy, in, 16 * n);
        memset(y, 0, 16);
        e->init(hk, h);
        e->ghash(hk, y, in, n);
        CHECK(memcmp(y, want, 16) == 0);
        CHECK(memcmp(copy, in, 16 * n) == 0);
        if (memcmp(y, want, 16) != 0)
            fprintf(stderr, "  %s: %s wrong\n", e->name, k->name);
        /* One block at a time too. */
        memset(y, 0, 16);
        for (size_t j = 0; j < n; j++)
            e->ghash(hk, y, in + 16 * j, 1);
        CHECK(memcmp(y, want, 16) == 0);
    }
    unhex(h, pv_h);
    unhex(in, pv_in);
    unhex(want, pv_want);
    memset(y, 0, 16);
    aesir_polyval_init(e, hk, h);
    aesir_polyval(e, hk, y, in, 2);
    CHECK(memcmp(y, want, 16) == 0);
    memset(y, 0, 16);
    aesir_polyval(e, hk, y, in, 1);
    aesir_polyval(e, hk, y, in + 16, 1);
    CHECK(memcmp(y, want, 16) == 0);
}

/* Hashes n blocks in pieces of random sizes (0 included). */
static void split_calls(void (*fn)(const struct aesir_ghash_engine *,
                                   const void *, uint8_t *, const uint8_t *,
                                   size_t),
                        const struct aesir_ghash_engine *e, const void *key,
                        uint8_t y[16], const uint8_t *in, size_t n)
{
    while (n > 0) {
        size_t k = (size_t)(rnd() % 4 == 0 ? 0 : rnd() % (n + 1));
        if (rnd() % 3 == 0)
            k = n;
        fn(e, key, y, in, k);
        in += 16 * k;
        n -= k;
    }
    if (rnd() % 4 == 0)
        fn(e, key, y, in, 0);
}

static void do_ghash(const struct aesir_ghash_engine *e, const void *key,
                     uint8_t *y, const uint8_t *in, size_t n)
{
    e->ghash(key, y, in, n);
}

static void do_polyval(const struct aesir_ghash_engine *e, const void *key,
                       uint8_t *y, const uint8_t *in, size_t n)
{
    aesir_polyval(e, key, y, in, n);
}

static uint8_t buf[16 * MAX_BLOCKS + 64], buf_copy[16 * MAX_BLOCKS + 64];

static size_t random_count(unsigned c)
{
    return c % 25 == 24 ? (size_t)(rnd() % (MAX_BLOCKS + 1))
                        : (size_t)(rnd() % 71);
}

static void diff_engine(const struct aesir_ghash_engine *e,
                        const struct aesir_ghash_engine *ref, unsigned cases)
{
    unsigned bad = 0;
    for (unsigned c = 0; c < cases; c++) {
        uint8_t h[16], y0[16], want[16], got[16];
        size_t n = random_count(c), off = (size_t)(rnd() % 16);
        const uint8_t *in = buf + off;
        rnd_bytes(h, 16);
        rnd_bytes(y0, 16);
        rnd_bytes(buf, 16 * n + 16);
        memcpy(buf_copy, buf, 16 * n + 16);

        ref->init(hk_ref, h);
        memcpy(want, y0, 16);
        ref->ghash(hk_ref, want, in, n);
        memset(hk, CANARY, sizeof(hk));
        e->init(hk, h);
        CHECK(all_eq(hk + AESIR_GHASH_KEY_BYTES, CANARY, 64));
        memcpy(got, y0, 16);
        split_calls(do_ghash, e, hk, got, in, n);
        bad += memcmp(got, want, 16) != 0;
        CHECK(memcmp(buf, buf_copy, 16 * n + 16) == 0);

        aesir_polyval_init(ref, hk_ref, h);
        memcpy(want, y0, 16);
        aesir_polyval(ref, hk_ref, want, in, n);
        aesir_polyval_init(e, hk, h);
        memcpy(got, y0, 16);
        split_calls(do_polyval, e, hk, got, in, n);
        bad += memcmp(got, want, 16) != 0;
    }
    CHECK_EQ(bad, 0u);
    if (bad != 0)
        fprintf(stderr, "  %s: %u of %u random cases differ from ref\n",
                e->name, bad, 2 * cases);
}

static void test_table16(const struct aesir_ghash_engine *ref, unsigned cases)
{
    static _Alignas(64) unsigned char t16[GHASH_TABLE16_BYTES];
    uint8_t h[16], in[112], want[16], y[16];
    unsigned bad = 0;
    for (size_t i = 0; i < sizeof(ghash_kats) / sizeof(ghash_kats[0]); i++) {
        const struct kat *k = &ghash_kats[i];
        unhex(h, k->h);
        unhex(in, k->in);
        unhex(want, k->want);
        memset(y, 0, 16);
        ghash_table16_init(t16, h);
        ghash_table16(t16, y, in, strlen(k->in) / 32);
        CHECK(memcmp(y, want, 16) == 0);
    }
    for (unsigned c = 0; c < cases; c++) {
        uint8_t y0[16], got[16];
        size_t n = random_count(c), off = (size_t)(rnd() % 16);
        rnd_bytes(h, 16);
        rnd_bytes(y0, 16);
        rnd_bytes(buf, 16 * n + 16);
        ref->init(hk_ref, h);
        memcpy(want, y0, 16);
        ref->ghash(hk_ref, want, buf + off, n);
        ghash_table16_init(t16, h);
        memcpy(got, y0, 16);
        ghash_table16(t16, got, buf + off, n);
        bad += memcmp(got, want, 16) != 0;
    }
    CHECK_EQ(bad, 0u);
    printf("%-22s ok (bench/ghash_table16.c)\n", "ghash-table16");
}

static void test_mulx(void)
{
    uint8_t b[16], want[16];
    /* RFC 8452 appendix A. */
    unhex(b, "9c98c04df9387ded828175a92ba652d8");
    unhex(want, "3931819bf271fada0503eb52574ca572");
    aesir_polyval_mulx(b);
    CHECK(memcmp(b, want, 16) == 0);
    unhex(b, "7b754bba26f8311d7642925847936225"); /* ByteReverse(H) */
    unhex(want, "dcbaa5dd137c188ebb21492c23c9b112");
    aesir_ghash_mulx(b);
    CHECK(memcmp(b, want, 16) == 0);
}

/* aesir_xts_mul_x against the definition: the tweak as a 128-bit
 * little-endian integer, doubled, x^128 replaced by x^7 + x^2 + x + 1. */
static void test_xts_mul_x(void)
{
    unsigned bad = 0;
    for (unsigned c = 0; c < 2000; c++) {
        uint8_t t[16], want[16];
        uint64_t lo = 0, hi = 0;
        rnd_bytes(t, 16);
        if (c < 4)
            memset(t, c & 1 ? 0xff : 0, 16),
                t[15] = (uint8_t)(c & 2 ? 0x80 : t[15]);
        for (int i = 7; i >= 0; i--) {
            lo = (lo << 8) | t[i];
            hi = (hi << 8) | t[8 + i];
        }
        uint64_t carry = hi >> 63;
        hi = (hi << 1) | (lo >> 63);
        lo <<= 1;
        if (carry)
            lo ^= 0x87;
        for (int i = 0; i < 8; i++) {
            want[i] = (uint8_t)(lo >> (8 * i));
            want[8 + i] = (uint8_t)(hi >> (8 * i));
        }
        aesir_xts_mul_x(t);
        bad += memcmp(t, want, 16) != 0;
    }
    CHECK_EQ(bad, 0u);
}

int main(void)
{
    const struct aesir_ghash_engine *ref = aesir_ghash_ref();
    const char *env = getenv("AESIR_GHASH_CASES");
    unsigned cases = env != NULL ? (unsigned)strtoul(env, NULL, 10) : 400;
    size_t n = aesir_ghash_engine_count();

    CHECK(ref != NULL && aesir_ghash_engine_at(0) == ref);
    CHECK(aesir_ghash_engine_at(n) == NULL);
    CHECK(aesir_ghash_engine_name_at(n) == NULL);
    CHECK(aesir_ghash_selftest_run(NULL) == -1);
    for (size_t i = 0; i < n; i++) {
        const char *name = aesir_ghash_engine_name_at(i);
        const struct aesir_ghash_engine *e = aesir_ghash_engine_at(i);
        unsigned before = check_failed;
        if (e == NULL) {
            printf("%-22s UNAVAILABLE\n", name);
            continue;
        }
        CHECK(strcmp(e->name, name) == 0);
        CHECK(e->init != NULL && e->ghash != NULL && e->batch >= 1);
        CHECK((e->polyval == NULL) == (e->polyval_init == NULL));
        CHECK(aesir_ghash_selftest_run(e) == 0);
        kat_engine(e);
        diff_engine(e, ref, cases);
        printf("%-22s %s (batch %u, %s, POLYVAL %s)\n", name,
               check_failed == before ? "ok" : "FAILED", e->batch,
               (e->flags & ENGINE_CT) ? "constant-time" : "not constant-time",
               e->polyval != NULL ? "native" : "generic");
    }
    test_table16(ref, cases);
    test_mulx();
    test_xts_mul_x();
    return check_summary();
}
