"""Summary table for bench/gpu/linalg.sh: Squall's JSON lines next to the PyTorch peer's, with ratios.

Usage: python3 linalg_summary.py squall-linalg.jsonl torch-linalg.jsonl
"""
import sys

from jsonl import rows as load


def key(r):
    op = r.get("command") or r.get("op", "")
    op = "trinv" if op.startswith("trinv") else op
    if r.get("command") == "qr" and not r.get("q"):
        op = "qr-r"
    size = r.get("n", r.get("m"))
    return op, size, r.get("batch", 1), r.get("precision")


def main():
    squall, torch = load(sys.argv[1]), load(sys.argv[2])
    peer = {key(r): r for r in torch}
    # the large DGEMM rate is the ceiling the batched 64x64 GEMM target refers to
    dgemm = peer.get(("gemm", 8192, 1, "fp64"), {}).get("gflops")
    print(f"{'op':10} {'n':>6} {'batch':>6} {'prec':5} {'device':10} {'squall ms':>10} {'GFLOP/s':>9} {'torch ms':>9} {'torch/squall':>12} {'residual':>10}")
    profile = [r for r in squall if r.get("command") == "cholesky-profile"]
    squall = [r for r in squall if r.get("command") != "cholesky-profile"]
    for r in squall:
        k = key(r)
        p = peer.get(k)
        ratio = f"{p['ms'] / r['ms_median']:.2f}x" if p else "-"
        res = r.get("residual", r.get("max_error"))
        op = k[0] + (f"/b{r['block']}" if r.get("block") and k[2] == 1 and k[0] == "cholesky" else "")
        # batched small kernels: which one ran (warp: registers + local-memory broadcast; warp-shuffle: registers + shuffles; group / blocks: round 2's)
        if k[2] == 1 and (r.get("kernel") in ("blocked-mma", "mma", "tiles") or r.get("kernel", "").startswith(("chunk-", "pipe-"))):
            op += "/" + r["kernel"].replace("blocked-", "")
        if k[2] > 1 and r.get("kernel") in ("warp", "warp-shuffle", "group", "blocks"):
            op += "/" + r["kernel"] + (f"{r['block']}" if r["kernel"] == "blocks" else "")
        print(f"{op:10} {k[1]:>6} {k[2]:>6} {k[3]:5} {r['device']:10} {r['ms_median']:>10.3f} {r.get('gflops', float('nan')):>9.1f} "
              f"{(p['ms'] if p else float('nan')):>9.3f} {ratio:>12} {res if res is not None else '-':>10}")
    if dgemm:
        for r in squall:
            if key(r) == ("gemm", 64, 10000, "fp64"):
                print(f"batched 64x64 DGEMM: {r['gflops']:.0f} GFLOP/s = {100 * r['gflops'] / dgemm:.0f}% of torch.matmul 8192^2 fp64 ({dgemm:.0f} GFLOP/s); target >= 50%")
    for r in squall:
        if r.get("command") == "svd":
            print(f"svd {r['m']}x{r['n']} batch {r['batch']}: rank {r['rank_min']}..{r['rank_max']} at rel-tol {r['rel_tol']}, at most {r['sweeps_max']} Jacobi sweeps")
    runs = {}
    for r in profile:
        runs.setdefault((r["n"], r["block"]), []).append(r)
    for (n, block), rows in runs.items():
        parts = [f"{r['phase']} {r['ms_median']:.1f} ms/{r['launches']}" for r in rows]
        print(f"cholesky n={n} block={block} phases (ms/launches): " + ", ".join(parts))
    print("torch/squall > 1 means Squall is faster. Targets: cholesky fp64 n=16384 ratio >= 0.5; batched 64x64 cholesky and trinv ratio >= 2.")


if __name__ == "__main__":
    main()
