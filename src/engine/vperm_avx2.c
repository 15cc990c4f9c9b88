/*
 * vperm_avx2.c -- Hamburg's vector-permute AES on 256-bit AVX2 registers:
 * two blocks per register, several registers interleaved.
 *
 * Technique: M. Hamburg, "Accelerating AES with Vector Permute
 * Instructions", CHES 2009 -- the S-box computed in GF((2^4)^2) with
 * 16-entry table look-ups done by byte shuffles; the construction, the
 * tables and the folding of the linear layers are vperm_ssse3.c's and
 * docs/engines/vperm.md's. AVX2's vpshufb shuffles each 128-bit lane on
 * its own, with the lane's own 16 bytes as the table, so the very same
 * 16-byte tables, broadcast to both lanes (vbroadcasti128), give one
 * look-up for two blocks; every index vector (the MixColumns rotations,
 * ShiftRows) stays within a block, i.e. within a lane. Nothing crosses
 * lanes except in CBC decryption, where the chaining blocks are loaded
 * unaligned from in - 16.
 *
 *   ymm:   255              128 127                0
 *         +-------------------+-------------------+
 *         | block 2m+1        | block 2m          |   state, tower basis
 *         +-------------------+-------------------+
 *         | table (16 bytes)  | the same table    |   vbroadcasti128
 *         +-------------------+-------------------+
 *
 * Round keys: vperm_core.h's layout, unchanged (nr + 1 vectors of 16
 * bytes, in the tower basis and ShiftRows-permuted, see vperm_ssse3.c),
 * so key setup is vperm_core.h's, compiled here for AVX2; each round key
 * is broadcast to both lanes where it is used.
 *
 * Batch: 8 blocks (4 ymm) interleaved in ECB, CTR and CBC decryption:
 * a round is about 27 vector operations on a dependency chain of ~19
 * cycles, so 4 independent registers are needed to keep the shuffle
 * units busy; 4, 2 and 1 blocks for the tail (the last odd block on xmm,
 * by vperm_core.h's code). CBC encryption is serial, one block at a
 * time, on xmm with VEX encoding by the latency-optimised path of
 * vperm_x86_cbc.h.
 *
 * Constant time: YES, under the conditions of vperm_ssse3.c: vpshufb's
 * timing must not depend on the index values (it is one fixed-latency
 * uop on the x86 cores we know of), and the compiler must not add
 * branches (the C has none on data). No branch and no memory address
 * depends on key or data; loop counts depend on nr and the block count,
 * the CTR fast path on the (public) counter value. Checked under
 * valgrind by tests/ct_check (valgrind 3.19 executes AVX2).
 */
#define ENGINE_ISA "avx2"
#include "engine.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define VP_NAME(x) vperm_avx2_##x

/* The 128-bit ISA layer for vperm_core.h (key setup, the single-block
 * tail) is vperm_ssse3.c's; compiled for AVX2 it is VEX-encoded. */
#include "vperm_x86.h"

/* Of vperm_core.h this engine uses the key setup and the single-block
 * functions, not the 128-bit bulk paths. */
#define VP_CORE_BULK 0
#include "vperm_core.h"

#include "vperm_x86_cbc.h"

/* ---------------------------------------------------------------------
 * The cipher on ymm: vperm_core.h's enc_blocks / dec_blocks, two blocks
 * per register.
 * ------------------------------------------------------------------- */

typedef __m256i yvec;

/* A 16-byte table (or round key) in both lanes. */
ENGINE_INLINE yvec y_bcast(const void *t)
{
    return _mm256_broadcastsi128_si256(_mm_load_si128((const vec *)t));
}

ENGINE_INLINE yvec y_shuf(yvec tab, yvec idx)
{
    return _mm256_shuffle_epi8(tab, idx);
}

ENGINE_INLINE yvec y_xor(yvec a, yvec b)
{
    return _mm256_xor_si256(a, b);
}

ENGINE_INLINE yvec y_lo(yvec x)
{
    return _mm256_and_si256(x, _mm256_set1_epi8(0x0f));
}

ENGINE_INLINE yvec y_hi(yvec x)
{
    return _mm256_and_si256(_mm256_srli_epi16(x, 4), _mm256_set1_epi8(0x0f));
}

