#!/usr/bin/env bash
# Dense kernel sums on the reference problem (Gaussian, N = M = 10^6, d = 3): the one-work-group-per-tile kernels
# (-Dsquall.ksum.dense=tiled) against the split-source kernels (default; -Dsquall.ksum.local / -Dsquall.ksum.splits
# vary their work-group width and segment count), interleaved, in fp32 and fp64; then Nsight Compute on one launch of
# each split kernel (clocks left alone) and, where the host has nvcc and cuobjdump, their SASS:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ksumd-mid.sh
# Writes under $OUT: runs.jsonl (one {"variant": ...} line before each squall ksum JSON line), runs.log (ending with
# the summary table), ncu-fp32.txt, ncu-fp64.txt, sass.txt (and stderr.txt from lib.sh's step when a step fails).
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
round() {
  run 30 "fp32 tiled" "-Dsquall.ksum.dense=tiled" "$F32"
  run 30 "fp32 split w32" "" "$F32"
  run 40 "fp64 tiled" "-Dsquall.ksum.dense=tiled" "$F64"
  run 40 "fp64 split w128" "" "$F64"
}
round
run 30 "fp32 split w64" "-Dsquall.ksum.local=64" "$F32"
run 30 "fp32 split w128" "-Dsquall.ksum.local=128" "$F32"
run 30 "fp32 split w32 s32" "-Dsquall.ksum.splits=32" "$F32"
run 40 "fp64 split w64" "-Dsquall.ksum.local=64" "$F64"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
METRICS=smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active
# prof FILE KERNEL PRECISION: sections, then (separately, so a metric this ncu lacks costs only that part) the stall and pipe metrics
prof() { local file=$1 kernel=$2 prec=$3
  step 60 "ncu $kernel" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name $kernel --launch-count 1 $SECTIONS --page details --print-units base \"$S\" ksum --n 1000000 --device cuda:0 --kernel gauss:0.1 --precision $prec --repeat 1 > \"$OUT/$file\" 2>> \"$L\""
  step 45 "ncu metrics $kernel" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name $kernel --launch-count 1 --metrics $METRICS --print-units base \"$S\" ksum --n 1000000 --device cuda:0 --kernel gauss:0.1 --precision $prec --repeat 1 >> \"$OUT/$file\" 2>> \"$L\""; }
prof ncu-fp32.txt gaussExpandedDenseSplit3 fp32
prof ncu-fp64.txt gaussExpandedSplit3 fp64
round
# SASS of the split kernels, from the CUDA C in the bundle's hmatrix jar (only where the host has the toolkit's tools)
if command -v nvcc > /dev/null && command -v cuobjdump > /dev/null; then
  step 30 "sass" bash -c "cd /tmp && python3 -c \"import zipfile,glob; z=zipfile.ZipFile(glob.glob('$B/lib/*hmatrix*.jar')[0]); [open(n.split('/')[-1],'wb').write(z.read(n)) for n in z.namelist() if n.endswith('.cu') and 'GaussSum' in n]\" && for f in dev.squall.hmatrix.ksum.GaussSumKernelsF32.cu dev.squall.hmatrix.ksum.GaussSumKernelsF64.cu; do nvcc -arch=sm_90 -cubin -o k.cubin \$f && cuobjdump -sass -fun gaussExpandedDenseSplit3 -fun gaussExpandedSplit3 k.cubin; done > \"$OUT/sass.txt\" 2>> \"$L\""
fi
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
print(f"{'variant':<22} {'kernel ms (each run)':<28} {'pairs/s':>10} {'rel err':>10} ok")
for k, rs in by.items():
    ms = [r['kernel_ms'] for r in rs]
    best = min(rs, key=lambda r: r['kernel_ms'])
    print(f"{k:<22} {' '.join(f'{v:.1f}' for v in ms):<28} {best['pairs_per_s']:>10.3g} {str(best.get('rel_error'))[:10]:>10} "
          f"{all(r.get('ok') for r in rs)}")
EOF
echo "total $((SECONDS - start)) s" | tee -a "$L"
