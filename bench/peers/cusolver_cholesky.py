#!/usr/bin/env python3
"""cuSOLVER batched Cholesky (through CuPy: cupy.linalg.cholesky on a (batch, n, n) stack -> cusolverDnDpotrfBatched),
the peer of the `cholesky` workload of `squall bench`, on the same matrices: BatchedCholeskyFactor.covariance rebuilt
bit for bit (suite_inputs.py). fp64; a sample is the CUDA-event time of one call (out of place, as Squall's kernel);
median of 5 after a warm-up; n^3 / 3 flops a matrix. Checked against numpy.linalg.cholesky on the first 200 matrices:
largest entry difference over the largest entry of L, within 1e-12 n as the workload's. Writes the `squall bench`
JSON schema (suite_json.py).

    python3 bench/peers/cusolver_cholesky.py --out FILE.json [--limits SQUALL.json] 64:10000 64:40000 64:160000
"""
import argparse
import sys
import time

import cupy as cp
import numpy as np

sys.path.insert(0, "bench/peers")
import suite_inputs  # noqa: E402
import suite_json  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--limits")
    p.add_argument("--samples", type=int, default=5)
    p.add_argument("sizes", nargs="+", help="N:BATCH")
    a = p.parse_args()
    lims = suite_json.limits(a.limits)
    rows = []
    for s in a.sizes:
        t0 = time.perf_counter()
        n, batch = (int(v) for v in s.split(":"))
        # formed on the GPU from the same draws (the host would take minutes for 160000 matrices); the first 200 on the host
        dev = cp.concatenate([suite_inputs.covariance_batch(n, f, min(20000, batch - f), cp) for f in range(0, batch, 20000)])
        host = suite_inputs.covariance_batch(n, 0, min(200, batch))
        out = {"l": cp.linalg.cholesky(dev)}
        cp.cuda.Device().synchronize()
        samples = []
        for _ in range(a.samples):
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            out["l"] = cp.linalg.cholesky(dev)
            e1.record()
            e1.synchronize()
            samples.append(cp.cuda.get_elapsed_time(e0, e1))
        k = min(200, batch)
        got, want = cp.asnumpy(out["l"][:k]), np.linalg.cholesky(host[:k])
        err_input = float(np.abs(cp.asnumpy(dev[:k]) - host).max())   # the GPU-formed inputs are Squall's up to rounding
        err = max(float(np.abs(got - want).max() / np.abs(want).max()), err_input)
        err = err if err == err else float("inf")
        rows.append(suite_json.row("cholesky", "batched Cholesky, cuSOLVER", f"{batch} x n={n}", batch, "matrices", "cusolver:0", "fp64", samples,
                                   "compute", n ** 3 / 3.0 * batch, f"{batch / (sorted(samples)[len(samples) // 2] * 1e-3):.3g} matrices/s, potrfBatched",
                                   err, 1e-12 * n, f"numpy.linalg.cholesky on {k} matrices, max difference / max |L|", lims,
                                   (time.perf_counter() - t0) * 1e3))
        del dev, out
        cp.get_default_memory_pool().free_all_blocks()
    suite_json.write(a.out, "peers-cusolver", "cusolver:0", "cuSOLVER on " + cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), rows, lims,
                     "CuPy " + cp.__version__)


if __name__ == "__main__":
    main()
