/*
 * cmd_crypt.h -- `aesir encrypt`, `aesir decrypt` and `aesir keygen`
 * (issue 20), and the tool's exit codes.
 *
 * Each command takes argv[0] = its own name and returns the exit status.
 */
#ifndef AESIR_TOOLS_CMD_CRYPT_H
#define AESIR_TOOLS_CMD_CRYPT_H

/* Exit codes of the tool (docs/tool.md, "Exit codes"). */
#define EXIT_AUTH                                                              \
    1                  /* authentication or integrity failure: wrong key,      \
                          tampered, truncated, trailing data */
#define EXIT_USAGE 2   /* bad command line */
#define EXIT_IO 3      /* I/O or system error, refusing to overwrite */
#define EXIT_UNAVAIL 4 /* internal error, or built without OpenSSL */

int cmd_encrypt(int argc, char **argv);
int cmd_decrypt(int argc, char **argv);
int cmd_keygen(int argc, char **argv);

#endif /* AESIR_TOOLS_CMD_CRYPT_H */
