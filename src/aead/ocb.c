/*
 * ocb.c -- OCB3 (RFC 7253), written once on top of an AES engine's bulk
 * ECB, with the engine's fused kernels (ocb_enc, ocb_dec; internal.h)
 * where it has them.
 *
 * OCB (RFC 7253 section 4): with L_* = E_K(0^128), L_$ = double(L_*),
 * L_0 = double(L_$), L_i = double(L_(i-1)) (section 4.1, double is
 * multiplication by x in GF(2^128)), and Offset_0 derived from the nonce
 * (section 4.2: Ktop = E_K(nonce block with its low 6 bits cleared),
 * Stretch = Ktop || (Ktop[1..64] xor Ktop[9..72]), Offset_0 =
 * Stretch[1 + bottom .. 128 + bottom]), block i of the data is
 *   Offset_i = Offset_(i-1) xor L_(ntz(i)),
 *   C_i = Offset_i xor E_K(P_i xor Offset_i),
 *   Checksum_i = Checksum_(i-1) xor P_i,
 * a last partial block is XORed with Pad = E_K(Offset_m xor L_*), and
 *   Tag = E_K(Checksum xor Offset xor L_$) xor HASH_K(A),
 * where HASH (section 4.1) sums E_K(A_i xor Offset_i) over the additional
 * data with offsets of its own starting from zero.
 *
 * Every block is independent, so the generic path works in batches: the
 * offsets of up to OCB_BATCH blocks into a buffer, XOR, the engine's bulk
 * ECB on the whole batch, XOR. That is what the software engines run at
 * their batch size; the x86 engines' fused kernels keep the offsets in
 * registers instead (the src/engine/<engine>_ocb.c files).
 *
 * What is secret: the key and the L table (in the key object), the
 * offsets, checksum and sum of a message (in aesir_ocb, wiped when the
 * message ends or fails), the data. Branches and table indices depend
 * only on lengths, block indices (ntz of a public count) and the nonce
 * (the shift by bottom: the nonce is public); the tag check is
 * aesir_ct_compare. One-shot open releases no plaintext on failure.
 */
#include "ocb.h"
#include "aead_ctx.h"
#include "modes.h"

/* Blocks per batch of the generic path: the widest engine batch
 * (vaes-avx512, bs-avx512: 32 blocks). */
#define OCB_BATCH 32

/*
 * The stack below a public function that the functions it calls here
 * may have used (their frames, from gcc 12's and clang 14's
 * -fstack-usage: update 64 + update_shifted 640 + data_blocks 656 at
 * most, plus the engine's entry frames, rounded up): wiped when they
 * return (aesir_wipe_stack, internal.h), since what the compiler
 * spilled there -- offsets, the L values a callee pushed with its
 * callee-saved registers -- no wipe of a named buffer reaches. The
 * engines' bodies below that wipe their own. tests/test_residue.c finds
 * what a short bound leaves.
 */
#define OCB_WIPE_BYTES 1664
/* The same for the one-shot calls on an engine without a whole-message
 * kernel: run (224 gcc, 808 clang, which inlines data_blocks) +
 * data_blocks 656 + an engine entry's frame. With one, the kernel and
 * whole_message wipe what they used (wipe_stack_to). */
#define OCB_WIPE_ONESHOT 1152

static const struct ocb_key_state *key_state(const aesir_ocb_key *key)
{
    const struct ocb_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct ocb_key_state *)(const void *)key->opaque;
    if (k->magic != OCB_KEY_MAGIC ||
        aesir_key_state(&k->aes, AESIR_ENCRYPT | AESIR_DECRYPT) == NULL)
        return NULL;
    return k;
}

static const struct aesir_key_state *aes_of(const struct ocb_key_state *k)
{
    return (const struct aesir_key_state *)(const void *)k->aes.opaque;
}

static void enc1(const struct ocb_key_state *k, uint8_t out[16],
                 const uint8_t in[16])
{
    const struct aesir_key_state *ks = aes_of(k);
    ks->engine->encrypt(ks->rk_enc, ks->nr, out, in, 1);
}

/* out = a ^ b on 16 bytes, as two 64-bit words. */
static void xor16(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8);
    memcpy(&a1, a + 8, 8);
    memcpy(&b0, b, 8);
    memcpy(&b1, b + 8, 8);
    a0 ^= b0, a1 ^= b1;
    memcpy(out, &a0, 8);
    memcpy(out + 8, &a1, 8);
}

/* acc ^= the n blocks at p. */
static void xor_blocks_into(uint8_t acc[16], const uint8_t *p, size_t n)
{
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, acc, 8);
    memcpy(&a1, acc + 8, 8);
    for (size_t i = 0; i < n; i++, p += 16) {
        memcpy(&b0, p, 8);
        memcpy(&b1, p + 8, 8);
        a0 ^= b0, a1 ^= b1;
    }
    memcpy(acc, &a0, 8);
    memcpy(acc + 8, &a1, 8);
}

