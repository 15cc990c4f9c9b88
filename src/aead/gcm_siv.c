/*
 * gcm_siv.c -- AES-GCM-SIV (RFC 8452), written once on top of an AES
 * engine's bulk ECB (or its GCM-SIV CTR path) and a GHASH engine's
 * POLYVAL (src/ghash/polyval.c: native, or GHASH through RFC 8452
 * Appendix A).
 *
 * Per message (section 4):
 *   1. key derivation: the blocks LE32(i) || N, i = 0 .. 3 (AES-128) or
 *      0 .. 5 (AES-256), encrypted with the key-generating key -- all in
 *      one bulk ECB call, so the engine pipelines them -- and the first 8
 *      bytes of each kept: blocks 0-1 give the message-authentication key,
 *      the rest the message-encryption key;
 *   2. S = POLYVAL(auth key, A || 0pad, P || 0pad, LE64(8|A|) || LE64(8|P|));
 *   3. tag = AES(enc key, (S xor (N || 0^32)) with bit 7 of byte 15 cleared);
 *   4. C = P xor the keystream of AES-CTR from the tag with bit 7 of byte
 *      15 set, the counter being the 32-bit little-endian integer in bytes
 *      0..3, incremented modulo 2^32 (section 4, step 10).
 * Decryption (section 5) runs step 4 from the received tag, then 2-3 on
 * the plaintext, and compares tags in constant time.
 *
 * The per-message key setup (derivation, the encryption key's schedule,
 * the POLYVAL key's powers) lives on the stack and is wiped; it is what
 * a short message costs, so it is kept to one ECB call, one schedule and
 * one POLYVAL key set-up.
 *
 * AES-192 (an extension, AESIR_GCM_SIV_AES192): the derived encryption
 * key takes three halves, blocks 2..4 (five blocks in all), which is
 * what the AES-192 vectors of the cryptography-vectors package use.
 *
 * What is secret: the key and everything derived from it, the data, the
 * keystream. The tag, and with it the counter, is public (it travels with
 * the ciphertext). Branches depend on lengths only.
 */
#include "gcm_siv.h"
#include "aead_ctx.h"

/* Blocks per chunk of the data path: 4 KiB in and out stay in L1. */
#define SIV_CHUNK 64
/* The fused decryption kernels (x86_gcmsiv.h) do whole batches of this
 * many blocks and need no more of the POLYVAL key than aesir_polyval
 * calls of 4 blocks do (they make the other powers themselves): the
 * message's POLYVAL set-up is sized for the rest (max_call_blocks). */
#define SIV_FUSED_BLOCKS 32
/* Counter blocks per call of the engine's bulk ECB (generic CTR). */
#define SIV_CTR_BATCH 32

/* The key state behind key, or NULL when it is not set up (or not
 * 16-byte aligned). */
static const struct gcm_siv_key_state *key_state(const aesir_gcm_siv_key *key)
{
    const struct gcm_siv_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct gcm_siv_key_state *)(const void *)key->opaque;
    if (k->magic != GCM_SIV_KEY_MAGIC ||
        aesir_key_state(&k->aes, AESIR_ENCRYPT) == NULL)
        return NULL;
    return k;
}

static const struct aesir_key_state *aes_of(const struct gcm_siv_key_state *k)
{
    return (const struct aesir_key_state *)(const void *)k->aes.opaque;
}

/* ---- key ------------------------------------------------------------- */

void aesir_gcm_siv_clear(aesir_gcm_siv_key *key)
{
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_gcm_siv_key));
}

