#!/usr/bin/env bash
# CI smoke run of the fuzz targets: builds every target, then fuzzes each for a short time
# (FUZZ_SMOKE_SECONDS, default 8) starting from its committed regressions (a `*_heavy`
# target also from its light target's: same input layout). Exits non-zero
# when a build fails or any target finds a crash, timeout or out-of-memory.
# Installs cargo-fuzz first if it is missing (not counted in the time budget). Targets run
# one per core at a time (FUZZ_SMOKE_JOBS).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET=${FUZZ_SMOKE_SECONDS:-8}
# A fixed seed makes a smoke run reproducible: the same inputs in the same order, so a
# failure seen in CI is found again locally with the same seed (FUZZ_SMOKE_SEED=0 picks
# a random one). Finding new bugs is the campaigns' job (fuzz/README.md), not CI's.
SEED=${FUZZ_SMOKE_SEED:-1}
# Light targets (cheap invariants, >= 1,000 exec/s on small inputs), then the heavy
# cross-checks of the same inputs (see fuzz/README.md). `parquet` is built, not run: a
# campaign target (fuzz/README.md says why).
TARGETS=(parse_document document_lint parse_response parse_limits escaped_html json_feed dates canonical_url decode bulk archive tar discover
  parse_document_heavy document_lint_heavy parse_response_heavy parse_limits_heavy escaped_html_heavy json_feed_heavy)

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "cargo-fuzz not found: installing it from crates.io" >&2
  cargo install cargo-fuzz --locked
fi

# Stable toolchain: RUSTC_BOOTSTRAP=1 lets it accept the -Z flags cargo-fuzz passes
# (-Zsanitizer=address, -Cpasses=sancov-module ...). Dev profile: the build dominates a smoke
# run, and dev builds are about twice as fast as -O; debug assertions and overflow checks on.
export RUSTC_BOOTSTRAP=1
start=$(date +%s)
cargo fuzz build --dev
echo "fuzz targets built in $(( $(date +%s) - start )) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One libFuzzer process per core (FUZZ_SMOKE_JOBS, default the number of cores): each target
# still fuzzes for SECONDS_PER_TARGET on a core of its own, and the targets' results are
# printed in the order of TARGETS once all have run.
JOBS=${FUZZ_SMOKE_JOBS:-$(nproc)}
smoke() {
  local t=$1
  if cargo fuzz run --dev "$t" "$work/$t" -- \
      -seed="$SEED" -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -dict=dict/feed.dict -print_final_stats=1 > "$work/$t.log" 2>&1; then
    echo 0 > "$work/$t.rc"
  else
    echo 1 > "$work/$t.rc"
  fi
}
for t in "${TARGETS[@]}"; do
  mkdir -p "$work/$t"
  # Seed from the committed regressions (a copy: the run adds to its corpus).
  for d in "regressions/$t" "regressions/${t%_heavy}"; do
    if [ -d "$d" ]; then cp "$d"/* "$work/$t/" 2>/dev/null || true; fi
  done
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  smoke "$t" &
done
wait

failed=()
for t in "${TARGETS[@]}"; do
  echo "== $t (${SECONDS_PER_TARGET}s)"
  if [ "$(cat "$work/$t.rc" 2>/dev/null)" != 0 ]; then
    failed+=("$t")
    tail -n 60 "$work/$t.log"
  else
    grep -E '^(stat::number_of_executed_units|Done)' "$work/$t.log" || true
  fi
done

echo "fuzz smoke finished in $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]} (artifacts under fuzz/artifacts/<target>/)" >&2
  exit 1
fi
echo "fuzz smoke: ${#TARGETS[@]} passed, 0 failed"
