/*
 * peer_openssl.c -- OpenSSL's libcrypto (EVP) as two rows of the tables:
 *
 *   "openssl"          the libcrypto the benchmark is linked with, as it
 *                      configures itself on this CPU (AES-NI, and VAES for
 *                      the modes that have such paths).
 *   "openssl-noaesni"  a second, private copy of the same libcrypto with
 *                      the AES and carry-less-multiply instructions masked
 *                      out of its capability vector, which exposes its
 *                      software paths: vector-permute AES (vpaes, Hamburg
 *                      2009) for most modes and bitsliced AES (bsaes,
 *                      Kasper-Schwabe 2009) for CBC decryption and CTR.
 *
 * Masking. libcrypto reads the OPENSSL_ia32cap environment variable once,
 * when it is loaded (OPENSSL_cpuid_setup runs from its .init section), so
 * both configurations can live in one process only as two copies of the
 * library. The masked copy is loaded with dlmopen(LM_ID_NEWLM) -- a new
 * link-map namespace, hence a copy with its own globals (and its own libc)
 * -- while the variable is set, and the variable is then restored. The
 * value (OPENSSL_ia32cap(3), "~" = clear these bits, ":" separates the
 * 64-bit words) clears, in word 0 (CPUID.1:EDX|ECX<<32), bit 57 AES-NI and
 * bit 33 PCLMULQDQ, and in word 1 (CPUID.7.0:EBX|ECX<<32), bit 41 VAES and
 * bit 42 VPCLMULQDQ. The second word must be given: without it OpenSSL
 * 3.0 zeroes the whole of word 1 (AVX2, AVX-512, BMI...). libcrypto does
 * not export its capability vector, so probe() checks the result the only
 * way it can: the masked copy must be clearly slower than the default one
 * on AES-128 CTR, else it warns.
 *
 * Per message (run()), what a user encrypting a new packet with a keyed
 * context does: EVP_CipherInit_ex(ctx, NULL, NULL, NULL, iv, -1) to load
 * the IV (not for ECB, which has none), then one EVP_CipherUpdate.
 * EVP_CipherFinal_ex is not called: without padding it outputs nothing for
 * these modes and lengths. Ciphers are fetched once (EVP_CIPHER_fetch), as
 * OpenSSL 3 recommends for repeated use.
 *
 * GCM (gcm-enc, gcm-dec, gmac; OpenSSL has no public GHASH, so no
 * ghash): the EVP AEAD calls, see evp_run_gcm().
 *
 * Both copies are driven through the same table of EVP entry points:
 * the linked symbols for "openssl", dlsym() on the private copy for
 * "openssl-noaesni". Link with libcrypto (pkg-config libcrypto) and -ldl.
 */
#define _GNU_SOURCE /* dlmopen, LM_ID_NEWLM, dladdr, setenv */

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "bench.h"

/* AddressSanitizer's runtime lives in the first namespace only; a second
 * libc and libcrypto loaded with dlmopen crash under it (seen: a lock in
 * the private copy landing in ASan's own data). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* AES-NI, PCLMULQDQ : VAES, VPCLMULQDQ -- see the comment at the top. */
#define NOAESNI_CAP "~0x200000200000000:~0x60000000000"

/* The masked copy must be at least this many times slower on CTR. */
#define NOAESNI_MIN_SLOWDOWN 2.0

enum { MODE_ECB, MODE_CBC, MODE_CFB, MODE_OFB, MODE_CTR, MODE_GCM, MODE_COUNT };

/* The EVP entry points a row uses, from one copy of libcrypto. */
struct evp_api {
    EVP_CIPHER *(*cipher_fetch)(OSSL_LIB_CTX *, const char *, const char *);
    EVP_CIPHER_CTX *(*ctx_new)(void);
    void (*ctx_free)(EVP_CIPHER_CTX *);
    int (*init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *,
                const unsigned char *, const unsigned char *, int);
    int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *,
                  const unsigned char *, int);
    int (*set_padding)(EVP_CIPHER_CTX *, int);
    int (*final)(EVP_CIPHER_CTX *, unsigned char *, int *);
    int (*ctrl)(EVP_CIPHER_CTX *, int, int, void *);
};

