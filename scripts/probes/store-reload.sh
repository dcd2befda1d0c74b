#!/usr/bin/env bash
# Whether L1 serves a warp's loads of what it has just stored (store_reload.cu): 4-byte and 16-byte
# accesses, ncu's L1 load sectors and hits and L2's read sectors.
#   OUT=dir bash scripts/probes/store-reload.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/store-reload}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -lineinfo -o "$out/store_reload" scripts/probes/store_reload.cu || exit 1
cuobjdump -sass "$out/store_reload" | grep -E "Function|LDG|STG" >"$out/sass.txt"
ncu --clock-control none --cache-control all \
    --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum \
    "$out/store_reload" >"$out/ncu.txt" 2>&1
grep -E "^  [a-z_0-9]+\(|l1tex__|lts__|dram__" "$out/ncu.txt"
