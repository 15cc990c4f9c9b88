/*
 * ccm.c -- CCM (NIST SP 800-38C; RFC 3610), written once on top of an AES
 * engine's bulk ECB, CTR and CBC-MAC paths, with an optional fused
 * engine kernel (aesir_ccm_fn, internal.h) for the data blocks.
 *
 * SP 800-38C section 6.1 and appendix A: with a nonce N of n bytes
 * (7..13), q = 15 - n bytes of message length Q and a tag of t bytes,
 *   B_0   = flags || N || [Q]_8q,  flags = 64 Adata + 8 (t-2)/2 + (q-1)
 *           (A.2.1);
 *   then the additional data a, prefixed with its length in 2, 6 or 10
 *   bytes (A.2.2: [a]_16 when a < 2^16 - 2^8, 0xff 0xfe [a]_32 when
 *   a < 2^32, else 0xff 0xff [a]_64), zero-padded to whole blocks;
 *   then the payload, zero-padded (A.2.3);
 *   T = MSB_t(Y_r), the CBC-MAC of B_0 .. B_r under the key;
 *   A_i = (q-1) || N || [i]_8q, C = P ^ MSB_|P|(E(A_1) || E(A_2) ...),
 *   the tag sent is T ^ MSB_t(E(A_0)) (A.3, 6.1 steps 5-8).
 *
 * The MAC is serial: block i needs Y_(i-1). So the data path runs the
 * two chains side by side: a fused kernel encrypts the MAC block and a
 * counter block in the same rounds (two blocks in flight, the CTR block
 * in the latency shadow of the MAC chain). Engines without one: ct64,
 * whose MAC costs one engine call per block anyway and whose call on 4
 * blocks costs what one on a single block does, takes the counter
 * blocks along in those calls (the paired path); the others run CTR on
 * the engine's CTR path and the MAC on its CBC-MAC or CBC kernel, chunk
 * by chunk.
 *
 * Decryption must decrypt a block before it can MAC it: the paired path
 * runs the keystream ahead of the MAC, the kernels the counter.
 *
 * What is secret: the key, the MAC chain Y, E(A_0), keystream and data
 * (in aesir_ccm, wiped when the message ends or fails). Lengths, the
 * nonce and the counter are public; the code branches only on them. The
 * tag check is aesir_ct_compare; one-shot open zeroes its output on
 * failure.
 */
#include "ccm.h"
#include "aead_ctx.h"

/* The key state behind key, or NULL when it is not set up (or not
 * 16-byte aligned, as for aesir_aes). */
static const struct ccm_key_state *key_state(const aesir_ccm_key *key)
{
    const struct ccm_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct ccm_key_state *)(const void *)key->opaque;
    if (k->magic != CCM_KEY_MAGIC ||
        aesir_key_state(&k->aes, AESIR_ENCRYPT) == NULL)
        return NULL;
    return k;
}

static const struct aesir_key_state *aes_of(const struct ccm_key_state *k)
{
    return (const struct aesir_key_state *)(const void *)k->aes.opaque;
}

/* ---- key ------------------------------------------------------------- */

void aesir_ccm_clear(aesir_ccm_key *key)
{
    /* through a void pointer: a misaligned key is wiped too */
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_ccm_key));
}

int aesir_ccm_init_ex(aesir_ccm_key *key, const uint8_t *k, size_t key_len,
                      const char *engine)
{
    struct ccm_key_state *st;
    int err;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned key */
    st = (struct ccm_key_state *)(void *)key->opaque;
    if (k == NULL) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    err = aesir_aes_init_ex(&st->aes, k, key_len, engine, AESIR_ENCRYPT);
    if (err != AESIR_OK)
        goto fail;
    st->fused_enc = aes_of(st)->engine->ccm_enc;
    st->fused_dec = aes_of(st)->engine->ccm_dec;
    if (st->fused_enc == NULL || st->fused_dec == NULL)
        st->fused_enc = st->fused_dec = NULL;
    st->pairing = CCM_PAIR_AUTO;
    st->magic = CCM_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_ccm_clear(key);
    return err;
}

int aesir_ccm_init(aesir_ccm_key *key, const uint8_t *k, size_t key_len)
{
    return aesir_ccm_init_ex(key, k, key_len, NULL);
}

const char *aesir_ccm_engine(const aesir_ccm_key *key)
{
    const struct ccm_key_state *k = key_state(key);
    return k == NULL ? NULL : aes_of(k)->engine->name;
}

