/*
 * dispatch.c -- the engine registry and the one place that chooses the
 * default engine.
 *
 * The registry lists every engine compiled in, in a fixed order (the
 * public engine index). The default is the first available engine of
 * `preference`, as the rule for this CPU model (`rules`) reorders it,
 * that is constant-time; only a build without any
 * constant-time engine falls back to the first available one at all, and
 * aesir_engine_flags() then tells the caller the default is not
 * constant-time. AESIR_ENGINE=<name> in the environment overrides the
 * choice for programs that do not choose an engine themselves.
 *
 * Every engine runs its known-answer self-test the first time a key is set
 * up with it; the result is cached, and so is how far its key setup
 * writes (see "Reach" below). These caches and the default are the
 * library's only mutable globals: each is written once with the same value
 * by whichever thread gets there first, so a race is harmless; reach_all,
 * the largest reach so far, only grows (compare-and-swap).
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

/* Name and properties are listed here as well as in each engine so that an
 * engine this CPU cannot run (its accessor returns NULL) can still be
 * named, described and refused with AESIR_E_ENGINE_UNAVAILABLE. */
struct entry {
    char name[16]; /* inline: index_of() reads it without a pointer chase */
    unsigned flags;
    const struct aesir_engine *(*get)(void);
};

/* A build with AESIR_HW_ENGINES=OFF leaves the engines that use AES
 * instructions out; they stay in the registry, by name, as unavailable. */
#ifdef AESIR_NO_HW_ENGINES
static const struct aesir_engine *not_built(void)
{
    return NULL;
}
#define HW(get) not_built
#else
#define HW(get) get
#endif

static const struct entry registry[] = {
    {"ref", 0, aesir_engine_ref},
    {"ref-otf", 0, aesir_engine_ref_otf},
    {"ttable", 0, aesir_engine_ttable},
    {"ct64", ENGINE_CT, aesir_engine_ct64},
    {"bs-avx2", ENGINE_CT, aesir_engine_bs_avx2},
    {"bs-avx512", ENGINE_CT, aesir_engine_bs_avx512},
    {"vperm-ssse3", ENGINE_CT, aesir_engine_vperm_ssse3},
    {"vperm-avx2", ENGINE_CT, aesir_engine_vperm_avx2},
    {"gfni", ENGINE_CT, aesir_engine_gfni},
    {"aesni", ENGINE_CT | ENGINE_HW, HW(aesir_engine_aesni)},
    {"vaes-avx2", ENGINE_CT | ENGINE_HW, HW(aesir_engine_vaes_avx2)},
    {"vaes-avx512", ENGINE_CT | ENGINE_HW, HW(aesir_engine_vaes_avx512)},
    {"vperm-neon", ENGINE_CT, aesir_engine_vperm_neon},
    {"vperm-altivec", ENGINE_CT, aesir_engine_vperm_altivec},
    {"vperm-wasm", ENGINE_CT, aesir_engine_vperm_wasm},
    {"armv8-ce", ENGINE_CT | ENGINE_HW, HW(aesir_engine_armv8_ce)},
    {"pwr8", ENGINE_CT | ENGINE_HW, HW(aesir_engine_pwr8)},
};

#define NENGINES (sizeof(registry) / sizeof(registry[0]))

/* Fastest first, as measured by `make speed` on x86-64 (docs/
 * PERFORMANCE.md); only the order among available engines matters. On
 * Sapphire Rapids vaes-avx512 and vaes-avx2 reach the same AES bound on
 * long messages (zmm: 1 vaesenc/cycle, ymm: 2/cycle) and avx512 wins on
 * short ones through masked tails. */
static const char *const preference[] = {
    "vaes-avx512", "vaes-avx2",  "aesni",         "armv8-ce",
    "pwr8",        "gfni",        "vperm-avx2", "vperm-ssse3",   "vperm-neon",
    "vperm-altivec", "vperm-wasm",
    /* bitsliced: fastest on long messages, 4x slower on single blocks
     * (docs/engines/ct64.md), so after vector-permute */
    "bs-avx512", "bs-avx2", "ct64",        "ttable",
    "ref",         "ref-otf"};

