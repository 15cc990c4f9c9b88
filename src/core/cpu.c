/*
 * cpu.c -- the one-time CPU probe: which instruction-set extensions this
 * CPU has and the operating system has enabled.
 *
 * x86: CPUID leaves 1 and 7, and XGETBV for the register state the OS
 * saves (an AVX or AVX-512 instruction faults if the OS does not save
 * YMM/ZMM state, whatever CPUID says). Linux on aarch64 and PowerPC:
 * the kernel's hardware capability words (getauxval AT_HWCAP, AT_HWCAP2),
 * so one binary runs the ARMv8 and POWER8 crypto engines only where the
 * CPU has them. Elsewhere (no auxv, wasm32) what the compiler was told
 * to assume (__ARM_FEATURE_*, __ALTIVEC__, __wasm_simd128__, ...).
 *
 * AESIR_CPU_DISABLE="aesni,avx512f,..." (comma-separated feature names, or
 * "all") masks features before any engine sees them, so the fallbacks can
 * be exercised on a CPU that has everything (BoringSSL's OPENSSL_ia32cap
 * habit). The result is computed once and cached; concurrent first calls
 * compute the same value, so the race is harmless.
 *
 * The same probe classifies the CPU model for dispatch.c's per-CPU rules:
 * x86 vendor string (CPUID leaf 0) and family/model (leaf 1, with the
 * extended fields added as Intel's SDM vol. 2A and AMD's APM vol. 3
 * define them), matched against the small table below.
 * AESIR_CPU_MODEL=<name> ("amd-zen4", "amd-zen5", "intel-spr",
 * "intel-icl-client", "other") replaces the result, so the rules can be tested
 * on any CPU; an unknown name is ignored. The model lives in bits 26..29 of the
 * one cached word, next to the features.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define AESIR_X86 1
#endif

#if defined(__linux__) && (defined(__aarch64__) || defined(__powerpc__))
#include <sys/auxv.h>
#define AESIR_AUXV 1
#endif

static const struct {
    const char *name;
    uint32_t bit;
} feature_names[] = {
    {"sse2", AESIR_CPU_SSE2},         {"ssse3", AESIR_CPU_SSSE3},
    {"sse41", AESIR_CPU_SSE41},       {"aesni", AESIR_CPU_AESNI},
    {"pclmul", AESIR_CPU_PCLMUL},     {"avx", AESIR_CPU_AVX},
    {"avx2", AESIR_CPU_AVX2},         {"vaes", AESIR_CPU_VAES},
    {"vpclmul", AESIR_CPU_VPCLMUL},   {"avx512f", AESIR_CPU_AVX512F},
    {"avx512bw", AESIR_CPU_AVX512BW}, {"avx512vl", AESIR_CPU_AVX512VL},
    {"gfni", AESIR_CPU_GFNI},         {"avx512vbmi", AESIR_CPU_AVX512VBMI},
    {"neon", AESIR_CPU_NEON},         {"armv8-aes", AESIR_CPU_ARMV8_AES},
    {"pmull", AESIR_CPU_PMULL},       {"altivec", AESIR_CPU_ALTIVEC},
    {"power8", AESIR_CPU_POWER8},     {"simd128", AESIR_CPU_SIMD128},
};

static const char *const model_names[AESIR_CPU_MODEL_COUNT] = {
    [AESIR_CPU_MODEL_OTHER] = "other",
    [AESIR_CPU_MODEL_INTEL_ICL_CLIENT] = "intel-icl-client",
    [AESIR_CPU_MODEL_INTEL_SPR] = "intel-spr",
    [AESIR_CPU_MODEL_AMD_ZEN4] = "amd-zen4",
    [AESIR_CPU_MODEL_AMD_ZEN5] = "amd-zen5",
};

#define MODEL_SHIFT 26
#define MODEL_BITS (0xfu << MODEL_SHIFT)

#ifdef AESIR_X86
/*
 * Which CPUID family/model is which model class. Intel family 6 model
 * numbers: Linux arch/x86/include/asm/intel-family.h (ICELAKE 0x7D,
 * ICELAKE_L 0x7E, TIGERLAKE_L 0x8C, TIGERLAKE 0x8D, SAPPHIRERAPIDS_X
 * 0x8F, EMERALDRAPIDS_X 0xCF). AMD Zen 4: family 19h, models 10h-1Fh and
 * 60h-AFh, as Linux arch/x86/kernel/cpu/amd.c sets X86_FEATURE_ZEN4; Zen
 * 5: family 1Ah, models 00h-2Fh, 40h-4Fh and 60h-7Fh (X86_FEATURE_ZEN5,
 * same file).
 */
