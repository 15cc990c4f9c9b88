/*
 * aegis_kernel.h -- whole-message AEGIS kernels (internal.h,
 * aesir_aegis_fn) written once for any vector of D AES blocks: the state
 * in D-lane vector registers, one vector AES round per state row and
 * update (draft-irtf-cfrg-aegis-aead-17 sections 3, 4 and 5; D = 1 is
 * AEGIS-128L / AEGIS-256, D = 2 and 4 the X2 and X4 variants, whose
 * lane i is instance i: "V[j,i]" of section 5.1 is lane i of row j).
 *
 * Included by an engine's *_aegis.c once per vector width, after
 * engine.h, stack_wipe.h (the kernels are STACK_WIPE_BODY: the caller
 * wipes their frames), aegis.h and its intrinsics header, with these
 * defined:
 *
 *   AK_V              the vector type (__m128i, __m256i, __m512i, ...)
 *   AK_D              its lanes of 16 bytes: 1, 2 or 4
 *   AK_LOAD(p)        16 AK_D bytes at p, any alignment
 *   AK_STORE(p, v)    the same, stored
 *   AK_XOR, AK_AND    lane-wise bit operations
 *   AK_ENC(x, k)      AESRound (draft section 2) in every lane:
 *                     MixColumns(ShiftRows(SubBytes(x))) ^ k (x86
 *                     AESENC; ARMv8 AESMC(AESE(x, 0)) ^ k)
 *   AK_BCAST(p)       the 16 bytes at p in every lane
 *   AK_NAME(x)        the engine's name for function x
 *   AK_LENS(a, m)     optional: the 128-bit a || m (little-endian 64-bit
 *                     words) in every lane, built in registers
 *   AK_XOR3(a, b, c)  optional: a ^ b ^ c in one instruction
 *   AK_XORAND(a, b, c)  optional: a ^ (b & c) in one instruction
 *                     (AVX-512VL VPTERNLOG; ARMv8.2 EOR3 / BCAX would do)
 *   AK_B_ATTR         optional: attributes of AK_NAME(b) (vaes-avx512:
 *                     gcc's post-allocation scheduler off, see there)
 *   AK_SKIP_L         optional: no AK_NAME(l) (the engine has its own
 *                     one-shot AEGIS-128L kernel at this width:
 *                     aegis_pair.h)
 *   AK_ENC_IN(d, st)  optional: d = AK_ENC(st, d), the result in d's own
 *                     register (see AK_UPDATE_L)
 *   AK_XOR_IN(d, a), AK_XOR3_IN(d, a, b), AK_XORAND_IN(d, a, b)
 *                     optional, all three or none: d ^= a, d ^= a ^ b,
 *                     d ^= a & b in d's register; with them AEGIS-128L's
 *                     encryption loop is written in place (below)
 *   AK_LOADN(p, n), AK_STOREN(p, v, n), AK_CUTN(v, n)
 *                     optional: the first n < 16 AK_D bytes at p (the
 *                     rest zero), v's first n bytes stored to p, v with
 *                     the bytes from n on zeroed, touching no byte past
 *                     n (AVX-512BW masked loads and stores): AK_NAME(b)'s
 *                     partial blocks then need no copy on the stack
 *
 * It defines AK_NAME(l)(...) for the AEGIS-128L family and AK_NAME(b)
 * for the AEGIS-256 family, both of aesir_aegis_fn's arguments minus the
 * variant, AK_NAME(lu) and AK_NAME(bu) of aesir_aegis_update_fn's (the
 * incremental API's whole blocks on a state in memory), and undefines
 * the macros, so the next width can follow.
 *
 * Why whole messages: the state (8 or 6 vectors) stays in registers from
 * Init to Finalize; a kernel that returned after the bulk would spill it
 * to memory and reload it for the tail, and every message pays for Init
 * (10 or 16 updates) anyway. The data path is one update per rate bytes:
 * AEGIS-128L's 8 AES rounds per 32 bytes are independent of each other
 * and the chain from one update to the next is one AESENC (plus the XOR
 * of the message into S0 and S4), so the loop runs at the AES units'
 * throughput when the latency (4 cycles on Zen 4, 3-4 on Intel) is
 * covered by the 8 (or 6) rounds of an update.
 *
 * Partial blocks (the AAD's and the message's last) go through a
 * zero-padded copy on the stack, wiped; decryption of a partial block
 * absorbs the zero-padded plaintext (DecPartial, 3.8 / 4.8). The tag is
 * written last, after every read of in.
 *
 * Constant time: AES instructions and bit operations take data-
 * independent time; branches and addresses depend only on lengths.
 */

