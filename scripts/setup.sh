#!/usr/bin/env bash
# Installs every build dependency of rooflint from Debian's packages.
# Idempotent and quiet: does nothing (and prints nothing) when all is present.
# The CUDA 13 toolkit is expected on the machine already; CMake finds it (CUDAToolkit).
set -euo pipefail

packages=(
  cmake ninja-build g++
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev   # the analyzer (LibTooling)
  libclang-rt-19-dev                                        # libFuzzer and sanitizer runtimes (tests/fuzz, scripts/sanitize.sh)
  libomp-19-dev                                             # omp.h in clang 19's resource dir: CUDA sources that include it parse (nvcc finds GCC's)
  librange-v3-dev libgtest-dev nlohmann-json3-dev libfmt-dev
  libcli11-dev                                              # the command line of rooflint-summary and the runtime tools
  python3 python3-jsonschema                                # tests: SARIF against its JSON schema
  python3-yaml                                              # tests: the CI workflow of examples/ci
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "rooflint setup: installing ${missing[*]}"
SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
