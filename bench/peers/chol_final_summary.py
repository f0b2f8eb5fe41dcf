"""Summary of bench/gpu/chol-final.sh: Cholesky fp64 n = 16384 (--lookahead and one queue) against cuSOLVER (target:
within 1.3x); DGEMM fp64 8192^3 NN/NT, chunk-w8-d32-s3 with the last wave split over depth and with every tile whole
(--no-split-last-wave), against cuBLAS (target >= 0.80). Each peer: the mean of its runs.

Usage: python3 chol_final_summary.py OUT_DIR   (reads gemm.jsonl, cholesky.jsonl and torch.jsonl there)
"""
import os
import sys

from jsonl import rows


def mean(v):
    return sum(v) / len(v) if v else float("nan")


def cholesky(out, peers):
    ref_runs = [r["ms"] for r in peers if r.get("op") == "cholesky" and r.get("n") == 16384]
    ref = mean(ref_runs)
    print(f"Cholesky fp64 n = 16384. cuSOLVER (torch.linalg.cholesky) ms: {ref:.2f} (runs {', '.join(f'{m:.2f}' for m in ref_runs)});"
          f" target 1.3x = {1.3 * ref:.2f} ms")
    print(f"{'kernel':<36} {'block':>6} {'ms median':>10} {'ms min':>8} {'/ cuSOLVER':>11} {'residual':>10} ok")
    summary = []
    for r in rows(os.path.join(out, "cholesky.jsonl")):
        if r.get("n") != 16384:
            continue
        ratio = r["ms_median"] / ref
        print(f"{r['kernel']:<36} {r['block']:>6} {r['ms_median']:>10.2f} {r['ms_min']:>8.2f} {ratio:>11.3f} {str(r.get('residual')):>10} {r.get('ok')}")
        summary.append(f"SUMMARY Cholesky ({r['kernel']}): {r['ms_median']:.2f} ms = {ratio:.3f}x cuSOLVER; target 1.3x: "
                       f"{'met' if ratio <= 1.3 else 'missed'}")
    return summary


def gemm(out, peers):
    peer = {}
    for r in peers:
        if r.get("op") == "gemm":
            peer.setdefault(r["transb"], []).append(r["gflops"] / 1e3)
    ref = {t: mean(v) for t, v in peer.items()}
    print()
    print("DGEMM fp64 8192^3. cuBLAS (torch.matmul) TFLOP/s: "
          + ", ".join(f"N{t} {ref[t]:.1f} (runs {', '.join(f'{g:.1f}' for g in v)})" for t, v in sorted(peer.items())))
    print(f"{'kernel':<30} {'op':<3} {'ms median':>10} {'ms min':>8} {'TFLOP/s':>8} {'/ cuBLAS':>9}")
    best = {}
    for r in rows(os.path.join(out, "gemm.jsonl")):
        if r.get("m") != 8192:
            print(f"verify {r['m']}x{r['n']}x{r['k']} {r['transa']}{r['transb']} kernel {r['kernel']}: max error {r.get('max_error')} ok={r.get('ok')}")
            continue
        t, tf = r["transb"], r["gflops"] / 1e3
        ratio = tf / ref[t] if t in ref else float("nan")
        name = r["kernel"] + (" split" if r.get("split_last_wave", True) else " whole")
        print(f"{name:<30} {r['transa'] + t:<3} {r['ms_median']:>10.2f} {r['ms_min']:>8.2f} {tf:>8.1f} {ratio:>9.3f}")
        best.setdefault((name, t), []).append(tf)
    summary = []
    for (k, t), v in sorted(best.items()):
        ratio = mean(v) / ref[t] if t in ref else float("nan")
        summary.append(f"SUMMARY DGEMM N{t} {k}: {mean(v):.1f} TFLOP/s mean of {len(v)} = {ratio:.3f} of cuBLAS; target 0.80: "
                       f"{'met' if ratio >= 0.80 else 'missed'}")
    return summary


def main():
    out = sys.argv[1]
    peers = rows(os.path.join(out, "torch.jsonl"))
    lines = cholesky(out, peers) + gemm(out, peers)
    print()
    for s in lines:
        print(s)
    if not lines:
        print("(no Squall results: see run.log and stderr.txt)")


if __name__ == "__main__":
    main()
