"""Summary tables for bench/gpu/sparse.sh: SpMV fp64/fp32 and SpMM against CuPy/cuSPARSE and the gather limit, and
the JMH table of the JVM target.

Usage: python3 bench/peers/sparse_summary.py OUT   (the folder with spmv-fp64.jsonl, spmv-fp32.jsonl, spmm.jsonl,
cupy.jsonl, jvm-ejml.txt)
"""
import collections
import os
import sys

import jsonl
out = sys.argv[1]
def rows(f):
    return jsonl.rows(f"{out}/{f}")
def host_cores():
    # the jvm device line of devices.txt ("(16 threads)"), written on the host that ran the benchmarks, so a summary
    # rebuilt elsewhere from the folder names that host's cores, not its own
    try:
        for line in open(f"{out}/devices.txt"):
            if line.startswith("jvm") and "threads)" in line:
                return int(line.rsplit("(", 1)[1].split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return len(os.sched_getaffinity(0))
def key(m):
    return m.replace(":", "_").replace("x", "_")
peers = rows("cupy.jsonl")
peer = {(r["matrix"], r["precision"]): r for r in peers if r["op"] == "spmv"}
how = sorted({r["timing"] for r in peers})
for prec, f in (("fp64", "spmv-fp64.jsonl"), ("fp32", "spmv-fp32.jsonl")):
    by = collections.OrderedDict()
    for r in rows(f):
        if "error" not in r:
            by.setdefault(key(r["matrix"]), []).append(r)
    print(f"\nSpMV {prec}: GB/s of counted bytes (per call, batches of 10, median of 30); peer = CuPy csr_matrix @ x (cusparseSpMV, {'/'.join(how) or 'not run'})")
    print(f"{'matrix':20} {'nnz':>9} {'auto (pick)':>19} {'best named format':>22} {'cuSPARSE':>8} {'limit':>6} {'best/cuSP':>9} {'auto/cuSP':>9} {'auto/best':>9} {'lim/cuSP':>8} {'best/lim':>8} {'copy%':>6} {'verify':>6}")
    for m, rs in by.items():
        auto = next((r for r in rs if r["reason"].startswith("auto")), None)
        named = [r for r in rs if not r["reason"].startswith("auto")] or rs
        best = max(named, key=lambda r: r["gbs"])
        p = peer.get((m, prec))
        pg = p["gbs"] if p else float("nan")
        ok = all(r.get("verified") for r in rs)
        a = f"{auto['gbs']:.0f} ({auto['format']})" if auto else "-"
        lim = next((r["gather_limit_gbs"] for r in rs if r.get("gather_limit_gbs")), float("nan"))
        print(f"{m:20} {rs[0]['nnz']:>9} {a:>19} {best['gbs']:>10.0f} ({best['format']:>10}) {pg:>8.0f} {lim:>6.0f} {best['gbs'] / pg:>9.2f} "
              f"{(auto['gbs'] / pg if auto else float('nan')):>9.2f} {(auto['gbs'] / best['gbs'] if auto else float('nan')):>9.2f} "
              f"{lim / pg:>8.2f} {best['gbs'] / lim:>8.2f} {100 * best['ratio_to_copy']:>5.0f}% {'ok' if ok else 'FAIL':>6}")
        if m.startswith(("skewed", "rmat")):
            print(f"{'':20}   " + ", ".join(f"{r['format']} {r['gbs']:.0f}" for r in named if r["format"].startswith("csr-")))
speer = {(r["matrix"], r["layout"]): r for r in peers if r["op"] == "spmm"}
sm = rows("spmm.jsonl")
if sm:
    print("\nSpMM fp64, K = 8: GB/s of counted bytes (matrix once + X and Y); peer = CuPy csr_matrix @ X (cusparseSpMM)")
    print(f"{'matrix':20} {'layout':>6} {'squall':>8} {'GFLOP/s':>8} {'cuSPARSE':>8} {'ratio':>6} {'verify':>6} kernel")
    for r in sm:
        p = speer.get((key(r["matrix"]), r["layout"]))
        pg = p["gbs"] if p else float("nan")
        print(f"{key(r['matrix']):20} {r['layout']:>6} {r['gbs']:>8.0f} {r['gflops']:>8.0f} {pg:>8.0f} {r['gbs'] / pg:>6.2f} "
              f"{'ok' if r.get('verified') else 'FAIL':>6} {'binned' if 'binned' in r.get('detail', '') else 'per-output'}")
try:
    jmh = [l.split() for l in open(f"{out}/jvm-ejml.txt") if l.startswith("SpmvJvmBenchmark.")]
except FileNotFoundError:
    jmh = []
if jmh:
    ms = {(w[0].split(".")[1], w[1]): float(w[4]) for w in jmh if len(w) >= 7}
    print(f"\nJVM (host CPU, {host_cores()} cores), fp64 SpMV ms/op (JMH): Squall csr/auto on the jvm device vs EJML CSC")
    print(f"{'matrix':20} {'squall csr':>10} {'auto':>8} {'ejml':>8} {'ejml/csr':>8}")
    for m in sorted({k[1] for k in ms}):
        c, a_, e = ms.get(("squallCsr", m), float("nan")), ms.get(("squallAuto", m), float("nan")), ms.get(("ejmlCsc", m), float("nan"))
        print(f"{m:20} {c:>10.2f} {a_:>8.2f} {e:>8.2f} {e / c:>8.2f}")
print("\nlimit: gather-limit kernel (col and val streamed coalesced in schedule order, x[col] gathered, one sum per work-item),"
      " GB/s of the same counted bytes; lim/cuSP < 1.2 means no format moving CSR's bytes in CSR's gather order reaches 1.2x cuSPARSE")
bad = [r for r in peers if r["rel_error"] > (1e-12 if r["precision"] == "fp64" else 1e-5)]
if bad:
    print(f"\npeer figures failing their own host check: {[(r['matrix'], r['op'], r['precision']) for r in bad]}")
