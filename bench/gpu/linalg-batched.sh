#!/usr/bin/env bash
# Batched 64 x 64 fp64 Cholesky only (10,000 matrices), every Squall kernel vs torch.linalg.cholesky, in under 2 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/linalg-batched.sh
# squall cholesky --n 64 --batch 10000 --kernel K --verify --repeat 20 --json for K = warp-loop, group
# (device time of the plan's kernels, CUDA events; the copy launch that keeps the input is counted for group,
# warp-loop has none); the peer: median CUDA-event time of torch.linalg.cholesky on the same kind of batch
# (Gaussian-kernel covariances, bench/peers/torch_linalg.py's covariance()).
# Writes under $OUT: batched.jsonl (Squall's JSON lines), torch-batched.jsonl, batched.log, batched-summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
unpack_bundle /tmp/squall-batched-run
S="$B/bin/squall"
J="$OUT/batched.jsonl"
L="$OUT/batched.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" | tee -a "$L"
for k in warp-loop group; do
  echo "+ squall cholesky --kernel $k ($((SECONDS - start)) s)" >> "$L"
  timeout 25 "$S" cholesky --n 64 --batch 10000 --kernel "$k" --precision fp64 --device cuda:0 --verify --repeat 20 --json >> "$J" 2>> "$L"
  echo "exit $? : squall cholesky --kernel $k ($((SECONDS - start)) s)" | tee -a "$L"
done
PYTHONUNBUFFERED=1 timeout 40 python3 - > "$OUT/torch-batched.jsonl" 2>> "$L" <<'PY'
import json, sys
sys.path.insert(0, "bench/peers")
import torch
from cuda_timing import median_ms
from torch_linalg import covariance
gen = torch.Generator(device="cuda").manual_seed(42)
a = covariance(64, 10000, torch.float64, gen)
ms = median_ms(lambda: torch.linalg.cholesky(a), 20, warmup=3)
print(json.dumps(dict(peer="torch", op="cholesky", n=64, batch=10000, precision="fp64", ms=ms, device=torch.cuda.get_device_name(0),
                      torch=torch.__version__)), flush=True)
PY
echo "torch peer exit: $? ($((SECONDS - start)) s)" | tee -a "$L"
python3 - "$J" "$OUT/torch-batched.jsonl" <<'PY' 2>&1 | tee "$OUT/batched-summary.txt"
import json, sys
sys.path.insert(0, "bench/peers")
from jsonl import rows  # one JSON-lines reader for every summary
squall, peer = rows(sys.argv[1]), rows(sys.argv[2])
tms = peer[0]["ms"] if peer else float("nan")
print("batched Cholesky 64 x 64 fp64, 10,000 matrices (median of 20); ratio = torch ms / squall ms, target >= 2 (<= %.3f ms)" % (tms / 2))
print(f"{'kernel':<14} {'ms':>8} {'torch ms':>9} {'ratio':>7} {'residual':>12} ok")
for r in squall:
    ms = r["ms_median"]
    print(f"{r['kernel']:<14} {ms:>8.3f} {tms:>9.3f} {tms / ms:>7.2f} {str(r.get('residual')):>12} {r.get('ok')}")
if not squall:
    print("(no Squall results: see batched.log)")
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
