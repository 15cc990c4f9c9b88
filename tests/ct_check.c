/*
 * ct_check.c -- the constant-time check. Run under valgrind memcheck, it
 * marks keys and data secret (CT_SECRET: "undefined" to memcheck) and
 * drives every path a secret takes through the library: key setup for
 * every key size and direction, the raw block functions at block counts
 * that hit every batch and tail, and every mode through the public API,
 * one-shot and incremental with odd splits. Memcheck reports each branch
 * and each memory address that depends on a secret; a constant-time
 * engine must give zero reports. IVs and counters are public, as are
 * lengths; outputs are declassified (CT_PUBLIC) before they are compared
 * with the same operation done by `ref` on public copies of the inputs.
 *
 *   valgrind --error-exitcode=1 --track-origins=yes ct_check
 *       every available engine flagged AESIR_ENGINE_CONSTANT_TIME;
 *   valgrind ... ct_check --engine NAME
 *       one engine, constant-time or not (ttable and ref must fail: that
 *       shows the check can fail).
 *
 * GCM and GMAC (aesir_gcm_*, aesir_gmac*) run on every pair of a
 * constant-time AES engine and a constant-time GHASH engine: key setup
 * with a secret key (so H = E_K(0) and its powers or tables are secret),
 * seal and open one-shot (appended and detached tags) and incremental
 * (fuzzy AAD and data splits), with and without AAD, 96-bit and other IV
 * lengths (the counter is then derived from H: secret), partial blocks;
 * plaintext, ciphertext, tag and AAD secret; open and verify with good
 * and bad tags, GMAC and its verify. The outputs are compared with the
 * ref x ghash-ref pair on public copies. The tag comparison's verdict is
 * declassified by gcm.c (it is the return code), as PKCS#7's is.
 *
 *   ct_check --no-gcm             the AES checks only;
 *   ct_check --ghash NAME         GCM only, on NAME with every constant-
 *                                 time AES engine (or --engine's);
 *   ct_check --engine E           E's AES checks and GCM with every
 *                                 available constant-time GHASH engine.
 *
 * ghash-table4 and ghash-table8 must fail (--ghash NAME --engine ct64).
 *
 * Valgrind 3.19 cannot execute VAES (256/512-bit vaesenc), AVX-512 or
 * GFNI (gf2p8affineinvqb: "unhandled instruction bytes", SIGILL)
 * instructions, and its virtual CPU does not report them; under valgrind
 * this program also masks them with AESIR_CPU_DISABLE=avx512f,vaes,gfni before
 * the library's first CPU probe, so the engines that need them are listed
 * as not checked rather than run. See docs/constant-time.md.
 *
 * The same source, built with clang -fsanitize=memory against the library
 * built the same way (ct_check_msan, tests/CMakeLists.txt), is the second
 * checker: CT_SECRET poisons, MemorySanitizer reports each branch, address
 * or divisor computed from poisoned bytes, and runs every instruction the
 * CPU has, so nothing is masked. It needs no valgrind: run it directly,
 *
 *   MSAN_OPTIONS=halt_on_error=0 ct_check_msan [--engine NAME]
 *
 * (tests/ct_msan.sh, which the ct_msan_* tests use, sets the options).
 *
 * The program counts the checker's errors per section
 * (VALGRIND_COUNT_ERRORS; under MSan, the reports it sees through the
 * sanitizer's report hook) and prints them, so a failure says where it
 * happened; the checker's own exit code is what the ctest wrappers rely
 * on.
 */
#define _POSIX_C_SOURCE 200112L /* setenv */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "check.h"
#include "ct.h"

#ifndef AESIR_CT_CHECK
#error "ct_check is built with -DAESIR_CT_CHECK (see tests/CMakeLists.txt)"
#endif

#ifdef AESIR_CT_MSAN
/*
 * MemorySanitizer (ct.h maps CT_SECRET/CT_PUBLIC to it). The runtime calls
 * __sanitizer_report_error_summary once per report (it is a weak hook of
 * the sanitizer runtime, declared in <sanitizer/common_interface_defs.h>);
 * counting there gives the per-section counts. A report costs about
 * 0.1 ms (stack unwinding), so an engine that leaks everywhere (ttable:
 * millions of reports) would run for hours: after MSAN_REPORT_LIMIT
 * reports the program says where it was and exits with status 99, the
 * status the checker's wrapper reads as "secret-dependent branches or
 * indices found".
 */
#include <unistd.h> /* _exit */
#define CHECKER "MemorySanitizer"
#define CHECKER_MASK "" /* MSan runs every instruction natively */
#define MSAN_REPORT_LIMIT 1000
static volatile unsigned long msan_reports;
static void msan_stop(void);
static unsigned long checker_errors(void)
{
    return msan_reports;
}
static int checker_running(void)
{
    return 1;
}
void __sanitizer_report_error_summary(const char *summary)
{
    fprintf(stderr, "%s\n", summary);
    if (++msan_reports >= MSAN_REPORT_LIMIT)
        msan_stop();
}
#else
/* Features valgrind cannot execute (see the comment at the top). */
#define CHECKER "valgrind"
#if defined(__x86_64__) || defined(__i386__)
#define CHECKER_MASK "avx512f,vaes,gfni"
#else
#define CHECKER_MASK ""
#endif
static unsigned long checker_errors(void)
{
    return VALGRIND_COUNT_ERRORS;
}
static int checker_running(void)
{
    return RUNNING_ON_VALGRIND != 0;
}
#endif

#define MAXLEN 1045       /* 65 blocks and 5 bytes */
#define CAP (MAXLEN + 32) /* room for padding */

/* ---------------------------------------------------------------------
 * Sections: the checker's errors are counted per section and engine.
 * ------------------------------------------------------------------- */

enum section {
    S_SETKEY,
    S_ENC,
    S_DEC,
    S_ECB,
    S_CBC_ENC,
    S_CBC_DEC,
    S_PKCS7,
    S_CFB128,
    S_CFB8,
    S_CFB1,
    S_OFB,
    S_CTR32,
    S_CTR64,
    S_CTR128,
    S_MANY,
    S_CMAC,
    S_SIV,
    S_KW,
    S_XAES,
    S_CCM_SEAL,
    S_CCM_OPEN,
    S_CCM_INC,
    S_OCB_KEY,
    S_OCB_SEAL,
    S_OCB_OPEN,
    S_OCB_INC,
    S_XTS_KEY,
    S_XTS,
    S_AEGIS,
    S_AEGIS_INC,
    S_GCM_KEY,
    S_GCM_SEAL,
    S_GCM_OPEN,
    S_GCM_INC,
    S_GMAC,
    S_SIV_KEY,
    S_SIV_SEAL,
    S_SIV_OPEN,
    NSECT
};

/* The GCM sections: counted per pair (AES x GHASH engine). */
#define FIRST_GCM S_GCM_KEY

static const char *const section_name[NSECT] = {
    "key setup (128/192/256, enc/dec/both)",
    "encrypt_blocks n=1..33",
    "decrypt_blocks n=1..33",
    "ECB (none/PKCS#7/zero)",
    "CBC encrypt",
    "CBC decrypt (none/zero)",
    "ECB/CBC PKCS#7 decrypt + check",
    "CFB128",
    "CFB8",
    "CFB1",
    "OFB",
    "CTR 32-bit counter",
    "CTR 64-bit counter",
    "CTR 128-bit counter",
    "multi-buffer CBC encrypt + MAC",
    "CMAC (one-shot, verify, steps, many)",
    "AES-SIV (seal, open good and bad)",
    "KW/KWP (+inverse) wrap, unwrap good/bad",
    "XAES-256-GCM (seal, open good and bad)",
    "CCM key setup, seal (appended, detached)",
    "CCM open (good, bad tag, bad data)",
    "CCM incremental (seal, open, verify)",
    "OCB3 key setup",
    "OCB3 seal (one-shot, detached)",
    "OCB3 open (good, bad tag)",
    "OCB3 incremental (seal, open, verify)",
    "XTS key setup (32/48/64, halves compared)",
    "XTS encrypt/decrypt, tweak and sector",
    "AEGIS (6 variants; seal, open good/bad)",
    "AEGIS incremental (pieces, verify)",
    "GCM key setup (128/192/256)",
    "GCM seal (one-shot, detached)",
    "GCM open (good, bad tag, bad data)",
    "GCM incremental (seal, open, verify)",
    "GMAC (tag, verify good and bad)",
    "GCM-SIV key setup (128/192/256)",
    "GCM-SIV seal (appended, detached)",
    "GCM-SIV open (good, bad tag, bad data)",
};

static unsigned long sect_errors[NSECT];
static unsigned long mark;

static const char *engine_name = "";
static int current = -1; /* the section between begin() and end() */

static void begin(enum section s)
{
    current = (int)s;
    mark = checker_errors();
}

static void end(enum section s)
{
    sect_errors[s] += checker_errors() - mark;
    current = -1;
}

#ifdef AESIR_CT_MSAN
/* MSAN_REPORT_LIMIT reached: where the reports came from, then exit 99. */
static void msan_stop(void)
{
    printf("ct_check: %lu MemorySanitizer reports; stopping here, in "
           "%s: %s\n",
           (unsigned long)msan_reports, engine_name,
           current >= 0 ? section_name[current] : "(between sections)");
    for (int s = 0; s < NSECT; s++)
        if (sect_errors[s] != 0 || s == current)
            printf("  %-40s %8lu MemorySanitizer errors%s\n", section_name[s],
                   sect_errors[s] + (s == current ? msan_reports - mark : 0),
                   s == current ? " (so far)" : "");
    printf("  => %s: SECRET-DEPENDENT BRANCHES OR INDICES\n", engine_name);
    fflush(stdout);
    fflush(stderr);
    _exit(99);
}
#endif

/* ---------------------------------------------------------------------
 * Deterministic test data (splitmix64): the same bytes every run.
 * ------------------------------------------------------------------- */

static uint64_t rng_state = 0x6165736972637421ull;

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)splitmix64(&rng_state);
}

/* dst = a copy of src that memcheck considers secret. */
static void secret_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    memcpy(dst, src, n);
    CT_SECRET(dst, n);
}

/* ---------------------------------------------------------------------
 * Raw block functions
 * ------------------------------------------------------------------- */

static const size_t block_counts[] = {1, 2, 3, 4, 7, 8, 9, 16, 17, 33};

