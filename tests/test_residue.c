/*
 * test_residue.c -- no secrets left behind on the stack (issue 17).
 *
 * Every public function that touches a key or a message runs, on every
 * available engine and key size, on a stack of its own: an mmap'd region
 * filled with a pattern and entered with makecontext/swapcontext, so
 * that when the call has returned its dead frames are ordinary memory
 * the test may read. The region is then scanned, at every byte offset,
 * for 8-byte pieces of what the call must not leave there:
 *
 *   key        the key itself;
 *   rk         the FIPS-197 section 5.2 round keys;
 *   rk-inv     the equivalent inverse cipher's round keys (section
 *              5.3.5: InvMixColumns of rounds 1 .. nr-1);
 *   sched      the engine's own schedule as stored in the context (every
 *              16-byte-aligned 16-byte chunk of its rk_enc and rk_dec
 *              areas, as two 8-byte pieces, which also covers the 64-bit
 *              words of the bitsliced layouts);
 *   keystream  the blocks E(..) that a stream mode XORs with the data
 *              (CTR: E(counter); OFB: E^i(IV); CFB128: E(C_(i-1)); CFB8
 *              and CFB1: E(register) for every segment), computed here
 *              with the ref engine;
 *   plaintext  the plaintext blocks the call handled (for ECB and CBC
 *              with the padding added);
 *   cbc-xor    CBC's P_i ^ C_(i-1): the cipher's input when encrypting,
 *              its output when decrypting;
 *   mac-chain  the inner chaining values of aesir_cbc_mac_many (all but
 *              the last block of each chain, which is returned);
 *
 * and for GCM and GMAC, on every pair of an AES engine and a GHASH
 * engine (the key's AES schedule as above, keystream = E_K(inc32^i(J0)),
 * plaintext):
 *
 *   ghash-key  H = E_K(0^128) and the GHASH engine's key area in the
 *              aesir_gcm_key (powers of H, tables; every 16-byte chunk,
 *              as for sched);
 *   ekj0       E_K(J0), the mask of the tag;
 *   ghash-out  S, the GHASH value the tag is E_K(J0) xor S of;
 *   j0         J0 for an IV of other than 96 bits (then GHASH_H(IV):
 *              knowing it gives equations in H); a 96-bit IV's J0 is
 *              public.
 *
 * (these four also byte-reversed per 8-byte piece: the form software
 * and carry-less-multiply GHASH engines hold blocks in), and for OCB3,
 * on every engine (the key's AES schedules as above,
 * keystream = the pad E_K(Offset_*) of a partial last block, plaintext):
 *
 *   ocb-L      L_*, L_$, L_0 .. L_35 and their running sums P_1 .. P_32
 *              in the aesir_ocb_key;
 *   ocb-offset Ktop and every offset Offset_0 .. Offset_m, Offset_* of
 *              the message.
 *
 * and for XTS (the data and tweak keys' schedules as above, plaintext):
 *
 *   xts-tweak  the tweaks T_j = E_Key2(i) * x^j of every block;
 *   xts-xor    P_j ^ T_j and C_j ^ T_j, the block cipher's input and
 *              output (either gives T_j from a known block).
 *
 * An 8-byte piece that could be there by chance (fewer than 4 distinct
 * byte values, or only the bytes 00 0f f0 ff: every word of the
 * bitsliced schedules, which hold 16 bits each) is looked for together
 * with the 24 bytes that follow it in the schedule, as a 32-byte run,
 * and as itself four times over (a ymm broadcast of it), or not at all
 * where neither is strong enough (the zeros after a schedule).
 * Pieces shorter than 8 bytes (the end of a message that is not a
 * multiple of 8) are not looked for.
 *
 * The result is a table on stdout, per engine and function, of what was
 * found (kind and number of distinct 16-byte secrets); -v prints the
 * clean rows too and where each hit lies. The test fails when keystream,
 * plaintext, cbc-xor, mac-chain or any GCM or OCB kind is found anywhere, or
 * key material that the allowlist below does not name with its reason.
 *
 * It can fail: a self-check first runs a deliberately leaky function on
 * the same stack (the key, a round key, a keystream block at an odd
 * offset, a plaintext block and 32 bytes of ct64's bitsliced schedule
 * copied into its frame, no wipe) and requires every planted kind to be
 * found, and the same function with aesir_wipe() to leave nothing.
 *
 * The program is linked with immediate binding (tests/CMakeLists.txt):
 * a lazy PLT resolution on the dedicated stack would save every vector
 * register there (the dynamic linker's XSAVE), which is no residue of
 * the library's. One-time work (CPU probe, self-tests) is done on the
 * main stack before the scans.
 *
 * What it cannot see: registers (out of scope), secrets in transformed
 * form (bitsliced or vector-permute bases), and pieces below 8 bytes.
 * It is skipped (exit 77) in builds where the stack is not the library's
 * own: AddressSanitizer (which may move frames to a heap "fake stack")
 * and ThreadSanitizer (which does not follow swapcontext), and in
 * unoptimised builds (-O0 spills every intrinsic's value; the promise is
 * for optimised code). It does not run in the coverage build
 * (tests/CMakeLists.txt): the counters take registers, and clang then
 * spills round keys that the shipped code keeps in registers.
 *
 * Options: -v (all rows, where each hit lies), --engine NAME (only that
 * engine), --ghash NAME (only that GHASH engine in the GCM pairs), --row
 * PREFIX (only the functions whose row starts so). Keys
 * and data are random but reproducible per engine and key size;
 * AESIR_TEST_SEED=n draws others.
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "aesir.h"
#include "check.h"
#include "ccm.h"
#include "gcm.h"
#include "gcm_siv.h"
#include "internal.h"
#include "ocb.h"
#include "xts.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RESIDUE_SKIP "AddressSanitizer or ThreadSanitizer build"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define RESIDUE_SKIP "sanitizer build"
#endif
#endif
#if !defined(RESIDUE_SKIP) && !defined(__OPTIMIZE__)
#define RESIDUE_SKIP "unoptimised build"
#endif

/* ---- what is looked for ------------------------------------------------ */

enum kind {
    K_KEY,
    K_RK,
    K_RKINV,
    K_SCHED,
    K_KEYSTREAM,
    K_PLAIN,
    K_CBCXOR,
    K_MACCHAIN,
    K_HKEY,
    K_EKJ0,
    K_GHASH,
    K_J0,
    K_CCMS0,
    K_CCMMAC,
    K_OCBL,
    K_OCBOFF,
    K_TWEAK,
    K_XTSXOR,
    K_AEGIS,
    NKINDS
};

static const char *const kind_name[NKINDS] = {
    "key",        "rk",        "rk-inv",    "sched",      "keystream",
    "plaintext",  "cbc-xor",   "mac-chain", "ghash-key",  "ekj0",
    "ghash-out",  "j0",        "ccm-s0",    "ccm-mac",    "ocb-L",
    "ocb-offset", "xts-tweak", "xts-xor",   "aegis-state"};

/* Key material may be allowlisted; the rest never. */
static int kind_is_key(unsigned k)
{
    return k <= K_SCHED;
}

/*
 * Residues accepted, each with its reason (for SECURITY.md), printed
 * when found. engine and row match exactly, or "*" anything; row also
 * matches as a prefix ending in '*'. Only key material may be listed.
 * None today: every residue found is removed, in the AES-instruction
 * engines by keeping secrets in registers, in the software engines and
 * the multi-buffer managers by wiping their stack (src/engine/
 * stack_wipe.h). A round-key spill that cannot be removed goes here,
 * e.g. {"aesni", "cbc_mac_many", K_RK, "why"}.
 */
struct allow {
    const char *engine, *row;
    unsigned kind;
    const char *why;
};

static const struct allow allowlist[] = {
    {NULL, NULL, 0, NULL}, /* end */
};

static int match(const char *pat, const char *s)
{
    size_t n;
    if (strcmp(pat, "*") == 0)
        return 1;
    n = strlen(pat);
    if (n > 0 && pat[n - 1] == '*')
        return strncmp(pat, s, n - 1) == 0;
    return strcmp(pat, s) == 0;
}

static const struct allow *allowed(const char *engine, const char *row,
                                   unsigned kind)
{
    for (size_t i = 0; allowlist[i].engine != NULL; i++)
        if (allowlist[i].kind == kind && match(allowlist[i].engine, engine) &&
            match(allowlist[i].row, row))
            return &allowlist[i];
    return NULL;
}

/*
 * The secrets of one scan: pieces, each belonging to a secret (a 16-byte
 * block, or a whole key) of one kind, in an open-addressing hash table
 * keyed by their first 8 bytes. A piece is 8 bytes of the secret, or,
 * where those 8 bytes are weak (could occur by chance), 32 bytes of the
 * area it lies in, all of which must match. The key's pieces are
 * registered once per key ("fixed"), the call's after them.
 */
#define MAX_PIECES 16384
#define MAX_SECRETS 8192
#define HBITS 15

struct piece {
    uint64_t v; /* bytes 0..7, the hash key */
    uint32_t secret;
    uint8_t len;      /* 8, or 32 */
    uint8_t rest[24]; /* bytes 8..31 when len is 32 */
};

static struct piece pieces[MAX_PIECES];
static size_t npieces, fixed_pieces;
static uint8_t secret_kind[MAX_SECRETS], secret_found[MAX_SECRETS];
static size_t nsecrets, fixed_secrets;
static uint32_t htab[1u << HBITS]; /* piece index + 1, 0: empty */
static size_t skipped_weak, long_pieces;

static uint32_t hash64(uint64_t v)
{
    return (uint32_t)((v * 0x9e3779b97f4a7c15u) >> (64 - HBITS));
}

static unsigned distinct_bytes(const uint8_t *p, size_t n)
{
    uint8_t seen[256] = {0};
    unsigned d = 0;
    for (size_t i = 0; i < n; i++) {
        d += !seen[p[i]];
        seen[p[i]] = 1;
    }
    return d;
}

/*
 * 8 bytes that could be on the stack by chance: fewer than 4 distinct
 * bytes (zeros, fills), or only the bytes 00 0f f0 ff. The bitsliced
 * schedules (ct64, bs-avx2, bs-avx512) are made of the latter: each
 * 4-bit column of a word holds one key bit for its four block slots, so
 * a word carries 16 bits, and a state word of four near-equal counter
 * blocks has the same form; such matches came up by chance.
 */
static int weak8(const uint8_t p[8])
{
    int bitsliced = 1;
    for (int i = 0; i < 8; i++)
        bitsliced &=
            p[i] == 0x00 || p[i] == 0x0f || p[i] == 0xf0 || p[i] == 0xff;
    return bitsliced || distinct_bytes(p, 8) < 4;
}

/* A 32-byte run stands for a weak word: 4 distinct byte values and 3
 * distinct words at least (up to 64 bits for bitsliced words). */
static int weak32(const uint8_t p[32])
{
    unsigned words = 1;
    for (int i = 8; i < 32; i += 8) {
        int seen = 0;
        for (int j = 0; j < i; j += 8)
            seen |= memcmp(p + i, p + j, 8) == 0;
        words += !seen;
    }
    return words < 3 || distinct_bytes(p, 32) < 4;
}

static void insert_piece(size_t i)
{
    uint32_t h = hash64(pieces[i].v);
    while (htab[h] != 0)
        h = (h + 1) & ((1u << HBITS) - 1);
    htab[h] = (uint32_t)(i + 1);
}

/* Whether a piece of len bytes equal to p is registered. */
static int have_piece(const uint8_t *p, unsigned len)
{
    uint64_t v;
    memcpy(&v, p, 8);
    for (uint32_t h = hash64(v);; h = (h + 1) & ((1u << HBITS) - 1)) {
        const struct piece *e;
        if (htab[h] == 0)
            return 0;
        e = &pieces[htab[h] - 1];
        if (e->v == v && e->len == len &&
            (len == 8 || memcmp(e->rest, p + 8, 24) == 0))
            return 1;
    }
}

static size_t new_secret(unsigned kind)
{
    if (nsecrets == MAX_SECRETS) {
        fprintf(stderr, "test_residue: too many secrets\n");
        exit(1);
    }
    secret_kind[nsecrets] = (uint8_t)kind;
    return nsecrets++;
}

/* A piece of len bytes (8 or 32) equal to p for secret s, unless one is
 * registered already (it keeps its first secret). */
static void put_piece(size_t s, const uint8_t *p, unsigned len)
{
    if (have_piece(p, len))
        return;
    if (npieces == MAX_PIECES) {
        fprintf(stderr, "test_residue: too many pieces\n");
        exit(1);
    }
    memcpy(&pieces[npieces].v, p, 8);
    pieces[npieces].secret = (uint32_t)s;
    pieces[npieces].len = (uint8_t)len;
    if (len == 32) {
        memcpy(pieces[npieces].rest, p + 8, 24);
        long_pieces++;
    }
    insert_piece(npieces++);
}

/*
 * The piece at p for secret s; avail bytes can be read from p. A weak
 * word is looked for as the 32-byte run it starts; with bcast also as
 * itself four times over, the ymm a bitsliced vector engine broadcasts it
 * to (bs-avx2 spilled those), when it has 4 distinct bytes: that form
 * does not come about by chance (state words differ from lane to lane).
 */
static void add_piece(size_t s, const uint8_t *p, size_t avail, int bcast)
{
    int looked = 0;

    if (!weak8(p)) {
        put_piece(s, p, 8);
        return;
    }
    if (avail >= 32 && !weak32(p)) {
        put_piece(s, p, 32);
        looked = 1;
    }
    if (bcast && distinct_bytes(p, 8) >= 4) {
        uint8_t run[32];
        for (int i = 0; i < 32; i += 8)
            memcpy(run + i, p, 8);
        put_piece(s, run, 32);
        looked = 1;
    }
    skipped_weak += !looked;
}

/* The 8-byte pieces of p[0..n) (n rounded down to 8) as one secret; a
 * weak one is looked for with the 24 bytes after it when avail (>= n)
 * bytes can be read from p. */
