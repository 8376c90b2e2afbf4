#!/bin/sh
# name env... ; runs the parquet job only
for r in 1 2 3; do
for cfg in "base:" "b24:FEEDMILL_EXP_BUDGET=25165824" "rg4:FEEDMILL_EXP_RG_BYTES=4194304" "rg4b16:FEEDMILL_EXP_RG_BYTES=4194304 FEEDMILL_EXP_BUDGET=16777216" "thr:MALLOC_MMAP_THRESHOLD_=1048576" "rg4thr:FEEDMILL_EXP_RG_BYTES=4194304 MALLOC_MMAP_THRESHOLD_=1048576"; do
  name=${cfg%%:*}; envs=${cfg#*:}
  env $envs /usr/bin/time -f "%U %S %e %M" -o /tmp/pq-scan-time /tmp/pq-feedmill-knob -q -j2 -o /tmp/pq-scan.parquet /tmp/pq-c10.warc.gz
  echo "$name $r $(cat /tmp/pq-scan-time) $(stat -c %s /tmp/pq-scan.parquet)"
done; done
