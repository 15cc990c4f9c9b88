/*
 * pwr8_gcm.c -- the fused GCM kernels of pwr8 (gcm_enc, gcm_dec;
 * internal.h, aesir_gcm_fn): CTR with GCM's inc32 counter and GHASH of
 * the ciphertext in one pass, the vcipher rounds of 8 counter blocks
 * interleaved with the vpmsumd products of 8 ciphertext blocks, for the
 * GHASH engine ghash-vpmsumd (whose key layout they read).
 *
 * Why fused. Run apart, CTR keeps the crypto pipes busy and the
 * multiplier idle, then GHASH the reverse, and the data passes through
 * L1 twice. Here each round of 8 blocks (8 vcipher, one round-key load)
 * is followed by the three vpmsumd of one ciphertext block, so an
 * out-of-order core has independent work for both in the same window.
 * The AES part is pwr8's CTR (pwr8.c); the GHASH part ghash-vpmsumd's
 * (ghash_vpmsumd.c): the arithmetic below is the same and must stay so.
 *
 * One byte order for both. pwr8 loads a block in register order
 * (vec_xl_be: byte 0 the most significant), and that is exactly the
 * 128-bit big-endian integer ghash-vpmsumd multiplies: the ciphertext a
 * kernel loads or computes needs no further permute to be hashed.
 *
 *  - Decryption hashes the ciphertext it decrypts in the same group: it
 *    is read (for the hash) while the rounds run and again for the
 *    output. In place works: every read of a group comes before its
 *    first store.
 *  - Encryption hashes the previous group's ciphertext (read back from
 *    out) while it encrypts the next, so the first group's rounds run
 *    alone and the last group is hashed after the loop (with the tail's
 *    rounds when there is a tail).
 *  - The last round takes K(nr) ^ in as its key, so vcipherlast returns
 *    the output block itself (as pwr8's CFB decryption does).
 *
 * Hash-key layout (ghash_vpmsumd.c), register images: hk + 16 i =
 * Kl(K_(8-i)) = [0 : k_lo], hk + 128 + 16 i = Kh = [k_hi : 0], hk + 256
 * + 16 i = Km = [k_lo : k_hi], K_j = H^j x^-1 (reflected domain). So a
 * block costs three vpmsumd (low, high and middle product) and no
 * Karatsuba XORs. Block i of a group of 8 is multiplied by K_(8-i), the
 * accumulator XORed into block 0; a group of m < 8 takes K_m .. K_1. The
 * products are summed unreduced over the group, then one two-step
 * reduction by 0xc200000000000000 ("aggregated reduction", Gueron and
 * Kounavis, Intel white paper 323640).
 *
 * Counter. As in pwr8's CTR the counter block in register order is its
 * 128-bit big-endian value, stepped by vadduqm. GCM's counter is inc32,
 * but the caller (gcm.c, data_blocks) guarantees the low word does not
 * wrap within a call, where the two agree.
 *
 * Tails: m = 1..7 blocks after the groups take kernels of exactly that
 * width (ENGINE_TAIL7), hashed with K_m .. K_1, so every length of whole
 * blocks is done; the kernels return len rounded down to 16.
 *
 * Instruction counts per block (gcc 12 -O3, objdump of the cross object,
 * ppc64le): docs/engines/pwr8.md, "GCM". Tested under qemu-ppc64le -cpu
 * power8 only.
 *
 * Constant time: yes, given that vcipher and vpmsumd are (see pwr8.c and
 * ghash_vpmsumd.c). No branch or address depends on the key, H or the
 * data; branches depend on nr and the length only. Stack: see
 * docs/engines/pwr8.md, "GCM" (what gcc 12 keeps in registers), and
 * tests/test_residue.c scans the stack after a GCM seal with this pair.
 *
 * Batch: 8 blocks.
 */
#include "gcm_kernels.h"

#ifdef AESIR_PWR8_GCM

#include "engine.h"
#include "stack_wipe.h"

/* The POWER8 code in a target region when the baseline lacks it (as in
 * pwr8.c and ghash_vpmsumd.c). */
