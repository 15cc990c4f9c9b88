#!/bin/sh
# wheel-test.sh -- `make python-test`: the Python package the way a user
# gets it. A fresh venv with the pinned dependencies
# (python/tests/requirements.txt), a wheel built from python/ by
# scikit-build-core (the C library compiled in), that wheel installed
# and imported from outside the source tree, the tests run against it,
# mypy over the package and a typed usage file, an sdist built and
# installed into a second fresh venv, and a short benchmark run.
#
# usage: wheel-test.sh OUT_DIR [JOBS]   (PYTHON picks the interpreter)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)/python
jobs=${2:-2}
py=${PYTHON:-python3}

rm -rf "$out/venv" "$out/dist"
mkdir -p "$out"
echo "== fresh venv ($py) with the pinned test dependencies ($(date +%T)) =="
"$py" -m venv "$out/venv"
v=$out/venv/bin
"$v/python" -m pip install -q -r "$root/python/tests/requirements.txt"

echo "== wheel of python/ (scikit-build-core; C library compiled in) ($(date +%T)) =="
# The build tree is kept between runs (the C library then recompiles
# only what changed); the wheel and the venv are always new.
CMAKE_BUILD_PARALLEL_LEVEL=$jobs "$v/python" -m pip wheel -q --no-deps \
    --no-build-isolation -C build-dir="$out/build" -w "$out/dist" \
    "$root/python"
ls "$out"/dist/aesir-*.whl
"$v/python" -m pip install -q --no-deps "$out"/dist/aesir-*.whl

cd "$out"
echo "== installed and imported from the venv ($(date +%T)) =="
"$v/python" - <<'PY'
import os, aesir
d = os.path.dirname(aesir.__file__)
assert "site-packages" in d, d
for f in ("py.typed", "_aesir.pyi"):
    assert os.path.exists(os.path.join(d, f)), f
print("aesir", aesir.__version__, "from", d, "default engine", aesir.default_engine())
PY

echo "== pytest on python/tests against the installed wheel ($(date +%T)) =="
# aesir.chunked's interop tests run the tool named by AESIR_TOOL (the
# Makefile builds it); without one they skip and say so.
echo "aesir tool for interop: ${AESIR_TOOL:-none (AESIR_TOOL unset)}"
"$v/python" -m pytest -q -p no:cacheprovider "$root/python/tests"

echo "== mypy --strict: the package with its stubs; typed use of the installed wheel ($(date +%T)) =="
# The first run checks python/aesir (the .py modules and _aesir.pyi)
# and tests/typing_usage.py under pyproject.toml's [tool.mypy]; the
# second checks the usage file from outside the tree, so aesir resolves
# to the installed wheel and its py.typed and stubs are what is used;
# stubtest compares the stub with the compiled module itself.
(cd "$root/python" && "$v/python" -m mypy --cache-dir "$out/mypy-src")
rm -rf "$out/typing" && mkdir -p "$out/typing"
cp "$root/python/tests/typing_usage.py" "$out/typing/"
(cd "$out/typing" && "$v/python" -m mypy --strict --cache-dir "$out/mypy-wheel" \
    typing_usage.py && "$v/python" -m mypy.stubtest aesir._aesir)

echo "== sdist: built, installed into a second fresh venv, used there ($(date +%T)) =="
# The sdist carries a copy of the C library's sources (_csrc, made by
# _build/aesir_backend.py); a user's pip builds it with no repository
# around it. Built with the pinned scikit-build-core (no isolation: the
# same versions every run), as a Debug build: the question here is
# whether the sdist builds and works, and -O0 halves the compile time
# that this second build of the C library adds to the target.
"$v/python" -m build --sdist --no-isolation -o "$out/dist" "$root/python"
sdist=$(ls "$out"/dist/aesir-*.tar.gz)
tar tzf "$sdist" | grep -q '/_csrc/src/aead/gcm.c$'
rm -rf "$out/venv-sdist"
"$py" -m venv "$out/venv-sdist"
grep '^scikit-build-core==' "$root/python/tests/requirements.txt" |
    xargs "$out/venv-sdist/bin/python" -m pip install -q
(cd "$out" && CMAKE_BUILD_PARALLEL_LEVEL=$jobs "$out/venv-sdist/bin/python" -m pip \
    install -q --no-build-isolation -C cmake.build-type=Debug "$sdist")
(cd "$out" && "$out/venv-sdist/bin/python" - <<'PY'
import os, aesir
assert "venv-sdist" in aesir.__file__, aesir.__file__
k, n = aesir.AESGCM.generate_key(256), os.urandom(12)
g = aesir.AESGCM(k)
assert g.decrypt(n, g.encrypt(n, b"from the sdist", b"a"), b"a") == b"from the sdist"
print("sdist install: GCM round trip OK, engine", g.engine)
PY
)

echo "== python -m aesir.bench --quick ($(date +%T)) =="
"$v/python" -m aesir.bench --quick
