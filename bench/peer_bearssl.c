/*
 * peer_bearssl.c -- BearSSL as two peer rows, one per AES backend:
 *
 *   "bearssl-x86ni"  aes_x86ni: AES-NI instructions (CBC decryption and CTR
 *                    four blocks at a time); only where the CPU has AES-NI
 *                    (br_aes_x86ni_*_get_vtable() returns NULL otherwise).
 *   "bearssl-ct64"   aes_ct64: constant-time bitsliced AES on 64-bit
 *                    integers (Boyar-Peralta S-box), four blocks in
 *                    parallel; portable C, always available.
 *
 * Each row goes through BearSSL's block-cipher classes, as its SSL engine
 * does: a key context set up with vtable->init(), then vtable->run() per
 * message with a fresh copy of the IV (BearSSL updates the IV buffer it is
 * given, so the copy is what makes each message a new packet).
 *
 * Operations: CBC enc/dec and CTR, for 128-, 192- and 256-bit keys. That is
 * all BearSSL's public API offers for AES (plus CTR+CBC-MAC for CCM/EAX):
 * no ECB, CFB or OFB. CCM (issue 19's ccm-enc, ccm-dec) through br_ccm on
 * the backend's ctrcbc class: per message br_ccm_reset (12-byte nonce, no
 * AAD, the length, 16-byte tag), br_ccm_flip, br_ccm_run, then
 * br_ccm_get_tag or br_ccm_check_tag. (The bitsliced block functions are
 * exported from libbearssl but declared only in its private inner.h; CBC with a
 * zero IV is not ECB. Neither is used here.)
 *
 * In place: BearSSL's run() functions encrypt their buffer in place, so
 * run() first copies in to out and then works on out; the copy is part of
 * the timing (a user whose data is not already in the output buffer pays
 * it too).
 *
 * CTR: BearSSL's CTR takes a 12-byte IV and a 32-bit block counter cc
 * (SP 800-38A's standard incrementing function with m = 32): counter
 * block = iv[0..11] || be32(cc). The benchmark's 16-byte counter block maps
 * to iv = its first 12 bytes, cc = its last 4 bytes big-endian. Where a
 * message would wrap the 32-bit counter, bearssl_run_ctr() cuts it there
 * and carries into the 96-bit IV itself, so the row implements the full
 * 128-bit counter; no real message wraps, and the check costs one compare.
 *
 * aes_ct64 note: its contexts hold the compact key schedule; every run()
 * expands it to the bitsliced form first (br_aes_ct64_skey_expand), so that
 * per-message cost is part of the short-message figures, as it is for a
 * BearSSL user.
 *
 * GCM (gcm-enc, gcm-dec, gmac, ghash): br_gcm on the row's CTR class and
 * its GHASH -- x86ni with br_ghash_pclmul (carry-less multiply
 * instructions), ct64 with br_ghash_ctmul64 (constant-time 64-bit integer
 * multiplies) -- as BearSSL's SSL engine pairs them. Per message:
 * br_gcm_reset (12-byte IV), then gcm-enc: the copy, br_gcm_flip,
 * br_gcm_run, br_gcm_get_tag; gcm-dec: the same with br_gcm_check_tag;
 * gmac: br_gcm_aad_inject, br_gcm_flip, br_gcm_get_tag; ghash: the GHASH
 * function alone (br_ghash: y = 0, data zero-padded, no length block)
 * with the context's H.
 *
 * Build: header <bearssl.h> (or <bearssl/bearssl.h>), library -lbearssl
 * (Debian: libbearssl-dev; no pkg-config file).
 */
#include "bench.h"

#include <bearssl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One AES backend of BearSSL: its class instances for the three modes, or
 * NULL where the CPU or the build lacks it. */
struct bearssl_backend {
    const br_block_cbcenc_class *(*cbcenc)(void);
    const br_block_cbcdec_class *(*cbcdec)(void);
    const br_block_ctr_class *(*ctr)(void);
    br_ghash (*ghash)(void); /* 0 when the CPU lacks it */
    /* CTR + CBC-MAC, for CCM (issue 19) */
    const br_block_ctrcbc_class *(*ctrcbc)(void);
};

struct bearssl_ctx {
    union {
        br_aes_gen_cbcenc_keys cbcenc;
        br_aes_gen_cbcdec_keys cbcdec;
        br_aes_gen_ctr_keys ctr;
        br_aes_gen_ctrcbc_keys ctrcbc;
    } keys;
    br_gcm_context gcm; /* the GCM ops, on keys.ctr */
    br_ccm_context ccm; /* ccm-enc, ccm-dec, on keys.ctrcbc */
    br_ghash gh;
    enum bench_op op;
    uint8_t iv[16];
};

