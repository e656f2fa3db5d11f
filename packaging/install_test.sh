#!/usr/bin/env bash
# make install-test: `cmake --install` of an already built tree into a scratch prefix, then
#  - the installed program runs with the source tree out of reach (common.sh's hidden_source)
#    and reads its data files from <prefix>/share/permuzzle;
#  - the man page renders and holds each command's --help text; the bash completion completes;
#  - a small consumer program (packaging/consumer) builds against the prefix with CMake
#    (find_package(permuzzle CONFIG)) and with pkg-config (permuzzle.pc), and runs.
# Usage: packaging/install_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "${1:?usage: install_test.sh BUILD_DIR}")
src=$(realpath "$(dirname "$0")/..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
test_name=install-test
# shellcheck source=packaging/common.sh
source "$src/packaging/common.sh"

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/permuzzle bin/permuzzle-full lib/libpermuzzle_core.a lib/libpermuzzle_api.a \
    include/permuzzle/api/registry.hpp include/permuzzle/core/perm.hpp \
    lib/cmake/permuzzle/permuzzleConfig.cmake lib/cmake/permuzzle/permuzzleTargets.cmake \
    lib/pkgconfig/permuzzle.pc share/permuzzle/korf100.txt share/permuzzle/puzzles/3x3x3.tws \
    share/permuzzle/puzzles/megaminx.phases share/permuzzle/chains/thistlethwaite.txt \
    share/man/man1/permuzzle.1 share/bash-completion/completions/permuzzle; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
echo "install-test: installed into a scratch prefix ($(find "$prefix" -type f | wc -l) files)"

check_installed_program "$prefix/bin/permuzzle" "$prefix/share/permuzzle"
echo "install-test: the installed program runs without the source tree and reads share/permuzzle"

# The man page: rendered by groff, it holds every line of `perm product --help` and `--help`.
man=$(groff -man -Tascii -P-cbou "$prefix/share/man/man1/permuzzle.1" 2>&1)
for cmd in "" "perm product" "sliding solve"; do
  while IFS= read -r line; do
    line=$(sed 's/^ *//; s/ *$//' <<<"$line")
    [ -z "$line" ] && continue
    grep -qF -- "$line" <<<"$man" || fail "the man page lacks '$line' of permuzzle $cmd --help"
  done < <("$prefix/bin/permuzzle" $cmd --help)
done
grep -q "^NAME" <<<"$man" || fail "the man page has no NAME section"
echo "install-test: the man page renders and holds the --help texts"

# The bash completion: commands, verbs, options.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _permuzzle
    echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/permuzzle" "$@"
}
[ "$(complete_words permuzzle per)" = "perm" ] || fail "completion of 'permuzzle per'"
[[ " $(complete_words permuzzle perm pro) " == *" product "* ]] || fail "completion of 'perm pro'"
[[ " $(complete_words permuzzle sliding solve --heu) " == *" --heuristic "* ]] ||
  fail "completion of 'sliding solve --heu'"
[[ " $(complete_words permuzzle perm product --js) " == *" --json "* ]] ||
  fail "completion of the global option --json"
echo "install-test: the bash completion completes commands, verbs and options"

# A consumer program, with CMake and with pkg-config.
expected='(1,3,2) 6 {"list":"[3,1,2]","product":"(1,3,2)"}'
cmake -S "$src/packaging/consumer" -B "$work/consumer-cmake" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer-cmake" >/dev/null
[ "$("$work/consumer-cmake/consumer")" = "$expected" ] || fail "the CMake consumer printed \
'$("$work/consumer-cmake/consumer")', expected '$expected'"
echo "install-test: a consumer builds with find_package(permuzzle CONFIG) and runs"
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs permuzzle)
# shellcheck disable=SC2086
c++ -std=c++20 -O1 "$src/packaging/consumer/main.cpp" -o "$work/consumer-pc" $flags
[ "$("$work/consumer-pc")" = "$expected" ] || fail "the pkg-config consumer printed \
'$("$work/consumer-pc")', expected '$expected'"
echo "install-test: a consumer builds with pkg-config (permuzzle.pc) and runs"
