#!/usr/bin/env bash
# L1's capacity between passes (l1_capacity.cu), measured with ncu on the device:
#   OUT=dir bash scripts/probes/l1-capacity.sh
# Per launch: the L2 sectors L1 read, L1's global-load sectors, the driver's shared-memory configuration.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/l1-capacity}; mkdir -p "$out"
nvcc -O3 -arch=sm_90 -o "$out/l1cap" scripts/probes/l1_capacity.cu || exit 1
"$out/l1cap" >"$out/launches.txt" || exit 1
metrics=lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size
ncu --clock-control none --cache-control all --csv --page raw --print-units base --metrics $metrics "$out/l1cap" \
    >"$out/ncu.csv" 2>"$out/ncu.err"
python3 - "$out/launches.txt" "$out/ncu.csv" <<'PY'
import csv, sys
launches = [l.split(None, 2)[2].strip() for l in open(sys.argv[1]) if l.startswith("launch ")]
rows = [r for r in csv.reader(open(sys.argv[2])) if len(r) > 10]
head, data = rows[0], rows[1:]
data = [r for r in data if r[head.index("ID")].strip().isdigit()]
get = lambda r, m: float(r[head.index(m)].replace(",", ""))
print(f"{'launch':100s} {'L2 rd / 1 pass':>14s} {'DRAM rd / 1 pass':>16s} {'shmem cfg KiB':>13s} {'warps %':>8s}")
for what, r in zip(launches, data):
    f = dict(kv.split("=") for kv in what.split()[1:])
    useful = int(f["row_kib"]) * 1024 * int(f.get("rows", 0) or int(f.get("blocks", 0)) * int(f["threads"]))
    l2 = get(r, "lts__t_sectors_srcunit_tex_op_read.sum") * 32
    print(f"{what:100s} {l2 / useful:14.3f} {get(r, 'dram__bytes_read.sum') / useful:16.3f} "
          f"{get(r, 'launch__shared_mem_config_size') / 1024:13.0f} {get(r, 'sm__warps_active.avg.pct_of_peak_sustained_active'):8.1f}")
PY
