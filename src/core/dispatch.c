/*
 * dispatch.c -- the engine registry and the one place that chooses the
 * default engine.
 *
 * The registry lists every engine compiled in, in a fixed order (the
 * public engine index). The default is the first available engine of
 * `preference` that is constant-time; only a build without any
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
    {"vperm-ssse3", ENGINE_CT, aesir_engine_vperm_ssse3},
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
    "vaes-avx512", "vaes-avx2",  "aesni",         "armv8-ce",   "pwr8",
    "vperm-ssse3", "vperm-neon", "vperm-altivec", "vperm-wasm", "ct64",
    "ttable",      "ref",        "ref-otf"};

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
    for (size_t p = 0; p < sizeof(preference) / sizeof(preference[0]); p++) {
        int i = index_of(preference[p]);
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

int aesir_engine_selftest_run(const struct aesir_engine *e);

/* Selftest status per engine index: 0 untested, 1 passed, 2 failed. */
static _Atomic unsigned char selftest_state[NENGINES];

static int checked(const struct aesir_engine *e)
{
    for (size_t i = 0; i < NENGINES; i++) {
        if (registry[i].get() != e)
            continue;
        unsigned char s = atomic_load(&selftest_state[i]);
        if (s == 0) {
            s = aesir_engine_selftest_run(e) == 0 ? 1 : 2;
            atomic_store(&selftest_state[i], s);
        }
        return s == 1 ? AESIR_OK : AESIR_E_SELFTEST;
    }
    return AESIR_E_ENGINE_UNKNOWN;
}

const struct aesir_engine *aesir_engine_by_name(const char *name, int *err)
{
    const struct aesir_engine *e;

    if (name == NULL) {
        e = default_engine();
    } else {
        int i = index_of(name);
        if (i < 0) {
            *err = AESIR_E_ENGINE_UNKNOWN;
            return NULL;
        }
        e = aesir_engine_at((size_t)i);
        if (e == NULL) {
            *err = AESIR_E_ENGINE_UNAVAILABLE;
            return NULL;
        }
    }
    *err = checked(e);
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
