#!/usr/bin/env bash
# rooflint-summary on two rooflint-verify reports recorded on the H200 (2026-12-02): the 10-launch program
# against a baseline (5 cases, one WORSE) and a PyTorch extension's workers (4 cases): one table of 9 rows
# on 1 GPU, with the gate's verdicts; the Markdown cut at --max-bytes with a count of the rows left out.
set -u
summary=$1 data=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
a=$data/h200-2026-12-02/processes/gate-worse.json b=$data/h200-2026-12-02/python/python-workers.json
out=$("$summary" "$a" "$b") || fail "exit $?"
printf '%s\n' "$out"
grep -qF "9 cases on 1 GPU: 3 FAIL, 6 PASS; vs baseline: 4 SAME, 1 WORSE" <<<"$out" || fail "no summary sentence"
grep -qE "^saxpy \[N=65536\] +NVIDIA H200 +FAIL .* WORSE$" <<<"$out" || fail "no WORSE row"
grep -qE "^row_sum_thread_per_row \[R=16384, C=256\] +NVIDIA H200 +FAIL +0.993x +1x +15.9x" <<<"$out" || fail "no row-sum row"
# The ratios are right-aligned: 0.993x and 1x end in the same column as their headers.
header=$(grep -E "^case " <<<"$out") row=$(grep -E "^row_sum_thread_per_row" <<<"$out")
dram_end=$(( $(awk -v h="$header" 'BEGIN{print index(h, " DRAM") + 4}') ))
[[ ${row:dram_end-6:6} == 0.993x ]] || fail "DRAM not right-aligned: '$header' / '$row'"
md=$("$summary" --markdown --max-bytes 1000 "$a" "$b") || fail "markdown exit $?"
(( ${#md} <= 1000 + 200 )) || fail "the Markdown is ${#md} bytes, past the cut"
grep -qE "^[0-9]+ more rows? not shown \(the summary is kept under 1000 bytes\)" <<<"$md" || fail "no cut line"
# A report that measured nothing (no GPU) is a row of its own, neither a case nor a GPU in the sentence.
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
python3 - "$b" "$tmp/none.json" <<'PY' || fail "could not write the empty report"
import json, sys
r = json.load(open(sys.argv[1]))
r.update(cases=[], device="", warnings=["no usable CUDA device"])
json.dump(r, open(sys.argv[2], "w"))
PY
out=$("$summary" "$tmp/none.json") || fail "exit $? on a report that measured nothing"
grep -qF "no case measured; 1 report measured nothing" <<<"$out" || fail "no sentence for the empty report: $out"
grep -qE "^\(.*none.json\) +\(no GPU\) +unverifiable: no usable CUDA device" <<<"$out" || fail "no unverifiable row: $out"
out=$("$summary" "$a" "$tmp/none.json") || fail "exit $?"
grep -qF "5 cases on 1 GPU: 1 FAIL, 4 PASS; vs baseline: 4 SAME, 1 WORSE; 1 report measured nothing" <<<"$out" || fail "no mixed sentence: $out"
"$summary" "$data/h200-2026-12-02/processes/README.md" >/dev/null 2>&1
[[ $? -eq 3 ]] || fail "a file that is neither a manifest nor a report is not exit 3"
echo ok