/* Number of trailing zero bits of i > 0 (a public block index). */
static unsigned ntz(uint64_t i)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(i);
#else
    unsigned n = 0;
    while ((i & 1) == 0)
        i >>= 1, n++;
    return n;
#endif
}

/* double(S) (RFC 7253 section 2): S << 1, xor 0x87 into the last byte
 * when the bit shifted out is set -- by a mask, not a branch. */
static void dbl(uint8_t out[16], const uint8_t in[16])
{
    uint64_t hi = aesir_load_be64(in), lo = aesir_load_be64(in + 8);
    uint64_t carry = 0 - (hi >> 63);
    hi = hi << 1 | lo >> 63;
    lo = lo << 1 ^ (carry & 0x87);
    aesir_store_be64(out, hi);
    aesir_store_be64(out + 8, lo);
}

/* ---- key ------------------------------------------------------------- */

void aesir_ocb_clear(aesir_ocb_key *key)
{
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_ocb_key));
}

/* L_*, L_$, L_0 .. L_35 (RFC 7253 section 4.1) and P_1 .. P_32 into
 * st. Out of
 * line: aesir_ocb_init_ex wipes the stack it used. */
static AESIR_NOINLINE void l_table(struct ocb_key_state *st)
{
    memset(st->lstar, 0, 16);
    enc1(st, st->lstar, st->lstar);
    dbl(st->ldollar, st->lstar);
    dbl(st->l[0], st->ldollar);
    for (size_t i = 1; i < OCB_L_COUNT; i++)
        dbl(st->l[i], st->l[i - 1]);
    memcpy(st->p[0], st->l[0], 16);
    for (size_t j = 2; j <= OCB_P_COUNT; j++)
        xor16(st->p[j - 1], st->p[j - 2], st->l[ntz(j)]);
}

int aesir_ocb_init_ex(aesir_ocb_key *key, const uint8_t *k, size_t key_len,
                      const char *engine)
{
    struct ocb_key_state *st;
    int err;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned key */
    st = (struct ocb_key_state *)(void *)key->opaque;
    if (k == NULL) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    if ((err = aesir_aes_init_ex(&st->aes, k, key_len, engine,
                                 AESIR_ENCRYPT | AESIR_DECRYPT)) != AESIR_OK)
        goto fail;
    l_table(st);
    aesir_wipe_stack(512);
    st->fused_enc = aes_of(st)->engine->ocb_enc;
    st->fused_dec = aes_of(st)->engine->ocb_dec;
    st->fused_whole = aes_of(st)->engine->ocb_whole;
    st->magic = OCB_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_ocb_clear(key);
    return err;
}

int aesir_ocb_init(aesir_ocb_key *key, const uint8_t *k, size_t key_len)
{
    return aesir_ocb_init_ex(key, k, key_len, NULL);
}

const char *aesir_ocb_engine(const aesir_ocb_key *key)
{
    const struct ocb_key_state *k = key_state(key);
    return k == NULL ? NULL : aes_of(k)->engine->name;
}

/* ---- blocks ---------------------------------------------------------- */

/* The offsets of blocks *index + 1 .. *index + n (n <= OCB_BATCH) into
 * offs, advancing offset and *index. */
static void offsets(const struct ocb_key_state *k, uint8_t offset[16],
                    uint64_t *index, uint8_t *offs, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        xor16(offset, offset, k->l[ntz(++*index)]);
        memcpy(offs + 16 * j, offset, 16);
    }
}

/*
 * n full blocks of data in direction phase: the engine's fused kernel as
 * far as it goes, then batches of the generic path. st's offset,
 * checksum and block count advance. in == out allowed: encryption sums
 * the plaintext before it overwrites it.
 */
static void data_blocks(struct ocb_state *st, unsigned phase, uint8_t *out,
                        const uint8_t *in, size_t n)
{
    const struct ocb_key_state *k = st->key;
    const struct aesir_key_state *ks = aes_of(k);
    aesir_ocb_fn fused = phase == OCB_PH_ENC ? k->fused_enc : k->fused_dec;
    uint8_t offs[16 * OCB_BATCH];
    size_t used = 0;

    if (fused != NULL && n != 0) {
        size_t done =
            fused(phase == OCB_PH_ENC ? ks->rk_enc : ks->rk_dec, ks->nr,
                  k->l[0], st->blocks, st->offset, st->checksum, out, in, n);
        st->blocks += done;
        out += 16 * done, in += 16 * done, n -= done;
    }
    while (n > 0) {
        size_t c = n < OCB_BATCH ? n : OCB_BATCH;
        offsets(k, st->offset, &st->blocks, offs, c);
        used = c > used ? c : used;
        if (phase == OCB_PH_ENC) {
            xor_blocks_into(st->checksum, in, c);
            aesir_xor(out, in, offs, 16 * c);
            ks->engine->encrypt(ks->rk_enc, ks->nr, out, out, c);
            aesir_xor(out, out, offs, 16 * c);
        } else {
            aesir_xor(out, in, offs, 16 * c);
            ks->engine->decrypt(ks->rk_dec, ks->nr, out, out, c);
            aesir_xor(out, out, offs, 16 * c);
            xor_blocks_into(st->checksum, out, c);
        }
        out += 16 * c, in += 16 * c, n -= c;
    }
    if (used != 0)
        aesir_wipe(offs, 16 * used);
}

