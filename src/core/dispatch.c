/*
 * dispatch.c -- the engine registry and the one place that chooses the
 * default engine: it maps a name to an engine that is ready to use.
 *
 * The registry lists every engine of engines.def, in its order (the
 * public engine index), whether this build and CPU can run it or not.
 * The default is the first available constant-time engine in preference
 * order (engines.def's ranks, as the rule for this CPU model, `rules`,
 * adjusts them); every build has one (ct64 runs anywhere), and a build
 * that had none would fall back to the first available engine, which
 * aesir_engine_flags() would show as not constant-time.
 * AESIR_ENGINE=<name> in the environment overrides the choice for
 * programs that do not choose an engine themselves.
 *
 * Every engine runs its known-answer self-test the first time it is
 * asked for (aesir_engine_checked); the verdict is cached. The verdicts
 * and the default are, with key.c's reach caches, the library's only
 * mutable globals: each is written once with the same value by whichever
 * thread gets there first, so a race is harmless. Key installation
 * (schedules, wiping, reach) is key.c's.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "ghash.h"

/*
 * The registry, generated from engines.def: name and properties are kept
 * here as well as in each engine so that an engine this CPU cannot run
 * (its accessor returns NULL) can still be named, described and refused
 * with AESIR_E_ENGINE_UNAVAILABLE. A build with AESIR_HW_ENGINES=OFF
 * leaves the engines of kind HW out; they stay listed, by name, as
 * unavailable.
 */
#ifdef AESIR_NO_HW_ENGINES
static const struct aesir_engine *not_built(void)
{
    return NULL;
}
static const struct aesir_ghash_engine *ghash_not_built(void)
{
    return NULL;
}
#define GET_HW(get) not_built
#define GHASH_GET_HW(get) ghash_not_built
#else
#define GET_HW(get) get
#define GHASH_GET_HW(get) get
#endif
#define GET_SW(get) get
#define GHASH_GET_SW(get) get
#define FLAGS_HW ENGINE_HW
#define FLAGS_SW 0

