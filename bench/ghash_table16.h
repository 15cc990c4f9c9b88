/*
 * ghash_table16.h -- GHASH with 16 tables of 256 entries (64 KiB per
 * key), one table per input byte: a benchmark variant, not part of the
 * library (bench/ghash_table16.c says why).
 */
#ifndef AESIR_BENCH_GHASH_TABLE16_H
#define AESIR_BENCH_GHASH_TABLE16_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of the tables: 16 x 256 entries of 16 bytes. */
#define GHASH_TABLE16_BYTES 65536

/* ghash_table16_init: the tables for hash key h (GCM byte order) into
 * tables64k (GHASH_TABLE16_BYTES, 16-byte aligned). */
void ghash_table16_init(void *tables64k, const uint8_t h[16]);

/* ghash_table16: y = (y ^ X_i) * H for each of the nblocks blocks of in,
 * as SP 800-38D defines it; y in GCM byte order; in needs no alignment.
 * Not constant-time. */
void ghash_table16(const void *tables64k, uint8_t y[16], const uint8_t *in,
                   size_t nblocks);

#endif
