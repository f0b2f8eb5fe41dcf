"""Summary of bench/gpu/dense-proofs.sh: DGEMM fp64 8192^3 per requested kernel against cuBLAS (target >= 0.80), and the
blocked Cholesky fp64 n = 16384 against cuSOLVER (target: within 1.3x), each peer the mean of its runs around Squall's.

Usage: python3 dense_proofs_summary.py OUT_DIR   (reads gemm-verify.jsonl, gemm-<kernel>.jsonl, torch-gemm.jsonl,
cholesky.jsonl and torch-cholesky.jsonl there)
"""
import os
import sys

from jsonl import rows

GEMM_KERNELS = ("auto", "chunk-w8-d32-s3", "mma")


def mean(v):
    return sum(v) / len(v) if v else float("nan")


def gemm(out):
    peer = {}
    for r in rows(os.path.join(out, "torch-gemm.jsonl")):
        peer.setdefault(r["transb"], []).append(r["gflops"] / 1e3)
    ref = {t: mean(v) for t, v in peer.items()}
    print("DGEMM fp64 8192^3. cuBLAS (torch.matmul) TFLOP/s: "
          + ", ".join(f"N{t} {ref[t]:.1f} (runs {', '.join(f'{g:.1f}' for g in v)})" for t, v in sorted(peer.items())))
    for r in rows(os.path.join(out, "gemm-verify.jsonl")):
        print(f"verify {r['m']}x{r['n']}x{r['k']} {r['transa']}{r['transb']} kernel {r['kernel']}: max error {r.get('max_error')} ok={r.get('ok')}")
    print(f"{'requested':<16} {'ran':<16} {'op':<3} {'ms median':>10} {'ms min':>8} {'TFLOP/s':>8} {'/ cuBLAS':>9} {'/ faster run':>14}")
    summary = []
    for k in GEMM_KERNELS:
        for r in rows(os.path.join(out, f"gemm-{k}.jsonl")):
            if r.get("m") != 8192:
                continue
            t = r["transb"]
            tf = r["gflops"] / 1e3
            ratio = tf / ref[t] if t in ref else float("nan")
            worst = tf / max(peer[t]) if t in peer else float("nan")
            print(f"{k:<16} {r['kernel']:<16} {r['transa'] + t:<3} {r['ms_median']:>10.2f} {r['ms_min']:>8.2f} {tf:>8.1f} {ratio:>9.3f} {worst:>14.3f}")
            if k == "auto":
                summary.append(f"SUMMARY DGEMM N{t} (default, {r['kernel']}): {tf:.1f} TFLOP/s = {ratio:.3f} of cuBLAS (mean), "
                               f"{worst:.3f} of its faster run; target 0.80: {'met' if ratio >= 0.80 else 'missed'}")
    return summary


def cholesky(out):
    peer = [r["ms"] for r in rows(os.path.join(out, "torch-cholesky.jsonl")) if r.get("n") == 16384]
    ref = mean(peer)
    print()
    print(f"Cholesky fp64 n = 16384. cuSOLVER (torch.linalg.cholesky) ms: {ref:.2f} (runs {', '.join(f'{m:.2f}' for m in peer)}); target 1.3x = {1.3 * ref:.2f} ms")
    print(f"{'kernel':<30} {'block':>6} {'ms median':>10} {'ms min':>8} {'/ cuSOLVER':>11} {'residual':>10} ok")
    summary = []
    for r in rows(os.path.join(out, "cholesky.jsonl")):
        if r.get("n") != 16384:
            continue
        ratio = r["ms_median"] / ref
        print(f"{r['kernel']:<30} {r['block']:>6} {r['ms_median']:>10.2f} {r['ms_min']:>8.2f} {ratio:>11.3f} {str(r.get('residual')):>10} {r.get('ok')}")
        if r["kernel"] in ("blocked-mma", "blocked-mma-lookahead"):
            summary.append(f"SUMMARY Cholesky ({r['kernel']}, block {r['block']}): {r['ms_median']:.2f} ms = {ratio:.3f}x cuSOLVER; target 1.3x: "
                           f"{'met' if ratio <= 1.3 else 'missed'}")
    return summary


def main():
    out = sys.argv[1]
    lines = gemm(out) + cholesky(out)
    print()
    for s in lines:
        print(s)
    if not lines:
        print("(no Squall results: see run.log and stderr.txt)")


if __name__ == "__main__":
    main()
