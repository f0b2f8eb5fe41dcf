"""PyTorch's chunked dense route for the Gaussian kernel sum a = K b, the peer of `squall ksum`.

Targets and sources uniform in the unit cube (torch's generator, not Squall's: the timing does not depend on the
points), b uniform in [0, 1). Rows are taken in chunks: squared distances by torch.cdist, exp, then a matrix-vector
product, so at most CHUNK x N kernel values exist at once. Prints one JSON line with the median CUDA-event time and
pairs per second.

    python3 bench/peers/torch_ksum.py --n 1000000 --length 0.1 --precision fp32
"""
import argparse
import json
import sys

import torch

sys.path.insert(0, "bench/peers")
from cuda_timing import median_ms  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument("--m", type=int, default=None)
    p.add_argument("--dim", type=int, default=3)
    p.add_argument("--length", type=float, default=0.1)
    p.add_argument("--precision", choices=["fp32", "fp64"], default="fp32")
    p.add_argument("--chunk", type=int, default=2048, help="target rows per chunk (CHUNK x N values at once)")
    p.add_argument("--reps", type=int, default=3)
    a = p.parse_args()
    m = a.m or a.n
    dt = torch.float32 if a.precision == "fp32" else torch.float64
    gen = torch.Generator(device="cuda").manual_seed(1)
    x = torch.rand(m, a.dim, device="cuda", dtype=dt, generator=gen)
    y = torch.rand(a.n, a.dim, device="cuda", dtype=dt, generator=gen)
    b = torch.rand(a.n, device="cuda", dtype=dt, generator=gen)
    scale = -0.5 / (a.length * a.length)
    out = torch.empty(m, device="cuda", dtype=dt)

    def run():
        for i in range(0, m, a.chunk):
            d2 = torch.cdist(x[i:i + a.chunk], y).square_()
            out[i:i + a.chunk] = torch.exp_(d2.mul_(scale)) @ b

    ms = median_ms(run, a.reps, warmup=1)
    print(json.dumps(dict(peer="torch-chunked", n=a.n, m=m, dim=a.dim, kernel=f"gauss:{a.length}", precision=a.precision,
                          chunk=a.chunk, ms=ms, pairs_per_s=m * a.n / (ms * 1e-3), device=torch.cuda.get_device_name(0),
                          torch=torch.__version__)), flush=True)


if __name__ == "__main__":
    main()
