/*
 * ghash_vpmsumd.c -- ghash-vpmsumd: GHASH and POLYVAL with the POWER8
 * vpmsumd instruction (Power ISA 2.07, "Vector Polynomial Multiply-Sum
 * Doubleword"), 8 blocks per reduction.
 *
 * Technique. vpmsumd(a, b) is a_hi * b_hi ^ a_lo * b_lo, two 64 x 64
 * carry-less products summed, on the register read as a 128-bit
 * integer. With one operand's other half zeroed it is a single product,
 * and with it swapped it is exactly the middle term of a 128 x 128
 * product; so each key power is kept in three forms and a block costs
 * three vpmsumd and no Karatsuba XORs (the layout IBM's and OpenSSL's
 * POWER8 GHASH code uses):
 *
 *   Kl = [0 : k_lo]   vpmsumd(a, Kl) = a_lo k_lo              (low)
 *   Kh = [k_hi : 0]   vpmsumd(a, Kh) = a_hi k_hi              (high)
 *   Km = [k_lo : k_hi] vpmsumd(a, Km) = a_hi k_lo ^ a_lo k_hi (middle)
 *
 * The rest is the arithmetic of the x86 clmul engine (ghash_x86.h;
 * Gueron and Kounavis, Intel white paper 323640): blocks loaded as the
 * 128-bit big-endian integer of their bytes (vec_xl_be: the reflected
 * order), keys H^j x^-1 (ghash.h: aesir_ghash_key_xinv), reduction by
 * two-step folding with 0xc200000000000000 (vpmsumd against [0 : c]
 * multiplies the low word alone), 8 blocks per reduction with H^8 .. H,
 * a tail of m < 8 with the last m powers. Every operation is on the
 * register as an integer (vpmsumd, AND, XOR, rotation by 8 bytes), none
 * depends on element numbering, so the code is the same on big- and
 * little-endian.
 *
 * Key layout (hk, 384 bytes used), register images of 16 bytes:
 *
 *   hk +   0:  Kl(K8) .. Kl(K1)       K_j = H^j x^-1 (POLYVAL: dot-powers)
 *   hk + 128:  Kh(K8) .. Kh(K1)
 *   hk + 256:  Km(K8) .. Km(K1)
 *
 * POLYVAL (RFC 8452): the same kernel on blocks loaded as little-endian
 * integers, keyed with H and its dot-powers (ghash_x86.h says why).
 *
 * Constant time: YES, given that vpmsumd is (a pipelined instruction;
 * IBM documents no data-dependent timing). No branch or address depends
 * on H or the data.
 *
 * Compilation as src/engine/pwr8.c: gcc 8+ compiles the file in a
 * POWER8 target region on any ppc64 baseline; clang needs the baseline
 * to have POWER8 crypto (-mcpu=power8, the ppc64le default). Tested
 * under qemu-ppc64le -cpu power8 (make cross-test).
 *
 * Batch: 8 blocks.
 */
#include "internal.h"
#include "ghash.h"
#include "../engine/stack_wipe.h"

#if defined(__powerpc64__) &&                                                  \
    ((defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8) ||            \
     (defined(__clang__) && defined(__CRYPTO__) &&                             \
      defined(__POWER8_VECTOR__)))

#if !(defined(__CRYPTO__) && defined(__POWER8_VECTOR__))
#define VPM_REGION 1
#pragma GCC push_options
#pragma GCC target("cpu=power8")
#endif

#include <altivec.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned long long vu64;

#define INLINE static inline __attribute__((always_inline))

#define VPM_N 8

struct vpm_key {
    vu64 kl[VPM_N], kh[VPM_N], km[VPM_N];
};

/* Register images: high 64 bits set; low 64 bits set; the reduction
 * constant in the low 64 bits. */
static const uint8_t vpm_hi_bytes[16] = {0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff};
static const uint8_t vpm_lo_bytes[16] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t vpm_c_bytes[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0xc2};

/* The 16 bytes at p as a big-endian integer in the register. */
INLINE vu64 vpm_load_be(const uint8_t *p)
{
    return (vu64)vec_xl_be(0, (const unsigned char *)p);
}

INLINE vu64 vpm_load(const uint8_t *p, int swap)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (!swap)
        return (vu64)vec_xl(0, (const unsigned char *)p);
#else
    if (!swap)
        return (vu64)vec_perm(
            vec_xl(0, (const unsigned char *)p),
            vec_xl(0, (const unsigned char *)p),
            (vu8){15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
#endif
    return vpm_load_be(p);
}

INLINE void vpm_store(uint8_t *p, vu64 v, int swap)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (!swap) {
        vec_xst((vu8)v, 0, (unsigned char *)p);
        return;
    }
#else
    if (!swap) {
        vec_xst(vec_perm((vu8)v, (vu8)v,
                         (vu8){15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                               1, 0}),
                0, (unsigned char *)p);
        return;
    }
#endif
    vec_xst_be((vu8)v, 0, (unsigned char *)p);
}

INLINE vu64 vpm_pmsum(vu64 a, vu64 b)
{
#if defined(__clang__)
    return (vu64)__builtin_altivec_crypto_vpmsumd(a, b);
#else
    return (vu64)__builtin_crypto_vpmsumd(a, b);
#endif
}

/* The two 64-bit halves exchanged (a rotation by 8 bytes, the same in
 * either element numbering). */
