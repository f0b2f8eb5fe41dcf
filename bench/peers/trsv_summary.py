"""Summary for bench/gpu/trsv.sh: squall's triangular solves (level-scheduled, sync-free) against cuSPARSE's SpSV on
the same lower triangles, and the whole solves (MG-PCG on cuda:0 against the JVM backend, ILU(0)-PCG with each kind of
triangular solve).

Usage: python3 bench/peers/trsv_summary.py trsv.jsonl trsv-cusparse.jsonl
"""
import re
import sys

from jsonl import rows


def peer_name(matrix):
    """The peer script's name for squall's matrix: hpcg:128x128x128, multicolour order, lower triangle -> hpcg128mc."""
    m = re.match(r"hpcg:(\d+)x", matrix)
    if m:
        return "hpcg" + m.group(1) + ("mc" if "multicolour" in matrix else "")
    return matrix.split(",")[0].rsplit("/", 1)[-1].removesuffix(".mtx")


peers = {r["matrix"]: r for r in rows(sys.argv[2])}
print(f"{'matrix':12} {'squall schedule':84} {'ms':>9} {'launches':>8} {'cuSPARSE ms':>11} {'vs cuSPARSE':>11} ok")
for r in rows(sys.argv[1]):
    if r.get("command") != "gs":
        continue
    name = peer_name(r["matrix"])
    p = peers.get(name)
    ratio = f"{p['ms'] / r['ms_per_sweep']:.2f}x" if p else "-"
    pms = f"{p['ms']:.4f}" if p else "-"
    if "sync-free" in r["layout"]:
        label = "sync-free, rows in " + ("level order" if "level order" in r["layout"] else "natural order") \
            + (", by warps" if "waiting by warps" in r["layout"] else "")
        lanes = re.search(r"(\d+ lanes a row[^)]*)", r["layout"])
        if lanes:
            label += ", " + lanes.group(1)
        if "walking the levels" in r["layout"]:
            label = "level order, one work-group walking the levels" + (", values in local memory" if "local memory" in r["layout"] else "")
    else:
        label = f"{r['schedule']}, chain-max 512, {r['layout'].split(' ')[0]}"
    print(f"{name:12} {label[:84]:84} {r['ms_per_sweep']:9.4f} {r['launches_per_sweep']:8} {pms:>11} {ratio:>11} {r['ok']}"
          f"  ({r['groups']} levels, {r['rows_per_group_mean']:.0f} rows each)")
for name, p in peers.items():
    print(f"cusparse {name:12} {p['rows']} rows {p['nnz']} entries {p['ms']:.4f} ms, analysis {p.get('analysis_ms')} ms, "
          f"{p['gbs']:.1f} GB/s counted, residual {p['rel_residual']:.1e} ({p['method']})")
pcg = [r for r in rows(sys.argv[1]) if r.get("command") == "pcg"]
for r in pcg:
    print(f"pcg {r['matrix']:>18} {r['precond']:5} {r['device']:7} {r['status']:10} it {r['iterations']:4} {r['ms_per_iteration']:9.3f} ms/it "
          f"solve {r['solve_ms']:9.0f} ms, kernels {r['kernel_ms']:9.0f} ms, {r['launches_per_iteration']} launches/it ok={r['ok']}  "
          f"{r['precond_detail'][:110]}")
mg = {r["device"]: r for r in pcg if r["precond"] == "mg"}
if "jvm" in mg and "cuda:0" in mg:
    g, j = mg["cuda:0"], mg["jvm"]
    print(f"whole MG-PCG solve, cuda:0 over jvm: {j['solve_ms'] / g['solve_ms']:.1f}x wall (solve), "
          f"{j['ms_per_iteration'] / g['ms_per_iteration']:.1f}x per iteration (device time)")
ilu = [r for r in pcg if r["precond"] == "ilu0"]
if len(ilu) == 2:
    a, b = ilu
    print(f"ILU(0)-PCG per iteration: {a['ms_per_iteration']:.3f} ms ({a['precond_detail'].split('triangular solves ')[-1][:40]}) vs "
          f"{b['ms_per_iteration']:.3f} ms ({b['precond_detail'].split('triangular solves ')[-1][:40]})")
