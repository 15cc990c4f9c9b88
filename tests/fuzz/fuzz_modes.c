/*
 * fuzz_modes.c -- libFuzzer target: every mode of operation, on every
 * engine this CPU can run, against a model written from SP 800-38A.
 *
 * The input chooses a mode (ECB and CBC with each padding, CFB128, CFB8,
 * CFB1 on a bit length, OFB, CTR with a 32-, 64- or 128-bit counter or
 * the default 0), a key size and key, an IV (for CTR optionally close to
 * the counter's wrap), where buffers and key contexts lie, the split
 * points of an incremental run (each piece in place or not), and the
 * message. For each engine it checks:
 *
 *   - one-shot encryption and decryption give what the model gives, the
 *     same return code, and write nothing when they fail; in place too;
 *   - the incremental API (aesir_cipher_init/update/final) with the
 *     fuzzed split points gives the one-shot output: each update writes at
 *     most aesir_cipher_update_size() bytes, nothing past *out_len, and
 *     final with a short buffer fails with AESIR_E_OUTPUT_SIZE, writes
 *     nothing and can be called again;
 *   - decrypt(encrypt(x)) == x (x zero-padded for AESIR_PAD_ZERO);
 *   - decryption of arbitrary ciphertext (the message itself): PKCS#7
 *     never crashes, and either fails with AESIR_E_PADDING, *out_len == 0
 *     and no plaintext in the output, or gives a plaintext whose
 *     re-encryption is the ciphertext;
 *   - CTR: AESIR_E_COUNTER_OVERFLOW exactly when the message needs more
 *     counter values than remain, before any output; the incremental
 *     context stays usable for the input that still fits.
 *
 * The model is SP 800-38A's definition of each mode on the ref engine's
 * raw block function (aesir_aes_encrypt_block), so it shares no code with
 * the mode layer. ref's own results are checked against it first, so
 * every engine is in effect compared with ref. Why: the mode layer is
 * written once on the engine interface, but each engine brings fused
 * paths (CBC, CTR, CFB128, OFB kernels, batches of 4 to 16 blocks, masked
 * tails) whose edges only such a search reaches.
 */
#include "fuzz.h"

/* Per-mode message limits: CFB8 costs a block per byte, CFB1 per bit. */
#define MAX_MSG 4096
#define MAX_CFB8 256
#define MAX_CFB1 32
#define MAX_PIECES 9

struct variant {
    aesir_mode mode;
    unsigned option; /* padding, or counter bits for CTR */
};

