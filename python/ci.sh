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
# The wheel is built in the workspace's target dir with the workspace's release debug setting
# (the root Cargo.toml's), so the dependencies the workspace build already compiled with the
# same features are reused instead of compiled again (57 crates compiled instead of 159; the
# maturin build 2 min 40 s instead of 5 min 26 s on 2 cores). The extension is linked with
# its debug info stripped, as python/'s own release profile (no debug info) ships it.
debug=$(sed -n '/^\[profile.release\]/,/^\[/s/^debug = "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' Cargo.toml)
(cd python && CARGO_TARGET_DIR="$PWD/../target" CARGO_PROFILE_RELEASE_DEBUG="${debug:-false}" \
  "$VENV/bin/maturin" build --release -i "$VENV/bin/python" -o /tmp/feedmill-wheels -- -C strip=debuginfo)
"$VENV/bin/pip" install -q --force-reinstall --no-deps /tmp/feedmill-wheels/feedmill-*.whl
# From python/tests (in python/, ./feedmill would shadow the installed package, also for
# the Spark executors, which inherit the working directory).
(cd python/tests && FEEDMILL_BIN="$PWD/../../target/release/feedmill" "$VENV/bin/pytest" -q -s .)
echo "python/ci.sh: $(( $(date +%s) - t0 )) s"