int aesir_gcm_siv_init_ex(aesir_gcm_siv_key *key, const uint8_t *k,
                          size_t key_len, const char *aes_engine,
                          const char *ghash_engine, unsigned options)
{
    struct gcm_siv_key_state *st;
    const struct aesir_ghash_engine *gh;
    size_t from, to;
    int gi, err;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned key */
    st = (struct gcm_siv_key_state *)(void *)key->opaque;
    if (k == NULL || (options & ~AESIR_GCM_SIV_AES192) != 0) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    if (key_len != 16 && key_len != 32 &&
        !(key_len == 24 && (options & AESIR_GCM_SIV_AES192))) {
        err = AESIR_E_KEY_LENGTH;
        goto fail;
    }
    /* engine choice as for GCM (gcm.c): a named GHASH engine first, else
     * the AES engine's fused-kernel partner, else the default */
    gi = aesir_ghash_index(ghash_engine);
    if (ghash_engine != NULL && (gh = aesir_ghash_checked(gi, &err)) == NULL)
        goto fail;
    if ((err = aesir_aes_init_ex(&st->aes, k, key_len, aes_engine,
                                 AESIR_ENCRYPT)) != AESIR_OK)
        goto fail;
    if (ghash_engine == NULL) {
        gi = aesir_ghash_index_with(aes_of(st)->engine->gcm_ghash);
        if ((gh = aesir_ghash_checked(gi, &err)) == NULL)
            goto fail;
    }
    aesir_ghash_key_span(gi, &from, &to);
    st->gh = gh;
    st->hk_bytes = (uint32_t)(from != 0 ? from : AESIR_GHASH_KEY_BYTES);
    st->ctr = aes_of(st)->engine->ctr32le;
    st->fused_dec = NULL;
    st->keys = NULL;
    st->tag = NULL;
    if (aes_of(st)->engine->gcm_ghash != NULL &&
        strcmp(aes_of(st)->engine->gcm_ghash, gh->name) == 0) {
        st->fused_dec = aes_of(st)->engine->gcmsiv_dec;
        st->keys = aes_of(st)->engine->gcmsiv_keys;
        st->tag = aes_of(st)->engine->gcmsiv_tag;
    }
    st->options = options;
    st->magic = GCM_SIV_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_gcm_siv_clear(key);
    return err;
}

int aesir_gcm_siv_init(aesir_gcm_siv_key *key, const uint8_t *k, size_t key_len)
{
    return aesir_gcm_siv_init_ex(key, k, key_len, NULL, NULL, 0);
}

int aesir_gcm_siv_engines(const aesir_gcm_siv_key *key, const char **aes_engine,
                          const char **ghash_engine)
{
    const struct gcm_siv_key_state *k = key_state(key);
    if (k == NULL)
        return AESIR_E_STATE;
    if (aes_engine != NULL)
        *aes_engine = aes_of(k)->engine->name;
    if (ghash_engine != NULL)
        *ghash_engine = k->gh->name;
    return AESIR_OK;
}

/* ---- one message ----------------------------------------------------- */

/* The per-nonce keys of one message: the message-encryption key's
 * schedule (in the AES engine's layout) and the POLYVAL key (in the
 * GHASH engine's), and the POLYVAL accumulator. Wiped by msg_end. */
struct siv_msg {
    _Alignas(64) unsigned char rk[AESIR_RK_BYTES];
    _Alignas(64) unsigned char hk[AESIR_GHASH_KEY_BYTES];
    const struct gcm_siv_key_state *key;
    const struct aesir_engine *e;
    unsigned nr;
    size_t hk_blocks; /* the longest aesir_polyval call hk serves */
    size_t rk_bytes;  /* the bytes of rk written (to wipe) */
    uint8_t s[16];    /* POLYVAL state */
    uint8_t h[16];    /* the message-authentication key */
};

/* Section 4, steps 1-4: the two keys for nonce; the POLYVAL key for
 * calls of at most max_blocks blocks. */
static void msg_start(struct siv_msg *m, const struct gcm_siv_key_state *k,
                      const uint8_t nonce[12], size_t max_blocks)
{
    const struct aesir_key_state *ks = aes_of(k);
    size_t kl = ks->key_len, nblk = 2 + (kl + 7) / 8, i;
    uint8_t blk[6 * 16], mk[16 + 32];

    m->key = k;
    m->e = ks->engine;
    m->nr = ks->nr;
    m->hk_blocks = max_blocks;
    memset(m->s, 0, 16);
    m->rk_bytes = sizeof(m->rk);
    if (k->keys != NULL) {
        /* the engine's one-call derivation (internal.h): a schedule of
         * 16 (nr + 1) bytes, wiped as such (the whole area was an
         * inline rep stos of 960 bytes, some 30 cycles on Zen 5) */
        k->keys(ks->rk_enc, ks->nr, nonce, m->rk, m->hk, m->h, max_blocks);
        m->rk_bytes = 16 * ((size_t)ks->nr + 1);
        return;
    }
    for (i = 0; i < nblk; i++) {
        blk[16 * i] = (uint8_t)i;
        memset(blk + 16 * i + 1, 0, 3);
        memcpy(blk + 16 * i + 4, nonce, 12);
    }
    ks->engine->encrypt(ks->rk_enc, ks->nr, blk, blk, nblk);
    for (i = 0; i < nblk; i++)
        memcpy(mk + 8 * i, blk + 16 * i, 8);
    m->e->setkey_enc(m->rk, mk + 16, kl);
    aesir_polyval_init_upto(k->gh, m->hk, mk, max_blocks);
    memcpy(m->h, mk, 16);
    aesir_wipe(blk, sizeof(blk));
    aesir_wipe(mk, sizeof(mk));
}

