#!/bin/sh
# rounds.sh N ARCHIVE BEFORE AFTER: N interleaved rounds of the -j2 JSON Lines and Parquet jobs
# of both binaries; one line per run: binary job user sys wall peak-KiB bytes.
n=$1; archive=$2; before=$3; after=$4
out=${TMPDIR:-/tmp}/pqr-rounds.$$
for r in $(seq "$n"); do
  for b in before after; do
    eval bin=\$$b
    for job in jsonl parquet; do
      /usr/bin/time -f "$b $job %U %S %e %M" -o "$out.t" "$bin" -q -j2 -o "$out.$job" "$archive"
      echo "$(cat "$out.t") $(stat -c %s "$out.$job")"
    done
  done
done
rm -f "$out".*