static void check_blocks(const aesir_aes *enc, const aesir_aes *dec,
                         const aesir_aes *both, const aesir_aes *ref)
{
    static uint8_t pub[16 * 33], want[16 * 33], sec[16 * 33], out[16 * 33];

    for (size_t k = 0; k < sizeof(block_counts) / sizeof(block_counts[0]);
         k++) {
        size_t n = block_counts[k], len = 16 * n;
        fill(pub, len);
        CHECK_EQ(aesir_aes_encrypt_blocks(ref, want, pub, n), AESIR_OK);

        begin(S_ENC);
        secret_copy(sec, pub, len);
        CHECK_EQ(aesir_aes_encrypt_blocks(enc, out, sec, n), AESIR_OK);
        CT_PUBLIC(out, len);
        CHECK(memcmp(out, want, len) == 0);
        /* In place, with the key prepared for both directions. */
        secret_copy(out, pub, len);
        CHECK_EQ(aesir_aes_encrypt_blocks(both, out, out, n), AESIR_OK);
        CT_PUBLIC(out, len);
        CHECK(memcmp(out, want, len) == 0);
        end(S_ENC);

        begin(S_DEC);
        secret_copy(sec, want, len);
        CHECK_EQ(aesir_aes_decrypt_blocks(dec, out, sec, n), AESIR_OK);
        CT_PUBLIC(out, len);
        CHECK(memcmp(out, pub, len) == 0);
        secret_copy(out, want, len);
        CHECK_EQ(aesir_aes_decrypt_blocks(both, out, out, n), AESIR_OK);
        CT_PUBLIC(out, len);
        CHECK(memcmp(out, pub, len) == 0);
        end(S_DEC);
    }
}

/* ---------------------------------------------------------------------
 * Modes: each case runs one-shot and incrementally, on the engine under
 * test with secret inputs and on `ref` with public ones; rc, length and
 * output must agree.
 * ------------------------------------------------------------------- */

struct mode_case {
    enum section sect;
    aesir_mode mode;
    unsigned dir;
    unsigned option; /* padding, or CTR counter bits */
    size_t max_len;  /* 0: PKCS#7 decryption, crafted inputs */
};

static const struct mode_case cases[] = {
    {S_ECB, AESIR_MODE_ECB, AESIR_ENCRYPT, AESIR_PAD_NONE, MAXLEN},
    {S_ECB, AESIR_MODE_ECB, AESIR_ENCRYPT, AESIR_PAD_PKCS7, 531},
    {S_ECB, AESIR_MODE_ECB, AESIR_ENCRYPT, AESIR_PAD_ZERO, 531},
    {S_ECB, AESIR_MODE_ECB, AESIR_DECRYPT, AESIR_PAD_NONE, MAXLEN},
    {S_ECB, AESIR_MODE_ECB, AESIR_DECRYPT, AESIR_PAD_ZERO, 531},
    {S_PKCS7, AESIR_MODE_ECB, AESIR_DECRYPT, AESIR_PAD_PKCS7, 0},
    {S_CBC_ENC, AESIR_MODE_CBC, AESIR_ENCRYPT, AESIR_PAD_NONE, 531},
    {S_CBC_ENC, AESIR_MODE_CBC, AESIR_ENCRYPT, AESIR_PAD_PKCS7, 531},
    {S_CBC_ENC, AESIR_MODE_CBC, AESIR_ENCRYPT, AESIR_PAD_ZERO, 531},
    {S_CBC_DEC, AESIR_MODE_CBC, AESIR_DECRYPT, AESIR_PAD_NONE, MAXLEN},
    {S_CBC_DEC, AESIR_MODE_CBC, AESIR_DECRYPT, AESIR_PAD_ZERO, 531},
    {S_PKCS7, AESIR_MODE_CBC, AESIR_DECRYPT, AESIR_PAD_PKCS7, 0},
    {S_CFB128, AESIR_MODE_CFB128, AESIR_ENCRYPT, 0, 531},
    {S_CFB128, AESIR_MODE_CFB128, AESIR_DECRYPT, 0, 531},
    {S_CFB8, AESIR_MODE_CFB8, AESIR_ENCRYPT, 0, 65},
    {S_CFB8, AESIR_MODE_CFB8, AESIR_DECRYPT, 0, 65},
    {S_CFB1, AESIR_MODE_CFB1, AESIR_ENCRYPT, 0, 33},
    {S_CFB1, AESIR_MODE_CFB1, AESIR_DECRYPT, 0, 33},
    {S_OFB, AESIR_MODE_OFB, AESIR_ENCRYPT, 0, 531},
    {S_CTR32, AESIR_MODE_CTR, AESIR_ENCRYPT, 32, MAXLEN},
    {S_CTR64, AESIR_MODE_CTR, AESIR_ENCRYPT, 64, MAXLEN},
    {S_CTR128, AESIR_MODE_CTR, AESIR_ENCRYPT, 128, MAXLEN},
};

/* Message lengths: empty, partial, exact and one-over at every block
 * count that can end a batch (1, 2, 3, 4, 7, 8, 9, 16, 17, 32, 33, 64,
 * 65 blocks), capped per case. */
static const size_t lengths[] = {
    0,   1,   15,  16,  17,  31,  32,   33,   47,   48,
    63,  64,  65,  112, 127, 128, 129,  144,  255,  256,
    257, 272, 512, 527, 528, 531, 1024, 1040, 1045,
};

/* One-shot through the mode's own function. CFB1 takes a bit count: use
 * one that ends in a partial byte. */
static int oneshot(const aesir_aes *k, const struct mode_case *mc,
                   const uint8_t iv[16], uint8_t *out, size_t *out_len,
                   const uint8_t *in, size_t len)
{
    return mode_oneshot(k, mc->mode, mc->dir, mc->option, iv, out, CAP, out_len,
                        in, len, len != 0 ? 8 * len - 3 : 0);
}

/* Incremental: updates of 1, 5, 16, 27, 64, 1, 5, ... bytes, then final. */
static int incremental(const aesir_aes *k, const struct mode_case *mc,
                       const uint8_t iv[16], uint8_t *out, size_t *out_len,
                       const uint8_t *in, size_t len)
{
    static const size_t splits[] = {1, 5, 16, 27, 64};
    aesir_cipher c;
    size_t done = 0, total = 0, n;
    int err = aesir_cipher_init(
        &c, k, mc->mode, mc->dir, mc->mode == AESIR_MODE_ECB ? NULL : iv,
        mc->mode == AESIR_MODE_ECB ? 0 : 16, mc->option);

    for (unsigned i = 0; err == AESIR_OK && done < len; i++) {
        size_t step = splits[i % 5] < len - done ? splits[i % 5] : len - done;
        err = aesir_cipher_update(&c, out + total, CAP - total, &n, in + done,
                                  step);
        done += step;
        total += n;
    }
    if (err == AESIR_OK) {
        err = aesir_cipher_final(&c, out + total, CAP - total, &n);
        total += n;
    }
    aesir_cipher_clear(&c);
    *out_len = err == AESIR_OK ? total : 0;
    return err;
}

typedef int (*path_fn)(const aesir_aes *, const struct mode_case *,
                       const uint8_t[16], uint8_t *, size_t *, const uint8_t *,
                       size_t);

/* Runs one input through one path on both keys and compares. */
static void run(const aesir_aes *key, const aesir_aes *ref,
                const struct mode_case *mc, path_fn path, const uint8_t iv[16],
                const uint8_t *in, size_t len)
{
    static uint8_t sec[CAP], out[CAP], want[CAP];
    size_t out_len = 0, want_len = 0;
    int rc, want_rc;

    memset(want, 0, CAP);
    want_rc = path(ref, mc, iv, want, &want_len, in, len);

    begin(mc->sect);
    memset(out, 0, CAP);
    secret_copy(sec, in, len);
    rc = path(key, mc, iv, out, &out_len, sec, len);
    CT_PUBLIC(out, CAP);
    /* rc and out_len are not declassified: if either depended on a
     * secret, comparing them here would be reported. */
    CHECK_EQ(rc, want_rc);
    CHECK_EQ(out_len, want_len);
    CHECK(memcmp(out, want, out_len) == 0);
    end(mc->sect);
}

/* CTR counter blocks: a random nonce part, and low counter bits placed
 * to cross byte, 32- and 64-bit carries, or to run out (the overflow
 * check, on public values). */
static void ctr_ivs(unsigned bits, uint8_t iv[2][16])
{
    fill(iv[0], 16);
    memcpy(iv[1], iv[0], 16);
    if (bits == 32) {
        memcpy(iv[0] + 12, "\x00\xff\xff\xf0", 4);
        memcpy(iv[1] + 12, "\xff\xff\xff\xe0", 4); /* 32 values left */
    } else if (bits == 64) {
        memcpy(iv[0] + 8, "\x00\x00\x00\x00\xff\xff\xff\xf0", 8);
        memcpy(iv[1] + 8, "\xff\xff\xff\xff\xff\xff\xff\xe0", 8);
    } else {
        memcpy(iv[0] + 8, "\xff\xff\xff\xff\xff\xff\xff\xf0", 8);
        memset(iv[1], 0xff, 15);
        iv[1][15] = 0xe0;
    }
}

/* PKCS#7 decryption inputs: plaintexts of k blocks whose last block ends
 * in each kind of valid and invalid padding, encrypted without padding by
 * `ref`, so the check of every case runs on the engine under test. */
static void check_pkcs7(const aesir_aes *key, const aesir_aes *ref,
                        const struct mode_case *mc, const uint8_t iv[16])
{
    static const size_t nblocks[] = {1, 2, 3, 17, 33};
    static uint8_t pt[16 * 33], ct[16 * 33 + 16];
    size_t n;

    for (size_t b = 0; b < sizeof(nblocks) / sizeof(nblocks[0]); b++) {
        size_t len = 16 * nblocks[b];
        uint8_t *last = pt + len - 16;
        for (unsigned v = 0; v < 7; v++) {
            fill(pt, len);
            switch (v) {
            case 0: /* valid, pad 1 */
                last[15] = 1;
                break;
            case 1: /* valid, a whole block of padding */
                memset(last, 16, 16);
                break;
            case 2: /* valid, pad 5 */
                memset(last + 11, 5, 5);
                break;
            case 3: /* invalid: pad byte 0 */
                last[15] = 0;
                break;
            case 4: /* invalid: pad byte 17 */
                last[15] = 17;
                break;
            case 5: /* invalid: pad 5 with its first byte wrong */
                memset(last + 11, 5, 5);
                last[11] = 4;
                break;
            default: /* random: almost surely invalid */
                break;
            }
            CHECK_EQ(mc->mode == AESIR_MODE_ECB
                         ? aesir_ecb_encrypt(ref, AESIR_PAD_NONE, ct,
                                             sizeof(ct), &n, pt, len)
                         : aesir_cbc_encrypt(ref, iv, AESIR_PAD_NONE, ct,
                                             sizeof(ct), &n, pt, len),
                     AESIR_OK);
            run(key, ref, mc, oneshot, iv, ct, len);
            run(key, ref, mc, incremental, iv, ct, len);
        }
    }
}

