#!/usr/bin/env python3
"""CuPy peer for `squall permanent`: an independent dense Nijenhuis-Wilf Gray-code permanent
on the GPU (one thread per power-of-two aligned chunk, x in a fixed-size array that NVCC keeps
in registers because N is a compile-time constant and every loop over it is unrolled), the
SUPerman-style dense baseline. Checks itself on perm(J_n) = n!, then times Erdos-Renyi matrices
with values in [0,1). Prints one JSON line per run.

Usage: python3 bench/peers/cupy_permanent.py [N:DENSITY ...]   (default 32:0.1 36:0.1 36:0.5)
"""
import functools
import json
import math
import sys
import time

import cupy as cp
import numpy as np

SRC = r"""
#define N %(n)d
extern "C" __global__ void perm_dense(const double* __restrict__ cols, const double* __restrict__ x0,
                                      long long offset, long long delta, long long total, double* out) {
    long long t = blockIdx.x * (long long) blockDim.x + threadIdx.x;
    long long start = offset + t * delta;
    long long end = start + delta; if (end > total) end = total;
    double sum = 0.0;
    if (start < end) {
        double x[N];
        long long code = start ^ (start >> 1);
        #pragma unroll
        for (int i = 0; i < N; i++) x[i] = x0[i];
        for (int j = 0; j < N - 1; j++)
            if ((code >> j) & 1) {
                #pragma unroll
                for (int i = 0; i < N; i++) x[i] += cols[j * N + i];
            }
        double p = 1.0;
        #pragma unroll
        for (int i = 0; i < N; i++) p *= x[i];
        sum = (start & 1) ? -p : p;
        for (long long g = start + 1; g < end; g++) {
            int j = __ffsll(g) - 1;
            double s = ((g >> (j + 1)) & 1) ? -1.0 : 1.0;
            const double* c = cols + j * N;
            double prod = 1.0;
            #pragma unroll
            for (int i = 0; i < N; i++) { x[i] += s * __ldg(c + i); prod *= x[i]; }
            sum += (g & 1) ? -prod : prod;
        }
    }
    out[t] = sum;
}
"""


@functools.lru_cache(maxsize=None)
def kernel(n):
    mod = cp.RawModule(code=SRC % {"n": n}, options=("-std=c++11",))
    return mod.get_function("perm_dense")


def permanent(a):
    n = a.shape[0]
    k = kernel(n)
    x0 = a[:, n - 1] - 0.5 * a.sum(axis=1)
    cols = cp.asarray(np.ascontiguousarray(a.T).ravel())
    x0d = cp.asarray(x0)
    total = 1 << (n - 1)
    dev = cp.cuda.Device()
    threads = dev.attributes["MultiProcessorCount"] * 1024
    block = 256
    acc = 0.0
    off = 0
    prev = 1 << 62
    while off < total:
        rem = total - off
        delta = 1 << max(0, (rem // threads).bit_length() - 1) if rem >= threads else 1
        delta = min(max(delta, min(1024, 1 << (rem.bit_length() - 1))), prev)
        nt = min(threads, -(-rem // delta))
        grid = -(-nt // block)
        out = cp.zeros(grid * block, dtype=cp.float64)
        k((grid,), (block,), (cols, x0d, cp.int64(off), cp.int64(delta), cp.int64(total), out))
        acc += float(out.sum())
        off += nt * delta
        prev = delta
    return (2.0 if n % 2 == 1 else -2.0) * acc


def erdos_renyi(n, p, seed):
    rng = np.random.default_rng(seed)
    while True:
        a = np.where(rng.random((n, n)) < p, rng.random((n, n)), 0.0)
        if (a != 0).any(axis=0).all() and (a != 0).any(axis=1).all():
            return a


def main():
    specs = sys.argv[1:] or ["32:0.1", "36:0.1", "36:0.5"]
    for n in (10, 16):
        got = permanent(np.ones((n, n)))
        want = math.factorial(n)
        print(json.dumps({"check": f"perm(J_{n})", "got": got, "want": want, "rel_err": abs(got - want) / want}), flush=True)
    for spec in specs:
        n, p = spec.split(":")
        n, p = int(n), float(p)
        a = erdos_renyi(n, p, 1)
        kernel(n).attributes  # compile before timing
        t0 = time.perf_counter()
        v = permanent(a)
        cp.cuda.Device().synchronize()
        dt = time.perf_counter() - t0
        steps = 1 << (n - 1)
        print(json.dumps({"peer": "cupy-dense-nw", "n": n, "p": p, "value": v, "seconds": dt,
                          "steps_per_second": steps / dt, "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}), flush=True)


if __name__ == "__main__":
    main()
