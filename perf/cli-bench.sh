#!/usr/bin/env bash
# Benchmark of the feedmill CLI over a large generated WARC.gz (not a timed test).
#
# Runs `feedmill --threads N ARCHIVE -o /dev/null` for N in $THREADS (default "1 2") under
# /usr/bin/time -v and records MB/s (compressed input read), feeds/s (output records per
# second) and peak memory (max RSS) in perf/runs/<date>-<host>/:
#   command.txt, env.txt (commit, rustc -Vv, CPU), raw.csv, summary.md, *.stderr
#
# Usage:
#   perf/cli-bench.sh                        # archive generated into a scratch directory (mktemp)
#   perf/cli-bench.sh /tmp/other.warc.gz
#   THREADS="1 2" RUNS=1 perf/cli-bench.sh
# The archive is never written into the repository (see perf/gen_archive.py).
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHIVE=${1:-}
THREADS=${THREADS:-"1 2"}
RUNS=${RUNS:-1}
TARGET=${CARGO_TARGET_DIR:-target}

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/feedmill-cli-bench.XXXXXX")
if [ -z "$ARCHIVE" ]; then
  ARCHIVE=$SCRATCH/bench.warc.gz
  python3 perf/gen_archive.py -o "$ARCHIVE"
fi
cargo build --release --bin feedmill >&2
# NOTE: a target dir shared between worktrees (CARGO_TARGET_DIR) can have its
# release/feedmill replaced by another checkout's build at any time: run a private copy,
# and check it is this CLI.
BIN=$SCRATCH/feedmill
trap 'rm -rf "$SCRATCH"' EXIT
cp "$TARGET/release/feedmill" "$BIN"
chmod +x "$BIN"
"$BIN" --help | grep -q EXAMPLES || { echo "release/feedmill is not this checkout's CLI; rebuild" >&2; exit 1; }

RUN_DIR="perf/runs/$(date -u +%Y-%m-%d)-$(hostname -s)"
mkdir -p "$RUN_DIR"
{
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet || echo ' (dirty)')"
  echo "archive: $ARCHIVE ($(stat -c %s "$ARCHIVE") bytes)"
  rustc -Vv
  lscpu | grep -E 'Model name|^CPU\(s\)|MHz' || true
  free -g | head -2
} > "$RUN_DIR/env.txt"
echo "$BIN --quiet --summary --threads N $ARCHIVE -o /dev/null   (N in $THREADS, $RUNS run(s) each)" > "$RUN_DIR/command.txt"

echo "threads,run,records,ok,not_a_feed,error,input_mb,seconds,mb_per_s,feeds_per_s,peak_rss_mb,user_s,sys_s,cpu_mb_per_s,load_before" > "$RUN_DIR/raw.csv"
for t in $THREADS; do
  for r in $(seq "$RUNS"); do
    log="$RUN_DIR/threads-$t-run-$r.stderr"
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -v "$BIN" --quiet --summary --threads "$t" "$ARCHIVE" -o /dev/null 2> "$log"
    python3 - "$t" "$r" "$log" "$load" >> "$RUN_DIR/raw.csv" <<'PY'
import re, sys
t, r, path, load = sys.argv[1:]
text = open(path).read()
m = re.search(r"feedmill: (\d+) records \(ok (\d+), not_a_feed (\d+), error (\d+)\).*?([\d.]+) MB read.*? in ([\d.]+) s", text)
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
records, ok, naf, err, mb, secs = m.groups()
secs = float(secs)
user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
sys_ = float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
print(f"{t},{r},{records},{ok},{naf},{err},{float(mb):.1f},{secs:.2f},{float(mb)/secs:.1f},"
      f"{int(records)/secs:.0f},{rss/1024:.0f},{user:.2f},{sys_:.2f},{float(mb)/(user+sys_):.1f},{load}")
PY
    tail -n 1 "$RUN_DIR/raw.csv" >&2
  done
done

{
  echo "# feedmill CLI benchmark"
  echo
  echo "Command: \`$(cat "$RUN_DIR/command.txt")\`"
  echo
  echo '```'
  cat "$RUN_DIR/env.txt"
  echo '```'
  echo
  echo "MB = compressed archive bytes read. feeds/s = output records (response records) per"
  echo "wall second. CPU MB/s = MB per CPU second (user+sys), less sensitive to a shared machine;"
  echo "load = 1-minute load average before the run (2 cores)."
  echo
  echo "| threads | records | input MB | seconds | MB/s | feeds/s | peak RSS MB | user+sys s | CPU MB/s | load |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$RUN_DIR/raw.csv" | while IFS=, read -r t r rec ok naf err mb s mbs fps rss us ss cmbs ld; do
    echo "| $t | $rec | $mb | $s | $mbs | $fps | $rss | $(python3 -c "print(round($us+$ss,2))") | $cmbs | $ld |"
  done
} > "$RUN_DIR/summary.md"
cat "$RUN_DIR/summary.md"
