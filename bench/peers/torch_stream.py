"""Peer baseline for `squall bench stream`: device-to-device copy and a triad in PyTorch on the same GPU.

Bytes are counted as reads + writes, like STREAM. Times are CUDA-event medians after warm-up.
Usage: python3 torch_stream.py [elements]   (default 2**26, fp32 and fp64)
"""
import json
import sys

import torch

from cuda_timing import median_ms




def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 26
    out = {"device": torch.cuda.get_device_name(0), "elements": n, "torch": torch.__version__, "results": []}
    for dtype, name in ((torch.float32, "fp32"), (torch.float64, "fp64")):
        es = torch.tensor([], dtype=dtype).element_size()
        a = torch.rand(n, dtype=dtype, device="cuda")
        b = torch.rand(n, dtype=dtype, device="cuda")
        c = torch.empty(n, dtype=dtype, device="cuda")
        ms = median_ms(lambda: c.copy_(a))
        out["results"].append({"op": "d2d copy", "precision": name, "ms": ms, "gbPerS": 2 * n * es / ms / 1e6})
        ms = median_ms(lambda: torch.add(b, c, alpha=3.0, out=a))
        out["results"].append({"op": "triad (torch.add alpha)", "precision": name, "ms": ms, "gbPerS": 3 * n * es / ms / 1e6})
    # launch overhead of a tiny op, host side, for comparison with Squall's dispatch figure
    import time
    z = torch.zeros(256, dtype=torch.int32, device="cuda")
    for _ in range(1000):
        z.add_(1)
    torch.cuda.synchronize()
    ts = []
    for _ in range(5000):
        t0 = time.perf_counter()
        z.add_(1)
        torch.cuda.synchronize()
        ts.append((time.perf_counter() - t0) * 1e6)
    ts.sort()
    out["results"].append({"op": "tiny op + synchronize (host)", "precision": "int32", "medianUs": ts[len(ts) // 2]})
    for r in out["results"]:
        print("  torch %-30s %-5s %s" % (r["op"], r["precision"],
              ("%.4f ms %8.1f GB/s" % (r["ms"], r["gbPerS"])) if "ms" in r else "%.1f us" % r["medianUs"]))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
