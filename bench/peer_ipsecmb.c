/*
 * peer_ipsecmb.c -- intel-ipsec-mb (Intel Multi-Buffer Crypto for IPsec)
 * as a peer row, "ipsec-mb", through its job API.
 *
 * What a real user does per packet: take a job from the manager
 * (IMB_GET_NEXT_JOB), fill it (cipher mode and direction, expanded keys,
 * src/dst, length, IV; hash IMB_AUTH_NULL), IMB_SUBMIT_JOB, and collect the
 * completed job (from the submit, or from IMB_FLUSH_JOB when the manager
 * kept it queued). One message = one job, submitted and completed in the
 * same run(); its IV is the one given at setup, used afresh.
 *
 * The manager is the library's architecture dispatch: init_mb_mgr_auto()
 * (1.3 and later; earlier versions: the widest init_mb_mgr_<arch> the CPU
 * runs) picks SSE, AVX, AVX2 or AVX-512 code, and within AVX-512 the VAES
 * kernels when the CPU has VAES/VPCLMULQDQ (Ice Lake and later). One manager
 * per context, as one manager per thread in a real program.
 *
 * Operations (version 1.3): ECB enc/dec (IMB_CIPHER_ECB), CBC enc/dec
 * (IMB_CIPHER_CBC), CTR (IMB_CIPHER_CNTR), for 128-, 192- and 256-bit keys.
 * Not supported: CFB128 and OFB -- the library has no CFB or OFB cipher
 * mode; its only CFB code is IMB_AES128_CFB_ONE, a one-block (AES-128 only)
 * helper for the trailing partial block of DOCSIS, not a mode.
 *
 * CTR: a 16-byte IV is the whole initial counter block (a 12-byte IV would
 * get 0x00000001 appended, as in RFC 3686). The library increments only the
 * low 32 bits of it, big-endian, wrapping without carry (measured on 1.3,
 * AVX-512/VAES manager: ...ffffffff is followed by ...00000000 with the
 * upper 96 bits unchanged) -- SP 800-38A's standard incrementing function
 * with m = 32. The benchmark's counter is 128 bits, so ipsecmb_run_ctr()
 * splits a message where the low 32 bits wrap and carries into the upper
 * 96 bits itself; no real message wraps, and the check costs one compare.
 *
 * Length limits (1.3): ECB and CBC encryption take at most 65520 bytes per
 * job (larger: IMB_ERR_JOB_CIPH_LEN); longer messages are cut into several
 * jobs, as a user must (ipsecmb_run_chunked()). CBC decryption and CTR take
 * any length (CTR: any byte length, not only whole blocks).
 *
 * Multi-buffer: the manager keeps many CBC-encryption jobs in flight (one
 * per lane, 16 lanes with VAES/AVX-512) and encrypts them in parallel,
 * which is how it gets around CBC encryption of one message being serial.
 * For cbc-enc each run() submits one job and flushes it, so CBC
 * encryption runs single-lane: what a one-packet-at-a-time user gets. The
 * mb-cbc-enc-N ops are the burst: run() submits N jobs (each with its own
 * keys, expanded at setup by the library's IMB_AES_KEYEXP_*, and its own
 * IV), collects the jobs the submits complete (IMB_SUBMIT_JOB, then
 * IMB_GET_COMPLETED_JOB), then IMB_FLUSH_JOB until the manager is empty:
 * all N complete before run() returns, each checked for
 * IMB_STATUS_COMPLETED.
 *
 * GCM, through the direct API (the fastest the library offers for one
 * buffer: no job manager in the way): IMB_AES<N>_GCM_PRE expands the key
 * and the hash-key powers once per context; per message
 *   gcm-enc: IMB_AES<N>_GCM_ENC (12-byte IV, no AAD, 16-byte tag);
 *   gcm-dec: IMB_AES<N>_GCM_DEC, then the tag compared here (the library
 *            returns the computed tag and leaves the comparison to us);
 *   gmac:    IMB_AES<N>_GMAC_INIT, _UPDATE (the data), _FINALIZE;
 *   ghash:   IMB_GHASH from a zero tag, its key prepared by IMB_GHASH_PRE
 *            from H = AES_K(0) (one ECB job at setup).
 *
 * Build: header <intel-ipsec-mb.h>, library -lIPSec_MB (Debian:
 * libipsec-mb-dev; no pkg-config file).
 */