#define NPREF (sizeof(preference) / sizeof(preference[0]))

/*
 * Per-CPU rules. The model comes from cpu.c (CPUID vendor, family, model;
 * AESIR_CPU_MODEL=<name> for tests). A rule may move one engine ahead of
 * `preference`; `why` is what `aesir info` prints. Every rule names where
 * its figures come from; docs/engines/vaes.md has the tables. Only the
 * order of vaes-avx512 and vaes-avx2 differs today, on the CPUs that
 * have both.
 */
struct rule {
    unsigned model;    /* AESIR_CPU_MODEL_* */
    const char *first; /* moved to the front, or NULL */
    const char *why;
};

static const struct rule rules[] = {
    /* Measured on Sapphire Rapids, docs/PERFORMANCE.md (make perf-doc,
     * commit caad5ff), AES-128 GB/s avx512 vs avx2: CTR 576 B 12.3 vs
     * 11.4, 1 KiB 16.4 vs 13.7, 16 KiB 18.6 vs 18.1; CBC decryption 576
     * B 12.5 vs 11.1; ECB 576 B 13.6 vs 11.3. */
    {AESIR_CPU_MODEL_INTEL_SPR, NULL,
     "intel-spr: vaes-avx512 first, measured faster than vaes-avx2 from "
     "256 B up (docs/PERFORMANCE.md)"},
    /* Measured here (AMD EPYC, family 19h model 11h) with
     * aesir-bench --impls aesir/vaes-avx2,aesir/vaes-avx512 --ops
     * ecb-enc,ctr,cbc-dec,cfb128-dec,cbc-enc,mb --keys 128,256 --sizes
     * all --passes 3: vaesenc zmm runs at 1/cycle and ymm at 2/cycle (4
     * blocks/cycle both), clock samples 3.50-3.69 GHz; avx512 leads from 4 KiB up by
     * 2-10% (AES-128 16 KiB CTR 21.1 vs 19.2, CBC decryption 21.4 vs
     * 19.7) and with 16 multi-buffer messages by 24% (9.64 vs 7.78); avx2
     * leads by up to 10% on some sizes of 1 KiB and less. */
    {AESIR_CPU_MODEL_AMD_ZEN4, NULL,
     "amd-zen4: vaes-avx512 first, measured faster than vaes-avx2 from 4 "
     "KiB up and for multi-buffer CBC (docs/engines/vaes.md)"},
    /* Not measured by us. 512-bit instructions run under a lower
     * frequency licence on Ice Lake client cores (T. Downs, "Ice Lake
     * AVX-512 Downclocking", travisdowns.github.io, 2020); vaes-avx2
     * keeps to 256-bit registers. Replace with a measurement when one of
     * these cores is at hand. */
    {AESIR_CPU_MODEL_INTEL_ICL_CLIENT, "vaes-avx2",
     "intel-icl-client: vaes-avx2 first, 512-bit code lowers the clock "
     "on these cores (Downs 2020; not measured here)"},
    /* Last: the rule for every other CPU. */
    {AESIR_CPU_MODEL_OTHER, NULL,
     "other: the generic order (vaes-avx512 first, as measured on "
     "intel-spr and amd-zen4)"},
};

static const struct rule *rule_for_cpu(void)
{
    unsigned model = aesir_cpu_model_id();
    size_t i = 0;
    while (i + 1 < sizeof(rules) / sizeof(rules[0]) && rules[i].model != model)
        i++;
    return &rules[i];
}

/* The p-th name of the order under rule r (r->first, then `preference`
 * without it), or NULL past the end. */
static const char *ordered(const struct rule *r, size_t p)
{
    if (r->first != NULL) {
        if (p == 0)
            return r->first;
        p--;
    }
    for (size_t q = 0; q < NPREF; q++) {
        if (r->first != NULL && strcmp(preference[q], r->first) == 0)
            continue;
        if (p-- == 0)
            return preference[q];
    }
    return NULL;
}

