/*
 * aegis.h -- the layout behind aesir_aegis_key (aegis.c) and what the
 * engines' AEGIS kernels share with the generic code: the variants'
 * parameters and the constants of draft-irtf-cfrg-aegis-aead-17.
 */
#ifndef AESIR_AEGIS_H
#define AESIR_AEGIS_H

#include "internal.h"

#define AEGIS_KEY_MAGIC 0x61656773u /* "aegs" */

/* Draft section 3 and 4: P_MAX = A_MAX = 2^61 - 1 bytes. */
#define AEGIS_MAX_LEN ((UINT64_C(1) << 61) - 1)

/* The widest rate (AEGIS-128X4: 2 x 4 x 16 bytes). */
#define AEGIS_MAX_RATE 128

/* What an engine's aegis_update does with its blocks (internal.h). */
enum { AEGIS_OP_AD, AEGIS_OP_ENC, AEGIS_OP_DEC };

/* Paths a key can take (aesir_aegis_engine). */
enum { AEGIS_PATH_KERNEL, AEGIS_PATH_ROUND, AEGIS_PATH_ROUND_CT64 };

struct aegis_key_state {
    const struct aesir_engine *engine; /* the AES engine asked for */
    aesir_aes_round_fn round;          /* the generic path's round */
    aesir_aegis_fn kernel;             /* the engine's kernel, or NULL */
    aesir_aegis_update_fn update;      /* its blocks on a state, or NULL */
    uint32_t magic;
    int32_t variant;
    uint32_t path;
    uint32_t pad_;
    uint8_t key[32];
};
_Static_assert(sizeof(struct aegis_key_state) <= sizeof(aesir_aegis_key),
               "aesir_aegis_key too small");

/* The variants: family (0: AEGIS-128L and -128X, 8 state rows, two input
 * halves per update; 1: AEGIS-256 and -256X, 6 rows, one input) and
 * degree D (instances side by side, draft section 5). */
static inline int aegis_family(int variant)
{
    return variant == AESIR_AEGIS_256 || variant == AESIR_AEGIS_256X2 ||
           variant == AESIR_AEGIS_256X4;
}

static inline unsigned aegis_degree(int variant)
{
    switch (variant) {
    case AESIR_AEGIS_128X2:
    case AESIR_AEGIS_256X2:
        return 2;
    case AESIR_AEGIS_128X4:
    case AESIR_AEGIS_256X4:
        return 4;
    default:
        return 1;
    }
}

/* C0 and C1 (draft section 2): the Fibonacci sequence mod 256. */
static const uint8_t aegis_c0[16] = {0x00, 0x01, 0x01, 0x02, 0x03, 0x05,
                                     0x08, 0x0d, 0x15, 0x22, 0x37, 0x59,
                                     0x90, 0xe9, 0x79, 0x62};
static const uint8_t aegis_c1[16] = {0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2,
                                     0x2f, 0xf1, 0x20, 0x11, 0x31, 0x42,
                                     0x73, 0xb5, 0x28, 0xdd};

/* The context separators of the X variants (5.4.2, 5.5.2), lane i of
 * degree D: Byte(i) || Byte(D - 1) || 0^112; row D / 2 (D = 1, 2, 4). */
static const uint8_t aegis_ctx[3][64] = {
    {0},
    {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
    {0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
     3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3,
     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3}};

/* LE64 (draft section 2). */
static inline void aegis_store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 8);
#else
    for (unsigned k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
#endif
}

#endif /* AESIR_AEGIS_H */