static void check_modes(const aesir_aes *both, const aesir_aes *enc,
                        const aesir_aes *ref)
{
    static uint8_t in[MAXLEN];
    uint8_t iv[2][16];

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const struct mode_case *mc = &cases[c];
        /* ECB and CBC use the two-direction key; the modes that only
         * encrypt use a key prepared for encryption only. */
        const aesir_aes *key =
            mc->mode == AESIR_MODE_ECB || mc->mode == AESIR_MODE_CBC ? both
                                                                     : enc;
        unsigned niv = 1;

        if (mc->mode == AESIR_MODE_CTR) {
            ctr_ivs(mc->option, iv);
            niv = 2;
        } else {
            fill(iv[0], 16);
        }
        if (mc->max_len == 0) {
            check_pkcs7(key, ref, mc, iv[0]);
            continue;
        }
        for (unsigned v = 0; v < niv; v++)
            for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {
                if (lengths[l] > mc->max_len)
                    continue;
                fill(in, lengths[l]);
                run(key, ref, mc, oneshot, iv[v], in, lengths[l]);
                run(key, ref, mc, incremental, iv[v], in, lengths[l]);
            }
    }
}

/* ---------------------------------------------------------------------
 * Multi-buffer CBC encryption and CBC-MAC: n jobs, each with its own
 * secret key (on the engine under test), IV and plaintext, of lengths
 * 0..19 blocks, against the ref engine one message at a time.
 * ------------------------------------------------------------------- */

#define MANY_JOBS 9
#define MANY_BLOCKS 20

static void check_many(const char *name, size_t kl)
{
    static const size_t counts[] = {1, 2, 3, 8, MANY_JOBS};
    static aesir_aes keys[MANY_JOBS], ref;
    static uint8_t pub[MANY_JOBS][16 * MANY_BLOCKS],
        sec[MANY_JOBS][16 * MANY_BLOCKS], out[MANY_JOBS][16 * MANY_BLOCKS],
        want[MANY_JOBS][16 * MANY_BLOCKS];
    uint8_t iv[MANY_JOBS][16], want_iv[MANY_JOBS][16], key[32];
    aesir_cbc_job jobs[MANY_JOBS];
    size_t done;

    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t n = counts[c];
        for (size_t j = 0; j < n; j++) {
            size_t len = 16 * ((7 * j + c) % MANY_BLOCKS);
            fill(key, kl);
            fill(iv[j], 16);
            fill(pub[j], len);
            CHECK_EQ(aesir_aes_init_ex(&ref, key, kl, "ref", AESIR_ENCRYPT),
                     AESIR_OK);
            CHECK_EQ(aesir_cbc_encrypt(&ref, iv[j], AESIR_PAD_NONE, want[j],
                                       len, &done, pub[j], len),
                     AESIR_OK);
            memcpy(want_iv[j], len ? want[j] + len - 16 : iv[j], 16);
            CT_SECRET(key, kl);
            CHECK_EQ(aesir_aes_init_ex(&keys[j], key, kl, name, AESIR_ENCRYPT),
                     AESIR_OK);
            jobs[j].key = &keys[j];
            jobs[j].in = sec[j];
            jobs[j].out = out[j];
            jobs[j].len = len;
        }
        for (int mac = 0; mac <= 1; mac++) {
            begin(S_MANY);
            for (size_t j = 0; j < n; j++) {
                secret_copy(sec[j], pub[j], jobs[j].len);
                secret_copy(jobs[j].iv, iv[j], 16);
                memset(out[j], 0, sizeof(out[j]));
            }
            CHECK_EQ(mac ? aesir_cbc_mac_many(jobs, n)
                         : aesir_cbc_encrypt_many(jobs, n),
                     AESIR_OK);
            for (size_t j = 0; j < n; j++) {
                CT_PUBLIC(out[j], sizeof(out[j]));
                CT_PUBLIC(jobs[j].iv, 16);
                CHECK(memcmp(jobs[j].iv, want_iv[j], 16) == 0);
                CHECK(mac || memcmp(out[j], want[j], jobs[j].len) == 0);
                CHECK_EQ(jobs[j].status, AESIR_OK);
            }
            end(S_MANY);
        }
    }
    for (size_t j = 0; j < MANY_JOBS; j++)
        aesir_aes_clear(&keys[j]);
    aesir_aes_clear(&ref);
}

/* ---------------------------------------------------------------------
 * CMAC, AES-SIV, KW/KWP and XAES-256-GCM (src/aead/cmac.c, siv.c, kw.c,
 * xaes.c): the key (AES, SIV and XAES keys) and the data secret, every
 * call against the ref engine on public copies. What the modes make
 * public on purpose: the verdicts, SIV's V (the first 16 bytes of its
 * output), KWP's length once its check passes.
 * ------------------------------------------------------------------- */

#define MAC_MAX 100
static const size_t mac_lengths[] = {0, 1, 15, 16, 17, 33, 64, 100};

static void check_mac_modes(const char *name, size_t kl)
{
    static uint8_t pub[MAC_MAX + 16], sec[MAC_MAX + 32], out[MAC_MAX + 32],
        want[MAC_MAX + 32];
    static aesir_cmac_key ck, cr;
    static aesir_siv_key sk, sr;
    static aesir_aes kk, kr;
    static aesir_xaes_key xk, xr;
    uint8_t key[64], ks[64], t[16], w[16], ad[20], ads[20], nonce[24];
    size_t got = 0, wl = 0;

    fill(key, 2 * kl);
    fill(ad, sizeof(ad));
    fill(nonce, sizeof(nonce));
    CHECK_EQ(aesir_cmac_init_ex(&cr, key, kl, "ref"), AESIR_OK);
    CHECK_EQ(aesir_siv_init_ex(&sr, key, 2 * kl, "ref"), AESIR_OK);
    CHECK_EQ(
        aesir_aes_init_ex(&kr, key, kl, "ref", AESIR_ENCRYPT | AESIR_DECRYPT),
        AESIR_OK);
    for (size_t i = 0; i < sizeof(mac_lengths) / sizeof(mac_lengths[0]); i++) {
        size_t len = mac_lengths[i];
        aesir_siv_ad a = {ads, sizeof(ads)};
        aesir_cmac c;
        aesir_cmac_job job;
        int rc;

        fill(pub, len);
        /* CMAC */
        CHECK_EQ(aesir_cmac_tag(&cr, pub, len, w, 16), AESIR_OK);
        begin(S_CMAC);
        secret_copy(ks, key, kl);
        CHECK_EQ(aesir_cmac_init_ex(&ck, ks, kl, name), AESIR_OK);
        secret_copy(sec, pub, len);
        rc = aesir_cmac_tag(&ck, sec, len, t, 16);
        CT_PUBLIC(t, 16);
        CHECK(rc == AESIR_OK && memcmp(t, w, 16) == 0);
        CHECK_EQ(aesir_cmac_tag_verify(&ck, sec, len, w, 16), AESIR_OK);
        w[len % 16] ^= 1;
        CHECK_EQ(aesir_cmac_tag_verify(&ck, sec, len, w, 16), AESIR_E_AUTH);
        w[len % 16] ^= 1;
        CHECK_EQ(aesir_cmac_start(&c, &ck), AESIR_OK);
        CHECK_EQ(aesir_cmac_update(&c, sec, len / 3), AESIR_OK);
        CHECK_EQ(aesir_cmac_update(&c, sec + len / 3, len - len / 3), AESIR_OK);
        CHECK_EQ(aesir_cmac_verify(&c, w, 16), AESIR_OK);
        job.key = &ck;
        job.in = sec;
        job.len = len;
        CHECK_EQ(aesir_cmac_many(&job, 1), AESIR_OK);
        CT_PUBLIC(job.tag, 16);
        CHECK(memcmp(job.tag, w, 16) == 0);
        aesir_cmac_clear(&ck);
        end(S_CMAC);

        /* AES-SIV: seal, open good, open with a flipped byte */
        CHECK_EQ(aesir_siv_seal(&sr, &(aesir_siv_ad){ad, sizeof(ad)}, 1, nonce,
                                16, want, sizeof(want), &got, pub, len),
                 AESIR_OK);
        begin(S_SIV);
        secret_copy(ks, key, 2 * kl);
        CHECK_EQ(aesir_siv_init_ex(&sk, ks, 2 * kl, name), AESIR_OK);
        secret_copy(ads, ad, sizeof(ad));
        secret_copy(sec, pub, len);
        rc = aesir_siv_seal(&sk, &a, 1, nonce, 16, out, sizeof(out), &got, sec,
                            len);
        CT_PUBLIC(out, sizeof(out));
        CHECK(rc == AESIR_OK && memcmp(out, want, len + 16) == 0);
        for (int bad = 0; bad < 2; bad++) {
            secret_copy(sec, want, len + 16);
            sec[bad ? len + 15 : 3] ^= (uint8_t)bad;
            rc = aesir_siv_open(&sk, &a, 1, nonce, 16, out, sizeof(out), &got,
                                sec, len + 16);
            CT_PUBLIC(out, sizeof(out));
            CHECK_EQ(rc, bad ? AESIR_E_AUTH : AESIR_OK);
            CHECK(bad ? all_zero(out, len) : memcmp(out, pub, len) == 0);
        }
        aesir_siv_clear(&sk);
        end(S_SIV);

        /* KW and KWP, both forward functions: wrap, unwrap good, bad */
        for (int kwp = 0; kwp < 2; kwp++)
            for (unsigned opt = 0; opt <= AESIR_KW_INVERSE; opt++) {
                size_t plen = kwp ? (len == 0 ? 1 : len) : (len + 16) / 8 * 8;
                int (*wrap)(const aesir_aes *, unsigned, uint8_t *, size_t,
                            size_t *, const uint8_t *, size_t) =
                    kwp ? aesir_kwp_wrap : aesir_kw_wrap;
                int (*unwrap)(const aesir_aes *, unsigned, uint8_t *, size_t,
                              size_t *, const uint8_t *, size_t) =
                    kwp ? aesir_kwp_unwrap : aesir_kw_unwrap;
                fill(pub, plen);
                CHECK_EQ(wrap(&kr, opt, want, sizeof(want), &wl, pub, plen),
                         AESIR_OK);
                begin(S_KW);
                secret_copy(ks, key, kl);
                CHECK_EQ(aesir_aes_init_ex(&kk, ks, kl, name,
                                           AESIR_ENCRYPT | AESIR_DECRYPT),
                         AESIR_OK);
                secret_copy(sec, pub, plen);
                rc = wrap(&kk, opt, out, sizeof(out), &got, sec, plen);
                CT_PUBLIC(out, sizeof(out));
                CHECK(rc == AESIR_OK && got == wl &&
                      memcmp(out, want, wl) == 0);
                for (int bad = 0; bad < 2; bad++) {
                    secret_copy(sec, want, wl);
                    sec[bad ? wl - 1 : 0] ^= (uint8_t)bad;
                    rc = unwrap(&kk, opt, out, sizeof(out), &got, sec, wl);
                    CT_PUBLIC(out, sizeof(out));
                    CHECK_EQ(rc, bad ? AESIR_E_AUTH : AESIR_OK);
                    CHECK(bad ? got == 0 && all_zero(out, wl - 8)
                              : got == plen && memcmp(out, pub, plen) == 0);
                }
                aesir_aes_clear(&kk);
                end(S_KW);
            }

        /* XAES-256-GCM: 32-byte keys only */
        if (kl != 32)
            continue;
        fill(pub, len);
        CHECK_EQ(aesir_xaes_init_ex(&xr, key, "ref", "ghash-ref"), AESIR_OK);
        CHECK_EQ(aesir_xaes_seal(&xr, nonce, ad, sizeof(ad), want, sizeof(want),
                                 &got, pub, len),
                 AESIR_OK);
        begin(S_XAES);
        secret_copy(ks, key, 32);
        CHECK_EQ(aesir_xaes_init_ex(&xk, ks, name, NULL), AESIR_OK);
        secret_copy(ads, ad, sizeof(ad));
        secret_copy(sec, pub, len);
        rc = aesir_xaes_seal(&xk, nonce, ads, sizeof(ads), out, sizeof(out),
                             &got, sec, len);
        CT_PUBLIC(out, sizeof(out));
        CHECK(rc == AESIR_OK && memcmp(out, want, len + 16) == 0);
        for (int bad = 0; bad < 2; bad++) {
            secret_copy(sec, want, len + 16);
            sec[len] ^= (uint8_t)bad;
            rc = aesir_xaes_open(&xk, nonce, ads, sizeof(ads), out, sizeof(out),
                                 &got, sec, len + 16);
            CT_PUBLIC(out, sizeof(out));
            CHECK_EQ(rc, bad ? AESIR_E_AUTH : AESIR_OK);
            CHECK(bad ? all_zero(out, len) : memcmp(out, pub, len) == 0);
        }
        aesir_xaes_clear(&xk);
        aesir_xaes_clear(&xr);
        end(S_XAES);
    }
    aesir_cmac_clear(&cr);
    aesir_siv_clear(&sr);
    aesir_aes_clear(&kr);
}

