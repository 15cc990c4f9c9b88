/*
 * pwr8.c -- the POWER8 engine: the in-core AES instructions of Power ISA
 * 2.07 on 128-bit vector registers, 8 blocks in flight.
 *
 * Technique. Power ISA Version 2.07B, Book I, Vector Facility, "Vector
 * Cryptographic Instructions", defines on a vector register holding the
 * AES state s, with round key k:
 *
 *   vcipher      MixColumns(ShiftRows(SubBytes(s))) ^ k
 *   vcipherlast  ShiftRows(SubBytes(s)) ^ k
 *   vncipher     InvMixColumns(InvSubBytes(InvShiftRows(s)) ^ k)
 *   vncipherlast InvSubBytes(InvShiftRows(s)) ^ k
 *   vsbox        SubBytes(s)
 *
 * vncipher XORs the round key *before* InvMixColumns: it is one round of
 * the plain inverse cipher of FIPS-197 section 5.3 (Figure 12), not of
 * the equivalent inverse cipher of section 5.3.5 that x86 AESDEC
 * implements. Decryption therefore runs the encryption round keys
 * backwards, K(nr) first, with no InvMixColumns'd schedule: both
 * directions share one key expansion. (QEMU's implementation notes that
 * the vncipher RTL printed in ISA 2.07 was wrong and corrected in 2.07B;
 * the order above is 2.07B's, and the FIPS-197 vectors pass with it.)
 *
 * Byte order. The instructions see the state in register order: byte 0
 * of the block is the most significant byte of the register. That is
 * memory order on big-endian and the reverse on little-endian, where
 * loading or storing a block costs a byte-reversing permute
 * (vec_xl_be/vec_xst_be: lxvw4x + vperm on POWER8; lxvb16x alone when
 * built for POWER9). Loads and stores need no alignment. Round keys are
 * stored in register order, so they load with one aligned lvx and no
 * permute.
 *
 * Throughput. We found no IBM latency table for these instructions. The
 * GCC scheduling models (gcc/config/rs6000/power8.md, power9.md) give
 * them a latency of 7 cycles on POWER8, on either of its two vector
 * pipes, and 6 on POWER9, on one crypto unit per core. The parallel
 * modes (ECB, CTR, CBC and CFB decryption) take 8 independent blocks through
 * each round before the next: 8 covers 6-7 cycles of latency at one
 * instruction per cycle; if both POWER8 pipes issue crypto, saturating
 * them would take 14, which with CBC decryption's 8 saved ciphertexts
 * would not fit the 32 registers vcipher can address. A tail of 1..7
 * blocks takes a kernel of exactly that width. CBC encryption is
 * serial: the chaining value and all round keys stay in registers and
 * the chaining XOR is folded into the last round key (see pwr8_cbc_enc), so
 * each block costs nr crypto latencies. Nothing here is measured; the
 * code only ran under QEMU (docs/engines/pwr8.md: instruction counts).
 *
 * Key expansion (FIPS-197 section 5.2) in vector registers: vsbox is
 * SubBytes on all 16 bytes, so SubWord(RotWord(w)) ^ Rcon of the last
 * word w is one permute (RotWord(w) in all four columns), a vsbox and an
 * XOR. The running XOR w[i] = w[i-Nk] ^ w[i-1] over one register is a
 * prefix XOR (two word shifts, two XORs). No table is indexed by key
 * bytes.
 *
 * Layout. Round keys are 16-byte vectors in register order, K(r) at
 * rk + 16 r, each stored as the register image (vec_st), so that one lvx
 * reloads it:
 *
 *   rk_enc = rk_dec:  K0 K1 ... K(nr)          (FIPS-197 5.2, unmodified)
 *
 *   bytes at rk + 16 r, big-endian:     k0  k1  ... k15   of K(r)
 *                       little-endian:  k15 k14 ... k0    (reversed)
 *
 * Encryption reads K0 .. K(nr) upwards, decryption K(nr) .. K0 downwards.
 *
 * Constant time: YES, given that the vector crypto instructions are (they
 * are hardware round functions with no table in memory; the ISA makes
 * no timing promise, and we know of no data-dependent timing in them).
 * No branch or address depends on key or data; the only branches are on
 * nr and on the block count. Secrets live in vector registers and the
 * round-key area. gcc 12 (-O2, -O3) spills no AES state and no round
 * key; its only vector stack stores are the callee-saved registers of
 * the caller and, on POWER8 little-endian, the byte-reversal permute
 * mask (a public constant); clang 14 only the callee-saved ones. So
 * there is nothing to wipe.
 *
 * Endianness: little-endian is what runs the library's tests. Big-endian
 * (ELFv2, POWER5 to POWER9 baselines) was run only with a freestanding
 * driver under qemu-ppc64 against the ref engine, not on hardware.
 *
 * Batch: 8 blocks.
 */
