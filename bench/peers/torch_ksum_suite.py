#!/usr/bin/env python3
"""PyTorch's chunked dense Gaussian kernel sum a = K b, the peer of the `ksum-dense` workload of `squall bench`, on the
same inputs: targets PointSet.uniform(n, 3, 1), sources PointSet.uniform(n, 3, 2), b SplittableRandom(3) on [0, 1)
(suite_inputs.py), length 0.1, fp32 as the workload. Rows in chunks: squared distances (torch.cdist), exp, a
matrix-vector product, at most CHUNK x n kernel values at once. A sample is the CUDA-event time of the whole sum;
median of 5 after a warm-up; flops counted as the workload's, 3 dim + 3 a pair. Checked on 100 rows against exact fp64
sums within the workload's rounding allowance (4 u sqrt(n) sum |k b|, the largest over the largest exact value).
Writes the `squall bench` JSON schema (suite_json.py).

    python3 bench/peers/torch_ksum_suite.py --out FILE.json [--limits SQUALL.json] 16384 65536 262144
"""
import argparse
import sys
import time

import numpy as np
import torch

sys.path.insert(0, "bench/peers")
import suite_inputs  # noqa: E402
import suite_json  # noqa: E402

LENGTH, DIM = 0.1, 3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--limits")
    p.add_argument("--samples", type=int, default=5)
    p.add_argument("--chunk", type=int, default=4096)
    p.add_argument("sizes", nargs="+", type=int)
    a = p.parse_args()
    lims = suite_json.limits(a.limits)
    rows = []
    for n in a.sizes:
        t0 = time.perf_counter()
        xh, yh = suite_inputs.points(n, DIM, 1), suite_inputs.points(n, DIM, 2)
        bh = suite_inputs.uniform(n, 3)
        x, y, b = (torch.tensor(v, dtype=torch.float32, device="cuda") for v in (xh, yh, bh))
        out = torch.empty(n, dtype=torch.float32, device="cuda")
        scale = -0.5 / (LENGTH * LENGTH)

        def run():
            for i in range(0, n, a.chunk):
                d2 = torch.cdist(x[i:i + a.chunk], y).square_()
                out[i:i + a.chunk] = torch.exp_(d2.mul_(scale)) @ b

        run()
        torch.cuda.synchronize()
        samples = []
        for _ in range(a.samples):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            run()
            e1.record()
            torch.cuda.synchronize()
            samples.append(e0.elapsed_time(e1))
        got = out.cpu().numpy().astype(np.float64)
        rws = np.random.default_rng(3).choice(n, size=min(100, n), replace=False)
        terms = np.exp(-((xh[rws, None, :] - yh[None, :, :]) ** 2).sum(-1) / (2 * LENGTH * LENGTH)) * bh[None, :]
        exact, absolute = terms.sum(1), np.abs(terms).sum(1)
        err = float(np.abs(got[rws] - exact).max() / np.abs(exact).max())
        err = err if err == err else float("inf")
        allowed = float((4 * 2.0 ** -24 * np.sqrt(n) * absolute).max() / np.abs(exact).max())
        med = sorted(samples)[len(samples) // 2]
        rows.append(suite_json.row("ksum-dense", "Gaussian kernel sum, PyTorch dense", f"{DIM}d n={n}", n, "points", "torch:cuda:0", "fp32", samples,
                                   "compute", float(n) * n * (3 * DIM + 3), f"{float(n) * n / (med * 1e-3):.3g} pairs/s, cdist + exp + matvec, chunk {a.chunk}",
                                   err, allowed, f"exact fp64 sums on {len(rws)} rows, max error / max value", lims, (time.perf_counter() - t0) * 1e3))
        del x, y, b, out
        torch.cuda.empty_cache()
    suite_json.write(a.out, "peers-torch", "torch:cuda:0", "PyTorch on " + torch.cuda.get_device_name(0), rows, lims, "PyTorch " + torch.__version__)


if __name__ == "__main__":
    main()