#include "bench.h"

#include <intel-ipsec-mb.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An expanded AES key: up to 15 round keys, 16-byte aligned for the job
 * API (64 here, a cache line). */
#define IPSECMB_KS_BYTES (16 * 15)

/* The longest ECB or CBC-encryption job the library accepts: 2^16 - 16
 * bytes (measured on 1.3; see ipsecmb_run_chunked()). */
#define IPSECMB_MAX_JOB ((size_t)65536 - 16)

/* The most jobs of a multi-buffer run. */
#define IPSECMB_MB 16

struct ipsecmb_mb {
    _Alignas(64) uint8_t enc_keys[IPSECMB_KS_BYTES];
    _Alignas(64) uint8_t dec_keys[IPSECMB_KS_BYTES];
    _Alignas(16) uint8_t iv[16];
    _Alignas(16) uint8_t sk1[16]; /* CMAC subkeys */
    _Alignas(16) uint8_t sk2[16];
};

struct ipsecmb_ctx {
    _Alignas(64) uint8_t enc_keys[IPSECMB_KS_BYTES];
    _Alignas(64) uint8_t dec_keys[IPSECMB_KS_BYTES];
    _Alignas(16) uint8_t iv[16];
    unsigned nmsg;          /* multi-buffer ops: jobs per run() */
    struct ipsecmb_mb *msg; /* their keys and IVs */
    IMB_MGR *mgr;
    struct gcm_key_data *gkey; /* the GCM ops (64-byte aligned) */
    struct gcm_context_data gctx;
    enum bench_op op;
    unsigned key_bits;
    IMB_CIPHER_MODE mode;
    IMB_CIPHER_DIRECTION dir;
    IMB_CHAIN_ORDER order;
    uint64_t key_bytes;
    uint64_t iv_bytes;
};

/* The manager of probe(), kept for keysetup() only (its key-expansion
 * function pointers); set once, then only read. */
static IMB_MGR *ipsecmb_probe_mgr;

static uint32_t ipsecmb_load32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           (uint32_t)p[3];
}

/* ipsecmb_init_mgr -- the best manager for this CPU into mgr; 0 on
 * success. */
static int ipsecmb_init_mgr(IMB_MGR *mgr)
{
#if IMB_VERSION_NUM >= IMB_VERSION(1, 3, 0)
    IMB_ARCH arch = IMB_ARCH_NONE;

    init_mb_mgr_auto(mgr, &arch);
    if (imb_get_errno(mgr) != 0 || arch == IMB_ARCH_NONE)
        return -1;
#else
    if (__builtin_cpu_supports("avx512f"))
        init_mb_mgr_avx512(mgr);
    else if (__builtin_cpu_supports("avx2"))
        init_mb_mgr_avx2(mgr);
    else if (__builtin_cpu_supports("avx"))
        init_mb_mgr_avx(mgr);
    else
        init_mb_mgr_sse(mgr);
#endif
    return 0;
}

static IMB_MGR *ipsecmb_new_mgr(void)
{
    IMB_MGR *mgr = alloc_mb_mgr(0);

    if (mgr == NULL)
        return NULL;
    if (ipsecmb_init_mgr(mgr) != 0) {
        free_mb_mgr(mgr);
        return NULL;
    }
    return mgr;
}

static int ipsecmb_probe(void)
{
    if (ipsecmb_probe_mgr != NULL)
        return 1;
    ipsecmb_probe_mgr = ipsecmb_new_mgr();
    if (ipsecmb_probe_mgr == NULL) {
        fprintf(stderr,
                "ipsec-mb: cannot allocate or initialise a "
                "multi-buffer manager (library %s)\n",
                imb_get_version_str());
        return 0;
    }
    return 1;
}

/* ECB, CBC and CTR, every key size (the CTR counter: see the file
 * comment). */
static int ipsecmb_mode19(enum bench_op op, unsigned key_bits);

