/*
 * ecb.c -- electronic codebook (SP 800-38A section 6.1) on full blocks:
 * the engine's bulk function as it is. Buffering and padding live in
 * blockmode.c.
 */
#include "modes.h"

void aesir_ecb_blocks(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                      size_t nblocks)
{
    aesir_ecb_run(st->ks, st->dir, out, in, nblocks);
}
