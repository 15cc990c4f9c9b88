/*
 * peer_gcrypt.c -- libgcrypt as two rows of the tables:
 *
 *   "gcrypt"       the libgcrypt the benchmark is linked with, using every
 *                  hardware feature it detects (AES-NI; VAES with AVX2
 *                  for its CTR, CBC-decryption and CFB-decryption bulk
 *                  paths).
 *   "gcrypt-nohw"  a second, private copy of the same library with its
 *                  crypto-instruction features disabled: intel-aesni,
 *                  intel-vaes-vpclmul, intel-pclmul and intel-shaext. The
 *                  SIMD features stay, so AES runs on its SSSE3
 *                  vector-permute implementation (Hamburg 2009), the
 *                  counterpart of openssl-noaesni. (Disabling intel-ssse3
 *                  too would give its table-based amd64 assembly.)
 *
 * Masking. Features can be disabled only before the library initialises
 * (GCRYCTL_DISABLE_HWF before gcry_check_version), and once per process,
 * so the masked row is a second copy of the library loaded with
 * dlmopen(LM_ID_NEWLM) -- a new link-map namespace with its own globals
 * (and its own libgpg-error and libc). probe() then reads the copy's
 * "hwflist" (gcry_get_config) and drops the row if a disabled feature is
 * still listed.
 *
 * Per message (run()): gcry_cipher_setiv (gcry_cipher_setctr for CTR) to
 * start a new packet with the IV given at setup -- which also resets the
 * CFB/OFB/CTR position within a block -- then one gcry_cipher_encrypt or
 * gcry_cipher_decrypt. ECB has no IV.
 *
 * GCM (gcm-enc, gcm-dec, gmac; no public GHASH, so no ghash): see
 * gc_run_gcm().
 *
 * Both copies are driven through the same table of entry points: the
 * linked symbols for "gcrypt", dlsym() on the private copy for
 * "gcrypt-nohw". Link with libgcrypt (pkg-config libgcrypt) and -ldl.
 */
#define _GNU_SOURCE /* dlmopen, LM_ID_NEWLM, dladdr */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

#include "bench.h"

/* Hardware features the "gcrypt-nohw" copy disables, by libgcrypt's names
 * (gcry_control(GCRYCTL_PRINT_CONFIG) lists those found, "hwflist"). */
static const char *const nohw_features[] = {
    "intel-aesni",
    "intel-vaes-vpclmul",
    "intel-pclmul",
    "intel-shaext",
};
#define NOHW_COUNT (sizeof nohw_features / sizeof nohw_features[0])

/* The libgcrypt entry points a row uses, from one copy of the library. */
struct gc_api {
    const char *(*check_version)(const char *);
    gcry_error_t (*control)(enum gcry_ctl_cmds, ...);
    gcry_error_t (*open)(gcry_cipher_hd_t *, int, int, unsigned int);
    void (*close)(gcry_cipher_hd_t);
    gcry_error_t (*setkey)(gcry_cipher_hd_t, const void *, size_t);
    gcry_error_t (*setiv)(gcry_cipher_hd_t, const void *, size_t);
    gpg_error_t (*setctr)(gcry_cipher_hd_t, const void *, size_t);
    gcry_error_t (*encrypt)(gcry_cipher_hd_t, void *, size_t, const void *,
                            size_t);
    gcry_error_t (*decrypt)(gcry_cipher_hd_t, void *, size_t, const void *,
                            size_t);
    char *(*get_config)(int, const char *);
    void (*free)(void *);
    gcry_error_t (*authenticate)(gcry_cipher_hd_t, const void *, size_t);
    gcry_error_t (*gettag)(gcry_cipher_hd_t, void *, size_t);
    gcry_error_t (*checktag)(gcry_cipher_hd_t, const void *, size_t);
    gcry_error_t (*ctl)(gcry_cipher_hd_t, int, void *, size_t);
};

/* One row: its library copy and the key-setup scratch handles. */
struct gc_row {
    struct gc_api api;
    gcry_cipher_hd_t scratch[3];     /* ECB, per key size, for keysetup() */
    gcry_cipher_hd_t gcm_scratch[3]; /* GCM, per key size, for keysetup() */
};

/* One keyed handle: run() restarts it at iv for every message. */
struct gc_ctx {
    const struct gc_api *api;
    gcry_cipher_hd_t h;
    enum bench_op op;
    uint8_t iv[16];
    gcry_mac_hd_t mh; /* cmac */
};

