import cupy as cp, numpy as np, json, sys, time
src = open(__file__.replace("bench.py", "kern.cu")).read()
variants = [(0,32,16,1),(1,32,16,1),(2,32,16,1),(3,32,16,1),(1,32,16,2),(2,32,16,2),(3,32,16,2),(3,32,32,1)]
names = ["mmaRate<%d>" % s for s in range(4)] + ["gemm<%d,%d,%d,%d>" % v for v in variants]
mod = cp.RawModule(code=src, options=("-std=c++17", "--gpu-architecture=sm_90"), name_expressions=names)
def med(f, reps=10):
    f(); cp.cuda.Device().synchronize()
    ts = []
    for _ in range(reps):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    return float(np.median(ts))
out = cp.zeros(132 * 16 * 256, dtype=cp.float64)
fl = [2*8*8*4, 2*16*8*4, 2*16*8*8, 2*16*8*16]
for s in range(4):
    k = mod.get_function(names[s])
    for blocks, thr in ((132*4, 256), (132*8, 256), (132*2, 128)):
        iters = 4000
        ms = med(lambda: k((blocks,), (thr,), (out, np.int32(iters))), 5)
        tf = blocks * thr // 32 * iters * 8 * fl[s] / ms / 1e9
        print(json.dumps(dict(probe="mmaRate", shape=["m8n8k4","m16n8k4","m16n8k8","m16n8k16"][s], blocks=blocks, threads=thr, ms=ms, tflops=tf)), flush=True)
def run_gemm(v, m, n, k, lower, A, B, C, beta=0.0):
    f = mod.get_function("gemm<%d,%d,%d,%d>" % v)
    shared = 2 * v[3] * v[2] * 132 * 8
    if shared > 48 * 1024:
        f.max_dynamic_shared_size_bytes = shared
    nt = 32 * 2 * (128 // v[1])
    grid = ((m + 127) // 128, (n + 127) // 128)
    return lambda: f(grid, (nt,), (A, B, C, np.int32(m), np.int32(n), np.int32(k), np.int32(m), np.int32(n), np.int32(m), np.float64(1.0), np.float64(beta), np.int32(lower)), shared_mem=shared)
rng = cp.random.default_rng(1)
for (m, n, k, lower) in ((8192, 8192, 8192, 0), (8192, 8192, 512, 1), (4096, 4096, 512, 1)):
    A = rng.standard_normal((k, m)).T  # column-major m x k: stored as (k, m) C-order
    A = cp.asfortranarray(rng.standard_normal((m, k)))
    B = cp.asfortranarray(rng.standard_normal((n, k)))
    ref = A @ B.T
    fl = 2.0 * m * n * k * (0.5 if lower else 1.0)
    if lower:
        Cp = cp.zeros((n, n), order="F")
        ms = med(lambda: cp.cublas.syrk("N", A, out=Cp, alpha=1.0, beta=0.0, lower=True))
        print(json.dumps(dict(probe="cublas-syrk", m=m, n=n, k=k, ms=ms, tflops=fl / ms / 1e9)), flush=True)
    Cp = cp.empty((m, n), order="F")
    ms = med(lambda: cp.matmul(A, B.T, out=Cp))
    print(json.dumps(dict(probe="cublas-gemm", m=m, n=n, k=k, ms=ms, tflops=2.0*m*n*k / ms / 1e9)), flush=True)
    for v in variants:
        C = cp.full((m, n), cp.nan, order="F")
        try:
            f = run_gemm(v, m, n, k, lower, A, B, C)
            f(); cp.cuda.Device().synchronize()
            d = cp.tril(C - ref) if lower else C - ref
            err = float(cp.linalg.norm(cp.nan_to_num(d, nan=1e30)) / cp.linalg.norm(ref))
            ms = med(f)
            print(json.dumps(dict(probe="gemm", variant="shape%d/wn%d/d%d/st%d" % v, m=m, n=n, k=k, lower=lower, ms=ms, tflops=fl / ms / 1e9, relerr=err)), flush=True)
        except Exception as ex:
            print(json.dumps(dict(probe="gemm", variant=str(v), error=str(ex)[:300])), flush=True)