/* One row: its library copy, fetched ciphers, key-setup scratch. */
struct evp_row {
    const char *name;
    struct evp_api api;
    EVP_CIPHER *cipher[MODE_COUNT][3];
    EVP_CIPHER_CTX *scratch[OP_COUNT][3]; /* for keysetup(), lazily */
};

/* One keyed context: run() re-loads iv into it for every message. */
struct evp_ctx {
    const struct evp_api *api;
    EVP_CIPHER_CTX *c;
    enum bench_op op;
    int has_iv;
    uint8_t iv[16];
    /* issue 19's modes ("openssl" row only) */
    EVP_CIPHER *cipher; /* fetched for this context */
    EVP_MAC *mac;       /* cmac */
    EVP_MAC_CTX *mc;
    uint8_t sivkey[64];
};

static struct evp_row row_default = {.name = "openssl"};
static struct evp_row row_noaesni = {.name = "openssl-noaesni"};

static int op_mode(enum bench_op op)
{
    switch (op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        return MODE_ECB;
    case OP_CBC_ENC:
    case OP_CBC_DEC:
        return MODE_CBC;
    case OP_CFB128_ENC:
    case OP_CFB128_DEC:
        return MODE_CFB;
    case OP_OFB:
        return MODE_OFB;
    case OP_CTR:
        return MODE_CTR;
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GMAC:
        return MODE_GCM; /* no public GHASH: ghash not claimed */
    default:
        return -1;
    }
}

/* 1 to encrypt, 0 to decrypt (EVP's enc argument). */
static int op_encrypts(enum bench_op op)
{
    return op != OP_ECB_DEC && op != OP_CBC_DEC && op != OP_CFB128_DEC &&
           op != OP_GCM_DEC;
}

/* 0, 1, 2 for 128, 192, 256 bits; -1 otherwise. */
static int key_index(unsigned key_bits)
{
    switch (key_bits) {
    case 128:
        return 0;
    case 192:
        return 1;
    case 256:
        return 2;
    default:
        return -1;
    }
}

