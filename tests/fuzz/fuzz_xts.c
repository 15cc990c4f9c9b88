/*
 * fuzz_xts.c -- libFuzzer target: XTS (aesir_xts_*) on every engine this
 * CPU can run, against the ref engine's XTS (xts.c's generic path on
 * ref's FIPS-197 block function, one block at a time).
 *
 * Input, in order: an engine (index into the engines this CPU runs), a
 * key size (32, 48 or 64 bytes) and the key (a flag byte can make the
 * two halves equal), the call (tweak, sector number, or consecutive
 * sectors of a fuzzed size), the tweak or sector number, the length (0
 * to MAX_MSG: below 16 too), buffer offsets, in place or not, and the
 * data (the rest of the input, zeros past it). It checks:
 *
 *   - equal halves: AESIR_E_KEY_WEAK, the key left cleared, and every
 *     data call on it AESIR_E_STATE;
 *   - len < 16 (or, for sectors, a size that does not divide len):
 *     AESIR_E_INPUT_LENGTH with nothing written;
 *   - otherwise: the engine's ciphertext equals ref's byte for byte,
 *     decryption gives the data back, in place or not, and the sectors
 *     call equals one sector call per unit; nothing is written past the
 *     output (exact-size heap buffers: AddressSanitizer sees a byte too
 *     far) and, out of place, the input is left alone.
 *
 * Why: XTS joins the engines' fused kernels (batches of 8, 16 and 32
 * blocks, masked tails, a tweak vector stepped per lane) with the
 * ciphertext stealing of xts.c, whose last two blocks overlap in place.
 */
#include "fuzz.h"

#define MAX_MSG 4200

static int enc_call(const aesir_xts_key *k, int call, const uint8_t tw[16],
                    uint64_t sector, size_t ssize, uint8_t *out,
                    const uint8_t *in, size_t len, int dec)
{
    if (call == 0)
        return dec ? aesir_xts_decrypt(k, tw, out, in, len)
                   : aesir_xts_encrypt(k, tw, out, in, len);
    if (call == 1)
        return dec ? aesir_xts_decrypt_sector(k, sector, out, in, len)
                   : aesir_xts_encrypt_sector(k, sector, out, in, len);
    return dec ? aesir_xts_decrypt_sectors(k, sector, ssize, out, in, len)
               : aesir_xts_encrypt_sectors(k, sector, ssize, out, in, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static aesir_xts_key key, ref;
    struct fz f = {data, size};
    const char **engines;
    size_t ne = fz_engines(&engines);
    const char *engine = engines[fz_below(&f, ne)];
    size_t klen = 32 + 16 * fz_below(&f, 3), h, len, ssize = 16;
    uint8_t k[64], tw[16];
    uint64_t sector;
    int call, in_place, same, err, rerr;
    unsigned off_in, off_out;
    uint8_t *in, *out, *want, *back;

    fz_bytes(&f, k, klen);
    h = klen / 2;
    same = fz_u8(&f) == 0xee;
    if (same)
        memcpy(k + h, k, h);
    /* Equal halves also come by chance: a short input reads as zeros
     * (libFuzzer's first input is empty). */
    same = same || memcmp(k, k + h, h) == 0;
    call = (int)fz_below(&f, 3);
    fz_bytes(&f, tw, 16);
    sector = (uint64_t)fz_u32(&f) | (uint64_t)fz_u32(&f) << 32;
    len = fz_below(&f, MAX_MSG + 1);
    if (call == 2)
        ssize = 1 + fz_below(&f, len + 32);
    in_place = fz_u8(&f) & 1;
    off_in = fz_u8(&f) % 16;
    off_out = fz_u8(&f) % 16;
    FZ_TRACE("xts: engine %s, key %zu bytes%s, call %d, len %zu, sector "
             "size %zu, %s\n",
             engine, klen, same ? " (equal halves)" : "", call, len, ssize,
             in_place ? "in place" : "out of place");

    err = aesir_xts_init_ex(&key, k, klen, engine);
    if (same) {
        uint8_t one[32] = {0};
        FUZZ_CHECK_EQ(err, AESIR_E_KEY_WEAK);
        FUZZ_CHECK(fz_all((const uint8_t *)&key, sizeof(key), 0));
        FUZZ_CHECK_EQ(aesir_xts_encrypt(&key, tw, one, one, 32), AESIR_E_STATE);
        return 0;
    }
    FUZZ_CHECK_EQ(err, AESIR_OK);
    FUZZ_CHECK_EQ(aesir_xts_init_ex(&ref, k, klen, "ref"), AESIR_OK);

    in = fz_alloc(len, off_in);
    out = in_place ? in : fz_alloc(len, off_out);
    want = fz_alloc(len, 0);
    back = fz_alloc(len, 0);
    fz_bytes(&f, in, len);
    memcpy(back, in, len); /* the data */

    rerr = enc_call(&ref, call, tw, sector, ssize, want, back, len, 0);
    err = enc_call(&key, call, tw, sector, ssize, out, in, len, 0);
    FUZZ_CHECK_EQ(err, rerr);
    if (err != AESIR_OK) {
        /* refused: nothing written */
        FUZZ_CHECK(err == AESIR_E_INPUT_LENGTH);
        FUZZ_CHECK(len < 16 || call == 2);
        FUZZ_CHECK(memcmp(in, back, len) == 0);
        FUZZ_CHECK(in_place || fz_all(out, len, FZ_CANARY));
    } else {
        FUZZ_CHECK(memcmp(out, want, len) == 0);
        if (!in_place)
            FUZZ_CHECK(memcmp(in, back, len) == 0);
        /* sectors: one sector call per unit */
        if (call == 2)
            for (size_t u = 0; u < len / ssize; u++) {
                uint8_t *one = fz_alloc(ssize, 1);
                uint64_t s = sector + u;
                uint8_t t[16] = {0};
                for (int i = 0; i < 8; i++)
                    t[i] = (uint8_t)(s >> (8 * i));
                t[8] = s < sector; /* the count carried past 2^64 - 1 */
                FUZZ_CHECK_EQ(
                    aesir_xts_encrypt(&key, t, one, back + u * ssize, ssize),
                    AESIR_OK);
                FUZZ_CHECK(memcmp(one, want + u * ssize, ssize) == 0);
                fz_free(one, 1);
            }
        /* and back, in place on out */
        FUZZ_CHECK_EQ(enc_call(&key, call, tw, sector, ssize, out, out, len, 1),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(out, back, len) == 0);
    }
    if (!in_place)
        fz_free(out, off_out);
    fz_free(in, off_in);
    fz_free(want, 0);
    fz_free(back, 0);
    aesir_xts_clear(&key);
    aesir_xts_clear(&ref);
    return 0;
}
