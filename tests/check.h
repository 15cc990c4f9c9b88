/*
 * check.h -- the few lines every test program shares: a CHECK macro that
 * counts and reports, and the closing "N passed, M failed" line.
 */
#ifndef AESIR_TEST_CHECK_H
#define AESIR_TEST_CHECK_H

#include <stdio.h>

static unsigned check_passed, check_failed;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (cond) {                                                          \
            check_passed++;                                                  \
        } else {                                                             \
            check_failed++;                                                  \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);  \
        }                                                                    \
    } while (0)

#define CHECK_EQ(a, b) CHECK((a) == (b))

static inline int check_summary(void)
{
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}

#endif
