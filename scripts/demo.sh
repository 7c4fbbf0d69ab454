#!/usr/bin/env bash
# Quick start 1: install what is missing, build, generate the synthetic corpus into out/corpus
# and describe every archive in it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build/mshconv samples out/corpus
for f in out/corpus/*.rlb; do
  build/mshconv validate --strict "$f" | tail -n 1
  build/mshconv info "$f"
done
