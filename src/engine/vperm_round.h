/*
 * vperm_round.h -- one AES round (AESRound of draft-irtf-cfrg-aegis-aead
 * section 2: MixColumns(ShiftRows(SubBytes(x))) ^ rk, in the AES basis
 * on both sides) by vector permutes, for AEGIS on the vperm-* engines
 * (internal.h, aes_round). Included after vperm_core.h, whose ISA layer
 * (v_shuffle, ...) and S-box pieces it uses; it defines
 * VP_NAME(aes_round_body), STACK_WIPE_BODY, for the engine's entry point.
 *
 * The cipher rounds of vperm_core.h stay in Hamburg's tower basis from
 * one round to the next, with ShiftRows deferred into the MixColumns
 * rotations; AEGIS's state leaves the round function after every round
 * (ANDs and XORs between rows, the message), so here each round starts
 * and ends in the AES basis:
 *
 *   t = L_in(x)                  2 look-ups (basis change to the tower)
 *   io, jo = the inversion       5 look-ups (vperm_core.h, invert)
 *   a = A(1/x)                   2 look-ups (the last round's output
 *                                tables: SubBytes without its 0x63)
 *   a = ShiftRows(a)             1 shuffle (vp_sr[1])
 *   MixColumns: 02 (a + r1) + r1 + r2 + r3, r_k the column's bytes
 *   rotated by k rows            3 shuffles, and 02 times as a GF(2)-
 *                                linear map of each nibble: 2 look-ups
 *   ^ rk ^ 0x63                  (MixColumns and ShiftRows map the
 *                                all-0x63 block to itself)
 *
 * 15 shuffles per block, no table indexed by anything but a nibble of
 * the data through the shuffle instructions, as in the engine itself:
 * constant-time under the same conditions (vperm_ssse3.c's header).
 */

/* 02 x on the low nibble (n < 16: no reduction) and on the high one. */
static _Alignas(16) const uint8_t vp_x2_lo[16] = {
    0x00, 0x02, 0x04, 0x06, 0x08, 0x0a, 0x0c, 0x0e,
    0x10, 0x12, 0x14, 0x16, 0x18, 0x1a, 0x1c, 0x1e};
static _Alignas(16) const uint8_t vp_x2_hi[16] = {
    0x00, 0x20, 0x40, 0x60, 0x80, 0xa0, 0xc0, 0xe0,
    0x1b, 0x3b, 0x5b, 0x7b, 0x9b, 0xbb, 0xdb, 0xfb};
/* Row rotations inside each column: out[r + 4c] = in[(r + k) % 4 + 4c]. */
static _Alignas(16) const uint8_t vp_rot[3][16] = {
    {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12},
    {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13},
    {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14}};

ENGINE_INLINE vec vp_aes_round1(vec x, vec rk)
{
    vec io, jo, a, r1, r2, r3;
    invert(linear(x, vp_in_lo, vp_in_hi), &io, &jo);
    a = output(io, jo, vp_encl_io, vp_encl_jo);
    a = v_shuffle(a, v_table(vp_sr[1]));
    r1 = v_shuffle(a, v_table(vp_rot[0]));
    r2 = v_shuffle(a, v_table(vp_rot[1]));
    r3 = v_shuffle(a, v_table(vp_rot[2]));
    a = v_xor(linear(v_xor(a, r1), vp_x2_lo, vp_x2_hi), v_xor(r1, r2));
    return v_xor(v_xor(a, r3), v_xor(rk, v_splat(0x63)));
}

/* Four blocks per pass: their chains of look-ups interleave. */
STACK_WIPE_BODY ENGINE_FN void
VP_NAME(aes_round_body)(uint8_t *state, const uint8_t *rk, size_t n)
{
    size_t i = 0;
    for (; n - i >= 4; i += 4) {
        const vec x0 =
            vp_aes_round1(v_load(state + 16 * i), v_load(rk + 16 * i));
        const vec x1 = vp_aes_round1(v_load(state + 16 * i + 16),
                                     v_load(rk + 16 * i + 16));
        const vec x2 = vp_aes_round1(v_load(state + 16 * i + 32),
                                     v_load(rk + 16 * i + 32));
        const vec x3 = vp_aes_round1(v_load(state + 16 * i + 48),
                                     v_load(rk + 16 * i + 48));
        v_store(state + 16 * i, x0);
        v_store(state + 16 * i + 16, x1);
        v_store(state + 16 * i + 32, x2);
        v_store(state + 16 * i + 48, x3);
    }
    for (; i < n; i++)
        v_store(state + 16 * i,
                vp_aes_round1(v_load(state + 16 * i), v_load(rk + 16 * i)));
}
