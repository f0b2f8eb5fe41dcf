#!/usr/bin/env bash
# Issue 10's two dense targets, the changes against their baselines and the peers in one device call (BUDGET, default 150 s):
#   (1) Cholesky fp64 n = 16384 (target: within 1.3x of cuSOLVER): --lookahead as before (each trailing update one group a
#       tile) against --lookahead --rest-groups G (the bulk of each trailing update a persistent launch of G groups, so that
#       132 - G SMs stay free for the next diagonal block's chain; the panel solves on the update queue), G = 116 without
#       and with --split-next (the next block column's diagonal block updated first, its panel with the rest), then
#       G = 124 and 100 with --split-next at the end of the run if the budget leaves time; cuSOLVER (torch.linalg.cholesky)
#       before and after;
#   (2) DGEMM fp64 8192^3 NN and NT (target: >= 0.80 of cuBLAS): chunk-w8-d32-s3 with --no-split-last-wave (as before:
#       4096 tiles on 132 SMs, a last wave of 4 tiles) against chunk-w8-d32-s3 (the last 4 tiles in 32 depth slices on
#       128 SMs, then summed) and chunk-w8-d32-s3-paired (the same with 16-byte fragment loads), interleaved, twice each;
#       cuBLAS (torch.matmul) before and after.
#   here:  ./scripts/bundle                 (builds dist/squall-bundle.tar.gz)
#   there: bash bench/gpu/chol-mid.sh        (from the repository root; BUDGET=300 to be sure every step runs)
# First the paired kernel is checked with --verify (NT, sizes multiples of neither tile nor panel; builds the kernels),
# and the persistent, split Cholesky schedule with --verify. squall: medians of the timed runs (device time, CUDA events); peers:
# CUDA-event medians after 2 warm-ups.
# Writes under $OUT: gemm.jsonl, cholesky.jsonl, torch.jsonl (both peers), run.log, summary.txt, stderr.txt (skipped steps).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=8
unpack_bundle /tmp/squall-chol-mid
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
CHOL="cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 5 --lookahead"
# correctness first (also builds the kernels: NVRTC, cached under $SQUALL_CACHE)
sq "$G" 120 $GEMM --m 1000 --n 777 --k 1500 --transb T --kernel chunk-w8-d32-s3-paired --verify --repeat 1
# (1) Cholesky n = 16384, cuSOLVER around Squall's runs
peer "cholesky before" bench/peers/torch_cholesky.py --n 16384 --reps 5 --warmup 2
sq "$C" 60 $CHOL
sq "$C" 60 $CHOL --rest-groups 116
sq "$C" 60 $CHOL --rest-groups 116 --split-next --verify
peer "cholesky after" bench/peers/torch_cholesky.py --n 16384 --reps 5 --warmup 2
# (2) DGEMM 8192^3, cuBLAS around the two kernels, interleaved
peer "gemm before" bench/peers/torch_gemm.py 8192 5 before
for round in 1 2; do
  for tb in N T; do
    sq "$G" 30 $GEMM --m 8192 --transb $tb --kernel chunk-w8-d32-s3 --no-split-last-wave --repeat 3
    for k in chunk-w8-d32-s3 chunk-w8-d32-s3-paired; do sq "$G" 30 $GEMM --m 8192 --transb $tb --kernel $k --repeat 3; done
  done
done
peer "gemm after" bench/peers/torch_gemm.py 8192 5 after
# last, the first steps the budget drops: other group counts
sq "$C" 60 $CHOL --rest-groups 124 --split-next
sq "$C" 60 $CHOL --rest-groups 100 --split-next
python3 bench/peers/chol_mid_summary.py "$OUT" > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
