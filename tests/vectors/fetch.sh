#!/usr/bin/env bash
# Fetch the pinned `cryptography-vectors` wheel from PyPI, verify its sha256,
# and unpack it into a cache directory outside the source tree.
#
# Usage: tests/vectors/fetch.sh
#
# Environment:
#   AESIR_VECTOR_CACHE  cache root (default: $HOME/.cache/aesir/vectors)
#
# The last (and only) line on stdout is the absolute path of the vector tree,
# i.e. the directory that contains ciphers/AES/...; all diagnostics go to
# stderr. When the cache is already complete, no network access is made.
#
# Requires: bash, python3 (zipfile, hashlib), pip (only when downloading).

set -euo pipefail

readonly VERSION="44.0.0"
readonly WHEEL="cryptography_vectors-${VERSION}-py2.py3-none-any.whl"
readonly WHEEL_SHA256="458ed682dbfa7144da156039c764ac707eb48b80e1d17ffe99e1de2edc91d5d7"
# Top-level directory inside the wheel that holds ciphers/, hashes/, ...
readonly TREE_SUBDIR="cryptography_vectors"
readonly MARKER=".complete"

log() { printf 'fetch.sh: %s\n' "$*" >&2; }
die() { printf 'fetch.sh: error: %s\n' "$*" >&2; exit 1; }

case "${1:-}" in
    -h|--help)
        sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
        exit 0
        ;;
    "") ;;
    *) die "unexpected argument: $1 (try --help)" ;;
esac

command -v python3 >/dev/null 2>&1 || die "python3 not found in PATH (needed to verify and unpack the wheel)"

# --- Resolve the cache location -------------------------------------------
if [[ -n "${AESIR_VECTOR_CACHE:-}" ]]; then
    cache_root="$AESIR_VECTOR_CACHE"
else
    [[ -n "${HOME:-}" ]] || die "neither AESIR_VECTOR_CACHE nor HOME is set; cannot choose a cache directory"
    cache_root="$HOME/.cache/aesir/vectors"
fi
mkdir -p -- "$cache_root" || die "cannot create cache directory: $cache_root"
cache_root="$(cd -- "$cache_root" && pwd -P)" || die "cannot access cache directory: $cache_root"

dest="$cache_root/cryptography_vectors-$VERSION"
tree="$dest/$TREE_SUBDIR"

# The cache must live outside the source tree.
script_dir="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
src_root="$(cd -- "$script_dir/../.." && pwd -P)"
case "$dest/" in
    "$src_root"/*) die "cache directory $dest is inside the source tree $src_root; set AESIR_VECTOR_CACHE to a path outside it" ;;
esac

# A cache is complete only if the marker holds the expected hash and the
# vector tree is present. The marker is written before the directory is
# renamed into place, so a partially unpacked tree is never seen here.
cache_complete() {
    [[ -f "$dest/$MARKER" && -d "$tree/ciphers/AES" ]] || return 1
    [[ "$(cat -- "$dest/$MARKER" 2>/dev/null)" == "$WHEEL_SHA256" ]]
}

if cache_complete; then
    log "using cached vectors in $dest"
    printf '%s\n' "$tree"
    exit 0
fi

# --- Download ---------------------------------------------------------------
staging=""
dl_dir=""
cleanup() {
    [[ -n "$dl_dir" ]] && rm -rf -- "$dl_dir"
    [[ -n "$staging" ]] && rm -rf -- "$staging"
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if python3 -m pip --version >/dev/null 2>&1; then
    pip_cmd=(python3 -m pip)
elif command -v pip >/dev/null 2>&1; then
    pip_cmd=(pip)
elif command -v pip3 >/dev/null 2>&1; then
    pip_cmd=(pip3)
else
    die "pip not found (tried 'python3 -m pip', 'pip', 'pip3'); install pip to download cryptography-vectors==$VERSION"
fi

dl_dir="$(mktemp -d "${TMPDIR:-/tmp}/aesir-vectors-dl.XXXXXX")" || die "cannot create a temporary download directory"

log "downloading cryptography-vectors==$VERSION from PyPI (about 37 MB)"
if ! "${pip_cmd[@]}" download --no-deps --only-binary=:all: --no-input \
        --disable-pip-version-check --progress-bar off \
        "cryptography-vectors==$VERSION" -d "$dl_dir" >&2; then
    die "pip download of cryptography-vectors==$VERSION failed (no network access to PyPI?)"
fi

wheel_path="$dl_dir/$WHEEL"
[[ -f "$wheel_path" ]] || die "pip did not produce the expected wheel $WHEEL in $dl_dir (got: $(ls -A "$dl_dir" | tr '\n' ' '))"

# --- Verify -------------------------------------------------------------------
actual_sha256="$(python3 - "$wheel_path" <<'PY'
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
print(h.hexdigest())
PY
)" || die "cannot compute the sha256 of $wheel_path"

if [[ "$actual_sha256" != "$WHEEL_SHA256" ]]; then
    die "sha256 mismatch for $WHEEL: expected $WHEEL_SHA256, got $actual_sha256 (refusing to use it)"
fi
log "sha256 OK: $actual_sha256"

# --- Unpack into a staging dir on the same filesystem, then rename ----------
staging="$(mktemp -d "$cache_root/.staging-cryptography_vectors-$VERSION.XXXXXX")" \
    || die "cannot create a staging directory in $cache_root"
unpacked="$staging/cryptography_vectors-$VERSION"

log "unpacking into $cache_root"
python3 - "$wheel_path" "$unpacked" <<'PY' || die "unpacking $WHEEL failed"
import os, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
with zipfile.ZipFile(wheel) as z:
    bad = z.testzip()
    if bad is not None:
        sys.exit("corrupt member in wheel: %s" % bad)
    z.extractall(out)
PY

[[ -d "$unpacked/$TREE_SUBDIR/ciphers/AES" ]] \
    || die "unexpected wheel layout: $TREE_SUBDIR/ciphers/AES not found after unpacking"
printf '%s\n' "$WHEEL_SHA256" > "$unpacked/$MARKER"

# Another run may have finished meanwhile; if so, use its result.
if cache_complete; then
    log "cache was completed concurrently; using $dest"
    printf '%s\n' "$tree"
    exit 0
fi

# Remove a stale or half-written cache: drop the marker first, then move the
# directory aside atomically so an interrupted removal is never mistaken for a
# complete cache.
if [[ -e "$dest" || -L "$dest" ]]; then
    log "removing incomplete cache $dest"
    rm -f -- "$dest/$MARKER" 2>/dev/null || true
    mv -- "$dest" "$staging/stale" || die "cannot move stale cache $dest out of the way"
fi

mv -- "$unpacked" "$dest" || die "cannot move unpacked vectors into $dest"

# If a concurrent run created $dest between the check and the mv, plain mv
# nests our copy inside it; discard that copy.
if [[ -d "$dest/cryptography_vectors-$VERSION" ]]; then
    rm -rf -- "$dest/cryptography_vectors-$VERSION"
fi

cache_complete || die "cache at $dest is not complete after unpacking"
log "vectors ready in $dest"
printf '%s\n' "$tree"
