/*
 * registry.c -- the GHASH engine registry, generated from
 * src/core/engines.def, and the GHASH known-answer self-test. (A
 * temporary home: it moves into src/core/dispatch.c.)
 *
 * Engines of kind HW are left out, as "not built", when the library is
 * configured with AESIR_HW_ENGINES=OFF (AESIR_NO_HW_ENGINES): their names
 * stay listed and their accessors are never called, so a build without
 * them behaves like a CPU without carry-less multiplication.
 */
#include "internal.h"
#include "ghash.h"

#ifdef AESIR_NO_HW_ENGINES
static const struct aesir_ghash_engine *ghash_not_built(void)
{
    return NULL;
}
#define GHASH_GET_HW(id) ghash_not_built
#else
#define GHASH_GET_HW(id) aesir_ghash_##id
#endif
#define GHASH_GET_SW(id) aesir_ghash_##id

struct ghash_entry {
    const char *name;
    const struct aesir_ghash_engine *(*get)(void);
};

static const struct ghash_entry ghash_registry[] = {
#define GHASH_ENGINE(id, name, ct, kind, rank) {name, GHASH_GET_##kind(id)},
#include "engines.def"
};

#define GHASH_COUNT (sizeof(ghash_registry) / sizeof(ghash_registry[0]))

size_t aesir_ghash_engine_count(void)
{
    return GHASH_COUNT;
}

const struct aesir_ghash_engine *aesir_ghash_engine_at(size_t i)
{
    return i < GHASH_COUNT ? ghash_registry[i].get() : NULL;
}

const char *aesir_ghash_engine_name_at(size_t i)
{
    return i < GHASH_COUNT ? ghash_registry[i].name : NULL;
}

/* ---- known answers ---------------------------------------------------- */

/* GCM test case 2 (McGrew and Viega, appendix B): K = 0^128, P = 0^128,
 * IV = 0^96: H, and the GHASH input C || len(A) || len(C). */
static const uint8_t tc2_h[16] = {0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a,
                                  0x2c, 0x3b, 0x88, 0x4c, 0xfa, 0x59,
                                  0xca, 0x34, 0x2b, 0x2e};
static const uint8_t tc2_in[32] = {
    0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92, 0xf3, 0x28, 0xc2,
    0xb9, 0x71, 0xb2, 0xfe, 0x78, 0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0x80};
static const uint8_t tc2_ghash[16] = {0xf3, 0x8c, 0xbb, 0x1a, 0xd6, 0x92,
                                      0x23, 0xdc, 0xc3, 0x45, 0x7a, 0xe5,
                                      0xb6, 0xb0, 0xf8, 0x85};

/* GCM test case 4: H, then A (20 bytes, zero-padded to 2 blocks), C (60
 * bytes, padded to 4) and the lengths block (160 and 480 bits). */
static const uint8_t tc4_h[16] = {0xb8, 0x3b, 0x53, 0x37, 0x08, 0xbf,
                                  0x53, 0x5d, 0x0a, 0xa6, 0xe5, 0x29,
                                  0x80, 0xd5, 0x3b, 0x78};
static const uint8_t tc4_in[112] = {
    0xfe, 0xed, 0xfa, 0xce, 0xde, 0xad, 0xbe, 0xef, 0xfe, 0xed, 0xfa, 0xce,
    0xde, 0xad, 0xbe, 0xef, 0xab, 0xad, 0xda, 0xd2, 0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0x42, 0x83, 0x1e, 0xc2,
    0x21, 0x77, 0x74, 0x24, 0x4b, 0x72, 0x21, 0xb7, 0x84, 0xd0, 0xd4, 0x9c,
    0xe3, 0xaa, 0x21, 0x2f, 0x2c, 0x02, 0xa4, 0xe0, 0x35, 0xc1, 0x7e, 0x23,
    0x29, 0xac, 0xa1, 0x2e, 0x21, 0xd5, 0x14, 0xb2, 0x54, 0x66, 0x93, 0x1c,
    0x7d, 0x8f, 0x6a, 0x5a, 0xac, 0x84, 0xaa, 0x05, 0x1b, 0xa3, 0x0b, 0x39,
    0x6a, 0x0a, 0xac, 0x97, 0x3d, 0x58, 0xe0, 0x91, 0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0xa0, 0,    0,    0,    0,
    0,    0,    0x01, 0xe0};
static const uint8_t tc4_ghash[16] = {0x69, 0x8e, 0x57, 0xf7, 0x0e, 0x6e,
                                      0xcc, 0x7f, 0xd9, 0x46, 0x3b, 0x72,
                                      0x60, 0xa9, 0xae, 0x5f};

/* RFC 8452 appendix A: POLYVAL(H, X_1, X_2). */
static const uint8_t pv_h[16] = {0x25, 0x62, 0x93, 0x47, 0x58, 0x92,
                                 0x42, 0x76, 0x1d, 0x31, 0xf8, 0x26,
                                 0xba, 0x4b, 0x75, 0x7b};
static const uint8_t pv_in[32] = {
    0x4f, 0x4f, 0x95, 0x66, 0x8c, 0x83, 0xdf, 0xb6, 0x40, 0x17, 0x62,
    0xbb, 0x2d, 0x01, 0xa2, 0x62, 0xd1, 0xa2, 0x4d, 0xdd, 0x27, 0x21,
    0xd0, 0x06, 0xbb, 0xe4, 0x5f, 0x20, 0xd3, 0xc9, 0xf3, 0x62};
static const uint8_t pv_out[16] = {0xf7, 0xa3, 0xb4, 0x7b, 0x84, 0x61,
                                   0x19, 0xfa, 0xe5, 0xb7, 0x86, 0x6c,
                                   0xf5, 0xe5, 0xb7, 0x7e};

static int kat_ghash(const struct aesir_ghash_engine *e, void *hk,
                     const uint8_t h[16], const uint8_t *in, size_t nblocks,
                     const uint8_t want[16])
{
    uint8_t y[16] = {0};
    e->init(hk, h);
    e->ghash(hk, y, in, nblocks);
    return aesir_ct_compare(y, want, 16);
}

int aesir_ghash_selftest_run(const struct aesir_ghash_engine *e)
{
    _Alignas(16) unsigned char hk[AESIR_GHASH_KEY_BYTES];
    uint8_t s[16] = {0};
    int bad;
    if (e == NULL)
        return -1;
    bad = kat_ghash(e, hk, tc2_h, tc2_in, 2, tc2_ghash);
    bad |= kat_ghash(e, hk, tc4_h, tc4_in, 7, tc4_ghash);
    aesir_polyval_init(e, hk, pv_h);
    aesir_polyval(e, hk, s, pv_in, 2);
    bad |= aesir_ct_compare(s, pv_out, 16);
    aesir_wipe(hk, sizeof(hk));
    return bad ? -1 : 0;
}
