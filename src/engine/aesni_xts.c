/*
 * aesni_xts.c -- aesni's fused XTS kernels with SSE encodings (the
 * engine without AVX); the code is aesni_xts.h's.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#define ENGINE_ISA "aes,ssse3"
#define AESNI_XTS(x) aesni_xts_##x
#define AESNI_XTS_ENC aesir_aesni_xts_enc
#define AESNI_XTS_DEC aesir_aesni_xts_dec
#include "aesni_xts.h"
#endif /* x86 */
