/*
 * main.c -- the `aesir` tool: the command table and what all commands
 * share.
 *
 *   aesir keygen     a new random key file          (cmd_keygen.c)
 *   aesir encrypt    a file or stream, C2SP chunked  (cmd_encrypt.c)
 *   aesir decrypt    the same, verified              (cmd_decrypt.c)
 *   aesir info       engines, properties, default   (cmd_info.c)
 *   aesir selftest   known-answer tests             (cmd_selftest.c)
 *   aesir speed      the benchmark's harness        (cmd_speed.c)
 *
 * main() looks the command up and runs it with argv[0] its name (tool.h);
 * `aesir --help` is the overview, `aesir help CMD` runs `aesir CMD
 * --help`, `aesir --version` the library's version. An unknown command or
 * option is one line on stderr and exit status 2, as every bad argument
 * (tools/args.c parses strictly). Built without libcrypto, the encryption
 * commands exit 4 (cmd_crypt_stub.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesir.h"
#include "aesir_cli.h"
#include "args.h"
#include "tool.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line of the overview */
};

static const struct command commands[] = {
    {"keygen", cmd_keygen, "write a new random key file (mode 0600)"},
    {"encrypt", cmd_encrypt,
     "encrypt a file or stream with AES-GCM (C2SP chunked encryption)"},
    {"decrypt", cmd_decrypt,
     "decrypt a file or stream; nothing unauthenticated is written"},
    {"info", cmd_info, "CPU, engines, their properties and the default"},
    {"selftest", cmd_selftest, "known-answer tests of every runnable engine"},
    {"speed", cmd_speed,
     "time the engines (every library side by side: make speed)"},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

void tool_env_warnings(void)
{
    char buf[2048];

    if (aesir_cli_env_warnings(
            getenv("AESIR_ENGINE"), getenv("AESIR_CPU_DISABLE"),
            getenv("AESIR_CPU_MODEL"), buf, sizeof(buf)) > 0) {
        fputs(buf, stderr);
        fflush(stderr);
    }
}

int tool_no_args(int argc, char **argv, void (*usage)(FILE *))
{
    char q[96];

    if (argc < 2)
        return 0;
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return -1;
    }
    fprintf(stderr, "aesir %s: unexpected argument '%s' (aesir %s --help)\n",
            argv[0], args_quote(q, sizeof(q), argv[1]), argv[0]);
    return TOOL_EXIT_USAGE;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: aesir COMMAND [options]\n"
               "       aesir help COMMAND | aesir --help | aesir --version\n"
               "\n"
               "aesir encrypts files and streams with AES-GCM in the C2SP "
               "chunked-encryption\n"
               "format, and inspects, tests and times its AES library.\n"
               "\n"
               "Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-9s  %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n"
               "`aesir COMMAND --help` (or `aesir help COMMAND`) lists a "
               "command's options.\n"
               "\n"
               "Exit status: 0 success; 1 authentication or integrity "
               "failure; 2 usage\n"
               "error; 3 I/O or system error; 4 unavailable in this build "
               "or internal error.\n"
               "\n"
               "Environment: AESIR_ENGINE=NAME overrides the default AES "
               "engine,\n"
               "AESIR_GHASH_ENGINE=NAME the GHASH engine; "
               "AESIR_CPU_DISABLE=FEATURE,... hides\n"
               "CPU features; AESIR_CPU_MODEL=CLASS sets the CPU model class "
               "(aesir info).\n"
               "The manual: man aesir.\n");
}

static const struct command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

static int unknown(const char *what, const char *name)
{
    char q[96];

    fprintf(stderr, "aesir: unknown %s '%s' (aesir --help)\n", what,
            args_quote(q, sizeof(q), name));
    return TOOL_EXIT_USAGE;
}

static int is_help(const char *s)
{
    return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

/* help -- `aesir help [COMMAND]` (also -h, --help, and after them): the
 * overview, or COMMAND --help. */
static int help(int argc, char **argv)
{
    const struct command *c;
    char q[96], opt[] = "--help";
    char *sub[3];

    if (argc > 2) {
        fprintf(stderr, "aesir %s: unexpected argument '%s'\n", argv[0],
                args_quote(q, sizeof(q), argv[2]));
        return TOOL_EXIT_USAGE;
    }
    if (argc < 2 || is_help(argv[1])) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    if ((c = find(argv[1])) == NULL)
        return unknown(argv[1][0] == '-' ? "option" : "command", argv[1]);
    sub[0] = argv[1];
    sub[1] = opt;
    sub[2] = NULL;
    return c->run(2, sub);
}

int main(int argc, char **argv)
{
    const struct command *c;
    const char *cmd = argc > 1 ? argv[1] : NULL;

    if (cmd == NULL) {
        fprintf(stderr, "aesir: no command (aesir --help lists them)\n");
        return TOOL_EXIT_USAGE;
    }
    if (is_help(cmd) || strcmp(cmd, "help") == 0)
        return help(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0) {
        if (argc > 2) {
            char q[96];
            fprintf(stderr, "aesir: unexpected argument '%s'\n",
                    args_quote(q, sizeof(q), argv[2]));
            return TOOL_EXIT_USAGE;
        }
        printf("aesir %s\n", aesir_version());
        return TOOL_EXIT_OK;
    }
    if ((c = find(cmd)) != NULL)
        return c->run(argc - 1, argv + 1);
    return unknown(cmd[0] == '-' ? "option" : "command", cmd);
}