/* No ENGINE_ISA: the POWER8 code is compiled in a target region (below),
 * or the whole file is built for POWER8. */
#include "engine.h"
#include "gcm_kernels.h" /* fused GCM: pwr8_gcm.c */
#include "ccm_kernels.h" /* fused CCM: pwr8_ccm.c */
#include "ocb_kernels.h" /* OCB3: pwr8_ocb.c */
#include "xts_kernels.h" /* XTS: pwr8_xts.c */

/*
 * With gcc 8 or later the engine is compiled for POWER8 whatever the
 * baseline (a target region, below), so the rest of the library may be
 * built for an older CPU and the accessor decides at run time. clang
 * checks vector types against the command-line ISA only, so with clang
 * the file needs -mcpu=power8 (the ppc64le default) or becomes the stub.
 */
#if defined(__powerpc64__) &&                                                  \
    ((defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8) ||            \
     (defined(__clang__) && defined(__CRYPTO__) &&                             \
      defined(__POWER8_VECTOR__)))

/* A region rather than target attributes on each function: <altivec.h>
 * and the file-scope vector types need the ISA too, and a baseline
 * without VSX (ppc64 big-endian for POWER5, say) rejects them. It ends
 * before the accessor, which must run on any CPU, and is skipped when
 * the baseline has POWER8 already, so a POWER9 build keeps its one-
 * instruction byte-reversing loads. */
#if !(defined(__CRYPTO__) && defined(__POWER8_VECTOR__))
#define PWR8_REGION 1
#pragma GCC push_options
#pragma GCC target("cpu=power8")
#endif

#include <altivec.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned int vu32;
typedef __vector unsigned long long vu64;
typedef __vector unsigned __int128 vu128;

/* Lanes of the wide kernel. */
#define WIDE 8

/* Every loop over lanes (or over the round keys of pwr8_cbc_enc) has a
 * constant trip count once inlined; gcc keeps the arrays in registers
 * only when these loops unroll fully before its scalar replacement pass,
 * which the pragma guarantees. */
#if defined(__clang__)
#define UNROLLED
#else
#define UNROLLED _Pragma("GCC unroll 16")
#endif
#define LANES UNROLLED

/* ---- instructions --------------------------------------------------- */

ENGINE_INLINE vu8 enc(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vcipher((vu64)s, (vu64)k);
}

ENGINE_INLINE vu8 enclast(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vcipherlast((vu64)s, (vu64)k);
}

ENGINE_INLINE vu8 dec(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vncipher((vu64)s, (vu64)k);
}

ENGINE_INLINE vu8 declast(vu8 s, vu8 k)
{
    return (vu8)__builtin_crypto_vncipherlast((vu64)s, (vu64)k);
}

ENGINE_INLINE vu8 sbox(vu8 s)
{
    return (vu8)__builtin_crypto_vsbox((vu64)s);
}

/* A block from memory into register order, and back. */
ENGINE_INLINE vu8 load(const uint8_t *p)
{
    return vec_xl_be(0, (const unsigned char *)p);
}

ENGINE_INLINE void store(uint8_t *p, vu8 x)
{
    vec_xst_be(x, 0, (unsigned char *)p);
}

/* Round key r: aligned, stored as the register image. */
ENGINE_INLINE vu8 rkey(const vu8 *k, unsigned r)
{
    return vec_ld(0, k + r);
}

