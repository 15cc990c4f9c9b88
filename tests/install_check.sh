#!/usr/bin/env bash
# Installs the build in $1 into a temporary prefix and builds the README
# example against it twice: with pkg-config (shared library) and with a
# CMake project that uses find_package(aesir) (static library). Fails if
# either consumer does not build or run, or if the tool (bin/aesir) and
# its manual (share/man/man1/aesir.1, as in the source tree) are missing.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/aesir"
cmp "$src/tools/aesir.1" "$tmp/prefix/share/man/man1/aesir.1"
echo "tool and manual installed: ok"
libdir=$(dirname "$(find "$tmp/prefix" -name aesir.pc)")
export PKG_CONFIG_PATH="$libdir"
cc=${CC:-cc}
$cc -std=c11 -o "$tmp/ex_pc" "$src/examples/example.c" \
    $(pkg-config --cflags --libs aesir) -Wl,-rpath,"$(dirname "$libdir")"
"$tmp/ex_pc" | grep -q "attack at dawn"
echo "pkg-config consumer: ok"

mkdir "$tmp/proj"
cat > "$tmp/proj/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(aesir REQUIRED)
add_executable(ex "$src/examples/example.c")
target_link_libraries(ex PRIVATE aesir::aesir_static)
CM
cmake -S "$tmp/proj" -B "$tmp/proj/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/proj/build" >/dev/null
"$tmp/proj/build/ex" | grep -q "attack at dawn"
echo "find_package consumer: ok"