static struct gc_row row_default;
static struct gc_row row_nohw;

/* GCRY_CIPHER_MODE_* of op; 0 when unsupported. */
static int op_mode(enum bench_op op)
{
    switch (op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        return GCRY_CIPHER_MODE_ECB;
    case OP_CBC_ENC:
    case OP_CBC_DEC:
        return GCRY_CIPHER_MODE_CBC;
    case OP_CFB128_ENC:
    case OP_CFB128_DEC:
        return GCRY_CIPHER_MODE_CFB;
    case OP_OFB:
        return GCRY_CIPHER_MODE_OFB;
    case OP_CTR:
        return GCRY_CIPHER_MODE_CTR;
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GMAC:
        return GCRY_CIPHER_MODE_GCM; /* no public GHASH: no ghash */
    default:
        return 0;
    }
}

static int op_decrypts(enum bench_op op)
{
    return op == OP_ECB_DEC || op == OP_CBC_DEC || op == OP_CFB128_DEC ||
           op == OP_GCM_DEC;
}

/* GCRY_CIPHER_AES* of key_bits; 0 when unsupported. */
static int key_algo(unsigned key_bits)
{
    switch (key_bits) {
    case 128:
        return GCRY_CIPHER_AES128;
    case 192:
        return GCRY_CIPHER_AES192;
    case 256:
        return GCRY_CIPHER_AES256;
    default:
        return 0;
    }
}

static void api_linked(struct gc_api *a)
{
    a->check_version = gcry_check_version;
    a->control = gcry_control;
    a->open = gcry_cipher_open;
    a->close = gcry_cipher_close;
    a->setkey = gcry_cipher_setkey;
    a->setiv = gcry_cipher_setiv;
    a->setctr = gcry_cipher_setctr;
    a->encrypt = gcry_cipher_encrypt;
    a->decrypt = gcry_cipher_decrypt;
    a->get_config = gcry_get_config;
    a->free = gcry_free;
    a->authenticate = gcry_cipher_authenticate;
    a->gettag = gcry_cipher_gettag;
    a->checktag = gcry_cipher_checktag;
    a->ctl = gcry_cipher_ctl;
}

/* dlsym into a function pointer without converting between object and
 * function pointers in C (POSIX guarantees the representation). */
static int sym(void *h, const char *name, void *fnptr, size_t size)
{
    void *p = dlsym(h, name);

    if (p == NULL || size != sizeof p)
        return 0;
    memcpy(fnptr, &p, size);
    return 1;
}

#define SYM(h, field, name) sym((h), (name), &(field), sizeof(field))

static int api_dlsym(struct gc_api *a, void *h)
{
    return SYM(h, a->check_version, "gcry_check_version") &&
           SYM(h, a->control, "gcry_control") &&
           SYM(h, a->open, "gcry_cipher_open") &&
           SYM(h, a->close, "gcry_cipher_close") &&
           SYM(h, a->setkey, "gcry_cipher_setkey") &&
           SYM(h, a->setiv, "gcry_cipher_setiv") &&
           SYM(h, a->setctr, "gcry_cipher_setctr") &&
           SYM(h, a->encrypt, "gcry_cipher_encrypt") &&
           SYM(h, a->decrypt, "gcry_cipher_decrypt") &&
           SYM(h, a->get_config, "gcry_get_config") &&
           SYM(h, a->free, "gcry_free") &&
           SYM(h, a->authenticate, "gcry_cipher_authenticate") &&
           SYM(h, a->gettag, "gcry_cipher_gettag") &&
           SYM(h, a->checktag, "gcry_cipher_checktag") &&
           SYM(h, a->ctl, "gcry_cipher_ctl");
}

/* The initialisation every libgcrypt application does; no secure memory
 * is needed for benchmarking. */
static int gc_init(const struct gc_api *a, const char *row)
{
    if (a->check_version(GCRYPT_VERSION) == NULL) {
        fprintf(stderr, "%s: libgcrypt older than the headers (%s)\n", row,
                GCRYPT_VERSION);
        return 0;
    }
    a->control(GCRYCTL_DISABLE_SECMEM, 0);
    a->control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return 1;
}

/* Path of the libgcrypt this program is linked with, so that the private
 * copy is the very same file; the soname when that cannot be found. */
