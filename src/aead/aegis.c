/*
 * aegis.c -- AEGIS-128L, AEGIS-256 and the parallel AEGIS-128X/256X
 * (draft-irtf-cfrg-aegis-aead-17, "The AEGIS Family of Authenticated
 * Encryption Algorithms", Denis and Lucas; after Wu and Preneel's CAESAR
 * submission AEGIS v1.1).
 *
 * AEGIS keeps a state of AES blocks S0..S7 (128L) or S0..S5 (256) and
 * updates it with one AES round per block, S'i = AESRound(S(i-1), Si),
 * the message XORed into S0 (and S4) (sections 3.3, 4.3). The keystream
 * is a few ANDs and XORs of state blocks (3.6, 4.6); the tag is the XOR
 * of the state after seven more updates on the lengths (3.9, 4.9). The
 * X variants run D = 2 or 4 such states side by side, lane i starting
 * from a context byte pair (i, D - 1), on D times the rate, and XOR the
 * D tags (section 5). With D = 1 they are AEGIS-128L / AEGIS-256 (5.6),
 * so one generic implementation with a degree serves all six variants.
 *
 * Paths. An engine with AES instructions has a whole-message kernel
 * (internal.h, aesir_aegis_fn: the state in vector registers) for the
 * variants its registers fit; everything else runs the generic code
 * here, which holds the state in memory, row j of all D lanes together
 * (16 D bytes), and calls an AES round on all 8 D (or 6 D) blocks of an
 * update at once: the engine's aes_round, else ct64's bitsliced one (a
 * constant-time round exists in every build; the table engines' rounds
 * would not be constant-time, so they get none).
 *
 * The incremental API (aesir_aegis_start .. finish / verify, at the end
 * of this file) keeps the state in its context in the generic layout;
 * whole blocks go to the engine's aegis_update kernel (aegis_kernel.h's
 * loops on a state in memory), the rest to the generic code.
 *
 * What is secret: the key (in the key object), the state (on the stack
 * here, wiped; in an incremental context, wiped by finish, verify, abort
 * and every error), the data. Branches and indices depend only on lengths
 * and the variant; the tag check is aesir_ct_compare. One-shot open
 * releases no plaintext on failure: it zeroes what it wrote.
 */
#include "aegis.h"
#include "aead_ctx.h"

/* ---- the generic path ------------------------------------------------ */

/* aegis_generic's frame and its callees' (memcpy; the round hooks wipe
 * their own): the state and its rotated copy (1 KiB), the block
 * buffers, Init's key-derived blocks, with margin; tests/test_residue.c
 * checks it. */
#define AEGIS_GENERIC_STACK 2560

struct aegis_gen {
    aesir_aes_round_fn round;
    unsigned rows; /* 8 or 6 */
    unsigned d;    /* degree */
    size_t b;      /* bytes per row: 16 d */
    int fam;       /* 0: 128L family, 1: 256 family */
    uint8_t *s;    /* the state: the caller's frame, or a context's */
    /* the engine's block kernel for Init's and Finalize's updates (the
     * incremental API), or NULL */
    aesir_aegis_update_fn upd;
    int variant;
    uint8_t t[8 * 64];
};

/* g for the variant of k on the state at s (8 * 64 bytes). */
static void gen_setup(struct aegis_gen *g, const struct aegis_key_state *k,
                      uint8_t *s)
{
    g->round = k->round;
    g->fam = aegis_family(k->variant);
    g->d = aegis_degree(k->variant);
    g->rows = g->fam == 0 ? 8 : 6;
    g->b = 16 * (size_t)g->d;
    g->s = s;
    g->upd = NULL;
    g->variant = k->variant;
}

static uint8_t *row(struct aegis_gen *g, unsigned j)
{
    return g->s + g->b * j;
}

static void xor_into(uint8_t *d, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] ^= s[i];
}

/* Update(M0, M1) (3.3, 5.4.1) or Update(M) (4.3, 5.5.1): t = the state
 * rotated by one row, s with the message in, t = AESRound(t, s). */
static void update(struct aegis_gen *g, const uint8_t *m0, const uint8_t *m1)
{
    const size_t b = g->b, all = b * g->rows;

    memcpy(g->t, g->s + all - b, b);
    memcpy(g->t + b, g->s, all - b);
    xor_into(row(g, 0), m0, b);
    if (g->fam == 0)
        xor_into(row(g, 4), m1, b);
    g->round(g->t, g->s, g->rows * g->d);
    memcpy(g->s, g->t, all);
}