/* ---------------------------------------------------------------------
 * CCM on one engine and key size: key set-up from a secret key, seal
 * and open one-shot (appended and detached tags of 4..16 bytes, nonces
 * of 7..13), incremental with odd splits, good and bad tags; secret
 * plaintext, ciphertext, tag and additional data; outputs compared with
 * a ref-engine key on public copies. The verdict of the tag check is
 * declassified by ccm.c (it is the return code).
 * ------------------------------------------------------------------- */

#define CCM_MAX 531
#define CCM_AAD_MAX 40

/* Incremental seal (enc) or open in pieces of 1, 5, 16, 27, 64 bytes
 * from split index s0; the rc of the last call. */
static int ccm_incremental(const aesir_ccm_key *key, int enc,
                           const uint8_t *nonce, size_t nl, const uint8_t *aad,
                           size_t al, uint8_t *out, const uint8_t *in,
                           size_t len, uint8_t *tag, size_t tl, unsigned s0)
{
    static const size_t splits[] = {1, 5, 16, 27, 64};
    aesir_ccm ctx;
    size_t done = 0;
    unsigned i = s0;
    int err = aesir_ccm_start(&ctx, key, nonce, nl, al, len, tl);

    while (err == AESIR_OK && done < al) {
        size_t step = splits[i++ % 5];
        step = step < al - done ? step : al - done;
        err = aesir_ccm_aad(&ctx, aad + done, step);
        done += step;
    }
    done = 0;
    while (err == AESIR_OK && done < len) {
        size_t step = splits[i++ % 5];
        step = step < len - done ? step : len - done;
        err = enc ? aesir_ccm_encrypt_update(&ctx, out + done, in + done, step)
                  : aesir_ccm_decrypt_update_unverified(&ctx, out + done,
                                                        in + done, step);
        done += step;
    }
    if (err == AESIR_OK)
        err = enc ? aesir_ccm_finish(&ctx, tag, tl)
                  : aesir_ccm_verify(&ctx, tag, tl);
    aesir_ccm_abort(&ctx);
    return err;
}

static void check_ccm(const char *name, size_t kl)
{
    static const size_t lens[] = {0, 1, 15, 16, 17, 33, 64, 100, 255, 531};
    static const size_t nonce_lens[] = {7, 13, 12, 8, 11};
    static const size_t tag_lens[] = {16, 4, 8, 10, 14};
    static aesir_ccm_key key, ref;
    static uint8_t pt[CCM_MAX], aad[CCM_AAD_MAX], want[CCM_MAX + 16];
    static uint8_t sec_in[CCM_MAX + 16], sec_aad[CCM_AAD_MAX];
    static uint8_t out[CCM_MAX + 16], bad[CCM_MAX + 16];
    uint8_t key_pub[32], key_sec[32], nonce[13], tag[16];
    size_t want_len, out_len;
    int rc;

    fill(key_pub, kl);
    CHECK_EQ(aesir_ccm_init_ex(&ref, key_pub, kl, "ref"), AESIR_OK);
    begin(S_CCM_SEAL);
    secret_copy(key_sec, key_pub, kl);
    CHECK_EQ(aesir_ccm_init_ex(&key, key_sec, kl, name), AESIR_OK);
    end(S_CCM_SEAL);
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        size_t len = lens[i], nl = nonce_lens[i % 5], tl = tag_lens[i % 5];
        size_t al = (7 * i) % (CCM_AAD_MAX + 1);

        fill(nonce, nl);
        fill(pt, len);
        fill(aad, al);
        CHECK_EQ(aesir_ccm_seal(&ref, nonce, nl, aad, al, want, sizeof(want),
                                &want_len, pt, len, tl),
                 AESIR_OK);

        begin(S_CCM_SEAL);
        secret_copy(sec_in, pt, len);
        secret_copy(sec_aad, aad, al);
        memset(out, 0, sizeof(out));
        rc = aesir_ccm_seal(&key, nonce, nl, sec_aad, al, out, sizeof(out),
                            &out_len, sec_in, len, tl);
        CT_PUBLIC(out, sizeof(out));
        CHECK(rc == AESIR_OK && out_len == len + tl &&
              memcmp(out, want, len + tl) == 0);
        rc = aesir_ccm_seal_detached(&key, nonce, nl, sec_aad, al, out, tag, tl,
                                     sec_in, len);
        CT_PUBLIC(out, sizeof(out));
        CT_PUBLIC(tag, sizeof(tag));
        CHECK(rc == AESIR_OK && memcmp(out, want, len) == 0 &&
              memcmp(tag, want + len, tl) == 0);
        end(S_CCM_SEAL);

        /* open: good in place, then a bad tag and (with data) a bad
         * ciphertext byte */
        begin(S_CCM_OPEN);
        secret_copy(sec_in, want, len + tl);
        rc = aesir_ccm_open(&key, nonce, nl, sec_aad, al, sec_in,
                            sizeof(sec_in), &out_len, sec_in, len + tl, tl);
        CT_PUBLIC(sec_in, sizeof(sec_in));
        CHECK(rc == AESIR_OK && out_len == len && memcmp(sec_in, pt, len) == 0);
        for (unsigned v = 0; v < (len != 0 ? 2u : 1u); v++) {
            memcpy(bad, want, len + tl);
            bad[v == 0 ? len + tl - 1 : len / 2] ^= 0x10;
            secret_copy(sec_in, bad, len + tl);
            memset(out, 0x5a, sizeof(out));
            rc = aesir_ccm_open_detached(&key, nonce, nl, sec_aad, al, out,
                                         sec_in + len, tl, sec_in, len);
            CT_PUBLIC(out, sizeof(out));
            CHECK(rc == AESIR_E_AUTH && all_zero(out, len));
        }
        end(S_CCM_OPEN);

        begin(S_CCM_INC);
        secret_copy(sec_in, pt, len);
        memset(out, 0, sizeof(out));
        rc = ccm_incremental(&key, 1, nonce, nl, sec_aad, al, out, sec_in, len,
                             tag, tl, i);
        CT_PUBLIC(out, sizeof(out));
        CT_PUBLIC(tag, sizeof(tag));
        CHECK(rc == AESIR_OK && memcmp(out, want, len) == 0 &&
              memcmp(tag, want + len, tl) == 0);
        for (unsigned v = 0; v < 2; v++) {
            secret_copy(sec_in, want, len + tl);
            if (v == 1)
                sec_in[len] ^= 0x80;
            rc = ccm_incremental(&key, 0, nonce, nl, sec_aad, al, out, sec_in,
                                 len, sec_in + len, tl, i + 2);
            /* decrypt_update_unverified releases the plaintext either way */
            CT_PUBLIC(out, sizeof(out));
            CHECK(rc == (v == 0 ? AESIR_OK : AESIR_E_AUTH) &&
                  memcmp(out, pt, len) == 0);
        }
        end(S_CCM_INC);
    }
    aesir_ccm_clear(&key);
    aesir_ccm_clear(&ref);
}

/* ---------------------------------------------------------------------
 * OCB3 (RFC 7253) on one engine: key setup from a secret key (L_*, L_$,
 * the L table: secret), seal and open with secret data, AAD and tags,
 * one-shot and incremental at odd splits, lengths past every kernel's
 * batch (8, 16, 32 blocks) with heads and tails; the nonce is public.
 * Outputs are compared with ref's on public copies.
 * ------------------------------------------------------------------- */

