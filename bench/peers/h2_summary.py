"""Summary table for bench/gpu/h2.sh: Squall's H2 products (construction, product time, GB/s, compression) beside the
PyTorch dense product, and the size from which H2 beats the dense product in 2D and 3D.

Usage: python3 bench/peers/h2_summary.py h2.jsonl torch-h2.jsonl
"""
import sys

from jsonl import rows

sq, pt = rows(sys.argv[1]), rows(sys.argv[2])
print("squall h2 (product ms: median whole product between CUDA events; GB/s: dense + couplings + bases + transfers / time)")
print(f"{'dim':>3} {'n':>8} {'adm':<6} {'eta':>4} {'nv':>3} {'device':<12} {'GB':>7} {'build ms':>9} {'host':>7} {'dev':>7} {'prod ms':>9} "
      f"{'GB/s':>7} {'/copy':>6} {'GFLOP/s':>8} {'rel err':>9} ok")
for r in sq:
    print(f"{r['dim']:>3} {r['n']:>8} {r['admissibility']:<6} {r['eta']:>4} {r['vectors']:>3} {r['device']:<12} {r['counted_bytes'] / 1e9:>7.2f} "
          f"{r['build_ms']:>9.0f} {r['build_host_ms']:>7.0f} {r['build_device_ms']:>7.0f} {r['product_device_ms']:>9.3f} {r['gbs']:>7.0f} "
          f"{r['ratio_to_copy']:>6.2f} {r['gflops']:>8.0f} {str(r.get('rel_error'))[:9]:>9} {r['ok']}")
    if r.get("compression"):
        c = r["compression"]
        print(f"    compress {c['tolerance']:.0e}: {c['ms']:.0f} ms {c['steps_ms']}, projections {c['projection_gflop']:.1f} GFLOP at "
              f"{c['projection_gflops']:.0f} GFLOP/s ({'GEMM' if c['projection_gemm'] else 'kernels'}), memory {c['memory_before'] / 1e9:.2f} -> "
              f"{c['memory_after'] / 1e9:.2f} GB, ranks {c['row_ranks']}, error estimate {c['error_estimate']:.2e}")
    if r['dim'] == 3 and r['n'] == 1048576 and r['vectors'] == 1:
        print(f"    construction parts (device ms): {r['build_parts_ms']}")
for t in pt:
    if "skipped" in t:
        print(f"torch dense {t['dim']}D n={t['n']}: {t['skipped']}")
        continue
    print(f"torch dense {t['dim']}D n={t['n']}: {t['ms']:.3f} ms, {t['gbs']:.0f} GB/s ({t['torch']})")
for dim in (2, 3):
    dense = {t["n"]: t["ms"] for t in pt if t.get("dim") == dim and "ms" in t}
    h2 = {r["n"]: r["product_device_ms"] for r in sq if r["dim"] == dim and r["vectors"] == 1 and r["device"].startswith("cuda")
          and r["admissibility"] == "center" and r["eta"] == 1.0}
    common = sorted(set(dense) & set(h2))
    won = [n for n in common if h2[n] < dense[n]]
    print(f"{dim}D crossover: H2 faster than the dense product from n = {won[0] if won else 'none of ' + str(common)}"
          + (f" (sizes compared: {common})" if common else ""))
print("linear in n (cuda, nv = 1, eta 1.0): product ms and storage GB per 2^20 points at each size")
for dim in (2, 3):
    for r in sorted((r for r in sq if r["dim"] == dim and r["vectors"] == 1 and r["device"].startswith("cuda") and r["eta"] == 1.0),
                    key=lambda r: r["n"]):
        f = (1 << 20) / r["n"]
        print(f"  {dim}D n=2^{r['n'].bit_length() - 1:<2} {r['product_device_ms']:9.3f} ms ({r['product_device_ms'] * f:7.3f} per 2^20), "
              f"{r['counted_bytes'] / 1e9:7.2f} GB ({r['counted_bytes'] / 1e9 * f:6.2f} per 2^20), {r['ratio_to_copy']:.2f} of copy")
print("targets")
for r in sq:
    cuda = r["device"].startswith("cuda")
    if cuda and r["n"] == 1048576 and r["vectors"] == 1:
        print(f"  {r['dim']}D 2^20 nv=1 (eta {r['eta']}): {r['product_device_ms']:.2f} ms, {r['ratio_to_copy']:.2f} of copy (target >= 0.8), "
              f"build {r['build_ms']:.0f} ms (target <= 1000 for 3D), verified {r['verified']} rel err {r.get('rel_error')}")
    if cuda and r["vectors"] == 32:
        print(f"  {r['dim']}D n={r['n']} nv=32: {r['product_device_ms']:.2f} ms, {r['gflops'] / 1e3:.1f} TFLOP/s (target >= 10)")
    if not cuda:
        print(f"  {r['dim']}D n={r['n']} on {r['device']}: product {r['product_device_ms']:.2f} ms, build {r['build_ms']:.0f} ms, "
              f"verified {r['verified']} rel err {r.get('rel_error')}")
