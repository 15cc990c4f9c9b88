/*
 * fuzz_api.c -- libFuzzer target: hostile sequences of API calls against
 * a small model of what include/aesir.h promises.
 *
 * The input is a program of up to 64 calls on 3 key contexts and 2
 * cipher contexts that start as garbage (a byte pattern): key set-up and
 * clearing, aesir_cipher_init/update/final/clear, every one-shot mode
 * function, the raw block functions and the engine queries, with NULL
 * pointers, lengths near SIZE_MAX, invalid modes, directions, paddings,
 * counter widths, IV and key lengths and engine names, wrong call orders
 * (update after final, final twice, a cipher whose key was cleared or
 * re-keyed, a key for the other direction), short output buffers,
 * in-place buffers, key contexts at every 16-byte-aligned offset, copied
 * with memcpy, or not 16-byte aligned at all. The model knows each
 * context's state and, for a live cipher, the bytes it has taken and
 * given; for each call it computes the set of return codes the header
 * allows (any of those that apply, since it does not order its checks)
 * and asserts:
 *
 *   - the return code is in that set;
 *   - on failure nothing is written: output buffers are filled with a
 *     canary first and must keep it (or keep the input, in place), and a
 *     misaligned context is left as it was; *out_len is 0 or untouched,
 *     and 0 for the one-shot functions;
 *   - on success nothing is written past *out_len; update writes at most
 *     aesir_cipher_update_size() bytes, exactly in_len for the stream
 *     modes, lags at most one block (two for PKCS#7 decryption); final
 *     writes at most 16 bytes, and checks PKCS#7 padding before the
 *     size; a failed final other than AESIR_E_OUTPUT_SIZE, and every
 *     successful one, leave a context that answers AESIR_E_STATE; a
 *     cipher whose key was cleared answers AESIR_E_STATE;
 *   - one-shot ECB/CBC calls succeed with exactly the out_cap the header
 *     lists and fail with one byte less;
 *   - the incremental output of a message equals the one-shot output of
 *     the same input (fuzz_modes checks both against SP 800-38A).
 *
 * Lengths larger than a real buffer are passed only where the call must
 * be refused before touching memory: out_cap smaller than the output
 * must be (AESIR_E_OUTPUT_SIZE; not for PKCS#7 decryption, which reads
 * the padding first), a counter that must overflow, a byte count that
 * does not fit in a size_t, a NULL pointer, a dead context, an invalid
 * key. A key set up again under a live cipher context is outside what
 * the header defines: the model then only asks that a failure writes
 * nothing.
 */
#include "fuzz.h"

#define NKEYS 3
#define NCIPHERS 2
#define REAL 600    /* the most bytes a real buffer of a call holds */
#define SHADOW 4096 /* the most bytes of a message the model keeps */
#define MAX_OPS 64
#define SENTINEL ((size_t)0x5eed5eed)

#define A(code) (1u << -(code)) /* a code's bit in an allowed set */
#define ANY (~0u)

