#!/bin/bash
# Interleaved rounds of variants of the -j2 job over one input. Each variant is one line of
# the VARIANTS file: NAME<TAB>JOB<TAB>ENV (space-separated K=V, or -)<TAB>EXTRA ARGS (or -),
# JOB = jsonl or parquet. Per run one line: name round user sys wall peak_kb out_bytes.
# Usage: variants.sh ROUNDS INPUT BIN VARIANTS
rounds=$1; input=$2; bin=$3; variants=$4
for r in $(seq 1 "$rounds"); do
  while IFS=$'\t' read -r name job envs extra; do
    [ -z "$name" ] && continue
    case "$name" in \#*) continue;; esac
    out=/tmp/pqg-out.$job; rm -f "$out"
    [ "$envs" = "-" ] && envs=""
    [ "$extra" = "-" ] && extra=""
    env $envs /usr/bin/time -f "%U %S %e %M" -o /tmp/pqg-time "$bin" -q -j2 $extra -o "$out" "$input" >/dev/null
    echo "$name $r $(cat /tmp/pqg-time) $(stat -c %s "$out")"
  done < "$variants"
done