#if !(defined(__CRYPTO__) && defined(__POWER8_VECTOR__))
#define PWR8_GCM_REGION 1
#pragma GCC push_options
#pragma GCC target("cpu=power8")
#endif

#include <altivec.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned long long vu64;
typedef __vector unsigned __int128 vu128;

#define WIDE 8

#if defined(__clang__)
#define LANES
#else
#define LANES _Pragma("GCC unroll 16")
#endif

/* ghash-vpmsumd's key area (ghash_vpmsumd.c, struct vpm_key). */
struct gk {
    vu64 kl[WIDE], kh[WIDE], km[WIDE]; /* K8 .. K1 in each */
};

/* Register images: high 64 bits set; low 64 bits set; the reduction
 * constant in the low 64 bits (big-endian byte images, vec_xl_be). */
static const uint8_t g_hi_bytes[16] = {0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff};
static const uint8_t g_lo_bytes[16] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t g_c_bytes[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0xc2};

ENGINE_INLINE vu8 enc(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vcipher((vu64)s, (vu64)k);
}

ENGINE_INLINE vu8 enclast(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vcipherlast((vu64)s, (vu64)k);
}

ENGINE_INLINE vu64 pmsum(vu64 a, vu64 b)
{
#if defined(__clang__)
    return (vu64)__builtin_altivec_crypto_vpmsumd(a, b);
#else
    return (vu64)__builtin_crypto_vpmsumd(a, b);
#endif
}

/* A block from memory in register order (= GHASH's integer), and back. */
ENGINE_INLINE vu8 load(const uint8_t *p)
{
    return vec_xl_be(0, (const unsigned char *)p);
}

ENGINE_INLINE void store(uint8_t *p, vu8 x)
{
    vec_xst_be(x, 0, (unsigned char *)p);
}

/* Round key r, loaded no earlier than dep is computed: see pwr8.c's
 * rkey_after (without it gcc hoists all round-key loads and spills). */
ENGINE_INLINE vu8 rkey_after(const vu8 *k, unsigned r, vu8 dep)
{
    long off = 16 * (long)r;
    __asm__("" : "+r"(off) : "v"(dep));
    return vec_ld(off, k);
}

/* The block at p, loaded no earlier than dep is computed. Decryption
 * reads each ciphertext block twice, for the hash during the rounds and
 * for the output after them; gcc would keep the first load's 8 values
 * live across the rounds instead, and spill (AES state and ciphertext
 * sums went to the stack). */
ENGINE_INLINE vu8 load_after(const uint8_t *p, vu8 dep)
{
    __asm__("" : "+r"(p) : "v"(dep));
    return load(p);
}

ENGINE_INLINE vu64 swap64(vu64 a)
{
    return vec_sld(a, a, 8);
}

/* Unreduced sums of a group's products. */
struct acc3 {
    vu64 lo, mid, hi;
};

/* s += a K_(8-i) (i = 0..7: position in ghash-vpmsumd's tables), the
 * keys loaded no earlier than dep is computed (see HASH). */
ENGINE_INLINE void mac(struct acc3 *s, const struct gk *key, unsigned i, vu64 a,
                       vu8 dep)
{
    __asm__("" : "+r"(key) : "v"(dep));
    s->lo = vec_xor(s->lo, pmsum(a, key->kl[i]));
    s->hi = vec_xor(s->hi, pmsum(a, key->kh[i]));
    s->mid = vec_xor(s->mid, pmsum(a, key->km[i]));
}

/* The group's sum, middle folded in, reduced (ghash_x86.h's two folds;
 * the masks and the rotation by 8 bytes do not depend on element
 * numbering, so this is endian-neutral, as in ghash_vpmsumd.c). */
ENGINE_INLINE vu64 finish(struct acc3 s)
{
    const vu64 mhi = (vu64)load(g_hi_bytes), mlo = (vu64)load(g_lo_bytes);
    const vu64 c = (vu64)load(g_c_bytes);
    vu64 m = swap64(s.mid);
    vu64 lo = vec_xor(s.lo, vec_and(m, mhi)); /* mid << 64 */
    vu64 hi = vec_xor(s.hi, vec_and(m, mlo)); /* mid >> 64 */
    lo = vec_xor(swap64(lo), pmsum(lo, c));
    lo = vec_xor(swap64(lo), pmsum(lo, c));
    return vec_xor(hi, lo);
}

