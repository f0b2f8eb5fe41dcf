"""Summary of bench/gpu/gemm-async.sh: TFLOP/s of each squall gemm kernel at 8192^3 fp64 (NN, NT) and its ratio to cuBLAS
(torch.matmul, the mean of its runs), the best kernel per transpose against the 80% target.

Usage: python3 gemm_async_summary.py squall.jsonl torch.jsonl
"""
import sys

from jsonl import rows


def main():
    squall, torch = rows(sys.argv[1]), rows(sys.argv[2])
    peer = {}
    for r in torch:
        peer.setdefault(r["transb"], []).append(r["gflops"])
    ref = {t: sum(v) / len(v) for t, v in peer.items()}
    print("cuBLAS (torch.matmul) fp64 8192^3 TFLOP/s: " + ", ".join(f"N{t} {sum(v) / len(v) / 1e3:.1f} (runs {', '.join(f'{g / 1e3:.1f}' for g in v)})"
                                                               for t, v in sorted(peer.items())))
    print(f"{'kernel':<17} {'op':<3} {'ms median':>10} {'ms min':>8} {'TFLOP/s':>8} {'/ cuBLAS':>9}")
    best = {}
    for r in squall:
        if r.get("command") != "gemm" or r.get("m") != 8192:
            continue
        op = r["transa"] + r["transb"]
        tf = r["gflops"] / 1e3
        ratio = r["gflops"] / ref[r["transb"]] if r["transb"] in ref else float("nan")
        print(f"{r['kernel']:<17} {op:<3} {r['ms_median']:>10.2f} {r['ms_min']:>8.2f} {tf:>8.1f} {ratio:>9.3f}")
        if op not in best or tf > best[op][1]:
            best[op] = (r["kernel"], tf, ratio)
    for op, (k, tf, ratio) in sorted(best.items()):
        verdict = "MET" if ratio >= 0.8 else "missed"
        print(f"SUMMARY {op}: best {k} {tf:.1f} TFLOP/s = {ratio:.3f} x cuBLAS (target 0.80: {verdict})")
    checks = [r for r in squall if r.get("command") == "gemm" and r.get("verified")]
    bad = [r for r in checks if not r.get("ok")]
    print(f"verified runs: {len(checks)}, failed: {len(bad)}" + "".join(f"\n  FAILED {r['kernel']} {r['transa']}{r['transb']} {r['m']}x{r['n']}x{r['k']}"
                                                                          for r in bad))


if __name__ == "__main__":
    main()
