#!/usr/bin/env bash
# The precompiled CUDA prefix (analyzer/lib/PchCache.cpp) changes nothing but the time: one function per
# case, run by CTest as
#   pch_cache_test.sh CASE ROOFLINT SOURCE_DIR
# The files are real CUDA (examples and the traffic corpus), so the cases need the CUDA toolkit; without
# one they exit 77 (CTest: skipped). Each case works in a fresh temporary directory and fails with a
# message saying what differed.
set -uo pipefail

case_name=$1 rooflint=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cuda=${CUDA_PATH:-/usr/local/cuda}
if [[ ! -f $cuda/include/cuda_runtime.h ]]; then
  echo "SKIP: no CUDA toolkit at $cuda (set CUDA_PATH)"
  exit 77
fi

flags=(-std=c++20 "-I$src/dsl/include" "-I$src/model/include" "-I$src/files/include" "-I$src/runtime/include" "-I$src/examples"
       "-I$src/tests/analyzer/traffic_corpus" -DROOFLINT_CORPUS_REAL_CUDA)
# Examples with a shared header, a GEMM, a multi-pass row kernel and corpus files: the prefix is the
# same for all (one set of flags), what follows it differs.
files=("$src/examples/sgemm/sgemm.cu" "$src/examples/softmax/softmax.cu" "$src/examples/reduction/reduction.cu"
       "$src/tests/analyzer/traffic_corpus/reread.cu" "$src/tests/analyzer/traffic_corpus/indexing.cu")

fail() { echo "FAIL ($case_name): $*" >&2; exit 1; }

# analyse NAME ARGS...: the whole run (all files, -j 2) in $work/run, its outputs then moved to NAME/:
# out (stdout and stderr, the status last), m.json (the manifest), m.json.d (its depfile, which names
# the manifest), s.sarif. One directory for all runs: the working directory is part of the PCH's key
# (relative -I paths).
analyse() {
  local name=$1; shift
  mkdir -p "$work/run" "$work/$name"
  (cd "$work/run" && "$rooflint" -j 2 --manifest m.json --depfile m.json.d --sarif s.sarif --sarif-root="$work" \
      "$@" "${files[@]}" -- "${flags[@]}" >out 2>&1; echo "status $?" >>out)
  mv "$work/run/out" "$work/run/m.json" "$work/run/m.json.d" "$work/run/s.sarif" "$work/$name/"
}

# same A B: every output of run A is byte for byte the one of run B.
same() {
  local f
  for f in out m.json m.json.d s.sarif; do
    cmp -s "$work/$1/$f" "$work/$2/$f" ||
      { diff "$work/$1/$f" "$work/$2/$f" | head -20 >&2; fail "$1/$f and $2/$f differ"; }
  done
}

# pch_line ARGS... FILE: what the cache did for one file, as a worker says it (ROOFLINT_TRAFFIC_TIME).
pch_line() {
  local file=${*: -1} args=("${@:1:$#-1}")
  ROOFLINT_TRAFFIC_TIME=1 "$rooflint" --rooflint-worker --color=never "${args[@]}" "$file" -- "${flags[@]}" \
      2>&1 >/dev/null | grep -a "^rooflint: pch: " || echo "(no pch line)"
}

# worker_result ARGS... FILE: a worker's result (its JSON, the dependencies sorted: their order is a hash
# set's), one key a line.
worker_result() {
  local file=${*: -1} args=("${@:1:$#-1}")
  "$rooflint" --rooflint-worker --color=never "${args[@]}" "$file" -- "${flags[@]}" 2>/dev/null |
      python3 -c 'import json, sys
r = json.load(sys.stdin); r["dependencies"].sort()
for k in sorted(r): print(k, json.dumps(r[k], sort_keys=True))'
}

pch_count() { find "$work/cache" -name '*.pch' 2>/dev/null | wc -l; }
tmp_count() { find "$work/cache" -name '*.tmp' 2>/dev/null | wc -l; }