static const char *linked_path(void)
{
    Dl_info info;
    void *p = dlsym(RTLD_DEFAULT, "gcry_check_version");

    /* Not when linked statically: the "library" would be the program. */
    if (p != NULL && dladdr(p, &info) != 0 && info.dli_fname != NULL &&
        strstr(info.dli_fname, "libgcrypt") != NULL)
        return info.dli_fname;
    return "libgcrypt.so.20";
}

/* Non-zero when the copy's hwflist names none of nohw_features. */
static int check_masking(const struct gc_api *a)
{
    char *list = a->get_config(0, "hwflist");
    int ok = list != NULL;

    for (size_t i = 0; ok && i < NOHW_COUNT; i++) {
        /* Entries are ':'-separated: "hwflist:intel-cpu:...:". */
        size_t n = strlen(nohw_features[i]);
        for (const char *p = strstr(list, nohw_features[i]); p != NULL;
             p = strstr(p + 1, nohw_features[i])) {
            if (p > list && p[-1] == ':' &&
                (p[n] == ':' || p[n] == '\0' || p[n] == '\n')) {
                fprintf(stderr,
                        "gcrypt-nohw: %s is still enabled; row dropped\n",
                        nohw_features[i]);
                ok = 0;
                break;
            }
        }
    }
    if (list == NULL)
        fprintf(stderr, "gcrypt-nohw: cannot read the hwflist\n");
    a->free(list);
    return ok;
}

static int probe_default(void)
{
    api_linked(&row_default.api);
    return gc_init(&row_default.api, "gcrypt");
}

static int probe_nohw(void)
{
    const char *path = linked_path();
    void *h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    struct gc_api *a = &row_nohw.api;

    if (h == NULL) {
        fprintf(stderr, "gcrypt-nohw: dlmopen(%s): %s\n", path, dlerror());
        return 0;
    }
    if (!api_dlsym(a, h)) {
        fprintf(stderr, "gcrypt-nohw: missing symbols: %s\n", dlerror());
        return 0; /* the handle stays: its namespace cannot be reused */
    }
    /* Before gcry_check_version; an unknown name (another libgcrypt
     * version) fails harmlessly, check_masking() has the last word. */
    for (size_t i = 0; i < NOHW_COUNT; i++)
        a->control(GCRYCTL_DISABLE_HWF, nohw_features[i], NULL);
    return gc_init(a, "gcrypt-nohw") && check_masking(a);
}

static int gc_supports(enum bench_op op, unsigned key_bits)
{
    return op_mode(op) != 0 && key_algo(key_bits) != 0;
}

static void gc_release(void *p)
{
    struct gc_ctx *x = p;

    if (x == NULL)
        return;
    if (x->h != NULL)
        x->api->close(x->h); /* wipes the key schedule */
    if (x->mh != NULL)
        gcry_mac_close(x->mh);
    free(x);
}

/*
 * Issue 19's modes, on the "gcrypt" row (the linked library; gcrypt-nohw
 * keeps to the block modes and GCM). libgcrypt 1.10 has XTS, OCB, CCM,
 * GCM-SIV, SIV (AES-CMAC-SIV), KW (GCRY_CIPHER_MODE_AESWRAP) and CMAC
 * (gcry_mac, GCRY_MAC_CMAC_AES). Per message (bench.h's conventions):
 *   xts:     setiv (the 16-byte tweak), one encrypt/decrypt call.
 *   ocb, gcm-siv:  (gcm-siv: reset, as it takes no second IV without
 *            one,) setiv (12 bytes; restarts the mode), final (the next
 *            call is the last), encrypt + gettag, or (gcm-siv:
 *            SET_DECRYPTION_TAG,) decrypt + checktag.
 *   ccm:     setiv (12), SET_CCM_LENGTHS (message, 0 AAD, 16-byte tag),
 *            encrypt + gettag or decrypt + checktag.
 *   siv:     reset (the key stays), authenticate (the iv: one AAD string),
 *            (dec: SET_DECRYPTION_TAG with V,) final, encrypt + gettag
 *            (V) or decrypt + checktag.
 *   kw:      one encrypt (wrap: len + 8 bytes out) or decrypt (unwrap,
 *            which fails with GPG_ERR_CHECKSUM on an integrity error).
 *   cmac:    gcry_mac_reset, write, read.
 */
