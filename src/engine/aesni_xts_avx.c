/*
 * aesni_xts_avx.c -- aesni's fused XTS kernels with VEX encodings (the
 * engine with AVX); the code is aesni_xts.h's.
 */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#define ENGINE_ISA "aes,ssse3,avx"
#define AESNI_XTS(x) aesni_xts_avx_##x
#define AESNI_XTS_ENC aesir_aesni_xts_enc_avx
#define AESNI_XTS_DEC aesir_aesni_xts_dec_avx
#include "aesni_xts.h"
#endif /* x86 */