/*
 * Round key r, loaded no earlier (in the compiler's schedule) than dep is
 * computed. Left alone, gcc 12 hoists every round key load of a kernel to
 * its top and, with 8 lanes live, runs out of the 32 vector registers
 * that vcipher can address: it then spills AES state and round keys to
 * the stack. The empty asm costs nothing at run time, and the hardware
 * still issues the load as early as it likes (k is ready long before).
 */
ENGINE_INLINE vu8 rkey_after(const vu8 *k, unsigned r, vu8 dep)
{
    long off = 16 * (long)r;
    __asm__("" : "+r"(off) : "v"(dep));
    return vec_ld(off, k);
}

/* ---- key expansion ---------------------------------------------------
 * A round key is four 32-bit words w0..w3 (FIPS-197 5.2), w0 holding
 * bytes 0..3. Viewed as vu32, a register in register order holds word f
 * as the value of element W(f): vec_* element numbers run from the left
 * on big-endian and from the right on little-endian. The value of each
 * word is the same on both (byte 4f is its most significant byte), so
 * Rcon is rc << 24 everywhere. */

#if defined(__LITTLE_ENDIAN__)
#define W(f) (3 - (f))
#else
#define W(f) (f)
#endif

/* vec_perm mask: word f of the result is word s_f of a (s = 0..3) or
 * word s_f - 4 of b (s = 4..7). vec_perm numbers bytes in element order
 * on both endians, so each word is addressed through W(). */
#define WB(s, i) (unsigned char)(4 * (W((s)&3) + ((s)&4)) + (i))
#define WQ(s) WB(s, 0), WB(s, 1), WB(s, 2), WB(s, 3)
#if defined(__LITTLE_ENDIAN__)
#define WPERM(a, b, s0, s1, s2, s3)                                            \
    vec_perm((a), (b), (vu8){WQ(s3), WQ(s2), WQ(s1), WQ(s0)})
#else
#define WPERM(a, b, s0, s1, s2, s3)                                            \
    vec_perm((a), (b), (vu8){WQ(s0), WQ(s1), WQ(s2), WQ(s3)})
#endif

/* Word f of x in all four columns. */
#define SPLAT(x, f) ((vu8)vec_splat((vu32)(x), W(f)))

/* [w0 w1 w2 w3] -> [w0, w0^w1, w0^w1^w2, w0^w1^w2^w3]. */
ENGINE_INLINE vu8 prefix_xor(vu8 x)
{
    const vu8 z = vec_splats((unsigned char)0);
    x = vec_xor(x, WPERM(x, z, 4, 0, 1, 2));
    return vec_xor(x, WPERM(x, z, 4, 4, 0, 1));
}

/* RotWord(word f of x) in all four columns, in one permute: byte i of
 * the result word is byte i + 1 (mod 4) of word f counted from its most
 * significant byte; little-endian element order counts from the least
 * significant one, where that is byte i + 3 (mod 4). */
#if defined(__LITTLE_ENDIAN__)
#define RB(f, i) (unsigned char)(4 * W(f) + (((i) + 3) & 3))
#else
#define RB(f, i) (unsigned char)(4 * W(f) + (((i) + 1) & 3))
#endif
#define RQ(f) RB(f, 0), RB(f, 1), RB(f, 2), RB(f, 3)
#define SPLATROT(x, f) vec_perm((x), (x), (vu8){RQ(f), RQ(f), RQ(f), RQ(f)})

/* SubWord(RotWord(w)) ^ Rcon in all four columns, given the first in all
 * four (SPLATROT is a macro: the permute mask must be a constant). */
ENGINE_INLINE vu8 subrot(vu8 rw, unsigned rcon)
{
    return vec_xor(sbox(rw), (vu8)vec_splats(rcon << 24));
}

/* SubWord(word 3 of x), broadcast: AES-256's middle step. */
ENGINE_INLINE vu8 sub3(vu8 x)
{
    return sbox(SPLAT(x, 3));
}

ENGINE_INLINE void put(vu8 *k, unsigned r, vu8 x)
{
    vec_st(x, 0, k + r);
}