/*
 * Block j of hp hashed into s, as block j of a group of nh (acc into the
 * first); nothing when j >= nh. Its loads (block and keys) wait for dep,
 * the round just done: gcc's scheduler otherwise hoists all the group's
 * hash loads (8 blocks, 24 keys) to its top, and with 8 AES lanes live
 * spills them to the stack. The hardware still issues them early.
 */
#define HASH(j, dep)                                                           \
    do {                                                                       \
        if ((j) < nh) {                                                        \
            vu64 a_ = (vu64)load_after(hp + 16 * (j), (dep));                  \
            if ((j) == 0)                                                      \
                a_ = vec_xor(a_, *acc);                                        \
            mac(&s, key, WIDE - nh + (j), a_, (dep));                          \
        }                                                                      \
    } while (0)

/* Round r on every lane, then the product of block r - 1. */
#define ROUND(r)                                                               \
    do {                                                                       \
        vu8 t_ = rkey_after(k, (r), b[0]);                                     \
        LANES for (unsigned j_ = 0; j_ < n; j_++) b[j_] = enc(b[j_], t_);      \
        HASH((r)-1, b[0]);                                                     \
    } while (0)

/*
 * n counter blocks from *c through the rounds, out = in ^ keystream; in
 * the same pass the nh (0 or 1..8) blocks at hp hashed into *acc, one
 * product after each of the first nh middle rounds (nr - 1 >= 9 of
 * them, so all fit). n and nh are constants at every call.
 */
ENGINE_INLINE void group(const vu8 *k, unsigned nr, const struct gk *key,
                         vu128 *c, vu64 *acc, uint8_t *out, const uint8_t *in,
                         unsigned n, const uint8_t *hp, unsigned nh)
{
    const vu64 z = {0, 0};
    const vu128 one = {1};
    struct acc3 s = {z, z, z};
    vu8 b[WIDE];
    vu8 t = rkey_after(k, 0, (vu8)*c);

    /* counters by repeated adds of one constant: a constant per lane
     * (c + j) would take 7 more registers for the whole kernel */
    LANES for (unsigned j = 0; j < n; j++)
    {
        b[j] = vec_xor((vu8)*c, t);
        *c = vec_add(*c, one);
    }
    ROUND(1);
    ROUND(2);
    ROUND(3);
    ROUND(4);
    ROUND(5);
    ROUND(6);
    ROUND(7);
    ROUND(8);
    ROUND(9);
    if (nr > 10) {
        ROUND(10);
        ROUND(11);
        if (nr > 12) {
            ROUND(12);
            ROUND(13);
        }
    }
    t = rkey_after(k, nr, b[0]);
    LANES for (unsigned j = 0; j < n; j++) b[j] =
        enclast(b[j], vec_xor(t, load_after(in + 16 * j, b[j])));
    LANES for (unsigned j = 0; j < n; j++) store(out + 16 * j, b[j]);
    if (nh != 0)
        *acc = finish(s);
}

/* The nh (1..8) blocks at hp hashed into *acc alone. */
ENGINE_INLINE void hash_only(const struct gk *key, vu64 *acc, const uint8_t *hp,
                             unsigned nh)
{
    const vu64 z = {0, 0};
    struct acc3 s = {z, z, z};
    vu8 prev = (vu8)*acc;
    LANES for (unsigned j = 0; j < nh; j++)
    {
        HASH(j, prev);
        prev = (vu8)s.lo;
    }
    *acc = finish(s);
}

