#!/usr/bin/env bash
# Builds the host code and its tests with AddressSanitizer and UndefinedBehaviorSanitizer in a separate
# build directory (build-sanitize, no CUDA) and runs them; any sanitizer report fails the run (UBSan
# halts on the first error). UBSan once found signed overflows in the uncoalesced check.
#   scripts/sanitize.sh                 the analyzer, rooflint-summary and the ceilings file, with their tests
#   scripts/sanitize.sh all             every host target and every test that needs no GPU
#   scripts/sanitize.sh runtime         the CUDA runtime (rooflint-ceilings, rooflint-verify, the injection
#                                       library) and its host tests, in build-sanitize-cuda
# The first two build without CUDA. `runtime` builds with the CUDA toolkit (no GPU needed: the tests that
# need one carry the label gpu and are not run): its C++ (.cpp) is compiled by clang 19 with the
# sanitizers against the CUDA headers; its .cu files (the probes, the timing and the L2 flush) are compiled
# by nvcc with its own host compiler and are not instrumented, which ASan allows (they are linked into
# the instrumented tests). The analyzer and the examples are left out of that build (the first mode covers
# the analyzer). No -fsanitize in the linker flags there: CMake links the CUDA compiler's test program
# with them through nvcc's host g++, records GCC's libasan and libubsan as CUDA's implicit libraries and
# adds them to every link, and the tests then abort at start ("linked against incompatible ASan
# runtimes"). clang++ links with the compile flags, -fsanitize included, which is enough.
# The CuptiHost tests are left out: CUPTI's host API dlopen()s libnvperf_host.so with RTLD_DEEPBIND,
# which ASan refuses (it stops the process: google/sanitizers issue 611).
# The LLVM and clang shared libraries are not instrumented; leak detection is off because LLVM keeps
# some allocations until exit on purpose (its option registry, interned strings).
# The compiler is clang 19 (SANITIZE_CXX to change it): GCC 12's -fsanitize=null (and the nonnull-attribute
# checks) make a pointer comparison in constexpr code non-constant, so the DSL's and the model's
# static_asserts (model::find_peaks at compile time) do not compile under g++ with UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
dir=${SANITIZE_BUILD_DIR:-build-sanitize}
cxx=${SANITIZE_CXX:-clang++-19}
flags="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOFLINT_BUILD_CUDA=OFF \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
if [[ ${1:-} == runtime ]]; then
  dir=${SANITIZE_BUILD_DIR:-build-sanitize-cuda}
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOFLINT_BUILD_CUDA=ON \
    -DROOFLINT_BUILD_ANALYZER=OFF -DROOFLINT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CXX_FLAGS="$flags" >/dev/null
  cmake --build "$dir" -j"${SANITIZE_JOBS:-$(nproc)}" --target rooflint_runtime_tests rooflint_files_tests rooflint_process_tests \
    rooflint-verify rooflint-ceilings rooflint-inject
  ctest --test-dir "$dir" -R '^(rooflint_runtime|rooflint_files|rooflint-verify\.cli|[A-Z][A-Za-z]*\.)' \
    -LE 'gpu|fuzz' -E 'NOT_BUILT|^CuptiHost\.' -j"${SANITIZE_JOBS:-$(nproc)}" --output-on-failure
elif [[ ${1:-} == all ]]; then
  cmake --build "$dir" -j"$(nproc)"
  ctest --test-dir "$dir" -LE 'gpu|fuzz' -j"$(nproc)" --output-on-failure
else
  cmake --build "$dir" -j"$(nproc)" --target rooflint rooflint-summary rooflint_analyzer_tests rooflint_files_tests \
    rooflint_process_tests
  ctest --test-dir "$dir" -R '^(rooflint\.cli|rooflint_files|[A-Z][A-Za-z]*\.)' -LE 'gpu|fuzz' \
    -E 'NOT_BUILT' -j"$(nproc)" --output-on-failure
fi
echo "sanitize: no ASan or UBSan report"
