#!/usr/bin/env python3
"""cuSPARSE peer for bench/gpu/sparse.sh, through CuPy, on the very matrices squall used (raw arrays
written by `squall spmv --dump DIR --dump-name NAME`):

  spmv: y = A x      (cupyx.scipy.sparse.csr_matrix @ x  -> cusparseSpMV)
  spmm: Y = A X, K vectors, X row-major (C order) and column-major (F order)  (csr_matrix @ X -> cusparseSpMM)

Timing as squall's: a batch of B back-to-back products between two CUDA events, time / B, median of
--repeat batches. The batch is captured into a CUDA graph when CuPy can (so Python's per-call host
work, which can exceed a small kernel, is not counted); otherwise it is enqueued eagerly, and the
"timing" field says which. Counted bytes as squall's SpmvCounts: nnz (v + 4) + 4 (rows + 1)
+ v K (cols + rows). Every figure is checked against a host product first. One JSON object a line.

Usage: cupy_sparse.py DIR NAME... [--repeat N] [--batch B] [--spmm K] [--fp32-only NAME,...]
"""
import json
import sys

import numpy as np
import cupy as cp
import cupyx.scipy.sparse as cps


def timed(fn, repeat, batch):
    """Per-call ms (median, min) of `batch` back-to-back calls of fn, and how they were timed."""
    for _ in range(3):
        fn()
    cp.cuda.Device().synchronize()
    stream = cp.cuda.Stream(non_blocking=True)
    graph = None
    try:
        with stream:
            fn()  # allocations of the pool happen outside the capture
            stream.synchronize()
            stream.begin_capture()
            try:
                for _ in range(batch):
                    fn()
            finally:
                graph = stream.end_capture()
            graph.launch(stream)
            stream.synchronize()
    except Exception as e:  # capture unsupported here: eager batches
        print(f"cupy peer: CUDA graph capture failed ({type(e).__name__}: {e}); timing eager batches", file=sys.stderr)
        graph = None
    times = []
    with stream:
        for _ in range(repeat):
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record(stream)
            if graph is not None:
                graph.launch(stream)
            else:
                for _ in range(batch):
                    fn()
            e1.record(stream)
            e1.synchronize()
            times.append(cp.cuda.get_elapsed_time(e0, e1) / batch)
    times.sort()
    return times[len(times) // 2], times[0], "graph" if graph is not None else "eager-batch"


def host_product(ptr, col, val, x):
    """A x (x: n or n x K) in float64 on the host."""
    rows = len(ptr) - 1
    r = np.repeat(np.arange(rows), np.diff(ptr))
    if x.ndim == 1:
        return np.bincount(r, weights=val * x[col], minlength=rows)
    return np.stack([np.bincount(r, weights=val * x[col, c], minlength=rows) for c in range(x.shape[1])], axis=1)


def main():
    args = sys.argv[1:]
    opts = {"--repeat": 30, "--batch": 10, "--spmm": 0, "--fp32-only": ""}
    for k in list(opts):
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1] if k == "--fp32-only" else int(args[i + 1])
            del args[i:i + 2]
    repeat, batch, kvec = opts["--repeat"], opts["--batch"], opts["--spmm"]
    fp32 = set(filter(None, opts["--fp32-only"].split(",")))
    d, names = args[0], args[1:]
    for name in names:
        rows, cols, nnz = (int(v) for v in open(f"{d}/{name}.shape.txt").read().split())
        ptr = np.fromfile(f"{d}/{name}.ptr.i32", dtype=np.int32)
        col = np.fromfile(f"{d}/{name}.col.i32", dtype=np.int32)
        val = np.fromfile(f"{d}/{name}.val.f64", dtype=np.float64)
        precisions = ((np.float64, 8, "fp64"), (np.float32, 4, "fp32")) if (kvec == 0 and name in fp32) else ((np.float64, 8, "fp64"),)
        for dtype, vb, pname in precisions:
            a = cps.csr_matrix((cp.asarray(val.astype(dtype)), cp.asarray(col), cp.asarray(ptr)), shape=(rows, cols))
            vh = val.astype(dtype).astype(np.float64)
            rng = np.random.default_rng(7)
            if kvec == 0:
                cases = [("spmv", None, rng.uniform(-1, 1, cols).astype(dtype))]
            else:
                xh = rng.uniform(-1, 1, (cols, kvec)).astype(dtype)
                cases = [("spmm", "row", np.ascontiguousarray(xh)), ("spmm", "col", np.asfortranarray(xh))]
            for op, layout, xh in cases:
                x = cp.asarray(xh, order="F" if layout == "col" else "C")
                out = {}

                def fn():
                    out["y"] = a @ x

                fn()
                ref = host_product(ptr, col, vh, xh.astype(np.float64))
                got = cp.asnumpy(out["y"]).astype(np.float64)
                err = float(np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-300))
                ms, ms_min, how = timed(fn, repeat, batch)
                k = 1 if kvec == 0 else kvec
                counted = nnz * (vb + 4) + 4 * (rows + 1) + vb * k * (cols + rows)
                rec = {"op": op, "matrix": name, "peer": "cupy-cusparse", "precision": pname, "rows": rows, "nnz": nnz,
                       "ms_median": ms, "ms_min": ms_min, "batch": batch, "timing": how,
                       "gbs": counted / (ms * 1e-3) / 1e9, "gflops": 2 * nnz * k / (ms * 1e-3) / 1e9,
                       "counted_bytes": counted, "rel_error": err}
                if op == "spmm":
                    rec.update({"vectors": kvec, "layout": layout})
                print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
