/*
 * tool.h -- the `aesir` tool's commands and exit status.
 *
 * Each command lives in its own file (tools/cmd_<name>.c) behind one entry
 * point, int cmd_<name>(int argc, char **argv), where argv[0] is the
 * command's name and argv[1..argc) its arguments; it returns the process's
 * exit status (below). tools/main.c holds the command table, the global
 * usage and `aesir help CMD`, and calls them. Only cmd_speed.c uses the
 * benchmark's harness (bench/): the other commands build without it.
 *
 * A command given -h or --help prints its usage on stdout and returns 0
 * (`aesir help CMD` runs CMD --help); a bad argument is one line on
 * stderr and TOOL_EXIT_USAGE.
 */
#ifndef AESIR_TOOLS_TOOL_H
#define AESIR_TOOLS_TOOL_H

#include <stdio.h>

/* Exit status of every command (documented in aesir.1 and docs/tool.md). */
enum tool_exit {
    TOOL_EXIT_OK = 0,         /* success */
    TOOL_EXIT_AUTH = 1,       /* authentication or integrity failure (wrong
                                 key, tampered, truncated, trailing data);
                                 selftest: a known answer did not match */
    TOOL_EXIT_USAGE = 2,      /* bad command line */
    TOOL_EXIT_IO = 3,         /* I/O or system error, refusal to overwrite */
    TOOL_EXIT_UNAVAILABLE = 4 /* internal error, or a feature this build
                                 lacks (built without OpenSSL/libsodium) */
};

int cmd_keygen(int argc, char **argv);
int cmd_encrypt(int argc, char **argv);
int cmd_decrypt(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_selftest(int argc, char **argv);
int cmd_speed(int argc, char **argv);

/*
 * tool_env_warnings -- a line on stderr for each AESIR_ENGINE,
 * AESIR_CPU_DISABLE or AESIR_CPU_MODEL value the library ignores
 * (aesir_cli_env_warnings); every command that uses the engines calls it
 * first.
 */
void tool_env_warnings(void);

/*
 * tool_no_args -- the command line of a command without options: 0 to
 * run it; -1 after printing its usage on stdout (-h or --help first: the
 * command then exits 0); TOOL_EXIT_USAGE after one line on stderr for
 * any other argument.
 */
int tool_no_args(int argc, char **argv, void (*usage)(FILE *));

#endif /* AESIR_TOOLS_TOOL_H */