/* The return code must be in the allowed set. */
#define CHECK_RC(rc, allowed)                                                  \
    do {                                                                       \
        int rc_ = (rc);                                                        \
        if (rc_ > 0 || rc_ < AESIR_E_SELFTEST || !((allowed)&A(rc_))) {        \
            fprintf(stderr, "%s:%d: return %d, allowed set 0x%x\n", __FILE__,  \
                    __LINE__, rc_, (unsigned)(allowed));                       \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* ---- the model ------------------------------------------------------ */

enum { K_UNINIT, K_CLEARED, K_LIVE };

struct mkey {
    int state;
    unsigned dirs;
    size_t key_len;
    const char *engine;
};

/* C_KEYLOST: its key was cleared (or set up again without the direction
 * the mode needs): update and final must say AESIR_E_STATE. C_LOOSE: its
 * key was set up again with that direction: the header does not say what
 * comes out, only that failures write nothing. */
enum { C_UNINIT, C_DEAD, C_LIVE, C_KEYLOST, C_LOOSE };

struct mcipher {
    int state;
    size_t key;
    aesir_mode mode;
    unsigned dir, option;
    uint8_t iv[16];
    size_t in_total, out_total;
    uint64_t ctr_room; /* CTR: counter values left at init */
    uint8_t in[SHADOW], out[SHADOW + 32];
};

/* Key contexts at a 16-byte-aligned offset (0..48) the input chooses
 * into 64-byte-aligned areas: every placement malloc can give. */
static _Alignas(64) unsigned char key_area[NKEYS][sizeof(aesir_aes) + 64];
static aesir_aes *kctx[NKEYS];
static struct mkey mk[NKEYS];
/* Misaligned contexts: must be refused, and left as they are. */
static _Alignas(64) unsigned char odd_area[sizeof(aesir_aes) + 64];
static aesir_cipher cctx[NCIPHERS];
static struct mcipher mc[NCIPHERS];
static uint64_t seed;

static int is_block(aesir_mode mode)
{
    return mode == AESIR_MODE_ECB || mode == AESIR_MODE_CBC;
}

static int valid_mode(unsigned mode)
{
    return mode >= AESIR_MODE_ECB && mode <= AESIR_MODE_CTR;
}

/* The direction of the key schedule a mode and direction need. */
static unsigned key_dir(aesir_mode mode, unsigned dir)
{
    return is_block(mode) ? dir : AESIR_ENCRYPT;
}

static int key_ready(size_t k, unsigned dir)
{
    return mk[k].state == K_LIVE && (mk[k].dirs & dir) == dir;
}

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static unsigned ctr_width(unsigned bits)
{
    if (bits == 0)
        return 128;
    return bits == 32 || bits == 64 || bits == 128 ? bits : 0;
}

/* Counter values left before a w-bit counter wraps (UINT64_MAX: at
 * least that many). */
static uint64_t ctr_room(const uint8_t iv[16], unsigned w)
{
    uint64_t low = load_be64(iv + 8);
    if (w == 32)
        return ((uint64_t)1 << 32) - (low & 0xffffffffu);
    if (w == 128 && load_be64(iv) != UINT64_MAX)
        return UINT64_MAX;
    return low == 0 ? UINT64_MAX : 0 - low;
}

/* Does taking len more bytes after done need more than room counter
 * values? (No overflow: each part is at most 2^60.) */
static int ctr_wraps(uint64_t room, size_t done, size_t len)
{
    uint64_t blocks =
        (uint64_t)(done / 16) + len / 16 + (done % 16 + len % 16 + 15) / 16;
    return blocks > room;
}

/* a + b, saturated. */
static size_t sat_add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* ---- input helpers ------------------------------------------------- */

/* A length: mostly small (0..real), else a value near the top of size_t
 * (*huge set), which a caller passes only where the call must refuse. */
static size_t pick_len(struct fz *f, size_t real, int *huge)
{
    static const size_t top[] = {SIZE_MAX,
                                 SIZE_MAX - 1,
                                 SIZE_MAX - 6,
                                 SIZE_MAX - 7,
                                 SIZE_MAX - 8,
                                 SIZE_MAX - 14,
                                 SIZE_MAX - 15,
                                 SIZE_MAX - 16,
                                 SIZE_MAX - 17,
                                 SIZE_MAX - 31,
                                 SIZE_MAX - 32,
                                 SIZE_MAX / 2,
                                 SIZE_MAX / 2 + 1,
                                 SIZE_MAX / 16 * 16,
                                 SIZE_MAX / 8 + 1,
                                 SIZE_MAX / 4 - 1,
                                 (size_t)UINT32_MAX,
                                 (size_t)UINT32_MAX - 15,
                                 (size_t)INT32_MAX + 1};
    uint8_t s = fz_u8(f);
    if (s < 208) {
        *huge = 0;
        return fz_u16(f) % (real + 1);
    }
    *huge = 1;
    return top[s % (sizeof(top) / sizeof(top[0]))];
}

/* A real buffer: NULL, or n bytes (n >= 1 for a huge claim) at a fuzzed
 * offset, canary-filled. */
struct buf {
    uint8_t *p;
    size_t n;
    unsigned off;
};

static struct buf buf_new(size_t n, unsigned off)
{
    struct buf b = {fz_alloc(n, off), n, off};
    return b;
}

static void buf_free(struct buf *b)
{
    fz_free(b->p, b->off);
    b->p = NULL;
}

/* For traces: a buffer argument. */
static const char *nul(const void *p)
{
    return p == NULL ? "NULL" : "buf";
}

/* For traces: the one-shot function of a stream mode. */
static const char *stream_name(aesir_mode mode, int enc, unsigned bits)
{
    static char name[48];
    static const char *const names[] = {"cfb128", "cfb8", "cfb1", "ofb", "ctr"};
    const char *m = names[mode - AESIR_MODE_CFB128];
    if (mode == AESIR_MODE_OFB || mode == AESIR_MODE_CTR)
        snprintf(name, sizeof(name), "aesir_%s_crypt[bits %u]", m, bits);
    else
        snprintf(name, sizeof(name), "aesir_%s_%scrypt", m, enc ? "en" : "de");
    return name;
}

/* ---- references: the other API path --------------------------------- */

/* incremental -- init + one update + final on a private context: the
 * oneshot functions must equal it, and the other way round. out needs
 * room for len + 32. */
static int incremental(const aesir_aes *key, aesir_mode mode, unsigned dir,
                       const uint8_t *iv, unsigned option, const uint8_t *in,
                       size_t len, uint8_t *out, size_t *out_len)
{
    aesir_cipher c;
    size_t n1 = 0, n2 = 0;
    int rc = aesir_cipher_init(&c, key, mode, dir,
                               mode == AESIR_MODE_ECB ? NULL : iv,
                               mode == AESIR_MODE_ECB ? 0 : 16, option);
    *out_len = 0;
    FUZZ_CHECK_EQ(rc, AESIR_OK);
    if (len != 0)
        FUZZ_CHECK_EQ(aesir_cipher_update(&c, out, len + 32, &n1, in, len),
                      AESIR_OK);
    rc = aesir_cipher_final(&c, out + n1, 32, &n2);
    *out_len = rc == AESIR_OK ? n1 + n2 : 0;
    aesir_cipher_clear(&c);
    return rc;
}

/* oneshot -- the one-shot function of a mode, as the reference of a
 * finished incremental message (CFB1 on 8 * len bits). out needs room
 * for len + 16. */
static int oneshot(const aesir_aes *key, const struct mcipher *m,
                   const uint8_t *in, size_t len, uint8_t *out, size_t *out_len)
{
    int enc = m->dir == AESIR_ENCRYPT, rc;
    *out_len = 0;
    switch (m->mode) {
    case AESIR_MODE_ECB:
        return enc ? aesir_ecb_encrypt(key, m->option, out, len + 16, out_len,
                                       in, len)
                   : aesir_ecb_decrypt(key, m->option, out, len + 16, out_len,
                                       in, len);
    case AESIR_MODE_CBC:
        return enc ? aesir_cbc_encrypt(key, m->iv, m->option, out, len + 16,
                                       out_len, in, len)
                   : aesir_cbc_decrypt(key, m->iv, m->option, out, len + 16,
                                       out_len, in, len);
    case AESIR_MODE_CFB128:
        rc = enc ? aesir_cfb128_encrypt(key, m->iv, out, in, len)
                 : aesir_cfb128_decrypt(key, m->iv, out, in, len);
        break;
    case AESIR_MODE_CFB8:
        rc = enc ? aesir_cfb8_encrypt(key, m->iv, out, in, len)
                 : aesir_cfb8_decrypt(key, m->iv, out, in, len);
        break;
    case AESIR_MODE_CFB1:
        rc = enc ? aesir_cfb1_encrypt(key, m->iv, out, in, 8 * len)
                 : aesir_cfb1_decrypt(key, m->iv, out, in, 8 * len);
        break;
    case AESIR_MODE_OFB:
        rc = aesir_ofb_crypt(key, m->iv, out, in, len);
        break;
    default:
        rc = aesir_ctr_crypt(key, m->iv, m->option, out, in, len);
        break;
    }
    *out_len = rc == AESIR_OK ? len : 0;
    return rc;
}

/* ---- key contexts -------------------------------------------------- */

/* Key k has changed (its model already updated): the cipher contexts
 * on it notice when it lost the direction they need. */
static void key_changed(size_t k)
{
    for (size_t i = 0; i < NCIPHERS; i++) {
        struct mcipher *m = &mc[i];
        if (m->key != k || (m->state != C_LIVE && m->state != C_KEYLOST &&
                            m->state != C_LOOSE))
            continue;
        m->state = key_ready(k, key_dir(m->mode, m->dir)) ? C_LOOSE : C_KEYLOST;
    }
}

static void check_key_info(size_t k)
{
    if (mk[k].state == K_LIVE) {
        const char *e = aesir_aes_engine(kctx[k]);
        FUZZ_CHECK(e != NULL && strcmp(e, mk[k].engine) == 0);
        FUZZ_CHECK_EQ(aesir_aes_key_bits(kctx[k]), 8 * mk[k].key_len);
    } else {
        FUZZ_CHECK(aesir_aes_engine(kctx[k]) == NULL);
        FUZZ_CHECK_EQ(aesir_aes_key_bits(kctx[k]), 0);
    }
}

static void op_key_init(struct fz *f)
{
    static const size_t lens[] = {16, 24, 32, 16, 24, 32, 0,  1,
                                  15, 17, 23, 25, 31, 33, 64, SIZE_MAX};
    static const unsigned dirs_v[] = {3, 1, 2, 3, 1, 2, 0, 4, 7, 0x80000001u};
    const char **engines;
    size_t nengines = fz_engines(&engines);
    unsigned b = fz_u8(f), e = fz_u8(f), d = fz_u8(f);
    size_t k = b % NKEYS, key_len = lens[fz_u8(f) % 16];
    unsigned dirs = dirs_v[d % 10];
    int ctx_null = (b >> 2 & 31) == 31, key_null = (b >> 7) && (d & 0x80);
    const char *engine = NULL;
    int unknown = 0, unavailable = 0;
    uint8_t key[32];
    unsigned allowed = 0;
    int rc;

    fz_fill(&seed, key, sizeof(key));
    /* Engine: the default, one this CPU runs, an unknown name, or one in
     * the build this CPU cannot run (if there is one). */
    switch (e >> 6) {
    case 0:
        break;
    case 1:
        engine = "no-such-engine";
        unknown = 1;
        break;
    case 2:
        for (size_t i = 0; i < aesir_engine_count(); i++)
            if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE) &&
                i % 4 == (e & 3)) {
                engine = aesir_engine_name(i);
                unavailable = 1;
                break;
            }
        if (engine != NULL)
            break;
        /* fall through */
    default:
        engine = engines[e % nengines];
        break;
    }
    if (ctx_null) {
        CHECK_RC(aesir_aes_init_ex(NULL, key, key_len, engine, dirs),
                 A(AESIR_E_ARGUMENT));
        return;
    }
    if (key_null || dirs == 0 || (dirs & ~3u) != 0)
        allowed |= A(AESIR_E_ARGUMENT);
    if (key_len != 16 && key_len != 24 && key_len != 32)
        allowed |= A(AESIR_E_KEY_LENGTH);
    if (unknown)
        allowed |= A(AESIR_E_ENGINE_UNKNOWN);
    if (unavailable)
        allowed |= A(AESIR_E_ENGINE_UNAVAILABLE);
    if (allowed == 0)
        allowed = A(AESIR_OK);
    FZ_TRACE("aesir_aes_init_ex(&k%zu, %s, %zu, \"%s\", %#x)", k,
             key_null ? "NULL" : "key", key_len, engine ? engine : "(NULL)",
             dirs);
    rc = aesir_aes_init_ex(kctx[k], key_null ? NULL : key, key_len, engine,
                           dirs);
    FZ_TRACE(" = %d\n", rc);
    CHECK_RC(rc, allowed);
    if (rc == AESIR_OK) {
        mk[k].state = K_LIVE;
        mk[k].dirs = dirs;
        mk[k].key_len = key_len;
        mk[k].engine = engine != NULL ? engine : aesir_engine_default();
    } else {
        mk[k].state = K_CLEARED; /* "On error ctx is left cleared" */
    }
    key_changed(k);
    check_key_info(k);
}

