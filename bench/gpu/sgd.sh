#!/usr/bin/env bash
# SGD matrix factorisation on the Netflix-shaped generated set (480,190 x 17,771, ~99M ratings, k = 128, fp32), every
# schedule on cuda:0 and the JVM backend on the host's cores, in one device call of under 8 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/sgd.sh
# Each line of $OUT/sgd.jsonl is one `squall sgd ... --json` result (per-epoch RMSE and updates/s, median updates/s,
# bytes per update, the copy-bandwidth bound and the ratio to it, inspector and set-up times, the reachable test RMSE,
# the schedule's span and the largest row); the summary is
# bench/peers/sgd_summary.py. Writes $OUT/sgd.jsonl, sgd.log, sgd-summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-470}
STEP_MIN=30
unpack_bundle /tmp/squall-sgd-run
S="$B/bin/squall"
J="$OUT/sgd.jsonl"
L="$OUT/sgd.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { step "$1" "squall sgd $2" bash -c "echo '\$ squall sgd $2' >> \"$L\"; \"$S\" sgd --generate netflix --rank 128 --json $2 >> \"$J\" 2>> \"$L\""; }
# the defaults (learning rate, decay, regularisation) are the command's; blkdiag and stratified run the prefetch kernel
# on GPUs (auto), and blkdiag once more with the plain lanes kernel for the before/after of the hot-row chain
run 100 "--epochs 20 --schedule hogwild --device cuda:0"
run 100 "--epochs 20 --schedule blkdiag --device cuda:0"
run 70 "--epochs 3 --patience 0 --schedule blkdiag --kernel lanes --device cuda:0"
run 100 "--epochs 20 --schedule blkdiag --blocks 2048 --device cuda:0"
run 100 "--epochs 20 --schedule stratified --device cuda:0"
run 120 "--epochs 2 --patience 0 --schedule blkdiag --device jvm"
python3 bench/peers/sgd_summary.py "$J" 2>&1 | tee "$OUT/sgd-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
