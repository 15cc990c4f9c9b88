/*
 * cmd_crypt_stub.c -- `aesir encrypt|decrypt|keygen` in a build without
 * OpenSSL's libcrypto (>= 3.0; or a cross build): they need its HKDF-SHA-512
 * and random bytes, so each says so and exits 4.
 */
#include <stdio.h>
#include <string.h>

#include "tool.h"

/* --help still answers (exit 0), saying the command is unavailable. */
static int unavailable(int argc, char **argv)
{
    if (argc == 2 &&
        (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: aesir %s ...\n"
               "unavailable in this build: built without OpenSSL (libcrypto "
               ">= 3.0)\n",
               argv[0]);
        return 0;
    }
    fprintf(stderr, "aesir %s: built without OpenSSL (libcrypto >= 3.0)\n",
            argv[0]);
    return TOOL_EXIT_UNAVAILABLE;
}

int cmd_encrypt(int argc, char **argv)
{
    return unavailable(argc, argv);
}

int cmd_decrypt(int argc, char **argv)
{
    return unavailable(argc, argv);
}

int cmd_keygen(int argc, char **argv)
{
    return unavailable(argc, argv);
}
