"""Summary table for bench/gpu/ksum.sh: Squall's kernel sums (rate over the SFU bound), the block-sparse warm phases,
and the PyTorch peer.

Usage: python3 bench/peers/ksum_summary.py ksum.jsonl torch-ksum.jsonl
"""
import sys

from jsonl import rows

sfu = 4.18e12  # 132 SMs x 16 ex2 a clock x 1.98 GHz
print("squall ksum, N = M = 10^6 (kernel ms: median; pairs/s over the SFU bound 4.18e12)")
print(f"{'method':<13} {'kernel':<14} {'prec':<5} {'exponent':<9} {'kernel ms':>10} {'pairs/s':>10} {'/SFU':>6} {'kept':>8} "
      f"{'first ms':>9} {'total ms':>9} {'rel err':>9} ok")
for r in rows(sys.argv[1]):
    if 'method' not in r:
        continue
    print(f"{r['method']:<13} {r['kernel']:<14} {r['precision']:<5} {r.get('exponent', '-'):<9} {r['kernel_ms']:>10.2f} "
          f"{r['pairs_per_s']:>10.3g} {r['pairs_per_s'] / sfu:>6.2f} {r['kept_fraction']:>8.4f} {r['first_call_ms']:>9.1f} "
          f"{r['total_ms']:>9.1f} {str(r.get('rel_error')):>9} {r.get('ok')}")
    w = r.get('warm_phases')
    if w:
        print(f"    warm pass {w['total_ms']:.1f} ms: clustering {w['clustering_ms']:.1f}, build {w['build_ms']:.1f}, "
              f"ranges {w['ranges_ms']:.1f}, sum {w['sum_ms']:.1f} ms")
for t in rows(sys.argv[2]):
    print(f"torch chunked dense {t['precision']}: {t['ms']:.1f} ms, {t['pairs_per_s']:.3g} pairs/s ({t['torch']})")
