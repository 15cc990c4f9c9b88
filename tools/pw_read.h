/*
 * pw_read.h -- reading a passphrase for passphrase.c: from a file, a file
 * descriptor or the terminal without echo (the rules are passphrase.h's).
 */
#ifndef AESIR_TOOLS_PW_READ_H
#define AESIR_TOOLS_PW_READ_H

#include <stddef.h>

#include "passphrase.h"

/*
 * pw_read -- the passphrase from src into pass[0..*n), NUL-terminated
 * (cap >= PW_PASS_MAX + 1). confirm: on a terminal, ask twice and start
 * again (three tries in all) when the two differ or it is empty. Returns
 * 0, or an exit status (tool.h) with a one-line message in err; the
 * caller wipes pass either way.
 */
int pw_read(const struct pw_source *src, int confirm, char *pass, size_t cap,
            size_t *n, char *err, size_t errcap);

#endif /* AESIR_TOOLS_PW_READ_H */
