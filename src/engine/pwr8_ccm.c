/*
 * pwr8_ccm.c -- the fused CCM kernels of pwr8 (ccm_enc, ccm_dec;
 * internal.h, aesir_ccm_fn): CCM's CTR and its CBC-MAC chain in one
 * pass, the MAC block and a counter block in the same vcipher rounds, for
 * the reasons of the x86 kernels (aesni_ccm.c): the CBC-MAC of SP 800-38C
 * is serial, and the counter block fills the issue slots its latency
 * leaves empty.
 *
 * The chain is that of pwr8_cbc_enc: vcipherlast XORs the last round key,
 * so the next block's XOR and round key 0 fold into it,
 * vcipherlast(s, K(nr) ^ K0 ^ P_(i+1)), and each block costs nr vcipher
 * latencies. Decryption runs the counter two blocks ahead (aesni_ccm.c).
 *
 * Byte order and counter: blocks are loaded into register order
 * (vec_xl_be, pwr8.c), where the block is a big-endian 128-bit integer;
 * CCM's counter is its low q <= 8 bytes and never wraps (ccm.c), so a
 * 128-bit add steps it. Round keys are the engine's register images
 * (pwr8.c), all nr + 1 in registers.
 *
 * Constant time: yes, given that vcipher is; branches depend on nr and
 * the block count only. Tested under qemu-ppc64le (make cross-test); no
 * speed is claimed.
 */
#include "engine.h"
#include "ccm_kernels.h"

#ifdef AESIR_PWR8_CCM

#if !(defined(__CRYPTO__) && defined(__POWER8_VECTOR__))
#define PWR8_REGION 1
#pragma GCC push_options
#pragma GCC target("cpu=power8")
#endif

#include <altivec.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned long long vu64;
typedef __vector unsigned __int128 vu128;

#if defined(__clang__)
#define UNROLLED
#else
#define UNROLLED _Pragma("GCC unroll 16")
#endif

ENGINE_INLINE vu8 enc(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vcipher((vu64)s, (vu64)k);
}

ENGINE_INLINE vu8 enclast(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vcipherlast((vu64)s, (vu64)k);
}

ENGINE_INLINE vu8 load(const uint8_t *p)
{
    return vec_xl_be(0, (const unsigned char *)p);
}

ENGINE_INLINE void store(uint8_t *p, vu8 x)
{
    vec_xst_be(x, 0, (unsigned char *)p);
}

/* Rounds 1 .. nr-1 on a and b. */
#define P8_ROUNDS2(a, b)                                                       \
    do {                                                                       \
        UNROLLED                                                               \
        for (unsigned r_ = 1; r_ < nr; r_++) {                                 \
            a = enc(a, k[r_]);                                                 \
            b = enc(b, k[r_]);                                                 \
        }                                                                      \
    } while (0)

#define P8_ROUNDS1(a)                                                          \
    do {                                                                       \
        UNROLLED                                                               \
        for (unsigned r_ = 1; r_ < nr; r_++)                                   \
            a = enc(a, k[r_]);                                                 \
    } while (0)

ENGINE_INLINE void ccm_enc_nr(const vu8 *rk, const unsigned nr, uint8_t ctr[16],
                              uint8_t mac[16], uint8_t *out, const uint8_t *in,
                              size_t n)
{
    const vu8 zero = vec_splats((unsigned char)0);
    vu8 k[15], kf, x, p;
    vu128 c = (vu128)load(ctr);

    UNROLLED
    for (unsigned r = 0; r <= nr; r++)
        k[r] = vec_ld(0, rk + r);
    kf = vec_xor(k[nr], k[0]);
    p = load(in);
    x = vec_xor(vec_xor(load(mac), p), k[0]);
    for (size_t i = 0; i < n; i++) {
        vu8 y = vec_xor((vu8)c, k[0]), pn;
        c = vec_add(c, (vu128){1});
        P8_ROUNDS2(x, y);
        pn = i + 1 < n ? load(in + 16 * (i + 1)) : zero;
        x = enclast(x, vec_xor(kf, pn));
        y = enclast(y, vec_xor(k[nr], p));
        store(out + 16 * i, y);
        p = pn;
    }
    store(mac, vec_xor(x, k[0]));
    store(ctr, (vu8)c);
}

ENGINE_INLINE void ccm_dec_nr(const vu8 *rk, const unsigned nr, uint8_t ctr[16],
                              uint8_t mac[16], uint8_t *out, const uint8_t *in,
                              size_t n)
{
    const vu8 zero = vec_splats((unsigned char)0);
    const vu128 c0 = (vu128)load(ctr);
    vu8 k[15], kf, x, y, p0, pn = zero;
    vu128 c = c0;

    UNROLLED
    for (unsigned r = 0; r <= nr; r++)
        k[r] = vec_ld(0, rk + r);
    kf = vec_xor(k[nr], k[0]);
    if (n == 1) {
        p0 = vec_xor((vu8)c, k[0]);
        P8_ROUNDS1(p0);
        p0 = enclast(p0, vec_xor(k[nr], load(in)));
    } else {
        /* the keystream of blocks 0 and 1 together: P_0, and P_1 ahead */
        p0 = vec_xor((vu8)c, k[0]);
        y = vec_xor((vu8)vec_add(c, (vu128){1}), k[0]);
        c = vec_add(c, (vu128){2});
        P8_ROUNDS2(p0, y);
        p0 = enclast(p0, vec_xor(k[nr], load(in)));
        pn = enclast(y, vec_xor(k[nr], load(in + 16)));
    }
    store(out, p0);
    x = vec_xor(vec_xor(load(mac), p0), k[0]);
    /* x: P_i's MAC state after round 0; pn = P_(i+1) */
    for (size_t i = 0; i + 1 < n; i++) {
        vu8 cin = i + 2 < n ? load(in + 16 * (i + 2)) : zero;
        y = vec_xor((vu8)c, k[0]);
        c = vec_add(c, (vu128){1});
        P8_ROUNDS2(x, y);
        x = enclast(x, vec_xor(kf, pn));
        y = enclast(y, vec_xor(k[nr], cin));
        store(out + 16 * (i + 1), pn);
        pn = y;
    }
    P8_ROUNDS1(x);
    store(mac, enclast(x, k[nr]));
    store(ctr, (vu8)vec_add(c0, (vu128){n}));
}

#define CCM_ENTRY(name, body)                                                  \
    void name(const void *rk, unsigned nr, uint8_t ctr[16], uint8_t mac[16],   \
              uint8_t *out, const uint8_t *in, size_t nblocks)                 \
    {                                                                          \
        const vu8 *k = (const vu8 *)rk;                                        \
        if (nblocks == 0)                                                      \
            return;                                                            \
        if (nr == 10)                                                          \
            body(k, 10, ctr, mac, out, in, nblocks);                           \
        else if (nr == 12)                                                     \
            body(k, 12, ctr, mac, out, in, nblocks);                           \
        else                                                                   \
            body(k, 14, ctr, mac, out, in, nblocks);                           \
    }

CCM_ENTRY(aesir_pwr8_ccm_enc, ccm_enc_nr)
CCM_ENTRY(aesir_pwr8_ccm_dec, ccm_dec_nr)

#ifdef PWR8_REGION
#pragma GCC pop_options
#endif

#endif
