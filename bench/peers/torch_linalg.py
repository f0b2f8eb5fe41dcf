"""Peer baselines for `squall cholesky|trinv|gemm` (issue 3) on the same GPU, through PyTorch (cuSOLVER / cuBLAS).

Same inputs as Squall's commands: Gaussian-kernel covariances of random 3-D points (length scale 0.3, nugget 0.1) and
lower-triangular matrices with diagonal in [1, 2], off-diagonal in [-1, 1]/n. Times are CUDA-event medians after warm-up.
One JSON object per line on stdout.
Usage: python3 torch_linalg.py [max_n]   (default 32768)
"""
import json
import sys

import torch

from cuda_timing import median_ms as _median_ms


def median_ms(fn, reps):
    return _median_ms(fn, reps, warmup=1)




def covariance(n, batch, dtype, gen):
    x = torch.rand(batch, n, 3, dtype=torch.float64, device="cuda", generator=gen)
    d2 = torch.cdist(x, x).pow_(2)
    k = torch.exp(-d2 / (2 * 0.3 ** 2))
    k.diagonal(dim1=-2, dim2=-1).add_(0.1)
    return k.to(dtype)


def lower(n, batch, dtype, gen):
    l = (torch.rand(batch, n, n, dtype=torch.float64, device="cuda", generator=gen) * 2 - 1) / n
    l = torch.tril(l, -1)
    l.diagonal(dim1=-2, dim2=-1).copy_(1 + torch.rand(batch, n, dtype=torch.float64, device="cuda", generator=gen))
    return l.to(dtype)


def emit(**kv):
    print(json.dumps(kv), flush=True)


def main():
    max_n = int(sys.argv[1]) if len(sys.argv) > 1 else 32768
    gen = torch.Generator(device="cuda").manual_seed(42)
    dev = torch.cuda.get_device_name(0)
    f64 = torch.float64
    n = 4096
    while n <= max_n:
        a = covariance(n, 1, f64, gen)[0]
        reps = 3 if n >= 16384 else 10
        ms = median_ms(lambda: torch.linalg.cholesky(a), reps)
        emit(peer="torch", op="cholesky", n=n, batch=1, precision="fp64", ms=ms, gflops=n ** 3 / 3 / ms / 1e6, device=dev, torch=torch.__version__)
        del a
        torch.cuda.empty_cache()
        n *= 2
    a = covariance(64, 10000, f64, gen)
    ms = median_ms(lambda: torch.linalg.cholesky(a), 20)
    emit(peer="torch", op="cholesky", n=64, batch=10000, precision="fp64", ms=ms, gflops=10000 * 64 ** 3 / 3 / ms / 1e6, device=dev)
    l = lower(64, 10000, f64, gen)
    eye = torch.eye(64, dtype=f64, device="cuda").expand(10000, 64, 64).contiguous()
    ms = median_ms(lambda: torch.linalg.solve_triangular(l, eye, upper=False), 20)
    emit(peer="torch", op="trinv (solve_triangular with I)", n=64, batch=10000, precision="fp64", ms=ms,
         gflops=10000 * 64 ** 3 / 3 / ms / 1e6, device=dev)
    big = lower(4096, 1, f64, gen)[0]
    eyeb = torch.eye(4096, dtype=f64, device="cuda")
    ms = median_ms(lambda: torch.linalg.solve_triangular(big, eyeb, upper=False), 5)
    emit(peer="torch", op="trinv (solve_triangular with I)", n=4096, batch=1, precision="fp64", ms=ms, gflops=4096 ** 3 / 3 / ms / 1e6, device=dev)
    x = torch.rand(8192, 8192, dtype=f64, device="cuda", generator=gen)
    y = torch.rand(8192, 8192, dtype=f64, device="cuda", generator=gen)
    ms = median_ms(lambda: torch.matmul(x, y), 10)
    emit(peer="torch", op="gemm", m=8192, batch=1, precision="fp64", ms=ms, gflops=2 * 8192 ** 3 / ms / 1e6, device=dev)
    xb = torch.rand(10000, 64, 64, dtype=f64, device="cuda", generator=gen)
    yb = torch.rand(10000, 64, 64, dtype=f64, device="cuda", generator=gen)
    ms = median_ms(lambda: torch.bmm(xb, yb), 20)
    emit(peer="torch", op="gemm", m=64, batch=10000, precision="fp64", ms=ms, gflops=2 * 10000 * 64 ** 3 / ms / 1e6, device=dev)
    del xb, yb, x, y
    torch.cuda.empty_cache()
    # batched QR and SVD of 128 x 64 blocks (the H2 compression shapes); same inputs as squall qr / squall svd
    m, n = 128, 64
    qflops = 2 * m * n * n - 2 * n ** 3 / 3
    a = torch.rand(10000, m, n, dtype=f64, device="cuda", generator=gen) * 2 - 1
    ms = median_ms(lambda: torch.linalg.qr(a, mode="reduced"), 5)
    emit(peer="torch", op="qr", m=m, n=n, batch=10000, precision="fp64", ms=ms, gflops=2 * qflops * 10000 / ms / 1e6, device=dev)
    ms = median_ms(lambda: torch.linalg.qr(a, mode="r"), 5)
    emit(peer="torch", op="qr-r", m=m, n=n, batch=10000, precision="fp64", ms=ms, gflops=qflops * 10000 / ms / 1e6, device=dev)
    del a
    scale = torch.pow(10.0, -12.0 * torch.arange(n, dtype=f64, device="cuda") / n)
    a = (torch.rand(1000, m, n, dtype=f64, device="cuda", generator=gen) * 2 - 1) * scale
    ms = median_ms(lambda: torch.linalg.svd(a, full_matrices=False), 3)
    emit(peer="torch", op="svd", m=m, n=n, batch=1000, precision="fp64", ms=ms, device=dev)


if __name__ == "__main__":
    main()
