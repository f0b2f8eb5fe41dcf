#!/usr/bin/env python3
"""cuSPARSE triangular-solve peer for bench/gpu/solvers.sh: for each matrix, writes its lower triangle (diagonal
included) as a general Matrix Market file for `squall gs --matrix F --direction forward` (a forward Gauss-Seidel
sweep over a lower-triangular matrix is the triangular solve L x = b, level-scheduled by squall's inspector), and
times cuSPARSE's solve of the same L (cusparseSpSV, fp64, CSR, 32-bit indices) on the GPU.

Matrices: hpcg:N (HPCG's 27-point stencil on N^3 points, rows x-fastest, 26 on the diagonal and -1 off it, as
squall's Stencils.hpcg; built as 27 I - T (x) T (x) T with T = tridiag(1, 1, 1)) or a .mtx path (symmetric files
expanded). 5pt-lower:N and 7pt-lower:N are the lower triangles of the 5-point Laplacian on N x N points and
the 7-point one on N^3. hpcg-lower:N and hpcg-lower-mc:N build the lower triangle directly (no file written: squall generates the
same matrix with `gs --generate hpcg:N --triangle lower [--reorder multicolor]`), the second after the symmetric
permutation into the 8-colour order (colour x%2 + 2(y%2) + 4(z%2), rows of a colour in natural order: the order
squall's greedy colouring gives this stencil).

cuSPARSE is called through ctypes on the libcusparse that CuPy loaded: cusparseSpSV_bufferSize and _analysis once
(timed apart, as "analysis_ms"), then --repeat solves, each between two CUDA events on CuPy's stream, median.
Where that fails (no library found, an API error), CuPy's spsolve_triangular is timed instead, whose every call
repeats the analysis; the "method" field says which. Each result is checked: ||L x - b|| / ||b|| <= 1e-10.
Counted bytes as squall's gs counts a half-sweep: nnz (8 + 4) + rows (12 + 24). One JSON object a line.

Usage: cupy_trsv.py OUTDIR NAME=SPEC... [--repeat N]
  e.g. cupy_trsv.py /tmp/trsv hpcg64=hpcg:64 bus=bench/data/1138_bus.mtx
"""
import ctypes
import ctypes.util
import json
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp

import cupy as cp
import cupyx.scipy.sparse as cps
import cupyx.scipy.sparse.linalg as cpsl


def hpcg(n):
    t = sp.diags([np.ones(n - 1), np.ones(n), np.ones(n - 1)], [-1, 0, 1], format="csr")
    t3 = sp.kron(t, sp.kron(t, t, format="csr"), format="csr")
    return (27.0 * sp.identity(n ** 3, format="csr") - t3).tocsr()


def hpcg_lower(n, multicolour):
    """tril(P A P^T) of HPCG's matrix on n^3 points, CSR with sorted columns, built stencil-wise (no n^3 x n^3 kron)."""
    rows = n ** 3
    idx = np.arange(rows, dtype=np.int64)
    x, y, z = idx % n, (idx // n) % n, idx // (n * n)
    if multicolour:
        order = np.argsort((x % 2) + 2 * (y % 2) + 4 * (z % 2), kind="stable")  # new row -> old row
        inv = np.empty(rows, dtype=np.int64)
        inv[order] = np.arange(rows, dtype=np.int64)
    else:
        order, inv = idx, idx
    big = np.iinfo(np.int32).max
    cols = np.full((rows, 27), big, dtype=np.int32)
    t = 0
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                ok = (x + dx >= 0) & (x + dx < n) & (y + dy >= 0) & (y + dy < n) & (z + dz >= 0) & (z + dz < n)
                j = np.where(ok, idx + dz * n * n + dy * n + dx, 0)
                c = inv[j]
                cols[:, t] = np.where(ok & (c <= inv), c, big)
                t += 1
    cols = cols[order]
    cols.sort(axis=1)
    keep = cols != big
    counts = keep.sum(axis=1)
    indptr = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    indices = cols[keep]
    del cols, keep
    data = np.where(indices == np.repeat(np.arange(rows, dtype=np.int32), counts), 26.0, -1.0)
    return sp.csr_matrix((data, indices, indptr), shape=(rows, rows))


def stencil5_lower(n):
    """tril of the 5-point Laplacian (4 on the diagonal, -1 off it) on an n x n grid, rows x-fastest: the pattern of
    squall's `--generate 5pt:NxN --triangle lower` (SuiteSparse's ecology2 is this stencil on 1000 x 999 points)."""
    t = sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1], format="csr")
    i = sp.identity(n, format="csr")
    return sp.tril(sp.kron(i, t, format="csr") + sp.kron(t, i, format="csr"), format="csr")