static void api_linked(struct evp_api *a)
{
    a->cipher_fetch = EVP_CIPHER_fetch;
    a->ctx_new = EVP_CIPHER_CTX_new;
    a->ctx_free = EVP_CIPHER_CTX_free;
    a->init = EVP_CipherInit_ex;
    a->update = EVP_CipherUpdate;
    a->set_padding = EVP_CIPHER_CTX_set_padding;
    a->final = EVP_CipherFinal_ex;
    a->ctrl = EVP_CIPHER_CTX_ctrl;
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

static int api_dlsym(struct evp_api *a, void *h)
{
    return SYM(h, a->cipher_fetch, "EVP_CIPHER_fetch") &&
           SYM(h, a->ctx_new, "EVP_CIPHER_CTX_new") &&
           SYM(h, a->ctx_free, "EVP_CIPHER_CTX_free") &&
           SYM(h, a->init, "EVP_CipherInit_ex") &&
           SYM(h, a->update, "EVP_CipherUpdate") &&
           SYM(h, a->set_padding, "EVP_CIPHER_CTX_set_padding") &&
           SYM(h, a->final, "EVP_CipherFinal_ex") &&
           SYM(h, a->ctrl, "EVP_CIPHER_CTX_ctrl");
}

static int fetch_ciphers(struct evp_row *r)
{
    static const char *const mode_name[MODE_COUNT] = {"ECB", "CBC", "CFB",
                                                      "OFB", "CTR", "GCM"};
    static const unsigned bits[3] = {128, 192, 256};
    char name[32];

    for (int m = 0; m < MODE_COUNT; m++) {
        for (int k = 0; k < 3; k++) {
            snprintf(name, sizeof name, "AES-%u-%s", bits[k], mode_name[m]);
            r->cipher[m][k] = r->api.cipher_fetch(NULL, name, NULL);
            if (r->cipher[m][k] == NULL) {
                fprintf(stderr, "%s: cannot fetch %s\n", r->name, name);
                return 0;
            }
        }
    }
    return 1;
}

/* Path of the libcrypto this program is linked with, so that the private
 * copy is the very same file; the soname when that cannot be found. */
static const char *linked_path(void)
{
    Dl_info info;
    void *p = dlsym(RTLD_DEFAULT, "EVP_CipherUpdate");

    /* Not when linked statically: the "library" would be the program. */
    if (p != NULL && dladdr(p, &info) != 0 && info.dli_fname != NULL &&
        strstr(info.dli_fname, "libcrypto") != NULL)
        return info.dli_fname;
    return "libcrypto.so.3";
}

/* Loads the masked private copy; NULL (and a message) on failure. */
static void *load_masked(void)
{
    const char *old = getenv("OPENSSL_ia32cap");
    char *saved = old != NULL ? strdup(old) : NULL;
    const char *path = linked_path();
    void *h;

    if (old != NULL && saved == NULL)
        return NULL;
    if (setenv("OPENSSL_ia32cap", NOAESNI_CAP, 1) != 0) {
        free(saved);
        return NULL;
    }
    h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        fprintf(stderr, "openssl-noaesni: dlmopen(%s): %s\n", path, dlerror());
    if (saved != NULL)
        setenv("OPENSSL_ia32cap", saved, 1);
    else
        unsetenv("OPENSSL_ia32cap");
    free(saved);
    return h;
}

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* Best time in ns of one 16 KiB AES-128 CTR message through ctx. */
static double ctr_message_ns(const struct evp_api *a, EVP_CIPHER_CTX *ctx,
                             const uint8_t iv[16], uint8_t *buf, size_t len)
{
    double best = 1e30;
    int n;

    for (int i = 0; i < 16; i++) {
        double t = now_ns();
        a->init(ctx, NULL, NULL, NULL, iv, -1);
        a->update(ctx, buf, &n, buf, (int)len);
        t = now_ns() - t;
        if (t < best)
            best = t;
    }
    return best;
}

/*
 * The masked copy must run a different (software) code path: compare it
 * with the linked copy on AES-128 CTR, interleaved, best of several
 * messages each, a millisecond or so in all. A warning only: the row
 * still measures what OpenSSL does with that capability vector.
 */
static void check_masking(const struct evp_row *masked)
{
    static const uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    static const uint8_t iv[16] = {0};
    const size_t len = 16384;
    struct evp_api lin;
    EVP_CIPHER *c_lin;
    EVP_CIPHER_CTX *x_lin = NULL, *x_msk = NULL;
    uint8_t *buf = calloc(1, len);
    double t_lin = 1e30, t_msk = 1e30;

    api_linked(&lin);
    c_lin = EVP_CIPHER_fetch(NULL, "AES-128-CTR", NULL);
    if (buf == NULL || c_lin == NULL)
        goto out;
    x_lin = lin.ctx_new();
    x_msk = masked->api.ctx_new();
    if (x_lin == NULL || x_msk == NULL ||
        !lin.init(x_lin, c_lin, NULL, key, iv, 1) ||
        !masked->api.init(x_msk, masked->cipher[MODE_CTR][0], NULL, key, iv, 1))
        goto out;
    for (int round = 0; round < 4; round++) {
        double a = ctr_message_ns(&lin, x_lin, iv, buf, len);
        double b = ctr_message_ns(&masked->api, x_msk, iv, buf, len);
        t_lin = a < t_lin ? a : t_lin;
        t_msk = b < t_msk ? b : t_msk;
    }
    if (t_msk < NOAESNI_MIN_SLOWDOWN * t_lin)
        fprintf(stderr,
                "openssl-noaesni: WARNING: masking OPENSSL_ia32cap (%s) "
                "seems to have no effect: AES-128 CTR 16 KiB takes %.0f ns "
                "masked vs %.0f ns default (expected >= %.0fx slower)\n",
                NOAESNI_CAP, t_msk, t_lin, NOAESNI_MIN_SLOWDOWN);
out:
    if (x_msk != NULL)
        masked->api.ctx_free(x_msk);
    if (x_lin != NULL)
        lin.ctx_free(x_lin);
    EVP_CIPHER_free(c_lin);
    free(buf);
}

static int probe_default(void)
{
    const char *cap = getenv("OPENSSL_ia32cap");

    if (cap != NULL)
        fprintf(stderr,
                "openssl: note: OPENSSL_ia32cap=%s is set in the "
                "environment and applies to this row\n",
                cap);
    api_linked(&row_default.api);
    return fetch_ciphers(&row_default);
}

static int probe_noaesni(void)
{
    void *h;

#ifdef UNDER_ASAN
    fprintf(stderr, "openssl-noaesni: not available in an AddressSanitizer "
                    "build (it needs a second libcrypto via dlmopen)\n");
    return 0;
#endif
    h = load_masked();
    if (h == NULL)
        return 0;
    if (!api_dlsym(&row_noaesni.api, h)) {
        fprintf(stderr, "openssl-noaesni: missing EVP symbols: %s\n",
                dlerror());
        return 0; /* the handle stays: its namespace cannot be reused */
    }
    if (!fetch_ciphers(&row_noaesni))
        return 0;
    check_masking(&row_noaesni);
    return 1;
}

static int evp_supports(enum bench_op op, unsigned key_bits)
{
    return op_mode(op) >= 0 && key_index(key_bits) >= 0;
}

static void evp_release(void *p)
{
    struct evp_ctx *x = p;

    if (x == NULL)
        return;
    if (x->c != NULL)
        x->api->ctx_free(x->c); /* EVP_CIPHER_CTX_free wipes the keys */
    OPENSSL_cleanse(x->sivkey, sizeof(x->sivkey));
    EVP_MAC_CTX_free(x->mc);
    EVP_MAC_free(x->mac);
    EVP_CIPHER_free(x->cipher);
    free(x);
}

/*
 * Issue 19's modes, on the "openssl" row (the linked libcrypto; the
 * masked copy keeps to the block modes and GCM). OpenSSL 3.0 has XTS
 * (AES-128 and AES-256), OCB, CCM, CMAC (EVP_MAC), KW (AES-*-WRAP) and
 * AES-SIV; no GCM-SIV, AEGIS, XAES or multi-message CMAC. Per message,
 * what a user with a keyed context does (bench.h's conventions):
 *   xts:  the tweak loaded (EVP_CipherInit_ex with only an IV), one
 *         EVP_CipherUpdate over the data unit.
 *   ocb:  IV re-loaded, Update, Final, GET_TAG (enc); SET_TAG, Update,
 *         Final, which fails on a bad tag (dec). 12-byte nonce, 16-byte
 *         tag: OCB's defaults in OpenSSL.
 *   ccm:  12-byte nonce (SET_IVLEN) and 16-byte tag (SET_TAG) set at
 *         setup; per message the IV, (dec: the tag,) the total length
 *         (Update with no data, as CCM needs it first), Update, (enc:
 *         Final and GET_TAG). A bad tag fails the Update.
 *   cmac: EVP_MAC "CMAC" over AES-<n>-CBC; EVP_MAC_init with no key
 *         restarts with the key set up, Update, Final.
 *   kw:   AES-<n>-WRAP (RFC 3394, default ICV); one Update wraps or
 *         unwraps the whole message, failing on an integrity error.
 *   siv:  AES-<n>-SIV (RFC 5297), the 16-byte iv as the one AAD string
 *         (Update with no output), then the message; V from GET_TAG (enc)
 *         or set with SET_TAG (dec, where the Update fails on a bad V).
 *         OpenSSL 3.0's SIV cannot restart a keyed context without the
 *         key (measured: after one message, EVP_CipherInit_ex with no key
 *         leaves the context unusable -- the next Update fails), so each
 *         message re-keys with EVP_CipherInit_ex, as a user of this API
 *         must; the two key schedules are in its figure.
 */
static const char *evp_mode19(enum bench_op op, unsigned key_bits)
{
    switch (op) {
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return key_bits == 128   ? "AES-128-XTS"
               : key_bits == 256 ? "AES-256-XTS"
                                 : NULL;
    case OP_OCB_ENC:
    case OP_OCB_DEC:
        return key_bits == 128   ? "AES-128-OCB"
               : key_bits == 192 ? "AES-192-OCB"
                                 : "AES-256-OCB";
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return key_bits == 128   ? "AES-128-CCM"
               : key_bits == 192 ? "AES-192-CCM"
                                 : "AES-256-CCM";
    case OP_CMAC:
        return key_bits == 128   ? "AES-128-CBC"
               : key_bits == 192 ? "AES-192-CBC"
                                 : "AES-256-CBC";
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        return key_bits == 128   ? "AES-128-WRAP"
               : key_bits == 192 ? "AES-192-WRAP"
                                 : "AES-256-WRAP";
    case OP_SIV_ENC:
    case OP_SIV_DEC:
        return key_bits == 128   ? "AES-128-SIV"
               : key_bits == 192 ? "AES-192-SIV"
                                 : "AES-256-SIV";
    default:
        return NULL;
    }
}

static int evp_supports_default(enum bench_op op, unsigned key_bits)
{
    if (bench_op_is_mode19(op))
        return key_index(key_bits) >= 0 && evp_mode19(op, key_bits) != NULL;
    return op_mode(op) >= 0 && key_index(key_bits) >= 0;
}

static int mode19_encrypts(enum bench_op op)
{
    return bench_op_enc_of(op) < 0;
}

static void *evp_setup_mode19(struct evp_row *r, enum bench_op op,
                              const uint8_t *key, unsigned key_bits,
                              const uint8_t iv[16])
{
    const char *name = evp_mode19(op, key_bits);
    struct evp_ctx *x;
    uint8_t k2[64];
    int enc = mode19_encrypts(op);

    if (name == NULL || (x = calloc(1, sizeof *x)) == NULL)
        return NULL;
    x->api = &r->api;
    x->op = op;
    memcpy(x->iv, iv, 16);
    if (op == OP_XTS_ENC || op == OP_XTS_DEC) {
        bench_op_key(key, key_bits, k2, 2 * key_bits / 8);
        bench_xts_tweak(iv, x->iv);
        key = k2;
    } else if (op == OP_SIV_ENC || op == OP_SIV_DEC) {
        bench_op_key(key, key_bits, k2, 2 * key_bits / 8);
        key = k2;
    }
    if (op == OP_CMAC) {
        OSSL_PARAM params[2];
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER,
                                                     (char *)name, 0);
        params[1] = OSSL_PARAM_construct_end();
        x->mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
        if (x->mac == NULL || (x->mc = EVP_MAC_CTX_new(x->mac)) == NULL ||
            !EVP_MAC_init(x->mc, key, key_bits / 8, params))
            goto fail;
        return x;
    }
    x->cipher = EVP_CIPHER_fetch(NULL, name, NULL);
    x->c = EVP_CIPHER_CTX_new();
    if (x->cipher == NULL || x->c == NULL)
        goto fail;
    EVP_CIPHER_CTX_set_flags(x->c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (!EVP_CipherInit_ex(x->c, x->cipher, NULL, NULL, NULL, enc))
        goto fail;
    if ((op == OP_CCM_ENC || op == OP_CCM_DEC) &&
        (!EVP_CIPHER_CTX_ctrl(x->c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) ||
         !EVP_CIPHER_CTX_ctrl(x->c, EVP_CTRL_AEAD_SET_TAG, 16, NULL)))
        goto fail;
    if (!EVP_CipherInit_ex(x->c, NULL, NULL, key,
                           op == OP_KW_WRAP || op == OP_KW_UNWRAP ||
                                   op == OP_SIV_ENC || op == OP_SIV_DEC
                               ? NULL
                               : x->iv,
                           enc))
        goto fail;
    /* SIV re-keys per message: keep the key in the context */
    if (op == OP_SIV_ENC || op == OP_SIV_DEC)
        memcpy(x->sivkey, k2, 2 * key_bits / 8);
    return x;
fail:
    evp_release(x);
    return NULL;
}

static int evp_run_mode19(struct evp_ctx *x, uint8_t *out, const uint8_t *in,
                          size_t len)
{
    EVP_CIPHER_CTX *c = x->c;
    uint8_t tag[16];
    int n = 0, m = 0;

    switch (x->op) {
    case OP_CMAC: {
        size_t t = 0;
        if (!EVP_MAC_init(x->mc, NULL, 0, NULL) ||
            !EVP_MAC_update(x->mc, in, len) ||
            !EVP_MAC_final(x->mc, out, &t, 16))
            return -1;
        return t == 16 ? 0 : -1;
    }
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, x->iv, -1) ||
            !EVP_CipherUpdate(c, out, &n, in, (int)len))
            return -1;
        return (size_t)n == len ? 0 : -1;
    case OP_OCB_ENC:
        if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, x->iv, -1) ||
            !EVP_CipherUpdate(c, out, &n, in, (int)len) ||
            !EVP_CipherFinal_ex(c, out + n, &m))
            return -1;
        return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out + len)
                   ? 0
                   : -1;
    case OP_OCB_DEC:
        memcpy(tag, in + len, 16);
        if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, x->iv, -1) ||
            !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) ||
            !EVP_CipherUpdate(c, out, &n, in, (int)len))
            return -1;
        return EVP_CipherFinal_ex(c, out + n, &m) > 0 ? 0 : -1;
    case OP_CCM_ENC:
        if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, x->iv, -1) ||
            !EVP_CipherUpdate(c, NULL, &n, NULL, (int)len) ||
            !EVP_CipherUpdate(c, out, &n, in, (int)len) ||
            !EVP_CipherFinal_ex(c, out + n, &m))
            return -1;
        return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out + len)
                   ? 0
                   : -1;
    case OP_CCM_DEC:
        memcpy(tag, in + len, 16);
        if (!EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) ||
            !EVP_CipherInit_ex(c, NULL, NULL, NULL, x->iv, -1) ||
            !EVP_CipherUpdate(c, NULL, &n, NULL, (int)len))
            return -1;
        return EVP_CipherUpdate(c, out, &n, in, (int)len) > 0 ? 0 : -1;
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, NULL, -1) ||
            EVP_CipherUpdate(c, out, &n, in,
                             (int)(x->op == OP_KW_WRAP ? len : len + 8)) <= 0)
            return -1;
        return (size_t)n == (x->op == OP_KW_WRAP ? len + 8 : len) ? 0 : -1;
    case OP_SIV_ENC:
        if (!EVP_CipherInit_ex(c, NULL, NULL, x->sivkey, NULL, -1) ||
            !EVP_CipherUpdate(c, NULL, &n, x->iv, 16) ||
            !EVP_CipherUpdate(c, out + 16, &n, in, (int)len) ||
            !EVP_CipherFinal_ex(c, out + 16 + n, &m))
            return -1;
        return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out) ? 0 : -1;
    case OP_SIV_DEC:
        memcpy(tag, in, 16);
        if (!EVP_CipherInit_ex(c, NULL, NULL, x->sivkey, NULL, -1) ||
            !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) ||
            !EVP_CipherUpdate(c, NULL, &n, x->iv, 16) ||
            EVP_CipherUpdate(c, out, &n, in + 16, (int)len) <= 0)
            return -1;
        return EVP_CipherFinal_ex(c, out + n, &m) > 0 ? 0 : -1;
    default:
        return -1;
    }
}

