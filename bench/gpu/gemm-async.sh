#!/usr/bin/env bash
# Issue 10, asynchronous copies into local memory: DGEMM fp64 8192^3 on the FP64 tensor cores, the depth-32
# cp.async pipelines of PipelinedGemmKernelsF64 against cuBLAS, NN and NT, in one run (under 3 min).
#   here:  ./scripts/bundle                       (builds dist/squall-bundle.tar.gz)
#   there: bash bench/gpu/gemm-async.sh            (from the repository root; device run, carry dist)
# Kernels (squall gemm --kernel): the chunked cp.async pipelines with panels of depth 32 and 3 stages, chunk-w16-d32-s3
# (16 warps of 32 x 32, the best one so far) and chunk-w8-d32-s3 (8 warps of 64 x 32). First chunk-w8-d32-s3 checked
# with --verify at 300 x 200 x 500 NN and NT (edges that are multiples of neither the tile nor the panel), then both
# at 8192^3 NN and NT with --repeat 3 (median of 3 timed runs after a warm-up), then cuBLAS (torch.matmul, median of 3
# after 2 warm-ups). Earlier variants' figures: bench/results/h100/linalg/ and tornado-tasks/linalg/PERF.md.
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
NEW="chunk-w8-d32-s3"
for k in $NEW; do
  for tb in N T; do
    sq gemm --m 300 --n 200 --k 500 --transb $tb --precision fp64 --device cuda:0 --kernel "$k" --verify --repeat 1
  done
done
for k in chunk-w16-d32-s3 $NEW; do
  for tb in N T; do
    sq gemm --m 8192 --transb $tb --precision fp64 --device cuda:0 --kernel "$k" --repeat 3
  done
done
peer after
python3 bench/peers/gemm_async_summary.py "$J" "$T" > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
