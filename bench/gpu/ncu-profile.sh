#!/usr/bin/env bash
# Hardware-counter profiles (Nsight Compute, clocks left alone) of the kernels that miss their targets, plus clock and
# power readings during a kernel-sum run, from the bundle:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ncu-profile.sh
# Writes under $OUT: ncu-*.txt (ncu --page details), dmon-ksum.txt, runs.log.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-400}
STEP_MIN=15
unpack_bundle /tmp/squall-ncu-run
S="$B/bin/squall"
L="$OUT/runs.log"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader) ncu=$NCU" | tee -a "$L"
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
prof() { local name=$1 regex=$2 count=$3; shift 3
  step 120 "ncu $name" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name regex:'$regex' --launch-skip 1 --launch-count $count $SECTIONS --page details --print-units base \"\$@\" > \"$OUT/ncu-$name.txt\" 2>> \"$L\"" _ "$@"; }
# 1. kernel sums fp32 (expanded exponent): clocks/power during the plain run, then one launch under ncu
nvidia-smi dmon -s pc -d 1 > "$OUT/dmon-ksum.txt" 2>&1 & DMON=$!
step 60 "ksum fp32 plain" bash -c "\"$S\" ksum --n 1000000 --device cuda:0 --precision fp32 --kernel gauss:0.1 --repeat 10 --json >> \"$L\" 2>&1"
kill $DMON 2>/dev/null
prof ksum-fp32 'gauss' 1 "$S" ksum --n 1000000 --device cuda:0 --precision fp32 --kernel gauss:0.1 --repeat 2
prof ksum-fp64 'gauss' 1 "$S" ksum --n 1000000 --device cuda:0 --precision fp64 --kernel gauss:0.1 --repeat 2
# 2. permanents: ER n=40 p=0.5 twice in fresh processes (the second finds the build in $SQUALL_CACHE)
for i in 1 2; do step 60 "permanent er p=0.5 #$i" bash -c "/usr/bin/time -f 'process %e s' \"$S\" permanent --random 40:0.5:1 --device cuda:0 --timings --json >> \"$L\" 2>&1"; done
# 3. SGD Hogwild (netflix shape, k=128): one epoch kernel
prof sgd-hogwild 'updateTasks' 1 "$S" sgd --generate netflix --rank 128 --epochs 2 --schedule hogwild --device cuda:0
# 4. triangular solve, 128^3 natural order, level sets and sync-free by warps: a few launches each
prof trsv-levelset '.*' 6 "$S" gs --generate hpcg:128 --triangle lower --direction forward --sweeps 2 --schedule levelset --device cuda:0
prof trsv-syncfree-warp '.*' 6 "$S" gs --generate hpcg:128 --triangle lower --direction forward --sweeps 2 --schedule syncfree-warp-levels --device cuda:0
echo "total $((SECONDS - start)) s" | tee -a "$L"
