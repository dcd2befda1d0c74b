#!/usr/bin/env bash
# The dirty residue each L2 flush variant leaves (l2_flush_residue.cu), measured with ncu on the device:
#   OUT=dir bash scripts/probes/l2-residue.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/l2-residue}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -o "$out/residue" scripts/probes/l2_flush_residue.cu || exit 1
metrics=dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum
for v in ${VARIANTS:-none ldcg3 ldcg6 twice3 ld3 last3 first3 wdiscard1 wdiscard3 memset_ldcg3}; do
  for rep in 1 2; do
    ncu --cache-control ${CACHE_CONTROL:-none} --clock-control none -k regex:^probe --launch-skip 1 --launch-count 1 --csv \
        --page raw --print-units base --metrics $metrics "$out/residue" $v ${PROBE_GIB:-1} >"$out/$v.$rep.csv" 2>&1
    python3 - "$out/$v.$rep.csv" $v <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, vals = rows[0], rows[-1]
get = lambda m: float(vals[head.index(m)].replace(",", ""))
print(f"{sys.argv[2]:8s} probe (read-only): DRAM writes {get('dram__bytes_write.sum')/1e6:9.3f} MB,"
      f" DRAM reads {get('dram__bytes_read.sum')/1e6:9.1f} MB")
PY
  done
done

# Run-to-run spread of the per-level comparison on the two rows that missed 3% (sgemm_naive_n512's L2
# reads, sgemm_tiled_n4096's DRAM writes): ncu and the verifier each several times on the same case.
examples=${ROOFLINT_EXAMPLES:-.carry/gpu/examples/rooflint-examples}
[[ -x $examples && -z ${NO_SPREAD:-} ]] || exit 0
level_metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
for rep in 1 2 3 4; do
  mkdir -p "$out/spread$rep"
  for ck in sgemm_naive_n512:sgemm_naive sgemm_tiled_n4096:sgemm_tiled; do
    c=${ck%%:*}; k=${ck#*:}
    ncu --clock-control none --csv --page raw --print-units base --metrics $level_metrics -k "regex:^${k}\$" \
        --launch-count 1 "$examples" --filter "^${c}\$" --no-counters --repetitions 1 --warmup 0 --quiet \
        >"$out/spread$rep/$c.csv" 2>/dev/null
  done
  "$examples" --filter '^(sgemm_naive_n512|sgemm_tiled_n4096)$' --json "$out/spread$rep/verify.json" \
      --repetitions 3 --no-fp-counters --quiet >/dev/null 2>&1
  echo "== spread run $rep"
  python3 scripts/levels-vs-ncu.py "$out/spread$rep/verify.json" "$out/spread$rep" | grep -E "sgemm_naive_n512 +l2 +read|sgemm_tiled_n4096 +dram +write"
done