ENGINE_INLINE yvec y_linear(yvec x, const uint8_t lo[16], const uint8_t hi[16])
{
    return y_xor(y_shuf(y_bcast(lo), y_lo(x)), y_shuf(y_bcast(hi), y_hi(x)));
}

ENGINE_INLINE void y_invert(yvec x, yvec *io, yvec *jo)
{
    const yvec inv = y_bcast(vp_inv);
    const yvec k = y_lo(x), i = y_hi(x), j = y_xor(i, k);
    const yvec zk = y_shuf(y_bcast(vp_invz), k);

    *io = y_xor(y_shuf(inv, y_xor(y_shuf(inv, i), zk)), j);
    *jo = y_xor(y_shuf(inv, y_xor(y_shuf(inv, j), zk)), i);
}

ENGINE_INLINE yvec y_output(yvec io, yvec jo, const uint8_t tio[16],
                            const uint8_t tjo[16])
{
    return y_xor(y_shuf(y_bcast(tio), io), y_shuf(y_bcast(tjo), jo));
}

ENGINE_INLINE void y_enc(const vec *rk, unsigned nr, yvec *s, unsigned nb)
{
    for (unsigned b = 0; b < nb; b++)
        s[b] = y_xor(y_linear(s[b], vp_in_lo, vp_in_hi), y_bcast(&rk[0]));
    for (unsigned r = 1; r < nr; r++) {
        const yvec fwd = y_bcast(vp_fwd[r & 3]);
        const yvec bwd = y_bcast(vp_bwd[r & 3]);
        const yvec k = y_bcast(&rk[r]);
        for (unsigned b = 0; b < nb; b++) {
            yvec io, jo, a, a2, t;
            y_invert(s[b], &io, &jo);
            a = y_output(io, jo, vp_enc1_io, vp_enc1_jo);
            a2 = y_output(io, jo, vp_enc2_io, vp_enc2_jo);
            t = y_xor(a2, y_shuf(a, fwd));
            s[b] = y_xor(y_xor(t, y_shuf(t, fwd)), y_xor(y_shuf(a, bwd), k));
        }
    }
    for (unsigned b = 0; b < nb; b++) {
        yvec io, jo;
        y_invert(s[b], &io, &jo);
        s[b] = y_shuf(
            y_xor(y_output(io, jo, vp_encl_io, vp_encl_jo), y_bcast(&rk[nr])),
            y_bcast(vp_sr[nr & 3]));
    }
}

ENGINE_INLINE void y_dec(const vec *rk, unsigned nr, yvec *s, unsigned nb)
{
    for (unsigned b = 0; b < nb; b++)
        s[b] = y_xor(y_linear(s[b], vp_din_lo, vp_din_hi), y_bcast(&rk[0]));
    for (unsigned r = 1; r < nr; r++) {
        const yvec rot = y_bcast(vp_fwd[(0u - r) & 3]);
        const yvec k = y_bcast(&rk[r]);
        for (unsigned b = 0; b < nb; b++) {
            yvec io, jo, acc;
            y_invert(s[b], &io, &jo);
            acc = y_output(io, jo, vp_dec9_io, vp_dec9_jo);
            acc = y_xor(y_shuf(acc, rot),
                        y_output(io, jo, vp_dec13_io, vp_dec13_jo));
            acc = y_xor(y_shuf(acc, rot),
                        y_output(io, jo, vp_dec11_io, vp_dec11_jo));
            acc = y_xor(y_shuf(acc, rot),
                        y_xor(y_output(io, jo, vp_dec14_io, vp_dec14_jo), k));
            s[b] = acc;
        }
    }
    for (unsigned b = 0; b < nb; b++) {
        yvec io, jo;
        y_invert(s[b], &io, &jo);
        s[b] = y_shuf(
            y_xor(y_output(io, jo, vp_decl_io, vp_decl_jo), y_bcast(&rk[nr])),
            y_bcast(vp_sr[(0u - nr) & 3]));
    }
}

/* Out of line for 4, 2 and 1 registers (8, 4, 2 blocks); the state is
 * copied to locals so that it stays in registers. */
