#!/usr/bin/env bash
# Issue 10's two dense targets against the peers in one device call (BUDGET, default 150 s; the steps in order of what
# they decide, the last ones dropped first):
#   (1) Cholesky fp64 n = 16384 (target: within 1.3x of cuSOLVER): squall cholesky --lookahead (--verify) and the one-queue
#       path, cuSOLVER (torch.linalg.cholesky) before and after. Both copy only A's lower triangle into the workspace and
#       clear only the band above the diagonal that the factorisation writes.
#   (2) DGEMM fp64 8192^3 NN and NT (target: >= 0.80 of cuBLAS): chunk-w8-d32-s3 (the default) with its short last wave
#       split over depth (4096 tiles on 132 SMs: the last 4 in 32 slices on 128 SMs, then summed) against
#       --no-split-last-wave (every tile whole, as before), interleaved; cuBLAS (torch.matmul) before and after; a second
#       round of the four if the budget leaves time. First the split is checked with --verify on 1650 x 1400 x 3001 NT
#       (143 tiles: the last 11 split over depth; sizes multiples of neither the tile nor the panel).
#   here:  ./scripts/bundle                  (builds dist/squall-bundle.tar.gz)
#   there: bash bench/gpu/chol-final.sh       (from the repository root)
# squall: medians of the timed runs (device time, CUDA events, both queues with --lookahead); peers: CUDA-event medians
# after 2 warm-ups. The first squall command builds the kernels (NVRTC, about 40 s, cached under $SQUALL_CACHE).
# Writes under $OUT: gemm.jsonl, cholesky.jsonl, torch.jsonl (both peers), run.log, summary.txt, stderr.txt (skipped steps).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=8
unpack_bundle /tmp/squall-chol-final
S="$B/bin/squall"
G="$OUT/gemm.jsonl"; C="$OUT/cholesky.jsonl"; T="$OUT/torch.jsonl"; L="$OUT/run.log"
: > "$G"; : > "$C"; : > "$T"; : > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
sq() { # sq OUTFILE TIMEOUT ARGS...: one squall command, its JSON line to OUTFILE
  local out=$1 t=$2; shift 2
  echo "+ squall $* ($((SECONDS - start)) s)" >> "$L"
  step "$t" "squall $*" "$S" "$@" --json >> "$out" 2>> "$L"
  echo "done: squall $* ($((SECONDS - start)) s)" | tee -a "$L"
}
peer() { # peer LABEL SCRIPT ARGS...
  local label=$1; shift
  PYTHONUNBUFFERED=1 step 60 "torch $label" python3 "$@" >> "$T" 2>> "$L"
  echo "done: torch $label ($((SECONDS - start)) s)" | tee -a "$L"
}
GEMM="gemm --precision fp64 --device cuda:0"
CHOL="cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 5"
# (1) Cholesky n = 16384, cuSOLVER around Squall's runs (the first squall run also builds the kernels)
peer "cholesky before" bench/peers/torch_cholesky.py --n 16384 --reps 5 --warmup 2
sq "$C" 90 $CHOL --lookahead --verify
sq "$C" 40 $CHOL
peer "cholesky after" bench/peers/torch_cholesky.py --n 16384 --reps 5 --warmup 2
# (2) DGEMM: the split checked, then 8192^3 with cuBLAS around it
sq "$G" 40 $GEMM --m 1650 --n 1400 --k 3001 --transb T --verify --repeat 1
peer "gemm before" bench/peers/torch_gemm.py 8192 5 before
gemm_round() {
  for tb in N T; do
    sq "$G" 30 $GEMM --m 8192 --transb $tb --repeat 3
    sq "$G" 30 $GEMM --m 8192 --transb $tb --no-split-last-wave --repeat 3
  done
}
gemm_round
peer "gemm after" bench/peers/torch_gemm.py 8192 5 after
gemm_round
python3 bench/peers/chol_final_summary.py "$OUT" > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
