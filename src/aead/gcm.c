/*
 * gcm.c -- GCM and GMAC (NIST SP 800-38D), written once on top of an AES
 * engine's CTR path and a GHASH engine (src/ghash/ghash.h).
 *
 * GCM encrypts with CTR from the counter block after J0, incrementing only
 * its low 32 bits (inc32, SP 800-38D 6.2), and authenticates with
 *   S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64),
 *   T = MSB_t(E_K(J0) xor S), H = E_K(0^128),
 * J0 = IV || 0^31 || 1 for a 96-bit IV, else GHASH_H(IV || 0^(s+64) ||
 * [len(IV)]_64) (section 7.1, steps 1-6).
 *
 * The data path works in chunks small enough to stay in L1 (GCM_CHUNK
 * blocks): encryption runs CTR on a chunk and hashes the ciphertext it
 * just wrote; decryption hashes a chunk of ciphertext and then decrypts
 * it, so that in place the hash reads ciphertext, not plaintext. Fused
 * engine kernels (CTR and GHASH in one loop) come in through the same
 * functions.
 *
 * What is secret: the key, H and its powers (in the key object), E_K(J0),
 * the counter and the hash state of a message (in aesir_gcm, wiped when
 * the message ends or fails), the data. The code branches only on
 * lengths and on the public state of a message; the tag check is
 * aesir_ct_compare. One-shot open releases no plaintext on failure: it
 * zeroes what it wrote.
 */
#include "gcm.h"
#include "aead_ctx.h"

/* The key state behind key, or NULL when it is not set up (or not
 * 16-byte aligned, as for aesir_aes). */
static const struct gcm_key_state *key_state(const aesir_gcm_key *key)
{
    const struct gcm_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct gcm_key_state *)(const void *)key->opaque;
    if (k->magic != GCM_KEY_MAGIC ||
        aesir_key_state(&k->aes, AESIR_ENCRYPT) == NULL)
        return NULL;
    return k;
}

static const struct aesir_key_state *aes_of(const struct gcm_key_state *k)
{
    return (const struct aesir_key_state *)(const void *)k->aes.opaque;
}

/* ---- key ------------------------------------------------------------- */

void aesir_gcm_clear(aesir_gcm_key *key)
{
    /* through a void pointer: no member access, so a misaligned key (a
     * caller's mistake) is wiped too, without undefined behaviour */
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_gcm_key));
}

/*
 * The GHASH engine of a key whose caller named none, per AES engine
 * (registry index): 1 + the index aesir_ghash_index_with gives for the
 * engine's fused partner, bit 7 set when that is the partner (the fused
 * kernels apply); 0 until the first such key. It is a function of the
 * AES engine within a process (the CPU probe and AESIR_GHASH_ENGINE are
 * read once), and finding the partner by name cost some 45 of a key
 * setup's 185 TSC cycles (vaes-avx512, Zen 4). One atomic byte per slot:
 * threads that race write the same value.
 */
static _Atomic unsigned char gcm_partner[AESIR_NENGINES];
#define GCM_PARTNER_FUSED 0x80u

/* The default GHASH engine's index for a key of AES engine ae, set up by
 * the name aes_engine (NULL: the default); *fused: whether the engine is
 * ae's fused partner. */
static int default_ghash(const struct aesir_engine *ae, const char *aes_engine,
                         int *fused)
{
    const int ai = aesir_engine_index_fast(aes_engine);
    unsigned m =
        ai >= 0 ? atomic_load_explicit(&gcm_partner[ai], memory_order_relaxed)
                : 0;
    int gi;

    if (m != 0) {
        *fused = (m & GCM_PARTNER_FUSED) != 0;
        return (int)(m & ~GCM_PARTNER_FUSED) - 1;
    }
    gi = aesir_ghash_index_with(ae->gcm_ghash);
    *fused = ae->gcm_ghash != NULL && gi >= 0 &&
             strcmp(ae->gcm_ghash, aesir_ghash_engine_name_at((size_t)gi)) == 0;
    /* ai is the engine the key was made with (aesir_aes_init_ex looks the
     * same name up the same way, and a default, once chosen, stays) */
    if (ai >= 0 && gi >= 0 && gi < 0x7f)
        atomic_store_explicit(&gcm_partner[ai],
                              (unsigned char)((unsigned)(gi + 1) |
                                              (*fused ? GCM_PARTNER_FUSED : 0)),
                              memory_order_relaxed);
    return gi;
}