static int ipsecmb_supports(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
    if (bench_op_is_mode19(op))
        return ipsecmb_mode19(op, key_bits);
    switch (op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
    case OP_CBC_ENC:
    case OP_CBC_DEC:
    case OP_CTR:
    case OP_MB_CBC_ENC_1:
    case OP_MB_CBC_ENC_4:
    case OP_MB_CBC_ENC_8:
    case OP_MB_CBC_ENC_16:
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_GMAC:
    case OP_GHASH:
        return 1;
    default:
        return 0;
    }
}

/* ipsecmb_expand -- both key schedules (the library's key expansion
 * always writes both). */
static void ipsecmb_expand(IMB_MGR *mgr, const uint8_t *key, unsigned key_bits,
                           uint8_t *enc, uint8_t *dec)
{
    switch (key_bits) {
    case 128:
        IMB_AES_KEYEXP_128(mgr, key, enc, dec);
        break;
    case 192:
        IMB_AES_KEYEXP_192(mgr, key, enc, dec);
        break;
    default:
        IMB_AES_KEYEXP_256(mgr, key, enc, dec);
        break;
    }
}

static void ipsecmb_release(void *ctx);
static int ipsecmb_setup_gcm(struct ipsecmb_ctx *c, const uint8_t *key);

/* ipsecmb_setup_mb -- the keys (the library's own expansion) and IVs of
 * the messages of a multi-buffer run. */
static int ipsecmb_setup_mb(struct ipsecmb_ctx *c, enum bench_op op,
                            const uint8_t *key, unsigned key_bits,
                            const uint8_t iv[16])
{
    uint8_t kj[32];

    c->nmsg = bench_op_messages(op);
    c->msg = aligned_alloc(64, IPSECMB_MB * sizeof(*c->msg));
    if (c->msg == NULL)
        return -1;
    memset(c->msg, 0, IPSECMB_MB * sizeof(*c->msg));
    for (unsigned j = 0; j < c->nmsg; j++) {
        bench_mb_key(key, key_bits, j, kj);
        ipsecmb_expand(c->mgr, kj, key_bits, c->msg[j].enc_keys,
                       c->msg[j].dec_keys);
        bench_mb_iv(iv, j, c->msg[j].iv);
    }
    return 0;
}

/*
 * Issue 19's modes. The library (1.3) has CMAC (IMB_AUTH_AES_CMAC for
 * AES-128, IMB_AUTH_AES_CMAC_256) and CCM (IMB_CIPHER_CCM with
 * IMB_AUTH_AES_CCM, AES-128 and AES-256), both through the job manager;
 * no XTS, OCB, SIV, GCM-SIV, KW or AEGIS.
 *   cmac:      one hash-only job (IMB_CIPHER_NULL): the expanded key and
 *              the two subkeys (IMB_AES_CMAC_SUBKEY_GEN_*) made at setup,
 *              16-byte tag.
 *   mb-cmac-8: eight such jobs, each under its own key
 *              (bench_mb_key), submitted together and flushed: the
 *              manager's multi-buffer CMAC lanes.
 *   ccm-enc:   one job, hash then cipher (CCM MACs the plaintext), 12-byte
 *              nonce as the IV, no AAD, 16-byte tag after the ciphertext.
 *   ccm-dec:   cipher then hash; the library returns the computed tag and
 *              the comparison is ours (as for GCM).
 */
static int ipsecmb_mode19(enum bench_op op, unsigned key_bits)
{
    switch (op) {
    case OP_CMAC:
    case OP_MB_CMAC_8:
    case OP_CCM_ENC:
    case OP_CCM_DEC:
        return key_bits == 128 || key_bits == 256;
    default:
        return 0;
    }
}