#define OCB_MAX 531
static const size_t ocb_lengths[] = {0,   1,   15,  16,  17,  100,
                                     128, 255, 256, 512, 513, 531};

static int ocb_incremental(const aesir_ocb_key *key, int enc, const uint8_t *n,
                           const uint8_t *aad, size_t aad_len, uint8_t *out,
                           const uint8_t *in, size_t len, uint8_t *tag)
{
    aesir_ocb ctx;
    size_t done = 0, o = 0, got = 0, step = 7;
    int err = aesir_ocb_start(&ctx, key, n, 12, 16);

    if (err == AESIR_OK && aad_len != 0)
        err = aesir_ocb_aad(&ctx, aad, aad_len);
    while (err == AESIR_OK && done < len) {
        size_t m = len - done < step ? len - done : step;
        err = enc ? aesir_ocb_encrypt_update(&ctx, out + o, OCB_MAX + 16 - o,
                                             &got, in + done, m)
                  : aesir_ocb_decrypt_update_unverified(
                        &ctx, out + o, OCB_MAX + 16 - o, &got, in + done, m);
        done += m, o += got;
        step = step * 3 + 5;
    }
    if (err == AESIR_OK)
        err = enc ? aesir_ocb_finish(&ctx, out + o, OCB_MAX + 16 - o, &got, tag,
                                     16)
                  : aesir_ocb_verify(&ctx, out + o, OCB_MAX + 16 - o, &got, tag,
                                     16);
    aesir_ocb_abort(&ctx);
    return err;
}

static void check_ocb(const char *name, size_t kl)
{
    static uint8_t pt[OCB_MAX], want[OCB_MAX + 16], sec_in[OCB_MAX + 16],
        out[OCB_MAX + 16], aad[40], sec_aad[40];
    static aesir_ocb_key key, ref;
    uint8_t key_pub[32], key_sec[32], n[12], tag[16];
    size_t out_len;
    int rc;

    fill(key_pub, kl);
    CHECK_EQ(aesir_ocb_init_ex(&ref, key_pub, kl, "ref"), AESIR_OK);
    begin(S_OCB_KEY);
    secret_copy(key_sec, key_pub, kl);
    CHECK_EQ(aesir_ocb_init_ex(&key, key_sec, kl, name), AESIR_OK);
    end(S_OCB_KEY);
    for (size_t i = 0; i < sizeof(ocb_lengths) / sizeof(ocb_lengths[0]); i++) {
        size_t len = ocb_lengths[i], aad_len = (i * 7) % 40;
        fill(pt, len);
        fill(aad, aad_len);
        fill(n, sizeof(n));
        CHECK_EQ(aesir_ocb_seal(&ref, n, 12, aad, aad_len, want, sizeof(want),
                                &out_len, pt, len),
                 AESIR_OK);

        begin(S_OCB_SEAL);
        secret_copy(sec_in, pt, len);
        secret_copy(sec_aad, aad, aad_len);
        rc = aesir_ocb_seal(&key, n, 12, sec_aad, aad_len, out, sizeof(out),
                            &out_len, sec_in, len);
        CT_PUBLIC(out, sizeof(out));
        CHECK(rc == AESIR_OK && out_len == len + 16);
        CHECK(memcmp(out, want, len + 16) == 0);
        rc = aesir_ocb_seal_detached(&key, n, 12, sec_aad, aad_len, out, tag,
                                     16, sec_in, len);
        CT_PUBLIC(out, sizeof(out));
        CT_PUBLIC(tag, sizeof(tag));
        CHECK(rc == AESIR_OK && memcmp(out, want, len) == 0 &&
              memcmp(tag, want + len, 16) == 0);
        end(S_OCB_SEAL);

        begin(S_OCB_OPEN);
        for (unsigned v = 0; v < 2; v++) {
            secret_copy(sec_in, want, len + 16);
            sec_in[len + 3] ^= (uint8_t)v; /* a bad tag the second time */
            rc = aesir_ocb_open(&key, n, 12, sec_aad, aad_len, out, sizeof(out),
                                &out_len, sec_in, len + 16);
            CT_PUBLIC(out, sizeof(out));
            CHECK_EQ(rc, v == 0 ? AESIR_OK : AESIR_E_AUTH);
            CHECK(v == 0 ? memcmp(out, pt, len) == 0 : 1);
        }
        end(S_OCB_OPEN);

        begin(S_OCB_INC);
        secret_copy(sec_in, pt, len);
        rc = ocb_incremental(&key, 1, n, sec_aad, aad_len, out, sec_in, len,
                             tag);
        CT_PUBLIC(out, sizeof(out));
        CT_PUBLIC(tag, sizeof(tag));
        CHECK(rc == AESIR_OK && memcmp(out, want, len) == 0 &&
              memcmp(tag, want + len, 16) == 0);
        for (unsigned v = 0; v < 2; v++) {
            secret_copy(sec_in, want, len + 16);
            sec_in[len] ^= (uint8_t)v;
            rc = ocb_incremental(&key, 0, n, sec_aad, aad_len, out, sec_in, len,
                                 sec_in + len);
            CT_PUBLIC(out, sizeof(out));
            CHECK_EQ(rc, v == 0 ? AESIR_OK : AESIR_E_AUTH);
            CHECK(memcmp(out, pt, len / 16 * 16) == 0);
        }
        end(S_OCB_INC);
    }
    aesir_ocb_clear(&key);
    aesir_ocb_clear(&ref);
}

/* ---------------------------------------------------------------------
 * XTS: key setup (the halves compared: the verdict is declassified by
 * xts.c), encryption and decryption with a secret tweak value and by
 * sector number, lengths with and without stealing and past every
 * batch, in place; against the ref engine on public copies.
 * ------------------------------------------------------------------- */

#define XTS_MAX 531

static void check_xts(const char *name, size_t kl)
{
    static const size_t lens[] = {16,  17,  31,  32,  33,
                                  100, 128, 271, 512, XTS_MAX};
    static aesir_xts_key key, ref;
    static uint8_t pub[XTS_MAX], sec[XTS_MAX], want[XTS_MAX];
    uint8_t k_pub[64], k_sec[64], tw_pub[16], tw_sec[16];

    fill(k_pub, 2 * kl);
    CHECK_EQ(aesir_xts_init_ex(&ref, k_pub, 2 * kl, "ref"), AESIR_OK);
    begin(S_XTS_KEY);
    secret_copy(k_sec, k_pub, 2 * kl);
    CHECK_EQ(aesir_xts_init_ex(&key, k_sec, 2 * kl, name), AESIR_OK);
    end(S_XTS_KEY);
    for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
        size_t len = lens[l];
        uint64_t sector = splitmix64(&rng_state);
        fill(pub, len);
        fill(tw_pub, 16);
        for (int dec = 0; dec <= 1; dec++) {
            begin(S_XTS);
            CHECK_EQ(dec ? aesir_xts_decrypt(&ref, tw_pub, want, pub, len)
                         : aesir_xts_encrypt(&ref, tw_pub, want, pub, len),
                     AESIR_OK);
            secret_copy(sec, pub, len);
            secret_copy(tw_sec, tw_pub, 16);
            CHECK_EQ(dec ? aesir_xts_decrypt(&key, tw_sec, sec, sec, len)
                         : aesir_xts_encrypt(&key, tw_sec, sec, sec, len),
                     AESIR_OK);
            CT_PUBLIC(sec, len);
            CHECK(memcmp(sec, want, len) == 0);
            CHECK_EQ(
                dec ? aesir_xts_decrypt_sector(&ref, sector, want, pub, len)
                    : aesir_xts_encrypt_sector(&ref, sector, want, pub, len),
                AESIR_OK);
            secret_copy(sec, pub, len);
            CHECK_EQ(
                dec ? aesir_xts_decrypt_sector(&key, sector, sec, sec, len)
                    : aesir_xts_encrypt_sector(&key, sector, sec, sec, len),
                AESIR_OK);
            CT_PUBLIC(sec, len);
            CHECK(memcmp(sec, want, len) == 0);
            end(S_XTS);
        }
    }
    aesir_xts_clear(&key);
    aesir_xts_clear(&ref);
}

/* ---------------------------------------------------------------------
 * GCM and GMAC on one pair (AES engine x GHASH engine): every call on
 * the pair's key (set up from a secret key) with secret data, and on the
 * ref x ghash-ref pair with public copies; rc, lengths, outputs agree.
 * ------------------------------------------------------------------- */

#define GCM_MAX 531 /* 33 blocks and 3 bytes */
#define GCM_AAD_MAX 77
#define GCM_IV_MAX 60

/* Data lengths: empty, partial, exact and one-over blocks, and past
 * the 8-, 16- and 32-block batches of the GHASH engines. */
static const size_t gcm_lengths[] = {0,  1,   15,  16,  17,  33,  64,
                                     65, 100, 128, 255, 256, 257, 531};
static const size_t gcm_aad_lens[] = {0, 1, 16, 20, 77};
/* 96-bit IVs (the counter is public) and others (J0 = GHASH of the IV:
 * the counter is secret). */
static const size_t gcm_iv_lens[] = {12, 60, 12, 1, 16};

static unsigned long gcm_errors[NSECT];

static void gcm_begin(enum section s)
{
    current = (int)s;
    mark = checker_errors();
}

static void gcm_end(enum section s)
{
    gcm_errors[s] += checker_errors() - mark;
    current = -1;
}

/* Incremental seal (enc) or open: AAD and data in pieces of 1, 5, 16,
 * 27, 64, ... bytes (starting at split index s0), then finish or verify;
 * returns the rc of the last call. */
static int gcm_incremental(const aesir_gcm_key *key, int enc, const uint8_t *iv,
                           size_t iv_len, const uint8_t *aad, size_t aad_len,
                           uint8_t *out, const uint8_t *in, size_t len,
                           uint8_t *tag, unsigned s0)
{
    static const size_t splits[] = {1, 5, 16, 27, 64};
    aesir_gcm ctx;
    size_t done = 0;
    unsigned i = s0;
    int err = aesir_gcm_start(&ctx, key, iv, iv_len);

    while (err == AESIR_OK && done < aad_len) {
        size_t step = splits[i++ % 5];
        step = step < aad_len - done ? step : aad_len - done;
        err = aesir_gcm_aad(&ctx, aad + done, step);
        done += step;
    }
    done = 0;
    while (err == AESIR_OK && done < len) {
        size_t step = splits[i++ % 5];
        step = step < len - done ? step : len - done;
        err = enc ? aesir_gcm_encrypt_update(&ctx, out + done, in + done, step)
                  : aesir_gcm_decrypt_update_unverified(&ctx, out + done,
                                                        in + done, step);
        done += step;
    }
    if (err == AESIR_OK)
        err = enc ? aesir_gcm_finish(&ctx, tag, 16)
                  : aesir_gcm_verify(&ctx, tag, 16);
    aesir_gcm_abort(&ctx);
    return err;
}

