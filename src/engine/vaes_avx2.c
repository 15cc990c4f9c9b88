/*
 * vaes_avx2.c -- the VAES-AVX2 engine: AES instructions on 256-bit
 * registers, two blocks per instruction.
 *
 * Technique. VAES (Ice Lake, Zen 3 and later) widens aesenc, aesenclast,
 * aesdec and aesdeclast to ymm registers: one vaesenc ymm runs one round
 * on two independent blocks, each 128-bit lane with the same round key
 * (broadcast from a 16-byte key with vbroadcasti128). On Sapphire Rapids
 * vaesenc ymm issues two per cycle with a latency of 3 cycles, so at
 * least 6 independent ymm vectors must be in flight; the bulk loops keep
 * U = 8 (16 blocks), which with a round key and the counter constants
 * fits the 16 ymm registers. The same rate as 512-bit VAES on this core
 * (4 block-rounds per cycle), without AVX-512. Interleaving after
 * Gueron's "Intel AES New Instructions" white paper and Drucker, Gueron
 * and Krasnov, "Making AES great again: the forthcoming vectorized AES
 * instruction" (ITNG 2018).
 *
 * Fused paths:
 *  - ECB encrypt/decrypt and CBC decryption: 8 ymm per iteration. CBC
 *    decryption takes the chaining block of the first vector of an
 *    iteration from the previous iteration's last ciphertext with one
 *    vperm2i128; the others load it unaligned from in - 16. All loads of
 *    an iteration happen before its stores, so in == out works.
 *  - CFB128 decryption: the same kernel with the loads swapped (the
 *    cipher input is C_(i-1), the XOR into the last round key C_i).
 *  - CTR: the counter block, byte-reversed, is a little-endian 128-bit
 *    integer per lane (low 64 bits in the lower qword); counters are made
 *    with vpaddq and swapped back with vpshufb. A call whose low 64 bits
 *    would wrap is split at the wrap, so inside each part vpaddq on the
 *    low qword is exact (carries across 32 bits are free, across 64 bits
 *    they cost one split). While the counter's last byte does not wrap
 *    within an iteration, the vectors are made from one byte-swapped
 *    block by vpaddq on that byte (one vpshufb per iteration instead of
 *    one per vector). The plaintext is folded into the last round key:
 *    aesenclast(x, k ^ p) = E(ctr) ^ p.
 *  - CBC encryption, CFB128 encryption and OFB are serial; they run on
 *    one xmm chain at the aesenc latency bound, every XOR folded into
 *    aesenclast's key (aes_x86_serial.h, shared with aesni).
 *  - Multi-buffer CBC encryption and CBC-MAC (cbc_enc_many,
 *    cbc_mac_many): up to 16 independent messages, 2 per ymm, each lane
 *    with its own round keys, so that many chains together fill the AES
 *    units (vaes_core.h, and the regrouping below).
 *  - One block (ECB of nblocks == 1: CFB8, CFB1 and the partial last
 *    block of OFB and CFB) runs on xmm, as on vaes-avx512.
 * Tails. After the bulk loop, 1..15 blocks remain; they go in one more
 * pass of ceil(r / 2) vectors (a version of the kernel for each count
 * 1..8), the last of which, for an odd r, is loaded and stored as an xmm
 * (its upper lane computes garbage that is never stored). A 64-byte
 * message is two ymm vectors in flight, not four single blocks. The tail
 * kernels also have their rounds unrolled (nr made a constant), so a
 * short message runs straight-line code.
 * See docs/engines/vaes.md for the measurements behind these choices.
 *
 * Code. What does not depend on the register width is in vaes_core.h,
 * shared with vaes_avx512.c; this file is the ymm layer it is written on.
 *
 * Round keys: nr + 1 keys of 16 bytes at rk + 16 r (FIPS-197 byte order);
 * the decryption schedule is the equivalent inverse cipher's (reversed,
 * aesimc on rounds 1..nr-1). Expansion: aesni_keys.h.
 *
 * Constant time: yes. The AES instructions take data-independent time;
 * branches and addresses depend only on nr, the block count, the counter
 * and (multi-buffer) the message lengths and count (public); no table
 * look-ups. The multi-buffer path copies round keys into a stack table,
 * wiped before it returns.
 *
 * Batch: 16 blocks. Requires VAES, AVX2 and AES-NI (key expansion, the
 * xmm paths), and OS support for ymm state.
 */
