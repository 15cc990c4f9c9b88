/* pwr8.c -- placeholder; being written. */
#include "internal.h"

const struct aesir_engine *aesir_engine_pwr8(void)
{
    return NULL;
}