/* ---- the CBC-MAC ----------------------------------------------------- */

/* Blocks of CBC ciphertext per call of an engine's cbc_enc in cbc_mac. */
#define CCM_SINK 16

/* n whole blocks at p into the chain y: the engine's CBC-MAC path (its
 * multi-buffer kernel with one lane), else its CBC kernel, else one
 * block per call. */
static void cbc_mac(const struct aesir_key_state *ks, uint8_t y[16],
                    const uint8_t *p, size_t n)
{
    const struct aesir_engine *e = ks->engine;

    if (n == 0)
        return;
    if (e->cbc_mac_many != NULL) {
        struct aesir_cbc_lane l;
        l.rk = ks->rk_enc;
        l.in = p;
        l.out = NULL;
        l.nblocks = n;
        memcpy(l.iv, y, 16);
        e->cbc_mac_many(ks->nr, &l, 1);
        memcpy(y, l.iv, 16);
        aesir_wipe(l.iv, 16);
        return;
    }
    if (e->cbc_enc != NULL) {
        /* the engine's serial CBC kernel, the ciphertext into a sink:
         * its key stays loaded over the chain (per-block calls cost
         * ct64 and the vector-permute engines their set-up and stack
         * wipe every block) */
        uint8_t sink[16 * CCM_SINK];
        while (n > 0) {
            size_t m = n < CCM_SINK ? n : CCM_SINK;
            e->cbc_enc(ks->rk_enc, ks->nr, y, sink, p, m);
            p += 16 * m, n -= m;
        }
        aesir_wipe(sink, sizeof(sink)); /* the chain's inner values */
        return;
    }
    for (; n > 0; n--, p += 16) {
        aesir_xor(y, y, p, 16);
        e->encrypt(ks->rk_enc, ks->nr, y, y, 1);
    }
}

/* len bytes into the MAC through the partial-block buffer. */
static void mac_bytes(struct ccm_state *st, const uint8_t *p, size_t len)
{
    const struct aesir_key_state *ks = aes_of(st->key);
    size_t n;

    if (st->nbuf != 0) {
        n = 16 - st->nbuf < len ? 16 - st->nbuf : len;
        memcpy(st->buf + st->nbuf, p, n);
        st->nbuf += (uint32_t)n;
        p += n, len -= n;
        if (st->nbuf < 16)
            return;
        cbc_mac(ks, st->y, st->buf, 1);
        st->nbuf = 0;
    }
    if (len >= 16) {
        cbc_mac(ks, st->y, p, len / 16);
        p += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        memcpy(st->buf, p, len);
        st->nbuf = (uint32_t)len;
    }
}

/* A partial block zero-padded into the MAC (A.2.2, A.2.3). */
static void mac_pad(struct ccm_state *st)
{
    if (st->nbuf != 0) {
        memset(st->buf + st->nbuf, 0, 16 - st->nbuf);
        cbc_mac(aes_of(st->key), st->y, st->buf, 1);
        st->nbuf = 0;
    }
}

/* ---- the data path --------------------------------------------------- */

/*
 * Engines whose whole batch costs what a call on one block does and that
 * have no serial CBC kernel, so that the MAC runs as one engine call per
 * block anyway: ct64 (4 blocks in one 64-bit bitsliced pass). Its MAC
 * calls take the counter blocks along (pair_blocks). Measured (Zen 4,
 * TSC cycles per block at 16 KiB, docs/modes/ccm.md): ct64 694 paired
 * against 778 apart (the MAC alone 615); bs-avx2 and bs-avx512, whose
 * batch of 16 costs more than their 1..4-block calls (ct64's code), 675
 * and 662 paired against 659 and 644 apart; the engines with a CBC
 * kernel (vperm-*, gfni) lose more. So they, and the single-block
 * engines, run the MAC and CTR apart.
 */
static int paired(const struct aesir_engine *e)
{
    return (e->flags & ENGINE_HW) == 0 && e->batch >= 2 && e->batch <= 4 &&
           e->cbc_enc == NULL;
}

/* Blocks per engine call on the paired path: the MAC block and up to
 * CCM_PAIR_MAX - 1 counter blocks. */
#define CCM_PAIR_MAX 16