ENGINE_INLINE void expand128(vu8 *k, const uint8_t *key)
{
    static const unsigned char rc[10] = {0x01, 0x02, 0x04, 0x08, 0x10,
                                         0x20, 0x40, 0x80, 0x1b, 0x36};
    vu8 x = load(key);
    put(k, 0, x);
    for (unsigned i = 0; i < 10; i++) {
        x = vec_xor(prefix_xor(x), subrot(SPLATROT(x, 3), rc[i]));
        put(k, i + 1, x);
    }
}

/*
 * AES-192: 6 words per step, in a = [w0..w3] and b = [w4 w5 * *]. With
 * t = SubWord(RotWord(w5)) ^ Rcon broadcast, the next six words are
 *   a' = prefix_xor(a) ^ t                                  (w6..w9)
 *   b' = (b ^ b >> 1 word) ^ bcast(word 3 of prefix_xor(a)) ^ t  (w10 w11)
 * Two steps give three round keys:
 *   K(3j) = a, K(3j+1) = [b.0 b.1 a'.0 a'.1], K(3j+2) = [a'.2 a'.3 b'.0 b'.1].
 */
ENGINE_INLINE void step192(vu8 *a, vu8 *b, unsigned rcon)
{
    const vu8 z = vec_splats((unsigned char)0);
    vu8 t = subrot(SPLATROT(*b, 1), rcon);
    vu8 pa = prefix_xor(*a);
    vu8 pb = vec_xor(*b, WPERM(*b, z, 4, 0, 1, 2));
    pb = vec_xor(pb, SPLAT(pa, 3));
    *a = vec_xor(pa, t);
    *b = vec_xor(pb, t);
}

ENGINE_INLINE void expand192(vu8 *k, const uint8_t *key)
{
    vu8 a = load(key);
    vu8 c = load(key + 8); /* [w2 w3 w4 w5]: no read past the key */
    vu8 b = WPERM(c, c, 2, 3, 2, 3);
    unsigned rcon = 1;
    for (unsigned j = 0; j < 4; j++) {
        vu8 a0 = a, b0 = b;
        put(k, 3 * j, a0);
        step192(&a, &b, rcon);
        put(k, 3 * j + 1, WPERM(b0, a, 0, 1, 4, 5));
        put(k, 3 * j + 2, WPERM(a, b, 2, 3, 4, 5));
        step192(&a, &b, rcon << 1);
        rcon <<= 2;
    }
    put(k, 12, a);
}

/* AES-256: alternate steps, a from b's last word with RotWord and Rcon,
 * b from a's last word with SubWord only (FIPS-197 5.2, i mod 8 = 4). */
ENGINE_INLINE void expand256(vu8 *k, const uint8_t *key)
{
    vu8 a = load(key), b = load(key + 16);
    unsigned rcon = 1;
    put(k, 0, a);
    put(k, 1, b);
    for (unsigned i = 1; i < 7; i++) {
        a = vec_xor(prefix_xor(a), subrot(SPLATROT(b, 3), rcon));
        put(k, 2 * i, a);
        b = vec_xor(prefix_xor(b), sub3(a));
        put(k, 2 * i + 1, b);
        rcon <<= 1;
    }
    put(k, 14, vec_xor(prefix_xor(a), subrot(SPLATROT(b, 3), rcon)));
}

/* One schedule for both directions (see the header): setkey_dec is this
 * function too. */
ENGINE_FN void pwr8_setkey(void *rk, const uint8_t *key, size_t key_len)
{
    vu8 *k = (vu8 *)__builtin_assume_aligned(rk, 16);
    if (key_len == 16)
        expand128(k, key);
    else if (key_len == 24)
        expand192(k, key);
    else
        expand256(k, key);
}

/* ---- n-lane round kernels --------------------------------------------
 * n is a compile-time constant at every call (the functions are always
 * inlined), so the lane loops unroll and b[] lives in registers. Each
 * round loads its key once for all lanes. */

#define ROUND(op, r)                                                           \
    do {                                                                       \
        vu8 t_ = rkey_after(k, (r), b[0]);                                     \
        LANES for (unsigned j = 0; j < n; j++) b[j] = op(b[j], t_);            \
    } while (0)

