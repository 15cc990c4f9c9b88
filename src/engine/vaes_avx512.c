/*
 * vaes_avx512.c -- the VAES-AVX512 engine: AES instructions on 512-bit
 * registers, four blocks per instruction.
 *
 * Technique. VAES (Ice Lake and later) widens aesenc, aesenclast, aesdec
 * and aesdeclast to ymm and zmm registers: one vaesenc zmm runs one round
 * on four independent blocks, each 128-bit lane with the same round key
 * (here broadcast from a 16-byte key with vbroadcasti32x4). On Sapphire
 * Rapids vaesenc zmm issues one per cycle with a latency of 3 cycles, so
 * at least 3 independent zmm vectors must be in flight to keep the unit
 * busy; the bulk loops keep U = 8 (32 blocks), enough to also cover the
 * loads, stores, counter arithmetic and loop overhead, which go to other
 * ports. This is the interleaving of Gueron's "Intel AES New
 * Instructions" white paper (8 blocks in parallel for aesenc xmm) and of
 * Drucker, Gueron and Krasnov, "Making AES great again: the forthcoming
 * vectorized AES instruction" (ITNG 2018), which sizes the parallelism
 * for VAES.
 *
 * Fused paths:
 *  - ECB encrypt/decrypt and CBC decryption: 12 zmm per iteration with
 *    the round keys in registers (VAES_KREG below), then at most one
 *    pass of 8 and the tail. CBC decryption needs C_{i-1} beside each
 *    block: the first vector of an iteration gets it from the previous
 *    iteration's last ciphertext block with one valignq, the others load
 *    it unaligned from in - 16. All loads of an iteration happen before
 *    its stores, so in == out works.
 *  - CFB128 decryption: the same kernel with the loads swapped (the
 *    cipher input is C_(i-1), the XOR into the last round key C_i).
 *  - CTR: the counter block, byte-reversed, is a little-endian 128-bit
 *    integer in each lane (low 64 bits in the lower qword); counters are
 *    made with vpaddq and swapped back with vpshufb, or, while the last
 *    byte does not wrap within an iteration, added to that byte of one
 *    swapped vector (VAES_CTR_BE, below). A call whose low 64
 *    bits would wrap is split at the wrap, so inside each part vpaddq on
 *    the low qword is exact; carries across 32 bits cost nothing and
 *    carries across 64 bits cost one split. The plaintext is folded into
 *    the last round key (aesenclast(x, k ^ p) = E(ctr) ^ p).
 *  - CBC encryption, CFB128 encryption and OFB are serial; they run on
 *    one xmm chain at the aesenc latency bound: nr aesenc latencies per
 *    block. The XOR with the next plaintext block (and round key 0) is
 *    folded into aesenclast's key, so nothing but AES rounds is on the
 *    chain (aes_x86_serial.h, shared with aesni).
 *  - Multi-buffer CBC encryption and CBC-MAC (cbc_enc_many,
 *    cbc_mac_many): up to 16 independent messages, 4 per zmm, each
 *    128-bit lane with its own round keys, so that many chains together
 *    fill the AES unit (vaes_core.h, and the 4 x 4 transpose below).
 *  - One block (ECB of nblocks == 1, which is how CFB8, CFB1 and the
 *    partial last block of OFB and CFB call the engine) runs on xmm: a
 *    masked zmm load and store around it made OFB 1.7x slower when it
 *    still went block by block.
 * Tails. After the bulk loop, 1..31 blocks remain: they go in one more
 * pass of ceil(r / 4) zmm vectors (a version of the kernel for each count
 * 1..8), the last vector loaded and stored with a byte mask
 * (vmovdqu8 with k-mask, whose masked-off bytes never fault). A 64-byte
 * message is one vector, a 576-byte one a full pass and one vector. The
 * tail kernels also have their rounds unrolled (nr made a constant), so a
 * short message runs straight-line code.
 * See docs/engines/vaes.md for the measurements behind these choices.
 *
 * Code. What does not depend on the register width is in vaes_core.h,
 * shared with vaes_avx2.c; this file is the zmm layer it is written on.
 *
 * Round keys: nr + 1 keys of 16 bytes at rk + 16 r (FIPS-197 byte order,
 * as aesenc wants them); the decryption schedule is the equivalent inverse
 * cipher's (reversed, aesimc on rounds 1..nr-1). Expansion: aesni_keys.h.
 *
 * Constant time: yes. The AES instructions take data-independent time;
 * branches and addresses depend only on nr, the block count, the counter
 * and (multi-buffer) the message lengths and count (public); no table
 * look-ups. The multi-buffer path copies round keys into a stack table,
 * wiped before it returns.
 *
 * Batch: 32 blocks. Requires VAES, AVX512F, AVX512BW (byte masks),
 * AVX512VL and AES-NI (key expansion), and OS support for zmm state.
 */
