#!/usr/bin/env bash
# rooflint-verify -- program, as CI runs it, without a GPU: the program is a host program that launches
# nothing (a shell script, python3), so what is tested is how the program is run, stopped and reported,
# and how hostile flags and files are refused. One function per case, run by CTest as
#   verify_program_test.sh CASE ROOFLINT_VERIFY MANIFEST
# Each case works in a fresh temporary directory; every process a case starts is ended by its PID.
set -uo pipefail

case_name=$1 verify=$2 manifest=$3
work=$(mktemp -d)
mkdir "$work/tmp"
export TMPDIR=$work/tmp  # where rooflint-verify creates its temporary file: nothing may be left there
started=()  # PIDs this case started in the background, ended on exit
cleanup() {
  local pid
  for pid in "${started[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  [[ -f $work/prog.pid ]] && kill -KILL "$(cat "$work/prog.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1

fail() { echo "FAIL ($case_name): $*" >&2; exit 1; }
# run EXPECTED ARGS...: rooflint-verify ARGS, bounded by 'timeout' (124: it hung); stdout in out, stderr in err.
run() {
  local want=$1; shift
  timeout 60 "$verify" "$@" >out 2>err
  local got=$?
  [[ $got -eq $want ]] || { cat out err >&2; fail "exit status $got, expected $want: rooflint-verify $*"; }
}
has() { grep -qE -- "$1" "${2:-err}" || { cat out err >&2; fail "no line matching '$1' in ${2:-err}"; }; }
lacks() { ! grep -qE -- "$1" "${2:-err}" || { cat out err >&2; fail "a line matches '$1' in ${2:-err}"; }; }
# alive PID: the process runs (a zombie, ended and not yet reaped by init, does not count).
alive() {
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)  # the field after the command's name
  [[ -n $state && $state != Z ]]
}
# The temporary file the injection library writes to; the program notes its path (ROOFLINT_INJECT_OUTPUT).
no_temporary_left() {
  [[ -s outpath ]] || fail "the program did not note its output file"
  [[ ! -e $(cat outpath) ]] || fail "the temporary file $(cat outpath) was left behind"
}
json() { python3 -c "import json,sys; print(json.load(open('r.json'))$1)"; }

# A program that notes its PID and output file, starts a child in its own process group, and sleeps.
cat > sleeper.sh <<'SH'
#!/bin/sh
echo $$ > prog.pid
echo "$ROOFLINT_INJECT_OUTPUT" > outpath
sleep 300 &
echo $! > child.pid
wait
SH
chmod +x sleeper.sh

# --- the time limit --------------------------------------------------------------------------------
# Past --timeout the program and its children get SIGTERM; the run fails as the program's (exit 4),
# the report says why, and nothing is left: no process of the program, no temporary file.
case_timeout_stops_the_program_and_its_children() {
  local start=$SECONDS
  run 4 --timeout 1 --json r.json --manifest "$manifest" -- ./sleeper.sh
  (( SECONDS - start < 30 )) || fail "the timeout of 1 s took $((SECONDS - start)) s"
  has "program './sleeper.sh' killed by signal 15 \(Terminated\) after running past --timeout 1 s"
  [[ $(json "['program']['timed_out']") == True ]] || fail "the report does not say the program timed out"
  [[ $(json "['exit_code']") == 4 ]] || fail "the report's exit code is not 4"
  alive "$(cat prog.pid)" && fail "the program is still running"
  alive "$(cat child.pid)" && fail "the program's child is still running"
  no_temporary_left
}

# A program that ignores SIGTERM gets SIGKILL 10 s (the grace period) after it.
case_timeout_kills_a_program_that_ignores_sigterm() {
  cat > stubborn.sh <<'SH'
#!/bin/sh
trap '' TERM
echo $$ > prog.pid
echo "$ROOFLINT_INJECT_OUTPUT" > outpath
while :; do sleep 1; done
SH
  chmod +x stubborn.sh
  local start=$SECONDS
  run 4 --timeout 1 --manifest "$manifest" -- ./stubborn.sh
  (( SECONDS - start >= 10 && SECONDS - start < 40 )) || fail "SIGKILL came after $((SECONDS - start)) s, expected 1 + 10"
  has "killed by signal 9 \(Killed\) after running past --timeout 1 s; SIGKILL 10 s later"
  alive "$(cat prog.pid)" && fail "the program is still running"
  no_temporary_left
}

# --timeout takes whole seconds from 1 to a million (11.6 days); anything else is a usage error naming it.
case_bad_timeouts_are_usage_errors() {
  local t
  for t in 0 -1 nan inf 1e7 x ""; do
    run 2 --timeout "$t" --manifest "$manifest" -- /bin/echo ran
    has "^rooflint-verify: error: --timeout: needs seconds, not '$t'$"
    lacks "^ran$" out
  done
  run 3 --timeout 1000000 --manifest "$manifest" -- /bin/true  # accepted: the program runs, nothing measured
}

# --- signals ---------------------------------------------------------------------------------------
# signal_case SIGNAL STATUS: rooflint-verify gets SIGNAL while the program runs; it passes it on to the
# program's group, waits, writes its report (marked interrupted) and exits with STATUS = 128 + SIGNAL.
signal_case() {
  local signal=$1 want=$2
  # python3: a program of a non-interactive shell's background job starts with SIGINT ignored, and sh
  # cannot trap a signal ignored at its start; python3 can.
  cat > catcher.py <<'PY'
import os, signal, sys, time
def leave(sig, frame):
    open("got", "w").write(str(sig))
    sys.exit(0)
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, leave)
open("outpath", "w").write(os.environ["ROOFLINT_INJECT_OUTPUT"] + "\n")
open("prog.pid", "w").write(str(os.getpid()))
time.sleep(300)
PY
  "$verify" --json r.json --manifest "$manifest" -- python3 catcher.py >out 2>err &
  local pid=$!
  started+=("$pid")
  local i
  for i in $(seq 100); do [[ -s prog.pid ]] && break; sleep 0.1; done
  [[ -s prog.pid ]] || fail "the program did not start"
  kill "-$signal" "$pid"
  for i in $(seq 600); do alive "$pid" || break; sleep 0.1; done  # 60 s at most
  alive "$pid" && fail "rooflint-verify did not end within 60 s of SIG$signal"
  wait "$pid"
  local got=$?
  [[ $got -eq $want ]] || { cat out err >&2; fail "exit status $got after SIG$signal, expected $want"; }
  [[ $(cat got 2>/dev/null) == "$((want - 128))" ]] || fail "the program did not receive SIG$signal"
  has "program 'python3 catcher.py' exited with code 0 after rooflint-verify passed on SIG$signal"
  has "interrupted: rooflint-verify received SIG$signal and passed it on to the program"
  [[ $(json "['program']['interrupted_by']") == "SIG$signal" ]] || fail "the report is not marked interrupted"
  [[ $(json "['exit_code']") == "$want" ]] || fail "the report's exit code is not $want"
  alive "$(cat prog.pid)" && fail "the program is still running"
  no_temporary_left
}
case_sigterm_is_passed_on_and_the_report_written() { signal_case TERM 143; }
case_sigint_is_passed_on_and_the_report_written() { signal_case INT 130; }

