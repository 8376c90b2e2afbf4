#!/usr/bin/env bash
# Instructions (callgrind refs) of one -j1 release-CLI run, appended to ir.csv as LABEL,COUNT.
# Run from the repository root: run.sh BIN LABEL ARGS...
# The runs of ir.csv (BEFORE = main 2f6811e's release feedmill, AFTER = this branch's Atom commit b38c58a):
#   run.sh $BIN {before,atom}-dir-default        --quiet -j1 corpus/real -o /dev/null
#   run.sh $BIN {before,atom}-dir-lint           --quiet -j1 --lint corpus/real -o /dev/null
#   run.sh $BIN {before,atom}-atomdir-default    --quiet -j1 corpus/real/atom -o /dev/null
#   run.sh $BIN {before,atom}-atomdir-lint       --quiet -j1 --lint corpus/real/atom -o /dev/null
#   run.sh $BIN {before,atom}-x10-default        --quiet -j1 /tmp/x10.warc.gz -o /dev/null
#   run.sh $BIN {before,atom}-x10-lint           --quiet -j1 --lint /tmp/x10.warc.gz -o /dev/null
#   and final-dir-{lint,default}, final-x10-lint with c65af7e's release feedmill (iTunes rules too),
# with /tmp/x10.warc.gz from `python3 perf/gen_archive.py -o /tmp/x10.warc.gz --records 2870`
# (2870 responses, 44.7 MB).
set -euo pipefail
BIN=$1; LABEL=$2; shift 2
n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
echo "$LABEL,$n" >> "$(dirname "$0")/ir.csv"
