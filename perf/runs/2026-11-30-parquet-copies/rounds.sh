#!/bin/sh
# rounds.sh J ROUNDS FMT BIN... : interleaved, order reversed every round; line: bin fmt user sys wall peakKB faults
J=$1 R=$2 F=$3; shift 3
for r in $(seq "$R"); do
  if [ $((r % 2)) -eq 1 ]; then L="$*"; else L=$(for b in "$@"; do echo "$b"; done | tac); fi
  for b in $L; do
    printf '%s %s ' "$(basename "$b")" "$F"
    /usr/bin/time -f "%U %S %e %M %R" "$b" -q -j"$J" -o /tmp/pq8r/r.$F /tmp/pqg-c10.warc.gz 2>&1 | tail -1
  done
done