# --- programs that cannot be executed -------------------------------------------------------------
# The file exists and is executable, but exec fails: a usage error (2) with the reason, not the
# program's failure (4), and nothing left behind.
case_exec_failures_are_usage_errors() {
  printf '#!/no/such/interpreter\necho ran\n' > script.sh
  chmod +x script.sh
  run 2 --manifest "$manifest" -- ./script.sh
  has "^rooflint-verify: error: cannot run './script.sh': No such file or directory; its interpreter '/no/such/interpreter' does not exist$"
  { printf '\177ELF\002\001\001'; head -c 120 /dev/zero; } > corrupt-elf  # 64-bit, but of type 0 (ET_NONE)
  chmod +x corrupt-elf
  run 2 --manifest "$manifest" -- ./corrupt-elf
  has "^rooflint-verify: error: cannot run './corrupt-elf': Exec format error; it is no executable for this machine"
  lacks "exited with code"
  [[ -z $(ls -A "$TMPDIR") ]] || fail "a temporary file was left: $(ls -A "$TMPDIR")"
}

# --- hostile flags and files -----------------------------------------------------------------------
case_inject_library_is_checked_before_the_run() {
  printf 'not a library\n' > text.so
  run 2 --inject-library text.so --manifest "$manifest" -- /bin/echo ran
  has "injection library: 'text.so' is not an ELF shared library"
  lacks "^ran$" out
  { printf '\177ELF\002\001\001'; head -c 9 /dev/zero; printf '\002\000'; head -c 110 /dev/zero; } > exec.so  # ET_EXEC
  run 2 --inject-library exec.so --manifest "$manifest" -- /bin/echo ran
  has "injection library: 'exec.so' is an ELF file but not a shared library"
  run 2 --inject-library /bin/true --manifest "$manifest" -- /bin/echo ran  # a position-independent executable
  has "injection library: '/bin/true' does not export InitializeInjection: it is no CUDA injection library"
  local libc
  libc=$(ldd /bin/true | awk '/libc\.so/ {print $3}')
  [[ -f $libc ]] || fail "no libc found through ldd /bin/true"
  run 2 --inject-library "$libc" --manifest "$manifest" -- /bin/echo ran
  has "does not export InitializeInjection: it is no CUDA injection library"
  mkdir dir.so
  run 2 --inject-library dir.so --manifest "$manifest" -- /bin/echo ran
  has "injection library: cannot read 'dir.so': Is a directory"
}

