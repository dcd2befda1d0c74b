#!/usr/bin/env python3
"""Predicted (the analyzer's, manifest version 4) against observed traffic per level, from rooflint-verify
JSON reports (scripts/gpu-job.sh traffic, public).

  traffic-vs-observed.py OUT.txt REPORT.json [REPORT.json ...]
  traffic-vs-observed.py OUT.txt REPORT.json [...] --manifest M [--manifest M ...]
  traffic-vs-observed.py OUT.txt --manifest M [...]         (no report: the predictions alone)

Without --manifest: one row per case and level: the kernel's predicted ratio as the report gives it (its
tensors' predicted bytes over its compulsory bytes), the observed ratio, and whether they agree within 25%;
"not predicted" where the analyzer makes no prediction at that level; a range without a point estimate
(predicted_ratio null beside predicted_range) is printed as its range and agrees where it holds the count.

With --manifest (a manifest file or a directory searched for *.rooflint.json): the prediction per kernel
and level is taken from the manifest's per-tensor entries (of kernels of one name in several programs,
the one whose spec is in the file the report's case names), which may be a value or a range: the kernel's
low and high are its tensors' low and high predicted bytes, summed, over its compulsory bytes at the case's
sizes; a level is predicted only when every tensor of the spec is. A value agrees when it is within 25% of
the observed ratio; a range agrees when some point of it is (low <= 1.25 x observed and high >= 0.75 x
observed); a range without a point estimate (a tensor's ratio null) has no point, and the points are
counted over those that have one. A region of kernels has no prediction (its tensors name no kernel's parameters). Then, per
kernel, which tensors' figures were not predicted and why; the kernels of the manifests that no report
measured; and the two shares: the (kernel, level) pairs predicted, of all measured pairs, and those
within 25%, of the pairs predicted, with how many predictions are values, ranges within a factor 2 and
wider ranges (a range of 1-384x agrees with almost any count). Without a report, the same per kernel and
level at the spec's declared sizes, without the observed side.
"""
import glob
import json
import math
import os
import sys

LEVELS = ("dram", "l2", "l1")
DTYPE_BYTES = {"f64": 8, "f32": 4, "tf32": 4, "f16": 2, "bf16": 2, "fp8_e4m3": 1, "fp8_e5m2": 1, "i8": 1, "i32": 4, "i64": 8}


def rows(report):
    for case in report.get("cases", []):
        predicted = case.get("predicted_ratio") or {}
        ranges = case.get("predicted_range") or {}
        if not case.get("predicted_traffic"):
            continue
        observed = {l.get("level"): l.get("traffic_ratio") for l in (case.get("compared") or {}).get("levels", [])}
        for level in LEVELS:
            p, r, o = predicted.get(level), ranges.get(level), observed.get(level)
            if p is None and not r:
                verdict = "not predicted"
            elif not o:
                verdict = "not observed"
            elif p is None:  # a range without a point: it agrees where some point of it is within 25%
                verdict = "within 25%" if r["low"] <= 1.25 * o and r["high"] >= 0.75 * o else "outside its range"
            else:
                verdict = "within 25%" if abs(p - o) <= 0.25 * o else f"off by {abs(p - o) / o:.0%}"
            shown = (r["low"], r["high"]) if p is None and r else p
            yield case.get("name", "?"), level, shown, o, verdict


def by_report(reports):
    lines = [f"{'case':44} {'level':5} {'predicted':>10} {'observed':>10}  verdict"]
    counts = {}
    for path in reports:
        try:
            report = json.load(open(path))
        except (OSError, ValueError) as e:
            lines.append(f"{path}: {e}")
            continue
        for name, level, p, o, verdict in rows(report):
            fmt = lambda v: "-" if v is None else f"{v[0]:.3g}-{v[1]:.3g}x" if isinstance(v, tuple) else f"{v:.3g}x"
            lines.append(f"{name[:44]:44} {level:5} {fmt(p):>10} {fmt(o):>10}  {verdict}")
            key = "within 25%" if verdict == "within 25%" else "not predicted" if verdict == "not predicted" else "other"
            counts[key] = counts.get(key, 0) + 1
    made = counts.get("within 25%", 0) + counts.get("other", 0)
    lines.append(f"predictions made: {made}, within 25%: {counts.get('within 25%', 0)}; "
                 f"levels not predicted: {counts.get('not predicted', 0)}")
    return lines


# ----- with the manifests: values and ranges per kernel and level -----

def load_manifests(paths):
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "**", "*.rooflint.json"), recursive=True)) if os.path.isdir(p) else [p]
    kernels = {}
    for f in files:
        for k in json.load(open(f)).get("kernels", []):
            kernels.setdefault(k.get("name"), []).append(k)
    return kernels


