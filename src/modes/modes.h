/*
 * modes.h -- the state behind aesir_cipher and the per-mode functions the
 * generic incremental API (cipher.c) dispatches to. Modes are written
 * once on top of the engine interface: they use an engine's fused fast
 * path when it has one and generic code on bulk ECB otherwise.
 */
#ifndef AESIR_MODES_H
#define AESIR_MODES_H

#include "internal.h"

#define AESIR_CIPHER_MAGIC 0x63697068u /* "ciph" */

/*
 * For the slow roads beside a one-shot fast path (generic fallbacks,
 * padding): kept out of line, so that the fast path's own function needs
 * no stack frame. With the generic CBC code inlined, gcc saved six
 * registers and reserved a frame in the CBC dispatch before it looked at
 * the engine, which tripled its instructions on the way to the engine
 * (33 instead of 11). Short calls are bound by instructions issued, not
 * by the AES chain: consecutive one-shot calls overlap in the out-of-order
 * window. AESIR_NOINLINE also splits the one-shot paths of CTR, CFB128 and
 * OFB into a whole-block and a partial-block helper, so that nothing is
 * held in a callee-saved register across the engine call (ctr.c).
 */
#if defined(__GNUC__) || defined(__clang__)
#define AESIR_NOINLINE __attribute__((noinline))
#else
#define AESIR_NOINLINE
#endif
#define AESIR_SLOW_PATH AESIR_NOINLINE

struct cipher_state {
    const struct aesir_key_state *ks;
    uint32_t magic;
    uint8_t mode;     /* aesir_mode */
    uint8_t dir;      /* AESIR_ENCRYPT or AESIR_DECRYPT */
    uint8_t option;   /* padding (ECB, CBC) or counter bits / 8 (CTR) */
    uint8_t ctr_done; /* CTR: the last counter value has been used */
    uint32_t n;       /* ECB/CBC: bytes in buf. Stream modes: keystream
                         bytes of buf already used (16: none left) */
    uint8_t iv[16];   /* chaining value, shift register or counter */
    uint8_t buf[16];  /* pending input (ECB/CBC) or keystream block */
};

_Static_assert(sizeof(struct cipher_state) <= sizeof(aesir_cipher),
               "aesir_cipher too small");

/* Bulk block functions on full blocks (ecb.c, cbc.c). aesir_ecb_run is
 * the ECB one without a context, for the one-shot path (oneshot.c);
 * inline, as is aesir_cbc_run: a call less on the way to the engine. */
static inline void aesir_ecb_run(const struct aesir_key_state *ks, unsigned dir,
                                 uint8_t *out, const uint8_t *in,
                                 size_t nblocks)
{
    if (dir == AESIR_ENCRYPT)
        ks->engine->encrypt(ks->rk_enc, ks->nr, out, in, nblocks);
    else
        ks->engine->decrypt(ks->rk_dec, ks->nr, out, in, nblocks);
}
void aesir_ecb_blocks(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                      size_t nblocks);

/* CBC for engines without a fused path (cbc.c). */
void aesir_cbc_enc_generic(const struct aesir_key_state *ks, uint8_t iv[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks);
void aesir_cbc_dec_generic(const struct aesir_key_state *ks, uint8_t iv[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks);

/* aesir_cbc_run -- nblocks of CBC in direction dir with chaining value
 * iv (updated), on the engine's fast path or the generic code. */
static inline void aesir_cbc_run(const struct aesir_key_state *ks, unsigned dir,
                                 uint8_t iv[16], uint8_t *out,
                                 const uint8_t *in, size_t nblocks)
{
    const struct aesir_engine *e = ks->engine;

    if (dir == AESIR_ENCRYPT) {
        if (e->cbc_enc != NULL)
            e->cbc_enc(ks->rk_enc, ks->nr, iv, out, in, nblocks);
        else
            aesir_cbc_enc_generic(ks, iv, out, in, nblocks);
    } else {
        if (e->cbc_dec != NULL)
            e->cbc_dec(ks->rk_dec, ks->nr, iv, out, in, nblocks);
        else
            aesir_cbc_dec_generic(ks, iv, out, in, nblocks);
    }
}
void aesir_cbc_blocks(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                      size_t nblocks);

/* ECB and CBC buffering and padding (blockmode.c). */
size_t aesir_blockmode_update_size(const struct cipher_state *st,
                                   size_t in_len);
int aesir_blockmode_update(struct cipher_state *st, uint8_t *out,
                           size_t out_cap, size_t *out_len, const uint8_t *in,
                           size_t in_len);
int aesir_blockmode_final(struct cipher_state *st, uint8_t *out, size_t out_cap,
                          size_t *out_len);
/* PKCS#7 decryption's last block (blockmode.c): p = the last plaintext
 * block, decrypted from `last` and, for CBC, the chaining value prev
 * before it; returns the pad length 1..16, or 0 when the padding is
 * invalid, checked in constant time and then declassified. */
unsigned aesir_pkcs7_last(const struct aesir_key_state *ks, unsigned mode,
                          const uint8_t *prev, const uint8_t last[16],
                          uint8_t p[16]);

/* Stream-like modes: out gets exactly len bytes. */
void aesir_cfb128_update(struct cipher_state *st, uint8_t *out,
                         const uint8_t *in, size_t len);
/* One-shot CFB128 on a checked key, without a context (cfb.c). */
void aesir_cfb128_oneshot(const struct aesir_key_state *ks, unsigned dir,
                          const uint8_t iv[16], uint8_t *out, const uint8_t *in,
                          size_t len);
/* One-shot OFB on a checked key, without a context (ofb.c). */
void aesir_ofb_oneshot(const struct aesir_key_state *ks, const uint8_t iv[16],
                       uint8_t *out, const uint8_t *in, size_t len);
void aesir_cfb8_update(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                       size_t len);
/* CFB1 on nbits bits, MSB first; unused low bits of the last output
 * byte are zeroed. */
void aesir_cfb1_update_bits(struct cipher_state *st, uint8_t *out,
                            const uint8_t *in, size_t nbits);
void aesir_ofb_update(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                      size_t len);
int aesir_ctr_update(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                     size_t len);
/* aesir_ctr_bits -- the counter width of an API counter_bits value: 32,
 * 64 or 128 (0 means 128); 0 when it is none of these. */
static inline unsigned aesir_ctr_bits(unsigned counter_bits)
{
    if (counter_bits == 0)
        return 128;
    return counter_bits == 32 || counter_bits == 64 || counter_bits == 128
               ? counter_bits
               : 0;
}
/* One-shot CTR on a checked key and a w-bit counter (w = 32, 64, 128):
 * AESIR_E_COUNTER_OVERFLOW before any output, else AESIR_OK (ctr.c). */
int aesir_ctr_oneshot(const struct aesir_key_state *ks, const uint8_t iv[16],
                      unsigned w, uint8_t *out, const uint8_t *in, size_t len);

/* k keystream blocks from the 128-bit counter ctr (advanced past them)
 * XORed into in, on the engine's CTR path or the generic one (ctr.c); the
 * caller keeps the counter from wrapping. */
void aesir_ctr_blocks(const struct aesir_key_state *ks, uint8_t ctr[16],
                      uint8_t *out, const uint8_t *in, size_t k);

/* One encryption of the 16-byte block in with the context's key. */
static inline void aesir_encrypt1(const struct cipher_state *st,
                                  uint8_t out[16], const uint8_t in[16])
{
    st->ks->engine->encrypt(st->ks->rk_enc, st->ks->nr, out, in, 1);
}

#endif /* AESIR_MODES_H */