/* Update with m0 (and m1) as update(), through the engine's block
 * kernel when g has one: the incremental API's Init and Finalize on the
 * kernel engines, 17 to 23 updates that the generic code (an AES round
 * call per update, the state copied twice) ran at about a tenth of the
 * kernel's speed: 3% of a 1 MiB AEGIS-128X4 message in 16 KiB updates. */
static void step(struct aegis_gen *g, const uint8_t *m0, const uint8_t *m1)
{
    if (g->upd != NULL) {
        uint8_t blk[AEGIS_MAX_RATE];
        int r;
        memcpy(blk, m0, g->b);
        if (g->fam == 0)
            memcpy(blk + g->b, m1, g->b);
        r = g->upd(g->variant, AEGIS_OP_AD, g->s, NULL, blk, 1);
        aesir_wipe(blk, sizeof(blk));
        if (r == 0)
            return;
    }
    update(g, m0, m1);
}

/* Every lane's row j set to x. */
static void fill(struct aegis_gen *g, unsigned j, const uint8_t x[16])
{
    for (unsigned i = 0; i < g->d; i++)
        memcpy(row(g, j) + 16 * i, x, 16);
}

/* ctx[i] = Byte(i) || Byte(D - 1) || 0^112 into row j of lane i (5.4.2,
 * 5.5.2); all zero when D = 1. */
static void add_ctx(struct aegis_gen *g, unsigned j)
{
    for (unsigned i = 0; i < g->d; i++) {
        row(g, j)[16 * i] ^= (uint8_t)i;
        row(g, j)[16 * i + 1] ^= (uint8_t)(g->d - 1);
    }
}

static void init(struct aegis_gen *g, const uint8_t *key, const uint8_t *nonce)
{
    uint8_t a[16], v[4][64];

    if (g->fam == 0) { /* 3.4, 5.4.2 */
        for (unsigned k = 0; k < 16; k++)
            a[k] = key[k] ^ nonce[k];
        fill(g, 0, a);
        fill(g, 4, a);
        fill(g, 1, aegis_c1);
        fill(g, 2, aegis_c0);
        fill(g, 3, aegis_c1);
        for (unsigned k = 0; k < 16; k++)
            a[k] = key[k] ^ aegis_c0[k];
        fill(g, 5, a);
        fill(g, 7, a);
        for (unsigned k = 0; k < 16; k++)
            a[k] = key[k] ^ aegis_c1[k];
        fill(g, 6, a);
        for (unsigned i = 0; i < g->d; i++) {
            memcpy(v[0] + 16 * i, nonce, 16);
            memcpy(v[1] + 16 * i, key, 16);
        }
        for (unsigned r = 0; r < 10; r++) {
            add_ctx(g, 3);
            add_ctx(g, 7);
            step(g, v[0], v[1]);
        }
    } else { /* 4.4, 5.5.2 */
        for (unsigned k = 0; k < 16; k++)
            a[k] = key[k] ^ nonce[k];
        fill(g, 0, a);
        for (unsigned k = 0; k < 16; k++)
            a[k] = key[16 + k] ^ nonce[16 + k];
        fill(g, 1, a);
        fill(g, 2, aegis_c1);
        fill(g, 3, aegis_c0);
        for (unsigned k = 0; k < 16; k++)
            a[k] = key[k] ^ aegis_c0[k];
        fill(g, 4, a);
        for (unsigned k = 0; k < 16; k++)
            a[k] = key[16 + k] ^ aegis_c1[k];
        fill(g, 5, a);
        for (unsigned i = 0; i < g->d; i++) {
            memcpy(v[0] + 16 * i, key, 16);
            memcpy(v[1] + 16 * i, key + 16, 16);
            for (unsigned k = 0; k < 16; k++) {
                v[2][16 * i + k] = key[k] ^ nonce[k];
                v[3][16 * i + k] = key[16 + k] ^ nonce[16 + k];
            }
        }
        for (unsigned r = 0; r < 16; r++) {
            add_ctx(g, 3);
            add_ctx(g, 5);
            step(g, v[r & 3], NULL);
        }
    }
    aesir_wipe(a, sizeof(a));
    aesir_wipe(v, sizeof(v));
}

/* The keystream of the next rate bytes (3.6, 4.6, 5.4.4, 5.5.4). */
static void keystream(struct aegis_gen *g, uint8_t *z)
{
    const size_t b = g->b;
    if (g->fam == 0) {
        for (size_t k = 0; k < b; k++) {
            z[k] = row(g, 1)[k] ^ row(g, 6)[k] ^ (row(g, 2)[k] & row(g, 3)[k]);
            z[b + k] =
                row(g, 2)[k] ^ row(g, 5)[k] ^ (row(g, 6)[k] & row(g, 7)[k]);
        }
    } else {
        for (size_t k = 0; k < b; k++)
            z[k] = row(g, 1)[k] ^ row(g, 4)[k] ^ row(g, 5)[k] ^
                   (row(g, 2)[k] & row(g, 3)[k]);
    }
}

