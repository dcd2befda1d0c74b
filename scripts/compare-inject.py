#!/usr/bin/env python3
"""The bytes of two rooflint-verify reports over the same program, case by case.

usage: compare-inject.py A.json B.json

A and B are rooflint-verify --json reports (for instance one profiling session per launch against
batched counting, scripts/gpu-job.sh overhead). Cases are matched by name (kernel and sizes). Prints per
case the status of each and, per figure (DRAM reads and writes, L2 loads and stores, L1 loads and
stores, the measured time), A's value, B's and B/A; then the largest relative difference of the bytes
over figures above 1 MB, and the verdicts that differ. Exit 1 if a matched case's status differs.
"""
import json
import sys

FIGURES = [("dram read", "dram_read_bytes"), ("dram write", "dram_write_bytes"), ("l2 read", "l2_read_bytes"),
           ("l2 write", "l2_write_bytes"), ("l1 read", None), ("l1 write", None)]


def cases(path):
    return {c["name"]: c for c in json.load(open(path)).get("cases", [])}


def figure(case, key, label):
    k = (case.get("measured") or {}).get("counters") or {}
    if key:
        return k.get(key)
    sectors = k.get("l1_read_sectors" if label == "l1 read" else "l1_write_sectors")
    return None if sectors is None else sectors * 32


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = cases(sys.argv[1]), cases(sys.argv[2])
    worst, worst_at, differ = 0.0, "", []
    for name in sorted(set(a) & set(b)):
        ca, cb = a[name], b[name]
        print(f"{name:44s} {ca.get('status', '?'):>8s} {cb.get('status', '?'):>8s}")
        if ca.get("status") != cb.get("status"):
            differ.append(name)
        for label, key in FIGURES:
            va, vb = figure(ca, key, label), figure(cb, key, label)
            if va is None or vb is None:
                continue
            ratio = vb / va if va else float("nan")
            print(f"    {label:10s} {va:14.6g} {vb:14.6g}  {ratio:7.4f}")
            if max(va, vb) > 1e6 and va > 0 and abs(ratio - 1) > worst:
                worst, worst_at = abs(ratio - 1), f"{name} {label}"
        ta = ((ca.get("measured") or {}).get("timing") or {}).get("median_s")
        tb = ((cb.get("measured") or {}).get("timing") or {}).get("median_s")
        if ta and tb:
            print(f"    {'time s':10s} {ta:14.6g} {tb:14.6g}  {tb / ta:7.4f}")
    for name in sorted(set(a) ^ set(b)):
        print(f"{name:44s} only in {'A' if name in a else 'B'}")
    print(f"matched {len(set(a) & set(b))} cases; largest difference of the bytes over figures above 1 MB: "
          f"{100 * worst:.2f}% ({worst_at or '-'}); statuses differ in {len(differ)}: {', '.join(differ) or 'none'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
