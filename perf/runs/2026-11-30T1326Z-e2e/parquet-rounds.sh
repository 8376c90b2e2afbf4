#!/bin/sh
# Interleaved rounds: the JSON Lines job and the Parquet job, this binary and the one before,
# over the corpus x10 WARC.gz (python3 perf/gen_archive.py --records 2870 -o /tmp/pqg-c10.warc.gz).
# Usage: parquet-rounds.sh NEW OLD JOBS ROUNDS > out.txt ; each line: binary format user sys wall peakKB faults
NEW=$1 OLD=$2 J=$3 R=$4
for r in $(seq "$R"); do
  for b in "$NEW" "$OLD"; do
    for f in jsonl parquet; do
      printf '%s %s ' "$(basename "$b")" "$f"
      /usr/bin/time -f "%U %S %e %M %R" "$b" -q -j"$J" -o /tmp/pqr.$f /tmp/pqg-c10.warc.gz 2>&1 | tail -1
    done
  done
done
