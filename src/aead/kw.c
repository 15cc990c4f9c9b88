/*
 * kw.c -- key wrap: KW and KWP (NIST SP 800-38F sections 6.2-6.3 and
 * 7.2-7.3; RFC 3394 and RFC 5649), on an engine's block function.
 *
 * The wrapping function W (SP 800-38F 6.1, algorithm 1) runs 6 passes
 * over the n semiblocks (8 bytes) R1..Rn with a running integrity value
 * A: step t = n*j + i encrypts A || Ri, then A = MSB64(B) xor [t]64 and
 * Ri = LSB64(B). Every step needs the A of the step before, so the whole
 * wrap is one chain of 6n block encryptions: one block per engine call
 * (the engines' batch paths cannot help a chain). The unwrapping W^-1
 * runs the steps backwards with the inverse cipher.
 *
 * KW (6.2) starts A at ICV1 = A6A6A6A6A6A6A6A6 and checks it after
 * unwrapping. KWP (6.3) starts A at ICV2 = A65959A6 || [len]32, pads the
 * plaintext with zeros to a multiple of 8 and, for a single semiblock,
 * encrypts A || P as one block instead of running W. Its unwrap checks
 * ICV2, that the length lies in the last semiblock (8(n-1) < len <= 8n)
 * and that the padding bytes are zero.
 *
 * Constant time: the checks after unwrapping are arithmetic on the
 * recovered A and the last semiblock (the length is secret until the
 * check passes, so it reaches no branch and no index before that);
 * only the verdict is declassified. The output of a failed unwrap is
 * wiped. With AESIR_KW_INVERSE, the forward function is the AES inverse
 * (SP 800-38F 5.1: "KW-AE with CIPH^-1_K"), as CAVP's _inv vectors are.
 */
#include "aead_ctx.h"
#include "modes.h"

static const uint8_t icv1[8] = {0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6};
static const uint8_t icv2[4] = {0xa6, 0x59, 0x59, 0xa6};

/* SP 800-38F 5.3.1: KW at most 2^54 - 1 semiblocks of plaintext. */
#define KW_MAX_SEMIBLOCKS ((UINT64_C(1) << 54) - 1)
/* KWP plaintext: at most 2^32 - 1 bytes (its length field). */
#define KWP_MAX_BYTES UINT64_C(0xffffffff)

/* The forward cipher of a wrap (inv: the AES inverse) and its inverse. */
struct kw_fn {
    const struct aesir_key_state *ks;
    int inv;
};

static void fwd(const struct kw_fn *f, uint8_t b[16])
{
    const struct aesir_key_state *ks = f->ks;
    if (f->inv)
        ks->engine->decrypt(ks->rk_dec, ks->nr, b, b, 1);
    else
        ks->engine->encrypt(ks->rk_enc, ks->nr, b, b, 1);
}

static void bwd(const struct kw_fn *f, uint8_t b[16])
{
    const struct aesir_key_state *ks = f->ks;
    if (f->inv)
        ks->engine->encrypt(ks->rk_enc, ks->nr, b, b, 1);
    else
        ks->engine->decrypt(ks->rk_dec, ks->nr, b, b, 1);
}

/* A ^= [t]64 */
static void xor_t(uint8_t b[8], uint64_t t)
{
    aesir_store_be64(b, aesir_load_be64(b) ^ t);
}

/* W: a (8 bytes) and the n semiblocks at r, in place (n >= 2). */
static void w(const struct kw_fn *f, uint8_t a[8], uint8_t *r, size_t n)
{
    uint8_t b[16];
    uint64_t t = 1;

    memcpy(b, a, 8);
    for (unsigned j = 0; j < 6; j++)
        for (size_t i = 0; i < n; i++, t++) {
            memcpy(b + 8, r + 8 * i, 8);
            fwd(f, b);
            memcpy(r + 8 * i, b + 8, 8);
            xor_t(b, t);
        }
    memcpy(a, b, 8);
    aesir_wipe(b, sizeof(b));
}