# Cold (empty cache), warm (the PCH written by the cold run) and disabled: the same diagnostics, exit
# status, manifest (predicted traffic included), depfile and SARIF.
case_cold_warm_and_disabled_are_identical() {
  analyse plain --no-pch-cache
  grep -q "status 0" plain/out || { cat plain/out >&2; fail "the plain run did not succeed"; }
  grep -q '"kernels"' plain/m.json || fail "the manifest lists no kernels"
  grep -q 'cuda_runtime.h' plain/m.json.d || fail "the depfile does not list the CUDA headers"
  analyse cold --pch-cache-dir="$work/cache"
  # One per file: each holds the file's preamble (its #include lines) after the shared prefix.
  [[ $(pch_count) -eq ${#files[@]} ]] || fail "expected ${#files[@]} PCHs (one per file), found $(pch_count)"
  [[ $(tmp_count) -eq 0 ]] || fail "temporary files left in the cache"
  analyse warm --pch-cache-dir="$work/cache"
  [[ $(pch_count) -eq ${#files[@]} ]] || fail "the warm run wrote another PCH"
  same plain cold
  same plain warm
  # The warm run did load it (the line a normal run does not print).
  local line
  line=$(cd "$work/run" && pch_line --pch-cache-dir="$work/cache" "${files[0]}")
  [[ $line == "rooflint: pch: warm, preamble ("*".pch)" ]] || fail "the second run did not use the PCH: $line"
  # And nothing about the cache in a normal run's output.
  ! grep -qi "pch" warm/out || fail "a normal run mentions the PCH"
}

# With a core to spare (a worker evaluating on two threads), a cold run writes the PCH on another thread
# while the file is analysed without it: its outputs are those of a run without the cache (the depfile
# included), and the next run loads the PCH. On one thread it is written first and loaded at once.
case_built_beside_the_analysis() {
  local f=${files[0]} line
  worker_result --no-pch-cache "$f" >plain
  grep -q '^kernels \[{' plain || fail "the plain worker wrote no result"
  line=$(pch_line --rooflint-evaluation-threads=2 --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built "*" s beside the analysis" ]] || fail "not built beside: $line"
  [[ $(pch_count) -eq 1 && $(tmp_count) -eq 0 ]] || fail "expected one PCH and no temporary file"
  line=$(pch_line --rooflint-evaluation-threads=2 --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: warm, preamble ("*".pch)" ]] || fail "the PCH built beside is not used: $line"
  worker_result --rooflint-evaluation-threads=2 --pch-cache-dir="$work/cache" "$f" >warm
  cmp -s plain warm || { diff plain warm | head >&2; fail "the warm worker's result differs from the plain one's"; }
  rm -rf "$work/cache"
  worker_result --rooflint-evaluation-threads=2 --pch-cache-dir="$work/cache" "$f" >beside
  cmp -s plain beside || { diff plain beside | head >&2; fail "the result of the run that built the PCH beside differs"; }
  rm -rf "$work/cache"
  line=$(pch_line --rooflint-evaluation-threads=1 --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built "*" s" ]] || fail "on one thread: $line"
}

# Analyzers filling an empty cache at once (parallel builds): two on different files, two on the same
# file (both write the same PCH); every output is that of a run without the cache, one PCH per file is
# left and no temporary file.
case_concurrent_writers() {
  "$rooflint" --no-pch-cache "${files[0]}" -- "${flags[@]}" >a.plain 2>&1
  "$rooflint" --no-pch-cache "${files[1]}" -- "${flags[@]}" >b.plain 2>&1
  "$rooflint" --pch-cache-dir="$work/cache" "${files[0]}" -- "${flags[@]}" >a.cached 2>&1 &
  local first=$!
  "$rooflint" --pch-cache-dir="$work/cache" "${files[1]}" -- "${flags[@]}" >b.cached 2>&1 &
  local second=$!
  "$rooflint" --pch-cache-dir="$work/cache2" "${files[0]}" -- "${flags[@]}" >c.cached 2>&1 &
  local third=$!
  "$rooflint" --pch-cache-dir="$work/cache2" "${files[0]}" -- "${flags[@]}" >d.cached 2>&1 &
  local fourth=$!
  wait "$first" || fail "the first analyzer failed"
  wait "$second" || fail "the second analyzer failed"
  wait "$third" || fail "the third analyzer failed"
  wait "$fourth" || fail "the fourth analyzer failed"
  cmp -s a.plain a.cached || { diff a.plain a.cached | head >&2; fail "the first file's output changed"; }
  cmp -s b.plain b.cached || { diff b.plain b.cached | head >&2; fail "the second file's output changed"; }
  cmp -s a.plain c.cached || { diff a.plain c.cached | head >&2; fail "the third analyzer's output changed"; }
  cmp -s a.plain d.cached || { diff a.plain d.cached | head >&2; fail "the fourth analyzer's output changed"; }
  [[ $(pch_count) -eq 2 ]] || fail "expected two PCHs, found $(pch_count)"
  [[ $(find "$work/cache2" -name '*.pch' | wc -l) -eq 1 ]] || fail "expected one PCH for the same file"
  [[ $(find "$work/cache2" -name '*.tmp' | wc -l) -eq 0 ]] || fail "temporary files left in the cache"
  [[ $(tmp_count) -eq 0 ]] || fail "temporary files left in the cache"
}

# A PCH clang refuses is never used: a corrupted file, and a valid PCH of other flags put in its place
# (clang's strict option check: a macro defined in it and not on the command line, which the load alone
# tolerates), are each rebuilt, with the output of a run without the cache.
case_refused_pch_is_rebuilt() {
  local f=${files[3]}
  "$rooflint" --no-pch-cache "$f" -- "${flags[@]}" >plain 2>&1
  local line
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built "* ]] || fail "the first run did not build the PCH: $line"
  local pch
  pch=$(find "$work/cache" -name '*.pch')
  # Corrupted.
  head -c 4096 /dev/urandom >"$pch"
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built $pch in "* ]] || fail "a corrupted PCH was not rebuilt: $line"
  "$rooflint" --pch-cache-dir="$work/cache" "$f" -- "${flags[@]}" >after-corrupt 2>&1
  cmp -s plain after-corrupt || { diff plain after-corrupt | head >&2; fail "output changed after a corrupted PCH"; }
  # Another configuration's PCH under this name.
  ROOFLINT_TRAFFIC_TIME=1 "$rooflint" --rooflint-worker --color=never --pch-cache-dir="$work/other" "$f" -- \
      "${flags[@]}" -DROOFLINT_PCH_TEST_MACRO=1 >/dev/null 2>&1
  local other
  other=$(find "$work/other" -name '*.pch')
  [[ -n $other && $(basename "$other") != $(basename "$pch") ]] || fail "a -D did not change the PCH's name"
  cp "$other" "$pch"
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built $pch in "* ]] || fail "another configuration's PCH was not rebuilt: $line"
  "$rooflint" --pch-cache-dir="$work/cache" "$f" -- "${flags[@]}" >after-swap 2>&1
  cmp -s plain after-swap || { diff plain after-swap | head >&2; fail "output changed after a swapped PCH"; }
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: warm, preamble ($pch)" ]] || fail "the rebuilt PCH is not used: $line"
}

# A FIFO named like the PCH, or like its dependencies file, is never opened (the open would wait for a
# writer for ever): it is removed and the PCH built in its place, with the output of a run without the
# cache. Each run is bounded by 'timeout', so a hang fails the case instead of stopping CTest.
case_a_fifo_in_the_cache_is_replaced() {
  local f=${files[4]}
  "$rooflint" --no-pch-cache "$f" -- "${flags[@]}" >plain 2>&1
  local line pch
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built "* ]] || fail "the first run did not build the PCH: $line"
  pch=$(find "$work/cache" -name '*.pch')
  for fifo in "$pch" "$pch.deps"; do
    rm -f "$fifo" && mkfifo "$fifo" || fail "cannot make a FIFO at $fifo"
    timeout 120 "$rooflint" --pch-cache-dir="$work/cache" "$f" -- "${flags[@]}" >after 2>&1
    local status=$?
    [[ $status -ne 124 ]] || fail "the analysis hung on the FIFO $fifo"
    cmp -s plain after || { diff plain after | head >&2; fail "output changed with the FIFO $fifo"; }
    [[ -f $pch && -f $pch.deps ]] || fail "the FIFO $fifo was not replaced by a regular file"
  done
}

# A cache that cannot be written (its directory's parent is a file): the file is analysed without it,
# silently; --no-pch-cache and ROOFLINT_NO_PCH_CACHE=1 turn it off.
case_unwritable_cache_and_off_switches() {
  local f=${files[4]}
  "$rooflint" --no-pch-cache "$f" -- "${flags[@]}" >plain 2>&1
  : >"$work/a-file"
  "$rooflint" --pch-cache-dir="$work/a-file/cache" "$f" -- "${flags[@]}" >unwritable 2>&1 ||
      fail "an unwritable cache failed the run"
  cmp -s plain unwritable || { diff plain unwritable | head >&2; fail "an unwritable cache changed the output"; }
  local line
  line=$(pch_line --pch-cache-dir="$work/a-file/cache" "$f")
  [[ $line == "rooflint: pch: not used: cannot create '$work/a-file/cache': "* ]] || fail "unexpected: $line"
  line=$(pch_line --no-pch-cache "$f")
  [[ $line == "rooflint: pch: off (--no-pch-cache)" ]] || fail "--no-pch-cache: $line"
  line=$(ROOFLINT_NO_PCH_CACHE=1 pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: off (--no-pch-cache)" ]] || fail "ROOFLINT_NO_PCH_CACHE=1: $line"
  [[ $(pch_count) -eq 0 ]] || fail "a disabled cache was written"
}

# Writing a PCH removes the cache's PCHs unused for 31 days and temporary files older than a day, then
# the least recently used over the size limit; a warm run marks its PCH used (its modification time).
case_old_files_are_pruned() {
  local f=${files[4]}
  mkdir -p "$work/cache"
  : >"$work/cache/0123456789abcdef0123456789abcdef.pch"
  : >"$work/cache/fedcba9876543210fedcba9876543210.pch"
  : >"$work/cache/x.pch-12345678.tmp"
  touch -d '40 days ago' "$work/cache/0123456789abcdef0123456789abcdef.pch" "$work/cache/x.pch-12345678.tmp"
  touch -d '20 days ago' "$work/cache/fedcba9876543210fedcba9876543210.pch"
  local line
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built "* ]] || fail "not built: $line"
  [[ ! -e $work/cache/0123456789abcdef0123456789abcdef.pch ]] || fail "a PCH unused for 40 days was kept"
  [[ ! -e $work/cache/x.pch-12345678.tmp ]] || fail "an old temporary file was kept"
  [[ -e $work/cache/fedcba9876543210fedcba9876543210.pch ]] || fail "a PCH used 20 days ago was removed"
  local pch
  pch=${line#rooflint: pch: cold, preamble: built }
  pch=${pch% in *}
  touch -d '40 days ago' "$pch"
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: warm, preamble ($pch)" ]] || fail "not used: $line"
  [[ $(find "$pch" -mtime -1 | wc -l) -eq 1 ]] || fail "a warm run did not mark its PCH used"
  # Over the size limit (1 MB here), the least recently used go first: writing another file's PCH
  # leaves that one alone.
  touch -d '2 days ago' "$pch" "$pch.deps"
  line=$(ROOFLINT_PCH_CACHE_MAX_MB=1 pch_line --pch-cache-dir="$work/cache" "${files[3]}")
  [[ $line == "rooflint: pch: cold, preamble: built "* ]] || fail "not built: $line"
  local newest=${line#rooflint: pch: cold, preamble: built }
  newest=${newest% in *}
  [[ ! -e $pch && ! -e $pch.deps ]] || fail "the least recently used PCH was kept over the size limit"
  [[ -e $newest && -e $newest.deps ]] || fail "the PCH just written was removed"
}

# A header of the file's preamble changes: clang refuses the PCH (the header's size and time), it is
# rebuilt, and the output is that of a run without the cache on the changed header. A preamble whose
# parse reports something (a #warning) is not cached, the shared prefix is used, and the warning is
# printed as without the cache.
case_changed_header_and_noisy_preamble() {
  mkdir -p "$work/src"
  cat >"$work/src/local.h" <<'H'
#pragma once
inline constexpr int local_width = 4;
H
  cat >"$work/src/a.cu" <<'CU'
#include "local.h"
#include "rooflint/dsl.h"
__global__ void copy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i * local_width] = x[i * local_width];
}
CU
  local f=$work/src/a.cu line
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built "* ]] || fail "no preamble PCH built: $line"
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: warm, preamble ("* ]] || fail "the preamble PCH is not used: $line"
  printf '#pragma once\ninline constexpr int local_width = 1;  // now coalesced\n' >"$work/src/local.h"
  "$rooflint" --no-pch-cache "$f" -- "${flags[@]}" >plain 2>&1
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: cold, preamble: built "* ]] || fail "a changed header did not rebuild: $line"
  "$rooflint" --pch-cache-dir="$work/cache" "$f" -- "${flags[@]}" >cached 2>&1
  cmp -s plain cached || { diff plain cached | head >&2; fail "output differs after a header changed"; }
  # Noisy preamble.
  printf '#pragma once\n#warning "local.h is deprecated"\ninline constexpr int local_width = 4;\n' >"$work/src/local.h"
  "$rooflint" --no-pch-cache "$f" -- "${flags[@]}" >plain 2>&1
  grep -q "local.h is deprecated" plain || fail "the warning is not printed without the cache"
  line=$(pch_line --pch-cache-dir="$work/cache" "$f")
  [[ $line =~ ^rooflint:\ pch:\ (cold:\ built|warm\ \() ]] || fail "a noisy preamble did not fall back to the prefix: $line"
  "$rooflint" --pch-cache-dir="$work/cache" "$f" -- "${flags[@]}" >cached 2>&1
  cmp -s plain cached || { diff plain cached | head >&2; fail "output differs with a noisy preamble"; }
  # With a core to spare: the prefix's PCH, cached, runs the file while the preamble's is tried beside it.
  line=$(pch_line --rooflint-evaluation-threads=2 --pch-cache-dir="$work/cache" "$f")
  [[ $line == "rooflint: pch: warm ("*".pch); not built beside: the prefix's parse reported "*"local.h is deprecated"* ]] ||
      fail "with two threads, a noisy preamble did not use the prefix's PCH: $line"
}

# A header through a relative -I path (-Ikernels, then -I./kernels): its kernel's diagnostics and the
# manifest (the kernel's location, its accesses') name it by one absolute path whether the header came
# from the PCH or was parsed, and the include stack is the same.
case_a_header_is_named_alike_from_the_pch_or_its_include_path() {
  mkdir -p "$work/proj/kernels"
  cat >"$work/proj/kernels/strided.cuh" <<'H'
#pragma once
__global__ void strided(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * 8 % n];
}
H
  cat >"$work/proj/main.cu" <<'CU'
#include "rooflint/dsl.h"
#include "strided.cuh"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr auto strided_spec =
    kernel<strided>("strided", unary(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(arg<2>)).at(N(1 << 24));
CU
  cd "$work/proj" || fail "no project directory"
  local header line include
  header=$(realpath "$work/proj/kernels/strided.cuh")
  for include in -Ikernels -I./kernels; do
    rm -rf "$work/cache"
    "$rooflint" --no-pch-cache --manifest plain.json main.cu -- "${flags[@]}" "$include" >plain 2>&1
    grep -q "^$header:" plain || { cat plain >&2; fail "$include: no diagnostic names the header by its absolute path"; }
    grep -q "\"file\": *\"$header\"" plain.json || fail "$include: the manifest does not name the header by its absolute path"
    grep -q "^In file included from $(realpath main.cu):2:\$" plain || fail "$include: no include stack"
    line=$(flags+=("$include"); pch_line --pch-cache-dir="$work/cache" main.cu)
    [[ $line == "rooflint: pch: cold, preamble: built "* ]] || fail "$include: the preamble was not cached: $line"
    "$rooflint" --pch-cache-dir="$work/cache" --manifest cached.json main.cu -- "${flags[@]}" "$include" >cached 2>&1
    cmp -s plain cached || { diff plain cached | head >&2; fail "$include: the diagnostics differ with the PCH"; }
    cmp -s plain.json cached.json || { diff plain.json cached.json | head >&2; fail "$include: the manifests differ with the PCH"; }
  done
}

# A host function's body in a system header is not parsed (CudaSetup.h, skipsBody): a template whose
# body cannot be instantiated (a static_assert that fails), called from the file's host code, stops
# nvcc but not the analysis of the file's kernels. The same header through -I is the project's own:
# its body is parsed and the static_assert fires, and the analysis then skips that body with a warning
# (HostBodies.h), the kernels analysed.
case_host_bodies_in_system_headers_are_skipped() {
  mkdir -p "$work/proj/sys"
  cat >"$work/proj/sys/host_only.h" <<'H'
#pragma once
template <class T> void host_only() { static_assert(sizeof(T) == 0, "host_only<T> instantiated"); }
template <class T> struct Runner {
  void go() { static_assert(sizeof(T) == 0, "Runner<T>::go instantiated"); }
};
H
  # The kernel and its spec, after the includes of each file here.
  local copy_kernel
  copy_kernel=$(cat <<'CU'
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void copy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
inline constexpr auto copy_spec =
    kernel<copy>("copy", unary(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(arg<2>)).at(N(1 << 24));
CU
)
  cat >"$work/proj/main.cu" <<CU
#include "host_only.h"
#include "rooflint/dsl.h"
$copy_kernel
CU
  cat >>"$work/proj/main.cu" <<'CU'
void launch() { host_only<int>(); }
void run() { Runner<int>{}.go(); }
// Launchers with pasted names (in clang's scratch space, which the headers' pastes fill before them
// without a PCH, and not with one), with spaces in their chevrons, as nvcc takes them.
#define LAUNCHER(name) \
  void launch_##name(const float* x, float* y, int n) { copy << <(n + 255) / 256, 256 >> > (x, y, n); }
LAUNCHER(a)
LAUNCHER(b)
CU
  cd "$work/proj" || fail "no project directory"
  "$rooflint" --no-pch-cache main.cu -- "${flags[@]}" -isystem sys >system 2>&1 ||
    { cat system >&2; fail "the analysis stopped at a host body in a system header"; }
  grep -q "kernel 'copy' is memory-bound" system || { cat system >&2; fail "no verdict for the kernel"; }
  # A project header's body is parsed: its static_assert fires. The device side does not need it, so
  # the analysis skips it then, and says so (HostBodies.h).
  "$rooflint" --no-pch-cache main.cu -- "${flags[@]}" -Isys >project 2>&1 || { cat project >&2; fail "a failed host body stopped the analysis"; }
  grep -q "skipped the body of host function 'host_only' (.*), where clang 19 reported errors (the first: .*host_only<T> instantiated" project ||
    { cat project >&2; fail "the project header's static_assert did not fire"; }
  # A class template's member is named as its template, whether the walk met the template (parsed
  # here) or only its instantiation (the template read from a PCH).
  grep -q "skipped the body of host function 'Runner::go' (.*sys/host_only.h:4:8)" project || { cat project >&2; fail "no warning for Runner::go"; }
  [[ $(grep -c "skipped the body" project) -eq 4 ]] || { cat project >&2; fail "expected four skipped bodies"; }
  # With the cache, cold then warm: the preamble's PCH holds the header, clean until main.cu
  # instantiates its templates, so the parse that skips their bodies reads the header itself; the
  # pasted names are the same functions with and without a PCH.
  local run
  for run in cold warm; do
    "$rooflint" --pch-cache-dir=cache main.cu -- "${flags[@]}" -Isys >"$run" 2>&1 || { cat "$run" >&2; fail "$run: a failed host body stopped the analysis"; }
    cmp -s project "$run" || { diff project "$run" >&2; fail "$run: another output than without the cache"; }
  done
  [[ -n $(ls cache/*.pch 2>/dev/null) ]] || fail "nothing was cached"
  # Bodies of the main file alone: the parse that skips them loads the preamble's PCH, which holds
  # none of the file's bodies, once a run has cached it.
  cat >launchers.cu <<CU
#include "rooflint/dsl.h"
$copy_kernel
CU
  cat >>launchers.cu <<'CU'
void launch(const float* x, float* y, int n) { copy << <(n + 255) / 256, 256 >> > (x, y, n); }
CU
  "$rooflint" --pch-cache-dir=cache launchers.cu -- "${flags[@]}" >launchers 2>&1 || { cat launchers >&2; fail "launchers.cu stopped the analysis"; }
  grep -q "skipped the body of host function 'launch'" launchers || { cat launchers >&2; fail "no warning for launch"; }
  local line
  line=$(pch_line --pch-cache-dir=cache launchers.cu)
  [[ $line == "rooflint: pch: warm, preamble ("*".pch)" ]] || fail "the parse that skips the main file's bodies did not load the PCH: $line"
}

"case_$case_name"
