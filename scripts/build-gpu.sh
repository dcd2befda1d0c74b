#!/usr/bin/env bash
# Builds the tree that scripts/gpu-job.sh runs on the device machine: the CUDA runtime, the examples and
# the tests, without the analyzer (the device has no clang), in Release. Carry build-gpu/ with the call.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFLINT_BUILD_ANALYZER=OFF >/dev/null
cmake --build build-gpu -j "$(nproc)"
du -sh build-gpu