/* One block of rate bytes: absorbed (AD), or encrypted / decrypted with
 * the plaintext absorbed. x is a copy (in and out may be the same). */
static void absorb(struct aegis_gen *g, const uint8_t *x)
{
    update(g, x, x + g->b);
}

static void finalize(struct aegis_gen *g, uint64_t ad_len, uint64_t msg_len,
                     uint8_t *tag, size_t tag_len)
{
    uint8_t u[16], t[64], acc[32] = {0};
    const unsigned lenrow = g->fam == 0 ? 2 : 3;
    const unsigned half = g->fam == 0 ? 4 : 3; /* 256-bit tag: rows split */

    for (unsigned k = 0; k < 8; k++) {
        u[k] = (uint8_t)((ad_len * 8) >> (8 * k));
        u[8 + k] = (uint8_t)((msg_len * 8) >> (8 * k));
    }
    for (unsigned i = 0; i < g->d; i++)
        for (unsigned k = 0; k < 16; k++)
            t[16 * i + k] = row(g, lenrow)[16 * i + k] ^ u[k];
    for (unsigned r = 0; r < 7; r++)
        step(g, t, t);
    for (unsigned i = 0; i < g->d; i++) {
        if (tag_len == 16) { /* all rows but the last of the 128 family */
            const unsigned n = g->fam == 0 ? 7 : 6;
            for (unsigned j = 0; j < n; j++)
                xor_into(acc, row(g, j) + 16 * i, 16);
        } else {
            for (unsigned j = 0; j < g->rows; j++)
                xor_into(acc + (j < half ? 0 : 16), row(g, j) + 16 * i, 16);
        }
    }
    memcpy(tag, acc, tag_len);
    aesir_wipe(acc, sizeof(acc));
    aesir_wipe(t, sizeof(t));
}

/* The whole message on the generic path. The state and buffers are on
 * the stack, wiped before returning; what the compiler copied elsewhere
 * in the frame (clang 14 left key words and a state row of Init there)
 * goes with the stack wipe after the call (run). Out of line, so that
 * its frame lies below run's. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void
aegis_generic(const struct aegis_key_state *k, const uint8_t *nonce,
              const uint8_t *aad, size_t aad_len, uint8_t *out,
              const uint8_t *in, size_t len, uint8_t *tag, size_t tag_len,
              int decrypt)
{
    struct aegis_gen g;
    uint8_t s[8 * 64], x[AEGIS_MAX_RATE], z[AEGIS_MAX_RATE];
    size_t rate, done;

    gen_setup(&g, k, s);
    rate = g.fam == 0 ? 2 * g.b : g.b;

    init(&g, k->key, nonce);
    for (done = 0; aad_len - done >= rate; done += rate)
        absorb(&g, aad + done);
    if (done < aad_len) {
        memset(x, 0, rate);
        memcpy(x, aad + done, aad_len - done);
        absorb(&g, x);
    }
    for (done = 0; done < len; done += rate) {
        const size_t n = len - done < rate ? len - done : rate;
        keystream(&g, z);
        memset(x, 0, rate);
        memcpy(x, in + done, n);
        for (size_t i = 0; i < n; i++)
            out[done + i] = x[i] ^ z[i];
        if (decrypt) /* the plaintext, zero-padded (DecPartial) */
            for (size_t i = 0; i < n; i++)
                x[i] ^= z[i];
        absorb(&g, x);
    }
    finalize(&g, aad_len, len, tag, tag_len);
    aesir_wipe(&g, sizeof(g));
    aesir_wipe(s, sizeof(s));
    aesir_wipe(x, sizeof(x));
    aesir_wipe(z, sizeof(z));
}

/* ---- key ------------------------------------------------------------- */

/* Key and nonce bytes of variant, 0 for none (inline: every call
 * checks the nonce's length). */
static size_t key_bytes(int variant)
{
    if (variant < AESIR_AEGIS_128L || variant > AESIR_AEGIS_256X4)
        return 0;
    return aegis_family(variant) ? 32 : 16;
}

size_t aesir_aegis_key_bytes(int variant)
{
    return key_bytes(variant);
}

size_t aesir_aegis_nonce_bytes(int variant)
{
    return key_bytes(variant);
}