/*
 * The paired path: one engine call per MAC block, [Y ^ P_i, counter
 * blocks], the counter blocks only when the keystream made by earlier
 * calls is used up, then as many as the engine's batch takes beside the
 * MAC block (at most what the message still needs). Decryption must
 * decrypt a block before it can MAC it, so its call i carries the MAC
 * of P_(i-1) and the keystream of P_i on: one call more in all.
 */
static void pair_blocks(const struct aesir_key_state *ks, int dec,
                        uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                        const uint8_t *in, size_t n)
{
    const struct aesir_engine *e = ks->engine;
    /* at least 2 (CCM_PAIR_ON may force this path on any engine) */
    const size_t width = e->batch < 2              ? 2
                         : e->batch < CCM_PAIR_MAX ? e->batch
                                                   : CCM_PAIR_MAX;
    uint8_t b[16 * CCM_PAIR_MAX], kbuf[16 * (CCM_PAIR_MAX - 1)];
    size_t nk = 0, kpos = 0, used = 0;

    /* call i (0 .. n, decryption; 0 .. n-1, encryption): the MAC block of
     * P_(i - dec) when there is one, and a refill of the keystream when
     * P_i needs one */
    for (size_t i = 0; i <= n; i++) {
        const int mac = dec ? i > 0 : i < n;
        size_t m = 0, slot = mac ? 1 : 0;
        if (!dec && i == n)
            break;
        if (mac)
            aesir_xor(b, y, dec ? out - 16 : in, 16);
        if (i < n && nk == 0) {
            m = n - i < width - 1 ? n - i : width - 1;
            for (size_t j = 0; j < m; j++) {
                memcpy(b + 16 * (slot + j), ctr, 16);
                aesir_ctr_add(ctr, 1);
            }
        }
        e->encrypt(ks->rk_enc, ks->nr, b, b, slot + m);
        used = used > slot + m ? used : slot + m;
        if (mac)
            memcpy(y, b, 16);
        if (m != 0) {
            memcpy(kbuf, b + 16 * slot, 16 * m);
            nk = m, kpos = 0;
        }
        if (i < n) {
            aesir_xor(out, in, kbuf + 16 * kpos, 16);
            kpos++, nk--;
            in += 16, out += 16;
        }
    }
    aesir_wipe(b, 16 * used);
    aesir_wipe(kbuf, sizeof(kbuf));
}

/* n whole blocks of data with the MAC and the counter (n > 0; the MAC
 * buffer is empty and the keystream used up). */
static void data_blocks(const struct ccm_key_state *k, int dec, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in,
                        size_t n)
{
    const struct aesir_key_state *ks = aes_of(k);
    aesir_ccm_fn fused = dec ? k->fused_dec : k->fused_enc;

    if (fused != NULL) {
        fused(ks->rk_enc, ks->nr, ctr, y, out, in, n);
        return;
    }
    if (k->pairing == CCM_PAIR_AUTO ? paired(ks->engine)
                                    : k->pairing == CCM_PAIR_ON) {
        pair_blocks(ks, dec, ctr, y, out, in, n);
        return;
    }
    /* the MAC reads plaintext: before CTR when encrypting (in place, in
     * is overwritten), after it when decrypting */
    while (n > 0) {
        size_t m = n < CCM_CHUNK ? n : CCM_CHUNK;
        if (!dec)
            cbc_mac(ks, y, in, m);
        aesir_ctr_blocks(ks, ctr, out, in, m);
        if (dec)
            cbc_mac(ks, y, out, m);
        in += 16 * m, out += 16 * m, n -= m;
    }
}

/* Bytes of data with the keystream left in st->ks; the plaintext goes
 * to the MAC. */
static void data_bytes(struct ccm_state *st, int dec, uint8_t *out,
                       const uint8_t *in, size_t len)
{
    if (!dec)
        mac_bytes(st, in, len);
    aesir_xor(out, in, st->ks + st->nks, len);
    if (dec)
        mac_bytes(st, out, len);
    st->nks += (uint32_t)len;
}

/* The next keystream block into st->ks. */
static void next_ks(struct ccm_state *st)
{
    const struct aesir_key_state *ks = aes_of(st->key);
    memcpy(st->ks, st->ctr, 16);
    aesir_ctr_add(st->ctr, 1);
    ks->engine->encrypt(ks->rk_enc, ks->nr, st->ks, st->ks, 1);
    st->nks = 0;
}

/* ---- messages -------------------------------------------------------- */

static struct ccm_state *state_of(aesir_ccm *ctx)
{
    return (struct ccm_state *)(void *)ctx->opaque;
}