const struct aesir_engine_entry aesir_engine_registry[AESIR_NENGINES] = {
#define AES_ENGINE(id, name, ct, kind, rank)                                   \
    {name, (ct) | FLAGS_##kind, GET_##kind(aesir_engine_##id)},
#include "engines.def"
};

#define NENGINES AESIR_NENGINES
#define registry aesir_engine_registry

/* Registry indices in preference order (engines.def's ranks), fastest
 * first. A rank given twice is an overridden initializer (a warning,
 * an error under -Werror); a rank left out would repeat index 0, which
 * the sum check catches. */
static const unsigned char by_rank[NENGINES] = {
#define AES_ENGINE(id, name, ct, kind, rank) [rank] = AESIR_ENGINE_INDEX_##id,
#include "engines.def"
};
#define AES_ENGINE(id, name, ct, kind, rank) +(rank)
_Static_assert(0
#include "engines.def"
                   == NENGINES * (NENGINES - 1) / 2,
               "engines.def: AES ranks must be 0 .. count-1, each once");

/*
 * Per-CPU rules. The model comes from cpu.c (CPUID vendor, family, model;
 * AESIR_CPU_MODEL=<name> for tests). A rule may move one engine ahead of
 * `preference`; `why` is what `aesir info` prints. Every rule names where
 * its figures come from; docs/engines/vaes.md has the tables. Only the
 * order of vaes-avx512 and vaes-avx2 differs today, on the CPUs that
 * have both.
 */
struct rule {
    unsigned model; /* AESIR_CPU_MODEL_* */
    int first;      /* registry index moved to the front, or -1 */
    const char *why;
};

static const struct rule rules[] = {
    /* Measured on Sapphire Rapids, docs/PERFORMANCE.md (make perf-doc,
     * commit caad5ff), AES-128 GB/s avx512 vs avx2: CTR 576 B 12.3 vs
     * 11.4, 1 KiB 16.4 vs 13.7, 16 KiB 18.6 vs 18.1; CBC decryption 576
     * B 12.5 vs 11.1; ECB 576 B 13.6 vs 11.3. */
    {AESIR_CPU_MODEL_INTEL_SPR, -1,
     "intel-spr: vaes-avx512 first, measured faster than vaes-avx2 from "
     "256 B up (docs/PERFORMANCE.md)"},
    /* Measured here (AMD EPYC, family 19h model 11h) with
     * aesir-bench --impls aesir/vaes-avx2,aesir/vaes-avx512 --ops
     * ecb-enc,ctr,cbc-dec,cfb128-dec,cbc-enc,mb --keys 128,256 --sizes
     * all --passes 3: vaesenc zmm runs at 1/cycle and ymm at 2/cycle (4
     * blocks/cycle both), clock samples 3.50-3.69 GHz; avx512 leads from 4 KiB
     * up by 2-10% (AES-128 16 KiB CTR 21.1 vs 19.2, CBC decryption 21.4 vs
     * 19.7) and with 16 multi-buffer messages by 24% (9.64 vs 7.78); avx2
     * leads by up to 10% on some sizes of 1 KiB and less. */
    {AESIR_CPU_MODEL_AMD_ZEN4, -1,
     "amd-zen4: vaes-avx512 first, measured faster than vaes-avx2 from 4 "
     "KiB up and for multi-buffer CBC (docs/engines/vaes.md)"},
    /* Measured on an AMD EPYC of family 1Ah model 02h (2026-11-26, 2
     * vCPUs, load 5.5) with aesir-bench --impls
     * aesir/vaes-avx2,aesir/vaes-avx512 --ops ecb-enc,ctr,cbc-dec
     * --keys 128 --sizes 64,576,1024,4096,16384: vaesenc zmm retires 2
     * per cycle (8 blocks, the limit row), and avx512 leads at every
     * size, AES-128 CTR 16 KiB 48.2 vs 24.9 GB/s, 576 B 39.2 vs 24.2,
     * 64 B 8.15 vs 7.96. */
    {AESIR_CPU_MODEL_AMD_ZEN5, -1,
     "amd-zen5: vaes-avx512 first, measured up to twice as fast as "
     "vaes-avx2 (512-bit AES units; docs/engines/vaes.md)"},
    /* Not measured by us. 512-bit instructions run under a lower
     * frequency licence on Ice Lake client cores (T. Downs, "Ice Lake
     * AVX-512 Downclocking", travisdowns.github.io, 2020); vaes-avx2
     * keeps to 256-bit registers. Replace with a measurement when one of
     * these cores is at hand. */
    {AESIR_CPU_MODEL_INTEL_ICL_CLIENT, AESIR_ENGINE_INDEX_vaes_avx2,
     "intel-icl-client: vaes-avx2 first, 512-bit code lowers the clock "
     "on these cores (Downs 2020; not measured here)"},
    /* Last: the rule for every other CPU. */
    {AESIR_CPU_MODEL_OTHER, -1,
     "other: the generic order (vaes-avx512 first, as measured on "
     "intel-spr, amd-zen4 and amd-zen5)"},
};

static const struct rule *rule_for_cpu(void)
{
    unsigned model = aesir_cpu_model_id();
    size_t i = 0;
    while (i + 1 < sizeof(rules) / sizeof(rules[0]) && rules[i].model != model)
        i++;
    return &rules[i];
}

/* The registry index of the p-th engine of the order under rule r
 * (r->first, then the ranks without it), or -1 past the end. */
static int ordered(const struct rule *r, size_t p)
{
    if (r->first >= 0) {
        if (p == 0)
            return r->first;
        p--;
    }
    for (size_t q = 0; q < NENGINES; q++) {
        if (by_rank[q] == r->first)
            continue;
        if (p-- == 0)
            return by_rank[q];
    }
    return -1;
}

const struct aesir_engine *aesir_engine_at(size_t i)
{
    return i < NENGINES ? registry[i].get() : NULL;
}

/* a and b are the same string; the first bytes inline, no library call
 * (most names differ there). */
static inline int same_name(const char *a, const char *b)
{
    if (*a != *b)
        return 0;
    while (*a != '\0' && *a == *b)
        a++, b++;
    return *a == *b;
}

/*
 * The registry index of name, or -1. Key setup through the API looks the
 * engine up on every call (a named engine is the common case), so: a name
 * this library handed out (aesir_engine_name() and the like) points into
 * the registry and needs no comparison; any other is compared in full
 * only with the entries whose first byte matches, inline (no library
 * call per entry), in rank order: the engines named most (the
 * AES-instruction ones) first.
 */
static int index_of(const char *name)
{
    int i = aesir_engine_index_fast(name);
    if (i >= 0)
        return i;
    for (size_t k = 0; k < NENGINES; k++)
        if (same_name(registry[by_rank[k]].name, name))
            return by_rank[k];
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

/* The registry index of the default engine, or -1 when no engine is
 * available at all. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static int
choose_default(void)
{
    const char *env = getenv("AESIR_ENGINE");
    const struct rule *r = rule_for_cpu();
    int any = -1, i;

    if (env != NULL && *env != '\0') {
        i = index_of(env);
        if (i >= 0 && aesir_engine_at((size_t)i) != NULL)
            return i;
    }
    for (size_t p = 0; (i = ordered(r, p)) >= 0; p++) {
        const struct aesir_engine *e = aesir_engine_at((size_t)i);
        if (e == NULL)
            continue;
        if (e->flags & ENGINE_CT)
            return i;
        if (any < 0)
            any = i;
    }
    return any;
}

_Atomic int aesir_engine_default_slot;

static int default_index(void)
{
    int i =
        atomic_load_explicit(&aesir_engine_default_slot, memory_order_relaxed);
    if (i == 0) {
        i = choose_default() + 1;
        atomic_store_explicit(&aesir_engine_default_slot, i,
                              memory_order_relaxed);
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
    int k;

    if (why != NULL)
        *why = r->why;
    for (size_t p = 0; (k = ordered(r, p)) >= 0; p++)
        if (aesir_engine_at((size_t)k) != NULL && i-- == 0)
            return registry[k].name;
    return NULL;
}

int aesir_engine_index(const char *name)
{
    return name == NULL ? default_index() : index_of(name);
}

/* Self-test status per engine index: 0 untested, 1 passed, 2 failed. */
static _Atomic unsigned char selftest_state[NENGINES];

const struct aesir_engine *aesir_engine_checked(int i, int *err)
{
    const struct aesir_engine *e;
    unsigned char s;

    if (i < 0 || i >= (int)NENGINES) {
        *err = AESIR_E_ENGINE_UNKNOWN;
        return NULL;
    }
    if ((e = registry[i].get()) == NULL) {
        *err = AESIR_E_ENGINE_UNAVAILABLE;
        return NULL;
    }
    s = atomic_load(&selftest_state[i]);
    if (s == 0) {
        s = aesir_engine_selftest_run(e) == 0 ? 1 : 2;
        atomic_store(&selftest_state[i], s);
    }
    *err = s == 1 ? AESIR_OK : AESIR_E_SELFTEST;
    return s == 1 ? e : NULL;
}

int aesir_engine_find(const char *name)
{
    return name != NULL ? index_of(name) : -1;
}

int aesir_engine_selftest(const char *name)
{
    int err;
    if (name == NULL)
        return AESIR_E_ARGUMENT;
    (void)aesir_engine_checked(index_of(name), &err);
    return err;
}

/* ---------------------------------------------------------------------
 * GHASH engines (src/ghash/ghash.h): the same registry, generated from
 * engines.def, without per-CPU rules (the ranks are the order on every
 * CPU measured). AESIR_GHASH_ENGINE overrides the default.
 * ------------------------------------------------------------------- */

struct ghash_entry {
    char name[24];
    unsigned flags;
    const struct aesir_ghash_engine *(*get)(void);
};

enum {
#define GHASH_ENGINE(id, name, ct, kind, rank) GHASH_INDEX_##id,
#include "engines.def"
    NGHASH
};

static const struct ghash_entry ghash_registry[NGHASH] = {
#define GHASH_ENGINE(id, name, ct, kind, rank)                                 \
    {name, (ct) | FLAGS_##kind, GHASH_GET_##kind(aesir_ghash_##id)},
#include "engines.def"
};

static const unsigned char ghash_by_rank[NGHASH] = {
#define GHASH_ENGINE(id, name, ct, kind, rank) [rank] = GHASH_INDEX_##id,
#include "engines.def"
};
#define GHASH_ENGINE(id, name, ct, kind, rank) +(rank)
_Static_assert(0
#include "engines.def"
                   == NGHASH * (NGHASH - 1) / 2,
               "engines.def: GHASH ranks must be 0 .. count-1, each once");

size_t aesir_ghash_engine_count(void)
{
    return NGHASH;
}

const struct aesir_ghash_engine *aesir_ghash_engine_at(size_t i)
{
    return i < NGHASH ? ghash_registry[i].get() : NULL;
}

const char *aesir_ghash_engine_name(size_t i)
{
    return i < NGHASH ? ghash_registry[i].name : NULL;
}

const char *aesir_ghash_engine_name_at(size_t i)
{
    return aesir_ghash_engine_name(i);
}

const char *aesir_ghash_engine_description(size_t i)
{
    const struct aesir_ghash_engine *e = aesir_ghash_engine_at(i);
    if (i >= NGHASH)
        return NULL;
    return e != NULL ? e->description : "(not available on this CPU)";
}

unsigned aesir_ghash_engine_flags(size_t i)
{
    if (i >= NGHASH)
        return 0;
    return ghash_registry[i].flags |
           (ghash_registry[i].get() != NULL ? AESIR_ENGINE_AVAILABLE : 0);
}

int aesir_ghash_engine_find(const char *name)
{
    if (name == NULL)
        return -1;
    for (size_t k = 0; k < NGHASH; k++)
        if (same_name(ghash_registry[ghash_by_rank[k]].name, name))
            return ghash_by_rank[k];
    return -1;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static int
ghash_choose_default(int *forced)
{
    const char *env = getenv("AESIR_GHASH_ENGINE");
    int any = -1;

    *forced = 0;
    if (env != NULL && *env != '\0') {
        int i = aesir_ghash_engine_find(env);
        if (i >= 0 && aesir_ghash_engine_at((size_t)i) != NULL) {
            *forced = 1;
            return i;
        }
    }
    for (size_t p = 0; p < NGHASH; p++) {
        int i = ghash_by_rank[p];
        const struct aesir_ghash_engine *e = aesir_ghash_engine_at((size_t)i);
        if (e == NULL)
            continue;
        if (e->flags & ENGINE_CT)
            return i;
        if (any < 0)
            any = i;
    }
    return any;
}

/* The default GHASH engine's index + 1 once chosen, 0 before; bit 8
 * (GHASH_FORCED) when AESIR_GHASH_ENGINE chose it. */
static _Atomic int ghash_default_slot;
#define GHASH_FORCED 0x100

static int ghash_default_slot_value(void)
{
    int i = atomic_load_explicit(&ghash_default_slot, memory_order_relaxed);
    if (i == 0) {
        int forced;
        i = (ghash_choose_default(&forced) + 1) | (forced ? GHASH_FORCED : 0);
        atomic_store_explicit(&ghash_default_slot, i, memory_order_relaxed);
    }
    return i;
}

static int ghash_default_index(void)
{
    return (ghash_default_slot_value() & ~GHASH_FORCED) - 1;
}

const char *aesir_ghash_engine_default(void)
{
    int i = ghash_default_index();
    return i >= 0 ? ghash_registry[i].name : NULL;
}

int aesir_ghash_index(const char *name)
{
    return name == NULL ? ghash_default_index() : aesir_ghash_engine_find(name);
}

int aesir_ghash_index_with(const char *partner)
{
    int slot = ghash_default_slot_value();
    if (partner != NULL && (slot & GHASH_FORCED) == 0) {
        int i = aesir_ghash_engine_find(partner);
        if (i >= 0 && aesir_ghash_engine_at((size_t)i) != NULL)
            return i;
    }
    return (slot & ~GHASH_FORCED) - 1;
}

static _Atomic unsigned char ghash_selftest_state[NGHASH];

/*
 * Reach, as for the AES engines (key.c): how many bytes of the key area a
 * GHASH engine's init writes (a key of a different engine may have left
 * more: gcm.c wipes from one to the other), measured once with two fill
 * patterns, and the largest reach of any GHASH engine made ready so far.
 */
static _Atomic uint32_t ghash_reach[NGHASH];
static _Atomic uint32_t ghash_reach_all;

static size_t ghash_measure(const struct aesir_ghash_engine *e)
{
    static const uint8_t h[16] = {0x52, 0x65, 0x61, 0x63, 0x68};
    _Alignas(64) unsigned char buf[AESIR_GHASH_KEY_BYTES];
    size_t most = 0;

    for (int f = 0; f < 2; f++) {
        unsigned char fill = f ? 0x5a : 0xa5;
        size_t n = AESIR_GHASH_KEY_BYTES;
        memset(buf, fill, n);
        e->init(buf, h);
        while (n > 0 && buf[n - 1] == fill)
            n--;
        most = n > most ? n : most;
    }
    return (most + 63) & ~(size_t)63;
}

static void ghash_make_ready(int i, const struct aesir_ghash_engine *e)
{
    uint32_t r = (uint32_t)ghash_measure(e), seen;
    atomic_store_explicit(&ghash_reach[i], r, memory_order_relaxed);
    seen = atomic_load_explicit(&ghash_reach_all, memory_order_relaxed);
    while (seen < r && !atomic_compare_exchange_weak_explicit(
                           &ghash_reach_all, &seen, r, memory_order_relaxed,
                           memory_order_relaxed))
        ;
}

void aesir_ghash_key_span(int i, size_t *from, size_t *to)
{
    *from = atomic_load_explicit(&ghash_reach[i], memory_order_relaxed);
    *to = atomic_load_explicit(&ghash_reach_all, memory_order_relaxed);
}

const struct aesir_ghash_engine *aesir_ghash_checked(int i, int *err)
{
    const struct aesir_ghash_engine *e;
    unsigned char s;

    if (i < 0 || i >= (int)NGHASH) {
        *err = AESIR_E_ENGINE_UNKNOWN;
        return NULL;
    }
    if ((e = ghash_registry[i].get()) == NULL) {
        *err = AESIR_E_ENGINE_UNAVAILABLE;
        return NULL;
    }
    s = atomic_load(&ghash_selftest_state[i]);
    if (s == 0) {
        s = aesir_ghash_selftest_run(e) == 0 ? 1 : 2;
        if (s == 1)
            ghash_make_ready(i, e);
        atomic_store(&ghash_selftest_state[i], s);
    }
    *err = s == 1 ? AESIR_OK : AESIR_E_SELFTEST;
    return s == 1 ? e : NULL;
}

int aesir_ghash_engine_selftest(const char *name)
{
    int err;
    if (name == NULL)
        return AESIR_E_ARGUMENT;
    (void)aesir_ghash_checked(aesir_ghash_engine_find(name), &err);
    return err;
}