static const struct aegis_key_state *key_state(const aesir_aegis_key *key)
{
    const struct aegis_key_state *k;
    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return NULL;
    k = (const struct aegis_key_state *)(const void *)key->opaque;
    return k->magic == AEGIS_KEY_MAGIC ? k : NULL;
}

void aesir_aegis_clear(aesir_aegis_key *key)
{
    if (key != NULL)
        aesir_wipe((void *)key, sizeof(aesir_aegis_key));
}

int aesir_aegis_init_ex(aesir_aegis_key *key, int variant, const uint8_t *k,
                        size_t key_len, const char *engine)
{
    struct aegis_key_state *st;
    const struct aesir_engine *e, *ct64;
    int err;

    if (key == NULL || (uintptr_t)key % AESIR_CTX_ALIGN != 0)
        return AESIR_E_ARGUMENT;
    st = (struct aegis_key_state *)(void *)key->opaque;
    if (k == NULL || key_bytes(variant) == 0) {
        err = AESIR_E_ARGUMENT;
        goto fail;
    }
    if (key_len != key_bytes(variant)) {
        err = AESIR_E_KEY_LENGTH;
        goto fail;
    }
    if ((e = aesir_engine_checked(aesir_engine_index(engine), &err)) == NULL)
        goto fail;
    st->engine = e;
    st->variant = variant;
    st->kernel = NULL;
    st->update = NULL;
    if (e->aes_round != NULL) {
        st->round = e->aes_round;
        st->path = AEGIS_PATH_ROUND;
    } else {
        /* ct64 is in every build and needs no CPU feature */
        ct64 = aesir_engine_checked(AESIR_ENGINE_INDEX_ct64, &err);
        if (ct64 == NULL)
            goto fail;
        st->round = ct64->aes_round;
        st->path = AEGIS_PATH_ROUND_CT64;
    }
    /* A kernel that does not take this variant says so by returning -1
     * on an empty message; ask once here, not per message. */
    if (e->aegis != NULL) {
        uint8_t t[16], zk[32] = {0};
        if (e->aegis(variant, zk, zk, NULL, 0, NULL, NULL, 0, t, 16, 0) == 0) {
            /* the variant's own kernel when the engine offers it: no
             * switch and no stack wipe per call */
            aesir_aegis_fn f =
                e->aegis_for != NULL ? e->aegis_for(variant) : NULL;
            st->kernel = f != NULL ? f : e->aegis;
            st->path = AEGIS_PATH_KERNEL;
        }
        aesir_wipe(t, sizeof(t));
        /* the same question for the incremental API's blocks */
        if (e->aegis_update != NULL &&
            e->aegis_update(variant, AEGIS_OP_AD, NULL, NULL, NULL, 0) == 0)
            st->update = e->aegis_update;
    }
    memset(st->key, 0, sizeof(st->key));
    memcpy(st->key, k, key_len);
    st->magic = AEGIS_KEY_MAGIC;
    return AESIR_OK;
fail:
    aesir_aegis_clear(key);
    return err;
}

int aesir_aegis_init(aesir_aegis_key *key, int variant, const uint8_t *k,
                     size_t key_len)
{
    return aesir_aegis_init_ex(key, variant, k, key_len, NULL);
}

int aesir_aegis_engine(const aesir_aegis_key *key, const char **engine,
                       const char **path)
{
    static const char *const names[] = {"kernel", "round", "round-ct64"};
    const struct aegis_key_state *k = key_state(key);
    if (k == NULL)
        return AESIR_E_STATE;
    if (engine != NULL)
        *engine = k->engine->name;
    if (path != NULL)
        *path = names[k->path];
    return AESIR_OK;
}

/* ---- one-shot -------------------------------------------------------- */

/* The checks every call makes, before anything is written. */
static int check(const struct aegis_key_state *k, const uint8_t *nonce,
                 size_t nonce_len, const uint8_t *aad, size_t aad_len,
                 size_t tag_len)
{
    /* the data's pointers and length are the callers' (after these) */
    return aead_oneshot_checks(k, nonce, aad, aad_len, NULL, NULL, 0,
                               tag_len == 16 || tag_len == 32,
                               k != NULL && nonce_len == key_bytes(k->variant),
                               aesir_at_most(aad_len, AEGIS_MAX_LEN));
}

/* The message on the key's path. A key has a kernel only if the engine
 * took its variant at init (aesir_aegis_init_ex asks), so the kernel's
 * result is not looked at: with a fallback after the call, every
 * argument had to survive it (six registers saved and restored per
 * call, about 2 TSC cycles of a 64-byte message). */