#if defined(__GNUC__) || defined(__clang__)
#define OCB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define OCB_ALWAYS_INLINE inline
#endif

/* n full blocks of additional data into HASH's sum. Inline wherever it
 * is used: in aad_hash, its spills must land in aad_hash's own frame. */
static OCB_ALWAYS_INLINE void hash_loop(struct ocb_state *st, const uint8_t *a,
                                        size_t n)
{
    const struct ocb_key_state *k = st->key;
    const struct aesir_key_state *ks = aes_of(k);
    uint8_t offs[16 * OCB_BATCH];
    size_t used = 0;

    while (n > 0) {
        size_t c = n < OCB_BATCH ? n : OCB_BATCH;
        offsets(k, st->aoffset, &st->ablocks, offs, c);
        used = c > used ? c : used;
        aesir_xor(offs, offs, a, 16 * c);
        ks->engine->encrypt(ks->rk_enc, ks->nr, offs, offs, c);
        xor_blocks_into(st->sum, offs, c);
        a += 16 * c, n -= c;
    }
    if (used != 0)
        aesir_wipe(offs, 16 * used);
}

static void hash_blocks(struct ocb_state *st, const uint8_t *a, size_t n)
{
    hash_loop(st, a, n);
}

/* Additional data through the partial-block buffer abuf. */
static AESIR_NOINLINE void hash_bytes(struct ocb_state *st, const uint8_t *a,
                                      size_t len)
{
    if (st->nabuf != 0) {
        size_t n = 16 - st->nabuf < len ? 16 - st->nabuf : len;
        memcpy(st->abuf + st->nabuf, a, n);
        st->nabuf += (uint32_t)n;
        a += n, len -= n;
        if (st->nabuf < 16)
            return;
        hash_blocks(st, st->abuf, 1);
        st->nabuf = 0;
    }
    if (len >= 16) {
        hash_blocks(st, a, len / 16);
        a += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        memcpy(st->abuf, a, len);
        st->nabuf = (uint32_t)len;
    }
}

/* ---- messages -------------------------------------------------------- */

static struct ocb_state *state_of(aesir_ocb *ctx)
{
    return (struct ocb_state *)(void *)ctx->opaque;
}

/* live, end, not_live on a message context (aead_ctx.h). */
AEAD_MESSAGES(aesir_ocb, struct ocb_state, OCB_MAGIC, key_state, AESIR_E_STATE)

/* The secrets of a message on the stack (run): its 16-byte fields, one
 * by one (a wipe of the whole struct became rep stos). */
static void wipe_state(struct ocb_state *st)
{
    aesir_wipe(st->offset, 16);
    aesir_wipe(st->checksum, 16);
    aesir_wipe(st->aoffset, 16);
    aesir_wipe(st->sum, 16);
    aesir_wipe(st->buf, 16);
    aesir_wipe(st->abuf, 16);
}

void aesir_ocb_abort(aesir_ocb *ctx)
{
    (void)end(ctx, AESIR_OK);
}

/* Offset_0 from the nonce (RFC 7253 section 4.2). Stretch is three
 * 64-bit words, Ktop's two and Ktop[1..64] xor Ktop[9..72]; Offset_0
 * is the 128 bits from bit bottom on, shifted out of them in registers
 * (bottom comes from the nonce: public). */
/* The nonce block num2str(TAGLEN mod 128, 7) || zeros || 1 || N with its
 * low 6 bits cleared, and those bits (bottom), section 4.2. */
static unsigned nonce_block(uint8_t n[16], const uint8_t *nonce,
                            size_t nonce_len, size_t tag_len)
{
    unsigned bottom;
    memset(n, 0, 16);
    n[0] = (uint8_t)((tag_len * 8 % 128) << 1);
    n[15 - nonce_len] |= 1;
    if (nonce_len == AESIR_OCB_NONCE_BYTES) /* a copy of constant size */
        memcpy(n + 16 - AESIR_OCB_NONCE_BYTES, nonce, AESIR_OCB_NONCE_BYTES);
    else
        memcpy(n + 16 - nonce_len, nonce, nonce_len);
    bottom = n[15] & 63;
    n[15] &= 0xc0;
    return bottom;
}

/*
 * The same block as two big-endian 64-bit words (w[0] bytes 0..7, w[1]
 * bytes 8..15), built in registers from loads of the nonce: the
 * whole-message kernel takes them by value. Built with byte stores into
 * a buffer, as nonce_block does, the block reached the kernel's 16-byte
 * load through memory: a load over several smaller stores is not
 * forwarded from them (x86), it waits until they are written to the
 * cache, behind everything older still in flight (a previous message's
 * last rounds), and only then could Ktop start.
 */