/* GHASH values also live byte-reversed: a software multiplier holds a
 * block as two big-endian-loaded 64-bit words (stored little-endian),
 * a carry-less-multiply one as the whole block reflected (pshufb), so
 * each 8-byte piece of these kinds is looked for reversed too. */
static int kind_is_reflected(unsigned kind)
{
    return kind == K_HKEY || kind == K_EKJ0 || kind == K_GHASH || kind == K_J0;
}

static void add_secret_in(unsigned kind, const uint8_t *p, size_t n,
                          size_t avail)
{
    size_t s = new_secret(kind);
    for (size_t i = 0; i + 8 <= n; i += 8) {
        add_piece(s, p + i, avail - i, kind == K_SCHED);
        if (kind_is_reflected(kind)) {
            uint8_t r[8];
            for (size_t j = 0; j < 8; j++)
                r[j] = p[i + 7 - j];
            add_piece(s, r, 8, 0);
        }
    }
}

static void add_secret(unsigned kind, const uint8_t *p, size_t n)
{
    add_secret_in(kind, p, n, n);
}

/* Each 16-byte block of p[0..n) a secret of its own (a last partial
 * block: its whole 8-byte pieces). */
static void add_blocks(unsigned kind, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 16)
        add_secret(kind, p + i, n - i < 16 ? n - i : 16);
}

/* Back to the key's secrets only. */
static void reset_call_secrets(void)
{
    npieces = fixed_pieces;
    nsecrets = fixed_secrets;
    memset(htab, 0, sizeof(htab));
    for (size_t i = 0; i < npieces; i++)
        insert_piece(i);
}

static void reset_all_secrets(void)
{
    fixed_pieces = fixed_secrets = 0;
    reset_call_secrets();
}

/* ---- the dedicated stack ----------------------------------------------- */

#define STACK_BYTES (256 * 1024)
#define FILL 0xa5

static unsigned char *stack_lo; /* STACK_BYTES, a guard page below */
static size_t dirty_from;       /* lowest offset written since the fill */
static ucontext_t main_uc, call_uc;
static void (*call_fn)(void);
static int verbose;
static const char *only_row; /* --row: only rows starting so */

static void trampoline(void)
{
    call_fn();
}

static void stack_setup(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *m = mmap(NULL, STACK_BYTES + page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    if (mprotect(m, page, PROT_NONE) != 0) {
        perror("mprotect");
        exit(1);
    }
    stack_lo = m + page;
    memset(stack_lo, FILL, STACK_BYTES);
    dirty_from = STACK_BYTES;
}

/* Runs fn on the dedicated stack, freshly filled; returns how deep it
 * went (bytes from the top). */
static size_t run_on_stack(void (*fn)(void))
{
    memset(stack_lo + dirty_from, FILL, STACK_BYTES - dirty_from);
    call_fn = fn;
    if (getcontext(&call_uc) != 0) {
        perror("getcontext");
        exit(1);
    }
    call_uc.uc_stack.ss_sp = stack_lo;
    call_uc.uc_stack.ss_size = STACK_BYTES;
    call_uc.uc_link = &main_uc;
    makecontext(&call_uc, trampoline, 0);
    if (swapcontext(&main_uc, &call_uc) != 0) {
        perror("swapcontext");
        exit(1);
    }
    dirty_from = 0;
    while (dirty_from < STACK_BYTES && stack_lo[dirty_from] == FILL)
        dirty_from++;
    return STACK_BYTES - dirty_from;
}

/* Marks secret_found for every secret with a piece in the dirty part of
 * the stack; returns the number of hits. */
static size_t scan_stack(void)
{
    size_t hits = 0;
    memset(secret_found, 0, nsecrets);
    for (size_t off = dirty_from; off + 8 <= STACK_BYTES; off++) {
        uint64_t v;
        memcpy(&v, stack_lo + off, 8);
        for (uint32_t h = hash64(v); htab[h] != 0;
             h = (h + 1) & ((1u << HBITS) - 1)) {
            const struct piece *e = &pieces[htab[h] - 1];
            if (e->v != v)
                continue;
            if (e->len == 32 && (off + 32 > STACK_BYTES ||
                                 memcmp(stack_lo + off + 8, e->rest, 24) != 0))
                continue;
            hits++;
            secret_found[e->secret] = 1;
            if (verbose)
                printf("    hit: %s (%u bytes) at %zu bytes below the top "
                       "(%p)\n",
                       kind_name[secret_kind[e->secret]], e->len,
                       STACK_BYTES - off, (void *)(stack_lo + off));
        }
    }
    return hits;
}

/* ---- the report ---------------------------------------------------------- */

#define MAX_ROWS 64

struct row {
    const char *name;
    unsigned long found[NKINDS]; /* distinct secrets, summed over calls */
    unsigned long calls;
    size_t depth; /* the deepest call's stack use */
};

static struct row rows[MAX_ROWS];
static size_t nrows;
static unsigned long total_found[NKINDS];
static const char *cur_engine;
static int failed_residue;

static struct row *row_of(const char *name)
{
    for (size_t i = 0; i < nrows; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    if (nrows == MAX_ROWS) {
        fprintf(stderr, "test_residue: too many rows\n");
        exit(1);
    }
    rows[nrows].name = name;
    return &rows[nrows++];
}

/* Runs fn on the stack, scans for the registered secrets, adds what was
 * found to row name. */
static void scan_call(const char *name, void (*fn)(void))
{
    struct row *r;
    size_t depth;
    if (only_row != NULL && strncmp(name, only_row, strlen(only_row)) != 0) {
        fn(); /* on this stack: a sequence's state must still advance */
        return;
    }
    r = row_of(name);
    depth = run_on_stack(fn);
    if (depth > r->depth)
        r->depth = depth;
    scan_stack();
    r->calls++;
    for (size_t s = 0; s < nsecrets; s++)
        if (secret_found[s])
            r->found[secret_kind[s]]++;
}

static void report_engine(void)
{
    size_t clean = 0;
    for (size_t i = 0; i < nrows; i++) {
        struct row *r = &rows[i];
        char line[512];
        size_t n = 0;
        for (unsigned k = 0; k < NKINDS; k++) {
            const struct allow *a;
            if (r->found[k] == 0)
                continue;
            total_found[k] += r->found[k];
            a = kind_is_key(k) ? allowed(cur_engine, r->name, k) : NULL;
            n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %lu%s",
                                  kind_name[k], r->found[k],
                                  a != NULL ? " (allowed)" : " (FAIL)");
            if (a == NULL)
                failed_residue = 1;
            else
                printf("  allowed: %s %s %s: %s\n", cur_engine, r->name,
                       kind_name[k], a->why);
        }
        if (n == 0) {
            clean++;
            if (verbose)
                printf("  %-12s %-26s clean (%lu calls, stack %zu)\n",
                       cur_engine, r->name, r->calls, r->depth);
            continue;
        }
        if (verbose)
            printf("  %-12s %-26s%s (stack %zu)\n", cur_engine, r->name, line,
                   r->depth);
        else
            printf("  %-12s %-26s%s\n", cur_engine, r->name, line);
    }
    printf("  %-12s %zu of %zu functions clean\n", cur_engine, clean, nrows);
    nrows = 0;
    memset(rows, 0, sizeof(rows));
}

/* ---- the calls ------------------------------------------------------------
 */

/* The largest message of each mode. 2048 bytes: 128 blocks, so that
 * the vaes-avx512 OCB3 whole-message kernel runs its batch loop over
 * more than one 32-block batch (three; the last goes with the tail),
 * where 1024 ran it once; a kernel that holds more than its wipe covers
 * only there (two batches per loop of rounds, docs/modes/ocb.md) was
 * clean at 1024 and caught at 2048. */
#define MAX_MSG 2048
/* GCM's one-shot calls also run at LONG_MSG with a 12-byte IV:
 * vaes-avx512 takes messages of 8 KiB and more through kernels of their
 * own (broadcast round keys in a larger frame, a longer wipe;
 * vaes_avx512_gcm_msg.c) */
#define LONG_MSG 16384
#define MB_JOBS 17

static uint64_t rng_state = 0x6a09e667f3bcc908u;

static uint64_t rng(void)
{
    return splitmix64(&rng_state);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rng();
}

/* Everything a call reads and writes lives here, off the dedicated
 * stack: contexts, buffers, arguments. */
static struct {
    _Alignas(64) aesir_aes key;   /* engine under test */
    _Alignas(64) aesir_aes ref;   /* ref engine, same key */
    _Alignas(64) aesir_aes other; /* scratch key context */
    aesir_cipher cipher;
    const char *engine;
    uint8_t keybytes[32];
    size_t key_len;
    unsigned dirs; /* init calls */
    uint8_t iv[16];
    uint8_t in[LONG_MSG + 32], out[LONG_MSG + 32], want[MAX_MSG + 32];
    size_t len, out_len; /* bytes, or bits for CFB1 */
    unsigned mode, dir, option;
    size_t upd_off, upd_len, out_pos; /* incremental: this update */
    aesir_cbc_job jobs[MB_JOBS];
    size_t njobs;
    int err;
    /* GCM */
    _Alignas(64) aesir_gcm_key gkey; /* the pair under test */
    _Alignas(64) aesir_gcm_key gref; /* ref x ghash-ref, same key */
    _Alignas(64) aesir_gcm_key gtmp; /* scratch */
    aesir_gcm gctx;
    const char *ghash;
    uint8_t giv[60], aad[80], tag[16];
    size_t iv_len, aad_len;
    /* CCM */
    _Alignas(64) aesir_ccm_key ckey; /* the engine under test */
    _Alignas(64) aesir_ccm_key ctmp; /* scratch */
    aesir_ccm cctx;
    uint8_t nonce[13];
    size_t nonce_len, tag_len;
    /* OCB3 */
    _Alignas(64) aesir_ocb_key okey; /* the engine under test */
    _Alignas(64) aesir_ocb_key oref; /* ref, same key */
    _Alignas(64) aesir_ocb_key otmp; /* scratch */
    aesir_ocb octx;
    /* XTS */
    _Alignas(64) aesir_xts_key xkey; /* engine under test */
    _Alignas(64) aesir_xts_key xtmp; /* scratch */
    _Alignas(64) aesir_aes xref2;    /* ref, the tweak key */
    uint8_t xkeybytes[64], xtweak[16];
    uint64_t sector;
} g;

/* One-shot functions: g.mode, g.dir, g.option on g.in/g.len into g.out. */
static int oneshot(const aesir_aes *k, uint8_t *out, size_t *out_len)
{
    /* g.len counts bits for CFB1 */
    size_t len = g.mode == AESIR_MODE_CFB1 ? (g.len + 7) / 8 : g.len;
    return mode_oneshot(k, g.mode, g.dir, g.option, g.iv, out, MAX_MSG + 32,
                        out_len, g.in, len, g.len);
}

/* The calls run on the dedicated stack. */
static void call_init(void)
{
    g.err =
        aesir_aes_init_ex(&g.other, g.keybytes, g.key_len, g.engine, g.dirs);
}

static void call_encrypt_blocks(void)
{
    g.err = aesir_aes_encrypt_blocks(&g.key, g.out, g.in, g.len / 16);
}

static void call_decrypt_blocks(void)
{
    g.err = aesir_aes_decrypt_blocks(&g.key, g.out, g.in, g.len / 16);
}

static void call_oneshot(void)
{
    g.err = oneshot(&g.key, g.out, &g.out_len);
}

static void call_cipher_init(void)
{
    g.err = aesir_cipher_init(&g.cipher, &g.key, (aesir_mode)g.mode, g.dir,
                              g.mode == AESIR_MODE_ECB ? NULL : g.iv,
                              g.mode == AESIR_MODE_ECB ? 0 : 16, g.option);
}

static void call_cipher_update(void)
{
    size_t n = 0;
    g.err = aesir_cipher_update(&g.cipher, g.out + g.out_pos,
                                MAX_MSG + 32 - g.out_pos, &n, g.in + g.upd_off,
                                g.upd_len);
    g.out_pos += n;
}

static void call_cipher_final(void)
{
    size_t n = 0;
    g.err = aesir_cipher_final(&g.cipher, g.out + g.out_pos,
                               MAX_MSG + 32 - g.out_pos, &n);
    g.out_pos += n;
}

static void call_cbc_many(void)
{
    g.err = aesir_cbc_encrypt_many(g.jobs, g.njobs);
}

static void call_mac_many(void)
{
    g.err = aesir_cbc_mac_many(g.jobs, g.njobs);
}

/* ---- expected secrets, from the ref engine on the main stack ------------ */

static void ref_block_with(const aesir_aes *k, uint8_t out[16],
                           const uint8_t in[16])
{
    if (aesir_aes_encrypt_block(k, out, in) != AESIR_OK)
        abort();
}

static void ref_block(uint8_t out[16], const uint8_t in[16])
{
    ref_block_with(&g.ref, out, in);
}

/* The key's secrets: key, FIPS-197 schedules (the ref engine's layout),
 * the engine's schedule in its context. */
static void register_key_secrets(const aesir_aes *engine_ctx)
{
    const struct aesir_key_state *ref =
        (const struct aesir_key_state *)(const void *)g.ref.opaque;
    const struct aesir_key_state *ks =
        (const struct aesir_key_state *)(const void *)engine_ctx->opaque;
    unsigned nr = ref->nr;

    reset_all_secrets();
    add_secret(K_KEY, g.keybytes, g.key_len);
    add_blocks(K_RK, ref->rk_enc, 16 * (nr + 1));
    add_blocks(K_RKINV, ref->rk_dec, 16 * (nr + 1));
    for (size_t i = 0; i < AESIR_RK_BYTES; i += 16) {
        add_secret_in(K_SCHED, ks->rk_enc + i, 16, AESIR_RK_BYTES - i);
        add_secret_in(K_SCHED, ks->rk_dec + i, 16, AESIR_RK_BYTES - i);
    }
    fixed_pieces = npieces;
    fixed_secrets = nsecrets;
}

static void xor16(uint8_t *o, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        o[i] = a[i] ^ b[i];
}

/* ECB/CBC: pt = the padded plaintext, ct = the ciphertext, nb blocks. */
static void register_block_secrets(unsigned mode, const uint8_t *iv,
                                   const uint8_t *pt, const uint8_t *ct,
                                   size_t nb, int mac)
{
    uint8_t x[16];
    add_blocks(K_PLAIN, pt, 16 * nb);
    if (mode != AESIR_MODE_CBC)
        return;
    for (size_t i = 0; i < nb; i++) {
        xor16(x, pt + 16 * i, i == 0 ? iv : ct + 16 * (i - 1));
        add_secret(K_CBCXOR, x, 16);
        if (mac && i + 1 < nb)
            add_secret(K_MACCHAIN, ct + 16 * i, 16);
    }
}

/* The call's secrets, from its input and the expected output g.want. */
static void register_call_secrets(void)
{
    const uint8_t *pt = g.dir == AESIR_ENCRYPT ? g.in : g.want;
    const uint8_t *ct = g.dir == AESIR_ENCRYPT ? g.want : g.in;
    uint8_t reg[16], ks[16];
    size_t nb;

    reset_call_secrets();
    switch (g.mode) {
    case AESIR_MODE_ECB:
    case AESIR_MODE_CBC: {
        /* The ciphertext, whole blocks; the padded plaintext from it. */
        static uint8_t padded[MAX_MSG + 32];
        size_t n = 0;
        nb = (g.dir == AESIR_ENCRYPT ? g.out_len : g.len) / 16;
        if (nb == 0)
            break;
        if (g.mode == AESIR_MODE_ECB)
            CHECK(aesir_ecb_decrypt(&g.ref, AESIR_PAD_NONE, padded,
                                    sizeof(padded), &n, ct,
                                    16 * nb) == AESIR_OK);
        else
            CHECK(aesir_cbc_decrypt(&g.ref, g.iv, AESIR_PAD_NONE, padded,
                                    sizeof(padded), &n, ct,
                                    16 * nb) == AESIR_OK);
        register_block_secrets(g.mode, g.iv, padded, ct, nb, 0);
        break;
    }
    case AESIR_MODE_CTR: {
        uint8_t ctr[16];
        memcpy(ctr, g.iv, 16);
        for (size_t i = 0; i < (g.len + 15) / 16; i++) {
            ref_block(ks, ctr);
            add_secret(K_KEYSTREAM, ks, 16);
            aesir_ctr_add(ctr, 1);
        }
        add_blocks(K_PLAIN, pt, g.len);
        break;
    }
    case AESIR_MODE_OFB:
        memcpy(reg, g.iv, 16);
        for (size_t i = 0; i < (g.len + 15) / 16; i++) {
            ref_block(reg, reg);
            add_secret(K_KEYSTREAM, reg, 16);
        }
        add_blocks(K_PLAIN, pt, g.len);
        break;
    case AESIR_MODE_CFB128:
        for (size_t i = 0; i < (g.len + 15) / 16; i++) {
            ref_block(ks, i == 0 ? g.iv : ct + 16 * (i - 1));
            add_secret(K_KEYSTREAM, ks, 16);
        }
        add_blocks(K_PLAIN, pt, g.len);
        break;
    case AESIR_MODE_CFB8:
        memcpy(reg, g.iv, 16);
        for (size_t i = 0; i < g.len; i++) {
            ref_block(ks, reg);
            add_secret(K_KEYSTREAM, ks, 16);
            memmove(reg, reg + 1, 15);
            reg[15] = ct[i];
        }
        add_blocks(K_PLAIN, pt, g.len);
        break;
    case AESIR_MODE_CFB1:
        memcpy(reg, g.iv, 16);
        for (size_t i = 0; i < g.len; i++) { /* g.len bits */
            unsigned c = ct[i / 8] >> (7 - i % 8) & 1u;
            ref_block(ks, reg);
            add_secret(K_KEYSTREAM, ks, 16);
            for (int j = 0; j < 15; j++)
                reg[j] = (uint8_t)(reg[j] << 1 | reg[j + 1] >> 7);
            reg[15] = (uint8_t)(reg[15] << 1 | c);
        }
        add_blocks(K_PLAIN, pt, g.len / 8);
        break;
    default:
        break;
    }
}

/* ---- the test cases ---------------------------------------------------------
 */

static const char *mode_name(unsigned mode)
{
    static const char *const n[] = {"",     "ecb",  "cbc", "cfb128",
                                    "cfb8", "cfb1", "ofb", "ctr"};
    return n[mode];
}

static const char *pad_name(unsigned p)
{
    return p == AESIR_PAD_NONE ? "" : p == AESIR_PAD_PKCS7 ? " pkcs7" : " zero";
}

/* Row names live as long as the run. */
static const char *row_name(const char *fmt, const char *a, const char *b,
                            const char *c)
{
    static char names[256][48];
    static size_t n;
    char tmp[48];
    snprintf(tmp, sizeof(tmp), fmt, a, b, c);
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], tmp) == 0)
            return names[i];
    if (n == 256)
        abort();
    memcpy(names[n], tmp, sizeof(tmp));
    return names[n++];
}

