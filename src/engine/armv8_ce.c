/*
 * armv8_ce.c -- the ARMv8 Cryptography Extensions engine: AESE, AESMC,
 * AESD and AESIMC on 128-bit NEON registers (aarch64), 8 blocks in flight.
 *
 * Technique. The Arm instructions cut an AES round in a different place
 * from x86's AESENC (Arm Architecture Reference Manual for A-profile,
 * DDI 0487, "AESE", "AESMC", "AESD", "AESIMC"):
 *
 *   AESE  x, k = SubBytes(ShiftRows(x ^ k))       AESMC  x = MixColumns(x)
 *   AESD  x, k = InvSubBytes(InvShiftRows(x ^ k)) AESIMC x = InvMixColumns(x)
 *
 * The key goes in first. A FIPS-197 encryption (section 5.1) is therefore
 * AESE+AESMC with K0 .. K(nr-2) (the whitening XOR with K0 is inside the
 * first AESE), AESE with K(nr-1), and a plain EOR with K(nr): 2 nr - 1
 * AES instructions and one EOR per block. Decryption is the equivalent
 * inverse cipher of FIPS-197 section 5.3.5 in exactly the same shape:
 * AESD+AESIMC with K(nr), imc(K(nr-1)) .. imc(K2), AESD with imc(K1), EOR
 * with K0. The middle keys go through AESIMC once, at key setup.
 *
 * Layout. Round keys are 16-byte vectors in block byte order, round r at
 * rk + 16 r, so both kernels read the schedule in order, rk[0] first:
 *
 *   rk_enc:  K0  K1  ...  K(nr-2)  K(nr-1)  K(nr)        (FIPS-197 5.2)
 *   rk_dec:  K(nr)  imc(K(nr-1)) ... imc(K2)  imc(K1)  K0  (5.3.5)
 *            '---- AESE+AESMC / AESD+AESIMC ----'  '-AESE-' '-EOR-'
 *
 * The encryption schedule is byte for byte FIPS-197's (and ref's); the
 * decryption schedule is the one aesni stores.
 *
 * Key expansion. SubWord (FIPS-197 5.2) comes from AESE itself: when all
 * four columns of a register hold the same word, each row of the state
 * holds one byte value four times, ShiftRows (a rotation of each row) is
 * the identity, and AESE(x, 0) = SubBytes(x) = SubWord of that word in
 * every column. A TBL with a constant index vector broadcasts the word
 * and applies RotWord in the same instruction. (The analogue of the
 * "aesenclast" expansion of AES-NI code, Gueron, Intel white paper
 * 323641.) The running XOR w[i] = w[i-Nk] ^ w[i-1] over one register is
 * a prefix XOR: two EXTs against zero and two EORs.
 *
 * Throughput (quoted from Arm's optimisation guides and LLVM's scheduling
 * models, not measured: this was written under qemu; sources in
 * docs/engines/armv8-ce.md). AES instructions have a latency of 3 cycles
 * and issue 1 per cycle on Cortex-A57/A72; 2 cycles on Neoverse N1 (one
 * pipe); 2 cycles, 2 per cycle on Cortex-A78; 2 cycles, 4 per cycle on
 * Neoverse V2, whose guide (Arm 109898, section 4.6) asks for "at least
 * eight data chunks" interleaved. A block's round is a dependent
 * AESE/AESMC pair, so one block alone keeps the units busy a fraction of
 * the time. The parallel modes (ECB, CTR, CBC and CFB decryption) take 8
 * blocks through each round before the next round: enough for the widest of
 * these cores. Each pair is emitted adjacent and on one register (AESE v,
 * k; AESMC v, v), the form the guides ask for (the cores fuse it). A tail
 * of 1..7 blocks takes a kernel of exactly that width (ENGINE_TAIL7). CBC
 * encryption is serial; its chain is exactly nr AESE and nr-1 AESMC per
 * block, the last-round and chaining XORs folded into the next block's
 * first key (see armv8_ce_cbc_enc).
 *
 * Constant time: YES, given that the AES instructions are (fixed-latency
 * hardware without tables on the cores above; the engine does not touch
 * PSTATE.DIT, which is the caller's to set). No branch or address
 * depends on the key or the data; the only branches are on nr, the block
 * count and, in CTR, the (public) counter value. TBL is used only with
 * constant index vectors. Secrets live in vector registers and the
 * round-key area; gcc 12 at -O2, -O3 and -Os and clang 14 at -O2 and -O3
 * (the build uses -O3) spill no vector register to the stack, so there is
 * nothing to wipe. At -O0/-O1, and with clang -Os (which does not unroll
 * the lane loops), AES states go through the stack, as they would in any
 * C code.
 *
 * Batch: 8 blocks.
 */