static void *evp_setup(struct evp_row *r, enum bench_op op, const uint8_t *key,
                       unsigned key_bits, const uint8_t iv[16])
{
    int m = op_mode(op), k = key_index(key_bits);
    struct evp_ctx *x;

    if (m < 0 || k < 0 || r->cipher[m][k] == NULL)
        return NULL;
    x = calloc(1, sizeof *x);
    if (x == NULL)
        return NULL;
    x->api = &r->api;
    x->op = op;
    x->has_iv = m != MODE_ECB; /* GCM: the first 12 bytes (the default) */
    if (iv != NULL)
        memcpy(x->iv, iv, 16);
    x->c = r->api.ctx_new();
    if (x->c == NULL ||
        !r->api.init(x->c, r->cipher[m][k], NULL, key, x->has_iv ? x->iv : NULL,
                     op_encrypts(op)) ||
        !r->api.set_padding(x->c, 0)) {
        evp_release(x);
        return NULL;
    }
    return x;
}

/*
 * GCM, per message: the IV re-loaded (which restarts GCM), then
 *   gcm-enc: EVP_CipherUpdate, EVP_CipherFinal_ex, EVP_CTRL_AEAD_GET_TAG;
 *   gcm-dec: EVP_CTRL_AEAD_SET_TAG, EVP_CipherUpdate, EVP_CipherFinal_ex
 *            (which fails when the tag does not verify);
 *   gmac:    EVP_CipherUpdate with a NULL output (AAD), Final, GET_TAG.
 */