static void op_key_clear(struct fz *f)
{
    size_t k = fz_u8(f) % NKEYS;
    FZ_TRACE("aesir_aes_clear(&k%zu)\n", k);
    aesir_aes_clear(kctx[k]);
    mk[k].state = K_CLEARED;
    key_changed(k);
    check_key_info(k);
}

/* A context copied with memcpy to another 16-byte-aligned place works
 * there as the original does. */
static void op_key_copy(struct fz *f)
{
    unsigned b = fz_u8(f);
    size_t from = b % NKEYS, to = (from + 1 + (b >> 2) % (NKEYS - 1)) % NKEYS;
    uint8_t blk[16], x[16], y[16];

    FZ_TRACE("memcpy(&k%zu, &k%zu, sizeof(aesir_aes))\n", to, from);
    memcpy(kctx[to], kctx[from], sizeof(aesir_aes));
    mk[to] = mk[from];
    key_changed(to);
    check_key_info(to);
    if (key_ready(to, AESIR_ENCRYPT)) {
        fz_fill(&seed, blk, 16);
        FUZZ_CHECK_EQ(aesir_aes_encrypt_block(kctx[from], x, blk), AESIR_OK);
        FUZZ_CHECK_EQ(aesir_aes_encrypt_block(kctx[to], y, blk), AESIR_OK);
        FUZZ_CHECK(memcmp(x, y, 16) == 0);
    }
}

/* ---- cipher contexts ----------------------------------------------- */

static void op_cipher_init(struct fz *f)
{
    static const unsigned modes[] = {1, 2, 3, 4, 5, 6, 7, 1, 2, 7, 0, 8};
    static const unsigned dirs_v[] = {1, 2, 1, 2, 0, 3};
    static const size_t iv_lens[] = {16, 16, 16, 0, 0, 15, 17, 32, SIZE_MAX};
    static const unsigned options[] = {0, 1, 2, 32, 64, 128, 3, 16, 96, 255};
    unsigned b = fz_u8(f), m = modes[fz_u8(f) % 12], o = fz_u8(f);
    size_t ci = b % NCIPHERS, k = fz_u8(f) % NKEYS;
    unsigned dir = dirs_v[(b >> 1) % 6];
    size_t iv_len = iv_lens[fz_u8(f) % 9];
    int c_null = (b >> 4) == 15, key_null = (o & 0xc0) == 0xc0;
    int iv_null = (o & 0x30) == 0x30;
    unsigned option = options[o % 10];
    struct mcipher *mm = &mc[ci];
    unsigned allowed = 0;
    uint8_t iv[16];
    int rc;

    fz_bytes(f, iv, 16);
    /* Valid choices more often than not. */
    if ((o & 0x08) == 0 && valid_mode(m)) {
        if (is_block((aesir_mode)m))
            option %= 3;
        else if (m == AESIR_MODE_CTR)
            option = options[3 + o % 3];
        else
            option = 0;
        iv_len = m == AESIR_MODE_ECB ? 0 : 16;
    }
    if (c_null) {
        CHECK_RC(aesir_cipher_init(NULL, kctx[k], (aesir_mode)m, dir,
                                   iv_null ? NULL : iv, iv_len, option),
                 A(AESIR_E_ARGUMENT));
        return;
    }
    if (key_null || !valid_mode(m) ||
        (dir != AESIR_ENCRYPT && dir != AESIR_DECRYPT))
        allowed |= A(AESIR_E_ARGUMENT);
    if (!key_null) {
        if (mk[k].state != K_LIVE)
            allowed |= A(AESIR_E_STATE);
        else if (!valid_mode(m) || dir == 0 || dir > 2)
            allowed |= A(AESIR_E_STATE); /* no direction to check */
        else if (!key_ready(k, key_dir((aesir_mode)m, dir)))
            allowed |= A(AESIR_E_STATE);
    }
    if (valid_mode(m)) {
        if (is_block((aesir_mode)m) && option > AESIR_PAD_ZERO)
            allowed |= A(AESIR_E_ARGUMENT);
        if (m == AESIR_MODE_CTR && ctr_width(option) == 0)
            allowed |= A(AESIR_E_ARGUMENT);
        if (!is_block((aesir_mode)m) && m != AESIR_MODE_CTR && option != 0)
            allowed |= A(AESIR_E_ARGUMENT);
        if (m == AESIR_MODE_ECB) {
            if (iv_len != 0)
                allowed |= A(AESIR_E_IV_LENGTH);
        } else {
            if (iv_len != 16)
                allowed |= A(AESIR_E_IV_LENGTH);
            else if (iv_null)
                allowed |= A(AESIR_E_ARGUMENT);
        }
    } else if (iv_len != 0 && iv_len != 16) {
        allowed |= A(AESIR_E_IV_LENGTH);
    }
    if (allowed == 0) {
        allowed = A(AESIR_OK);
        /* ECB "takes none (iv = NULL, iv_len = 0)": an IV pointer with
         * length 0 may be refused or ignored. */
        if (m == AESIR_MODE_ECB && !iv_null)
            allowed |= A(AESIR_E_ARGUMENT);
    }
    FZ_TRACE("aesir_cipher_init(&c%zu, %s%zu, mode %u, dir %u, %s, %zu, %u)",
             ci, key_null ? "NULL k" : "&k", k, m, dir, iv_null ? "NULL" : "iv",
             iv_len, option);
    rc = aesir_cipher_init(&cctx[ci], key_null ? NULL : kctx[k], (aesir_mode)m,
                           dir, iv_null ? NULL : iv, iv_len, option);
    FZ_TRACE(" = %d\n", rc);
    CHECK_RC(rc, allowed);
    if (rc != AESIR_OK) {
        mm->state = C_DEAD;
        FUZZ_CHECK_EQ(aesir_cipher_update_size(&cctx[ci], 16), 0);
        return;
    }
    mm->state = C_LIVE;
    mm->key = k;
    mm->mode = (aesir_mode)m;
    mm->dir = dir;
    mm->option = option;
    memcpy(mm->iv, iv, 16);
    mm->in_total = mm->out_total = 0;
    mm->ctr_room = m == AESIR_MODE_CTR ? ctr_room(iv, ctr_width(option)) : 0;
}