/* One message: len bytes of data, aad_len of AAD, an IV of iv_len. */
static void gcm_case(const aesir_gcm_key *key, const aesir_gcm_key *ref,
                     size_t len, size_t aad_len, size_t iv_len, unsigned s0)
{
    static uint8_t pt[GCM_MAX], aad[GCM_AAD_MAX], want[GCM_MAX + 16];
    static uint8_t sec_in[GCM_MAX + 16], sec_aad[GCM_AAD_MAX];
    static uint8_t out[GCM_MAX + 16], bad[GCM_MAX + 16];
    uint8_t iv[GCM_IV_MAX], tag[16], want_tag[16];
    size_t want_len = 0, out_len = 0;
    int rc;

    fill(iv, iv_len);
    fill(pt, len);
    fill(aad, aad_len);
    CHECK_EQ(aesir_gcm_seal(ref, iv, iv_len, aad, aad_len, want, sizeof(want),
                            &want_len, pt, len),
             AESIR_OK);
    CHECK_EQ(want_len, len + 16);

    /* seal, appended and detached (a 12-byte tag) */
    gcm_begin(S_GCM_SEAL);
    secret_copy(sec_in, pt, len);
    secret_copy(sec_aad, aad, aad_len);
    memset(out, 0, sizeof(out));
    rc = aesir_gcm_seal(key, iv, iv_len, sec_aad, aad_len, out, sizeof(out),
                        &out_len, sec_in, len);
    CT_PUBLIC(out, sizeof(out));
    CHECK_EQ(rc, AESIR_OK);
    CHECK_EQ(out_len, len + 16);
    CHECK(memcmp(out, want, len + 16) == 0);
    memset(out, 0, sizeof(out));
    rc = aesir_gcm_seal_detached(key, iv, iv_len, sec_aad, aad_len, out, tag,
                                 12, sec_in, len);
    CT_PUBLIC(out, sizeof(out));
    CT_PUBLIC(tag, sizeof(tag));
    CHECK_EQ(rc, AESIR_OK);
    CHECK(memcmp(out, want, len) == 0 && memcmp(tag, want + len, 12) == 0);
    gcm_end(S_GCM_SEAL);

    /* open: good, a bad tag, and (with data) a bad ciphertext byte; in
     * place for the good one */
    gcm_begin(S_GCM_OPEN);
    secret_copy(sec_in, want, len + 16);
    secret_copy(sec_aad, aad, aad_len);
    rc = aesir_gcm_open(key, iv, iv_len, sec_aad, aad_len, sec_in,
                        sizeof(sec_in), &out_len, sec_in, len + 16);
    CT_PUBLIC(sec_in, sizeof(sec_in));
    /* rc and out_len are not declassified here: gcm.c declassifies the
     * verdict, and anything else secret they depended on is reported */
    CHECK_EQ(rc, AESIR_OK);
    CHECK_EQ(out_len, len);
    CHECK(memcmp(sec_in, pt, len) == 0);
    for (unsigned v = 0; v < (len != 0 ? 2u : 1u); v++) {
        memcpy(bad, want, len + 16);
        bad[v == 0 ? len + (len % 16) : len / 2] ^= 0x20;
        secret_copy(sec_in, bad, len + 16);
        memset(out, 0x5a, sizeof(out));
        out_len = 99;
        rc = aesir_gcm_open(key, iv, iv_len, sec_aad, aad_len, out, sizeof(out),
                            &out_len, sec_in, len + 16);
        CT_PUBLIC(out, sizeof(out));
        CHECK_EQ(rc, AESIR_E_AUTH);
        CHECK_EQ(out_len, 0u);
        CHECK(all_zero(out, len));
    }
    /* detached, 16- and 13-byte tags, one good and one bad */
    secret_copy(sec_in, want, len + 16);
    memset(out, 0, sizeof(out));
    rc = aesir_gcm_open_detached(key, iv, iv_len, sec_aad, aad_len, out,
                                 sec_in + len, 16, sec_in, len);
    CT_PUBLIC(out, sizeof(out));
    CHECK_EQ(rc, AESIR_OK);
    CHECK(memcmp(out, pt, len) == 0);
    memcpy(bad, want + len, 16);
    bad[12] ^= 1;
    secret_copy(tag, bad, 16);
    rc = aesir_gcm_open_detached(key, iv, iv_len, sec_aad, aad_len, out, tag,
                                 13, sec_in, len);
    CT_PUBLIC(out, sizeof(out));
    CHECK_EQ(rc, AESIR_E_AUTH);
    CHECK(all_zero(out, len));
    gcm_end(S_GCM_OPEN);

    /* incremental: seal, then decrypt and verify with the good tag and
     * a bad one */
    gcm_begin(S_GCM_INC);
    secret_copy(sec_in, pt, len);
    secret_copy(sec_aad, aad, aad_len);
    memset(out, 0, sizeof(out));
    rc = gcm_incremental(key, 1, iv, iv_len, sec_aad, aad_len, out, sec_in, len,
                         tag, s0);
    CT_PUBLIC(out, sizeof(out));
    CT_PUBLIC(tag, sizeof(tag));
    CHECK_EQ(rc, AESIR_OK);
    CHECK(memcmp(out, want, len) == 0 && memcmp(tag, want + len, 16) == 0);
    for (unsigned v = 0; v < 2; v++) {
        secret_copy(sec_in, want, len + 16);
        if (v == 1)
            sec_in[len + 15] ^= 0x80;
        memset(out, 0, sizeof(out));
        rc = gcm_incremental(key, 0, iv, iv_len, sec_aad, aad_len, out, sec_in,
                             len, sec_in + len, s0 + 2);
        /* decrypt_update_unverified releases the plaintext either way */
        CT_PUBLIC(out, sizeof(out));
        CHECK_EQ(rc, v == 0 ? AESIR_OK : AESIR_E_AUTH);
        CHECK(memcmp(out, pt, len) == 0);
    }
    gcm_end(S_GCM_INC);

    /* GMAC over the data as additional data */
    CHECK_EQ(aesir_gmac(ref, iv, iv_len, pt, len, want_tag, 16), AESIR_OK);
    gcm_begin(S_GMAC);
    secret_copy(sec_in, pt, len);
    rc = aesir_gmac(key, iv, iv_len, sec_in, len, tag, 16);
    CT_PUBLIC(tag, sizeof(tag));
    CHECK_EQ(rc, AESIR_OK);
    CHECK(memcmp(tag, want_tag, 16) == 0);
    for (unsigned v = 0; v < 2; v++) {
        memcpy(bad, want_tag, 16);
        bad[3] ^= (uint8_t)v;
        secret_copy(tag, bad, 16);
        rc = aesir_gmac_verify(key, iv, iv_len, sec_in, len, tag, 16);
        CHECK_EQ(rc, v == 0 ? AESIR_OK : AESIR_E_AUTH);
    }
    gcm_end(S_GMAC);
}

/*
 * AES-GCM-SIV (aesir_gcm_siv_*) on the same pair: key setup from a secret
 * key (the per-nonce keys, the POLYVAL powers and the tag are then secret
 * too, and the tag is the CTR counter), seal and open (appended and
 * detached, in place) with secret data and AAD, bad tags and bad
 * ciphertext; compared with ref x ghash-ref on public copies. The verdict
 * is declassified by gcm_siv.c (the return code). Errors count in the
 * pair's sections (gcm_errors).
 */
static void check_gcm_siv_pair(const char *aes, const char *ghash)
{
    static const size_t key_lens[] = {16, 24, 32};
    static uint8_t pt[GCM_MAX], aad[GCM_AAD_MAX], want[GCM_MAX + 16];
    static uint8_t sec_in[GCM_MAX + 16], sec_aad[GCM_AAD_MAX];
    static uint8_t out[GCM_MAX + 16], bad[GCM_MAX + 16];
    static aesir_gcm_siv_key keys[3], refs[3];
    uint8_t nonce[12], tag[16];
    size_t out_len = 0, want_len = 0;
    unsigned n = 0;
    int rc;

    for (size_t k = 0; k < 3; k++) {
        uint8_t key_pub[32], key_sec[32];
        size_t kl = key_lens[k];
        fill(key_pub, kl);
        CHECK_EQ(aesir_gcm_siv_init_ex(&refs[k], key_pub, kl, "ref",
                                       "ghash-ref", AESIR_GCM_SIV_AES192),
                 AESIR_OK);
        gcm_begin(S_SIV_KEY);
        secret_copy(key_sec, key_pub, kl);
        CHECK_EQ(aesir_gcm_siv_init_ex(&keys[k], key_sec, kl, aes, ghash,
                                       AESIR_GCM_SIV_AES192),
                 AESIR_OK);
        gcm_end(S_SIV_KEY);
    }
    for (size_t l = 0; l < sizeof(gcm_lengths) / sizeof(gcm_lengths[0]);
         l++, n++) {
        const aesir_gcm_siv_key *key = &keys[n % 3], *ref = &refs[n % 3];
        size_t len = gcm_lengths[l], aad_len = gcm_aad_lens[n % 5];

        fill(nonce, 12);
        fill(pt, len);
        fill(aad, aad_len);
        CHECK_EQ(aesir_gcm_siv_seal(ref, nonce, aad, aad_len, want,
                                    sizeof(want), &want_len, pt, len),
                 AESIR_OK);
        gcm_begin(S_SIV_SEAL);
        secret_copy(sec_in, pt, len);
        secret_copy(sec_aad, aad, aad_len);
        rc = aesir_gcm_siv_seal(key, nonce, sec_aad, aad_len, sec_in,
                                sizeof(sec_in), &out_len, sec_in, len);
        CT_PUBLIC(sec_in, sizeof(sec_in));
        CHECK_EQ(rc, AESIR_OK);
        CHECK(out_len == len + 16 && memcmp(sec_in, want, len + 16) == 0);
        secret_copy(sec_in, pt, len);
        rc = aesir_gcm_siv_seal_detached(key, nonce, sec_aad, aad_len, out, tag,
                                         sec_in, len);
        CT_PUBLIC(out, sizeof(out));
        CT_PUBLIC(tag, sizeof(tag));
        CHECK_EQ(rc, AESIR_OK);
        CHECK(memcmp(out, want, len) == 0 && memcmp(tag, want + len, 16) == 0);
        gcm_end(S_SIV_SEAL);

        gcm_begin(S_SIV_OPEN);
        secret_copy(sec_in, want, len + 16);
        rc = aesir_gcm_siv_open(key, nonce, sec_aad, aad_len, sec_in,
                                sizeof(sec_in), &out_len, sec_in, len + 16);
        CT_PUBLIC(sec_in, sizeof(sec_in));
        CHECK_EQ(rc, AESIR_OK);
        CHECK(out_len == len && memcmp(sec_in, pt, len) == 0);
        for (unsigned v = 0; v < (len != 0 ? 2u : 1u); v++) {
            memcpy(bad, want, len + 16);
            bad[v == 0 ? len + (len % 16) : len / 2] ^= 0x20;
            secret_copy(sec_in, bad, len + 16);
            memset(out, 0x5a, sizeof(out));
            rc = v == 0
                     ? aesir_gcm_siv_open(key, nonce, sec_aad, aad_len, out,
                                          sizeof(out), &out_len, sec_in,
                                          len + 16)
                     : aesir_gcm_siv_open_detached(key, nonce, sec_aad, aad_len,
                                                   out, sec_in + len, sec_in,
                                                   len);
            CT_PUBLIC(out, sizeof(out));
            CHECK_EQ(rc, AESIR_E_AUTH);
            CHECK(all_zero(out, len));
        }
        secret_copy(sec_in, want, len + 16);
        rc = aesir_gcm_siv_open_detached(key, nonce, sec_aad, aad_len, out,
                                         sec_in + len, sec_in, len);
        CT_PUBLIC(out, sizeof(out));
        CHECK_EQ(rc, AESIR_OK);
        CHECK(memcmp(out, pt, len) == 0);
        gcm_end(S_SIV_OPEN);
    }
    for (size_t k = 0; k < 3; k++) {
        aesir_gcm_siv_clear(&keys[k]);
        aesir_gcm_siv_clear(&refs[k]);
    }
}