/* ctx[i] = Byte(i) || Byte(D - 1) || 0^112 (5.4.2, 5.5.2): aegis.h's
 * table; and the lengths block LE64(ad bits) || LE64(msg bits) (3.9). */
#define AK_CTX() AK_LOAD(aegis_ctx[AK_D / 2])

#ifdef AK_LENS
/* The engine builds it in registers: two 8-byte stores read back as one
 * 16-byte load cannot be forwarded from the store queue, and the load
 * then waits for both stores to retire, on the path to the tag (some 15
 * TSC cycles of a 64-byte message on Zen 4). */
#define AK_NAME_LENS(a, m) AK_LENS((a)*8, (m)*8)
#else
ENGINE_INLINE AK_V AK_NAME(lens)(uint64_t ad_len, uint64_t msg_len)
{
    uint8_t u[16];
    aegis_store_le64(u, ad_len * 8);
    aegis_store_le64(u + 8, msg_len * 8);
    return AK_BCAST(u);
}
#define AK_NAME_LENS(a, m) AK_NAME(lens)(a, m)
#endif

/*
 * The keystream's bit operations as three-input ones where the ISA has
 * them: AEGIS-128L's update is 8 AES rounds and 12 bit operations, and
 * on Zen 4 all 20 share the four vector pipes; with VPTERNLOG the
 * keystream and the output take 4 operations instead of 8 (16 in all).
 * Measured (Zen 4, gcc 12): encryption as fast as before (the loop is
 * bound by the chain of rounds, about 5.9 core cycles an update against
 * the 4.25 of the dependences, not by the pipes), short messages and
 * AEGIS-256 decryption a little faster; AEGIS-128L decryption slower,
 * so it keeps two-input operations (AK_Z0_L).
 */
#ifdef AK_XOR3
#define AK_HAVE_XOR3 1
#else
#define AK_HAVE_XOR3 0
#define AK_XOR3(a, b, c) AK_XOR(AK_XOR((a), (b)), (c))
#endif
#ifndef AK_B_ATTR
#define AK_B_ATTR
#endif
#ifndef AK_XORAND
#define AK_XORAND(a, b, c) AK_XOR((a), AK_AND((b), (c)))
#endif
#ifndef AK_ENC_IN
#define AK_ENC_IN(d, st) ((d) = AK_ENC((st), (d)))
#endif

/* The tag: lanes XORed together (5.4.7, 5.5.7), 16 bytes of a. */
ENGINE_INLINE void AK_NAME(fold)(uint8_t *tag, AK_V a)
{
    uint64_t w[2 * AK_D];
    if (AK_D == 1) { /* one lane: no copy through the stack */
        AK_STORE(tag, a);
        return;
    }
    AK_STORE(w, a);
    for (unsigned i = 1; i < AK_D; i++)
        w[0] ^= w[2 * i], w[1] ^= w[2 * i + 1];
    memcpy(tag, w, 16);
    aesir_wipe(w, sizeof(w));
}

/* ---- the AEGIS-128L family: 8 rows, rate 32 D ---------------------- */

/*
 * Update (3.3, 5.4.1) with rows 0 and 4 kept lazily: the message enters
 * through the round key, and AESRound(x, k ^ m) = AESRound(x, k) ^ m, so
 * S'0 = AESRound(S7, b0) ^ (x0 ^ m0) with S0 = b0 ^ x0. The row's own
 * chain (b0 -> b0') is then one AESENC per update, not an XOR and an
 * AESENC; x0, the XOR of the messages so far, is a chain of XORs on data
 * loaded long before; the true S0 (b0 ^ x0) is needed only as the input
 * of S'1's round. Measured on Zen 4 (AESENC latency 4): AEGIS-128L at 16
 * KiB went from 5 to about 4.3 TSC cycles per update.
 */
#define AK_ROUNDS_L(t0_, t4_)                                                  \
    do {                                                                       \
        AK_ENC_IN(b0, s7);                                                     \
        AK_ENC_IN(s7, s6);                                                     \
        AK_ENC_IN(s6, s5);                                                     \
        AK_ENC_IN(s5, (t4_));                                                  \
        AK_ENC_IN(b4, s3);                                                     \
        AK_ENC_IN(s3, s2);                                                     \
        AK_ENC_IN(s2, s1);                                                     \
        AK_ENC_IN(s1, (t0_));                                                  \
    } while (0)
