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
 * The same annotations drive the second checker, clang's MemorySanitizer
 * (-DAESIR_CT_CHECK with -fsanitize=memory; tests/CMakeLists.txt, the
 * ct_msan tests): there CT_SECRET poisons the bytes, as if just
 * allocated, and CT_PUBLIC unpoisons them. MSan reports a branch, a
 * memory address or a divisor computed from poisoned bytes. It runs the
 * instructions valgrind cannot (VAES, AVX-512, GFNI); see
 * docs/constant-time.md for what each checker sees.
 *
 * tests/ct_check.c marks keys and data secret and the outputs public. The
 * library itself uses CT_PUBLIC only where a value computed from secrets
 * is made public on purpose, with a comment saying why the caller learns
 * it anyway (the verdict of the PKCS#7 check). Outside the check build
 * both macros expand to nothing; their arguments are not evaluated.
 */
#ifndef AESIR_CT_H
#define AESIR_CT_H

#if defined(AESIR_CT_CHECK) && defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define AESIR_CT_MSAN 1
#endif
#endif

#if defined(AESIR_CT_MSAN)
#include <sanitizer/msan_interface.h>
#define CT_SECRET(p, n) __msan_allocated_memory((p), (n))
#define CT_PUBLIC(p, n) __msan_unpoison((p), (n))
#elif defined(AESIR_CT_CHECK)
#include <valgrind/memcheck.h>
#define CT_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define CT_PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define CT_SECRET(p, n) ((void)0)
#define CT_PUBLIC(p, n) ((void)0)
#endif

#endif /* AESIR_CT_H */
