#!/bin/sh
# Interleaved rounds of the JSON Lines and the Parquet job (-j2, corpus x10 WARC.gz) for each
# binary given as NAME=PATH; one line per run: name job round user sys wall peak_kb.
# Usage: measure.sh ROUNDS INPUT NAME=BIN [NAME=BIN ...]
rounds=$1; input=$2; shift 2
for r in $(seq 1 "$rounds"); do
  for nb in "$@"; do
    name=${nb%%=*}; bin=${nb#*=}
    for job in jsonl parquet; do
      out=/tmp/pq-bounded-out.$job
      rm -f "$out"
      /usr/bin/time -f "%U %S %e %M" -o /tmp/pq-bounded-time "$bin" -q -j2 -o "$out" "$input" >/dev/null
      echo "$name $job $r $(cat /tmp/pq-bounded-time)"
    done
  done
done