/*
 * Key setup speed matters (a key per connection or per file chunk), so
 * each step is done once: the GHASH engine looked up once (by name when
 * one is given, else through gcm_partner after the AES key), its
 * self-test state read once, H made on the stack and wiped with one
 * store.
 */
int aesir_gcm_init_ex(aesir_gcm_key *key, const uint8_t *k, size_t key_len,
                      const char *aes_engine, const char *ghash_engine,
                      unsigned options)
{
    struct gcm_key_state *st;
    const struct aesir_ghash_engine *gh = NULL;
    const struct aesir_engine *ae;
    _Alignas(16) uint8_t h[16];
    size_t from, to;
    int gi = -1, err, fused;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned key */
    st = (struct gcm_key_state *)(void *)key->opaque;
    if (k == NULL || (options & ~AESIR_GCM_SHORT_TAGS) != 0) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    /* a named GHASH engine is checked before the AES key (its errors come
     * first); without a name the AES engine's fused partner is preferred:
     * aesni with ghash-clmul in one pass beats aesni beside a wider
     * multiplier in two */
    if (ghash_engine != NULL) {
        gi = aesir_ghash_index(ghash_engine);
        if ((gh = aesir_ghash_checked(gi, &err)) == NULL)
            goto fail;
    }
    if ((err = aesir_aes_init_ex(&st->aes, k, key_len, aes_engine,
                                 AESIR_ENCRYPT)) != AESIR_OK)
        goto fail;
    ae = aes_of(st)->engine;
    if (gh == NULL) {
        gi = default_ghash(ae, aes_engine, &fused);
        if ((gh = aesir_ghash_checked(gi, &err)) == NULL)
            goto fail;
    } else {
        fused = ae->gcm_ghash != NULL && strcmp(ae->gcm_ghash, gh->name) == 0;
    }
    /* An earlier key's tables must not stay behind a smaller layout: the
     * bytes past what gh writes, up to what any GHASH engine used in this
     * process writes, are wiped (usually none; 4 KiB memset costs about
     * as much as the rest of the key setup). */
    aesir_ghash_key_span(gi, &from, &to);
    if (from < to)
        memset(st->hk + from, 0, to - from);
    memset(h, 0, sizeof(h));
    ae->encrypt(aes_of(st)->rk_enc, aes_of(st)->nr, h, h, 1);
    gh->init(st->hk, h);
    aesir_wipe(h, sizeof(h));
    st->gh = gh;
    st->fused_enc = fused ? ae->gcm_enc : NULL;
    st->fused_dec = fused ? ae->gcm_dec : NULL;
    st->fused_short = fused ? ae->gcm_short : NULL;
    st->options = options;
    st->magic = GCM_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_gcm_clear(key);
    return err;
}

int aesir_gcm_init(aesir_gcm_key *key, const uint8_t *k, size_t key_len)
{
    return aesir_gcm_init_ex(key, k, key_len, NULL, NULL, 0);
}

int aesir_gcm_engines(const aesir_gcm_key *key, const char **aes_engine,
                      const char **ghash_engine)
{
    const struct gcm_key_state *k = key_state(key);
    if (k == NULL)
        return AESIR_E_STATE;
    if (aes_engine != NULL)
        *aes_engine = aes_of(k)->engine->name;
    if (ghash_engine != NULL)
        *ghash_engine = k->gh->name;
    return AESIR_OK;
}

/* ---- hashing --------------------------------------------------------- */

