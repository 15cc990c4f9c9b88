/*
 * blockmode.c -- buffering and padding shared by ECB and CBC, the two
 * modes that work on whole blocks only.
 *
 * Input that does not complete a block waits in st->buf. When decrypting
 * with PKCS#7 the last full block is held back too, since only final()
 * knows it is the last and may strip its padding.
 *
 * In-place operation with a partly filled buffer needs care: output for a
 * block that began in an earlier call would be written b = st->n bytes
 * ahead of where its input ends, over input not yet read. The slow path
 * therefore reads b bytes ahead before it writes anything, which keeps the
 * write position at or behind the read position (see update_shifted).
 */
#include "ct.h"
#include "modes.h"

#define CHUNK 512 /* bytes per pass of the shifted path, a multiple of 16 */

static int pkcs7_hold(const struct cipher_state *st)
{
    return st->dir == AESIR_DECRYPT && st->option == AESIR_PAD_PKCS7;
}

/* Full blocks this update will emit for in_len more bytes. st->n + in_len
 * can wrap for a huge in_len (the caller's claim, not a buffer we can
 * trust), so the buffered bytes are added to in_len's remainder only:
 * st->n <= 16, so that sum is at most 31. */
static size_t blocks_out(const struct cipher_state *st, size_t in_len)
{
    size_t low = st->n + in_len % 16;
    size_t nblk = in_len / 16 + low / 16;
    if (pkcs7_hold(st) && nblk > 0 && low % 16 == 0)
        nblk--;
    return nblk;
}

/* 16 * nblk, or SIZE_MAX when that does not fit in a size_t (no buffer
 * can be that large, so the update must fail for lack of room). */
size_t aesir_blockmode_update_size(const struct cipher_state *st, size_t in_len)
{
    size_t nblk = blocks_out(st, in_len);
    return nblk > SIZE_MAX / 16 ? SIZE_MAX : 16 * nblk;
}

static void process(struct cipher_state *st, uint8_t *out, const uint8_t *in,
                    size_t nblocks)
{
    if (st->mode == AESIR_MODE_ECB)
        aesir_ecb_blocks(st, out, in, nblocks);
    else
        aesir_cbc_blocks(st, out, in, nblocks);
}

/* Buffer non-empty: stream through a stack buffer with b bytes of
 * read-ahead, so out == in works (out - in stays equal to its start). */
static void update_shifted(struct cipher_state *st, uint8_t *out,
                           const uint8_t *in, size_t in_len, size_t nblk)
{
    uint8_t blk[CHUNK], carry[16];
    size_t b = st->n, have = b;

    memcpy(blk, st->buf, b);
    while (nblk > 0) {
        size_t k = nblk < CHUNK / 16 ? nblk : CHUNK / 16;
        size_t need = 16 * k - have;
        size_t c = in_len - need < b ? in_len - need : b;

        memcpy(blk + have, in, need);
        memcpy(carry, in + need, c);
        in += need + c;
        in_len -= need + c;
        process(st, blk, blk, k);
        memcpy(out, blk, 16 * k);
        out += 16 * k;
        memcpy(blk, carry, c);
        have = c;
        nblk -= k;
    }
    memcpy(st->buf, blk, have);
    memcpy(st->buf + have, in, in_len);
    st->n = (uint32_t)(have + in_len);
    aesir_wipe(blk, sizeof(blk));
    aesir_wipe(carry, sizeof(carry));
}

int aesir_blockmode_update(struct cipher_state *st, uint8_t *out,
                           size_t out_cap, size_t *out_len, const uint8_t *in,
                           size_t in_len)
{
    size_t nblk = blocks_out(st, in_len);

    if (nblk > out_cap / 16)
        return AESIR_E_OUTPUT_SIZE;
    *out_len = 16 * nblk;
    if (in_len == 0) /* in may be NULL: no memcpy from it, even of 0 */
        return AESIR_OK;
    if (nblk == 0) {
        memcpy(st->buf + st->n, in, in_len);
        st->n += (uint32_t)in_len;
        return AESIR_OK;
    }
    if (st->n != 0) {
        update_shifted(st, out, in, in_len, nblk);
        return AESIR_OK;
    }
    process(st, out, in, nblk);
    st->n = (uint32_t)(in_len - 16 * nblk);
    memcpy(st->buf, in + 16 * nblk, st->n);
    return AESIR_OK;
}