/* W^-1: the same steps backwards. */
static void w_inv(const struct kw_fn *f, uint8_t a[8], uint8_t *r, size_t n)
{
    uint8_t b[16];
    uint64_t t = 6 * (uint64_t)n;

    memcpy(b, a, 8);
    for (unsigned j = 0; j < 6; j++)
        for (size_t i = n; i-- > 0; t--) {
            xor_t(b, t);
            memcpy(b + 8, r + 8 * i, 8);
            bwd(f, b);
            memcpy(r + 8 * i, b + 8, 8);
        }
    memcpy(a, b, 8);
    aesir_wipe(b, sizeof(b));
}

/* Checks the key for the directions a wrap (unwrap 0) or unwrap needs
 * and the options; AESIR_OK or the error, f set on success. */
static int setup(struct kw_fn *f, const aesir_aes *kek, unsigned options,
                 int unwrap)
{
    unsigned dir;

    if ((options & ~AESIR_KW_INVERSE) != 0)
        return AESIR_E_ARGUMENT;
    f->inv = (options & AESIR_KW_INVERSE) != 0;
    /* the forward function encrypts unless inverted; unwrap inverts it */
    dir = (f->inv ^ unwrap) ? AESIR_DECRYPT : AESIR_ENCRYPT;
    f->ks = aesir_key_state(kek, dir);
    return f->ks == NULL ? AESIR_E_STATE : AESIR_OK;
}

/* Common argument checks, in the library's order: key, pointers. */
static int args(struct kw_fn *f, const aesir_aes *kek, unsigned options,
                int unwrap, const uint8_t *out, size_t *out_len,
                const uint8_t *in)
{
    int err;
    if (out_len == NULL)
        return AESIR_E_ARGUMENT;
    *out_len = 0;
    if ((options & ~AESIR_KW_INVERSE) != 0)
        return AESIR_E_ARGUMENT;
    if ((err = setup(f, kek, options, unwrap)) != AESIR_OK)
        return err;
    if (out == NULL || in == NULL)
        return AESIR_E_ARGUMENT;
    return AESIR_OK;
}

/* ---- KW ---------------------------------------------------------------- */

int aesir_kw_wrap(const aesir_aes *kek, unsigned options, uint8_t *out,
                  size_t out_cap, size_t *out_len, const uint8_t *in,
                  size_t in_len)
{
    struct kw_fn f;
    uint8_t a[8];
    int err = args(&f, kek, options, 0, out, out_len, in);

    if (err != AESIR_OK)
        return err;
    if (in_len % 8 != 0 || in_len < 16 ||
        !aesir_at_most(in_len / 8, KW_MAX_SEMIBLOCKS))
        return AESIR_E_INPUT_LENGTH;
    if (out_cap < 8 || out_cap - 8 < in_len)
        return AESIR_E_OUTPUT_SIZE;
    memmove(out + 8, in, in_len);
    memcpy(a, icv1, 8);
    w(&f, a, out + 8, in_len / 8);
    memcpy(out, a, 8);
    *out_len = in_len + 8;
    return AESIR_OK;
}

int aesir_kw_unwrap(const aesir_aes *kek, unsigned options, uint8_t *out,
                    size_t out_cap, size_t *out_len, const uint8_t *in,
                    size_t in_len)
{
    struct kw_fn f;
    uint8_t a[8];
    size_t len;
    int err = args(&f, kek, options, 1, out, out_len, in);

    if (err != AESIR_OK)
        return err;
    if (in_len % 8 != 0 || in_len < 24 ||
        !aesir_at_most(in_len / 8 - 1, KW_MAX_SEMIBLOCKS))
        return AESIR_E_INPUT_LENGTH;
    len = in_len - 8;
    if (out_cap < len)
        return AESIR_E_OUTPUT_SIZE;
    memcpy(a, in, 8);
    memmove(out, in + 8, len);
    w_inv(&f, a, out, len / 8);
    err = aead_verdict(a, icv1, 8);
    aesir_wipe(a, sizeof(a));
    if (aead_released(err, out, len) != AESIR_OK)
        return err;
    *out_len = len;
    return AESIR_OK;
}

