/*
 * peer_awslc.c -- AWS-LC as a peer row, "aws-lc": the version that the
 * aws-lc-sys 0.47.0 crate ships (aws-lc/), built by bench/peers-build.sh
 * into the peer cache as a static libcrypto with its assembly and the
 * symbol prefix aws_lc_0_47_0_, with the prefix headers the crate ships
 * (generated-include/), as aws-lc-sys itself builds it.
 *
 * On a CPU with VAES, VPCLMULQDQ and AVX-512, its EVP_AEAD GCM runs its
 * AVX-512 kernels (aesni-gcm-avx512.S: aes_gcm_encrypt_avx512 and
 * aes_gcm_decrypt_avx512), otherwise the AES-NI/AVX "stitched" kernels
 * (aesni-gcm-x86_64.S) that OpenSSL also has.
 *
 * The adapter is peer_bssl_api.h, shared with BoringSSL (same API).
 */
#define BSSL_ROW "aws-lc"
#define BSSL_REGISTER bench_register_awslc
#include "peer_bssl_api.h"
