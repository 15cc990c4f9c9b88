/*
 * internal.h -- what the layers of libaesir share and callers never see:
 * the engine interface, the layout behind the opaque aesir_aes context,
 * and small helpers (endian load/store, wiping, constant-time compare).
 *
 * An engine is one AES technique on one ISA. It provides key expansion for
 * each direction in its own round-key layout and bulk ECB on n full
 * blocks; everything else is an optional fused fast path that the modes in
 * src/modes/ use when present and replace with generic code built on bulk
 * ECB when NULL. Engines never see partial blocks, never allocate, and
 * never keep state between calls.
 */
#ifndef AESIR_INTERNAL_H
#define AESIR_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aesir.h"

/* Bytes of round-key storage per direction: the largest layout, the
 * bitsliced engines' AES-256 schedule (15 round keys of 8 64-bit words:
 * ct64, bs-avx2, bs-avx512). The others need 240 at most (measured by
 * key.c's reach, which refuses an engine that writes past this). */
#define AESIR_RK_BYTES 960

/* Engine properties (same bits as the public AESIR_ENGINE_* flags). */
#define ENGINE_CT AESIR_ENGINE_CONSTANT_TIME
#define ENGINE_HW AESIR_ENGINE_HARDWARE

/*
 * The alignment a context needs (aesir.h): what malloc returns on the
 * platforms aesir runs on. An engine may assume its round-key areas are
 * 16-byte aligned, no more: a context from malloc is only that (the
 * declared 64 is for speed, when the caller honours it).
 */
#if defined(__powerpc__) && !defined(__powerpc64__)
/* 32-bit PowerPC: the stack is in practice only 8-byte aligned (under
 * qemu-ppc an _Alignas(16) local of the tests sat at 8 mod 16, while gcc
 * assumed 16), and its engines (vperm-altivec's unaligned-safe loads,
 * ct64) need no more than 8: a context there needs 8. */
#define AESIR_CTX_ALIGN 8
#else
#define AESIR_CTX_ALIGN 16
#endif

/*
 * Function types. rk is the engine's own round-key area (AESIR_RK_BYTES,
 * 16-byte aligned: AESIR_CTX_ALIGN); nr is the number of rounds (10, 12, 14).
 * in and out may be equal; they need no alignment.
 */
typedef void (*aesir_setkey_fn)(void *rk, const uint8_t *key, size_t key_len);
/*
 * Key setup in one call (optional; key.c tail-calls it, so
 * it returns AESIR_OK): the schedules of key for the directions in dirs
 * to rk_enc and rk_dec, and every other byte of the two areas below
 * `most` (a multiple of 16, at most AESIR_RK_BYTES) zeroed, so that
 * nothing of an earlier key stays there. An engine may write a schedule
 * that dirs does not ask for instead of zeroing its area when that is
 * cheaper (aesni, whose stores are 16 bytes: aesni_keys.h).
 */
typedef int (*aesir_setkey_pair_fn)(void *rk_enc, void *rk_dec,
                                    const uint8_t *key, size_t key_len,
                                    unsigned dirs, size_t most);
typedef void (*aesir_blocks_fn)(const void *rk, unsigned nr, uint8_t *out,
                                const uint8_t *in, size_t nblocks);
/*
 * CTR fast path: encrypts the counter blocks ctr, ctr+1, ... (a 128-bit
 * big-endian integer) and XORs them into in. On return ctr holds the next
 * counter. The caller guarantees the counter does not wrap in its declared
 * width during the call, so an engine may increment only the low 32 bits
 * when it has checked they do not carry, or all 128.
 */