#define ENGINE_ISA "vaes,avx2,aes"
#include "engine.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

/* This engine's prefix for the out-of-line functions of vaes_core.h and
 * the headers it includes. */
#define ENGINE_NAME(x) vaes_avx2_##x

/* ---------------------------------------------------------------------
 * The ymm layer of vaes_core.h
 * ------------------------------------------------------------------- */

/* Vectors per bulk iteration. */
#define U 8
/* Blocks per vector. */
#define VW 2

typedef __m256i vec;
/* A tail's last vector: 1 when it holds one block (loaded and stored as
 * an xmm; its upper lane computes garbage that is never stored). */
typedef int vtail;

/* The intrinsics at this width: _mm256_op, _mm256_op_si256. */
#define VI(op) _mm256_##op
#define VSI(op) _mm256_##op##_si256

/* The last vector of nblocks >= 1 blocks holds one when nblocks is odd. */
ENGINE_INLINE vtail v_tail(size_t nblocks)
{
    return (int)(nblocks & 1);
}

ENGINE_INLINE vec v_bcast(__m128i x)
{
    return _mm256_broadcastsi128_si256(x);
}

ENGINE_INLINE vec ld256(const uint8_t *p)
{
    return _mm256_loadu_si256((const vec *)(const void *)p);
}

ENGINE_INLINE void st256(uint8_t *p, vec v)
{
    _mm256_storeu_si256((vec *)(void *)p, v);
}

ENGINE_INLINE __m128i ld128(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ENGINE_INLINE void st128(uint8_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* Partly real: a tail's last vector of one block. */
ENGINE_INLINE int v_partial(int tail, vtail t)
{
    (void)tail; /* t is 0 outside a tail */
    return t;
}

ENGINE_INLINE vec v_load_t(const uint8_t *p, int part, vtail t)
{
    (void)t;
    return part ? _mm256_castsi128_si256(ld128(p)) : ld256(p);
}

ENGINE_INLINE void v_store_t(uint8_t *p, vec v, int part, vtail t)
{
    (void)t;
    if (part)
        st128(p, _mm256_castsi256_si128(v));
    else
        st256(p, v);
}

/* [prev upper lane, cur lower lane]: one vperm2i128. */
ENGINE_INLINE vec v_join(vec prev, vec cur)
{
    return _mm256_permute2x128_si256(prev, cur, 0x21);
}

ENGINE_INLINE vec v_lanes(long long hi, long long lo, long long step)
{
    return _mm256_set_epi64x(hi, lo + step, hi, lo);
}

/* While the counter's last byte does not wrap within an iteration, its
 * vectors are made from one byte-swapped block by vpaddq on that byte. */
#define VAES_CTR_BE 1

/* Two vpxor (no vpternlogd without AVX-512VL). */
ENGINE_INLINE vec v_chain(vec x, vec p, vec k)
{
    return _mm256_xor_si256(x, _mm256_xor_si256(p, k));
}

/*
 * Each slot's 4 blocks are two 32-byte loads; vperm2i128 regroups them
 * so that d_s holds block s of the 2 slots (block by block, 16 messages
 * 4 KiB apart ran 3x slower: see vaes_core.h). 16 ymm registers do not
 * hold the 8 chains and all regrouped blocks: the compiler keeps these on
 * the stack, which costs loads and stores, not AES issue slots.
 */
ENGINE_INLINE void mb_load4(const uint8_t *const *in, size_t off, vec *d0,
                            vec *d1, vec *d2, vec *d3)
{
    const uint8_t *a = in[0] + off, *b = in[1] + off;
    vec a0 = ld256(a), a1 = ld256(a + 32);
    vec b0 = ld256(b), b1 = ld256(b + 32);
    *d0 = _mm256_permute2x128_si256(a0, b0, 0x20);
    *d1 = _mm256_permute2x128_si256(a0, b0, 0x31);
    *d2 = _mm256_permute2x128_si256(a1, b1, 0x20);
    *d3 = _mm256_permute2x128_si256(a1, b1, 0x31);
}

ENGINE_INLINE void mb_store4(uint8_t *const *out, unsigned j0, unsigned n,
                             size_t off, vec d0, vec d1, vec d2, vec d3)
{
    uint8_t *a = out[0] + off;
    st256(a, _mm256_permute2x128_si256(d0, d1, 0x20));
    st256(a + 32, _mm256_permute2x128_si256(d2, d3, 0x20));
    if (j0 + 1 < n) {
        uint8_t *b = out[1] + off;
        st256(b, _mm256_permute2x128_si256(d0, d1, 0x31));
        st256(b + 32, _mm256_permute2x128_si256(d2, d3, 0x31));
    }
}

ENGINE_INLINE vec mb_gather(const uint8_t *const *in, size_t off)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(ld128(in[0] + off)),
                                   ld128(in[1] + off), 1);
}

