/*
 * peer_boringssl.c -- BoringSSL as a peer row, "boringssl": the version
 * that the boring-sys 5.4.0 crate ships (deps/boringssl), built by
 * bench/peers-build.sh into the peer cache as a static libcrypto with its
 * assembly and the symbol prefix aesir_bssl_ (BoringSSL's own prefix
 * build: include/openssl/prefix_symbols.h renames every symbol when
 * BORINGSSL_PREFIX is defined).
 *
 * Its AES-GCM is the reason it is here: on a CPU with VAES and
 * VPCLMULQDQ, EVP_AEAD's GCM runs Eric Biggers' kernels
 * (aes-gcm-avx512-x86_64.S with AVX-512, 512-bit vectors;
 * aes-gcm-avx2-x86_64.S with AVX2), chosen at run time by BoringSSL's
 * CPU dispatch.
 *
 * The adapter is peer_bssl_api.h, shared with AWS-LC (same API).
 */
#define BSSL_ROW "boringssl"
#define BSSL_REGISTER bench_register_boringssl
#include "peer_bssl_api.h"
