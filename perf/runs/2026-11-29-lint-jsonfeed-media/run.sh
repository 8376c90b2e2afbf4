#!/usr/bin/env bash
# Instructions (callgrind refs) of one -j1 release-CLI run, appended to ir.csv as LABEL,COUNT.
# Run from the repository root: run.sh BIN LABEL ARGS...
# The runs of ir.csv (MAIN = /work/main's release feedmill at 64d470c, three commits after this
# branch's base 7060cc1, none in src/lint or src/format; NEW = this branch's release feedmill):
#   run.sh $BIN {main,new}-x10-default     --quiet -j1 /tmp/lintjson-x10.warc.gz -o /dev/null
#   run.sh $BIN {main,new}-x10-lint        --quiet -j1 --lint /tmp/lintjson-x10.warc.gz -o /dev/null
#   run.sh $BIN {main,new}-dir-default     --quiet -j1 corpus/real -o /dev/null
#   run.sh $BIN {main,new}-dir-lint        --quiet -j1 --lint corpus/real -o /dev/null
#   run.sh $BIN {main,new}-media-default   --quiet -j1 /tmp/lintjson-media -o /dev/null
#   run.sh $BIN {main,new}-media-lint      --quiet -j1 --lint /tmp/lintjson-media -o /dev/null
#   run.sh $BIN {main,new}-json-default    --quiet -j1 /tmp/lintjson-jsoncorpus -o /dev/null
#   run.sh $BIN {main,new}-json-lint       --quiet -j1 --lint /tmp/lintjson-jsoncorpus -o /dev/null
# with /tmp/lintjson-x10.warc.gz from `python3 perf/gen_archive.py -o /tmp/lintjson-x10.warc.gz
# --records 2870` (2870 responses), /tmp/lintjson-media the 50 files of corpus/real that declare
# the Media RSS namespace (`grep -rl search.yahoo.com/mrss corpus/real`, copied flat), and
# /tmp/lintjson-jsoncorpus from `make_json_corpus.py` (155 JSON Feeds converted from
# corpus/real/rss2; corpus/real holds no JSON Feed).
set -euo pipefail
BIN=$1; LABEL=$2; shift 2
n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
echo "$LABEL,$n" >> "$(dirname "$0")/ir.csv"
