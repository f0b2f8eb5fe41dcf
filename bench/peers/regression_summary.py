"""Summary of bench/gpu/regression.sh: per figure, the best of each build's passes and the ratio after / before.

Usage: python3 regression_summary.py runs.jsonl
A figure is "worse" when the after build is slower than the before build by more than 3% (the issue's threshold).
"""
import sys

from jsonl import rows


def figures(label, r):
    """(name, value, unit, higher_is_better) of one run's JSON."""
    out = []
    if label == "stream":
        for s in r.get("stream", []):
            if s.get("precision") == "fp64" and s.get("kernel") in ("copy", "triad"):
                out.append((f"stream fp64 {s['kernel']}", s.get("gb_per_s", s.get("gbPerS")), "GB/s", True))  # gbPerS: builds before the Jackson schema
        for d in r.get("dispatch", []):
            out.append(("dispatch", d.get("median_us", d.get("medianUs")), "us", False))
    elif label.startswith("spmv"):
        out.append((f"{label} ({r.get('format')})", r["gbs"], "GB/s", True))
    elif label.startswith("perm"):
        out.append((f"{label} sweep", r["sweep_seconds"], "s", False))
        out.append((f"{label} total", r["seconds"], "s", False))
    elif label.startswith("cholesky") or label.startswith("gemm"):
        out.append((label, r["ms_median"], "ms", False))
    return out


def main(path):
    best = {}  # (figure) -> {build: (value, unit, hib)}
    order = []
    failed = []
    for row in rows(path):
        if row.get("failed") or "result" not in row:
            failed.append(f"{row.get('label')} ({row.get('build')}, pass {row.get('pass')}, exit {row.get('exit')})")
            continue
        try:
            figs = figures(row["label"], row["result"])
        except (KeyError, TypeError) as e:
            failed.append(f"{row.get('label')} ({row.get('build')}): no figure ({e})")
            continue
        for name, v, unit, hib in figs:
            if name not in best:
                best[name] = {}
                order.append(name)
            cur = best[name].get(row["build"])
            if cur is None or (v > cur[0] if hib else v < cur[0]):
                best[name][row["build"]] = (v, unit, hib)
    print(f"{'figure':38s} {'before':>12s} {'after':>12s} {'after/before':>13s}  (best of passes; higher-is-better ratios inverted for times)")
    worse = 0
    for name in order:
        b, a = best[name].get("before"), best[name].get("after")
        unit = (a or b)[1]
        hib = (a or b)[2]
        fb = f"{b[0]:.4g} {unit}" if b else "-"
        fa = f"{a[0]:.4g} {unit}" if a else "-"
        if a and b:
            speed = a[0] / b[0] if hib else b[0] / a[0]  # > 1: after is faster
            flag = "  WORSE >3%" if speed < 0.97 else ""
            worse += speed < 0.97
            print(f"{name:38s} {fb:>12s} {fa:>12s} {speed:12.3f}x{flag}")
        else:
            print(f"{name:38s} {fb:>12s} {fa:>12s} {'':>13s}")
    for f in failed:
        print("FAILED: " + f)
    print(f"{worse} figure(s) worse by more than 3%; {len(failed)} failed run(s)")


if __name__ == "__main__":
    main(sys.argv[1])
