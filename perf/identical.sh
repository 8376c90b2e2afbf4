#!/bin/sh
# Byte identity of two feedmill binaries' outputs, for a change that must not change any.
#
#   perf/identical.sh NEW OLD INPUT...        e.g. perf/identical.sh target/release/feedmill \
#                                                  /tmp/feedmill-before corpus/real /tmp/c1.warc.gz
#
# For each INPUT (a directory, a WARC.gz, a file), both binaries write, and `cmp` compares:
# - JSON Lines: default, `--extract --as-of 2026-11-30 --lint`, `--spec-exact`,
#   `--sanitize strict` (all -j1), and the default at -j2;
# - Parquet, each `--layout` (records, entries): default, `--extract --as-of 2026-11-30
#   --lint`, `--sanitize strict` (-j1), and the default at -j2;
# - Parquet with each other `--compression` codec (lz4, zstd, none; Snappy is the default).
# Prints one `DIFF name args` line per difference and a last line
# `identical: N, different: M`; exits 1 if any output differs or a run fails.
# The date of `--as-of` is fixed so that both runs see the same "now".
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 NEW OLD INPUT..." >&2
  exit 2
fi
NEW=$1 OLD=$2
shift 2
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
same=0 bad=0

# compare NAME ARGS... : one output of each binary, compared, then removed.
compare() {
  name=$1
  shift
  if ! "$NEW" -q "$@" -o "$D/new.$name" 2>"$D/new.err"; then
    echo "FAILED (new) $name $*: $(tail -1 "$D/new.err")"
    bad=$((bad + 1))
  elif ! "$OLD" -q "$@" -o "$D/old.$name" 2>"$D/old.err"; then
    echo "FAILED (old) $name $*: $(tail -1 "$D/old.err")"
    bad=$((bad + 1))
  elif cmp -s "$D/new.$name" "$D/old.$name"; then
    same=$((same + 1))
  else
    echo "DIFF $name $*"
    bad=$((bad + 1))
  fi
  rm -f "$D/new.$name" "$D/old.$name"
}

EXTRACT="--extract --as-of 2026-11-30 --lint"
for input in "$@"; do
  t=$(basename "$input")
  # $EXTRACT is split into its words on purpose.
  compare "$t-default.jsonl" -j1 "$input"
  compare "$t-extract.jsonl" -j1 $EXTRACT "$input"
  compare "$t-spec-exact.jsonl" -j1 --spec-exact "$input"
  compare "$t-strict.jsonl" -j1 --sanitize strict "$input"
  compare "$t-default-j2.jsonl" -j2 "$input"
  for layout in records entries; do
    compare "$t-$layout.parquet" -j1 --layout "$layout" "$input"
    compare "$t-$layout-extract.parquet" -j1 --layout "$layout" $EXTRACT "$input"
    compare "$t-$layout-strict.parquet" -j1 --layout "$layout" --sanitize strict "$input"
    compare "$t-$layout-j2.parquet" -j2 --layout "$layout" "$input"
  done
  for codec in lz4 zstd none; do
    compare "$t-$codec.parquet" -j1 --compression "$codec" "$input"
  done
done
echo "identical: $same, different: $bad"
[ "$bad" -eq 0 ]
