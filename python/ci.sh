#!/usr/bin/env bash
# CI for the Python package, the Spark job and the DuckDB examples (called from .ci/run):
# installs Python tools with pip into a venv, Java with apt only if `java` is absent, builds
# the CLI and the wheel, runs pytest. Prints the time it took.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
VENV=${FEEDMILL_VENV:-/tmp/feedmill-py-venv}
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q maturin pyarrow pandas pyspark duckdb pytest
# Ray Data is a large download (~4 min here); its test runs whenever `ray` is importable.
# FEEDMILL_CI_RAY=1 installs it (tested with ray 2.60).
if [ "${FEEDMILL_CI_RAY:-0}" = 1 ]; then
    "$VENV/bin/pip" install -q "ray[data]"
fi
if ! command -v java >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless
fi
cargo build --release -p feedmill-cli
rm -rf /tmp/feedmill-wheels
(cd python && "$VENV/bin/maturin" build --release -i "$VENV/bin/python" -o /tmp/feedmill-wheels)
"$VENV/bin/pip" install -q --force-reinstall --no-deps /tmp/feedmill-wheels/feedmill-*.whl
# From python/tests (in python/, ./feedmill would shadow the installed package, also for
# the Spark executors, which inherit the working directory).
(cd python/tests && FEEDMILL_BIN="$PWD/../../target/release/feedmill" "$VENV/bin/pytest" -q -s .)
echo "python/ci.sh: $(( $(date +%s) - t0 )) s"
