"""PyTorch's dense route for the kernel matrix-vector product y = K x, the peer of `squall h2`.

Points on a randomly perturbed regular grid in the unit square or cube (the H2 test problem; torch's generator, not
Squall's: the timing does not depend on the points), the exponential kernel exp(-r / l), x uniform in [-1, 1). K is
formed once (torch.cdist, exp) and kept, so the timed product is one fp64 GEMV streaming n^2 values: the dense
matrix-vector product an H2 product replaces. Prints one JSON line per size with the median CUDA-event time, GB/s of
K and, for --check, the relative difference to a row-chunked recomputation. Sizes whose n x n matrix does not fit in
--max-gb are skipped with a line saying so.

    python3 bench/peers/torch_h2.py --dim 2 --length 0.1 --sizes 4096 16384 65536
"""
import argparse
import json
import sys

import torch

sys.path.insert(0, "bench/peers")
from cuda_timing import median_ms  # noqa: E402


def grid(n, dim, gen):
    side = 1
    while side ** dim < n:
        side += 1
    h = 1.0 / side
    idx = torch.arange(n, device="cuda")
    coords = []
    for _ in range(dim):
        coords.append(idx % side)
        idx = idx // side
    g = torch.stack(coords, 1).to(torch.float64)
    jitter = (torch.rand(n, dim, device="cuda", dtype=torch.float64, generator=gen) - 0.5) * 0.5
    return (g + 0.5 + jitter) * h


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dim", type=int, default=2)
    p.add_argument("--length", type=float, default=0.1)
    p.add_argument("--sizes", type=int, nargs="+", default=[4096, 16384, 65536])
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--max-gb", type=float, default=60.0)
    a = p.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(1)
    for n in a.sizes:
        gb = 8.0 * n * n / 1e9
        if gb > a.max_gb:
            print(json.dumps(dict(peer="torch-dense", n=n, dim=a.dim, skipped=f"K needs {gb:.1f} GB > --max-gb {a.max_gb}")), flush=True)
            continue
        pts = grid(n, a.dim, gen)
        x = torch.rand(n, device="cuda", dtype=torch.float64, generator=gen) * 2 - 1
        k = torch.empty(n, n, device="cuda", dtype=torch.float64)
        chunk = max(1, (1 << 27) // n)
        for i in range(0, n, chunk):
            k[i:i + chunk] = torch.exp(-torch.cdist(pts[i:i + chunk], pts) / a.length)
        ms = median_ms(lambda: k @ x, a.reps, warmup=3)
        print(json.dumps(dict(peer="torch-dense", n=n, dim=a.dim, kernel=f"exp:{a.length}", precision="fp64", ms=ms,
                              gbs=gb / (ms * 1e-3), device=torch.cuda.get_device_name(0), torch=torch.__version__)), flush=True)
        del k
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
