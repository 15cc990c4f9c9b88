/*
 * verify.c -- correctness before timing (bench_verify, harness.h): every
 * impl, on every op and key size it claims, against aesir's "ref" engine
 * through the public API, on random keys, IVs and messages of several
 * lengths, twice on the same context (the IV must be taken afresh). A
 * mismatch drops the impl for that op, loudly. The bound impls (group
 * "bound", bench.h) execute a bound's instructions and write no output:
 * they are timed without a check.
 *
 * The GCM ops are checked against gcm_ref.c (aesir's ref engine and a
 * bitwise GHASH, itself checked against the GCM specification's test
 * cases first): ciphertext and tag, the tag alone for gmac, GHASH's value
 * for ghash (GMAC's tag for the rows that run GMAC as ghash, bench.h:
 * ghash_is_gmac). gcm-dec gets, per length, the reference's ciphertext and tag
 * as input and must return the plaintext -- and must refuse the same
 * input with one bit of the tag flipped.
 */
#include "harness_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"

/* ref_compute -- op on in[0..len) with aesir's "ref" engine, through the
 * public API; 0 on success, -1 for an op it does not know. */
static int ref_compute(enum bench_op op, const uint8_t *key, unsigned bits,
                       const uint8_t iv[16], uint8_t *out, const uint8_t *in,
                       size_t len)
{
    aesir_aes k;
    size_t n;
    int err;

    if (bench_op_is_gcm(op))
        return bench_gcm_ref(op, key, bits, iv, out, in, len);
    if (bench_op_is_mb(op)) {
        /* N messages, each aesir_cbc_encrypt with its own key and IV; for
         * a MAC, the last block (the IV for an empty message) */
        uint8_t kj[32], ivj[16];
        int mac = bench_op_is_mac(op);
        uint8_t *c = mac ? malloc(len + 16) : NULL;
        if (mac && c == NULL)
            return -1;
        for (unsigned j = 0; j < bench_op_messages(op); j++) {
            uint8_t *o = mac ? c : out + j * len;
            bench_mb_key(key, bits, j, kj);
            bench_mb_iv(iv, j, ivj);
            if (ref_compute(OP_CBC_ENC, kj, bits, ivj, o, in + j * len, len) !=
                0) {
                free(c);
                return -1;
            }
            if (mac)
                memcpy(out + 16 * j, len ? c + len - 16 : ivj, 16);
        }
        free(c);
        return 0;
    }
    err = aesir_aes_init_ex(&k, key, bits / 8, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT);
    if (err != AESIR_OK)
        return -1;
    switch (op) {
    case OP_ECB_ENC:
        err = aesir_ecb_encrypt(&k, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_ECB_DEC:
        err = aesir_ecb_decrypt(&k, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_CBC_ENC:
        err = aesir_cbc_encrypt(&k, iv, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_CBC_DEC:
        err = aesir_cbc_decrypt(&k, iv, AESIR_PAD_NONE, out, len, &n, in, len);
        break;
    case OP_CFB128_ENC:
        err = aesir_cfb128_encrypt(&k, iv, out, in, len);
        break;
    case OP_CFB128_DEC:
        err = aesir_cfb128_decrypt(&k, iv, out, in, len);
        break;
    case OP_OFB:
        err = aesir_ofb_crypt(&k, iv, out, in, len);
        break;
    case OP_CTR:
        err = aesir_ctr_crypt(&k, iv, 128, out, in, len);
        break;
    default:
        err = -1;
    }
    aesir_aes_clear(&k);
    return err == AESIR_OK ? 0 : -1;
}

/* The lengths a verification uses: a few fixed ones, the grid's sizes,
 * and two that are not whole blocks for the stream modes. */
static size_t verify_lengths(const struct bench_run *r, enum bench_op op,
                             size_t *lens)
{
    static const size_t base[] = {16, 80, 576, 4096};
    size_t n = 0;

    if (bench_op_is_mb(op)) { /* up to the row's size: the buffers hold
                                 16 messages of that */
        for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
            if (base[i] < r->cfg.mb_size)
                lens[n++] = base[i];
        lens[n++] = r->cfg.mb_size;
        return n;
    }
    for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
        lens[n++] = base[i];
    for (size_t i = 0; i < r->cfg.nsizes; i++)
        if (bench_op_len_ok(op, r->cfg.sizes[i]))
            lens[n++] = r->cfg.sizes[i];
    if (bench_op_len_ok(op, 1))
        lens[n++] = 1;
    if (bench_op_len_ok(op, 33))
        lens[n++] = 33; /* the stream modes, XTS's ciphertext stealing */
    if (bench_op_len_ok(op, 40) && !bench_op_len_ok(op, 33))
        lens[n++] = 40; /* KW: 8-byte units */
    return n;
}

/* Loud: on the log, and as a note in every output. */
static void fail_op(struct bench_run *r, size_t i, enum bench_op op, FILE *log,
                    const char *what)
{
    struct bench_impl_state *s = &r->impls[i];

    s->dropped |= BENCH_OP_BIT(op);
    r->mismatches++;
    bench_note(r, "MISMATCH: %s %s: %s -- %s DROPPED for %s", s->impl->name,
               bench_op_name(op), what, s->impl->name, bench_op_name(op));
    if (log != NULL)
        fprintf(log,
                "\n*** MISMATCH *** %s %s: %s\n*** %s is DROPPED for %s "
                "(seed %llu) ***\n\n",
                s->impl->name, bench_op_name(op), what, s->impl->name,
                bench_op_name(op), (unsigned long long)r->cfg.seed);
}

/* wrong_tag -- a decryption op (gcm-dec, ...): the input of length len
 * with one bit of its tag (bench_op_tag_byte) flipped must be refused
 * (run() non-zero); 0 when it is, or when op has no tag. */
static int wrong_tag(const struct bench_impl *im, enum bench_op op, void *ctx,
                     uint8_t *out, uint8_t *in, size_t len)
{
    long at = bench_op_tag_byte(op, len);
    int rc;

    if (at < 0)
        return 0;
    in[at] ^= 0x80;
    rc = im->run(ctx, out, in, len);
    in[at] ^= 0x80;
    return rc != 0 ? 0 : -1;
}

/* check_one -- impl i against the reference outputs ref[j] for lens[j];
 * 0 when every length matches, twice on the same context. input[j], when
 * input is not NULL, is copied to the input buffer first (gcm-dec). */
static int check_one(struct bench_run *r, size_t i, enum bench_op op,
                     unsigned bits, const uint8_t *key, const uint8_t *iv,
                     const size_t *lens, size_t nlens, uint8_t *const *ref,
                     uint8_t *const *input, FILE *log)
{
    const struct bench_impl *im = r->impls[i].impl;
    uint8_t *in = bench_buf_in(r), *out = bench_buf_out(r);
    char what[160];
    void *ctx = im->setup(op, key, bits, iv);

    if (ctx == NULL) {
        snprintf(what, sizeof(what), "AES-%u setup() failed", bits);
        fail_op(r, i, op, log, what);
        return -1;
    }
    for (size_t j = 0; j < nlens; j++)
        for (int again = 0; again < 2 && bench_len_fits(im, op, lens[j]);
             again++) {
            size_t at = 0, bytes = bench_op_out_bytes(op, lens[j]);
            if (input != NULL)
                memcpy(in, input[j], bench_op_in_bytes(op, lens[j]));
            memset(out, 0xa5, bytes);
            if (im->run(ctx, out, in, lens[j]) != 0) {
                snprintf(what, sizeof(what), "AES-%u, %zu bytes: run() failed",
                         bits, lens[j]);
                fail_op(r, i, op, log, what);
                im->release(ctx);
                return -1;
            }
            if (memcmp(out, ref[j], bytes) == 0) {
                if (again == 0 || wrong_tag(im, op, ctx, out, in, lens[j]) == 0)
                    continue;
                snprintf(what, sizeof(what),
                         "AES-%u, %zu bytes: a wrong tag was accepted", bits,
                         lens[j]);
                fail_op(r, i, op, log, what);
                im->release(ctx);
                return -1;
            }
            while (out[at] == ref[j][at])
                at++;
            snprintf(what, sizeof(what),
                     "AES-%u, %zu-byte message%s: output differs from aesir "
                     "ref at byte %zu%s",
                     bits, lens[j],
                     again ? " (second message on the same context)" : "", at,
                     bench_op_messages(op) > 1 ? " (of all messages)" : "");
            fail_op(r, i, op, log, what);
            im->release(ctx);
            return -1;
        }
    im->release(ctx);
    return 0;
}

/* verify_cell -- one op and key size: one random key, IV and message,
 * the reference computed once per length, then every impl claiming it. */
static void verify_cell(struct bench_run *r, enum bench_op op, unsigned k,
                        FILE *log)
{
    uint8_t key[32], iv[16], *ref[BENCH_MAX_SIZES + 8];
    uint8_t *gmac_ref[BENCH_MAX_SIZES + 8] = {NULL}; /* ghash_is_gmac rows */
    uint8_t *input[BENCH_MAX_SIZES + 8] = {NULL};
    size_t lens[BENCH_MAX_SIZES + 8], nlens = verify_lengths(r, op, lens);
    unsigned bits = bench_key_bits(k);
    int any = 0, dec = bench_op_enc_of(op) >= 0;
    int m19 = bench_op_is_mode19(op);

    for (size_t i = 0; i < r->nimpls; i++)
        any |= r->impls[i].usable && (r->impls[i].claimed[k] >> op & 1) &&
               !(r->impls[i].dropped >> op & 1);
    if (!any)
        return;
    if (m19 && log != NULL && r->cfg.verbose) {
        const char *who = bench_mode_ref_name(
            r, dec ? (enum bench_op)bench_op_enc_of(op) : op, bits);
        fprintf(log, "%s AES-%u: checked against %s\n", bench_op_name(op), bits,
                who != NULL ? who : "(none)");
    }
    bench_rng_fill(&r->rng, key, sizeof(key));
    bench_rng_fill(&r->rng, iv, sizeof(iv));
    bench_rng_fill(&r->rng, bench_buf_in(r), r->buf_len);
    for (size_t j = 0; j < nlens; j++) {
        const uint8_t *in = bench_buf_in(r);
        ref[j] = malloc(bench_op_out_bytes(op, lens[j]));
        /* a decryption op: the input is the reference's encryption of the
         * message (ciphertext and tag), the output must be the message */
        if (dec &&
            (input[j] = malloc(bench_op_in_bytes(op, lens[j]))) != NULL &&
            (m19 ? bench_mode_ref(r, (enum bench_op)bench_op_enc_of(op), key,
                                  bits, iv, input[j], in, lens[j])
                 : bench_gcm_ref(OP_GCM_ENC, key, bits, iv, input[j], in,
                                 lens[j])) != 0) {
            free(input[j]);
            input[j] = NULL;
        }
        if (dec && m19 && ref[j] != NULL)
            memcpy(ref[j], in, lens[j]);
        if (dec)
            in = input[j];
        if (op == OP_GHASH)
            gmac_ref[j] = malloc(16);
        if (ref[j] == NULL || in == NULL ||
            (m19 ? (!dec && bench_mode_ref(r, op, key, bits, iv, ref[j], in,
                                           lens[j]) != 0)
                 : ref_compute(op, key, bits, iv, ref[j], in, lens[j]) != 0) ||
            (op == OP_GHASH && (gmac_ref[j] == NULL ||
                                ref_compute(OP_GMAC, key, bits, iv, gmac_ref[j],
                                            in, lens[j]) != 0))) {
            bench_note(r, "no reference for %s AES-%u%s: not timed",
                       bench_op_name(op), bits,
                       m19 ? " (its reference impl failed)" : "");
            for (size_t x = 0; x <= j; x++) {
                free(ref[x]);
                free(input[x]);
                free(gmac_ref[x]);
            }
            return;
        }
    }
    for (size_t i = 0; i < r->nimpls; i++) {
        struct bench_impl_state *s = &r->impls[i];
        if (!s->usable || !(s->claimed[k] >> op & 1) || (s->dropped >> op & 1))
            continue;
        /* a bound impl writes no output: nothing to compare (bench.h) */
        if (bench_impl_is_bound(s->impl)) {
            s->verified[k] |= BENCH_OP_BIT(op);
            continue;
        }
        if (check_one(r, i, op, bits, key, iv, lens, nlens,
                      op == OP_GHASH && s->impl->ghash_is_gmac ? gmac_ref : ref,
                      dec ? input : NULL, log) == 0)
            s->verified[k] |= BENCH_OP_BIT(op);
    }
    for (size_t j = 0; j < nlens; j++) {
        free(ref[j]);
        free(input[j]);
        free(gmac_ref[j]);
    }
}

unsigned bench_verify(struct bench_run *r, bench_ops ops, unsigned keys,
                      FILE *log)
{
    unsigned before = r->mismatches;

    /* The GCM reference first: without it no GCM op can be checked. */
    if ((ops & OPS_GCM) && bench_gcm_ref_selftest() != 0) {
        bench_note(r, "GCM reference FAILED its test cases: the GCM ops "
                      "are not checked, not timed");
        if (log != NULL)
            fprintf(log, "\n*** the GCM reference (bench/gcm_ref.c) fails "
                         "the GCM test cases: GCM ops skipped ***\n\n");
        r->mismatches++;
        ops &= ~(bench_ops)OPS_GCM;
    }
    for (int op = 0; op < OP_COUNT; op++)
        for (unsigned k = 0; k < BENCH_NKEYS; k++)
            if ((ops >> op & 1) && (keys >> k & 1))
                verify_cell(r, (enum bench_op)op, k, log);
    return r->mismatches - before;
}
