#!/usr/bin/env python3
"""Predicted (the analyzer's, manifest version 4) against observed traffic per level, from rooflint-verify
JSON reports (scripts/gpu-job.sh traffic). One row per case and level: the kernel's predicted ratio (its
tensors' predicted bytes over its compulsory bytes), the observed ratio, and whether they agree within
25% (issue 12); "not predicted" where the analyzer makes no prediction at that level.

  traffic-vs-observed.py OUT.txt REPORT.json [REPORT.json ...]
"""
import json
import sys


def rows(report):
    for case in report.get("cases", []):
        predicted = case.get("predicted_ratio") or {}
        if not case.get("predicted_traffic"):
            continue
        observed = {l.get("level"): l.get("traffic_ratio") for l in (case.get("compared") or {}).get("levels", [])}
        for level in ("dram", "l2", "l1"):
            p, o = predicted.get(level), observed.get(level)
            if p is None:
                verdict = "not predicted"
            elif not o:
                verdict = "not observed"
            else:
                verdict = "within 25%" if abs(p - o) <= 0.25 * o else f"off by {abs(p - o) / o:.0%}"
            yield case.get("name", "?"), level, p, o, verdict


def main():
    out, reports = sys.argv[1], sys.argv[2:]
    lines = [f"{'case':44} {'level':5} {'predicted':>10} {'observed':>10}  verdict"]
    counts = {}
    for path in reports:
        try:
            report = json.load(open(path))
        except (OSError, ValueError) as e:
            lines.append(f"{path}: {e}")
            continue
        for name, level, p, o, verdict in rows(report):
            fmt = lambda v: "-" if v is None else f"{v:.3g}x"
            lines.append(f"{name[:44]:44} {level:5} {fmt(p):>10} {fmt(o):>10}  {verdict}")
            key = "within 25%" if verdict == "within 25%" else "not predicted" if verdict == "not predicted" else "other"
            counts[key] = counts.get(key, 0) + 1
    made = counts.get("within 25%", 0) + counts.get("other", 0)
    lines.append(f"predictions made: {made}, within 25%: {counts.get('within 25%', 0)}; "
                 f"levels not predicted: {counts.get('not predicted', 0)}")
    open(out, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