static br_ghash bearssl_ctmul64(void)
{
    return br_ghash_ctmul64;
}

static br_ghash bearssl_pclmul(void)
{
    return br_ghash_pclmul_get();
}

static const br_block_cbcenc_class *bearssl_ct64_cbcenc(void)
{
    return &br_aes_ct64_cbcenc_vtable;
}

static const br_block_cbcdec_class *bearssl_ct64_cbcdec(void)
{
    return &br_aes_ct64_cbcdec_vtable;
}

static const br_block_ctr_class *bearssl_ct64_ctr(void)
{
    return &br_aes_ct64_ctr_vtable;
}

static const br_block_ctrcbc_class *bearssl_ct64_ctrcbc(void)
{
    return &br_aes_ct64_ctrcbc_vtable;
}

/*
 * The aes_x86ni class instances, fetched once by the probe: each
 * br_aes_x86ni_*_get_vtable() call executes CPUID, which a hypervisor
 * traps (tens of microseconds per call seen here), and BearSSL's own SSL
 * engine also looks them up once, at configuration time.
 */
static const br_block_cbcenc_class *bearssl_x86ni_cbcenc_vt;
static const br_block_cbcdec_class *bearssl_x86ni_cbcdec_vt;
static const br_block_ctr_class *bearssl_x86ni_ctr_vt;
static const br_block_ctrcbc_class *bearssl_x86ni_ctrcbc_vt;

static const br_block_ctrcbc_class *bearssl_x86ni_ctrcbc(void)
{
    return bearssl_x86ni_ctrcbc_vt;
}

static const br_block_cbcenc_class *bearssl_x86ni_cbcenc(void)
{
    return bearssl_x86ni_cbcenc_vt;
}

static const br_block_cbcdec_class *bearssl_x86ni_cbcdec(void)
{
    return bearssl_x86ni_cbcdec_vt;
}

static const br_block_ctr_class *bearssl_x86ni_ctr(void)
{
    return bearssl_x86ni_ctr_vt;
}

static const struct bearssl_backend bearssl_x86ni = {
    bearssl_x86ni_cbcenc, bearssl_x86ni_cbcdec, bearssl_x86ni_ctr,
    bearssl_pclmul,       bearssl_x86ni_ctrcbc,
};

static const struct bearssl_backend bearssl_ct64 = {
    bearssl_ct64_cbcenc, bearssl_ct64_cbcdec, bearssl_ct64_ctr,
    bearssl_ctmul64,     bearssl_ct64_ctrcbc,
};

static uint32_t bearssl_load32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           (uint32_t)p[3];
}

static int bearssl_supports(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
    return op == OP_CBC_ENC || op == OP_CBC_DEC || op == OP_CTR ||
           bench_op_is_gcm(op) || op == OP_CCM_ENC || op == OP_CCM_DEC;
}

/* bearssl_init_keys -- the key context for op into keys; 0 on success, -1
 * when the backend lacks that mode. */
static int bearssl_init_keys(const struct bearssl_backend *be, void *keys,
                             enum bench_op op, const uint8_t *key,
                             unsigned key_bits)
{
    if (op == OP_CBC_ENC) {
        const br_block_cbcenc_class *vt = be->cbcenc();

        if (vt == NULL)
            return -1;
        vt->init(&((br_aes_gen_cbcenc_keys *)keys)->vtable, key, key_bits / 8);
    } else if (op == OP_CCM_ENC || op == OP_CCM_DEC) {
        const br_block_ctrcbc_class *vt = be->ctrcbc();

        if (vt == NULL)
            return -1;
        vt->init(&((br_aes_gen_ctrcbc_keys *)keys)->vtable, key, key_bits / 8);
    } else if (op == OP_CBC_DEC) {
        const br_block_cbcdec_class *vt = be->cbcdec();

        if (vt == NULL)
            return -1;
        vt->init(&((br_aes_gen_cbcdec_keys *)keys)->vtable, key, key_bits / 8);
    } else {
        const br_block_ctr_class *vt = be->ctr();

        if (vt == NULL)
            return -1;
        vt->init(&((br_aes_gen_ctr_keys *)keys)->vtable, key, key_bits / 8);
    }
    return 0;
}