#define AK_UPDATE_L(m0, m1)                                                    \
    do {                                                                       \
        const AK_V t0_ = AK_XOR(b0, x0), t4_ = AK_XOR(b4, x4);                 \
        AK_ROUNDS_L(t0_, t4_);                                                 \
        x0 = AK_XOR(x0, (m0));                                                 \
        x4 = AK_XOR(x4, (m1));                                                 \
    } while (0)

/* x ^ Z0 and x ^ Z1 (3.6), two operations each with AK_XOR3 and
 * AK_XORAND */
#define AK_Z0X_L(x) AK_XORAND(AK_XOR3((x), s1, s6), s2, s3)
#define AK_Z1X_L(x) AK_XORAND(AK_XOR3((x), s2, s5), s6, s7)
/* Z0 and Z1 alone, for decryption: measured on Zen 4, gcc 12, the
 * three-input forms made the 16 KiB decryption loop 3% slower (2444
 * against 2366 TSC cycles; holding the plaintext back an update, so
 * that it reaches S0 through one three-input XOR, 4% slower) */
#define AK_Z0_L() AK_XOR(AK_XOR(s1, s6), AK_AND(s2, s3))
#define AK_Z1_L() AK_XOR(AK_XOR(s2, s5), AK_AND(s6, s7))

