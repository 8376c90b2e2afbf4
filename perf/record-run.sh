#!/usr/bin/env bash
# Records one performance run into perf/runs/<date>-<host>/.
#
#   perf/record-run.sh                 # benches (pipeline, stages, pathological) + peers table
#   perf/record-run.sh --peers-only    # only the peers table (about a minute)
#   perf/record-run.sh --benches-only  # only the criterion benches
#   RUNS=9 perf/record-run.sh ...      # peers rounds (default 5; more rounds, steadier medians)
#
# Writes: command.txt, commit.txt (HEAD + dirty state), rustc.txt (rustc -Vv), cpu.txt
# (lscpu model, cores, governor if readable), env.txt, raw/*.txt (full output of each
# command), summary.md (the peers table and the criterion throughput lines). Runs one command
# at a time: do not build or run anything else meanwhile (2-core machine).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"

what=all
case "${1:-}" in
  --peers-only) what=peers ;;
  --benches-only) what=benches ;;
  "") ;;
  *) echo "usage: $0 [--peers-only|--benches-only]" >&2; exit 2 ;;
esac

if [[ -n "${FEEDMILL_BENCH_UNCHECKED:-}" ]]; then
  echo "refusing to record with FEEDMILL_BENCH_UNCHECKED set: recorded runs must be checked" >&2
  exit 1
fi

stamp=$(date -u +%Y-%m-%dT%H%MZ)
host=$(hostname -s 2>/dev/null || hostname)
out="perf/runs/${stamp}-${host}"
mkdir -p "$out/raw"

echo "$0 $*" > "$out/command.txt"
{
  git rev-parse HEAD
  git describe --always --dirty
  git status --short | sed 's/^/  /'
} > "$out/commit.txt"
rustc -Vv > "$out/rustc.txt"
cargo -V >> "$out/rustc.txt"
{
  lscpu | grep -E '^(Model name|Architecture|CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|CPU max MHz|L2 cache|L3 cache)' || true
  if [[ -r /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ]]; then
    echo "governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor)"
  fi
  echo "nproc: $(nproc)"
  echo "load before run: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/cpu.txt"
{
  uname -a
  echo "CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-}"
  echo "RUSTFLAGS=${RUSTFLAGS:-}"
} > "$out/env.txt"

run() { # run NAME CMD... : tee full output to raw/NAME.txt, record the exact command
  local name=$1; shift
  echo "+ $*" | tee -a "$out/command.txt"
  "$@" 2>&1 | tee "$out/raw/$name.txt"
}

if [[ $what != peers ]]; then
  run pipeline cargo bench --bench pipeline
  run stages cargo bench --bench stages
  run pathological cargo bench --bench pathological
fi
if [[ $what != benches ]]; then
  run peers cargo run --release --manifest-path perf/peers/Cargo.toml --bin peers -- --runs "${RUNS:-5}" --threads 2
fi

{
  echo "# Run ${stamp} on ${host}"
  echo
  echo "- commit: $(head -1 "$out/commit.txt") ($(sed -n 2p "$out/commit.txt"))"
  echo "- rustc: $(head -1 "$out/rustc.txt")"
  echo "- CPU: $(grep '^Model name' "$out/cpu.txt" | sed 's/Model name: *//'), $(grep '^nproc' "$out/cpu.txt")"
  echo "- command: $(head -1 "$out/command.txt")"
  if [[ -f $out/raw/peers.txt ]]; then
    echo
    echo "## Peers (perf/peers, single thread, median of ${RUNS:-5})"
    echo
    grep -E '^(corpus:|\|)' "$out/raw/peers.txt" || true
    echo
    grep -E '^feedmill scaling' "$out/raw/peers.txt" || true
    echo
    echo '```'
    sed -n '/^allocation detail/,/^$/p' "$out/raw/peers.txt"
    echo '```'
  fi
  for b in pipeline stages pathological; do
    [[ -f $out/raw/$b.txt ]] || continue
    echo
    echo "## cargo bench --bench $b (criterion: [low median high])"
    echo
    echo '```'
    # criterion prints "<id>\n   time: [...]\n   thrpt: [...]" (or id and time on one line)
    awk '/^[a-z_]+\/[^ ]+/ {id=$1} /thrpt:/ {print id "  " $0}' "$out/raw/$b.txt" | sed 's/  */ /g'
    echo '```'
  done
} > "$out/summary.md"

echo
echo "recorded: $out"
cat "$out/summary.md"
