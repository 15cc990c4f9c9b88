/*
 * check.h -- the few lines every test program shares: a CHECK macro that
 * counts and reports, and the closing "N passed, M failed" line.
 */
#ifndef AESIR_TEST_CHECK_H
#define AESIR_TEST_CHECK_H

#include <stddef.h>
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

/* 1 when the n bytes at p all equal v (a buffer left as it was, or
 * wiped), else 0. */
static inline int all_eq(const void *p, unsigned char v, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v)
            return 0;
    return 1;
}

static inline int all_zero(const void *p, size_t n)
{
    return all_eq(p, 0, n);
}

static inline int check_summary(void)
{
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed != 0;
}

#endif
