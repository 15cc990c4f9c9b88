/*
 * xts.c -- XTS-AES (IEEE Std 1619-2018 section 5; NIST SP 800-38E, which
 * approves it by reference), written once on top of an AES engine.
 *
 * A data unit of len >= 16 bytes under a 128-bit tweak value i (the
 * sector number) is cut into 16-byte blocks P_0 .. P_(m-1) and perhaps a
 * last partial block P_m of b = len mod 16 bytes. With Key1 the data key
 * and Key2 the tweak key (IEEE 1619 5.3.1):
 *
 *   T_0 = E_Key2(i),   T_(j+1) = T_j * x    (GF(2^128), 5.2)
 *   C_j = E_Key1(P_j ^ T_j) ^ T_j
 *
 * where the 16 bytes of T are a little-endian integer (byte 0 holds the
 * coefficients of x^0..x^7, bit 7 of byte 15 that of x^127) and the
 * product by x is a left shift by one with x^128 = x^7 + x^2 + x + 1
 * (0x87 into byte 0). The tweak value i enters E_Key2 as its 16-byte
 * little-endian encoding, so a sector number n is the block
 * n_0 n_1 .. n_7 0 .. 0 (5.1).
 *
 * Ciphertext stealing (5.3.2, decryption 5.4.2): when b > 0, block m-1
 * is encrypted with T_(m-1) to CC; its first b bytes become the short
 * last ciphertext block C_m, and the block P_m || CC[b..15] is encrypted
 * with T_m into the place of C_(m-1). Decryption undoes this with the
 * two tweaks in the other order.
 *
 * Paths. The engine's fused kernel (xts_enc / xts_dec, internal.h) does
 * the whole blocks when it has one: the VAES engines compute a vector of
 * tweaks per step with carry-less multiplies; aesni, armv8-ce and pwr8
 * 8 blocks in flight. Otherwise the generic path here: a chunk of
 * tweaks written to a buffer, out = in ^ T, bulk ECB on out in place,
 * out ^= T, so every engine runs at its own batch size. The stolen pair
 * of blocks goes through the engine one block at a time.
 *
 * Secrets: the keys, every tweak (E_Key2(i) is a function of the key:
 * treated like a key stream), the data. Branches and indices depend on
 * len only; the product by x is computed with a mask, not a test of the
 * top bit. The tweak buffer and the local tweaks are wiped.
 */
#include "xts.h"
#include "ct.h"

/* Blocks per chunk of the generic path: the widest engine batch (32,
 * vaes-avx512), 512 bytes of tweaks on the stack. */
#define XTS_CHUNK 32

/* Little-endian 64-bit loads and stores: one instruction where the
 * host is little-endian (a byte loop compiled to a 30-instruction chain
 * that needed six callee-saved registers, whose saving and restoring
 * moved tweak bytes through the stack). */
static inline uint64_t load_le64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
#endif
}

static inline void store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 8);
#else
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (uint8_t)v;
#endif
}

/* t = t * x (IEEE 1619 5.2), without a branch on the top bit. */
static inline void xts_mul_x(uint64_t *lo, uint64_t *hi)
{
    uint64_t carry = 0x87 & (0 - (*hi >> 63));
    *hi = (*hi << 1) | (*lo >> 63);
    *lo = (*lo << 1) ^ carry;
}

/* The key state behind key, or NULL when it is not set up (or not
 * 16-byte aligned, as for aesir_aes). */
static const struct xts_key_state *key_state(const aesir_xts_key *key)
{
    const struct xts_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct xts_key_state *)(const void *)key->opaque;
    if (k->magic != XTS_KEY_MAGIC ||
        aesir_key_state(&k->data, AESIR_ENCRYPT | AESIR_DECRYPT) == NULL ||
        aesir_key_state(&k->tweak, AESIR_ENCRYPT) == NULL)
        return NULL;
    return k;
}

static const struct aesir_key_state *ks_of(const aesir_aes *a)
{
    return (const struct aesir_key_state *)(const void *)a->opaque;
}

/* ---- key ------------------------------------------------------------- */

void aesir_xts_clear(aesir_xts_key *key)
{
    /* through a void pointer: a misaligned key is wiped too */
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_xts_key));
}