static void *ipsecmb_setup_mode19(enum bench_op op, const uint8_t *key,
                                  unsigned key_bits, const uint8_t iv[16])
{
    struct ipsecmb_ctx *c;
    uint8_t kj[32];
    unsigned n = op == OP_MB_CMAC_8 ? 8 : 1;

    if (!ipsecmb_mode19(op, key_bits))
        return NULL;
    c = aligned_alloc(64, sizeof(*c));
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof(*c));
    c->op = op;
    c->key_bits = key_bits;
    c->key_bytes = key_bits / 8;
    memcpy(c->iv, iv, 16);
    c->mgr = ipsecmb_new_mgr();
    c->msg = aligned_alloc(64, IPSECMB_MB * sizeof(*c->msg));
    if (c->mgr == NULL || c->msg == NULL) {
        ipsecmb_release(c);
        return NULL;
    }
    memset(c->msg, 0, IPSECMB_MB * sizeof(*c->msg));
    for (unsigned j = 0; j < n; j++) {
        struct ipsecmb_mb *m = &c->msg[j];
        if (op == OP_MB_CMAC_8)
            bench_mb_key(key, key_bits, j, kj);
        else
            memcpy(kj, key, key_bits / 8);
        ipsecmb_expand(c->mgr, kj, key_bits, m->enc_keys, m->dec_keys);
        if (key_bits == 128)
            IMB_AES_CMAC_SUBKEY_GEN_128(c->mgr, m->enc_keys, m->sk1, m->sk2);
        else
            IMB_AES_CMAC_SUBKEY_GEN_256(c->mgr, m->enc_keys, m->sk1, m->sk2);
    }
    memset(kj, 0, sizeof(kj));
    return c;
}

/* ipsecmb_fill19 -- message j's job of op (see above). */
static void ipsecmb_fill19(struct ipsecmb_ctx *c, IMB_JOB *job, unsigned j,
                           uint8_t *out, const uint8_t *in, size_t len,
                           uint8_t *tag)
{
    const struct ipsecmb_mb *m = &c->msg[j];
    int ccm = c->op == OP_CCM_ENC || c->op == OP_CCM_DEC;

    memset(&job->u, 0, sizeof(job->u));
    job->key_len_in_bytes = c->key_bytes;
    job->src = in;
    job->dst = out;
    job->cipher_start_src_offset_in_bytes = 0;
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = len;
    job->auth_tag_output = tag;
    job->auth_tag_output_len_in_bytes = 16;
    job->user_data = c;
    if (ccm) {
        job->cipher_mode = IMB_CIPHER_CCM;
        job->hash_alg = IMB_AUTH_AES_CCM;
        job->enc_keys = m->enc_keys;
        job->dec_keys = m->enc_keys; /* CCM runs the cipher forwards */
        job->msg_len_to_cipher_in_bytes = len;
        job->iv = c->iv;
        job->iv_len_in_bytes = 12;
        job->u.CCM.aad = NULL;
        job->u.CCM.aad_len_in_bytes = 0;
        if (c->op == OP_CCM_ENC) {
            job->cipher_direction = IMB_DIR_ENCRYPT;
            job->chain_order = IMB_ORDER_HASH_CIPHER;
        } else {
            job->cipher_direction = IMB_DIR_DECRYPT;
            job->chain_order = IMB_ORDER_CIPHER_HASH;
        }
        return;
    }
    job->cipher_mode = IMB_CIPHER_NULL;
    job->cipher_direction = IMB_DIR_ENCRYPT;
    job->chain_order = IMB_ORDER_HASH_CIPHER;
    job->hash_alg =
        c->key_bits == 128 ? IMB_AUTH_AES_CMAC : IMB_AUTH_AES_CMAC_256;
    job->msg_len_to_cipher_in_bytes = 0;
    job->u.CMAC._key_expanded = m->enc_keys;
    job->u.CMAC._skey1 = m->sk1;
    job->u.CMAC._skey2 = m->sk2;
}

static int ipsecmb_run_mode19(struct ipsecmb_ctx *c, uint8_t *out,
                              const uint8_t *in, size_t len)
{
    IMB_MGR *mgr = c->mgr;
    IMB_JOB *job;
    unsigned n = c->op == OP_MB_CMAC_8 ? 8 : 1, done = 0, bad = 0;
    uint8_t tag[16];

    for (unsigned j = 0; j < n; j++) {
        if (c->op == OP_CMAC || c->op == OP_MB_CMAC_8)
            ipsecmb_fill19(c, IMB_GET_NEXT_JOB(mgr), j, NULL, in + j * len, len,
                           out + 16 * j);
        else
            ipsecmb_fill19(c, IMB_GET_NEXT_JOB(mgr), j, out, in, len,
                           c->op == OP_CCM_ENC ? out + len : tag);
        for (job = IMB_SUBMIT_JOB(mgr); job != NULL;
             job = IMB_GET_COMPLETED_JOB(mgr)) {
            done++;
            bad += job->status != IMB_STATUS_COMPLETED || job->user_data != c;
        }
    }
    while ((job = IMB_FLUSH_JOB(mgr)) != NULL) {
        done++;
        bad += job->status != IMB_STATUS_COMPLETED || job->user_data != c;
    }
    if (done != n || bad != 0)
        return -1;
    if (c->op == OP_CCM_DEC) {
        uint8_t d = 0;
        for (int i = 0; i < 16; i++)
            d |= (uint8_t)(tag[i] ^ in[len + i]);
        return d == 0 ? 0 : -1;
    }
    return 0;
}

