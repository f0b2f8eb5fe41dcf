"""cuBLAS DGEMM through PyTorch for bench/gpu/gemm-async.sh: fp64 m^3, C = A B and C = A B^T, CUDA-event medians.

Usage: python3 torch_gemm.py M REPS LABEL   (one JSON object per line on stdout: peer, op, transb, m, ms, gflops, label)
"""
import json
import sys

import torch

from cuda_timing import median_ms


def main():
    m, reps, label = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    gen = torch.Generator(device="cuda").manual_seed(42)
    x = torch.rand(m, m, dtype=torch.float64, device="cuda", generator=gen)
    y = torch.rand(m, m, dtype=torch.float64, device="cuda", generator=gen)
    dev = torch.cuda.get_device_name(0)
    for transb, fn in (("N", lambda: torch.matmul(x, y)), ("T", lambda: torch.matmul(x, y.t()))):
        ms = median_ms(fn, reps, warmup=2)
        print(json.dumps(dict(peer="torch", op="gemm", transb=transb, m=m, ms=ms, gflops=2 * m ** 3 / ms / 1e6, label=label, device=dev,
                              torch=torch.__version__)), flush=True)


if __name__ == "__main__":
    main()
