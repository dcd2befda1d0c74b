#!/usr/bin/env python3
"""Per-line traffic beside ncu's, per (file, line): the sectors rooflint's per-line pass observed
(CUPTI SASS metrics, smsp__sass_sectors_mem_global summed over a line's global loads, stores and atomics:
the JSON report's cases[].lines.observed) against ncu's L2 theoretical sectors of global memory per CUDA
source line (memory_l2_theoretical_sectors_global, the SourceCounters section; `ncu --page source --csv
--print-source cuda`), and the ideal sectors beside ncu's ..._ideal. Prints one table per case and the
share of lines whose sectors agree within 2%.

    python3 scripts/lines-vs-ncu.py VERIFY_JSON NCU_DIR [--output FILE]

NCU_DIR holds one CSV per case, <case>.cuda-sass.csv (`--print-source cuda,sass`: ncu 2025.3.1 puts each
source line's figures on its line row, the SASS rows under it without a line number), else <case>.csv
(scripts/gpu-job.sh lines). The header row is found by its line-number column ("Line No") and the sectors
column (by display name, "L2 Theoretical Sectors Global", or metric name); a "File Path" row starts that
file's lines. When no header is found the file's first lines are printed, so that the parser can follow.
"""
import argparse
import csv
import json
import os
import re
import sys

SECTORS = ("l2 theoretical sectors global", "memory_l2_theoretical_sectors_global")
IDEAL = ("l2 theoretical sectors global ideal", "memory_l2_theoretical_sectors_global_ideal")
LINE = ("#", "# line", "line", "line no", "line number", "#line")
SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".cpp", ".inl")
WITHIN = 0.02


def number(text):
    text = (text or "").replace(",", "").replace("\u202f", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def read_ncu(path):
    """@return ({(file or '', line): (sectors, ideal)}, note)."""
    with open(path, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    out, header, current_file = {}, None, ""
    for row in rows:
        cells = [c.strip() for c in row]
        nonempty = [c for c in cells if c]
        if len(nonempty) == 1 and nonempty[0].lower().endswith(SOURCE_SUFFIXES):
            current_file = re.sub(r"^(file|source file)\s*:?\s*", "", nonempty[0], flags=re.I)
            continue
        if len(nonempty) == 2 and nonempty[0].lower() in ("file path", "file name", "file"):
            current_file = nonempty[1]  # ncu 2025.3: "File Path","/src/k.cu" before each file's lines
            continue
        lowered = [c.lower() for c in cells]
        if any(c in SECTORS for c in lowered) and any(c in LINE for c in lowered):
            header = {
                "line": next(i for i, c in enumerate(lowered) if c in LINE),
                "sectors": next(i for i, c in enumerate(lowered) if c in SECTORS),
                "ideal": next((i for i, c in enumerate(lowered) if c in IDEAL), None),
                "file": next((i for i, c in enumerate(lowered) if c in ("file", "source file", "file name")), None),
            }
            continue
        if not header or len(cells) <= header["sectors"]:
            continue
        line = number(cells[header["line"]])
        sectors = number(cells[header["sectors"]])
        if line is None or sectors is None:
            continue
        ideal = number(cells[header["ideal"]]) if header["ideal"] is not None and len(cells) > header["ideal"] else None
        file = cells[header["file"]] if header["file"] is not None else current_file
        key = (file, int(line))
        s, i = out.get(key, (0.0, 0.0))
        out[key] = (s + sectors, (i + ideal) if ideal is not None else i)
    if header is None:
        head = "".join("    " + ",".join(r)[:200] + "\n" for r in rows[:8])
        return {}, f"no per-line header with 'L2 Theoretical Sectors Global' in {path}; its first lines:\n{head}"
    return out, ""


def ours(case):
    """@return {(file, line): (sectors, ideal)} of the case's observed lines, every kind of access summed."""
    out = {}
    for o in ((case.get("lines") or {}).get("observed") or []):
        key = (o["file"], int(o["line"]))
        s, i = out.get(key, (0.0, 0.0))
        ideal = o.get("ideal_sectors")
        out[key] = (s + o["sectors"], i + (ideal if ideal is not None else float("nan")))
    return out


def match(ncu_lines, file, line):
    """ncu's figures for (file, line): the same path, else the same file name, else the line alone when
    ncu named no file."""
    base = os.path.basename(file)
    for (f, l), v in ncu_lines.items():
        if l == line and f and (f == file or os.path.basename(f) == base):
            return v
    for (f, l), v in ncu_lines.items():
        if l == line and not f:
            return v
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("verify_json")
    ap.add_argument("ncu_dir")
    ap.add_argument("--output")
    a = ap.parse_args()
    out = open(a.output, "w") if a.output else sys.stdout
    report = json.load(open(a.verify_json))
    compared = within = ncu_only = 0
    for case in report.get("cases", []):
        name = case.get("name", "?")
        lines = case.get("lines") or {}
        if not lines.get("collected"):
            print(f"{name}: per-line traffic not collected: {lines.get('not_available') or 'no lines object'}", file=out)
            continue
        # ncu 2025.3's --print-source cuda CSV has the source alone; cuda,sass has each line's figures
        # on its line row (the SASS rows below it carry no line number).
        path = os.path.join(a.ncu_dir, name + ".cuda-sass.csv")
        if not os.path.exists(path):
            path = os.path.join(a.ncu_dir, name + ".csv")
        if not os.path.exists(path):
            print(f"{name}: no ncu per-line file ({path})", file=out)
            continue
        ncu_lines, note = read_ncu(path)
        if note:
            print(f"{name}: {note}", file=out)
            continue
        mine = ours(case)
        print(f"{name} (kernel {case.get('kernel', '?')}): per-line pass {lines.get('cost_s', 0) * 1e3:.0f} ms", file=out)
        print(f"  {'line':34s} {'rooflint sectors':>16s} {'ncu sectors':>14s} {'diff':>8s} {'rooflint ideal':>15s} {'ncu ideal':>12s}", file=out)
        for (file, line), (s, i) in sorted(mine.items()):
            theirs = match(ncu_lines, file, line)
            where = f"{os.path.basename(file)}:{line}"
            if theirs is None:
                print(f"  {where:34s} {s:16.0f} {'-':>14s}", file=out)
                continue
            ts, ti = theirs
            diff = (s - ts) / ts if ts else (0.0 if s == 0 else float("inf"))
            compared += 1
            ok = abs(diff) <= WITHIN
            within += ok
            print(f"  {where:34s} {s:16.0f} {ts:14.0f} {diff * 100:7.2f}% {i:15.0f} {ti:12.0f}{'' if ok else '  OUTSIDE 2%'}", file=out)
        # Lines where ncu counts global sectors and the per-line pass saw no instruction.
        for (file, line), (ts, ti) in sorted(ncu_lines.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            if ts > 0 and not any(l == line and (not file or os.path.basename(f) == os.path.basename(file)) for f, l in mine):
                ncu_only += 1
                print(f"  {os.path.basename(file) + ':' + str(line):34s} {'-':>16s} {ts:14.0f}   (ncu only)", file=out)
    share = within / compared if compared else float("nan")
    print(f"\n{compared} lines compared; {within} within {WITHIN:.0%} of ncu's sectors ({share:.1%}); "
          f"{ncu_only} lines with sectors in ncu only", file=out)
    return 0 if compared else 3


if __name__ == "__main__":
    sys.exit(main())
