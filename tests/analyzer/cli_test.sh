#!/usr/bin/env bash
# The rooflint executable as users run it: one function per case, run by CTest as
#   cli_test.sh CASE ROOFLINT ROOFLINT_SUMMARY SOURCE_DIR
# Each case works in a fresh temporary directory and fails with a message saying what differed.
set -uo pipefail

case_name=$1 rooflint=$2 summary=$3 src=$4
inputs=$src/tests/analyzer/inputs
flags=(-std=c++20 "-I$src/dsl/include" "-I$src/model/include" "-I$inputs" -nocudainc -nocudalib)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fail() { echo "FAIL ($case_name): $*" >&2; exit 1; }
# run EXPECTED_STATUS ARGS...: runs rooflint, stdout in $work/out, stderr in $work/err.
run() {
  local want=$1; shift
  "$rooflint" "$@" >"$work/out" 2>"$work/err"
  local got=$?
  [[ $got -eq $want ]] || { cat "$work/out" "$work/err" >&2; fail "exit status $got, expected $want: rooflint $*"; }
}
has() { grep -qE -- "$1" "$work/${2:-out}" || { cat "$work/out" "$work/err" >&2; fail "no line matching '$1' in $2"; }; }
lacks() { ! grep -qE -- "$1" "$work/${2:-out}" || { cat "$work/out" "$work/err" >&2; fail "a line matches '$1' in $2"; }; }
count() { grep -cE -- "$1" "$work/${2:-out}"; }

# --- version, listing, help -----------------------------------------------------------------------
case_version() {
  run 0 --version
  has "^rooflint version $ROOFLINT_EXPECTED_VERSION\$"   # the CMake project version
  has "LLVM version 19\."
  [[ $(head -1 out) == "rooflint version $ROOFLINT_EXPECTED_VERSION" ]] || fail "rooflint's version is not first"
  "$summary" --version >out 2>err || fail "rooflint-summary --version: exit status $?"
  [[ $(cat out) == "rooflint-summary (rooflint) $ROOFLINT_EXPECTED_VERSION" ]] || fail "rooflint-summary --version: $(cat out err)"
}

case_list_checks() {
  run 0 --list-checks
  has "^Enabled checks:"
  [[ $(count "^    rooflint-") -eq 13 ]] || fail "expected the 13 analyzer checks"
  has "^    rooflint-uncoalesced +warning +Warns when a global-memory access"
  run 0 --list-checks "--checks=-*,rooflint-bound"
  [[ $(count "^    rooflint-") -eq 1 ]] || fail "--checks=-*,rooflint-bound should leave one check"
  has "^    rooflint-bound +remark"
}

case_help_lists_diagnostics_and_exit_codes() {
  run 0 --help
  for name in bound expectation param-name uncovered-param read-only-written datasheet-peaks uncoalesced \
              spec-evaluation kernel-binding reread; do
    has "^  rooflint-$name "
  done
  # Every exit status is in --help and in docs/analyzer.md's table.
  for code in 0 1 2 3 4 5 6; do
    has "^  $code  "
    grep -qE "^\| $code \|" "$src/docs/analyzer.md" || fail "docs/analyzer.md does not document exit status $code"
  done
}

# --- check selection --------------------------------------------------------------------------------
case_checks_glob() {
  run 0 "--checks=-*,rooflint-uncoalesced" "$inputs/rooflint-bound.cu" "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  lacks "\[rooflint-bound\]"
  lacks "\[rooflint-datasheet-peaks\]"
  has "\[rooflint-uncoalesced\]"
  # The last match wins: removed, added back with a glob, removed again by name.
  run 0 "--checks=-rooflint-*,rooflint-unc*,-rooflint-uncoalesced,rooflint-bound" "$inputs/rooflint-uncoalesced.cu" "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  lacks "\[rooflint-uncoalesced\]"
  has "\[rooflint-bound\]"
}

case_checks_glob_rejects_a_name_that_matches_nothing() {
  run 2 "--checks=-*,rooflint-bonud" "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  has "error: --checks: 'rooflint-bonud' matches no rooflint check; known checks: 'rooflint-bound'" err
}

case_warnings_as_errors_glob() {
  run 0 "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  run 1 --warnings-as-errors=rooflint-uncoalesced "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  has "error: store through 'out' is not unit-stride"
  run 0 --warnings-as-errors=rooflint-param-name "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  run 1 --werror "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
}

case_config_file() {
  mkdir -p proj/sub proj/other
  cp "$inputs/rooflint-bound.cu" proj/sub/k.cu
  cp "$inputs/rooflint-bound.cu" proj/other/k.cu
  printf "Checks: '-rooflint-datasheet-peaks'\n" > proj/.rooflint
  printf "Checks: '-rooflint-bound'\nInheritParentConfig: true\n" > proj/sub/.rooflint
  run 0 proj/other/k.cu -- "${flags[@]}"          # proj/.rooflint only
  has "\[rooflint-bound\]"
  lacks "\[rooflint-datasheet-peaks\]"
  run 0 proj/sub/k.cu -- "${flags[@]}"            # proj/sub/.rooflint over proj/.rooflint
  lacks "\[rooflint-bound\]"
  lacks "\[rooflint-datasheet-peaks\]"
  run 0 --checks=rooflint-bound proj/sub/k.cu -- "${flags[@]}"  # the command line comes last
  has "\[rooflint-bound\]"
  printf "Checks: '-rooflint-bound'\n" > proj/sub/.rooflint   # no inheritance: the parent's is not read
  run 0 proj/sub/k.cu -- "${flags[@]}"
  has "\[rooflint-datasheet-peaks\]"
  run 0 --list-checks                                # in the current directory: none
  [[ $(count "^    rooflint-") -eq 13 ]] || fail "no config file here: all 13 checks"
  (cd proj/sub && "$rooflint" --list-checks) > out || fail "--list-checks in proj/sub"
  lacks "^    rooflint-bound "
}

