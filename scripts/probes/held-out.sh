#!/usr/bin/env bash
# Everyday kernels written against a hand analysis and not tuned against rooflint (held_out_kernels.cu:
# twelve; held_out_kernels2.cu: nine more; held_out_kernels3.cu: ten more; held_out_kernels4.cu: seven
# more): the analyzer's manifests for each card's geometry, made on the build machine (rooflint --gpu H100 and the default H200, into $MANIFEST_DIR/h100 and /h200), then
# the programs built by nvcc and run under rooflint-verify here, and each predicted level set beside its
# count.
#   build machine: bash scripts/probes/held-out.sh manifests        # -> .carry/held-out/{h200,h100}/*.rooflint.json
#   GPU machine:   OUT=dir bash scripts/probes/held-out.sh run      # carry .carry/held-out and .carry/slim
# VERIFY: rooflint-verify (default .carry/slim/runtime/rooflint-verify, as build-gpu.sh lays it out).
set -uo pipefail
cd "$(dirname "$0")/../.."
read -ra programs <<<"${HELD_OUT_PROGRAMS:-held_out_kernels held_out_kernels2 held_out_kernels3 held_out_kernels4}"  # one of them: HELD_OUT_PROGRAMS=name
dir=${MANIFEST_DIR:-.carry/held-out}
flags=(-std=c++20 -Idsl/include -Imodel/include -Iscripts/probes)
if [[ ${1:-run} == manifests ]]; then
  analyzer=${ROOFLINT_ANALYZER:-build-dev/analyzer/rooflint}
  for card in h200 h100; do
    mkdir -p "$dir/$card"
    for p in "${programs[@]}"; do
      "$analyzer" --quiet --gpu "${card^^}" --manifest "$dir/$card/$p.rooflint.json" "scripts/probes/$p.cu" -- "${flags[@]}" >/dev/null || exit 1
    done
  done
  exit 0
fi
out=${OUT:-/tmp/held-out}; mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
card=h200
[[ $gpu == *H100* ]] && card=h100
echo "GPU '$gpu', manifests $dir/$card" | tee "$out/run-info.txt"
reports=()
for p in "${programs[@]}"; do
  nvcc -O3 -arch=sm_90 -lineinfo "${flags[@]}" "scripts/probes/$p.cu" -o "$out/$p" >"$out/$p.nvcc.log" 2>&1 || { cat "$out/$p.nvcc.log"; exit 1; }
  "${VERIFY:-.carry/slim/runtime/rooflint-verify}" --manifest "$dir/$card" --json "$out/$p.json" -- "$out/$p" >"$out/$p.verify.log" 2>&1
  echo "$p: rooflint-verify exit status $?" | tee -a "$out/run-info.txt"
  reports+=("$out/$p.json")
done
python3 scripts/traffic-vs-observed.py "$out/held-out-vs-observed.txt" "${reports[@]}" --manifest "$dir/$card"
