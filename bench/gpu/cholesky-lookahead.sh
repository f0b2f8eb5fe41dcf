#!/usr/bin/env bash
# Blocked fp64 Cholesky with and without look-ahead (second, high-priority CUDA stream for the diagonal blocks),
# against cuSOLVER through torch.linalg.cholesky, in about 3 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/cholesky-lookahead.sh
# squall cholesky --n N --precision fp64 --device cuda:0 [--lookahead] [--block B] --repeat 5 --json: the single-queue
# path and --lookahead at n = 16384 (default block 2048, --verify on both) and 8192, and --lookahead with --block 1024
# and 4096 at 16384 (the time with look-ahead spans both queues: CUDA events from the first launch to the last).
# Writes under $OUT: lookahead.jsonl, torch-lookahead.jsonl, lookahead.log, lookahead-summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
unpack_bundle /tmp/squall-lookahead-run
S="$B/bin/squall"
J="$OUT/lookahead.jsonl"
L="$OUT/lookahead.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" | tee -a "$L"
sq() {
  echo "+ squall $* ($((SECONDS - start)) s)" >> "$L"
  timeout 60 "$S" cholesky --precision fp64 --device cuda:0 --repeat 5 --json "$@" >> "$J" 2>> "$L"
  echo "exit $? : squall cholesky $* ($((SECONDS - start)) s)" | tee -a "$L"
}
sq --n 16384 --verify
sq --n 16384 --verify --lookahead
sq --n 16384 --lookahead --block 1024
sq --n 16384 --lookahead --block 4096
sq --n 8192
sq --n 8192 --lookahead
PYTHONUNBUFFERED=1 timeout 60 python3 bench/peers/torch_cholesky.py --n 8192 --n 16384 --reps 5 --warmup 2 > "$OUT/torch-lookahead.jsonl" 2>> "$L"
echo "torch peer exit: $? ($((SECONDS - start)) s)" | tee -a "$L"
python3 bench/peers/cholesky_lookahead_summary.py "$J" "$OUT/torch-lookahead.jsonl" 2>&1 | tee "$OUT/lookahead-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
