/* armv8_ce.c -- placeholder; being written. */
#include "internal.h"

const struct aesir_engine *aesir_engine_armv8_ce(void)
{
    return NULL;
}
