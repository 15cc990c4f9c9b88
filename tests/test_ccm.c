/*
 * test_ccm.c -- CCM (src/aead/ccm.c) on every AES engine this CPU can
 * run; the others are listed as UNAVAILABLE. One program, three parts
 * (ctest runs them as separate tests):
 *
 *   test_ccm vectors DIR   NIST CAVP CCM files of the pinned
 *             cryptography-vectors tree (ciphers/AES/CCM: DVPT, VADT,
 *             VNT, VPT, VTT, 128/192/256) on every engine: the
 *             generation files through seal (ciphertext and tag) and open;
 *             DVPT's Result = Fail cases must give AESIR_E_AUTH with the
 *             output zeroed, its Pass cases the payload. Then RFC 3610
 *             section 8, packet vectors #1..#24 (AES-128, 13-byte nonces,
 *             8- and 10-byte tags), appended and detached tags.
 *   test_ccm api   on every engine: random messages against a plain
 *             reference CCM written here from SP 800-38C (byte at a time,
 *             on aesir_aes_encrypt_block of the ref engine; the oracle of
 *             the cross-architecture runs, which have no OpenSSL), through
 *             one-shot, incremental with random splits, in place and at
 *             odd offsets; every data path on every engine (white box:
 *             the fused kernels, and the generic path with the MAC and
 *             CTR apart and paired, forced through the key's path
 *             fields); the additional-data length encodings around 2^16
 *             - 2^8; bit flips; bad input and misuse (nonce and tag sizes,
 *             lengths that do not fit in q bytes, incremental lengths that
 *             do not add up, calls out of order, NULLs, keys not set up
 *             or cleared under a message); nothing written on a refused
 *             call.
 *   test_ccm diff [shard nshards]   (built with OpenSSL only) against
 *             EVP_aes_*_ccm on random keys, nonces of 7..13 bytes, tags of
 *             4..16 bytes, additional data of 0..600 bytes, messages of
 *             0..4096 bytes (one case in 64 up to 64 KiB), offsets, in
 *             place or not, random splits of the incremental API, and one
 *             bit flipped per case (AESIR_E_AUTH, output zeroed).
 *             AESIR_DIFF_CASES cases per engine (default 10000; ref and
 *             ref-otf a twentieth, at least 200), AESIR_DIFF_SEED repeats
 *             a run.
 *
 * The last line is "N passed, M failed".
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aesir.h"
#include "ccm.h"
#include "check.h"

#ifdef AESIR_TEST_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#endif

#define MAX_ENGINES 64
#define SLOW_DIVISOR 20
#define MIN_SLOW_CASES 200

/* ---- engines ------------------------------------------------------- */

struct eng {
    const char *name;
    int slow; /* a byte-wise AES: ref, ref-otf */
};

static size_t engines(struct eng *e)
{
    size_t n = 0;
    for (size_t i = 0; i < aesir_engine_count() && n < MAX_ENGINES; i++) {
        const char *name = aesir_engine_name(i);
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("  %-14s UNAVAILABLE\n", name);
            continue;
        }
        e[n].name = name;
        e[n].slow = strcmp(name, "ref") == 0 || strcmp(name, "ref-otf") == 0;
        n++;
    }
    return n;
}

/* ---- helpers ------------------------------------------------------- */

