/*
 * test_cmac.c -- CMAC (src/aead/cmac.c) on every engine this CPU can
 * run; the others are listed as UNAVAILABLE.
 *
 *   vectors   the pinned cryptography-vectors package's CMAC files,
 *             CMAC/nist-800-38b-aes{128,192,256}.txt (the examples of
 *             SP 800-38B Appendix D). The package has no CAVP
 *             CMACGenAES/CMACVerAES .rsp files (checked for 44.0.0: its
 *             CMAC directory holds only these and the 3DES one), so the
 *             CAVP sets the issue names cannot run from it. Each record
 *             through the one-shot tag and verify, every tag length
 *             4..16, the incremental API cut at random points, and
 *             aesir_cmac_many.
 *   rfc4493   RFC 4493 section 4's four examples, as hex here.
 *   random    AESIR_DIFF_CASES random keys (128/192/256) and messages
 *             (0..1100 bytes, one in 32 up to 20 KiB) per engine (slow
 *             engines ref, ref-otf: a twentieth, at least 200): the
 *             one-shot tag equals the incremental one (random splits,
 *             empty pieces included), the ref engine's, and OpenSSL's
 *             EVP_MAC "CMAC" where OpenSSL is built in.
 *   many      random batches of 1..70 jobs mixing engines, key sizes
 *             and lengths, with bad jobs among them: each good job's tag
 *             equals the one-shot tag, each bad job has its status and
 *             an untouched tag.
 *   bad       forged tags (every bit of the tag and of the message
 *             flipped: AESIR_E_AUTH), tag lengths 0..3 and 17,
 *             NULL pointers, keys not set up, cleared, cleared under a
 *             live message, misaligned; wrong key sizes; unknown engines;
 *             calls after the end; nothing written on a refused call.
 *
 * Argument: the vector directory (tests/vectors/fetch.sh prints it).
 * The last line is "N passed, M failed".
 */
#include "mac_test.h"

#ifdef AESIR_TEST_OPENSSL
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

/* OpenSSL's CMAC of msg under key (16, 24 or 32 bytes). */
static void evp_cmac(const uint8_t *key, size_t klen, const uint8_t *msg,
                     size_t len, uint8_t tag[16])
{
    static EVP_MAC *mac;
    EVP_MAC_CTX *c;
    OSSL_PARAM params[2];
    char cipher[16];
    size_t outl = 0;

    if (mac == NULL && (mac = EVP_MAC_fetch(NULL, "CMAC", NULL)) == NULL)
        goto fail;
    snprintf(cipher, sizeof(cipher), "AES-%zu-CBC", klen * 8);
    params[0] = OSSL_PARAM_construct_utf8_string("cipher", cipher, 0);
    params[1] = OSSL_PARAM_construct_end();
    if ((c = EVP_MAC_CTX_new(mac)) == NULL)
        goto fail;
    if (EVP_MAC_init(c, key, klen, params) != 1 ||
        EVP_MAC_update(c, msg, len) != 1 ||
        EVP_MAC_final(c, tag, &outl, 16) != 1 || outl != 16)
        goto fail;
    EVP_MAC_CTX_free(c);
    return;
fail:
    fprintf(stderr, "EVP CMAC failed\n");
    exit(2);
}
#endif

#define DEFAULT_CASES 10000
#define SLOW_DIVISOR 20
#define MIN_SLOW_CASES 200

static const char *eng[MAX_ENGINES];
static int eng_slow[MAX_ENGINES];
static size_t neng;

/* The tag of msg through the incremental API, cut at random points. */
static int tag_split(const aesir_cmac_key *k, const uint8_t *msg, size_t len,
                     uint8_t *tag, size_t tag_len)
{
    aesir_cmac c;
    size_t off = 0;
    int err = aesir_cmac_start(&c, k);
    while (err == AESIR_OK && off < len) {
        size_t n = below(4) == 0 ? below(len - off + 1) : below(40);
        if (n > len - off)
            n = len - off;
        err = aesir_cmac_update(&c, msg + off, n);
        off += n;
    }
    if (err != AESIR_OK)
        return err;
    if (below(3) == 0) /* an empty update at the end */
        err = aesir_cmac_update(&c, msg, 0);
    return err != AESIR_OK ? err : aesir_cmac_finish(&c, tag, tag_len);
}