/* Feeds len bytes into GHASH through the partial-block buffer. */
static void hash_bytes(struct gcm_state *st, const uint8_t *p, size_t len)
{
    const struct gcm_key_state *k = st->key;
    size_t n;

    if (st->nbuf != 0) {
        n = 16 - st->nbuf < len ? 16 - st->nbuf : len;
        memcpy(st->hbuf + st->nbuf, p, n);
        st->nbuf += (uint32_t)n;
        p += n, len -= n;
        if (st->nbuf < 16)
            return;
        k->gh->ghash(k->hk, st->y, st->hbuf, 1);
        st->nbuf = 0;
    }
    if (len >= 16) {
        k->gh->ghash(k->hk, st->y, p, len / 16);
        p += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        memcpy(st->hbuf, p, len);
        st->nbuf = (uint32_t)len;
    }
}

/* Pads a partial block with zeros and hashes it (the 0^v and 0^u). */
static void hash_pad(struct gcm_state *st)
{
    if (st->nbuf != 0) {
        memset(st->hbuf + st->nbuf, 0, 16 - st->nbuf);
        st->key->gh->ghash(st->key->hk, st->y, st->hbuf, 1);
        st->nbuf = 0;
    }
}

/* ---- counter --------------------------------------------------------- */

/* Counter blocks per batch of ctr32_secret: the widest engine batch
 * (vaes-avx512, bs-avx512: 32 blocks). */
#define GCM_SECRET_BATCH 32

/*
 * ctr32 for a secret counter. With an IV of other than 96 bits, J0 is
 * GHASH_H(IV || ...): a function of H, so the counter blocks are as
 * secret as H (knowing J0 for a known IV gives an equation in H). They
 * must then reach no branch and no index: neither ctr32's wrap test
 * below nor the engines' CTR paths, which branch on the counter's low
 * bytes and 64-bit carries (aesni: a faster path while the last byte does
 * not wrap within a batch). So the counter blocks are written out here
 * with inc32 in plain arithmetic (the 32-bit add wraps by itself) and
 * encrypted as blocks, GCM_SECRET_BATCH at a time, then XORed in; both
 * buffers (counters, keystream) are wiped. Only such IVs pay for it; a 96-bit
 * IV's counter is public (the IV, then 2, 3, ...) and takes the engine's CTR
 * path.
 */
static void ctr32_secret(struct gcm_state *st, uint8_t *out, const uint8_t *in,
                         size_t n)
{
    const struct aesir_key_state *ks = aes_of(st->key);
    uint8_t ctrs[16 * GCM_SECRET_BATCH], buf[16 * GCM_SECRET_BATCH];
    uint32_t c = aesir_load_be32(st->ctr + 12);
    size_t m = n < GCM_SECRET_BATCH ? n : GCM_SECRET_BATCH;

    /* the upper 96 bits once; then only the low 32 change */
    for (size_t j = 0; j < m; j++)
        memcpy(ctrs + 16 * j, st->ctr, 12);
    while (n > 0) {
        size_t k = n < GCM_SECRET_BATCH ? n : GCM_SECRET_BATCH;
        for (size_t j = 0; j < k; j++) {
            aesir_store_be32(ctrs + 16 * j + 12, c++);
            /* The loop runs on j: without this, gcc 12 ends it by
             * comparing c with c + k, a branch on the secret counter (the
             * constant-time check caught it). */
#if defined(__GNUC__) || defined(__clang__)
            __asm__("" : "+r"(c));
#endif
        }
        ks->engine->encrypt(ks->rk_enc, ks->nr, buf, ctrs, k);
        aesir_xor(out, in, buf, 16 * k);
        out += 16 * k, in += 16 * k, n -= k;
    }
    aesir_store_be32(st->ctr + 12, c);
    aesir_wipe(ctrs, 16 * m);
    aesir_wipe(buf, 16 * m);
}

/*
 * n keystream blocks XORed into in, from st->ctr with inc32: only the low
 * 32 bits count, wrapping to 0 without a carry into the upper 96 (which
 * the engines' 128-bit counter would make). Only an IV of other than 96
 * bits can start the counter near the wrap, and its counter is secret:
 * ctr32_secret.
 */
