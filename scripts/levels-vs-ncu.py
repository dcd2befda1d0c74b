#!/usr/bin/env python3
"""Per-level bytes of rooflint's verifier beside ncu's on the same launches (the 3% check).

usage: levels-vs-ncu.py VERIFY_JSON NCU_DIR [OUTPUT] [--dram-write-floor BYTES]

VERIFY_JSON is rooflint-examples' --json report; NCU_DIR holds one CSV per case, <case>.csv, written by
  ncu --clock-control none --csv --page raw --print-units base --metrics <the six below> \\
      -k regex:'^<kernel>$' --launch-count 3 rooflint-examples --filter '^<case>$' --no-counters ...
Per level, rooflint's bytes come from the same counters: DRAM dram__bytes_read/write.sum; L2
lts__t_sectors_srcunit_tex_op_read/write.sum x 32; L1 l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st.sum
x 32. ncu's figure is the median of its launches (each after its own cache flush). Prints one row per
case, level and direction with the ratio rooflint / ncu, and exits 1 when a row with more than 1 MB
meets none of these bounds:
- 3% of ncu's figure (the target);
- 3% beyond the range of ncu's own launches (min to max), where the level's traffic varies from run to
  run (an L1-reuse kernel's L2 reads follow the warps' timing);
- for DRAM writes, --dram-write-floor: the DRAM writes a read-only kernel shows after each tool's flush
  (scripts/probes/l2-residue.sh measures it in the same run; docs/cupti.md §6), which neither tool's
  flush removes and which are not the kernel's traffic.
Each row says which bound it met.
"""

import csv
import json
import os
import sys

METRICS = {
    ("dram", "read"): ("dram__bytes_read.sum", 1),
    ("dram", "write"): ("dram__bytes_write.sum", 1),
    ("l2", "read"): ("lts__t_sectors_srcunit_tex_op_read.sum", 32),
    ("l2", "write"): ("lts__t_sectors_srcunit_tex_op_write.sum", 32),
    ("l1", "read"): ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32),
    ("l1", "write"): ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 32),
}


def ncu_launches(path):
    """Every kernel row of an ncu --csv --page raw file: a list of {metric name: value (base units)}."""
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        rows = [r for r in csv.reader(line for line in f if line.startswith('"'))]
    header, launches = (rows[0], rows[2:]) if rows else ([], [])  # rows[1] holds the units
    out = []
    for data in launches:
        values = {}
        for name, value in zip(header, data):
            try:
                values[name] = float(value.replace(",", ""))
            except ValueError:
                pass
        out.append(values)
    return out


def median_and_spread(values):
    values = sorted(values)
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return median, values[-1] - values[0]


def judge(ours, ncu, samples, floor):
    """The bound a row meets ('' when it meets none) for rooflint's figure (ours) against ncu's median (ncu) of
    its launches' samples; rows of 1 MB or less are not compared."""
    if max(ours, ncu) <= 1e6:
        return "under 1 MB, not compared"
    diff = abs(ours - ncu)
    if diff <= 0.03 * ncu:
        return "within 3%"
    if min(samples) - 0.03 * ncu <= ours <= max(samples) + 0.03 * ncu:
        return "within 3% of ncu's range"
    if diff <= floor:
        return "within the write-back floor"
    return ""


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    args = sys.argv[1:]
    floor = 0.0
    if "--dram-write-floor" in args:
        at = args.index("--dram-write-floor")
        floor = float(args[at + 1])
        del args[at : at + 2]
    report = json.load(open(args[0], encoding="utf-8"))
    ncu_dir = args[1]
    lines, worst, missed = [], 0.0, 0
    header = (f"{'case':<28} {'level':<5} {'dir':<5} {'rooflint':>14} {'ncu median':>14} {'ncu spread':>11}"
              f" {'ratio':>7}  bound met")
    lines += [header, "-" * len(header)]
    for case in report["cases"]:
        path = os.path.join(ncu_dir, case["name"] + ".csv")
        if not os.path.exists(path):
            continue
        theirs = ncu_launches(path)
        if not theirs:
            lines.append(f"{case['name']:<28} ncu wrote no kernel row ({path})")
            continue
        levels = {l["level"]: l for l in case["compared"].get("levels", [])}
        for (level, direction), (metric, scale) in METRICS.items():
            ours = levels.get(level, {}).get(direction + "_bytes")
            samples = [launch[metric] * scale for launch in theirs if metric in launch]
            if ours is None or not samples:
                continue
            ncu, spread = median_and_spread(samples)
            ratio = ours / ncu if ncu > 0 else float("nan")
            if max(ours, ncu) > 1e6 and ncu > 0:
                worst = max(worst, abs(ratio - 1))
            bound = judge(ours, ncu, samples, floor if (level, direction) == ("dram", "write") else 0.0)
            missed += not bound
            lines.append(f"{case['name']:<28} {level:<5} {direction:<5} {ours:>14.4g} {ncu:>14.4g} {spread:>11.3g}"
                         f" {ratio:>7.4f}  {bound or 'MISSED'}")
    lines.append(f"largest difference over rows above 1 MB: {100 * worst:.2f}%; rows meeting no bound: {missed}"
                 f" (DRAM-write floor {floor / 1e6:.2f} MB)")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if len(args) > 2:
        open(args[2], "w", encoding="utf-8").write(text)
    return 0 if missed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
