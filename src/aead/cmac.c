/*
 * cmac.c -- CMAC (NIST SP 800-38B; RFC 4493 for AES-128), written once on
 * top of an AES engine's CBC-MAC chain.
 *
 * CMAC is the CBC-MAC of the message with the last block masked: with
 * L = E_K(0^128), K1 = dbl(L) and K2 = dbl(K1) (SP 800-38B 6.1), a whole
 * last block is XORed with K1, a partial (or empty) one is padded with
 * 10* and XORed with K2 (6.2, steps 3-6). The mask is what makes the
 * CBC-MAC secure for messages of any length; it also means the last
 * block cannot be processed before the message is known to end, so the
 * incremental API holds back up to 16 bytes (1..16 once anything came).
 *
 * One message is one chain, each block waiting for the one before: its
 * speed is the AES latency. The chain goes to the engine's fastest
 * single-chain path: its CBC encryption (aesni and the VAES engines: the
 * serial kernel of aes_x86_serial.h, with the round-0 key folded into
 * the last round) into a small buffer that is wiped, else the generic
 * code. Many messages at
 * once (aesir_cmac_many) go to the engine's multi-buffer CBC-MAC hook
 * (the lanes of src/engine/lanes.h, interleaved across the AES
 * pipeline), in groups of one engine and round count, each message's
 * masked last block handed to its lane as the lane's last block.
 *
 * What is secret: the key, L, K1, K2, the chaining value and the data.
 * The code branches on lengths only; dbl() has no branch on the top bit;
 * tags are compared with aesir_ct_compare.
 */
#include "cmac.h"
#include "aead_ctx.h"

/* ---- pieces shared with SIV and XAES ---------------------------------- */

void aesir_dbl(uint8_t out[16], const uint8_t in[16])
{
    /* all ones when the top bit is set: the reduction by x^128 = x^7 +
     * x^2 + x + 1 (0x87), applied by a mask, not a branch. Byte by byte
     * (in may be out: byte i reads bytes i and i + 1 before it is
     * written): on two 64-bit words gcc 12 spilled a half of the secret
     * to the red zone, which test_residue found. */
    uint8_t mask = (uint8_t)(0 - (in[0] >> 7));

    for (int i = 0; i < 15; i++)
        out[i] = (uint8_t)(in[i] << 1 | in[i + 1] >> 7);
    out[15] = (uint8_t)(in[15] << 1 ^ (mask & 0x87));
}

/* The body of aesir_cmac_subkeys, out of line: the compilers keep
 * pieces of L and K1 in its frame while dbl() shifts bytes (gcc 12
 * spilled them; test_residue found them), which the wrapper wipes. */
AESIR_NOINLINE static void subkeys_body(const struct aesir_key_state *ks,
                                        uint8_t k1[16], uint8_t k2[16])
{
    uint8_t l[16] = {0};

    ks->engine->encrypt(ks->rk_enc, ks->nr, l, l, 1);
    aesir_dbl(k1, l);
    aesir_dbl(k2, k1);
    aesir_wipe(l, sizeof(l));
}

/* Stack the body and its engine call may leave secrets in (its frame is
 * about 120 bytes with gcc 12 and clang 14). */
#define SUBKEYS_STACK 512

void aesir_cmac_subkeys(const struct aesir_key_state *ks, uint8_t k1[16],
                        uint8_t k2[16])
{
    subkeys_body(ks, k1, k2);
    aesir_wipe_stack(SUBKEYS_STACK);
}

/* Blocks per call of the buffered chain: 1 KiB of stack, so that the
 * per-call cost (the engine loading its round keys) stays under 1% of a
 * long message. */
#define SINK 64

void aesir_cmac_chain(const struct aesir_key_state *ks, uint8_t x[16],
                      const uint8_t *in, size_t nblocks)
{
    /* The engine's CBC encryption (its serial kernel on aesni and the VAES
     * engines, which folds round 0's key into the last round), its
     * ciphertext -- the chain's inner values, secret -- into a buffer
     * wiped after; the generic CBC code without one. Not the one-lane
     * multi-buffer CBC-MAC hook: built by clang 14, its manager's frame
     * kept a round key at its bottom (test_residue), which only a wipe
     * of its 4.6 KiB frame would remove. */
    uint8_t sink[16 * SINK];
    size_t most = nblocks < SINK ? nblocks : SINK;

    while (nblocks > 0) {
        size_t n = nblocks < SINK ? nblocks : SINK;
        aesir_cbc_run(ks, AESIR_ENCRYPT, x, sink, in, n);
        in += 16 * n, nblocks -= n;
    }
    if (most != 0)
        aesir_wipe(sink, 16 * most);
}

