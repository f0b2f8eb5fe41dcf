"""Summary table for bench/gpu/sparse-rmat.sh: csr-binned and its knobs against cuSPARSE and the gather limit.

Usage: python3 bench/peers/sparse_rmat_summary.py OUT   (the folder with spmv.jsonl and cupy.jsonl)
"""
import sys

import jsonl
out = sys.argv[1]
def rows(f):
    return jsonl.rows(f"{out}/{f}")
peer = {r["matrix"]: r["gbs"] for r in rows("cupy.jsonl") if r["op"] == "spmv" and r["precision"] == "fp64"}
by = {}
for r in rows("spmv.jsonl"):
    by.setdefault(r["matrix"].replace(":", "_").replace("x", "_"), []).append(r)
print("SpMV fp64, GB/s of counted bytes (batches of 10, median of 30); /binned: to csr-binned (one launch); cuSPARSE: CuPy csr_matrix @ x")
for m, rs in by.items():
    base = next((r["gbs"] for r in rs if r.get("format") == "csr-binned"), float("nan"))
    p = peer.get(m, float("nan"))
    lim = next((r["gather_limit_gbs"] for r in rs if r.get("gather_limit_gbs")), float("nan"))
    print(f"\n{m}: cuSPARSE {p:.0f} GB/s, gather limit {lim:.0f} GB/s")
    print(f"  {'format':28} {'GB/s':>7} {'/binned':>8} {'/cuSP':>6} {'/limit':>7} {'verify':>6}")
    for r in rs:
        if "error" in r:
            print(f"  {r['format']:28} error: {r['error']}")
            continue
        g = r["gbs"]
        print(f"  {r['format']:28} {g:>7.0f} {g / base:>8.3f} {g / p:>6.2f} {g / lim:>7.2f} {'ok' if r.get('verified') else 'FAIL':>6}")