static unsigned nonce_words(uint64_t w[2], const uint8_t *nonce,
                            size_t nonce_len, size_t tag_len)
{
    uint64_t hi = (uint64_t)(tag_len * 8 % 128) << 57, lo;
    unsigned bottom;

    if (nonce_len == AESIR_OCB_NONCE_BYTES) {
        /* 0..0 || 1 || N: the 1 is bit 96 of the block's last 128 */
        hi |= (uint64_t)1 << 32 | aesir_load_be32(nonce);
        lo = aesir_load_be64(nonce + 4);
    } else {
        /* 1 || N as a 128-bit integer, shifted in byte by byte */
        uint64_t h = 0, l = 1;
        for (size_t i = 0; i < nonce_len; i++) {
            h = h << 8 | l >> 56;
            l = l << 8 | nonce[i];
        }
        hi |= h;
        lo = l;
    }
    bottom = (unsigned)(lo & 63);
    w[0] = hi;
    w[1] = lo & ~(uint64_t)63;
    return bottom;
}

static AESIR_NOINLINE void start(struct ocb_state *st,
                                 const struct ocb_key_state *k,
                                 const uint8_t *nonce, size_t nonce_len,
                                 size_t tag_len)
{
    uint8_t n[16], ktop[16];
    uint64_t w0, w1, w2;
    unsigned bottom;

    /* field by field: a memset of the struct became rep stos, some 30
     * cycles to start on a 64-byte message's critical path */
    memset(st->checksum, 0, 16);
    memset(st->aoffset, 0, 16);
    memset(st->sum, 0, 16);
    st->nbuf = st->nabuf = 0;
    st->blocks = st->ablocks = 0;
    st->key = k;
    st->tag_len = (uint32_t)tag_len;
    bottom = nonce_block(n, nonce, nonce_len, tag_len);
    enc1(k, ktop, n);
    w0 = aesir_load_be64(ktop);
    w1 = aesir_load_be64(ktop + 8);
    aesir_wipe(ktop, sizeof(ktop));
    w2 = w0 ^ (w0 << 8 | w1 >> 56);
    if (bottom != 0) {
        w0 = w0 << bottom | w1 >> (64 - bottom);
        w1 = w1 << bottom | w2 >> (64 - bottom);
    }
    aesir_store_be64(st->offset, w0);
    aesir_store_be64(st->offset + 8, w1);
    st->phase = OCB_PH_START;
    st->magic = OCB_MAGIC;
}

static int nonce_len_ok(size_t n)
{
    return n >= 1 && n <= AESIR_OCB_NONCE_MAX_BYTES;
}

static int tag_len_ok(size_t n)
{
    return n >= 1 && n <= AESIR_OCB_TAG_BYTES;
}

/* Blocks of len bytes (rounded down) at most what is left below
 * OCB_MAX_BLOCKS after done: through 64 bits, which size_t may not be. */
static int blocks_fit(uint64_t done, size_t len)
{
    return (uint64_t)(len / 16) < OCB_MAX_BLOCKS - done;
}

int aesir_ocb_start(aesir_ocb *ctx, const aesir_ocb_key *key,
                    const uint8_t *nonce, size_t nonce_len, size_t tag_len)
{
    const struct ocb_key_state *k = key_state(key);

    if (!aead_ctx_ok(ctx))
        return AESIR_E_ARGUMENT;
    if (k == NULL)
        return end(ctx, AESIR_E_STATE);
    if (nonce == NULL || !tag_len_ok(tag_len))
        return end(ctx, AESIR_E_ARGUMENT);
    if (!nonce_len_ok(nonce_len))
        return end(ctx, AESIR_E_IV_LENGTH);
    start(state_of(ctx), k, nonce, nonce_len, tag_len);
    aesir_wipe_stack(OCB_WIPE_BYTES);
    return AESIR_OK;
}

int aesir_ocb_aad(aesir_ocb *ctx, const uint8_t *aad, size_t len)
{
    struct ocb_state *st =
        live(ctx, 1u << OCB_PH_START | 1u << OCB_PH_ENC | 1u << OCB_PH_DEC);

    if (st == NULL)
        return not_live(ctx);
    if (len == 0)
        return AESIR_OK;
    if (aad == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)(len / 16 + (len % 16 + st->nabuf) / 16) >=
        OCB_MAX_BLOCKS - st->ablocks)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    hash_bytes(st, aad, len);
    aesir_wipe_stack(OCB_WIPE_BYTES);
    return AESIR_OK;
}

/* Bytes per chunk of the unaligned update path. */
#define OCB_CHUNK 32

/*
 * Whole blocks of buf || in when buf holds nbuf > 0 bytes: the stream is
 * not aligned with in, so each chunk is gathered in tmp (what the next
 * chunk needs from in is read before the chunk's output, which may
 * overwrite it in place, is written).
 */
