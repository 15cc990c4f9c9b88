/*
 * cmd_info.c -- `aesir info`: what this build and this CPU can do. It
 * lists the CPU features the library probed (after AESIR_CPU_DISABLE) and
 * the model class it uses to rank engines (AESIR_CPU_MODEL), every AES
 * engine built in with its properties (available here, constant-time,
 * hardware), the ranking and the rule that chose the default, then the
 * same for the GHASH engines of GCM. A default that is not constant-time
 * is flagged with a WARNING line, so that a user who forced one (or runs
 * where there is none) sees it.
 *
 * Reads the library's public API only (include/aesir.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "tool.h"

static void cmd_info_usage(FILE *f)
{
    fprintf(f, "usage: aesir info\n"
               "Show the CPU features and model class the library sees, its "
               "AES and\n"
               "GHASH engines (available, constant-time, hardware), their "
               "ranking and\n"
               "the default each rule chose. Environment: AESIR_ENGINE,\n"
               "AESIR_CPU_DISABLE, AESIR_CPU_MODEL, AESIR_GHASH_ENGINE (aesir "
               "--help).\n"
               "  -h, --help  this text\n");
}

static int have_ct_engine(void)
{
    const unsigned want = AESIR_ENGINE_AVAILABLE | AESIR_ENGINE_CONSTANT_TIME;
    for (size_t i = 0; i < aesir_engine_count(); i++)
        if ((aesir_engine_flags(i) & want) == want)
            return 1;
    return 0;
}

/* The GHASH engines (GCM's multipliers) and their default. */
static void ghash_info(void)
{
    const char *def = aesir_ghash_engine_default();
    int d = aesir_ghash_engine_find(def);

    printf("\n%-20s %-9s %-13s %-8s %s\n", "ghash engine", "available",
           "constant-time", "hardware", "description");
    for (size_t i = 0; i < aesir_ghash_engine_count(); i++) {
        unsigned f = aesir_ghash_engine_flags(i);
        printf("%-20s %-9s %-13s %-8s %s\n", aesir_ghash_engine_name(i),
               f & AESIR_ENGINE_AVAILABLE ? "yes" : "no",
               f & AESIR_ENGINE_CONSTANT_TIME ? "yes" : "NO",
               f & AESIR_ENGINE_HARDWARE ? "yes" : "no",
               aesir_ghash_engine_description(i));
    }
    printf("ghash default: %s\n", def != NULL ? def : "(none)");
    if (d >= 0 &&
        !(aesir_ghash_engine_flags((size_t)d) & AESIR_ENGINE_CONSTANT_TIME))
        printf("WARNING: the default GHASH engine is NOT constant-time "
               "(chosen by AESIR_GHASH_ENGINE).\n");
    if (getenv("AESIR_GHASH_ENGINE") != NULL)
        printf("(AESIR_GHASH_ENGINE=%s is set)\n",
               getenv("AESIR_GHASH_ENGINE"));
}

int cmd_info(int argc, char **argv)
{
    const char *def = aesir_engine_default();
    unsigned def_flags = aesir_engine_flags((size_t)aesir_engine_find(def));
    const char *model, *name, *why = NULL;
    char ident[48];
    int rc;

    if ((rc = tool_no_args(argc, argv, cmd_info_usage)) != 0)
        return rc < 0 ? TOOL_EXIT_OK : rc;
    tool_env_warnings();
    printf("aesir %s\n\ncpu features:", aesir_version());
    for (size_t i = 0;; i++) {
        int present;
        const char *f = aesir_cpu_feature(i, &present);
        if (f == NULL)
            break;
        if (present)
            printf(" %s", f);
    }
    if (getenv("AESIR_CPU_DISABLE") != NULL)
        printf("  (AESIR_CPU_DISABLE=%s)", getenv("AESIR_CPU_DISABLE"));
    model = aesir_cpu_model(ident);
    printf("\ncpu model: %s (%s)", model,
           ident[0] != '\0' ? ident : "no CPUID");
    if (getenv("AESIR_CPU_MODEL") != NULL)
        printf("  (AESIR_CPU_MODEL=%s)", getenv("AESIR_CPU_MODEL"));
    printf("\n\n");
    printf("%-13s %-9s %-13s %-8s %s\n", "engine", "available", "constant-time",
           "hardware", "description");
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        unsigned f = aesir_engine_flags(i);
        printf("%-13s %-9s %-13s %-8s %s\n", aesir_engine_name(i),
               f & AESIR_ENGINE_AVAILABLE ? "yes" : "no",
               f & AESIR_ENGINE_CONSTANT_TIME ? "yes" : "NO",
               f & AESIR_ENGINE_HARDWARE ? "yes" : "no",
               aesir_engine_description(i));
    }
    /* The order the default is chosen from, and the rule behind it. */
    printf("\nranking (fastest first, * default):");
    for (size_t i = 0; (name = aesir_engine_ranked(i, &why)) != NULL; i++)
        printf(" %s%s", name, strcmp(name, def) == 0 ? "*" : "");
    printf("\nrule: %s\n", why != NULL ? why : "(none)");
    printf("default: %s\n", def);
    if (!(def_flags & AESIR_ENGINE_CONSTANT_TIME))
        printf("WARNING: the default engine is NOT constant-time: its table "
               "look-ups can leak the key through the cache (%s).\n",
               getenv("AESIR_ENGINE") != NULL && have_ct_engine()
                   ? "chosen by AESIR_ENGINE"
                   : "this build has no constant-time engine "
                     "for this CPU");
    if (getenv("AESIR_ENGINE") != NULL)
        printf("(AESIR_ENGINE=%s is set)\n", getenv("AESIR_ENGINE"));
    ghash_info();
    return TOOL_EXIT_OK;
}
