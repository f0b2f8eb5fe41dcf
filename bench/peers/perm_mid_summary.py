"""Summary of bench/gpu/perm-final.sh (and its midpoint predecessor perm-mid.sh): per run time, kernel, estimate share, predicted sweep seconds; per double run the
actual error against its double-double reference over the printed estimate (<= 1: the estimate held).

Usage: python3 bench/peers/perm_mid_summary.py runs.jsonl
"""
import re
import sys

from jsonl import rows


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def main(path):
    rs = rows(path)
    by = {r["label"]: r for r in rs}
    print(f"{'run':22} {'exit':>4} {'solve s':>8} {'proc s':>7} {'kernel s':>8} {'dev s':>7} {'est ms':>8} {'est/sweep':>9} "
          f"{'est work':>8} {'predicted s':>11} {'rel bound':>10}  method")
    for r in rs:
        if r.get("failed"):
            print(f"{r['label']:22} {r['exit']:>4} FAILED ({r['command']})")
            continue
        t = r.get("timings") or {}
        g = (r.get("generated") or [{}])[0]
        pred = re.search(r"Gray-code Ryser ~([0-9.eE+-]+) s", " ".join(r.get("reasons") or []))
        print(f"{r['label']:22} {r['exit']:>4} {r.get('seconds', 0):>8.3f} {r['process_seconds']:>7.2f} {num(g.get('kernel_seconds')):>8.3f} "
              f"{num(t.get('device_kernel_ms')) / 1e3:>7.3f} {num(t.get('estimate_ms')):>8.1f} {num(t.get('estimate_fraction')):>9.3f} "
              f"{num(t.get('estimate_work_fraction')):>8.4f} {pred.group(1) if pred else '-':>11} {str(r.get('relative_error_bound', '')):>10}  "
              f"{', '.join(sorted(set(r.get('methods', []))))}"
              + (f"; repeat median {r['median_ms']:.2f} ms" if len(r.get('repeat_ms') or []) > 1 else ""))
    print()
    print("actual error (against the double-double reference) over the printed estimate; <= 1 means the estimate held")
    for r in rs:
        lab = r["label"]
        m = re.match(r"(.*)-(r16|r0)$", lab)
        if not m or r.get("failed"):
            continue
        ref = by.get(m.group(1) + "-ref")
        if not ref or ref.get("failed"):
            print(f"{lab:22} no reference")
            continue
        v, e, vr, er = num(r["value"]), num(r["error_bound"]), num(ref["value"]), num(ref["error_bound"])
        actual = abs(v - vr)
        print(f"{lab:22} value {v:.16e} ref {vr:.16e} (ref bound {er:.2e}, {', '.join(ref.get('methods', []))}); "
              f"actual {actual:.3e} estimate {e:.3e} ratio {actual / e if e > 0 else float('inf'):.3f}; "
              f"relative actual {actual / abs(vr) if vr else float('nan'):.2e}")


if __name__ == "__main__":
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    main(sys.argv[1])
