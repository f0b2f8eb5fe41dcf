"""Summary table for bench/gpu/h2-matvec.sh: the H2 product with the block-row kernels against the per-level kernels,
case by case (product ms, GB/s counted as the paper counts and its ratio to the copy kernel, GFLOP/s, error on sampled
rows), then each phase alone of the 2^20 cases.

Usage: python3 bench/peers/h2_matvec_summary.py h2-block-rows.jsonl h2-levels.jsonl
"""
import sys

from jsonl import rows


def key(r):
    return (r["vectors"], r["dim"], r["n"], r["eta"], r["admissibility"], r["device"])


new, old = rows(sys.argv[1]), rows(sys.argv[2])
olds = {key(r): r for r in old}
print("H2 product, block rows (new) vs per-level kernels (old): median whole product between CUDA events")
print(f"{'nv':>3} {'dim':>3} {'n':>8} {'eta':>4} {'GB':>6} | {'old ms':>8} {'/copy':>5} {'GFLOP/s':>8} | {'new ms':>8} {'/copy':>5} "
      f"{'GFLOP/s':>8} {'rel err':>9} ok | speed-up")
for r in sorted(new, key=key):
    o = olds.get(key(r))
    os_ = f"{o['product_device_ms']:>8.3f} {o['ratio_to_copy']:>5.2f} {o['gflops']:>8.0f}" if o else f"{'-':>8} {'-':>5} {'-':>8}"
    sp = f"{o['product_device_ms'] / r['product_device_ms']:.2f}x" if o else ""
    print(f"{r['vectors']:>3} {r['dim']:>3} {r['n']:>8} {r['eta']:>4} {r['counted_bytes'] / 1e9:>6.2f} | {os_} | "
          f"{r['product_device_ms']:>8.3f} {r['ratio_to_copy']:>5.2f} {r['gflops']:>8.0f} {str(r.get('rel_error'))[:9]:>9} {r['ok']} | {sp}")
print("phases alone at 2^20 (ms, median; new / old)")
for r in sorted(new, key=key):
    o = olds.get(key(r))
    if r["n"] != 1048576 and not (r["vectors"] > 1 and o):
        continue
    ph = ", ".join(f"{k} {v:.3f}" + (f"/{o['phase_ms'][k]:.3f}" if o else "") for k, v in r["phase_ms"].items())
    print(f"  nv {r['vectors']} {r['dim']}D n {r['n']} eta {r['eta']}: {ph}; sum {r['phase_sum_ms']:.3f}, whole {r['product_device_ms']:.3f}")
