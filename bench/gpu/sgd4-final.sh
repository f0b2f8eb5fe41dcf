#!/usr/bin/env bash
# SGD on the Netflix-shaped generated set (480,190 x 17,771, ~99M ratings, k = 128, fp32):
# the targets in one device call of at most BUDGET s (default 150), from the bundle:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/sgd4-final.sh
# 1. one process (the data generated once: `--schedule` list), cuda:0: Hogwild (`warps`) and blkdiag (`pipeline`),
#    up to 40 epochs stopping at 1.01 x the reachable RMSE, with the best measured schedule for
#    this shape (lr 0.1, decay 1.0, reg 0.02; the defaults 0.05, 0.5, 0.03 are kept for small data at k = 128):
#    updates/s (>= 1.5e9), epoch time (<= 70 ms), blkdiag's epoch against Hogwild's (<= 1.3 x), the test RMSE after
#    ~2 s of training against 1.01 x reachable;
# 2. Nsight Compute on one early blkdiag step of `updateTasksPipelined` (its own duration against the 141 us a step of
#    the midpoint's epoch: a per-launch floor if far shorter, the chain if not; stall reasons by source line);
# 3. if the budget allows, one process, the JVM backend on the host's cores, one epoch each of blkdiag and
#    stratified (the LIBMF algorithm: DSGD strata of shuffled users and items).
# Writes under $OUT: sgd4.jsonl (one `squall sgd --json` line a schedule entry), sgd4.log, sgd4-summary.txt
# (bench/peers/sgd_summary.py), ncu-sgd-pipeline.txt, stderr.txt (steps cut or skipped).
#
# PREDICTED (H100, written before the run; see sparse/SGD.md):
# | case | predicted |
# | hogwild, warps | 1.78-1.80e9 updates/s, 49.6-50.2 ms an epoch (unchanged kernel) |
# | blkdiag, pipeline | 5.2-5.5e8 updates/s, 162-172 ms an epoch: 3.3-3.4 x Hogwild, target 1.3 x missed (midpoint: 5.35e8, 166.7 ms) |
# | ncu, one blkdiag step | 126 registers, 1 warp a group, ~9 warps an SM; duration 120-140 us if the chain (a memory round trip a link), under 50 us if a launch floor |
# | test RMSE / reachable after 40 epochs (~2.0 s Hogwild, ~6.7 s blkdiag) | 1.025-1.03 (1.028 after 30 in 2026-11-24); 1.01 x not reached: the L2 path at k = 128 (sparse/SGD.md, "The 1 % target at k = 128") |
# | blkdiag's test RMSE per epoch | within 0.005 of Hogwild's from epoch 3 (shuffled diagonals) |
# | JVM, 16 cores, blkdiag / stratified (B = 64), one epoch | 1.5-3e7 updates/s, 3-6 s an epoch (2026-11-24: 1.6-1.9e7, the `tasks` kernel); LIBMF reports ~1e8 on 12-16 cores at k = 100 with SSE |
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=20
unpack_bundle /tmp/squall-sgd4-final
S="$B/bin/squall"
J="$OUT/sgd4.jsonl"
L="$OUT/sgd4.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null) $(nproc) host cores" | tee -a "$L"
run() { step "$1" "squall sgd $2" bash -c "echo '\$ squall sgd $2' >> \"$L\"; \"$S\" sgd --generate netflix --rank 128 --json $2 >> \"$J\" 2>> \"$L\""; }
run 70 "--epochs 40 --target-rmse 1.01x --patience 0 --lr 0.1 --lr-decay 1.0 --reg 0.02 --device cuda:0 --schedule hogwild,blkdiag"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
SECTIONS="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SourceCounters"
step 55 "ncu updateTasksPipelined" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name regex:'^updateTasksPipelined\$' --launch-skip 40 --launch-count 1 $SECTIONS --page details --print-units base \"$S\" sgd --generate netflix --rank 128 --schedule blkdiag --epochs 1 --patience 0 --device cuda:0 > \"$OUT/ncu-sgd-pipeline.txt\" 2>> \"$L\""
run 60 "--epochs 1 --patience 0 --device jvm --schedule blkdiag,stratified"
python3 bench/peers/sgd_summary.py "$J" 2>&1 | tee "$OUT/sgd4-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
