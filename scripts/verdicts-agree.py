#!/usr/bin/env python3
"""Do rooflint-verify -- program and the harness verifier give the same verdicts?

usage: verdicts-agree.py HARNESS.json INJECT.json

Both are rooflint-verify JSON reports (the harness's rooflint-examples --json, and rooflint-verify
--json over a program). Cases are matched by spec kernel name and sizes (the harness's case at
R=65536, C=4096 against the program's launch or region instance at the same sizes). Prints one line
per matched case: status of each, and the DRAM read ratios (observed / compulsory) side by side, with
the relative difference of the observed read bytes. Exit 1 if a matched case's status differs, else 0.
Cases found on one side only are listed, not counted as a disagreement (a program need not launch
every case's sizes).
"""
import json
import re
import sys


def cases(path):
    out = {}
    for c in json.load(open(path)).get("cases", []):
        sizes = tuple(sorted((k, float(v)) for k, v in re.findall(r"(\w+)\s*=\s*([0-9.eE+]+)", c.get("sizes", "") or c.get("name", ""))))
        out[(c.get("kernel", ""), sizes)] = c
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    harness, inject = cases(sys.argv[1]), cases(sys.argv[2])
    differ = 0
    print(f"{'kernel':28} {'sizes':28} {'harness':8} {'program':8} {'reads h':>9} {'reads p':>9} {'bytes diff':>10}")
    for key in sorted(set(harness) & set(inject)):
        h, p = harness[key], inject[key]
        hc, pc = h.get("compared", {}), p.get("compared", {})
        hb, pb = hc.get("observed_read_bytes", 0) or 0, pc.get("observed_read_bytes", 0) or 0
        diff = f"{(pb - hb) / hb * 100:+.2f}%" if hb else "-"
        same = h["status"] == p["status"]
        differ += not same
        sizes = ", ".join(f"{k}={v:g}" for k, v in key[1])
        print(f"{key[0]:28} {sizes:28} {h['status']:8} {p['status']:8} {hc.get('read_ratio', 0):9.3f} "
              f"{pc.get('read_ratio', 0):9.3f} {diff:>10}{'' if same else '  DIFFERENT'}")
    for side, a, b in (("harness only", harness, inject), ("program only", inject, harness)):
        for key in sorted(set(a) - set(b)):
            print(f"{side}: {key[0]} {dict(key[1])}")
    print(f"{len(set(harness) & set(inject))} cases matched, {differ} with different verdicts")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