static void update_shifted(struct ocb_state *st, unsigned phase, uint8_t *out,
                           const uint8_t *in, size_t nblk)
{
    uint8_t tmp[16 * OCB_CHUNK], carry[16];
    size_t nb = st->nbuf;

    memcpy(carry, st->buf, nb);
    while (nblk > 0) {
        size_t c = nblk < OCB_CHUNK ? nblk : OCB_CHUNK;
        memcpy(tmp, carry, nb);
        memcpy(tmp + nb, in, 16 * c - nb);
        in += 16 * c - nb;
        nblk -= c;
        if (nblk > 0) {
            memcpy(carry, in, nb);
            in += nb;
        }
        data_blocks(st, phase, tmp, tmp, c);
        memcpy(out, tmp, 16 * c);
        out += 16 * c;
    }
    aesir_wipe(tmp, sizeof(tmp));
    aesir_wipe(carry, sizeof(carry));
}

static AESIR_NOINLINE int update(aesir_ocb *ctx, unsigned phase, uint8_t *out,
                                 size_t out_cap, size_t *out_len,
                                 const uint8_t *in, size_t len)
{
    struct ocb_state *st = live(ctx, 1u << OCB_PH_START | 1u << phase);
    size_t nb, nblk, r;
    uint8_t tail[16];

    if (st == NULL)
        return not_live(ctx);
    if (out_len == NULL || (len != 0 && in == NULL))
        return end(ctx, AESIR_E_ARGUMENT);
    nb = st->nbuf;
    nblk = len / 16 + (len % 16 + nb) / 16;
    r = (len % 16 + nb) % 16;
    if (nblk != 0 && out == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)nblk >= OCB_MAX_BLOCKS - st->blocks)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    if (out_cap / 16 < nblk)
        return end(ctx, AESIR_E_OUTPUT_SIZE);
    st->phase = phase;
    *out_len = 16 * nblk;
    if (nblk == 0) {
        if (len != 0)
            memcpy(st->buf + nb, in, len);
        st->nbuf += (uint32_t)len;
        return AESIR_OK;
    }
    /* the bytes held back, read before any output is written (in place,
     * the output passes them when nb > r) */
    memcpy(tail, in + len - r, r);
    if (nb == 0)
        data_blocks(st, phase, out, in, nblk);
    else
        update_shifted(st, phase, out, in, nblk);
    memcpy(st->buf, tail, r);
    st->nbuf = (uint32_t)r;
    aesir_wipe(tail, sizeof(tail));
    return AESIR_OK;
}

int aesir_ocb_encrypt_update(aesir_ocb *ctx, uint8_t *out, size_t out_cap,
                             size_t *out_len, const uint8_t *in, size_t len)
{
    int err = update(ctx, OCB_PH_ENC, out, out_cap, out_len, in, len);
    aesir_wipe_stack(OCB_WIPE_BYTES);
    return err;
}

int aesir_ocb_decrypt_update_unverified(aesir_ocb *ctx, uint8_t *out,
                                        size_t out_cap, size_t *out_len,
                                        const uint8_t *in, size_t len)
{
    int err = update(ctx, OCB_PH_DEC, out, out_cap, out_len, in, len);
    aesir_wipe_stack(OCB_WIPE_BYTES);
    return err;
}

/*
 * The last partial block (n = 0..15 bytes of in, to out) and the full
 * tag: RFC 7253 section 4.2 from "Process any final partial block". The
 * state is spent. in and out may be equal.
 */
static AESIR_NOINLINE void final_block(struct ocb_state *st, unsigned phase,
                                       uint8_t *out, const uint8_t *in,
                                       size_t n, uint8_t t[16])
{
    const struct ocb_key_state *k = st->key;
    const struct aesir_key_state *ks = aes_of(k);
    uint8_t b[3][16], p[16];
    size_t m = 0, ia = 3, ip = 3;

    /* The encipherments left are independent of each other but for the
     * tag's input after a decryption (its checksum needs the last
     * plaintext, so the pad first): they go to the engine together, one
     * latency instead of three on a short message's critical path. */
    if (st->nabuf != 0) {
        /* HASH's A_*: (A_* || 1 || 0..) xor Offset_m xor L_* */
        memset(st->abuf + st->nabuf, 0, 16 - st->nabuf);
        st->abuf[st->nabuf] = 0x80;
        xor16(st->aoffset, st->aoffset, k->lstar);
        xor16(b[m], st->abuf, st->aoffset);
        ia = m++;
    }
    if (n != 0) {
        /* the pad E_K(Offset_*) */
        xor16(st->offset, st->offset, k->lstar);
        memcpy(b[m], st->offset, 16);
        ip = m++;
        memset(p, 0, 16);
    }
    if (phase == OCB_PH_ENC) {
        if (n != 0) {
            memcpy(p, in, n); /* before out (which may be in) */
            p[n] = 0x80;
            xor16(st->checksum, st->checksum, p);
        }
        xor16(b[m], st->checksum, st->offset);
        xor16(b[m], b[m], k->ldollar);
        m++;
        ks->engine->encrypt(ks->rk_enc, ks->nr, b[0], b[0], m);
        if (n != 0)
            aesir_xor(out, in, b[ip], n);
        memcpy(t, b[m - 1], 16);
    } else {
        if (m != 0)
            ks->engine->encrypt(ks->rk_enc, ks->nr, b[0], b[0], m);
        if (n != 0) {
            aesir_xor(p, in, b[ip], n);
            memcpy(out, p, n);
            p[n] = 0x80;
            xor16(st->checksum, st->checksum, p);
        }
        xor16(t, st->checksum, st->offset);
        xor16(t, t, k->ldollar);
        enc1(k, t, t);
    }
    if (ia != 3)
        xor16(st->sum, st->sum, b[ia]);
    xor16(t, t, st->sum);
    aesir_wipe(b, sizeof(b));
    aesir_wipe(p, sizeof(p));
}

