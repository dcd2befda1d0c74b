#!/usr/bin/env bash
# Whether a tiled GEMM's waves hold (gemm_waves.cu), on the device:
#   OUT=dir SGEMM_CUDA=path/to/SGEMM_CUDA bash scripts/probes/gemm-waves.sh
# Per kernel and shape: its registers, blocks per SM and waves as the launch made them, its time, and
# the DRAM bytes read over the operand its blocks share (B for the kernels whose blockIdx.x runs along
# N, A for smem32), less the other operand once: the times that operand came from DRAM.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/gemm-waves}; mkdir -p "$out/csv"
src=${SGEMM_CUDA:-.carry/public/src/SGEMM_CUDA}
bin=$(mktemp -d)/waves
nvcc -O3 -arch=sm_90 -I"$src" -o "$bin" scripts/probes/gemm_waves.cu || exit 1
metrics=dram__bytes_read.sum,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__occupancy_limit_shared_mem,launch__waves_per_multiprocessor,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
# kernel M N K: the shared operand stays 64 MiB; the other dimension sets the waves.
cases="smem32 4096 256 4096
smem32 4096 1024 4096
smem32 4096 4096 4096
tile1d 1024 4096 4096
tile1d 4096 4096 4096
tile1d 16384 4096 4096
tile2d 4096 4096 4096
tile2d 16384 4096 4096
tile2d 65536 4096 4096
warptiling 4096 4096 4096
warptiling 16384 4096 4096
warptiling 65536 4096 4096"
while read -r k m n kk; do
  ncu --clock-control none --cache-control all --csv --page raw --print-units base --metrics $metrics \
      "$bin" $k $m $n $kk >"$out/csv/$k-$m-$n-$kk.csv" 2>&1
  python3 - "$out/csv/$k-$m-$n-$kk.csv" $k $m $n $kk <<'PY'
import csv, sys
f, k, m, n, kk = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
rows = [r for r in csv.reader(open(f)) if len(r) > 10]
if len(rows) < 2:
    print(k, m, n, kk, "no rows:", open(f).read()[-300:]); sys.exit()
head, vals = rows[0], rows[-1]
v = {h: vals[i] for i, h in enumerate(head)}
num = lambda key: float(v[key].replace(",", ""))
a, b = 4.0 * m * kk, 4.0 * kk * n
shared, other = (a, b) if k == "smem32" else (b, a)
dram = num("dram__bytes_read.sum")
print(f"{k} M={m} N={n} K={kk}: regs {v['launch__registers_per_thread']} blocks/SM limits regs {v['launch__occupancy_limit_registers']} "
      f"warps {v['launch__occupancy_limit_warps']} smem {v['launch__occupancy_limit_shared_mem']}, waves {v['launch__waves_per_multiprocessor']}, "
      f"{num('gpu__time_duration.sum') / 1e6:.3f} ms, dram {num('dram__throughput.avg.pct_of_peak_sustained_elapsed'):.0f}% sm {num('sm__throughput.avg.pct_of_peak_sustained_elapsed'):.0f}%, "
      f"DRAM read {dram / 2**20:.0f} MiB: shared operand {(dram - other) / shared:.2f} times")
PY
done <<<"$cases" | tee "$out/waves.txt"
tar -C "$out" -czf "$out/csv.tar.gz" csv && rm -r "$out/csv"  # the raw counters, one file