static size_t unhex(uint8_t *out, size_t cap, const char *s)
{
    size_t n = 0;
    while (s[0] != '\0' && s[1] != '\0' && n < cap) {
        unsigned v;
        if (sscanf(s, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
        s += 2;
    }
    return n;
}

struct rng {
    uint64_t s;
};

static size_t below(struct rng *r, size_t n)
{
    return n == 0 ? 0 : (size_t)(splitmix64(&r->s) % n);
}

static void fill(struct rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)splitmix64(&r->s);
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long x;
    if (s == NULL || *s == '\0')
        return dflt;
    x = strtoull(s, &end, 0);
    if (*end != '\0') {
        fprintf(stderr, "test_ccm: bad %s=%s\n", name, s);
        exit(2);
    }
    return (uint64_t)x;
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- a reference CCM, SP 800-38C as written ------------------------ */

struct refmac {
    const aesir_aes *aes;
    uint8_t x[16];
    size_t n;
};

static void ref_feed(struct refmac *m, const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        m->x[m->n++] ^= p[i];
        if (m->n == 16) {
            (void)aesir_aes_encrypt_block(m->aes, m->x, m->x);
            m->n = 0;
        }
    }
}

static void ref_pad(struct refmac *m)
{
    if (m->n != 0) {
        (void)aesir_aes_encrypt_block(m->aes, m->x, m->x);
        m->n = 0;
    }
}

/* Counter block A_i (A.3). */
static void ref_ctr(uint8_t a[16], const uint8_t *nonce, size_t nlen,
                    uint64_t i)
{
    size_t q = 15 - nlen;
    a[0] = (uint8_t)(q - 1);
    memcpy(a + 1, nonce, nlen);
    for (size_t j = 0; j < q; j++)
        a[15 - j] = (uint8_t)(j < 8 ? i >> (8 * j) : 0);
}

/* CCM encryption of p (plen bytes) to c and a tlen-byte tag, with the
 * block cipher aes (any engine): B_0, the encoded additional data, the
 * payload, each zero-padded, through a CBC-MAC fed a byte at a time
 * (A.2), then CTR from A_1 and the tag masked with E(A_0) (6.1). */
static void ref_ccm(const aesir_aes *aes, const uint8_t *nonce, size_t nlen,
                    const uint8_t *a, size_t alen, const uint8_t *p,
                    size_t plen, size_t tlen, uint8_t *c, uint8_t *tag)
{
    struct refmac m = {aes, {0}, 0};
    uint8_t b0[16], enc[10], ks[16];
    size_t q = 15 - nlen, elen;

    b0[0] = (uint8_t)((alen ? 0x40 : 0) | ((tlen - 2) / 2) << 3 | (q - 1));
    memcpy(b0 + 1, nonce, nlen);
    for (size_t j = 0; j < q; j++)
        b0[15 - j] = (uint8_t)(j < 8 ? (uint64_t)plen >> (8 * j) : 0);
    ref_feed(&m, b0, 16);
    if (alen != 0) {
        uint64_t al = (uint64_t)alen;
        if (al < 0xff00) {
            elen = 2;
        } else if (al <= 0xffffffffu) {
            enc[0] = 0xff, enc[1] = 0xfe, elen = 6;
        } else {
            enc[0] = 0xff, enc[1] = 0xff, elen = 10;
        }
        for (size_t j = 0; j < (elen == 2 ? 2 : elen - 2); j++)
            enc[elen - 1 - j] = (uint8_t)(al >> (8 * j));
        ref_feed(&m, enc, elen);
        ref_feed(&m, a, alen);
        ref_pad(&m);
    }
    ref_feed(&m, p, plen);
    ref_pad(&m);
    for (size_t j = 0; j < plen; j++) {
        if (j % 16 == 0) {
            ref_ctr(ks, nonce, nlen, 1 + j / 16);
            (void)aesir_aes_encrypt_block(aes, ks, ks);
        }
        c[j] = p[j] ^ ks[j % 16];
    }
    ref_ctr(ks, nonce, nlen, 0);
    (void)aesir_aes_encrypt_block(aes, ks, ks);
    for (size_t j = 0; j < tlen; j++)
        tag[j] = m.x[j] ^ ks[j];
}

/* ---- NIST CAVP files ------------------------------------------------ */

#define VMAX 256

/* One case of a CAVP CCM file, with the parameters in force. */
struct vcase {
    long alen, plen, nlen, tlen;
    uint8_t key[32], nonce[16], adata[VMAX], payload[VMAX], ct[VMAX + 16];
    size_t klen, nonce_n, ct_n;
    int result; /* -1: a generation case; 1 Pass; 0 Fail */
    int pending;
};

/* One case on engine e: returns the number of failed checks. */
static unsigned vcase_run(const struct vcase *v, const char *e,
                          const char *file, unsigned count)
{
    static aesir_ccm_key key;
    uint8_t out[VMAX + 16], tag[16];
    size_t plen = (size_t)v->plen, tlen = (size_t)v->tlen, ol;
    unsigned before = check_failed;
    int err;

    if (aesir_ccm_init_ex(&key, v->key, v->klen, e) != AESIR_OK ||
        v->nonce_n != (size_t)v->nlen || v->ct_n != plen + tlen) {
        CHECK(0 && "vector set-up");
        return 1;
    }
    if (v->result != 0) {
        /* the payload decrypts (Pass), and seals to the ciphertext */
        memset(out, 0xa5, sizeof(out));
        err = aesir_ccm_open_detached(&key, v->nonce, v->nonce_n, v->adata,
                                      (size_t)v->alen, out, v->ct + plen, tlen,
                                      v->ct, plen);
        CHECK_EQ(err, AESIR_OK);
        CHECK(memcmp(out, v->payload, plen) == 0);
        err = aesir_ccm_seal_detached(&key, v->nonce, v->nonce_n, v->adata,
                                      (size_t)v->alen, out, tag, tlen,
                                      v->payload, plen);
        CHECK(err == AESIR_OK && memcmp(out, v->ct, plen) == 0 &&
              memcmp(tag, v->ct + plen, tlen) == 0);
        err = aesir_ccm_seal(&key, v->nonce, v->nonce_n, v->adata,
                             (size_t)v->alen, out, sizeof(out), &ol, v->payload,
                             plen, tlen);
        CHECK(err == AESIR_OK && ol == plen + tlen &&
              memcmp(out, v->ct, ol) == 0);
    } else {
        memset(out, 0xa5, sizeof(out));
        err = aesir_ccm_open(&key, v->nonce, v->nonce_n, v->adata,
                             (size_t)v->alen, out, sizeof(out), &ol, v->ct,
                             plen + tlen, tlen);
        CHECK(err == AESIR_E_AUTH && ol == 0 && all_zero(out, plen));
        CHECK(all_eq(out + plen, 0xa5, sizeof(out) - plen));
    }
    if (check_failed != before)
        fprintf(stderr, "  %s count %u on %s failed\n", file, count, e);
    return check_failed - before;
}

static long param(const char *line, const char *name, long dflt)
{
    const char *p = strstr(line, name);
    size_t n = strlen(name);
    if (p == NULL || (p > line && p[-1] != ' ' && p[-1] != '[' && p[-1] != ','))
        return dflt;
    p += n;
    while (*p == ' ' || *p == '=')
        p++;
    return strtol(p, NULL, 10);
}

static void vcase_flush(struct vcase *v, const struct eng *e, size_t ne,
                        const char *file, unsigned count, unsigned *ncases)
{
    if (!v->pending)
        return;
    for (size_t i = 0; i < ne; i++)
        (void)vcase_run(v, e[i].name, file, count);
    (*ncases)++;
    v->pending = 0;
}

/* Runs one .rsp file; returns the number of cases, 0 when unreadable. */
static unsigned vector_file(const char *dir, const char *name,
                            const struct eng *e, size_t ne)
{
    char path[1024], line[4096];
    FILE *f;
    struct vcase *v = calloc(1, sizeof(*v));
    unsigned count = 0, ncases = 0;

    snprintf(path, sizeof(path), "%s/ciphers/AES/CCM/%s", dir, name);
    if (v == NULL || (f = fopen(path, "r")) == NULL) {
        printf("FAIL: cannot read %s\n", path);
        free(v);
        return 0;
    }
    v->result = -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        char *eq = strchr(line, '='), *val;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (line[0] == '[') {
            vcase_flush(v, e, ne, name, count, &ncases);
            v->alen = param(line, "Alen", v->alen);
            v->plen = param(line, "Plen", v->plen);
            v->nlen = param(line, "Nlen", v->nlen);
            v->tlen = param(line, "Tlen", v->tlen);
            continue;
        }
        if (eq == NULL)
            continue;
        val = eq + 1;
        while (*val == ' ')
            val++;
        if (strncmp(line, "Count", 5) == 0) {
            vcase_flush(v, e, ne, name, count, &ncases);
            count = (unsigned)strtoul(val, NULL, 10);
            v->pending = 1;
            v->result = -1;
        } else if (strncmp(line, "Alen", 4) == 0) {
            v->alen = strtol(val, NULL, 10);
        } else if (strncmp(line, "Plen", 4) == 0) {
            v->plen = strtol(val, NULL, 10);
        } else if (strncmp(line, "Nlen", 4) == 0) {
            v->nlen = strtol(val, NULL, 10);
        } else if (strncmp(line, "Tlen", 4) == 0) {
            v->tlen = strtol(val, NULL, 10);
        } else if (strncmp(line, "Key", 3) == 0) {
            v->klen = unhex(v->key, sizeof(v->key), val);
        } else if (strncmp(line, "Nonce", 5) == 0) {
            v->nonce_n = unhex(v->nonce, sizeof(v->nonce), val);
        } else if (strncmp(line, "Adata", 5) == 0) {
            (void)unhex(v->adata, sizeof(v->adata), val);
        } else if (strncmp(line, "Payload", 7) == 0) {
            (void)unhex(v->payload, sizeof(v->payload), val);
        } else if (strncmp(line, "CT", 2) == 0) {
            v->ct_n = unhex(v->ct, sizeof(v->ct), val);
        } else if (strncmp(line, "Result", 6) == 0) {
            v->result = strncmp(val, "Pass", 4) == 0 ? 1 : 0;
        } else {
            printf("FAIL: %s: unknown line \"%s\"\n", name, line);
            check_failed++;
        }
    }
    vcase_flush(v, e, ne, name, count, &ncases);
    fclose(f);
    free(v);
    return ncases;
}

