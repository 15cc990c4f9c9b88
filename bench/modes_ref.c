/*
 * modes_ref.c -- the reference outputs of issue 19's ops (bench.h: xts-enc
 * .. xaes-gcm-enc), for the correctness check before timing (verify.c)
 * and for the decryption ops' inputs (rows.c).
 *
 * The classic ops are checked against aesir's "ref" engine through the
 * public API, and GCM against gcm_ref.c. The new modes have no
 * bench-side reimplementation: their reference is one impl of the run,
 * chosen per op in a fixed order -- aesir/ref when the mode is compiled
 * into aesir, else the first of the peers below that claims the op, else
 * the first impl claiming it that is not a bound impl (bench.h) --
 * and every other impl (other libraries, every aesir engine) must give
 * the same bytes. Two independent implementations agreeing is the check;
 * a wrong reference makes every other impl of the op mismatch, loudly.
 * Decryption ops are checked against the plaintext itself (their input is
 * the reference encryption of it), which also checks the reference's
 * encryption against every library's decryption.
 *
 * mb-cmac-8's reference is cmac's, message by message under
 * bench_mb_key(j).
 */
#include "harness_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Preference order of the reference impl. */
static const char *const ref_order[] = {
    "aesir/ref", "openssl", "gcrypt",  "sodium",   "boringssl", "aws-lc",
    "nettle",    "mbedtls", "wolfssl", "ipsec-mb", "bearssl",
};

/* ref_impl -- the index of op's reference impl at key index k, or -1. */
static long ref_impl(const struct bench_run *r, enum bench_op op, unsigned k)
{
    for (size_t n = 0; n < sizeof(ref_order) / sizeof(ref_order[0]); n++)
        for (size_t i = 0; i < r->nimpls; i++) {
            const struct bench_impl_state *s = &r->impls[i];
            if (s->usable && (s->claimed[k] >> op & 1) &&
                !(s->dropped >> op & 1) &&
                strcmp(s->impl->name, ref_order[n]) == 0)
                return (long)i;
        }
    /* never a bound impl (bench.h): it writes no output */
    for (size_t i = 0; i < r->nimpls; i++) {
        const struct bench_impl_state *s = &r->impls[i];
        if (s->usable && (s->claimed[k] >> op & 1) && !(s->dropped >> op & 1) &&
            !bench_impl_is_bound(s->impl))
            return (long)i;
    }
    return -1;
}

const char *bench_mode_ref_name(const struct bench_run *r, enum bench_op op,
                                unsigned bits)
{
    int k = bench_key_index(bits);
    long i;

    if (op == OP_MB_CMAC_8)
        op = OP_CMAC;
    if (k < 0 || (i = ref_impl(r, op, (unsigned)k)) < 0)
        return NULL;
    return r->impls[i].impl->name;
}

static int run_once(const struct bench_impl *im, enum bench_op op,
                    const uint8_t *key, unsigned bits, const uint8_t iv[16],
                    uint8_t *out, const uint8_t *in, size_t len)
{
    void *ctx = im->setup(op, key, bits, iv);
    int rc;

    if (ctx == NULL)
        return -1;
    rc = im->run(ctx, out, in, len);
    im->release(ctx);
    return rc == 0 ? 0 : -1;
}

int bench_mode_ref(const struct bench_run *r, enum bench_op op,
                   const uint8_t *key, unsigned bits, const uint8_t iv[16],
                   uint8_t *out, const uint8_t *in, size_t len)
{
    int k = bench_key_index(bits);
    long i;

    if (k < 0 || !bench_op_is_mode19(op) || bench_op_enc_of(op) >= 0)
        return -1;
    if (op == OP_MB_CMAC_8) {
        uint8_t kj[32];
        if ((i = ref_impl(r, OP_CMAC, (unsigned)k)) < 0)
            return -1;
        for (unsigned j = 0; j < bench_op_messages(op); j++) {
            bench_mb_key(key, bits, j, kj);
            if (run_once(r->impls[i].impl, OP_CMAC, kj, bits, iv, out + 16 * j,
                         in + j * len, len) != 0)
                return -1;
        }
        return 0;
    }
    if ((i = ref_impl(r, op, (unsigned)k)) < 0)
        return -1;
    return run_once(r->impls[i].impl, op, key, bits, iv, out, in, len);
}