const struct aesir_engine *aesir_engine_at(size_t i)
{
    return i < NENGINES ? registry[i].get() : NULL;
}

/* Registry indices in the order index_of() tries them: the engines key
 * setup names most (the AES-instruction ones, as in `preference`) first.
 * tests/test_api.c checks that every name is found at its index. */
static const unsigned char scan_order[] = {11, 10, 9, 15, 16, 8, 7, 6, 12,
                                           13, 14, 5, 4, 3, 2, 0, 1};
_Static_assert(sizeof(scan_order) == NENGINES, "scan_order: one per engine");

/* The registry index of a name this library handed out (it points into
 * the registry), else -1. */
static inline int index_by_address(const char *name)
{
    uintptr_t off = (uintptr_t)name - (uintptr_t)registry;
    if (off < sizeof(registry) &&
        off % sizeof(struct entry) == offsetof(struct entry, name))
        return (int)(off / sizeof(struct entry));
    return -1;
}

/*
 * The registry index of name, or -1. Key setup through the API looks the
 * engine up on every call (a named engine is the common case), so: a name
 * this library handed out (aesir_engine_name() and the like) points into
 * the registry and needs no comparison; any other is compared in full
 * only with the entries whose first byte matches, inline (no library
 * call per entry), in scan_order.
 */
static int index_of(const char *name)
{
    int i = index_by_address(name);
    if (i >= 0)
        return i;
    for (size_t k = 0; k < NENGINES; k++) {
        const char *a = registry[scan_order[k]].name, *b = name;
        if (*a != *b)
            continue;
        while (*a != '\0' && *a == *b)
            a++, b++;
        if (*a == *b)
            return scan_order[k];
    }
    return -1;
}

size_t aesir_engine_count(void)
{
    return NENGINES;
}

const char *aesir_engine_name(size_t i)
{
    return i < NENGINES ? registry[i].name : NULL;
}

const char *aesir_engine_description(size_t i)
{
    const struct aesir_engine *e = aesir_engine_at(i);
    if (i >= NENGINES)
        return NULL;
    return e != NULL ? e->description : "(not available on this CPU)";
}

unsigned aesir_engine_flags(size_t i)
{
    if (i >= NENGINES)
        return 0;
    return registry[i].flags |
           (registry[i].get() != NULL ? AESIR_ENGINE_AVAILABLE : 0);
}

int aesir_engine_find(const char *name)
{
    return name != NULL ? index_of(name) : -1;
}

/* The registry index of the default engine, or -1 when no engine is
 * available at all. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static int choose_default(void)
{
    const char *env = getenv("AESIR_ENGINE");
    int any = -1;

    if (env != NULL && *env != '\0') {
        int i = index_of(env);
        if (i >= 0 && aesir_engine_at((size_t)i) != NULL)
            return i;
    }
    const struct rule *r = rule_for_cpu();
    const char *name;
    for (size_t p = 0; (name = ordered(r, p)) != NULL; p++) {
        int i = index_of(name);
        const struct aesir_engine *e =
            i >= 0 ? aesir_engine_at((size_t)i) : NULL;
        if (e == NULL)
            continue;
        if (e->flags & ENGINE_CT)
            return i;
        if (any < 0)
            any = i;
    }
    return any;
}

/* The default's index + 1, once chosen (0: not yet). */
static _Atomic int default_cached;

static int default_index(void)
{
    int i = atomic_load_explicit(&default_cached, memory_order_relaxed);
    if (i == 0) {
        i = choose_default() + 1;
        atomic_store_explicit(&default_cached, i, memory_order_relaxed);
    }
    return i - 1;
}

const char *aesir_engine_default(void)
{
    int i = default_index();
    return i >= 0 ? registry[i].name : NULL;
}

