#!/usr/bin/env bash
# On a GPU with PyTorch (CTest label gpu): the PyTorch extension example (examples/torch_extension) under
# rooflint-verify, as docs/python.md tells a user to run it: the manifest of kernels.cu (made by the test
# examples.torch_extension.manifest), this GPU's ceilings (rooflint-ceilings --quick: L1 and L2 get their
# roofs), then
#   rooflint-verify --manifest kernels.rooflint.json --ceilings ceilings.json --json report.json -- python3 run.py
# (run_workers.py for CASE workers: two spawned workers on one GPU). Checks: exit status 1 (a verdict
# failed), the program's own OK line, scaled_add passed and row_sum_thread_per_row failed at each size the
# program used, with an error at L1, and no other case (none left unmeasured).
# Exit 77 (skipped, the reason printed) without python3, without torch, or without a CUDA device.
#   torch_extension_verify.sh run|workers ROOFLINT_VERIFY ROOFLINT_CEILINGS MANIFEST SOURCE_DIR WORK_DIR
# WORK_DIR keeps torch's build of the extension between runs (TORCH_EXTENSIONS_DIR, unless set).
set -uo pipefail
export PYTHONDONTWRITEBYTECODE=1  # nothing written into the source tree

which=$1 verify=$2 ceilings_tool=$3 manifest=$4 src=$5 work_dir=$6
skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL ($which): $*"; exit 1; }

command -v python3 >/dev/null 2>&1 || skip "no python3 on PATH"
python3 -c "import torch" >/dev/null 2>&1 || skip "python3 cannot import torch"
python3 -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)" >/dev/null 2>&1 ||
  skip "no CUDA device (torch.cuda.is_available() is False)"
[[ -f $manifest ]] || fail "no manifest $manifest (the test examples.torch_extension.manifest makes it)"
case $which in
  run) program=run.py ;;
  workers) program=run_workers.py ;;
  *) fail "unknown case '$which' (run or workers)" ;;
esac

mkdir -p "$work_dir" || fail "cannot create $work_dir"
export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-$work_dir/torch-extensions}
export ROOFLINT_INCLUDE=${ROOFLINT_INCLUDE:-$src/dsl/include:$src/model/include}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Built outside rooflint-verify first: a failed build is said as such, and takes no part of the run.
python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import run; run.build_extension(verbose=True)' \
    "$src/examples/torch_extension" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "the extension did not build"; }

"$ceilings_tool" --quick --output "$tmp/ceilings.json" >"$tmp/ceilings.log" 2>&1 ||
  { s=$?; cat "$tmp/ceilings.log"; fail "rooflint-ceilings --quick exited $s"; }

"$verify" --manifest "$manifest" --ceilings "$tmp/ceilings.json" --timeout 600 --json "$tmp/report.json" \
    -- python3 "$src/examples/torch_extension/$program" >"$tmp/out" 2>&1
status=$?
cat "$tmp/out"
[[ $status -eq 1 ]] || fail "rooflint-verify exited $status, expected 1 (the row sum's verdict fails)"
grep -q "^${program}: OK" "$tmp/out" || fail "no '${program}: OK' line: the program's results did not match torch"

python3 - "$tmp/report.json" "$which" <<'PY' || exit 1
import json
import sys

report = json.load(open(sys.argv[1]))
scales = [1] if sys.argv[2] == "run" else [1, 2]  # run_workers.py: worker r at (r + 1) times run.py's sizes
want = {}
for s in scales:
    want[f"scaled_add [N={(1 << 20) * s}]"] = "passed"
    want[f"row_sum_thread_per_row [R={16384 * s}, C=256]"] = "failed"
cases = {c["name"]: c for c in report.get("cases", [])}
problems = [f"case '{n}' is {cases[n]['status'] if n in cases else 'absent'}, expected {s}"
            for n, s in want.items() if n not in cases or cases[n]["status"] != s]
problems += [f"case '{n}' ({c['status']}) was not expected" for n, c in cases.items() if n not in want]
for n, c in cases.items():
    if n.startswith("row_sum_thread_per_row") and not any(
            f["severity"] == "error" and f["id"] == "rooflint-ideal-traffic" and " at L1 " in f["message"]
            for f in c.get("findings", [])):
        problems.append(f"case '{n}' has no rooflint-ideal-traffic error at L1")
for p in problems:
    print(f"FAIL: {p}")
sys.exit(1 if problems else 0)
PY
echo "ok: $program under rooflint-verify: scaled_add passed, row_sum_thread_per_row failed at L1"
