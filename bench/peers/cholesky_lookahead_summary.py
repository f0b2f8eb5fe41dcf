"""Summary table for bench/gpu/cholesky-lookahead.sh: blocked Cholesky with and without look-ahead against cuSOLVER.

Usage: python3 bench/peers/cholesky_lookahead_summary.py lookahead.jsonl torch-lookahead.jsonl
"""
import sys

from jsonl import rows

squall, peer = rows(sys.argv[1]), rows(sys.argv[2])
torch_ms = {r["n"]: r["ms"] for r in peer}
print("blocked Cholesky fp64 (median of 5); ratio = squall ms / cuSOLVER (torch) ms, target <= 1.3")
print(f"{'n':>6} {'block':>6} {'kernel':<22} {'ms':>8} {'torch ms':>9} {'ratio':>6} {'residual':>12} ok")
for r in squall:
    t = torch_ms.get(r["n"], float("nan"))
    print(f"{r['n']:>6} {r['block']:>6} {r['kernel']:<22} {r['ms_median']:>8.2f} {t:>9.2f} {r['ms_median'] / t:>6.2f} {str(r.get('residual')):>12} {r.get('ok')}")
if not squall:
    print("(no Squall results: see lookahead.log)")