/* One pair; returns the number of checker errors seen while checking
 * it. */
static unsigned long check_pair(const char *aes, const char *ghash,
                                unsigned ghash_flags)
{
    static aesir_gcm_key keys[3], refs[3];
    static const size_t key_lens[] = {16, 24, 32};
    unsigned long total = 0;
    unsigned n = 0;

    engine_name = aes;
    printf("GCM %s x %s (GHASH engine %s):\n", aes, ghash,
           ghash_flags & AESIR_ENGINE_CONSTANT_TIME
               ? "flagged constant-time"
               : "NOT flagged constant-time");
    memset(gcm_errors, 0, sizeof(gcm_errors));
    for (size_t k = 0; k < 3; k++) {
        uint8_t key_pub[32], key_sec[32];
        size_t kl = key_lens[k];

        fill(key_pub, kl);
        CHECK_EQ(
            aesir_gcm_init_ex(&refs[k], key_pub, kl, "ref", "ghash-ref", 0),
            AESIR_OK);
        gcm_begin(S_GCM_KEY);
        secret_copy(key_sec, key_pub, kl);
        CHECK_EQ(aesir_gcm_init_ex(&keys[k], key_sec, kl, aes, ghash, 0),
                 AESIR_OK);
        gcm_end(S_GCM_KEY);
    }
    /* each length with a 96-bit IV and with another one, key sizes and
     * AAD lengths in turn */
    for (size_t l = 0; l < sizeof(gcm_lengths) / sizeof(gcm_lengths[0]); l++)
        for (unsigned v = 0; v < 2; v++, n++) {
            size_t iv_len = v == 0 ? 12 : gcm_iv_lens[1 + l % 4];
            gcm_case(&keys[n % 3], &refs[n % 3], gcm_lengths[l],
                     gcm_aad_lens[n % 5], iv_len, n);
        }
    for (size_t k = 0; k < 3; k++) {
        aesir_gcm_clear(&keys[k]);
        aesir_gcm_clear(&refs[k]);
    }
    check_gcm_siv_pair(aes, ghash);
    for (int s = FIRST_GCM; s < NSECT; s++) {
        printf("  %-40s %8lu " CHECKER " errors\n", section_name[s],
               gcm_errors[s]);
        total += gcm_errors[s];
    }
    printf("  => GCM %s x %s: %lu " CHECKER " errors: %s\n", aes, ghash, total,
           total == 0 ? "no secret-dependent branch or index seen"
                      : "SECRET-DEPENDENT BRANCHES OR INDICES");
    return total;
}

/* GCM with aes on every GHASH engine selected (only_ghash, or every
 * available constant-time one); the number of checker errors. */
static const char *only_ghash;
static size_t pairs_checked;

static unsigned long check_gcm(const char *aes)
{
    unsigned long errors = 0;
    for (size_t g = 0; g < aesir_ghash_engine_count(); g++) {
        const char *name = aesir_ghash_engine_name(g);
        unsigned flags = aesir_ghash_engine_flags(g);
        if (only_ghash != NULL ? strcmp(name, only_ghash) != 0
                               : !(flags & AESIR_ENGINE_CONSTANT_TIME))
            continue;
        if (!(flags & AESIR_ENGINE_AVAILABLE)) {
            printf("GCM %s x %s: NOT CHECKED: GHASH engine not available "
                   "here\n",
                   aes, name);
            continue;
        }
        errors += check_pair(aes, name, flags);
        pairs_checked++;
    }
    return errors;
}

/* ---------------------------------------------------------------------
 * One engine
 * ------------------------------------------------------------------- */

/* Returns the number of checker errors seen while checking it. */
/*
 * AEGIS (aesir_aegis_*) on engine name, whatever path it takes (its
 * kernel, its AES round, ct64's round): every variant with a secret key,
 * secret AAD and data (public nonce and lengths: 0, 1, 15, 16, 33, 100,
 * 257 bytes: empty, partial, whole and several rate blocks), seal with
 * both tag lengths, appended and detached, open with the good tag and
 * with a flipped one (the verdict is declassified by aegis.c: it is the
 * return code). Outputs are compared with the same calls on ref (the
 * generic code on ct64's round) with public copies.
 */
static void check_aegis(const char *name)
{
    static const size_t lens[] = {0, 1, 15, 16, 33, 100, 257};
    static aesir_aegis_key k, kref;
    uint8_t key_pub[32], key_sec[32], nonce[32], ad_pub[40], ad_sec[40];
    uint8_t m_pub[300], m_sec[300], c[340], cref[340], p[300], tag[32];

    begin(S_AEGIS);
    for (int v = AESIR_AEGIS_128L; v <= AESIR_AEGIS_256X4; v++) {
        const size_t kl = aesir_aegis_key_bytes(v);
        fill(key_pub, kl);
        fill(nonce, kl);
        secret_copy(key_sec, key_pub, kl);
        CHECK_EQ(aesir_aegis_init_ex(&k, v, key_sec, kl, name), AESIR_OK);
        CHECK_EQ(aesir_aegis_init_ex(&kref, v, key_pub, kl, "ref"), AESIR_OK);
        for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
            const size_t n = lens[i], adl = (i * 7) % 40;
            for (size_t tl = 16; tl <= 32; tl += 16) {
                size_t ol, olr;
                fill(m_pub, n);
                fill(ad_pub, adl);
                secret_copy(m_sec, m_pub, n);
                secret_copy(ad_sec, ad_pub, adl);
                CHECK_EQ(aesir_aegis_seal(&k, nonce, kl, ad_sec, adl, c,
                                          sizeof(c), &ol, m_sec, n, tl),
                         AESIR_OK);
                CT_PUBLIC(c, n + tl);
                CHECK_EQ(aesir_aegis_seal(&kref, nonce, kl, ad_pub, adl, cref,
                                          sizeof(cref), &olr, m_pub, n, tl),
                         AESIR_OK);
                CHECK(ol == olr && memcmp(c, cref, ol) == 0);
                CHECK_EQ(aesir_aegis_seal_detached(&k, nonce, kl, ad_sec, adl,
                                                   c, tag, tl, m_sec, n),
                         AESIR_OK);
                CT_PUBLIC(c, n);
                CT_PUBLIC(tag, tl);
                CHECK(memcmp(c, cref, n) == 0 &&
                      memcmp(tag, cref + n, tl) == 0);
                /* open: the ciphertext and the tag secret too */
                secret_copy(c, cref, n + tl);
                CHECK_EQ(aesir_aegis_open(&k, nonce, kl, ad_sec, adl, p,
                                          sizeof(p), &ol, c, n + tl, tl),
                         AESIR_OK);
                CT_PUBLIC(p, n);
                CHECK(ol == n && memcmp(p, m_pub, n) == 0);
                secret_copy(c, cref, n + tl);
                c[n] ^= 1; /* a bad tag */
                CHECK_EQ(aesir_aegis_open_detached(&k, nonce, kl, ad_sec, adl,
                                                   p, c + n, tl, c, n),
                         AESIR_E_AUTH);
                CT_PUBLIC(p, n);
            }
        }
        aesir_aegis_clear(&k);
        aesir_aegis_clear(&kref);
    }
    end(S_AEGIS);
}

/*
 * The incremental AEGIS (aesir_aegis_start .. finish / verify) on engine
 * name, every variant: a secret key, AAD and data in pieces of public
 * lengths (1 byte, one short of a rate, whole rates, the rest: the
 * buffered partial blocks and the engines' block kernels), encryption
 * compared with ref's one-shot, decryption back with the good tag and a
 * bad one (the verdict declassified by aegis.c).
 */