#include "internal.h"

#if defined(__aarch64__)

#include <arm_neon.h>

/*
 * The AES instructions are enabled per function (ENGINE_FN,
 * ENGINE_INLINE), so the default aarch64 build (no -march=...+crypto)
 * holds the engine and enables it at run time. gcc spells the extension
 * "+crypto"; clang "aes". clang before 16 declares vaeseq_u8 and friends
 * only when the whole file is compiled for AES, so there the builtins
 * behind them are called directly (type code 48 is uint8x16_t).
 */
#if defined(__clang__)
#define ENGINE_ISA "aes"
#if __clang_major__ < 16 && !defined(__ARM_FEATURE_AES)
#define CE_BUILTINS 1
#endif
#else
#define ENGINE_ISA "+crypto"
#endif
#include "engine.h"
#include "gcm_kernels.h" /* fused GCM: armv8_ce_gcm.c */
#include "ccm_kernels.h" /* fused CCM: armv8_ce_ccm.c */
#include "ocb_kernels.h" /* OCB3: armv8_ce_ocb.c */
#include "xts_kernels.h" /* fused XTS: armv8_ce_xts.c */

/* Lanes of the wide kernel. */
#define WIDE 8

/* Every loop over lanes (or over round keys, in armv8_ce_cbc_enc) has a
 * constant trip count once inlined; gcc keeps such arrays in registers only
 * when the loops unroll before its scalar replacement pass, which the pragma
 * guarantees at -O2 and -Os too. (clang does it at -O2/-O3 without, and
 * with "#pragma unroll" starts spilling lanes.) */
#if defined(__clang__)
#define UNROLL
#else
#define UNROLL _Pragma("GCC unroll 16")
#endif
#define LANES UNROLL

#ifdef CE_BUILTINS
ENGINE_INLINE uint8x16_t aese(uint8x16_t x, uint8x16_t k)
{
    return (uint8x16_t)__builtin_neon_vaeseq_v((int8x16_t)x, (int8x16_t)k, 48);
}
ENGINE_INLINE uint8x16_t aesd(uint8x16_t x, uint8x16_t k)
{
    return (uint8x16_t)__builtin_neon_vaesdq_v((int8x16_t)x, (int8x16_t)k, 48);
}
ENGINE_INLINE uint8x16_t aesmc(uint8x16_t x)
{
    return (uint8x16_t)__builtin_neon_vaesmcq_v((int8x16_t)x, 48);
}
ENGINE_INLINE uint8x16_t aesimc(uint8x16_t x)
{
    return (uint8x16_t)__builtin_neon_vaesimcq_v((int8x16_t)x, 48);
}
#else
ENGINE_INLINE uint8x16_t aese(uint8x16_t x, uint8x16_t k)
{
    return vaeseq_u8(x, k);
}
ENGINE_INLINE uint8x16_t aesd(uint8x16_t x, uint8x16_t k)
{
    return vaesdq_u8(x, k);
}
ENGINE_INLINE uint8x16_t aesmc(uint8x16_t x)
{
    return vaesmcq_u8(x);
}
ENGINE_INLINE uint8x16_t aesimc(uint8x16_t x)
{
    return vaesimcq_u8(x);
}
#endif

ENGINE_INLINE uint8x16_t loadu(const uint8_t *p)
{
    return vld1q_u8(p);
}

ENGINE_INLINE void storeu(uint8_t *p, uint8x16_t x)
{
    vst1q_u8(p, x);
}

/* ---- key expansion ---------------------------------------------------- */

/* [x0 x1 x2 x3] -> [x0, x0^x1, x0^x1^x2, x0^x1^x2^x3] (32-bit lanes). */
ENGINE_INLINE uint32x4_t prefix_xor(uint32x4_t x)
{
    const uint32x4_t z = vdupq_n_u32(0);
    x = veorq_u32(x, vextq_u32(z, x, 3));
    return veorq_u32(x, vextq_u32(z, x, 2));
}

/* SubWord of a word broadcast to all four columns, where ShiftRows is the
 * identity: AESE with a zero key is then SubBytes alone. */
ENGINE_INLINE uint32x4_t sub_bcast(uint32x4_t w)
{
    return vreinterpretq_u32_u8(aese(vreinterpretq_u8_u32(w), vdupq_n_u8(0)));
}