static int evp_run_gcm(struct evp_ctx *x, uint8_t *out, const uint8_t *in,
                       size_t len)
{
    const struct evp_api *a = x->api;
    uint8_t tag[16];
    int n = 0, m = 0;

    if (!a->init(x->c, NULL, NULL, NULL, x->iv, -1))
        return -1;
    switch (x->op) {
    case OP_GCM_ENC:
        if (len > 0 && !a->update(x->c, out, &n, in, (int)len))
            return -1;
        if (!a->final(x->c, out + n, &m))
            return -1;
        return a->ctrl(x->c, EVP_CTRL_AEAD_GET_TAG, 16, out + len) ? 0 : -1;
    case OP_GCM_DEC:
        memcpy(tag, in + len, 16);
        if (!a->ctrl(x->c, EVP_CTRL_AEAD_SET_TAG, 16, tag))
            return -1;
        if (len > 0 && !a->update(x->c, out, &n, in, (int)len))
            return -1;
        return a->final(x->c, out + n, &m) > 0 ? 0 : -1;
    default: /* OP_GMAC */
        if (len > 0 && !a->update(x->c, NULL, &n, in, (int)len))
            return -1;
        if (!a->final(x->c, tag, &m))
            return -1;
        return a->ctrl(x->c, EVP_CTRL_AEAD_GET_TAG, 16, out) ? 0 : -1;
    }
}

