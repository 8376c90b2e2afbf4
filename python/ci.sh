#!/usr/bin/env bash
# CI for the Python package, the Spark job and the DuckDB examples (called from .ci/run):
# builds the release wheel as it is published (abi3, manylinux2014, linked by zig:
# python/build-wheels.sh), installs it into a fresh venv with the test tools (pip), Java with
# apt only if `java` is absent, checks the stub with mypy's stubtest and runs pytest against
# the installed wheel. Scratch files (venvs, wheels) go to a directory from mktemp, removed
# at the end. Prints the time it took.
#
# FEEDMILL_VENV: a venv to install the test tools into and reuse (default: a fresh one).
# FEEDMILL_CI_RAY=1: also installs Ray Data (a large download, ~4 min here); its test runs
# whenever `ray` is importable (tested with ray 2.60).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/feedmill-python-ci.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
VENV=${FEEDMILL_VENV:-$scratch/venv}
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q maturin ziglang auditwheel pyarrow pandas pyspark duckdb pytest mypy pyarrow-stubs
if [ "${FEEDMILL_CI_RAY:-0}" = 1 ]; then
    "$VENV/bin/pip" install -q "ray[data]"
fi
if ! command -v java >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless
fi
cargo build --release -p feedmill-cli
# The published wheel: manylinux2014 (glibc 2.17+), checked by its tag and by a fresh venv's
# import. Built in target/wheels-build, a target dir of its own: zig builds for an explicit
# target, so nothing of the workspace's build could be reused.
FEEDMILL_BUILD_VENV="$VENV" CARGO_TARGET_DIR="$PWD/target/wheels-build" \
  python/build-wheels.sh manylinux2014 -o "$scratch/wheels"
"$VENV/bin/pip" install -q --force-reinstall --no-deps "$scratch"/wheels/feedmill-*-cp39-abi3-*manylinux2014_x86_64*.whl
# From python/tests (in python/, ./feedmill would shadow the installed package, also for
# the Spark executors, which inherit the working directory).
(cd python/tests && FEEDMILL_BIN="$PWD/../../target/release/feedmill" "$VENV/bin/pytest" -q -s -p no:cacheprovider .)
echo "python/ci.sh: $(( $(date +%s) - t0 )) s"