static void op_cipher_clear(struct fz *f)
{
    size_t ci = fz_u8(f) % NCIPHERS;
    FZ_TRACE("aesir_cipher_clear(&c%zu)\n", ci);
    aesir_cipher_clear(&cctx[ci]);
    mc[ci].state = C_DEAD;
    FUZZ_CHECK_EQ(aesir_cipher_update_size(&cctx[ci], 100), 0);
}

/* What an update of len bytes with out_cap on cipher m may return; *us
 * is aesir_cipher_update_size() for a live context. */
static unsigned update_allowed(const struct mcipher *m, size_t ci, size_t len,
                               size_t cap, int in_null, int out_null,
                               int olen_null, size_t *us)
{
    unsigned err = 0;

    *us = aesir_cipher_update_size(&cctx[ci], len);
    /* 0 for a context not initialised, or whose key was cleared. */
    if (m->state == C_UNINIT || m->state == C_DEAD ||
        (m->state == C_KEYLOST && mk[m->key].state != K_LIVE))
        FUZZ_CHECK_EQ(*us, 0);
    if (m->state == C_LOOSE)
        return ANY;
    if (m->state != C_LIVE) /* "update and final then return STATE" */
        return A(AESIR_E_STATE) | (olen_null ? A(AESIR_E_ARGUMENT) : 0);
    if (olen_null || (len != 0 && (in_null || out_null)))
        err |= A(AESIR_E_ARGUMENT);
    if (!is_block(m->mode)) {
        FUZZ_CHECK_EQ(*us, len);
        if (cap < len)
            err |= A(AESIR_E_OUTPUT_SIZE);
        if (m->mode == AESIR_MODE_CTR &&
            ctr_wraps(m->ctr_room, m->in_total, len))
            err |= A(AESIR_E_COUNTER_OVERFLOW);
        return err != 0 ? err : A(AESIR_OK);
    }
    /* Block modes: the output after this update is every byte taken but
     * a lag of at most one block (two for PKCS#7 decryption), in whole
     * blocks. */
    size_t lag = m->in_total - m->out_total;
    size_t sum = sat_add(lag, len);
    size_t hold =
        m->dir == AESIR_DECRYPT && m->option == AESIR_PAD_PKCS7 ? 32 : 16;
    size_t lo = sum == SIZE_MAX ? SIZE_MAX - 63 : (sum > hold ? sum - hold : 0);
    size_t hi = sum / 16 * 16;
    /* SIZE_MAX stands for "does not fit in a size_t". */
    if (sum == SIZE_MAX)
        FUZZ_CHECK(*us == SIZE_MAX || (*us % 16 == 0 && *us >= lo));
    else
        FUZZ_CHECK(*us % 16 == 0 && *us >= lo && *us <= hi);
    if (cap < lo)
        err |= A(AESIR_E_OUTPUT_SIZE);
    if (err != 0)
        return err;
    return cap < *us ? A(AESIR_OK) | A(AESIR_E_OUTPUT_SIZE) : A(AESIR_OK);
}

static void op_update(struct fz *f)
{
    unsigned b = fz_u8(f), g = fz_u8(f);
    size_t ci = b % NCIPHERS;
    struct mcipher *m = &mc[ci];
    int c_null = (b >> 3) == 31;
    int in_null = (g & 3) == 1, out_null = (g & 3) == 2, inplace = (g & 3) == 3;
    int olen_null = (g >> 2 & 7) == 7;
    unsigned capmode = g >> 5 & 3;
    int huge, huge_cap;
    size_t len = pick_len(f, REAL, &huge);
    size_t cap = pick_len(f, REAL + 32, &huge_cap), us, n = SENTINEL;
    unsigned allowed;
    struct buf in = {0}, out = {0};
    int rc;

    if (huge_cap)
        cap %= REAL + 33;
    if (c_null) {
        allowed = A(AESIR_E_STATE) | A(AESIR_E_ARGUMENT);
        us = 0;
    } else {
        if (m->state == C_LIVE || m->state == C_LOOSE) {
            /* The capacity the context asks for, or one byte short. */
            size_t want = aesir_cipher_update_size(&cctx[ci], len);
            if (capmode == 1 && want <= REAL + 32)
                cap = want;
            else if (capmode == 2 && want != 0 && want <= REAL + 33)
                cap = want - 1;
        }
        allowed =
            update_allowed(m, ci, len, cap, in_null, out_null, olen_null, &us);
        if (huge && (allowed & A(AESIR_OK))) {
            /* Only a call that must be refused gets a lying length. */
            len %= REAL + 1;
            huge = 0;
            allowed = update_allowed(m, ci, len, cap, in_null, out_null,
                                     olen_null, &us);
        }
    }
    if (inplace) {
        size_t room = huge ? cap : (len > cap ? len : cap);
        out = buf_new(room, fz_u8(f) & 15);
        fz_fill(&seed, out.p, huge ? 0 : len);
        in = out;
    } else {
        if (!in_null) {
            in = buf_new(huge ? 16 : len, fz_u8(f) & 15);
            fz_fill(&seed, in.p, in.n);
        }
        if (!out_null)
            out = buf_new(cap, fz_u8(f) & 15);
    }
    uint8_t *snapshot = malloc(out.n + 1);
    FUZZ_CHECK(snapshot != NULL);
    if (out.p != NULL)
        memcpy(snapshot, out.p, out.n);

    FZ_TRACE("aesir_cipher_update(%s%zu, %s, %zu, %s, %s, %zu)%s",
             c_null ? "NULL c" : "&c", ci, nul(out.p), cap,
             olen_null ? "NULL" : "&n", nul(in.p), len,
             inplace ? " in place" : "");
    rc = aesir_cipher_update(c_null ? NULL : &cctx[ci], out.p, cap,
                             olen_null ? NULL : &n, in.p, len);
    FZ_TRACE(" = %d, n %zu\n", rc, n);
    CHECK_RC(rc, allowed);
    if (rc != AESIR_OK) {
        /* Nothing consumed, nothing written. */
        FUZZ_CHECK(n == SENTINEL || n == 0);
        if (out.p != NULL)
            FUZZ_CHECK(memcmp(out.p, snapshot, out.n) == 0);
    } else if (!c_null) {
        FUZZ_CHECK(n <= cap && n <= out.n);
        if (!inplace && out.p != NULL)
            FUZZ_CHECK(fz_all(out.p + n, out.n - n, FZ_CANARY));
        if (m->state == C_LIVE) {
            size_t hold =
                m->dir == AESIR_DECRYPT && m->option == AESIR_PAD_PKCS7 ? 32
                                                                        : 16;
            FUZZ_CHECK(n <= us);
            if (!is_block(m->mode))
                FUZZ_CHECK_EQ(n, len);
            else
                FUZZ_CHECK(n % 16 == 0 &&
                           m->in_total + len - m->out_total - n <= hold);
            if (m->in_total + len <= SHADOW && len != 0)
                memcpy(m->in + m->in_total, inplace ? snapshot : in.p, len);
            if (m->in_total + len <= SHADOW && n != 0)
                memcpy(m->out + m->out_total, out.p, n);
            m->in_total = sat_add(m->in_total, len);
            m->out_total += n;
            FUZZ_CHECK(m->out_total <= m->in_total);
        }
    }
    free(snapshot);
    if (!inplace)
        buf_free(&in);
    buf_free(&out);
}