static int evp_run(void *p, uint8_t *out, const uint8_t *in, size_t len)
{
    struct evp_ctx *x = p;
    int n = 0;

    if (len > INT_MAX - 64)
        return -1;
    if (bench_op_is_mode19(x->op))
        return evp_run_mode19(x, out, in, len);
    if (bench_op_is_gcm(x->op))
        return evp_run_gcm(x, out, in, len);
    /* A new packet: the IV given at setup, counter/feedback position
     * reset; key and direction (-1) unchanged. */
    if (x->has_iv && !x->api->init(x->c, NULL, NULL, NULL, x->iv, -1))
        return -1;
    if (!x->api->update(x->c, out, &n, in, (int)len) || (size_t)n != len)
        return -1;
    return 0;
}

/* Key setup alone: re-keying a context already set up for op's cipher
 * and direction (the EVP call a user makes to change keys). */
static int evp_keysetup(struct evp_row *r, enum bench_op op, const uint8_t *key,
                        unsigned key_bits)
{
    int m = op_mode(op), k = key_index(key_bits);
    EVP_CIPHER_CTX **s;

    if (m < 0 || k < 0 || r->cipher[m][k] == NULL)
        return -1;
    s = &r->scratch[op][k];
    if (*s == NULL) {
        *s = r->api.ctx_new();
        if (*s == NULL)
            return -1;
        if (!r->api.init(*s, r->cipher[m][k], NULL, NULL, NULL,
                         op_encrypts(op))) {
            r->api.ctx_free(*s);
            *s = NULL;
            return -1;
        }
    }
    return r->api.init(*s, NULL, NULL, key, NULL, -1) ? 0 : -1;
}

