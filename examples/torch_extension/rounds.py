#!/usr/bin/env python3
"""run.py's two kernels called for a number of rounds, as a training or serving loop calls its
extension: the tensors made once, then each round one scaled_add and one row_sum (2 annotated launches
a round, at run.py's sizes), the results checked against torch once at the end. The Python program of
the overhead figure (scripts/gpu-job.sh overhead3: rooflint-verify's cost per measured launch against
ncu's, its rounds its last argument as the other programs of that figure take theirs).

    python3 rounds.py [ROUNDS]          (default 10)
    rooflint-verify --manifest kernels.rooflint.json --launches 1000 -- python3 rounds.py 100

The extension is built (or loaded, when torch's build of it is up to date) as run.py builds it.
Exit status: 0 the results matched torch; 1 they did not, or the build failed; 77 no CUDA device.
"""
import os
import sys

import run


def main():
    rounds = max(1, int(sys.argv[1])) if len(sys.argv) > 1 else 10
    import torch
    if not torch.cuda.is_available():
        print("rounds.py: no CUDA device (torch.cuda.is_available() is False)", file=sys.stderr)
        return 77
    ext = run.build_extension(verbose=os.environ.get("VERBOSE") == "1")
    device = torch.device("cuda", torch.cuda.current_device())
    g = torch.Generator(device=device).manual_seed(0)
    x = torch.randn(run.SCALED_ADD_N, device=device, generator=g)
    y = torch.randn(run.SCALED_ADD_N, device=device, generator=g)
    m = torch.randn(run.ROW_SUM_ROWS, run.ROW_SUM_COLS, device=device, generator=g, dtype=torch.bfloat16)
    for _ in range(rounds):
        added = ext.scaled_add(x, y, 0.5)
        sums = ext.row_sum(m)
    torch.cuda.synchronize(device)
    torch.testing.assert_close(added, torch.add(x, y, alpha=0.5))
    torch.testing.assert_close(sums, m.float().sum(dim=1), rtol=1e-5, atol=1e-4)
    print(f"rounds.py: OK ({rounds} rounds, {2 * rounds} annotated launches: scaled_add at N = {run.SCALED_ADD_N}, "
          f"row_sum at R = {run.ROW_SUM_ROWS}, C = {run.ROW_SUM_COLS})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
