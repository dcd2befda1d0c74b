#!/usr/bin/env bash
# Whether a tiled GEMM's sharers keep in step as an SM holds more blocks (gemm_occupancy.cu), on the
# device:   OUT=dir bash scripts/probes/gemm-occupancy.sh
# Per dynamic shared memory size and M: the blocks per SM and waves ncu reports, the time, and the times
# B came from DRAM (the DRAM bytes read less A once, over B's 64 MiB). M = 4096 for each size (the waves
# fall as the blocks per SM rise), then M set for about 5.2 waves at each (the waves apart).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/gemm-occupancy}; mkdir -p "$out/csv"
bin=$(mktemp -d)/occupancy
nvcc -O3 -arch=sm_90 -std=c++20 -Idsl/include -Imodel/include -Iscripts/probes -o "$bin" scripts/probes/gemm_occupancy.cu || exit 1
metrics=dram__bytes_read.sum,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__waves_per_multiprocessor,lts__t_sectors_srcunit_tex_op_read.sum
# KiB of dynamic shared memory: 8 KiB static and 1 KiB reserved a block, 228 KiB an SM: 1, 2, 3, 4, 5
# blocks an SM, then none (the registers' six).
cases=${OCCUPANCY_CASES:-"120 4096
100 4096
60 4096
44 4096
34 4096
0 4096
120 704
100 1344
60 2048
44 2752
34 3392"}  # OCCUPANCY_CASES="KIB M..." lines: a few of them
while read -r kib m; do
  ncu --clock-control none --cache-control all --csv --page raw --print-units base --metrics $metrics \
      "$bin" $((kib * 1024)) "$m" >"$out/csv/dyn-$kib-m-$m.csv" 2>&1
  python3 - "$out/csv/dyn-$kib-m-$m.csv" "$kib" "$m" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
if len(rows) < 2:
    print(sys.argv[2], "KiB: no rows:", open(sys.argv[1]).read()[-300:]); sys.exit()
v = dict(zip(rows[0], rows[-1]))
num = lambda key: float(v[key].replace(",", ""))
operand, a = 4.0 * 4096 * 4096, 4.0 * int(sys.argv[3]) * 4096
dram = num("dram__bytes_read.sum")
print(f"dynamic {sys.argv[2]:>3} KiB, M {sys.argv[3]:>4}: regs {v['launch__registers_per_thread']} blocks/SM limits regs {v['launch__occupancy_limit_registers']} "
      f"smem {v['launch__occupancy_limit_shared_mem']}, waves {v['launch__waves_per_multiprocessor']}, {num('gpu__time_duration.sum') / 1e6:.3f} ms, "
      f"L2 reads (A and B) {num('lts__t_sectors_srcunit_tex_op_read.sum') * 32 / operand:.1f} times 64 MiB, DRAM read {dram / 2**20:.0f} MiB: B {(dram - a) / operand:.2f} times")
PY
done <<<"$cases" | tee "$out/occupancy.txt"
tar -C "$out" -czf "$out/csv.tar.gz" csv && rm -r "$out/csv"