static void run(const struct aegis_key_state *k, const uint8_t *nonce,
                const uint8_t *aad, size_t aad_len, uint8_t *out,
                const uint8_t *in, size_t len, uint8_t *tag, size_t tag_len,
                int decrypt)
{
    if (k->kernel != NULL) {
        (void)k->kernel(k->variant, k->key, nonce, aad, aad_len, out, in, len,
                        tag, tag_len, decrypt);
        return;
    }
    aegis_generic(k, nonce, aad, aad_len, out, in, len, tag, tag_len, decrypt);
    aesir_wipe_stack(AEGIS_GENERIC_STACK);
}

int aesir_aegis_seal_detached(const aesir_aegis_key *key, const uint8_t *nonce,
                              size_t nonce_len, const uint8_t *aad,
                              size_t aad_len, uint8_t *out, uint8_t *tag,
                              size_t tag_len, const uint8_t *in, size_t len)
{
    const struct aegis_key_state *k = key_state(key);
    int err = check(k, nonce, nonce_len, aad, aad_len, tag_len);

    if (err != AESIR_OK)
        return err;
    if (tag == NULL || (len != 0 && (in == NULL || out == NULL)))
        return AESIR_E_ARGUMENT;
    if (!aesir_at_most(len, AEGIS_MAX_LEN))
        return AESIR_E_INPUT_LENGTH;
    run(k, nonce, aad, aad_len, out, in, len, tag, tag_len, 0);
    return AESIR_OK;
}

/* Open once the arguments are checked: the verdict, out zeroed on
 * failure. aesir_aegis_open comes here directly: through
 * aesir_aegis_open_detached it made every check twice and one more call
 * (AEGIS-128L opens of 64 and 576 bytes 92 -> 84 and 161 -> 155 TSC
 * cycles, Zen 4, medians of 3). Inline in both: as a call of its own (9
 * arguments, 3 on the stack) it made the detached open 4-8 cycles
 * slower. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int
open_checked(const struct aegis_key_state *k, const uint8_t *nonce,
             const uint8_t *aad, size_t aad_len, uint8_t *out,
             const uint8_t *tag, size_t tag_len, const uint8_t *in, size_t len)
{
    uint8_t t[32], want[32];
    int err;

    /* the tag may lie in out's way (in place, appended): read it first
     * (two fixed sizes: moves, not a call to memcpy) */
    if (tag_len == 16)
        memcpy(want, tag, 16);
    else
        memcpy(want, tag, 32);
    run(k, nonce, aad, aad_len, out, in, len, t, tag_len, 1);
    err = aead_verdict_words(t, want, tag_len);
    aesir_wipe(t, sizeof(t));
    return aead_released(err, out, len);
}

int aesir_aegis_open_detached(const aesir_aegis_key *key, const uint8_t *nonce,
                              size_t nonce_len, const uint8_t *aad,
                              size_t aad_len, uint8_t *out, const uint8_t *tag,
                              size_t tag_len, const uint8_t *in, size_t len)
{
    const struct aegis_key_state *k = key_state(key);
    int err = check(k, nonce, nonce_len, aad, aad_len, tag_len);

    if (err != AESIR_OK)
        return err;
    if (tag == NULL || (len != 0 && (in == NULL || out == NULL)))
        return AESIR_E_ARGUMENT;
    if (!aesir_at_most(len, AEGIS_MAX_LEN))
        return AESIR_E_INPUT_LENGTH;
    return open_checked(k, nonce, aad, aad_len, out, tag, tag_len, in, len);
}

int aesir_aegis_seal(const aesir_aegis_key *key, const uint8_t *nonce,
                     size_t nonce_len, const uint8_t *aad, size_t aad_len,
                     uint8_t *out, size_t out_cap, size_t *out_len,
                     const uint8_t *in, size_t in_len, size_t tag_len)
{
    const struct aegis_key_state *k = key_state(key);
    int err = check(k, nonce, nonce_len, aad, aad_len, tag_len);

    if (err != AESIR_OK)
        return err;
    if (out == NULL || out_len == NULL || (in == NULL && in_len != 0))
        return AESIR_E_ARGUMENT;
    if (!aesir_at_most(in_len, AEGIS_MAX_LEN))
        return AESIR_E_INPUT_LENGTH;
    if (out_cap < tag_len || out_cap - tag_len < in_len)
        return AESIR_E_OUTPUT_SIZE;
    run(k, nonce, aad, aad_len, out, in, in_len, out + in_len, tag_len, 0);
    *out_len = in_len + tag_len;
    return AESIR_OK;
}

