#!/usr/bin/env python3
"""Per-line traffic beside ncu's, per (file, line): the sectors rooflint's per-line pass observed
(CUPTI SASS metrics, smsp__sass_sectors_mem_global summed over a line's global loads, stores and atomics:
the JSON report's cases[].lines.observed) against ncu's L2 theoretical sectors of global memory per CUDA
source line (memory_l2_theoretical_sectors_global, the SourceCounters section; `ncu --page source --csv
--print-source cuda`), and the ideal sectors beside ncu's ..._ideal. Prints one table per case, the
per-line rows against the analyzer's prediction (cases[].lines.rows: how many agree, differ, ...; and
cases[].lines.unplaced_accesses, the predicted accesses with no line), and the share of lines whose
sectors agree within 2%.

    python3 scripts/lines-vs-ncu.py VERIFY_JSON [VERIFY_JSON|DIR ...] NCU_DIR [--output FILE] [--manifest M]
    python3 scripts/lines-vs-ncu.py --sections CSV [CSV ...] [--manifest M]

VERIFY_JSON: a report with per-line traffic (the harness's, or rooflint-verify -- program's); several
reports, or directories of them (*.json), are read together (scripts/gpu-job.sh corpus-lines: one
rooflint-verify report per kernel), a case (by name) counted once, where its lines were collected.

NCU_DIR holds ncu's CSVs: per case <case>.cuda-sass.csv (`--print-source cuda,sass`: ncu 2025.3.1 puts
each source line's figures on its line row, the SASS rows under it without a line number), else
<case>.csv (scripts/gpu-job.sh lines); else per kernel <kernel>.cuda-sass.csv or <kernel>.csv; else a
CSV of a report of several kernels, *.all-kernels.csv, whose kernel sections ("Kernel Name" or "Function
Name" rows) are told apart. The header row is found by its line-number column ("Line No") and the
sectors column (by display name, "L2 Theoretical Sectors Global", or metric name); a "File Path" row
starts that file's lines. When no header is found the file's first lines are printed, so that the parser
can follow. A per-kernel or several-kernel file is read for that kernel's section only: by its spec
name, its function's name (--manifest: the analyzer's manifest, a file or a directory of
*.rooflint.json, names each spec's function and mangled name) or its mangled name.

--sections prints, per CSV, the kernels whose sections it holds (spec names where --manifest names them),
one per line: what scripts/gpu-job.sh corpus-lines asks before importing one kernel at a time.
"""
import argparse
import csv
import glob
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


MARKERS = ("kernel name", "function name")


def identity(text):
    """A kernel's name as ncu prints it (mangled, demangled with its parameters, or the function alone)
    reduced to what the spec and manifest name: the mangled name as is, else the function's own name
    without parameters, template arguments, namespaces or return type."""
    t = (text or "").strip()
    if t.startswith("_Z"):
        return t
    t = t.replace("(anonymous namespace)", "").split("(")[0].strip()
    while t.endswith(">"):
        depth = 0
        for i in range(len(t) - 1, -1, -1):
            depth += {">": 1, "<": -1}.get(t[i], 0)
            if depth == 0:
                t = t[:i].strip()
                break
        else:
            break
    t = t.split("::")[-1].split()
    return t[-1] if t else ""


_sections = {}


def read_sections(path, known=None):
    """@return ({kernel identity or None: {(file or '', line): (sectors, ideal)}}, rows, whether a header
    was found). A "Kernel Name" or "Function Name" row starts a kernel's section; with @p known (a set of
    identities) only a row naming one of them does, so that a row naming anything else stays in the
    current section. Read once per file (a CSV of several kernels is asked for each of them)."""
    key = (path, frozenset(known) if known is not None else None)
    if key not in _sections:
        _sections[key] = _read_sections(path, known)
    return _sections[key]


