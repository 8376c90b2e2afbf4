#!/bin/bash
# usage: rounds2.sh N ARCHIVE spec...   spec = name|BIN|ext|ENV|extra
N=$1; A=$2; shift 2
for r in $(seq 1 $N); do
  for spec in "$@"; do
    IFS='|' read name bin ext envs extra <<< "$spec"
    out=/tmp/pqc/r/out-$name.$ext
    rm -f $out
    t=$( { env $envs /usr/bin/time -f "%U %S %e %M %R" $bin -q -j2 $extra -o $out $A; } 2>&1 | tail -1)
    echo "$r $name $t $(stat -c %s $out) $(cut -d' ' -f1 /proc/loadavg)"
  done
done
