#!/usr/bin/env bash
# Per-instruction global memory traffic through CUPTI's SASS metrics, mapped to source lines
# (scripts/probes/sass-lines.cu; docs/verifier.md, "Per-line traffic"). On the GPU machine, from the
# repository root:
#   bash scripts/probes/sass-lines.sh [OUTDIR]        (OUTDIR: else $OUT, else /tmp/sass-lines)
# Builds the probe with nvcc -arch=sm_90 -lineinfo against the toolkit's CUPTI, builds the same source as
# a cubin (the line table without a GPU), dumps the cubin's DWARF line table with readelf and its SASS with
# cuobjdump/nvdisasm where the toolkit has them, then runs the probe under a timeout. Everything it learns
# is in OUTDIR: probe.log (what it printed), sass-lines.json, sass-metrics.tsv, build.log, the dumps.
# PROBE_TIMEOUT (s, default 180) bounds the probe; its own watchdog stops it 10 s earlier, naming the phase.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-/tmp/sass-lines}}
mkdir -p "$out"
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc
[[ -x $nvcc ]] || nvcc=$(command -v nvcc) || { echo "NOT AVAILABLE: nvcc (set CUDA_HOME)"; exit 3; }

# CUPTI's headers and library: the toolkit's include/lib, targets/<arch>/..., or extras/CUPTI/...
inc="" lib=""
for d in "$cuda/include" "$cuda"/targets/*/include "$cuda/extras/CUPTI/include"; do
  [[ -f $d/cupti_sass_metrics.h ]] && { inc=$d; break; }
done
for d in "$cuda/lib64" "$cuda/lib" "$cuda"/targets/*/lib "$cuda/extras/CUPTI/lib64"; do
  [[ -e $d/libcupti.so ]] && { lib=$d; break; }
done
{
  echo "toolkit: $cuda"; "$nvcc" --version | tail -2
  echo "CUPTI include: ${inc:-not found}; library: ${lib:-not found}"
  ls -l "$lib"/libcupti.so* 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1 | head -3
  grep RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null
} | tee "$out/build.log"
[[ -n $inc && -n $lib ]] || { echo "NOT AVAILABLE: cupti_sass_metrics.h or libcupti.so under $cuda"; exit 3; }

src=scripts/probes/sass-lines.cu
flags=(-std=c++17 -O3 -arch=sm_90 -lineinfo -I"$inc")
# DT_RPATH (not RUNPATH): libcupti dlopen()s libnvperf_* from its own directory (docs/cupti.md §5).
if ! "$nvcc" "${flags[@]}" -o "$out/sass-lines" "$src" -L"$lib" -lcupti \
       -Xlinker --disable-new-dtags -Xlinker -rpath -Xlinker "$lib" >>"$out/build.log" 2>&1; then
  echo "FAILED: building the probe (see $out/build.log)"; tail -20 "$out/build.log"; exit 1
fi
# The same device code as a cubin file: the probe's fallback line table, and the dumps below.
"$nvcc" "${flags[@]}" -cubin -o "$out/sass-lines.sm_90.cubin" "$src" >>"$out/build.log" 2>&1 \
  || echo "note: building the cubin file failed (see build.log)"

if [[ -f $out/sass-lines.sm_90.cubin ]]; then
  readelf --debug-dump=decodedline "$out/sass-lines.sm_90.cubin" >"$out/cubin-debug-line.txt" 2>&1 \
    || echo "note: readelf could not decode the cubin's .debug_line"
  for tool in nvdisasm cuobjdump; do
    t=$cuda/bin/$tool; [[ -x $t ]] || t=$(command -v $tool) || { echo "note: $tool not found"; continue; }
    case $tool in
      nvdisasm) "$t" --print-line-info "$out/sass-lines.sm_90.cubin" >"$out/nvdisasm-lines.txt" 2>&1 ;;
      cuobjdump) "$t" -sass "$out/sass-lines" >"$out/cuobjdump-sass.txt" 2>&1 ;;
    esac
  done
fi

echo "== probe (timeout ${PROBE_TIMEOUT:-180} s)"
timeout -k 5 "${PROBE_TIMEOUT:-180}" "$out/sass-lines" --out "$out" --cubin "$out/sass-lines.sm_90.cubin" \
  --source "$src" --timeout $(( ${PROBE_TIMEOUT:-180} - 10 )) 2>&1 | tee "$out/probe.log"
rc=${PIPESTATUS[0]}
echo "probe exit status: $rc (0: every per-line check passed; 1: a check failed; 3: not available; 124: timeout)"
# The SASS of the marked lines, where the toolkit has nvdisasm: the instructions behind each figure.
if [[ -s $out/nvdisasm-lines.txt ]]; then
  echo "== SASS global memory instructions by line (nvdisasm --print-line-info)"
  grep -E '^\s*//## File|LDG|STG|RED|ATOM' "$out/nvdisasm-lines.txt" | grep -B1 -E 'LDG|STG|RED|ATOM' | grep -v '^--' | head -80
fi
exit $rc
