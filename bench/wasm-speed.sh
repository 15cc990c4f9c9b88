#!/bin/sh
# wasm-speed.sh -- `make wasm-speed`: aesir's engines compiled to wasm32
# and timed under Node.js on this machine (issue 4: the WebAssembly
# engine's throughput beside the scalar ct64 build).
#
# Two builds of the library and the `aesir` tool with clang for
# wasm32-wasi: one with -msimd128 (vperm-wasm, plus ct64 and ttable as
# compiled with SIMD128 allowed) and one without (the scalar build: ct64,
# ttable, ref only). Each runs `aesir speed` -- the benchmark's harness,
# wall clock, medians -- for AES-128 CTR and CBC encryption/decryption at
# 16 KiB (WASM_SPEED_FLAGS replaces those options). Node.js's JIT
# (V8 Liftoff then TurboFan) is warmed up by the harness's warm-up rounds.
# WASI has no cycle counter: figures are GB/s only (divide the host's
# core clock, as `aesir speed` prints it natively, for cycles per byte).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${CROSS_BUILD:-$top/build-cross}
flags=${WASM_SPEED_FLAGS:---modes ctr,cbc-enc,cbc-dec --keys 128 --sizes 16k --passes 2}
run="node --no-warnings $top/tests/wasi_run.mjs"

build() { # dir cflags
    cmake -S "$top" -B "$out/$1" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_SYSTEM_PROCESSOR=wasm32 \
        -DCMAKE_C_COMPILER=clang -DCMAKE_C_COMPILER_TARGET=wasm32-wasi \
        -DCMAKE_C_FLAGS="$2 -D_WASI_EMULATED_PROCESS_CLOCKS" \
        -DCMAKE_EXE_LINKER_FLAGS="-lwasi-emulated-process-clocks" \
        -DAESIR_TESTS=OFF >/dev/null
    cmake --build "$out/$1" -j "$(nproc)" --target aesir_tool >/dev/null
}

build wasm32-speed-simd128 -msimd128
build wasm32-speed-scalar ""
echo "== wasm32 + SIMD128 (clang -msimd128), Node.js $(node --version)"
$run "$out/wasm32-speed-simd128/aesir" speed --engines vperm-wasm,ct64,ttable $flags

echo "== wasm32 scalar (no SIMD128)"
$run "$out/wasm32-speed-scalar/aesir" speed --engines ct64,ttable $flags

