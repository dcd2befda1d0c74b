#!/usr/bin/env bash
# Where a process's first counted window spends its time (cupti_setup.cu): each step of the CUPTI range
# profiler's set-up timed alone, twice in fresh processes.
#   OUT=dir bash scripts/probes/cupti-setup.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cupti-setup}; mkdir -p "$out"
nvcc -O2 -arch=sm_90 -std=c++17 -o "$out/cupti_setup" scripts/probes/cupti_setup.cu -lcupti -lcuda || exit 1
for run in 1 2; do
  echo "== process $run"
  "$out/cupti_setup"
  echo "== process $run, without the availability image"
  "$out/cupti_setup" no-availability
done | tee "$out/cupti-setup.txt"