/* The expected result of finishing live cipher m: the set of codes
 * and, when known, the bytes final must write (*final_len; SIZE_MAX:
 * unknown), the whole message's one-shot output being in want. */
static unsigned final_allowed(struct mcipher *m, size_t cap, int out_null,
                              int olen_null, uint8_t *want, size_t *final_len)
{
    int shadow = m->in_total <= SHADOW;
    size_t lag = m->in_total - m->out_total, want_len = 0;
    int pkcs7 = m->option == AESIR_PAD_PKCS7;
    unsigned err = 0;

    *final_len = SIZE_MAX;
    if (olen_null || (out_null && cap != 0))
        err |= A(AESIR_E_ARGUMENT);
    if (shadow) {
        /* The one-shot function on the same input: what update gave so
         * far must be its beginning, final gives the rest. */
        int rc = oneshot(kctx[m->key], m, m->in, m->in_total, want, &want_len);
        FUZZ_CHECK(rc == AESIR_OK || rc == AESIR_E_INPUT_LENGTH ||
                   rc == AESIR_E_PADDING);
        if (rc == AESIR_OK) {
            FUZZ_CHECK(want_len >= m->out_total &&
                       memcmp(want, m->out, m->out_total) == 0);
            *final_len = want_len - m->out_total;
        }
    }
    if (!is_block(m->mode))
        return err != 0 ? err : A(AESIR_OK);
    if (m->dir == AESIR_ENCRYPT) {
        if (m->option == AESIR_PAD_NONE && lag != 0)
            err |= A(AESIR_E_INPUT_LENGTH);
        else if ((pkcs7 || (m->option == AESIR_PAD_ZERO && lag != 0)) &&
                 cap < 16)
            err |= A(AESIR_E_OUTPUT_SIZE);
        return err != 0 ? err : A(AESIR_OK);
    }
    if (m->in_total % 16 != 0 || (pkcs7 && m->in_total == 0))
        err |= A(AESIR_E_INPUT_LENGTH) |
               (pkcs7 && cap < 15 ? A(AESIR_E_OUTPUT_SIZE) : 0);
    if (err != 0 || !pkcs7)
        return err != 0 ? err : A(AESIR_OK);
    /* PKCS#7: "the padding is checked before the size". */
    if (!shadow)
        return A(AESIR_OK) | A(AESIR_E_PADDING) |
               (cap < 15 ? A(AESIR_E_OUTPUT_SIZE) : 0);
    if (*final_len == SIZE_MAX)
        return A(AESIR_E_PADDING);
    return cap < *final_len ? A(AESIR_E_OUTPUT_SIZE) : A(AESIR_OK);
}

static void op_final(struct fz *f)
{
    static uint8_t want[SHADOW + 32];
    unsigned b = fz_u8(f), g = fz_u8(f);
    size_t ci = b % NCIPHERS, final_len = SIZE_MAX;
    struct mcipher *m = &mc[ci];
    int c_null = (b >> 3) == 31;
    int out_null = (g & 7) == 1, olen_null = (g >> 3 & 7) == 7;
    size_t cap, n = SENTINEL;
    unsigned allowed;
    struct buf out = {0};
    int rc;

    /* Up to 40 bytes, or a huge capacity: final writes at most 16 bytes,
     * so a 16-byte buffer is enough whatever the claim. */
    cap = fz_u8(f);
    cap = cap < 200 ? cap % 41 : SIZE_MAX - cap % 8;
    if (c_null)
        allowed = A(AESIR_E_STATE) | A(AESIR_E_ARGUMENT);
    else if (m->state == C_LOOSE)
        allowed = ANY;
    else if (m->state != C_LIVE)
        allowed = A(AESIR_E_STATE) | (olen_null ? A(AESIR_E_ARGUMENT) : 0);
    else
        allowed = final_allowed(m, cap, out_null, olen_null, want, &final_len);
    if (!out_null)
        out = buf_new(cap < 16 ? cap : 16, g >> 6);

    FZ_TRACE("aesir_cipher_final(%s%zu, %s, %zu, %s)", c_null ? "NULL c" : "&c",
             ci, nul(out.p), cap, olen_null ? "NULL" : "&n");
    rc = aesir_cipher_final(c_null ? NULL : &cctx[ci], out.p, cap,
                            olen_null ? NULL : &n);
    FZ_TRACE(" = %d, n %zu\n", rc, n);
    CHECK_RC(rc, allowed);
    if (rc != AESIR_OK) {
        FUZZ_CHECK(n == SENTINEL || n == 0);
        if (out.p != NULL)
            FUZZ_CHECK(fz_all(out.p, out.n, FZ_CANARY));
    } else if (!c_null) {
        FUZZ_CHECK(n <= cap && n <= 16);
        if (out.p != NULL)
            FUZZ_CHECK(fz_all(out.p + n, out.n - n, FZ_CANARY));
        if (m->state == C_LIVE && final_len != SIZE_MAX) {
            /* The whole output equals the one-shot output. */
            FUZZ_CHECK_EQ(n, final_len);
            FUZZ_CHECK(n == 0 || memcmp(out.p, want + m->out_total, n) == 0);
        }
    }
    /* Finished, or wiped by the error (AESIR_E_STATE included). */
    if (!c_null && rc != AESIR_E_OUTPUT_SIZE && m->state != C_UNINIT)
        m->state = C_DEAD;
    buf_free(&out);
}

/* ---- one-shot functions -------------------------------------------- */

