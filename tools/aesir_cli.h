/*
 * aesir_cli.h -- the `aesir` tool's checks of the environment variables
 * the library reads, as a function that neither prints nor exits:
 * tools/main.c prints what it returns, tests/fuzz/fuzz_args.c fuzzes it.
 * It uses the library's public API only (no bench/).
 */
#ifndef AESIR_TOOLS_CLI_H
#define AESIR_TOOLS_CLI_H

#include <stddef.h>

/* The size of a one-line message of the tool's command-line parsers. */
#define AESIR_CLI_ERR 512

/*
 * aesir_cli_env_warnings -- a warning line ("aesir: warning: ...\n") into
 * out for each of these environment values that the library ignores
 * (NULL: not set):
 *   engine     AESIR_ENGINE naming no engine, or one that cannot run
 *              here (dispatch.c then applies the default rule);
 *   disable    AESIR_CPU_DISABLE items naming no CPU feature (cpu.c skips
 *              them; "all", "none" and empty items are fine);
 *   model      AESIR_CPU_MODEL naming no model class (cpu.c keeps the
 *              probed model).
 * Returns the number of lines (out holds as many as fit in cap).
 */
int aesir_cli_env_warnings(const char *engine, const char *disable,
                           const char *model, char *out, size_t cap);

#endif /* AESIR_TOOLS_CLI_H */
