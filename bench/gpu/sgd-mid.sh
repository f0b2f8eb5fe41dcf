#!/usr/bin/env bash
# SGD Hogwild kernels on the Netflix-shaped generated set (480,190 x 17,771, ~99M ratings, k = 128): the 32-lane
# `lanes` kernel (a work-group per rating) against the `warps` kernel (8 sub-groups of 32 lanes a work-group, a rating
# each, both rows' loads in flight together, next ids prefetched), interleaved so clock or thermal drift shows as a
# difference between the two runs of one kernel; then blkdiag with the `prefetch` kernel (user and item rows of the
# next 4 ratings in flight), and Nsight Compute on one full-size
# (1,048,576-rating) launch of the fp32 `warps` kernel and on one mid-epoch step of blkdiag's `prefetch` kernel. From the bundle:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/sgd-mid.sh
# Writes under $OUT: sgd-mid.jsonl (one `squall sgd --json` result a run), sgd-mid.log, sgd-mid-summary.txt
# (bench/peers/sgd_summary.py), ncu-sgd-warps.txt and ncu-sgd-prefetch.txt (ncu --page details).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=15
unpack_bundle /tmp/squall-sgd-mid
S="$B/bin/squall"
J="$OUT/sgd-mid.jsonl"
L="$OUT/sgd-mid.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { step "$1" "squall sgd $2" bash -c "echo '\$ squall sgd $2' >> \"$L\"; \"$S\" sgd --generate netflix --rank 128 --json $2 >> \"$J\" 2>> \"$L\""; }
H="--schedule hogwild --epochs 6 --patience 0 --device cuda:0"
run 30 "$H --kernel lanes"
run 30 "$H --kernel warps"
run 30 "$H --kernel lanes"
run 30 "$H --kernel warps"
run 40 "--schedule blkdiag --epochs 3 --patience 0 --device cuda:0 --kernel prefetch"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
step 60 "ncu updateRatingsWarps" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name regex:'^updateRatingsWarps\$' --launch-skip 1 --launch-count 1 $SECTIONS --page details --print-units base \"$S\" sgd --generate netflix --rank 128 --schedule hogwild --kernel warps --epochs 1 --patience 0 --device cuda:0 > \"$OUT/ncu-sgd-warps.txt\" 2>> \"$L\""
# blkdiag (prefetch kernel) is bound by the hottest item's chain: one mid-epoch step launch, with the stall sampling
step 60 "ncu updateTasksPrefetch" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name regex:'^updateTasksPrefetchHeld\$' --launch-skip 600 --launch-count 1 $SECTIONS --section SourceCounters --page details --print-units base \"$S\" sgd --generate netflix --rank 128 --schedule blkdiag --epochs 1 --patience 0 --device cuda:0 > \"$OUT/ncu-sgd-prefetch.txt\" 2>> \"$L\""
python3 bench/peers/sgd_summary.py "$J" 2>&1 | tee "$OUT/sgd-mid-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
