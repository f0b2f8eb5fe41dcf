"""Summary table for bench/gpu/permanent.sh: every `squall permanent --json` run against the paper's A100 times,
the GPU/JVM ratio and the CuPy peers' lines.

Usage: python3 bench/peers/permanent_summary.py runs.jsonl cupy-peer.txt cupy-exact-peer.txt
runs.jsonl holds one object per run, labelled by the script ("label"), or {"label", "failed", "exit"} for a failed one.
"""
import sys

from jsonl import rows

runs = rows(sys.argv[1])
by = {r["label"]: r for r in runs}
# the paper's A100 sweep times for the same sizes (permanent/PERF.md)
paper = {"hybrid-n40-p0.1": 3.18, "hybrid-n40-p0.5": 6.51, "hybrid-n45-p0.1": 92.06, "purereg-n40-p0.1": 7.52, "purereg-n40-p0.5": 8.75}
print(f"{'run':28} {'n':>3} {'sweep s':>9} {'steps/s':>10} {'A100 paper s':>12} {'regs/resources':<40} value / verify")
for r in runs:
    if r.get("failed"):
        print(f"{r['label']:28} FAILED exit {r['exit']}"); continue
    res = "; ".join(g.get("resources", "") for g in r.get("generated", []))[:40]
    v = r.get("verify")
    ver = ("verify OK %.1e" % v["relative_error"] if v["ok"] else "VERIFY FAILED") if v and v.get("relative_error") is not None else ""
    print(f"{r['label']:28} {r['n']:>3} {r['sweep_seconds']:>9.3f} {r['steps_per_second']:>10.3e} {paper.get(r['label'], ''):>12} {res:<40} {r['value_text']} {ver}")
jvm = by.get("jvm-sparse-n32-p0.1")
for lab in ("hybrid-n40-p0.1", "hybrid-n45-p0.1"):
    g = by.get(lab)
    if jvm and g and not jvm.get("failed") and not g.get("failed"):
        # JVM time at the GPU's n, extrapolated by 2^(n-1) steps (density differs per step only through column sizes)
        est = jvm["sweep_seconds"] * 2 ** (g["n"] - jvm["n"])
        print(f"GPU vs JVM (all host cores), {lab}: JVM n={jvm['n']} {jvm['sweep_seconds']:.2f} s extrapolated by 2^{g['n']-jvm['n']} to {est:.0f} s; ratio {est / g['sweep_seconds']:.1f}x (extrapolated, not measured at n={g['n']})")
for r in runs:
    if "exact" in r:
        ve = r.get("verify_exact", {}).get("note", "")
        print(f"exact {r['label']:24} n={r['n']} {r['exact']}{'' if r['exact_is_value'] else ' (mod 2^64 only)'} in {r['exact_seconds']:.3f} s,"
              f" {r['exact_steps_per_second']:.3e} Ryser steps/s on {r['exact_device']} ({r.get('exact_path', '')}) {ve}")
for r in runs:
    for g in r.get("generated", []):
        if g.get("layout"): print(f"layout {r['label']}: {g['layout'][:150]}")
for f, tag in ((sys.argv[2], "cupy peer"), (sys.argv[3], "cupy exact peer")):
    try:
        for l in open(f):
            if l.startswith("{"): print(tag + ": " + l.strip())
    except OSError:
        print(tag + ": no output")