/* SubWord(RotWord(word l of x)) ^ rcon, in all four columns. The TBL
 * index broadcasts word l already rotated: bytes 4l+1, 4l+2, 4l+3, 4l. */
ENGINE_INLINE uint32x4_t subrot(uint32x4_t x, unsigned l, uint32_t rcon)
{
    const uint8_t b = (uint8_t)(4 * l);
    const uint8x16_t idx = {b + 1, b + 2, b + 3, b, b + 1, b + 2, b + 3, b,
                            b + 1, b + 2, b + 3, b, b + 1, b + 2, b + 3, b};
    uint32x4_t t =
        vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), idx));
    return veorq_u32(sub_bcast(t), vdupq_n_u32(rcon));
}

ENGINE_INLINE void put(uint8_t *rk, unsigned r, uint32x4_t k)
{
    vst1q_u8(rk + 16 * r, vreinterpretq_u8_u32(k));
}

ENGINE_INLINE uint32x4_t get32(const uint8_t *p)
{
    return vreinterpretq_u32_u8(vld1q_u8(p));
}

/* The next round constant (FIPS-197 5.2: x^(i-1) in GF(2^8)); public. */
static inline uint32_t next_rcon(uint32_t rcon)
{
    return ((rcon << 1) ^ (0x11b & (0u - (rcon >> 7)))) & 0xff;
}

/* AES-128: each step makes the next 4 words from the previous 4. */
ENGINE_INLINE void expand128(uint8_t *rk, const uint8_t *key)
{
    uint32x4_t a = get32(key);
    uint32_t rcon = 1;
    put(rk, 0, a);
    for (unsigned r = 1; r <= 10; r++) {
        a = veorq_u32(prefix_xor(a), subrot(a, 3, rcon));
        put(rk, r, a);
        rcon = next_rcon(rcon);
    }
}

/*
 * AES-192: 6 words per step, in a = [w0 w1 w2 w3] and b = [w4 w5 * *].
 * With t = SubWord(RotWord(w5)) ^ Rcon broadcast, the next six words are
 *
 *   a' = prefix_xor(a) ^ t                                  [w6 .. w9]
 *   b' = (b ^ b << 32) ^ bcast(lane 3 of prefix_xor(a)) ^ t [w10 w11 * *]
 *
 * (lane 3 of a' is lane 3 of prefix_xor(a) ^ t, and t is a broadcast, so
 * the broadcast needs no wait for the AESE). Two steps give three round
 * keys, each stored whole:
 *
 *   words:  a a a a | b b a' a' | a' a' b' b' | a'' ...
 *   keys:   K(3j)     K(3j+1)     K(3j+2)       K(3j+3)
 */
ENGINE_INLINE void step192(uint32x4_t *a, uint32x4_t *b, uint32_t rcon)
{
    const uint32x4_t z = vdupq_n_u32(0);
    uint32x4_t t = subrot(*b, 1, rcon);
    uint32x4_t pa = prefix_xor(*a);
    uint32x4_t pb = veorq_u32(*b, vextq_u32(z, *b, 3));
    pb = veorq_u32(pb, vdupq_laneq_u32(pa, 3));
    *a = veorq_u32(pa, t);
    *b = veorq_u32(pb, t);
}

ENGINE_INLINE void expand192(uint8_t *rk, const uint8_t *key)
{
    uint32x4_t a = get32(key);
    uint32x4_t b =
        vcombine_u32(vreinterpret_u32_u8(vld1_u8(key + 16)), vdup_n_u32(0));
    uint32_t rcon = 1;
    for (unsigned j = 0; j < 4; j++) {
        uint32x4_t b0 = b;
        put(rk, 3 * j, a);
        step192(&a, &b, rcon);
        rcon <<= 1;
        put(rk, 3 * j + 1, vcombine_u32(vget_low_u32(b0), vget_low_u32(a)));
        put(rk, 3 * j + 2, vextq_u32(a, b, 2));
        step192(&a, &b, rcon);
        rcon <<= 1;
    }
    put(rk, 12, a);
}

/* AES-256: alternate steps, a from b's last word with RotWord and Rcon,
 * b from a's last word with SubWord only (FIPS-197 5.2, i mod 8 = 4). */
ENGINE_INLINE void expand256(uint8_t *rk, const uint8_t *key)
{
    uint32x4_t a = get32(key), b = get32(key + 16);
    uint32_t rcon = 1;
    put(rk, 0, a);
    put(rk, 1, b);
    for (unsigned r = 2;; r += 2) {
        a = veorq_u32(prefix_xor(a), subrot(b, 3, rcon));
        put(rk, r, a);
        if (r == 14)
            break;
        rcon <<= 1;
        b = veorq_u32(prefix_xor(b), sub_bcast(vdupq_laneq_u32(a, 3)));
        put(rk, r + 1, b);
    }
}

