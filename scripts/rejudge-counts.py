#!/usr/bin/env python3
"""Recorded counts judged by new manifests: each kernel-level figure of the manifests in MANIFEST_DIR (at
the declared sizes, as scripts/traffic-vs-observed.py works it out) against the "observed" column of a
comparison that script wrote on the GPU machine, for kernels whose name is unique in the manifests.
Prints the pairs whose point is off by more than 25% or that have none, and the counts.

    python3 scripts/rejudge-counts.py RECORDED_COMPARISON.txt MANIFEST_DIR
"""
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location("tvo", os.path.join(os.path.dirname(__file__), "traffic-vs-observed.py"))
tvo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tvo)
rec, mdir = sys.argv[1], sys.argv[2]
kernels = tvo.load_manifests([mdir])
obs = {}
for line in open(rec):
    p = line.split()
    if len(p) >= 5 and p[1] in ("dram", "l2", "l1"):
        m = [x for x in p[2:] if re.match(r"^[0-9.e+-]+x$", x)]
        if m: obs[(p[0], p[1])] = (float(m[-1][:-1]), p[0:])
pairs = predicted = within = pointed = pw = 0
old_pointed = old_pw = 0
for (name, level), (o, row) in obs.items():
    entries = kernels.get(name) or []
    if len(entries) != 1: continue
    k = entries[0]
    sizes, _ = tvo.case_sizes({}, k)
    pred, _ = tvo.kernel_prediction(k, sizes, True)
    low, high, point, reason = pred[level]
    pairs += 1
    if low is None: continue
    predicted += 1
    ok = low <= 1.25 * o and high >= 0.75 * o
    within += ok
    if point is not None:
        pointed += 1; pw += abs(point - o) <= 0.25 * o
    if not ok or point is None or abs(point - o) > 0.25 * o:
        print(f"{name[:32]:32} {level:5} {low:.3g}-{high:.3g}x point {('-' if point is None else f'{point:.3g}x'):>8} observed {o:.3g}x {'in range' if ok else 'OUTSIDE'}")
print(f"pairs {pairs}, predicted {predicted}, within {within}, with a point {pointed}, points within 25% {pw}")