/* Bytes of stack below a message's frame that the GHASH engines without
 * a native POLYVAL may leave their accumulator in (test_residue). */
#define SIV_GHASH_STACK 2048

static void msg_end(struct siv_msg *m)
{
    aesir_wipe(m->rk, m->rk_bytes);
    aesir_wipe(m->hk, m->key->hk_bytes);
    aesir_wipe(m->s, sizeof(m->s));
    aesir_wipe(m->h, sizeof(m->h));
    /* The software GHASH engines (ghash-ref, -table4/8, -ct64,
     * -ctmul-avx512) keep the accumulator as native 64-bit words, and
     * spill it: GHASH's Y stored little-endian is POLYVAL's S byte for
     * byte (RFC 8452 Appendix A), and S is secret (the tag is E(S)).
     * Their frames lie below this one. The native POLYVAL paths keep it
     * in registers. */
    if (m->key->gh->polyval == NULL)
        aesir_wipe_stack(SIV_GHASH_STACK);
}

/* The most blocks one aesir_polyval call of a message hashes: the full
 * blocks of the AAD or of the data (the decryption's chunks, no more than
 * the data's blocks; with fused, the blocks past the fused kernel's
 * batches), or a padded block; never 0. With ghash-vpclmul-avx512 a call
 * of up to 4 blocks needs 4 powers of H, up to 16 blocks 16, longer
 * calls all 32 (some 20 against 120 TSC cycles of set-up). */
static size_t max_call_blocks(size_t aad_len, size_t len, int fused)
{
    size_t a = aad_len / 16, d = (fused && len / 16 >= SIV_FUSED_BLOCKS
                                      ? len / 16 % SIV_FUSED_BLOCKS
                                      : len / 16);
    d = d > 4 || !fused ? d : 4; /* the fused kernel reads K_4 .. K_1 */
    return a > d ? a : d > 0 ? d : 1;
}

/* POLYVAL over len bytes of p, the last partial block padded with zeros. */
static void hash_padded(struct siv_msg *m, const uint8_t *p, size_t len)
{
    const struct gcm_siv_key_state *k = m->key;
    if (len >= 16)
        aesir_polyval(k->gh, m->hk, m->s, p, len / 16);
    if (len % 16 != 0) {
        uint8_t b[16] = {0};
        memcpy(b, p + (len & ~(size_t)15), len % 16);
        aesir_polyval(k->gh, m->hk, m->s, b, 1);
        aesir_wipe(b, sizeof(b));
    }
}

/* Steps 5-9: the tag from the POLYVAL state (after A and P). */
static void msg_tag(struct siv_msg *m, const uint8_t nonce[12], size_t aad_len,
                    size_t len, uint8_t tag[16])
{
    uint8_t lens[16];
    uint64_t a = (uint64_t)aad_len * 8, p = (uint64_t)len * 8;
    if (m->key->tag != NULL) {
        /* the engine's, in registers (internal.h) */
        m->key->tag(m->rk, m->nr, m->hk, m->s, nonce, a, p, tag);
        return;
    }
    for (int i = 0; i < 8; i++) {
        lens[i] = (uint8_t)(a >> (8 * i));
        lens[8 + i] = (uint8_t)(p >> (8 * i));
    }
    aesir_polyval(m->key->gh, m->hk, m->s, lens, 1);
    for (int i = 0; i < 12; i++)
        m->s[i] ^= nonce[i];
    m->s[15] &= 0x7f;
    m->e->encrypt(m->rk, m->nr, tag, m->s, 1);
}

/* Adds n to the 32-bit little-endian counter in bytes 0..3, mod 2^32. */
static void ctr32le_add(uint8_t ctr[16], uint32_t n)
{
    uint32_t c = (uint32_t)ctr[0] | (uint32_t)ctr[1] << 8 |
                 (uint32_t)ctr[2] << 16 | (uint32_t)ctr[3] << 24;
    c += n;
    ctr[0] = (uint8_t)c;
    ctr[1] = (uint8_t)(c >> 8);
    ctr[2] = (uint8_t)(c >> 16);
    ctr[3] = (uint8_t)(c >> 24);
}