/* One known answer on engine e: every way in. */
static void check_kat(const char *e, const uint8_t *key, size_t klen,
                      const uint8_t *msg, size_t len, const uint8_t want[16])
{
    aesir_cmac_key k;
    aesir_cmac c;
    aesir_cmac_job job;
    uint8_t t[16], bad[16];

    T(aesir_cmac_init_ex(&k, key, klen, e) == AESIR_OK);
    memset(t, 0xaa, sizeof(t));
    T(aesir_cmac_tag(&k, msg, len, t, 16) == AESIR_OK);
    T(memcmp(t, want, 16) == 0);
    for (size_t tl = 4; tl <= 16; tl++) {
        memset(t, 0xaa, sizeof(t));
        T(aesir_cmac_tag(&k, msg, len, t, tl) == AESIR_OK);
        T(memcmp(t, want, tl) == 0 && all_eq(t + tl, 0xaa, 16 - tl));
        T(aesir_cmac_tag_verify(&k, msg, len, want, tl) == AESIR_OK);
        memcpy(bad, want, 16);
        bad[tl - 1] ^= 1;
        T(aesir_cmac_tag_verify(&k, msg, len, bad, tl) == AESIR_E_AUTH);
    }
    T(tag_split(&k, msg, len, t, 16) == AESIR_OK && memcmp(t, want, 16) == 0);
    T(aesir_cmac_start(&c, &k) == AESIR_OK);
    T(aesir_cmac_update(&c, msg, len) == AESIR_OK);
    T(aesir_cmac_verify(&c, want, 16) == AESIR_OK);
    job.key = &k;
    job.in = msg;
    job.len = len;
    job.status = 99;
    T(aesir_cmac_many(&job, 1) == AESIR_OK && job.status == AESIR_OK &&
      memcmp(job.tag, want, 16) == 0);
    aesir_cmac_clear(&k);
}

struct kat_arg {
    const char *e;
    size_t n;
};

static void kat_record(const struct vec *v, void *arg)
{
    struct kat_arg *a = arg;
    const char *hk = vec_get(v, "KEY"), *hm = vec_get(v, "MESSAGE"),
               *ho = vec_get(v, "OUTPUT");
    uint8_t key[32], want[16], *msg;
    size_t klen, len;

    if (hk == NULL || hm == NULL || ho == NULL) {
        T(!"CMAC record without KEY, MESSAGE, OUTPUT");
        return;
    }
    msg = xmalloc(strlen(hm) / 2);
    klen = unhex(key, hk);
    len = unhex(msg, hm);
    T(unhex(want, ho) == 16);
    check_kat(a->e, key, klen, msg, len, want);
    free(msg);
    a->n++;
}

static void vectors(const char *dir)
{
    static const char *files[] = {"nist-800-38b-aes128.txt",
                                  "nist-800-38b-aes192.txt",
                                  "nist-800-38b-aes256.txt"};
    char path[1024];
    for (size_t i = 0; i < neng; i++) {
        struct kat_arg a = {eng[i], 0};
        for (size_t f = 0; f < 3; f++) {
            snprintf(path, sizeof(path), "%s/CMAC/%s", dir, files[f]);
            snprintf(where, sizeof(where), "%s %s", eng[i], files[f]);
            vec_file(path, kat_record, &a);
        }
        T(a.n == 12); /* 4 records per file */
        printf("vectors  %-14s %zu records\n", eng[i], a.n);
    }
}

/* RFC 4493 section 4: AES-128, K = 2b7e1516..., four messages. */
static void rfc4493(void)
{
    static const char *msg =
        "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
        "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
    static const struct {
        size_t len;
        const char *tag;
    } ex[] = {{0, "bb1d6929e95937287fa37d129b756746"},
              {16, "070a16b46b4d4144f79bdd9dd04a287c"},
              {40, "dfa66747de9ae63030ca32611497c827"},
              {64, "51f0bebf7e3b9d92fc49741779363cfe"}};
    uint8_t key[16], m[64], want[16];

    unhex(key, "2b7e151628aed2a6abf7158809cf4f3c");
    unhex(m, msg);
    for (size_t i = 0; i < neng; i++)
        for (size_t j = 0; j < 4; j++) {
            snprintf(where, sizeof(where), "%s rfc4493 example %zu", eng[i],
                     j + 1);
            unhex(want, ex[j].tag);
            check_kat(eng[i], key, 16, m, ex[j].len, want);
        }
    /* the subkeys of RFC 4493 4 (white box, through a one-block
     * message: K1 = fbeed618 35713366 7c85e08f 7236a8de) are implied by
     * examples 2 and 4 (whole last block, K1) and 1 and 3 (K2) */
}