#define Y_GROUP_FN(name, blocks, nb)                                           \
    ENGINE_FN void name(const vec *rk, unsigned nr, yvec *s)                   \
    {                                                                          \
        yvec x[nb];                                                            \
        for (unsigned b = 0; b < nb; b++)                                      \
            x[b] = s[b];                                                       \
        blocks(rk, nr, x, nb);                                                 \
        for (unsigned b = 0; b < nb; b++)                                      \
            s[b] = x[b];                                                       \
    }

Y_GROUP_FN(vperm_avx2_y_enc4, y_enc, 4)
Y_GROUP_FN(vperm_avx2_y_enc2, y_enc, 2)
Y_GROUP_FN(vperm_avx2_y_enc1, y_enc, 1)
Y_GROUP_FN(vperm_avx2_y_dec4, y_dec, 4)
Y_GROUP_FN(vperm_avx2_y_dec2, y_dec, 2)
Y_GROUP_FN(vperm_avx2_y_dec1, y_dec, 1)

typedef void (*y_group_fn)(const vec *rk, unsigned nr, yvec *s);

ENGINE_INLINE yvec y_load(const uint8_t *p)
{
    return _mm256_loadu_si256((const yvec *)(const void *)p);
}

ENGINE_INLINE void y_store(uint8_t *p, yvec v)
{
    _mm256_storeu_si256((yvec *)(void *)p, v);
}

/* ---------------------------------------------------------------------
 * ECB. Groups load all their input before they store (in == out).
 * ------------------------------------------------------------------- */

ENGINE_INLINE void y_ecb_group(const vec *rk, unsigned nr, uint8_t *out,
                               const uint8_t *in, unsigned nb, y_group_fn f)
{
    yvec s[4];
    for (unsigned b = 0; b < nb; b++)
        s[b] = y_load(in + 32 * b);
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        y_store(out + 32 * b, s[b]);
}

ENGINE_INLINE void y_ecb(const vec *rk, unsigned nr, uint8_t *out,
                         const uint8_t *in, size_t n, y_group_fn f4,
                         y_group_fn f2, y_group_fn f1, group_fn x1)
{
    for (; n >= 8; n -= 8, in += 128, out += 128)
        y_ecb_group(rk, nr, out, in, 4, f4);
    if (n >= 4) {
        y_ecb_group(rk, nr, out, in, 2, f2);
        n -= 4, in += 64, out += 64;
    }
    if (n >= 2) {
        y_ecb_group(rk, nr, out, in, 1, f1);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1) {
        vec s = v_load(in);
        x1(rk, nr, &s);
        v_store(out, s);
    }
}

STACK_WIPE_BODY ENGINE_FN void
vperm_avx2_encrypt_body(const void *rk, unsigned nr, uint8_t *out,
                        const uint8_t *in, size_t nblocks)
{
    y_ecb(rk, nr, out, in, nblocks, vperm_avx2_y_enc4, vperm_avx2_y_enc2,
          vperm_avx2_y_enc1, vperm_avx2_enc1);
}

STACK_WIPE_BODY ENGINE_FN void
vperm_avx2_decrypt_body(const void *rk, unsigned nr, uint8_t *out,
                        const uint8_t *in, size_t nblocks)
{
    y_ecb(rk, nr, out, in, nblocks, vperm_avx2_y_dec4, vperm_avx2_y_dec2,
          vperm_avx2_y_dec1, vperm_avx2_dec1);
}

/* ---------------------------------------------------------------------
 * CTR. While the low 32 bits of the counter do not wrap within the call
 * (a public property of the counter), each register holds two counter
 * blocks with their last word byte-reversed, stepped by vpaddd and put
 * back in byte order with one vpshufb; otherwise the blocks are made one
 * by one with a full 128-bit increment.
 * ------------------------------------------------------------------- */

/* Byte order of a counter block with its last 32-bit word reversed
 * (an involution: the same vector converts both ways). */
static _Alignas(32) const uint8_t ctr_swap32[32] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12,
};

