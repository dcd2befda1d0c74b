#!/usr/bin/env bash
# Twelve everyday kernels written against a hand analysis and not tuned against rooflint
# (held_out_kernels.cu): the analyzer's manifest for this card's geometry, made on the build machine
# (rooflint --gpu H100 or the default H200, into $MANIFEST_DIR), then the program built by nvcc and run
# under rooflint-verify here, and each predicted level set beside its count.
#   build machine: bash scripts/probes/held-out.sh manifests        # -> .carry/held-out/*.rooflint.json
#   GPU machine:   OUT=dir bash scripts/probes/held-out.sh run      # carry .carry/held-out and .carry/slim
# VERIFY: rooflint-verify (default .carry/slim/runtime/rooflint-verify, as build-gpu.sh lays it out).
set -uo pipefail
cd "$(dirname "$0")/../.."
src=scripts/probes/held_out_kernels.cu
dir=${MANIFEST_DIR:-.carry/held-out}
flags=(-std=c++20 -Idsl/include -Imodel/include)
if [[ ${1:-run} == manifests ]]; then
  mkdir -p "$dir"
  analyzer=${ROOFLINT_ANALYZER:-build-dev/analyzer/rooflint}
  "$analyzer" --quiet --manifest "$dir/h200.rooflint.json" "$src" -- "${flags[@]}" >/dev/null || exit 1
  "$analyzer" --quiet --gpu H100 --manifest "$dir/h100.rooflint.json" "$src" -- "${flags[@]}" >/dev/null || exit 1
  exit 0
fi
out=${OUT:-/tmp/held-out}; mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
manifest=$dir/h200.rooflint.json
[[ $gpu == *H100* ]] && manifest=$dir/h100.rooflint.json
echo "GPU '$gpu', manifest $manifest" | tee "$out/run-info.txt"
nvcc -O3 -arch=sm_90 -lineinfo "${flags[@]}" "$src" -o "$out/held_out_kernels" >"$out/nvcc.log" 2>&1 || { cat "$out/nvcc.log"; exit 1; }
"${VERIFY:-.carry/slim/runtime/rooflint-verify}" --manifest "$manifest" --json "$out/held-out.json" -- "$out/held_out_kernels" \
    >"$out/verify.log" 2>&1
echo "rooflint-verify exit status $?" | tee -a "$out/run-info.txt"
python3 scripts/traffic-vs-observed.py "$out/held-out-vs-observed.txt" "$out/held-out.json" --manifest "$manifest"
cat "$out/held-out-vs-observed.txt"
