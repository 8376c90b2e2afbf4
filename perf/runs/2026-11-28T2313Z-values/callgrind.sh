#!/bin/sh
# callgrind instruction counts (refs) of the CLI at -j1 over the corpus WARC.gz
cd /work/wt-values
for job in "main|/tmp/values-main-feedmill" "branch|/tmp/values-branch-feedmill" "branch-ext-none|/tmp/values-branch-feedmill --extensions none"; do
  name=${job%%|*}; cmd=${job#*|}
  n=$(valgrind --tool=callgrind --callgrind-out-file=/tmp/values-cg.out $cmd --quiet -j1 /tmp/values-corpus.warc.gz -o /dev/null 2>&1 | grep "refs:" | awk '{print $NF}')
  echo "$name $n"
done
rm -f /tmp/values-cg.out