ENGINE_FN void armv8_ce_setkey_enc(void *rk, const uint8_t *key, size_t key_len)
{
    uint8_t *k = (uint8_t *)__builtin_assume_aligned(rk, 16);
    if (key_len == 16)
        expand128(k, key);
    else if (key_len == 24)
        expand192(k, key);
    else
        expand256(k, key);
}

/* The equivalent inverse cipher's schedule, reversed in place: K(nr) and
 * K0 swap ends, the middle keys swap pairwise through AESIMC. */
ENGINE_FN void armv8_ce_setkey_dec(void *rk, const uint8_t *key, size_t key_len)
{
    uint8_t *k = (uint8_t *)__builtin_assume_aligned(rk, 16);
    unsigned nr = (unsigned)key_len / 4 + 6;
    armv8_ce_setkey_enc(rk, key, key_len);
    uint8x16_t first = loadu(k), last = loadu(k + 16 * nr);
    storeu(k, last);
    storeu(k + 16 * nr, first);
    for (unsigned i = 1, j = nr - 1; i < j; i++, j--) {
        uint8x16_t x = loadu(k + 16 * i), y = loadu(k + 16 * j);
        storeu(k + 16 * i, aesimc(y));
        storeu(k + 16 * j, aesimc(x));
    }
    storeu(k + 16 * (nr / 2), aesimc(loadu(k + 16 * (nr / 2))));
}

/* ---- n-lane round kernels ---------------------------------------------
 * n is a compile-time constant at every call (the functions are always
 * inlined), so the lane loops unroll and b[] lives in registers. The round
 * keys are loaded where they are used: gcc and clang reload them, two per
 * LDP, once per group of 8 blocks (nr / 2 + 1 loads per 8 nr AES pairs,
 * on load pipes of their own), and the lanes take 8 of the 32 vector
 * registers. */

ENGINE_INLINE uint8x16_t rkey(const uint8_t *rk, unsigned r)
{
    return vld1q_u8(rk + 16 * r);
}

/* One full round on every lane: the pair stays adjacent and on one
 * register, the form the cores fuse. (gcc and clang both keep it so.) */
#define ROUND(r)                                                               \
    do {                                                                       \
        const uint8x16_t t_ = rkey(rk, (r));                                   \
        LANES                                                                  \
        for (unsigned j_ = 0; j_ < n; j_++)                                    \
            b[j_] = dec ? aesimc(aesd(b[j_], t_)) : aesmc(aese(b[j_], t_));    \
    } while (0)

/*
 * All nr rounds on n lanes: rk[0..nr-2] in full rounds, rk[nr-1] in the
 * last AESE/AESD, rk[nr] by EOR. With dec = 0, rk is an encryption
 * schedule; with dec = 1, a decryption schedule.
 */
ENGINE_INLINE void rounds_n(uint8x16_t *b, unsigned n, const uint8_t *rk,
                            unsigned nr, int dec)
{
    ROUND(0);
    ROUND(1);
    ROUND(2);
    ROUND(3);
    ROUND(4);
    ROUND(5);
    ROUND(6);
    ROUND(7);
    ROUND(8);
    if (nr > 10) {
        ROUND(9);
        ROUND(10);
        if (nr > 12) {
            ROUND(11);
            ROUND(12);
        }
    }
    const uint8x16_t kp = rkey(rk, nr - 1), kl = rkey(rk, nr);
    LANES
    for (unsigned j = 0; j < n; j++)
        b[j] = veorq_u8(dec ? aesd(b[j], kp) : aese(b[j], kp), kl);
}

ENGINE_INLINE void load_n(uint8x16_t *b, unsigned n, const uint8_t *in)
{
    LANES
    for (unsigned j = 0; j < n; j++)
        b[j] = loadu(in + 16 * j);
}

ENGINE_INLINE void store_n(uint8_t *out, const uint8x16_t *b, unsigned n)
{
    LANES
    for (unsigned j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

/* ---- ECB ---------------------------------------------------------------- */

ENGINE_INLINE void ecb_n(const uint8_t *rk, unsigned nr, uint8_t *out,
                         const uint8_t *in, unsigned n, int dec)
{
    uint8x16_t b[WIDE];
    load_n(b, n, in);
    rounds_n(b, n, rk, nr, dec);
    store_n(out, b, n);
}

ENGINE_INLINE void ecb(const void *rk_, unsigned nr, uint8_t *out,
                       const uint8_t *in, size_t nblocks, int dec)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        ecb_n(rk, nr, out, in, WIDE, dec);
#define ECB_TAIL(n) ecb_n(rk, nr, out, in, (n), dec)
    ENGINE_TAIL7(ECB_TAIL, nblocks)
#undef ECB_TAIL
}

ENGINE_FN void armv8_ce_encrypt(const void *rk, unsigned nr, uint8_t *out,
                                const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 0);
}

