"""Summary of bench/gpu/perm4-mid.sh and perm4-final.sh: per run the solve, the blocks without their error estimates
(sweep_seconds), the estimate (estimate_seconds) and its share of the Ryser sweep's launches (timings: estimate_ms over
sweep_ms; estimate_device_ms its kernels' device time), the device time, the relative bound; per double run ("-dbl") the actual error against its reference run
("-ref": double-double or the frontier program) over the printed estimate (<= 1: the estimate held).

Usage: python3 bench/peers/perm4_summary.py runs.jsonl
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
    print(f"{'run':26} {'exit':>4} {'seconds':>8} {'sweep_s':>8} {'est_s':>7} {'sweep ms':>9} {'dev ms':>8} {'est ms':>7} {'est dev':>7} {'est/sweep':>9} "
          f"{'gen ms':>7} {'build ms':>8} {'rel bound':>10}  method")
    for r in rs:
        if r.get("failed"):
            print(f"{r['label']:26} {r['exit']:>4} FAILED ({r['command']})")
            continue
        t = r.get("timings") or {}
        sweep, est = num(t.get("sweep_ms")), num(t.get("estimate_ms"))
        print(f"{r['label']:26} {r['exit']:>4} {num(r.get('seconds')):>8.3f} {num(r.get('sweep_seconds')):>8.3f} {num(r.get('estimate_seconds')):>7.3f} "
              f"{sweep:>9.1f} {num(t.get('device_kernel_ms')):>8.1f} {est:>7.1f} {num(t.get('estimate_device_ms')):>7.2f} {est / sweep if sweep > 0 else float('nan'):>9.3f} "
              f"{num(t.get('generate_ms')):>7.1f} {num(t.get('build_ms')):>8.1f} {str(r.get('relative_error_bound', '')):>10}  "
              f"{', '.join(sorted(set(r.get('methods', []))))}"
              + (f"; {len(r['repeat_ms'])} solves, median {r['median_ms']:.1f} ms, all {[round(x, 1) for x in r['repeat_ms']]}"
                 if len(r.get('repeat_ms') or []) > 1 else ""))
    print()
    print("cost model: the reason's predicted seconds against the block's measured seconds")
    for r in rs:
        if r.get("failed"):
            continue
        for b, why in zip(r.get("blocks_detail") or [], r.get("reasons") or []):
            m = re.search(r"frontier width (\d+)[^~]*~([0-9.eE+-]+) s against Gray-code Ryser ~([0-9.eE+-]+) s", why)
            if m:
                print(f"{r['label']:26} block {b['order']:>3} {b['method']:22} width {m.group(1):>2}: frontier predicted {num(m.group(2)):.3g} s,"
                      f" measured {num(b['seconds']):.3g} s (ratio {num(m.group(2)) / num(b['seconds']):.2f}); Gray-code figure {m.group(3)} s")
                continue
            m = re.search(r"Gray-code Ryser ~([0-9.eE+-]+) s", why)
            if m:
                print(f"{r['label']:26} block {b['order']:>3} {b['method']:22} Gray-code predicted {m.group(1)} s, measured {num(b['seconds']):.3g} s")
    print()
    print("actual error (against the reference run) over the printed estimate; <= 1 means the estimate held")
    for r in rs:
        lab = r["label"]
        if not lab.endswith("-dbl") or r.get("failed"):
            continue
        ref = by.get(lab[:-4] + "-ref")
        if not ref or ref.get("failed"):
            print(f"{lab:26} no reference")
            continue
        v, e, vr, er = num(r["value"]), num(r["error_bound"]), num(ref["value"]), num(ref["error_bound"])
        actual = abs(v - vr)
        print(f"{lab:26} value {v:.16e} ref {vr:.16e} (ref bound {er:.2e}, {', '.join(ref.get('methods', []))}); "
              f"actual {actual:.3e} estimate {e:.3e} ratio {actual / e if e > 0 else float('inf'):.3f}; "
              f"relative actual {actual / abs(vr) if vr else float('nan'):.2e}, relative estimate {e / abs(vr) if vr else float('nan'):.2e}")


if __name__ == "__main__":
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    main(sys.argv[1])