case_config_file_errors_name_the_file_and_line() {
  mkdir d && cp "$inputs/rooflint-bound.cu" d/k.cu
  printf "Checks: '*'\nChecksTypo: 'x'\n" > d/.rooflint
  run 2 d/k.cu -- "${flags[@]}"
  has "error: invalid configuration file .*d/.rooflint:2:1: unknown key 'ChecksTypo'$" err
  lacks "rooflint-bound" out                         # nothing was analysed
  printf "Checks: 'rooflint-nope'\n" > d/.rooflint
  run 2 d/k.cu -- "${flags[@]}"
  has "d/.rooflint\): 'rooflint-nope' matches no rooflint check" err
}

# --- NOLINT -----------------------------------------------------------------------------------------
# rooflint-uncoalesced.cu warns at lines 8, 13, 18, 27, 35, 42 and 49 (its comments say so).
nolint_input() {
  cp "$inputs/rooflint-uncoalesced.cu" k.cu
  cp "$inputs/cuda_mock.h" .
  sed -i "$1" k.cu
}

case_nolint() {
  nolint_input '8s|$| // NOLINT|'
  run 0 k.cu -- "${flags[@]}"
  lacks "k.cu:8:5: warning"
  has "k.cu:13:21: warning"
  nolint_input '8s|$| // NOLINT(rooflint-uncoalesced)|'
  run 0 k.cu -- "${flags[@]}"
  lacks "k.cu:8:5: warning"
  nolint_input '8s|$| // NOLINT(rooflint-bound, rooflint-param-*)|'   # other names: still reported
  run 0 k.cu -- "${flags[@]}"
  has "k.cu:8:5: warning"
  nolint_input '8s|$| // NOLINT(rooflint-*)|'
  run 0 k.cu -- "${flags[@]}"
  lacks "k.cu:8:5: warning"
}

case_nolintnextline() {
  nolint_input '12s|$| // NOLINTNEXTLINE(rooflint-uncoalesced)|'
  run 0 k.cu -- "${flags[@]}"
  lacks "k.cu:13:21: warning"
  has "k.cu:8:5: warning"
  has "k.cu:18:10: warning"
  nolint_input '11s|$| // NOLINTNEXTLINE|'          # two lines above: no effect
  run 0 k.cu -- "${flags[@]}"
  has "k.cu:13:21: warning"
}

case_nolintbegin_end() {
  nolint_input '11s|$| // NOLINTBEGIN(rooflint-uncoalesced)|; 19s|$| // NOLINTEND(rooflint-uncoalesced)|'
  run 0 k.cu -- "${flags[@]}"
  lacks "k.cu:13:21: warning"
  lacks "k.cu:18:10: warning"
  has "k.cu:8:5: warning"
  has "k.cu:35:5: warning"
  nolint_input '11s|$| // NOLINTBEGIN|'              # no END: clang-tidy silences nothing either
  run 0 k.cu -- "${flags[@]}"
  has "k.cu:13:21: warning"
  has "k.cu:35:5: warning"
}

# --- header filter ----------------------------------------------------------------------------------
case_header_filter() {
  mkdir inc
  cp "$inputs/cuda_mock.h" inc/
  sed -n '1,20p' "$inputs/rooflint-uncoalesced.cu" | sed '1s|.*|#pragma once|' > inc/kernels.cuh
  printf '#include "kernels.cuh"\n__global__ void own(float* y, int n) { y[threadIdx.x * 2] = 0; }\n' > main.cu
  local f=(-std=c++20 "-I$src/dsl/include" "-I$src/model/include" -Iinc -nocudainc -nocudalib)
  run 0 main.cu -- "${f[@]}"
  has "kernels.cuh:8:5: warning"
  has "main.cu:2:40: warning"
  run 0 '--header-filter=nothing-matches' main.cu -- "${f[@]}"
  lacks "kernels.cuh:[0-9]+:[0-9]+: warning"
  has "main.cu:2:40: warning"                        # the main file is always reported
  run 0 '--header-filter=inc/kernels\.cuh$' main.cu -- "${f[@]}"
  has "kernels.cuh:8:5: warning"
  run 2 '--header-filter=(' main.cu -- "${f[@]}"
  has "invalid --header-filter regex" err
}