def stencil7_lower(n):
    """tril of the 7-point Laplacian (6 on the diagonal, -1 off it) on n^3 points, rows x-fastest: the pattern of
    squall's `--generate 7pt:NxNxN --triangle lower` (SuiteSparse's apache2 is a 3-D 7-point problem of 715k rows)."""
    t = sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1], format="csr")
    i = sp.identity(n, format="csr")
    a = sp.kron(i, sp.kron(i, t, format="csr"), format="csr") + sp.kron(i, sp.kron(t, i, format="csr"), format="csr") \
        + sp.kron(t, sp.kron(i, i, format="csr"), format="csr")
    return sp.tril(a, format="csr")


def load(spec):
    if spec.startswith("7pt-lower:"):
        return stencil7_lower(int(spec.split(":")[1]))
    if spec.startswith("5pt-lower:"):
        return stencil5_lower(int(spec.split(":")[1]))
    if spec.startswith("hpcg-lower:"):
        return hpcg_lower(int(spec.split(":")[1]), False)
    if spec.startswith("hpcg-lower-mc:"):
        return hpcg_lower(int(spec.split(":")[1]), True)
    if spec.startswith("hpcg:"):
        return hpcg(int(spec.split(":")[1]))
    return sp.csr_matrix(scipy.io.mmread(spec))


def find_cusparse():
    # make CuPy load libcusparse (a product), then find the loaded file in this process's mappings
    a = cps.csr_matrix(cp.asarray(np.eye(4)))
    _ = a @ cp.ones(4)
    cp.cuda.Device().synchronize()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                if "libcusparse" in line:
                    return ctypes.CDLL(line.split()[-1])
    except OSError:
        pass
    name = ctypes.util.find_library("cusparse")
    return ctypes.CDLL(name) if name else None


def check(lib, what, status):
    if status != 0:
        raise RuntimeError(f"{what} returned cuSPARSE status {status}")