/* ---- key -------------------------------------------------------------- */

const struct cmac_key_state *aesir_cmac_key_state(const aesir_cmac_key *key)
{
    const struct cmac_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct cmac_key_state *)(const void *)key->opaque;
    if (k->magic != CMAC_KEY_MAGIC ||
        aesir_key_state(&k->aes, AESIR_ENCRYPT) == NULL)
        return NULL;
    return k;
}

int aesir_cmac_setup(struct cmac_key_state *st, const uint8_t *k,
                     size_t key_len, const char *engine)
{
    int err;

    if (k == NULL)
        return AESIR_E_ARGUMENT;
    err = aesir_aes_init_ex(&st->aes, k, key_len, engine, AESIR_ENCRYPT);
    if (err != AESIR_OK)
        return err;
    aesir_cmac_subkeys(aesir_cmac_aes(st), st->k1, st->k2);
    st->magic = CMAC_KEY_MAGIC;
    return AESIR_OK;
}

void aesir_cmac_clear(aesir_cmac_key *key)
{
    if (key != NULL) /* through void *: a misaligned key is wiped too */
        aesir_wipe((void *)key, sizeof(aesir_cmac_key));
}

int aesir_cmac_init_ex(aesir_cmac_key *key, const uint8_t *k, size_t key_len,
                       const char *engine)
{
    int err;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned key */
    err = aesir_cmac_setup((struct cmac_key_state *)(void *)key->opaque, k,
                           key_len, engine);
    if (err != AESIR_OK)
        aesir_cmac_clear(key);
    return err;
}

int aesir_cmac_init(aesir_cmac_key *key, const uint8_t *k, size_t key_len)
{
    return aesir_cmac_init_ex(key, k, key_len, NULL);
}

const char *aesir_cmac_engine(const aesir_cmac_key *key)
{
    const struct cmac_key_state *k = aesir_cmac_key_state(key);
    return k == NULL ? NULL : aesir_cmac_aes(k)->engine->name;
}

/* ---- messages --------------------------------------------------------- */

static void start(struct cmac_state *st, const struct cmac_key_state *k)
{
    memset(st, 0, sizeof(*st));
    st->key = k;
    st->magic = CMAC_MAGIC;
}

/* len more bytes: whatever is held back goes into the chain only when
 * more input follows it, and so do the whole blocks of in but the last
 * 1..16 bytes, which stay in buf. */
static void absorb(struct cmac_state *st, const uint8_t *in, size_t len)
{
    const struct aesir_key_state *ks = aesir_cmac_aes(st->key);
    size_t nb;

    if (len <= 16 - st->n) {
        memcpy(st->buf + st->n, in, len);
        st->n += (uint32_t)len;
        return;
    }
    if (st->n != 0) {
        size_t fill = 16 - st->n;
        memcpy(st->buf + st->n, in, fill);
        in += fill, len -= fill; /* len > 0 still */
        aesir_cmac_chain(ks, st->x, st->buf, 1);
        st->n = 0;
    }
    nb = (len - 1) / 16;
    aesir_cmac_chain(ks, st->x, in, nb);
    in += 16 * nb, len -= 16 * nb;
    memcpy(st->buf, in, len);
    st->n = (uint32_t)len;
}

/* The last block m of a message whose last 1..16 bytes (or none) are
 * p[0..n): whole, XORed with K1; else padded with 10* and XORed with K2
 * (SP 800-38B 6.2 steps 3-4). m is not p. */
static void last_block(const struct cmac_key_state *k, const uint8_t *p,
                       size_t n, uint8_t m[16])
{
    if (n == 16) {
        aesir_xor(m, p, k->k1, 16);
        return;
    }
    memset(m, 0, 16);
    if (n != 0)
        memcpy(m, p, n);
    m[n] = 0x80;
    aesir_xor(m, m, k->k2, 16);
}

/* The full tag: the held-back block masked, into the chain (steps 5-6). */
static void full_tag(struct cmac_state *st, uint8_t t[16])
{
    const struct aesir_key_state *ks = aesir_cmac_aes(st->key);
    uint8_t m[16];

    last_block(st->key, st->buf, st->n, m);
    aesir_xor(st->x, st->x, m, 16);
    aesir_wipe(m, sizeof(m));
    ks->engine->encrypt(ks->rk_enc, ks->nr, t, st->x, 1);
}