static void *ipsecmb_setup(enum bench_op op, const uint8_t *key,
                           unsigned key_bits, const uint8_t iv[16])
{
    struct ipsecmb_ctx *c;

    if (bench_op_is_mode19(op))
        return ipsecmb_setup_mode19(op, key, key_bits, iv);
    if (!ipsecmb_supports(op, key_bits))
        return NULL;
    c = aligned_alloc(64, sizeof(*c));
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof(*c));
    c->mgr = ipsecmb_new_mgr();
    if (c->mgr == NULL) {
        free(c);
        return NULL;
    }
    ipsecmb_expand(c->mgr, key, key_bits, c->enc_keys, c->dec_keys);
    if (iv != NULL)
        memcpy(c->iv, iv, 16);
    c->key_bytes = key_bits / 8;
    c->iv_bytes = 16;
    c->op = op;
    c->key_bits = key_bits;
    if (bench_op_is_gcm(op)) {
        if (ipsecmb_setup_gcm(c, key) != 0) {
            ipsecmb_release(c);
            return NULL;
        }
        return c;
    }
    switch (op) {
    case OP_ECB_ENC:
    case OP_ECB_DEC:
        c->mode = IMB_CIPHER_ECB;
        c->iv_bytes = 0;
        break;
    case OP_CBC_ENC:
    case OP_CBC_DEC:
        c->mode = IMB_CIPHER_CBC;
        break;
    case OP_CTR:
        c->mode = IMB_CIPHER_CNTR;
        break;
    default: /* the multi-buffer ops */
        c->mode = IMB_CIPHER_CBC;
        if (ipsecmb_setup_mb(c, op, key, key_bits, iv) != 0) {
            ipsecmb_release(c);
            return NULL;
        }
        break;
    }
    /* CTR is the same in both directions; the library wants ENCRYPT with
     * the cipher before the (null) hash. */
    if (op == OP_ECB_DEC || op == OP_CBC_DEC) {
        c->dir = IMB_DIR_DECRYPT;
        c->order = IMB_ORDER_HASH_CIPHER;
    } else {
        c->dir = IMB_DIR_ENCRYPT;
        c->order = IMB_ORDER_CIPHER_HASH;
    }
    return c;
}

/* ipsecmb_job -- one job on len bytes with IV iv, submitted and completed;
 * 0 on success. */
static int ipsecmb_job(struct ipsecmb_ctx *c, uint8_t *out, const uint8_t *in,
                       size_t len, const uint8_t *iv)
{
    IMB_MGR *mgr = c->mgr;
    IMB_JOB *job = IMB_GET_NEXT_JOB(mgr);

    job->cipher_mode = c->mode;
    job->cipher_direction = c->dir;
    job->chain_order = c->order;
    job->hash_alg = IMB_AUTH_NULL;
    job->enc_keys = c->enc_keys;
    job->dec_keys = c->dec_keys;
    job->key_len_in_bytes = c->key_bytes;
    job->src = in;
    job->dst = out;
    job->cipher_start_src_offset_in_bytes = 0;
    job->msg_len_to_cipher_in_bytes = len;
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = 0;
    job->iv = iv;
    job->iv_len_in_bytes = c->iv_bytes;
    job->auth_tag_output = NULL;
    job->auth_tag_output_len_in_bytes = 0;
    job->user_data = c;

    /* CBC encryption is queued until the lanes fill; the other modes
     * complete at submit. Either way one job is in flight, so the job
     * returned is ours. */
    job = IMB_SUBMIT_JOB(mgr);
    if (job == NULL)
        job = IMB_FLUSH_JOB(mgr);
    if (job == NULL || job->user_data != c ||
        job->status != IMB_STATUS_COMPLETED)
        return -1;
    return 0;
}