/*
 * PKCS#7 check of the last plaintext block in constant time: every byte is
 * examined whatever the pad value, and the verdict is a mask, not a
 * branch, until the single final decision. Returns the pad length (1..16)
 * or 0 when the padding is invalid.
 */
static unsigned pkcs7_pad_len(const uint8_t p[16])
{
    unsigned pad = p[15], bad = 0;
    for (unsigned i = 0; i < 16; i++) {
        /* in_pad = all-ones when i >= 16 - pad, i.e. i + pad >= 16. */
        unsigned in_pad = 0u - ((i + pad) >> 4 & 1u);
        bad |= in_pad & (p[i] ^ pad);
    }
    bad |= (0u - (unsigned)(pad == 0)) | (0u - (unsigned)(pad > 16));
    /* bad != 0 -> 0, else pad; (bad | -bad) >> 31 is 1 iff bad != 0. */
    return pad & ((((bad | (0u - bad)) >> 31) & 1u) - 1u);
}

static int final_encrypt(struct cipher_state *st, uint8_t *out, size_t out_cap,
                         size_t *out_len)
{
    size_t b = st->n;

    if (st->option == AESIR_PAD_NONE ||
        (st->option == AESIR_PAD_ZERO && b == 0))
        return b == 0 ? AESIR_OK : AESIR_E_INPUT_LENGTH;
    if (out_cap < 16)
        return AESIR_E_OUTPUT_SIZE;
    if (st->option == AESIR_PAD_PKCS7)
        memset(st->buf + b, (int)(16 - b), 16 - b);
    else
        memset(st->buf + b, 0, 16 - b);
    process(st, out, st->buf, 1);
    *out_len = 16;
    return AESIR_OK;
}

/*
 * The last plaintext block p of a PKCS#7 message, from its last
 * ciphertext block and, for CBC, the chaining value before it (prev; not
 * read for ECB), and its pad length, 0 when the padding is invalid.
 * Nothing else is decrypted, so the caller learns the plaintext length
 * before it writes anything (modes.h).
 */
unsigned aesir_pkcs7_last(const struct aesir_key_state *ks, unsigned mode,
                          const uint8_t *prev, const uint8_t last[16],
                          uint8_t p[16])
{
    uint8_t chain[16];
    unsigned pad;

    if (mode == AESIR_MODE_CBC) {
        memcpy(chain, prev, 16);
        aesir_cbc_run(ks, AESIR_DECRYPT, chain, p, last, 1);
    } else {
        aesir_ecb_run(ks, AESIR_DECRYPT, p, last, 1);
    }
    pad = pkcs7_pad_len(p);
    /* Declassified (ct.h): whether the padding is valid and how long the
     * plaintext is become public right here anyway, as the return code
     * and the output length. Only the check itself must be, and is,
     * constant-time. */
    CT_PUBLIC(&pad, sizeof(pad));
    return pad;
}

/* The held-back last block: its padding is checked before anything is
 * written, and the chaining value is not advanced, so that a call with
 * too small a buffer leaves the context as it was. */
static int final_decrypt(struct cipher_state *st, uint8_t *out, size_t out_cap,
                         size_t *out_len)
{
    uint8_t p[16];
    unsigned pad;
    int err = AESIR_OK;

    if (st->option != AESIR_PAD_PKCS7)
        return st->n == 0 ? AESIR_OK : AESIR_E_INPUT_LENGTH;
    if (st->n != 16)
        return AESIR_E_INPUT_LENGTH;
    pad = aesir_pkcs7_last(st->ks, st->mode, st->iv, st->buf, p);
    if (pad == 0) {
        err = AESIR_E_PADDING;
    } else if (out_cap < 16 - pad) {
        err = AESIR_E_OUTPUT_SIZE;
    } else {
        if (pad != 16)
            memcpy(out, p, 16 - pad);
        *out_len = 16 - pad;
    }
    aesir_wipe(p, sizeof(p));
    return err;
}

int aesir_blockmode_final(struct cipher_state *st, uint8_t *out, size_t out_cap,
                          size_t *out_len)
{
    if (st->dir == AESIR_ENCRYPT)
        return final_encrypt(st, out, out_cap, out_len);
    return final_decrypt(st, out, out_cap, out_len);
}