/* live, end, not_live on a message context (aead_ctx.h). */
AEAD_MESSAGES(aesir_ccm, struct ccm_state, CCM_MAGIC, key_state, AESIR_E_STATE)

void aesir_ccm_abort(aesir_ccm *ctx)
{
    (void)end(ctx, AESIR_OK);
}

static int tag_len_ok(size_t t)
{
    return t >= 4 && t <= 16 && t % 2 == 0;
}

static int nonce_len_ok(size_t n)
{
    return n >= AESIR_CCM_NONCE_MIN && n <= AESIR_CCM_NONCE_MAX;
}

/* Whether a message of len bytes fits in the q = 15 - nonce_len bytes of
 * B_0's length field (SP 800-38C A.2.1: len < 2^(8q)). */
static int msg_len_ok(size_t nonce_len, uint64_t len)
{
    unsigned q = 15 - (unsigned)nonce_len;
    return q >= 8 || (len >> (8 * q)) == 0;
}

/* B_0 and A_0, the MAC's first block encrypted and E(A_0), the
 * additional data's length encoding in the MAC buffer; arguments
 * checked. */
static void start(struct ccm_state *st, const struct ccm_key_state *k,
                  const uint8_t *nonce, size_t nonce_len, uint64_t aad_len,
                  uint64_t msg_len, size_t tag_len)
{
    const struct aesir_key_state *ks = aes_of(k);
    unsigned q = 15 - (unsigned)nonce_len;
    uint8_t b[32]; /* B_0, A_0 */

    memset(st, 0, sizeof(*st));
    st->key = k;
    b[0] =
        (uint8_t)((aad_len != 0 ? 64 : 0) | (tag_len - 2) / 2 << 3 | (q - 1));
    /* [Q]_8q: the length as 8 bytes, then the nonce over those of its
     * high bytes that q leaves to it (zero: Q < 2^(8q) was checked) */
    aesir_store_be64(b + 8, msg_len);
    memcpy(b + 1, nonce, nonce_len);
    b[16] = (uint8_t)(q - 1);
    memcpy(b + 17, nonce, nonce_len);
    memset(b + 17 + nonce_len, 0, q);
    memcpy(st->ctr, b + 16, 16);
    st->ctr[15] = 1; /* the data from A_1 */
    ks->engine->encrypt(ks->rk_enc, ks->nr, b, b, 2);
    memcpy(st->y, b, 16);
    memcpy(st->s0, b + 16, 16);
    aesir_wipe(b, sizeof(b));
    if (aad_len != 0) {
        if (aad_len < 0xff00) {
            st->buf[0] = (uint8_t)(aad_len >> 8);
            st->buf[1] = (uint8_t)aad_len;
            st->nbuf = 2;
        } else if (aad_len <= 0xffffffffu) {
            st->buf[0] = 0xff, st->buf[1] = 0xfe;
            aesir_store_be32(st->buf + 2, (uint32_t)aad_len);
            st->nbuf = 6;
        } else {
            st->buf[0] = 0xff, st->buf[1] = 0xff;
            aesir_store_be64(st->buf + 2, aad_len);
            st->nbuf = 10;
        }
    }
    st->aad_left = aad_len;
    st->msg_left = msg_len;
    st->tag_len = (uint32_t)tag_len;
    st->nks = 16;
    st->phase = CCM_PH_AAD;
    st->magic = CCM_MAGIC;
}

int aesir_ccm_start(aesir_ccm *ctx, const aesir_ccm_key *key,
                    const uint8_t *nonce, size_t nonce_len, uint64_t aad_len,
                    uint64_t msg_len, size_t tag_len)
{
    const struct ccm_key_state *k = key_state(key);

    if (!aead_ctx_ok(ctx))
        return AESIR_E_ARGUMENT;
    if (k == NULL)
        return end(ctx, AESIR_E_STATE);
    if (nonce == NULL || !tag_len_ok(tag_len))
        return end(ctx, AESIR_E_ARGUMENT);
    if (!nonce_len_ok(nonce_len))
        return end(ctx, AESIR_E_IV_LENGTH);
    if (!msg_len_ok(nonce_len, msg_len))
        return end(ctx, AESIR_E_INPUT_LENGTH);
    start(state_of(ctx), k, nonce, nonce_len, aad_len, msg_len, tag_len);
    return AESIR_OK;
}