#include "test_ccm_rfc3610.h"

/* RFC 3610 section 8 on every engine: appended and detached tags. */
static void rfc3610_run(const struct eng *e, size_t ne)
{
    static aesir_ccm_key key;
    for (size_t i = 0; i < 24; i++) {
        const struct rfc3610_vector *r = &rfc3610[i];
        uint8_t k[16], nonce[13], aad[16], pt[32], ct[48], out[48];
        size_t kl = unhex(k, sizeof(k), r->key);
        size_t nl = unhex(nonce, sizeof(nonce), r->nonce);
        size_t al = unhex(aad, sizeof(aad), r->aad);
        size_t pl = unhex(pt, sizeof(pt), r->pt);
        size_t cl = unhex(ct, sizeof(ct), r->ct_tag), ol;
        size_t tl = cl - pl;
        for (size_t j = 0; j < ne; j++) {
            CHECK(aesir_ccm_init_ex(&key, k, kl, e[j].name) == AESIR_OK);
            CHECK(aesir_ccm_seal(&key, nonce, nl, aad, al, out, sizeof(out),
                                 &ol, pt, pl, tl) == AESIR_OK &&
                  ol == cl && memcmp(out, ct, cl) == 0);
            CHECK(aesir_ccm_open(&key, nonce, nl, aad, al, out, sizeof(out),
                                 &ol, ct, cl, tl) == AESIR_OK &&
                  ol == pl && memcmp(out, pt, pl) == 0);
            CHECK(aesir_ccm_seal_detached(&key, nonce, nl, aad, al, out,
                                          out + pl, tl, pt, pl) == AESIR_OK &&
                  memcmp(out, ct, cl) == 0);
        }
    }
    aesir_ccm_clear(&key);
}

static int part_vectors(const char *dir, const struct eng *e, size_t ne)
{
    static const char *const kinds[] = {"DVPT", "VADT", "VNT", "VPT", "VTT"};
    static const char *const bits[] = {"128", "192", "256"};
    for (size_t k = 0; k < 5; k++)
        for (size_t b = 0; b < 3; b++) {
            char name[32];
            unsigned n;
            snprintf(name, sizeof(name), "%s%s.rsp", kinds[k], bits[b]);
            n = vector_file(dir, name, e, ne);
            printf("  %-12s %4u cases x %zu engines\n", name, n, ne);
            if (n == 0)
                check_failed++;
        }
    rfc3610_run(e, ne);
    printf("  RFC 3610 packet vectors #1..#24 x %zu engines\n", ne);
    return 0;
}

/* ---- random messages against the reference ------------------------- */

#define RMAX 65536
#define GUARD 16
static _Alignas(64) uint8_t r_aad[70000], r_pt[RMAX], r_ct[RMAX],
    r_in[RMAX + 64], r_out[RMAX + 64], r_tmp[RMAX + 64];

struct rcase {
    uint8_t key[32], nonce[13];
    size_t klen, nlen, alen, len, tlen, in_off, out_off;
    int in_place;
};

static void rdraw(struct rng *r, struct rcase *c, size_t max_aad,
                  size_t max_len)
{
    c->klen = 16 + 8 * below(r, 3);
    fill(r, c->key, c->klen);
    c->nlen = 7 + below(r, 7);
    fill(r, c->nonce, c->nlen);
    c->tlen = 4 + 2 * below(r, 7);
    c->alen = below(r, 4) == 0 ? 0 : below(r, max_aad + 1);
    c->len = below(r, 16) == 0 ? below(r, max_len + 1)
                               : below(r, (max_len < 700 ? max_len : 700) + 1);
    fill(r, r_aad, c->alen);
    fill(r, r_pt, c->len);
    c->in_off = below(r, 16);
    c->out_off = below(r, 16);
    c->in_place = below(r, 3) == 0;
}

/* Random cut points: the next piece of what is left. */
static size_t piece(struct rng *r, size_t left, size_t *cuts)
{
    if (left == 0)
        return 0;
    if (*cuts == 0)
        return left;
    (*cuts)--;
    return below(r, left + 1);
}

/* The incremental API on one message (out may equal in); the result of
 * finish or verify, or the first error. */
