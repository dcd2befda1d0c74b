#!/usr/bin/env bash
# Builds the tree that scripts/gpu-job.sh runs on the device machine: the CUDA runtime, the examples and
# the tests, without the analyzer (the device has no clang), in Release. The build tree is larger than
# the 64 MiB a device call carries, so its executables (and the injection library) are copied, in the
# same layout (with the cubins the tests correlate), into .carry/gpu, and the analyzer's manifests of the examples (from build/, if built
# there) into .carry/manifests. The PyTorch extension example's kernels (examples/torch_extension/
# kernels.cu) are built by torch on the device, not here: their manifest is made by the analyzer of
# build/ ($ROOFLINT_ANALYZER), as docs/python.md tells a user, into .carry/manifests/torch_extension/
# (gpu-job.sh python; rooflint-verify --manifest .carry/manifests finds it too, and reports its kernels
# as never launched by the other programs). The traffic corpus's manifest (build/tests/analyzer/
# traffic_corpus.rooflint.json, made where the analyzer is built) goes to .carry/corpus, apart from the
# examples' (its many kernels would be reported as never launched by every other program): gpu-job.sh
# traffic and corpus-lines take it as ROOFLINT_TRAFFIC_MANIFEST=.carry/corpus/traffic_corpus.rooflint.json,
# with .carry/corpus carried too. Then, on the device:
#   ROOFLINT_BUILD_DIR=.carry/gpu ROOFLINT_MANIFESTS=.carry/manifests bash scripts/gpu-job.sh full
# with carry [".carry/gpu", ".carry/manifests"]. The CTest tests labelled gpu that need the analyzer's build
# tree (rooflint-verify over the example programs) are written as .carry/gpu/gpu-ctests.sh, with their
# paths mapped onto the copies (scripts/carry-gpu-ctests.py); gpu-job.sh runs it among the GPU tests.
# ROOFLINT_ANALYZER_BUILD: the build tree with the analyzer (default build/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFLINT_BUILD_ANALYZER=OFF >/dev/null
cmake --build build-gpu -j "$(nproc)"
rm -rf .carry/gpu .carry/manifests .carry/corpus
mkdir -p .carry/gpu .carry/manifests
(cd build-gpu && find runtime examples tests -maxdepth 3 -type f \( -perm -u+x -o -name '*.so' -o -name '*.cubin' \) \
   ! -path '*/CMakeFiles/*' ! -path 'tests/fuzz/*' -print) |
  while read -r f; do mkdir -p ".carry/gpu/$(dirname "$f")"; cp "build-gpu/$f" ".carry/gpu/$f"; done
analyzer_build=${ROOFLINT_ANALYZER_BUILD:-build}
find "$analyzer_build/examples" -name '*.rooflint.json' -exec cp {} .carry/manifests/ \; 2>/dev/null || true
if [[ -f $analyzer_build/tests/analyzer/traffic_corpus.rooflint.json ]]; then
  mkdir -p .carry/corpus && cp "$analyzer_build/tests/analyzer/traffic_corpus.rooflint.json" .carry/corpus/
fi
if [[ -f $analyzer_build/tests/runtime/CTestTestfile.cmake ]]; then
  python3 scripts/carry-gpu-ctests.py "$analyzer_build/tests/runtime" "$PWD" \
      "$(cd "$analyzer_build" && pwd)" .carry/gpu/gpu-ctests.sh
fi
analyzer=${ROOFLINT_ANALYZER:-$analyzer_build/analyzer/rooflint}
if [[ -x $analyzer ]]; then
  mkdir -p .carry/manifests/torch_extension
  "$analyzer" --quiet --manifest .carry/manifests/torch_extension/kernels.rooflint.json \
      examples/torch_extension/kernels.cu -- -std=c++20 -Idsl/include -Imodel/include >/dev/null
else
  echo "build-gpu.sh: no analyzer at $analyzer (set ROOFLINT_ANALYZER): no manifest of examples/torch_extension/kernels.cu, so gpu-job.sh python cannot run" >&2
fi
du -sh .carry/gpu .carry/manifests
if [[ -d .carry/corpus ]]; then du -sh .carry/corpus; fi
