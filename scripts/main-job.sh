#!/usr/bin/env bash
# The main job (README.md): install what the build needs, build (the analyzer runs over the examples
# during the build, so the log shows each kernel's verdict), and write the manifest. Where a GPU is
# present, also measure the ceilings, classify the examples again against them, verify every example
# on the GPU and write the reports. Everything lands in one output folder (default out/).
#
#   bash scripts/main-job.sh            # static part everywhere; GPU part where there is a GPU
#   ROOFLINT_OUT=dir bash scripts/main-job.sh
#
# It ends with the table of the examples' verdicts read from the manifests (kernel, bound, intensity,
# floor, warnings; the peaks they used said once), also written to out/verdicts.txt and out/verdicts.md.
#
# Exit codes: 0 done (with no GPU: the static part ran; with a GPU: the verifier failed exactly the
# examples listed in examples/expected_failures.txt); 1 the failed cases differ from that list;
# otherwise the failing step's code (3: the GPU part could not measure).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${ROOFLINT_OUT:-out}
build=${ROOFLINT_BUILD_DIR:-build}
mkdir -p "$out"

step() { printf '\n== %s\n' "$*" >&2; }

step "installing build dependencies (scripts/setup.sh)"
bash scripts/setup.sh

step "configuring and building; the analyzer's verdicts for the examples follow"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" 2>&1 | tee "$out/build.log"

step "static results"
find "$build/examples" -name '*.rooflint.json' -exec cp {} "$out/" \; 2>/dev/null || true
ls "$out"/*.rooflint.json 2>/dev/null || echo "no manifest written (is the analyzer built? see $out/configure.log)"

# The table of verdicts, read from the manifests, at the end of every run from here on: also when the
# build was up to date (then the build log says only "no work to do"), and whichever way the run ends.
# The manifests of the measured classification replace the build's when the GPU part wrote them.
verdict_table() {
  local tool="$build/files/rooflint-summary" manifests=() source="the build's analysis"
  if [[ -s "$out/examples.measured.rooflint.json" && "$out/examples.measured.rooflint.json" -nt "$out/build.log" ]]; then
    manifests=("$out/examples.measured.rooflint.json"); source="the measured ceilings ($out/ceilings.json)"
  else
    mapfile -t manifests < <(find "$build/examples" -name '*.rooflint.json' 2>/dev/null | sort)
  fi
  step "verdicts of the examples (from the manifests of $source)"
  if [[ ${#manifests[@]} -eq 0 ]]; then
    echo "no manifest: the analyzer did not run (see $out/configure.log)" >&2
  elif [[ ! -x "$tool" ]]; then
    echo "rooflint-summary was not built (see $out/configure.log); manifests: ${manifests[*]}" >&2
  else
    "$tool" "${manifests[@]}" | tee "$out/verdicts.txt" || true
    "$tool" --markdown "${manifests[@]}" >"$out/verdicts.md" 2>/dev/null || true
  fi
}
trap verdict_table EXIT

ceilings_tool="$build/runtime/rooflint-ceilings"
examples_tool="$build/examples/rooflint-examples"
if [[ ! -x "$ceilings_tool" || ! -x "$examples_tool" ]]; then
  echo "rooflint: the CUDA runtime was not built (no CUDA toolkit?); static part done" >&2
  exit 0
fi

step "measuring the ceilings on the GPU"
set +e
"$ceilings_tool" --output "$out/ceilings.json" 2>&1 | tee "$out/ceilings.txt"
status=${PIPESTATUS[0]}
set -e
if [[ $status -eq 3 ]]; then
  echo "rooflint: no GPU here; static part done (verdicts above use datasheet peaks)" >&2
  exit 0
fi
[[ $status -eq 0 || $status -eq 4 ]] || exit "$status"

# The examples of the build (examples/torch_extension is built by torch, not here: docs/python.md).
if [[ -x "$build/analyzer/rooflint" ]]; then
  step "classifying the examples against the measured ceilings"
  "$build/analyzer/rooflint" -p "$build" --ceilings "$out/ceilings.json" --manifest "$out/examples.measured.rooflint.json" \
      $(find examples -name '*.cu' ! -path 'examples/torch_extension/*' | sort) 2>&1 | tee "$out/analyzer-measured.txt" || true
fi

step "verifying every example on the GPU"
set +e
"$examples_tool" --ceilings "$out/ceilings.json" --json "$out/verify.json" --junit "$out/verify.junit.xml" \
    --svg "$out/roofline.svg" 2>&1 | tee "$out/verify.txt"
status=${PIPESTATUS[0]}
set -e
echo "reports in $out/: ceilings.json, verify.json, verify.junit.xml, roofline.svg" >&2
# The examples include deliberate mistakes: the main job passes when the verifier fails exactly the cases
# listed in examples/expected_failures.txt, and fails on any difference (a regression either way).
[[ $status -eq 0 || $status -eq 1 ]] || exit "$status"
expected=$(grep -v '^#' examples/expected_failures.txt | sed '/^$/d' | sort)
flagged=$(awk '$2 == "FAIL" { print $1 }' "$out/verify.txt" | sort)
if [[ "$flagged" == "$expected" ]]; then
  echo "rooflint: the verifier failed exactly the examples that move more than their compulsory bytes:" $flagged >&2
  exit 0
fi
echo "rooflint: the failed cases differ from examples/expected_failures.txt:" >&2
diff <(echo "$expected") <(echo "$flagged") | sed 's/^</  expected to fail but passed:/; s/^>/  failed unexpectedly:/' | grep -E "expected to|unexpectedly" >&2 || true
exit 1
