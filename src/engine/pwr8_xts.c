/*
 * pwr8_xts.c -- the fused XTS kernels of pwr8 (xts_enc, xts_dec;
 * internal.h, aesir_xts_fn): IEEE 1619-2018 5.3.1 / 5.4.1 on whole
 * blocks, 8 blocks in flight through vcipher (vncipher), the width of
 * pwr8's bulk ECB; the mode layer (src/modes/xts.c) does the stealing.
 *
 * Two byte orders. The AES instructions see a block in register order,
 * byte 0 as the register's most significant byte (pwr8.c). The tweak is
 * a little-endian 128-bit integer (IEEE 1619 5.2): its byte 0 is the
 * least significant. So the tweaks are kept as the register's 128-bit
 * integer value (byte 0 in the low end) -- the value the quadword add
 * and the doubleword shifts of ISA 2.07 work on, the same on big- and
 * little-endian -- and one byte-reversing permute per block turns each
 * into register order for the XORs. The reversal swaps the register's
 * two ends, so it reads the same in both endians' element numbering.
 *
 * Tweak steps, no branch on the tweak:
 *   T x    T + T (vadduqm) and, when the top bit was set, 0x87: the high
 *          doubleword's sign spread by an arithmetic shift, ANDed with it.
 *   T x^8  each doubleword shifted up one byte, the bytes shifted out
 *          swapped across (the low one's to the high doubleword, the
 *          high one's, d, to the low), and d * 0x87 = d ^ d<<1 ^ d<<2 ^
 *          d<<7 (15 bits at most: no further reduction) XORed into the
 *          low doubleword only.
 * A group's 8 tweaks T_i .. T_(i+7) each step by x^8 to the next group's
 * on their own, independent of each other and of the rounds (as in
 * armv8_ce_xts.c).
 *
 * Whitening: P ^ T ^ K0 before the first vcipher; vcipherlast XORs its
 * key last, so the output tweak goes into it (K(nr) ^ T). Decryption:
 * pwr8's schedule backwards (pwr8.c: vncipher is the straight inverse
 * cipher), C ^ T ^ K(nr) first and vncipherlast with K0 ^ T.
 *
 * CPU: POWER8 vector crypto (the pwr8 accessor checks it); compiled in a
 * target region like pwr8.c, where pwr8.c builds its engine. Constant
 * time: yes, given that vcipher is (pwr8.c); branches depend on nr and
 * the block count only, no address on the data or the tweak. The entry
 * points wipe the stack their bodies used, in case the compiler spills.
 * Tested under qemu-ppc64le -cpu power8 (the suite) and qemu-ppc64
 * -cpu power8 (big-endian, freestanding: tools/pwr8_be_check.sh). No
 * speed is claimed: no POWER hardware here. Batch: 8 blocks.
 */
#include "internal.h"
#include "xts_kernels.h"

#ifdef AESIR_PWR8_XTS

#include "engine.h"
#include "stack_wipe.h"

#if !(defined(__CRYPTO__) && defined(__POWER8_VECTOR__))
#define PWR8_XTS_REGION 1
#pragma GCC push_options
#pragma GCC target("cpu=power8")
#endif

#include <altivec.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned long long vu64;
typedef __vector signed long long vs64;
typedef __vector unsigned __int128 vu128;

#define WIDE 8

#if defined(__clang__)
#define LANES
#else
#define LANES _Pragma("GCC unroll 16")
#endif

/* The element of a vu64 that holds the integer's high doubleword. */
#if defined(__LITTLE_ENDIAN__)
#define HI 1
#else
#define HI 0
#endif

ENGINE_INLINE vu8 load(const uint8_t *p)
{
    return vec_xl_be(0, (const unsigned char *)p);
}

ENGINE_INLINE void store(uint8_t *p, vu8 x)
{
    vec_xst_be(x, 0, (unsigned char *)p);
}

/* Register order <-> integer order (see the header); its own inverse. */
ENGINE_INLINE vu8 rev(vu8 x)
{
    const vu8 m = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    return vec_perm(x, x, m);
}

/* Round key r (pwr8.c: register images), loaded no earlier than dep is
 * computed, so gcc does not hoist all of them and spill (pwr8.c). */
ENGINE_INLINE vu8 rkey_after(const uint8_t *rk, unsigned r, vu8 dep)
{
    long off = 16 * (long)r;
    __asm__("" : "+r"(off) : "v"(dep));
    return vec_ld(off, (const vu8 *)(const void *)rk);
}

/* t * x (IEEE 1619 5.2), t the tweak's integer. */
ENGINE_INLINE vu128 mul_x(vu128 t)
{
    const vu64 top = (vu64)vec_sra((vs64)t, vec_splats(63ULL));
    const vu64 c = vec_and(vec_splat(top, HI), (vu64)(vu128){0x87});
    return (vu128)vec_xor((vu64)vec_add(t, t), c);
}