static void op_oneshot_block(struct fz *f)
{
    static const unsigned pads[] = {0, 1, 2, 0, 1, 2, 3, 255};
    unsigned b = fz_u8(f), g = fz_u8(f), h = fz_u8(f);
    int cbc = b & 1, enc = b >> 1 & 1;
    unsigned dir = enc ? AESIR_ENCRYPT : AESIR_DECRYPT;
    aesir_mode mode = cbc ? AESIR_MODE_CBC : AESIR_MODE_ECB;
    size_t k = (b >> 2) % NKEYS;
    unsigned pad = pads[b >> 5];
    int key_null = (g & 15) == 15, iv_null = (g & 15) == 14;
    int in_null = (g >> 4 & 3) == 1, out_null = (g >> 4 & 3) == 2;
    int inplace = (g >> 4 & 3) == 3, olen_null = (h >> 2 & 7) == 7;
    int pkcs7_dec = !enc && pad == AESIR_PAD_PKCS7;
    int huge, huge_cap, capmode = h & 3, rc, ref_rc = AESIR_OK;
    size_t len = pick_len(f, REAL, &huge);
    size_t cap = pick_len(f, REAL + 32, &huge_cap), n = SENTINEL, need;
    size_t ref_len = 0;
    uint8_t iv[16], *ref = NULL, *src = NULL;
    unsigned certain;
    struct buf in = {0}, out = {0};

    fz_bytes(f, iv, 16);
    if (huge_cap)
        cap %= REAL + 33;
again:
    /* The errors known without reading the input. */
    certain = 0;
    if (olen_null || key_null || pad > AESIR_PAD_ZERO || (cbc && iv_null) ||
        (len != 0 && (in_null || out_null)))
        certain |= A(AESIR_E_ARGUMENT);
    if (!key_null && !key_ready(k, dir))
        certain |= A(AESIR_E_STATE);
    if ((pad == AESIR_PAD_NONE || !enc) && len % 16 != 0)
        certain |= A(AESIR_E_INPUT_LENGTH);
    if (pkcs7_dec && len == 0)
        certain |= A(AESIR_E_INPUT_LENGTH);
    /* The out_cap the header asks for (saturated); PKCS#7 decryption:
     * the plaintext's length, known after reading the padding, so a
     * short buffer is not refused without reading. */
    if (enc && pad == AESIR_PAD_PKCS7)
        need = sat_add(len / 16 * 16, 16);
    else if (enc && pad == AESIR_PAD_ZERO)
        need = len % 16 != 0 ? sat_add(len / 16 * 16, 16) : len;
    else
        need = len;
    if (huge && (pkcs7_dec || need <= cap) && certain == 0) {
        /* Only a call that must be refused gets a lying length. */
        len %= REAL + 1;
        huge = 0;
        goto again;
    }

    src = malloc((huge ? 16 : len) + 1);
    FUZZ_CHECK(src != NULL);
    fz_fill(&seed, src, huge ? 16 : len);
    if (certain == 0 && !huge) {
        /* The reference: the incremental API on the same input. */
        ref = malloc(len + 32);
        FUZZ_CHECK(ref != NULL);
        ref_rc =
            incremental(kctx[k], mode, dir, iv, pad, src, len, ref, &ref_len);
        FUZZ_CHECK(ref_rc == AESIR_OK ||
                   (pkcs7_dec && ref_rc == AESIR_E_PADDING));
        if (pkcs7_dec)
            need = ref_rc == AESIR_OK ? ref_len : 0;
        FUZZ_CHECK(ref_rc != AESIR_OK || ref_len == need);
    }
    /* Exactly the room the header asks for, or a byte less. */
    if (capmode == 1 && need <= REAL + 32)
        cap = need;
    else if (capmode == 2 && need != 0 && need <= REAL + 33)
        cap = need - 1;
    if (!pkcs7_dec && cap < need)
        certain |= A(AESIR_E_OUTPUT_SIZE);
    if (out_null && cap != 0) /* final's "NULL out with out_cap > 0" */
        certain |= A(AESIR_E_ARGUMENT);

    unsigned allowed = certain;
    if (allowed == 0 && ref_rc == AESIR_E_PADDING)
        allowed = A(AESIR_E_PADDING);
    else if (allowed == 0)
        allowed = cap < need ? A(AESIR_E_OUTPUT_SIZE) : A(AESIR_OK);
    if (pkcs7_dec && !huge && len > 16 && cap < len - 16)
        allowed |= A(AESIR_E_OUTPUT_SIZE); /* no plaintext could fit */

    if (inplace) {
        size_t room = huge ? (cap > 16 ? cap : 16) : (len > cap ? len : cap);
        out = buf_new(room, g & 7);
        memcpy(out.p, src, huge ? 16 : len);
        in = out;
    } else {
        if (!in_null) {
            in = buf_new(huge ? 16 : len, g & 7);
            memcpy(in.p, src, in.n);
        }
        if (!out_null)
            out = buf_new(cap, h >> 5);
    }
    uint8_t *snapshot = malloc(out.n + 1);
    FUZZ_CHECK(snapshot != NULL);
    if (out.p != NULL)
        memcpy(snapshot, out.p, out.n);

    const aesir_aes *key = key_null ? NULL : kctx[k];
    size_t *np = olen_null ? NULL : &n;
    FZ_TRACE("aesir_%s_%scrypt(%s%zu, %spad %u, %s, %zu, %s, %s, %zu)%s",
             cbc ? "cbc" : "ecb", enc ? "en" : "de", key_null ? "NULL k" : "&k",
             k, cbc ? (iv_null ? "NULL, " : "iv, ") : "", pad, nul(out.p), cap,
             olen_null ? "NULL" : "&n", nul(in.p), len,
             inplace ? " in place" : "");
    if (enc)
        rc = cbc ? aesir_cbc_encrypt(key, iv_null ? NULL : iv, pad, out.p, cap,
                                     np, in.p, len)
                 : aesir_ecb_encrypt(key, pad, out.p, cap, np, in.p, len);
    else
        rc = cbc ? aesir_cbc_decrypt(key, iv_null ? NULL : iv, pad, out.p, cap,
                                     np, in.p, len)
                 : aesir_ecb_decrypt(key, pad, out.p, cap, np, in.p, len);
    FZ_TRACE(" = %d, n %zu\n", rc, n);
    CHECK_RC(rc, allowed);
    if (rc != AESIR_OK) {
        /* "on any error *out_len is 0 and out is left as it was (in
         * place: the input survives)" */
        FUZZ_CHECK(olen_null || n == 0);
        if (out.p != NULL)
            FUZZ_CHECK(memcmp(out.p, snapshot, out.n) == 0);
    } else {
        FUZZ_CHECK(n == ref_len && n <= cap);
        FUZZ_CHECK(n == 0 || memcmp(out.p, ref, n) == 0);
        if (!inplace && out.p != NULL)
            FUZZ_CHECK(fz_all(out.p + n, out.n - n, FZ_CANARY));
    }
    if (in.p != NULL && !inplace)
        FUZZ_CHECK(memcmp(in.p, src, in.n) == 0); /* input is const */
    free(snapshot);
    free(ref);
    free(src);
    if (!inplace)
        buf_free(&in);
    buf_free(&out);
}