static int incremental(struct rng *r, const aesir_ccm_key *k,
                       const struct rcase *c, const uint8_t *aad, int enc,
                       uint8_t *out, const uint8_t *in, uint8_t *tag)
{
    aesir_ccm ctx;
    size_t off, n, cuts = below(r, 7);
    int err =
        aesir_ccm_start(&ctx, k, c->nonce, c->nlen, c->alen, c->len, c->tlen);
    if (err != AESIR_OK)
        return err;
    for (off = 0; off < c->alen; off += n) {
        n = piece(r, c->alen - off, &cuts);
        if ((err = aesir_ccm_aad(&ctx, aad + off, n)) != AESIR_OK)
            return err;
    }
    cuts = below(r, 7);
    for (off = 0; off < c->len; off += n) {
        n = piece(r, c->len - off, &cuts);
        err = enc ? aesir_ccm_encrypt_update(&ctx, out + off, in + off, n)
                  : aesir_ccm_decrypt_update_unverified(&ctx, out + off,
                                                        in + off, n);
        if (err != AESIR_OK)
            return err;
    }
    return enc ? aesir_ccm_finish(&ctx, tag, c->tlen)
               : aesir_ccm_verify(&ctx, tag, c->tlen);
}

/* Every way in on one case against ct/tag (the expected output): seal
 * detached and appended, incremental, open three ways, a flipped bit.
 * Returns 1 when all agree. */
static int all_ways(struct rng *r, const aesir_ccm_key *k,
                    const struct rcase *c, const uint8_t *ct,
                    const uint8_t *tag)
{
    uint8_t *in = r_in + c->in_off;
    uint8_t *out = c->in_place ? in : r_out + c->out_off;
    uint8_t t[16 + GUARD];
    size_t len = c->len, ol;
    unsigned before = check_failed;

    memcpy(in, r_pt, len);
    memset(out + (c->in_place ? len : 0), 0xa5,
           c->in_place ? GUARD : len + GUARD);
    memset(t, 0xa5, sizeof(t));
    CHECK(aesir_ccm_seal_detached(k, c->nonce, c->nlen, r_aad, c->alen, out, t,
                                  c->tlen, in, len) == AESIR_OK);
    CHECK(memcmp(out, ct, len) == 0 && memcmp(t, tag, c->tlen) == 0);
    CHECK(all_eq(out + len, 0xa5, GUARD) &&
          all_eq(t + c->tlen, 0xa5, sizeof(t) - c->tlen));
    CHECK(c->in_place || memcmp(in, r_pt, len) == 0);
    memcpy(in, r_pt, len);
    memset(out + len, 0xa5, 16 + GUARD);
    CHECK(aesir_ccm_seal(k, c->nonce, c->nlen, r_aad, c->alen, out,
                         len + c->tlen, &ol, in, len, c->tlen) == AESIR_OK &&
          ol == len + c->tlen);
    CHECK(memcmp(out, ct, len) == 0 && memcmp(out + len, tag, c->tlen) == 0 &&
          all_eq(out + len + c->tlen, 0xa5, GUARD));
    memcpy(in, r_pt, len);
    CHECK(incremental(r, k, c, r_aad, 1, out, in, t) == AESIR_OK);
    CHECK(memcmp(out, ct, len) == 0 && memcmp(t, tag, c->tlen) == 0);

    memcpy(in, ct, len);
    memset(out + len, 0xa5, GUARD);
    CHECK(aesir_ccm_open_detached(k, c->nonce, c->nlen, r_aad, c->alen, out,
                                  tag, c->tlen, in, len) == AESIR_OK);
    CHECK(memcmp(out, r_pt, len) == 0 && all_eq(out + len, 0xa5, GUARD));
    memcpy(in, ct, len);
    memcpy(in + len, tag, c->tlen);
    CHECK(aesir_ccm_open(k, c->nonce, c->nlen, r_aad, c->alen, out, len, &ol,
                         in, len + c->tlen, c->tlen) == AESIR_OK &&
          ol == len && memcmp(out, r_pt, len) == 0);
    memcpy(in, ct, len);
    CHECK(incremental(r, k, c, r_aad, 0, out, in, (uint8_t *)tag) == AESIR_OK &&
          memcmp(out, r_pt, len) == 0);

    /* one bit of ciphertext, tag, additional data or nonce flipped */
    {
        size_t nbits = 8 * (len + c->tlen + c->alen + c->nlen);
        size_t b = below(r, nbits);
        uint8_t *where;
        struct rcase cc = *c;
        memcpy(r_tmp, ct, len);
        memcpy(t, tag, c->tlen);
        if (b < 8 * len)
            where = r_tmp + b / 8;
        else if ((b -= 8 * len) < 8 * c->tlen)
            where = t + b / 8;
        else if ((b -= 8 * c->tlen) < 8 * c->alen)
            where = r_aad + b / 8;
        else
            where = cc.nonce + (b - 8 * c->alen) / 8;
        *where ^= (uint8_t)(1u << (b % 8));
        memset(out, 0xa5, len);
        CHECK(aesir_ccm_open_detached(k, cc.nonce, c->nlen, r_aad, c->alen, out,
                                      t, c->tlen, r_tmp, len) == AESIR_E_AUTH);
        CHECK(all_zero(out, len));
        if (where >= r_aad && where < r_aad + sizeof(r_aad))
            *where ^= (uint8_t)(1u << (b % 8));
    }
    return check_failed == before;
}

/* One random case on engine e against the reference; 1 when it passed. */
static int ref_case(struct rng *r, const char *e, aesir_ccm_key *k,
                    size_t max_aad, size_t max_len)
{
    static aesir_aes ra;
    struct rcase c;
    uint8_t tag[16];

    rdraw(r, &c, max_aad, max_len);
    if (aesir_aes_init_ex(&ra, c.key, c.klen, "ref", AESIR_ENCRYPT) !=
            AESIR_OK ||
        aesir_ccm_init_ex(k, c.key, c.klen, e) != AESIR_OK) {
        CHECK(0 && "key set-up");
        return 0;
    }
    ref_ccm(&ra, c.nonce, c.nlen, r_aad, c.alen, r_pt, c.len, c.tlen, r_ct,
            tag);
    if (!all_ways(r, k, &c, r_ct, tag)) {
        fprintf(stderr,
                "  %s: key %zu bits, nonce %zu, aad %zu, len %zu, tag %zu, "
                "%s\n",
                e, 8 * c.klen, c.nlen, c.alen, c.len, c.tlen,
                c.in_place ? "in place" : "out of place");
        return 0;
    }
    return 1;
}

