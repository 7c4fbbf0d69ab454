#!/usr/bin/env bash
# Prints benchmark figures: the in-process throughput bench, whole-command timings (hyperfine)
# and peak memory (/usr/bin/time -v). Not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/mshconv_bench ] || bash scripts/build.sh
echo "== read + validate + write throughput over the corpus"
build/mshconv_bench 15
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
build/mshconv samples "$corpus" > /dev/null
if command -v hyperfine > /dev/null; then
  echo "== whole commands (hyperfine)"
  hyperfine -N --warmup 3 --runs 20 \
    "build/mshconv samples $corpus/regen" \
    "build/mshconv validate --strict $corpus/animals.rlb" \
    "build/mshconv info --json $corpus/static.rlb"
fi
if [ -x /usr/bin/time ]; then
  echo "== peak memory"
  for f in "$corpus"/*.rlb; do
    /usr/bin/time -v build/mshconv validate --strict "$f" 2>&1 >/dev/null |
      awk -v f="$(basename "$f")" '/Maximum resident/ {print f ": " $6 " KiB peak RSS"}'
  done
fi
