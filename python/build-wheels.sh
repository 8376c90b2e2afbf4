#!/usr/bin/env bash
# Builds feedmill's release wheels from a clean clone and checks each: abi3 (one wheel for
# CPython 3.9+), Linux x86_64, for manylinux2014 (glibc 2.17+) and musllinux_1_2 (Alpine).
# zig is the linker (`pip install ziglang`): it links against the old glibc's symbol versions
# and against musl, whatever the build machine's libc.
#
#   python/build-wheels.sh [manylinux2014] [musllinux] [-o DIR]
#
# Wheels go to DIR (default target/wheels). Each wheel's platform tag is checked (its file
# name, and `auditwheel show` for manylinux); the manylinux2014 wheel is installed into a
# fresh venv where `import feedmill` parses a feed (a musl wheel cannot be installed on a
# glibc system: its tag is checked, not its import). Tools go into a scratch venv from mktemp
# (FEEDMILL_BUILD_VENV to reuse one).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/wheels
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift 2 ;;
    manylinux2014|musllinux) targets+=("$1"); shift ;;
    *) echo "usage: $0 [manylinux2014] [musllinux] [-o DIR]" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(manylinux2014 musllinux)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/feedmill-wheels.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

venv=${FEEDMILL_BUILD_VENV:-$scratch/build-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q "maturin>=1.5,<2" ziglang auditwheel
export PATH="$venv/bin:$PATH"

for t in "${targets[@]}"; do
  case "$t" in
    manylinux2014)
      args=(--compatibility manylinux2014); tag='manylinux2014_x86_64' ;;
    musllinux)
      rustup target add x86_64-unknown-linux-musl >/dev/null
      args=(--target x86_64-unknown-linux-musl --compatibility musllinux_1_2); tag='musllinux_1_2_x86_64' ;;
  esac
  rm -f "$out"/feedmill-*"$tag"*.whl
  (cd python && maturin build --release --zig "${args[@]}" -i python3 -o "$out")
  whl=$(ls "$out"/feedmill-*-cp39-abi3-*"$tag"*.whl)
  echo "built $whl"
  if [ "$t" = manylinux2014 ]; then
    # auditwheel cannot analyse a musl wheel on a glibc system (it looks for musl's libc.so
    # among the host's libraries); the musl wheel's tag is its file name's.
    auditwheel show "$whl" | tr '\n' ' ' | sed 's/  */ /g'; echo
    python3 -m venv "$scratch/try"
    "$scratch/try/bin/pip" install -q "$whl"
    "$scratch/try/bin/python" -c '
import feedmill
r = feedmill.parse(b"<rss version=\"2.0\"><channel><title>ok</title></channel></rss>")
assert r["status"] == "ok" and r["feed"]["title"] == "ok", r
print("installed and imported: feedmill", feedmill.__version__)'
    rm -rf "$scratch/try"
  fi
done
