/* cbc_many.c -- placeholder; being written (multi-buffer CBC). */
#include "internal.h"