const char *aesir_engine_ranked(size_t i, const char **why)
{
    const struct rule *r = rule_for_cpu();
    const char *name;

    if (why != NULL)
        *why = r->why;
    for (size_t p = 0; (name = ordered(r, p)) != NULL; p++) {
        int k = index_of(name);
        if (k >= 0 && aesir_engine_at((size_t)k) != NULL && i-- == 0)
            return registry[k].name;
    }
    return NULL;
}

int aesir_engine_selftest_run(const struct aesir_engine *e);

/* Selftest status per engine index: 0 untested, 1 passed, 2 failed. */
static _Atomic unsigned char selftest_state[NENGINES];

/* The self-test verdict for engine e at registry index i, running the
 * test the first time. */
static int checked_at(size_t i, const struct aesir_engine *e)
{
    unsigned char s = atomic_load(&selftest_state[i]);
    if (s == 0) {
        s = aesir_engine_selftest_run(e) == 0 ? 1 : 2;
        atomic_store(&selftest_state[i], s);
    }
    return s == 1 ? AESIR_OK : AESIR_E_SELFTEST;
}

/*
 * Reach: how far into a round-key area (AESIR_RK_BYTES) an engine's key
 * setup writes. key.c wipes, at every key setup, the bytes of each area
 * that the new schedule does not overwrite but an earlier key could have
 * filled: up to reach_all, the largest reach of any engine made ready in
 * this process (and so of any schedule ever written into any context by
 * this library: only key.c writes schedules, always with an engine
 * returned below, which raised reach_all first). reach_all only grows, so
 * a program that uses only the AES-instruction engines (240 bytes at
 * most) never pays for the bitsliced engines' 960. It is a global, not a
 * field of the context, because key setup may be given a context that
 * was never initialised, whose fields must not be read.
 *
 * An engine's reach is measured once, when it is first made ready: its
 * setkey_enc and setkey_dec run for each key length on a buffer filled
 * with 0xa5 and again with 0x5a; the last byte that differs from the
 * filling in either run ends the reach (a byte the engine writes cannot
 * equal both fillings). The key is a public one; which bytes an engine
 * writes depends on the key length only, not on the key (its loops are
 * fixed by the length; tests/test_api.c sets every engine up over
 * earlier keys of every engine and checks that nothing of them stays).
 */
static _Atomic uint32_t reach_all;

/* Per registry index: the engine once it has passed its self-test and
 * its reach is known (NULL before, and for an engine that is unavailable
 * or failed), and its reach per key length, enc | dec << 16. */
static struct {
    _Atomic(const struct aesir_engine *) engine;
    _Atomic uint32_t reach[3];
} ready[NENGINES];

static size_t reach_of(const unsigned char *buf, unsigned char fill)
{
    size_t n = AESIR_RK_BYTES;
    while (n > 0 && buf[n - 1] == fill)
        n--;
    return n;
}

static uint32_t measure_reach(const struct aesir_engine *e, size_t key_len)
{
    static const uint8_t key[32] = {0x52, 0x65, 0x61, 0x63, 0x68};
    _Alignas(64) unsigned char buf[AESIR_RK_BYTES];
    size_t r[2] = {0, 0};

    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++) {
            unsigned char fill = f ? 0x5a : 0xa5;
            size_t n;
            memset(buf, fill, sizeof(buf));
            (d ? e->setkey_dec : e->setkey_enc)(buf, key, key_len);
            n = reach_of(buf, fill);
            r[d] = n > r[d] ? n : r[d];
        }
    aesir_wipe(buf, sizeof(buf));
    return (uint32_t)r[0] | (uint32_t)r[1] << 16;
}