/* t * x^8: one byte up; the top byte d folded back as d * 0x87. */
ENGINE_INLINE vu128 mul_x8(vu128 t)
{
    const vu8 swap = {8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7};
    const vu64 lo_mask = (vu64)(vu128){~0ULL};
    vu64 u = vec_sl((vu64)t, vec_splats(8ULL));
    vu64 s = vec_sr((vu64)t, vec_splats(56ULL));
    s = (vu64)vec_perm((vu8)s, (vu8)s, swap); /* hi: lo's byte, lo: d */
    vu64 f = vec_xor(
        vec_sl(s, vec_splats(1ULL)),
        vec_xor(vec_sl(s, vec_splats(2ULL)), vec_sl(s, vec_splats(7ULL))));
    return (vu128)vec_xor(vec_xor(u, s), vec_and(f, lo_mask));
}

#define ROUND(op, r)                                                           \
    do {                                                                       \
        const vu8 k_ = rkey_after(rk, (r), b[0]);                              \
        LANES for (unsigned j_ = 0; j_ < n; j_++) b[j_] =                      \
            (vu8)__builtin_crypto_##op((vu64)b[j_], (vu64)k_);                 \
    } while (0)

/* n blocks (n <= 8, a constant where inlined) with tweaks tw[0..n-1]. */
ENGINE_INLINE void group(const uint8_t *rk, unsigned nr, const int dec,
                         const vu128 *tw, uint8_t *out, const uint8_t *in,
                         unsigned n)
{
    vu8 b[WIDE], t[WIDE];
    const vu8 k0 = rkey_after(rk, dec ? nr : 0, (vu8)tw[0]);
    LANES for (unsigned j = 0; j < n; j++)
    {
        t[j] = rev((vu8)tw[j]);
        b[j] = vec_xor(load(in + 16 * j), vec_xor(t[j], k0));
    }
    if (dec) {
        if (nr > 10) {
            if (nr > 12) {
                ROUND(vncipher, 13);
                ROUND(vncipher, 12);
            }
            ROUND(vncipher, 11);
            ROUND(vncipher, 10);
        }
        LANES for (unsigned r = 9; r >= 1; r--) ROUND(vncipher, r);
    } else {
        LANES for (unsigned r = 1; r < 10; r++) ROUND(vcipher, r);
        if (nr > 10) {
            ROUND(vcipher, 10);
            ROUND(vcipher, 11);
            if (nr > 12) {
                ROUND(vcipher, 12);
                ROUND(vcipher, 13);
            }
        }
    }
    const vu8 kl = rkey_after(rk, dec ? 0 : nr, b[0]);
    LANES for (unsigned j = 0; j < n; j++)
    {
        const vu8 k = vec_xor(kl, t[j]);
        b[j] = dec ? (vu8)__builtin_crypto_vncipherlast((vu64)b[j], (vu64)k)
                   : (vu8)__builtin_crypto_vcipherlast((vu64)b[j], (vu64)k);
        store(out + 16 * j, b[j]);
    }
}

ENGINE_INLINE void xts_body(const void *rk_, unsigned nr, uint8_t tweak[16],
                            uint8_t *out, const uint8_t *in, size_t n,
                            const int dec)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    vu128 tw[WIDE];

    tw[0] = (vu128)rev(load(tweak));
    LANES for (unsigned j = 1; j < WIDE; j++) tw[j] = mul_x(tw[j - 1]);
    for (; n >= WIDE; n -= WIDE, in += 16 * WIDE, out += 16 * WIDE) {
        group(rk, nr, dec, tw, out, in, WIDE);
        LANES for (unsigned j = 0; j < WIDE; j++) tw[j] = mul_x8(tw[j]);
    }
    /* the tail's n blocks; the next tweak is tw[n] (tw[0] when none) */
#define XTS_TAIL(k)                                                            \
    do {                                                                       \
        group(rk, nr, dec, tw, out, in, (k));                                  \
        store(tweak, rev((vu8)tw[(k)]));                                       \
    } while (0)
    if (n == 0)
        store(tweak, rev((vu8)tw[0]));
    ENGINE_TAIL7(XTS_TAIL, n)
#undef XTS_TAIL
}

STACK_WIPE_BODY static void xts_enc_body(const void *rk, unsigned nr,
                                         uint8_t tweak[16], uint8_t *out,
                                         const uint8_t *in, size_t n)
{
    xts_body(rk, nr, tweak, out, in, n, 0);
}

STACK_WIPE_BODY static void xts_dec_body(const void *rk, unsigned nr,
                                         uint8_t tweak[16], uint8_t *out,
                                         const uint8_t *in, size_t n)
{
    xts_body(rk, nr, tweak, out, in, n, 1);
}

#ifdef PWR8_XTS_REGION
#pragma GCC pop_options
#endif

/* Bound: as for pwr8's OCB kernels (stack_wipe.h's rule). */
#define XTS_WIPE 1024

void aesir_pwr8_xts_enc(const void *rk, unsigned nr, uint8_t tweak[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
    xts_enc_body(rk, nr, tweak, out, in, nblocks);
    aesir_wipe_stack(XTS_WIPE);
}

void aesir_pwr8_xts_dec(const void *rk, unsigned nr, uint8_t tweak[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
    xts_dec_body(rk, nr, tweak, out, in, nblocks);
    aesir_wipe_stack(XTS_WIPE);
}

#endif /* AESIR_PWR8_XTS */
