#!/usr/bin/env bash
# Instructions (callgrind, -j1) of the release CLI over the corpus x10 WARC.gz, with and without --lint.
set -euo pipefail
BIN=$1; WARC=$2; OUT=$3
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" --quiet -j1 "$@" -o /dev/null 2>&1 | sed -n 's/.*Collected : //p'; }
echo "default,$(ir "$WARC")" > "$OUT"
echo "lint,$(ir --lint "$WARC")" >> "$OUT"
echo "lint-subcommand-jsonl,$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" lint -j1 "$WARC" -o /dev/null 2>&1 | sed -n 's/.*Collected : //p')" >> "$OUT"
echo "lint-subcommand-sarif,$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" lint -j1 --format sarif "$WARC" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')" >> "$OUT"
