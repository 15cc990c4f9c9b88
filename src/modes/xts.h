/*
 * xts.h -- the layout behind aesir_xts_key (xts.c), for xts.c and
 * white-box tests (tests/test_xts.c runs the generic path on an engine
 * that has a fused one by clearing the copied kernel pointers).
 */
#ifndef AESIR_XTS_H
#define AESIR_XTS_H

#include "internal.h"

#define XTS_KEY_MAGIC 0x7874736bu /* "xtsk" */

/*
 * The data key (Key1, both directions) and the tweak key (Key2,
 * encryption only), each a whole aesir_aes, then the data key's engine
 * fast paths (NULL: the generic path on bulk ECB) and the magic.
 */
struct xts_key_state {
    aesir_aes data;
    aesir_aes tweak;
    aesir_xts_fn enc, dec;
    uint32_t magic;
};
_Static_assert(sizeof(struct xts_key_state) <= sizeof(aesir_xts_key),
               "aesir_xts_key too small");

#endif /* AESIR_XTS_H */
