#!/bin/sh
# A GPU test step (CTest label gpu): runs PROGRAM under rooflint-verify (measuring LAUNCHES launches per
# kernel and sizes) and checks that it exits 0 (or $ROOFLINT_WANT_STATUS) and that its output holds every
# EXPECTED fragment (each a fixed string). Exit 77 (skipped) when the program itself finds no CUDA device
# (it exits 77 then). $ROOFLINT_VERIFY_OPTIONS: more options for rooflint-verify (split at spaces).
#   verify-program.sh ROOFLINT_VERIFY MANIFESTS LAUNCHES "EXPECTED1|EXPECTED2|..." PROGRAM [ARGS...]
verify=$1 manifests=$2 launches=$3 expected=$4
shift 4
"$@" >/dev/null 2>&1
if [ $? -eq 77 ]; then echo "no CUDA device: skipped"; exit 77; fi
# shellcheck disable=SC2086  # the options are words
out=$("$verify" --launches "$launches" ${ROOFLINT_VERIFY_OPTIONS:-} --manifest "$manifests" -- "$@" 2>&1)
status=$?
printf '%s\n' "$out"
want_status=${ROOFLINT_WANT_STATUS:-0}
[ $status -eq "$want_status" ] || { echo "verify-program.sh: rooflint-verify exited $status (want $want_status)"; exit 1; }
old_ifs=$IFS
IFS='|'
for want in $expected; do
  printf '%s\n' "$out" | grep -qF -- "$want" || { echo "verify-program.sh: missing from the report: $want"; exit 1; }
done
IFS=$old_ifs
exit 0