static void ctr32(struct gcm_state *st, uint8_t *out, const uint8_t *in,
                  size_t n)
{
    const struct aesir_key_state *ks = aes_of(st->key);

    if (st->secret_ctr) {
        ctr32_secret(st, out, in, n);
        return;
    }
    while (n > 0) {
        uint64_t room = (UINT64_C(1) << 32) - aesir_load_be32(st->ctr + 12);
        size_t k = (uint64_t)n < room ? n : (size_t)room;
        uint8_t upper[12];

        memcpy(upper, st->ctr, 12);
        aesir_ctr_blocks(ks, st->ctr, out, in, k);
        if ((uint64_t)k == room) {
            memcpy(st->ctr, upper, 12);
            memset(st->ctr + 12, 0, 4);
        }
        out += 16 * k, in += 16 * k, n -= k;
    }
}

/* The next keystream block into st->ks. */
static void next_ks(struct gcm_state *st)
{
    memset(st->ks, 0, 16);
    ctr32(st, st->ks, st->ks, 1);
    st->nks = 0;
}

/* ---- messages -------------------------------------------------------- */

static struct gcm_state *state_of(aesir_gcm *ctx)
{
    return (struct gcm_state *)(void *)ctx->opaque;
}

/* live(ctx, mask): the message behind ctx in one of the phases of mask
 * (bits 1 << PH_*) with its key still set up, or NULL; end(ctx, err):
 * ends a message (every error but a NULL or misaligned ctx lands there);
 * not_live(ctx): the error when live found none (aead_ctx.h). */
AEAD_MESSAGES(aesir_gcm, struct gcm_state, GCM_MAGIC, key_state, AESIR_E_STATE)

void aesir_gcm_abort(aesir_gcm *ctx)
{
    (void)end(ctx, AESIR_OK);
}

/* A tag length the key allows: 12..16, and 8 and 4 with short tags. */
static int tag_len_ok(const struct gcm_key_state *k, size_t tag_len)
{
    if (tag_len >= 12 && tag_len <= 16)
        return 1;
    return (k->options & AESIR_GCM_SHORT_TAGS) &&
           (tag_len == 8 || tag_len == 4);
}

static void start(struct gcm_state *st, const struct gcm_key_state *k,
                  const uint8_t *iv, size_t iv_len)
{
    memset(st, 0, sizeof(*st));
    st->key = k;
    if (iv_len == 12) {
        memcpy(st->ctr, iv, 12);
        st->ctr[15] = 1;
    } else {
        uint8_t lens[16] = {0};
        hash_bytes(st, iv, iv_len);
        hash_pad(st);
        aesir_store_be64(lens + 8, (uint64_t)iv_len * 8);
        k->gh->ghash(k->hk, st->y, lens, 1);
        memcpy(st->ctr, st->y, 16);
        memset(st->y, 0, 16);
        st->secret_ctr = 1;
    }
    /* E_K(J0) for the tag, then the data from inc32(J0) */
    memcpy(st->ekj0, st->ctr, 16);
    aes_of(k)->engine->encrypt(aes_of(k)->rk_enc, aes_of(k)->nr, st->ekj0,
                               st->ekj0, 1);
    aesir_store_be32(st->ctr + 12, aesir_load_be32(st->ctr + 12) + 1);
    st->nks = 16;
    st->phase = GCM_PH_AAD;
    st->magic = GCM_MAGIC;
}

/* IV lengths of SP 800-38D: 1 byte up to 2^61 - 1 bytes (2^64 - 1 bits,
 * rounded down to whole bytes). */
static int iv_len_ok(size_t iv_len)
{
    return iv_len != 0 && aesir_at_most(iv_len, GCM_MAX_AAD);
}

