"""Summary for bench/gpu/spark.sh: the n = 40 permanent as one process and as a Spark job (job time over the
single-process sweep, agreement of the values), Spark's start-up, per-task and per-chunk overheads, and H2 products
with one task per subtree against the single-process H2Matrix.

Usage: python3 bench/peers/spark_summary.py spark.jsonl
"""
import sys

from jsonl import rows

rs = rows(sys.argv[1])
print("permanent n = 40, p = 0.5, codegen-hybrid, cuda:0 (seconds)")
single = [r for r in rs if r["label"].startswith("single-")]
spark = [r for r in rs if r["label"].startswith("spark-") and r.get("command") == "spark permanent"]
for r in single:
    print(f"  {r['label']:<16} sweep {r['sweep_seconds']:.3f}  whole command {r['seconds']:.3f}  value {r['value_text']}")
for r in spark:
    extra = f"  in-JVM sweep {r['single_seconds']:.3f}  job/sweep {r['ratio']:.3f}  ok {r['ok']}" if r.get("verified") else ""
    print(f"  {r['label']:<16} run {r['run']} job {r['seconds']:.3f} ({r['chunks']} chunks on {r['ran_on']}){extra}  value {r['value_text']}")
best_single = min((r["sweep_seconds"] for r in single), default=None)
warm = [r["seconds"] for r in spark if r["run"] >= 2 and r["label"].startswith("spark-local")]
if best_single and warm:
    ratio = min(warm) / best_single
    print(f"Spark job (local[1], warm, best) {min(warm):.3f} s / single-process sweep (best) {best_single:.3f} s = {ratio:.3f}"
          f" -> {'within' if ratio <= 1.10 else 'NOT within'} 10%")
vals = [r["value"] for r in single + spark if r.get("value") is not None]
if vals:
    spread = (max(vals) - min(vals)) / abs(max(vals, key=abs))
    print(f"values agree to {spread:.1e} relative ({'ok' if spread <= 1e-10 else 'DIFFER'}): {min(vals)!r} .. {max(vals)!r}")
for r in rs:
    if r.get("command") == "spark overhead":
        o, s = r["overhead"], r.get("scaling")
        print(f"{r['label']}: {o['master']} ({o['slots']} slots) start-up {o['startup_seconds']:.2f} s, one-task job {o['job_ms']:.1f} ms,"
              f" {o['tasks']}-task job {o['many_ms']:.1f} ms, {o['per_task_ms']:.2f} ms per further task")
        if s:
            pts = "; ".join(f"{p['chunks_per_slot']}/slot {p['seconds']:.3f}" for p in s["points"])
            print(f"  chunk scaling n = {s['n']} on {s['device']}: {pts}; fit {s['fixed_seconds']:.3f} s + {s['per_chunk_ms']:.2f} ms per chunk and slot")
for r in rs:
    if r.get("command") == "spark h2":
        print(f"{r['label']}: H2 {r['dim']}D n = {r['n']} rank {r['rank']} in {r['tasks']} subtrees (level {r['level']} of {r['depth']}) on"
              f" {sorted(set(r['devices']))}: context {r['context_seconds']:.2f} s, empty {r['tasks']}-task job {r['empty_job_ms']:.1f} ms,"
              f" cut {r['cut_seconds']:.2f} s, first product {r['first_seconds']:.2f} s, then {r['product_seconds']:.4f} s"
              f" (upsweep job {r['upsweep_seconds']:.4f}, top {r['top_seconds']:.4f}, rows job {r['rows_seconds']:.4f}), {r['halo_values']} halo values")
        if r.get("verified"):
            print(f"  single process: build {r['single_build_seconds']:.2f} s, product {r['single_seconds']:.4f} s; Spark / single = {r['ratio']:.2f};"
                  f" |y - y_single| / |y_single| = {r['relative_difference']:.1e}; sampled rows vs exact {r['sample_error']:.1e}; ok {r['ok']}")
