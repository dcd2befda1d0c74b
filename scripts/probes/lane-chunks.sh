#!/usr/bin/env bash
# A lane's chunk of 8 consecutive floats stored, or loaded, one by one, and chunks of 2 to 16 floats stored
# (lane_chunks.cu): the sectors at
# L1, L2 and DRAM, with the SASS they compile to, on the GPU as found (no clock control).
#   OUT=dir bash scripts/probes/lane-chunks.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/lane-chunks}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -o "$out/lane_chunks" scripts/probes/lane_chunks.cu || exit 1
cuobjdump -sass "$out/lane_chunks" | grep -E "Function|STG|LDG" >"$out/sass.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$out/gpu.txt"
ncu --clock-control none --cache-control all --csv --page raw --print-units base \
    --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_write.sum,dram__bytes_read.sum \
    "$out/lane_chunks" >"$out/ncu.csv" 2>&1
python3 - "$out/ncu.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]
for r in rows[2:]:
    print(r[head.index("Kernel Name")].split("(")[0])
    for key in head:
        if key.endswith(".sum") and ("l1tex__t_" in key or "lts__t_sectors_srcunit" in key or "dram__bytes" in key):
            print(f"  {key} {r[head.index(key)]}")
PY