static int gc_mode19(enum bench_op op)
{
    switch (op) {
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return GCRY_CIPHER_MODE_XTS;
    case OP_OCB_ENC:
    case OP_OCB_DEC:
        return GCRY_CIPHER_MODE_OCB;
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return GCRY_CIPHER_MODE_CCM;
    case OP_GCM_SIV_ENC:
    case OP_GCM_SIV_DEC:
        return GCRY_CIPHER_MODE_GCM_SIV;
    case OP_SIV_ENC:
    case OP_SIV_DEC:
        return GCRY_CIPHER_MODE_SIV;
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        return GCRY_CIPHER_MODE_AESWRAP;
    case OP_CMAC:
        return -1; /* a MAC handle */
    default:
        return 0;
    }
}

static int gc_supports_default(enum bench_op op, unsigned key_bits)
{
    if (bench_op_is_mode19(op))
        return gc_mode19(op) != 0 && key_algo(key_bits) != 0 &&
               bench_op_key_ok(op, key_bits);
    return gc_supports(op, key_bits);
}

static void *gc_setup_mode19(struct gc_row *r, enum bench_op op,
                             const uint8_t *key, unsigned key_bits,
                             const uint8_t iv[16])
{
    int mode = gc_mode19(op), algo = key_algo(key_bits);
    struct gc_ctx *x;
    uint8_t k2[64];
    size_t klen = key_bits / 8;

    if (mode == 0 || algo == 0 || (x = calloc(1, sizeof *x)) == NULL)
        return NULL;
    x->api = &r->api;
    x->op = op;
    memcpy(x->iv, iv, 16);
    if (mode == -1) {
        if (gcry_mac_open(&x->mh, GCRY_MAC_CMAC_AES, 0, NULL) != 0 ||
            gcry_mac_setkey(x->mh, key, klen) != 0) {
            gc_release(x);
            return NULL;
        }
        return x;
    }
    if (mode == GCRY_CIPHER_MODE_XTS || mode == GCRY_CIPHER_MODE_SIV) {
        bench_op_key(key, key_bits, k2, 2 * klen);
        key = k2;
        klen *= 2;
    }
    if (mode == GCRY_CIPHER_MODE_XTS)
        bench_xts_tweak(iv, x->iv);
    if (gcry_cipher_open(&x->h, algo, mode, 0) != 0) {
        x->h = NULL;
        gc_release(x);
        return NULL;
    }
    if (gcry_cipher_setkey(x->h, key, klen) != 0) {
        gc_release(x);
        return NULL;
    }
    return x;
}