static void test_init(void)
{
    static const unsigned dirs[3] = {AESIR_ENCRYPT, AESIR_DECRYPT,
                                     AESIR_ENCRYPT | AESIR_DECRYPT};
    static const char *const names[3] = {"aes_init_ex enc", "aes_init_ex dec",
                                         "aes_init_ex enc+dec"};
    reset_call_secrets();
    for (int i = 0; i < 3; i++) {
        g.dirs = dirs[i];
        scan_call(names[i], call_init);
        CHECK_EQ(g.err, AESIR_OK);
    }
    aesir_aes_clear(&g.other);
}

static void test_raw_blocks(void)
{
    static const size_t nbs[] = {1, 7, 37};
    for (size_t i = 0; i < sizeof(nbs) / sizeof(nbs[0]); i++) {
        size_t nb = nbs[i];
        g.len = 16 * nb;
        g.mode = AESIR_MODE_ECB;
        g.option = AESIR_PAD_NONE;
        fill(g.in, g.len);

        g.dir = AESIR_ENCRYPT;
        g.out_len = g.len;
        CHECK(aesir_aes_encrypt_blocks(&g.ref, g.want, g.in, nb) == AESIR_OK);
        register_call_secrets();
        scan_call("aes_encrypt_blocks", call_encrypt_blocks);
        CHECK(g.err == AESIR_OK && memcmp(g.out, g.want, g.len) == 0);

        g.dir = AESIR_DECRYPT;
        CHECK(aesir_aes_decrypt_blocks(&g.ref, g.want, g.in, nb) == AESIR_OK);
        register_call_secrets();
        scan_call("aes_decrypt_blocks", call_decrypt_blocks);
        CHECK(g.err == AESIR_OK && memcmp(g.out, g.want, g.len) == 0);
    }
}

/* g.in for a decryption: the ref encryption of a random plaintext of
 * plen bytes (valid padding), g.len its length. */
static void make_ciphertext(size_t plen)
{
    static uint8_t p[MAX_MSG + 32];
    size_t n = 0;
    unsigned dir = g.dir;
    fill(p, plen);
    memcpy(g.in, p, plen);
    g.len = plen;
    g.dir = AESIR_ENCRYPT;
    CHECK(oneshot(&g.ref, g.want, &n) == AESIR_OK);
    memcpy(g.in, g.want, n);
    g.len = n;
    g.dir = dir;
}

/* One one-shot call with the current g.mode/dir/option on a fresh
 * message of len bytes (bits for CFB1; for decryption with padding the
 * plaintext's length). */
static void oneshot_case(const char *row, size_t len)
{
    size_t n = 0;
    int padded = (g.mode == AESIR_MODE_ECB || g.mode == AESIR_MODE_CBC) &&
                 g.option != AESIR_PAD_NONE;

    fill(g.iv, 16);
    if (g.dir == AESIR_DECRYPT && padded) {
        make_ciphertext(len);
    } else {
        g.len = len;
        fill(g.in, g.mode == AESIR_MODE_CFB1 ? (len + 7) / 8 : len);
    }
    CHECK(oneshot(&g.ref, g.want, &n) == AESIR_OK);
    g.out_len = n;
    register_call_secrets();
    memset(g.out, 0, sizeof(g.out));
    scan_call(row, call_oneshot);
    CHECK(g.err == AESIR_OK && g.out_len == n && memcmp(g.out, g.want, n) == 0);
}

static void test_oneshot(void)
{
    static const size_t whole[] = {16, 64, 592};
    static const size_t any[] = {5, 16, 100, 531, 592};
    static const size_t bits_lens[] = {1, 13, 67, 200};
    static const size_t bytes8[] = {1, 17, 40};

    for (unsigned mode = AESIR_MODE_ECB; mode <= AESIR_MODE_CBC; mode++)
        for (unsigned dir = AESIR_ENCRYPT; dir <= AESIR_DECRYPT; dir++)
            for (unsigned pad = AESIR_PAD_NONE; pad <= AESIR_PAD_ZERO; pad++) {
                const char *row =
                    row_name("%s_%s%s", mode_name(mode),
                             dir == AESIR_ENCRYPT ? "encrypt" : "decrypt",
                             pad_name(pad));
                g.mode = mode, g.dir = dir, g.option = pad;
                if (pad == AESIR_PAD_NONE) {
                    for (size_t i = 0; i < 3; i++)
                        oneshot_case(row, whole[i]);
                } else if (pad == AESIR_PAD_ZERO && dir == AESIR_DECRYPT) {
                    for (size_t i = 0; i < 3; i++)
                        oneshot_case(row, whole[i]); /* whole blocks */
                } else {
                    for (size_t i = 0; i < 5; i++)
                        oneshot_case(row, any[i]);
                }
            }
    for (unsigned dir = AESIR_ENCRYPT; dir <= AESIR_DECRYPT; dir++) {
        const char *d = dir == AESIR_ENCRYPT ? "encrypt" : "decrypt";
        g.dir = dir, g.option = 0;
        g.mode = AESIR_MODE_CFB128;
        for (size_t i = 0; i < 5; i++)
            oneshot_case(row_name("cfb128_%s", d, "", ""), any[i]);
        g.mode = AESIR_MODE_CFB8;
        for (size_t i = 0; i < 3; i++)
            oneshot_case(row_name("cfb8_%s", d, "", ""), bytes8[i]);
        g.mode = AESIR_MODE_CFB1;
        for (size_t i = 0; i < 4; i++)
            oneshot_case(row_name("cfb1_%s", d, "", ""), bits_lens[i]);
    }
    g.dir = AESIR_ENCRYPT;
    g.mode = AESIR_MODE_OFB, g.option = 0;
    for (size_t i = 0; i < 5; i++)
        oneshot_case("ofb_crypt", any[i]);
    g.mode = AESIR_MODE_CTR;
    for (size_t i = 0; i < 5; i++) {
        g.option = i % 2 ? 32 : 128;
        oneshot_case("ctr_crypt", any[i]);
    }
}

/* The incremental API on a message of len bytes cut at the given split
 * lengths (the rest in a last update), each call scanned. */
static void incremental_case(const char *row, size_t len, const size_t *split,
                             size_t nsplit)
{
    size_t n = 0, off = 0;
    int padded = (g.mode == AESIR_MODE_ECB || g.mode == AESIR_MODE_CBC) &&
                 g.option != AESIR_PAD_NONE;

    fill(g.iv, 16);
    if (g.dir == AESIR_DECRYPT && padded) {
        make_ciphertext(len);
    } else {
        g.len = len;
        fill(g.in, len);
    }
    if (g.mode == AESIR_MODE_CFB1)
        g.len = 8 * len; /* whole bytes: the one-shot in bits */
    CHECK(oneshot(&g.ref, g.want, &n) == AESIR_OK);
    g.out_len = n;
    register_call_secrets();
    if (g.mode == AESIR_MODE_CFB1)
        g.len = len;
    memset(g.out, 0, sizeof(g.out));
    g.out_pos = 0;

    scan_call(row, call_cipher_init);
    CHECK_EQ(g.err, AESIR_OK);
    for (size_t i = 0; i <= nsplit && off <= g.len; i++) {
        g.upd_off = off;
        g.upd_len =
            i < nsplit && split[i] < g.len - off ? split[i] : g.len - off;
        scan_call(row, call_cipher_update);
        CHECK_EQ(g.err, AESIR_OK);
        off += g.upd_len;
        if (off == g.len)
            break;
    }
    scan_call(row, call_cipher_final);
    CHECK(g.err == AESIR_OK && g.out_pos == n && memcmp(g.out, g.want, n) == 0);
}

static void test_incremental(void)
{
    static const size_t split1[] = {1, 15, 17, 33, 2};
    static const size_t split2[] = {7, 250, 16, 100};

    for (unsigned mode = AESIR_MODE_ECB; mode <= AESIR_MODE_CTR; mode++)
        for (unsigned dir = AESIR_ENCRYPT; dir <= AESIR_DECRYPT; dir++) {
            const char *row =
                row_name("cipher %s %s", mode_name(mode),
                         dir == AESIR_ENCRYPT ? "enc" : "dec", "");
            unsigned opts[2];
            g.mode = mode, g.dir = dir;
            if (mode == AESIR_MODE_ECB || mode == AESIR_MODE_CBC) {
                opts[0] = AESIR_PAD_PKCS7, opts[1] = AESIR_PAD_NONE;
            } else if (mode == AESIR_MODE_CTR) {
                opts[0] = 128, opts[1] = 32;
            } else {
                opts[0] = opts[1] = 0;
            }
            g.option = opts[0];
            incremental_case(row, mode == AESIR_MODE_CFB1 ? 21 : 100, split1,
                             5);
            g.option = opts[1];
            incremental_case(
                row,
                mode == AESIR_MODE_CFB1 || mode == AESIR_MODE_CFB8 ? 40 : 592,
                split2, 4);
        }
}

