#!/usr/bin/env python3
"""cuSPARSE SpMV peer for bench/gpu/sparse.sh: y = A x through CuPy (cupyx.scipy.sparse.csr_matrix @ x,
which calls cusparseSpMV), timed with CUDA events, on the very matrices squall used (raw arrays written
by `squall spmv --dump DIR --dump-name NAME`). Counted bytes are computed as squall does (SpmvCounts):
nnz (v + 4) + (rows + 1) 4 + (cols + rows) v. Prints one JSON object per matrix and precision.

Usage: cupy_spmv.py DIR NAME... [--repeat N]
"""
import json
import sys

import numpy as np
import cupy as cp
import cupyx.scipy.sparse as cps


def main():
    args = sys.argv[1:]
    repeat = 50
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    d, names = args[0], args[1:]
    for name in names:
        rows, cols, nnz = (int(v) for v in open(f"{d}/{name}.shape.txt").read().split())
        ptr = np.fromfile(f"{d}/{name}.ptr.i32", dtype=np.int32)
        col = np.fromfile(f"{d}/{name}.col.i32", dtype=np.int32)
        val = np.fromfile(f"{d}/{name}.val.f64", dtype=np.float64)
        for dtype, vb in ((np.float64, 8), (np.float32, 4)):
            a = cps.csr_matrix((cp.asarray(val.astype(dtype)), cp.asarray(col), cp.asarray(ptr)), shape=(rows, cols))
            x = cp.asarray(np.random.default_rng(7).uniform(-1, 1, cols).astype(dtype))
            for _ in range(3):
                y = a @ x
            cp.cuda.Device().synchronize()
            times = []
            for _ in range(repeat):
                e0, e1 = cp.cuda.Event(), cp.cuda.Event()
                e0.record()
                y = a @ x
                e1.record()
                e1.synchronize()
                times.append(cp.cuda.get_elapsed_time(e0, e1))
            times.sort()
            ms = times[len(times) // 2]
            counted = nnz * (vb + 4) + 4 * (rows + 1) + vb * (cols + rows)
            # check against a host product so a broken peer cannot report a figure
            yh = cp.asnumpy(y).astype(np.float64)
            xh = cp.asnumpy(x).astype(np.float64)
            ref = np.zeros(rows)
            rl = np.diff(ptr)
            np.add.at(ref, np.repeat(np.arange(rows), rl), val.astype(dtype).astype(np.float64) * xh[col])
            err = float(np.linalg.norm(yh - ref) / max(np.linalg.norm(ref), 1e-300))
            print(json.dumps({"matrix": name, "peer": "cupy-cusparse", "precision": "fp64" if vb == 8 else "fp32",
                              "rows": rows, "nnz": nnz, "ms_median": ms, "ms_min": times[0],
                              "gbs": counted / (ms * 1e-3) / 1e9, "gflops": 2 * nnz / (ms * 1e-3) / 1e9,
                              "counted_bytes": counted, "rel_error": err}), flush=True)


if __name__ == "__main__":
    main()