int aesir_ocb_finish(aesir_ocb *ctx, uint8_t *out, size_t out_cap,
                     size_t *out_len, uint8_t *tag, size_t tag_len)
{
    struct ocb_state *st = live(ctx, 1u << OCB_PH_START | 1u << OCB_PH_ENC);
    uint8_t t[16];

    if (st == NULL)
        return not_live(ctx);
    if (out_len == NULL || tag == NULL || tag_len != st->tag_len ||
        (st->nbuf != 0 && out == NULL))
        return end(ctx, AESIR_E_ARGUMENT);
    if (out_cap < st->nbuf)
        return end(ctx, AESIR_E_OUTPUT_SIZE);
    *out_len = st->nbuf;
    final_block(st, OCB_PH_ENC, out, st->buf, st->nbuf, t);
    aesir_wipe_stack(OCB_WIPE_BYTES);
    memcpy(tag, t, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, AESIR_OK);
}

int aesir_ocb_verify(aesir_ocb *ctx, uint8_t *out, size_t out_cap,
                     size_t *out_len, const uint8_t *tag, size_t tag_len)
{
    struct ocb_state *st = live(ctx, 1u << OCB_PH_START | 1u << OCB_PH_DEC);
    uint8_t t[16], p[16];
    size_t n;
    int err;

    if (st == NULL)
        return not_live(ctx);
    if (out_len == NULL || tag == NULL || tag_len != st->tag_len ||
        (st->nbuf != 0 && out == NULL))
        return end(ctx, AESIR_E_ARGUMENT);
    if (out_cap < st->nbuf)
        return end(ctx, AESIR_E_OUTPUT_SIZE);
    *out_len = 0;
    n = st->nbuf;
    /* the last plaintext bytes into p, released only on a match */
    final_block(st, OCB_PH_DEC, p, st->buf, n, t);
    aesir_wipe_stack(OCB_WIPE_BYTES);
    err =
        tag_len == 16 ? aead_verdict16(t, tag) : aead_verdict(t, tag, tag_len);
    if (err == AESIR_OK && n != 0) {
        memcpy(out, p, n);
        *out_len = n;
    }
    aesir_wipe(t, sizeof(t));
    aesir_wipe(p, sizeof(p));
    return end(ctx, err);
}

/* ---- one-shot -------------------------------------------------------- */

/* Checks shared by the one-shot calls (aead_ctx.h); AESIR_OK or the
 * error. */
static int oneshot_checks(const struct ocb_key_state *k, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *aad, size_t aad_len,
                          const void *out, const void *in, size_t len,
                          const void *tag, size_t tag_len)
{
    return aead_oneshot_checks(k, nonce, aad, aad_len, out, in, len,
                               tag != NULL && tag_len_ok(tag_len),
                               nonce_len_ok(nonce_len),
                               blocks_fit(0, aad_len) && blocks_fit(0, len));
}

/*
 * The stack wipe of the one-shot calls' additional data, sized by what
 * the frame really was, not by a bound: aad_hash keeps the running
 * offset (an L_i or P_j) in a register across the engine's calls, and the
 * compiler spills it into whatever frame holds that loop -- with clang
 * 14 at -O3 whole_message's, where hash_blocks was inlined (the offset
 * in xmm1 saved at 0x30(%rsp) across the ECB call): 824 bytes below
 * run's 808, past the 1152 bytes that aesir_ocb_seal used to wipe below
 * itself (tests/test_residue.c, "ocb-L 18" on vaes-avx2 and
 * vaes-avx512, 1800-1808 bytes below the top of its stack; gcc 12's
 * frames, 288 + 304, were within it). Instead,
 * aad_hash returns the address of a byte below its own frame
 * (stack_low), and its caller zeroes the stack from just below its own
 * frame down to that address (wipe_stack_to), which is where aad_hash's
 * frame was, whatever size either compiler gives it. What aad_hash calls
 * are the engine's ECB functions, which keep their own stack clean (the
 * residue test's rows of every engine), and memcpy.
 */
#if defined(__GNUC__) || defined(__clang__)
/* An address below the caller's whole frame: a local of a frame of its
 * own, just under the caller's return address. */