ENGINE_FN void armv8_ce_decrypt(const void *rk, unsigned nr, uint8_t *out,
                                const uint8_t *in, size_t nblocks)
{
    ecb(rk, nr, out, in, nblocks, 1);
}

/* ---- CTR ---------------------------------------------------------------- */

/*
 * The counter is kept as v = REV32 of the counter block: four 32-bit lanes
 * holding the big-endian words as numbers, the low word of the counter in
 * lane 3. The caller (armv8_ce_ctr) splits a call where the low 32 bits wrap,
 * so within one run a 32-bit lane add never needs a carry, and block j is
 * REV32(v + j): ADD and REV32, whole-register operations. (No counter
 * block is made by inserting a single lane: besides being slower, a
 * single-lane write feeding an AESE/AESMC pair is what Cortex-A57/A72
 * errata 1742098/1655431 are about, although those concern AArch32 only.)
 *
 * While the counter's last byte does not wrap within a group of 8 (31
 * groups out of 32 in a long run, all of them when byte 15 starts
 * 8-aligned), block j is made directly in big-endian form: adding j << 24
 * to lane 3 of the counter block adds j to byte 15. That is one ADD per
 * block instead of ADD + REV32, and the vector ALU instructions share
 * their pipes with the AES instructions.
 */
ENGINE_INLINE uint32x4_t lane3(uint32_t x)
{
    return vsetq_lane_u32(x, vdupq_n_u32(0), 3);
}

ENGINE_INLINE uint8x16_t rev32(uint32x4_t v)
{
    return vrev32q_u8(vreinterpretq_u8_u32(v));
}

/* x, which the compiler can no longer see as a constant. As constants,
 * the counter increments are folded into one literal-pool vector per lane
 * and form (14), which with the 8 lanes and the keys no longer fit the
 * registers: gcc spills some. Opaque, they stay the 8 we ask for. */
ENGINE_INLINE uint32x4_t opaque(uint32x4_t x)
{
    __asm__("" : "+w"(x));
    return x;
}

/* Counter blocks through the rounds, XORed into in. In the big-endian
 * form (byte15), block j is x + inc[j], inc[j] = lane3(j << 24): each
 * block a fresh register, x untouched. (Made by repeated adds instead,
 * every block would feed both a destructive AESE and the next add, and
 * gcc pays for that with register moves.) In the REV32 form, the rare
 * one, block j is REV32(x + j), made by repeated adds of inc[1] =
 * lane3(1). */
ENGINE_INLINE void ctr_n(const uint8_t *rk, unsigned nr, uint32x4_t x,
                         const uint32x4_t *inc, uint8_t *out, const uint8_t *in,
                         unsigned n, int byte15)
{
    uint8x16_t b[WIDE];
    if (byte15) {
        b[0] = vreinterpretq_u8_u32(x);
        LANES
        for (unsigned j = 1; j < n; j++)
            b[j] = vreinterpretq_u8_u32(vaddq_u32(x, inc[j]));
    } else {
        LANES
        for (unsigned j = 0; j < n; j++) {
            b[j] = rev32(x);
            x = vaddq_u32(x, inc[1]);
        }
    }
    rounds_n(b, n, rk, nr, 0);
    LANES
    for (unsigned j = 0; j < n; j++)
        storeu(out + 16 * j, veorq_u8(b[j], loadu(in + 16 * j)));
}

/*
 * m blocks from the counter v (REV32 form), whose low word is lo, no carry
 * out of the low 32 bits among them. The groups of 8 before byte 15 next
 * wraps, (256 - byte 15) / 8 of them, run in the big-endian form; then, if
 * byte 15 is not back at a multiple of 8, one group in the REV32 form
 * crosses the wrap. Two loops rather than a branch per group: with the
 * branch, gcc hoists the rounds the two forms have in common above it and
 * pays with a dozen register moves per group.
 */
