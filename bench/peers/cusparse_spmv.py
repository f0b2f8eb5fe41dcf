#!/usr/bin/env python3
"""cuSPARSE SpMV (through CuPy: cupyx.scipy.sparse.csr_matrix @ x -> cusparseSpMV), the peer of the `spmv` workload of
`squall bench`, on the matrices the suite uses, written by `squall spmv --generate SPEC --dump DIR --dump-name SPEC`
(or `--matrix bench/data/1138_bus.mtx --dump-name 1138_bus`). fp64 as the workload; x from SplittableRandom(7) on
[-1, 1) as the workload draws it; timing as the workload's: device time per call of 20 calls back to back (a CUDA
graph where CuPy can capture it), median of 5 batches; counted bytes as the workload's (values and column indices,
row pointers, x and y once each). Checked against a float64 product on the host. Writes the `squall bench` JSON schema
(suite_json.py).

    python3 bench/peers/cusparse_spmv.py --dump DIR --out FILE.json [--limits SQUALL.json] 1138_bus 27pt_64=27pt:64x64x64 ...

A matrix is NAME (the --dump-name) or NAME=LABEL, LABEL being how the suite names it (its size is "LABEL nnz=N").
"""
import argparse
import sys
import time

import cupy as cp
import cupyx.scipy.sparse as cps
import numpy as np

sys.path.insert(0, "bench/peers")
from cupy_sparse import host_product, timed  # noqa: E402
import suite_inputs  # noqa: E402
import suite_json  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dump", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--limits")
    p.add_argument("--samples", type=int, default=5)
    p.add_argument("matrices", nargs="+", help="NAME or NAME=LABEL")
    a = p.parse_args()
    lims = suite_json.limits(a.limits)
    rows = []
    for spec in a.matrices:
        name, _, label = spec.partition("=")
        label = label or name
        t0 = time.perf_counter()
        nrows, ncols, nnz = (int(v) for v in open(f"{a.dump}/{name}.shape.txt").read().split())
        ptr = np.fromfile(f"{a.dump}/{name}.ptr.i32", dtype=np.int32)
        col = np.fromfile(f"{a.dump}/{name}.col.i32", dtype=np.int32)
        val = np.fromfile(f"{a.dump}/{name}.val.f64", dtype=np.float64)
        m = cps.csr_matrix((cp.asarray(val), cp.asarray(col), cp.asarray(ptr)), shape=(nrows, ncols))
        xh = suite_inputs.uniform(ncols, 7, -1.0, 1.0)
        x = cp.asarray(xh)
        out = {}

        def fn():
            out["y"] = m @ x

        fn()
        err = suite_json.relative_error(cp.asnumpy(out["y"]), host_product(ptr, col, val, xh))
        samples = [timed(fn, 1, 20)[0] for _ in range(a.samples)]
        work = nnz * (8 + 4) + 4.0 * (nrows + 1) + 8.0 * (ncols + nrows)
        rows.append(suite_json.row("spmv", "SpMV, cuSPARSE CSR", f"{label} nnz={nnz}", nnz, "entries", "cusparse:0", "fp64", samples, "memory", work,
                                   "cusparseSpMV through CuPy " + cp.__version__, err, 1e-12, "float64 host product, relative 2-norm", lims,
                                   (time.perf_counter() - t0) * 1e3))
        del m, x, out
        cp.get_default_memory_pool().free_all_blocks()
    suite_json.write(a.out, "peers-cusparse", "cusparse:0", "cuSPARSE on " + cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), rows, lims,
                     "CuPy " + cp.__version__)


if __name__ == "__main__":
    main()