ENGINE_INLINE yvec y_counters_slow(uint64_t *hi, uint64_t *lo)
{
    vec c0 = v_counter(*hi, *lo), c1;
    *lo += 1;
    *hi += *lo == 0;
    c1 = v_counter(*hi, *lo);
    *lo += 1;
    *hi += *lo == 0;
    return _mm256_inserti128_si256(_mm256_castsi128_si256(c0), c1, 1);
}

ENGINE_INLINE void y_ctr_group(const vec *rk, unsigned nr, yvec *ctr, int fast,
                               uint64_t *hi, uint64_t *lo, uint8_t *out,
                               const uint8_t *in, yvec *s, unsigned nb,
                               y_group_fn f)
{
    const yvec swap = _mm256_load_si256((const yvec *)(const void *)ctr_swap32);
    const yvec two = _mm256_set_epi32(2, 0, 0, 0, 2, 0, 0, 0);

    for (unsigned b = 0; b < nb; b++) {
        if (fast) {
            s[b] = y_shuf(*ctr, swap);
            *ctr = _mm256_add_epi32(*ctr, two);
        } else {
            s[b] = y_counters_slow(hi, lo);
        }
    }
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        y_store(out + 32 * b, y_xor(y_load(in + 32 * b), s[b]));
}

STACK_WIPE_BODY ENGINE_FN void
vperm_avx2_ctr_body(const void *rkv, unsigned nr, uint8_t ctr[16], uint8_t *out,
                    const uint8_t *in, size_t nblocks)
{
    const vec *rk = rkv;
    uint64_t hi = aesir_load_be64(ctr), lo = aesir_load_be64(ctr + 8);
    /* Public: whether the low word can carry during this call. */
    const int fast = (uint64_t)(uint32_t)lo + nblocks <= 0x100000000ull;
    const yvec swap = _mm256_load_si256((const yvec *)(const void *)ctr_swap32);
    size_t n = nblocks;
    yvec s[4], c = _mm256_add_epi32(
                   y_shuf(_mm256_broadcastsi128_si256(v_load(ctr)), swap),
                   _mm256_set_epi32(1, 0, 0, 0, 0, 0, 0, 0));

    /* c: lane 0 = counter, lane 1 = counter + 1, both with the last
     * word byte-reversed (no carry out of it in the fast case). */
    for (; n >= 8; n -= 8, in += 128, out += 128)
        y_ctr_group(rk, nr, &c, fast, &hi, &lo, out, in, s, 4,
                    vperm_avx2_y_enc4);
    if (n >= 4) {
        y_ctr_group(rk, nr, &c, fast, &hi, &lo, out, in, s, 2,
                    vperm_avx2_y_enc2);
        n -= 4, in += 64, out += 64;
    }
    if (n >= 2) {
        y_ctr_group(rk, nr, &c, fast, &hi, &lo, out, in, s, 1,
                    vperm_avx2_y_enc1);
        n -= 2, in += 32, out += 32;
    }
    if (fast) {
        /* The vector counter has moved; the scalar one catches up. */
        const size_t done = nblocks - n;
        lo += done;
        hi += lo < done;
    }
    if (n == 1) {
        vec s = v_counter(hi, lo);
        lo += 1;
        hi += lo == 0;
        vperm_avx2_enc1(rk, nr, &s);
        v_store(out, v_xor(v_load(in), s));
        aesir_wipe(&s, sizeof(s));
    }
    aesir_store_be64(ctr, hi);
    aesir_store_be64(ctr + 8, lo);
    aesir_wipe(s, sizeof(s)); /* keystream */
}

/* ---------------------------------------------------------------------
 * CBC decryption: register b of a group holds blocks 2b, 2b+1 and is
 * XORed after decryption with blocks 2b-1, 2b: an unaligned load from
 * in + 32b - 16, except for the group's first register, whose low lane
 * is the previous ciphertext block (the IV at first).
 * ------------------------------------------------------------------- */

