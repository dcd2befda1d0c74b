#!/usr/bin/env bash
# What a window counts at DRAM after the program allocated, set and freed GBs (memory_clear.cu), waiting
# in several ways, against a fresh profiling session.
#   OUT=dir bash scripts/probes/memory-clear.sh [sweep]   (sweep: frees of 2, 8 and 24 GiB in fine steps of wait)
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/memory-clear}; mkdir -p "$out"
nvcc -O2 -arch=sm_90 -std=c++17 -o "$out/memory_clear" scripts/probes/memory_clear.cu -lcupti -lcuda || exit 1
"$out/memory_clear" ${1:-} | tee "$out/memory-clear${1:+-$1}.txt"