static AESIR_NOINLINE uintptr_t stack_low(void)
{
    volatile unsigned char c = 0;
    uintptr_t a = (uintptr_t)&c;
    __asm__("" : "+r"(a)); /* a number now, not a pointer to c */
    return a;
}

/* Zeroes the stack from this function's frame, which starts where the
 * caller's callee's did, down to low (at most AESIR_WIPE_STACK_MAX
 * bytes). */
static AESIR_NOINLINE void wipe_stack_to(uintptr_t low)
{
    uintptr_t top = (uintptr_t)__builtin_frame_address(0);
    size_t n = top > low ? (size_t)(top - low) : 1;
    unsigned char b[n <= AESIR_WIPE_STACK_MAX ? n : AESIR_WIPE_STACK_MAX];
    /* b ends at or below top, so it begins at or below low */
    aesir_wipe(b, sizeof(b));
}
#else
static uintptr_t stack_low(void)
{
    return 0;
}

static void wipe_stack_to(uintptr_t low) /* best effort */
{
    (void)low;
    aesir_wipe_stack(OCB_WIPE_ONESHOT);
}
#endif

/* HASH_K(A) (RFC 7253 section 4.1) into sum (zero on entry), aad_len >
 * 0. Out of line, returning stack_low(): its caller wipes its frame. */
static AESIR_NOINLINE uintptr_t aad_hash(const struct ocb_key_state *k,
                                         const uint8_t *aad, size_t aad_len,
                                         uint8_t sum[16])
{
    struct ocb_state st;
    size_t r = aad_len % 16;

    memset(st.sum, 0, 16);
    st.key = k;
    st.ablocks = 0;
    memset(st.aoffset, 0, 16);
    hash_loop(&st, aad, aad_len / 16);
    if (r != 0) {
        memset(st.abuf, 0, 16);
        memcpy(st.abuf, aad + (aad_len - r), r);
        st.abuf[r] = 0x80;
        xor16(st.aoffset, st.aoffset, k->lstar);
        xor16(st.abuf, st.abuf, st.aoffset);
        enc1(k, st.abuf, st.abuf);
        xor16(st.sum, st.sum, st.abuf);
        aesir_wipe(st.abuf, 16);
    }
    memcpy(sum, st.sum, 16);
    aesir_wipe(st.sum, 16);
    aesir_wipe(st.aoffset, 16);
    return stack_low();
}

/*
 * A message in one go through the engine's whole-message kernel
 * (aesir_ocb_whole_fn): HASH of the additional data here (aad_hash, its
 * frame wiped at once), the rest there. mode is the kernel's decrypt
 * argument (0, 1 or OCB_WHOLE_CHECK); t receives the full tag (with
 * OCB_WHOLE_CHECK: holds the received tag and receives the check value,
 * zero on a match).
 */
static void whole_message(const struct ocb_key_state *k, int mode,
                          const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *aad, size_t aad_len, uint8_t *out,
                          const uint8_t *in, size_t len, uint8_t t[16],
                          size_t tag_len)
{
    const struct aesir_key_state *ks = aes_of(k);
    uint64_t n[2];
    unsigned bottom = nonce_words(n, nonce, nonce_len, tag_len);
    uint8_t sum[16];

    memset(sum, 0, 16);
    if (aad_len != 0)
        wipe_stack_to(aad_hash(k, aad, aad_len, sum));
    k->fused_whole(ks->rk_enc, ks->rk_dec, ks->nr, k->l[0], n[0], n[1], bottom,
                   sum, out, in, len, t, mode);
    aesir_wipe(sum, 16);
}

/* Whether a one-shot call wipes the stack below it (OCB_WIPE_ONESHOT):
 * not after the engine's whole-message kernel, which wiped its own, nor
 * after the additional data's HASH, whose frame whole_message wiped
 * (run and whole_message hold no secret but t and the sum, wiped by
 * name); the generic code does. */
static int oneshot_wipe(const struct ocb_key_state *k)
{
    return k->fused_whole == NULL;
}