#define ENGINE_ISA "vaes,avx512f,avx512bw,avx512vl,aes"
#include "engine.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

/* This engine's prefix for the out-of-line functions of vaes_core.h and
 * the headers it includes. */
#define ENGINE_NAME(x) vaes_avx512_##x

/* ---------------------------------------------------------------------
 * The zmm layer of vaes_core.h
 * ------------------------------------------------------------------- */

/* Vectors per bulk iteration. */
#define U 8
/* Blocks per vector. */
#define VW 4

typedef __m512i vec;
/* A tail's last vector: the byte mask of its real blocks. */
typedef unsigned long long vtail;

/* The intrinsics at this width: _mm512_op, _mm512_op_si512. */
#define VI(op) _mm512_##op
#define VSI(op) _mm512_##op##_si512

/* Bytes of the first b blocks of a vector (b = 1..4). */
ENGINE_INLINE vtail lane_mask(size_t b)
{
    return b >= 4 ? ~0ull : (1ull << (16 * b)) - 1;
}

/* The last vector of nblocks >= 1 blocks holds 1..4 of them. */
ENGINE_INLINE vtail v_tail(size_t nblocks)
{
    return lane_mask(nblocks - 4 * ((nblocks - 1) / 4));
}

ENGINE_INLINE vec v_bcast(__m128i x)
{
    return _mm512_broadcast_i32x4(x);
}

/* Partly real: every tail's last vector, even when its mask is whole. */
ENGINE_INLINE int v_partial(int tail, vtail t)
{
    (void)t;
    return tail;
}

/* Masked: vmovdqu8 with a k-mask, whose masked-off bytes never fault. */
ENGINE_INLINE vec v_load_t(const uint8_t *p, int part, vtail t)
{
    return part ? _mm512_maskz_loadu_epi8(t, p) : _mm512_loadu_si512(p);
}

ENGINE_INLINE void v_store_t(uint8_t *p, vec v, int part, vtail t)
{
    if (part)
        _mm512_mask_storeu_epi8(p, t, v);
    else
        _mm512_storeu_si512(p, v);
}

/* [prev lane 3, cur lanes 0..2]: one valignq. */
ENGINE_INLINE vec v_join(vec prev, vec cur)
{
    return _mm512_alignr_epi64(cur, prev, 6);
}

ENGINE_INLINE vec v_lanes(long long hi, long long lo, long long step)
{
    return _mm512_set_epi64(hi, lo + 3 * step, hi, lo + 2 * step, hi, lo + step,
                            hi, lo);
}

/* An iteration's counters from one byte-swapped vector by vpaddq on the
 * last byte when it does not wrap (vaes_core.h ctr_n): one vpshufb per
 * 32 blocks instead of one per vector. Measured on Zen 5 (family 1Ah,
 * aesir-bench vs ipsec-mb in the same run, load ~6): AES-128 CTR 16 KiB
 * 0.974-0.980x -> 1.01-1.02x, 1 MiB 0.95x -> 0.97x; the shuffles share
 * the two pipes that run vaesenc. */
#define VAES_CTR_BE 1