static void op_oneshot_stream(struct fz *f)
{
    static const aesir_mode modes[] = {AESIR_MODE_CFB128, AESIR_MODE_CFB8,
                                       AESIR_MODE_CFB1,   AESIR_MODE_OFB,
                                       AESIR_MODE_CTR,    AESIR_MODE_CTR};
    static const unsigned bits_v[] = {0, 32, 64, 128, 32, 64, 1, 96};
    unsigned b = fz_u8(f), g = fz_u8(f), w = fz_u8(f);
    aesir_mode mode = modes[b % 6];
    int enc = b >> 3 & 1;
    unsigned dir = enc || mode == AESIR_MODE_OFB || mode == AESIR_MODE_CTR
                       ? AESIR_ENCRYPT
                       : AESIR_DECRYPT;
    size_t k = (b >> 4) % NKEYS;
    unsigned bits = mode == AESIR_MODE_CTR ? bits_v[w & 7] : 0;
    int key_null = (g & 15) == 15, iv_null = (g & 15) == 14;
    int in_null = (g >> 4 & 3) == 1, out_null = (g >> 4 & 3) == 2;
    int inplace = (g >> 4 & 3) == 3, near_wrap = (g >> 6) == 3;
    int cfb1 = mode == AESIR_MODE_CFB1, huge;
    size_t len = pick_len(f, cfb1 ? 8 * 64 : REAL, &huge), bytes;
    unsigned allowed = 0;
    uint8_t iv[16];
    struct buf in = {0}, out = {0};
    uint8_t *ref = NULL;
    int rc;

    fz_bytes(f, iv, 16);
    if (near_wrap && ctr_width(bits) != 0)
        memset(iv + 16 - ctr_width(bits) / 8, 0xff, ctr_width(bits) / 8 - 1);
again:
    allowed = 0;
    if (key_null || iv_null || (len != 0 && (in_null || out_null)) ||
        (mode == AESIR_MODE_CTR && ctr_width(bits) == 0))
        allowed |= A(AESIR_E_ARGUMENT);
    if (!key_null && !key_ready(k, AESIR_ENCRYPT))
        allowed |= A(AESIR_E_STATE);
    if (mode == AESIR_MODE_CTR && ctr_width(bits) != 0 && !iv_null &&
        ctr_wraps(ctr_room(iv, ctr_width(bits)), 0, len))
        allowed |= A(AESIR_E_COUNTER_OVERFLOW);
    if (huge && (allowed == 0 || (allowed & A(AESIR_OK)))) {
        len %= (cfb1 ? 8 * 64 : REAL) + 1;
        huge = 0;
        goto again;
    }
    if (allowed == 0)
        allowed = A(AESIR_OK);
    bytes = huge ? 16 : cfb1 ? (len + 7) / 8 : len;
    if (inplace) {
        out = buf_new(bytes, g & 7);
        fz_fill(&seed, out.p, bytes);
        in = out;
    } else {
        if (!in_null) {
            in = buf_new(bytes, g & 7);
            fz_fill(&seed, in.p, bytes);
        }
        if (!out_null)
            out = buf_new(bytes, b & 7);
    }
    if (allowed == A(AESIR_OK) && (!cfb1 || len % 8 == 0)) {
        /* The reference: the incremental API on the same input. */
        size_t ref_len;
        ref = malloc(bytes + 32);
        FUZZ_CHECK(ref != NULL);
        FUZZ_CHECK_EQ(incremental(kctx[k], mode, dir, iv, bits, in.p, bytes,
                                  ref, &ref_len),
                      AESIR_OK);
        FUZZ_CHECK_EQ(ref_len, bytes);
    }
    uint8_t *snapshot = malloc(out.n + 1);
    FUZZ_CHECK(snapshot != NULL);
    if (out.p != NULL)
        memcpy(snapshot, out.p, out.n);

    const aesir_aes *key = key_null ? NULL : kctx[k];
    const uint8_t *ivp = iv_null ? NULL : iv;
    FZ_TRACE("%s(%s%zu, %s, %s, %s, %zu)%s", stream_name(mode, enc, bits),
             key_null ? "NULL k" : "&k", k, ivp ? "iv" : "NULL", nul(out.p),
             nul(in.p), len, inplace ? " in place" : "");
    switch (mode) {
    case AESIR_MODE_CFB128:
        rc = enc ? aesir_cfb128_encrypt(key, ivp, out.p, in.p, len)
                 : aesir_cfb128_decrypt(key, ivp, out.p, in.p, len);
        break;
    case AESIR_MODE_CFB8:
        rc = enc ? aesir_cfb8_encrypt(key, ivp, out.p, in.p, len)
                 : aesir_cfb8_decrypt(key, ivp, out.p, in.p, len);
        break;
    case AESIR_MODE_CFB1:
        rc = enc ? aesir_cfb1_encrypt(key, ivp, out.p, in.p, len)
                 : aesir_cfb1_decrypt(key, ivp, out.p, in.p, len);
        break;
    case AESIR_MODE_OFB:
        rc = aesir_ofb_crypt(key, ivp, out.p, in.p, len);
        break;
    default:
        rc = aesir_ctr_crypt(key, ivp, bits, out.p, in.p, len);
        break;
    }
    FZ_TRACE(" = %d\n", rc);
    CHECK_RC(rc, allowed);
    if (rc != AESIR_OK) {
        if (out.p != NULL)
            FUZZ_CHECK(memcmp(out.p, snapshot, out.n) == 0);
    } else if (ref != NULL) {
        FUZZ_CHECK(bytes == 0 || memcmp(out.p, ref, bytes) == 0);
    }
    free(snapshot);
    free(ref);
    if (!inplace)
        buf_free(&in);
    buf_free(&out);
}

/* ---- raw blocks, queries ------------------------------------------- */

static void op_raw(struct fz *f)
{
    unsigned b = fz_u8(f), g = fz_u8(f);
    size_t k = b % NKEYS;
    int dec = b >> 2 & 1, single = b >> 3 & 1;
    int ctx_null = (g & 15) == 15, in_null = (g >> 4 & 3) == 1;
    int out_null = (g >> 4 & 3) == 2, inplace = (g >> 4 & 3) == 3;
    unsigned dir = dec ? AESIR_DECRYPT : AESIR_ENCRYPT;
    int huge;
    size_t nblocks = pick_len(f, REAL / 16, &huge), bytes;
    unsigned allowed = 0;
    struct buf in = {0}, out = {0};
    uint8_t *want = NULL;
    int rc;

    if (single)
        nblocks = 1, huge = 0;
again:
    allowed = 0;
    if (ctx_null || !key_ready(k, dir))
        allowed |= A(AESIR_E_STATE);
    if (nblocks != 0 && (in_null || out_null))
        allowed |= A(AESIR_E_ARGUMENT);
    if (ctx_null)
        allowed |= A(AESIR_E_ARGUMENT);
    if (nblocks > SIZE_MAX / 16) /* "16 * nblocks does not fit" */
        allowed |= A(AESIR_E_INPUT_LENGTH);
    if (huge && allowed == 0) {
        nblocks %= REAL / 16 + 1;
        huge = 0;
        goto again;
    }
    if (allowed == 0)
        allowed = A(AESIR_OK);
    bytes = huge ? 16 : 16 * nblocks;
    if (inplace) {
        in = out = buf_new(bytes, g & 7);
        fz_fill(&seed, in.p, bytes);
    } else {
        if (!in_null) {
            in = buf_new(bytes, g & 7);
            fz_fill(&seed, in.p, bytes);
        }
        if (!out_null)
            out = buf_new(bytes, b >> 5);
    }
    if (allowed == A(AESIR_OK)) {
        /* "ECB without padding" */
        size_t n;
        want = malloc(bytes + 1);
        FUZZ_CHECK(want != NULL);
        FUZZ_CHECK_EQ(dec ? aesir_ecb_decrypt(kctx[k], AESIR_PAD_NONE, want,
                                              bytes, &n, in.p, bytes)
                          : aesir_ecb_encrypt(kctx[k], AESIR_PAD_NONE, want,
                                              bytes, &n, in.p, bytes),
                      AESIR_OK);
    }
    uint8_t *snapshot = malloc(out.n + 1);
    FUZZ_CHECK(snapshot != NULL);
    if (out.p != NULL)
        memcpy(snapshot, out.p, out.n);
    const aesir_aes *ctx = ctx_null ? NULL : kctx[k];
    FZ_TRACE("aesir_aes_%scrypt_block%s(%s%zu, %s, %s, %zu)", dec ? "de" : "en",
             single ? "" : "s", ctx_null ? "NULL k" : "&k", k, nul(out.p),
             nul(in.p), nblocks);
    if (single)
        rc = dec ? aesir_aes_decrypt_block(ctx, out.p, in.p)
                 : aesir_aes_encrypt_block(ctx, out.p, in.p);
    else
        rc = dec ? aesir_aes_decrypt_blocks(ctx, out.p, in.p, nblocks)
                 : aesir_aes_encrypt_blocks(ctx, out.p, in.p, nblocks);
    FZ_TRACE(" = %d\n", rc);
    CHECK_RC(rc, allowed);
    if (rc != AESIR_OK) {
        if (out.p != NULL)
            FUZZ_CHECK(memcmp(out.p, snapshot, out.n) == 0);
    } else if (want != NULL) {
        FUZZ_CHECK(bytes == 0 || memcmp(out.p, want, bytes) == 0);
    }
    free(snapshot);
    free(want);
    if (!inplace)
        buf_free(&in);
    buf_free(&out);
}

/*
 * A context that is not 16-byte aligned, holding garbage or a copy of a
 * live key (so that its contents look valid): aesir_aes_init_ex and
 * aesir_cipher_init (for the cipher context) refuse it with
 * AESIR_E_ARGUMENT, every other function takes it for a context not
 * initialised (AESIR_E_STATE); none writes to it or to its output.
 */