/* Multi-buffer CBC: njobs jobs of the lengths given on g.key. */
static void many_case(int mac, const size_t *lens, size_t njobs)
{
    static uint8_t ins[MB_JOBS][MAX_MSG], outs[MB_JOBS][MAX_MSG];
    static uint8_t ct[MAX_MSG], ivs[MB_JOBS][16];
    reset_call_secrets();
    g.njobs = njobs;
    for (size_t j = 0; j < njobs; j++) {
        aesir_cbc_job *jb = &g.jobs[j];
        size_t n = 0;
        fill(ins[j], lens[j]);
        fill(ivs[j], 16);
        jb->key = &g.key;
        jb->in = ins[j];
        jb->out = mac ? NULL : outs[j];
        jb->len = lens[j];
        memcpy(jb->iv, ivs[j], 16);
        if (lens[j] == 0)
            continue;
        CHECK(aesir_cbc_encrypt(&g.ref, ivs[j], AESIR_PAD_NONE, ct, sizeof(ct),
                                &n, ins[j], lens[j]) == AESIR_OK);
        register_block_secrets(AESIR_MODE_CBC, ivs[j], ins[j], ct, lens[j] / 16,
                               mac);
    }
    scan_call(mac ? "cbc_mac_many" : "cbc_encrypt_many",
              mac ? call_mac_many : call_cbc_many);
    CHECK_EQ(g.err, AESIR_OK);
}

static void test_many(void)
{
    static const size_t three[] = {48, 0, 160};
    static const size_t many[MB_JOBS] = {16,  32, 48,  64,  80,  96,
                                         112, 0,  128, 144, 160, 176,
                                         192, 16, 592, 64,  256};
    /* one job: the engines' single-message path (CCM's AAD MAC takes it;
     * clang once left AES-256's K14 in the red zone there) */
    static const size_t one[] = {160};
    for (int mac = 0; mac < 2; mac++) {
        many_case(mac, one, 1);
        many_case(mac, three, 3);
        many_case(mac, many, MB_JOBS);
    }
}

/* ---- CMAC, AES-SIV, KW/KWP, XAES-256-GCM -------------------------------
 * On the engine's key (g.keybytes; SIV with it as both halves, XAES for
 * 32-byte keys only): the key's secrets as above, and per call L, K1, K2
 * (CMAC's subkeys, kind key), the message (plaintext), CMAC's chaining
 * values and the last block's cipher input (mac-chain), SIV's CTR
 * keystream, XAES's derived key Kx (key) and its hash key H (ghash-key).
 */

static struct {
    _Alignas(64) aesir_cmac_key cmac;
    _Alignas(64) aesir_siv_key siv;
    _Alignas(64) aesir_xaes_key xaes;
    aesir_cmac ctx;
    aesir_cmac_job jobs[3];
    aesir_siv_ad ad;
    uint8_t sivkey[64], nonce[24];
    size_t wl;
    int kwp;
} m;

static void call_cmac_init(void)
{
    g.err = aesir_cmac_init_ex(&m.cmac, g.keybytes, g.key_len, g.engine);
}

static void call_cmac_tag(void)
{
    g.err = aesir_cmac_tag(&m.cmac, g.in, g.len, g.tag, 16);
}

static void call_cmac_start(void)
{
    g.err = aesir_cmac_start(&m.ctx, &m.cmac);
}

static void call_cmac_update(void)
{
    g.err = aesir_cmac_update(&m.ctx, g.in + g.upd_off, g.upd_len);
}

static void call_cmac_finish(void)
{
    g.err = aesir_cmac_finish(&m.ctx, g.tag, 16);
}

static void call_cmac_many(void)
{
    g.err = aesir_cmac_many(m.jobs, 3);
}

static void call_siv_init(void)
{
    g.err = aesir_siv_init_ex(&m.siv, m.sivkey, 2 * g.key_len, g.engine);
}

static void call_siv_seal(void)
{
    g.err = aesir_siv_seal(&m.siv, &m.ad, 1, m.nonce, 16, g.out, sizeof(g.out),
                           &g.out_len, g.in, g.len);
}

static void call_siv_open(void)
{
    g.err = aesir_siv_open(&m.siv, &m.ad, 1, m.nonce, 16, g.out, sizeof(g.out),
                           &g.out_len, g.want, g.len + 16);
}

static void call_kw_wrap(void)
{
    g.err = (m.kwp ? aesir_kwp_wrap : aesir_kw_wrap)(
        &g.key, 0, g.out, sizeof(g.out), &g.out_len, g.in, g.len);
}

static void call_kw_unwrap(void)
{
    g.err = (m.kwp ? aesir_kwp_unwrap : aesir_kw_unwrap)(
        &g.key, 0, g.out, sizeof(g.out), &g.out_len, g.want, m.wl);
}

static void call_xaes_init(void)
{
    g.err = aesir_xaes_init_ex(&m.xaes, g.keybytes, g.engine, NULL);
}

static void call_xaes_seal(void)
{
    g.err = aesir_xaes_seal(&m.xaes, m.nonce, g.aad, 20, g.out, sizeof(g.out),
                            &g.out_len, g.in, g.len);
}

static void call_xaes_open(void)
{
    g.err = aesir_xaes_open(&m.xaes, m.nonce, g.aad, 20, g.out, sizeof(g.out),
                            &g.out_len, g.want, g.len + 16);
}

/* L, K1 = dbl(L), K2 = dbl(K1) of the key, as key material. */
static void dbl16(uint8_t o[16], const uint8_t in[16])
{
    int c = in[0] >> 7;
    for (int i = 0; i < 15; i++)
        o[i] = (uint8_t)(in[i] << 1 | in[i + 1] >> 7);
    o[15] = (uint8_t)(in[15] << 1 ^ (c ? 0x87 : 0));
}

static void register_subkeys(void)
{
    uint8_t l[16] = {0}, k1[16], k2[16];
    ref_block(l, l);
    dbl16(k1, l);
    dbl16(k2, k1);
    add_secret(K_KEY, l, 16);
    add_secret(K_KEY, k1, 16);
    add_secret(K_KEY, k2, 16);
}

/* CMAC of g.in (g.len bytes): the chain's values and the last input. */
static void register_cmac_secrets(const uint8_t tag[16])
{
    static uint8_t ct[MAX_MSG];
    uint8_t zero[16] = {0}, x[16];
    size_t nb = g.len == 0 ? 0 : (g.len - 1) / 16, n = 0;

    register_subkeys();
    add_blocks(K_PLAIN, g.in, g.len);
    if (nb != 0) {
        CHECK(aesir_cbc_encrypt(&g.ref, zero, AESIR_PAD_NONE, ct, sizeof(ct),
                                &n, g.in, 16 * nb) == AESIR_OK);
        add_blocks(K_MACCHAIN, ct, 16 * nb);
    }
    CHECK(aesir_aes_decrypt_block(&g.ref, x, tag) == AESIR_OK);
    add_secret(K_MACCHAIN, x, 16);
}

static void test_mac_modes(void)
{
    static const size_t split[] = {7, 16, 33, 100, 1};
    uint8_t tag[16];
    size_t n = 0;

    /* CMAC */
    reset_call_secrets();
    register_subkeys();
    scan_call("cmac_init_ex", call_cmac_init);
    CHECK_EQ(g.err, AESIR_OK);
    for (size_t c = 0; c < 3; c++) {
        static const size_t lens[3] = {0, 64, 531};
        g.len = lens[c];
        fill(g.in, g.len);
        CHECK(aesir_cmac_tag(&m.cmac, g.in, g.len, tag, 16) == AESIR_OK);
        reset_call_secrets();
        register_cmac_secrets(tag);
        scan_call("cmac_tag", call_cmac_tag);
        CHECK(g.err == AESIR_OK && memcmp(g.tag, tag, 16) == 0);
        scan_call("cmac incremental", call_cmac_start);
        for (size_t off = 0, i = 0; off < g.len; off += g.upd_len, i++) {
            g.upd_off = off;
            g.upd_len = split[i % 5] < g.len - off ? split[i % 5] : g.len - off;
            scan_call("cmac incremental", call_cmac_update);
        }
        scan_call("cmac incremental", call_cmac_finish);
        CHECK(g.err == AESIR_OK && memcmp(g.tag, tag, 16) == 0);
    }
    for (size_t j = 0; j < 3; j++) {
        m.jobs[j].key = &m.cmac;
        m.jobs[j].in = g.in;
        m.jobs[j].len = g.len - 16 * j;
    }
    reset_call_secrets();
    register_subkeys();
    for (size_t j = 0; j < 3; j++) { /* the chains of the three jobs */
        size_t len = g.len;
        CHECK(aesir_cmac_tag(&m.cmac, g.in, len - 16 * j, tag, 16) == AESIR_OK);
        g.len = len - 16 * j;
        register_cmac_secrets(tag);
        g.len = len;
    }
    scan_call("cmac_many", call_cmac_many);
    CHECK_EQ(g.err, AESIR_OK);
    aesir_cmac_clear(&m.cmac);

    /* AES-SIV with the key as both halves, one AD string, a nonce */
    memcpy(m.sivkey, g.keybytes, g.key_len);
    memcpy(m.sivkey + g.key_len, g.keybytes, g.key_len);
    fill(m.nonce, 24);
    fill(g.aad, 20);
    m.ad.p = g.aad;
    m.ad.len = 20;
    reset_call_secrets();
    register_subkeys();
    scan_call("siv_init_ex", call_siv_init);
    CHECK_EQ(g.err, AESIR_OK);
    g.len = 300;
    fill(g.in, g.len);
    CHECK(aesir_siv_seal(&m.siv, &m.ad, 1, m.nonce, 16, g.want, sizeof(g.want),
                         &n, g.in, g.len) == AESIR_OK);
    reset_call_secrets();
    register_subkeys();
    add_blocks(K_PLAIN, g.in, g.len);
    {
        uint8_t q[16], ks[16];
        memcpy(q, g.want, 16);
        q[8] &= 0x7f;
        q[12] &= 0x7f;
        for (size_t i = 0; i < (g.len + 15) / 16; i++) {
            ref_block(ks, q);
            add_secret(K_KEYSTREAM, ks, 16);
            for (int b = 15; b >= 0 && ++q[b] == 0; b--)
                ;
        }
    }
    scan_call("siv_seal", call_siv_seal);
    CHECK(g.err == AESIR_OK && memcmp(g.out, g.want, g.len + 16) == 0);
    scan_call("siv_open", call_siv_open);
    CHECK(g.err == AESIR_OK && memcmp(g.out, g.in, g.len) == 0);
    g.want[20] ^= 1;
    scan_call("siv_open bad", call_siv_open);
    CHECK(g.err == AESIR_E_AUTH && all_zero(g.out, g.len));
    aesir_siv_clear(&m.siv);

    /* KW and KWP on the engine's key */
    for (m.kwp = 0; m.kwp < 2; m.kwp++) {
        g.len = m.kwp ? 37 : 64;
        fill(g.in, g.len);
        CHECK((m.kwp ? aesir_kwp_wrap
                     : aesir_kw_wrap)(&g.ref, 0, g.want, sizeof(g.want), &m.wl,
                                      g.in, g.len) == AESIR_OK);
        reset_call_secrets();
        add_blocks(K_PLAIN, g.in, g.len);
        scan_call(m.kwp ? "kwp_wrap" : "kw_wrap", call_kw_wrap);
        CHECK(g.err == AESIR_OK && memcmp(g.out, g.want, m.wl) == 0);
        scan_call(m.kwp ? "kwp_unwrap" : "kw_unwrap", call_kw_unwrap);
        CHECK(g.err == AESIR_OK && memcmp(g.out, g.in, g.len) == 0);
        g.want[m.wl - 1] ^= 1;
        scan_call(m.kwp ? "kwp_unwrap bad" : "kw_unwrap bad", call_kw_unwrap);
        CHECK(g.err == AESIR_E_AUTH);
    }

    /* XAES-256-GCM */
    if (g.key_len != 32)
        return;
    reset_call_secrets();
    register_subkeys();
    scan_call("xaes_init_ex", call_xaes_init);
    CHECK_EQ(g.err, AESIR_OK);
    g.len = 200;
    fill(g.in, g.len);
    CHECK(aesir_xaes_seal(&m.xaes, m.nonce, g.aad, 20, g.want, sizeof(g.want),
                          &n, g.in, g.len) == AESIR_OK);
    reset_call_secrets();
    register_subkeys();
    add_blocks(K_PLAIN, g.in, g.len);
    {
        uint8_t l[16] = {0}, k1[16], mm[32], kx[32], h[16] = {0};
        aesir_aes tmp;
        ref_block(l, l);
        dbl16(k1, l);
        mm[0] = 0, mm[1] = 1, mm[2] = 'X', mm[3] = 0;
        memcpy(mm + 4, m.nonce, 12);
        memcpy(mm + 16, mm, 16);
        mm[17] = 2;
        for (int i = 0; i < 16; i++)
            mm[i] ^= k1[i], mm[16 + i] ^= k1[i];
        ref_block(kx, mm);
        ref_block(kx + 16, mm + 16);
        add_secret(K_KEY, kx, 32);
        CHECK(aesir_aes_init_ex(&tmp, kx, 32, "ref", AESIR_ENCRYPT) ==
              AESIR_OK);
        CHECK(aesir_aes_encrypt_block(&tmp, h, h) == AESIR_OK);
        add_secret(K_HKEY, h, 16);
        aesir_aes_clear(&tmp);
    }
    scan_call("xaes_seal", call_xaes_seal);
    CHECK(g.err == AESIR_OK && memcmp(g.out, g.want, g.len + 16) == 0);
    scan_call("xaes_open", call_xaes_open);
    CHECK(g.err == AESIR_OK && memcmp(g.out, g.in, g.len) == 0);
    g.want[g.len] ^= 1;
    scan_call("xaes_open bad", call_xaes_open);
    CHECK(g.err == AESIR_E_AUTH && all_zero(g.out, g.len));
    aesir_xaes_clear(&m.xaes);
}

/* Random but reproducible: each engine and key size has its own seed
 * (so that what an engine shows does not depend on which engines ran
 * before it), AESIR_TEST_SEED varies them all. */
static uint64_t seed_base;

static void seed_for(const char *engine, size_t key_len)
{
    uint64_t h = 0xcbf29ce484222325u ^ seed_base;
    for (const char *c = engine; *c != '\0'; c++)
        h = (h ^ (unsigned char)*c) * 0x100000001b3u;
    rng_state = h ^ key_len;
}