/* The bulk loops of CTR, ECB, CBC and CFB128 decryption (vaes_core.h,
 * bulk_kreg) with the round keys in registers: 15 keys, 12 data vectors
 * and 2 constants or chaining values, 29 of the 32 zmm (gcc 12 and clang
 * 14 keep all of them in registers, no stack frame); the input
 * prefetched 2 KiB ahead into L1. Measured on Zen 5 in one process, TSC
 * cycles per call against the AES bound timed in the same process
 * (docs/engines/vaes.md, "CTR at 1 MiB and at the bound" and "ECB and
 * CBC decryption at the bound"): for CTR the keys in registers and the
 * prefetch took AES-128 16 KiB from 832 to 780-806 TSC cycles; the same
 * loop for ECB and CBC decryption with 12 vectors took AES-128 16 KiB
 * from 95% to 99% of the bound, 1 MiB ECB from 91-92% to 94-95% and CBC
 * decryption from 87-89% to 94%. 8 vectors there were 1-4 points short
 * of 12, and 2-8% slower than the old loop at 576 bytes (one iteration
 * does not repay loading the keys; 12 vectors, 48 blocks, leave a
 * 576-byte call on ecb_n). CTR keeps 8: 12 gained 3.5% at 16 KiB but
 * lost 1-3% at AES-128 1 MiB with separate buffers in steady state
 * (8 calls back to back), the cell that is short of its target. */
#define VAES_KREG 1
#define VAES_KREG_U 12
#define VAES_KREG_U_CTR 8
#define VAES_PF_IN 2048

/* C ^ P ^ K0 in one vpternlogd. */
ENGINE_INLINE vec v_chain(vec x, vec p, vec k)
{
    return _mm512_ternarylogic_epi32(p, x, k, 0x96);
}

/* 4 x 4 transpose of 128-bit blocks: block s of *ai <-> block i of *as
 * (8 vshufi64x2). */
ENGINE_INLINE void mb_transpose(vec *a0, vec *a1, vec *a2, vec *a3)
{
    vec t0 = _mm512_shuffle_i64x2(*a0, *a1, 0x44);
    vec t1 = _mm512_shuffle_i64x2(*a0, *a1, 0xee);
    vec t2 = _mm512_shuffle_i64x2(*a2, *a3, 0x44);
    vec t3 = _mm512_shuffle_i64x2(*a2, *a3, 0xee);
    *a0 = _mm512_shuffle_i64x2(t0, t2, 0x88);
    *a1 = _mm512_shuffle_i64x2(t0, t2, 0xdd);
    *a2 = _mm512_shuffle_i64x2(t1, t3, 0x88);
    *a3 = _mm512_shuffle_i64x2(t1, t3, 0xdd);
}

/* Each slot's 4 blocks are one 64-byte load, transposed so that d_s
 * holds block s of the 4 slots. */
ENGINE_INLINE void mb_load4(const uint8_t *const *in, size_t off, vec *d0,
                            vec *d1, vec *d2, vec *d3)
{
    *d0 = _mm512_loadu_si512(in[0] + off);
    *d1 = _mm512_loadu_si512(in[1] + off);
    *d2 = _mm512_loadu_si512(in[2] + off);
    *d3 = _mm512_loadu_si512(in[3] + off);
    mb_transpose(d0, d1, d2, d3);
}

ENGINE_INLINE void mb_store4(uint8_t *const *out, unsigned j0, unsigned n,
                             size_t off, vec d0, vec d1, vec d2, vec d3)
{
    mb_transpose(&d0, &d1, &d2, &d3);
    _mm512_storeu_si512(out[0] + off, d0);
    if (j0 + 1 < n)
        _mm512_storeu_si512(out[1] + off, d1);
    if (j0 + 2 < n)
        _mm512_storeu_si512(out[2] + off, d2);
    if (j0 + 3 < n)
        _mm512_storeu_si512(out[3] + off, d3);
}