# --- -j, progress, order, quiet, colour -------------------------------------------------------------
# Seven inputs and two files that include the same header: -j 4 prints byte for byte what -j 1 does,
# the header's warnings once, and writes the same manifest and SARIF.
case_jobs_match_a_sequential_run() {
  mkdir inc
  cp "$inputs/cuda_mock.h" inc/
  sed -n '1,20p' "$inputs/rooflint-uncoalesced.cu" | sed '1s|.*|#pragma once|' > inc/kernels.cuh
  printf '#include "kernels.cuh"\n' > a.cu
  printf '#include "kernels.cuh"\n' > b.cu
  local files=(a.cu b.cu "$inputs"/rooflint-*.cu)
  local f=(-std=c++20 "-I$src/dsl/include" "-I$src/model/include" -Iinc "-I$inputs" -nocudainc -nocudalib)
  run 1 -j 1 --manifest m1.json --sarif s1.sarif "${files[@]}" -- "${f[@]}"
  mv out out1; mv err err1
  run 1 -j 4 --manifest m4.json --sarif s4.sarif "${files[@]}" -- "${f[@]}"
  cmp out1 out || { diff out1 out >&2; fail "-j 4 printed something else than -j 1 (stdout)"; }
  cmp err1 err || { diff err1 err >&2; fail "-j 4 printed something else than -j 1 (stderr)"; }
  cmp m1.json m4.json || fail "-j 4 wrote another manifest"
  cmp s1.sarif s4.sarif || fail "-j 4 wrote another SARIF"
  [[ $(count "kernels.cuh:8:5: warning") -eq 1 ]] || fail "the header's warning should be printed once"
  local n=${#files[@]}
  has "^\[1/$n\] a.cu$"
  has "^\[$n/$n\] .*rooflint-uncovered-param.cu$"
  # The progress line comes before the file's diagnostics.
  awk -v second="[2/$n]" 'index($0, second) == 1 {p=NR} /rooflint-bound.cu:26:23: remark/{if(!r)r=NR} END{exit !(p && r && p<r)}' out ||
    fail "[2/$n] is not printed before the second file's output"
}

case_quiet() {
  run 0 --quiet "$inputs/rooflint-bound.cu" "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  lacks "^\[[0-9]+/[0-9]+\]"
  has "\[rooflint-uncoalesced\]"
  run 0 "$inputs/rooflint-bound.cu" "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  has "^\[1/2\] "
  # A dropped nvcc flag is noted once per run on stderr; --quiet leaves the note out too.
  run 0 --jobs=2 "$inputs/rooflint-bound.cu" "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}" --use_fast_math
  [[ $(count "note: .*--use_fast_math" err) -eq 1 ]] || fail "the dropped flag is not noted once"
  run 0 --quiet "$inputs/rooflint-bound.cu" -- "${flags[@]}" --use_fast_math
  lacks "use_fast_math" err
}

case_color() {
  local esc=$'\033\['
  run 0 "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"       # not a terminal: no colour
  lacks "$esc"
  run 0 --color=always "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  has "${esc}[0-9;]*m.*warning: "
  run 0 -fcolor-diagnostics "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  has "$esc"
  run 0 --color=never "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  lacks "$esc"
  run 2 --color=sometimes "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"
  has "--color must be auto, always or never" err
  if command -v script >/dev/null; then   # a terminal (script's pseudo-terminal): colour by default
    TERM=xterm script -qec "'$rooflint' '$inputs/rooflint-uncoalesced.cu' -- ${flags[*]}" /dev/null > out
    has "$esc"
  fi
}

# --extra-arg(-before), --gpu, --disable/--enable: each changes what the analysis sees or says.
case_extra_args_gpu_enable_disable() {
  printf '#ifndef ROOFLINT_TEST_FLAG\n#error the flag did not arrive\n#endif\n#include "rooflint-bound.cu"\n' > k.cu
  run 1 k.cu -- "${flags[@]}"
  has "error: the flag did not arrive"
  run 0 --extra-arg=-DROOFLINT_TEST_FLAG k.cu -- "${flags[@]}"
  run 0 --extra-arg-before=-DROOFLINT_TEST_FLAG k.cu -- "${flags[@]}"
  # H100 PCIe datasheet: FP32 51.2 TFLOP/s, 2.0 TB/s: ridge 25.6 FLOP/byte, floor 2*4096^3/51.2e12 = 2.68 ms.
  run 0 --gpu "H100 PCIe" "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  has "ridge 25.6 FLOP/byte on H100 PCIe FP32, datasheet peaks\): floor 2.68 ms at N = 4096"
  run 0 --disable=rooflint-bound "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  lacks "\[rooflint-bound\]"
  has "\[rooflint-datasheet-peaks\]"
  run 0 "--checks=-*" --enable=rooflint-bound "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  has "\[rooflint-bound\]"
  lacks "\[rooflint-datasheet-peaks\]"
}

# --- exit statuses ----------------------------------------------------------------------------------
case_exit_codes() {
  run 0 "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}"           # warnings only
  run 1 "$inputs/rooflint-spec-evaluation.cu" -- "${flags[@]}"       # an error diagnostic
  run 2 --no-such-option "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  run 2 --gpu XYZ "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  run 2 --depfile x.d "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  has "--depfile needs --manifest" err
  mkdir empty
  run 3 -p empty "$inputs/rooflint-bound.cu"                         # -p without compile_commands.json
  has "error: no compilation database in 'empty'" err
  cp "$inputs/rooflint-bound.cu" lonely.cu
  run 3 lonely.cu                                                      # no database found, no "--"
  has "no compilation database found for 'lonely.cu'" err
  run 3                                                                # nothing at all
  has "no source files to analyse" err
  run 4 --ceilings no-such-file.json "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  has "cannot use ceilings file 'no-such-file.json'" err
  mkdir out.json
  run 5 --manifest out.json "$inputs/rooflint-bound.cu" -- "${flags[@]}"  # checked before the analysis
  has "cannot write 'out.json': Is a directory" err
  lacks "remark" out                                                   # nothing was analysed
  # An empty value (an unset variable in a build script) is refused, never read as "no file".
  for option in --ceilings --manifest --sarif --depfile; do
    run 2 "$option=" "$inputs/rooflint-bound.cu" -- "${flags[@]}"
    has "error: $option needs a file; it was given an empty value" err
  done
}

