#!/usr/bin/env python3
"""Per-level bytes of rooflint's verifier beside ncu's on the same launches (issue 11's 3% check).

usage: levels-vs-ncu.py VERIFY_JSON NCU_DIR [OUTPUT]

VERIFY_JSON is rooflint-examples' --json report; NCU_DIR holds one CSV per case, <case>.csv, written by
  ncu --clock-control none --csv --page raw --print-units base --metrics <the six below> \\
      -k regex:'^<kernel>$' --launch-count 1 rooflint-examples --filter '^<case>$' --no-counters ...
Per level, rooflint's bytes come from the same counters: DRAM dram__bytes_read/write.sum; L2
lts__t_sectors_srcunit_tex_op_read/write.sum x 32; L1 l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st.sum
x 32. Prints one row per case, level and direction with the ratio rooflint / ncu; exit 1 when a row
with more than 1 MB differs by more than 3%.
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


def ncu_values(path):
    """The first kernel row of an ncu --csv --page raw file: metric name -> value (base units)."""
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        rows = [r for r in csv.reader(line for line in f if line.startswith('"'))]
    if len(rows) < 3:
        return None
    header, data = rows[0], rows[2]  # rows[1] holds the units
    out = {}
    for name, value in zip(header, data):
        try:
            out[name] = float(value.replace(",", ""))
        except ValueError:
            pass
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    report = json.load(open(sys.argv[1], encoding="utf-8"))
    ncu_dir = sys.argv[2]
    lines, worst = [], 0.0
    header = f"{'case':<28} {'level':<5} {'dir':<5} {'rooflint':>14} {'ncu':>14} {'ratio':>7}"
    lines += [header, "-" * len(header)]
    for case in report["cases"]:
        path = os.path.join(ncu_dir, case["name"] + ".csv")
        if not os.path.exists(path):
            continue
        theirs = ncu_values(path)
        if not theirs:
            lines.append(f"{case['name']:<28} ncu wrote no kernel row ({path})")
            continue
        levels = {l["level"]: l for l in case["compared"].get("levels", [])}
        for (level, direction), (metric, scale) in METRICS.items():
            ours = levels.get(level, {}).get(direction + "_bytes")
            ncu = theirs.get(metric)
            if ours is None or ncu is None:
                continue
            ncu *= scale
            ratio = ours / ncu if ncu > 0 else float("nan")
            if max(ours, ncu) > 1e6 and ncu > 0:
                worst = max(worst, abs(ratio - 1))
            lines.append(f"{case['name']:<28} {level:<5} {direction:<5} {ours:>14.4g} {ncu:>14.4g} {ratio:>7.4f}")
    verdict = "ok" if worst <= 0.03 else "MISSED"
    lines.append(f"largest difference over rows above 1 MB: {100 * worst:.2f}% (target within 3%: {verdict})")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if len(sys.argv) > 3:
        open(sys.argv[3], "w", encoding="utf-8").write(text)
    return 0 if worst <= 0.03 else 1


if __name__ == "__main__":
    sys.exit(main())