/* Encryption rounds 1 .. nr-1 (round 0 and the last are the caller's, so
 * CTR and CBC can fold their XORs into them). */
ENGINE_INLINE void enc_mid(vu8 *b, unsigned n, const vu8 *k, unsigned nr)
{
    ROUND(enc, 1);
    ROUND(enc, 2);
    ROUND(enc, 3);
    ROUND(enc, 4);
    ROUND(enc, 5);
    ROUND(enc, 6);
    ROUND(enc, 7);
    ROUND(enc, 8);
    ROUND(enc, 9);
    if (nr > 10) {
        ROUND(enc, 10);
        ROUND(enc, 11);
        if (nr > 12) {
            ROUND(enc, 12);
            ROUND(enc, 13);
        }
    }
}

/* Decryption rounds with K(nr-1) .. K1, straight inverse cipher. */
ENGINE_INLINE void dec_mid(vu8 *b, unsigned n, const vu8 *k, unsigned nr)
{
    if (nr > 10) {
        if (nr > 12) {
            ROUND(dec, 13);
            ROUND(dec, 12);
        }
        ROUND(dec, 11);
        ROUND(dec, 10);
    }
    ROUND(dec, 9);
    ROUND(dec, 8);
    ROUND(dec, 7);
    ROUND(dec, 6);
    ROUND(dec, 5);
    ROUND(dec, 4);
    ROUND(dec, 3);
    ROUND(dec, 2);
    ROUND(dec, 1);
}

/* ---- ECB ---------------------------------------------------------------- */

ENGINE_INLINE void ecb_n(const vu8 *k, unsigned nr, uint8_t *out,
                         const uint8_t *in, unsigned n, int decrypt)
{
    vu8 b[WIDE];
    LANES for (unsigned j = 0; j < n; j++) b[j] = load(in + 16 * j);
    if (decrypt) {
        vu8 t = rkey_after(k, nr, b[0]);
        LANES for (unsigned j = 0; j < n; j++) b[j] = vec_xor(b[j], t);
        dec_mid(b, n, k, nr);
        ROUND(declast, 0);
    } else {
        vu8 t = rkey_after(k, 0, b[0]);
        LANES for (unsigned j = 0; j < n; j++) b[j] = vec_xor(b[j], t);
        enc_mid(b, n, k, nr);
        ROUND(enclast, nr);
    }
    LANES for (unsigned j = 0; j < n; j++) store(out + 16 * j, b[j]);
}

ENGINE_INLINE void ecb(const void *rk, unsigned nr, uint8_t *out,
                       const uint8_t *in, size_t nblocks, int decrypt)
{
    const vu8 *k = (const vu8 *)__builtin_assume_aligned(rk, 16);
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        ecb_n(k, nr, out, in, WIDE, decrypt);
#define ECB_TAIL(n) ecb_n(k, nr, out, in, (n), decrypt)
    ENGINE_TAIL7(ECB_TAIL, nblocks)
#undef ECB_TAIL
}

ENGINE_FN void pwr8_encrypt(const void *rk, unsigned nr, uint8_t *out,
                            const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 0);
}

ENGINE_FN void pwr8_decrypt(const void *rk, unsigned nr, uint8_t *out,
                            const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 1);
}

/* ---- CTR ---------------------------------------------------------------- */

/*
 * In register order a counter block is the 128-bit big-endian counter as
 * the register's integer value, so vadduqm (ISA 2.07's quadword add)
 * steps all 128 bits at once: block j is c + j, carries included, with
 * no byte swap and no wrap check.
 */
ENGINE_INLINE vu8 ctr_add(vu128 c, unsigned j)
{
    return (vu8)vec_add(c, (vu128){j});
}

/* out block j = in block j ^ keystream. The XOR is done in register
 * order: turning the keystream to memory order instead saves nothing on
 * POWER8 little-endian, where gcc's plain vec_xl/vec_xst add a
 * doubleword swap each (3 permutes per block instead of 2). */
