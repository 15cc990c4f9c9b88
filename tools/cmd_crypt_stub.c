/*
 * cmd_crypt_stub.c -- `aesir encrypt|decrypt|keygen` in a build without
 * OpenSSL's libcrypto (>= 3.0; or a cross build): they need its HKDF-SHA-512
 * and random bytes, so each says so and exits 4.
 */
#include <stdio.h>

#include "tool.h"

static int unavailable(char **argv)
{
    fprintf(stderr, "aesir %s: built without OpenSSL (libcrypto >= 3.0)\n",
            argv[0]);
    return TOOL_EXIT_UNAVAILABLE;
}

int cmd_encrypt(int argc, char **argv)
{
    (void)argc;
    return unavailable(argv);
}

int cmd_decrypt(int argc, char **argv)
{
    (void)argc;
    return unavailable(argv);
}

int cmd_keygen(int argc, char **argv)
{
    (void)argc;
    return unavailable(argv);
}
