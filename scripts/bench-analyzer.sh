#!/usr/bin/env bash
# Benchmark (not a test): the analyzer's time and peak memory against clang++-19 -fsyntax-only on the
# same files with the same CUDA setup, and against nvcc's own compile. Targets: at most 1.15x
# clang's time and 1.2x its memory; the whole analysis at most 0.35x nvcc's time cold, 0.2x warm.
#   scripts/bench-analyzer.sh [ROOFLINT_BINARY] [FILES...]
# The machine should be otherwise idle: the figures are wall time.
# Defaults: build-analyzer/analyzer/rooflint (else build/analyzer/rooflint), the examples, and a file
# that includes cub. Each figure is the best of 3 runs (wall seconds, max RSS in MB). rooflint is timed
# twice (docs/analyzer.md, "Cost"): cold, each run with an empty PCH cache (it writes the precompiled
# CUDA prefix, then uses it), and warm, the cache filled by a run before.
# BENCH_TIME=cpu reports CPU seconds (user + system, the processes a command waits for included: the
# workers, nvcc's cicc and ptxas) instead of wall seconds: steadier on a shared, loaded machine.
set -euo pipefail
cd "$(dirname "$0")/.."
rooflint=${1:-}
if [[ -z $rooflint ]]; then
  for candidate in build-analyzer/analyzer/rooflint build/analyzer/rooflint; do
    [[ -x $candidate ]] && { rooflint=$candidate; break; }
  done
fi
[[ -x ${rooflint:-} ]] || { echo "bench-analyzer: build rooflint first (cmake --build build --target rooflint)" >&2; exit 1; }
shift || true
cuda=${CUDA_PATH:-/usr/local/cuda}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/virtual"
: >"$work/virtual/texture_fetch_functions.h"
# What rooflint -includes for CUDA (analyzer/lib/CudaSetup.cpp): cache-hint intrinsics clang 19 lacks.
cat >"$work/virtual/compat.h" <<'H'
#define ROOFLINT_COMPAT_LOAD(name) template <class T> __attribute__((device)) T name(const T *);
#define ROOFLINT_COMPAT_STORE(name) template <class T> __attribute__((device)) void name(T *, T);
ROOFLINT_COMPAT_LOAD(__ldcg) ROOFLINT_COMPAT_LOAD(__ldca) ROOFLINT_COMPAT_LOAD(__ldcs)
ROOFLINT_COMPAT_LOAD(__ldlu) ROOFLINT_COMPAT_LOAD(__ldcv)
ROOFLINT_COMPAT_STORE(__stwb) ROOFLINT_COMPAT_STORE(__stcg) ROOFLINT_COMPAT_STORE(__stcs)
ROOFLINT_COMPAT_STORE(__stwt)
H
cat >"$work/cub_include.cu" <<'CU'
#include <cub/cub.cuh>
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void copy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
inline constexpr auto copy_spec = kernel<copy>("copy", unary(0, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 28));
CU
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  files=(examples/*/*.cu "$work/cub_include.cu")
fi
flags=(-std=c++20 -Idsl/include -Imodel/include -Ifiles/include -Iruntime/include -Iexamples)

# best-of-3 "seconds MB" of a command; with FRESH=DIR, DIR is removed before each run (a cold cache).
measure() {
  local best_t="" best_m=""
  for _ in 1 2 3; do
    [[ -n ${FRESH:-} ]] && rm -rf "$FRESH"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null 2>&1 || true
    local wall user sys m t
    read -r wall user sys m < <(tail -1 "$work/time")
    t=$wall
    [[ ${BENCH_TIME:-wall} == cpu ]] && t=$(awk "BEGIN{printf \"%.2f\", $user + $sys}")
    if [[ -z $best_t ]] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; fi
    if [[ -z $best_m ]] || (( m < best_m )); then best_m=$m; fi
  done
  echo "$best_t $((best_m / 1024))"
}

# nvcc's own compile of the same file (sm_90, object code), the figure that measures the whole
# analysis against (target: rooflint at most 0.35x nvcc); '-' without nvcc.
nvcc_bin=${NVCC:-$cuda/bin/nvcc}
ratio() { awk "BEGIN{printf \"%.2f\", $1 / ($2 > 0 ? $2 : 0.01)}"; }
printf "%-34s %8s %8s %8s %8s %8s %7s %7s %8s %8s %8s\n" file clang_s clang_MB cold_s warm_s warm_MB time_x mem_x \
    nvcc_s cold_nv of_nvcc
for f in "${files[@]}"; do
  # Like for like: the analyzer parses device side (analyzer/lib/CudaSetup.cpp).
  read -r ct cm < <(measure clang++-19 -fsyntax-only -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudalib -Xclang -target-sdk-version=12.4 --cuda-path="$cuda" \
      -Wno-unknown-cuda-version -isystem "$cuda/include/cccl" -idirafter "$work/virtual" -include "$work/virtual/compat.h" "${flags[@]}" "$f")
  read -r cold _ < <(FRESH="$work/pch-cold" measure "$rooflint" --pch-cache-dir="$work/pch-cold" "$f" -- "${flags[@]}")
  "$rooflint" --pch-cache-dir="$work/pch-warm" "$f" -- "${flags[@]}" >/dev/null 2>&1 || true  # fills it
  read -r rt rm < <(measure "$rooflint" --pch-cache-dir="$work/pch-warm" "$f" -- "${flags[@]}")
  nt=- nx=- cx=-
  if [[ -x $nvcc_bin ]]; then
    read -r nt _ < <(measure "$nvcc_bin" -c -arch=sm_90 "${flags[@]}" -o "$work/nvcc.o" "$f")
    nx=$(ratio "$rt" "$nt")
    cx=$(ratio "$cold" "$nt")
  fi
  printf "%-34s %8s %8s %8s %8s %8s %7s %7s %8s %8s %8s\n" "$(basename "$f")" "$ct" "$cm" "$cold" "$rt" "$rm" \
      "$(ratio "$rt" "$ct")" "$(awk "BEGIN{printf \"%.2f\", $rm / $cm}")" "$nt" "$cx" "$nx"
done
echo "(${BENCH_TIME:-wall} seconds; time_x, mem_x: warm rooflint over clang -fsyntax-only; cold_nv, of_nvcc: cold and warm rooflint over nvcc)"

# Where the analyzer's time goes (one warm run of a worker per file, ROOFLINT_TRAFFIC_TIME): the parse
# and IR generation (the PCH's load included), the device IR's optimisation and the traffic analysis,
# the spec analysis; and what the PCH cache did.
echo "phases (one warm run each, wall seconds):"
for f in "${files[@]}"; do
  printf "  %s: " "$(basename "$f")"
  ROOFLINT_TRAFFIC_TIME=1 "$rooflint" --rooflint-worker --rooflint-evaluation-threads="$(nproc)" --color=never --pch-cache-dir="$work/pch-warm" "$f" -- "${flags[@]}" 2>&1 >/dev/null |
    grep -aE "^rooflint: (time|traffic|pch):" | sed 's/^rooflint: //' | paste -sd';' - || echo "(no timing printed)"
done
