/*
 * ocb.h -- the layouts behind aesir_ocb_key and aesir_ocb (ocb.c), for
 * ocb.c, the engines' OCB kernels and white-box tests.
 */
#ifndef AESIR_OCB_H
#define AESIR_OCB_H

#include "internal.h"

#define OCB_KEY_MAGIC 0x6f63626bu /* "ocbk" */
#define OCB_MAGIC 0x6f636273u     /* "ocbs" */

/* Blocks per message (data, and additional data) are below 2^36: block
 * indices need L_0 .. L_35. */
#define OCB_L_COUNT 36
#define OCB_MAX_BLOCKS (UINT64_C(1) << 36)

/* Running sums P_1 .. P_32 of the L_(ntz(j)) (internal.h, aesir_ocb_fn):
 * the offsets of a batch of up to 32 blocks relative to its base. */
#define OCB_P_COUNT 32

/*
 * The layout behind aesir_ocb_key: the AES key context (both
 * directions), a 64-byte head, then the offset table L_0 .. L_35 (RFC
 * 7253 4.1) and right after it P_1 .. P_32 (the kernels find them at
 * l + 16 * OCB_L_COUNT), L_*, L_$; 64-byte aligned when the object is.
 */
struct ocb_key_state {
    aesir_aes aes;
    aesir_ocb_fn fused_enc, fused_dec; /* the engine's, or NULL */
    aesir_ocb_whole_fn fused_whole;    /* the engine's, or NULL */
    uint32_t magic;
    unsigned char head_pad[64 - 3 * sizeof(void *) - 4];
    _Alignas(16) uint8_t l[OCB_L_COUNT][16];
    uint8_t p[OCB_P_COUNT][16];
    uint8_t lstar[16];
    uint8_t ldollar[16];
};
_Static_assert(sizeof(struct ocb_key_state) <= sizeof(aesir_ocb_key),
               "aesir_ocb_key: AESIR_OCB_KEY_BYTES");
_Static_assert(offsetof(struct ocb_key_state, l) % 64 == 0,
               "L table on a cache line");
_Static_assert(offsetof(struct ocb_key_state, p) ==
                   offsetof(struct ocb_key_state, l) + 16 * OCB_L_COUNT,
               "P right after L (aesir_ocb_fn)");

/*
 * The decrypt argument of aesir_ocb_whole_fn (internal.h) takes a third
 * value beside 0 (encrypt) and 1 (decrypt): OCB_WHOLE_CHECK decrypts and
 * checks a whole 16-byte tag. tag holds the received tag on entry and
 * receives D_K(tag xor sum) xor Checksum xor Offset_m xor L_$ (Offset_*
 * after a partial block): all zeros exactly when the received tag is the
 * message's, since Tag = E_K(Checksum xor Offset xor L_$) xor sum and
 * E_K is a permutation. The kernel deciphers the received tag beside
 * Ktop at the start, so that no AES latency follows the last block
 * (x86_ocb_core.h).
 */
#define OCB_WHOLE_CHECK 2

/* Phases of a message. */
enum { OCB_PH_START = 1, OCB_PH_ENC, OCB_PH_DEC };

struct ocb_state {
    const struct ocb_key_state *key;
    uint32_t magic;
    uint32_t phase;   /* OCB_PH_*; 0 when ended */
    uint32_t tag_len; /* 1..16, fixed at start */
    uint32_t nbuf;    /* data bytes in buf */
    uint32_t nabuf;   /* additional-data bytes in abuf */
    uint32_t pad_;
    uint64_t blocks;      /* data blocks done */
    uint64_t ablocks;     /* additional-data blocks done */
    uint8_t offset[16];   /* Offset_i of the data */
    uint8_t checksum[16]; /* Checksum_i */
    uint8_t aoffset[16];  /* Offset_i of HASH */
    uint8_t sum[16];      /* Sum_i of HASH */
    uint8_t buf[16];      /* data of a block not yet complete */
    uint8_t abuf[16];     /* additional data of a block not yet complete */
};
_Static_assert(sizeof(struct ocb_state) <= sizeof(aesir_ocb),
               "aesir_ocb too small");

#endif /* AESIR_OCB_H */
