#!/bin/sh
# Runs N copies of PROGRAM at once, as the workers of a training or serving job share one GPU, and
# exits with the first copy's non-zero status (77, "no CUDA device", passes through), else 0.
#   concurrent.sh N PROGRAM [ARGS...]
n=$1
shift
pids=""
i=0
while [ "$i" -lt "$n" ]; do
  "$@" &
  pids="$pids $!"
  i=$((i + 1))
done
status=0
for pid in $pids; do
  wait "$pid"
  s=$?
  [ "$status" -eq 0 ] && status=$s
done
exit "$status"
