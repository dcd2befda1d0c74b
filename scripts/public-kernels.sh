#!/usr/bin/env bash
# The public kernels (tests/public_kernels/README.md): 114 kernels of llm.c's dev/cuda, cuda-samples,
# llama2.cu, flash-attention-minimal and SGEMM_CUDA, with specs and launches of our own, predicted by the analyzer and
# measured by rooflint-verify.
#
#   bash scripts/public-kernels.sh fetch     # the public files at the pinned commits -> .carry/public/src
#   bash scripts/public-kernels.sh analyze   # the analyzer over each wrapper -> .carry/public/manifests
#   bash scripts/public-kernels.sh build DIR # nvcc: each wrapper an executable in DIR (gpu-job.sh public)
#
# The sources are not in the tree: `fetch` takes them (git and network; ROOFLINT_PUBLIC_LLMC_URL,
# ROOFLINT_PUBLIC_SAMPLES_URL, ROOFLINT_PUBLIC_LLAMA2CU_URL, ROOFLINT_PUBLIC_FLASHATTN_URL and
# ROOFLINT_PUBLIC_SGEMMCUDA_URL name other clones, a local path too) into .carry/, which travels to the
# GPU machine. `analyze` needs the analyzer
# (build-dev/analyzer/rooflint, or $ROOFLINT_ANALYZER), so it runs on the build machine; the GPU machine
# has no clang. ROOFLINT_PUBLIC_JOBS: files at a time (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
src=.carry/public/src
llmc_commit=f1e2ace651495b74ae22d45d1723443fd00ecd3a
samples_commit=c94ff366aed18c797b8a85dfaac7817b0228b420
llama2cu_commit=cb0c6fa08386f398b5ed48a0cbb30d9ba8f42e70
llama2cu_files=(LICENSE llama2.cu)
flashattn_commit=00f8f46712d493665c900c32fa3a261c8ef3e20c
flashattn_files=(LICENSE flash.cu)
sgemmcuda_commit=60cba6f9b20a198116c76f18de8047f44df8c8b8
sgemmcuda_files=(LICENSE src/kernels.cuh src/kernels)
llmc_files=(LICENSE dev/cuda/common.h dev/cuda/adamw.cu dev/cuda/attention_forward.cu dev/cuda/crossentropy_forward.cu
            dev/cuda/encoder_forward.cu dev/cuda/gelu_forward.cu dev/cuda/layernorm_forward.cu dev/cuda/matmul_forward.cu
            dev/cuda/residual_forward.cu dev/cuda/softmax_forward.cu dev/cuda/gelu_backward.cu
            dev/cuda/crossentropy_softmax_backward.cu dev/cuda/encoder_backward.cu dev/cuda/layernorm_backward.cu
            dev/cuda/matmul_backward_bias.cu dev/cuda/global_norm.cu dev/cuda/permute.cu
            dev/cuda/fused_residual_forward.cu dev/cuda/trimat_forward.cu dev/cuda/classifier_fused.cu
            dev/cuda/attention_backward.cu dev/cuda/matmul_backward.cu)
s=Samples/2_Concepts_and_Techniques
samples_files=(LICENSE Common/exception.h Common/helper_cuda.h Common/helper_functions.h Common/helper_image.h
               Common/helper_string.h Common/helper_timer.h Samples/0_Introduction/matrixMul/matrixMul.cu
               Samples/6_Performance/transpose/transpose.cu $s/reduction/reduction_kernel.cu $s/reduction/reduction.h
               $s/histogram/histogram64.cu $s/histogram/histogram_common.h $s/convolutionSeparable/convolutionSeparable.cu
               $s/convolutionSeparable/convolutionSeparable_common.h $s/scalarProd/scalarProd_kernel.cuh
               Samples/5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh
               Samples/5_Domain_Specific/fastWalshTransform/fastWalshTransform_kernel.cuh $s/scan/scan.cu $s/scan/scan_common.h
               $s/threadFenceReduction/threadFenceReduction_kernel.cuh $s/shfl_scan/shfl_scan.cu
               $s/shfl_scan/shfl_integral_image.cuh $s/shfl_scan/util.h Samples/6_Performance/alignedTypes/alignedTypes.cu
               $s/sortingNetworks/bitonicSort.cu $s/sortingNetworks/sortingNetworks_common.cuh
               $s/sortingNetworks/sortingNetworks_common.h Samples/5_Domain_Specific/FDTD3d/inc/FDTD3dGPUKernel.cuh
               Samples/5_Domain_Specific/FDTD3d/inc/FDTD3dGPU.h Common/helper_math.h
               $s/boxFilter/boxFilter_kernel.cu Samples/5_Domain_Specific/recursiveGaussian/recursiveGaussian_kernel.cuh)