#ifndef AK_SKIP_L
STACK_WIPE_BODY ENGINE_FN void
AK_NAME(l)(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad,
           size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
           uint8_t *tag, size_t tag_len, int decrypt)
{
    enum { H = 16 * AK_D, R = 32 * AK_D };
    const AK_V k = AK_BCAST(key), n = AK_BCAST(nonce), ctx = AK_CTX();
    const AK_V c0 = AK_BCAST(aegis_c0), c1 = AK_BCAST(aegis_c1);
    AK_V b0 = AK_XOR(k, n), s1 = c1, s2 = c0, s3 = c1, b4 = AK_XOR(k, n);
    AK_V s5 = AK_XOR(k, c0), s6 = AK_XOR(k, c1), s7 = AK_XOR(k, c0);
    AK_V x0 = AK_XOR(k, k), x4 = x0; /* lazy rows: S0 = b0 ^ x0, S4 = b4 ^ x4 */
    uint8_t buf[R];
    size_t i;

    for (unsigned r = 0; r < 10; r++) { /* Init (3.4, 5.4.2) */
        if (AK_D > 1) { /* ctx is zero for D = 1: not on the chain */
            s3 = AK_XOR(s3, ctx);
            s7 = AK_XOR(s7, ctx);
        }
        AK_UPDATE_L(n, k);
    }
    for (i = 0; aad_len - i >= R; i += R) /* Absorb */
        AK_UPDATE_L(AK_LOAD(aad + i), AK_LOAD(aad + i + H));
    if (i < aad_len) {
        memset(buf, 0, R);
        memcpy(buf, aad + i, aad_len - i);
        AK_UPDATE_L(AK_LOAD(buf), AK_LOAD(buf + H));
    }
    if (!decrypt) {
#ifdef AK_XOR_IN
        /* Each operation's result in its own operand's register: written
         * as below, gcc 12 gave the rounds' results new registers and
         * copied them back at the end of the iteration, some 10 zmm moves
         * an update beside 8 VAESENC and 8 bit operations (vaes-avx512's
         * AEGIS-128X4, Zen 5: 5.6-5.9 core cycles an update at 16 KiB,
         * 5.1-5.2 in place; a loop of the rounds and the lazy rows' XORs
         * alone, in place, 5.1). The message is dead once x0 has it, so
         * its register takes the keystream. */
        for (i = 0; len - i >= R; i += R) { /* Enc (3.6), in place */
            AK_V m0 = AK_LOAD(in + i), m1 = AK_LOAD(in + i + H);
            const AK_V t0_ = AK_XOR(b0, x0), t4_ = AK_XOR(b4, x4);
            AK_XOR_IN(x0, m0);
            AK_XOR_IN(x4, m1);
            AK_XOR3_IN(m0, s1, s6); /* m0 ^ Z0 */
            AK_XORAND_IN(m0, s2, s3);
            AK_XOR3_IN(m1, s2, s5); /* m1 ^ Z1 */
            AK_XORAND_IN(m1, s6, s7);
            AK_STORE(out + i, m0);
            AK_STORE(out + i + H, m1);
            AK_ROUNDS_L(t0_, t4_);
        }
#else
        for (i = 0; len - i >= R; i += R) { /* Enc (3.6) */
            const AK_V m0 = AK_LOAD(in + i), m1 = AK_LOAD(in + i + H);
            AK_STORE(out + i, AK_Z0X_L(m0));
            AK_STORE(out + i + H, AK_Z1X_L(m1));
            AK_UPDATE_L(m0, m1);
        }
#endif
        if (i < len) {
            AK_V m0, m1;
            memset(buf, 0, R);
            memcpy(buf, in + i, len - i);
            m0 = AK_LOAD(buf), m1 = AK_LOAD(buf + H);
            AK_STORE(buf, AK_Z0X_L(m0));
            AK_STORE(buf + H, AK_Z1X_L(m1));
            memcpy(out + i, buf, len - i);
            AK_UPDATE_L(m0, m1);
        }
    } else {
        for (i = 0; len - i >= R; i += R) { /* Dec (3.7) */
            const AK_V m0 = AK_XOR(AK_LOAD(in + i), AK_Z0_L());
            const AK_V m1 = AK_XOR(AK_LOAD(in + i + H), AK_Z1_L());
            AK_STORE(out + i, m0);
            AK_STORE(out + i + H, m1);
            AK_UPDATE_L(m0, m1);
        }
        if (i < len) { /* DecPartial (3.8) */
            memset(buf, 0, R);
            memcpy(buf, in + i, len - i);
            AK_STORE(buf, AK_Z0X_L(AK_LOAD(buf)));
            AK_STORE(buf + H, AK_Z1X_L(AK_LOAD(buf + H)));
            memcpy(out + i, buf, len - i);
            memset(buf + (len - i), 0, R - (len - i));
            AK_UPDATE_L(AK_LOAD(buf), AK_LOAD(buf + H));
        }
    }
    { /* Finalize (3.9, 5.4.7) */
        const AK_V t = AK_XOR(s2, AK_NAME_LENS(aad_len, len));
        for (unsigned r = 0; r < 7; r++)
            AK_UPDATE_L(t, t);
    }
    {
        const AK_V s0 = AK_XOR(b0, x0), s4 = AK_XOR(b4, x4);
        if (tag_len == 16) {
            AK_NAME(fold)
            (tag, AK_XOR(AK_XOR(AK_XOR(s0, s1), AK_XOR(s2, s3)),
                         AK_XOR(AK_XOR(s4, s5), s6)));
        } else {
            AK_NAME(fold)(tag, AK_XOR(AK_XOR(s0, s1), AK_XOR(s2, s3)));
            AK_NAME(fold)(tag + 16, AK_XOR(AK_XOR(s4, s5), AK_XOR(s6, s7)));
        }
    }
    aesir_wipe(buf, sizeof(buf));
}

#endif /* AK_SKIP_L */

/*
 * The incremental API's blocks (internal.h, aesir_aegis_update_fn): the
 * state loaded from memory (row j at st + 16 AK_D j), n whole blocks of
 * rate bytes absorbed (op AEGIS_OP_AD), encrypted or decrypted with the
 * loops above, the state stored back. One load and one store of the
 * state per call: on 16 KiB updates a few cycles in some 4000.
 */