/* ---- KWP --------------------------------------------------------------- */

int aesir_kwp_wrap(const aesir_aes *kek, unsigned options, uint8_t *out,
                   size_t out_cap, size_t *out_len, const uint8_t *in,
                   size_t in_len)
{
    struct kw_fn f;
    uint8_t a[8];
    size_t padded;
    int err = args(&f, kek, options, 0, out, out_len, in);

    if (err != AESIR_OK)
        return err;
    if (in_len == 0 || !aesir_at_most(in_len, KWP_MAX_BYTES))
        return AESIR_E_INPUT_LENGTH;
    if (in_len > SIZE_MAX - 15) /* 32-bit size_t: no such buffer */
        return AESIR_E_OUTPUT_SIZE;
    padded = (in_len + 7) & ~(size_t)7;
    if (out_cap < padded + 8)
        return AESIR_E_OUTPUT_SIZE;
    memcpy(a, icv2, 4);
    aesir_store_be32(a + 4, (uint32_t)in_len);
    memmove(out + 8, in, in_len);
    memset(out + 8 + in_len, 0, padded - in_len);
    if (padded == 8) {
        /* one semiblock: a single encryption of A || P (6.3 step 4) */
        memcpy(out, a, 8);
        fwd(&f, out);
    } else {
        w(&f, a, out + 8, padded / 8);
        memcpy(out, a, 8);
    }
    aesir_wipe(a, sizeof(a));
    *out_len = padded + 8;
    return AESIR_OK;
}

/* All ones when x < y (both below 2^63), else 0; no branch. */
static uint64_t lt_mask(uint64_t x, uint64_t y)
{
    return 0 - ((x - y) >> 63);
}

int aesir_kwp_unwrap(const aesir_aes *kek, unsigned options, uint8_t *out,
                     size_t out_cap, size_t *out_len, const uint8_t *in,
                     size_t in_len)
{
    struct kw_fn f;
    uint8_t a[8];
    size_t padded;
    uint64_t mli, bad;
    int err = args(&f, kek, options, 1, out, out_len, in), verdict;

    if (err != AESIR_OK)
        return err;
    if (in_len % 8 != 0 || in_len < 16 ||
        !aesir_at_most(in_len - 8, KWP_MAX_BYTES + 1))
        return AESIR_E_INPUT_LENGTH;
    padded = in_len - 8;
    if (out_cap < padded)
        return AESIR_E_OUTPUT_SIZE;
    if (padded == 8) {
        uint8_t b[16];
        memcpy(b, in, 16);
        bwd(&f, b);
        memcpy(a, b, 8);
        memcpy(out, b + 8, 8);
        aesir_wipe(b, sizeof(b));
    } else {
        memcpy(a, in, 8);
        memmove(out, in + 8, padded);
        w_inv(&f, a, out, padded / 8);
    }
    /* ICV2, 8(n-1) < mli <= 8n, and zeros past mli in the last
     * semiblock: all as arithmetic, the verdict in bad */
    bad = (uint64_t)(aesir_ct_compare(a, icv2, 4) != 0);
    mli = aesir_load_be32(a + 4);
    bad |= lt_mask(mli, (uint64_t)padded - 7) & 1; /* mli <= 8(n-1) */
    bad |= lt_mask((uint64_t)padded, mli) & 1;     /* mli > 8n */
    for (size_t i = padded - 8; i < padded; i++)   /* pad bytes: i >= mli */
        bad |= (uint64_t)out[i] & ~lt_mask((uint64_t)i, mli);
    verdict = bad != 0;
    /* Declassified (ct.h): the verdict is the return code, and the
     * length the output length once it passes. */
    CT_PUBLIC(&verdict, sizeof(verdict));
    if (verdict) {
        aesir_wipe(a, sizeof(a));
        aesir_wipe(out, padded);
        return AESIR_E_AUTH;
    }
    CT_PUBLIC(&mli, sizeof(mli));
    aesir_wipe(a, sizeof(a));
    *out_len = (size_t)mli;
    return AESIR_OK;
}
