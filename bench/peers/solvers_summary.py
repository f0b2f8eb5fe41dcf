"""Summary for bench/gpu/solvers.sh: MG-PCG and Gauss-Seidel runs (times, GFLOP/s, GB/s against the copy bandwidth,
per-phase profile) and the level-scheduled triangular solves against cuSPARSE's SpSV on the same matrices.

Usage: python3 bench/peers/solvers_summary.py solvers.jsonl trsv-cusparse.jsonl
"""
import sys

from jsonl import rows

for r in rows(sys.argv[1]):
    if r.get("command") == "pcg":
        print(f"pcg {r['matrix']:>22} {r['precond']:6} {r['device']:7} {r['status']:10} it {r['iterations']:4} "
              f"{r['ms_per_iteration']:8.3f} ms/it {r['gflops']:7.1f} GFLOP/s {r['gbs']:7.1f} GB/s ({100*r['ratio_to_copy']:.0f}% of copy) "
              f"{r['launches_per_iteration']} launches/it solve {r['solve_ms']:.0f} ms ok={r['ok']}")
        for t in r.get("phases") or []:
            print(f"      {t['name']:28} {t['launches']:4} launches {t['ms']:8.3f} ms")
    elif r.get("command") == "gs":
        print(f"gs  {r['matrix']:>22} {r.get('layout','')[:40]:40} {r['ms_per_sweep']:8.3f} ms/sweep {r['gbs']:7.1f} GB/s counted "
              f"({100*r['ratio_to_copy']:.0f}% of copy), layout {r['layout_gbs']:7.1f} GB/s ({100*r['layout_ratio_to_copy']:.0f}%) ok={r['ok']}")
peers = {r["matrix"]: r for r in rows(sys.argv[2])}
for r in rows(sys.argv[1]):
    if r.get("command") == "gs" and r.get("direction") == "forward":
        name = r["matrix"].rsplit("/", 1)[-1].removesuffix(".mtx")
        p = peers.get(name)
        if p:
            print(f"trsv {name:10} squall {r['ms_per_sweep']:.4f} ms ({r['launches_per_sweep']} launches) vs cuSPARSE {p['ms']:.4f} ms "
                  f"({p['method']}): {p['ms'] / r['ms_per_sweep']:.2f}x")
