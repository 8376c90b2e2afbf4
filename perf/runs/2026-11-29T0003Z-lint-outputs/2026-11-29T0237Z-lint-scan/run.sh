#!/bin/sh
# Instructions of the lint case before/after the SecurityRiskAttr pre-check, and the findings
# compared. BASE: release CLI built at 6aae5bb; SCAN: built at the commit of this run.
set -e
cargo build --release --bin feedmill --example throughput
for b in base scan; do
  valgrind --tool=callgrind --callgrind-out-file=cg-$b.out feedmill-$b --quiet -j1 \
    --extract --sanitize strict --lint corpus/real -o /dev/null
  callgrind_annotate --inclusive=yes cg-$b.out | grep 'html::note_risk'
  feedmill-$b lint corpus/real > lint-$b.jsonl
  feedmill-$b --quiet -j1 --extract --sanitize strict --lint corpus/real -o out-$b.jsonl
done
cmp lint-base.jsonl lint-scan.jsonl && cmp out-base.jsonl out-scan.jsonl
python3 perf/instructions.py --bless