# Sources that are missing or not regular files are rooflint's own error (exit 3, before any analysis),
# with or without --allow-parse-errors, which excuses what clang cannot parse, not a wrong command: an
# argument clang's driver does not know stays an error (exit 1).
case_sources_and_driver_errors() {
  run 3 missing.cu "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  has "^rooflint: error: cannot read source 'missing.cu': No such file or directory\$" err
  lacks "remark" out
  run 3 --allow-parse-errors missing.cu -- "${flags[@]}"
  has "^rooflint: error: cannot read source 'missing.cu': No such file or directory\$" err
  mkdir adir.cu
  run 3 adir.cu -- "${flags[@]}"
  has "cannot read source 'adir.cu': Is a directory" err
  mkfifo fifo.cu
  timeout 60 "$rooflint" fifo.cu -- "${flags[@]}" >out 2>err
  local status=$?
  [[ $status -eq 3 ]] || fail "a FIFO as the source: exit status $status, expected 3 (124: it hung)"
  has "cannot read source 'fifo.cu': not a regular file" err
  run 1 "$inputs/rooflint-bound.cu" -- "${flags[@]}" -fno-such-clang-flag
  has "^error: unknown argument: '-fno-such-clang-flag'" out
  run 1 --allow-parse-errors "$inputs/rooflint-bound.cu" -- "${flags[@]}" -fno-such-clang-flag
  has "^error: unknown argument: '-fno-such-clang-flag'" out
  # What --allow-parse-errors is for still passes: a file clang cannot parse.
  run 0 --allow-parse-errors "$inputs/robust-parse-error.cu" -- "${flags[@]}"
  # C++17: rooflint/dsl.h's #error says what the command lacks, once, as the file's note (no spec is
  # blamed, no stray quote), and the file fails, --allow-parse-errors or not: nvcc fails alike.
  local cxx17=("${flags[@]/-std=c++20/-std=c++17}")
  for allow in "" --allow-parse-errors; do
    run 1 $allow "$inputs/rooflint-bound.cu" -- "${cxx17[@]}"
    has "^rooflint: note: '[^']*rooflint-bound.cu' is not analysed: [^ ]*rooflint/dsl.h:[0-9]+:[0-9]+: rooflint: rooflint/dsl.h needs C\+\+20 \(-std=c\+\+20; .*cuda_std_20\)\$"
    lacks "a spec in"
    [[ $(count "is not analysed" out) -eq 1 ]] || fail "the C++20 note is not said once: $(cat out)"
  done
}

# Host code clang 19 cannot parse but nvcc accepts (spaces in a launch's chevrons): the bodies holding
# the errors are skipped, one warning each, and the specs are analysed (exit 0). A second run, with the
# cache the first one filled, says the same: no PCH is written without those bodies.
case_host_bodies_clang_cannot_parse() {
  local input=$inputs/robust-host-chevrons.cu
  run 0 --pch-cache-dir=pch "$input" -- "${flags[@]}"
  has "^rooflint: warning: skipped the body of host function 'launch_spaced' \\([^)]*robust-host-chevrons.cu:34:6\\), where clang 19 reported errors \\(the first: [^ ]*robust-host-chevrons.cu:35:12: expected expression\\); the device side does not need it, and nvcc checks host code\$"
  has "^rooflint: warning: skipped the body of host function 'host::Runner::twice' \\([^)]*robust-host-chevrons.cu:25:8\\)"
  has "^rooflint: warning: skipped the body of host function 'host::Runner::later' \\([^)]*robust-host-chevrons.cu:38:20\\)"
  # Two functions of one macro call, both placed at the call: each skips its own body (the errors of
  # 'second' were taken for those of 'first', and the file did not parse).
  has "^rooflint: warning: skipped the body of host function 'first' \\([^)]*robust-host-chevrons.cu:52:1\\)"
  has "^rooflint: warning: skipped the body of host function 'second' \\([^)]*robust-host-chevrons.cu:52:1\\)"
  has "^rooflint: warning: skipped the body of host function 'launch_a' \\([^)]*robust-host-chevrons.cu:55:1\\)"
  has "^rooflint: warning: skipped the body of host function 'launch_b' \\([^)]*robust-host-chevrons.cu:56:1\\)"
  [[ $(count "skipped the body") -eq 7 ]] || fail "expected seven skipped bodies ('launch' parses)"
  has "robust-host-chevrons.cu:18:23: remark: kernel 'scale' is memory-bound"
  lacks "error:|did not parse"
  cp out first
  run 0 --pch-cache-dir=pch "$input" -- "${flags[@]}"
  cmp -s first out || { diff first out >&2; fail "the second run, with the cache, printed something else"; }
  # Past clang's 20 errors the parse stops placing them ("too many errors" is nowhere): a parse
  # without the limit places them all.
  { cat "$input"; for i in $(seq 1 12); do echo "void more_$i(const float* x, float* y, int n) { scale << <1, 256 >> > (x, y, n); }"; done; } > many.cu
  run 0 many.cu -- "${flags[@]}"
  [[ $(count "skipped the body") -eq 19 ]] || fail "expected 19 skipped bodies past clang's error limit"
  has "^rooflint: warning: skipped the body of host function 'more_12' \\([^)]*many.cu:68:6\\)"
  # An error in a device function's body, or in a __device__ lambda's inside a host function, is
  # clang's to report: the file is not analysed.
  run 1 "$inputs/robust-parse-error.cu" -- "${flags[@]}"
  lacks "skipped the body"
  run 1 "$inputs/robust-host-device-lambda.cu" -- "${flags[@]}"
  lacks "skipped the body"
  has "did not parse '[^']*robust-host-device-lambda.cu' \\(1 error; the first: [^ ]*robust-host-device-lambda.cu:6:51: use of undeclared identifier 'undeclared_on_device'\\)" out
  has "code that nvcc accepts may need --allow-parse-errors" out
  # A header missing from the include path is not code to excuse (nvcc would not find it either): the
  # note says which directory to add, and for rooflint's own headers, how.
  run 1 "$inputs/rooflint-bound.cu" -- -std=c++20 "-I$inputs" -nocudainc -nocudalib
  has "'rooflint/dsl.h' file not found" out
  has "add the directory that holds 'rooflint/dsl.h' to the compile command \\(rooflint's headers: link the target to rooflint::dsl, or -I<prefix>/include\\)\$" out
  lacks "allow-parse-errors" out
  # A CUDA toolkit header is the toolkit's to find: the note points at --cuda-path, not at -I.
  printf '#include <cuda_fp16.h>\n__global__ void k(float* x) { x[0] = 1; }\n' > toolkit.cu
  run 1 toolkit.cu -- -std=c++20 -nocudainc -nocudalib
  has "'cuda_fp16.h' is the CUDA toolkit's: point rooflint at the toolkit \\(--cuda-path=DIR after --, or CUDA_PATH\\)\$" out
  # Nor is an error of the command line a host body's: clang's errors stand.
  run 1 "$input" -- "${flags[@]}" -fno-such-clang-flag
  lacks "skipped the body"
  has "unknown argument: '-fno-such-clang-flag'"
}

