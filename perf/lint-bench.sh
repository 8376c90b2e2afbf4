#!/usr/bin/env bash
# Cost of `--lint` on the main job, end to end over corpus/real (not a timed test).
#
# 1. Wall clock and CPU time: `feedmill corpus/real -o /dev/null` and the same with `--lint`,
#    alternated ROUNDS times (default 15), medians reported (noisy on a shared machine: the
#    CPU-time ratio is the steadier one).
# 2. Instructions (deterministic): both runs under `valgrind --tool=callgrind`, --threads 1.
# Writes perf/runs/<UTC time>-lint-<host>/: env.txt, raw.csv, summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-15}
TARGET=${CARGO_TARGET_DIR:-target}
cargo build --release --bin feedmill >&2
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/feedmill-lint-bench.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
BIN=$SCRATCH/feedmill
TIMES=$SCRATCH/time
cp "$TARGET/release/feedmill" "$BIN"
chmod +x "$BIN"
"$BIN" --help | grep -q -- --lint || { echo "release/feedmill has no --lint; rebuild" >&2; exit 1; }
RUN_DIR="perf/runs/$(date -u +%Y-%m-%dT%H%MZ)-lint-$(hostname -s)"
mkdir -p "$RUN_DIR"
{
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet || echo ' (dirty)')"
  rustc -Vv
  lscpu | grep -E 'Model name|^CPU\(s\)' || true
  echo "load: $(cat /proc/loadavg)"
} > "$RUN_DIR/env.txt"
echo "mode,round,wall_s,cpu_s" > "$RUN_DIR/raw.csv"
for r in $(seq "$ROUNDS"); do
  for mode in default lint; do
    flag=(); [ "$mode" = lint ] && flag=(--lint)
    /usr/bin/time -f "%e %U %S" -o "$TIMES" "$BIN" --quiet "${flag[@]}" corpus/real -o /dev/null
    read -r wall user sys < "$TIMES"
    echo "$mode,$r,$wall,$(echo "$user + $sys" | bc)" >> "$RUN_DIR/raw.csv"
  done
done
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" --quiet --threads 1 "$@" corpus/real -o /dev/null 2>&1 | sed -n 's/.*Collected : //p'; }
IR_DEFAULT=$(ir)
IR_LINT=$(ir --lint)
python3 - "$RUN_DIR" "$IR_DEFAULT" "$IR_LINT" <<'PY'
import csv, statistics, sys
d, ir_d, ir_l = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = list(csv.DictReader(open(f"{d}/raw.csv")))
med = lambda m, k: statistics.median(float(r[k]) for r in rows if r["mode"] == m)
w_d, w_l, c_d, c_l = med("default", "wall_s"), med("lint", "wall_s"), med("default", "cpu_s"), med("lint", "cpu_s")
with open(f"{d}/summary.md", "w") as f:
    f.write("| measure | default job | --lint | throughput with --lint |\n|---|---|---|---|\n")
    f.write(f"| wall clock, median of {len(rows)//2} (s) | {w_d:.3f} | {w_l:.3f} | {100*w_d/w_l:.0f} % |\n")
    f.write(f"| CPU time user+sys, median (s) | {c_d:.3f} | {c_l:.3f} | {100*c_d/c_l:.0f} % |\n")
    f.write(f"| instructions, callgrind, --threads 1 | {ir_d:,} | {ir_l:,} | {100*ir_d/ir_l:.1f} % |\n")
print(open(f"{d}/summary.md").read())
PY
echo "$RUN_DIR"