STACK_WIPE_BODY ENGINE_FN void
AK_NAME(lu)(uint8_t *st, unsigned op, uint8_t *out, const uint8_t *in, size_t n)
{
    enum { H = 16 * AK_D, R = 32 * AK_D };
    AK_V b0 = AK_LOAD(st), s1 = AK_LOAD(st + H), s2 = AK_LOAD(st + 2 * H);
    AK_V s3 = AK_LOAD(st + 3 * H), b4 = AK_LOAD(st + 4 * H);
    AK_V s5 = AK_LOAD(st + 5 * H), s6 = AK_LOAD(st + 6 * H);
    AK_V s7 = AK_LOAD(st + 7 * H), x0 = AK_XOR(b0, b0), x4 = x0;
    const size_t len = n * R;
    size_t i;

    if (op == AEGIS_OP_AD) {
        for (i = 0; i < len; i += R)
            AK_UPDATE_L(AK_LOAD(in + i), AK_LOAD(in + i + H));
    } else if (op == AEGIS_OP_ENC) {
        for (i = 0; i < len; i += R) {
            const AK_V m0 = AK_LOAD(in + i), m1 = AK_LOAD(in + i + H);
            AK_STORE(out + i, AK_Z0X_L(m0));
            AK_STORE(out + i + H, AK_Z1X_L(m1));
            AK_UPDATE_L(m0, m1);
        }
    } else {
        for (i = 0; i < len; i += R) {
            const AK_V m0 = AK_XOR(AK_LOAD(in + i), AK_Z0_L());
            const AK_V m1 = AK_XOR(AK_LOAD(in + i + H), AK_Z1_L());
            AK_STORE(out + i, m0);
            AK_STORE(out + i + H, m1);
            AK_UPDATE_L(m0, m1);
        }
    }
    AK_STORE(st, AK_XOR(b0, x0));
    AK_STORE(st + H, s1);
    AK_STORE(st + 2 * H, s2);
    AK_STORE(st + 3 * H, s3);
    AK_STORE(st + 4 * H, AK_XOR(b4, x4));
    AK_STORE(st + 5 * H, s5);
    AK_STORE(st + 6 * H, s6);
    AK_STORE(st + 7 * H, s7);
}

#undef AK_UPDATE_L
#undef AK_ROUNDS_L
#undef AK_Z0X_L
#undef AK_Z1X_L
#undef AK_Z0_L
#undef AK_Z1_L

/* ---- the AEGIS-256 family: 6 rows, rate 16 D ----------------------- */

/* The context into rows 3 and 5 before each Init update (5.5.2). */
#define AK_CTX_B()                                                             \
    do {                                                                       \
        if (AK_D > 1) {                                                        \
            s3 = AK_XOR(s3, ctx);                                              \
            s5 = AK_XOR(s5, ctx);                                              \
        }                                                                      \
    } while (0)

/* The rounds of an update (4.3, 5.5.1), t0 = S0 = b0 ^ x0 */
#define AK_ROUNDS_B(t0)                                                        \
    do {                                                                       \
        b0 = AK_ENC(s5, b0);                                                   \
        s5 = AK_ENC(s4, s5);                                                   \
        s4 = AK_ENC(s3, s4);                                                   \
        s3 = AK_ENC(s2, s3);                                                   \
        s2 = AK_ENC(s1, s2);                                                   \
        s1 = AK_ENC((t0), s1);                                                 \
    } while (0)

/* Update (4.3, 5.5.1), row 0 lazy as in AK_UPDATE_L. */
#define AK_UPDATE_B(m)                                                         \
    do {                                                                       \
        const AK_V t0_ = AK_XOR(b0, x0);                                       \
        AK_ROUNDS_B(t0_);                                                      \
        x0 = AK_XOR(x0, (m));                                                  \
    } while (0)

/* x ^ Z (4.6), x at a leaf as in AK_Z0X_L */
#define AK_ZX_B(x) AK_XOR(AK_XOR3((x), s1, s4), AK_XORAND(s5, s2, s3))

/*
 * Dec (4.7) of the block c, the whole update: the plaintext M = c ^ Z
 * into mo (to be stored), x0 ^= M, the rounds, and t0, S0 = b0 ^ x0 of
 * the next update (the input of its S'1 round), kept from one block to
 * the next. Why not AK_ZX_B and AK_UPDATE_B: in decryption M depends on
 * the state, so each row's path through M and x0 to the next S'1 round
 * is on a cycle of the chain (S1 -> M -> S0' -> S1 two updates on, S2
 * three, ...); written as the draft does (x0 ^= c ^ Z, then S0 = b0 ^
 * x0), S1 is four operations from S1's next round, and on Zen 5, whose
 * vector logic takes 2 cycles against AESENC's 4, that cycle alone
 * allows (4 x 2 + 4) / 2 = 6 cycles an update against the ring's 4.33
 * (measured: 6.7 core cycles an update at 16 KiB, encryption 4.8).
 * With three-input operations every row here is two operations from t0
 * (S5 three, which its longer cycle allows), b0 one, as in the ring:
 *   U = x0 ^ S1 ^ S4, V = (S5 ^ c) ^ (S2 & S3),
 *   M = V ^ S1 ^ S4, x0' = U ^ V, t0' = b0' ^ U ^ V,
 * no cycle longer than the ring's. The rounds come first in program
 * order, from a copy of the state (the core issues the oldest ready
 * operation first: the chain before the rest, as in the encryption
 * loop). With two-input operations the state is three deep in x0
 * (x0' = (x0 ^ (S2 & S3)) ^ ((c ^ S1) ^ (S4 ^ S5))), one less than the
 * draft's form.
 */