/*
 * ipsecmb_run_ctr -- CTR with aesir's 128-bit counter on top of the
 * library's 32-bit one: the message is cut where the low 32 bits of the
 * counter wrap, and the next job starts from the counter block with the
 * carry added to the upper 96 bits. A message whose counter does not wrap
 * (every message in practice) is one job; the test costs one comparison.
 */
static int ipsecmb_run_ctr(struct ipsecmb_ctx *c, uint8_t *out,
                           const uint8_t *in, size_t len)
{
    _Alignas(16) uint8_t ctr[16];
    const uint8_t *iv = c->iv;
    uint64_t room = ((uint64_t)1 << 32) - ipsecmb_load32be(c->iv + 12);

    while ((len + 15) / 16 > room) {
        size_t n = (size_t)room * 16;
        int i;

        if (ipsecmb_job(c, out, in, n, iv) != 0)
            return -1;
        out += n;
        in += n;
        len -= n;
        if (iv != ctr) {
            memcpy(ctr, iv, 16);
            iv = ctr;
        }
        memset(ctr + 12, 0, 4);
        for (i = 11; i >= 0 && ++ctr[i] == 0; i--)
            ;
        room = (uint64_t)1 << 32;
    }
    return ipsecmb_job(c, out, in, len, iv);
}

/*
 * ipsecmb_run_chunked -- ECB and CBC encryption: the job API takes at most
 * IPSECMB_MAX_JOB bytes per job in these modes (larger jobs fail with
 * IMB_ERR_JOB_CIPH_LEN), so a longer message is cut into jobs as a user
 * must, CBC chaining each job's IV from the last ciphertext block of the
 * one before.
 */
static int ipsecmb_run_chunked(struct ipsecmb_ctx *c, uint8_t *out,
                               const uint8_t *in, size_t len)
{
    const uint8_t *iv = c->iv;

    while (len > IPSECMB_MAX_JOB) {
        if (ipsecmb_job(c, out, in, IPSECMB_MAX_JOB, iv) != 0)
            return -1;
        iv = out + IPSECMB_MAX_JOB - 16;
        out += IPSECMB_MAX_JOB;
        in += IPSECMB_MAX_JOB;
        len -= IPSECMB_MAX_JOB;
    }
    return ipsecmb_job(c, out, in, len, iv);
}

/* ipsecmb_fill -- job j of a multi-buffer run filled in. */
static void ipsecmb_fill(struct ipsecmb_ctx *c, IMB_JOB *job, unsigned j,
                         uint8_t *out, const uint8_t *in, size_t len)
{
    job->cipher_mode = IMB_CIPHER_CBC;
    job->cipher_direction = IMB_DIR_ENCRYPT;
    job->chain_order = IMB_ORDER_CIPHER_HASH;
    job->hash_alg = IMB_AUTH_NULL;
    job->enc_keys = c->msg[j].enc_keys;
    job->dec_keys = c->msg[j].dec_keys;
    job->key_len_in_bytes = c->key_bytes;
    job->src = in + j * len;
    job->dst = out + j * len;
    job->cipher_start_src_offset_in_bytes = 0;
    job->msg_len_to_cipher_in_bytes = len;
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = 0;
    job->iv = c->msg[j].iv;
    job->iv_len_in_bytes = 16;
    job->auth_tag_output = NULL;
    job->auth_tag_output_len_in_bytes = 0;
    job->user_data = c;
}

/*
 * ipsecmb_run_mb -- c->nmsg CBC-encryption jobs in flight: all submitted
 * (the manager runs its lanes when they are full and hands back the jobs
 * it completed), then flushed; 0 when every one completed.
 */