/* len bytes of additional data (at most aad_left; checked). */
static void aad_bytes(struct ccm_state *st, const uint8_t *aad, size_t len)
{
    mac_bytes(st, aad, len);
    st->aad_left -= len;
    if (st->aad_left == 0)
        mac_pad(st);
}

int aesir_ccm_aad(aesir_ccm *ctx, const uint8_t *aad, size_t len)
{
    struct ccm_state *st = live(ctx, 1u << CCM_PH_AAD);

    if (st == NULL)
        return not_live(ctx);
    if (len == 0)
        return AESIR_OK;
    if (aad == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)len > st->aad_left)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    aad_bytes(st, aad, len);
    return AESIR_OK;
}

static int update(aesir_ccm *ctx, unsigned phase, uint8_t *out,
                  const uint8_t *in, size_t len)
{
    struct ccm_state *st = live(ctx, 1u << CCM_PH_AAD | 1u << phase);
    const int dec = phase == CCM_PH_DEC;
    size_t n;

    if (st == NULL)
        return not_live(ctx);
    if (st->aad_left != 0)
        return end(ctx, AESIR_E_STATE);
    if (len != 0 && (out == NULL || in == NULL))
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)len > st->msg_left)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    st->phase = phase;
    st->msg_left -= len;
    /* what is left of the last keystream block */
    n = 16 - st->nks < len ? 16 - st->nks : len;
    if (n != 0) {
        data_bytes(st, dec, out, in, n);
        out += n, in += n, len -= n;
    }
    if (len >= 16) {
        data_blocks(st->key, dec, st->ctr, st->y, out, in, len / 16);
        out += len & ~(size_t)15, in += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        next_ks(st);
        data_bytes(st, dec, out, in, len);
    }
    return AESIR_OK;
}

int aesir_ccm_encrypt_update(aesir_ccm *ctx, uint8_t *out, const uint8_t *in,
                             size_t len)
{
    return update(ctx, CCM_PH_ENC, out, in, len);
}

int aesir_ccm_decrypt_update_unverified(aesir_ccm *ctx, uint8_t *out,
                                        const uint8_t *in, size_t len)
{
    return update(ctx, CCM_PH_DEC, out, in, len);
}

/* The checks of finish and verify; AESIR_OK, or the error (not yet
 * through end()). */
static int final_checks(const struct ccm_state *st, const void *tag,
                        size_t tag_len)
{
    if (tag == NULL || tag_len != st->tag_len)
        return AESIR_E_ARGUMENT;
    if (st->aad_left != 0 || st->msg_left != 0)
        return AESIR_E_INPUT_LENGTH;
    return AESIR_OK;
}

/* The full 16-byte value T ^ E(A_0) of the message (the state is spent). */
static void full_tag(struct ccm_state *st, uint8_t t[16])
{
    mac_pad(st);
    aesir_xor(t, st->y, st->s0, 16);
}

int aesir_ccm_finish(aesir_ccm *ctx, uint8_t *tag, size_t tag_len)
{
    struct ccm_state *st = live(ctx, 1u << CCM_PH_AAD | 1u << CCM_PH_ENC);
    uint8_t t[16];
    int err;

    if (st == NULL)
        return not_live(ctx);
    if ((err = final_checks(st, tag, tag_len)) != AESIR_OK)
        return end(ctx, err);
    full_tag(st, t);
    memcpy(tag, t, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, AESIR_OK);
}

int aesir_ccm_verify(aesir_ccm *ctx, const uint8_t *tag, size_t tag_len)
{
    struct ccm_state *st = live(ctx, 1u << CCM_PH_AAD | 1u << CCM_PH_DEC);
    uint8_t t[16];
    int err;

    if (st == NULL)
        return not_live(ctx);
    if ((err = final_checks(st, tag, tag_len)) != AESIR_OK)
        return end(ctx, err);
    full_tag(st, t);
    err = aead_verdict(t, tag, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, err);
}

/* ---- one-shot -------------------------------------------------------- */

/* Checks shared by the one-shot calls (aead_ctx.h); AESIR_OK or the
 * error. */
static int oneshot_checks(const struct ccm_key_state *k, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *aad, size_t aad_len,
                          const void *out, const void *in, size_t len,
                          const void *tag, size_t tag_len)
{
    return aead_oneshot_checks(
        k, nonce, aad, aad_len, out, in, len,
        tag != NULL && tag_len_ok(tag_len), nonce_len_ok(nonce_len),
        nonce_len_ok(nonce_len) && msg_len_ok(nonce_len, (uint64_t)len));
}