int aesir_xts_init_ex(aesir_xts_key *key, const uint8_t *k, size_t key_len,
                      const char *engine)
{
    struct xts_key_state *st;
    size_t half = key_len / 2;
    int err, same;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT; /* nothing written to a misaligned key */
    st = (struct xts_key_state *)(void *)key->opaque;
    if (k == NULL) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    if (key_len != 32 && key_len != 48 && key_len != 64) {
        err = AESIR_E_KEY_LENGTH;
        goto fail;
    }
    /* FIPS 140-3 IG C.I: Key1 == Key2 must be refused. The comparison
     * runs in constant time; its verdict is public (the caller sees it
     * in the return value). */
    same = aesir_ct_compare(k, k + half, half) == 0;
    CT_PUBLIC(&same, sizeof(same));
    if (same) {
        err = AESIR_E_KEY_WEAK;
        goto fail;
    }
    if ((err = aesir_aes_init_ex(&st->data, k, half, engine,
                                 AESIR_ENCRYPT | AESIR_DECRYPT)) != AESIR_OK)
        goto fail;
    /* the data key's engine by its registry name: the same engine, and
     * key.c's fast look-up */
    if ((err = aesir_aes_init_ex(&st->tweak, k + half, half,
                                 ks_of(&st->data)->engine->name,
                                 AESIR_ENCRYPT)) != AESIR_OK)
        goto fail;
    st->enc = ks_of(&st->data)->engine->xts_enc;
    st->dec = ks_of(&st->data)->engine->xts_dec;
    if (st->enc == NULL || st->dec == NULL)
        st->enc = st->dec = NULL; /* both or neither */
    st->magic = XTS_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_xts_clear(key);
    return err;
}

int aesir_xts_init(aesir_xts_key *key, const uint8_t *k, size_t key_len)
{
    return aesir_xts_init_ex(key, k, key_len, NULL);
}

const char *aesir_xts_engine(const aesir_xts_key *key)
{
    const struct xts_key_state *k = key_state(key);
    return k == NULL ? NULL : ks_of(&k->data)->engine->name;
}

/* ---- data ------------------------------------------------------------ */

/* dst = src * x, through memory: no tweak stays in a register across a
 * call (a callee that saves that register would leave it in its frame:
 * tests/test_residue.c). */
static inline void xts_mul_x16(uint8_t dst[16], const uint8_t src[16])
{
    uint64_t lo = load_le64(src), hi = load_le64(src + 8);
    xts_mul_x(&lo, &hi);
    store_le64(dst, lo);
    store_le64(dst + 8, hi);
}

/*
 * n whole blocks on the generic path: tweaks T_j written a chunk at a
 * time, out = in ^ T, ECB in place on out, out ^= T. t is T_0 on entry
 * and T_n on return. The running tweak lives in t between chunks, not
 * in a register across the engine calls.
 */
static void xts_generic(const struct aesir_key_state *ks, unsigned dir,
                        uint8_t t[16], uint8_t *out, const uint8_t *in,
                        size_t n)
{
    uint8_t tw[16 * XTS_CHUNK];
    size_t most = n < XTS_CHUNK ? n : XTS_CHUNK;

    while (n > 0) {
        size_t k = n < XTS_CHUNK ? n : XTS_CHUNK;
        memcpy(tw, t, 16);
        for (size_t j = 1; j < k; j++)
            xts_mul_x16(tw + 16 * j, tw + 16 * (j - 1));
        xts_mul_x16(t, tw + 16 * (k - 1));
        aesir_xor(out, in, tw, 16 * k);
        if (dir == AESIR_ENCRYPT)
            ks->engine->encrypt(ks->rk_enc, ks->nr, out, out, k);
        else
            ks->engine->decrypt(ks->rk_dec, ks->nr, out, out, k);
        aesir_xor(out, out, tw, 16 * k);
        out += 16 * k, in += 16 * k, n -= k;
    }
    aesir_wipe(tw, 16 * most);
}

/* One block: out = E(in ^ t) ^ t (or D), out may equal in. */
static void xts_block(const struct aesir_key_state *ks, unsigned dir,
                      const uint8_t t[16], uint8_t out[16],
                      const uint8_t in[16])
{
    aesir_xor(out, in, t, 16);
    if (dir == AESIR_ENCRYPT)
        ks->engine->encrypt(ks->rk_enc, ks->nr, out, out, 1);
    else
        ks->engine->decrypt(ks->rk_dec, ks->nr, out, out, 1);
    aesir_xor(out, out, t, 16);
}

/* n whole blocks from tweak t (advanced past them): fused or generic. */
static void xts_blocks(const struct xts_key_state *k, unsigned dir,
                       uint8_t t[16], uint8_t *out, const uint8_t *in, size_t n)
{
    const struct aesir_key_state *ks = ks_of(&k->data);

    if (n == 0)
        return;
    if (dir == AESIR_ENCRYPT && k->enc != NULL)
        k->enc(ks->rk_enc, ks->nr, t, out, in, n);
    else if (dir == AESIR_DECRYPT && k->dec != NULL)
        k->dec(ks->rk_dec, ks->nr, t, out, in, n);
    else
        xts_generic(ks, dir, t, out, in, n);
}

/*
 * One data unit of len bytes (checked: 16 .. AESIR_XTS_MAX_BYTES) under
 * the encrypted tweak t (overwritten). Stealing per IEEE 1619 5.3.2 and
 * 5.4.2: in place, the short last block is read before it is written.
 */