#if AK_HAVE_XOR3
#define AK_DEC_B(mo, t0, c)                                                    \
    do {                                                                       \
        const AK_V q1_ = s1, q2_ = s2, q3_ = s3, q4_ = s4, q5_ = s5;           \
        AK_V u_, v_;                                                           \
        AK_ROUNDS_B(t0);                                                       \
        u_ = AK_XOR3(x0, q1_, q4_);                                            \
        v_ = AK_XORAND(AK_XOR(q5_, (c)), q2_, q3_);                            \
        (t0) = AK_XOR3(b0, u_, v_);                                            \
        x0 = AK_XOR(u_, v_);                                                   \
        (mo) = AK_XOR3(v_, q1_, q4_);                                          \
    } while (0)
#else
#define AK_DEC_B(mo, t0, c)                                                    \
    do {                                                                       \
        const AK_V a_ = AK_XOR(AK_XOR((c), s1), AK_XOR(s4, s5));               \
        const AK_V e_ = AK_AND(s2, s3);                                        \
        (mo) = AK_XOR(a_, e_);                                                 \
        x0 = AK_XOR(AK_XOR(x0, e_), a_);                                       \
        AK_ROUNDS_B(t0);                                                       \
        (t0) = AK_XOR(b0, x0);                                                 \
    } while (0)
#endif

STACK_WIPE_BODY ENGINE_FN AK_B_ATTR void
AK_NAME(b)(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad,
           size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
           uint8_t *tag, size_t tag_len, int decrypt)
{
    enum { R = 16 * AK_D };
    const AK_V k0 = AK_BCAST(key), k1 = AK_BCAST(key + 16);
    const AK_V n0 = AK_BCAST(nonce), n1 = AK_BCAST(nonce + 16);
    const AK_V ctx = AK_CTX();
    const AK_V c0 = AK_BCAST(aegis_c0), c1 = AK_BCAST(aegis_c1);
    const AK_V kn0 = AK_XOR(k0, n0), kn1 = AK_XOR(k1, n1);
    AK_V b0 = kn0, x0 = AK_XOR(k0, k0), s1 = kn1, s2 = c1, s3 = c0;
    AK_V s4 = AK_XOR(k0, c0), s5 = AK_XOR(k1, c1);
#ifndef AK_LOADN
    uint8_t buf[R];
#endif
    size_t i;

    for (unsigned r = 0; r < 4; r++) { /* Init (4.4, 5.5.2) */
        AK_CTX_B();
        AK_UPDATE_B(k0);
        AK_CTX_B();
        AK_UPDATE_B(k1);
        AK_CTX_B();
        AK_UPDATE_B(kn0);
        AK_CTX_B();
        AK_UPDATE_B(kn1);
    }
    for (i = 0; aad_len - i >= R; i += R)
        AK_UPDATE_B(AK_LOAD(aad + i));
    if (i < aad_len) {
#ifdef AK_LOADN
        AK_UPDATE_B(AK_LOADN(aad + i, aad_len - i));
#else
        memset(buf, 0, R);
        memcpy(buf, aad + i, aad_len - i);
        AK_UPDATE_B(AK_LOAD(buf));
#endif
    }
    if (!decrypt) {
        for (i = 0; len - i >= R; i += R) { /* Enc (4.6) */
            const AK_V m = AK_LOAD(in + i), q1 = s1, q2 = s2, q3 = s3;
            const AK_V q4 = s4, q5 = s5;
            AK_UPDATE_B(m);
            AK_STORE(out + i,
                     AK_XOR(AK_XOR3(m, q1, q4), AK_XORAND(q5, q2, q3)));
        }
        if (i < len) {
#ifdef AK_LOADN
            const AK_V m = AK_LOADN(in + i, len - i);
            AK_STOREN(out + i, AK_ZX_B(m), len - i);
#else
            AK_V m;
            memset(buf, 0, R);
            memcpy(buf, in + i, len - i);
            m = AK_LOAD(buf);
            AK_STORE(buf, AK_ZX_B(m));
            memcpy(out + i, buf, len - i);
#endif
            AK_UPDATE_B(m);
        }
    } else {
        AK_V t0 = AK_XOR(b0, x0);
        for (i = 0; len - i >= R; i += R) { /* Dec (4.7) */
            AK_V m;
            AK_DEC_B(m, t0, AK_LOAD(in + i));
            AK_STORE(out + i, m);
        }
        if (i < len) { /* DecPartial (4.8): the plaintext zero-padded */
#ifdef AK_LOADN
            const AK_V m = AK_CUTN(AK_ZX_B(AK_LOADN(in + i, len - i)), len - i);
            AK_STOREN(out + i, m, len - i);
            AK_UPDATE_B(m);
#else
            memset(buf, 0, R);
            memcpy(buf, in + i, len - i);
            AK_STORE(buf, AK_ZX_B(AK_LOAD(buf)));
            memcpy(out + i, buf, len - i);
            memset(buf + (len - i), 0, R - (len - i));
            AK_UPDATE_B(AK_LOAD(buf));
#endif
        }
    }
    { /* Finalize (4.9, 5.5.7) */
        const AK_V t = AK_XOR(s3, AK_NAME_LENS(aad_len, len));
        for (unsigned r = 0; r < 7; r++)
            AK_UPDATE_B(t);
    }
    {
        const AK_V s0 = AK_XOR(b0, x0);
        if (tag_len == 16) {
            AK_NAME(fold)
            (tag,
             AK_XOR(AK_XOR(AK_XOR(s0, s1), AK_XOR(s2, s3)), AK_XOR(s4, s5)));
        } else {
            AK_NAME(fold)(tag, AK_XOR(AK_XOR(s0, s1), s2));
            AK_NAME(fold)(tag + 16, AK_XOR(AK_XOR(s3, s4), s5));
        }
    }
#ifndef AK_LOADN
    aesir_wipe(buf, sizeof(buf));
#endif
}

