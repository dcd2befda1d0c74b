#!/usr/bin/env python3
"""Do rooflint-verify -- program and the harness verifier observe the same per-line traffic?

usage: lines-agree.py HARNESS.json PROGRAM.json

Both are rooflint-verify JSON reports with per-line traffic (the harness's rooflint-examples --lines=...
--json, and rooflint-verify --lines=... --json over a program). Cases are matched by spec kernel name and
sizes, as verdicts-agree.py matches them. For each case whose lines both collected, every observed line
(file name, line, kind) is compared: its requests, sectors and ideal sectors must be equal (the SASS
metrics count one launch of the same kernel at the same sizes; the inputs' values do not move them for
these kernels). Prints one line per case; a case collected on one side only is listed with the other
side's reason. Exit 1 if a compared case differs, else 0.
"""
import importlib.util
import os
import sys


# The reports' cases by (kernel, sizes): the same key verdicts-agree.py matches cases by.
_verdicts_agree = importlib.util.spec_from_file_location("verdicts_agree", os.path.join(os.path.dirname(__file__), "verdicts-agree.py"))
_module = importlib.util.module_from_spec(_verdicts_agree)
_verdicts_agree.loader.exec_module(_module)
cases = _module.cases


def observed(case):
    return {(os.path.basename(o["file"]), o["line"], o["op"]): (o["requests"], o["sectors"], o["ideal_sectors"])
            for o in (case.get("lines") or {}).get("observed", [])}


def collected(case):
    return bool((case.get("lines") or {}).get("collected"))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    harness, program = cases(sys.argv[1]), cases(sys.argv[2])
    compared = differ = 0
    for key in sorted(set(harness) & set(program)):
        h, p = harness[key], program[key]
        name = f"{key[0]} [{', '.join(f'{k}={v:.15g}' for k, v in key[1])}]"
        if not collected(h) or not collected(p):
            if collected(h) != collected(p):
                side, other = ("harness", p) if collected(h) else ("program", h)
                print(f"{name}: collected by the {side} only; the other: {(other.get('lines') or {}).get('not_available') or 'not asked'}")
            continue
        compared += 1
        ho, po = observed(h), observed(p)
        if ho == po:
            print(f"{name}: the same {len(ho)} lines")
            continue
        differ += 1
        print(f"{name}: DIFFERENT")
        for line in sorted(set(ho) | set(po)):
            if ho.get(line) != po.get(line):
                print(f"  {line[0]}:{line[1]} {line[2]}: harness {ho.get(line)}, program {po.get(line)} (requests, sectors, ideal)")
    print(f"{compared} cases compared, {differ} with different lines")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
