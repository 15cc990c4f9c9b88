/*
 * bs_round.h -- one AES round for AEGIS (internal.h, aes_round) on the
 * vector bitsliced engines bs-avx2 and bs-avx512: AESRound(x, k) =
 * MixColumns(ShiftRows(SubBytes(x))) ^ k (draft-irtf-cfrg-aegis-aead
 * section 2) on 16 blocks per pass, the engine's batch.
 *
 * Included after bs_x86.h (its loads, zipped byte order and bitslicing,
 * and ct64_core.h's circuits on 4 x 64-bit lanes); defines
 * BS_NAME(aes_round_body), STACK_WIPE_BODY, for the engine's entry point.
 *
 * As ct64_aegis.c, but cheaper in three places, all outside the
 * bitsliced form:
 *   - ShiftRows moves whole bytes and SubBytes works on each byte alone,
 *     so the two commute: ShiftRows is done first, folded into the
 *     vpshufb that puts the loaded bytes in the zipped order (one table
 *     for both), not by rotations of the 8 bitsliced words;
 *   - the round key is XORed into the bytes after the state leaves the
 *     bitsliced form (8 ymm XORs), not bitsliced per call like the state;
 *   - with it 0x63, the S-box constant the core's circuit leaves out:
 *     MixColumns and ShiftRows map the all-0x63 block to itself.
 * AEGIS-128L's update (8 rounds) fills half a batch, AEGIS-256's (6)
 * three eighths, the X4 variants two batches: a partial batch goes
 * through a zero-padded copy on the stack (the entry point wipes it).
 *
 * Constant time: as the engine (bs_avx2.c's header): logic operations,
 * shifts and byte shuffles by constant tables; branches on n only.
 */

/* zip_tab after ShiftRows: byte i is block byte SR[zip[i]], SR the
 * ShiftRows source index of FIPS-197 5.1.2 (row r, column c takes column
 * c + r: byte 4c + r <- byte 4((c + r) mod 4) + r). */
static const _Alignas(32) uint8_t zip_sr_tab[32] = BYTES16(0, 8, 5, 13, 10, 2,
                                                           15, 7, 4, 12, 9, 1,
                                                           14, 6, 3, 11);

ENGINE_FN void BS_NAME(round16)(uint8_t *state, const uint8_t *rk)
{
    const __m256i z = tab(zip_sr_tab), c63 = _mm256_set1_epi8(0x63);
    bs_word q[8];
    __m256i a[8];

    for (unsigned m = 0; m < 8; m++)
        a[m] = _mm256_shuffle_epi8(loadu(state + 32 * m), z);
    from_pairs(q, a);
    sub_bytes(q);
    mix_columns(q, 0);
    to_pairs(a, q, unzip_tab);
    for (unsigned m = 0; m < 8; m++)
        storeu(
            state + 32 * m,
            _mm256_xor_si256(a[m], _mm256_xor_si256(loadu(rk + 32 * m), c63)));
}

STACK_WIPE_BODY static void BS_NAME(aes_round_body)(uint8_t *state,
                                                    const uint8_t *rk, size_t n)
{
    for (; n >= 16; n -= 16, state += 256, rk += 256)
        BS_NAME(round16)(state, rk);
    if (n > 0) {
        uint8_t s[256], k[256];
        memset(s, 0, sizeof(s));
        memset(k, 0, sizeof(k));
        memcpy(s, state, 16 * n);
        memcpy(k, rk, 16 * n);
        BS_NAME(round16)(s, k);
        memcpy(state, s, 16 * n);
        aesir_wipe(s, sizeof(s));
        aesir_wipe(k, sizeof(k));
    }
}
