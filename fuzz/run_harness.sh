#!/bin/sh
# One fuzz harness for `make fuzz`: fuzz/run_harness.sh NAME:MAX_LEN SECONDS. It runs on its
# committed seeds (fuzz/corpus/NAME/, read only) plus what earlier runs found
# (build/fuzz/run/NAME/). A crash, a leak, a sanitizer report or a broken invariant (abort) fails
# it: the input is kept in build/fuzz/artifacts/ and the log's last lines are shown. `make fuzz`
# runs the harnesses side by side (one per core): each prints one line when it ends.
set -u
name=${1%%:*}
len=${1##*:}
seconds=$2
log=build/fuzz/$name.log
tmp=$PWD/build/fuzz/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
mkdir -p "build/fuzz/run/$name" build/fuzz/artifacts build/fuzz/tmp
if TMPDIR=$tmp "./build/fuzz/fuzz_$name" -max_total_time="$seconds" -max_len="$len" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="build/fuzz/artifacts/$name-" \
    "build/fuzz/run/$name" "fuzz/corpus/$name" >"$log" 2>&1; then
  units=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  echo "fuzz_$name: $units inputs in $seconds s, no failure"
else
  { tail -n 40 "$log"; echo "fuzz_$name FAILED (log: $log)"; } >&2
  exit 1
fi
