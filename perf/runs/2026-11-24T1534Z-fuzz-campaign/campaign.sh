#!/usr/bin/env bash
# campaign.sh TARGET: a 30-minute libFuzzer campaign of one target, from the repository root's
# fuzz/ directory, logs and artifacts in $FC (default $TMPDIR/fc). Build first:
#   (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build -O --debug-assertions)
set -u
t=$1
FC=${FC:-${TMPDIR:-/tmp}/fc}
cd "$(dirname "$0")/../../../fuzz"
mkdir -p "$FC/art/$t" "corpus/$t"
echo "start $(date -u +%FT%TZ) corpus $(ls "corpus/$t" | wc -l)" > "$FC/$t.meta"
ASAN_OPTIONS=detect_odr_violation=0 /usr/bin/time -f "time wall %e user %U sys %S maxrss_kb %M" \
  "target/x86_64-unknown-linux-gnu/release/$t" -artifact_prefix="$FC/art/$t/" \
  -max_total_time=1800 -max_len=8192 -timeout=10 -dict=dict/feed.dict -print_final_stats=1 \
  "corpus/$t" > "$FC/$t.log" 2>&1
echo "exit $? end $(date -u +%FT%TZ) corpus $(ls "corpus/$t" | wc -l)" >> "$FC/$t.meta"