int aesir_gcm_start(aesir_gcm *ctx, const aesir_gcm_key *key, const uint8_t *iv,
                    size_t iv_len)
{
    const struct gcm_key_state *k = key_state(key);

    if (!aead_ctx_ok(ctx))
        return AESIR_E_ARGUMENT;
    if (k == NULL)
        return end(ctx, AESIR_E_STATE);
    if (iv == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    if (!iv_len_ok(iv_len))
        return end(ctx, AESIR_E_IV_LENGTH);
    start(state_of(ctx), k, iv, iv_len);
    return AESIR_OK;
}

int aesir_gcm_aad(aesir_gcm *ctx, const uint8_t *aad, size_t len)
{
    struct gcm_state *st = live(ctx, 1u << GCM_PH_AAD);

    if (st == NULL)
        return not_live(ctx);
    if (len == 0)
        return AESIR_OK;
    if (aad == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)len > GCM_MAX_AAD - st->aad_len)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    st->aad_len += len;
    hash_bytes(st, aad, len);
    return AESIR_OK;
}

/* Full blocks of data: the engine's fused kernel when the key has one
 * and the counter is public, as far as it goes without the counter's low
 * word wrapping; then CTR
 * and GHASH over the ciphertext, chunk by chunk (decryption hashes before
 * it decrypts, for in-place calls). */
static void data_blocks(struct gcm_state *st, unsigned phase, uint8_t *out,
                        const uint8_t *in, size_t nblocks)
{
    const struct gcm_key_state *k = st->key;
    aesir_gcm_fn fused = phase == GCM_PH_ENC ? k->fused_enc : k->fused_dec;

    /* Not with a secret counter (an IV of other than 96 bits): the split
     * at the wrap below and the kernels' counter arithmetic would branch
     * on it. */
    if (fused != NULL && !st->secret_ctr) {
        uint64_t room = (UINT64_C(1) << 32) - 1 - aesir_load_be32(st->ctr + 12);
        size_t n = (uint64_t)nblocks < room ? nblocks : (size_t)room, done;
        const struct aesir_key_state *ks = aes_of(k);

        done = n != 0 ? fused(ks->rk_enc, ks->nr, k->hk, st->ctr, st->y, out,
                              in, 16 * n)
                      : 0;
        out += done, in += done, nblocks -= done / 16;
    }
    while (nblocks > 0) {
        size_t n = nblocks < GCM_CHUNK ? nblocks : GCM_CHUNK;
        if (phase == GCM_PH_DEC)
            k->gh->ghash(k->hk, st->y, in, n);
        ctr32(st, out, in, n);
        if (phase == GCM_PH_ENC)
            k->gh->ghash(k->hk, st->y, out, n);
        in += 16 * n, out += 16 * n, nblocks -= n;
    }
}

/* Bytes of data with the keystream left in st->ks: the ciphertext
 * (in for decryption, out for encryption) is hashed through hbuf. */
static void data_bytes(struct gcm_state *st, unsigned phase, uint8_t *out,
                       const uint8_t *in, size_t len)
{
    if (phase == GCM_PH_DEC)
        hash_bytes(st, in, len);
    aesir_xor(out, in, st->ks + st->nks, len);
    if (phase == GCM_PH_ENC)
        hash_bytes(st, out, len);
    st->nks += (uint32_t)len;
}

static int update(aesir_gcm *ctx, unsigned phase, uint8_t *out,
                  const uint8_t *in, size_t len)
{
    struct gcm_state *st = live(ctx, 1u << GCM_PH_AAD | 1u << phase);
    size_t n;

    if (st == NULL)
        return not_live(ctx);
    if (len != 0 && (out == NULL || in == NULL))
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)len > GCM_MAX_DATA - st->data_len)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    if (st->phase == GCM_PH_AAD) {
        hash_pad(st);
        st->phase = phase;
    }
    st->data_len += len;
    /* what is left of the last keystream block */
    n = 16 - st->nks < len ? 16 - st->nks : len;
    if (n != 0) {
        data_bytes(st, phase, out, in, n);
        out += n, in += n, len -= n;
    }
    if (len >= 16) {
        data_blocks(st, phase, out, in, len / 16);
        out += len & ~(size_t)15, in += len & ~(size_t)15;
        len &= 15;
    }
    if (len != 0) {
        next_ks(st);
        data_bytes(st, phase, out, in, len);
    }
    return AESIR_OK;
}

