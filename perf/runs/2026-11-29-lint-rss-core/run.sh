#!/usr/bin/env bash
# Instructions (callgrind refs) of one -j1 release-CLI run, appended to ir.csv as LABEL,COUNT.
# Run from the repository root: run.sh BIN LABEL ARGS...
# The runs of ir.csv (BASE = the release feedmill of 7060cc1, this branch's base; AFTER = this
# branch's release feedmill):
#   run.sh $BIN {base,after}-x10-default   --quiet -j1 /tmp/lintatom-x10.warc.gz -o /dev/null
#   run.sh $BIN {base,after}-x10-lint      --quiet -j1 --lint /tmp/lintatom-x10.warc.gz -o /dev/null
#   run.sh $BIN {base,after}-dir-default   --quiet -j1 corpus/real -o /dev/null
#   run.sh $BIN {base,after}-dir-lint      --quiet -j1 --lint corpus/real -o /dev/null
# with /tmp/lintatom-x10.warc.gz from `python3 perf/gen_archive.py -o /tmp/lintatom-x10.warc.gz
# --records 2870` (2870 responses, 44.7 MB; the archive of perf/runs/2026-11-29T0558Z-lint-atom/).
set -euo pipefail
BIN=$1; LABEL=$2; shift 2
n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
echo "$LABEL,$n" >> "$(dirname "$0")/ir.csv"
