/*
 * fuzz_many.c -- libFuzzer target: multi-buffer CBC encryption and
 * CBC-MAC (aesir_cbc_encrypt_many, aesir_cbc_mac_many) on fuzzed batches
 * of jobs, each compared with aesir_cbc_encrypt on one message at a time.
 *
 * The input chooses up to 6 key contexts (any available engine, any key
 * size; or NULL, never initialised, cleared, decrypt-only, or a copy of
 * a good key at an address that is not 16-byte aligned: keys the call
 * must refuse), 0..40 jobs over them (so engines and key sizes mix
 * in one call, and the interleaved kernels of aesni, vaes-avx2 and
 * vaes-avx512 see lanes that start and end at different times), each
 * job's length (whole blocks or not, sometimes huge when the job must
 * fail anyway), NULL in or out, in place, buffer offsets, and whether
 * each message goes through in one call or two (through the returned iv).
 * It checks what the header promises:
 *
 *   - a good job's out is the aesir_cbc_encrypt ciphertext (the ref
 *     engine's too) and its iv the last ciphertext block (unchanged when
 *     len is 0); for the MAC, the same iv and nothing written to out;
 *   - a bad job gets its own status (AESIR_E_STATE, AESIR_E_INPUT_LENGTH
 *     or AESIR_E_ARGUMENT, any of those that apply; a misaligned key is
 *     one not initialised), writes nothing to out and keeps its iv, and
 *     the other jobs are still done;
 *   - the return value is AESIR_OK when every job succeeded, else the
 *     status of the first job that failed; jobs == NULL with njobs > 0 is
 *     AESIR_E_ARGUMENT;
 *   - no field but iv and status changes.
 *
 * Why: the multi-buffer kernels refill lanes as messages end, group jobs
 * by engine and round count, and run the spare lanes of a batch; the
 * edges (a lane of 0 blocks, one job of each engine, a batch boundary)
 * are where a fixed test does not look.
 */
#include "fuzz.h"

#define MAX_JOBS 40
#define MAX_KEYS 6
#define MAX_LEN 1024

/* What a key slot holds. */
enum key_kind {
    KEY_GOOD,   /* an engine, encrypt (and maybe decrypt) direction */
    KEY_NULL,   /* job.key == NULL */
    KEY_UNINIT, /* never initialised: a byte pattern */
    KEY_CLEARED,
    KEY_DEC_ONLY,
    KEY_MISALIGNED /* a good key copied 1..15 bytes off alignment */
};

struct key_slot {
    enum key_kind kind;
    aesir_aes ctx, ref; /* ref: the same key on the ref engine */
    _Alignas(64) unsigned char odd[sizeof(aesir_aes) + 16];
    const aesir_aes *job_key; /* what the jobs point at */
};

struct job_plan {
    size_t key;
    size_t len;
    int in_null, out_null, inplace, huge;
    unsigned in_off, out_off;
    size_t cut; /* bytes in the first of two calls (split runs) */
    uint8_t iv0[16];
    uint8_t *in, *out;   /* what the job points at */
    uint8_t *plain;      /* a copy of the input */
    uint8_t *want;       /* expected ciphertext */
    uint8_t want_iv[16]; /* expected iv after the call(s) */
    unsigned allowed;    /* bit -code of each status the job may get */
};

static struct key_slot keys[MAX_KEYS];
static struct job_plan jp[MAX_JOBS];
static aesir_cbc_job jobs[MAX_JOBS];

static unsigned bit(int code)
{
    return 1u << -code;
}