int aesir_gcm_encrypt_update(aesir_gcm *ctx, uint8_t *out, const uint8_t *in,
                             size_t len)
{
    return update(ctx, GCM_PH_ENC, out, in, len);
}

int aesir_gcm_decrypt_update_unverified(aesir_gcm *ctx, uint8_t *out,
                                        const uint8_t *in, size_t len)
{
    return update(ctx, GCM_PH_DEC, out, in, len);
}

/* The full 16-byte tag of the message so far (the state is spent). */
static void full_tag(struct gcm_state *st, uint8_t t[16])
{
    uint8_t lens[16];

    hash_pad(st);
    aesir_store_be64(lens, st->aad_len * 8);
    aesir_store_be64(lens + 8, st->data_len * 8);
    st->key->gh->ghash(st->key->hk, st->y, lens, 1);
    aesir_xor(t, st->y, st->ekj0, 16);
}

int aesir_gcm_finish(aesir_gcm *ctx, uint8_t *tag, size_t tag_len)
{
    struct gcm_state *st = live(ctx, 1u << GCM_PH_AAD | 1u << GCM_PH_ENC);
    uint8_t t[16];

    if (st == NULL)
        return not_live(ctx);
    if (tag == NULL || !tag_len_ok(st->key, tag_len))
        return end(ctx, AESIR_E_ARGUMENT);
    full_tag(st, t);
    memcpy(tag, t, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, AESIR_OK);
}

int aesir_gcm_verify(aesir_gcm *ctx, const uint8_t *tag, size_t tag_len)
{
    struct gcm_state *st = live(ctx, 1u << GCM_PH_AAD | 1u << GCM_PH_DEC);
    uint8_t t[16];
    int err;

    if (st == NULL)
        return not_live(ctx);
    if (tag == NULL || !tag_len_ok(st->key, tag_len))
        return end(ctx, AESIR_E_ARGUMENT);
    full_tag(st, t);
    err = aead_verdict(t, tag, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, err);
}

/* ---- one-shot -------------------------------------------------------- */

/* Checks shared by the one-shot calls (aead_ctx.h); AESIR_OK or the
 * error. The tag is checked after them. */
static int oneshot_checks(const struct gcm_key_state *k, const uint8_t *iv,
                          size_t iv_len, const uint8_t *aad, size_t aad_len,
                          const void *out, const void *in, size_t len)
{
    return aead_oneshot_checks(k, iv, aad, aad_len, out, in, len, 1,
                               iv_len_ok(iv_len),
                               aesir_at_most(aad_len, GCM_MAX_AAD) &&
                                   aesir_at_most(len, GCM_MAX_DATA));
}

/* A message in one go on a context of the stack: its result (AESIR_OK or
 * AESIR_E_AUTH); the arguments have been checked. */