static int gc_run_mode19(struct gc_ctx *x, uint8_t *out, const uint8_t *in,
                         size_t len)
{
    gcry_cipher_hd_t h = x->h;
    uint64_t lens[3] = {len, 0, 16};
    size_t n = 16;

    switch (x->op) {
    case OP_CMAC:
        return gcry_mac_reset(x->mh) != 0 ||
                       gcry_mac_write(x->mh, in, len) != 0 ||
                       gcry_mac_read(x->mh, out, &n) != 0 || n != 16
                   ? -1
                   : 0;
    case OP_XTS_ENC:
        return gcry_cipher_setiv(h, x->iv, 16) != 0 ||
                       gcry_cipher_encrypt(h, out, len, in, len) != 0
                   ? -1
                   : 0;
    case OP_XTS_DEC:
        return gcry_cipher_setiv(h, x->iv, 16) != 0 ||
                       gcry_cipher_decrypt(h, out, len, in, len) != 0
                   ? -1
                   : 0;
    case OP_OCB_ENC:
    case OP_GCM_SIV_ENC:
        /* GCM-SIV takes a new IV only after a reset (1.10) */
        if (x->op == OP_GCM_SIV_ENC && gcry_cipher_reset(h) != 0)
            return -1;
        return gcry_cipher_setiv(h, x->iv, 12) != 0 ||
                       gcry_cipher_final(h) != 0 ||
                       gcry_cipher_encrypt(h, out, len, in, len) != 0 ||
                       gcry_cipher_gettag(h, out + len, 16) != 0
                   ? -1
                   : 0;
    case OP_OCB_DEC:
        return gcry_cipher_setiv(h, x->iv, 12) != 0 ||
                       gcry_cipher_final(h) != 0 ||
                       gcry_cipher_decrypt(h, out, len, in, len) != 0 ||
                       gcry_cipher_checktag(h, in + len, 16) != 0
                   ? -1
                   : 0;
    case OP_GCM_SIV_DEC:
        return gcry_cipher_reset(h) != 0 ||
                       gcry_cipher_setiv(h, x->iv, 12) != 0 ||
                       gcry_cipher_set_decryption_tag(h, in + len, 16) != 0 ||
                       gcry_cipher_final(h) != 0 ||
                       gcry_cipher_decrypt(h, out, len, in, len) != 0 ||
                       gcry_cipher_checktag(h, in + len, 16) != 0
                   ? -1
                   : 0;
    case OP_CCM_ENC:
        return gcry_cipher_setiv(h, x->iv, 12) != 0 ||
                       gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, lens,
                                       sizeof lens) != 0 ||
                       gcry_cipher_encrypt(h, out, len, in, len) != 0 ||
                       gcry_cipher_gettag(h, out + len, 16) != 0
                   ? -1
                   : 0;
    case OP_CCM_DEC:
        return gcry_cipher_setiv(h, x->iv, 12) != 0 ||
                       gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, lens,
                                       sizeof lens) != 0 ||
                       gcry_cipher_decrypt(h, out, len, in, len) != 0 ||
                       gcry_cipher_checktag(h, in + len, 16) != 0
                   ? -1
                   : 0;
    case OP_SIV_ENC:
        return gcry_cipher_reset(h) != 0 ||
                       gcry_cipher_authenticate(h, x->iv, 16) != 0 ||
                       gcry_cipher_final(h) != 0 ||
                       gcry_cipher_encrypt(h, out + 16, len, in, len) != 0 ||
                       gcry_cipher_gettag(h, out, 16) != 0
                   ? -1
                   : 0;
    case OP_SIV_DEC:
        return gcry_cipher_reset(h) != 0 ||
                       gcry_cipher_authenticate(h, x->iv, 16) != 0 ||
                       gcry_cipher_set_decryption_tag(h, in, 16) != 0 ||
                       gcry_cipher_final(h) != 0 ||
                       gcry_cipher_decrypt(h, out, len, in + 16, len) != 0 ||
                       gcry_cipher_checktag(h, in, 16) != 0
                   ? -1
                   : 0;
    case OP_KW_WRAP:
        return gcry_cipher_encrypt(h, out, len + 8, in, len) != 0 ? -1 : 0;
    case OP_KW_UNWRAP:
        return gcry_cipher_decrypt(h, out, len, in, len + 8) != 0 ? -1 : 0;
    default:
        return -1;
    }
}

static void *gc_setup(struct gc_row *r, enum bench_op op, const uint8_t *key,
                      unsigned key_bits, const uint8_t iv[16])
{
    int mode = op_mode(op), algo = key_algo(key_bits);
    struct gc_ctx *x;

    if (mode == 0 || algo == 0)
        return NULL;
    x = calloc(1, sizeof *x);
    if (x == NULL)
        return NULL;
    x->api = &r->api;
    x->op = op;
    if (iv != NULL)
        memcpy(x->iv, iv, 16);
    if (r->api.open(&x->h, algo, mode, 0) != 0) {
        x->h = NULL;
        gc_release(x);
        return NULL;
    }
    if (r->api.setkey(x->h, key, key_bits / 8) != 0) {
        gc_release(x);
        return NULL;
    }
    return x;
}

/*
 * GCM, per message: gcry_cipher_setiv with the 12-byte IV (which restarts
 * GCM), gcry_cipher_final (the next call is the last: any length), then
 *   gcm-enc: gcry_cipher_encrypt, gcry_cipher_gettag;
 *   gcm-dec: gcry_cipher_decrypt, gcry_cipher_checktag;
 *   gmac:    gcry_cipher_authenticate (AAD), gcry_cipher_gettag.
 */
static int gc_run_gcm(struct gc_ctx *x, uint8_t *out, const uint8_t *in,
                      size_t len)
{
    const struct gc_api *a = x->api;

    if (a->setiv(x->h, x->iv, 12) != 0)
        return -1;
    if (x->op == OP_GMAC)
        return a->authenticate(x->h, in, len) != 0 ||
                       a->gettag(x->h, out, 16) != 0
                   ? -1
                   : 0;
    if (a->ctl(x->h, GCRYCTL_FINALIZE, NULL, 0) != 0)
        return -1;
    if (x->op == OP_GCM_ENC)
        return a->encrypt(x->h, out, len, in, len) != 0 ||
                       a->gettag(x->h, out + len, 16) != 0
                   ? -1
                   : 0;
    return a->decrypt(x->h, out, len, in, len) != 0 ||
                   a->checktag(x->h, in + len, 16) != 0
               ? -1
               : 0;
}

