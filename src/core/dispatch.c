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
 * up with it; the result is cached. These caches and the default are the
 * library's only mutable globals: each is written once with the same value
 * by whichever thread gets there first, so a race is harmless.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

/* Name and properties are listed here as well as in each engine so that an
 * engine this CPU cannot run (its accessor returns NULL) can still be
 * named, described and refused with AESIR_E_ENGINE_UNAVAILABLE. */
struct entry {
    const char *name;
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

static int index_of(const char *name)
{
    for (size_t i = 0; i < NENGINES; i++)
        if (strcmp(registry[i].name, name) == 0)
            return (int)i;
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

static const struct aesir_engine *choose_default(void)
{
    const char *env = getenv("AESIR_ENGINE");
    const struct aesir_engine *any = NULL;

    if (env != NULL && *env != '\0') {
        int i = index_of(env);
        const struct aesir_engine *e =
            i >= 0 ? aesir_engine_at((size_t)i) : NULL;
        if (e != NULL)
            return e;
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
            return e;
        if (any == NULL)
            any = e;
    }
    return any;
}

static const struct aesir_engine *default_engine(void)
{
    static _Atomic(const struct aesir_engine *) cached;
    const struct aesir_engine *e = atomic_load(&cached);
    if (e == NULL) {
        e = choose_default();
        atomic_store(&cached, e);
    }
    return e;
}

const char *aesir_engine_default(void)
{
    return default_engine()->name;
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

static int checked(const struct aesir_engine *e)
{
    for (size_t i = 0; i < NENGINES; i++)
        if (registry[i].get() == e)
            return checked_at(i, e);
    return AESIR_E_ENGINE_UNKNOWN;
}

const struct aesir_engine *aesir_engine_by_name(const char *name, int *err)
{
    const struct aesir_engine *e;
    int i;

    if (name == NULL) {
        e = default_engine();
        *err = checked(e);
        return *err == AESIR_OK ? e : NULL;
    }
    /* Named: key setup per packet names its engine, so no second pass
     * over the registry. */
    if ((i = index_of(name)) < 0) {
        *err = AESIR_E_ENGINE_UNKNOWN;
        return NULL;
    }
    if ((e = aesir_engine_at((size_t)i)) == NULL) {
        *err = AESIR_E_ENGINE_UNAVAILABLE;
        return NULL;
    }
    *err = checked_at((size_t)i, e);
    return *err == AESIR_OK ? e : NULL;
}

int aesir_engine_selftest(const char *name)
{
    int err;
    if (name == NULL)
        return AESIR_E_ARGUMENT;
    (void)aesir_engine_by_name(name, &err);
    return err;
}