ENGINE_INLINE void xor_out(uint8_t *out, const uint8_t *in, unsigned j, vu8 ks)
{
    store(out + 16 * j, vec_xor(load(in + 16 * j), ks));
}

ENGINE_INLINE void ctr_n(const vu8 *k, unsigned nr, vu128 c, uint8_t *out,
                         const uint8_t *in, unsigned n)
{
    vu8 b[WIDE];
    vu8 t = rkey_after(k, 0, (vu8)c);
    LANES for (unsigned j = 0; j < n; j++) b[j] = vec_xor(ctr_add(c, j), t);
    enc_mid(b, n, k, nr);
    ROUND(enclast, nr);
    LANES for (unsigned j = 0; j < n; j++) xor_out(out, in, j, b[j]);
}

ENGINE_FN void pwr8_ctr(const void *rk, unsigned nr, uint8_t ctr[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vu8 *k = (const vu8 *)__builtin_assume_aligned(rk, 16);
    vu128 c = (vu128)load(ctr);
    for (; nblocks >= WIDE;
         nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE) {
        ctr_n(k, nr, c, out, in, WIDE);
        c = vec_add(c, (vu128){WIDE});
    }
#define CTR_TAIL(n) ctr_n(k, nr, c, out, in, (n)), c = vec_add(c, (vu128){(n)})
    ENGINE_TAIL7(CTR_TAIL, nblocks)
#undef CTR_TAIL
    store(ctr, (vu8)c);
}

/* ---- CBC ---------------------------------------------------------------- */

/* Rounds 1 .. nr-1 of one block with the keys in registers. */
ENGINE_INLINE vu8 enc_chain(vu8 b, const vu8 *kr, unsigned nr)
{
    b = enc(enc(enc(b, kr[1]), kr[2]), kr[3]);
    b = enc(enc(enc(b, kr[4]), kr[5]), kr[6]);
    b = enc(enc(enc(b, kr[7]), kr[8]), kr[9]);
    if (nr > 10) {
        b = enc(enc(b, kr[10]), kr[11]);
        if (nr > 12)
            b = enc(enc(b, kr[12]), kr[13]);
    }
    return b;
}

/*
 * Encryption is a chain: block i's input is p_i ^ c_(i-1). Since
 * vcipherlast(x, K) = ShiftRows(SubBytes(x)) ^ K, giving it the key
 * K(nr) ^ K0 ^ p_(i+1) returns c_i ^ K0 ^ p_(i+1), the whitened input of
 * the next block; c_i is that XOR (K0 ^ p_(i+1)), off the chain. So the
 * chain is nr crypto instructions per block and nothing else. The last
 * block ends with plain K(nr). One lane leaves room for all round keys
 * in registers for the whole call (21 of the 32).
 */
ENGINE_FN void pwr8_cbc_enc(const void *rk, unsigned nr, uint8_t iv[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vu8 *k = (const vu8 *)__builtin_assume_aligned(rk, 16);
    vu8 kr[14], b;

    if (nblocks == 0)
        return;
    /* K0..K13 whatever nr is: the ones past nr - 1 are loaded (they are
     * inside the round-key area) and never used. */
    UNROLLED for (unsigned r = 0; r < 14; r++) kr[r] = rkey(k, r);
    const vu8 klast = rkey(k, nr), kx = vec_xor(kr[0], klast);
    b = vec_xor(vec_xor(load(iv), load(in)), kr[0]);
    for (; nblocks > 1; nblocks--, in += 16, out += 16) {
        vu8 p = load(in + 16);
        vu8 pk = vec_xor(p, kr[0]);
        b = enc_chain(b, kr, nr);
        b = enclast(b, vec_xor(kx, p));
        store(out, vec_xor(b, pk));
    }
    b = enclast(enc_chain(b, kr, nr), klast);
    store(out, b);
    store(iv, b);
}

/*
 * CFB128 encryption and OFB, the same fold: vcipherlast with the key
 * K(nr) ^ K0 ^ p_i returns c_i ^ K0 (CFB: c_i = E(c_(i-1)) ^ p_i), with
 * K(nr) ^ K0 it returns o_i ^ K0 (OFB): either way the next block's
 * whitened input, and the output is an XOR off the chain.
 */
ENGINE_INLINE void stream_enc(const void *rk, unsigned nr, uint8_t iv[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks,
                              int ofb)
{
    const vu8 *k = (const vu8 *)__builtin_assume_aligned(rk, 16);
    vu8 kr[14], b;

    if (nblocks == 0)
        return;
    UNROLLED for (unsigned r = 0; r < 14; r++) kr[r] = rkey(k, r);
    const vu8 kx = vec_xor(kr[0], rkey(k, nr));
    b = vec_xor(load(iv), kr[0]);
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        vu8 p = load(in);
        b = enclast(enc_chain(b, kr, nr), ofb ? kx : vec_xor(kx, p));
        store(out, ofb ? vec_xor(p, vec_xor(b, kr[0])) : vec_xor(b, kr[0]));
    }
    store(iv, vec_xor(b, kr[0]));
}

ENGINE_FN void pwr8_cfb_enc(const void *rk, unsigned nr, uint8_t iv[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    stream_enc(rk, nr, iv, out, in, nblocks, 0);
}

ENGINE_FN void pwr8_ofb(const void *rk, unsigned nr, uint8_t iv[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
    stream_enc(rk, nr, iv, out, in, nblocks, 1);
}

/*
 * Decryption: 8 blocks decrypt in parallel, and the chaining XOR goes
 * into the last round key: vncipherlast(x, K0 ^ c_(j-1)) =
 * InvSubBytes(InvShiftRows(x)) ^ K0 ^ c_(j-1) = p_j, one instruction
 * off the chain instead of an XOR after it. The ciphertexts stay in
 * registers from their load (8 lanes + 9 ciphertexts of the 32), so
 * in == out needs no store ordering.
 */
ENGINE_INLINE vu8 declast_xor(vu8 s, vu8 k0, vu8 prev)
{
    return declast(s, vec_xor(k0, prev));
}

/* c[0] is the chaining value, c[1..n] the ciphertexts; so c[j] is the
 * block before c[j + 1], and c[n] is the next chaining value. */
ENGINE_INLINE void cbc_dec_n(const vu8 *k, unsigned nr, vu8 *chain,
                             uint8_t *out, const uint8_t *in, unsigned n)
{
    vu8 b[WIDE], c[WIDE + 1];
    c[0] = *chain;
    LANES for (unsigned j = 0; j < n; j++) c[j + 1] = load(in + 16 * j);
    vu8 t = rkey_after(k, nr, c[1]);
    LANES for (unsigned j = 0; j < n; j++) b[j] = vec_xor(c[j + 1], t);
    dec_mid(b, n, k, nr);
    t = rkey_after(k, 0, b[0]);
    LANES for (unsigned j = 0; j < n; j++) b[j] = declast_xor(b[j], t, c[j]);
    *chain = c[n];
    LANES for (unsigned j = 0; j < n; j++) store(out + 16 * j, b[j]);
}

ENGINE_FN void pwr8_cbc_dec(const void *rk, unsigned nr, uint8_t iv[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vu8 *k = (const vu8 *)__builtin_assume_aligned(rk, 16);
    vu8 chain = load(iv);
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        cbc_dec_n(k, nr, &chain, out, in, WIDE);
#define CBC_TAIL(n) cbc_dec_n(k, nr, &chain, out, in, (n))
    ENGINE_TAIL7(CBC_TAIL, nblocks)
#undef CBC_TAIL
    store(iv, chain);
}

/* ---- CFB128 decryption -------------------------------------------------
 *
 * P_j = C_j ^ E(C_(j-1)) with C_(-1) the chaining value (SP 800-38A 6.3):
 * the cipher inputs are the ciphertext shifted by one block, so 8
 * encryptions (K0 upwards: CFB uses the cipher forwards) run side by side
 * as in ECB, and the tails take the same per-width kernels. The
 * ciphertext XOR goes into the last round key, as in cbc_dec:
 * vcipherlast(x, K(nr) ^ C_j) = E(C_(j-1)) ^ C_j = P_j. c[j] is C_j; the
 * ciphertexts stay in registers from their load (8 lanes + 8 ciphertexts
 * + the chaining value), so in == out needs no store ordering.
 */
ENGINE_INLINE void cfb_dec_n(const vu8 *k, unsigned nr, vu8 *chain,
                             uint8_t *out, const uint8_t *in, unsigned n)
{
    vu8 b[WIDE], c[WIDE];
    LANES for (unsigned j = 0; j < n; j++) c[j] = load(in + 16 * j);
    vu8 t = rkey_after(k, 0, c[0]);
    b[0] = vec_xor(*chain, t);
    LANES for (unsigned j = 1; j < n; j++) b[j] = vec_xor(c[j - 1], t);
    enc_mid(b, n, k, nr);
    t = rkey_after(k, nr, b[0]);
    LANES for (unsigned j = 0; j < n; j++) b[j] =
        enclast(b[j], vec_xor(t, c[j]));
    *chain = c[n - 1];
    LANES for (unsigned j = 0; j < n; j++) store(out + 16 * j, b[j]);
}

ENGINE_FN void pwr8_cfb_dec(const void *rk, unsigned nr, uint8_t iv[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const vu8 *k = (const vu8 *)__builtin_assume_aligned(rk, 16);
    vu8 chain = load(iv);
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        cfb_dec_n(k, nr, &chain, out, in, WIDE);
#define CFB_TAIL(n) cfb_dec_n(k, nr, &chain, out, in, (n))
    ENGINE_TAIL7(CFB_TAIL, nblocks)
#undef CFB_TAIL
    store(iv, chain);
}

#ifdef PWR8_REGION
#pragma GCC pop_options
#endif

/* pwr8_aegis.c */
void aesir_pwr8_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
int aesir_pwr8_aegis(int variant, const uint8_t *key, const uint8_t *nonce,
                     const uint8_t *aad, size_t aad_len, uint8_t *out,
                     const uint8_t *in, size_t len, uint8_t *tag,
                     size_t tag_len, int decrypt);
int aesir_pwr8_aegis_update(int variant, unsigned op, uint8_t *state,
                            uint8_t *out, const uint8_t *in, size_t nblocks);

static const struct aesir_engine engine = {
    .name = "pwr8",
    .description = "POWER8 vcipher/vncipher (ISA 2.07), 8 blocks in flight",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = WIDE,
    .setkey_enc = pwr8_setkey,
    .setkey_dec = pwr8_setkey,
    .encrypt = pwr8_encrypt,
    .decrypt = pwr8_decrypt,
    .ctr = pwr8_ctr,
    .cbc_enc = pwr8_cbc_enc,
    .cfb_enc = pwr8_cfb_enc,
    .ofb = pwr8_ofb,
    .cbc_dec = pwr8_cbc_dec,
    .cfb_dec = pwr8_cfb_dec,
#ifdef AESIR_PWR8_GCM
    .gcm_enc = aesir_pwr8_gcm_enc,
    .gcm_dec = aesir_pwr8_gcm_dec,
    .gcm_ghash = "ghash-vpmsumd",
#endif
#ifdef AESIR_PWR8_CCM
    .ccm_enc = aesir_pwr8_ccm_enc,
    .ccm_dec = aesir_pwr8_ccm_dec,
#endif
#ifdef AESIR_PWR8_OCB
    .ocb_enc = aesir_pwr8_ocb_enc,
    .ocb_dec = aesir_pwr8_ocb_dec,
#endif
#ifdef AESIR_PWR8_XTS
    .xts_enc = aesir_pwr8_xts_enc,
    .xts_dec = aesir_pwr8_xts_dec,
#endif
    .aes_round = aesir_pwr8_aes_round,
    .aegis = aesir_pwr8_aegis,
    .aegis_update = aesir_pwr8_aegis_update,
};

const struct aesir_engine *aesir_engine_pwr8(void)
{
    return (aesir_cpu_features() & AESIR_CPU_POWER8) ? &engine : NULL;
}

#else /* not ppc64, or no compiler support */

const struct aesir_engine *aesir_engine_pwr8(void)
{
    return NULL;
}

#endif
