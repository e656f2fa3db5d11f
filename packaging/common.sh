# Helpers of install_test.sh and deb_test.sh (sourced; `src` is the source tree).
unset PERMUZZLE_DATA
fail() { echo "${test_name:-packaging}: FAILED: $*" >&2; exit 1; }

# Runs "$@" from / with the source tree hidden (an empty tmpfs mounted over it in a private
# mount namespace) when one can be made (root), else from / with the tree visible.
hidden_source() {
  if unshare --mount true 2>/dev/null; then
    unshare --mount bash -c 'mount -t tmpfs none "$0" && cd / && exec "$@"' "$src" "$@"
  else
    echo "${test_name:-packaging}: (no mount namespace here: the source tree stays visible)" >&2
    (cd / && "$@")
  fi
}

# The installed program ($1) reads its data files next to itself ($2: <prefix>/share/permuzzle):
# `bench korf100 --first 1` names the korf100.txt it read and solves Korf's instance 1 (57 moves).
check_installed_program() {
  local program=$1 data=$2 out
  out=$(hidden_source "$program" --tables none -q bench korf100 --first 1 --partition 5-5-5 2>&1) ||
    fail "bench korf100 from the installed data: $out"
  grep -qF "$data/korf100.txt with pattern databases 5-5-5" <<<"$out" ||
    fail "bench korf100 did not read $data/korf100.txt: $out"
  grep -qE "^ +1 +57 +57 " <<<"$out" || fail "bench korf100 --first 1 did not solve instance 1 in 57: $out"
  [ "$(hidden_source "$program" perm product '(1,2)' '(2,3)')" = "(1,3,2)" ] ||
    fail "the installed program's perm product"
}