static void check_aegis_inc(const char *name)
{
    static const size_t pieces[] = {1, 15, 128, 300, 7};
    static aesir_aegis_key k, kref;
    static aesir_aegis ctx;
    uint8_t key_pub[32], key_sec[32], nonce[32], ad_pub[451], ad_sec[451];
    uint8_t m_pub[451], m_sec[451], c[451], cref[451 + 32], p[451], tag[32];
    const size_t n = 451, adl = 451;
    size_t ol;

    begin(S_AEGIS_INC);
    for (int v = AESIR_AEGIS_128L; v <= AESIR_AEGIS_256X4; v++) {
        const size_t kl = aesir_aegis_key_bytes(v);
        fill(key_pub, kl);
        fill(nonce, kl);
        fill(m_pub, n);
        fill(ad_pub, adl);
        secret_copy(key_sec, key_pub, kl);
        secret_copy(m_sec, m_pub, n);
        secret_copy(ad_sec, ad_pub, adl);
        CHECK_EQ(aesir_aegis_init_ex(&k, v, key_sec, kl, name), AESIR_OK);
        CHECK_EQ(aesir_aegis_init_ex(&kref, v, key_pub, kl, "ref"), AESIR_OK);
        CHECK_EQ(aesir_aegis_seal(&kref, nonce, kl, ad_pub, adl, cref,
                                  sizeof(cref), &ol, m_pub, n, 32),
                 AESIR_OK);
        /* encryption in pieces */
        CHECK_EQ(aesir_aegis_start(&ctx, &k, nonce, kl), AESIR_OK);
        for (size_t o = 0, i = 0, q; o < adl; o += q, i++) {
            q = pieces[i % 5] < adl - o ? pieces[i % 5] : adl - o;
            CHECK_EQ(aesir_aegis_aad(&ctx, ad_sec + o, q), AESIR_OK);
        }
        for (size_t o = 0, i = 0, q; o < n; o += q, i++) {
            q = pieces[i % 5] < n - o ? pieces[i % 5] : n - o;
            CHECK_EQ(aesir_aegis_encrypt_update(&ctx, c + o, m_sec + o, q),
                     AESIR_OK);
        }
        CHECK_EQ(aesir_aegis_finish(&ctx, tag, 32), AESIR_OK);
        CT_PUBLIC(c, n);
        CT_PUBLIC(tag, 32);
        CHECK(memcmp(c, cref, n) == 0 && memcmp(tag, cref + n, 32) == 0);
        /* decryption in pieces, the ciphertext and tag secret; good, bad */
        for (int bad = 0; bad < 2; bad++) {
            secret_copy(c, cref, n);
            secret_copy(tag, cref + n, 32);
            tag[31] ^= (uint8_t)bad;
            CHECK_EQ(aesir_aegis_start(&ctx, &k, nonce, kl), AESIR_OK);
            CHECK_EQ(aesir_aegis_aad(&ctx, ad_sec, adl), AESIR_OK);
            for (size_t o = 0, i = 3, q; o < n; o += q, i++) {
                q = pieces[i % 5] < n - o ? pieces[i % 5] : n - o;
                CHECK_EQ(aesir_aegis_decrypt_update_unverified(&ctx, p + o,
                                                               c + o, q),
                         AESIR_OK);
            }
            CHECK_EQ(aesir_aegis_verify(&ctx, tag, 32),
                     bad ? AESIR_E_AUTH : AESIR_OK);
            CT_PUBLIC(p, n);
            CHECK(memcmp(p, m_pub, n) == 0);
        }
        aesir_aegis_clear(&k);
        aesir_aegis_clear(&kref);
    }
    end(S_AEGIS_INC);
}

static unsigned long check_engine(const char *name, const char *desc,
                                  unsigned flags)
{
    static aesir_aes enc, dec, both, ref;
    static const size_t key_lens[] = {16, 24, 32};
    unsigned long total = 0;

    engine_name = name;
    printf("%s (%s):\n", name,
           flags & AESIR_ENGINE_CONSTANT_TIME ? "flagged constant-time"
                                              : "NOT flagged constant-time");
    if (desc != NULL)
        printf("  %s\n", desc);
    memset(sect_errors, 0, sizeof(sect_errors));
    for (size_t k = 0; k < 3; k++) {
        uint8_t key_pub[32], key_sec[32];
        size_t kl = key_lens[k];

        fill(key_pub, kl);
        CHECK_EQ(aesir_aes_init_ex(&ref, key_pub, kl, "ref",
                                   AESIR_ENCRYPT | AESIR_DECRYPT),
                 AESIR_OK);
        begin(S_SETKEY);
        secret_copy(key_sec, key_pub, kl);
        CHECK_EQ(aesir_aes_init_ex(&enc, key_sec, kl, name, AESIR_ENCRYPT),
                 AESIR_OK);
        CHECK_EQ(aesir_aes_init_ex(&dec, key_sec, kl, name, AESIR_DECRYPT),
                 AESIR_OK);
        CHECK_EQ(aesir_aes_init_ex(&both, key_sec, kl, name,
                                   AESIR_ENCRYPT | AESIR_DECRYPT),
                 AESIR_OK);
        end(S_SETKEY);

        check_blocks(&enc, &dec, &both, &ref);
        check_modes(&both, &enc, &ref);
        check_many(name, kl);
        check_mac_modes(name, kl);
        check_ccm(name, kl);
        check_ocb(name, kl);
        check_xts(name, kl);

        aesir_aes_clear(&enc);
        aesir_aes_clear(&dec);
        aesir_aes_clear(&both);
        aesir_aes_clear(&ref);
    }
    check_aegis(name);
    check_aegis_inc(name);
    for (int s = 0; s < FIRST_GCM; s++) {
        printf("  %-40s %8lu " CHECKER " errors\n", section_name[s],
               sect_errors[s]);
        total += sect_errors[s];
    }
    printf("  => %s: %lu " CHECKER " errors: %s\n", name, total,
           total == 0 ? "no secret-dependent branch or index seen"
                      : "SECRET-DEPENDENT BRANCHES OR INDICES");
    return total;
}

static void usage(void)
{
#ifdef AESIR_CT_MSAN
    fprintf(stderr, "usage: MSAN_OPTIONS=halt_on_error=0 ct_check_msan "
                    "[--engine NAME] [--ghash NAME] [--no-gcm]\n"
                    "  without --engine: every available constant-time "
                    "engine\n"
                    "  GCM on each with every constant-time GHASH engine; "
                    "--ghash: GCM only, on that one\n");
#else
    fprintf(stderr,
            "usage: valgrind --error-exitcode=1 --track-origins=yes "
            "ct_check [--engine NAME] [--ghash NAME] [--no-gcm]\n"
            "  without --engine: every available constant-time engine\n"
            "  GCM on each with every constant-time GHASH engine; --ghash: "
            "GCM only, on that one\n"
            "  --no-valgrind: run without valgrind (checks nothing about "
            "timing; for debugging)\n");
#endif
}

/* Adds CHECKER_MASK to AESIR_CPU_DISABLE before the library probes. */
static void mask_for_checker(void)
{
    static char buf[512];
    const char *old = getenv("AESIR_CPU_DISABLE");

    if (CHECKER_MASK[0] == '\0')
        return;
    snprintf(buf, sizeof(buf), "%s%s%s", old != NULL ? old : "",
             old != NULL && *old != '\0' ? "," : "", CHECKER_MASK);
    setenv("AESIR_CPU_DISABLE", buf, 1);
}

/* Exit status when --engine names an engine this CPU cannot run (ctest
 * reports the test as skipped, never as passed: SKIP_RETURN_CODE). */
#define EXIT_UNAVAILABLE 77

int main(int argc, char **argv)
{
    const char *only = NULL;
    int no_checker = 0, no_gcm = 0, active = checker_running();
    size_t n, checked = 0, ct_engines = 0;
    unsigned long errors = 0;

#ifdef AESIR_CT_MSAN
    /* The runtime leaves through _exit() when it has reported: keep no
     * output in stdio's buffers. */
    setvbuf(stdout, NULL, _IOLBF, 0);
#endif
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--engine") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--ghash") == 0 && i + 1 < argc) {
            only_ghash = argv[++i];
        } else if (strcmp(argv[i], "--no-gcm") == 0) {
            no_gcm = 1;
        } else if (strcmp(argv[i], "--no-valgrind") == 0) {
            no_checker = 1;
        } else {
            usage();
            return 2;
        }
    }
    if (active) {
        mask_for_checker();
    } else if (!no_checker) {
        fprintf(stderr, "ct_check: not running under valgrind, so it "
                        "would check nothing.\n");
        usage();
        return 2;
    }
    if (only != NULL && aesir_engine_find(only) < 0) {
        fprintf(stderr, "ct_check: no engine called %s in this build\n", only);
        return 2;
    }
    if (only_ghash != NULL && aesir_ghash_engine_find(only_ghash) < 0) {
        fprintf(stderr, "ct_check: no GHASH engine called %s in this build\n",
                only_ghash);
        return 2;
    }
    printf("ct_check: %s; CPU features disabled: %s\n",
           active ? "under " CHECKER : "NOT under valgrind",
           getenv("AESIR_CPU_DISABLE") != NULL ? getenv("AESIR_CPU_DISABLE")
                                               : "none");
    /* Test-only, honoured by the check build alone (src/core/cpu.c). */
    if (getenv("AESIR_CT_ASSUME_CPU") != NULL)
        printf("ct_check: CPU features assumed present (AESIR_CT_ASSUME_CPU, "
               "not probed): %s\n",
               getenv("AESIR_CT_ASSUME_CPU"));

    n = aesir_engine_count();
    for (size_t i = 0; i < n; i++) {
        const char *name = aesir_engine_name(i);
        unsigned flags = aesir_engine_flags(i);

        if (only != NULL ? strcmp(name, only) != 0
                         : !(flags & AESIR_ENGINE_CONSTANT_TIME))
            continue;
        ct_engines++;
        if (!(flags & AESIR_ENGINE_AVAILABLE)) {
            printf("%s: NOT CHECKED: not available here%s\n", name,
                   active && CHECKER_MASK[0] != '\0'
                       ? " (under " CHECKER ", which cannot execute "
                         "them, " CHECKER_MASK " are masked)"
                       : "");
            if (only != NULL)
                return EXIT_UNAVAILABLE;
            continue;
        }
        if (only_ghash == NULL)
            errors += check_engine(name, aesir_engine_description(i), flags);
        if (only_ghash != NULL &&
            !(aesir_ghash_engine_flags(
                  (size_t)aesir_ghash_engine_find(only_ghash)) &
              AESIR_ENGINE_AVAILABLE)) {
            printf("%s: NOT CHECKED: not available here\n", only_ghash);
            return EXIT_UNAVAILABLE;
        }
        if (!no_gcm)
            errors += check_gcm(name);
        checked++;
    }
    if (ct_engines == 0)
        printf("ct_check: no constant-time engine in this build: nothing "
               "to check\n");
    else if (checked == 0)
        printf("ct_check: no constant-time engine available here: "
               "nothing checked\n");
    printf("ct_check: %zu engine(s) checked, %zu GCM pair(s), %lu " CHECKER
           " errors\n",
           checked, pairs_checked, errors);
    return check_summary();
}