/* Every data path of the engine on the same messages (white box, the
 * key's path fields set): its fused kernels (when it has them), and the
 * generic path with the MAC and CTR apart and paired (ccm.c chooses one
 * of the three by engine; here each runs on every engine). */
static void paths_agree(struct rng *r, const char *e)
{
    static aesir_ccm_key kv[3];
    static const char *const what[3] = {"default", "apart", "paired"};
    uint8_t key[32], nonce[13], t[3][16];
    static uint8_t ct[3][RMAX], pt[RMAX];
    unsigned before = check_failed, n = 0;
    int fused;

    fill(r, key, 32);
    for (size_t klen = 16; klen <= 32; klen += 8) {
        CHECK(aesir_ccm_init_ex(&kv[0], key, klen, e) == AESIR_OK);
        fused =
            ((struct ccm_key_state *)(void *)kv[0].opaque)->fused_enc != NULL;
        for (int v = 1; v < 3; v++) {
            struct ccm_key_state *g =
                (struct ccm_key_state *)(void *)kv[v].opaque;
            kv[v] = kv[0];
            g->fused_enc = g->fused_dec = NULL;
            g->pairing = v == 1 ? CCM_PAIR_OFF : CCM_PAIR_ON;
        }
        for (size_t i = 0; i < 100; i++, n++) {
            size_t len = i < 40 ? 16 * i + (i & 1) * below(r, 16)
                                : below(r, i % 10 == 0 ? 16384 : 600);
            size_t nl = 7 + below(r, 7), al = below(r, 40);
            fill(r, nonce, nl);
            fill(r, r_pt, len);
            fill(r, r_aad, al);
            for (int v = 0; v < 3; v++) {
                CHECK(aesir_ccm_seal_detached(&kv[v], nonce, nl, r_aad, al,
                                              ct[v], t[v], 16, r_pt,
                                              len) == AESIR_OK);
                CHECK(memcmp(ct[v], ct[0], len) == 0 &&
                      memcmp(t[v], t[0], 16) == 0);
                CHECK(aesir_ccm_open_detached(&kv[v], nonce, nl, r_aad, al, pt,
                                              t[0], 16, ct[0],
                                              len) == AESIR_OK &&
                      memcmp(pt, r_pt, len) == 0);
            }
        }
    }
    printf("  %-14s paths (%s%s, %s, %s) agree: %u messages %s\n", e, what[0],
           fused ? ": fused" : "", what[1], what[2], n,
           check_failed == before ? "PASS" : "FAIL");
    for (int v = 0; v < 3; v++)
        aesir_ccm_clear(&kv[v]);
}

/* The additional data's length encodings (A.2.2): 2 bytes below
 * 2^16 - 2^8, 6 from there, on every engine against the reference. */
static void aad_encodings(struct rng *r, const struct eng *e, size_t ne)
{
    static const size_t lens[] = {1,      14,     15,      0xfefe, 0xfeff,
                                  0xff00, 0xff01, 0x10000, 0x10001};
    static aesir_aes ra;
    static aesir_ccm_key k;
    uint8_t key[16], nonce[12], t0[16], t1[16], ct[40], pt[40];
    aesir_ccm ctx;

    fill(r, key, 16);
    fill(r, nonce, 12);
    fill(r, pt, sizeof(pt));
    fill(r, r_aad, 0x10001);
    CHECK(aesir_aes_init_ex(&ra, key, 16, "ref", AESIR_ENCRYPT) == AESIR_OK);
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        ref_ccm(&ra, nonce, 12, r_aad, lens[i], pt, 37, 16, r_ct, t0);
        for (size_t j = 0; j < ne; j++) {
            CHECK(aesir_ccm_init_ex(&k, key, 16, e[j].name) == AESIR_OK);
            CHECK(aesir_ccm_seal_detached(&k, nonce, 12, r_aad, lens[i], ct, t1,
                                          16, pt, 37) == AESIR_OK);
            CHECK(memcmp(ct, r_ct, 37) == 0 && memcmp(t0, t1, 16) == 0);
        }
        /* incremental, in two pieces across the encoding's block */
        CHECK(aesir_ccm_start(&ctx, &k, nonce, 12, lens[i], 37, 16) ==
              AESIR_OK);
        CHECK(aesir_ccm_aad(&ctx, r_aad, lens[i] / 3) == AESIR_OK);
        CHECK(aesir_ccm_aad(&ctx, r_aad + lens[i] / 3, lens[i] - lens[i] / 3) ==
              AESIR_OK);
        CHECK(aesir_ccm_encrypt_update(&ctx, ct, pt, 37) == AESIR_OK);
        CHECK(aesir_ccm_finish(&ctx, t1, 16) == AESIR_OK &&
              memcmp(t0, t1, 16) == 0);
    }
    aesir_ccm_clear(&k);
}

/* ---- bad input and misuse ------------------------------------------ */

