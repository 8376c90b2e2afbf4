#!/bin/bash
# usage: rounds.sh OUT ROUNDS J "label|ENV=..|binary|outext" ...
out=$1; rounds=$2; j=$3; shift 3
for r in $(seq 1 $rounds); do
  # alternate order each round
  if (( r % 2 )); then cfgs=("$@"); else cfgs=(); for ((i=$#;i>0;i--)); do cfgs+=("${!i}"); done; fi
  for c in "${cfgs[@]}"; do
    IFS='|' read -r label envs bin ext <<< "$c"
    res=$(env $envs /usr/bin/time -f "%U %S %e %M %R" $bin -q -j$j -o /tmp/pq6/r.$ext /tmp/pqg-c10.warc.gz 2>&1 | tail -1)
    echo "$label j$j r$r $res" >> $out
  done
done
