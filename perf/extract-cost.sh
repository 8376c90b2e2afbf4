#!/bin/sh
# The cost of extraction over parsing, two ways:
#
#   perf/extract-cost.sh bench [RUNS]   # builds `cargo bench --bench extract`, runs it RUNS times (default 5); per run the
#                                       # criterion medians and the ratios, then the median ratios
#   perf/extract-cost.sh callgrind      # instruction counts (valgrind --tool=callgrind, noise-free) of
#                                       # examples/extract: loading only, + one parse pass, + one
#                                       # parse+extract pass; prints (parse+extract)/parse
#
# Uses $CARGO_TARGET_DIR (or ./target). Run on an otherwise idle machine for the bench numbers;
# the callgrind numbers do not depend on load.
set -eu
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
mode=${1:-bench}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
est() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['median']['point_estimate'] / 1e6)" \
    "$target/criterion/extract_real_corpus/$1/new/estimates.json"; }

case "$mode" in
bench)
    runs=${2:-5}
    exe=$(cargo bench --bench extract --no-run 2>&1 | sed -n 's/.*Executable.*(\(.*\)).*/\1/p')
    [ -x "$exe" ] || { echo "cargo bench --bench extract --no-run failed" >&2; exit 1; }
    tmp=$(mktemp)
    i=0
    while [ "$i" -lt "$runs" ]; do
        i=$((i + 1))
        CARGO_TARGET_DIR=$target "$exe" --bench >/dev/null 2>&1 || { echo "$exe --bench failed" >&2; exit 1; }
        p=$(est parse); pe=$(est parse_extract); x=$(est extract_only)
        r=$(echo "$pe $p" | awk '{ printf "%.3f", $1 / $2 }')
        rx=$(echo "$x $p" | awk '{ printf "%.3f", 1 + $1 / $2 }')
        printf 'run %d: parse %.1f ms, parse+extract %.1f ms, extract only %.1f ms; (parse+extract)/parse %s; 1+extract_only/parse %s; load %s\n' \
            "$i" "$p" "$pe" "$x" "$r" "$rx" "$(cut -d' ' -f1 /proc/loadavg)"
        echo "$r $rx" >>"$tmp"
    done
    printf 'median over %d runs: (parse+extract)/parse %s; 1+extract_only/parse %s\n' "$runs" \
        "$(cut -d' ' -f1 "$tmp" | median)" "$(cut -d' ' -f2 "$tmp" | median)"
    rm -f "$tmp"
    ;;
callgrind)
    cargo build --release --example extract >/dev/null 2>&1
    bin="$target/release/examples/extract"
    ir() {
        out=$(mktemp)
        valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" >/dev/null 2>&1
        awk '/^summary:/ { print $2 }' "$out"
        rm -f "$out"
    }
    load=$(ir parse 0); parse=$(ir parse 1); both=$(ir extract 1)
    echo "$load $parse $both" | awk '{ p = $2 - $1; pe = $3 - $1;
        printf "instructions: parse %.0f M, parse+extract %.0f M, extract %.0f M; (parse+extract)/parse %.3f\n",
            p / 1e6, pe / 1e6, (pe - p) / 1e6, pe / p }'
    ;;
*)
    echo "usage: $0 bench [RUNS] | callgrind" >&2
    exit 2
    ;;
esac
