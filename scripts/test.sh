#!/usr/bin/env bash
# The test command (README.md): installs what the build needs, builds, and runs every test through CTest.
# Tests that need a GPU skip themselves, with the reason, where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=${ROOFLINT_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
grep -E "rooflint|WARNING" -A1 "$build.configure.log" | grep -v "^--$" || true
cmake --build "$build" -j "$(nproc)"
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "rooflint: no GPU here: the tests labelled 'gpu' skip themselves (their reasons: ctest --test-dir $build -L gpu -V)"
fi
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