/* The incremental API's blocks, as AK_NAME(lu) above. */
STACK_WIPE_BODY ENGINE_FN void
AK_NAME(bu)(uint8_t *st, unsigned op, uint8_t *out, const uint8_t *in, size_t n)
{
    enum { R = 16 * AK_D };
    AK_V b0 = AK_LOAD(st), s1 = AK_LOAD(st + R), s2 = AK_LOAD(st + 2 * R);
    AK_V s3 = AK_LOAD(st + 3 * R), s4 = AK_LOAD(st + 4 * R);
    AK_V s5 = AK_LOAD(st + 5 * R), x0 = AK_XOR(b0, b0);
    const size_t len = n * R;
    size_t i;

    if (op == AEGIS_OP_AD) {
        for (i = 0; i < len; i += R)
            AK_UPDATE_B(AK_LOAD(in + i));
    } else if (op == AEGIS_OP_ENC) {
        for (i = 0; i < len; i += R) {
            const AK_V m = AK_LOAD(in + i);
            AK_STORE(out + i, AK_ZX_B(m));
            AK_UPDATE_B(m);
        }
    } else {
        AK_V t0 = AK_XOR(b0, x0);
        for (i = 0; i < len; i += R) {
            AK_V m;
            AK_DEC_B(m, t0, AK_LOAD(in + i));
            AK_STORE(out + i, m);
        }
    }
    AK_STORE(st, AK_XOR(b0, x0));
    AK_STORE(st + R, s1);
    AK_STORE(st + 2 * R, s2);
    AK_STORE(st + 3 * R, s3);
    AK_STORE(st + 4 * R, s4);
    AK_STORE(st + 5 * R, s5);
}

#undef AK_UPDATE_B
#undef AK_ZX_B
#undef AK_DEC_B
#undef AK_ROUNDS_B
#undef AK_CTX_B

#undef AK_V
#undef AK_D
#undef AK_LOAD
#undef AK_STORE
#undef AK_XOR
#undef AK_AND
#undef AK_ENC
#undef AK_BCAST
#undef AK_NAME
#undef AK_CTX
#undef AK_LENS
#undef AK_NAME_LENS
#undef AK_XOR3
#undef AK_XORAND
#undef AK_SKIP_L
#undef AK_B_ATTR
#undef AK_LOADN
#undef AK_STOREN
#undef AK_CUTN
#undef AK_HAVE_XOR3
#undef AK_ENC_IN
#undef AK_XOR_IN
#undef AK_XOR3_IN
#undef AK_XORAND_IN