static void setup_key(struct key_slot *k, struct fz *f, uint64_t *seed)
{
    const char **engines;
    size_t nengines = fz_engines(&engines);
    static const size_t key_lens[4] = {16, 24, 32, 16};
    unsigned b = fz_u8(f), e = fz_u8(f);
    size_t key_len = key_lens[b & 3];
    uint8_t key[32];

    fz_fill(seed, key, sizeof(key));
    memset(&k->ctx, (int)(b >> 5), sizeof(k->ctx));
    k->kind = (b >> 2 & 7) < 3 ? KEY_GOOD : (enum key_kind)((b >> 2 & 7) - 2);
    k->job_key = k->kind == KEY_NULL ? NULL : &k->ctx;
    switch (k->kind) {
    case KEY_MISALIGNED:
        FUZZ_CHECK_EQ(aesir_aes_init_ex(&k->ctx, key, key_len,
                                        engines[e % nengines], AESIR_ENCRYPT),
                      AESIR_OK);
        memcpy(k->odd + 1 + (b >> 5) * 2, &k->ctx, sizeof(k->ctx));
        k->job_key =
            (const aesir_aes *)(const void *)(k->odd + 1 + (b >> 5) * 2);
        break;
    case KEY_GOOD:
        FUZZ_CHECK_EQ(
            aesir_aes_init_ex(&k->ctx, key, key_len, engines[e % nengines],
                              (b & 0x80) ? AESIR_ENCRYPT
                                         : AESIR_ENCRYPT | AESIR_DECRYPT),
            AESIR_OK);
        FUZZ_CHECK_EQ(
            aesir_aes_init_ex(&k->ref, key, key_len, "ref", AESIR_ENCRYPT),
            AESIR_OK);
        break;
    case KEY_CLEARED:
        FUZZ_CHECK_EQ(aesir_aes_init_ex(&k->ctx, key, key_len,
                                        engines[e % nengines], AESIR_ENCRYPT),
                      AESIR_OK);
        aesir_aes_clear(&k->ctx);
        break;
    case KEY_DEC_ONLY:
        FUZZ_CHECK_EQ(aesir_aes_init_ex(&k->ctx, key, key_len,
                                        engines[e % nengines], AESIR_DECRYPT),
                      AESIR_OK);
        break;
    default:
        break;
    }
}

/* The statuses job j may get (any that applies: the header lists the
 * checks, not their order). */
static unsigned allowed_status(const struct job_plan *j, size_t len, int mac)
{
    unsigned a = 0;
    if (keys[j->key].kind != KEY_GOOD) /* misaligned: "not initialised" */
        a |= bit(AESIR_E_STATE);
    if (len % 16 != 0)
        a |= bit(AESIR_E_INPUT_LENGTH);
    if (len != 0 && (j->in_null || (!mac && j->out_null)))
        a |= bit(AESIR_E_ARGUMENT);
    return a != 0 ? a : bit(AESIR_OK);
}

static void read_job(struct job_plan *j, struct fz *f, size_t nkeys, int mac,
                     uint64_t *seed)
{
    unsigned b = fz_u8(f), l = fz_u16(f);

    memset(j, 0, sizeof(*j));
    j->key = fz_u8(f) % nkeys;
    j->in_null = (b & 3) == 1;
    j->out_null = (b & 3) == 2;
    j->inplace = (b & 3) == 3;
    j->in_off = b >> 4 & 15;
    j->out_off = (b >> 2 & 3) * 5;
    /* Mostly whole blocks, sometimes ragged. */
    j->len = (l >> 15) ? (l >> 4) % (MAX_LEN + 1)
                       : (size_t)((l >> 4) % (MAX_LEN / 16 + 1)) * 16;
    j->cut = (size_t)(l & 15) * 16;
    if (j->cut > j->len)
        j->cut = j->len / 16 * 16;
    fz_fill(seed, j->iv0, 16);
    /* Huge, when the job fails whatever its length: nothing may be
     * touched, so the buffers can stay small. */
    if ((l & 0x8000) && (l & 7) == 7) {
        size_t huge = SIZE_MAX - (l >> 4 & 0x3f);
        struct job_plan t = *j;
        t.len = huge;
        if (!(allowed_status(&t, huge, mac) & bit(AESIR_OK))) {
            j->huge = 1;
            j->len = huge;
        }
    }
}

