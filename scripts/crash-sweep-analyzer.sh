#!/usr/bin/env bash
# Crash sweep: runs rooflint over every .cu/.cpp file of the project and over one small source
# per CUDA toolkit header (#include <header>), and fails if rooflint crashes (a signal, or its crash
# recovery's "the analyzer crashed" message) on any. Parse errors are fine; crashes are not.
#   scripts/crash-sweep-analyzer.sh [ROOFLINT_BINARY] [MAX_HEADERS]
set -uo pipefail
cd "$(dirname "$0")/.."
rooflint=${1:-build-analyzer/analyzer/rooflint}
max_headers=${2:-1000}
[[ -x $rooflint ]] || { echo "crash-sweep: no rooflint at $rooflint" >&2; exit 1; }
cuda=${CUDA_PATH:-/usr/local/cuda}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++20 -Idsl/include -Imodel/include -Ifiles/include -Iprocess/include -Iruntime/include -Iexamples -Itests/analyzer/inputs)

crashes=0
runs=0
check() {  # check LABEL FILES...
  local label=$1; shift
  "$rooflint" "$@" -- "${flags[@]}" >"$work/out" 2>&1
  local rc=$?
  runs=$((runs + $#))
  if (( rc >= 128 )) || grep -q "the analyzer crashed\|PLEASE submit a bug report" "$work/out"; then
    crashes=$((crashes + 1))
    echo "CRASH ($label, exit $rc):"
    grep -m5 "crashed\|Stack dump\|error:" "$work/out"
  fi
}


n=0
headers=()
for h in "$cuda"/include/*.h "$cuda"/include/*.hpp "$cuda"/include/cccl/cub/*.cuh "$cuda"/include/cccl/thrust/*.h; do
  [[ -f $h ]] || continue
  (( n++ >= max_headers )) && break
  rel=${h#"$cuda"/include/}
  rel=${rel#cccl/}
  src="$work/h$n.cu"
  printf '#include <%s>\n' "$rel" >"$src"
  headers+=("$src")
  if (( ${#headers[@]} == 25 )); then check headers "${headers[@]}"; headers=(); echo "crash sweep: $runs files"; fi
done
(( ${#headers[@]} )) && check headers "${headers[@]}"
echo "crash sweep: toolkit headers done ($runs files, $crashes crashing runs)"

mapfile -t project < <(git ls-files '*.cu' '*.cpp' | grep -v '^tests/dsl/fail/')
check project "${project[@]}"

echo "crash sweep: $runs files, $crashes crashing runs"
(( crashes == 0 ))
