"""Summary table of bench/gpu/permanent-trust.sh: one line per run (time, methods, blocks, error bound, timings).

Usage: python3 bench/peers/permanent_trust_summary.py runs.jsonl
"""
import sys

from jsonl import rows


def main(path):
    print(f"{'run':34} {'n':>3} {'exit':>4} {'total s':>8} {'process s':>9} {'rel. bound':>10}  value / methods / blocks / timings (ms)")
    for r in rows(path):
        if r.get("failed"):
            print(f"{r['label']:34} {'':>3} {r['exit']:>4} FAILED ({r['command']})")
            continue
        if "timings" not in r:  # --exact on a non-0/1 matrix: the rational result
            print(f"{r['label']:34} {r['n']:>3} {r['exit']:>4} {r.get('seconds', 0):>8.3f} {r['process_seconds']:>9.3f} {'exact':>10}  "
                  f"{r.get('value_text')} by {', '.join(r.get('methods', []))}")
            continue
        methods = sorted(set(r.get("methods", [])))
        t = r.get("timings") or {}
        timing = ", ".join(f"{k.replace('_ms', '')} {v:.1f}" for k, v in t.items() if isinstance(v, (int, float)) and k.endswith("_ms"))
        if t.get("build_cached") is not None:
            timing += ", build " + ("cached" if t["build_cached"] else "compiled")
        print(f"{r['label']:34} {r['n']:>3} {r['exit']:>4} {r['seconds']:>8.3f} {r['process_seconds']:>9.3f} {r.get('relative_error_bound', ''):>10}  "
              f"{r['value_text']} ({r['error_kind']}) by {', '.join(methods) or 'preprocessing'}")
        print(f"{'':34}     blocks: {r.get('blocks_summary', '')}")
        print(f"{'':34}     timings: {timing}")
        reps = r.get("repeat_ms") or []
        if len(reps) > 1:
            print(f"{'':34}     repeats: {len(reps)} solves in one process, median {r['median_ms']:.2f} ms, fastest {min(reps):.2f} ms, "
                  f"first {reps[0]:.1f} ms")


if __name__ == "__main__":
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    main(sys.argv[1])