/* Buffers and expectations of job j; real buffers hold at most MAX_LEN. */
static void prepare_job(struct job_plan *j, int mac, uint64_t *seed)
{
    size_t real = j->huge ? 16 : j->len;
    const struct key_slot *k = &keys[j->key];

    j->plain = malloc(real + 1);
    j->want = malloc(real + 1);
    FUZZ_CHECK(j->plain != NULL && j->want != NULL);
    fz_fill(seed, j->plain, real);
    j->in = j->in_null ? NULL : fz_alloc(real, j->in_off);
    if (j->in != NULL)
        memcpy(j->in, j->plain, real);
    if (j->inplace)
        j->out = j->in;
    else if (!j->out_null)
        j->out = fz_alloc(real, j->out_off);
    j->allowed = allowed_status(j, j->len, mac);
    memcpy(j->want_iv, j->iv0, 16);
    if (j->allowed == bit(AESIR_OK) && j->len != 0) {
        /* One message at a time, on the job's engine and on ref. */
        uint8_t *alt = malloc(j->len);
        size_t n = 0;
        FUZZ_CHECK(alt != NULL);
        FUZZ_CHECK_EQ(aesir_cbc_encrypt(&k->ctx, j->iv0, AESIR_PAD_NONE,
                                        j->want, j->len, &n, j->plain, j->len),
                      AESIR_OK);
        FUZZ_CHECK_EQ(n, j->len);
        FUZZ_CHECK_EQ(aesir_cbc_encrypt(&k->ref, j->iv0, AESIR_PAD_NONE, alt,
                                        j->len, &n, j->plain, j->len),
                      AESIR_OK);
        FUZZ_CHECK(memcmp(alt, j->want, j->len) == 0);
        memcpy(j->want_iv, j->want + j->len - 16, 16);
        free(alt);
    }
}

static void fill_job(aesir_cbc_job *job, const struct job_plan *j, size_t from,
                     size_t len, const uint8_t iv[16])
{
    memset(job, 0x5a, sizeof(*job));
    job->key = keys[j->key].job_key;
    job->in = j->in != NULL ? j->in + from : NULL;
    job->out = j->out != NULL ? j->out + from : NULL;
    job->len = len;
    memcpy(job->iv, iv, 16);
    job->status = 12345;
}