static const struct {
    const char *vendor;
    unsigned family, model_lo, model_hi;
    unsigned id;
} model_table[] = {
    {"GenuineIntel", 6, 0x7d, 0x7e, AESIR_CPU_MODEL_INTEL_ICL_CLIENT},
    {"GenuineIntel", 6, 0x8c, 0x8d, AESIR_CPU_MODEL_INTEL_ICL_CLIENT},
    {"GenuineIntel", 6, 0x8f, 0x8f, AESIR_CPU_MODEL_INTEL_SPR},
    {"GenuineIntel", 6, 0xcf, 0xcf, AESIR_CPU_MODEL_INTEL_SPR},
    {"AuthenticAMD", 0x19, 0x10, 0x1f, AESIR_CPU_MODEL_AMD_ZEN4},
    {"AuthenticAMD", 0x19, 0x60, 0xaf, AESIR_CPU_MODEL_AMD_ZEN4},
    {"AuthenticAMD", 0x1a, 0x00, 0x2f, AESIR_CPU_MODEL_AMD_ZEN5},
    {"AuthenticAMD", 0x1a, 0x40, 0x4f, AESIR_CPU_MODEL_AMD_ZEN5},
    {"AuthenticAMD", 0x1a, 0x60, 0x7f, AESIR_CPU_MODEL_AMD_ZEN5},
};

/* Vendor string, family and model from CPUID leaves 0 and 1; 0 when the
 * CPU has no CPUID. */
static int x86_ident(char vendor[13], unsigned *family, unsigned *model)
{
    unsigned a, b, c, d, fam;

    memset(vendor, 0, 13);
    *family = *model = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    fam = (a >> 8) & 0xf;
    *family = fam == 0xf ? fam + ((a >> 20) & 0xff) : fam;
    *model = (a >> 4) & 0xf;
    if (fam == 0x6 || fam == 0xf)
        *model |= ((a >> 16) & 0xf) << 4;
    return 1;
}

static unsigned probe_model(void)
{
    char vendor[13];
    unsigned family, model;

    if (!x86_ident(vendor, &family, &model))
        return AESIR_CPU_MODEL_OTHER;
    for (size_t i = 0; i < sizeof(model_table) / sizeof(model_table[0]); i++)
        if (strcmp(vendor, model_table[i].vendor) == 0 &&
            family == model_table[i].family &&
            model >= model_table[i].model_lo &&
            model <= model_table[i].model_hi)
            return model_table[i].id;
    return AESIR_CPU_MODEL_OTHER;
}
#else
static unsigned probe_model(void)
{
    return AESIR_CPU_MODEL_OTHER;
}
#endif

/* The model named by AESIR_CPU_MODEL, else the probed one. */
static unsigned model_of(void)
{
    const char *s = getenv("AESIR_CPU_MODEL");
    for (unsigned i = 0; s != NULL && i < AESIR_CPU_MODEL_COUNT; i++)
        if (strcmp(s, model_names[i]) == 0)
            return i;
    return probe_model();
}