static const struct variant variants[] = {
    {AESIR_MODE_ECB, AESIR_PAD_NONE},
    {AESIR_MODE_ECB, AESIR_PAD_PKCS7},
    {AESIR_MODE_ECB, AESIR_PAD_ZERO},
    {AESIR_MODE_CBC, AESIR_PAD_NONE},
    {AESIR_MODE_CBC, AESIR_PAD_PKCS7},
    {AESIR_MODE_CBC, AESIR_PAD_ZERO},
    {AESIR_MODE_CFB128, 0},
    {AESIR_MODE_CFB8, 0},
    {AESIR_MODE_CFB1, 0},
    {AESIR_MODE_OFB, 0},
    {AESIR_MODE_CTR, 32},
    {AESIR_MODE_CTR, 64},
    {AESIR_MODE_CTR, 128},
    {AESIR_MODE_CTR, 0},
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static int is_block(const struct variant *v)
{
    return v->mode == AESIR_MODE_ECB || v->mode == AESIR_MODE_CBC;
}

/* Everything one input fixes. */
struct plan {
    const struct variant *v;
    size_t key_len;
    uint8_t key[32], iv[16];
    int split_keys;      /* encrypt-only and decrypt-only contexts */
    int oneshot_inplace; /* one-shot calls with out == in */
    unsigned ctx_off;    /* key contexts this far past 64-byte alignment */
    unsigned in_off, out_off;
    size_t final_cap; /* first final() call with this capacity; 16: none */
    size_t nbits;     /* CFB1: the one-shot bit length */
    size_t npieces;
    size_t piece[MAX_PIECES]; /* lengths; the last takes the rest */
    unsigned inplace_mask;    /* piece i in place when bit i is set */
    const uint8_t *msg;
    size_t len;
};

/* ---- the model: SP 800-38A on ref's block function ----------------- */

static aesir_aes model_key; /* ref, both directions */

static void model_enc(uint8_t out[16], const uint8_t in[16])
{
    FUZZ_CHECK_EQ(aesir_aes_encrypt_block(&model_key, out, in), AESIR_OK);
}

static void model_dec(uint8_t out[16], const uint8_t in[16])
{
    FUZZ_CHECK_EQ(aesir_aes_decrypt_block(&model_key, out, in), AESIR_OK);
}

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* Counter values left before a w-bit counter would wrap, UINT64_MAX
 * standing for "at least that many". */
static uint64_t ctr_room(const uint8_t iv[16], unsigned w)
{
    uint64_t low = load_be64(iv + 8);
    if (w == 32)
        return ((uint64_t)1 << 32) - (low & 0xffffffffu);
    if (w == 128 && load_be64(iv) != UINT64_MAX)
        return UINT64_MAX;
    return low == 0 ? UINT64_MAX : 0 - low;
}

static unsigned ctr_width(unsigned option)
{
    return option == 0 ? 128 : option;
}

static void ctr_inc(uint8_t ctr[16], unsigned w)
{
    for (int i = 15; i >= 16 - (int)(w / 8); i--)
        if (++ctr[i] != 0)
            break;
}

/*
 * model -- mode v in direction dir on len bytes (CFB1: nbits bits) into
 * out (room for len + 16 bytes); returns the code the API must return.
 * Stream modes fill out even on AESIR_E_COUNTER_OVERFLOW, so that the
 * part that fits can be compared.
 */
static int model(const struct variant *v, unsigned dir, const uint8_t iv[16],
                 const uint8_t *in, size_t len, size_t nbits, uint8_t *out,
                 size_t *out_len)
{
    static uint8_t tmp[MAX_MSG + 32];
    uint8_t reg[16], ks[16];
    int enc = dir == AESIR_ENCRYPT;
    size_t n;

    *out_len = 0;
    if (iv != NULL)
        memcpy(reg, iv, 16);
    switch (v->mode) {
    case AESIR_MODE_ECB:
    case AESIR_MODE_CBC:
        if (enc) {
            if (v->option == AESIR_PAD_NONE && len % 16 != 0)
                return AESIR_E_INPUT_LENGTH;
            n = v->option == AESIR_PAD_PKCS7 ? (len / 16 + 1) * 16
                                             : (len + 15) / 16 * 16;
            memcpy(tmp, in, len);
            memset(tmp + len, v->option == AESIR_PAD_PKCS7 ? (int)(n - len) : 0,
                   n - len);
            for (size_t i = 0; i < n; i += 16) {
                if (v->mode == AESIR_MODE_CBC)
                    for (int j = 0; j < 16; j++)
                        tmp[i + j] ^= reg[j];
                model_enc(out + i, tmp + i);
                memcpy(reg, out + i, 16);
            }
            *out_len = n;
            return AESIR_OK;
        }
        if (len % 16 != 0 || (v->option == AESIR_PAD_PKCS7 && len == 0))
            return AESIR_E_INPUT_LENGTH;
        for (size_t i = 0; i < len; i += 16) {
            model_dec(out + i, in + i);
            if (v->mode == AESIR_MODE_CBC) {
                for (int j = 0; j < 16; j++)
                    out[i + j] ^= reg[j];
                memcpy(reg, in + i, 16);
            }
        }
        if (v->option == AESIR_PAD_PKCS7) {
            unsigned pad = out[len - 1];
            if (pad == 0 || pad > 16)
                return AESIR_E_PADDING;
            for (unsigned j = 1; j <= pad; j++)
                if (out[len - j] != pad)
                    return AESIR_E_PADDING;
            len -= pad;
        }
        *out_len = len;
        return AESIR_OK;
    case AESIR_MODE_CFB128:
        for (size_t i = 0; i < len; i += 16) {
            size_t k = len - i < 16 ? len - i : 16;
            model_enc(ks, reg);
            for (size_t j = 0; j < k; j++) {
                out[i + j] = in[i + j] ^ ks[j];
                reg[j] = enc ? out[i + j] : in[i + j];
            }
        }
        break;
    case AESIR_MODE_CFB8:
        for (size_t i = 0; i < len; i++) {
            model_enc(ks, reg);
            out[i] = in[i] ^ ks[0];
            memmove(reg, reg + 1, 15);
            reg[15] = enc ? out[i] : in[i];
        }
        break;
    case AESIR_MODE_CFB1:
        len = (nbits + 7) / 8;
        memset(out, 0, len);
        for (size_t i = 0; i < nbits; i++) {
            unsigned x = in[i / 8] >> (7 - i % 8) & 1u, y;
            model_enc(ks, reg);
            y = x ^ (ks[0] >> 7);
            out[i / 8] |= (uint8_t)(y << (7 - i % 8));
            for (int j = 0; j < 15; j++)
                reg[j] = (uint8_t)(reg[j] << 1 | reg[j + 1] >> 7);
            reg[15] = (uint8_t)(reg[15] << 1 | (enc ? y : x));
        }
        break;
    case AESIR_MODE_OFB:
        for (size_t i = 0; i < len; i++) {
            if (i % 16 == 0)
                model_enc(reg, reg);
            out[i] = in[i] ^ reg[i % 16];
        }
        break;
    case AESIR_MODE_CTR:
        for (size_t i = 0; i < len; i++) {
            if (i % 16 == 0) {
                model_enc(ks, reg);
                ctr_inc(reg, ctr_width(v->option));
            }
            out[i] = in[i] ^ ks[i % 16];
        }
        *out_len = len;
        if ((len + 15) / 16 > ctr_room(iv, ctr_width(v->option)))
            return AESIR_E_COUNTER_OVERFLOW;
        return AESIR_OK;
    }
    *out_len = len;
    return AESIR_OK;
}

/*
 * model_memo -- model() for the checks of every engine: the same few
 * inputs (the message, its ciphertext, ...) come back for each engine, so
 * each result is computed once per fuzz input and kept here. Returns the
 * code; *out points at the kept output.
 */
#define MEMO_SLOTS 16
static struct memo {
    unsigned dir;
    size_t len, nbits, out_len;
    int rc;
    uint8_t in[MAX_MSG + 32], out[MAX_MSG + 32];
} memo[MEMO_SLOTS];
static size_t memo_used;

static int model_memo(const struct variant *v, unsigned dir,
                      const uint8_t iv[16], const uint8_t *in, size_t len,
                      size_t nbits, const uint8_t **out, size_t *out_len)
{
    struct memo *m;
    for (size_t i = 0; i < memo_used; i++) {
        m = &memo[i];
        if (m->dir == dir && m->len == len && m->nbits == nbits &&
            (len == 0 || memcmp(m->in, in, len) == 0)) {
            *out = m->out;
            *out_len = m->out_len;
            return m->rc;
        }
    }
    m = &memo[memo_used < MEMO_SLOTS ? memo_used++ : MEMO_SLOTS - 1];
    m->dir = dir, m->len = len, m->nbits = nbits;
    if (len != 0)
        memcpy(m->in, in, len);
    m->rc = model(v, dir, iv, in, len, nbits, m->out, &m->out_len);
    *out = m->out;
    *out_len = m->out_len;
    return m->rc;
}

/* model_into -- model_memo() copied into out (room for len + 16). */
static int model_into(const struct variant *v, unsigned dir,
                      const uint8_t iv[16], const uint8_t *in, size_t len,
                      size_t nbits, uint8_t *out, size_t *out_len)
{
    const uint8_t *o;
    int rc = model_memo(v, dir, iv, in, len, nbits, &o, out_len);
    memcpy(out, o, *out_len);
    return rc;
}

/* ---- the API under test -------------------------------------------- */

/* One-shot call; *out_len is set for the stream modes too (len, or the
 * bytes of nbits for CFB1, on success). For CFB1, len is in bits. */
static int oneshot(const aesir_aes *k, const struct variant *v, unsigned dir,
                   const uint8_t *iv, uint8_t *out, size_t out_cap,
                   size_t *out_len, const uint8_t *in, size_t len)
{
    int enc = dir == AESIR_ENCRYPT, rc;
    size_t n = len;

    switch (v->mode) {
    case AESIR_MODE_ECB:
        return enc ? aesir_ecb_encrypt(k, v->option, out, out_cap, out_len, in,
                                       len)
                   : aesir_ecb_decrypt(k, v->option, out, out_cap, out_len, in,
                                       len);
    case AESIR_MODE_CBC:
        return enc ? aesir_cbc_encrypt(k, iv, v->option, out, out_cap, out_len,
                                       in, len)
                   : aesir_cbc_decrypt(k, iv, v->option, out, out_cap, out_len,
                                       in, len);
    case AESIR_MODE_CFB128:
        rc = enc ? aesir_cfb128_encrypt(k, iv, out, in, len)
                 : aesir_cfb128_decrypt(k, iv, out, in, len);
        break;
    case AESIR_MODE_CFB8:
        rc = enc ? aesir_cfb8_encrypt(k, iv, out, in, len)
                 : aesir_cfb8_decrypt(k, iv, out, in, len);
        break;
    case AESIR_MODE_CFB1:
        rc = enc ? aesir_cfb1_encrypt(k, iv, out, in, len)
                 : aesir_cfb1_decrypt(k, iv, out, in, len);
        n = (len + 7) / 8;
        break;
    case AESIR_MODE_OFB:
        rc = aesir_ofb_crypt(k, iv, out, in, len);
        break;
    default:
        rc = aesir_ctr_crypt(k, iv, v->option, out, in, len);
        break;
    }
    *out_len = rc == AESIR_OK ? n : 0;
    return rc;
}

/* The output room a one-shot call gets: exactly what the header says it
 * needs (for PKCS#7 decryption the plaintext's length, when the padding
 * is valid). */
static size_t oneshot_cap(const struct variant *v, unsigned dir, size_t len,
                          int want_rc, size_t want_len)
{
    if (is_block(v) && dir == AESIR_ENCRYPT) {
        if (v->option == AESIR_PAD_PKCS7)
            return (len / 16 + 1) * 16;
        return (len + 15) / 16 * 16;
    }
    if (is_block(v) && v->option == AESIR_PAD_PKCS7 && want_rc == AESIR_OK)
        return want_len;
    return len;
}

/*
 * check_oneshot -- one-shot call on in[0..len) (CFB1: nbits bits) must
 * give the model's code and output; on failure nothing is written (in
 * place, the buffer still holds the input). Returns the code.
 */
static int check_oneshot(const struct plan *p, const aesir_aes *k, unsigned dir,
                         const uint8_t *in, size_t len, size_t nbits)
{
    const uint8_t *want;
    size_t want_len, cap, room, got_len = 12345;
    int want_rc =
        model_memo(p->v, dir, p->iv, in, len, nbits, &want, &want_len);
    int cfb1 = p->v->mode == AESIR_MODE_CFB1, rc;
    uint8_t *out, *src;
    uint8_t iv_copy[16];

    cap = oneshot_cap(p->v, dir, len, want_rc, want_len);
    room = cap > len ? cap : len;
    memcpy(iv_copy, p->iv, 16);
    if (p->oneshot_inplace) {
        out = fz_alloc(room, p->out_off);
        memcpy(out, in, len);
        src = out;
    } else {
        out = fz_alloc(cap, p->out_off);
        src = fz_alloc(len, p->in_off);
        memcpy(src, in, len);
    }
    rc = oneshot(k, p->v, dir, p->iv, out, cap, &got_len, src,
                 cfb1 ? nbits : len);
    FUZZ_CHECK_EQ(rc, want_rc);
    FUZZ_CHECK(memcmp(iv_copy, p->iv, 16) == 0);
    if (rc == AESIR_OK) {
        FUZZ_CHECK_EQ(got_len, want_len);
        FUZZ_CHECK(memcmp(out, want, want_len) == 0);
        if (!p->oneshot_inplace) {
            FUZZ_CHECK(fz_all(out + want_len, cap - want_len, FZ_CANARY));
            FUZZ_CHECK(memcmp(src, in, len) == 0); /* input is const */
        }
    } else {
        FUZZ_CHECK_EQ(got_len, 0);
        for (size_t i = 0; i < cap; i++)
            FUZZ_CHECK(out[i] ==
                       (p->oneshot_inplace && i < len ? in[i] : FZ_CANARY));
    }
    fz_free(out, p->out_off);
    if (!p->oneshot_inplace)
        fz_free(src, p->in_off);
    return rc;
}

/*
 * finish -- aesir_cipher_final into dst (room for 16 bytes, the most it
 * writes), first with the plan's short capacity when it has one: too
 * short for what final must write, it fails with AESIR_E_OUTPUT_SIZE,
 * writes nothing, and the context stays usable; long enough, it is the
 * real call. Checks that nothing is written past *n and that the context
 * is finished after.
 */
static int finish(const struct plan *p, aesir_cipher *c, uint8_t *dst,
                  size_t *n)
{
    size_t cap = p->final_cap < 16 ? p->final_cap : 16;
    uint8_t *out = fz_alloc(cap, p->out_off);
    size_t m;
    int rc;

    *n = 12345;
    rc = aesir_cipher_final(c, out, cap, n);
    if (rc == AESIR_E_OUTPUT_SIZE && cap < 16) {
        FUZZ_CHECK_EQ(*n, 0);
        FUZZ_CHECK(fz_all(out, cap, FZ_CANARY));
        fz_free(out, p->out_off);
        cap = 16;
        out = fz_alloc(cap, p->out_off);
        *n = 12345;
        rc = aesir_cipher_final(c, out, cap, n);
    }
    FUZZ_CHECK(rc != AESIR_E_OUTPUT_SIZE);
    FUZZ_CHECK(*n <= cap);
    if (rc != AESIR_OK)
        FUZZ_CHECK_EQ(*n, 0); /* AESIR_E_PADDING: nothing written */
    FUZZ_CHECK(fz_all(out + *n, cap - *n, FZ_CANARY));
    memcpy(dst, out, *n);
    fz_free(out, p->out_off);
    /* Finished, or wiped by the error: no more use. */
    FUZZ_CHECK_EQ(aesir_cipher_final(c, NULL, 0, &m), AESIR_E_STATE);
    return rc;
}

/*
 * check_incremental -- init, the plan's pieces of in[0..len), final; the
 * concatenated output must equal the model's, and the return codes its
 * code. CTR: the update that would wrap the counter fails without
 * output; then exactly the input that still fits goes through, one byte
 * more fails again, and the output so far is the model's prefix.
 */
static void check_incremental(const struct plan *p, const aesir_aes *k,
                              unsigned dir, const uint8_t *in, size_t len)
{
    static uint8_t got[MAX_MSG + 64];
    const uint8_t *want;
    const struct variant *v = p->v;
    size_t want_len, got_len = 0, done = 0, n;
    int want_rc = model_memo(v, dir, p->iv, in, len, 8 * len, &want, &want_len);
    int ctr = v->mode == AESIR_MODE_CTR, rc;
    uint64_t room = ctr ? ctr_room(p->iv, ctr_width(v->option)) : 0;
    aesir_cipher c;

    FUZZ_CHECK_EQ(aesir_cipher_init(&c, k, v->mode, dir,
                                    v->mode == AESIR_MODE_ECB ? NULL : p->iv,
                                    v->mode == AESIR_MODE_ECB ? 0 : 16,
                                    v->option),
                  AESIR_OK);
    for (size_t i = 0; i < p->npieces && done < len; i++) {
        size_t plen = i + 1 == p->npieces || p->piece[i] > len - done
                          ? len - done
                          : p->piece[i];
        size_t need = aesir_cipher_update_size(&c, plen);
        int inplace = p->inplace_mask >> i & 1;
        size_t cap = inplace && plen > need ? plen : need;
        uint8_t *out = fz_alloc(cap, p->out_off), *src = out;
        int wraps = ctr && (done + plen + 15) / 16 > room;

        if (!is_block(v))
            FUZZ_CHECK_EQ(need, plen);
        else
            FUZZ_CHECK(need % 16 == 0 && need <= done + plen - got_len);
        if (!inplace)
            src = fz_alloc(plen, p->in_off);
        memcpy(src, in + done, plen);
        n = 12345;
        rc = aesir_cipher_update(&c, out, cap, &n, src, plen);
        if (wraps) {
            /* Nothing consumed, nothing written. */
            FUZZ_CHECK_EQ(rc, AESIR_E_COUNTER_OVERFLOW);
            FUZZ_CHECK_EQ(n, 0);
            FUZZ_CHECK(inplace ? memcmp(out, in + done, plen) == 0
                               : fz_all(out, cap, FZ_CANARY));
        } else {
            FUZZ_CHECK_EQ(rc, AESIR_OK);
            FUZZ_CHECK(n <= need && got_len + n <= sizeof(got));
            if (!inplace)
                FUZZ_CHECK(fz_all(out + n, cap - n, FZ_CANARY));
            memcpy(got + got_len, out, n);
            got_len += n;
            done += plen;
        }
        fz_free(out, p->out_off);
        if (!inplace)
            fz_free(src, p->in_off);
        if (wraps) {
            /* What still fits goes through; a byte more does not. */
            size_t fit = (size_t)(16 * room - done);
            uint8_t one = 0;
            FUZZ_CHECK(fit < plen);
            FUZZ_CHECK_EQ(
                aesir_cipher_update(&c, got + got_len, fit, &n, in + done, fit),
                AESIR_OK);
            FUZZ_CHECK_EQ(n, fit);
            got_len += fit, done += fit;
            FUZZ_CHECK_EQ(aesir_cipher_update(&c, &one, 1, &n, in + done, 1),
                          AESIR_E_COUNTER_OVERFLOW);
            FUZZ_CHECK(n == 0 && one == 0);
            break;
        }
    }

    rc = finish(p, &c, got + got_len, &n);
    if (rc != AESIR_OK) {
        FUZZ_CHECK(!ctr);
        FUZZ_CHECK_EQ(rc, want_rc);
        return;
    }
    got_len += n;
    if (ctr) {
        FUZZ_CHECK_EQ(want_rc,
                      done < len ? AESIR_E_COUNTER_OVERFLOW : AESIR_OK);
        FUZZ_CHECK_EQ(got_len, done);
        FUZZ_CHECK(memcmp(got, want, done) == 0);
        return;
    }
    FUZZ_CHECK_EQ(rc, want_rc);
    FUZZ_CHECK_EQ(got_len, want_len);
    FUZZ_CHECK(memcmp(got, want, want_len) == 0);
}

/* ---- per engine ---------------------------------------------------- */

/* Key contexts at p->ctx_off (0, 16, 32, 48) past 64-byte alignment:
 * wherever malloc's 16-byte-aligned blocks put them. */
static _Alignas(64) unsigned char key_area[2][sizeof(aesir_aes) + 64];

static aesir_aes *key_at(int i, unsigned off)
{
    return (aesir_aes *)(void *)(key_area[i] + off);
}

static void run_engine(const struct plan *p, const char *engine)
{
    static uint8_t ct[MAX_MSG + 32], pt[MAX_MSG + 32];
    const struct variant *v = p->v;
    aesir_aes *ke = key_at(0, p->ctx_off), *kd = ke;
    size_t ct_len, pt_len;
    int rc;

    if (p->split_keys) {
        FUZZ_CHECK_EQ(
            aesir_aes_init_ex(ke, p->key, p->key_len, engine, AESIR_ENCRYPT),
            AESIR_OK);
        if (is_block(v)) {
            kd = key_at(1, p->ctx_off);
            FUZZ_CHECK_EQ(aesir_aes_init_ex(kd, p->key, p->key_len, engine,
                                            AESIR_DECRYPT),
                          AESIR_OK);
        }
    } else {
        FUZZ_CHECK_EQ(aesir_aes_init_ex(ke, p->key, p->key_len, engine,
                                        AESIR_ENCRYPT | AESIR_DECRYPT),
                      AESIR_OK);
    }
    FUZZ_CHECK(strcmp(aesir_aes_engine(ke), engine) == 0);
    FUZZ_CHECK_EQ(aesir_aes_key_bits(ke), 8 * p->key_len);
    if (!is_block(v))
        kd = ke; /* the stream modes decrypt with the forward cipher */

    /* Encryption: one-shot (the whole bit length for CFB1, then whole
     * bytes), incremental. */
    rc = check_oneshot(p, ke, AESIR_ENCRYPT, p->msg, p->len, p->nbits);
    if (v->mode == AESIR_MODE_CFB1)
        check_oneshot(p, ke, AESIR_ENCRYPT, p->msg, p->len, 8 * p->len);
    check_incremental(p, ke, AESIR_ENCRYPT, p->msg, p->len);

    /* Round trip, on the model's ciphertext (equal to the engine's when
     * it succeeded; for CTR, the part before the wrap). */
    model_into(v, AESIR_ENCRYPT, p->iv, p->msg, p->len, 8 * p->len, ct,
               &ct_len);
    if (v->mode == AESIR_MODE_CTR && rc != AESIR_OK)
        ct_len = (size_t)(16 * ctr_room(p->iv, ctr_width(v->option)));
    if (rc == AESIR_OK || v->mode == AESIR_MODE_CTR) {
        size_t want_len = is_block(v) && v->option == AESIR_PAD_ZERO
                              ? ct_len
                              : (ct_len < p->len ? ct_len : p->len);
        FUZZ_CHECK_EQ(
            check_oneshot(p, kd, AESIR_DECRYPT, ct, ct_len, 8 * ct_len),
            AESIR_OK);
        check_incremental(p, kd, AESIR_DECRYPT, ct, ct_len);
        FUZZ_CHECK_EQ(model_into(v, AESIR_DECRYPT, p->iv, ct, ct_len,
                                 8 * ct_len, pt, &pt_len),
                      AESIR_OK);
        FUZZ_CHECK_EQ(pt_len, want_len);
        FUZZ_CHECK(memcmp(pt, p->msg, want_len < p->len ? want_len : p->len) ==
                   0);
        FUZZ_CHECK(
            fz_all(pt + p->len, want_len > p->len ? want_len - p->len : 0, 0));
    }

    /* Arbitrary ciphertext: the message itself, and for ECB and CBC
     * also cut to whole blocks when its length is ragged (which must
     * fail). With PKCS#7, check_oneshot has shown the engine agrees with
     * the model: a padding error, or a plaintext; that plaintext must
     * re-encrypt to the ciphertext. */
    for (int cut = 0; cut < 2; cut++) {
        size_t len = cut ? p->len / 16 * 16 : p->len;
        if (cut && (!is_block(v) || len == p->len))
            break;
        rc = check_oneshot(p, kd, AESIR_DECRYPT, p->msg, len, p->nbits);
        check_incremental(p, kd, AESIR_DECRYPT, p->msg, len);
        if (rc == AESIR_OK && is_block(v) && v->option == AESIR_PAD_PKCS7) {
            FUZZ_CHECK_EQ(model_into(v, AESIR_DECRYPT, p->iv, p->msg, len, 0,
                                     pt, &pt_len),
                          AESIR_OK);
            FUZZ_CHECK_EQ(
                model_into(v, AESIR_ENCRYPT, p->iv, pt, pt_len, 0, ct, &ct_len),
                AESIR_OK);
            FUZZ_CHECK(ct_len == len && memcmp(ct, p->msg, len) == 0);
        }
    }

    aesir_aes_clear(ke);
    if (kd != ke)
        aesir_aes_clear(kd);
}

/* ---- the input ------------------------------------------------------ */

static void read_plan(struct plan *p, const uint8_t *data, size_t size)
{
    static const size_t key_lens[4] = {16, 24, 32, 16};
    struct fz f = {data, size};
    unsigned flags, offs, extra;
    size_t max;

    memset(p, 0, sizeof(*p));
    p->v = &variants[fz_u8(&f) % NVARIANTS];
    flags = fz_u8(&f);
    offs = fz_u8(&f);
    extra = fz_u8(&f);
    p->key_len = key_lens[flags & 3];
    p->split_keys = flags >> 2 & 1;
    p->oneshot_inplace = flags >> 3 & 1;
    p->ctx_off = 16 * (flags >> 5 & 3);
    p->in_off = offs & 15;
    p->out_off = offs >> 4;
    p->final_cap = flags >> 7 ? (extra >> 3) % 16 : 16;
    fz_bytes(&f, p->key, 32);
    fz_bytes(&f, p->iv, 16);
    if ((flags >> 4 & 1) && p->v->mode == AESIR_MODE_CTR) {
        /* Close to the wrap: the counter's bytes all 0xff but the last,
         * which the input chose. */
        unsigned w = ctr_width(p->v->option);
        memset(p->iv + 16 - w / 8, 0xff, w / 8 - 1);
    }
    p->npieces = 1 + fz_u8(&f) % MAX_PIECES;
    for (size_t i = 0; i + 1 < p->npieces; i++)
        p->piece[i] = fz_u16(&f) % (MAX_MSG + 1);
    p->inplace_mask = fz_u16(&f);
    max = p->v->mode == AESIR_MODE_CFB1   ? MAX_CFB1
          : p->v->mode == AESIR_MODE_CFB8 ? MAX_CFB8
                                          : MAX_MSG;
    p->msg = f.p;
    p->len = f.n < max ? f.n : max;
    p->nbits = 8 * p->len - (p->len != 0 ? extra % 8 : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char **engines;
    size_t nengines = fz_engines(&engines);
    struct plan p;

    read_plan(&p, data, size);
    FZ_TRACE("mode %u option %u, key %zu bytes, %zu-byte message (CFB1: "
             "%zu bits), %zu pieces, split keys %d, one-shot in place %d, "
             "key contexts +%u, in +%u, out +%u, first final cap %zu\n",
             p.v->mode, p.v->option, p.key_len, p.len, p.nbits, p.npieces,
             p.split_keys, p.oneshot_inplace, p.ctx_off, p.in_off, p.out_off,
             p.final_cap);
    memo_used = 0;
    FUZZ_CHECK_EQ(aesir_aes_init_ex(&model_key, p.key, p.key_len, "ref",
                                    AESIR_ENCRYPT | AESIR_DECRYPT),
                  AESIR_OK);
    for (size_t e = 0; e < nengines; e++) {
        FZ_TRACE("engine %s\n", engines[e]);
        run_engine(&p, engines[e]);
    }
    aesir_aes_clear(&model_key);
    return 0;
}