case_compilation_database() {
  mkdir build
  printf '[{"directory": "%s", "file": "%s", "arguments": ["clang++", %s, "-c", "%s"]}]\n' \
    "$work" "$inputs/rooflint-bound.cu" "$(printf '"%s", ' "${flags[@]}" | sed 's/, $//')" "$inputs/rooflint-bound.cu" \
    > build/compile_commands.json
  run 0 -p build                                                       # every file of the database
  has "rooflint-bound.cu:26:23: remark: kernel 'sgemm' is compute-bound"
  run 0 -p build "$inputs/rooflint-bound.cu"
  has "rooflint-bound.cu:26:23: remark"
  # The database's '-c' (every CMake command has it) is no concern of the analysis: clang said
  # "warning: argument unused during compilation: '-c'" for every file, even with --quiet.
  run 0 --quiet -p build
  lacks "argument unused during compilation" out
  lacks "argument unused during compilation" err
  # A file the database does not list: its command is inferred from a listed one's (here the same
  # flags, so it is analysed), and a note says so, naming the file and what to do.
  cp "$inputs/rooflint-bound.cu" unlisted.cu
  run 0 -p build unlisted.cu
  has "^rooflint: note: 'unlisted.cu' is not in the compilation database: its compile command is inferred from another file's \(add it to the build, or pass 'unlisted.cu -- FLAGS'\)\$" err
  has "unlisted.cu:26:23: remark: kernel 'sgemm' is compute-bound"
  run 0 -p build "$inputs/rooflint-bound.cu"
  lacks "is not in the compilation database" err
}

# A 100,000-term expression overflows clang's stack: that file is reported as crashed, the next one is
# still analysed, and the exit status says a file crashed.
case_crash_is_contained() {
  python3 -c "print('int f() { int a = 1; return ' + ' + '.join(['a'] * 100000) + '; }')" > deep.cpp
  run 6 deep.cpp "$inputs/rooflint-uncoalesced.cu" --manifest m.json -- "${flags[@]}"
  # Under AddressSanitizer with abort_on_error (scripts/sanitize.sh) ASan catches the worker's SIGSEGV,
  # reports the stack overflow and aborts: the worker dies of SIGABRT instead.
  local signal="Segmentation fault"
  [[ ${ASAN_OPTIONS:-} == *abort_on_error=1* ]] && signal="Aborted"
  has "error: the analysis of 'deep.cpp' failed: it crashed \($signal\); the other files go on" err
  has "rooflint-uncoalesced.cu:8:5: warning"
  [[ -s m.json ]] || fail "the manifest of the other files was not written"
}

# --- outputs ----------------------------------------------------------------------------------------
# A file-size limit smaller than the SARIF (its rules' help alone is larger than 8 KiB): the write
# fails, the old file stays whole, and the message names the file and the reason.
case_outputs_are_written_whole_or_not_at_all() {
  printf 'old\n' > s.sarif
  printf 'old\n' > m.json
  ( ulimit -f 8; "$rooflint" --sarif s.sarif --manifest m.json "$inputs/rooflint-uncoalesced.cu" -- "${flags[@]}" ) >out 2>err
  local status=$?
  [[ $status -eq 5 ]] || { cat err >&2; fail "exit status $status, expected 5 (an output failed)"; }
  has "error: cannot write 's.sarif': File too large" err
  lacks "LLVM ERROR" err
  [[ $(cat s.sarif) == old ]] || fail "the old SARIF was not kept"
  [[ $(cat m.json) != old ]] || fail "the manifest (small enough) should have been written"
  [[ -z $(ls -A | grep '\.tmp') ]] || fail "a temporary file was left: $(ls)"
  # Into a directory that is a file: the same kind of message.
  printf 'x' > notadir
  run 5 --manifest notadir/m.json "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  has "error: cannot write 'notadir/m.json'" err
}

