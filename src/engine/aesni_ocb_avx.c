/*
 * aesni_ocb_avx.c -- aesni's OCB3 kernels VEX-encoded, for CPUs with AVX
 * (the aesni accessor's AVX engine): aesni_ocb.c compiled with "avx".
 */
#define OCB_AESNI_AVX
#define ENGINE_ISA "aes,ssse3,avx"
#define ENGINE_NAME(x) aesni_avx_##x
#define OCB_ENC_NAME aesir_aesni_ocb_enc_avx
#define OCB_DEC_NAME aesir_aesni_ocb_dec_avx
#include "aesni_ocb.c"