void aesir_cmac_two(const struct cmac_key_state *k, const uint8_t *a,
                    size_t alen, const uint8_t *b, size_t blen, uint8_t tag[16])
{
    struct cmac_state st;

    start(&st, k);
    if (alen != 0)
        absorb(&st, a, alen);
    if (blen != 0)
        absorb(&st, b, blen);
    full_tag(&st, tag);
    aesir_wipe(&st, sizeof(st));
}

static struct cmac_state *state_of(aesir_cmac *ctx)
{
    return (struct cmac_state *)(void *)ctx->opaque;
}

/* live(ctx, 0): the running message behind ctx, or NULL (ended, never
 * started, or its key cleared under it; CMAC has no phases); end,
 * not_live (aead_ctx.h). */
AEAD_MESSAGES_NOPHASE(aesir_cmac, struct cmac_state, CMAC_MAGIC,
                      aesir_cmac_key_state, AESIR_E_STATE)

static int tag_len_ok(size_t tag_len)
{
    return tag_len >= AESIR_CMAC_MIN_TAG_BYTES &&
           tag_len <= AESIR_CMAC_TAG_BYTES;
}

void aesir_cmac_abort(aesir_cmac *ctx)
{
    (void)end(ctx, AESIR_OK);
}

int aesir_cmac_start(aesir_cmac *ctx, const aesir_cmac_key *key)
{
    const struct cmac_key_state *k = aesir_cmac_key_state(key);

    if (!aead_ctx_ok(ctx))
        return AESIR_E_ARGUMENT;
    if (k == NULL)
        return end(ctx, AESIR_E_STATE);
    start(state_of(ctx), k);
    return AESIR_OK;
}

