#!/usr/bin/env bash
# Issue 10, asynchronous copies into local memory: DGEMM fp64 8192^3 on the FP64 tensor cores, gemmMma (register
# staging) against the cp.async pipelines of PipelinedGemmKernelsF64 and cuBLAS, NN and NT, in one run (about 3 min).
#   here:  ./scripts/bundle                       (builds dist/squall-bundle.tar.gz)
#   there: bash bench/gpu/gemm-async.sh            (from the repository root; device run, carry dist)
# Kernels (squall gemm --kernel): mma (gemmMma), pipe-w16-s3 (asyncCopyTile pipeline, 16 warps of 32 x 32, 3 stages),
# and the chunked pipelines (each work-item's 16-byte chunks laid out once): chunk-w8-s3 (8 warps of 64 x 32),
# chunk-w16-s3, chunk-w16-s4, chunk-w16-d32-s3 (16 warps, panels of depth 32). First each chunked variant checked
# with --verify at 300 x 200 x 500 (edges that are multiples of neither the tile nor the panel; NN with even leading dimensions copies by chunks, NT with n = 200
# too, 1000 x 777 x 1500 NT takes the odd-ldb fallback), then each at 8192^3 NN and NT with --repeat 3 (median of 3
# timed runs after a warm-up); cuBLAS (torch.matmul, median of 3 after 2 warm-ups) after Squall's runs.
# Writes under $OUT: squall-gemm.jsonl, squall-gemm.log, torch-gemm.jsonl, torch-gemm.log, summary.txt (TFLOP/s,
# ratio to cuBLAS, and one "SUMMARY NN|NT" line each with the best kernel against the 0.80 target).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
unpack_bundle /tmp/squall-gemm-async
S="$B/bin/squall"
J="$OUT/squall-gemm.jsonl"
L="$OUT/squall-gemm.log"
T="$OUT/torch-gemm.jsonl"
: > "$J"; : > "$L"; : > "$T"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
sq() {
  echo "+ squall $* ($((SECONDS - start)) s)" >> "$L"
  timeout 120 "$S" "$@" --json >> "$J" 2>> "$L"
  echo "exit $? : squall $* ($((SECONDS - start)) s)" | tee -a "$L"
}
peer() {
  PYTHONUNBUFFERED=1 timeout 120 python3 bench/peers/torch_gemm.py 8192 3 "$1" >> "$T" 2>> "$OUT/torch-gemm.log"
  echo "torch peer ($1) exit: $? ($((SECONDS - start)) s)" | tee -a "$L"
}
NEW="chunk-w8-s3 chunk-w16-s3 chunk-w16-s4 chunk-w16-d32-s3"
for k in $NEW; do
  for tb in N T; do
    sq gemm --m 300 --n 200 --k 500 --transb $tb --precision fp64 --device cuda:0 --kernel "$k" --verify --repeat 1
  done
done
sq gemm --m 1000 --n 777 --k 1500 --transb T --precision fp64 --device cuda:0 --kernel chunk-w16-s3 --verify --repeat 1
for k in mma pipe-w16-s3 $NEW; do
  for tb in N T; do
    sq gemm --m 8192 --transb $tb --precision fp64 --device cuda:0 --kernel "$k" --repeat 3
  done
done
peer after
python3 bench/peers/gemm_async_summary.py "$J" "$T" > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