def spsv_times(lib, l_gpu, b, x, repeat):
    """(analysis ms, median solve ms) of cusparseSpSV on l_gpu (CSR, fp64): L x = b."""
    vp = ctypes.c_void_p
    i64 = ctypes.c_int64
    handle = vp()
    check(lib, "cusparseCreate", lib.cusparseCreate(ctypes.byref(handle)))
    stream = cp.cuda.get_current_stream()
    check(lib, "cusparseSetStream", lib.cusparseSetStream(handle, vp(stream.ptr)))
    mat = vp()
    rows = l_gpu.shape[0]
    # CUSPARSE_INDEX_32I = 2, CUSPARSE_INDEX_BASE_ZERO = 0, CUDA_R_64F = 1
    check(lib, "cusparseCreateCsr", lib.cusparseCreateCsr(ctypes.byref(mat), i64(rows), i64(rows), i64(l_gpu.nnz),
                                                          vp(l_gpu.indptr.data.ptr), vp(l_gpu.indices.data.ptr),
                                                          vp(l_gpu.data.data.ptr), 2, 2, 0, 1))
    fill = ctypes.c_int(0)  # CUSPARSE_FILL_MODE_LOWER
    diag = ctypes.c_int(0)  # CUSPARSE_DIAG_TYPE_NON_UNIT
    check(lib, "fill mode", lib.cusparseSpMatSetAttribute(mat, 0, ctypes.byref(fill), ctypes.c_size_t(4)))
    check(lib, "diag type", lib.cusparseSpMatSetAttribute(mat, 1, ctypes.byref(diag), ctypes.c_size_t(4)))
    vb, vx = vp(), vp()
    check(lib, "cusparseCreateDnVec b", lib.cusparseCreateDnVec(ctypes.byref(vb), i64(rows), vp(b.data.ptr), 1))
    check(lib, "cusparseCreateDnVec x", lib.cusparseCreateDnVec(ctypes.byref(vx), i64(rows), vp(x.data.ptr), 1))
    desc = vp()
    check(lib, "cusparseSpSV_createDescr", lib.cusparseSpSV_createDescr(ctypes.byref(desc)))
    alpha = ctypes.c_double(1.0)
    size = ctypes.c_size_t(0)
    # CUSPARSE_OPERATION_NON_TRANSPOSE = 0, CUSPARSE_SPSV_ALG_DEFAULT = 0
    check(lib, "cusparseSpSV_bufferSize", lib.cusparseSpSV_bufferSize(handle, 0, ctypes.byref(alpha), mat, vb, vx, 1, 0, desc,
                                                                      ctypes.byref(size)))
    buf = cp.empty(max(1, size.value), dtype=cp.uint8)
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    e0.record(stream)
    check(lib, "cusparseSpSV_analysis", lib.cusparseSpSV_analysis(handle, 0, ctypes.byref(alpha), mat, vb, vx, 1, 0, desc,
                                                                  vp(buf.data.ptr)))
    e1.record(stream)
    e1.synchronize()
    analysis = cp.cuda.get_elapsed_time(e0, e1)

    def solve():
        check(lib, "cusparseSpSV_solve", lib.cusparseSpSV_solve(handle, 0, ctypes.byref(alpha), mat, vb, vx, 1, 0, desc))

    for _ in range(3):
        solve()
    times = []
    for _ in range(repeat):
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        e0.record(stream)
        solve()
        e1.record(stream)
        e1.synchronize()
        times.append(cp.cuda.get_elapsed_time(e0, e1))
    times.sort()
    lib.cusparseSpSV_destroyDescr(desc)
    lib.cusparseDestroyDnVec(vb)
    lib.cusparseDestroyDnVec(vx)
    lib.cusparseDestroySpMat(mat)
    lib.cusparseDestroy(handle)
    return analysis, times[len(times) // 2]


def fallback_times(l_gpu, b, repeat):
    """Median ms of CuPy's spsolve_triangular (analysis repeated in every call) and its x."""
    x = cpsl.spsolve_triangular(l_gpu, b, lower=True)
    times = []
    for _ in range(repeat):
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        e0.record()
        x = cpsl.spsolve_triangular(l_gpu, b, lower=True)
        e1.record()
        e1.synchronize()
        times.append(cp.cuda.get_elapsed_time(e0, e1))
    times.sort()
    return times[len(times) // 2], x


def main():
    args = sys.argv[1:]
    repeat = 20
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    outdir, pairs = args[0], args[1:]
    lib = None
    try:
        lib = find_cusparse()
    except Exception as e:  # no library: the fallback times CuPy's own call
        print(f"cupy_trsv: libcusparse not found ({type(e).__name__}: {e})", file=sys.stderr)
    for pair in pairs:
        name, spec = pair.split("=", 1)
        a = load(spec)
        if spec.startswith(("hpcg-lower", "5pt-lower", "7pt-lower")):
            low, path = a, None
        else:
            low = sp.tril(a, format="csr")
            low.sort_indices()
            path = f"{outdir}/{name}.mtx"
            scipy.io.mmwrite(path, low, symmetry="general")
        del a
        rows, nnz = low.shape[0], low.nnz
        l_gpu = cps.csr_matrix((cp.asarray(low.data), cp.asarray(low.indices.astype(np.int32)), cp.asarray(low.indptr.astype(np.int32))),
                               shape=low.shape)
        b = cp.asarray(np.random.default_rng(3).uniform(-1, 1, rows))
        x = cp.zeros(rows)
        rec = {"peer": "cusparse-spsv", "matrix": name, "spec": spec, "file": path, "rows": rows, "nnz": nnz}
        try:
            if lib is None:
                raise RuntimeError("no libcusparse")
            analysis, ms = spsv_times(lib, l_gpu, b, x, repeat)
            rec.update(method="cusparseSpSV (ctypes), analysis once", analysis_ms=analysis)
        except Exception as e:
            print(f"cupy_trsv: SpSV through ctypes failed on {name} ({type(e).__name__}: {e}); timing spsolve_triangular", file=sys.stderr)
            ms, x = fallback_times(l_gpu, b, repeat)
            rec.update(method="cupyx spsolve_triangular (analysis in every call)", analysis_ms=None)
        res = float(cp.linalg.norm(l_gpu @ x - b) / cp.linalg.norm(b))
        counted = nnz * 12.0 + rows * 36.0
        rec.update(ms=ms, gbs=counted / (ms * 1e-3) / 1e9, rel_residual=res, ok=res <= 1e-10)
        print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
