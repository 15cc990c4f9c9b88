/*
 * pwr8_ocb.c -- the OCB3 kernels of pwr8 (ocb_enc, ocb_dec; internal.h,
 * aesir_ocb_fn) on ppc64: 8 blocks per batch through vcipher
 * (vncipher), the width of pwr8's bulk ECB.
 *
 * Offsets as in x86_ocb_core.h and armv8_ce_ocb.c: for a batch starting
 * at a multiple of 8, Offset_(i0 + j) = base xor P_j (the key's running
 * sums, found after its L table), the last block's with L_(ntz(i0 + 8))
 * in place of P_8's L_3. The offset before the cipher is XORed with the
 * first round key, the one after it merges with the last
 * (vcipherlast(s, K xor Offset); vncipherlast likewise, pwr8.c: its
 * decryption runs the same schedule backwards, K(nr) first). Blocks
 * before the first multiple of 8 and after the last batch go one at a
 * time.
 *
 * Byte order: the instructions see blocks in register order (pwr8.c);
 * data, offsets, the L and P tables and the checksum are all loaded
 * with vec_xl_be and stored with vec_xst_be, so every XOR is between
 * values in the same order; round keys are register images (vec_ld).
 *
 * CPU: POWER8 vector crypto (the pwr8 accessor checks it); compiled in a
 * target region like pwr8.c. Written under qemu-ppc64le -cpu power8, no
 * speed claims. Constant time: branches and the table index depend on
 * the block count and index only. The entry points wipe the stack their
 * bodies used, in case the compiler spills (pwr8.c on gcc's hoisting of
 * round-key loads).
 */
#include "internal.h"
#include "ocb_kernels.h"

#ifdef AESIR_PWR8_OCB

#include "engine.h"

#if !(defined(__CRYPTO__) && defined(__POWER8_VECTOR__))
#define PWR8_OCB_REGION 1
#pragma GCC push_options
#pragma GCC target("cpu=power8")
#endif

#include <altivec.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned long long vu64;

#if defined(__clang__)
#define OCB_UNROLL
#else
#define OCB_UNROLL _Pragma("GCC unroll 16")
#endif

#define OCB_W 8 /* blocks per batch */

ENGINE_INLINE vu8 ld(const uint8_t *p)
{
    return vec_xl_be(0, (const unsigned char *)p);
}

ENGINE_INLINE void st(uint8_t *p, vu8 x)
{
    vec_xst_be(x, 0, (unsigned char *)p);
}

ENGINE_INLINE vu8 key(const uint8_t *rk, unsigned r)
{
    return vec_ld(0, (const vu8 *)(const void *)rk + r);
}

/* The rounds on n blocks whose input already has the offset and the
 * first key XORed in; the last key is XORed with o[j]. */
ENGINE_INLINE void ocb_rounds(vu8 *x, const vu8 *o, unsigned n,
                              const uint8_t *rk, unsigned nr, const int dec)
{
    for (unsigned i = 1; i < nr; i++) {
        vu8 k = key(rk, dec ? nr - i : i);
        OCB_UNROLL
        for (unsigned j = 0; j < n; j++)
            x[j] = dec ? (vu8)__builtin_crypto_vncipher((vu64)x[j], (vu64)k)
                       : (vu8)__builtin_crypto_vcipher((vu64)x[j], (vu64)k);
    }
    {
        vu8 kl = key(rk, dec ? 0 : nr);
        OCB_UNROLL
        for (unsigned j = 0; j < n; j++) {
            vu8 kj = vec_xor(kl, o[j]);
            x[j] =
                dec ? (vu8)__builtin_crypto_vncipherlast((vu64)x[j], (vu64)kj)
                    : (vu8)__builtin_crypto_vcipherlast((vu64)x[j], (vu64)kj);
        }
    }
}

