#!/usr/bin/env bash
# The L2 write sectors of stores that write the halves of the same sectors (store_merge.cu): back to back
# in one warp, apart in one warp, across a barrier, from two warps; with the SASS they compile to.
#   OUT=dir bash scripts/probes/store-merge.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/store-merge}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -lineinfo -o "$out/store_merge" scripts/probes/store_merge.cu || exit 1
cuobjdump -sass "$out/store_merge" | grep -E "Function|STG|BAR" >"$out/sass.txt"
ncu --clock-control none --cache-control all \
    --metrics lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,dram__bytes_write.sum \
    "$out/store_merge" >"$out/ncu.txt" 2>&1
grep -E "^  [a-z_]+\(|lts__|l1tex__|dram__" "$out/ncu.txt"