typedef void (*aesir_ctr_fn)(const void *rk, unsigned nr, uint8_t ctr[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
/* CBC fast paths: iv is the chaining value, updated on return. The same
 * type serves the CFB128 and OFB fast paths below, all with rk the
 * encryption schedule and i = 0 .. nblocks-1:
 *   cfb_dec  P_i = C_i ^ E(C_(i-1)), C_(-1) = iv; iv = the last C_i
 *            on return (the next shift register);
 *   cfb_enc  C_i = P_i ^ E(C_(i-1)), the same chaining;
 *   ofb      O_i = E(O_(i-1)), O_(-1) = iv, out_i = in_i ^ O_i; iv = the
 *            last O_i on return. */
typedef void (*aesir_cbc_fn)(const void *rk, unsigned nr, uint8_t iv[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);
/*
 * Multi-buffer CBC encryption: nlanes independent messages, each with its
 * own round keys (rk, the engine's encryption schedule), input, output
 * (out == in allowed; lanes never overlap each other), block count (may
 * be 0) and chaining value iv, updated on return (unchanged when nblocks
 * is 0). All lanes share nr. The engine interleaves the lanes across its
 * AES pipeline; it may reorder them but must finish every one.
 */
struct aesir_cbc_lane {
    const void *rk;
    const uint8_t *in;
    uint8_t *out;
    size_t nblocks;
    uint8_t iv[16];
};
typedef void (*aesir_cbc_many_fn)(unsigned nr, struct aesir_cbc_lane *lanes,
                                  size_t nlanes);

/* For an engine's cbc_enc_many: the next lane from lanes[*next] on with
 * blocks to encrypt (*next moves past it), or NULL when none is left. */
static inline struct aesir_cbc_lane *
aesir_cbc_lane_next(struct aesir_cbc_lane *lanes, size_t nlanes, size_t *next)
{
    while (*next < nlanes) {
        struct aesir_cbc_lane *l = &lanes[(*next)++];
        if (l->nblocks != 0)
            return l;
    }
    return NULL;
}

/*
 * GCM fast path (src/aead/gcm.c): CTR with GCM's counter and GHASH of the
 * ciphertext in one pass, so that the AES and carry-less-multiply units
 * run side by side. Works on the whole blocks of len bytes, or fewer: it
 * returns the bytes it did (a multiple of 16), and the generic code does
 * the rest. hk is the key area of the GHASH engine named by the engine's
 * gcm_ghash, the only layout the kernel may read (gcm.c uses the kernel
 * only with that GHASH engine). ctr is the counter block, advanced by
 * one per block in its low 32 bits; the caller guarantees they do not
 * wrap within the call (len / 16 < 2^32 - the low word). y is the GHASH
 * accumulator in GCM's byte order, updated with the ciphertext blocks
 * (out for encryption, in for decryption; in == out allowed).
 */
typedef size_t (*aesir_gcm_fn)(const void *rk, unsigned nr, const void *hk,
                               uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                               const uint8_t *in, size_t len);

/*
 * GCM short-message path (optional, same partner GHASH engine as gcm_enc):
 * a whole message with a 12-byte IV in one call -- J0, the keystream,
 * out = in ^ keystream, GHASH of aad, the ciphertext (in when decrypt,
 * else out) and the length block, tag = E_K(J0) ^ GHASH -- for messages
 * and additional data of every length up to SP 800-38D's limits: it
 * returns AESIR_OK, or AESIR_GCM_SHORT_DECLINED without writing anything
 * when it does not take the message (vaes-avx512's takes every length,
 * with vaes_avx512_gcm_msg.c's whole-message kernel behind its short
 * and medium ones, except past 1792 bytes without VBMI). gcm.c compares
 * the tag of a decryption and wipes out on a mismatch. m->tag may be
 * the caller's own buffer (a seal with a 16-byte tag: gcm.c passes it
 * through, possibly just past out), so it is written only after all of
 * in has been read.
 */
struct aesir_gcm_msg {
    const uint8_t *iv; /* 12 bytes */
    const uint8_t *aad;
    size_t aad_len;
    uint8_t *out;
    const uint8_t *in;
    size_t len;
    uint8_t *tag; /* 16 bytes */
    int decrypt;
};
/* What a short-message path returns when it does not take a message
 * (nothing written): gcm.c's general path runs it. */
#define AESIR_GCM_SHORT_DECLINED (-1)
/* The message's pointers and lengths (all public) in one struct: four
 * register arguments, none on the stack, so the engine's entry point
 * passes them on to its per-length instances with a plain jump (with 11
 * arguments gcc reloaded and stored back the 5 stack ones around it). */
typedef int (*aesir_gcm_short_fn)(const void *rk, unsigned nr, const void *hk,
                                  const struct aesir_gcm_msg *m);

/*
 * CCM fast path (src/aead/ccm.c): nblocks whole blocks of CCM's CTR and
 * its CBC-MAC chain in one pass, two blocks in flight per round (the MAC
 * block and a counter block), so that the CTR half runs in the shadow
 * of the serial MAC chain. ctr is the next counter block (advanced by
 * nblocks on return; the caller guarantees the low 64 bits, read
 * big-endian, do not wrap within the call); mac is the CBC-MAC chaining
 * value Y, updated on return. Encryption: mac over in (the plaintext),
 * out = in ^ E(ctr_i); decryption: out = in ^ E(ctr_i), mac over out.
 * in == out allowed; rk is the encryption schedule. Both or neither.
 */
typedef void (*aesir_ccm_fn)(const void *rk, unsigned nr, uint8_t ctr[16],
                             uint8_t mac[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks);

/*
 * GCM-SIV CTR fast path (src/aead/gcm_siv.c; RFC 8452 section 4, step
 * 10): encrypts the counter blocks ctr, ctr+1, ... and XORs them into in,
 * where "+1" adds one to the 32-bit little-endian integer in bytes 0..3
 * of the block, modulo 2^32 (no carry into bytes 4..15, which stay as
 * they are). On return ctr holds the next counter block. rk is the
 * encryption schedule of the derived message-encryption key.
 */
typedef void (*aesir_ctr32le_fn)(const void *rk, unsigned nr, uint8_t ctr[16],
                                 uint8_t *out, const uint8_t *in,
                                 size_t nblocks);
/*
 * GCM-SIV fused decryption (optional; gcm_siv.c uses it only with the
 * GHASH engine named by the engine's gcm_ghash, whose POLYVAL key layout
 * hk is): the CTR of ctr32le on the whole blocks of len bytes, or fewer,
 * with POLYVAL of the plaintext it writes (out; in == out allowed) into
 * s (POLYVAL's byte order) in the same pass. Returns the bytes it did, a
 * multiple of 16; ctr and s are updated for them.
 */
typedef size_t (*aesir_gcmsiv_dec_fn)(const void *rk, unsigned nr,
                                      const void *hk, uint8_t ctr[16],
                                      uint8_t s[16], uint8_t *out,
                                      const uint8_t *in, size_t len);
/*
 * GCM-SIV's per-nonce keys (optional, RFC 8452 section 4 steps 1-4; for
 * gcm_ghash's key layout too): from the key-generating key's encryption
 * schedule rk (nr rounds: AES-128, -192 or -256) and the nonce, the
 * message-encryption key's schedule into mrk, as setkey_enc writes it
 * (16 (nr + 1) bytes), the message-authentication key into h, and its
 * POLYVAL key for calls of at most max_blocks blocks into hk, as the
 * GHASH engine's polyval_init_upto writes it. One call, so that the
 * derivation, the schedule and the powers run in one stream of
 * instructions (the schedule beside the powers).
 */
typedef void (*aesir_gcmsiv_keys_fn)(const void *rk, unsigned nr,
                                     const uint8_t nonce[12], void *mrk,
                                     void *hk, uint8_t h[16],
                                     size_t max_blocks);
/*
 * GCM-SIV's tag (optional, section 4 steps 5-9; for gcm_ghash's key
 * layout too): POLYVAL of the length block (aad_bits, data_bits) into the
 * state s with the message's hk (K_1 at least, as written by
 * polyval_init_upto or gcmsiv_keys), the nonce XORed in, bit 127
 * cleared, encrypted with the message-encryption schedule mrk (nr
 * rounds) into tag. In registers from s to tag.
 */
typedef void (*aesir_gcmsiv_tag_fn)(const void *mrk, unsigned nr,
                                    const void *hk, const uint8_t s[16],
                                    const uint8_t nonce[12], uint64_t aad_bits,
                                    uint64_t data_bits, uint8_t tag[16]);

/*
 * OCB3 fast path (src/aead/ocb.c, RFC 7253 section 4.2): for the blocks
 * i = index + 1 .. index + nblocks, Offset ^= L_(ntz(i)), out_i = Offset ^
 * E(in_i ^ Offset) (ocb_enc, rk the encryption schedule) or Offset ^
 * D(in_i ^ Offset) (ocb_dec, rk the decryption schedule), and checksum
 * ^= the plaintext block (in_i for ocb_enc, out_i for ocb_dec; in == out
 * allowed). l is the key's table L_0 .. L_35 (16 bytes each, 16-byte
 * aligned), followed at l + 16 * 36 by P_1 .. P_32, P_j = L_(ntz(1)) ^
 * ... ^ L_(ntz(j)): Offset_(i0 + j) = Offset_(i0) ^ P_j when i0 is a
 * multiple of a power of two above j. The caller guarantees index +
 * nblocks < 2^36, so ntz(i) <= 35 stays in the table. Offset and checksum are
 * updated. It may do fewer blocks (whole batches, say) and returns how many it
 * did; ocb.c does the rest.
 */
typedef size_t (*aesir_ocb_fn)(const void *rk, unsigned nr, const uint8_t *l,
                               uint64_t index, uint8_t offset[16],
                               uint8_t checksum[16], uint8_t *out,
                               const uint8_t *in, size_t nblocks);

/*
 * XTS fast paths (src/modes/xts.c): nblocks >= 1 whole blocks of one data
 * unit, block j as out_j = E(in_j ^ T_j) ^ T_j (xts_enc, rk the
 * encryption schedule) or D(in_j ^ T_j) ^ T_j (xts_dec, rk the
 * decryption schedule), with T_0 = tweak (already encrypted with the
 * tweak key) and T_(j+1) = T_j * x in GF(2^128), tweak bytes read as a
 * little-endian 128-bit integer, reduced by x^128 + x^7 + x^2 + x + 1
 * (IEEE 1619 5.2). On return tweak holds T_nblocks, the next block's.
 * The tweak is secret: no branch or index on it. in == out allowed.
 * Ciphertext stealing is xts.c's, never the engine's.
 */
typedef void (*aesir_xts_fn)(const void *rk, unsigned nr, uint8_t tweak[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks);

/*
 * AEGIS (src/aead/aegis.c, draft-irtf-cfrg-aegis-aead) needs the AES round
 * function, not AES. aes_round: state[i] = AESRound(state[i], rk[i]) =
 * MixColumns(ShiftRows(SubBytes(state[i]))) ^ rk[i] for the n independent
 * 16-byte blocks at state and rk (no key schedule; any n; no alignment).
 * aegis: a whole AEGIS message in one call (Init, the additional data,
 * the data, Finalize) for variant (AESIR_AEGIS_*), key and nonce of the
 * variant's lengths; out = in ^ keystream; the tag (tag_len 16 or 32) is
 * written after all of in has been read. Returns -1 without writing
 * anything for a variant it does not handle, 0 when done. aegis.c
 * compares the tag of a decryption and wipes out on a mismatch.
 */
typedef void (*aesir_aes_round_fn)(uint8_t *state, const uint8_t *rk, size_t n);
typedef int (*aesir_aegis_fn)(int variant, const uint8_t *key,
                              const uint8_t *nonce, const uint8_t *aad,
                              size_t aad_len, uint8_t *out, const uint8_t *in,
                              size_t len, uint8_t *tag, size_t tag_len,
                              int decrypt);

/*
 * OCB3 whole message (optional; src/aead/ocb.c's one-shot seal and open,
 * RFC 7253 section 4.2 from the nonce to the tag in one call, so that a
 * short message pays no per-step calls): nonce_hi and nonce_lo are the
 * formatted nonce block with its low 6 bits cleared, as two big-endian
 * 64-bit words (bytes 0..7 and 8..15: passed in registers, so that the
 * kernel's first load does not wait on byte stores), and bottom (0..63)
 * those bits; l the key's table as for aesir_ocb_fn, with L_* and L_$
 * right after P_32 (l + 16 * 68, l + 16 * 69); sum is HASH_K(A) (zeros
 * without additional data). out = the len bytes of in (any len, in ==
 * out allowed) encrypted (decrypt 0) or decrypted (1: rk_dec for the
 * data, rk_enc for Ktop, the pad and the tag); tag receives the whole
 * 16-byte tag (of a decryption too: ocb.c compares it and wipes out on
 * a mismatch), or, with decrypt = OCB_WHOLE_CHECK (2, ocb.h: a 16-byte
 * tag), holds the received tag and receives a value that is zero
 * exactly on a match.
 */
typedef void (*aesir_ocb_whole_fn)(const void *rk_enc, const void *rk_dec,
                                   unsigned nr, const uint8_t *l,
                                   uint64_t nonce_hi, uint64_t nonce_lo,
                                   unsigned bottom, const uint8_t sum[16],
                                   uint8_t *out, const uint8_t *in, size_t len,
                                   uint8_t tag[16], int decrypt);

/*
 * aegis_update: whole rate blocks (32 D bytes for the AEGIS-128L family,
 * 16 D for AEGIS-256's) on an AEGIS state in memory, for the incremental
 * API (aegis.c): the rows as aegis.h lays them out (row j of all D lanes
 * at state + 16 D j, 8 or 6 rows), loaded, updated nblocks times and
 * stored back. op AEGIS_OP_AD (aegis.h) absorbs in; AEGIS_OP_ENC
 * encrypts in to out, AEGIS_OP_DEC decrypts (in == out allowed). Returns -1
 * without touching anything for a variant it does not handle, 0 when done;
 * nblocks 0 touches nothing (aegis.c asks so which variants it takes).
 */
typedef int (*aesir_aegis_update_fn)(int variant, unsigned op, uint8_t *state,
                                     uint8_t *out, const uint8_t *in,
                                     size_t nblocks);

struct aesir_engine {
    const char *name;
    const char *description;
    unsigned flags; /* ENGINE_CT, ENGINE_HW */
    unsigned batch; /* blocks per call that reach full speed */
    aesir_setkey_fn setkey_enc;
    aesir_setkey_fn setkey_dec;
    aesir_setkey_pair_fn setkey_pair; /* optional */
    aesir_blocks_fn encrypt;
    aesir_blocks_fn decrypt;
    aesir_ctr_fn ctr;     /* optional */
    aesir_cbc_fn cbc_enc; /* optional */
    aesir_cbc_fn cbc_dec; /* optional */
    aesir_cbc_fn cfb_dec; /* optional: CFB128 decryption, whole blocks */
    aesir_cbc_fn cfb_enc; /* optional: CFB128 encryption, whole blocks */
    aesir_cbc_fn ofb;     /* optional: OFB on whole blocks (below) */
    aesir_cbc_many_fn cbc_enc_many; /* optional */
    /* optional: the same chains with nothing stored but each lane's
     * chaining value (CBC-MAC); a lane's out, when not NULL, holds its
     * last block (read after its first nblocks - 1 from in: lanes.h) */
    aesir_cbc_many_fn cbc_mac_many;
    aesir_gcm_fn gcm_enc;         /* optional: GCM fast paths (above), */
    aesir_gcm_fn gcm_dec;         /* both or neither, for */
    const char *gcm_ghash;        /* this GHASH engine's key layout */
    aesir_gcm_short_fn gcm_short; /* optional, for gcm_ghash too */
    aesir_ccm_fn ccm_enc;         /* optional: CCM fast paths (above) */
    aesir_ccm_fn ccm_dec;
    aesir_ctr32le_fn ctr32le; /* optional: GCM-SIV's CTR (above) */
    /* optional: GCM-SIV's fused decryption (above), for gcm_ghash too */
    aesir_gcmsiv_dec_fn gcmsiv_dec;
    aesir_gcmsiv_keys_fn gcmsiv_keys; /* optional, for gcm_ghash too */
    aesir_gcmsiv_tag_fn gcmsiv_tag;   /* optional, for gcm_ghash too */
    aesir_ocb_fn ocb_enc;             /* optional: OCB3 fast paths (above) */
    aesir_ocb_fn ocb_dec;
    aesir_xts_fn xts_enc; /* optional: XTS fast paths (above) */
    aesir_xts_fn xts_dec;
    aesir_aes_round_fn aes_round; /* optional: AEGIS's round (above) */
    aesir_aegis_fn aegis;         /* optional: whole AEGIS messages */
    aesir_ocb_whole_fn ocb_whole; /* optional: whole OCB3 messages */
    /* optional, with aegis: AEGIS blocks on a state in memory (above) */
    aesir_aegis_update_fn aegis_update;
    /* optional, with aegis: the kernel of one variant as a function of
     * aegis's type (the variant argument ignored), or NULL, for aegis.c
     * to call without aegis's switch; only a kernel that leaves nothing
     * on the stack (no frame to wipe) is offered */
    aesir_aegis_fn (*aegis_for)(int variant);
};

/* Engine accessors (src/core/engines.def): each returns its engine, or
 * NULL when this CPU or build cannot run it. */
#define AES_ENGINE(id, name, ct, kind, rank)                                   \
    const struct aesir_engine *aesir_engine_##id(void);
#include "engines.def"

/* Registry indices: AESIR_ENGINE_INDEX_<id>, in engines.def order. */
enum {
#define AES_ENGINE(id, name, ct, kind, rank) AESIR_ENGINE_INDEX_##id,
#include "engines.def"
    AESIR_NENGINES
};

/*
 * The layout behind aesir_aes. magic marks an initialised context, so a
 * zeroed or cleared context is refused rather than dereferenced.
 */
#define AESIR_KEY_MAGIC 0x61657369u /* "aesi" */

/*
 * The round-key areas start 64 and 1024 bytes into the context: on a
 * context at a 64-byte boundary (the bench's, and what aesir.h advises
 * for speed) each is line-aligned, so the VAES engines' zmm wipes do not
 * split cache lines. The struct itself needs only 16-byte alignment
 * (AESIR_CTX_ALIGN), what aesir_aes declares, so that a context from
 * malloc is a valid object of this type (an _Alignas(64) member would
 * make every access to a malloc'd context undefined; UBSan's alignment
 * check reports it).
 */
#define AESIR_KEY_HEAD_BYTES 64
struct aesir_key_state {
    const struct aesir_engine *engine;
    uint32_t magic;
    uint32_t nr;      /* rounds: 10, 12, 14 */
    uint32_t key_len; /* bytes: 16, 24, 32 */
    uint32_t dirs;    /* AESIR_ENCRYPT | AESIR_DECRYPT prepared */
    unsigned char head_pad[AESIR_KEY_HEAD_BYTES - sizeof(void *) - 16];
    _Alignas(16) unsigned char rk_enc[AESIR_RK_BYTES];
    _Alignas(16) unsigned char rk_dec[AESIR_RK_BYTES];
};

/* aesir_aes is the key state rounded up to whole cache lines. */
_Static_assert(sizeof(aesir_aes) ==
                   (sizeof(struct aesir_key_state) + 63) / 64 * 64,
               "aesir_aes: the key state in whole 64-byte lines");
_Static_assert(offsetof(struct aesir_key_state, rk_enc) % 64 == 0 &&
                   offsetof(struct aesir_key_state, rk_dec) % 64 == 0,
               "round-key areas at 64-byte offsets");
_Static_assert(_Alignof(struct aesir_key_state) <= 16 &&
                   _Alignof(aesir_aes) == 16 && AESIR_CTX_ALIGN <= 16,
               "a context from malloc must be a valid object");

/* Checked view of an aesir_aes: NULL unless initialised for dirs (and
 * so 16-byte aligned: a context copied to a misaligned place counts as
 * not initialised). Inline: every API call makes this check, and a
 * 64-byte message costs only some 40 cycles in all. */
static inline const struct aesir_key_state *
aesir_key_state(const aesir_aes *ctx, unsigned dirs)
{
    const struct aesir_key_state *ks;
    if (ctx == NULL || (uintptr_t)ctx % AESIR_CTX_ALIGN != 0)
        return NULL;
    ks = (const struct aesir_key_state *)(const void *)ctx->opaque;
    if (ks->magic != AESIR_KEY_MAGIC || (ks->dirs & dirs) != dirs)
        return NULL;
    return ks;
}

/* n <= max, through 64-bit parameters: where size_t has 32 bits a direct
 * comparison of a size_t with a 64-bit limit is always true, which
 * -Wtype-limits reports (the modes' SP 800-38D, RFC 8452, SP 800-38F and
 * AEGIS length limits). */
static inline int aesir_at_most(uint64_t n, uint64_t max)
{
    return n <= max;
}

/* CPU features (src/core/cpu.c): probed once, masked by the environment
 * variable AESIR_CPU_DISABLE. */
#define AESIR_CPU_SSE2 (1u << 0)
#define AESIR_CPU_SSSE3 (1u << 1)
#define AESIR_CPU_SSE41 (1u << 2)
#define AESIR_CPU_AESNI (1u << 3)
#define AESIR_CPU_PCLMUL (1u << 4)
#define AESIR_CPU_AVX (1u << 5)
#define AESIR_CPU_AVX2 (1u << 6)
#define AESIR_CPU_VAES (1u << 7)
#define AESIR_CPU_VPCLMUL (1u << 8)
#define AESIR_CPU_AVX512F (1u << 9)
#define AESIR_CPU_AVX512BW (1u << 10)
#define AESIR_CPU_AVX512VL (1u << 11)
#define AESIR_CPU_GFNI (1u << 12)
#define AESIR_CPU_AVX512VBMI (1u << 13)
#define AESIR_CPU_NEON (1u << 16)
#define AESIR_CPU_ARMV8_AES (1u << 17)
#define AESIR_CPU_PMULL (1u << 18)
#define AESIR_CPU_ALTIVEC (1u << 20)
#define AESIR_CPU_POWER8 (1u << 21)
#define AESIR_CPU_SIMD128 (1u << 24)
#define AESIR_CPU_PROBED (1u << 31)

uint32_t aesir_cpu_features(void);
/* Name and bit of feature i, for listing; NULL past the end. */
const char *aesir_cpu_feature_name(size_t i, uint32_t *bit);

/*
 * CPU models on which the default engine depends (dispatch.c keeps one
 * rule per model, with the measurement behind it). cpu.c derives the
 * model from the CPUID vendor, family and model in the same one-time
 * probe as the features (kept in bits 26..29 of the cached word), or
 * takes it by name from the environment variable AESIR_CPU_MODEL, so
 * that tests can check each rule on any CPU.
 */
enum aesir_cpu_model_id {
    AESIR_CPU_MODEL_OTHER = 0,        /* no rule: the generic order */
    AESIR_CPU_MODEL_INTEL_ICL_CLIENT, /* Ice Lake, Tiger Lake client */
    AESIR_CPU_MODEL_INTEL_SPR,        /* Sapphire / Emerald Rapids */
    AESIR_CPU_MODEL_AMD_ZEN4,         /* family 19h Zen 4 */
    AESIR_CPU_MODEL_AMD_ZEN5,         /* family 1Ah Zen 5 */
    AESIR_CPU_MODEL_COUNT
};
unsigned aesir_cpu_model_id(void);
/* The name AESIR_CPU_MODEL takes for model id ("amd-zen4", ...). */
const char *aesir_cpu_model_name(unsigned id);

/*
 * Dispatch (src/core/dispatch.c) maps a name to an engine that is ready
 * to use: available on this CPU and build, and self-tested. Key
 * installation (schedules, wiping, reach) is key.c's.
 *
 * The registry is visible here so that key setup can find the index of
 * an engine name this library handed out (aesir_engine_name() and the
 * like point into it) without a call: aesir_engine_index_fast().
 */
struct aesir_engine_entry {
    char name[16]; /* inline: the look-up reads it without a pointer chase */
    unsigned flags;
    const struct aesir_engine *(*get)(void);
};
extern const struct aesir_engine_entry aesir_engine_registry[AESIR_NENGINES];
/* The default engine's registry index + 1 once chosen, 0 before. */
extern _Atomic int aesir_engine_default_slot;

/* The registry index of name when it is NULL (the default, once chosen)
 * or points into the registry; -1 otherwise (aesir_engine_index). */
static inline int aesir_engine_index_fast(const char *name)
{
    uintptr_t off;
    if (name == NULL)
        return atomic_load_explicit(&aesir_engine_default_slot,
                                    memory_order_relaxed) -
               1;
    off = (uintptr_t)name - (uintptr_t)aesir_engine_registry;
    if (off < sizeof(aesir_engine_registry) &&
        off % sizeof(struct aesir_engine_entry) ==
            offsetof(struct aesir_engine_entry, name))
        return (int)(off / sizeof(struct aesir_engine_entry));
    return -1;
}
/* The registry index of the engine called name (NULL: the default), or
 * -1 when there is none. */
int aesir_engine_index(const char *name);
/* The engine at registry index i, available and self-tested (the test
 * runs once per process); NULL with *err set to AESIR_E_ENGINE_UNKNOWN
 * (i < 0), AESIR_E_ENGINE_UNAVAILABLE or AESIR_E_SELFTEST otherwise. */
const struct aesir_engine *aesir_engine_checked(int i, int *err);
/* The engine at registry index i when this CPU and build can run it
 * (not self-tested), else NULL. */
const struct aesir_engine *aesir_engine_at(size_t i);
/* The known-answer tests (selftest.c): 0 when engine e passes. */
int aesir_engine_selftest_run(const struct aesir_engine *e);

/* The header of a context being set up for engine e; its schedules
 * follow (nothing reads them before the call returns). */
static inline struct aesir_key_state *
aesir_key_head(aesir_aes *ctx, const struct aesir_engine *e, size_t key_len,
               unsigned dirs)
{
    struct aesir_key_state *ks = (struct aesir_key_state *)(void *)ctx->opaque;
    ks->engine = e;
    ks->magic = AESIR_KEY_MAGIC;
    ks->nr = (uint32_t)(key_len / 4 + 6);
    ks->key_len = (uint32_t)key_len;
    ks->dirs = dirs;
    return ks;
}

/* The AES S-box and its inverse (src/core/sbox.c), for the byte-wise,
 * not constant-time engines. */
extern const uint8_t aesir_sbox[256];
extern const uint8_t aesir_inv_sbox[256];

/*
 * Wipes n bytes: memset, then an empty asm statement that claims to read
 * the memory, so the compiler must assume the zeros are observed and
 * cannot drop the stores as dead (the barrier BoringSSL's OPENSSL_cleanse
 * uses). Elsewhere a volatile byte loop, slower but portable.
 *
 * Inline, so that a wipe of a known small size is a store or two. Out of
 * line it was a call to the C library's memset, whose short-size path
 * (glibc 2.36 with AVX-512) made the next call's load of the same stack
 * slot wait until the wipe had left the store queue: a 16-byte OFB
 * one-shot took 60 TSC cycles per call instead of 14 (Zen 4).
 */
static inline void aesir_wipe(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile unsigned char *v = p;
    for (size_t i = 0; i < n; i++)
        v[i] = 0;
#endif
}

/*
 * Zeroes the n bytes of stack just below the caller's frame (at most
 * AESIR_WIPE_STACK_MAX), where the frames of the functions it has just
 * called were: what their compiled code spilled there (state and round
 * keys the register allocator parked on the stack, which no wipe of a
 * named array reaches) is gone when the caller returns. Out of line, so
 * that its own frame, an array of n bytes, lies where theirs did. n must
 * cover the callees' stack depth: tests/test_residue.c finds what a
 * short n leaves. The software engines call it in their entry points,
 * after their body (out of line too: src/engine/stack_wipe.h), and so
 * do the multi-buffer managers of aesni and the VAES engines;
 * libgcrypt's _gcry_burn_stack is the same idea.
 */
#define AESIR_WIPE_STACK_MAX 8192
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, unused)) static void aesir_wipe_stack(size_t n)
{
    /* A variable-length array, its size hidden from the optimiser: with
     * n known (one bound per file) gcc and clang made it a fixed array,
     * and the memset of a constant size an inline rep stos, which took
     * 42 TSC cycles for 1280 bytes against 30 for glibc's memset (Zen
     * 4). The frame is then n bytes, not the maximum. */
    __asm__("" : "+r"(n));
    unsigned char b[n > 0 && n <= AESIR_WIPE_STACK_MAX ? n : 1];
    aesir_wipe(b, sizeof(b));
}
#else
static void aesir_wipe_stack(size_t n) /* may be inlined: best effort */
{
    unsigned char b[AESIR_WIPE_STACK_MAX];
    aesir_wipe(b, n < sizeof(b) ? n : sizeof(b));
}
#endif

/* Helpers (src/core/util.c). */
/* 0 when equal, -1 otherwise, in time depending only on n. */
int aesir_ct_compare(const void *a, const void *b, size_t n);
void aesir_xor(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n);

static inline uint32_t aesir_load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
           ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void aesir_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint64_t aesir_load_be64(const uint8_t *p)
{
    return ((uint64_t)aesir_load_be32(p) << 32) | aesir_load_be32(p + 4);
}

static inline void aesir_store_be64(uint8_t *p, uint64_t v)
{
    aesir_store_be32(p, (uint32_t)(v >> 32));
    aesir_store_be32(p + 4, (uint32_t)v);
}

/*
 * The counter block's memory protocol. Engines read and write the 16-byte
 * CTR counter block as two 8-byte halves (bytes 0..7 and 8..15), and so
 * must every caller that writes one just before an engine reads it. A
 * load is served from an earlier store still in flight only when it reads
 * within that one store; a 16-byte load after two 8-byte stores, or an
 * 8-byte load of the upper half after one 16-byte store, must wait until
 * the store has retired and reached the cache, which happens only after
 * everything older has finished. Calls in a row then run one after
 * another instead of overlapping: a 64-byte one-shot CTR took 66 TSC
 * cycles on Zen 4 with a 16-byte copy of the IV and 47 with this one.
 * The empty asm (a compiler barrier) keeps the compiler from merging the
 * two stores into one 16-byte store, which gcc 12 otherwise does.
 */
static inline void aesir_ctr_copy(uint8_t dst[16], const uint8_t src[16])
{
    uint64_t hi, lo;
    memcpy(&hi, src, 8);
    memcpy(&lo, src + 8, 8);
    memcpy(dst, &hi, 8);
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : : : "memory");
#endif
    memcpy(dst + 8, &lo, 8);
}

/* Adds n to the 128-bit big-endian integer at ctr (mod 2^128). */
static inline void aesir_ctr_add(uint8_t ctr[16], uint64_t n)
{
    uint64_t lo = aesir_load_be64(ctr + 8);
    uint64_t hi = aesir_load_be64(ctr);
    uint64_t sum = lo + n;
    hi += sum < lo;
    aesir_store_be64(ctr + 8, sum);
    aesir_store_be64(ctr, hi);
}

#endif /* AESIR_INTERNAL_H */
