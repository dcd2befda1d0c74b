#!/usr/bin/env bash
# wmma fragments loaded from and stored to global memory (wmma_global.cu): requests and sectors per
# fragment at L1, sectors at L2, and the SASS each kind compiles to.
#   OUT=dir bash scripts/probes/wmma-global.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/wmma-global}; mkdir -p "$out"
nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o "$out/wmma_global" scripts/probes/wmma_global.cu || exit 1
cuobjdump -sass "$out/wmma_global" | grep -E "Function|LDG|STG" >"$out/sass.txt"
ncu --clock-control none --cache-control all \
    --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum \
    "$out/wmma_global" >"$out/ncu.txt" 2>&1
grep -E "^  [a-z_0-9]+[(<]|lts__|l1tex__" "$out/ncu.txt"
awk '/Function/ {f=$0} /LDG|STG/ {n[f]++} END {for (k in n) print n[k], k}' "$out/sass.txt"