ENGINE_INLINE void y_cbc_dec_group(const vec *rk, unsigned nr, vec *prev,
                                   uint8_t *out, const uint8_t *in, yvec *s,
                                   unsigned nb, y_group_fn f)
{
    yvec c[4];

    c[0] =
        _mm256_inserti128_si256(_mm256_castsi128_si256(*prev), v_load(in), 1);
    for (unsigned b = 1; b < nb; b++)
        c[b] = y_load(in + 32 * b - 16);
    for (unsigned b = 0; b < nb; b++)
        s[b] = y_load(in + 32 * b);
    *prev = v_load(in + 32 * nb - 16);
    f(rk, nr, s);
    for (unsigned b = 0; b < nb; b++)
        y_store(out + 32 * b, y_xor(s[b], c[b]));
}

STACK_WIPE_BODY ENGINE_FN void
vperm_avx2_cbc_dec_body(const void *rkv, unsigned nr, uint8_t iv[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vec *rk = rkv;
    vec prev = v_load(iv);
    yvec s[4];
    size_t n = nblocks;

    for (; n >= 8; n -= 8, in += 128, out += 128)
        y_cbc_dec_group(rk, nr, &prev, out, in, s, 4, vperm_avx2_y_dec4);
    if (n >= 4) {
        y_cbc_dec_group(rk, nr, &prev, out, in, s, 2, vperm_avx2_y_dec2);
        n -= 4, in += 64, out += 64;
    }
    if (n >= 2) {
        y_cbc_dec_group(rk, nr, &prev, out, in, s, 1, vperm_avx2_y_dec1);
        n -= 2, in += 32, out += 32;
    }
    if (n == 1) {
        vec c = v_load(in), x = c;
        vperm_avx2_dec1(rk, nr, &x);
        v_store(out, v_xor(x, prev));
        prev = c;
        aesir_wipe(&x, sizeof(x));
    }
    v_store(iv, prev);
    aesir_wipe(s, sizeof(s)); /* decrypted blocks before the XOR */
}

/* The entry points wipe the stack their bodies used, as vperm_core.h's
 * do (stack_wipe.h); four ymm in flight spill like four xmm. The bodies
 * reach 784 bytes deep (CBC decryption), the serial CBC encryption 40. */
#define VPY_STACK 1024
#define VPY_SERIAL_STACK 320
STACK_WIPED_BLOCKS(vperm_avx2_encrypt, vperm_avx2_encrypt_body, VPY_STACK)
STACK_WIPED_BLOCKS(vperm_avx2_decrypt, vperm_avx2_decrypt_body, VPY_STACK)
STACK_WIPED_CHAIN(vperm_avx2_ctr, vperm_avx2_ctr_body, VPY_STACK)
STACK_WIPED_CHAIN(vperm_avx2_cbc_dec, vperm_avx2_cbc_dec_body, VPY_STACK)
STACK_WIPED_CHAIN(vperm_avx2_cbc_enc, vperm_avx2_cbc_enc_serial,
                  VPY_SERIAL_STACK)

void aesir_vperm_avx2_aes_round(uint8_t *state, const uint8_t *rk, size_t n);

static const struct aesir_engine engine = {
    .name = "vperm-avx2",
    .description = "vector-permute AES (Hamburg), GF((2^4)^2) S-box by "
                   "AVX2 vpshufb, 2 blocks per ymm, 8 blocks interleaved",
    .flags = ENGINE_CT,
    .batch = 8,
    .setkey_enc = vperm_avx2_setkey_enc,
    .setkey_dec = vperm_avx2_setkey_dec,
    .encrypt = vperm_avx2_encrypt,
    .decrypt = vperm_avx2_decrypt,
    .ctr = vperm_avx2_ctr,
    .cbc_enc = vperm_avx2_cbc_enc,
    .cbc_dec = vperm_avx2_cbc_dec,
    .aes_round = aesir_vperm_avx2_aes_round, /* vperm_avx2_aegis.c */
};

/* AVX2 implies SSSE3 on every CPU; both are asked for so that masking
 * either (AESIR_CPU_DISABLE) masks this engine. */
const struct aesir_engine *aesir_engine_vperm_avx2(void)
{
    const uint32_t need = AESIR_CPU_SSSE3 | AESIR_CPU_AVX | AESIR_CPU_AVX2;
    return (aesir_cpu_features() & need) == need ? &engine : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_vperm_avx2(void)
{
    return NULL;
}

#endif
