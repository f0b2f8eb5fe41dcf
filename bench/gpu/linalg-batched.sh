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
PYTHONUNBUFFERED=1 timeout 40 python3 bench/peers/torch_cholesky.py --n 64 --batch 10000 --reps 20 --warmup 3 > "$OUT/torch-batched.jsonl" 2>> "$L"
echo "torch peer exit: $? ($((SECONDS - start)) s)" | tee -a "$L"
python3 bench/peers/cholesky_batched_summary.py "$J" "$OUT/torch-batched.jsonl" 2>&1 | tee "$OUT/batched-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