/* ---- XTS ------------------------------------------------------------- */

static void call_xts_init(void)
{
    g.err = aesir_xts_init_ex(&g.xtmp, g.xkeybytes, 2 * g.key_len, g.engine);
}

static void call_xts_encrypt(void)
{
    g.err = aesir_xts_encrypt(&g.xkey, g.xtweak, g.out, g.in, g.len);
}

static void call_xts_decrypt(void)
{
    g.err = aesir_xts_decrypt(&g.xkey, g.xtweak, g.out, g.in, g.len);
}

static void call_xts_encrypt_sectors(void)
{
    g.err = aesir_xts_encrypt_sectors(&g.xkey, g.sector, g.len / 2, g.out, g.in,
                                      g.len);
}

static void call_xts_decrypt_sector(void)
{
    g.err = aesir_xts_decrypt_sector(&g.xkey, g.sector, g.out, g.in, g.len);
}

/* Both keys' secrets: the whole XTS key, the FIPS-197 schedules of Key1
 * (g.ref) and Key2 (g.xref2), the engine's schedules in the key object
 * (white box: xts.h). */
static void register_xts_key_secrets(void)
{
    const struct xts_key_state *k =
        (const struct xts_key_state *)(const void *)g.xkey.opaque;
    const struct aesir_key_state *r2 =
        (const struct aesir_key_state *)(const void *)g.xref2.opaque;
    const struct aesir_key_state *t =
        (const struct aesir_key_state *)(const void *)k->tweak.opaque;

    register_key_secrets(&k->data);
    add_secret(K_KEY, g.xkeybytes, 2 * g.key_len);
    add_secret(K_KEY, g.xkeybytes + g.key_len, g.key_len);
    add_blocks(K_RK, r2->rk_enc, 16 * (r2->nr + 1));
    for (size_t i = 0; i < AESIR_RK_BYTES; i += 16)
        add_secret_in(K_SCHED, t->rk_enc + i, 16, AESIR_RK_BYTES - i);
    fixed_pieces = npieces;
    fixed_secrets = nsecrets;
}

/* One unit's secrets under tweak value tw: every T_j, P_j, P_j ^ T_j and
 * C_j ^ T_j of its whole blocks (pt the plaintext, ct the ciphertext of
 * len bytes; the stolen pair's blocks as they stand). */
static void register_xts_unit(const uint8_t tw[16], const uint8_t *pt,
                              const uint8_t *ct, size_t len)
{
    uint8_t t[16], x[16];
    ref_block_with(&g.xref2, t, tw);
    for (size_t j = 0; j <= len / 16; j++) {
        add_secret(K_TWEAK, t, 16);
        if (16 * j + 16 <= len) {
            xor16(x, pt + 16 * j, t);
            add_secret(K_XTSXOR, x, 16);
            xor16(x, ct + 16 * j, t);
            add_secret(K_XTSXOR, x, 16);
        }
        /* t * x */
        {
            int c = t[15] >> 7;
            for (int i = 15; i > 0; i--)
                t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
            t[0] = (uint8_t)(t[0] << 1 ^ (c ? 0x87 : 0));
        }
    }
    add_blocks(K_PLAIN, pt, len);
}

/* One length: encrypt and decrypt with a tweak, then two sectors. */
static void xts_case(size_t len)
{
    static uint8_t pt[MAX_MSG], ct[MAX_MSG];
    _Alignas(64) static aesir_xts_key ref;
    uint8_t tw[16] = {0};

    fill(pt, len);
    fill(g.xtweak, 16);
    g.sector = rng();
    CHECK(aesir_xts_init_ex(&ref, g.xkeybytes, 2 * g.key_len, "ref") ==
          AESIR_OK);
    CHECK(aesir_xts_encrypt(&ref, g.xtweak, ct, pt, len) == AESIR_OK);
    reset_call_secrets();
    register_xts_unit(g.xtweak, pt, ct, len);
    g.len = len;
    memcpy(g.in, pt, len);
    scan_call("xts_encrypt", call_xts_encrypt);
    CHECK(g.err == AESIR_OK && memcmp(g.out, ct, len) == 0);
    memcpy(g.in, ct, len);
    scan_call("xts_decrypt", call_xts_decrypt);
    CHECK(g.err == AESIR_OK && memcmp(g.out, pt, len) == 0);

    /* sector g.sector, the same len, decrypted */
    for (int i = 0; i < 8; i++)
        tw[i] = (uint8_t)(g.sector >> (8 * i));
    CHECK(aesir_xts_encrypt(&ref, tw, ct, pt, len) == AESIR_OK);
    reset_call_secrets();
    register_xts_unit(tw, pt, ct, len);
    memcpy(g.in, ct, len);
    scan_call("xts_decrypt_sector", call_xts_decrypt_sector);
    CHECK(g.err == AESIR_OK && memcmp(g.out, pt, len) == 0);

    /* two units of len / 2 from sector g.sector (len even, >= 32) */
    if (len % 2 == 0 && len >= 32) {
        reset_call_secrets();
        for (int u = 0; u < 2; u++) {
            uint64_t s = g.sector + (uint64_t)u;
            memset(tw, 0, 16);
            for (int i = 0; i < 8; i++)
                tw[i] = (uint8_t)(s >> (8 * i));
            tw[8] = s < g.sector; /* the carry into the upper half */
            CHECK(aesir_xts_encrypt(&ref, tw, ct + u * len / 2,
                                    pt + u * len / 2, len / 2) == AESIR_OK);
            register_xts_unit(tw, pt + u * len / 2, ct + u * len / 2, len / 2);
        }
        memcpy(g.in, pt, len);
        scan_call("xts_encrypt_sectors", call_xts_encrypt_sectors);
        CHECK(g.err == AESIR_OK && memcmp(g.out, ct, len) == 0);
    }
    aesir_xts_clear(&ref);
}