int aesir_aegis_open(const aesir_aegis_key *key, const uint8_t *nonce,
                     size_t nonce_len, const uint8_t *aad, size_t aad_len,
                     uint8_t *out, size_t out_cap, size_t *out_len,
                     const uint8_t *in, size_t in_len, size_t tag_len)
{
    const struct aegis_key_state *k = key_state(key);
    int err = check(k, nonce, nonce_len, aad, aad_len, tag_len);
    size_t len;

    if (err != AESIR_OK)
        return err;
    if (in == NULL || out_len == NULL || (out == NULL && in_len > tag_len))
        return AESIR_E_ARGUMENT;
    if (in_len < tag_len)
        return AESIR_E_INPUT_LENGTH;
    len = in_len - tag_len;
    if (!aesir_at_most(len, AEGIS_MAX_LEN))
        return AESIR_E_INPUT_LENGTH;
    if (out_cap < len)
        return AESIR_E_OUTPUT_SIZE;
    err = open_checked(k, nonce, aad, aad_len, out, in + len, tag_len, in, len);
    *out_len = err == AESIR_OK ? len : 0;
    return err;
}

/* ---- incremental ----------------------------------------------------- */

/*
 * A message in pieces (aesir_aegis_start .. finish / verify). The
 * context holds the state (the generic path's layout, which is also what
 * the engines' aegis_update hooks load and store), the keystream of the
 * current data block and that block's bytes so far: AAD, or the
 * plaintext (what the block absorbs, section 3.6 / 3.7; zero-padded for
 * the last partial block, DecPartial 3.8). Every data byte is written
 * out at once (the keystream of a block depends only on the state before
 * it), so an update of len bytes writes len bytes, as GCM's does.
 *
 * Whole blocks go to the engine's aegis_update when it has one for the
 * variant (the kernels' loops, the state loaded and stored once per
 * call), else one at a time through the generic code; Init, partial
 * blocks and Finalize always take the generic code on the key's AES
 * round (a fixed cost per message: 17 to 23 updates).
 */
#define AEGIS_CTX_MAGIC 0x61656763u /* "aegc" */

enum { PH_NONE, PH_AAD, PH_ENC, PH_DEC };

struct aegis_ctx_state {
    const struct aegis_key_state *key;
    uint32_t magic;
    uint32_t phase;
    uint32_t nbuf; /* bytes of the current block in m */
    uint32_t rate; /* bytes per block */
    uint64_t aad_len, msg_len;
    uint8_t s[8 * 64];         /* the state */
    uint8_t z[AEGIS_MAX_RATE]; /* the current data block's keystream */
    uint8_t m[AEGIS_MAX_RATE]; /* the current block's AAD or plaintext */
};
_Static_assert(sizeof(struct aegis_ctx_state) <= sizeof(aesir_aegis),
               "aesir_aegis too small");

static struct aegis_ctx_state *ctx_state(aesir_aegis *ctx)
{
    return (struct aegis_ctx_state *)(void *)ctx->opaque;
}

/* live, end, not_live on a message context (aead_ctx.h); a misaligned
 * context is an argument error here. */
AEAD_MESSAGES(aesir_aegis, struct aegis_ctx_state, AEGIS_CTX_MAGIC, key_state,
              AESIR_E_ARGUMENT)

void aesir_aegis_abort(aesir_aegis *ctx)
{
    (void)end(ctx, AESIR_OK);
}

/* The generic code's pieces on the context's state; each is out of line
 * so that its frame lies below the caller's, which wipes it (flag *gen:
 * the generic code ran, the stack needs the wipe). */
#if defined(__GNUC__) || defined(__clang__)
#define AEGIS_NOINLINE __attribute__((noinline))
#else
#define AEGIS_NOINLINE
#endif

AEGIS_NOINLINE static void ctx_init(struct aegis_ctx_state *st,
                                    const uint8_t *nonce)
{
    struct aegis_gen g;
    gen_setup(&g, st->key, st->s);
    g.upd = st->key->update;
    init(&g, st->key->key, nonce);
    aesir_wipe(&g, sizeof(g));
}