/* out = a ^ b on n bytes, a multiple of 16, 8 bytes at a time
 * (aesir_xor goes byte by byte: 1 cycle per byte). */
static void xor_blocks(uint8_t *out, const uint8_t *a, const uint8_t *b,
                       size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        x ^= y;
        memcpy(out + i, &x, 8);
    }
}

/* Step 10 on n full blocks: the engine's path, or counter blocks made
 * here and encrypted with bulk ECB, SIV_CTR_BATCH at a time. */
static void ctr_blocks(struct siv_msg *m, uint8_t ctr[16], uint8_t *out,
                       const uint8_t *in, size_t n)
{
    uint8_t ctrs[16 * SIV_CTR_BATCH], ks[16 * SIV_CTR_BATCH];
    size_t used = 0;

    if (m->key->ctr != NULL) {
        m->key->ctr(m->rk, m->nr, ctr, out, in, n);
        return;
    }
    while (n > 0) {
        size_t k = n < SIV_CTR_BATCH ? n : SIV_CTR_BATCH;
        for (size_t j = 0; j < k; j++) {
            memcpy(ctrs + 16 * j, ctr, 16);
            ctr32le_add(ctr, 1);
        }
        m->e->encrypt(m->rk, m->nr, ks, ctrs, k);
        xor_blocks(out, in, ks, 16 * k);
        used = k > used ? k : used;
        out += 16 * k, in += 16 * k, n -= k;
    }
    aesir_wipe(ks, 16 * used);
}

/* Step 10 on len bytes (the last block partial). */
static void ctr_bytes(struct siv_msg *m, uint8_t ctr[16], uint8_t *out,
                      const uint8_t *in, size_t len)
{
    if (len >= 16)
        ctr_blocks(m, ctr, out, in, len / 16);
    if (len % 16 != 0) {
        size_t off = len & ~(size_t)15;
        uint8_t b[16];
        m->e->encrypt(m->rk, m->nr, b, ctr, 1);
        aesir_xor(out + off, in + off, b, len % 16);
        aesir_wipe(b, sizeof(b));
    }
}

/* The initial counter block: the tag with bit 7 of byte 15 set. */
static void ctr_init(uint8_t ctr[16], const uint8_t tag[16])
{
    memcpy(ctr, tag, 16);
    ctr[15] |= 0x80;
}

/* Seals a checked message; tag may lie just past out (the appended form):
 * it is written last. */
static void seal(const struct gcm_siv_key_state *k, const uint8_t nonce[12],
                 const uint8_t *aad, size_t aad_len, uint8_t *out, uint8_t *tag,
                 const uint8_t *in, size_t len)
{
    struct siv_msg m;
    uint8_t t[16], ctr[16];

    msg_start(&m, k, nonce, max_call_blocks(aad_len, len, 0));
    hash_padded(&m, aad, aad_len);
    hash_padded(&m, in, len);
    msg_tag(&m, nonce, aad_len, len, t);
    ctr_init(ctr, t);
    ctr_bytes(&m, ctr, out, in, len);
    msg_end(&m);
    memcpy(tag, t, 16);
}

/* Opens a checked message: AESIR_OK, or AESIR_E_AUTH with out zeroed.
 * Decryption and POLYVAL of the plaintext go chunk by chunk, so each
 * chunk is hashed while it is still in L1; in place the hash reads the
 * plaintext just written. */
static int open_msg(const struct gcm_siv_key_state *k, const uint8_t nonce[12],
                    const uint8_t *aad, size_t aad_len, uint8_t *out,
                    const uint8_t tag[16], const uint8_t *in, size_t len)
{
    struct siv_msg m;
    uint8_t t[16], ctr[16], want[16], *out0 = out;
    size_t left = len;
    int err;

    memcpy(want, tag, 16); /* tag may lie in in, which out may be */
    msg_start(&m, k, nonce,
              max_call_blocks(aad_len, len, k->fused_dec != NULL));
    hash_padded(&m, aad, aad_len);
    ctr_init(ctr, want);
    if (k->fused_dec != NULL && left >= 16) {
        size_t done = k->fused_dec(m.rk, m.nr, m.hk, ctr, m.s, out, in,
                                   left & ~(size_t)15);
        out += done, in += done, left -= done;
        /* a kernel that left more than a batch's worth: the powers for
         * the chunks below (not taken by vaes-avx512's, which does every
         * whole batch) */
        if (left / 16 > m.hk_blocks)
            aesir_polyval_init_upto(k->gh, m.hk, m.h, left / 16);
    }
    while (left >= 16) {
        size_t n = left / 16 < SIV_CHUNK ? left / 16 : SIV_CHUNK;
        ctr_blocks(&m, ctr, out, in, n);
        aesir_polyval(k->gh, m.hk, m.s, out, n);
        out += 16 * n, in += 16 * n, left -= 16 * n;
    }
    if (left != 0) {
        ctr_bytes(&m, ctr, out, in, left);
        hash_padded(&m, out, left);
    }
    msg_tag(&m, nonce, aad_len, len, t);
    msg_end(&m);
    err = aead_verdict16(t, want);
    aesir_wipe(t, sizeof(t));
    return aead_released(err, out0, len);
}

