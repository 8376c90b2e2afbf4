#!/bin/bash
# Before (main's behaviour: the experiment binary with no knob set) and after (this commit),
# interleaved, both jobs -j2 over the corpus x10 WARC.gz; one line per run as variants.sh.
# Usage: final.sh ROUNDS INPUT BEFORE_BIN AFTER_BIN
rounds=$1; input=$2; before=$3; after=$4
for r in $(seq 1 "$rounds"); do
  for nb in before=$before after=$after; do
    name=${nb%%=*}; bin=${nb#*=}
    for job in jsonl parquet; do
      out=/tmp/pqg-final.$job; rm -f "$out"
      /usr/bin/time -f "%U %S %e %M" -o /tmp/pqg-time "$bin" -q -j2 -o "$out" "$input" >/dev/null
      echo "$job-$name $r $(cat /tmp/pqg-time) $(stat -c %s "$out")"
      cp "$out" "/tmp/pqg-final-$name.$job"
    done
  done
done
