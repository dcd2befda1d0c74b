#!/usr/bin/env python3
"""rooflint-summary's DRAM, L2 and L1 columns against a second method: for every kernel of a manifest
(the traffic corpus's), the kernel's predicted traffic computed by scripts/traffic-vs-observed.py from
the manifest's JSON (its tensors' formulas evaluated in Python at the declared sizes, their figures summed
in bytes), which shares no code with the tool's C++ (the spec's polynomials).
  summary_traffic_test.py ROOFLINT_SUMMARY MANIFEST TRAFFIC_VS_OBSERVED_PY"""
import importlib.util
import json
import re
import subprocess
import sys

summary, manifest_path, tvo_path = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("tvo", tvo_path)
tvo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tvo)

out = subprocess.run([summary, manifest_path], capture_output=True, text=True, check=True).stdout
lines = out.splitlines()
header = re.split(r"  +", next(l for l in lines if l.startswith("kernel ")).strip())
column = {name: header.index(name) for name in ("DRAM", "L2", "L1")}
table = {}
for line in lines[lines.index(next(l for l in lines if l.startswith("kernel "))) + 1:]:
    cells = re.split(r"  +", line.strip())
    if len(cells) == len(header):
        table[cells[0]] = cells

CELL = re.compile(r"^([0-9.e+-]+)x(?: \(([0-9.e+-]+)-([0-9.e+-]+)x\))?$")
RANGE = re.compile(r"^([0-9.e+]+)-([0-9.e+]+)x$")  # a range without a point
failures, predicted, compared, pointless = [], 0, 0, 0
for k in json.load(open(manifest_path))["kernels"]:
    name = k["name"] + (" (region)" if k.get("kind") == "region" else "")
    if name not in table:
        failures.append(f"{name}: no row")
        continue
    declared, _ = tvo.case_sizes({}, k)
    if not all(declared.values()):  # no sizes to sum at: no figure
        for title in ("DRAM", "L2", "L1"):
            compared += 1
            if table[name][column[title]] != "-":
                failures.append(f"{name} {title}: '{table[name][column[title]]}' without declared sizes, expected '-'")
        continue
    prediction, _ = tvo.kernel_prediction(k, declared, True)
    for level, title in (("dram", "DRAM"), ("l2", "L2"), ("l1", "L1")):
        cell = table[name][column[title]]
        low, high, point, reason = prediction[level]
        compared += 1
        if reason:
            if cell != "-":
                failures.append(f"{name} {title}: '{cell}', expected '-' ({reason})")
            continue
        predicted += 1
        close = lambda a, b: abs(a - b) <= 0.006 * max(abs(b), 1e-9)
        if point is None:  # a tensor's range has no point: the kernel's range alone
            pointless += 1
            r = RANGE.match(cell)
            if not (r and close(float(r.group(1)), low) and close(float(r.group(2)), high)):
                failures.append(f"{name} {title}: '{cell}', expected {low:.4g}-{high:.4g}x")
            continue
        m = CELL.match(cell)
        if not m:
            failures.append(f"{name} {title}: '{cell}', expected {point:.3g}x ({low:.3g}-{high:.3g}x)")
            continue
        got_point = float(m.group(1))
        got_low, got_high = (float(m.group(2)), float(m.group(3))) if m.group(2) else (got_point, got_point)
        # Three significant digits, and a range printed as a value where its ends print alike.
        if not (close(got_point, point) and close(got_low, low) and close(got_high, high)):
            failures.append(f"{name} {title}: '{cell}', expected {point:.4g}x ({low:.4g}-{high:.4g}x)")

print(f"{compared} (kernel, level) cells compared, {predicted} predicted")
for f in failures:
    print("FAIL:", f)
# A manifest without predictions would pass vacuously: the corpus predicts most of its cells.
if predicted < 100:
    print(f"FAIL: only {predicted} predicted cells: not the traffic corpus's manifest?")
    sys.exit(1)
# The corpus's GEMMs whose sharers may run in step, registers unstated (reuse_gemm_naive_n4096 and
# reuse_gemm_tiled_n2048), have DRAM ranges without a point: the branch that prints the range alone.
if pointless < 2:
    print(f"FAIL: {pointless} cells of ranges without a point, expected the corpus's 2")
    sys.exit(1)
# Under the table, each range without a point says why, as the manifest's basis does after "no point
# estimate: " (the reason a reader needs to get one: here, the registers a thread).
reasons = lines[lines.index("No point estimate:") + 1:] if "No point estimate:" in lines else []
for k in json.load(open(manifest_path))["kernels"]:
    for t in (k.get("predicted_traffic") or {}).get("tensors", []):
        if t["kind"] == "range" and t.get("ratio") is None:
            why = t["basis"].split("no point estimate: ", 1)[-1]
            if not any(r.startswith(f"  {k['name']}: ") and f"'{t['tensor']}'" in r and r.endswith(why) for r in reasons):
                failures.append(f"{k['name']}: '{t['tensor']}' at {t['level']}: no line under 'No point estimate:' ending '{why}'")
sys.exit(1 if failures else 0)