def _read_sections(path, known):
    with open(path, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    sections, header, current_file, current = {}, None, "", None
    for row in rows:
        cells = [c.strip() for c in row]
        nonempty = [c for c in cells if c]
        if len(nonempty) == 1 and nonempty[0].lower().endswith(SOURCE_SUFFIXES):
            current_file = re.sub(r"^(file|source file)\s*:?\s*", "", nonempty[0], flags=re.I)
            continue
        if len(nonempty) == 2 and nonempty[0].lower() in ("file path", "file name", "file"):
            current_file = nonempty[1]  # ncu 2025.3: "File Path","/src/k.cu" before each file's lines
            continue
        if len(nonempty) == 2 and nonempty[0].lower() in MARKERS:
            name = identity(nonempty[1])  # ncu 2025.3: "Function Name","k(int, float *)" before its lines
            if known is None or name in known:
                current = name
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
        out = sections.setdefault(current, {})
        s, i = out.get(key, (0.0, 0.0))
        out[key] = (s + sectors, (i + ideal) if ideal is not None else i)
    return sections, rows, header is not None


def read_ncu(path, want=None, known=None):
    """@return ({(file or '', line): (sectors, ideal)}, note). Without @p want (the identities of the
    case's kernel) every section of the file together; with it, the kernel's section where the file
    names kernels (a file with no kernel row, or one naming only this kernel, is all its)."""
    sections, rows, found = read_sections(path, known)
    if not found:
        head = "".join("    " + ",".join(r)[:200] + "\n" for r in rows[:8])
        return {}, f"no per-line header with 'L2 Theoretical Sectors Global' in {path}; its first lines:\n{head}"
    named = sorted(k for k in sections if k is not None)
    if want is None or not named:
        out = {}
        for lines in sections.values():
            for key, (s, i) in lines.items():
                s0, i0 = out.get(key, (0.0, 0.0))
                out[key] = (s0 + s, i0 + i)
        return out, ""
    mine = [k for k in named if k in want]
    if not mine:
        return {}, f"{path} holds the lines of {', '.join(named)}, not of {' / '.join(sorted(want))}"
    out = {}
    for k in mine:
        for key, (s, i) in sections[k].items():
            s0, i0 = out.get(key, (0.0, 0.0))
            out[key] = (s0 + s, i0 + i)
    return out, ""


def load_manifest_kernels(paths):
    """@return {spec name: set of identities (the name, the function's, the mangled name)}."""
    files = []
    for p in paths or []:
        files += sorted(glob.glob(os.path.join(p, "**", "*.rooflint.json"), recursive=True)) if os.path.isdir(p) else [p]
    kernels = {}
    for f in files:
        try:
            manifest = json.load(open(f))
        except (OSError, ValueError) as e:
            print(f"lines-vs-ncu.py: {f}: {e}", file=sys.stderr)
            continue
        for k in manifest.get("kernels", []):
            ids = {identity(k.get("name", ""))} | {identity(k.get("function", ""))} | {k.get("mangled_name") or ""}
            kernels.setdefault(k.get("name", ""), set()).update(i for i in ids if i)
    return kernels


def load_cases(paths):
    """The cases of every report (a file, or a directory of *.json), by name, each once: the first whose
    lines were collected, else the first seen. @return (cases, notes)."""
    files, notes = [], []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.json"))) if os.path.isdir(p) else [p]
    cases = {}
    for f in files:
        try:
            report = json.load(open(f))
        except (OSError, ValueError) as e:
            notes.append(f"{f}: not read: {e}")
            continue
        for case in report.get("cases", []):
            name = case.get("name", "?")
            had = cases.get(name)
            if had is None or (not (had.get("lines") or {}).get("collected") and (case.get("lines") or {}).get("collected")):
                cases[name] = case
    return list(cases.values()), notes


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


def ncu_file(ncu_dir, case, want):
    """@return (path, want) of the CSV holding the case's lines: per case (all of it, as before), else
    per kernel, else a several-kernel CSV with a section of the kernel (only that section); (None, _)
    when there is none."""
    name, kernel = case.get("name", "?"), case.get("kernel", "")
    # ncu 2025.3's --print-source cuda CSV has the source alone; cuda,sass has each line's figures on its
    # line row (the SASS rows below it carry no line number).
    for stem, suffix in ((name, ".cuda-sass.csv"), (name, ".csv")):
        if os.path.exists(os.path.join(ncu_dir, stem + suffix)):
            return os.path.join(ncu_dir, stem + suffix), None
    for suffix in (".cuda-sass.csv", ".csv"):
        path = os.path.join(ncu_dir, kernel + suffix)
        if kernel and os.path.exists(path) and not path.endswith(".all-kernels.csv"):
            return path, want
    for path in sorted(glob.glob(os.path.join(ncu_dir, "*.all-kernels.csv"))):
        sections, _, found = read_sections(path)
        if found and any(k in want for k in sections if k is not None):
            return path, want
    return None, want


def row_counts(cases):
    """The per-line rows against the analyzer's prediction, over the cases whose lines were collected."""
    counts, unpredicted, collected = {}, 0, 0
    for case in cases:
        lines = case.get("lines") or {}
        if not lines.get("collected"):
            continue
        collected += 1
        for row in lines.get("rows") or []:
            counts[row.get("status", "?")] = counts.get(row.get("status", "?"), 0) + 1
        unpredicted += len(lines.get("unpredicted") or [])
        counts["unplaced"] = counts.get("unplaced", 0) + int(lines.get("unplaced_accesses") or 0)
    return counts, unpredicted, collected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", metavar="VERIFY_JSON ... NCU_DIR")
    ap.add_argument("--output")
    ap.add_argument("--manifest", action="append", help="the analyzer's manifest (file or directory): spec names to functions")
    ap.add_argument("--sections", action="store_true", help="list the kernels each CSV (the paths) holds, and stop")
    a = ap.parse_args()
    manifest = load_manifest_kernels(a.manifest)
    known = set().union(*manifest.values()) if manifest else None
    if a.sections:
        for path in a.paths:
            sections, _, _ = read_sections(path, known)
            for k in sorted(k for k in sections if k is not None):
                print(next((name for name, ids in sorted(manifest.items()) if k in ids), k))
        return 0
    if len(a.paths) < 2:
        ap.error("give the reports and then NCU_DIR")
    *reports, ncu_dir = a.paths
    out = open(a.output, "w") if a.output else sys.stdout
    cases, notes = load_cases(reports)
    for note in notes:
        print(note, file=out)
    compared = within = ncu_only = 0
    for case in cases:
        name = case.get("name", "?")
        lines = case.get("lines") or {}
        if not lines.get("collected"):
            print(f"{name}: per-line traffic not collected: {lines.get('not_available') or 'no lines object'}", file=out)
            continue
        kernel = case.get("kernel", "")
        want = manifest.get(kernel, set()) | {identity(kernel)}
        path, want = ncu_file(ncu_dir, case, want)
        if path is None:
            print(f"{name}: no ncu per-line file ({os.path.join(ncu_dir, name + '.csv')}, nor {kernel}'s)", file=out)
            continue
        ncu_lines, note = read_ncu(path, want, known)
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
    counts, unpredicted, collected = row_counts(cases)
    rows = sum(n for status, n in counts.items() if status != "unplaced")
    print(f"\nper-line rows against the analyzer's prediction, in {collected} cases: {counts.get('agrees', 0)} agree, "
          f"{counts.get('differs', 0)} differ, {counts.get('not_observed', 0)} not observed, "
          f"{counts.get('not_evaluated', 0)} not evaluated (of {rows} rows); {unpredicted} observed lines with no access "
          f"predicted; {counts.get('unplaced', 0)} predicted accesses with no line", file=out)
    share = within / compared if compared else float("nan")
    print(f"{compared} lines compared; {within} within {WITHIN:.0%} of ncu's sectors ({share:.1%}); "
          f"{ncu_only} lines with sectors in ncu only", file=out)
    return 0 if compared else 3


if __name__ == "__main__":
    sys.exit(main())