/* The first use of the engine at index i: available, self-tested, reach
 * measured and reach_all raised, then published in ready[i]. Kept out of
 * line: inlined, its registers make every key setup save and restore six. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static const struct aesir_engine *make_ready(size_t i, int *err)
{
    const struct aesir_engine *e = registry[i].get();
    uint32_t most = 0, seen;

    if (e == NULL) {
        *err = AESIR_E_ENGINE_UNAVAILABLE;
        return NULL;
    }
    if ((*err = checked_at(i, e)) != AESIR_OK)
        return NULL;
    for (size_t k = 0; k < 3; k++) {
        uint32_t r = measure_reach(e, 16 + 8 * k);
        atomic_store_explicit(&ready[i].reach[k], r, memory_order_relaxed);
        most = (r & 0xffff) > most ? (r & 0xffff) : most;
        most = (r >> 16) > most ? (r >> 16) : most;
    }
    seen = atomic_load_explicit(&reach_all, memory_order_relaxed);
    while (seen < most &&
           !atomic_compare_exchange_weak_explicit(&reach_all, &seen, most,
                                                  memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
    atomic_store_explicit(&ready[i].engine, e, memory_order_release);
    return e;
}

/* The engine at index i, self-tested; NULL with *err set otherwise. */
static const struct aesir_engine *ready_at(int i, int *err)
{
    const struct aesir_engine *e;
    if (i < 0) {
        *err = AESIR_E_ENGINE_UNKNOWN;
        return NULL;
    }
    e = atomic_load_explicit(&ready[i].engine, memory_order_acquire);
    return e != NULL ? e : make_ready((size_t)i, err);
}

/* The index name names, the default's for NULL; -1 when unknown. */
static int lookup(const char *name)
{
    return name == NULL ? default_index() : index_of(name);
}

const struct aesir_engine *aesir_engine_by_name(const char *name, int *err)
{
    const struct aesir_engine *e = ready_at(lookup(name), err);
    if (e != NULL)
        *err = AESIR_OK;
    return e;
}

/* *reach for the ready engine at index i. */
static inline uint64_t reach_at(int i, size_t key_len)
{
    return atomic_load_explicit(&ready[i].reach[(key_len - 16) / 8],
                                memory_order_relaxed) |
           (uint64_t)atomic_load_explicit(&reach_all, memory_order_relaxed)
               << 32;
}

/* The header, then the schedules of a context set up with the ready
 * engine e at registry index i (aesir_engine_setkey). */
static inline int install(aesir_aes *ctx, int i, const struct aesir_engine *e,
                          const uint8_t *key, size_t key_len, unsigned dirs)
{
    struct aesir_key_state *ks = aesir_key_head(ctx, e, key_len, dirs);
    if (e->setkey_pair != NULL)
        return e->setkey_pair(
            ks->rk_enc, ks->rk_dec, key, key_len, dirs,
            atomic_load_explicit(&reach_all, memory_order_relaxed));
    return aesir_setkey_generic(ks, key, key_len, dirs, reach_at(i, key_len));
}

/* aesir_engine_setkey() for a name compared in full, an engine not ready
 * yet, or an error. Out of line, so that the fast path saves no
 * registers (the comparison loop needs them). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int setkey_slow(aesir_aes *ctx, const char *name, const uint8_t *key,
                       size_t key_len, unsigned dirs)
{
    int i = lookup(name), err;
    const struct aesir_engine *e = ready_at(i, &err);
    if (e == NULL) {
        aesir_aes_clear(ctx);
        return err;
    }
    return install(ctx, i, e, key, key_len, dirs);
}

int aesir_engine_setkey(aesir_aes *ctx, const char *name, const uint8_t *key,
                        size_t key_len, unsigned dirs)
{
    /* -1 (slow path) for the default not chosen yet, and for a name that
     * must be compared */
    int i = name == NULL ? atomic_load_explicit(&default_cached,
                                                memory_order_relaxed) -
                               1
                         : index_by_address(name);
    const struct aesir_engine *e =
        i >= 0 ? atomic_load_explicit(&ready[i].engine, memory_order_acquire)
               : NULL;
    if (e == NULL)
        return setkey_slow(ctx, name, key, key_len, dirs);
    return install(ctx, i, e, key, key_len, dirs);
}

int aesir_engine_selftest(const char *name)
{
    int err;
    if (name == NULL)
        return AESIR_E_ARGUMENT;
    (void)aesir_engine_by_name(name, &err);
    return err;
}