# Values that would turn a check off or mean nothing are refused: NaN and infinite tolerances, an
# empty path (an unset variable in a CI script).
case_bad_values_are_usage_errors() {
  run 0 --version  # no manifest, no program: the version alone
  has "^rooflint-verify \(rooflint\) [0-9]+\.[0-9]+\.[0-9]+\$" out
  local v
  for v in nan inf -inf 0.5 ""; do
    run 2 --tolerance "$v" --manifest "$manifest" -- /bin/echo ran
    lacks "^ran$" out
  done
  local option
  for option in --ceilings --baseline --json --junit --svg --inject-library --manifest; do
    run 2 "$option" "" --manifest "$manifest" -- /bin/echo ran
    has "needs a file, not an empty value"
    lacks "^ran$" out
  done
  for v in saxpy "=saxpy_ref" "saxpy=" ""; do  # --reference is KERNEL=REFERENCE, both named
    run 2 --reference "$v" --manifest "$manifest" -- /bin/echo ran
    has "^rooflint-verify: error: --reference: expected KERNEL=REFERENCE"
    lacks "^ran$" out
  done
}

# An empty, directory, FIFO, device or malformed --baseline is refused before the program runs: the
# gate must never be off without a word.
case_bad_baselines_are_refused_before_the_run() {
  : > empty.json
  run 2 --baseline empty.json --manifest "$manifest" -- /bin/echo ran
  has "^rooflint-verify: error: --baseline 'empty.json': the baseline is not a JSON object$"
  mkdir dir.json
  run 2 --baseline dir.json --manifest "$manifest" -- /bin/echo ran
  has "^rooflint-verify: error: --baseline: cannot read 'dir.json': Is a directory$"
  run 2 --baseline /dev/zero --manifest "$manifest" -- /bin/echo ran
  has "cannot read '/dev/zero': not a regular file"
  mkfifo fifo.json
  run 2 --baseline fifo.json --manifest "$manifest" -- /bin/echo ran
  has "cannot read 'fifo.json': not a regular file"
  printf '{"schema": "rooflint-verify", "version": 99, "cases": []}' > v99.json
  run 2 --baseline v99.json --manifest "$manifest" -- /bin/echo ran
  has "the baseline: 'version' is not one this reader knows"
  printf '{"schema": "rooflint-verify", "version": 2, "cases": [{"name": "k", "status": "passed", "compared": {"roofline_fraction": "high"}}]}' > typed.json
  run 2 --baseline typed.json --manifest "$manifest" -- /bin/echo ran
  has "the baseline: '/cases/0/compared/roofline_fraction' must be a number, not a string"
  lacks "^ran$" out
}

# A manifest whose fields have other JSON types than the reader expects is a usage error naming the
# file, never an abort (134).
case_a_manifest_of_wrong_types_is_a_usage_error() {
  python3 - "$manifest" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["kernels"][0]["name"] = 5
json.dump(m, open("typed.manifest.json", "w"))
m = json.load(open(sys.argv[1]))
m["version"] = "4"
json.dump(m, open("version.manifest.json", "w"))
PY
  run 2 --manifest typed.manifest.json -- /bin/echo ran
  has "typed.manifest.json"
  run 2 --manifest version.manifest.json -- /bin/echo ran
  has "version.manifest.json"
  lacks "^ran$" out
}

# --- a program without a GPU ----------------------------------------------------------------------------
# A program that exits non-zero is the run's failure, exit 4, on any machine: without a GPU most CUDA
# programs do, and the line that says so adds that no usable CUDA device was found (which may be why);
# a host program that fails for its own reasons is not passed off as "could not measure" (3).
case_a_program_failing_without_a_device_exits_four() {
  printf '#!/bin/sh\nexit 1\n' > fails.sh
  chmod +x fails.sh
  run 4 --json r.json --manifest "$manifest" -- ./fails.sh
  [[ $(json "['exit_code']") == 4 ]] || fail "the report's exit code is not 4"
  [[ $(json "['program']['status']") == 1 ]] || fail "the report does not keep the program's status"
  if grep -qE "no (usable )?CUDA device" err; then
    has "program './fails.sh' exited with code 1 \(exit code 4: the program failed; no usable CUDA device was found, which may be why\)"
  else
    has "program './fails.sh' exited with code 1 \(exit code 4: the program failed\)"
  fi
}

# --- per-line traffic (--lines) ------------------------------------------------------------------------
# A rerun per case collected for: without a measured case (no GPU here) there is none, so the program runs
# once, as without --lines; a value other than failing, all or off is a usage error before it runs at all.
case_lines_rerun_only_measured_cases() {
  printf '#!/bin/sh\necho run >> runs.txt\n' > counted.sh
  chmod +x counted.sh
  run 3 --lines=all --manifest "$manifest" -- ./counted.sh
  [[ $(wc -l < runs.txt) -eq 1 ]] || fail "the program ran $(wc -l < runs.txt) times, expected once"
  lacks "per-line traffic of"
  run 2 --lines=sometimes --manifest "$manifest" -- ./counted.sh
  [[ $(wc -l < runs.txt) -eq 1 ]] || fail "the program ran after a bad --lines"
  run 0 --help
  has "output discarded" out
  [[ -z $(ls -A "$TMPDIR") ]] || fail "a temporary file was left: $(ls -A "$TMPDIR")"
}

"case_$case_name"
