/*
 * ct.h -- constant-time annotations (STYLE rule 7), after Adam Langley's
 * ctgrind (2010) and BoringSSL's CONSTTIME_SECRET / CONSTTIME_DECLASSIFY.
 *
 * CT_SECRET(p, n) marks the n bytes at p as secret. In the check build
 * (-DAESIR_CT_CHECK) that is valgrind memcheck's "undefined": memcheck
 * follows undefinedness through every computation and reports an error
 * wherever a branch or a memory address depends on it -- exactly the
 * secret-dependent control flow and table indices that leak through
 * timing. CT_PUBLIC(p, n) declassifies: the bytes become "defined" again.
 *
 * tests/ct_check.c marks keys and data secret and the outputs public. The
 * library itself uses CT_PUBLIC only where a value computed from secrets
 * is made public on purpose, with a comment saying why the caller learns
 * it anyway (the verdict of the PKCS#7 check). Outside the check build
 * both macros expand to nothing; their arguments are not evaluated.
 */
#ifndef AESIR_CT_H
#define AESIR_CT_H

#ifdef AESIR_CT_CHECK
#include <valgrind/memcheck.h>
#define CT_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define CT_PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define CT_SECRET(p, n) ((void)0)
#define CT_PUBLIC(p, n) ((void)0)
#endif

#endif /* AESIR_CT_H */
