#!/usr/bin/env bash
# eps.sh TARGET...: each target alone, SECS (default 60) seconds from an empty corpus, seed 1;
# prints "target executions exec/s cov ft" (executions per second on small inputs).
set -u
FC=${FC:-${TMPDIR:-/tmp}/fc}
mkdir -p "$FC"
cd "$(dirname "$0")/../../../fuzz"
for t in "$@"; do
  d=$(mktemp -d "${TMPDIR:-/tmp}/eps-$t-XXXX")
  ASAN_OPTIONS=detect_odr_violation=0 "target/x86_64-unknown-linux-gnu/release/$t" "$d" \
    -max_total_time="${SECS:-60}" -seed=1 -dict=dict/feed.dict -print_final_stats=1 \
    -artifact_prefix="$d-" > "$FC/eps-$t.log" 2>&1
  echo "$t $(grep -oP 'stat::number_of_executed_units: \K\d+' "$FC/eps-$t.log")" \
    "$(grep -oP 'stat::average_exec_per_sec:\s+\K\d+' "$FC/eps-$t.log")" \
    "$(grep -E '^#[0-9]+' "$FC/eps-$t.log" | tail -n1 | grep -oE 'cov: [0-9]+ ft: [0-9]+')"
  rm -rf "$d"
done
