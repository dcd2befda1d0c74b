#!/usr/bin/env bash
# The counters of cp.async copies and wmma stores (async_copy.cu) on the device, with the SASS they
# compile to:  OUT=dir bash scripts/probes/async-copy.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/async-copy}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -lineinfo -o "$out/async" scripts/probes/async_copy.cu || exit 1
cuobjdump -sass "$out/async" | grep -E "Function|LDG|STG|LDGSTS|STS|LDS" >"$out/sass.txt"
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,smsp__sass_inst_executed_op_global_ld.sum
metrics+=,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_sectors_mem_global.sum
for v in copy_ld copy_ca copy_cg wmma_store; do
  ncu --cache-control all --clock-control none --launch-skip 1 --launch-count 1 --csv --page raw --print-units base \
      --metrics $metrics "$out/async" $v >"$out/$v.csv" 2>&1
  python3 - "$out/$v.csv" $v <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print(sys.argv[2], "no rows:", open(sys.argv[1]).read()[-400:]); sys.exit()
head, vals = rows[0], rows[-1]
print(sys.argv[2] + ":", ", ".join(f"{m.split('__')[1]}={vals[i]}" for i, m in enumerate(head) if "__" in m))
PY
done