#ifdef AESIR_X86
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static uint32_t probe_x86(void)
{
    unsigned a, b, c, d, b7 = 0, c7 = 0;
    uint32_t f = 0;
    int ymm = 0, zmm = 0;

    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (d & (1u << 26))
        f |= AESIR_CPU_SSE2;
    if (c & (1u << 9))
        f |= AESIR_CPU_SSSE3;
    if (c & (1u << 19))
        f |= AESIR_CPU_SSE41;
    if (c & (1u << 25))
        f |= AESIR_CPU_AESNI;
    if (c & (1u << 1))
        f |= AESIR_CPU_PCLMUL;
    if (c & (1u << 27)) { /* OSXSAVE: XGETBV is usable */
        uint64_t xcr0 = xgetbv0();
        ymm = (xcr0 & 0x6) == 0x6;   /* XMM and YMM state */
        zmm = (xcr0 & 0xe6) == 0xe6; /* and opmask, ZMM_Hi256, Hi16_ZMM */
    }
    if (ymm && (c & (1u << 28)))
        f |= AESIR_CPU_AVX;
    if (__get_cpuid_max(0, NULL) >= 7)
        __cpuid_count(7, 0, a, b7, c7, d);
    if (ymm && (b7 & (1u << 5)))
        f |= AESIR_CPU_AVX2;
    if (ymm && (c7 & (1u << 9)))
        f |= AESIR_CPU_VAES;
    if (ymm && (c7 & (1u << 10)))
        f |= AESIR_CPU_VPCLMUL;
    if (c7 & (1u << 8))
        f |= AESIR_CPU_GFNI;
    if (zmm && (b7 & (1u << 16)))
        f |= AESIR_CPU_AVX512F;
    if (zmm && (b7 & (1u << 30)))
        f |= AESIR_CPU_AVX512BW;
    if (zmm && (b7 & (1u << 31)))
        f |= AESIR_CPU_AVX512VL;
    if (zmm && (c7 & (1u << 1))) /* two-source byte permutes (vpermt2b) */
        f |= AESIR_CPU_AVX512VBMI;
    return f;
}
#endif

#ifdef AESIR_AUXV
/* Bits of the Linux ABI (asm/hwcap.h, asm/cputable.h), spelled out so
 * that the probe does not depend on which kernel headers are installed. */
static uint32_t probe_auxv(void)
{
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t f = 0;
#if defined(__aarch64__)
    f |= AESIR_CPU_NEON; /* ASIMD is part of the aarch64 base ISA */
    if (hw & (1ul << 3)) /* HWCAP_AES */
        f |= AESIR_CPU_ARMV8_AES;
    if (hw & (1ul << 4)) /* HWCAP_PMULL */
        f |= AESIR_CPU_PMULL;
#else
    unsigned long hw2 = getauxval(AT_HWCAP2);
    if (hw & 0x10000000ul) /* PPC_FEATURE_HAS_ALTIVEC */
        f |= AESIR_CPU_ALTIVEC;
    if ((hw & 0x10000000ul) && (hw2 & 0x02000000ul)) /* VEC_CRYPTO */
        f |= AESIR_CPU_POWER8;
#endif
    return f;
}
#endif

static uint32_t probe(void)
{
    uint32_t f = 0;
#ifdef AESIR_X86
    f = probe_x86();
#endif
#ifdef AESIR_AUXV
    f |= probe_auxv();
#else
#if defined(__ARM_NEON) || defined(__aarch64__)
    f |= AESIR_CPU_NEON;
#endif
#if defined(__ARM_FEATURE_CRYPTO) || defined(__ARM_FEATURE_AES)
    f |= AESIR_CPU_ARMV8_AES | AESIR_CPU_PMULL;
#endif
#if defined(__ALTIVEC__)
    f |= AESIR_CPU_ALTIVEC;
#endif
#if defined(__POWER8_VECTOR__) && defined(__CRYPTO__)
    f |= AESIR_CPU_POWER8;
#endif
#endif
#if defined(__wasm_simd128__)
    f |= AESIR_CPU_SIMD128;
#endif
    return f;
}

/* Features named in the environment variable var (comma-separated; "all"
 * too when all_ok), as a mask. */
static uint32_t named_features(const char *var, int all_ok)
{
    const char *s = getenv(var);
    uint32_t m = 0;

    while (s != NULL && *s != '\0') {
        size_t len = strcspn(s, ",");
        if (all_ok && len == 3 && strncmp(s, "all", 3) == 0)
            m = UINT32_MAX;
        for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]);
             i++)
            if (strlen(feature_names[i].name) == len &&
                strncmp(s, feature_names[i].name, len) == 0)
                m |= feature_names[i].bit;
        s += len + (s[len] == ',');
    }
    return m;
}

