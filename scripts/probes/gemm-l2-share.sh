#!/usr/bin/env bash
# Where a tiled GEMM's L2 reads go (gemm_l2_share.cu), on the device:
#   OUT=dir bash scripts/probes/gemm-l2-share.sh
# Per variant: which blocks ran at once on one SM and what they share (placement), then the counters:
# L1's global-load sectors and misses, the sectors L1 received and the sectors and requests L2 counted
# from L1, over the sectors of A and B (loads only). Each block fetching its own tiles: tiled32 at
# n = 1024 reads A and B 1024 / 32 = 32 times (32x at L1), tile128 at n = 2048 2048 / 128 = 16 times
# (16x); L2 as much unless blocks share an SM's L1, or requests merge on the way.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/gemm-l2-share}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -o "$out/share" scripts/probes/gemm_l2_share.cu || exit 1
core=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,launch__occupancy_limit_shared_mem
extra=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum
for v in tiled32 tiled32_alone tile128 tile128_alone; do
  "$out/share" $v "$out/$v-placement.csv"
  for set in core extra; do
    ncu --clock-control none --cache-control all --launch-skip 1 --launch-count 1 --csv --page raw --print-units base \
        --metrics ${!set} "$out/share" $v >"$out/$v-$set.csv" 2>&1
    python3 - "$out/$v-$set.csv" $v <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print(sys.argv[2], "no rows:", open(sys.argv[1]).read()[-400:]); sys.exit()
head, vals = rows[0], rows[-1]
n = 2048 if sys.argv[2].startswith("tile128") else 1024
operands = 2 * n * n * 4 / 32  # A and B, in sectors
number = lambda v: float(v.replace(",", ""))
print(sys.argv[2] + ":", ", ".join(
    f"{m.split('__')[1]}={vals[i]}" + (f" ({number(vals[i]) / operands:.2f}x of A and B)" if "sectors" in m else "")
    for i, m in enumerate(head)
    if m.startswith(("l1tex__", "lts__", "launch__occupancy_limit_shared")) and not m.endswith((".avg", ".min", ".max"))))
PY
  done
done | tee "$out/counters.txt"