static void bad_input(const char *e)
{
    static aesir_ccm_key k, unset;
    static _Alignas(16) uint8_t raw[sizeof(aesir_ccm_key) + 16];
    uint8_t key[32] = {1, 2, 3}, nonce[16] = {9}, aad[8] = {7};
    uint8_t in[64] = {5}, out[80], tag[16] = {0};
    static uint8_t big[65536 + 16];
    size_t ol = 77;
    aesir_ccm ctx;

    /* key set-up */
    CHECK_EQ(aesir_ccm_init_ex(NULL, key, 16, e), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ccm_init_ex(&k, NULL, 16, e), AESIR_E_ARGUMENT);
    CHECK(aesir_ccm_engine(&k) == NULL);
    CHECK_EQ(aesir_ccm_init_ex(&k, key, 15, e), AESIR_E_KEY_LENGTH);
    CHECK(all_zero(&k, sizeof(k)));
    CHECK_EQ(aesir_ccm_init_ex(&k, key, 16, "no-such-engine"),
             AESIR_E_ENGINE_UNKNOWN);
    CHECK_EQ(aesir_ccm_init_ex((aesir_ccm_key *)(void *)(raw + 4), key, 16, e),
             AESIR_E_ARGUMENT);
    CHECK(all_zero(raw, sizeof(raw)));
    CHECK_EQ(aesir_ccm_init_ex(&k, key, 32, e), AESIR_OK);
    CHECK(aesir_ccm_engine(&k) != NULL && strcmp(aesir_ccm_engine(&k), e) == 0);

    /* one-shot: every check before anything is written */
    memset(out, 0xa5, sizeof(out));
    CHECK_EQ(aesir_ccm_seal_detached(&unset, nonce, 13, aad, 8, out, tag, 16,
                                     in, 64),
             AESIR_E_STATE);
    for (size_t n = 0; n <= 16; n++) {
        int want = n >= 7 && n <= 13 ? AESIR_OK : AESIR_E_IV_LENGTH;
        CHECK_EQ(
            aesir_ccm_seal_detached(&k, nonce, n, aad, 8, out, tag, 16, in, 64),
            want);
    }
    for (size_t t = 0; t <= 18; t++) {
        int want =
            t >= 4 && t <= 16 && t % 2 == 0 ? AESIR_OK : AESIR_E_ARGUMENT;
        CHECK_EQ(
            aesir_ccm_seal_detached(&k, nonce, 13, aad, 8, out, tag, t, in, 64),
            want);
        CHECK_EQ(aesir_ccm_seal(&k, nonce, 13, aad, 8, out, sizeof(out), &ol,
                                in, 64, t),
                 want);
        CHECK_EQ(aesir_ccm_start(&ctx, &k, nonce, 13, 0, 0, t), want);
        aesir_ccm_abort(&ctx);
    }
    memset(out, 0xa5, sizeof(out));
    memset(tag, 0xa5, sizeof(tag));
    CHECK_EQ(
        aesir_ccm_seal_detached(&k, NULL, 13, aad, 8, out, tag, 16, in, 64),
        AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_ccm_seal_detached(&k, nonce, 13, NULL, 8, out, tag, 16, in, 64),
        AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_ccm_seal_detached(&k, nonce, 13, aad, 8, NULL, tag, 16, in, 64),
        AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_ccm_seal_detached(&k, nonce, 13, aad, 8, out, NULL, 16, in, 64),
        AESIR_E_ARGUMENT);
    CHECK_EQ(
        aesir_ccm_seal_detached(&k, nonce, 13, aad, 8, out, tag, 16, NULL, 64),
        AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ccm_seal(&k, nonce, 13, aad, 8, out, 79, &ol, in, 64, 16),
             AESIR_E_OUTPUT_SIZE);
    CHECK(ol == 0);
    CHECK_EQ(aesir_ccm_seal(&k, nonce, 13, aad, 8, out, 80, NULL, in, 64, 16),
             AESIR_E_ARGUMENT);
    CHECK(all_eq(out, 0xa5, sizeof(out)) && all_eq(tag, 0xa5, sizeof(tag)));
    /* NULL buffers are fine at length 0 */
    CHECK_EQ(
        aesir_ccm_seal_detached(&k, nonce, 13, NULL, 0, NULL, tag, 4, NULL, 0),
        AESIR_OK);
    CHECK_EQ(
        aesir_ccm_open_detached(&k, nonce, 13, NULL, 0, NULL, tag, 4, NULL, 0),
        AESIR_OK);
    tag[0] ^= 1;
    CHECK_EQ(
        aesir_ccm_open_detached(&k, nonce, 13, NULL, 0, NULL, tag, 4, NULL, 0),
        AESIR_E_AUTH);

    /* q bytes of length: a 13-byte nonce takes messages below 64 KiB */
    memset(big, 0xa5, sizeof(big));
    CHECK_EQ(aesir_ccm_seal_detached(&k, nonce, 13, aad, 8, big, tag, 16, big,
                                     65536),
             AESIR_E_INPUT_LENGTH);
    CHECK(all_eq(big, 0xa5, sizeof(big)));
    CHECK_EQ(aesir_ccm_seal_detached(&k, nonce, 13, aad, 8, big, tag, 16, big,
                                     65535),
             AESIR_OK);
    CHECK_EQ(aesir_ccm_open_detached(&k, nonce, 12, aad, 8, big, tag, 16, big,
                                     65536),
             AESIR_E_AUTH);
    CHECK(all_zero(big, 65536));
    for (size_t n = 8; n <= 13; n++) {
        unsigned q = 15 - (unsigned)n;
        uint64_t lim = (uint64_t)1 << (8 * q);
        CHECK_EQ(aesir_ccm_start(&ctx, &k, nonce, n, 0, lim - 1, 16), AESIR_OK);
        aesir_ccm_abort(&ctx);
        CHECK_EQ(aesir_ccm_start(&ctx, &k, nonce, n, 0, lim, 16),
                 AESIR_E_INPUT_LENGTH);
        CHECK(all_zero(&ctx, sizeof(ctx)));
    }
    CHECK_EQ(aesir_ccm_start(&ctx, &k, nonce, 7, UINT64_MAX, UINT64_MAX, 16),
             AESIR_OK);
    aesir_ccm_abort(&ctx);
    CHECK(all_zero(&ctx, sizeof(ctx)));

    /* open: too short, forged */
    ol = 5;
    CHECK_EQ(
        aesir_ccm_open(&k, nonce, 13, aad, 8, out, sizeof(out), &ol, in, 7, 8),
        AESIR_E_INPUT_LENGTH);
    CHECK(ol == 0);
    CHECK_EQ(aesir_ccm_seal(&k, nonce, 13, aad, 8, out, sizeof(out), &ol, in,
                            64, 16),
             AESIR_OK);
    for (size_t bit = 0; bit < 8 * 80; bit += 7) {
        uint8_t o2[64], f[80];
        memcpy(f, out, 80);
        f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        memset(o2, 0xa5, sizeof(o2));
        ol = 9;
        CHECK_EQ(aesir_ccm_open(&k, nonce, 13, aad, 8, o2, sizeof(o2), &ol, f,
                                80, 16),
                 AESIR_E_AUTH);
        CHECK(ol == 0 && all_zero(o2, sizeof(o2)));
    }
    /* a tag of another length never verifies as a truncation */
    CHECK_EQ(aesir_ccm_open(&k, nonce, 13, aad, 8, out, sizeof(out), &ol, out,
                            72, 8),
             AESIR_E_AUTH);
    CHECK(all_zero(out, 64));

    /* incremental misuse: each error ends (wipes) the message */
#define START(alen, mlen)                                                      \
    CHECK_EQ(aesir_ccm_start(&ctx, &k, nonce, 13, (alen), (mlen), 16), AESIR_OK)
    START(8, 64);
    CHECK_EQ(aesir_ccm_aad(&ctx, aad, 8), AESIR_OK);
    CHECK_EQ(aesir_ccm_aad(&ctx, aad, 1), AESIR_E_INPUT_LENGTH);
    CHECK(all_zero(&ctx, sizeof(ctx)));
    START(8, 64);
    CHECK_EQ(aesir_ccm_aad(&ctx, aad, 7), AESIR_OK);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 1), AESIR_E_STATE);
    START(8, 64);
    CHECK_EQ(aesir_ccm_aad(&ctx, aad, 9), AESIR_E_INPUT_LENGTH);
    START(0, 64);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 60), AESIR_OK);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 5), AESIR_E_INPUT_LENGTH);
    CHECK(all_zero(&ctx, sizeof(ctx)));
    START(0, 64);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 63), AESIR_OK);
    CHECK_EQ(aesir_ccm_finish(&ctx, tag, 16), AESIR_E_INPUT_LENGTH);
    START(0, 64);
    CHECK_EQ(aesir_ccm_decrypt_update_unverified(&ctx, out, in, 63), AESIR_OK);
    CHECK_EQ(aesir_ccm_verify(&ctx, tag, 16), AESIR_E_INPUT_LENGTH);
    START(0, 64);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 32), AESIR_OK);
    CHECK_EQ(aesir_ccm_decrypt_update_unverified(&ctx, out, in, 32),
             AESIR_E_STATE);
    START(0, 64);
    CHECK_EQ(aesir_ccm_decrypt_update_unverified(&ctx, out, in, 32), AESIR_OK);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 32), AESIR_E_STATE);
    START(0, 64);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 64), AESIR_OK);
    CHECK_EQ(aesir_ccm_verify(&ctx, tag, 16), AESIR_E_STATE);
    START(0, 64);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 64), AESIR_OK);
    CHECK_EQ(aesir_ccm_finish(&ctx, tag, 12), AESIR_E_ARGUMENT);
    START(0, 64);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, NULL, in, 64), AESIR_E_ARGUMENT);
    START(0, 0);
    CHECK_EQ(aesir_ccm_finish(&ctx, tag, 16), AESIR_OK);
    CHECK(all_zero(&ctx, sizeof(ctx)));
    CHECK_EQ(aesir_ccm_finish(&ctx, tag, 16), AESIR_E_STATE);
    CHECK_EQ(aesir_ccm_aad(&ctx, aad, 1), AESIR_E_STATE);
    CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 0), AESIR_E_STATE);
    CHECK_EQ(aesir_ccm_aad(NULL, aad, 1), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ccm_start(NULL, &k, nonce, 13, 0, 0, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ccm_start(&ctx, &unset, nonce, 13, 0, 0, 16), AESIR_E_STATE);
    CHECK_EQ(aesir_ccm_start(&ctx, &k, NULL, 13, 0, 0, 16), AESIR_E_ARGUMENT);
    CHECK_EQ(aesir_ccm_start(&ctx, &k, nonce, 6, 0, 0, 16), AESIR_E_IV_LENGTH);
    /* a key cleared under a message */
    {
        static aesir_ccm_key k2;
        CHECK_EQ(aesir_ccm_init_ex(&k2, key, 16, e), AESIR_OK);
        CHECK_EQ(aesir_ccm_start(&ctx, &k2, nonce, 13, 0, 64, 16), AESIR_OK);
        aesir_ccm_clear(&k2);
        CHECK_EQ(aesir_ccm_encrypt_update(&ctx, out, in, 16), AESIR_E_STATE);
        CHECK(all_zero(&ctx, sizeof(ctx)));
        CHECK_EQ(aesir_ccm_seal_detached(&k2, nonce, 13, aad, 8, out, tag, 16,
                                         in, 64),
                 AESIR_E_STATE);
    }
#undef START
    aesir_ccm_clear(&k);
    CHECK(all_zero(&k, sizeof(k)));
}

