#!/usr/bin/env bash
# make deb-test: the .deb that `make deb` built, unpacked into a scratch root (dpkg -x): its
# control fields name the shared libraries the program links, it holds the program, libraries,
# headers, CMake package, permuzzle.pc, data, man page and completion, and the program runs
# `permuzzle demo` from there with the source tree out of reach (common.sh's hidden_source).
# Usage: packaging/deb_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "${1:?usage: deb_test.sh BUILD_DIR}")
src=$(realpath "$(dirname "$0")/..")
test_name=deb-test
# shellcheck source=packaging/common.sh
source "$src/packaging/common.sh"
mapfile -t debs < <(find "$build/deb" -maxdepth 1 -name 'permuzzle_*.deb')
[ "${#debs[@]}" = 1 ] || fail "expected one permuzzle_*.deb in $build/deb (make deb), found ${#debs[@]}"
deb=${debs[0]}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

depends=$(dpkg-deb -f "$deb" Depends)
for lib in libfmt9 libgmp10 libopenmpi3 libcpp-httplib0.11 libstdc++6 libc6; do
  grep -qw "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
echo "deb-test: $(basename "$deb"): Depends: $depends"

dpkg-deb -x "$deb" "$root"
for f in bin/permuzzle bin/permuzzle-full lib/libpermuzzle_core.a lib/libpermuzzle_api.a \
    include/permuzzle/api/registry.hpp lib/cmake/permuzzle/permuzzleConfig.cmake \
    lib/pkgconfig/permuzzle.pc share/permuzzle/korf100.txt share/permuzzle/puzzles/3x3x3.tws \
    share/man/man1/permuzzle.1 share/bash-completion/completions/permuzzle; do
  [ -e "$root/usr/$f" ] || fail "the package lacks /usr/$f"
done

tables=$root/tables
out=$(hidden_source "$root/usr/bin/permuzzle" --tables "$tables" -q demo 2>&1) ||
  fail "permuzzle demo from the unpacked package: $out"
grep -q "^permuzzle demo: every number below is computed now" <<<"$out" ||
  fail "permuzzle demo printed: $out"
check_installed_program "$root/usr/bin/permuzzle" "$root/usr/share/permuzzle"
# `permuzzle serve` goes on in permuzzle-full beside it (the web server, Open MPI).
hidden_source "$root/usr/bin/permuzzle" serve --help | grep -q -- "--max-memory" ||
  fail "permuzzle serve --help did not reach permuzzle-full beside it"
echo "deb-test: the unpacked package's permuzzle runs the demo and reads /usr/share/permuzzle" \
  "without the source tree"