static void xts_unit(const struct xts_key_state *k, unsigned dir, uint8_t t[16],
                     uint8_t *out, const uint8_t *in, size_t len)
{
    const struct aesir_key_state *ks = ks_of(&k->data);
    size_t m = len / 16, b = len % 16;
    uint8_t cc[16], pp[16], t2[16];

    if (b == 0) {
        xts_blocks(k, dir, t, out, in, m);
        return;
    }
    xts_blocks(k, dir, t, out, in, m - 1); /* t = T_(m-1) */
    out += 16 * (m - 1), in += 16 * (m - 1);
    xts_mul_x16(t2, t); /* T_m */
    /* encryption: CC from P_(m-1) with T_(m-1), the pair's last with
     * T_m; decryption: PP from C_(m-1) with T_m, the last with T_(m-1) */
    xts_block(ks, dir, dir == AESIR_ENCRYPT ? t : t2, cc, in);
    memcpy(pp, in + 16, b);         /* P_m (or C_m) before out is written */
    memcpy(pp + b, cc + b, 16 - b); /* || CC[b..15] */
    memcpy(out + 16, cc, b);        /* C_m (or P_m) */
    xts_block(ks, dir, dir == AESIR_ENCRYPT ? t2 : t, out, pp);
    aesir_wipe(cc, sizeof(cc));
    aesir_wipe(pp, sizeof(pp));
    aesir_wipe(t2, sizeof(t2));
}

/* Checks, the tweak's encryption, the unit. */
static int xts_run(const aesir_xts_key *key, unsigned dir,
                   const uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                   size_t len)
{
    const struct xts_key_state *k = key_state(key);
    const struct aesir_key_state *tk;
    uint8_t t[16];

    if (k == NULL)
        return AESIR_E_STATE;
    if (tweak == NULL || out == NULL || in == NULL)
        return AESIR_E_ARGUMENT;
    if (len < 16 || len > AESIR_XTS_MAX_BYTES)
        return AESIR_E_INPUT_LENGTH;
    tk = ks_of(&k->tweak);
    tk->engine->encrypt(tk->rk_enc, tk->nr, t, tweak, 1);
    xts_unit(k, dir, t, out, in, len);
    aesir_wipe(t, sizeof(t));
    return AESIR_OK;
}

int aesir_xts_encrypt(const aesir_xts_key *key, const uint8_t tweak[16],
                      uint8_t *out, const uint8_t *in, size_t len)
{
    return xts_run(key, AESIR_ENCRYPT, tweak, out, in, len);
}

int aesir_xts_decrypt(const aesir_xts_key *key, const uint8_t tweak[16],
                      uint8_t *out, const uint8_t *in, size_t len)
{
    return xts_run(key, AESIR_DECRYPT, tweak, out, in, len);
}

/* The tweak value of a 128-bit sector number lo + 2^64 hi (5.1). */
static void sector_tweak(uint8_t tw[16], uint64_t lo, uint64_t hi)
{
    store_le64(tw, lo);
    store_le64(tw + 8, hi);
}

int aesir_xts_encrypt_sector(const aesir_xts_key *key, uint64_t sector,
                             uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t tw[16];
    sector_tweak(tw, sector, 0);
    return xts_run(key, AESIR_ENCRYPT, tw, out, in, len);
}

int aesir_xts_decrypt_sector(const aesir_xts_key *key, uint64_t sector,
                             uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t tw[16];
    sector_tweak(tw, sector, 0);
    return xts_run(key, AESIR_DECRYPT, tw, out, in, len);
}

/* Consecutive units; every check made before the first is written. */
static int xts_sectors(const aesir_xts_key *key, unsigned dir, uint64_t first,
                       size_t size, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct xts_key_state *k = key_state(key);
    const struct aesir_key_state *tk;
    uint64_t hi = 0;
    uint8_t tw[16], t[16];

    if (k == NULL)
        return AESIR_E_STATE;
    if (len != 0 && (out == NULL || in == NULL))
        return AESIR_E_ARGUMENT;
    if (size < 16 || size > AESIR_XTS_MAX_BYTES || len % size != 0)
        return AESIR_E_INPUT_LENGTH;
    tk = ks_of(&k->tweak);
    for (; len > 0; len -= size, out += size, in += size) {
        sector_tweak(tw, first, hi);
        tk->engine->encrypt(tk->rk_enc, tk->nr, t, tw, 1);
        xts_unit(k, dir, t, out, in, size);
        hi += ++first == 0; /* the 128-bit count carries */
    }
    aesir_wipe(t, sizeof(t));
    return AESIR_OK;
}

int aesir_xts_encrypt_sectors(const aesir_xts_key *key, uint64_t first_sector,
                              size_t sector_size, uint8_t *out,
                              const uint8_t *in, size_t len)
{
    return xts_sectors(key, AESIR_ENCRYPT, first_sector, sector_size, out, in,
                       len);
}

int aesir_xts_decrypt_sectors(const aesir_xts_key *key, uint64_t first_sector,
                              size_t sector_size, uint8_t *out,
                              const uint8_t *in, size_t len)
{
    return xts_sectors(key, AESIR_DECRYPT, first_sector, sector_size, out, in,
                       len);
}
