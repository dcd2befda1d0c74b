#!/usr/bin/env bash
# The manifest's readers on hostile files (hostile_manifests.py: the recorded version 2 manifest with one
# field broken each, and paths that are no regular file): each refused with the file, the kernel and the
# field and the tool's exit status for a bad input, never an abort (134) or a read without end.
#   hostile_manifest_test.sh verify|summary TOOL RECORDED_MANIFEST
set -uo pipefail
kind=$1 tool=$2 recorded=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$(dirname "$0")/hostile_manifests.py" "$recorded" "$work" || exit 1
failed=0
fail() { echo "FAIL ($kind): $*"; failed=1; }

# run FILE: the tool on FILE, its output in $work/out; bounded in time (reading /dev/zero never ends).
run() {
  if [[ $kind == verify ]]; then
    timeout 60 "$tool" --manifest "$1" -- /bin/true >"$work/out" 2>&1
  else
    timeout 60 "$tool" "$1" >"$work/out" 2>&1
  fi
}

# expect FILE STATUS TEXT: the exit status, and TEXT in what it printed.
expect() {
  run "$1"
  local status=$?
  [[ $status -eq $2 ]] || fail "$1: exit $status, expected $2: $(head -c 400 "$work/out")"
  grep -qF -- "$3" "$work/out" || fail "$1: '$3' not in: $(head -c 400 "$work/out")"
}

bad=2  # rooflint-verify: a manifest it cannot use is a usage error
[[ $kind == summary ]] && bad=3
m() { echo "$work/$1.manifest.json"; }
expect "$(m name-type)" $bad "kernel 0: '/name' must be a string, not an integer"
expect "$(m exponents-type)" $bad "kernel 'axpy': '/spec_value/size_terms/0/lhs/terms/0/exponents/0' must be an integer, not a string"
expect "$(m shape-type)" $bad "kernel 'axpy': '/spec_value/tensors/0/shape/0' must be an integer, not a string"
expect "$(m shape-range)" $bad "kernel 'axpy': 'spec_value/tensors/0/shape/0' is 5, not a dimension of the spec (it has 1)"
expect "$(m schema-type)" $bad "not a rooflint manifest: 'schema' is 1"
for v in null array object; do expect "$(m version-$v)" $bad "'version' must be an integer"; done
expect "$(m version-99)" $bad "unsupported version 99"
expect "$(m version-wide)" $bad "unsupported version 4294967298"
expect "$(m divisor-zero)" $bad "kernel 'copy4': '/launch/sizes/0/divisor' is 0, outside the range 1 to"
expect "$(m op-kind)" $bad "kernel 'axpy': '/spec_value/op/kind' is 11, outside the range 0 to 10"
expect /dev/zero $bad "cannot read '/dev/zero': not a regular file"
if [[ $kind == summary ]]; then
  # A directory is read as rooflint-verify --manifest reads one: its *.rooflint.json files, of which
  # this one has none (its files are *.manifest.json); one that holds a manifest so named is summarised.
  expect "$work" 3 "'$work': no *.rooflint.json below this directory"
  mkdir -p "$work/build/sub" && cp "$recorded" "$work/build/sub/k.rooflint.json"
  expect "$work/build" 0 "axpy"
  expect "$(m many-params)" 0 "axpy"
else
  # One kernel with more parameters than a launch's values hold is a note for that kernel; the others
  # are verified (here /bin/true launches none: nothing measured, exit 3).
  expect "$(m many-params)" 3 "kernel 'axpy' has 70 parameters, more than the 64 whose values a launch gives rooflint"
  # The other files it reads: a device as the ceilings file or the baseline is refused unread.
  for option in --ceilings --baseline; do
    timeout 60 "$tool" --manifest "$recorded" "$option" /dev/zero -- /bin/true >"$work/out" 2>&1
    status=$?
    [[ $status -eq 2 ]] || fail "$option /dev/zero: exit $status, expected 2: $(head -c 400 "$work/out")"
    grep -qF "cannot read '/dev/zero': not a regular file" "$work/out" ||
      fail "$option /dev/zero: $(head -c 400 "$work/out")"
  done
fi
exit $failed