static void *setup_default(enum bench_op op, const uint8_t *key,
                           unsigned key_bits, const uint8_t iv[16])
{
    if (bench_op_is_mode19(op))
        return evp_setup_mode19(&row_default, op, key, key_bits, iv);
    return evp_setup(&row_default, op, key, key_bits, iv);
}

static void *setup_noaesni(enum bench_op op, const uint8_t *key,
                           unsigned key_bits, const uint8_t iv[16])
{
    return evp_setup(&row_noaesni, op, key, key_bits, iv);
}

static int keysetup_default(enum bench_op op, const uint8_t *key,
                            unsigned key_bits)
{
    return evp_keysetup(&row_default, op, key, key_bits);
}

static int keysetup_noaesni(enum bench_op op, const uint8_t *key,
                            unsigned key_bits)
{
    return evp_keysetup(&row_noaesni, op, key, key_bits);
}

static const struct bench_impl impl_default = {
    .name = "openssl",
    .group = "peer",
    .probe = probe_default,
    .supports = evp_supports_default,
    .setup = setup_default,
    .run = evp_run,
    .release = evp_release,
    .keysetup = keysetup_default,
};

static const struct bench_impl impl_noaesni = {
    .name = "openssl-noaesni",
    .group = "peer",
    .probe = probe_noaesni,
    .supports = evp_supports,
    .setup = setup_noaesni,
    .run = evp_run,
    .release = evp_release,
    .keysetup = keysetup_noaesni,
};

void bench_register_openssl(bench_add_fn add)
{
    add(&impl_default);
    add(&impl_noaesni);
}