/* ---- random ----------------------------------------------------------- */

static size_t rand_len(void)
{
    return below(32) == 0 ? below(20 * 1024 + 1) : below(1101);
}

static void random_cases(uint64_t n)
{
    uint8_t *msg = xmalloc(20 * 1024 + 16);
    for (size_t i = 0; i < neng; i++) {
        uint64_t cases = n;
        clock_t t0 = clock();
        if (eng_slow[i]) {
            cases = n / SLOW_DIVISOR;
            if (cases < MIN_SLOW_CASES)
                cases = MIN_SLOW_CASES < n ? MIN_SLOW_CASES : n;
        }
        for (uint64_t c = 0; c < cases; c++) {
            static const size_t ks[3] = {16, 24, 32};
            aesir_cmac_key k, r;
            uint8_t key[32], t1[16], t2[16], t3[16];
            size_t klen = ks[below(3)], len = rand_len(),
                   off = below(16); /* any alignment */
            fill(key, klen);
            fill(msg + off, len);
            snprintf(where, sizeof(where),
                     "%s random case %" PRIu64 " klen %zu len %zu", eng[i], c,
                     klen, len);
            T(aesir_cmac_init_ex(&k, key, klen, eng[i]) == AESIR_OK);
            T(aesir_cmac_tag(&k, msg + off, len, t1, 16) == AESIR_OK);
            T(tag_split(&k, msg + off, len, t2, 16) == AESIR_OK &&
              memcmp(t1, t2, 16) == 0);
            if (c % 8 == 0) { /* against ref, on a share of the cases */
                T(aesir_cmac_init_ex(&r, key, klen, "ref") == AESIR_OK);
                T(aesir_cmac_tag(&r, msg + off, len, t3, 16) == AESIR_OK &&
                  memcmp(t1, t3, 16) == 0);
                aesir_cmac_clear(&r);
            }
#ifdef AESIR_TEST_OPENSSL
            evp_cmac(key, klen, msg + off, len, t3);
            T(memcmp(t1, t3, 16) == 0);
#endif
            T(aesir_cmac_tag_verify(&k, msg + off, len, t1, 16) == AESIR_OK);
            aesir_cmac_clear(&k);
        }
        printf("random   %-14s %" PRIu64 " cases%s (%.1f s)\n", eng[i], cases,
#ifdef AESIR_TEST_OPENSSL
               ", each against OpenSSL",
#else
               "",
#endif
               (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    free(msg);
}

/* ---- many --------------------------------------------------------------- */

#define MANY_MAX 70

static void many(void)
{
    static aesir_cmac_key keys[8];
    uint8_t *bufs[MANY_MAX];
    aesir_cmac_job jobs[MANY_MAX];
    int want[MANY_MAX];

    for (size_t j = 0; j < MANY_MAX; j++)
        bufs[j] = xmalloc(5000);
    for (unsigned round = 0; round < 300; round++) {
        size_t nj = 1 + below(MANY_MAX), nk = 1 + below(8);
        int first = AESIR_OK, err;
        snprintf(where, sizeof(where), "many round %u (%zu jobs)", round, nj);
        for (size_t i = 0; i < nk; i++) {
            uint8_t key[32];
            size_t klen = 16 + 8 * below(3);
            fill(key, klen);
            T(aesir_cmac_init_ex(&keys[i], key, klen, eng[below(neng)]) ==
              AESIR_OK);
        }
        for (size_t j = 0; j < nj; j++) {
            size_t len = below(8) == 0 ? below(17) : below(5000);
            fill(bufs[j], len);
            jobs[j].key = &keys[below(nk)];
            jobs[j].in = below(20) == 0 && len == 0 ? NULL : bufs[j];
            jobs[j].len = len;
            memset(jobs[j].tag, 0xaa, 16);
            want[j] = AESIR_OK;
            if (below(25) == 0) {
                jobs[j].key = NULL;
                want[j] = AESIR_E_STATE;
            } else if (below(25) == 0 && len > 0) {
                jobs[j].in = NULL;
                want[j] = AESIR_E_ARGUMENT;
            }
            if (want[j] != AESIR_OK && first == AESIR_OK)
                first = want[j];
        }
        err = aesir_cmac_many(jobs, nj);
        T(err == first);
        for (size_t j = 0; j < nj; j++) {
            uint8_t t[16];
            T(jobs[j].status == want[j]);
            if (want[j] != AESIR_OK) {
                T(all_eq(jobs[j].tag, 0xaa, 16));
                continue;
            }
            T(aesir_cmac_tag(jobs[j].key, jobs[j].in, jobs[j].len, t, 16) ==
                  AESIR_OK &&
              memcmp(t, jobs[j].tag, 16) == 0);
        }
    }
    T(aesir_cmac_many(NULL, 0) == AESIR_OK);
    T(aesir_cmac_many(NULL, 1) == AESIR_E_ARGUMENT);
    for (size_t j = 0; j < MANY_MAX; j++)
        free(bufs[j]);
    for (size_t i = 0; i < 8; i++)
        aesir_cmac_clear(&keys[i]);
    printf("many     300 batches of 1..%d jobs\n", MANY_MAX);
}

/* ---- bad input ---------------------------------------------------------- */

static void bad(const char *e)
{
    static _Alignas(16) unsigned char raw[sizeof(aesir_cmac_key) + 16];
    aesir_cmac_key k, zero;
    aesir_cmac c;
    uint8_t key[32], msg[100], t[16], f[16], m2[100];

    snprintf(where, sizeof(where), "%s bad input", e);
    fill(key, 32);
    fill(msg, sizeof(msg));
    T(aesir_cmac_init_ex(&k, key, 16, e) == AESIR_OK);
    T(strcmp(aesir_cmac_engine(&k), e) == 0);
    T(aesir_cmac_tag(&k, msg, sizeof(msg), t, 16) == AESIR_OK);
    /* forged tags and messages */
    for (size_t b = 0; b < 128; b++) {
        memcpy(f, t, 16);
        f[b / 8] ^= (uint8_t)(1u << (b % 8));
        T(aesir_cmac_tag_verify(&k, msg, sizeof(msg), f, 16) == AESIR_E_AUTH);
        T(aesir_cmac_start(&c, &k) == AESIR_OK &&
          aesir_cmac_update(&c, msg, sizeof(msg)) == AESIR_OK &&
          aesir_cmac_verify(&c, f, 16) == AESIR_E_AUTH);
    }
    for (size_t b = 0; b < 8 * sizeof(msg); b += 7) {
        memcpy(m2, msg, sizeof(msg));
        m2[b / 8] ^= (uint8_t)(1u << (b % 8));
        T(aesir_cmac_tag_verify(&k, m2, sizeof(msg), t, 16) == AESIR_E_AUTH);
    }
    /* truncated and extended messages */
    T(aesir_cmac_tag_verify(&k, msg, sizeof(msg) - 1, t, 16) == AESIR_E_AUTH);
    T(aesir_cmac_tag_verify(&k, msg, 96, t, 16) == AESIR_E_AUTH);
    T(aesir_cmac_tag_verify(&k, msg, 0, t, 16) == AESIR_E_AUTH);
    /* tag lengths */
    for (size_t tl = 0; tl < 4; tl++) {
        memset(f, 0xaa, 16);
        T(aesir_cmac_tag(&k, msg, 10, f, tl) == AESIR_E_ARGUMENT &&
          all_eq(f, 0xaa, 16));
        T(aesir_cmac_tag_verify(&k, msg, 10, t, tl) == AESIR_E_ARGUMENT);
    }
    T(aesir_cmac_tag(&k, msg, 10, f, 17) == AESIR_E_ARGUMENT);
    T(aesir_cmac_tag_verify(&k, msg, 10, t, 17) == AESIR_E_ARGUMENT);
    /* NULLs */
    T(aesir_cmac_tag(&k, NULL, 1, f, 16) == AESIR_E_ARGUMENT);
    T(aesir_cmac_tag(&k, msg, 1, NULL, 16) == AESIR_E_ARGUMENT);
    T(aesir_cmac_tag(&k, NULL, 0, f, 16) == AESIR_OK);
    T(aesir_cmac_tag_verify(&k, msg, 1, NULL, 16) == AESIR_E_ARGUMENT);
    T(aesir_cmac_tag(NULL, msg, 1, f, 16) == AESIR_E_STATE);
    T(aesir_cmac_start(NULL, &k) == AESIR_E_ARGUMENT);
    T(aesir_cmac_update(NULL, msg, 1) == AESIR_E_ARGUMENT);
    T(aesir_cmac_finish(NULL, f, 16) == AESIR_E_ARGUMENT);
    T(aesir_cmac_verify(NULL, f, 16) == AESIR_E_ARGUMENT);
    aesir_cmac_abort(NULL);
    T(aesir_cmac_start(&c, &k) == AESIR_OK);
    T(aesir_cmac_update(&c, NULL, 1) == AESIR_E_ARGUMENT);
    T(aesir_cmac_update(&c, msg, 1) == AESIR_E_STATE); /* ended */
    T(aesir_cmac_start(&c, &k) == AESIR_OK);
    T(aesir_cmac_finish(&c, f, 3) == AESIR_E_ARGUMENT);
    T(aesir_cmac_finish(&c, f, 16) == AESIR_E_STATE);
    T(aesir_cmac_start(&c, &k) == AESIR_OK);
    T(aesir_cmac_finish(&c, f, 16) == AESIR_OK);
    T(aesir_cmac_finish(&c, f, 16) == AESIR_E_STATE);
    T(aesir_cmac_verify(&c, f, 16) == AESIR_E_STATE);
    T(aesir_cmac_update(&c, msg, 0) == AESIR_E_STATE);
    T(aesir_cmac_start(&c, &k) == AESIR_OK);
    aesir_cmac_abort(&c);
    T(all_zero(&c, sizeof(c)));
    T(aesir_cmac_update(&c, msg, 1) == AESIR_E_STATE);
    /* keys: not set up, cleared under a message, wrong sizes, engines */
    memset(&zero, 0, sizeof(zero));
    T(aesir_cmac_tag(&zero, msg, 1, f, 16) == AESIR_E_STATE);
    T(aesir_cmac_start(&c, &zero) == AESIR_E_STATE);
    T(aesir_cmac_engine(&zero) == NULL);
    T(aesir_cmac_start(&c, &k) == AESIR_OK);
    aesir_cmac_clear(&k);
    T(all_zero(&k, sizeof(k)));
    T(aesir_cmac_update(&c, msg, 1) == AESIR_E_STATE);
    T(aesir_cmac_tag(&k, msg, 1, f, 16) == AESIR_E_STATE);
    for (size_t kl = 0; kl <= 33; kl++) {
        if (kl == 16 || kl == 24 || kl == 32)
            continue;
        memset(&k, 0x55, sizeof(k));
        T(aesir_cmac_init_ex(&k, key, kl, e) == AESIR_E_KEY_LENGTH);
        T(all_zero(&k, sizeof(k)));
    }
    T(aesir_cmac_init_ex(&k, NULL, 16, e) == AESIR_E_ARGUMENT);
    T(aesir_cmac_init_ex(NULL, key, 16, e) == AESIR_E_ARGUMENT);
    T(aesir_cmac_init_ex(&k, key, 16, "no-such-engine") ==
      AESIR_E_ENGINE_UNKNOWN);
    T(aesir_cmac_init_ex((aesir_cmac_key *)(void *)(raw + 4), key, 16, e) ==
      AESIR_E_ARGUMENT);
    T(all_zero(raw, sizeof(raw)));
    T(aesir_cmac_init(&k, key, 32) == AESIR_OK);
    memset(f, 0xaa, 16);
    T(aesir_cmac_tag((const aesir_cmac_key *)(const void *)(raw + 4), msg, 1, f,
                     16) == AESIR_E_STATE &&
      all_eq(f, 0xaa, 16));
    aesir_cmac_clear(&k);
}

int main(int argc, char **argv)
{
    uint64_t n;

    if (argc < 2) {
        fprintf(stderr, "usage: test_cmac VECTOR_DIR\n");
        return 2;
    }
    seed_rng("test_cmac");
    n = env_u64("AESIR_DIFF_CASES", DEFAULT_CASES);
    neng = engines("test_cmac", eng, eng_slow);
    vectors(argv[1]);
    rfc4493();
    random_cases(n);
    many();
    for (size_t i = 0; i < neng; i++)
        bad(eng[i]);
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}
