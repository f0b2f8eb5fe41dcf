"""Summary table for bench/gpu/linalg-batched.sh: each batched Cholesky kernel against torch.linalg.cholesky.

Usage: python3 bench/peers/cholesky_batched_summary.py batched.jsonl torch-batched.jsonl
"""
import sys

from jsonl import rows

squall, peer = rows(sys.argv[1]), rows(sys.argv[2])
tms = peer[0]["ms"] if peer else float("nan")
print("batched Cholesky 64 x 64 fp64, 10,000 matrices (median of 20); ratio = torch ms / squall ms, target >= 2 (<= %.3f ms)" % (tms / 2))
print(f"{'kernel':<14} {'ms':>8} {'torch ms':>9} {'ratio':>7} {'residual':>12} ok")
for r in squall:
    ms = r["ms_median"]
    print(f"{r['kernel']:<14} {ms:>8.3f} {tms:>9.3f} {tms / ms:>7.2f} {str(r.get('residual')):>12} {r.get('ok')}")
if not squall:
    print("(no Squall results: see batched.log)")