static int run(const struct gcm_key_state *k, unsigned phase, const uint8_t *iv,
               size_t iv_len, const uint8_t *aad, size_t aad_len, uint8_t *out,
               const uint8_t *in, size_t len, uint8_t *tag_out,
               const uint8_t *tag_in, size_t tag_len)
{
    aesir_gcm ctx;
    int err;

    if (iv_len == 12 && k->fused_short != NULL) {
        uint8_t t[16];
        const struct aesir_key_state *ks = aes_of(k);
        /* a full tag of a seal goes straight to the caller (it is
         * public), without a copy and a wipe */
        uint8_t *dst = phase == GCM_PH_ENC && tag_len == 16 ? tag_out : t;
        const struct aesir_gcm_msg m = {iv, aad, aad_len, out,
                                        in, len, dst,     phase == GCM_PH_DEC};
        if (k->fused_short(ks->rk_enc, ks->nr, k->hk, &m) == AESIR_OK) {
            if (dst == tag_out)
                return AESIR_OK;
            if (phase == GCM_PH_ENC) {
                memcpy(tag_out, t, tag_len);
                err = AESIR_OK;
            } else {
                err = tag_len == 16 ? aead_verdict16(t, tag_in)
                                    : aead_verdict(t, tag_in, tag_len);
            }
            aesir_wipe(t, sizeof(t));
            return aead_released(err, out, len);
        }
    }
    start(state_of(&ctx), k, iv, iv_len);
    state_of(&ctx)->aad_len = aad_len;
    hash_bytes(state_of(&ctx), aad, aad_len);
    (void)update(&ctx, phase, out, in, len);
    if (phase == GCM_PH_ENC)
        err = aesir_gcm_finish(&ctx, tag_out, tag_len);
    else
        err = aesir_gcm_verify(&ctx, tag_in, tag_len);
    return aead_released(err, out, len);
}

int aesir_gcm_seal_detached(const aesir_gcm_key *key, const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len,
                            uint8_t *out, uint8_t *tag, size_t tag_len,
                            const uint8_t *in, size_t len)
{
    const struct gcm_key_state *k = key_state(key);
    int err = oneshot_checks(k, iv, iv_len, aad, aad_len, out, in, len);
    if (err != AESIR_OK)
        return err;
    if (tag == NULL || !tag_len_ok(k, tag_len))
        return AESIR_E_ARGUMENT;
    return run(k, GCM_PH_ENC, iv, iv_len, aad, aad_len, out, in, len, tag, NULL,
               tag_len);
}

int aesir_gcm_open_detached(const aesir_gcm_key *key, const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len,
                            uint8_t *out, const uint8_t *tag, size_t tag_len,
                            const uint8_t *in, size_t len)
{
    const struct gcm_key_state *k = key_state(key);
    int err = oneshot_checks(k, iv, iv_len, aad, aad_len, out, in, len);
    if (err != AESIR_OK)
        return err;
    if (tag == NULL || !tag_len_ok(k, tag_len))
        return AESIR_E_ARGUMENT;
    return run(k, GCM_PH_DEC, iv, iv_len, aad, aad_len, out, in, len, NULL, tag,
               tag_len);
}

/*
 * The common one-shot case, tested as one condition before the checks
 * in their documented order: a key with a whole-message kernel
 * (fused_short, decided at key setup), a 12-byte IV, every pointer the
 * lengths need, and both lengths below 2^32 (one compare of their OR;
 * within SP 800-38D's limits, GCM_MAX_DATA and GCM_MAX_AAD). Every
 * argument that passes here passes oneshot_checks too, and every one
 * that fails here goes through them and gets its error as before. At 64
 * bytes a call is bound by its instruction count, so the conditions are
 * short-circuit tests (a compare and a branch each, fused), not flags
 * combined with & (two or three instructions each).
 */
static int fast_ok(const struct gcm_key_state *k, const uint8_t *iv,
                   size_t iv_len, const uint8_t *aad, size_t aad_len,
                   const void *out, const void *in, size_t len)
{
    return k != NULL && k->fused_short != NULL && iv_len == 12 && iv != NULL &&
           out != NULL && (in != NULL || len == 0) &&
           (aad != NULL || aad_len == 0) &&
           (uint64_t)(len | aad_len) >> 32 == 0;
}