case_depfile() {
  run 0 --manifest m.json --depfile m.d "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  head -1 m.d | grep -qx 'm.json: \\' || fail "the depfile's target is not the manifest: $(head -1 m.d)"
  grep -q "^  $inputs/rooflint-bound.cu" m.d || fail "the source is not a dependency"
  grep -q "dsl/include/rooflint/dsl.h" m.d || fail "an included header is not a dependency"
}

case_sarif_validates_against_the_schema() {
  mkdir -p repo/src
  cp "$inputs/rooflint-uncoalesced.cu" "$inputs/rooflint-bound.cu" "$inputs/cuda_mock.h" repo/src/
  run 0 --sarif a.sarif --sarif-root repo --doc-url-base https://example.org/rooflint/docs/diagnostics \
    repo/src/rooflint-uncoalesced.cu repo/src/rooflint-bound.cu -- "${flags[@]}"
  python3 "$src/tests/analyzer/check_sarif.py" "$src/third_party/sarif-2.1.0/sarif-schema-2.1.0.json" a.sarif \
    --root "$work/repo" --help-uri-base https://example.org/rooflint/docs/diagnostics || fail "a.sarif"
  # Again: the same results and the same fingerprints.
  run 0 --sarif b.sarif --sarif-root repo --doc-url-base https://example.org/rooflint/docs/diagnostics \
    repo/src/rooflint-uncoalesced.cu repo/src/rooflint-bound.cu -- "${flags[@]}"
  cmp a.sarif b.sarif || fail "a second run wrote another SARIF"
  # Without --doc-url-base: no helpUri at all (a relative one is refused by GitHub).
  run 0 --sarif c.sarif --sarif-root repo repo/src/rooflint-uncoalesced.cu -- "${flags[@]}"
  python3 "$src/tests/analyzer/check_sarif.py" "$src/third_party/sarif-2.1.0/sarif-schema-2.1.0.json" c.sarif \
    --root "$work/repo" || fail "c.sarif"
  ! grep -q helpUri c.sarif || fail "helpUri without --doc-url-base"
  run 2 --sarif d.sarif --doc-url-base docs/diagnostics repo/src/rooflint-bound.cu -- "${flags[@]}"
  has "--doc-url-base must be an absolute URL" err
}

# Moving the code down a few lines changes the regions, not the fingerprints.
case_sarif_fingerprints_survive_moved_lines() {
  cp "$inputs/rooflint-uncoalesced.cu" "$inputs/cuda_mock.h" .
  run 0 --sarif a.sarif rooflint-uncoalesced.cu -- "${flags[@]}"
  { printf '// one\n// two\n'; cat "$inputs/rooflint-uncoalesced.cu"; } > rooflint-uncoalesced.cu
  run 0 --sarif b.sarif rooflint-uncoalesced.cu -- "${flags[@]}"
  python3 - a.sarif b.sarif <<'EOF' || fail "fingerprints changed"
import json, sys
a, b = (json.load(open(p))["runs"][0]["results"] for p in sys.argv[1:])
assert len(a) == len(b) > 0
for x, y in zip(a, b):
    assert x["partialFingerprints"] == y["partialFingerprints"], (x, y)
    assert y["locations"][0]["physicalLocation"]["region"]["startLine"] == x["locations"][0]["physicalLocation"]["region"]["startLine"] + 2
assert len({r["partialFingerprints"]["rooflintResult/v1"] for r in a}) == len(a), "fingerprints not unique"
EOF
}