/* A message in one go (arguments checked): AESIR_OK or AESIR_E_AUTH. */
static AESIR_NOINLINE int run(const struct ocb_key_state *k, unsigned phase,
                              const uint8_t *nonce, size_t nonce_len,
                              const uint8_t *aad, size_t aad_len, uint8_t *out,
                              const uint8_t *in, size_t len, uint8_t *tag_out,
                              const uint8_t *tag_in, size_t tag_len)
{
    struct ocb_state st;
    size_t whole = len & ~(size_t)15;
    uint8_t t[16];
    int err = AESIR_OK;

    if (k->fused_whole != NULL && phase == OCB_PH_DEC && tag_len == 16) {
        /* the kernel checks the received tag (OCB_WHOLE_CHECK, ocb.h):
         * t comes back zero when it matches */
        static const uint8_t zero[16];
        memcpy(t, tag_in, 16);
        whole_message(k, OCB_WHOLE_CHECK, nonce, nonce_len, aad, aad_len, out,
                      in, len, t, tag_len);
        err = aead_released(aead_verdict16(t, zero), out, len);
        aesir_wipe(t, sizeof(t));
        return err;
    }
    if (k->fused_whole != NULL) {
        whole_message(k, phase == OCB_PH_DEC, nonce, nonce_len, aad, aad_len,
                      out, in, len, t, tag_len);
    } else {
        start(&st, k, nonce, nonce_len, tag_len);
        if (aad_len != 0) {
            hash_blocks(&st, aad, aad_len / 16);
            memcpy(st.abuf, aad + (aad_len & ~(size_t)15), aad_len % 16);
            st.nabuf = (uint32_t)(aad_len % 16);
        }
        if (whole != 0)
            data_blocks(&st, phase, out, in, whole / 16);
        final_block(&st, phase, out + whole, in + whole, len - whole, t);
        wipe_state(&st);
    }
    if (phase == OCB_PH_ENC) {
        if (tag_len == 16) /* a copy of constant size: no call */
            memcpy(tag_out, t, 16);
        else
            memcpy(tag_out, t, tag_len);
    } else {
        err = aead_released(tag_len == 16 ? aead_verdict16(t, tag_in)
                                          : aead_verdict(t, tag_in, tag_len),
                            out, len);
    }
    aesir_wipe(t, sizeof(t));
    return err;
}

int aesir_ocb_seal_detached(const aesir_ocb_key *key, const uint8_t *nonce,
                            size_t nonce_len, const uint8_t *aad,
                            size_t aad_len, uint8_t *out, uint8_t *tag,
                            size_t tag_len, const uint8_t *in, size_t len)
{
    const struct ocb_key_state *k = key_state(key);
    int err = oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, len,
                             tag, tag_len);
    if (err != AESIR_OK)
        return err;
    err = run(k, OCB_PH_ENC, nonce, nonce_len, aad, aad_len, out, in, len, tag,
              NULL, tag_len);
    if (oneshot_wipe(k))
        aesir_wipe_stack(OCB_WIPE_ONESHOT);
    return err;
}

int aesir_ocb_open_detached(const aesir_ocb_key *key, const uint8_t *nonce,
                            size_t nonce_len, const uint8_t *aad,
                            size_t aad_len, uint8_t *out, const uint8_t *tag,
                            size_t tag_len, const uint8_t *in, size_t len)
{
    const struct ocb_key_state *k = key_state(key);
    int err = oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, len,
                             tag, tag_len);
    if (err != AESIR_OK)
        return err;
    err = run(k, OCB_PH_DEC, nonce, nonce_len, aad, aad_len, out, in, len, NULL,
              tag, tag_len);
    if (oneshot_wipe(k))
        aesir_wipe_stack(OCB_WIPE_ONESHOT);
    return err;
}

int aesir_ocb_seal(const aesir_ocb_key *key, const uint8_t *nonce,
                   size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   uint8_t *out, size_t out_cap, size_t *out_len,
                   const uint8_t *in, size_t in_len)
{
    const struct ocb_key_state *k = key_state(key);
    int err;

    if (out == NULL || out_len == NULL)
        return k == NULL ? AESIR_E_STATE : AESIR_E_ARGUMENT;
    err = oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, in_len,
                         out, 16);
    if (err != AESIR_OK)
        return err;
    if (out_cap < 16 || out_cap - 16 < in_len)
        return AESIR_E_OUTPUT_SIZE;
    /* the tag after the ciphertext; in == out is fine: the tag is
     * written after the data is read */
    err = run(k, OCB_PH_ENC, nonce, nonce_len, aad, aad_len, out, in, in_len,
              out + in_len, NULL, 16);
    if (oneshot_wipe(k))
        aesir_wipe_stack(OCB_WIPE_ONESHOT);
    *out_len = in_len + 16;
    return err;
}

int aesir_ocb_open(const aesir_ocb_key *key, const uint8_t *nonce,
                   size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   uint8_t *out, size_t out_cap, size_t *out_len,
                   const uint8_t *in, size_t in_len)
{
    const struct ocb_key_state *k = key_state(key);
    uint8_t tag[16];
    size_t len;
    int err;

    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    if (in_len < 16)
        return k == NULL    ? AESIR_E_STATE
               : in == NULL ? AESIR_E_ARGUMENT
                            : AESIR_E_INPUT_LENGTH;
    len = in_len - 16;
    err =
        oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, len, in, 16);
    if (err != AESIR_OK)
        return err;
    if (out_cap < len)
        return AESIR_E_OUTPUT_SIZE;
    memcpy(tag, in + len, 16); /* before out (which may be in) is written */
    err = run(k, OCB_PH_DEC, nonce, nonce_len, aad, aad_len, out, in, len, NULL,
              tag, 16);
    if (oneshot_wipe(k))
        aesir_wipe_stack(OCB_WIPE_ONESHOT);
    if (err == AESIR_OK)
        *out_len = len;
    return err;
}
