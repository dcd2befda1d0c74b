#!/usr/bin/env python3
"""Builds the example extension (binding.cpp + kernels.cu) with torch's JIT extension loader, calls each
kernel a few times on CUDA tensors of a few MiB, checks the results against torch, and prints OK.

    python3 run.py
    rooflint-verify --manifest kernels.rooflint.json --ceilings ceilings.json -- python3 run.py

The manifest is the analyzer's, made from kernels.cu on any machine with rooflint (docs/python.md):
    rooflint --manifest kernels.rooflint.json kernels.cu -- -std=c++20 -I<rooflint include dirs>

Environment:
    ROOFLINT_INCLUDE      rooflint's include directories, separated by ':' (an installed rooflint:
                          <prefix>/include); default: this repository's dsl/include and model/include
    TORCH_EXTENSIONS_DIR  where torch builds the extension (torch's own variable; default ~/.cache)

Exit status: 0 the results matched torch; 1 they did not, or the build failed; 77 no CUDA device.
"""
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "rooflint_torch_extension_example"

# The sizes of rank 0 (run_workers.py scales them by rank + 1), as the specs' .at() in kernels.cu.
SCALED_ADD_N = 1 << 20                    # 4 MiB per float32 tensor
ROW_SUM_ROWS, ROW_SUM_COLS = 16384, 256   # 8 MiB of bfloat16
CALLS = 3                                 # calls of each kernel (rooflint-verify measures the first)

# nvcc's flags for kernels.cu: C++20 for the spec language, line information for per-line figures, and
# sm_90 machine code plus compute_90 PTX (given here, torch adds no -gencode of its own).
CUDA_FLAGS = ["-std=c++20", "-lineinfo",
              "-gencode=arch=compute_90,code=sm_90", "-gencode=arch=compute_90,code=compute_90"]


def rooflint_include_dirs():
    """rooflint's include directories: $ROOFLINT_INCLUDE, else this repository's."""
    value = os.environ.get("ROOFLINT_INCLUDE")
    if value:
        dirs, source = [d for d in value.split(os.pathsep) if d], "ROOFLINT_INCLUDE"
    else:
        repo = HERE.parent.parent
        dirs, source = [str(repo / "dsl" / "include"), str(repo / "model" / "include")], "the repository"
    if not any((Path(d) / "rooflint" / "dsl.h").is_file() for d in dirs):
        sys.exit(f"run.py: no rooflint/dsl.h under {source}'s include directories {dirs}: set ROOFLINT_INCLUDE "
                 "to rooflint's include directory (<prefix>/include of an installed rooflint)")
    return dirs


def build_extension(verbose=False):
    """Builds the extension (or loads it, when torch's build of it is up to date) and returns the module."""
    from torch.utils.cpp_extension import load
    return load(name=NAME,
                sources=[str(HERE / "binding.cpp"), str(HERE / "kernels.cu")],
                extra_cuda_cflags=CUDA_FLAGS + [f"-I{d}" for d in rooflint_include_dirs()],
                verbose=verbose)


def run_checks(ext, device, scale=1, seed=0):
    """Calls each kernel CALLS times at the sizes of rank scale - 1 and checks every result against torch."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)

    n = SCALED_ADD_N * scale
    x = torch.randn(n, device=device, generator=g)
    y = torch.randn(n, device=device, generator=g)
    for _ in range(CALLS):
        torch.testing.assert_close(ext.scaled_add(x, y, 0.5), torch.add(x, y, alpha=0.5))

    rows, cols = ROW_SUM_ROWS * scale, ROW_SUM_COLS
    m = torch.randn(rows, cols, device=device, generator=g, dtype=torch.bfloat16)
    want = m.float().sum(dim=1)
    for _ in range(CALLS):
        torch.testing.assert_close(ext.row_sum(m), want, rtol=1e-5, atol=1e-4)
    torch.cuda.synchronize(device)
    return f"scaled_add at N = {n}, row_sum at R = {rows}, C = {cols}, {CALLS} calls each"


def main():
    import torch
    if not torch.cuda.is_available():
        print("run.py: no CUDA device (torch.cuda.is_available() is False)", file=sys.stderr)
        return 77
    ext = build_extension(verbose=os.environ.get("VERBOSE") == "1")
    done = run_checks(ext, torch.device("cuda", torch.cuda.current_device()))
    print(f"run.py: OK ({done})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