static int part_api(const struct eng *e, size_t ne, uint64_t seed)
{
    static aesir_ccm_key k;
    struct rng r = {seed};
    for (size_t i = 0; i < ne; i++) {
        unsigned n = e[i].slow ? 30 : 300, bad = 0;
        double t = now();
        for (unsigned c = 0; c < n; c++)
            bad += (unsigned)!ref_case(&r, e[i].name, &k, 300, 16384);
        printf("  %-14s %4u random messages vs reference: %s  %.2f s\n",
               e[i].name, n, bad == 0 ? "PASS" : "FAIL", now() - t);
        paths_agree(&r, e[i].name);
        bad_input(e[i].name);
    }
    aad_encodings(&r, e, ne);
    aesir_ccm_clear(&k);
    return 0;
}

/* ---- against OpenSSL ------------------------------------------------ */

#ifdef AESIR_TEST_OPENSSL
/* EVP CCM encryption (enc = 1: tag receives tlen bytes) or decryption
 * with tag checked (enc = 0: returns 0 on a mismatch). Exits on an EVP
 * error: the oracle failing is not a test result. */
static int evp_ccm(int enc, const uint8_t *key, size_t klen,
                   const uint8_t *nonce, size_t nlen, const uint8_t *aad,
                   size_t alen, uint8_t *out, const uint8_t *in, size_t len,
                   uint8_t *tag, size_t tlen)
{
    static EVP_CIPHER_CTX *c;
    const EVP_CIPHER *ci = klen == 16   ? EVP_aes_128_ccm()
                           : klen == 24 ? EVP_aes_192_ccm()
                                        : EVP_aes_256_ccm();
    uint8_t dummy[16];
    int n = 0, rc;

    if (c == NULL && (c = EVP_CIPHER_CTX_new()) == NULL)
        goto fail;
    if (EVP_CipherInit_ex(c, ci, NULL, NULL, NULL, enc) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)nlen, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)tlen,
                            enc ? NULL : tag) != 1 ||
        EVP_CipherInit_ex(c, NULL, NULL, key, nonce, enc) != 1 ||
        EVP_CipherUpdate(c, NULL, &n, NULL, (int)len) != 1)
        goto fail;
    if (alen != 0 && EVP_CipherUpdate(c, NULL, &n, aad, (int)alen) != 1)
        goto fail;
    rc = EVP_CipherUpdate(c, len ? out : dummy, &n, len ? in : dummy, (int)len);
    if (!enc)
        return rc == 1;
    if (rc != 1 || EVP_CipherFinal_ex(c, dummy, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)tlen, tag) != 1)
        goto fail;
    return 1;
