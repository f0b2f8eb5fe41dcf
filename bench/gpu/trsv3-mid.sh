#!/usr/bin/env bash
# Triangular solves (issue 16), midpoint: the lanes-sharing sync-free solve without its clearing launch, reloading only
# missing inputs; matrices of narrow levels walked level by level in one work-group (values in local memory under 4096
# rows); all against cuSPARSE's SpSV (CuPy's libcusparse, bench/peers/cupy_trsv.py) in the same run. From the bundle,
# one device call, BUDGET s (default 90):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root (shared/data carried):   bash bench/gpu/trsv3-mid.sh
# fp64 forward solves with lower triangles, `squall gs --schedule syncfree-lanes-levels` (which picks the kernel per
# matrix: SyncFreeSolve.levels), ms per solve (median of 3 runs of 20 back-to-back solves), in order of priority:
# 1. hpcg 128^3 natural order (890 levels of ~2.4k rows, 8 lanes a row): waiting by passes (now the default), and lanes
#    spinning (the default before);
# 2. 5-point 1000^2 (ecology2's structure, 1999 levels of ~500 rows): default (one work-group of 1024 walking the
#    levels), and the lanes-sharing solve (-Dsquall.sparse.levelWalkWidth=0) by passes with 2 and 8 lanes a row;
# 3. 7-point 90^3 (apache2's, 268 levels of ~2.7k rows): lanes-sharing by passes, 2 and 8 lanes; the one-work-group walk;
# 4. shared/data's 1138_bus, ani4, bcsstk01 (one work-group of 256 walking the levels in local memory, the default);
# 5. ani4 by the lanes-sharing solve (-Dsquall.sparse.syncFreeLocal=false -Dsquall.sparse.levelWalkWidth=0) without and with a launch as costly as the
#    old clearing launch (-Dsquall.sparse.syncFreeClear=true): that launch's cost on a small matrix.
# PREDICTED (H100, before the run; last measured: bench/results/h100/sparse/2026-11-25-trsv-lanes, cuSPARSE figures
# from there):
# - hpcg128 passes 1.25-1.40 ms (was 1.462; a pass reloads only missing inputs), 1.36-1.5x cuSPARSE's ~1.91;
#   lanes spinning 1.7-1.9 ms (was 1.917).
# - 5pt walk 1.0-2.0 ms (barrier + one round of L2 loads a level, ~0.5-1 us; cuSPARSE 3.65: 1.8-3.6x); lanes-sharing by
#   passes, 2 lanes 3.0-4.0 ms (spinning was 3.95), 8 lanes 2.4-3.4 ms (a quarter of the rows in flight polling L2).
# - 7pt lanes-sharing by passes: 2 lanes 0.6-0.9 ms (spinning was 1.019; cuSPARSE 0.517), 8 lanes 0.45-0.7 ms; walk
#   0.5-0.9 ms (2.7 rows a work-item a level, only the first prefetched).
# - local-memory walk: 1138_bus (21 levels) 0.010-0.020 ms (was 0.053, cuSPARSE 0.043: 2-4x), ani4 (183 levels)
#   0.05-0.12 ms (was 0.364, cuSPARSE 0.290: 2.4-5.8x), bcsstk01 (13 levels) 0.008-0.015 ms (was 0.031, cuSPARSE 0.029).
# - ani4 lanes-sharing without the clearing launch 0.30-0.36 ms; with the extra launch 3-6 us more per solve.
# Writes under $OUT: trsv3-mid.jsonl (squall --json lines), trsv3-mid-cusparse.jsonl, trsv3-mid.log, summary.txt, stderr.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-90}
STEP_MIN=4
unpack_bundle /tmp/squall-trsv3-mid
S="$B/bin/squall"
J="$OUT/trsv3-mid.jsonl"
L="$OUT/trsv3-mid.log"
T="$OUT/trsv3-mid-cusparse.jsonl"
: > "$J"; : > "$L"; : > "$T"
BASE_OPTS="-Xmx100g"
export PYTHONUNBUFFERED=1
D=shared/data
[ -d "$D" ] || D=bench/data
M=/tmp/squall-trsv-mtx
mkdir -p "$M"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null) $(nproc) cores" | tee -a "$L"
# run TIMEOUT "JVM OPTS" ARGS: one squall command, --json line to $J, progress and errors to $L
run() { local t=$1 opts=$2 cmd=$3
  step "$t" "squall $cmd [$opts]" env SQUALL_JAVA_OPTS="$BASE_OPTS $opts" bash -c "echo '\$ SQUALL_JAVA_OPTS=\"$opts\" squall $cmd' >> \"$L\"; \"$S\" $cmd --json >> \"$J\" 2>> \"$L\""; }
peer() { local t=$1; shift; step "$t" "cusparse $*" python3 bench/peers/cupy_trsv.py "$M" "$@" >> "$T" 2>> "$L"; }
TRI="--triangle lower --direction forward --sweeps 20 --device cuda:0 --schedule syncfree-lanes-levels"
MTX="--direction forward --sweeps 20 --device cuda:0 --schedule syncfree-lanes-levels"

peer 40 hpcg128=hpcg-lower:128 5pt:1000x1000=5pt-lower:1000 7pt:90x90x90=7pt-lower:90 \
  bus1138=$D/1138_bus.mtx ani4=$D/ani4.mtx bcsstk01=$D/bcsstk01.mtx --repeat 20
# 1.
run 25 "" "gs --generate hpcg:128 $TRI --verify"
run 20 "-Dsquall.sparse.syncFreeWait=lanes" "gs --generate hpcg:128 $TRI"
# 2.
run 12 "" "gs --generate 5pt:1000x1000 $TRI --verify"
run 12 "-Dsquall.sparse.levelWalkWidth=0 -Dsquall.sparse.syncFreeWait=pass" "gs --generate 5pt:1000x1000 $TRI --verify"
run 12 "-Dsquall.sparse.levelWalkWidth=0 -Dsquall.sparse.syncFreeWait=pass -Dsquall.sparse.syncFreeLanes=8" "gs --generate 5pt:1000x1000 $TRI"
# 3.
run 12 "-Dsquall.sparse.syncFreeWait=pass" "gs --generate 7pt:90x90x90 $TRI --verify"
run 12 "-Dsquall.sparse.syncFreeWait=pass -Dsquall.sparse.syncFreeLanes=8" "gs --generate 7pt:90x90x90 $TRI"
run 12 "-Dsquall.sparse.levelWalkWidth=4096" "gs --generate 7pt:90x90x90 $TRI --verify"
# 4.
for m in bus1138 ani4 bcsstk01; do
  [ -f "$M/$m.mtx" ] && run 10 "" "gs --matrix $M/$m.mtx $MTX --verify"
done
# 5.
[ -f "$M/ani4.mtx" ] && run 10 "-Dsquall.sparse.syncFreeLocal=false -Dsquall.sparse.levelWalkWidth=0" "gs --matrix $M/ani4.mtx $MTX"
[ -f "$M/ani4.mtx" ] && run 10 "-Dsquall.sparse.syncFreeLocal=false -Dsquall.sparse.levelWalkWidth=0 -Dsquall.sparse.syncFreeClear=true" "gs --matrix $M/ani4.mtx $MTX"

python3 bench/peers/trsv_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