/* ---- API ------------------------------------------------------------- */

static int checks(const struct gcm_siv_key_state *k, const uint8_t *nonce,
                  const uint8_t *aad, size_t aad_len, const void *out,
                  const void *in, size_t len)
{
    if (k == NULL)
        return AESIR_E_STATE;
    if (nonce == NULL || (aad_len != 0 && aad == NULL) ||
        (len != 0 && (out == NULL || in == NULL)))
        return AESIR_E_ARGUMENT;
    if (!aesir_at_most(aad_len, GCM_SIV_MAX_AAD) ||
        !aesir_at_most(len, GCM_SIV_MAX_DATA))
        return AESIR_E_INPUT_LENGTH;
    return AESIR_OK;
}

int aesir_gcm_siv_seal_detached(const aesir_gcm_siv_key *key,
                                const uint8_t nonce[12], const uint8_t *aad,
                                size_t aad_len, uint8_t *out, uint8_t tag[16],
                                const uint8_t *in, size_t len)
{
    const struct gcm_siv_key_state *k = key_state(key);
    int err = checks(k, nonce, aad, aad_len, out, in, len);
    if (err != AESIR_OK)
        return err;
    if (tag == NULL)
        return AESIR_E_ARGUMENT;
    seal(k, nonce, aad, aad_len, out, tag, in, len);
    return AESIR_OK;
}

int aesir_gcm_siv_open_detached(const aesir_gcm_siv_key *key,
                                const uint8_t nonce[12], const uint8_t *aad,
                                size_t aad_len, uint8_t *out,
                                const uint8_t tag[16], const uint8_t *in,
                                size_t len)
{
    const struct gcm_siv_key_state *k = key_state(key);
    int err = checks(k, nonce, aad, aad_len, out, in, len);
    if (err != AESIR_OK)
        return err;
    if (tag == NULL)
        return AESIR_E_ARGUMENT;
    return open_msg(k, nonce, aad, aad_len, out, tag, in, len);
}

int aesir_gcm_siv_seal(const aesir_gcm_siv_key *key, const uint8_t nonce[12],
                       const uint8_t *aad, size_t aad_len, uint8_t *out,
                       size_t out_cap, size_t *out_len, const uint8_t *in,
                       size_t in_len)
{
    const struct gcm_siv_key_state *k = key_state(key);
    int err = checks(k, nonce, aad, aad_len, out, in, in_len);
    if (err != AESIR_OK)
        return err;
    if (out == NULL || out_len == NULL)
        return AESIR_E_ARGUMENT;
    if (out_cap < 16 || out_cap - 16 < in_len)
        return AESIR_E_OUTPUT_SIZE;
    seal(k, nonce, aad, aad_len, out, out + in_len, in, in_len);
    *out_len = in_len + 16;
    return AESIR_OK;
}

int aesir_gcm_siv_open(const aesir_gcm_siv_key *key, const uint8_t nonce[12],
                       const uint8_t *aad, size_t aad_len, uint8_t *out,
                       size_t out_cap, size_t *out_len, const uint8_t *in,
                       size_t in_len)
{
    const struct gcm_siv_key_state *k = key_state(key);
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
    err = checks(k, nonce, aad, aad_len, out, in, len);
    if (err != AESIR_OK)
        return err;
    if (in == NULL)
        return AESIR_E_ARGUMENT; /* the tag is read even when len is 0 */
    if (out_cap < len)
        return AESIR_E_OUTPUT_SIZE;
    err = open_msg(k, nonce, aad, aad_len, out, in + len, in, len);
    if (err == AESIR_OK)
        *out_len = len;
    return err;
}