/* XTS on g.engine with Key1, Key2 of h bytes each. */
static void test_xts_key(size_t h)
{
    seed_for(g.engine, 2 * h + 1);
    g.key_len = h;
    fill(g.xkeybytes, 2 * h);
    memcpy(g.keybytes, g.xkeybytes, h); /* Key1, for register_key_secrets */
    CHECK(aesir_aes_init_ex(&g.ref, g.xkeybytes, h, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    CHECK(aesir_aes_init_ex(&g.xref2, g.xkeybytes + h, h, "ref",
                            AESIR_ENCRYPT) == AESIR_OK);
    CHECK(aesir_xts_init_ex(&g.xkey, g.xkeybytes, 2 * h, g.engine) == AESIR_OK);
    register_xts_key_secrets();
    reset_call_secrets();
    scan_call("xts_init_ex", call_xts_init);
    CHECK_EQ(g.err, AESIR_OK);
    aesir_xts_clear(&g.xtmp);
    xts_case(16);
    xts_case(100);
    xts_case(531);
    xts_case(MAX_MSG);
    aesir_xts_clear(&g.xkey);
    aesir_aes_clear(&g.xref2);
    aesir_aes_clear(&g.ref);
}

/* ---- GCM and GMAC ---------------------------------------------------- */

static void call_gcm_init(void)
{
    g.err =
        aesir_gcm_init_ex(&g.gtmp, g.keybytes, g.key_len, g.engine, g.ghash, 0);
}

static void call_gcm_seal(void)
{
    g.err = aesir_gcm_seal(&g.gkey, g.giv, g.iv_len, g.aad, g.aad_len, g.out,
                           sizeof(g.out), &g.out_len, g.in, g.len);
}

static void call_gcm_open(void)
{
    g.err = aesir_gcm_open(&g.gkey, g.giv, g.iv_len, g.aad, g.aad_len, g.out,
                           sizeof(g.out), &g.out_len, g.in, g.len + 16);
}

static void call_gcm_start(void)
{
    g.err = aesir_gcm_start(&g.gctx, &g.gkey, g.giv, g.iv_len);
}

static void call_gcm_aad(void)
{
    g.err = aesir_gcm_aad(&g.gctx, g.aad + g.upd_off, g.upd_len);
}

static void call_gcm_encrypt_update(void)
{
    g.err = aesir_gcm_encrypt_update(&g.gctx, g.out + g.upd_off,
                                     g.in + g.upd_off, g.upd_len);
}

static void call_gcm_decrypt_update(void)
{
    g.err = aesir_gcm_decrypt_update_unverified(&g.gctx, g.out + g.upd_off,
                                                g.in + g.upd_off, g.upd_len);
}

static void call_gcm_finish(void)
{
    g.err = aesir_gcm_finish(&g.gctx, g.tag, 16);
}

static void call_gcm_verify(void)
{
    g.err = aesir_gcm_verify(&g.gctx, g.tag, 16);
}

static void call_gmac(void)
{
    g.err = aesir_gmac(&g.gkey, g.giv, g.iv_len, g.aad, g.aad_len, g.tag, 16);
}

static void call_gmac_verify(void)
{
    g.err = aesir_gmac_verify(&g.gkey, g.giv, g.iv_len, g.aad, g.aad_len, g.tag,
                              16);
}

/* The GCM key's secrets: the AES key's (register_key_secrets), H, and
 * every 16-byte chunk of the GHASH engine's key area. */
static void register_gcm_key_secrets(void)
{
    const struct gcm_key_state *k =
        (const struct gcm_key_state *)(const void *)g.gkey.opaque;
    uint8_t h[16] = {0};

    register_key_secrets(&k->aes);
    ref_block(h, h);
    add_secret(K_HKEY, h, 16);
    for (size_t i = 0; i < AESIR_GHASH_KEY_BYTES; i += 16)
        add_secret_in(K_HKEY, k->hk + i, 16, AESIR_GHASH_KEY_BYTES - i);
    fixed_pieces = npieces;
    fixed_secrets = nsecrets;
}

/* A message's secrets, for g.giv, g.in (the plaintext) of g.len bytes
 * and the full tag t: J0 (other IV lengths), E_K(J0), S, the keystream
 * and the plaintext. J0 and E_K(J0) come from a message started on the
 * ref x ghash-ref key (white-box: struct gcm_state, gcm.h). */
static void register_gcm_secrets(const uint8_t *pt, size_t len,
                                 const uint8_t t[16])
{
    aesir_gcm c;
    const struct gcm_state *st =
        (const struct gcm_state *)(const void *)c.opaque;
    uint8_t ctr[16], ks[16], sv[16];

    reset_call_secrets();
    CHECK(aesir_gcm_start(&c, &g.gref, g.giv, g.iv_len) == AESIR_OK);
    memcpy(ctr, st->ctr, 16);
    add_secret(K_EKJ0, st->ekj0, 16);
    if (g.iv_len != 12) {
        uint8_t j0[16];
        memcpy(j0, ctr, 16);
        aesir_store_be32(j0 + 12, aesir_load_be32(j0 + 12) - 1);
        add_secret(K_J0, j0, 16);
    }
    xor16(sv, t, st->ekj0);
    add_secret(K_GHASH, sv, 16);
    for (size_t i = 0; i < (len + 15) / 16; i++) {
        ref_block(ks, ctr);
        add_secret(K_KEYSTREAM, ks, 16);
        aesir_store_be32(ctr + 12, aesir_load_be32(ctr + 12) + 1);
    }
    add_blocks(K_PLAIN, pt, len);
    aesir_gcm_abort(&c);
}

/* One message of len bytes with aad_len bytes of AAD and an IV of iv_len
 * bytes: seal, open (good and bad tag), incremental both ways (each call
 * scanned), GMAC over the AAD. */
static void gcm_case(size_t len, size_t aad_len, size_t iv_len)
{
    static const size_t split[] = {7, 16, 33, 100, 1};
    static uint8_t pt[LONG_MSG], sealed[LONG_MSG + 16];
    size_t n = 0, off;
    int pass;

    CHECK(len <= LONG_MSG);
    g.len = len, g.aad_len = aad_len, g.iv_len = iv_len;
    fill(g.giv, iv_len);
    fill(g.aad, aad_len);
    fill(pt, len);
    CHECK(aesir_gcm_seal(&g.gref, g.giv, iv_len, g.aad, aad_len, sealed,
                         sizeof(sealed), &n, pt, len) == AESIR_OK);
    register_gcm_secrets(pt, len, sealed + len);

    memcpy(g.in, pt, len);
    memset(g.out, 0, sizeof(g.out));
    scan_call("gcm_seal", call_gcm_seal);
    CHECK(g.err == AESIR_OK && g.out_len == len + 16 &&
          memcmp(g.out, sealed, len + 16) == 0);

    memcpy(g.in, sealed, len + 16);
    scan_call("gcm_open", call_gcm_open);
    CHECK(g.err == AESIR_OK && g.out_len == len && memcmp(g.out, pt, len) == 0);
    g.in[len + 5] ^= 1;
    scan_call("gcm_open bad tag", call_gcm_open);
    CHECK(g.err == AESIR_E_AUTH && g.out_len == 0 && all_zero(g.out, len));
    if (len > MAX_MSG)
        return; /* the one-shot calls only: the pieces below would take
                   hundreds of scans */

    /* incremental: encrypt, then decrypt (good and bad tag) */
    for (pass = 0; pass < 3; pass++) {
        const char *row = pass == 0   ? "gcm incremental enc"
                          : pass == 1 ? "gcm incremental dec"
                                      : "gcm incremental dec bad";
        size_t i = 0;
        memcpy(g.in, pass == 0 ? pt : sealed, len);
        memset(g.out, 0, sizeof(g.out));
        scan_call(row, call_gcm_start);
        CHECK_EQ(g.err, AESIR_OK);
        for (off = 0; off < aad_len; off += g.upd_len) {
            g.upd_off = off;
            g.upd_len =
                split[i % 5] < aad_len - off ? split[i % 5] : aad_len - off;
            i++;
            scan_call(row, call_gcm_aad);
            CHECK_EQ(g.err, AESIR_OK);
        }
        for (off = 0; off < len; off += g.upd_len) {
            g.upd_off = off;
            g.upd_len = split[i % 5] < len - off ? split[i % 5] : len - off;
            i++;
            scan_call(row, pass == 0 ? call_gcm_encrypt_update
                                     : call_gcm_decrypt_update);
            CHECK_EQ(g.err, AESIR_OK);
        }
        if (pass == 0) {
            scan_call(row, call_gcm_finish);
            CHECK(g.err == AESIR_OK && memcmp(g.tag, sealed + len, 16) == 0 &&
                  memcmp(g.out, sealed, len) == 0);
        } else {
            memcpy(g.tag, sealed + len, 16);
            g.tag[0] ^= (uint8_t)(pass == 2);
            scan_call(row, call_gcm_verify);
            CHECK(g.err == (pass == 1 ? AESIR_OK : AESIR_E_AUTH) &&
                  memcmp(g.out, pt, len) == 0);
        }
    }

    /* GMAC over the AAD: its own S and E_K(J0), no keystream */
    CHECK(aesir_gmac(&g.gref, g.giv, iv_len, g.aad, aad_len, sealed, 16) ==
          AESIR_OK);
    register_gcm_secrets(pt, 0, sealed);
    scan_call("gmac", call_gmac);
    CHECK(g.err == AESIR_OK && memcmp(g.tag, sealed, 16) == 0);
    scan_call("gmac_verify", call_gmac_verify);
    CHECK_EQ(g.err, AESIR_OK);
    g.tag[15] ^= 0x40;
    scan_call("gmac_verify bad", call_gmac_verify);
    CHECK_EQ(g.err, AESIR_E_AUTH);
}

/* ---- GCM-SIV --------------------------------------------------------- */

/*
 * AES-GCM-SIV on the pair (g.engine x g.ghash), white box: the per-nonce
 * secrets gcm_siv.c makes on its stack are computed here (RFC 8452
 * section 4) and looked for as "ghash-key" (the message-authentication
 * key and its POLYVAL key area in the GHASH engine's layout; the
 * message-encryption key, its FIPS-197 schedule and the AES engine's
 * schedule of it), "ghash-out" (POLYVAL's S, before and after the nonce
 * and mask), "keystream" (E(counter_i) under the derived key) and
 * "plaintext". The key-generating key's secrets are the GCM key's (the
 * same key bytes). Each one-shot call is scanned.
 */
static _Alignas(64) aesir_gcm_siv_key siv_key;
static uint8_t siv_nonce[12];

static void call_gcm_siv_init(void)
{
    g.err = aesir_gcm_siv_init_ex(&siv_key, g.keybytes, g.key_len, g.engine,
                                  g.ghash, AESIR_GCM_SIV_AES192);
}

static void call_gcm_siv_seal(void)
{
    g.err = aesir_gcm_siv_seal(&siv_key, siv_nonce, g.aad, g.aad_len, g.out,
                               sizeof(g.out), &g.out_len, g.in, g.len);
}

static void call_gcm_siv_open(void)
{
    g.err = aesir_gcm_siv_open(&siv_key, siv_nonce, g.aad, g.aad_len, g.out,
                               sizeof(g.out), &g.out_len, g.in, g.len + 16);
}

static void register_siv_secrets(const uint8_t *pt, size_t len,
                                 const uint8_t tag[16])
{
    static _Alignas(64) aesir_aes enc, enc_ref;
    static _Alignas(64) unsigned char hk[AESIR_GHASH_KEY_BYTES];
    const struct aesir_key_state *ks =
        (const struct aesir_key_state *)(const void *)enc.opaque;
    const struct aesir_key_state *rs =
        (const struct aesir_key_state *)(const void *)enc_ref.opaque;
    uint8_t blk[16], mk[48], sv[16], ctr[16], x[16];
    size_t nblk = 2 + (g.key_len + 7) / 8;
    int gi = aesir_ghash_engine_find(g.ghash);

    reset_call_secrets();
    for (size_t i = 0; i < nblk; i++) {
        memset(blk, 0, 16);
        blk[0] = (uint8_t)i;
        memcpy(blk + 4, siv_nonce, 12);
        ref_block(blk, blk);
        memcpy(mk + 8 * i, blk, 8);
    }
    add_secret(K_HKEY, mk, 16);
    add_secret(K_HKEY, mk + 16, g.key_len);
    memset(hk, 0, sizeof(hk));
    aesir_polyval_init(aesir_ghash_engine_at((size_t)gi), hk, mk);
    for (size_t i = 0; i < sizeof(hk); i += 16)
        add_secret_in(K_HKEY, hk + i, 16, sizeof(hk) - i);
    CHECK(aesir_aes_init_ex(&enc, mk + 16, g.key_len, g.engine,
                            AESIR_ENCRYPT) == AESIR_OK);
    CHECK(aesir_aes_init_ex(&enc_ref, mk + 16, g.key_len, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    for (size_t i = 0; i < AESIR_RK_BYTES; i += 16)
        add_secret_in(K_HKEY, ks->rk_enc + i, 16, AESIR_RK_BYTES - i);
    add_blocks(K_HKEY, rs->rk_enc, 16 * (rs->nr + 1));
    /* S: the tag decrypted is S ^ (N || 0) with bit 127 cleared */
    CHECK(aesir_aes_decrypt_block(&enc_ref, sv, tag) == AESIR_OK);
    add_secret(K_GHASH, sv, 16);
    memset(x, 0, 16);
    memcpy(x, siv_nonce, 12);
    xor16(x, x, sv);
    add_secret(K_GHASH, x, 16);
    x[15] ^= 0x80;
    add_secret(K_GHASH, x, 16);
    memcpy(ctr, tag, 16);
    ctr[15] |= 0x80;
    for (size_t i = 0; i < (len + 15) / 16; i++) {
        uint32_t c = (uint32_t)ctr[0] | (uint32_t)ctr[1] << 8 |
                     (uint32_t)ctr[2] << 16 | (uint32_t)ctr[3] << 24;
        aesir_aes_encrypt_block(&enc_ref, x, ctr);
        add_secret(K_KEYSTREAM, x, 16);
        c++;
        ctr[0] = (uint8_t)c, ctr[1] = (uint8_t)(c >> 8);
        ctr[2] = (uint8_t)(c >> 16), ctr[3] = (uint8_t)(c >> 24);
    }
    add_blocks(K_PLAIN, pt, len);
    aesir_aes_clear(&enc);
    aesir_aes_clear(&enc_ref);
    aesir_wipe(mk, sizeof(mk));
}

static void gcm_siv_case(size_t len, size_t aad_len)
{
    static uint8_t pt[MAX_MSG], sealed[MAX_MSG + 16];
    size_t n = 0;

    g.len = len, g.aad_len = aad_len;
    fill(siv_nonce, 12);
    fill(g.aad, aad_len);
    fill(pt, len);
    CHECK(aesir_gcm_siv_seal(&siv_key, siv_nonce, g.aad, aad_len, sealed,
                             sizeof(sealed), &n, pt, len) == AESIR_OK);
    register_siv_secrets(pt, len, sealed + len);
    memcpy(g.in, pt, len);
    scan_call("gcm_siv_seal", call_gcm_siv_seal);
    CHECK(g.err == AESIR_OK && g.out_len == len + 16 &&
          memcmp(g.out, sealed, len + 16) == 0);
    memcpy(g.in, sealed, len + 16);
    scan_call("gcm_siv_open", call_gcm_siv_open);
    CHECK(g.err == AESIR_OK && g.out_len == len && memcmp(g.out, pt, len) == 0);
    g.in[len + 3] ^= 1;
    scan_call("gcm_siv_open bad tag", call_gcm_siv_open);
    CHECK(g.err == AESIR_E_AUTH && g.out_len == 0 && all_zero(g.out, len));
}

/* After test_gcm_pair's cases: the GCM key's secrets are registered. */
static void test_gcm_siv_pair(void)
{
    reset_call_secrets();
    scan_call("gcm_siv_init_ex", call_gcm_siv_init);
    CHECK_EQ(g.err, AESIR_OK);
    gcm_siv_case(100, 20);
    gcm_siv_case(531, 0);
    gcm_siv_case(37, 77);
    gcm_siv_case(MAX_MSG, 5);
    aesir_gcm_siv_clear(&siv_key);
}

/* ---- OCB3 -------------------------------------------------------------- */

static void call_ocb_init(void)
{
    g.err = aesir_ocb_init_ex(&g.otmp, g.keybytes, g.key_len, g.engine);
}

static void call_ocb_seal(void)
{
    g.err = aesir_ocb_seal(&g.okey, g.giv, 12, g.aad, g.aad_len, g.out,
                           MAX_MSG + 32, &g.out_len, g.in, g.len);
}

static void call_ocb_open(void)
{
    g.err = aesir_ocb_open(&g.okey, g.giv, 12, g.aad, g.aad_len, g.out,
                           MAX_MSG + 32, &g.out_len, g.in, g.len + 16);
}

static void call_ocb_start(void)
{
    g.err = aesir_ocb_start(&g.octx, &g.okey, g.giv, 12, 16);
}

static void call_ocb_aad(void)
{
    g.err = aesir_ocb_aad(&g.octx, g.aad + g.upd_off, g.upd_len);
}

static void call_ocb_update(void)
{
    size_t n = 0;
    g.err = g.dir == AESIR_ENCRYPT
                ? aesir_ocb_encrypt_update(&g.octx, g.out + g.out_pos,
                                           MAX_MSG + 32 - g.out_pos, &n,
                                           g.in + g.upd_off, g.upd_len)
                : aesir_ocb_decrypt_update_unverified(
                      &g.octx, g.out + g.out_pos, MAX_MSG + 32 - g.out_pos, &n,
                      g.in + g.upd_off, g.upd_len);
    g.out_pos += n;
}

static void call_ocb_final(void)
{
    size_t n = 0;
    g.err = g.dir == AESIR_ENCRYPT
                ? aesir_ocb_finish(&g.octx, g.out + g.out_pos,
                                   MAX_MSG + 32 - g.out_pos, &n, g.tag, 16)
                : aesir_ocb_verify(&g.octx, g.out + g.out_pos,
                                   MAX_MSG + 32 - g.out_pos, &n, g.tag, 16);
    g.out_pos += n;
}

/* The OCB key's secrets: the AES key's and L_*, L_$, L_0 .. L_35. */
static void register_ocb_key_secrets(void)
{
    const struct ocb_key_state *k =
        (const struct ocb_key_state *)(const void *)g.okey.opaque;

    register_key_secrets(&k->aes);
    add_secret(K_OCBL, k->lstar, 16);
    add_secret(K_OCBL, k->ldollar, 16);
    for (size_t i = 0; i < OCB_L_COUNT; i++)
        add_secret(K_OCBL, k->l[i], 16);
    for (size_t i = 0; i < OCB_P_COUNT; i++)
        add_secret(K_OCBL, k->p[i], 16);
    fixed_pieces = npieces;
    fixed_secrets = nsecrets;
}

/* A message's secrets for g.giv and the plaintext pt of len bytes:
 * Ktop, every offset (Offset_0 from a message started on the ref key,
 * white box: ocb.h), the pad of a partial block, the plaintext. */
static void register_ocb_secrets(const uint8_t *pt, size_t len)
{
    const struct ocb_key_state *k =
        (const struct ocb_key_state *)(const void *)g.oref.opaque;
    const struct ocb_state *st =
        (const struct ocb_state *)(const void *)g.octx.opaque;
    uint8_t off[16], nb[16] = {0}, pad[16];
    size_t i;

    reset_call_secrets();
    nb[0] = (uint8_t)((128 % 128) << 1);
    nb[3] |= 1;
    memcpy(nb + 4, g.giv, 12);
    nb[15] &= 0xc0;
    ref_block(pad, nb);
    add_secret(K_OCBOFF, pad, 16); /* Ktop */
    CHECK(aesir_ocb_start(&g.octx, &g.oref, g.giv, 12, 16) == AESIR_OK);
    memcpy(off, st->offset, 16);
    aesir_ocb_abort(&g.octx);
    add_secret(K_OCBOFF, off, 16);
    for (i = 1; i <= len / 16; i++) {
        xor16(off, off, k->l[__builtin_ctzll(i)]);
        add_secret(K_OCBOFF, off, 16);
    }
    if (len % 16 != 0) {
        xor16(off, off, k->lstar);
        add_secret(K_OCBOFF, off, 16);
        ref_block(pad, off);
        add_secret(K_KEYSTREAM, pad, 16);
    }
    add_blocks(K_PLAIN, pt, len);
}

static void ocb_case(size_t len, size_t aad_len)
{
    static const size_t split[] = {7, 16, 33, 100, 1};
    static uint8_t pt[MAX_MSG], sealed[MAX_MSG + 16];
    size_t n = 0, off;

    g.len = len, g.aad_len = aad_len;
    fill(g.giv, 12);
    fill(g.aad, aad_len);
    fill(pt, len);
    CHECK(aesir_ocb_seal(&g.oref, g.giv, 12, g.aad, aad_len, sealed,
                         sizeof(sealed), &n, pt, len) == AESIR_OK);
    register_ocb_secrets(pt, len);

    memcpy(g.in, pt, len);
    scan_call("ocb_seal", call_ocb_seal);
    CHECK(g.err == AESIR_OK && memcmp(g.out, sealed, len + 16) == 0);
    memcpy(g.in, sealed, len + 16);
    scan_call("ocb_open", call_ocb_open);
    CHECK(g.err == AESIR_OK && memcmp(g.out, pt, len) == 0);
    g.in[len + 5] ^= 1;
    scan_call("ocb_open bad tag", call_ocb_open);
    CHECK(g.err == AESIR_E_AUTH && all_zero(g.out, len));

    for (int pass = 0; pass < 2; pass++) {
        const char *row =
            pass == 0 ? "ocb incremental enc" : "ocb incremental dec";
        size_t i = 0;
        g.dir = pass == 0 ? AESIR_ENCRYPT : AESIR_DECRYPT;
        memcpy(g.in, pass == 0 ? pt : sealed, len);
        memset(g.out, 0, sizeof(g.out));
        g.out_pos = 0;
        scan_call(row, call_ocb_start);
        CHECK_EQ(g.err, AESIR_OK);
        for (off = 0; off < aad_len; off += g.upd_len) {
            g.upd_off = off;
            g.upd_len =
                split[i % 5] < aad_len - off ? split[i % 5] : aad_len - off;
            i++;
            scan_call(row, call_ocb_aad);
            CHECK_EQ(g.err, AESIR_OK);
        }
        for (off = 0; off < len; off += g.upd_len) {
            g.upd_off = off;
            g.upd_len = split[i % 5] < len - off ? split[i % 5] : len - off;
            i++;
            scan_call(row, call_ocb_update);
            CHECK_EQ(g.err, AESIR_OK);
        }
        memcpy(g.tag, sealed + len, 16);
        scan_call(row, call_ocb_final);
        CHECK(g.err == AESIR_OK && g.out_pos == len &&
              memcmp(g.out, pass == 0 ? sealed : pt, len) == 0);
        CHECK(pass == 1 || memcmp(g.tag, sealed + len, 16) == 0);
    }
}

/* OCB3 on g.engine with a key of key_len bytes. */
static void test_ocb_engine(size_t key_len)
{
    seed_for(g.engine, key_len);
    rng_state = rng_state * 31 + 0x0cb;
    g.key_len = key_len;
    fill(g.keybytes, key_len);
    CHECK(aesir_aes_init_ex(&g.ref, g.keybytes, key_len, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    CHECK(aesir_ocb_init_ex(&g.oref, g.keybytes, key_len, "ref") == AESIR_OK);
    CHECK(aesir_ocb_init_ex(&g.okey, g.keybytes, key_len, g.engine) ==
          AESIR_OK);
    register_ocb_key_secrets();
    reset_call_secrets();
    scan_call("ocb_init_ex", call_ocb_init);
    CHECK_EQ(g.err, AESIR_OK);
    aesir_ocb_clear(&g.otmp);
    ocb_case(100, 20);
    ocb_case(531, 0);
    ocb_case(37, 77);
    ocb_case(MAX_MSG, 5);
    aesir_ocb_clear(&g.okey);
    aesir_ocb_clear(&g.oref);
    aesir_aes_clear(&g.ref);
}

/* One pair (g.engine x g.ghash) with a key of key_len bytes. */
static void test_gcm_pair(size_t key_len)
{
    seed_for(g.engine, key_len);
    for (const char *c = g.ghash; *c != '\0'; c++)
        rng_state = rng_state * 31 + (unsigned char)*c;
    g.key_len = key_len;
    fill(g.keybytes, key_len);
    CHECK(aesir_aes_init_ex(&g.ref, g.keybytes, key_len, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    CHECK(aesir_gcm_init_ex(&g.gref, g.keybytes, key_len, "ref", "ghash-ref",
                            0) == AESIR_OK);
    CHECK(aesir_gcm_init_ex(&g.gkey, g.keybytes, key_len, g.engine, g.ghash,
                            0) == AESIR_OK);
    register_gcm_key_secrets();
    reset_call_secrets();
    scan_call("gcm_init_ex", call_gcm_init);
    CHECK_EQ(g.err, AESIR_OK);
    aesir_gcm_clear(&g.gtmp);
    gcm_case(100, 20, 12);
    gcm_case(531, 0, 12);
    /* vaes-avx512's medium path: two chunks and additional data */
    gcm_case(1000, 40, 12);
    gcm_case(37, 77, 60);
    gcm_case(MAX_MSG, 5, 8);
    /* vaes-avx512's whole-message kernels: short and long frames */
    gcm_case(MAX_MSG, 5, 12);
    gcm_case(LONG_MSG, 5, 12);
    test_gcm_siv_pair();
    aesir_gcm_clear(&g.gkey);
    aesir_gcm_clear(&g.gref);
    aesir_aes_clear(&g.ref);
}

/* ---- CCM ------------------------------------------------------------- */

static void call_ccm_init(void)
{
    g.err = aesir_ccm_init_ex(&g.ctmp, g.keybytes, g.key_len, g.engine);
}

static void call_ccm_seal(void)
{
    g.err =
        aesir_ccm_seal(&g.ckey, g.nonce, g.nonce_len, g.aad, g.aad_len, g.out,
                       sizeof(g.out), &g.out_len, g.in, g.len, g.tag_len);
}

static void call_ccm_open(void)
{
    g.err = aesir_ccm_open(&g.ckey, g.nonce, g.nonce_len, g.aad, g.aad_len,
                           g.out, sizeof(g.out), &g.out_len, g.in,
                           g.len + g.tag_len, g.tag_len);
}

static void call_ccm_start(void)
{
    g.err = aesir_ccm_start(&g.cctx, &g.ckey, g.nonce, g.nonce_len, g.aad_len,
                            g.len, g.tag_len);
}

static void call_ccm_aad(void)
{
    g.err = aesir_ccm_aad(&g.cctx, g.aad + g.upd_off, g.upd_len);
}

static void call_ccm_encrypt_update(void)
{
    g.err = aesir_ccm_encrypt_update(&g.cctx, g.out + g.upd_off,
                                     g.in + g.upd_off, g.upd_len);
}

static void call_ccm_decrypt_update(void)
{
    g.err = aesir_ccm_decrypt_update_unverified(&g.cctx, g.out + g.upd_off,
                                                g.in + g.upd_off, g.upd_len);
}

static void call_ccm_finish(void)
{
    g.err = aesir_ccm_finish(&g.cctx, g.tag, g.tag_len);
}

static void call_ccm_verify(void)
{
    g.err = aesir_ccm_verify(&g.cctx, g.tag, g.tag_len);
}

/* A message's secrets, for g.nonce, g.aad and pt (len bytes): E(A_0),
 * every CBC-MAC chaining value Y_i (SP 800-38C A.2, computed here on the
 * ref engine from the formatted blocks), the keystream E(A_1) ... and
 * the plaintext. */
static void register_ccm_secrets(const uint8_t *pt, size_t len)
{
    static uint8_t b[16 * 8 + MAX_MSG + 32];
    size_t q = 15 - g.nonce_len, n = 16;
    uint8_t a[16], y[16] = {0}, ks[16];

    reset_call_secrets();
    memset(b, 0, sizeof(b));
    b[0] = (uint8_t)((g.aad_len ? 64 : 0) | (g.tag_len - 2) / 2 << 3 | (q - 1));
    memcpy(b + 1, g.nonce, g.nonce_len);
    b[14] = (uint8_t)(len >> 8), b[15] = (uint8_t)len;
    if (g.aad_len != 0) {
        b[16] = (uint8_t)(g.aad_len >> 8), b[17] = (uint8_t)g.aad_len;
        memcpy(b + 18, g.aad, g.aad_len);
        n += (2 + g.aad_len + 15) / 16 * 16;
    }
    memcpy(b + n, pt, len);
    n += (len + 15) / 16 * 16;
    for (size_t i = 0; i < n; i += 16) {
        xor16(y, y, b + i);
        ref_block(y, y);
        add_secret(K_CCMMAC, y, 16);
    }
    memset(a, 0, 16);
    a[0] = (uint8_t)(q - 1);
    memcpy(a + 1, g.nonce, g.nonce_len);
    ref_block(ks, a);
    add_secret(K_CCMS0, ks, 16);
    for (size_t i = 0; i < (len + 15) / 16; i++) {
        a[15] = (uint8_t)(i + 1), a[14] = (uint8_t)((i + 1) >> 8);
        ref_block(ks, a);
        add_secret(K_KEYSTREAM, ks, 16);
    }
    add_blocks(K_PLAIN, pt, len);
}

/* One message: seal, open (good and bad tag), incremental both ways,
 * each call scanned. len < 2^16 (the length is written in 2 bytes
 * above; q >= 2 for every nonce). */
static void ccm_case(size_t len, size_t aad_len, size_t nonce_len,
                     size_t tag_len)
{
    static const size_t split[] = {7, 16, 33, 100, 1};
    static uint8_t pt[MAX_MSG], sealed[MAX_MSG + 16];
    size_t n = 0, off;
    int pass;

    g.len = len, g.aad_len = aad_len, g.nonce_len = nonce_len;
    g.tag_len = tag_len;
    fill(g.nonce, nonce_len);
    fill(g.aad, aad_len);
    fill(pt, len);
    CHECK(aesir_ccm_seal(&g.ctmp, g.nonce, nonce_len, g.aad, aad_len, sealed,
                         sizeof(sealed), &n, pt, len, tag_len) == AESIR_OK);
    register_ccm_secrets(pt, len);

    memcpy(g.in, pt, len);
    memset(g.out, 0, sizeof(g.out));
    scan_call("ccm_seal", call_ccm_seal);
    CHECK(g.err == AESIR_OK && g.out_len == len + tag_len &&
          memcmp(g.out, sealed, len + tag_len) == 0);
    memcpy(g.in, sealed, len + tag_len);
    scan_call("ccm_open", call_ccm_open);
    CHECK(g.err == AESIR_OK && g.out_len == len && memcmp(g.out, pt, len) == 0);
    g.in[len + 1] ^= 1;
    scan_call("ccm_open bad tag", call_ccm_open);
    CHECK(g.err == AESIR_E_AUTH && g.out_len == 0 && all_zero(g.out, len));

    for (pass = 0; pass < 3; pass++) {
        const char *row = pass == 0   ? "ccm incremental enc"
                          : pass == 1 ? "ccm incremental dec"
                                      : "ccm incremental dec bad";
        size_t i = 0;
        memcpy(g.in, pass == 0 ? pt : sealed, len);
        memset(g.out, 0, sizeof(g.out));
        scan_call(row, call_ccm_start);
        CHECK_EQ(g.err, AESIR_OK);
        for (off = 0; off < aad_len; off += g.upd_len) {
            g.upd_off = off;
            g.upd_len =
                split[i % 5] < aad_len - off ? split[i % 5] : aad_len - off;
            i++;
            scan_call(row, call_ccm_aad);
            CHECK_EQ(g.err, AESIR_OK);
        }
        for (off = 0; off < len; off += g.upd_len) {
            g.upd_off = off;
            g.upd_len = split[i % 5] < len - off ? split[i % 5] : len - off;
            i++;
            scan_call(row, pass == 0 ? call_ccm_encrypt_update
                                     : call_ccm_decrypt_update);
            CHECK_EQ(g.err, AESIR_OK);
        }
        if (pass == 0) {
            scan_call(row, call_ccm_finish);
            CHECK(g.err == AESIR_OK &&
                  memcmp(g.tag, sealed + len, tag_len) == 0 &&
                  memcmp(g.out, sealed, len) == 0);
        } else {
            memcpy(g.tag, sealed + len, tag_len);
            g.tag[0] ^= (uint8_t)(pass == 2);
            scan_call(row, call_ccm_verify);
            CHECK(g.err == (pass == 1 ? AESIR_OK : AESIR_E_AUTH) &&
                  memcmp(g.out, pt, len) == 0);
        }
    }
}

/* CCM on g.engine with a key of key_len bytes: key set-up and messages
 * long enough for the fused kernels and the generic paths' chunks. */
static void test_ccm_engine(size_t key_len)
{
    seed_for(g.engine, key_len);
    rng_state ^= 0x63636d;
    g.key_len = key_len;
    fill(g.keybytes, key_len);
    CHECK(aesir_aes_init_ex(&g.ref, g.keybytes, key_len, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    CHECK(aesir_ccm_init_ex(&g.ckey, g.keybytes, key_len, g.engine) ==
          AESIR_OK);
    /* the scratch key on ref computes the expected output */
    CHECK(aesir_ccm_init_ex(&g.ctmp, g.keybytes, key_len, "ref") == AESIR_OK);
    register_key_secrets(
        &((const struct ccm_key_state *)(const void *)g.ckey.opaque)->aes);
    ccm_case(100, 20, 13, 16);
    ccm_case(531, 0, 12, 8);
    ccm_case(37, 77, 7, 4);
    ccm_case(MAX_MSG, 5, 11, 10);
    reset_call_secrets();
    scan_call("ccm_init_ex", call_ccm_init);
    CHECK_EQ(g.err, AESIR_OK);
    aesir_ccm_clear(&g.ctmp);
    aesir_ccm_clear(&g.ckey);
    aesir_aes_clear(&g.ref);
}

static void test_engine_key(size_t key_len)
{
    seed_for(g.engine, key_len);
    g.key_len = key_len;
    fill(g.keybytes, key_len);
    CHECK(aesir_aes_init_ex(&g.ref, g.keybytes, key_len, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    CHECK(aesir_aes_init_ex(&g.key, g.keybytes, key_len, g.engine,
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    register_key_secrets(&g.key);
    test_init();
    test_raw_blocks();
    test_oneshot();
    test_incremental();
    test_many();
    test_mac_modes();
    aesir_aes_clear(&g.key);
    aesir_aes_clear(&g.ref);
}

/* ---- the self-check: a leaky function is caught ----------------------------
 */

static int selfcheck_wipe;

/* Copies the key, a round key, a keystream block, a plaintext block,
 * 32 bytes of a bitsliced schedule and a GHASH value byte-reflected (as
 * pshufb leaves it) into its frame, one of them at an odd
 * offset, as a careless mode would; wipes them only when selfcheck_wipe
 * is set. */
__attribute__((noinline)) static void leaky(void)
{
    const struct aesir_key_state *ref =
        (const struct aesir_key_state *)(const void *)g.ref.opaque;
    const struct aesir_key_state *bs =
        (const struct aesir_key_state *)(const void *)g.key.opaque;
    uint8_t frame[160];
    uint8_t *volatile p = frame; /* the stores cannot be dropped */

    memcpy(p, g.keybytes, 16);
    memcpy(p + 16, ref->rk_enc + 16 * 3, 16);
    memcpy(p + 35, g.want, 16);              /* keystream, odd offset */
    memcpy(p + 64, g.in, 16);                /* plaintext */
    memcpy(p + 96, bs->rk_enc + 64 * 2, 32); /* round key 2, half */
    for (int i = 0; i < 16; i++)             /* a GHASH value, reflected */
        p[128 + i] = g.tag[15 - i];
    if (selfcheck_wipe)
        aesir_wipe(frame, sizeof(frame));
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

static void selfcheck(void)
{
    int ok_leak = 1, ok_clean = 1;
    size_t depth;

    g.key_len = 16;
    fill(g.keybytes, 16);
    CHECK(aesir_aes_init_ex(&g.ref, g.keybytes, 16, "ref",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    /* ct64, the portable bitsliced engine, is in every build */
    CHECK(aesir_aes_init_ex(&g.key, g.keybytes, 16, "ct64",
                            AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
    register_key_secrets(&g.key);
    reset_call_secrets();
    fill(g.want, 16);
    fill(g.in, 16);
    add_secret(K_KEYSTREAM, g.want, 16);
    add_secret(K_PLAIN, g.in, 16);
    fill(g.tag, 16);
    add_secret(K_GHASH, g.tag, 16);

    selfcheck_wipe = 0;
    depth = run_on_stack(leaky);
    scan_stack();
    CHECK(depth > 0 && depth < STACK_BYTES);
    {
        int seen[NKINDS] = {0};
        for (size_t s = 0; s < nsecrets; s++)
            seen[secret_kind[s]] |= secret_found[s];
        ok_leak = seen[K_KEY] && seen[K_RK] && seen[K_KEYSTREAM] &&
                  seen[K_PLAIN] && seen[K_SCHED] && seen[K_GHASH];
    }
    selfcheck_wipe = 1;
    run_on_stack(leaky);
    ok_clean = scan_stack() == 0;
    printf("self-check: leaky frame %s, wiped frame %s\n",
           ok_leak ? "caught" : "NOT CAUGHT", ok_clean ? "clean" : "NOT CLEAN");
    CHECK(ok_leak);
    CHECK(ok_clean);
    aesir_aes_clear(&g.ref);
    aesir_aes_clear(&g.key);
}

/* ---- main
 * ---------------------------------------------------------------------- */

/* ---- AEGIS ------------------------------------------------------------
 *
 * Every variant on every engine (its kernel, its round, or ct64's round:
 * aesir_aegis_engine): init, seal and open of messages of 0, 33, 200 and
 * 1000 bytes with AAD, both tag lengths, one-shot and through the
 * incremental API in pieces (aegis_inc_*). Looked for: the key; the
 * initial state words key ^ nonce, key ^ C0, key ^ C1 (aegis-state: a
 * spilled state row of the first update); the plaintext; the keystream
 * (ciphertext ^ plaintext, which is a function of the state).
 */
static struct {
    _Alignas(64) aesir_aegis_key key;
    int variant;
    size_t kl, tl;
    uint8_t nonce[32];
    uint8_t ct[MAX_MSG + 32];
} ga;

static void call_aegis_init(void)
{
    g.err =
        aesir_aegis_init_ex(&ga.key, ga.variant, g.keybytes, ga.kl, g.engine);
}

static void call_aegis_seal(void)
{
    g.err = aesir_aegis_seal(&ga.key, ga.nonce, ga.kl, g.aad, g.aad_len, g.out,
                             sizeof(g.out), &g.out_len, g.in, g.len, ga.tl);
}

static void call_aegis_open(void)
{
    g.err = aesir_aegis_open(&ga.key, ga.nonce, ga.kl, g.aad, g.aad_len, g.out,
                             sizeof(g.out), &g.out_len, ga.ct, g.len + ga.tl,
                             ga.tl);
}

/* The incremental API: the AAD and the data in pieces of 1, 13, 100
 * and the rest (partial blocks buffered, whole ones through the
 * engine's block kernel or the generic code); the context is static
 * (off the scanned stack) and wiped by finish / verify. */
static aesir_aegis ga_ctx;

static void call_aegis_inc(int decrypt)
{
    static const size_t pieces[] = {1, 13, 100, 1000};
    const uint8_t *in = decrypt ? ga.ct : g.in;
    size_t o, q, i;
    int err = aesir_aegis_start(&ga_ctx, &ga.key, ga.nonce, ga.kl);

    for (o = 0, i = 0; err == AESIR_OK && o < g.aad_len; o += q, i++) {
        q = pieces[i % 4] < g.aad_len - o ? pieces[i % 4] : g.aad_len - o;
        err = aesir_aegis_aad(&ga_ctx, g.aad + o, q);
    }
    for (o = 0, i = 0; err == AESIR_OK && o < g.len; o += q, i++) {
        q = pieces[i % 4] < g.len - o ? pieces[i % 4] : g.len - o;
        err = decrypt
                  ? aesir_aegis_decrypt_update_unverified(&ga_ctx, g.out + o,
                                                          in + o, q)
                  : aesir_aegis_encrypt_update(&ga_ctx, g.out + o, in + o, q);
    }
    if (err == AESIR_OK)
        err = decrypt ? aesir_aegis_verify(&ga_ctx, ga.ct + g.len, ga.tl)
                      : aesir_aegis_finish(&ga_ctx, g.out + g.len, ga.tl);
    g.err = err;
}

static void call_aegis_inc_seal(void)
{
    call_aegis_inc(0);
}

static void call_aegis_inc_open(void)
{
    call_aegis_inc(1);
}

static void test_aegis_engine(void)
{
    static const char *const rows_inc_seal[7] = {"",
                                                 "aegis_inc_seal 128L",
                                                 "aegis_inc_seal 256",
                                                 "aegis_inc_seal 128X2",
                                                 "aegis_inc_seal 128X4",
                                                 "aegis_inc_seal 256X2",
                                                 "aegis_inc_seal 256X4"};
    static const char *const rows_inc_open[7] = {"",
                                                 "aegis_inc_open 128L",
                                                 "aegis_inc_open 256",
                                                 "aegis_inc_open 128X2",
                                                 "aegis_inc_open 128X4",
                                                 "aegis_inc_open 256X2",
                                                 "aegis_inc_open 256X4"};
    static const char *const rows_init[7] = {"",
                                             "aegis_init 128L",
                                             "aegis_init 256",
                                             "aegis_init 128X2",
                                             "aegis_init 128X4",
                                             "aegis_init 256X2",
                                             "aegis_init 256X4"};
    static const char *const rows_seal[7] = {"",
                                             "aegis_seal 128L",
                                             "aegis_seal 256",
                                             "aegis_seal 128X2",
                                             "aegis_seal 128X4",
                                             "aegis_seal 256X2",
                                             "aegis_seal 256X4"};
    static const char *const rows_open[7] = {"",
                                             "aegis_open 128L",
                                             "aegis_open 256",
                                             "aegis_open 128X2",
                                             "aegis_open 128X4",
                                             "aegis_open 256X2",
                                             "aegis_open 256X4"};
    static const uint8_t c0[16] = {0x00, 0x01, 0x01, 0x02, 0x03, 0x05,
                                   0x08, 0x0d, 0x15, 0x22, 0x37, 0x59,
                                   0x90, 0xe9, 0x79, 0x62};
    static const uint8_t c1[16] = {0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2,
                                   0x2f, 0xf1, 0x20, 0x11, 0x31, 0x42,
                                   0x73, 0xb5, 0x28, 0xdd};
    static const size_t lens[] = {0, 33, 200, 1000};

    for (int v = AESIR_AEGIS_128L; v <= AESIR_AEGIS_256X4; v++) {
        uint8_t x[16];
        ga.variant = v;
        ga.kl = aesir_aegis_key_bytes(v);
        fill(g.keybytes, ga.kl);
        fill(ga.nonce, ga.kl);
        reset_all_secrets();
        add_secret(K_KEY, g.keybytes, ga.kl);
        for (size_t h = 0; h < ga.kl; h += 16) {
            xor16(x, g.keybytes + h, ga.nonce + h);
            add_secret(K_AEGIS, x, 16);
            xor16(x, g.keybytes + h, c0);
            add_secret(K_AEGIS, x, 16);
            xor16(x, g.keybytes + h, c1);
            add_secret(K_AEGIS, x, 16);
        }
        fixed_pieces = npieces;
        fixed_secrets = nsecrets;
        scan_call(rows_init[v], call_aegis_init);
        CHECK(g.err == AESIR_OK);
        for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
            uint8_t ks[MAX_MSG];
            size_t n;
            g.len = lens[i];
            g.aad_len = (i * 29) % sizeof(g.aad);
            ga.tl = i % 2 ? 32 : 16;
            fill(g.in, g.len);
            fill(g.aad, g.aad_len);
            /* the expected output, on the main stack */
            CHECK(aesir_aegis_seal(&ga.key, ga.nonce, ga.kl, g.aad, g.aad_len,
                                   ga.ct, sizeof(ga.ct), &n, g.in, g.len,
                                   ga.tl) == AESIR_OK);
            for (size_t b = 0; b < g.len; b++)
                ks[b] = ga.ct[b] ^ g.in[b];
            reset_call_secrets();
            add_blocks(K_PLAIN, g.in, g.len);
            add_blocks(K_KEYSTREAM, ks, g.len);
            scan_call(rows_seal[v], call_aegis_seal);
            CHECK(g.err == AESIR_OK && g.out_len == n &&
                  memcmp(g.out, ga.ct, n) == 0);
            scan_call(rows_open[v], call_aegis_open);
            CHECK(g.err == AESIR_OK && g.out_len == g.len &&
                  memcmp(g.out, g.in, g.len) == 0);
            scan_call(rows_inc_seal[v], call_aegis_inc_seal);
            CHECK(g.err == AESIR_OK && memcmp(g.out, ga.ct, n) == 0);
            scan_call(rows_inc_open[v], call_aegis_inc_open);
            CHECK(g.err == AESIR_OK && memcmp(g.out, g.in, g.len) == 0);
        }
        aesir_aegis_clear(&ga.key);
    }
}

int main(int argc, char **argv)
{
    const char *only = NULL, *only_ghash = NULL;
    size_t pair = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "--engine") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--ghash") == 0 && i + 1 < argc) {
            only_ghash = argv[++i];
        } else if (strcmp(argv[i], "--row") == 0 && i + 1 < argc) {
            only_row = argv[++i];
        } else {
            fprintf(stderr,
                    "usage: %s [-v] [--engine NAME] [--ghash NAME] "
                    "[--row PREFIX]\n",
                    argv[0]);
            return 2;
        }
    }
    if (getenv("AESIR_TEST_SEED") != NULL)
        seed_base = strtoull(getenv("AESIR_TEST_SEED"), NULL, 0);
#ifdef RESIDUE_SKIP
    printf("SKIPPED: %s (the stack is not the library's own)\n", RESIDUE_SKIP);
    return 77;
#endif
    stack_setup();
    /* One-time work (CPU probe, self-tests, the C library's lazy
     * bindings) happens here, on the main stack. */
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        uint8_t k[16] = {0};
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        CHECK(aesir_aes_init_ex(&g.key, k, 16, aesir_engine_name(i),
                                AESIR_ENCRYPT | AESIR_DECRYPT) == AESIR_OK);
        aesir_aes_clear(&g.key);
    }
    for (size_t i = 0; i < aesir_ghash_engine_count(); i++) {
        uint8_t k[16] = {0};
        if (!(aesir_ghash_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        CHECK(aesir_gcm_init_ex(&g.gkey, k, 16, "ref",
                                aesir_ghash_engine_name(i), 0) == AESIR_OK);
        aesir_gcm_clear(&g.gkey);
    }
    selfcheck();

    printf("residue per engine and function (distinct secrets found, "
           "summed over key sizes and calls):\n");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if (only != NULL && strcmp(only, name) != 0)
            continue;
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("  %-12s UNAVAILABLE\n", name);
            continue;
        }
        cur_engine = g.engine = name;
        for (size_t kl = 16; kl <= 32; kl += 8)
            test_engine_key(kl);
        report_engine();
    }
    /* OCB3 on every engine, every key size. */
    printf("OCB3 residue per engine:\n");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if ((only != NULL && strcmp(only, name) != 0) ||
            !(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        cur_engine = g.engine = name;
        for (size_t kl = 16; kl <= 32; kl += 8)
            test_ocb_engine(kl);
        report_engine();
    }
    /* XTS, every key size. */
    printf("XTS residue per engine:\n");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if ((only != NULL && strcmp(only, name) != 0) ||
            !(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        cur_engine = g.engine = name;
        for (size_t h = 16; h <= 32; h += 8)
            test_xts_key(h);
        report_engine();
    }
    /* GCM and GMAC on every pair; the key size changes from pair to
     * pair, so each AES engine meets all three. */
    printf("GCM and GMAC residue per pair (AES engine/GHASH engine):\n");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if ((only != NULL && strcmp(only, name) != 0) ||
            !(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        for (size_t h = 0; h < aesir_ghash_engine_count(); h++) {
            static char pair_name[64];
            const char *gname = aesir_ghash_engine_name(h);
            if ((only_ghash != NULL && strcmp(only_ghash, gname) != 0) ||
                !(aesir_ghash_engine_flags(h) & AESIR_ENGINE_AVAILABLE))
                continue;
            snprintf(pair_name, sizeof(pair_name), "%s/%s", name, gname);
            cur_engine = pair_name;
            g.engine = name;
            g.ghash = gname;
            test_gcm_pair(16 + 8 * (pair++ % 3));
            report_engine();
        }
    }
    /* CCM on every engine, the key size changing from engine to engine */
    printf("CCM residue per engine:\n");
    for (size_t i = 0, n = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if ((only != NULL && strcmp(only, name) != 0) ||
            !(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        cur_engine = g.engine = name;
        test_ccm_engine(16 + 8 * (n++ % 3));
        report_engine();
    }
    printf("AEGIS residue per engine (every variant):\n");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        if ((only != NULL && strcmp(only, name) != 0) ||
            !(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE))
            continue;
        cur_engine = g.engine = name;
        seed_for(name, 99);
        test_aegis_engine();
        report_engine();
    }
    printf("total:");
    for (unsigned k = 0; k < NKINDS; k++)
        printf(" %s %lu", kind_name[k], total_found[k]);
    printf("\n(pieces: %zu 32-byte runs for weak words, %zu words not "
           "looked for: zeros and the like)\n",
           long_pieces, skipped_weak);
    if (failed_residue)
        printf("FAIL: secrets left on the stack (see the rows marked FAIL)\n");
    CHECK(!failed_residue);
    return check_summary();
}