ENGINE_INLINE void mb_scatter(uint8_t *const *out, unsigned j0, unsigned n,
                              size_t off, vec x)
{
    st128(out[0] + off, _mm256_castsi256_si128(x));
    if (j0 + 1 < n)
        st128(out[1] + off, _mm256_extracti128_si256(x, 1));
}

#define VAES_ENGINE_NAME "vaes-avx2"
#define VAES_DESCRIPTION "VAES on ymm: 2 blocks per instruction, 16 in flight"

/* Fused GCM with ghash-vpclmul-avx2's key: vaes_avx2_gcm.c. */
#include "x86_gcm.h"
#define VAES_GCM_ENC aesir_vaes_avx2_gcm_enc
#define VAES_GCM_DEC aesir_vaes_avx2_gcm_dec
#define VAES_GCM_GHASH "ghash-vpclmul-avx2"
/* OCB3: vaes_avx2_ocb.c. */
#include "ocb_kernels.h"
#define VAES_OCB_ENC aesir_vaes_avx2_ocb_enc
#define VAES_OCB_DEC aesir_vaes_avx2_ocb_dec
#define VAES_OCB_WHOLE aesir_vaes_avx2_ocb_whole

/* GCM-SIV's CTR: vaes_avx2_gcmsiv.c. */
#include "x86_gcmsiv.h"
#define VAES_CTR32LE aesir_vaes_avx2_ctr32le
/* Fused XTS: vaes_avx2_xts.c. */
#include "x86_xts.h"
#define VAES_XTS_ENC aesir_vaes_avx2_xts_enc
#define VAES_XTS_DEC aesir_vaes_avx2_xts_dec

/* AEGIS: vaes_avx2_aegis.c. */
#include "x86_aegis.h"
#define VAES_AES_ROUND aesir_vaes_avx2_aes_round
#define VAES_AEGIS aesir_vaes_avx2_aegis
#define VAES_AEGIS_UPDATE aesir_vaes_avx2_aegis_update

#include "vaes_core.h"

const struct aesir_engine *aesir_engine_vaes_avx2(void)
{
    const uint32_t need = AESIR_CPU_AESNI | AESIR_CPU_VAES | AESIR_CPU_AVX2;
    return (aesir_cpu_features() & need) == need ? &ENGINE_NAME(engine) : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_vaes_avx2(void)
{
    return NULL;
}

#endif
