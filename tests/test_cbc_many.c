/* test_cbc_many.c -- placeholder; being written (multi-buffer CBC). */
#include "check.h"
int main(void)
{
    return 0;
}