ENGINE_INLINE void ctr_run(const uint8_t *rk, unsigned nr, uint32x4_t v,
                           uint32_t lo, uint8_t *out, const uint8_t *in,
                           size_t m)
{
    const uint32x4_t step = lane3(WIDE);
    const uint32x4_t inc1[2] = {lane3(0), opaque(lane3(1))};
    uint32x4_t inc15[WIDE];
    LANES
    for (unsigned j = 0; j < WIDE; j++)
        inc15[j] = opaque(lane3(j << 24));
    while (m >= WIDE) {
        for (size_t g = (256 - (lo & 0xff)) / WIDE; g > 0 && m >= WIDE; g--) {
            ctr_n(rk, nr, vreinterpretq_u32_u8(rev32(v)), inc15, out, in, WIDE,
                  1);
            v = vaddq_u32(v, step);
            lo += WIDE, m -= WIDE, in += 16 * WIDE, out += 16 * WIDE;
        }
        if (m >= WIDE && (lo & 0xff) > 256 - WIDE) {
            ctr_n(rk, nr, v, inc1, out, in, WIDE, 0);
            v = vaddq_u32(v, step);
            lo += WIDE, m -= WIDE, in += 16 * WIDE, out += 16 * WIDE;
        }
    }
#define CTR_TAIL(n) ctr_n(rk, nr, v, inc1, out, in, (n), 0)
    ENGINE_TAIL7(CTR_TAIL, m)
#undef CTR_TAIL
}

/*
 * Runs end where the low 32 bits of the counter wrap: at most once per
 * 2^32 blocks (64 GiB), and never within a call that uses a 32-bit counter
 * correctly. The new counter is written back with one 16-byte store, so
 * the next call's 16-byte load can take it from the store buffer; only a
 * run ending exactly at the wrap carries into the upper 96 bits, through
 * aesir_ctr_add. So all 128 bits count, as in ref.
 */
ENGINE_FN void armv8_ce_ctr(const void *rk_, unsigned nr, uint8_t ctr[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    while (nblocks > 0) {
        uint32_t lo = aesir_load_be32(ctr + 12);
        uint64_t room = ((uint64_t)1 << 32) - lo;
        size_t m = (uint64_t)nblocks > room ? (size_t)room : nblocks;
        uint32x4_t v = vreinterpretq_u32_u8(vrev32q_u8(loadu(ctr)));
        ctr_run(rk, nr, v, lo, out, in, m);
        if ((uint64_t)m < room)
            storeu(ctr, rev32(vaddq_u32(v, lane3((uint32_t)m))));
        else
            aesir_ctr_add(ctr, m);
        in += 16 * m, out += 16 * m, nblocks -= m;
    }
}

/* ---- CBC ---------------------------------------------------------------- */

/*
 * Encryption is a chain: block i's input is p_i ^ c_(i-1). With y_i the
 * output of block i's last AESE, c_i = y_i ^ K(nr), and the next block
 * starts with AESE(c_i ^ p_(i+1), K0) = AESE(y_i, K(nr) ^ K0 ^ p_(i+1)),
 * since AESE XORs its two operands first. That key is computed off the
 * chain (one EOR with the precomputed K(nr) ^ K0), and so is the
 * ciphertext c_i = y_i ^ K(nr), which is only stored. The chain is then
 * nr AESE and nr - 1 AESMC per block and nothing else. Starting from
 * y = iv ^ K(nr) makes block 0 the same as the others.
 *
 * The schedule is read into registers once (k[], at most 16 of the 32):
 * the kernels' way of loading keys where they are used would reload them
 * for every block here, since the store to out may alias rk. For AES-128,
 * k[11] and k[12] (past K10) are not read from rk; they get K0, unused.
 */
/* Rounds 1 .. nr - 2 of one block of the serial kernels below (AESE and
 * AESMC with k[1..nr-2] in registers); the caller does the first AESE
 * and the last one. */
ENGINE_INLINE uint8x16_t serial_rounds(uint8x16_t x, const uint8x16_t k[13],
                                       unsigned nr)
{
    UNROLL
    for (unsigned r = 1; r < 9; r++)
        x = aesmc(aese(x, k[r]));
    if (nr > 10) {
        x = aesmc(aese(aesmc(aese(x, k[9])), k[10]));
        if (nr > 12)
            x = aesmc(aese(aesmc(aese(x, k[11])), k[12]));
    }
    return x;
}

ENGINE_FN void armv8_ce_cbc_enc(const void *rk_, unsigned nr, uint8_t iv[16],
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    const uint8x16_t kl = rkey(rk, nr), kp = rkey(rk, nr - 1);
    const uint8x16_t k0l = veorq_u8(rkey(rk, 0), kl);
    uint8x16_t k[13], y;

    if (nblocks == 0)
        return;
    UNROLL
    for (unsigned r = 1; r < 13; r++)
        k[r] = rkey(rk, r <= 10 || nr > 10 ? r : 0);
    y = veorq_u8(loadu(iv), kl);
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        uint8x16_t x =
            serial_rounds(aesmc(aese(y, veorq_u8(k0l, loadu(in)))), k, nr);
        y = aese(x, kp);
        storeu(out, veorq_u8(y, kl));
    }
    storeu(iv, veorq_u8(y, kl));
}