fail:
    fprintf(stderr, "EVP CCM call failed (nonce %zu, tag %zu)\n", nlen, tlen);
    exit(2);
}

/* One case on engine e; 1 when every check passed. */
static int diff_case(const char *e, aesir_ccm_key *k, uint64_t seed,
                     size_t eng_no, uint64_t no)
{
    uint64_t s = seed ^ (no << 20) ^ eng_no;
    struct rng r = {splitmix64(&s)};
    struct rcase c;
    uint8_t tag[16];

    rdraw(&r, &c, 600, 4096);
    if (below(&r, 64) == 0) /* up to 64 KiB, within q bytes */
        c.len = below(&r, c.nlen == 13 ? 65535 : 65536);
    fill(&r, r_pt, c.len);
    if (aesir_ccm_init_ex(k, c.key, c.klen, e) != AESIR_OK) {
        CHECK(0 && "key set-up");
        return 0;
    }
    evp_ccm(1, c.key, c.klen, c.nonce, c.nlen, r_aad, c.alen, r_ct, r_pt, c.len,
            tag, c.tlen);
    if (!all_ways(&r, k, &c, r_ct, tag)) {
        fprintf(stderr,
                "  %s case %" PRIu64 ": key %zu bits, nonce %zu, aad %zu, len "
                "%zu, tag %zu, %s\n",
                e, no, 8 * c.klen, c.nlen, c.alen, c.len, c.tlen,
                c.in_place ? "in place" : "out of place");
        return 0;
    }
    /* and EVP opens what aesir sealed */
    {
        uint8_t t[16];
        CHECK(aesir_ccm_seal_detached(k, c.nonce, c.nlen, r_aad, c.alen, r_tmp,
                                      t, c.tlen, r_pt, c.len) == AESIR_OK);
        CHECK(evp_ccm(0, c.key, c.klen, c.nonce, c.nlen, r_aad, c.alen, r_out,
                      r_tmp, c.len, t, c.tlen) == 1);
    }
    return 1;
}

static int part_diff(const struct eng *e, size_t ne, uint64_t seed,
                     size_t shard, size_t nshards)
{
    static aesir_ccm_key k;
    uint64_t n = env_u64("AESIR_DIFF_CASES", 10000), total = 0;

    printf("against %s; seed 0x%016" PRIx64 " (AESIR_DIFF_SEED), %" PRIu64
           " cases per engine (AESIR_DIFF_CASES), ref and ref-otf 1/%d of "
           "that (at least %d); shard %zu of %zu\n",
           OpenSSL_version(OPENSSL_VERSION), seed, n, SLOW_DIVISOR,
           MIN_SLOW_CASES, shard, nshards);
    for (size_t i = 0; i < ne; i++) {
        uint64_t cases = n, bad = 0;
        double t = now();
        if (i % nshards != shard)
            continue;
        if (e[i].slow) {
            cases = n / SLOW_DIVISOR;
            if (cases < MIN_SLOW_CASES)
                cases = MIN_SLOW_CASES;
            if (cases > n)
                cases = n;
        }
        for (uint64_t c = 0; c < cases; c++)
            bad += (uint64_t)!diff_case(e[i].name, &k, seed, i, c);
        total += cases;
        printf("  %-14s %6" PRIu64 " cases  %s (%" PRIu64 " failed)  %.2f s\n",
               e[i].name, cases, bad == 0 ? "PASS" : "FAIL", bad, now() - t);
    }
    aesir_ccm_clear(&k);
    printf("  %" PRIu64 " cases in all\n", total);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    struct eng e[MAX_ENGINES];
    size_t ne;
    struct timespec ts;
    uint64_t seed;
    double t0 = now();

    timespec_get(&ts, TIME_UTC);
    seed = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
    seed = env_u64("AESIR_DIFF_SEED", splitmix64(&seed));
    if (argc < 2) {
        fprintf(stderr, "usage: %s vectors DIR | api | diff [shard n]\n",
                argv[0]);
        return 2;
    }
    printf("test_ccm %s: aesir %s\n", argv[1], aesir_version());
    ne = engines(e);
    if (strcmp(argv[1], "vectors") == 0 && argc == 3) {
        part_vectors(argv[2], e, ne);
    } else if (strcmp(argv[1], "api") == 0) {
        printf("seed 0x%016" PRIx64 " (AESIR_DIFF_SEED)\n", seed);
        part_api(e, ne, seed);
#ifdef AESIR_TEST_OPENSSL
    } else if (strcmp(argv[1], "diff") == 0) {
        size_t shard = 0, nshards = 1;
        if (argc == 4) {
            shard = (size_t)strtoul(argv[2], NULL, 10);
            nshards = (size_t)strtoul(argv[3], NULL, 10);
        }
        if (nshards == 0 || shard >= nshards) {
            fprintf(stderr, "bad shard\n");
            return 2;
        }
        part_diff(e, ne, seed, shard, nshards);
#endif
    } else {
        fprintf(stderr, "test_ccm: unknown part %s\n", argv[1]);
        return 2;
    }
    printf("total %.2f s\n", now() - t0);
    return check_summary();
}