ENGINE_INLINE void ocb_one(const uint8_t *rk, unsigned nr, const uint8_t *l,
                           uint64_t *index, vu8 *off, vu8 *sum, uint8_t *out,
                           const uint8_t *in, const int dec)
{
    vu8 x, p = ld(in);
    *off = vec_xor(*off, ld(l + 16 * __builtin_ctzll(++*index)));
    x = vec_xor(vec_xor(p, *off), key(rk, dec ? nr : 0));
    ocb_rounds(&x, off, 1, rk, nr, dec);
    st(out, x);
    *sum = vec_xor(*sum, dec ? x : p);
}

static inline __attribute__((always_inline)) size_t
ocb_run(const void *rkp, unsigned nr, const uint8_t *l, uint64_t index,
        uint8_t offset[16], uint8_t checksum[16], uint8_t *out,
        const uint8_t *in, size_t n, const int dec)
{
    const uint8_t *rk = ENGINE_RK(rkp);
    const uint8_t *pt = l + 16 * 36; /* P_1 .. P_8 */
    vu8 off = ld(offset), sum = ld(checksum);
    size_t done = n;

    for (; n > 0 && index % OCB_W != 0; n--, in += 16, out += 16)
        ocb_one(rk, nr, l, &index, &off, &sum, out, in, dec);
    for (; n >= OCB_W; n -= OCB_W, in += 16 * OCB_W, out += 16 * OCB_W) {
        vu8 x[OCB_W], o[OCB_W], k0 = key(rk, dec ? nr : 0);
        index += OCB_W;
        OCB_UNROLL
        for (unsigned j = 0; j + 1 < OCB_W; j++)
            o[j] = vec_xor(off, ld(pt + 16 * j));
        o[OCB_W - 1] = vec_xor(
            vec_xor(off, ld(pt + 16 * (OCB_W - 1))),
            vec_xor(ld(l + 16 * 3), ld(l + 16 * __builtin_ctzll(index))));
        off = o[OCB_W - 1];
        OCB_UNROLL
        for (unsigned j = 0; j < OCB_W; j++) {
            vu8 p = ld(in + 16 * j);
            if (!dec)
                sum = vec_xor(sum, p);
            x[j] = vec_xor(vec_xor(p, o[j]), k0);
        }
        ocb_rounds(x, o, OCB_W, rk, nr, dec);
        OCB_UNROLL
        for (unsigned j = 0; j < OCB_W; j++) {
            st(out + 16 * j, x[j]);
            if (dec)
                sum = vec_xor(sum, x[j]);
        }
    }
    for (; n > 0; n--, in += 16, out += 16)
        ocb_one(rk, nr, l, &index, &off, &sum, out, in, dec);
    st(offset, off);
    st(checksum, sum);
    return done;
}

__attribute__((noinline)) static size_t
pwr8_ocb_enc_body(const void *rk, unsigned nr, const uint8_t *l, uint64_t index,
                  uint8_t offset[16], uint8_t checksum[16], uint8_t *out,
                  const uint8_t *in, size_t n)
{
    return ocb_run(rk, nr, l, index, offset, checksum, out, in, n, 0);
}

__attribute__((noinline)) static size_t
pwr8_ocb_dec_body(const void *rk, unsigned nr, const uint8_t *l, uint64_t index,
                  uint8_t offset[16], uint8_t checksum[16], uint8_t *out,
                  const uint8_t *in, size_t n)
{
    return ocb_run(rk, nr, l, index, offset, checksum, out, in, n, 1);
}

#ifdef PWR8_OCB_REGION
#pragma GCC pop_options
#endif

size_t aesir_pwr8_ocb_enc(const void *rk, unsigned nr, const uint8_t *l,
                          uint64_t index, uint8_t offset[16],
                          uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                          size_t n)
{
    size_t done =
        pwr8_ocb_enc_body(rk, nr, l, index, offset, checksum, out, in, n);
    aesir_wipe_stack(1024);
    return done;
}

size_t aesir_pwr8_ocb_dec(const void *rk, unsigned nr, const uint8_t *l,
                          uint64_t index, uint8_t offset[16],
                          uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                          size_t n)
{
    size_t done =
        pwr8_ocb_dec_body(rk, nr, l, index, offset, checksum, out, in, n);
    aesir_wipe_stack(1024);
    return done;
}

#endif /* AESIR_PWR8_OCB */