# --- rooflint-summary -------------------------------------------------------------------------------
case_summary() {
  run 0 --manifest m.json "$inputs/rooflint-bound.cu" "$inputs/rooflint-expectation.cu" -- "${flags[@]}"
  "$summary" m.json > table.txt || fail "rooflint-summary m.json"
  # H200 datasheet: 4.8 TB/s, FP32 66.9 TFLOP/s; sgemm at N = 4096: 2*4096^3 / (12*4096^2) = 682.67
  # FLOP/byte, floor 2*4096^3 / 66.9e12 = 2.05 ms.
  [[ $(grep -c '^Peaks: ' table.txt) -eq 1 ]] || fail "the peaks are not said once"
  grep -q '^Peaks: H200 (datasheet peaks): DRAM 4.8 TB/s; FP32 66.9 TFLOP/s$' table.txt || fail "peaks: $(head -1 table.txt)"
  # Its kernels' bodies are empty (cuda_mock.h): no traffic is predicted at any level, '-', and under
  # the table why, once for the kernel's three tensors.
  grep -qE '^sgemm +compute-bound +683 +2.05 ms +- +- +- +0$' table.txt || fail "sgemm row: $(cat table.txt)"
  grep -qx 'Not predicted:' table.txt || fail "no section of the reasons: $(cat table.txt)"
  grep -qE "^  sgemm: 'A', 'B', 'C' at L1, L2, DRAM: the assumed launch " table.txt || fail "sgemm's reason: $(cat table.txt)"
  # small: N = 64, intensity 64/6 = 10.7 FLOP/byte, below the ridge; its expectation warning is counted.
  grep -qE '^small +memory-bound +10.7 +.* +1 \(rooflint-expectation\)$' table.txt || fail "small row: $(cat table.txt)"
  "$summary" --markdown m.json m.json > table.md || fail "rooflint-summary --markdown"
  [[ $(grep -c '^Peaks: ' table.md) -eq 1 ]] || fail "a file named twice is read once, its peaks said once"
  grep -q '^| kernel | bound | arithmetic intensity (FLOP/byte) | floor | DRAM | L2 | L1 | warnings |$' table.md || fail "markdown header"
  grep -q '^| sgemm | compute-bound | 683 | 2.05 ms | - | - | - | 0 |$' table.md || fail "markdown row: $(cat table.md)"
  # A column of figures is right-aligned (the floor); one with words among them is not (N/6, the
  # warnings named), nor one of '-' alone.
  grep -q '^|---|---|---|---:|---|---|---|---|$' table.md || fail "markdown alignment: $(cat table.md)"
  # A region (manifest version 3): its row says so, and counts the body warnings of its kernels (the
  # gather's stride-33 read: one rooflint-uncoalesced).
  cat > region.cu <<'CU'
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void scale(const float* x, float* t, int n) { const int i = threadIdx.x; if (i < n) t[i] = 2 * x[i]; }
__global__ void gather(const float* t, float* y, int n) { const int i = threadIdx.x; if (i < n) y[i] = t[i * 33]; }
inline constexpr auto two_pass = region<scale, gather>("two_pass", unary(0, in("x", f32, N), out("y", f32, N)))
    .at(N(1 << 20)).expect(memory_bound);
CU
  run 0 --manifest r.json region.cu -- "${flags[@]}"
  "$summary" r.json > region.txt || fail "rooflint-summary r.json"
  grep -qE '^two_pass \(region\) +memory-bound +0 +.* +1 \(rooflint-uncoalesced\)$' region.txt || fail "region row: $(cat region.txt)"
  # Two warnings of one name: counted once with their number.
  cat > twice.cu <<'CU'
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void twice(const float* x, float* y, int n) {
  const int i = threadIdx.x;
  if (i < n) y[i * 33] = x[i];
  if (i < n) y[i * 65 + 1] = x[i];
}
inline constexpr auto twice_spec = kernel<twice>("twice", custom(0, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 20));
CU
  run 0 --manifest twice.json twice.cu -- "${flags[@]}"
  "$summary" twice.json > twice.txt || fail "rooflint-summary twice.json"
  grep -qE '^twice +.* 2 \(2 rooflint-uncoalesced\)$' twice.txt || fail "twice row: $(cat twice.txt)"
  printf '{"schema": "other"}' > bad.json
  "$summary" bad.json 2>err && fail "a file that is not a manifest was accepted"
  grep -q "manifest 'bad.json': not a rooflint manifest" err || fail "message: $(cat err)"
  "$summary" >/dev/null 2>err; [[ $? -eq 2 ]] || fail "no argument should be exit status 2"
  grep -q '^rooflint-summary: error: files is required' err || fail "no argument: $(cat err)"
  # The same kernels for two GPUs: a GPU column tells their rows apart (A100 datasheet: 1.555 TB/s, FP32
  # 19.5 TFLOP/s; sgemm's floor 2*4096^3 / 19.5e12 = 7.05 ms); the same GPU in two files: a file column.
  run 0 --gpu A100 --manifest a100.json "$inputs/rooflint-bound.cu" "$inputs/rooflint-expectation.cu" -- "${flags[@]}"
  "$summary" m.json a100.json > gpus.txt || fail "rooflint-summary m.json a100.json"
  grep -qE '^kernel +GPU +bound ' gpus.txt || fail "no GPU column: $(cat gpus.txt)"
  grep -qE '^sgemm +H200 +compute-bound +683 +2.05 ms +- +- +- +0$' gpus.txt || fail "H200 row: $(cat gpus.txt)"
  grep -qE '^sgemm +A100 [^ ]* *compute-bound +683 +7.05 ms +- +- +- +0$' gpus.txt || fail "A100 row: $(cat gpus.txt)"
  # Two specs of one kernel name in one file (a spec template's instantiations): a spec column.
  cat > tmpl.cu <<'CU'
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
template <class T> __global__ void axpy(T a, const T* x, T* y, int n) { const int i = threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }
template __global__ void axpy<float>(float, const float*, float*, int);
template __global__ void axpy<double>(double, const double*, double*, int);
template <class T>
inline constexpr auto axpy_spec = kernel<axpy<T>>("axpy", elementwise(2, in<1>("x", dtype_of<T>, N), inout<2>("y", dtype_of<T>, N))).at(N(1 << 24));
inline constexpr auto axpy_f32 = axpy_spec<float>;
inline constexpr auto axpy_f64 = axpy_spec<double>;
CU
  run 0 --manifest t.json tmpl.cu -- "${flags[@]}"
  "$summary" t.json > tmpl.txt || fail "rooflint-summary t.json"
  grep -qE '^kernel +spec +bound ' tmpl.txt || fail "no spec column: $(cat tmpl.txt)"
  grep -qE '^axpy +axpy_f32 +memory-bound ' tmpl.txt && grep -qE '^axpy +axpy_f64 +memory-bound ' tmpl.txt ||
    fail "spec rows: $(cat tmpl.txt)"
  cp m.json m2.json
  "$summary" m.json m2.json > files.txt || fail "rooflint-summary m.json m2.json"
  grep -qE '^kernel +manifest +bound ' files.txt || fail "no manifest column: $(cat files.txt)"
  grep -qE '^sgemm +m2.json +compute-bound ' files.txt || fail "m2.json row: $(cat files.txt)"
  [[ $(grep -c '^Peaks: ' files.txt) -eq 1 ]] || fail "two manifests of the same peaks should say them once: $(cat files.txt)"
  # A directory and a file in it: the file's rows once.
  mkdir -p both && cp m.json both/m.rooflint.json
  "$summary" both ./both/m.rooflint.json > both.txt || fail "rooflint-summary both both/m.rooflint.json"
  [[ $(grep -cE '^sgemm +compute-bound ' both.txt) -eq 1 ]] || fail "a file named twice: $(cat both.txt)"
  # Two files' kernels of one name in one manifest (a `scale` in each of two directories): a source
  # column, each path cut to what tells them apart, and each reason under the table says which.
  mkdir -p a b
  for dir in a b; do
    cat > $dir/k.cu <<'CU'
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void scale(const float* x, float* y, int n) { const int i = threadIdx.x; if (i < n) y[i] = 2 * x[i]; }
inline constexpr auto scale_spec = kernel<scale>("scale", unary(0, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 20));
CU
  done
  run 0 --manifest two.json a/k.cu b/k.cu -- "${flags[@]}"
  "$summary" two.json > two.txt || fail "rooflint-summary two.json"
  grep -qE '^kernel +source +bound ' two.txt || fail "no source column: $(cat two.txt)"
  grep -qE '^scale +a/k.cu:5 +memory-bound ' two.txt && grep -qE '^scale +b/k.cu:5 +memory-bound ' two.txt ||
    fail "source rows: $(cat two.txt)"
  # (no .block or .grid: the assumed launch writes 256 of y's elements, not all, so nothing is predicted)
  grep -qE '^  scale \(a/k.cu:5\): ' two.txt || fail "the reasons do not say which scale: $(cat two.txt)"
  # The SARIF file beside a manifest (its "version" is the string "2.1.0") and a manifest whose version
  # is a string are no manifests: exit status 3 with the message, as for any other file (both aborted
  # with an uncaught type_error, exit status 134).
  run 0 --sarif s.sarif "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  printf '{"schema": "rooflint-manifest", "version": "4", "kernels": []}' > v.json
  local file status
  for file in s.sarif v.json; do
    "$summary" "$file" >/dev/null 2>err; status=$?
    [[ $status -eq 3 ]] || fail "rooflint-summary $file: exit status $status, expected 3: $(cat err)"
    grep -qE "manifest '$file': (not a rooflint manifest|'version' must be an integer)" err ||
      fail "rooflint-summary $file: $(cat err)"
  done
}