/* n whole blocks: op AEGIS_OP_AD absorbs in, ENC / DEC as the kernels. */
AEGIS_NOINLINE static void ctx_blocks_generic(struct aegis_ctx_state *st,
                                              unsigned op, uint8_t *out,
                                              const uint8_t *in, size_t n)
{
    struct aegis_gen g;
    uint8_t x[AEGIS_MAX_RATE], z[AEGIS_MAX_RATE];
    const size_t rate = st->rate;

    gen_setup(&g, st->key, st->s);
    for (size_t i = 0; i < n; i++, in += rate) {
        if (op == AEGIS_OP_AD) {
            absorb(&g, in);
            continue;
        }
        keystream(&g, z);
        memcpy(x, in, rate); /* in may be out */
        for (size_t j = 0; j < rate; j++)
            out[j] = x[j] ^ z[j];
        if (op == AEGIS_OP_DEC)
            memcpy(x, out, rate);
        absorb(&g, x);
        out += rate;
    }
    aesir_wipe(&g, sizeof(g));
    aesir_wipe(x, sizeof(x));
    aesir_wipe(z, sizeof(z));
}

static void ctx_blocks(struct aegis_ctx_state *st, unsigned op, uint8_t *out,
                       const uint8_t *in, size_t n, int *gen)
{
    const struct aegis_key_state *k = st->key;
    if (n == 0)
        return;
    if (k->update != NULL && k->update(k->variant, op, st->s, out, in, n) == 0)
        return;
    ctx_blocks_generic(st, op, out, in, n);
    *gen = 1;
}

/* The keystream of the next data block into st->z. */
AEGIS_NOINLINE static void ctx_keystream(struct aegis_ctx_state *st)
{
    struct aegis_gen g;
    gen_setup(&g, st->key, st->s);
    keystream(&g, st->z);
    aesir_wipe(&g, sizeof(g));
}

/* The block in m, zero-padded, absorbed (AAD's last, or the data's). */
static void ctx_flush(struct aegis_ctx_state *st, int *gen)
{
    if (st->nbuf == 0)
        return;
    memset(st->m + st->nbuf, 0, st->rate - st->nbuf);
    ctx_blocks(st, AEGIS_OP_AD, NULL, st->m, 1, gen);
    st->nbuf = 0;
}

AEGIS_NOINLINE static void ctx_final(struct aegis_ctx_state *st, uint8_t *tag,
                                     size_t tag_len)
{
    struct aegis_gen g;
    gen_setup(&g, st->key, st->s);
    g.upd = st->key->update;
    finalize(&g, st->aad_len, st->msg_len, tag, tag_len);
    aesir_wipe(&g, sizeof(g));
}

int aesir_aegis_start(aesir_aegis *ctx, const aesir_aegis_key *key,
                      const uint8_t *nonce, size_t nonce_len)
{
    const struct aegis_key_state *k = key_state(key);
    struct aegis_ctx_state *st;

    if (!aead_ctx_ok(ctx))
        return AESIR_E_ARGUMENT;
    if (k == NULL)
        return end(ctx, AESIR_E_STATE);
    if (nonce == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    if (nonce_len != key_bytes(k->variant))
        return end(ctx, AESIR_E_IV_LENGTH);
    st = ctx_state(ctx);
    memset(st, 0, sizeof(*st));
    st->key = k;
    st->rate = (uint32_t)(16 * aegis_degree(k->variant) *
                          (aegis_family(k->variant) == 0 ? 2 : 1));
    ctx_init(st, nonce);
    aesir_wipe_stack(AEGIS_GENERIC_STACK);
    st->phase = PH_AAD;
    st->magic = AEGIS_CTX_MAGIC;
    return AESIR_OK;
}

/* len bytes of AAD: the partial block in m first, whole blocks, the rest
 * into m. */
static void ctx_aad(struct aegis_ctx_state *st, const uint8_t *aad, size_t len,
                    int *gen)
{
    if (st->nbuf != 0) {
        const size_t n = st->rate - st->nbuf < len ? st->rate - st->nbuf : len;
        memcpy(st->m + st->nbuf, aad, n);
        st->nbuf += (uint32_t)n;
        aad += n, len -= n;
        if (st->nbuf < st->rate)
            return;
        ctx_blocks(st, AEGIS_OP_AD, NULL, st->m, 1, gen);
        st->nbuf = 0;
    }
    ctx_blocks(st, AEGIS_OP_AD, NULL, aad, len / st->rate, gen);
    aad += len - len % st->rate;
    len %= st->rate;
    memcpy(st->m, aad, len);
    st->nbuf = (uint32_t)len;
}

int aesir_aegis_aad(aesir_aegis *ctx, const uint8_t *aad, size_t len)
{
    struct aegis_ctx_state *st = live(ctx, 1u << PH_AAD);
    int gen = 0;

    if (st == NULL)
        return not_live(ctx);
    if (len == 0)
        return AESIR_OK;
    if (aad == NULL)
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)len > AEGIS_MAX_LEN - st->aad_len)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    st->aad_len += len;
    ctx_aad(st, aad, len, &gen);
    if (gen)
        aesir_wipe_stack(AEGIS_GENERIC_STACK);
    return AESIR_OK;
}