static void op_misaligned(struct fz *f)
{
    static const uint8_t key[32] = {1, 2, 3};
    /* off % 8 != 0: misaligned on every platform (32-bit PowerPC
     * accepts 8; include/aesir.h) */
    unsigned b = fz_u8(f), off = 1 + fz_u8(f) % 15;
    off += off == 8;
    int as_cipher = (b & 7) == 7;
    aesir_aes *odd = (aesir_aes *)(void *)(odd_area + 16 * (b >> 6) + off);
    aesir_cipher *oddc = (aesir_cipher *)(void *)(odd_area + off);
    uint8_t before[sizeof(odd_area)], iv[16] = {0};
    struct buf in = buf_new(32, 0), out = buf_new(32, 0);
    size_t n = SENTINEL, k = (b >> 3) % NKEYS;
    aesir_cipher c;
    int rc;

    if (mk[k].state == K_LIVE && !as_cipher)
        memcpy(odd, kctx[k], sizeof(aesir_aes));
    else
        memset(odd_area, (int)b, sizeof(odd_area));
    memcpy(before, odd_area, sizeof(odd_area));
    memset(in.p, 0x11, 32);
    FZ_TRACE("misaligned context %u bytes off 16: %s %u\n", off,
             as_cipher ? "aesir_cipher_init, cipher" : "key, call", b >> 3 & 7);
    if (as_cipher) {
        /* "aesir_cipher_init refuses another address" */
        rc = aesir_cipher_init(oddc, mk[k].state == K_LIVE ? kctx[k] : NULL,
                               AESIR_MODE_CTR, AESIR_ENCRYPT, iv, 16, 0);
        CHECK_RC(rc, A(AESIR_E_ARGUMENT));
    } else {
        switch (b >> 3 & 7) {
        case 0:
            rc = aesir_aes_init_ex(odd, key, 16, NULL, AESIR_ENCRYPT);
            break;
        case 1:
            rc = aesir_aes_encrypt_blocks(odd, out.p, in.p, 2);
            break;
        case 2:
            rc = aesir_aes_decrypt_block(odd, out.p, in.p);
            break;
        case 3:
            rc = aesir_cbc_encrypt(odd, iv, AESIR_PAD_PKCS7, out.p, 32, &n,
                                   in.p, 16);
            FUZZ_CHECK_EQ(n, 0);
            break;
        case 4:
            rc =
                aesir_ecb_decrypt(odd, AESIR_PAD_NONE, out.p, 32, &n, in.p, 32);
            FUZZ_CHECK_EQ(n, 0);
            break;
        case 5:
            rc = aesir_ctr_crypt(odd, iv, 32, out.p, in.p, 32);
            break;
        case 6:
            rc = aesir_cfb8_decrypt(odd, iv, out.p, in.p, 32);
            break;
        default:
            rc = aesir_cipher_init(&c, odd, AESIR_MODE_OFB, AESIR_ENCRYPT, iv,
                                   16, 0);
            break;
        }
        /* aesir_aes_init_ex refuses it; the others see no key there. */
        CHECK_RC(rc,
                 (b >> 3 & 7) == 0 ? A(AESIR_E_ARGUMENT) : A(AESIR_E_STATE));
    }
    FUZZ_CHECK(memcmp(before, odd_area, sizeof(odd_area)) == 0);
    FUZZ_CHECK(fz_all(out.p, 32, FZ_CANARY));
    buf_free(&in);
    buf_free(&out);
}

static void op_query(struct fz *f)
{
    unsigned b = fz_u8(f);
    size_t count = aesir_engine_count(), i;
    char name[17];
    int idx;

    switch (b % 5) {
    case 0: {
        int err = (int)fz_u32(f);
        FUZZ_CHECK(aesir_strerror(err) != NULL);
        FUZZ_CHECK(aesir_strerror(err % 16) != NULL);
        break;
    }
    case 1:
        i = (b & 0x80) ? SIZE_MAX - fz_u8(f) : fz_u8(f) % (count + 2);
        FUZZ_CHECK((aesir_engine_name(i) == NULL) == (i >= count));
        FUZZ_CHECK((aesir_engine_description(i) == NULL) == (i >= count));
        if (i >= count)
            FUZZ_CHECK_EQ(aesir_engine_flags(i), 0);
        break;
    case 2:
    case 3:
        /* A name from the input, or a known one cut or extended. */
        fz_bytes(f, (uint8_t *)name, 16);
        name[16] = 0;
        if (b & 0x40) {
            const char *known = aesir_engine_name(fz_u8(f) % count);
            size_t cut = fz_u8(f) % (strlen(known) + 2);
            snprintf(name, sizeof(name), "%.*s%s", (int)cut, known,
                     (b & 0x20) ? "x" : "");
        }
        idx = aesir_engine_find(name);
        FUZZ_CHECK(idx >= -1 && idx < (int)count);
        if (idx >= 0)
            FUZZ_CHECK(strcmp(aesir_engine_name((size_t)idx), name) == 0);
        if (b % 5 == 3) {
            int rc = aesir_engine_selftest(name);
            if (idx < 0)
                FUZZ_CHECK_EQ(rc, AESIR_E_ENGINE_UNKNOWN);
            else if (aesir_engine_flags((size_t)idx) & AESIR_ENGINE_AVAILABLE)
                FUZZ_CHECK_EQ(rc, AESIR_OK);
            else
                FUZZ_CHECK_EQ(rc, AESIR_E_ENGINE_UNAVAILABLE);
        }
        break;
    default:
        for (size_t k = 0; k < NKEYS; k++)
            check_key_info(k);
        for (size_t c = 0; c < NCIPHERS; c++)
            if (mc[c].state == C_UNINIT || mc[c].state == C_DEAD)
                FUZZ_CHECK_EQ(aesir_cipher_update_size(&cctx[c], b), 0);
        break;
    }
}

/* ---- the program ---------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Weights: the stateful calls most often. */
    static void (*const ops[])(struct fz *) = {
        op_key_init,       op_key_init,       op_key_clear,
        op_key_copy,       op_cipher_init,    op_cipher_init,
        op_cipher_init,    op_update,         op_update,
        op_update,         op_update,         op_update,
        op_final,          op_final,          op_final,
        op_cipher_clear,   op_oneshot_block,  op_oneshot_block,
        op_oneshot_stream, op_oneshot_stream, op_raw,
        op_misaligned,     op_query};
    struct fz f = {data, size};
    uint8_t garbage = fz_u8(&f), offs = fz_u8(&f);

    seed = 0x6a09e667f3bcc909u ^ garbage;
    /* Never-initialised contexts: a byte pattern. */
    for (size_t k = 0; k < NKEYS; k++) {
        kctx[k] = (aesir_aes *)(void *)(key_area[k] + 16 * (offs >> 2 * k & 3));
        memset(key_area[k], garbage, sizeof(key_area[k]));
        mk[k].state = K_UNINIT;
    }
    memset(cctx, garbage ^ 0x5a, sizeof(cctx));
    for (size_t c = 0; c < NCIPHERS; c++)
        mc[c].state = C_UNINIT;
    for (int i = 0; i < MAX_OPS && f.n > 0; i++)
        ops[fz_u8(&f) % (sizeof(ops) / sizeof(ops[0]))](&f);
    for (size_t k = 0; k < NKEYS; k++)
        aesir_aes_clear(kctx[k]);
    return 0;
}
