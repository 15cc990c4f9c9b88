/*
 * cmd_selftest.c -- `aesir selftest`: the library's known-answer tests
 * (aesir_engine_selftest: FIPS-197 appendix C; aesir_ghash_engine_selftest)
 * on every AES and GHASH engine this CPU can run. An engine the
 * CPU cannot run is printed as UNAVAILABLE, never as a silent pass. Any
 * failure makes the exit status 1, as a failed integrity check does in
 * the other commands.
 */
#include <stdio.h>

#include "aesir.h"
#include "tool.h"

static void cmd_selftest_usage(FILE *f)
{
    fprintf(f, "usage: aesir selftest\n"
               "Run the known-answer tests of every AES and GHASH engine this "
               "CPU can\n"
               "run; print ok, the error, or UNAVAILABLE for each. Exit "
               "status 1 if\n"
               "any fails.\n"
               "  -h, --help  this text\n");
}

int cmd_selftest(int argc, char **argv)
{
    int failed = 0, rc;

    if ((rc = tool_no_args(argc, argv, cmd_selftest_usage)) != 0)
        return rc < 0 ? TOOL_EXIT_OK : rc;
    tool_env_warnings();
    for (size_t i = 0; i < aesir_engine_count(); i++) {
        const char *name = aesir_engine_name(i);
        int err;
        if (!(aesir_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%-13s UNAVAILABLE\n", name);
            continue;
        }
        err = aesir_engine_selftest(name);
        printf("%-13s %s\n", name,
               err == AESIR_OK ? "ok" : aesir_strerror(err));
        failed |= err != AESIR_OK;
    }
    for (size_t i = 0; i < aesir_ghash_engine_count(); i++) {
        const char *name = aesir_ghash_engine_name(i);
        int err;
        if (!(aesir_ghash_engine_flags(i) & AESIR_ENGINE_AVAILABLE)) {
            printf("%-20s UNAVAILABLE\n", name);
            continue;
        }
        err = aesir_ghash_engine_selftest(name);
        printf("%-20s %s\n", name,
               err == AESIR_OK ? "ok" : aesir_strerror(err));
        failed |= err != AESIR_OK;
    }
    return failed ? TOOL_EXIT_AUTH : TOOL_EXIT_OK;
}
