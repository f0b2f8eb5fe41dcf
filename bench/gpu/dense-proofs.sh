#!/usr/bin/env bash
# Issue 10's two dense proofs in one device call (about 5 minutes, budget 450 s):
#   (1) DGEMM fp64 8192^3 at >= 0.80 of cuBLAS: squall gemm --kernel auto (the default; chunk-w8-d32-s3 on an H100),
#       chunk-w8-d32-s3 named, and mma (the default before) NN and NT, with cuBLAS (torch.matmul) before and after them;
#   (2) blocked Cholesky fp64 n = 16384 within 1.3x of cuSOLVER: one queue and --lookahead, each with the default GEMMs
#       (auto) and with --gemm-kernel mma (the outer steps' GEMMs as before), --lookahead with --block 1024 (GEMM blocks
#       half as long, so the diagonal queue finds free SMs sooner), cuSOLVER (torch.linalg.cholesky) before and after,
#       then `--profile` (each phase timed on its own) into run.log.
#   here:  ./scripts/bundle                        (builds dist/squall-bundle.tar.gz)
#   there: bash bench/gpu/dense-proofs.sh           (from the repository root; device run, carry dist)
# First the auto and deep kernels are checked with --verify at sizes that are multiples of neither the tile nor the
# panel (1000 x 777 x 1500 NT with odd leading dimensions; 300 x 300 x 500 NN). squall gemm: median of 3 timed runs
# after a warm-up (device time); squall cholesky: median of 5, CUDA events from the first launch to the last (both
# queues with --lookahead), --verify on the default runs; the peers: CUDA-event medians after 2 warm-ups.
# Writes under $OUT: gemm-verify.jsonl, gemm-auto.jsonl, gemm-chunk-w8-d32-s3.jsonl, gemm-mma.jsonl (one file per
# requested kernel: auto's JSON names the kernel it picked), torch-gemm.jsonl, cholesky.jsonl, torch-cholesky.jsonl,
# run.log, torch.log, stderr.txt (skipped steps), summary.txt (both tables and one SUMMARY line per target).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-450}
STEP_MIN=20
unpack_bundle /tmp/squall-dense-proofs
S="$B/bin/squall"
G="$OUT/gemm-verify.jsonl"; C="$OUT/cholesky.jsonl"; TG="$OUT/torch-gemm.jsonl"; TC="$OUT/torch-cholesky.jsonl"
L="$OUT/run.log"; TL="$OUT/torch.log"
: > "$G"; : > "$C"; : > "$TG"; : > "$TC"; : > "$L"; : > "$TL"
for k in auto chunk-w8-d32-s3 mma; do : > "$OUT/gemm-$k.jsonl"; done
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
sq() { # sq OUTFILE TIMEOUT ARGS...: one squall command, its JSON line to OUTFILE
  local out=$1 t=$2; shift 2
  echo "+ squall $* ($((SECONDS - start)) s)" >> "$L"
  step "$t" "squall $*" "$S" "$@" --json >> "$out" 2>> "$L"
  echo "done: squall $* ($((SECONDS - start)) s)" | tee -a "$L"
}
peer_gemm() {
  PYTHONUNBUFFERED=1 step 90 "torch gemm ($1)" python3 bench/peers/torch_gemm.py 8192 5 "$1" >> "$TG" 2>> "$TL"
  echo "done: torch gemm $1 ($((SECONDS - start)) s)" | tee -a "$L"
}
peer_cholesky() {
  PYTHONUNBUFFERED=1 step 90 "torch cholesky ($1)" python3 bench/peers/torch_cholesky.py --n 16384 --reps 5 --warmup 2 >> "$TC" 2>> "$TL"
  echo "done: torch cholesky $1 ($((SECONDS - start)) s)" | tee -a "$L"
}
GEMM="gemm --precision fp64 --device cuda:0"
# correctness first (the first call also builds the kernels: NVRTC, cached under $SQUALL_CACHE)
sq "$G" 150 $GEMM --m 1000 --n 777 --k 1500 --transb T --verify --repeat 1
sq "$G" 60 $GEMM --m 300 --k 500 --kernel chunk-w8-d32-s3 --verify --repeat 1
# (1) DGEMM 8192^3, cuBLAS around Squall's kernels
peer_gemm before
for k in auto chunk-w8-d32-s3 mma; do
  for tb in N T; do sq "$OUT/gemm-$k.jsonl" 60 $GEMM --m 8192 --transb $tb --kernel $k --repeat 3; done
done
peer_gemm after
# (2) Cholesky n = 16384, cuSOLVER around Squall's runs
CHOL="cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 5"
peer_cholesky before
sq "$C" 90 $CHOL --verify
sq "$C" 90 $CHOL --verify --lookahead
sq "$C" 90 $CHOL --gemm-kernel mma
sq "$C" 90 $CHOL --gemm-kernel mma --lookahead
sq "$C" 90 $CHOL --lookahead --block 1024
peer_cholesky after
# phase times of the one-queue factorisation with the default GEMMs (text, into run.log: the model in linalg PERF.md)
echo "+ squall $CHOL --profile ($((SECONDS - start)) s)" >> "$L"
step 120 "squall cholesky --profile" "$S" $CHOL --profile >> "$L" 2>&1
python3 bench/peers/dense_proofs_summary.py "$OUT" > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