# summary_status EXPECTED FILE...: rooflint-summary's exit status on the files, bounded in time (a FIFO
# would block an open) and in memory (/dev/zero read whole would fill it): 4 GB of address space, except
# under AddressSanitizer (scripts/sanitize.sh), which reserves more than that for its shadow memory.
summary_status() {
  local want=$1; shift
  ( [[ -n ${ASAN_OPTIONS:-} ]] || ulimit -v 4000000; timeout 60 "$summary" "$@" ) >out 2>err
  local got=$?
  [[ $got -eq $want ]] || { cat err >&2; fail "rooflint-summary $*: exit status $got, expected $want (124: it hung)"; }
}

# Files that are not manifests are exit 3 with a message naming the file, never an abort (134), a
# hang or memory exhausted: header fields of another JSON type, a directory, a FIFO, a device. A table
# that cannot be written (a full disk: /dev/full) is exit 5, not 0.
case_summary_hostile_inputs() {
  local header
  for header in '"schema": "rooflint-manifest", "version": null' '"schema": "rooflint-manifest", "version": [4]' \
                '"schema": "rooflint-manifest", "version": {"v": 4}' '"schema": "rooflint-manifest", "version": "4"' \
                '"schema": "rooflint-manifest", "version": 4.5' '"schema": 7, "version": 4' '"schema": null, "version": 4'; do
    printf '{%s, "kernels": [], "peaks": {}}' "$header" > hostile.json
    summary_status 3 hostile.json
    has "^rooflint-summary: error: manifest 'hostile.json': (not a rooflint manifest: 'schema' is|'version' must be an integer)" err
  done
  mkdir adir
  summary_status 3 adir
  has "^rooflint-summary: error: 'adir': no \\*\\.rooflint\\.json below this directory" err  # read as --manifest reads one
  summary_status 3 /dev/zero
  has "^rooflint-summary: error: cannot read '/dev/zero': not a regular file" err
  mkfifo fifo.json
  summary_status 3 fifo.json
  has "^rooflint-summary: error: cannot read 'fifo.json': not a regular file" err
  summary_status 3 missing.json
  has "^rooflint-summary: error: cannot read 'missing.json': No such file or directory\$" err
  run 0 --manifest m.json "$inputs/rooflint-bound.cu" -- "${flags[@]}"
  ( "$summary" m.json >/dev/full ) 2>err
  local status=$?
  [[ $status -eq 5 ]] || fail "a table written to a full disk: exit status $status, expected 5"
  has "^rooflint-summary: error: cannot write the table to the standard output: No space left on device\$" err
}

"case_$case_name"
