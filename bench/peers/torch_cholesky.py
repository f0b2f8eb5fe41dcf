"""PyTorch peer of the Cholesky scripts: median CUDA-event time of torch.linalg.cholesky, one JSON line per size.

Usage: python3 bench/peers/torch_cholesky.py --n 64 --batch 10000 --reps 20 --warmup 3    (bench/gpu/linalg-batched.sh)
       python3 bench/peers/torch_cholesky.py --n 8192 --n 16384 --reps 5 --warmup 2      (bench/gpu/cholesky-lookahead.sh)
Matrices: torch_linalg.covariance (Gaussian-kernel covariances), fp64, one generator seeded 42 for all sizes in order.
With --batch, the line also names the batch and the torch version.
"""
import argparse
import json

import torch

from cuda_timing import median_ms
from torch_linalg import covariance


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, action="append", required=True, help="order of the matrices (repeatable)")
    p.add_argument("--batch", type=int, help="batch of matrices factored in one call (default: one matrix)")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    a = p.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(42)
    for n in a.n:
        if a.batch:
            m = covariance(n, a.batch, torch.float64, gen)
        else:
            m = covariance(n, 1, torch.float64, gen)[0]
        ms = median_ms(lambda: torch.linalg.cholesky(m), a.reps, warmup=a.warmup)
        row = dict(peer="torch", op="cholesky", n=n)
        if a.batch:
            row["batch"] = a.batch
        row.update(precision="fp64", ms=ms, device=torch.cuda.get_device_name(0))
        if a.batch:
            row["torch"] = torch.__version__
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