static int gc_run(void *p, uint8_t *out, const uint8_t *in, size_t len)
{
    struct gc_ctx *x = p;
    const struct gc_api *a = x->api;
    gcry_error_t err = 0;

    if (bench_op_is_gcm(x->op))
        return gc_run_gcm(x, out, in, len);
    if (bench_op_is_mode19(x->op))
        return gc_run_mode19(x, out, in, len);

    /* A new packet: restart at the IV (counter block) given at setup. */
    switch (x->op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        break;
    case OP_CTR:
        err = a->setctr(x->h, x->iv, 16);
        break;
    default:
        err = a->setiv(x->h, x->iv, 16);
        break;
    }
    if (err != 0)
        return -1;
    if (op_decrypts(x->op))
        err = a->decrypt(x->h, out, len, in, len);
    else
        err = a->encrypt(x->h, out, len, in, len);
    return err != 0 ? -1 : 0;
}

/*
 * Key setup alone: gcry_cipher_setkey on an open handle. libgcrypt builds
 * the decryption schedule lazily, on the first decryption after a new
 * key, so for the decrypting ops one block is decrypted too: that is what
 * a user pays before decrypting anything, plus one block. For GCM
 * (gcm-enc) the handle is a GCM one, whose setkey also computes H and the
 * GHASH tables or powers of the row's GHASH code.
 */
static int gc_keysetup(struct gc_row *r, enum bench_op op, const uint8_t *key,
                       unsigned key_bits)
{
    int algo = key_algo(key_bits), gcm = op_mode(op) == GCRY_CIPHER_MODE_GCM;
    gcry_cipher_hd_t *s;
    uint8_t block[16] = {0};

    if (op_mode(op) == 0 || algo == 0)
        return -1;
    s = &(gcm ? r->gcm_scratch : r->scratch)[(key_bits - 128) / 64];
    if (*s == NULL &&
        r->api.open(s, algo, gcm ? GCRY_CIPHER_MODE_GCM : GCRY_CIPHER_MODE_ECB,
                    0) != 0) {
        *s = NULL;
        return -1;
    }
    if (r->api.setkey(*s, key, key_bits / 8) != 0)
        return -1;
    if (op_decrypts(op) &&
        r->api.decrypt(*s, block, sizeof block, block, sizeof block) != 0)
        return -1;
    return 0;
}

static void *setup_default(enum bench_op op, const uint8_t *key,
                           unsigned key_bits, const uint8_t iv[16])
{
    if (bench_op_is_mode19(op))
        return gc_setup_mode19(&row_default, op, key, key_bits, iv);
    return gc_setup(&row_default, op, key, key_bits, iv);
}

static void *setup_nohw(enum bench_op op, const uint8_t *key, unsigned key_bits,
                        const uint8_t iv[16])
{
    return gc_setup(&row_nohw, op, key, key_bits, iv);
}

static int keysetup_default(enum bench_op op, const uint8_t *key,
                            unsigned key_bits)
{
    return gc_keysetup(&row_default, op, key, key_bits);
}

static int keysetup_nohw(enum bench_op op, const uint8_t *key,
                         unsigned key_bits)
{
    return gc_keysetup(&row_nohw, op, key, key_bits);
}

static const struct bench_impl impl_default = {
    .name = "gcrypt",
    .group = "peer",
    .probe = probe_default,
    .supports = gc_supports_default,
    .setup = setup_default,
    .run = gc_run,
    .release = gc_release,
    .keysetup = keysetup_default,
};

static const struct bench_impl impl_nohw = {
    .name = "gcrypt-nohw",
    .group = "peer",
    .probe = probe_nohw,
    .supports = gc_supports,
    .setup = setup_nohw,
    .run = gc_run,
    .release = gc_release,
    .keysetup = keysetup_nohw,
};

void bench_register_gcrypt(bench_add_fn add)
{
    add(&impl_default);
    add(&impl_nohw);
}