/*
 * CFB128 encryption and OFB, the same fold. With y_i the output of block
 * i's last AESE, the block's output is o_i = y_i ^ K(nr). CFB: c_i = o_i ^
 * p_i is the next input, so the next block starts with AESE(y_i, K(nr) ^
 * K0 ^ p_i); OFB: o_i is, so AESE(y_i, K(nr) ^ K0). Both keys and the
 * outputs are XORs off the chain; block 0 starts from y = iv ^ K(nr).
 */
ENGINE_INLINE void stream_enc(const void *rk_, unsigned nr, uint8_t iv[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks,
                              int ofb)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    const uint8x16_t kl = rkey(rk, nr), kp = rkey(rk, nr - 1);
    const uint8x16_t k0l = veorq_u8(rkey(rk, 0), kl);
    uint8x16_t k[13], y, m = k0l, next = k0l;

    if (nblocks == 0)
        return;
    UNROLL
    for (unsigned r = 1; r < 13; r++)
        k[r] = rkey(rk, r <= 10 || nr > 10 ? r : 0);
    y = veorq_u8(loadu(iv), kl);
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        uint8x16_t p = loadu(in), x = serial_rounds(aesmc(aese(y, m)), k, nr);
        y = aese(x, kp);
        /* o = y ^ K(nr); out = o ^ p; the register: c = out (CFB), o (OFB) */
        next = veorq_u8(veorq_u8(y, kl), p);
        storeu(out, next);
        if (!ofb)
            m = veorq_u8(k0l, p);
    }
    storeu(iv, ofb ? veorq_u8(y, kl) : next);
}

ENGINE_FN void armv8_ce_cfb_enc(const void *rk, unsigned nr, uint8_t iv[16],
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    stream_enc(rk, nr, iv, out, in, nblocks, 0);
}

ENGINE_FN void armv8_ce_ofb(const void *rk, unsigned nr, uint8_t iv[16],
                            uint8_t *out, const uint8_t *in, size_t nblocks)
{
    stream_enc(rk, nr, iv, out, in, nblocks, 1);
}

/*
 * Decryption: 8 blocks decrypt in parallel, then p_j = D(c_j) ^ c_(j-1).
 * The previous ciphertexts are re-read from in rather than held (loads
 * are cheaper than the register moves 8 more live values cost), so with
 * in == out the lanes are stored last first: storing p_j overwrites c_j only
 * after p_(j+1) has used it. The next chaining value is read before anything is
 * stored.
 */
ENGINE_INLINE void cbc_dec_n(const uint8_t *rk, unsigned nr, uint8x16_t *chain,
                             uint8_t *out, const uint8_t *in, unsigned n)
{
    uint8x16_t b[WIDE];
    uint8x16_t prev = *chain;
    load_n(b, n, in);
    *chain = b[n - 1];
    rounds_n(b, n, rk, nr, 1);
    LANES
    for (unsigned j = n; j-- > 1;)
        storeu(out + 16 * j, veorq_u8(b[j], loadu(in + 16 * (j - 1))));
    storeu(out, veorq_u8(b[0], prev));
}

/* CBC or CFB128 decryption of nblocks: the 8-lane kernel, then a tail of
 * exactly the width left. */
