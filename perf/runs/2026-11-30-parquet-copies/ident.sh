#!/bin/sh
# ident.sh NEW OLD : Parquet and JSON Lines outputs of NEW and OLD compared with cmp
NEW=$1 OLD=$2 D=/tmp/pq8id; rm -rf $D; mkdir -p $D; n=0; bad=0
run() { # name args...
  nm=$1; shift
  $NEW -q "$@" -o $D/new.$nm 2>/dev/null; $OLD -q "$@" -o $D/old.$nm 2>/dev/null
  if cmp -s $D/new.$nm $D/old.$nm; then n=$((n+1)); else echo "DIFF $nm $*"; bad=$((bad+1)); fi
  rm -f $D/new.$nm $D/old.$nm
}
for in in /work/wt-pq8/corpus/real /tmp/pq8-c1.warc.gz; do
  t=$(basename $in)
  for lay in records entries; do
    run $t-$lay-def.parquet -j1 --layout $lay $in
    run $t-$lay-ext.parquet -j1 --layout $lay --extract --as-of 2026-11-30 --lint $in
    run $t-$lay-strict.parquet -j1 --layout $lay --sanitize strict $in
    run $t-$lay-def-j2.parquet -j2 --layout $lay $in
  done
  for c in lz4 zstd none; do run $t-$c.parquet -j1 --compression $c $in; done
  run $t-def.jsonl -j1 $in
  run $t-ext.jsonl -j1 --extract --as-of 2026-11-30 --lint $in
  run $t-spec.jsonl -j1 --spec-exact $in
  run $t-strict.jsonl -j1 --sanitize strict $in
  run $t-def-j2.jsonl -j2 $in
done
run c10-j2.parquet -j2 /tmp/pqg-c10.warc.gz
run c10-j2.jsonl -j2 /tmp/pqg-c10.warc.gz
echo "identical: $n, different: $bad"
