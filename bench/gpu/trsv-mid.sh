#!/usr/bin/env bash
# Triangular solves, lanes sharing rows (issue 16), from the bundle, in one device call of under 3 minutes (BUDGET s):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root (shared/data carried):   bash bench/gpu/trsv-mid.sh
# The sync-free solve by warps whose lanes share rows (`syncfree-lanes[-levels]`, SolverKernels.syncFreeLaneRows: a row's
# entries over 16 or 32 lanes, every input loaded in one pass, waiting by passing again or, with
# -Dsquall.sparse.syncFreeWait=latest, by lane 0 spinning on the latest missing input) against the schedules it is to
# replace (level sets: a launch per wide level; `syncfree-warp-levels`: a lane per row) and cuSPARSE's SpSV (CuPy's
# libcusparse, bench/peers/cupy_trsv.py), fp64 forward solves with lower triangles, in order of priority:
# 1. HPCG's 27-point matrix at 128^3, natural order (890 levels of ~2.4k rows): lanes 16 (auto), level sets, lanes 8
#    and 4; Nsight Compute on one solve of the lanes kernel (kernel-name regex, past the warm-up);
# 2. the 5-point Laplacian on 1000 x 1000 (ecology2's stencil; 1999 levels of <= 1000 rows): lanes, level sets;
# 3. 128^3: lanes 32, lanes 16 with lane 0 spinning, the old warp kernel (syncfree-warp-levels);
# 4. shared/data's 1138_bus, ani4, bcsstk01 (small: launch- and latency-bound): lanes;
# 5. the 128^3 matrix in 8-colour order (8 levels of 262k rows: throughput-bound): lanes; Nsight Compute on one
#    solve of the old warp kernel (syncFreeWarpRows), for the comparison.
# Later steps are skipped, and said so in stderr.txt, once the budget is spent. Writes under $OUT (6 files at most):
# trsv-mid.jsonl (squall --json lines), trsv-mid-cusparse.jsonl, trsv-mid.log, summary.txt, ncu-trsv.txt, stderr.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=10
unpack_bundle /tmp/squall-trsv-mid
S="$B/bin/squall"
J="$OUT/trsv-mid.jsonl"
L="$OUT/trsv-mid.log"
T="$OUT/trsv-mid-cusparse.jsonl"
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

# 1. 128^3 natural order: lanes per row 16 (auto: mean row 13.8), level sets, lanes 8 and 4 (more rows a warp: more
#    levels in flight among the resident warps), ncu of the lanes kernel
peer 60 hpcg128=hpcg-lower:128 hpcg128mc=hpcg-lower-mc:128 5pt:1000x1000=5pt-lower:1000 bus1138=$D/1138_bus.mtx ani4=$D/ani4.mtx bcsstk01=$D/bcsstk01.mtx --repeat 20
run 30 "" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels --verify"
run 30 "" "gs --generate hpcg:128 $TRI --schedule levelset"
run 30 "-Dsquall.sparse.syncFreeLanes=8" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels"
run 30 "-Dsquall.sparse.syncFreeLanes=4" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels"
prof 40 'syncFreeLaneRows' "" "gs --generate hpcg:128 --triangle lower --direction forward --sweeps 2 --schedule syncfree-lanes-levels --device cuda:0"

# 2. ecology2's stencil (auto: 4 lanes a row), level sets
run 20 "" "gs --generate 5pt:1000x1000 $TRI --schedule syncfree-lanes-levels --verify"
run 20 "" "gs --generate 5pt:1000x1000 $TRI --schedule levelset"

# 3. 128^3: one row a warp (32 lanes), lane 0 spinning between passes, the old warp kernel
run 30 "-Dsquall.sparse.syncFreeLanes=32" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels"
run 30 "-Dsquall.sparse.syncFreeWait=latest -Dsquall.sparse.syncFreeGroup=32" "gs --generate hpcg:128 $TRI --schedule syncfree-lanes-levels"
run 30 "" "gs --generate hpcg:128 $TRI --schedule syncfree-warp-levels"

# 4. the repository's matrices
for m in bus1138 ani4 bcsstk01; do
  [ -f "$M/$m.mtx" ] && run 15 "" "gs --matrix $M/$m.mtx --direction forward --sweeps 20 --device cuda:0 --schedule syncfree-lanes-levels --verify"
done

# 5. colour order; the old warp kernel under ncu
run 30 "" "gs --generate hpcg:128 --reorder multicolor $TRI --schedule syncfree-lanes --verify"
prof 40 'syncFreeWarpRows' "" "gs --generate hpcg:128 --triangle lower --direction forward --sweeps 2 --schedule syncfree-warp-levels --device cuda:0"

python3 bench/peers/trsv_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