static int ipsecmb_run_mb(struct ipsecmb_ctx *c, uint8_t *out,
                          const uint8_t *in, size_t len)
{
    IMB_MGR *mgr = c->mgr;
    IMB_JOB *job;
    unsigned done = 0, bad = 0;

    if (len > IPSECMB_MAX_JOB)
        return -1; /* one job per message here */
    for (unsigned j = 0; j < c->nmsg; j++) {
        ipsecmb_fill(c, IMB_GET_NEXT_JOB(mgr), j, out, in, len);
        for (job = IMB_SUBMIT_JOB(mgr); job != NULL;
             job = IMB_GET_COMPLETED_JOB(mgr)) {
            done++;
            bad += job->status != IMB_STATUS_COMPLETED || job->user_data != c;
        }
    }
    while ((job = IMB_FLUSH_JOB(mgr)) != NULL) {
        done++;
        bad += job->status != IMB_STATUS_COMPLETED || job->user_data != c;
    }
    return done == c->nmsg && bad == 0 ? 0 : -1;
}

/* ipsecmb_setup_gcm -- the GCM key (round keys and hash-key powers); for
 * ghash, GHASH's key from H = AES_K(0), computed by one ECB job. */
static int ipsecmb_setup_gcm(struct ipsecmb_ctx *c, const uint8_t *key)
{
    static const uint8_t zero[16];
    _Alignas(16) uint8_t h[16];

    c->gkey = aligned_alloc(64, (sizeof(*c->gkey) + 63) / 64 * 64);
    if (c->gkey == NULL)
        return -1;
    memset(c->gkey, 0, sizeof(*c->gkey));
    if (c->op == OP_GHASH) {
        c->mode = IMB_CIPHER_ECB;
        c->iv_bytes = 0;
        c->dir = IMB_DIR_ENCRYPT;
        c->order = IMB_ORDER_CIPHER_HASH;
        if (ipsecmb_job(c, h, zero, 16, NULL) != 0)
            return -1;
        IMB_GHASH_PRE(c->mgr, h, c->gkey);
        memset(h, 0, sizeof(h));
        return 0;
    }
    if (c->key_bits == 128)
        IMB_AES128_GCM_PRE(c->mgr, key, c->gkey);
    else if (c->key_bits == 192)
        IMB_AES192_GCM_PRE(c->mgr, key, c->gkey);
    else
        IMB_AES256_GCM_PRE(c->mgr, key, c->gkey);
    return 0;
}

/* The GCM ops, one message each (see the top of the file). */
static int ipsecmb_run_gcm(struct ipsecmb_ctx *c, uint8_t *out,
                           const uint8_t *in, size_t len)
{
    IMB_MGR *m = c->mgr;
    const struct gcm_key_data *k = c->gkey;
    struct gcm_context_data *g = &c->gctx;
    uint8_t tag[16], diff = 0;

    switch (c->op) {
    case OP_GCM_ENC:
        if (c->key_bits == 128)
            IMB_AES128_GCM_ENC(m, k, g, out, in, len, c->iv, NULL, 0, out + len,
                               16);
        else if (c->key_bits == 192)
            IMB_AES192_GCM_ENC(m, k, g, out, in, len, c->iv, NULL, 0, out + len,
                               16);
        else
            IMB_AES256_GCM_ENC(m, k, g, out, in, len, c->iv, NULL, 0, out + len,
                               16);
        return 0;
    case OP_GCM_DEC:
        if (c->key_bits == 128)
            IMB_AES128_GCM_DEC(m, k, g, out, in, len, c->iv, NULL, 0, tag, 16);
        else if (c->key_bits == 192)
            IMB_AES192_GCM_DEC(m, k, g, out, in, len, c->iv, NULL, 0, tag, 16);
        else
            IMB_AES256_GCM_DEC(m, k, g, out, in, len, c->iv, NULL, 0, tag, 16);
        for (int i = 0; i < 16; i++)
            diff |= (uint8_t)(tag[i] ^ in[len + (size_t)i]);
        return diff != 0 ? -1 : 0;
    case OP_GMAC:
        if (c->key_bits == 128) {
            IMB_AES128_GMAC_INIT(m, k, g, c->iv, 12);
            IMB_AES128_GMAC_UPDATE(m, k, g, in, len);
            IMB_AES128_GMAC_FINALIZE(m, k, g, out, 16);
        } else if (c->key_bits == 192) {
            IMB_AES192_GMAC_INIT(m, k, g, c->iv, 12);
            IMB_AES192_GMAC_UPDATE(m, k, g, in, len);
            IMB_AES192_GMAC_FINALIZE(m, k, g, out, 16);
        } else {
            IMB_AES256_GMAC_INIT(m, k, g, c->iv, 12);
            IMB_AES256_GMAC_UPDATE(m, k, g, in, len);
            IMB_AES256_GMAC_FINALIZE(m, k, g, out, 16);
        }
        return 0;
    default: /* OP_GHASH */
        memset(out, 0, 16);
        IMB_GHASH(m, k, in, len, out, 16);
        return 0;
    }
}