int aesir_gcm_seal(const aesir_gcm_key *key, const uint8_t *iv, size_t iv_len,
                   const uint8_t *aad, size_t aad_len, uint8_t *out,
                   size_t out_cap, size_t *out_len, const uint8_t *in,
                   size_t in_len)
{
    const struct gcm_key_state *k = key_state(key);
    int err;

    /* the whole message in one kernel call, the tag straight after the
     * ciphertext (in == out is fine: the kernel writes the tag after
     * reading all of in) */
    if (fast_ok(k, iv, iv_len, aad, aad_len, out, in, in_len) &&
        out_len != NULL && out_cap >= 16 && out_cap - 16 >= in_len) {
        const struct aesir_key_state *ks = aes_of(k);
        const struct aesir_gcm_msg m = {iv, aad,    aad_len,      out,
                                        in, in_len, out + in_len, 0};
        if (k->fused_short(ks->rk_enc, ks->nr, k->hk, &m) == AESIR_OK) {
            *out_len = in_len + 16;
            return AESIR_OK;
        }
    }
    err = oneshot_checks(k, iv, iv_len, aad, aad_len, out, in, in_len);
    if (err != AESIR_OK)
        return err;
    if (out == NULL || out_len == NULL)
        return AESIR_E_ARGUMENT;
    if (out_cap < 16 || out_cap - 16 < in_len)
        return AESIR_E_OUTPUT_SIZE;
    /* the tag after the ciphertext; in == out is fine: the tag is written
     * after the data is read */
    err = run(k, GCM_PH_ENC, iv, iv_len, aad, aad_len, out, in, in_len,
              out + in_len, NULL, 16);
    *out_len = in_len + 16;
    return err;
}

int aesir_gcm_open(const aesir_gcm_key *key, const uint8_t *iv, size_t iv_len,
                   const uint8_t *aad, size_t aad_len, uint8_t *out,
                   size_t out_cap, size_t *out_len, const uint8_t *in,
                   size_t in_len)
{
    const struct gcm_key_state *k = key_state(key);
    uint8_t tag[16];
    size_t len;
    int err;

    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    /* the common case (fast_ok) in one kernel call: the tag copied
     * before out (which may be in) is written, the computed tag compared
     * in constant time, then wiped; on a mismatch out is zeroed */
    if (fast_ok(k, iv, iv_len, aad, aad_len, out, in, in_len) && in_len >= 16 &&
        out_cap >= in_len - 16) {
        const struct aesir_key_state *ks = aes_of(k);
        uint8_t t[16];
        const struct aesir_gcm_msg m = {iv, aad,         aad_len, out,
                                        in, in_len - 16, t,       1};
        len = in_len - 16;
        memcpy(tag, in + len, 16);
        if (k->fused_short(ks->rk_enc, ks->nr, k->hk, &m) == AESIR_OK) {
            err = aead_verdict16(t, tag);
            aesir_wipe(t, sizeof(t));
            if (err == AESIR_OK)
                *out_len = len;
            return aead_released(err, out, len);
        }
    }
    if (in_len < 16)
        return k == NULL    ? AESIR_E_STATE
               : in == NULL ? AESIR_E_ARGUMENT
                            : AESIR_E_INPUT_LENGTH;
    len = in_len - 16;
    err = oneshot_checks(k, iv, iv_len, aad, aad_len, out, in, len);
    if (err != AESIR_OK)
        return err;
    if (out_cap < len)
        return AESIR_E_OUTPUT_SIZE;
    memcpy(tag, in + len, 16); /* before out (which may be in) is written */
    err = run(k, GCM_PH_DEC, iv, iv_len, aad, aad_len, out, in, len, NULL, tag,
              16);
    if (err == AESIR_OK)
        *out_len = len;
    return err;
}

/* ---- GMAC ------------------------------------------------------------ */

int aesir_gmac(const aesir_gcm_key *key, const uint8_t *iv, size_t iv_len,
               const uint8_t *aad, size_t aad_len, uint8_t *tag, size_t tag_len)
{
    return aesir_gcm_seal_detached(key, iv, iv_len, aad, aad_len, NULL, tag,
                                   tag_len, NULL, 0);
}

int aesir_gmac_verify(const aesir_gcm_key *key, const uint8_t *iv,
                      size_t iv_len, const uint8_t *aad, size_t aad_len,
                      const uint8_t *tag, size_t tag_len)
{
    return aesir_gcm_open_detached(key, iv, iv_len, aad, aad_len, NULL, tag,
                                   tag_len, NULL, 0);
}