/* n bytes of the current block: out = in ^ keystream, the plaintext
 * into m. */
static void ctx_bytes(struct aegis_ctx_state *st, unsigned phase, uint8_t *out,
                      const uint8_t *in, size_t n)
{
    uint8_t *m = st->m + st->nbuf;
    const uint8_t *z = st->z + st->nbuf;
    for (size_t i = 0; i < n; i++) {
        const uint8_t c = in[i];
        out[i] = c ^ z[i];
        m[i] = phase == PH_ENC ? c : out[i];
    }
    st->nbuf += (uint32_t)n;
}

static void ctx_data(struct aegis_ctx_state *st, unsigned phase, uint8_t *out,
                     const uint8_t *in, size_t len, int *gen)
{
    const unsigned op = phase == PH_ENC ? AEGIS_OP_ENC : AEGIS_OP_DEC;
    size_t n;

    if (st->nbuf != 0) {
        n = st->rate - st->nbuf < len ? st->rate - st->nbuf : len;
        ctx_bytes(st, phase, out, in, n);
        out += n, in += n, len -= n;
        if (st->nbuf < st->rate)
            return;
        ctx_blocks(st, AEGIS_OP_AD, NULL, st->m, 1, gen);
        st->nbuf = 0;
    }
    n = len / st->rate;
    ctx_blocks(st, op, out, in, n, gen);
    out += n * st->rate, in += n * st->rate, len -= n * st->rate;
    if (len != 0) {
        ctx_keystream(st);
        *gen = 1;
        ctx_bytes(st, phase, out, in, len);
    }
}

static int data_update(aesir_aegis *ctx, unsigned phase, uint8_t *out,
                       const uint8_t *in, size_t len)
{
    struct aegis_ctx_state *st = live(ctx, 1u << PH_AAD | 1u << phase);
    int gen = 0;

    if (st == NULL)
        return not_live(ctx);
    if (len != 0 && (out == NULL || in == NULL))
        return end(ctx, AESIR_E_ARGUMENT);
    if ((uint64_t)len > AEGIS_MAX_LEN - st->msg_len)
        return end(ctx, AESIR_E_INPUT_LENGTH);
    if (st->phase == PH_AAD) {
        ctx_flush(st, &gen);
        st->phase = phase;
    }
    st->msg_len += len;
    ctx_data(st, phase, out, in, len, &gen);
    if (gen)
        aesir_wipe_stack(AEGIS_GENERIC_STACK);
    return AESIR_OK;
}

int aesir_aegis_encrypt_update(aesir_aegis *ctx, uint8_t *out,
                               const uint8_t *in, size_t len)
{
    return data_update(ctx, PH_ENC, out, in, len);
}

int aesir_aegis_decrypt_update_unverified(aesir_aegis *ctx, uint8_t *out,
                                          const uint8_t *in, size_t len)
{
    return data_update(ctx, PH_DEC, out, in, len);
}

/* The tag of the message so far into t (tag_len bytes); the state is
 * spent. */
static void ctx_tag(struct aegis_ctx_state *st, uint8_t *t, size_t tag_len)
{
    int gen = 0;
    ctx_flush(st, &gen);
    ctx_final(st, t, tag_len);
    aesir_wipe_stack(AEGIS_GENERIC_STACK);
}

int aesir_aegis_finish(aesir_aegis *ctx, uint8_t *tag, size_t tag_len)
{
    struct aegis_ctx_state *st = live(ctx, 1u << PH_AAD | 1u << PH_ENC);
    uint8_t t[32];

    if (st == NULL)
        return not_live(ctx);
    if (tag == NULL || (tag_len != 16 && tag_len != 32))
        return end(ctx, AESIR_E_ARGUMENT);
    ctx_tag(st, t, tag_len);
    memcpy(tag, t, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, AESIR_OK);
}

int aesir_aegis_verify(aesir_aegis *ctx, const uint8_t *tag, size_t tag_len)
{
    struct aegis_ctx_state *st = live(ctx, 1u << PH_AAD | 1u << PH_DEC);
    uint8_t t[32];
    int err;

    if (st == NULL)
        return not_live(ctx);
    if (tag == NULL || (tag_len != 16 && tag_len != 32))
        return end(ctx, AESIR_E_ARGUMENT);
    ctx_tag(st, t, tag_len);
    err = aead_verdict(t, tag, tag_len);
    aesir_wipe(t, sizeof(t));
    return end(ctx, err);
}