/* One call on jobs[0..n): statuses, return value, untouched fields. */
static void call(int mac, size_t n, const size_t *len)
{
    aesir_cbc_job before[MAX_JOBS];
    int rc, first = AESIR_OK;

    memcpy(before, jobs, n * sizeof(jobs[0]));
    for (size_t i = 0; i < n; i++)
        FZ_TRACE("job %zu: key %zu (%s, kind %d), len %zu, in %s, out %s%s\n",
                 i, jp[i].key,
                 jobs[i].key != NULL && keys[jp[i].key].kind == KEY_GOOD
                     ? aesir_aes_engine(jobs[i].key)
                     : "-",
                 (int)keys[jp[i].key].kind, jobs[i].len,
                 jobs[i].in ? "buf" : "NULL", jobs[i].out ? "buf" : "NULL",
                 jp[i].inplace ? " (in place)" : "");
    FZ_TRACE("aesir_cbc_%s_many(jobs, %zu)\n", mac ? "mac" : "encrypt", n);
    rc = mac ? aesir_cbc_mac_many(jobs, n) : aesir_cbc_encrypt_many(jobs, n);
    for (size_t i = 0; i < n; i++) {
        const struct job_plan *j = &jp[i];
        int st = jobs[i].status;
        FUZZ_CHECK(st <= 0 && st >= AESIR_E_SELFTEST);
        FUZZ_CHECK((allowed_status(j, len[i], mac) & bit(st)) != 0);
        if (st != AESIR_OK && first == AESIR_OK)
            first = st;
        FUZZ_CHECK(jobs[i].key == before[i].key && jobs[i].in == before[i].in &&
                   jobs[i].out == before[i].out &&
                   jobs[i].len == before[i].len);
        if (st != AESIR_OK)
            FUZZ_CHECK(memcmp(jobs[i].iv, before[i].iv, 16) == 0);
    }
    FUZZ_CHECK_EQ(rc, first);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz f = {data, size};
    unsigned flags = fz_u8(&f);
    int mac = flags & 1, split = flags >> 1 & 1;
    size_t nkeys = 1 + fz_u8(&f) % MAX_KEYS, njobs = fz_u8(&f) % (MAX_JOBS + 1);
    size_t len[MAX_JOBS];
    uint64_t seed = 0;

    for (int i = 0; i < 8; i++)
        seed = seed << 8 | fz_u8(&f);

    /* No job array. */
    if (flags >> 2 & 1) {
        size_t n = (flags >> 3 & 1) ? SIZE_MAX - fz_u8(&f) : fz_u8(&f);
        int rc =
            mac ? aesir_cbc_mac_many(NULL, n) : aesir_cbc_encrypt_many(NULL, n);
        FUZZ_CHECK(n == 0 ? rc == AESIR_OK || rc == AESIR_E_ARGUMENT
                          : rc == AESIR_E_ARGUMENT);
        return 0;
    }

    for (size_t i = 0; i < nkeys; i++)
        setup_key(&keys[i], &f, &seed);
    for (size_t i = 0; i < njobs; i++)
        read_job(&jp[i], &f, nkeys, mac, &seed);
    for (size_t i = 0; i < njobs; i++)
        prepare_job(&jp[i], mac, &seed);

    /* One call, or two: the first part of each message (whole blocks),
     * then the rest through the returned iv. A job that must fail is in
     * both calls as it is. */
    for (int pass = 0; pass < 1 + split; pass++) {
        for (size_t i = 0; i < njobs; i++) {
            struct job_plan *j = &jp[i];
            int good = j->allowed == bit(AESIR_OK);
            if (!split || !good) {
                len[i] = j->len;
                fill_job(&jobs[i], j, 0, j->len, j->iv0);
            } else if (pass == 0) {
                len[i] = j->cut;
                fill_job(&jobs[i], j, 0, j->cut, j->iv0);
            } else {
                uint8_t iv[16];
                memcpy(iv, jobs[i].iv, 16);
                len[i] = j->len - j->cut;
                fill_job(&jobs[i], j, j->cut, j->len - j->cut, iv);
            }
        }
        call(mac, njobs, len);
    }

    for (size_t i = 0; i < njobs; i++) {
        struct job_plan *j = &jp[i];
        size_t real = j->huge ? 16 : j->len;
        if (jobs[i].status == AESIR_OK) {
            FUZZ_CHECK(memcmp(jobs[i].iv, j->want_iv, 16) == 0);
            if (!mac && j->len != 0)
                FUZZ_CHECK(memcmp(j->out, j->want, j->len) == 0);
        } else {
            FUZZ_CHECK(memcmp(jobs[i].iv, j->iv0, 16) == 0);
        }
        /* Unwritten: a failed job's out, every MAC job's out. */
        if ((jobs[i].status != AESIR_OK || mac) && j->out != NULL)
            FUZZ_CHECK(j->inplace ? memcmp(j->out, j->plain, real) == 0
                                  : fz_all(j->out, real, FZ_CANARY));
        if (j->in != NULL &&
            !(j->inplace && jobs[i].status == AESIR_OK && !mac))
            FUZZ_CHECK(memcmp(j->in, j->plain, real) == 0);
        if (!j->inplace)
            fz_free(j->out, j->out_off);
        fz_free(j->in, j->in_off);
        free(j->plain);
        free(j->want);
    }
    for (size_t i = 0; i < nkeys; i++) {
        aesir_aes_clear(&keys[i].ctx);
        aesir_aes_clear(&keys[i].ref);
    }
    return 0;
}