ENGINE_INLINE __m128i ld128(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ENGINE_INLINE void st128(uint8_t *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

ENGINE_INLINE vec mb_gather(const uint8_t *const *in, size_t off)
{
    vec p = _mm512_castsi128_si512(ld128(in[0] + off));
    p = _mm512_inserti32x4(p, ld128(in[1] + off), 1);
    p = _mm512_inserti32x4(p, ld128(in[2] + off), 2);
    return _mm512_inserti32x4(p, ld128(in[3] + off), 3);
}

ENGINE_INLINE void mb_scatter(uint8_t *const *out, unsigned j0, unsigned n,
                              size_t off, vec x)
{
    st128(out[0] + off, _mm512_castsi512_si128(x));
    if (j0 + 1 < n)
        st128(out[1] + off, _mm512_extracti32x4_epi32(x, 1));
    if (j0 + 2 < n)
        st128(out[2] + off, _mm512_extracti32x4_epi32(x, 2));
    if (j0 + 3 < n)
        st128(out[3] + off, _mm512_extracti32x4_epi32(x, 3));
}

/* Multi-buffer: K0 and K1 of the 16 slots in 8 zmm registers. With every
 * key a memory operand, a 16-block step of AES-256 needs 64 zmm loads
 * (60 keys, 4 data), above the 56 vaesenc it feeds at one zmm load per
 * cycle; the 16 data vectors of a group and the 4 chains leave room for
 * two rounds' keys without spills (with three, gcc reshapes the loops and
 * the gain shrinks). Measured (vaes.md): 16 x 4 KiB, AES-256, TSC cycles
 * per step 61-66 -> 58-61. */
#define MB_KREG 2

#define VAES_ENGINE_NAME "vaes-avx512"
#define VAES_DESCRIPTION                                                       \
    "VAES on zmm: 4 blocks per instruction, 32 in flight, masked tails"

/* Fused GCM: vaes_avx512_gcm.c (bulk), vaes_avx512_gcm_msg.c (whole
 * messages past the short kernel), vaes_avx512_gcm_short.c (whole
 * short messages). */
#include "x86_gcm.h"
#define VAES_GCM_ENC aesir_vaes_avx512_gcm_enc
#define VAES_GCM_DEC aesir_vaes_avx512_gcm_dec
#define VAES_GCM_SHORT aesir_vaes_avx512_gcm_short
#define VAES_GCM_GHASH "ghash-vpclmul-avx512"
/* OCB3: vaes_avx512_ocb.c. */
#include "ocb_kernels.h"
#define VAES_OCB_ENC aesir_vaes_avx512_ocb_enc
#define VAES_OCB_DEC aesir_vaes_avx512_ocb_dec
#define VAES_OCB_WHOLE aesir_vaes_avx512_ocb_whole

/* GCM-SIV's CTR: vaes_avx512_gcmsiv.c. */
#include "x86_gcmsiv.h"
#define VAES_CTR32LE aesir_vaes_avx512_ctr32le
#define VAES_GCMSIV_DEC aesir_vaes_avx512_gcmsiv_dec
#define VAES_GCMSIV_KEYS aesir_vaes_avx512_gcmsiv_keys
#define VAES_GCMSIV_TAG aesir_vaes_avx512_gcmsiv_tag
/* Fused XTS: vaes_avx512_xts.c. */
#include "x86_xts.h"
#define VAES_XTS_ENC aesir_vaes_avx512_xts_enc
#define VAES_XTS_DEC aesir_vaes_avx512_xts_dec

/* AEGIS: vaes_avx512_aegis.c. */
#include "x86_aegis.h"
#define VAES_AES_ROUND aesir_vaes_avx512_aes_round
#define VAES_AEGIS aesir_vaes_avx512_aegis
#define VAES_AEGIS_UPDATE aesir_vaes_avx512_aegis_update
#define VAES_AEGIS_FOR aesir_vaes_avx512_aegis_for

#include "vaes_core.h"

const struct aesir_engine *aesir_engine_vaes_avx512(void)
{
    const uint32_t need = AESIR_CPU_AESNI | AESIR_CPU_VAES | AESIR_CPU_AVX512F |
                          AESIR_CPU_AVX512BW | AESIR_CPU_AVX512VL;
    return (aesir_cpu_features() & need) == need ? &ENGINE_NAME(engine) : NULL;
}

#else /* not x86 */

const struct aesir_engine *aesir_engine_vaes_avx512(void)
{
    return NULL;
}

#endif