/* A message in one go on a context of the stack: its result (AESIR_OK or
 * AESIR_E_AUTH); the arguments have been checked. */
static int run(const struct ccm_key_state *k, unsigned phase,
               const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
               size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
               uint8_t *tag_out, const uint8_t *tag_in, size_t tag_len)
{
    aesir_ccm ctx;
    int err;

    start(state_of(&ctx), k, nonce, nonce_len, (uint64_t)aad_len, (uint64_t)len,
          tag_len);
    if (aad_len != 0)
        aad_bytes(state_of(&ctx), aad, aad_len);
    (void)update(&ctx, phase, out, in, len);
    if (phase == CCM_PH_ENC)
        err = aesir_ccm_finish(&ctx, tag_out, tag_len);
    else
        err = aesir_ccm_verify(&ctx, tag_in, tag_len);
    return aead_released(err, out, len);
}

int aesir_ccm_seal_detached(const aesir_ccm_key *key, const uint8_t *nonce,
                            size_t nonce_len, const uint8_t *aad,
                            size_t aad_len, uint8_t *out, uint8_t *tag,
                            size_t tag_len, const uint8_t *in, size_t len)
{
    const struct ccm_key_state *k = key_state(key);
    int err = oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, len,
                             tag, tag_len);
    if (err != AESIR_OK)
        return err;
    return run(k, CCM_PH_ENC, nonce, nonce_len, aad, aad_len, out, in, len, tag,
               NULL, tag_len);
}

int aesir_ccm_open_detached(const aesir_ccm_key *key, const uint8_t *nonce,
                            size_t nonce_len, const uint8_t *aad,
                            size_t aad_len, uint8_t *out, const uint8_t *tag,
                            size_t tag_len, const uint8_t *in, size_t len)
{
    const struct ccm_key_state *k = key_state(key);
    uint8_t t[16];
    int err = oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, len,
                             tag, tag_len);
    if (err != AESIR_OK)
        return err;
    /* the tag may lie in out (just past an in-place ciphertext) */
    memcpy(t, tag, tag_len);
    return run(k, CCM_PH_DEC, nonce, nonce_len, aad, aad_len, out, in, len,
               NULL, t, tag_len);
}

int aesir_ccm_seal(const aesir_ccm_key *key, const uint8_t *nonce,
                   size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   uint8_t *out, size_t out_cap, size_t *out_len,
                   const uint8_t *in, size_t in_len, size_t tag_len)
{
    const struct ccm_key_state *k = key_state(key);
    int err;

    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    err = oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, in_len,
                         out, tag_len);
    if (err != AESIR_OK)
        return err;
    if (out_cap < tag_len || out_cap - tag_len < in_len)
        return AESIR_E_OUTPUT_SIZE;
    /* the tag after the ciphertext: written after the data is read */
    err = run(k, CCM_PH_ENC, nonce, nonce_len, aad, aad_len, out, in, in_len,
              out + in_len, NULL, tag_len);
    *out_len = in_len + tag_len;
    return err;
}

int aesir_ccm_open(const aesir_ccm_key *key, const uint8_t *nonce,
                   size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   uint8_t *out, size_t out_cap, size_t *out_len,
                   const uint8_t *in, size_t in_len, size_t tag_len)
{
    const struct ccm_key_state *k = key_state(key);
    uint8_t tag[16];
    size_t len;
    int err;

    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    if (k == NULL)
        return AESIR_E_STATE;
    if (in == NULL || !tag_len_ok(tag_len))
        return AESIR_E_ARGUMENT;
    if (in_len < tag_len)
        return AESIR_E_INPUT_LENGTH;
    len = in_len - tag_len;
    err = oneshot_checks(k, nonce, nonce_len, aad, aad_len, out, in, len, in,
                         tag_len);
    if (err != AESIR_OK)
        return err;
    if (out_cap < len)
        return AESIR_E_OUTPUT_SIZE;
    memcpy(tag, in + len,
           tag_len); /* before out (which may be in) is written */
    err = run(k, CCM_PH_DEC, nonce, nonce_len, aad, aad_len, out, in, len, NULL,
              tag, tag_len);
    aesir_wipe(tag, sizeof(tag));
    if (err == AESIR_OK)
        *out_len = len;
    return err;
}
