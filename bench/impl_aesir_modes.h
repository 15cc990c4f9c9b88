/*
 * impl_aesir_modes.h -- issue 19's ops for impl_aesir.c's rows
 * (impl_aesir_modes.c). engine: the engine's name, NULL for the default
 * one. The functions follow struct bench_impl's (bench.h).
 */
#ifndef AESIR_BENCH_IMPL_AESIR_MODES_H
#define AESIR_BENCH_IMPL_AESIR_MODES_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

int aesir_modes_supports(const char *engine, enum bench_op op,
                         unsigned key_bits);
void *aesir_modes_setup(const char *engine, enum bench_op op,
                        const uint8_t *key, unsigned key_bits,
                        const uint8_t iv[16]);
int aesir_modes_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
void aesir_modes_release(void *ctx);

#endif /* AESIR_BENCH_IMPL_AESIR_MODES_H */
