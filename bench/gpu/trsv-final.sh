#!/usr/bin/env bash
# Triangular solves, lanes sharing rows (issue 16): the final comparison with cuSPARSE, from the bundle, in one device
# call of under 3 minutes (BUDGET s):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root (shared/data carried):   bash bench/gpu/trsv-final.sh
# The sync-free solve by warps whose lanes share rows (`syncfree-lanes[-levels]`, SolverKernels.syncFreeLaneRows) as it
# runs by default (each lane spinning on its own missing inputs of earlier blocks, work-groups of 128, lanes per row the
# power of two at least half the mean row length: 8 on the 27-point triangle) and its variants (-D options: waiting by
# passes as measured at the midpoint, one-warp work-groups, 16 lanes) against cuSPARSE's SpSV (CuPy's libcusparse,
# bench/peers/cupy_trsv.py) and level sets, fp64 forward solves with lower triangles, in order of priority:
# 1. HPCG's 27-point matrix at 128^3, natural order (890 levels): default, work-groups of 32, waiting by passes;
# 2. the thesis's structures, generated: the 5-point stencil on 1000^2 (ecology2), the 7-point on 90^3 (apache2);
#    shared/data's 1138_bus, ani4, bcsstk01;
# 3. 128^3: 16 lanes, level sets, 8-colour order; Nsight Compute on one solve of the default kernel.
# Later steps are skipped, and said so in stderr.txt, once the budget is spent. Writes under $OUT (6 files at most):
# trsv-final.jsonl (squall --json lines), trsv-final-cusparse.jsonl, trsv-final.log, summary.txt, ncu-trsv.txt, stderr.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=10
unpack_bundle /tmp/squall-trsv-final
S="$B/bin/squall"
J="$OUT/trsv-final.jsonl"
L="$OUT/trsv-final.log"
T="$OUT/trsv-final-cusparse.jsonl"
N="$OUT/ncu-trsv.txt"
: > "$J"; : > "$L"; : > "$T"; : > "$N"
BASE_OPTS="-Xmx100g"
export PYTHONUNBUFFERED=1
D=shared/data
[ -d "$D" ] || D=bench/data
M=/tmp/squall-trsv-mtx
mkdir -p "$M"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null) $(nproc) cores ncu=$NCU" | tee -a "$L"
# run TIMEOUT "JVM OPTS" ARGS: one squall command, --json line to $J, progress and errors to $L
run() { local t=$1 opts=$2 cmd=$3
  step "$t" "squall $cmd [$opts]" env SQUALL_JAVA_OPTS="$BASE_OPTS $opts" bash -c "echo '\$ SQUALL_JAVA_OPTS=\"$opts\" squall $cmd' >> \"$L\"; \"$S\" $cmd --json >> \"$J\" 2>> \"$L\""; }
peer() { local t=$1; shift; step "$t" "cusparse $*" python3 bench/peers/cupy_trsv.py "$M" "$@" >> "$T" 2>> "$L"; }
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
# prof TIMEOUT REGEX "JVM OPTS" ARGS: the third launch of the kernels REGEX names (two before it: the first run's warm-up)
prof() { local t=$1 regex=$2 opts=$3 cmd=$4
  [ -n "$NCU" ] || { echo "no ncu found" >> "$N"; return; }
  step "$t" "ncu $regex" env SQUALL_JAVA_OPTS="$BASE_OPTS $opts" bash -c "echo '### ncu $regex: squall $cmd [$opts]' >> \"$N\"; \"$NCU\" --clock-control none --target-processes all --kernel-name regex:'$regex' --launch-skip 2 --launch-count 1 $SECTIONS --page details --print-units base \"$S\" $cmd >> \"$N\" 2>> \"$L\""; }
TRI="--triangle lower --direction forward --sweeps 20 --device cuda:0"

# 1. 128^3 natural order
peer 60 hpcg128=hpcg-lower:128 hpcg128mc=hpcg-lower-mc:128 5pt:1000x1000=5pt-lower:1000 7pt:90x90x90=7pt-lower:90 \
  bus1138=$D/1138_bus.mtx ani4=$D/ani4.mtx bcsstk01=$D/bcsstk01.mtx --repeat 20
run 30 "" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels --verify"
run 30 "-Dsquall.sparse.syncFreeGroup=32" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels"
run 30 "-Dsquall.sparse.syncFreeWait=pass" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels"

# 2. the thesis's structures and the repository's matrices
run 20 "" "gs --generate 5pt:1000x1000 $TRI --schedule syncfree-lanes-levels --verify"
run 20 "" "gs --generate 7pt:90x90x90 $TRI --schedule syncfree-lanes-levels --verify"
for m in bus1138 ani4 bcsstk01; do
  [ -f "$M/$m.mtx" ] && run 15 "" "gs --matrix $M/$m.mtx --direction forward --sweeps 20 --device cuda:0 --schedule syncfree-lanes-levels --verify"
done

# 3. variants and the old schedule
run 30 "-Dsquall.sparse.syncFreeLanes=16" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels"
run 30 "" "gs --generate hpcg:128 $TRI --schedule levelset"
run 30 "" "gs --generate hpcg:128 --reorder multicolor $TRI --schedule syncfree-lanes --verify"
prof 40 'syncFreeLaneRows' "" "gs --generate hpcg:128 --triangle lower --direction forward --sweeps 2 --schedule syncfree-lanes-levels --device cuda:0"
run 20 "-Dsquall.sparse.syncFreeGroup=32" "gs --generate 5pt:1000x1000 $TRI --schedule syncfree-lanes-levels"

python3 bench/peers/trsv_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
