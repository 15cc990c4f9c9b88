/*
 * vperm_ssse3.c -- Hamburg's vector-permute AES on x86 SSSE3: every
 * S-box and every byte move is a pshufb.
 *
 * Technique: M. Hamburg, "Accelerating AES with Vector Permute
 * Instructions", CHES 2009. A byte shuffle with 16 entries is a 4-bit
 * table look-up on 16 bytes at once, whose timing does not depend on the
 * indices. So the S-box is computed in the tower field GF((2^4)^2), where
 * inverting a byte takes nibble inversions and nibble sums only:
 *
 *   x = a t + b tbar (normal basis over GF(16), t^2 + t + z = 0)
 *   i = a, j = b, k = a + b               (the byte holds i | k)
 *   io = 1/(1/i + 1/(z k)) + j,  jo = 1/(1/j + 1/(z k)) + i
 *   1/x = (1/io) w1 + (1/jo) w2           (w1, w2 fixed elements)
 *
 * 1/0 is looked up as an "infinity" byte that pshufb turns into 0 (its
 * top bit is set), which makes the formulas right for every zero that
 * can occur, including AES's 1/0 = 0. The last step, 1/io and 1/jo times
 * w1, w2, then the S-box's affine map, then the basis the next round
 * wants, then 02 for MixColumns, is one table per nibble: "output
 * tables". Everything linear is folded somewhere:
 *  - the state stays in the tower basis between rounds; round keys are
 *    converted to it at key setup (only the input block is converted, by
 *    two look-ups);
 *  - the S-box's constant 0x63 goes into round keys 1..nr (MixColumns
 *    maps a constant column to itself);
 *  - MixColumns is 2a + 3b + c + d = 2a + rot1(a) + rot1(2a + rot1(a)) +
 *    rot3(a): two tables give a and 2a, three pshufbs rotate;
 *  - ShiftRows is never done: the state after round r is kept permuted
 *    by ShiftRows^r, so the rotations are conjugated (a different index
 *    vector for r mod 4), round keys are stored permuted the same way,
 *    and one pshufb at the end puts the bytes in order.
 * Decryption is the equivalent inverse cipher (FIPS-197 5.3.5); its state
 * is kept in the basis L_in A^-1 so that the inverse affine map comes
 * before the inversion, and its output tables give 09, 0b, 0d and 0e
 * times the result, combined by InvMixColumns in Horner form.
 * tools/gen_vperm_tables.py derives every table (src/engine/vperm_tables.h,
 * shared with the other vperm engines) and checks the construction by
 * simulating the whole cipher; docs/engines/vperm.md has the details.
 *
 * One encryption round, per block (12 pshufb, 1 shift):
 *
 *     s (tower basis, permuted)
 *     |-- & 0f --> k -- invz --> 1/(zk) -.
 *     |-- >>4 &0f -> i -- inv --> 1/i -- + -- inv --> + j --> io
 *     `-- i ^ k --> j -- inv --> 1/j -- + -- inv --> + i --> jo
 *                                    (1/(zk) goes into both sums)
 *     a  = enc1_io[io] ^ enc1_jo[jo]          (S-box, tower basis)
 *     a2 = enc2_io[io] ^ enc2_jo[jo]          (02 times it)
 *     t  = a2 ^ fwd[r](a)
 *     s' = t ^ fwd[r](t) ^ bwd[r](a) ^ rk[r]  (MixColumns + key)
 *
 * Code layout for porting: the cipher is written with six helpers
 * (v_table, v_shuffle, v_xor, v_and, v_shr4, v_splat) plus loads and
 * stores; a NEON, AltiVec or wasm engine replaces that block and keeps
 * the rest (and the same tables).
 *
 * Constant time: YES, on CPUs where pshufb's timing does not depend on
 * the index values (we know of no x86 where it does: on recent cores it
 * is one single-cycle uop), and given that the compiler emits no
 * branches for the C here (it has none on data). No branch and no memory
 * address depends on key or data, in the cipher or in the key schedule,
 * whose SubWord uses the same shuffle S-box. Loop counts depend on nr
 * and nblocks only. The CTR path chooses how to build counters from the
 * counter value (public, like any IV); the counter is never an index.
 *
 * Round keys: nr + 1 16-byte vectors per direction (at most 240 bytes of
 * the rk area), each in the byte order the state has where it is added:
 * after encryption round r, byte p of the state sits at sigma^r(p),
 * sigma being ShiftRows' byte selection; after decryption round r, at
 * sigma^-r(p). Encryption: L_in(K_0); L_in(K_r ^ 63) for 0 < r < nr;
 * K_nr ^ 63. Decryption: L_d(K_nr ^ 63); L_d(InvMixColumns(K_{nr-r}) ^
 * 63) for 0 < r < nr; K_0.
 *
 * Batch: 4 blocks interleaved in ECB, CTR and CBC decryption (the 12
 * look-ups of a round form a dependent chain; four independent chains
 * keep the shuffle ports busy); 2 and 1 for the tail. CBC encryption is
 * serial, one block at a time.
 */
#define ENGINE_ISA "ssse3"
#include "engine.h"

#if defined(__x86_64__) || defined(__i386__)

#define VP_NAME(x) vperm_ssse3_##x

#include "vperm_x86.h"
#include "vperm_core.h"

void aesir_vperm_ssse3_aes_round(uint8_t *state, const uint8_t *rk, size_t n);

static const struct aesir_engine engine = {
    .name = "vperm-ssse3",
    .description = "vector-permute AES (Hamburg), GF((2^4)^2) S-box by "
                   "SSSE3 pshufb, 4 blocks interleaved",
    .flags = ENGINE_CT,
    .batch = 4,
    .setkey_enc = vperm_ssse3_setkey_enc,
    .setkey_dec = vperm_ssse3_setkey_dec,
    .encrypt = vperm_ssse3_encrypt,
    .decrypt = vperm_ssse3_decrypt,
    .ctr = vperm_ssse3_ctr,
    .cbc_enc = vperm_ssse3_cbc_enc,
    .cbc_dec = vperm_ssse3_cbc_dec,
    .aes_round = aesir_vperm_ssse3_aes_round, /* vperm_ssse3_aegis.c */
};

const struct aesir_engine *aesir_engine_vperm_ssse3(void)
{
    return (aesir_cpu_features() & AESIR_CPU_SSSE3) ? &engine : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_vperm_ssse3(void)
{
    return NULL;
}

#endif