int aesir_cmac_update(aesir_cmac *ctx, const uint8_t *msg, size_t len)
{
    struct cmac_state *st = live(ctx, 0);

    if (st == NULL)
        return not_live(ctx);
    if (len == 0)
        return AESIR_OK;
    if (msg == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    absorb(st, msg, len);
    return AESIR_OK;
}

int aesir_cmac_finish(aesir_cmac *ctx, uint8_t *tag, size_t tag_len)
{
    struct cmac_state *st = live(ctx, 0);
    uint8_t t[16];

    if (st == NULL)
        return not_live(ctx);
    if (tag == NULL || !tag_len_ok(tag_len))
        return end(ctx, AESIR_E_ARGUMENT);
    full_tag(st, t);
    memcpy(tag, t, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, AESIR_OK);
}

int aesir_cmac_verify(aesir_cmac *ctx, const uint8_t *tag, size_t tag_len)
{
    struct cmac_state *st = live(ctx, 0);
    uint8_t t[16];
    int err;

    if (st == NULL)
        return not_live(ctx);
    if (tag == NULL || !tag_len_ok(tag_len))
        return end(ctx, AESIR_E_ARGUMENT);
    full_tag(st, t);
    err = aead_verdict(t, tag, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, err);
}

/* ---- one-shot --------------------------------------------------------- */

static int oneshot_checks(const struct cmac_key_state *k, const uint8_t *msg,
                          size_t len, const void *tag, size_t tag_len)
{
    if (k == NULL)
        return AESIR_E_STATE;
    if ((len != 0 && msg == NULL) || tag == NULL || !tag_len_ok(tag_len))
        return AESIR_E_ARGUMENT;
    return AESIR_OK;
}

int aesir_cmac_tag(const aesir_cmac_key *key, const uint8_t *msg, size_t len,
                   uint8_t *tag, size_t tag_len)
{
    const struct cmac_key_state *k = aesir_cmac_key_state(key);
    uint8_t t[16];
    int err = oneshot_checks(k, msg, len, tag, tag_len);

    if (err != AESIR_OK)
        return err;
    aesir_cmac_two(k, msg, len, NULL, 0, t);
    memcpy(tag, t, tag_len);
    aesir_wipe(t, sizeof(t));
    return AESIR_OK;
}

int aesir_cmac_tag_verify(const aesir_cmac_key *key, const uint8_t *msg,
                          size_t len, const uint8_t *tag, size_t tag_len)
{
    const struct cmac_key_state *k = aesir_cmac_key_state(key);
    uint8_t t[16];
    int err = oneshot_checks(k, msg, len, tag, tag_len);

    if (err != AESIR_OK)
        return err;
    aesir_cmac_two(k, msg, len, NULL, 0, t);
    err = aead_verdict(t, tag, tag_len);
    aesir_wipe(t, sizeof(t));
    return err;
}

/* ---- many messages ---------------------------------------------------- */

/* Jobs per pass: 32 lanes of 48 bytes and 32 last blocks on the stack. */
#define MANY_BATCH 32

/* The CBC-MAC chains of lanes[0..n) (all of one engine and round
 * count), each lane's last block (masked) at its out: the engine's
 * multi-buffer CBC-MAC hook, which interleaves them, runs the last
 * blocks as one more step of each lane (lanes.h) and wipes its stack,
 * so that each lane's iv comes back as its tag; else one chain after
 * another on the single-chain path. The lanes are this file's own,
 * wiped by the caller: aesir_cbc_mac_many would leave each chain's last
 * value in its frames, which for CBC-MAC is the result but for CMAC a
 * secret. */
static void many_chains(const struct aesir_key_state *const *ks,
                        struct aesir_cbc_lane *lanes, size_t n)
{
    if (ks[0]->engine->cbc_mac_many != NULL) {
        ks[0]->engine->cbc_mac_many(ks[0]->nr, lanes, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        aesir_cmac_chain(ks[i], lanes[i].iv, lanes[i].in, lanes[i].nblocks - 1);
        aesir_cmac_chain(ks[i], lanes[i].iv, lanes[i].out, 1);
    }
}

/*
 * The jobs job[0..m) (checked; keys key[0..m)), in groups of one engine
 * and round count, each through many_chains: every message's masked
 * last block is made first (SP 800-38B 6.2 steps 3-4, into last[]) and
 * given to its lane as the lane's last block, so the lanes end on the
 * tags (steps 5-6) and no key is used once more per message here. (The
 * last blocks were encrypted after the lanes before, one engine call
 * per key: 182 of the 10972 TSC cycles of 8 x 4 KiB under 8 AES-256
 * keys on Zen 4, with 104 more to mask and XOR them.)
 */
static void many_groups(aesir_cmac_job *const *job,
                        const struct cmac_key_state *const *key, size_t m)
{
    struct aesir_cbc_lane lanes[MANY_BATCH];
    aesir_cmac_job *grp[MANY_BATCH];
    const struct aesir_key_state *lks[MANY_BATCH];
    uint8_t last[MANY_BATCH][16];
    unsigned char done[MANY_BATCH] = {0};

    for (size_t i = 0; i < m; i++) {
        const struct aesir_key_state *ks = aesir_cmac_aes(key[i]);
        size_t n = 0;
        if (done[i])
            continue;
        for (size_t t = i; t < m; t++) {
            const struct aesir_key_state *kt = aesir_cmac_aes(key[t]);
            size_t len = job[t]->len, whole;
            if (done[t] || kt->engine != ks->engine || kt->nr != ks->nr)
                continue;
            done[t] = 1;
            /* the whole blocks but the last 1..16 bytes, then the last */
            whole = len == 0 ? 0 : 16 * ((len - 1) / 16);
            last_block(key[t], len != 0 ? job[t]->in + whole : NULL,
                       len - whole, last[n]);
            lks[n] = kt;
            lanes[n].rk = kt->rk_enc;
            lanes[n].in = job[t]->in;
            lanes[n].out = last[n];
            lanes[n].nblocks = whole / 16 + 1;
            memset(lanes[n].iv, 0, 16);
            grp[n++] = job[t];
        }
        many_chains(lks, lanes, n);
        for (size_t t = 0; t < n; t++)
            memcpy(grp[t]->tag, lanes[t].iv, 16);
        aesir_wipe(lanes, n * sizeof(lanes[0])); /* the tags */
        aesir_wipe(last, n * 16);
    }
}

int aesir_cmac_many(aesir_cmac_job *jobs, size_t njobs)
{
    int first_err = AESIR_OK;

    if (jobs == NULL)
        return njobs == 0 ? AESIR_OK : AESIR_E_ARGUMENT;
    for (size_t b = 0; b < njobs; b += MANY_BATCH) {
        aesir_cmac_job *job[MANY_BATCH];
        const struct cmac_key_state *key[MANY_BATCH];
        size_t m = 0, end_b = njobs - b < MANY_BATCH ? njobs : b + MANY_BATCH;

        for (size_t i = b; i < end_b; i++) {
            aesir_cmac_job *j = &jobs[i];
            const struct cmac_key_state *k = aesir_cmac_key_state(j->key);
            int err = k == NULL                      ? AESIR_E_STATE
                      : j->len != 0 && j->in == NULL ? AESIR_E_ARGUMENT
                                                     : AESIR_OK;
            j->status = err;
            if (err != AESIR_OK) {
                if (first_err == AESIR_OK)
                    first_err = err;
                continue;
            }
            key[m] = k;
            job[m++] = j;
        }
        many_groups(job, key, m);
    }
    return first_err;
}