INLINE vu64 vpm_swap(vu64 a)
{
    return vec_sld(a, a, 8);
}

INLINE vu64 vpm_reduce(vu64 lo, vu64 hi)
{
    const vu64 c = vpm_load_be(vpm_c_bytes);
    lo = vec_xor(vpm_swap(lo), vpm_pmsum(lo, c));
    lo = vec_xor(vpm_swap(lo), vpm_pmsum(lo, c));
    return vec_xor(hi, lo);
}

INLINE vu64 vpm_finish(vu64 lo, vu64 mid, vu64 hi)
{
    const vu64 mhi = vpm_load_be(vpm_hi_bytes), mlo = vpm_load_be(vpm_lo_bytes);
    vu64 s = vpm_swap(mid);
    lo = vec_xor(lo, vec_and(s, mhi)); /* mid << 64 */
    hi = vec_xor(hi, vec_and(s, mlo)); /* mid >> 64 */
    return vpm_reduce(lo, hi);
}

INLINE vu64 vpm_mul(vu64 a, vu64 b)
{
    const vu64 mhi = vpm_load_be(vpm_hi_bytes), mlo = vpm_load_be(vpm_lo_bytes);
    return vpm_finish(vpm_pmsum(a, vec_and(b, mlo)), vpm_pmsum(a, vpm_swap(b)),
                      vpm_pmsum(a, vec_and(b, mhi)));
}

INLINE void vpm_setup(void *hk, const uint8_t h[16], int swap)
{
    struct vpm_key *key = hk;
    const vu64 mhi = vpm_load_be(vpm_hi_bytes), mlo = vpm_load_be(vpm_lo_bytes);
    vu64 k1, k;
    if (swap) {
        uint64_t w[2];
        uint8_t b[16];
        aesir_ghash_key_xinv(w, h);
        aesir_store_be64(b, w[0]);
        aesir_store_be64(b + 8, w[1]);
        k1 = vpm_load_be(b);
        aesir_wipe(b, sizeof(b));
    } else {
        k1 = vpm_load(h, 0);
    }
    k = k1;
    for (int j = 1; j <= VPM_N; j++) {
        key->kl[VPM_N - j] = vec_and(k, mlo);
        key->kh[VPM_N - j] = vec_and(k, mhi);
        key->km[VPM_N - j] = vpm_swap(k);
        k = vpm_mul(k, k1);
    }
}

INLINE void vpm_hash(const void *hk, uint8_t y[16], const uint8_t *in,
                     size_t nblocks, int swap)
{
    const struct vpm_key *key = hk;
    vu64 acc = vpm_load(y, swap);
    while (nblocks > 0) {
        size_t n = nblocks < VPM_N ? nblocks : VPM_N, base = VPM_N - n;
        vu64 a = vec_xor(vpm_load(in, swap), acc);
        vu64 lo = vpm_pmsum(a, key->kl[base]);
        vu64 hi = vpm_pmsum(a, key->kh[base]);
        vu64 mid = vpm_pmsum(a, key->km[base]);
        for (size_t i = 1; i < n; i++) {
            a = vpm_load(in + 16 * i, swap);
            lo = vec_xor(lo, vpm_pmsum(a, key->kl[base + i]));
            hi = vec_xor(hi, vpm_pmsum(a, key->kh[base + i]));
            mid = vec_xor(mid, vpm_pmsum(a, key->km[base + i]));
        }
        acc = vpm_finish(lo, mid, hi);
        in += 16 * n;
        nblocks -= n;
    }
    vpm_store(y, acc, swap);
}

static void vpm_init(void *hk, const uint8_t h[16])
{
    vpm_setup(hk, h, 1);
}

STACK_WIPE_BODY static void vpm_ghash_body(const void *hk, uint8_t y[16],
                                           const uint8_t *in, size_t nblocks)
{
    vpm_hash(hk, y, in, nblocks, 1);
}

static void vpm_polyval_init(void *hk, const uint8_t h[16])
{
    vpm_setup(hk, h, 0);
}

STACK_WIPE_BODY static void vpm_polyval_body(const void *hk, uint8_t s[16],
                                             const uint8_t *in, size_t nblocks)
{
    vpm_hash(hk, s, in, nblocks, 0);
}

/* gcc 12 keeps vectors of the loop (hash-key pieces and products) in
 * stack slots (found by tests/test_residue.c run under qemu-ppc64le):
 * the bodies run out of line and their stack is wiped (stack_wipe.h; the
 * frames are under 200 bytes). */
STACK_WIPED_GHASH(vpm_ghash, vpm_ghash_body, 448)
STACK_WIPED_GHASH(vpm_polyval, vpm_polyval_body, 448)

#ifdef VPM_REGION
#pragma GCC pop_options
#endif

static const struct aesir_ghash_engine engine = {
    .name = "ghash-vpmsumd",
    .description = "POWER8 vpmsumd, 8 blocks per reduction",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = VPM_N,
    .init = vpm_init,
    .ghash = vpm_ghash,
    .polyval_init = vpm_polyval_init,
    .polyval = vpm_polyval,
};

const struct aesir_ghash_engine *aesir_ghash_vpmsumd(void)
{
    return (aesir_cpu_features() & AESIR_CPU_POWER8) ? &engine : NULL;
}

#else /* not ppc64, or no compiler support */

const struct aesir_ghash_engine *aesir_ghash_vpmsumd(void)
{
    return NULL;
}

#endif
