#!/usr/bin/env bash
# SGD matrix factorisation on the Netflix-shaped generated set (480,190 x 17,771, ~99M ratings, degrees calibrated to
# the real data's, k = 128, fp32): Hogwild and blkdiag to 1% of the reachable RMSE on cuda:0, learning-rate schedules,
# and the JVM backend on the host's cores, in one device call of under 10 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/sgd.sh
# Each line of $OUT/sgd.jsonl is one `squall sgd ... --json` result (per-epoch RMSE and updates/s, median updates/s,
# bytes per update, the copy-bandwidth bound and the ratio to it, inspector and set-up times, the reachable test RMSE,
# the schedule's span and the largest row); the summary is
# bench/peers/sgd_summary.py. Writes $OUT/sgd.jsonl, sgd.log, sgd-summary.txt, ncu-sgd-warps.txt, ncu-sgd-prefetch.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-560}
STEP_MIN=30
unpack_bundle /tmp/squall-sgd-run
S="$B/bin/squall"
J="$OUT/sgd.jsonl"
L="$OUT/sgd.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { step "$1" "squall sgd $2" bash -c "echo '\$ squall sgd $2' >> \"$L\"; \"$S\" sgd --generate netflix --rank 128 --json $2 >> \"$J\" 2>> \"$L\""; }
# Hogwild (the `warps` kernel: 8 sub-groups a work-group, a rating each) and blkdiag (the `prefetch` kernel: user and
# item rows of the next 4 ratings in flight) with the defaults, stopping at 1.01 x the reachable RMSE (--target-rmse
# 1.01x; the summary's "1% at" and "train s" columns are the epochs and training time to it); Hogwild with the
# 32-lane `lanes` kernel (the kernel before); fp16 storage (Hogwild: warps; blkdiag: lanes); stratified with the
# prefetch kernel (items recur in a task: the stale item rows are re-read); the JVM backend on the host's cores, one
# epoch; then Hogwild learning-rate schedules around the best measured one (lr 0.1, decay 1.0, reg 0.02) for 45 epochs.
T="--target-rmse 1.01x --patience 0"
run 40 "--epochs 30 $T --schedule hogwild --device cuda:0"
run 40 "--epochs 30 $T --schedule hogwild --kernel lanes --device cuda:0"
run 60 "--epochs 30 $T --schedule blkdiag --device cuda:0"
run 40 "--epochs 30 $T --schedule hogwild --storage fp16 --device cuda:0"
run 40 "--epochs 10 --patience 0 --schedule blkdiag --storage fp16 --device cuda:0"
run 40 "--epochs 10 --patience 0 --schedule stratified --device cuda:0"
run 110 "--epochs 1 --patience 0 --schedule blkdiag --blocks 64 --device jvm"
run 40 "--epochs 45 $T --schedule hogwild --lr 0.1 --lr-decay 1.0 --reg 0.02 --device cuda:0"
run 40 "--epochs 45 $T --schedule hogwild --lr 0.1 --lr-decay 1.0 --reg 0.015 --device cuda:0"
run 40 "--epochs 45 $T --schedule hogwild --lr 0.15 --lr-decay 1.5 --reg 0.02 --device cuda:0"
run 40 "--epochs 45 $T --schedule hogwild --lr 0.1 --lr-decay 0.7 --reg 0.02 --device cuda:0"
# Nsight Compute (clocks left alone) on one full-size launch of the Hogwild warps kernel and on one mid-epoch step of
# blkdiag's prefetch kernel, with the stall sampling by source line: where the blkdiag chain's 0.8 us a link goes
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section SourceCounters"
prof() { local name=$1 regex=$2 skip=$3; shift 3
  step 60 "ncu $name" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name regex:'$regex' --launch-skip $skip --launch-count 1 $SECTIONS --page details --print-units base \"\$@\" > \"$OUT/ncu-$name.txt\" 2>> \"$L\"" _ "$@"; }
prof sgd-warps '^updateRatingsWarps$' 1 "$S" sgd --generate netflix --rank 128 --schedule hogwild --epochs 1 --patience 0 --device cuda:0
prof sgd-prefetch '^updateTasksPrefetchHeld$' 600 "$S" sgd --generate netflix --rank 128 --schedule blkdiag --epochs 1 --patience 0 --device cuda:0
python3 bench/peers/sgd_summary.py "$J" 2>&1 | tee "$OUT/sgd-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