# The wrappers include the public files by their paths in their repositories.
flags=(-std=c++20 -Idsl/include -Imodel/include -I$src/llm.c -I$src/cuda-samples/Samples -I$src/cuda-samples/Common -I$src/llama2.cu
       -I$src/flash-attention-minimal -I$src/SGEMM_CUDA -Itests/public_kernels/stubs)
jobs=${ROOFLINT_PUBLIC_JOBS:-$(nproc)}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

# fetch_repo URL COMMIT DIR FILES...: only the files named, at the commit, without the history: the
# commit's trees without their blobs (a partial clone), then the blobs `git archive` reads, on demand.
fetch_repo() {
  local url=$1 commit=$2 dir=$3 git
  shift 3
  git=$(mktemp -d)
  git -C "$git" init -q
  git -C "$git" remote add origin "$url"
  git -C "$git" config remote.origin.promisor true
  git -C "$git" config remote.origin.partialclonefilter blob:none
  git -C "$git" fetch -q --depth 1 --filter=blob:none origin "$commit"
  rm -rf "$dir" && mkdir -p "$dir"
  git -C "$git" archive FETCH_HEAD "$@" | tar -x -C "$dir"
  rm -rf "$git"
  echo "$url $commit" >>"$src/COMMITS"
}

manifests=.carry/public/manifests
analyzer=${ROOFLINT_ANALYZER:-build-dev/analyzer/rooflint}
case ${1:-} in
  fetch)
    mkdir -p "$src" && : >"$src/COMMITS"
    fetch_repo "${ROOFLINT_PUBLIC_LLMC_URL:-https://github.com/karpathy/llm.c}" $llmc_commit "$src/llm.c" "${llmc_files[@]}"
    fetch_repo "${ROOFLINT_PUBLIC_SAMPLES_URL:-https://github.com/NVIDIA/cuda-samples}" $samples_commit \
        "$src/cuda-samples" "${samples_files[@]}"
    fetch_repo "${ROOFLINT_PUBLIC_LLAMA2CU_URL:-https://github.com/ankan-ban/llama2.cu}" $llama2cu_commit "$src/llama2.cu" \
        "${llama2cu_files[@]}"
    fetch_repo "${ROOFLINT_PUBLIC_FLASHATTN_URL:-https://github.com/tspeterkim/flash-attention-minimal}" $flashattn_commit \
        "$src/flash-attention-minimal" "${flashattn_files[@]}"
    fetch_repo "${ROOFLINT_PUBLIC_SGEMMCUDA_URL:-https://github.com/siboehm/SGEMM_CUDA}" $sgemmcuda_commit \
        "$src/SGEMM_CUDA" "${sgemmcuda_files[@]}"
    du -sh "$src"
    ;;
  analyze)
    # One manifest per wrapper: a wrapper the analyzer cannot read costs its own kernels only.
    rm -rf "$manifests" && mkdir -p "$manifests"
    printf '%s\n' tests/public_kernels/*.cu | xargs -P "$jobs" -n 1 bash scripts/public-kernels.sh analyze-one
    python3 scripts/traffic-vs-observed.py "$manifests/predicted.txt" --manifest "$manifests" | tail -1
    ;;
  analyze-one)  # WRAPPER.cu: its manifest, and its diagnostics (NAME.log) beside it
    n=$(basename "$2" .cu) status=0
    "$analyzer" --quiet --manifest "$manifests/$n.rooflint.json" "$2" -- "${flags[@]}" >"$manifests/$n.log" 2>&1 || status=$?
    echo "$n: exit $status"
    ;;
  build)
    mkdir -p "${2:?build DIR}"
    printf '%s\n' tests/public_kernels/*.cu | xargs -P "$jobs" -n 1 bash scripts/public-kernels.sh build-one "$2"
    ;;
  build-one)  # DIR WRAPPER.cu: DIR/NAME, and nvcc's output in DIR/NAME.log
    n=$(basename "$3" .cu) status=0 libs=() cuda=$(dirname "$(dirname "$nvcc")")
    [[ $n == llmc_* ]] && libs=(-lcublas -lcublasLt)  # llm.c's common.h declares cuBLAS handles
    # -arch=sm_90: SASS for sm_90 and its PTX. The shared CUDA runtime, as the project's programs use,
    # found at run time where this nvcc's toolkit keeps it.
    "$nvcc" -arch=sm_90 -lineinfo -cudart shared -Xlinker -rpath -Xlinker "$cuda/lib64:$cuda/lib" "${flags[@]}" "$3" \
        -o "$2/$n" "${libs[@]}" >"$2/$n.log" 2>&1 || status=$?
    echo "$n: exit $status"
    ;;
  *)
    sed -n '2,12p' scripts/public-kernels.sh >&2
    exit 2
    ;;
esac
