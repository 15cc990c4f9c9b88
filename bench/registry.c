/*
 * registry.c -- every adapter compiled into aesir-bench, in one fixed
 * order: aesir's engines first, then the bounds (with the limit row,
 * whose GCM kernel bound/gcm runs), then the peers. A peer is here only when
 * bench/CMakeLists.txt found its library and its adapter file, and then
 * defined BENCH_HAVE_<LIB>; bench_peers.h (generated at configure time)
 * says which peers were found and why the others were not.
 */
#include "harness.h"

#if defined(__has_include)
#if __has_include("bench_peers.h")
#include "bench_peers.h"
#endif
#endif
#ifndef BENCH_PEERS_BUILT
#define BENCH_PEERS_BUILT ""
#endif
#ifndef BENCH_PEERS_MISSING
#define BENCH_PEERS_MISSING "(unknown: built without bench/CMakeLists.txt)"
#endif

void bench_register_all(bench_add_fn add)
{
    bench_register_aesir(add);
    bench_register_ghash(add); /* impl_ghash.c: GHASH engines, cell-table16 */
#ifdef BENCH_HAVE_LIMIT
    bench_register_bound(add); /* impl_bound.c: the bounds as rows */
#endif
#ifdef BENCH_HAVE_OPENSSL
    bench_register_openssl(add);
#endif
#ifdef BENCH_HAVE_GCRYPT
    bench_register_gcrypt(add);
#endif
#ifdef BENCH_HAVE_NETTLE
    bench_register_nettle(add);
#endif
#ifdef BENCH_HAVE_SODIUM
    bench_register_sodium(add);
#endif
#ifdef BENCH_HAVE_IPSECMB
    bench_register_ipsecmb(add);
#endif
#ifdef BENCH_HAVE_BEARSSL
    bench_register_bearssl(add);
#endif
#ifdef BENCH_HAVE_WOLFSSL
    bench_register_wolfssl(add);
#endif
#ifdef BENCH_HAVE_MBEDTLS
    bench_register_mbedtls(add);
#endif
#ifdef BENCH_HAVE_BORINGSSL
    bench_register_boringssl(add);
#endif
#ifdef BENCH_HAVE_AWSLC
    bench_register_awslc(add);
#endif
}

const char *bench_peers_built(void)
{
    return BENCH_PEERS_BUILT;
}

const char *bench_peers_missing(void)
{
    return BENCH_PEERS_MISSING;
}
