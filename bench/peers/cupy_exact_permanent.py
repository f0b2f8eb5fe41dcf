#!/usr/bin/env python3
"""CuPy peer for `squall permanent --exact`: an independent exact 0/1 permanent on the GPU, Ryser's
formula over all 2^n column subsets in Gray-code order with int row sums and 64-bit wrapping
products and sums (unsigned in C, so the wrap is defined), one thread per power-of-two aligned
chunk, partials summed modulo 2^64 on the host. Checks itself on perm(J_20) = 20!, derangements
perm(J_19 - I) and Fibonacci for tridiagonal 0/1, then times random 0/1 matrices. One JSON line per run.

Usage: python3 bench/peers/cupy_exact_permanent.py [N:DENSITY ...]   (default 28:0.5 32:0.5 36:0.15)
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
extern "C" __global__ void ryser64(const int* __restrict__ cols, long long offset, long long delta,
                                   long long total, unsigned long long* out) {
    long long t = blockIdx.x * (long long) blockDim.x + threadIdx.x;
    long long start = offset + t * delta;
    long long end = start + delta; if (end > total) end = total;
    unsigned long long sum = 0;
    if (start < end) {
        int r[N];
        long long code = start ^ (start >> 1);
        #pragma unroll
        for (int i = 0; i < N; i++) r[i] = 0;
        for (int j = 0; j < N; j++)
            if ((code >> j) & 1) {
                #pragma unroll
                for (int i = 0; i < N; i++) r[i] += cols[j * N + i];
            }
        unsigned long long p = 1;
        #pragma unroll
        for (int i = 0; i < N; i++) p *= (unsigned long long) (long long) r[i];
        sum = (start & 1) ? 0ULL - p : p;
        for (long long g = start + 1; g < end; g++) {
            int j = __ffsll(g) - 1;
            int s = ((g >> (j + 1)) & 1) ? -1 : 1;
            const int* c = cols + j * N;
            unsigned long long prod = 1;
            #pragma unroll
            for (int i = 0; i < N; i++) { r[i] += s * __ldg(c + i); prod *= (unsigned long long) (long long) r[i]; }
            sum += (g & 1) ? 0ULL - prod : prod;
        }
    }
    out[t] = sum;
}
"""


@functools.lru_cache(maxsize=None)
def kernel(n):
    return cp.RawModule(code=SRC % {"n": n}, options=("-std=c++11",)).get_function("ryser64")


def permanent_mod64(a):
    """perm(a) modulo 2^64 for a 0/1 matrix a (numpy int array)."""
    n = a.shape[0]
    k = kernel(n)
    cols = cp.asarray(np.ascontiguousarray(a.T).ravel().astype(np.int32))
    total = 1 << n
    threads = cp.cuda.Device().attributes["MultiProcessorCount"] * 1024
    block = 256
    acc = 0
    off, prev = 0, 1 << 62
    while off < total:
        rem = total - off
        delta = 1 << max(0, (rem // threads).bit_length() - 1) if rem >= threads else 1
        delta = min(max(delta, min(1024, 1 << (rem.bit_length() - 1))), prev)
        nt = min(threads, -(-rem // delta))
        grid = -(-nt // block)
        out = cp.zeros(grid * block, dtype=cp.uint64)
        k((grid,), (block,), (cols, cp.int64(off), cp.int64(delta), cp.int64(total), out))
        acc = (acc + int(out.sum())) % (1 << 64)  # uint64 sum wraps: exact modulo 2^64
        off += nt * delta
        prev = delta
    return acc if n % 2 == 0 else (-acc) % (1 << 64)


def derangements(n):
    d = 1
    for k in range(1, n + 1):
        d = d * k + (1 if k % 2 == 0 else -1)
    return d


def fib(n):
    a, b = 1, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return a if n == 1 else b


def main():
    specs = sys.argv[1:] or ["28:0.5", "32:0.5", "36:0.15"]
    checks = [("perm(J_20)", np.ones((20, 20), dtype=int), math.factorial(20)),
              ("perm(J_19 - I)", 1 - np.eye(19, dtype=int), derangements(19)),
              ("perm(tridiag_24)", (np.abs(np.subtract.outer(np.arange(24), np.arange(24))) <= 1).astype(int), fib(24))]
    for name, a, want in checks:
        got = permanent_mod64(a)
        print(json.dumps({"check": name, "got": str(got), "want": str(want), "ok": got == want}), flush=True)
    rng = np.random.default_rng(1)
    for spec in specs:
        n, p = spec.split(":")
        n, p = int(n), float(p)
        a = (rng.random((n, n)) < p).astype(int)
        kernel(n).attributes  # compile before timing
        t0 = time.perf_counter()
        v = permanent_mod64(a)
        cp.cuda.Device().synchronize()
        dt = time.perf_counter() - t0
        print(json.dumps({"peer": "cupy-exact-ryser64", "n": n, "p": p, "value_mod_2^64": str(v), "seconds": dt,
                          "steps_per_second": (1 << n) / dt, "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}), flush=True)


if __name__ == "__main__":
    main()