/* Features named in AESIR_CPU_DISABLE, as a mask to clear. */
static uint32_t disabled(void)
{
    return named_features("AESIR_CPU_DISABLE", 1);
}

/*
 * TEST-ONLY, and only in the constant-time check build (-DAESIR_CT_CHECK:
 * the aesir_ct and aesir_msan libraries of tests/CMakeLists.txt; the
 * shipped library has no such code). AESIR_CT_ASSUME_CPU="power8,..."
 * adds features the probe did not find. Valgrind's virtual POWER8
 * executes vcipher, vncipher and vpmsumd but leaves the vector-crypto bit
 * out of AT_HWCAP2, so under memcheck the pwr8 engine would be reported
 * unavailable and never checked (docs/constant-time.md). Assuming a
 * feature the CPU lacks makes the engine die of SIGILL: loud, not wrong.
 */
#ifdef AESIR_CT_CHECK
static uint32_t assumed(void)
{
    return named_features("AESIR_CT_ASSUME_CPU", 0);
}
#else
static uint32_t assumed(void)
{
    return 0;
}
#endif

/* The cached word: features, the model in MODEL_BITS, AESIR_CPU_PROBED. */
static uint32_t probed(void)
{
    /* Bit 31 marks "probed", so a CPU with no features is cached too. */
    static _Atomic uint32_t cached;
    uint32_t f = atomic_load(&cached);
    if (f == 0) {
        f = ((probe() | assumed()) & ~disabled() &
             ~(MODEL_BITS | AESIR_CPU_PROBED)) |
            (uint32_t)model_of() << MODEL_SHIFT | AESIR_CPU_PROBED;
        atomic_store(&cached, f);
    }
    return f;
}

uint32_t aesir_cpu_features(void)
{
    return probed() & ~(MODEL_BITS | AESIR_CPU_PROBED);
}

unsigned aesir_cpu_model_id(void)
{
    return (probed() & MODEL_BITS) >> MODEL_SHIFT;
}

const char *aesir_cpu_model_name(unsigned id)
{
    return id < AESIR_CPU_MODEL_COUNT ? model_names[id] : NULL;
}

#ifdef AESIR_X86
/* Appends "0x" and v in hex to p; returns the end. */
static char *put_hex(char *p, unsigned v)
{
    int shift = 28;
    *p++ = '0';
    *p++ = 'x';
    while (shift > 4 && (v >> shift) == 0)
        shift -= 4;
    for (; shift >= 0; shift -= 4)
        *p++ = "0123456789abcdef"[(v >> shift) & 0xf];
    return p;
}
#endif

const char *aesir_cpu_model(char ident[48])
{
    if (ident != NULL) {
        ident[0] = '\0';
#ifdef AESIR_X86
        char vendor[13];
        unsigned family, model;
        if (x86_ident(vendor, &family, &model)) {
            /* at most 12 + 8 + 10 + 7 + 10 + 1 = 48 bytes */
            char *p = ident;
            memcpy(p, vendor, strlen(vendor));
            p += strlen(vendor);
            memcpy(p, " family ", 8);
            p = put_hex(p + 8, family);
            memcpy(p, " model ", 7);
            p = put_hex(p + 7, model);
            *p = '\0';
        }
#endif
    }
    return model_names[aesir_cpu_model_id()];
}

const char *aesir_cpu_feature_name(size_t i, uint32_t *bit)
{
    if (i >= sizeof(feature_names) / sizeof(feature_names[0]))
        return NULL;
    if (bit != NULL)
        *bit = feature_names[i].bit;
    return feature_names[i].name;
}

const char *aesir_cpu_feature(size_t i, int *present)
{
    uint32_t bit;
    const char *name = aesir_cpu_feature_name(i, &bit);
    if (present != NULL)
        *present = name != NULL && (aesir_cpu_features() & bit) != 0;
    return name;
}
