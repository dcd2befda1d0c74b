#!/usr/bin/env python3
"""The kernels of run.py in two worker processes on one GPU, started as torchrun or a serving engine
starts its workers: torch.multiprocessing, spawn start method. Worker r runs run.py's checks at
(r + 1) times run.py's sizes, so each worker's launches are cases of their own in rooflint-verify's report.

    python3 run_workers.py
    rooflint-verify --manifest kernels.rooflint.json --ceilings ceilings.json -- python3 run_workers.py

Every process of the program is injected; the workers take turns at the GPU's performance counters.
The parent builds the extension once (the workers load it) and launches no kernel of its own.
Exit status: 0 every worker's results matched torch; 1 a worker failed; 77 no CUDA device.
"""
import os
import sys

import torch
import torch.multiprocessing as mp

import run

WORKERS = 2


def worker(rank, barrier):
    ext = run.build_extension()  # built by the parent: loaded here
    device = torch.device("cuda", 0)  # every worker on the same GPU
    torch.cuda.set_device(device)
    barrier.wait(timeout=600)  # the workers launch together, as a job's ranks do
    done = run.run_checks(ext, device, scale=rank + 1, seed=rank)
    print(f"run_workers.py: worker {rank} (pid {os.getpid()}) OK ({done})", flush=True)


def main():
    if not torch.cuda.is_available():
        print("run_workers.py: no CUDA device (torch.cuda.is_available() is False)", file=sys.stderr)
        return 77
    run.build_extension(verbose=os.environ.get("VERBOSE") == "1")
    barrier = mp.get_context("spawn").Barrier(WORKERS)
    mp.spawn(worker, args=(barrier,), nprocs=WORKERS, join=True)  # raises when a worker fails
    print(f"run_workers.py: OK ({WORKERS} workers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