ENGINE_INLINE void dec_chained(const void *rk_, unsigned nr, uint8_t iv[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks,
                               int cfb);

ENGINE_FN void armv8_ce_cbc_dec(const void *rk, unsigned nr, uint8_t iv[16],
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    dec_chained(rk, nr, iv, out, in, nblocks, 0);
}

/* ---- CFB128 decryption -------------------------------------------------
 *
 * P_j = C_j ^ E(C_(j-1)) with C_(-1) the chaining value (SP 800-38A 6.3):
 * the cipher inputs are the ciphertext shifted by one block, so 8
 * encryptions (rk is the encryption schedule) run side by side as in ECB
 * and the tails take the same per-width kernels. Every cipher input and
 * the next chaining value C_(n-1) are loaded before the first store; after
 * that, the store of P_j is preceded by its own load of C_j, which no
 * later lane needs, so in == out works.
 */
ENGINE_INLINE void cfb_dec_n(const uint8_t *rk, unsigned nr, uint8x16_t *chain,
                             uint8_t *out, const uint8_t *in, unsigned n)
{
    uint8x16_t b[WIDE];
    b[0] = *chain;
    LANES
    for (unsigned j = 1; j < n; j++)
        b[j] = loadu(in + 16 * (j - 1));
    *chain = loadu(in + 16 * (n - 1));
    rounds_n(b, n, rk, nr, 0);
    LANES
    for (unsigned j = 0; j < n; j++)
        storeu(out + 16 * j, veorq_u8(b[j], loadu(in + 16 * j)));
}

ENGINE_INLINE void dec_chained(const void *rk_, unsigned nr, uint8_t iv[16],
                               uint8_t *out, const uint8_t *in, size_t nblocks,
                               int cfb)
{
    const uint8_t *rk = ENGINE_RK(rk_);
    uint8x16_t chain = loadu(iv);
#define DEC_N(n)                                                               \
    (cfb ? cfb_dec_n(rk, nr, &chain, out, in, (n))                             \
         : cbc_dec_n(rk, nr, &chain, out, in, (n)))
    for (; nblocks >= WIDE; nblocks -= WIDE, in += 16 * WIDE, out += 16 * WIDE)
        DEC_N(WIDE);
    ENGINE_TAIL7(DEC_N, nblocks)
#undef DEC_N
    storeu(iv, chain);
}

ENGINE_FN void armv8_ce_cfb_dec(const void *rk, unsigned nr, uint8_t iv[16],
                                uint8_t *out, const uint8_t *in, size_t nblocks)
{
    dec_chained(rk, nr, iv, out, in, nblocks, 1);
}

#ifdef AESIR_ARMV8_CE_GCM
void aesir_armv8_ce_aes_round(uint8_t *state, const uint8_t *rk, size_t n);
int aesir_armv8_ce_aegis(int variant, const uint8_t *key, const uint8_t *nonce,
                         const uint8_t *aad, size_t aad_len, uint8_t *out,
                         const uint8_t *in, size_t len, uint8_t *tag,
                         size_t tag_len, int decrypt);
int aesir_armv8_ce_aegis_update(int variant, unsigned op, uint8_t *state,
                                uint8_t *out, const uint8_t *in,
                                size_t nblocks);
#endif

static const struct aesir_engine engine = {
    .name = "armv8-ce",
    .description = "ARMv8 Crypto Extensions (AESE/AESMC), 8 blocks in flight",
    .flags = ENGINE_CT | ENGINE_HW,
    .batch = WIDE,
    .setkey_enc = armv8_ce_setkey_enc,
    .setkey_dec = armv8_ce_setkey_dec,
    .encrypt = armv8_ce_encrypt,
    .decrypt = armv8_ce_decrypt,
    .ctr = armv8_ce_ctr,
    .cbc_enc = armv8_ce_cbc_enc,
    .cfb_enc = armv8_ce_cfb_enc,
    .ofb = armv8_ce_ofb,
    .cbc_dec = armv8_ce_cbc_dec,
    .cfb_dec = armv8_ce_cfb_dec,
#ifdef AESIR_ARMV8_CE_GCM
    .gcm_enc = aesir_armv8_ce_gcm_enc,
    .gcm_dec = aesir_armv8_ce_gcm_dec,
    .gcm_ghash = "ghash-pmull",
    .aes_round = aesir_armv8_ce_aes_round, /* armv8_ce_aegis.c */
    .aegis = aesir_armv8_ce_aegis,
    .aegis_update = aesir_armv8_ce_aegis_update,
#endif
#ifdef AESIR_ARMV8_CE_CCM
    .ccm_enc = aesir_armv8_ce_ccm_enc,
    .ccm_dec = aesir_armv8_ce_ccm_dec,
#endif
    .ocb_enc = aesir_armv8_ce_ocb_enc,
    .ocb_dec = aesir_armv8_ce_ocb_dec,
#ifdef AESIR_ARMV8_CE_XTS
    .xts_enc = aesir_armv8_ce_xts_enc,
    .xts_dec = aesir_armv8_ce_xts_dec,
#endif
};

const struct aesir_engine *aesir_engine_armv8_ce(void)
{
    return (aesir_cpu_features() & AESIR_CPU_ARMV8_AES) ? &engine : NULL;
}

#else /* not aarch64 */

const struct aesir_engine *aesir_engine_armv8_ce(void)
{
    return NULL;
}

#endif