ENGINE_INLINE size_t gcm(const void *rk, unsigned nr, const void *hk,
                         uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                         const uint8_t *in, size_t len, int decrypt)
{
    const vu8 *k = (const vu8 *)__builtin_assume_aligned(rk, 16);
    const struct gk *key = (const struct gk *)__builtin_assume_aligned(hk, 16);
    size_t nblocks = len / 16, m = nblocks % WIDE;
    vu128 c = (vu128)load(ctr);
    vu64 acc = (vu64)load(y);

    if (decrypt) {
        for (size_t g = nblocks / WIDE; g > 0; g--) {
            group(k, nr, key, &c, &acc, out, in, WIDE, in, WIDE);
            in += 16 * WIDE, out += 16 * WIDE;
        }
#define DEC_TAIL(n) group(k, nr, key, &c, &acc, out, in, (n), in, (n))
        ENGINE_TAIL7(DEC_TAIL, m)
#undef DEC_TAIL
    } else if (nblocks >= WIDE) {
        /* the first group's rounds alone; then each group with the
         * previous one's ciphertext (out - 128) */
        group(k, nr, key, &c, &acc, out, in, WIDE, out, 0);
        in += 16 * WIDE, out += 16 * WIDE;
        for (size_t g = nblocks / WIDE - 1; g > 0; g--) {
            group(k, nr, key, &c, &acc, out, in, WIDE, out - 16 * WIDE, WIDE);
            in += 16 * WIDE, out += 16 * WIDE;
        }
#define ENC_TAIL(n)                                                            \
    group(k, nr, key, &c, &acc, out, in, (n), out - 16 * WIDE, WIDE),          \
        hash_only(key, &acc, out, (n))
        if (m == 0)
            hash_only(key, &acc, out - 16 * WIDE, WIDE);
        ENGINE_TAIL7(ENC_TAIL, m)
#undef ENC_TAIL
    } else {
#define ENC_SHORT(n)                                                           \
    group(k, nr, key, &c, &acc, out, in, (n), out, 0),                         \
        hash_only(key, &acc, out, (n))
        ENGINE_TAIL7(ENC_SHORT, m)
#undef ENC_SHORT
    }
    store(ctr, (vu8)c);
    store(y, (vu8)acc);
    return len & ~(size_t)15;
}

STACK_WIPE_BODY static size_t pwr8_gcm_enc(const void *rk, unsigned nr,
                                           const void *hk, uint8_t ctr[16],
                                           uint8_t y[16], uint8_t *out,
                                           const uint8_t *in, size_t len)
{
    return gcm(rk, nr, hk, ctr, y, out, in, len, 0);
}

STACK_WIPE_BODY static size_t pwr8_gcm_dec(const void *rk, unsigned nr,
                                           const void *hk, uint8_t ctr[16],
                                           uint8_t y[16], uint8_t *out,
                                           const uint8_t *in, size_t len)
{
    return gcm(rk, nr, hk, ctr, y, out, in, len, 1);
}

/*
 * Library-internal entry points (gcm_kernels.h), inside the POWER8
 * region: gcm.c reaches them only through the pwr8 engine, whose
 * accessor checked for POWER8. gcc 12 keeps some products and keys of
 * the hash in three stack slots (8 AES lanes, the round key, the three
 * sums, the accumulator and the loads of the product in flight exceed
 * the 32 registers vcipher and vpmsumd can address), so the body runs
 * out of line and its stack is wiped after (stack_wipe.h): its frame is
 * 512 bytes, below which the ELFv2 ABI lets it use 288 more.
 */
#define PWR8_GCM_STACK 1024

size_t aesir_pwr8_gcm_enc(const void *rk, unsigned nr, const void *hk,
                          uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                          const uint8_t *in, size_t len)
{
    size_t done = pwr8_gcm_enc(rk, nr, hk, ctr, y, out, in, len);
    aesir_wipe_stack(PWR8_GCM_STACK);
    return done;
}

size_t aesir_pwr8_gcm_dec(const void *rk, unsigned nr, const void *hk,
                          uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                          const uint8_t *in, size_t len)
{
    size_t done = pwr8_gcm_dec(rk, nr, hk, ctr, y, out, in, len);
    aesir_wipe_stack(PWR8_GCM_STACK);
    return done;
}

#ifdef PWR8_GCM_REGION
#pragma GCC pop_options
#endif

#else /* no ghash-vpmsumd in this build: no kernels (and no empty file) */

typedef int aesir_pwr8_gcm_none;

#endif /* AESIR_PWR8_GCM */