def kernel_of(kernels, case):
    """The manifest entry of the case's kernel: of several programs' kernels of one name, the one
    whose spec (or body) is in the file the report names; None when that does not tell them apart."""
    name = case.get("kernel") or case.get("name", "?").split(" [")[0]
    entries = kernels.get(name) or []
    if len(entries) <= 1:
        return name, entries[0] if entries else None
    where = lambda k: {(k.get(f) or {}).get("file") for f in ("spec_location", "location")}
    for same in (lambda a, b: a == b, lambda a, b: os.path.basename(a) == os.path.basename(b)):
        matches = [k for k in entries if case.get("file") and any(w and same(w, case["file"]) for w in where(k))]
        if len(matches) == 1:
            return name, matches[0]
    return name, None


def evaluate(formula, sizes):
    """A manifest formula ("B*T*C", "C*min(B*T, V)") at the given sizes."""
    names = dict(sizes, min=min, max=max, ceil_div=lambda a, b: -(-a // b))
    return float(eval(formula.replace("^", "**"), {"__builtins__": {}}, names))


def case_sizes(case, kernel):
    """The case's sizes by dimension name (the report's "sizes", "N=8192, C=768" or an object), and
    whether they are the spec's declared ones."""
    declared = {d["name"]: d.get("declared_size") or d.get("static_size") or d.get("size") for d in kernel.get("dims", [])}
    given = case.get("sizes")
    sizes = dict(declared)
    if isinstance(given, dict):
        sizes.update({k: v for k, v in given.items() if isinstance(v, (int, float))})
    elif isinstance(given, str):
        for part in given.replace(" ", "").strip("[]").split(","):
            if "=" in part:
                k, v = part.split("=", 1)
                try:
                    sizes[k] = float(v)
                except ValueError:
                    pass
    at_declared = all(sizes.get(k) == v for k, v in declared.items() if v)
    return sizes, at_declared


def kernel_prediction(kernel, sizes, at_declared):
    """Per level: (low, high, point, None) or (None, None, None, reason), point None for a range without one;
    and the tensors not predicted, with why."""
    entries = {(t["tensor"], t["level"]): t for t in ((kernel.get("predicted_traffic") or {}).get("tensors") or [])}
    tensors = [t for t in kernel.get("tensors", []) if t.get("arg", -1) >= 0 and t.get("role") not in ("uncounted", "not_counted")]
    out, missing = {}, []
    if kernel.get("kind") == "region":
        why = "a region of kernels: not predicted (its tensors name no kernel's parameters)"
        return {level: (None, None, None, why) for level in LEVELS}, [("*", level, why) for level in LEVELS]
    for level in LEVELS:
        low = high = point = compulsory = 0.0
        pointed = True
        reason = None if kernel.get("predicted_traffic") else "the kernel's device IR was not analysed"
        for t in tensors:
            e = entries.get((t["name"], level))
            if e is None or e.get("kind") == "not_predicted" or e.get("low") is None:
                why = (e or {}).get("basis") or "no entry"
            elif e.get("sized") and not at_declared:
                why = "holds at the declared sizes only"
            else:
                b = evaluate(t["elements"], sizes) * DTYPE_BYTES.get(t["dtype"], 4) * (2 if t.get("role") == "read_write" else 1)
                low += e["low"] * b
                high += e["high"] * b
                pointed = pointed and not (e.get("kind") == "range" and e.get("ratio") is None)
                point += (e["ratio"] if e.get("ratio") is not None else e["low"]) * b
                compulsory += b
                continue
            missing.append((t["name"], level, why))
            reason = reason or f"'{t['name']}': {why}"
        out[level] = (None, None, None, reason) if reason or compulsory <= 0 else \
            (low / compulsory, high / compulsory, point / compulsory if pointed else None, None)
    return out, missing


def span(low, high):
    """The prediction as text, and its kind for the summary: a value, a range within 2x, a wider range."""
    if abs(high - low) <= 1e-9 * max(1.0, high):
        return f"{low:.3g}x", "value"
    if f"{low:.3g}" == f"{high:.3g}":
        return f"{low:.3g}x (range)", "range within 2x"
    return f"{low:.3g}-{high:.3g}x", "range within 2x" if high <= 2 * low else "wider range"


def kinds_text(kinds):
    return ", ".join(f"{kinds.get(k, 0)} {k}{'s' if k == 'value' and kinds.get(k, 0) != 1 else ''}"
                     for k in ("value", "range within 2x", "wider range"))


def predictions_only(manifest_paths):
    kernels = load_manifests(manifest_paths)
    lines = [f"{'kernel':32} {'level':5} {'predicted':>15}  (at the spec's declared sizes)"]
    pairs = predicted = 0
    kinds, notes = {}, []
    for name, kernel in ((n, k) for n, entries in kernels.items() for k in entries):
        sizes, _ = case_sizes({}, kernel)
        prediction, missing = kernel_prediction(kernel, sizes, True)
        for level in LEVELS:
            low, high, _, reason = prediction[level]
            pairs += 1
            if low is None:
                lines.append(f"{name[:32]:32} {level:5} {'-':>15}  not predicted: {reason[:110]}")
                continue
            predicted += 1
            text, kind = span(low, high)
            kinds[kind] = kinds.get(kind, 0) + 1
            lines.append(f"{name[:32]:32} {level:5} {text:>15}")
        notes += [f"  {name}: '{t}' {l}: {why}" for t, l, why in missing]
    lines += ["", "not predicted, per tensor and level, and why:"] + (notes or ["  (none)"])
    share = f"{predicted}/{pairs} ({predicted / pairs:.0%})" if pairs else "0/0"
    lines.append(f"(kernel, level) pairs: {pairs}; predicted: {share}: {kinds_text(kinds)}")
    return lines


def by_manifest(reports, manifest_paths):
    kernels = load_manifests(manifest_paths)
    lines = [f"{'kernel':32} {'level':5} {'predicted':>15} {'point':>8} {'observed':>9}  verdict"]
    pairs = predicted = within = pointed = points_within = 0
    seen, notes, kinds = set(), [], {}
    for path in reports:
        try:
            report = json.load(open(path))
        except (OSError, ValueError) as e:
            lines.append(f"{path}: {e}")
            continue
        for case in report.get("cases", []):
            name, kernel = kernel_of(kernels, case)
            if kernel is None:
                if name in kernels:
                    notes.append(f"  {name}: several manifests have a kernel of this name; the report's file "
                                 f"({case.get('file')}) does not tell which: not compared")
                continue
            seen.add(id(kernel))
            sizes, at_declared = case_sizes(case, kernel)
            prediction, missing = kernel_prediction(kernel, sizes, at_declared)
            observed = {l.get("level"): l.get("traffic_ratio") for l in (case.get("compared") or {}).get("levels", [])}
            for level in LEVELS:
                low, high, point, reason = prediction[level]
                o = observed.get(level)
                if not o or (isinstance(o, float) and math.isnan(o)):
                    lines.append(f"{name[:32]:32} {level:5} {'':>15} {'':>8} {'-':>9}  not observed ({case.get('status', '?')})")
                    continue
                pairs += 1
                if low is None:
                    lines.append(f"{name[:32]:32} {level:5} {'-':>15} {'-':>8} {o:8.3g}x  not predicted")
                    continue
                pointed += point is not None
                points_within += point is not None and abs(point - o) <= 0.25 * o
                predicted += 1
                text, kind = span(low, high)
                kinds[kind] = kinds.get(kind, 0) + 1
                ok = low <= 1.25 * o and high >= 0.75 * o
                within += ok
                if ok:
                    verdict = "within 25%"
                elif high < 0.75 * o:
                    verdict = f"under: the counters saw {o / high:.3g}x the prediction"
                else:
                    verdict = f"over: the prediction is {low / o:.3g}x what the counters saw"
                point_text = f"{point:7.3g}x" if point is not None else f"{'-':>8}"
                lines.append(f"{name[:32]:32} {level:5} {text:>15} {point_text} {o:8.3g}x  {verdict}")
            for tensor, level, why in missing:
                notes.append(f"  {name}: '{tensor}' {level}: {why}")
    lines.append("")
    lines.append("not predicted, per tensor and level, and why:")
    lines += notes or ["  (none)"]
    unmeasured = sorted({k.get("name") for entries in kernels.values() for k in entries if id(k) not in seen})
    if unmeasured:
        lines.append(f"kernels of the manifests that no report measured: {', '.join(unmeasured)}")
    share = lambda a, b: f"{a}/{b} ({a / b:.0%})" if b else f"{a}/{b}"
    lines.append(f"(kernel, level) pairs measured: {pairs}; predicted: {share(predicted, pairs)} ({kinds_text(kinds)}); "
                 f"within 25% of the counters: {share(within, predicted)} of those predicted; "
                 f"their points within 25%: {share(points_within, pointed)} of those with a point")
    return lines


def main():
    args = sys.argv[1:]
    manifests = []
    while "--manifest" in args:
        i = args.index("--manifest")
        manifests.append(args[i + 1])
        del args[i:i + 2]
    if len(args) < 2 and not (args and manifests):
        sys.exit(__doc__)
    out, reports = args[0], args[1:]
    if not reports:
        lines = predictions_only(manifests)
    else:
        lines = by_manifest(reports, manifests) if manifests else by_report(reports)
    open(out, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
