#!/usr/bin/env bash
# Dense kernel sums on the reference problem (Gaussian, N = M = 10^6, d = 3): the split-source kernels (default)
# against the one-work-group-per-tile kernels (-Dsquall.ksum.dense=tiled), interleaved, fp32 and fp64 two rounds
# each, with --verify on 100 rows; Nsight Compute on one launch of the fp32 split kernel; GaussSumKernelsTest on CUDA
# and NVIDIA OpenCL through gpu-check; last, if the budget allows, Nsight Compute on the fp64 split kernel:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ksumd.sh
# Writes under $OUT: runs.jsonl (one {"variant": ...} line before each squall ksum JSON line), runs.log (ending with
# the summary table), ncu-fp32.txt, ncu-fp64.txt, gpu-check.txt (and stderr.txt from lib.sh's
# step when a step fails).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=10
unpack_bundle /tmp/squall-ksumd-run
S="$B/bin/squall"
J="$OUT/runs.jsonl"
L="$OUT/runs.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
# run TIMEOUT LABEL JAVA_OPTS ARGS: one squall ksum process, its JSON line tagged with LABEL
run() { local t=$1 label=$2 opts=$3 args=$4
  echo "{\"variant\":\"$label\",\"java_opts\":\"$opts\"}" >> "$J"
  step "$t" "$label" bash -c "SQUALL_JAVA_OPTS=\"$opts\" \"$S\" ksum --n 1000000 --device cuda:0 --kernel gauss:0.1 --verify --sample 100 --json $args >> \"$J\" 2>> \"$L\""; }
F32="--precision fp32 --repeat 3"
F64="--precision fp64 --repeat 2"
for round in 1 2; do
  run 30 "fp32 tiled" "-Dsquall.ksum.dense=tiled" "$F32"
  run 30 "fp32 split" "" "$F32"
done
run 40 "fp64 tiled" "-Dsquall.ksum.dense=tiled" "$F64"
run 40 "fp64 split" "" "$F64"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
prof() { local file=$1 kernel=$2 prec=$3
  step 60 "ncu $kernel" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name $kernel --launch-count 1 $SECTIONS --page details --print-units base \"$S\" ksum --n 1000000 --device cuda:0 --kernel gauss:0.1 --precision $prec --repeat 1 > \"$OUT/$file\" 2>> \"$L\""; }
prof ncu-fp32.txt gaussExpandedDenseSplit3 fp32
step 70 "gpu-check ksum" bash -c "\"$B/bin/gpu-check\" --select dev.squall.hmatrix.ksum.GaussSumKernelsTest > \"$OUT/gpu-check.txt\" 2>&1"
run 40 "fp64 tiled" "-Dsquall.ksum.dense=tiled" "$F64"
run 40 "fp64 split" "" "$F64"
prof ncu-fp64.txt gaussExpandedSplit3 fp64
rm -rf "$OUT/gpu-check-reports"  # the JUnit XML repeats gpu-check.txt; at most 6 files come back
python3 - "$J" <<'EOF' | tee -a "$L"
import json, sys
from collections import defaultdict
by = defaultdict(list)
label = None
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith('{'):
        continue
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if 'variant' in r:
        label = r['variant']
    elif 'kernel_ms' in r:
        by[label].append(r)
print(f"{'variant':<14} {'kernel ms (median of each run)':<36} {'pairs/s':>10} {'rel err':>10} ok")
for k, rs in by.items():
    ms = [r['kernel_ms'] for r in rs]
    best = min(rs, key=lambda r: r['kernel_ms'])
    print(f"{k:<14} {' '.join(f'{v:.1f}' for v in ms):<36} {best['pairs_per_s']:>10.3g} {str(best.get('rel_error'))[:10]:>10} "
          f"{all(r.get('ok') for r in rs)}")
EOF
echo "total $((SECONDS - start)) s" | tee -a "$L"