static int ipsecmb_run(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ipsecmb_ctx *c = ctx;

    if (bench_op_is_mode19(c->op))
        return ipsecmb_run_mode19(c, out, in, len);
    if (c->gkey != NULL)
        return ipsecmb_run_gcm(c, out, in, len);
    if (len == 0)
        return 0;
    if (c->nmsg != 0)
        return ipsecmb_run_mb(c, out, in, len);
    if (c->mode == IMB_CIPHER_CNTR)
        return ipsecmb_run_ctr(c, out, in, len);
    if (c->mode == IMB_CIPHER_ECB || c->dir == IMB_DIR_ENCRYPT)
        return ipsecmb_run_chunked(c, out, in, len);
    return ipsecmb_job(c, out, in, len, c->iv);
}

static void ipsecmb_release(void *ctx)
{
    struct ipsecmb_ctx *c = ctx;

    if (c == NULL)
        return;
    if (c->msg != NULL) {
        memset(c->msg, 0, IPSECMB_MB * sizeof(*c->msg));
        free(c->msg);
    }
    if (c->gkey != NULL) {
        memset(c->gkey, 0, sizeof(*c->gkey));
        free(c->gkey);
    }
    free_mb_mgr(c->mgr);
    memset(c, 0, sizeof(*c));
    free(c);
}

/* One key expansion: the library computes the encryption and decryption
 * schedules together, whatever the operation needs. For GCM (gcm-enc),
 * IMB_AES<N>_GCM_PRE: the round keys, H and the hash-key powers its GCM
 * kernels use, into the gcm_key_data the GCM calls take. */
static int ipsecmb_keysetup(enum bench_op op, const uint8_t *key,
                            unsigned key_bits)
{
    static _Alignas(64) struct gcm_key_data gk;
    _Alignas(64) uint8_t enc[IPSECMB_KS_BYTES];
    _Alignas(64) uint8_t dec[IPSECMB_KS_BYTES];

    if (ipsecmb_probe_mgr == NULL || !ipsecmb_supports(op, key_bits) ||
        bench_op_is_mode19(op))
        return -1;
    if (bench_op_is_gcm(op)) {
        if (key_bits == 128)
            IMB_AES128_GCM_PRE(ipsecmb_probe_mgr, key, &gk);
        else if (key_bits == 192)
            IMB_AES192_GCM_PRE(ipsecmb_probe_mgr, key, &gk);
        else
            IMB_AES256_GCM_PRE(ipsecmb_probe_mgr, key, &gk);
        return 0;
    }
    ipsecmb_expand(ipsecmb_probe_mgr, key, key_bits, enc, dec);
    return 0;
}

/* CMAC and CCM messages are one job each, which cannot be split: the
 * job limit is theirs (measured on 1.3: a 1 MiB CMAC or CCM job fails). */
static size_t ipsecmb_max_len(enum bench_op op)
{
    return bench_op_is_mode19(op) ? IPSECMB_MAX_JOB : 0;
}

static const struct bench_impl ipsecmb_impl = {
    .name = "ipsec-mb",
    .group = "peer",
    .probe = ipsecmb_probe,
    .supports = ipsecmb_supports,
    .setup = ipsecmb_setup,
    .run = ipsecmb_run,
    .release = ipsecmb_release,
    .keysetup = ipsecmb_keysetup,
    .max_len = ipsecmb_max_len,
};

void bench_register_ipsecmb(bench_add_fn add)
{
    add(&ipsecmb_impl);
}