static void *bearssl_setup(const struct bearssl_backend *be, enum bench_op op,
                           const uint8_t *key, unsigned key_bits,
                           const uint8_t iv[16])
{
    struct bearssl_ctx *c;

    if (!bearssl_supports(op, key_bits))
        return NULL;
    c = aligned_alloc(64, (sizeof(*c) + 63) / 64 * 64);
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof(*c));
    if (bearssl_init_keys(be, &c->keys, bench_op_is_gcm(op) ? OP_CTR : op, key,
                          key_bits) != 0) {
        free(c);
        return NULL;
    }
    if (bench_op_is_gcm(op)) {
        c->gh = be->ghash();
        if (c->gh == 0) {
            free(c);
            return NULL;
        }
        br_gcm_init(&c->gcm, &c->keys.ctr.vtable, c->gh);
    }
    if (op == OP_CCM_ENC || op == OP_CCM_DEC)
        br_ccm_init(&c->ccm, &c->keys.ctrcbc.vtable);
    c->op = op;
    if (iv != NULL)
        memcpy(c->iv, iv, 16);
    return c;
}

/* One key schedule for op; for GCM (gcm-enc) the CTR schedule and
 * br_gcm_init, which computes H = E_K(0) (BearSSL's GHASH functions take
 * H alone: there are no powers or tables to precompute). The GHASH
 * function is looked up once per backend, as a program would keep it
 * (br_ghash_pclmul_get() runs CPUID, which a virtual machine may trap:
 * microseconds, more than the key setup itself). */
static int bearssl_keysetup(const struct bearssl_backend *be, enum bench_op op,
                            const uint8_t *key, unsigned key_bits)
{
    static br_gcm_context gcm; /* the GCM context keeps a pointer to keys */
    static union {
        br_aes_gen_cbcenc_keys cbcenc;
        br_aes_gen_cbcdec_keys cbcdec;
        br_aes_gen_ctr_keys ctr;
    } keys;
    static const struct bearssl_backend *gh_of;
    static br_ghash gh;

    if (!bearssl_supports(op, key_bits) || op == OP_CCM_ENC || op == OP_CCM_DEC)
        return -1;
    if (bench_op_is_gcm(op)) {
        if (gh_of != be) {
            gh = be->ghash();
            gh_of = be;
        }
        if (gh == 0 || bearssl_init_keys(be, &keys, OP_CTR, key, key_bits) != 0)
            return -1;
        br_gcm_init(&gcm, &keys.ctr.vtable, gh);
        return 0;
    }
    return bearssl_init_keys(be, &keys, op, key, key_bits);
}

/*
 * bearssl_run_ctr -- CTR on data (in place) from the 16-byte counter block
 * ctr16, with a 128-bit counter: the message is cut where BearSSL's 32-bit
 * counter would wrap, and the carry goes into the 96-bit IV.
 */
static void bearssl_run_ctr(const br_block_ctr_class *const *vt,
                            const uint8_t ctr16[16], uint8_t *data, size_t len)
{
    uint8_t iv[12];
    uint32_t cc = bearssl_load32be(ctr16 + 12);
    uint64_t room = ((uint64_t)1 << 32) - cc;

    memcpy(iv, ctr16, 12);
    while ((len + 15) / 16 > room) {
        size_t n = (size_t)room * 16;
        int i;

        (*vt)->run(vt, iv, cc, data, n);
        data += n;
        len -= n;
        for (i = 11; i >= 0 && ++iv[i] == 0; i--)
            ;
        cc = 0;
        room = (uint64_t)1 << 32;
    }
    (*vt)->run(vt, iv, cc, data, len);
}

/* The GCM ops, one message each (see the top of the file). */
static int bearssl_run_gcm(struct bearssl_ctx *c, uint8_t *out,
                           const uint8_t *in, size_t len)
{
    if (c->op == OP_GHASH) {
        memset(out, 0, 16);
        c->gh(out, c->gcm.h, in, len);
        return 0;
    }
    br_gcm_reset(&c->gcm, c->iv, 12);
    if (c->op == OP_GMAC) {
        br_gcm_aad_inject(&c->gcm, in, len);
        br_gcm_flip(&c->gcm);
        br_gcm_get_tag(&c->gcm, out);
        return 0;
    }
    if (out != in)
        memcpy(out, in, len);
    br_gcm_flip(&c->gcm);
    br_gcm_run(&c->gcm, c->op == OP_GCM_ENC, out, len);
    if (c->op == OP_GCM_ENC) {
        br_gcm_get_tag(&c->gcm, out + len);
        return 0;
    }
    return br_gcm_check_tag(&c->gcm, in + len) ? 0 : -1;
}

static int bearssl_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct bearssl_ctx *c = ctx;
    uint8_t iv[16];

    if (bench_op_is_gcm(c->op))
        return bearssl_run_gcm(c, out, in, len);
    if (out != in)
        memcpy(out, in, len);
    switch (c->op) {
    case OP_CCM_ENC: /* br_ccm: 12-byte nonce, no AAD, 16-byte tag */
    case OP_CCM_DEC:
        if (!br_ccm_reset(&c->ccm, c->iv, 12, 0, len, 16))
            return -1;
        br_ccm_flip(&c->ccm);
        br_ccm_run(&c->ccm, c->op == OP_CCM_ENC, out, len);
        if (c->op == OP_CCM_ENC) {
            br_ccm_get_tag(&c->ccm, out + len);
            return 0;
        }
        return br_ccm_check_tag(&c->ccm, in + len) ? 0 : -1;
    case OP_CBC_ENC:
        if (len % 16 != 0)
            return -1;
        memcpy(iv, c->iv, 16);
        c->keys.cbcenc.vtable->run(&c->keys.cbcenc.vtable, iv, out, len);
        return 0;
    case OP_CBC_DEC:
        if (len % 16 != 0)
            return -1;
        memcpy(iv, c->iv, 16);
        c->keys.cbcdec.vtable->run(&c->keys.cbcdec.vtable, iv, out, len);
        return 0;
    case OP_CTR:
        bearssl_run_ctr(&c->keys.ctr.vtable, c->iv, out, len);
        return 0;
    default:
        return -1;
    }
}

static void bearssl_release(void *ctx)
{
    struct bearssl_ctx *c = ctx;

    if (c == NULL)
        return;
    memset(c, 0, sizeof(*c));
    free(c);
}

/* ---- bearssl-x86ni ---- */

static int bearssl_x86ni_probe(void)
{
    bearssl_x86ni_cbcenc_vt = br_aes_x86ni_cbcenc_get_vtable();
    bearssl_x86ni_cbcdec_vt = br_aes_x86ni_cbcdec_get_vtable();
    bearssl_x86ni_ctr_vt = br_aes_x86ni_ctr_get_vtable();
    bearssl_x86ni_ctrcbc_vt = br_aes_x86ni_ctrcbc_get_vtable();
    if (bearssl_x86ni_cbcenc_vt == NULL || bearssl_x86ni_cbcdec_vt == NULL ||
        bearssl_x86ni_ctr_vt == NULL) {
        fprintf(stderr, "bearssl-x86ni: BearSSL's aes_x86ni backend is not "
                        "available (no AES-NI on this CPU, or not built)\n");
        return 0;
    }
    return 1;
}

static void *bearssl_x86ni_setup(enum bench_op op, const uint8_t *key,
                                 unsigned key_bits, const uint8_t iv[16])
{
    return bearssl_setup(&bearssl_x86ni, op, key, key_bits, iv);
}

static int bearssl_x86ni_keysetup(enum bench_op op, const uint8_t *key,
                                  unsigned key_bits)
{
    return bearssl_keysetup(&bearssl_x86ni, op, key, key_bits);
}

/* ---- bearssl-ct64 ---- */

static int bearssl_ct64_probe(void)
{
    return 1;
}

static void *bearssl_ct64_setup(enum bench_op op, const uint8_t *key,
                                unsigned key_bits, const uint8_t iv[16])
{
    return bearssl_setup(&bearssl_ct64, op, key, key_bits, iv);
}

static int bearssl_ct64_keysetup(enum bench_op op, const uint8_t *key,
                                 unsigned key_bits)
{
    return bearssl_keysetup(&bearssl_ct64, op, key, key_bits);
}

static const struct bench_impl bearssl_x86ni_impl = {
    .name = "bearssl-x86ni",
    .group = "peer",
    .probe = bearssl_x86ni_probe,
    .supports = bearssl_supports,
    .setup = bearssl_x86ni_setup,
    .run = bearssl_run,
    .release = bearssl_release,
    .keysetup = bearssl_x86ni_keysetup,
};

static const struct bench_impl bearssl_ct64_impl = {
    .name = "bearssl-ct64",
    .group = "peer",
    .probe = bearssl_ct64_probe,
    .supports = bearssl_supports,
    .setup = bearssl_ct64_setup,
    .run = bearssl_run,
    .release = bearssl_release,
    .keysetup = bearssl_ct64_keysetup,
};

void bench_register_bearssl(bench_add_fn add)
{
    add(&bearssl_x86ni_impl);
    add(&bearssl_ct64_impl);
}
