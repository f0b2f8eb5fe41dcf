#!/usr/bin/env bash
# Triangular solves (issue 16), final: `squall gs --schedule syncfree-lanes-levels` as it runs by default (one launch a
# solve; SyncFreeSolve.levels picks per matrix and prints why in the layout: one work-group of 256 walking the levels
# with the values in local memory up to 4096 rows, else the lanes-sharing sync-free solve waiting by passes, at least 8
# lanes a row over levels of 1024 rows or more) against cuSPARSE's SpSV (CuPy's libcusparse, bench/peers/cupy_trsv.py,
# analysis once) in the same run. From the bundle, one device call, BUDGET s (default 150):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root (shared/data carried):   bash bench/gpu/trsv3-final.sh
# fp64 forward solves with lower triangles, ms per solve (median of 3 runs of 20 back-to-back solves), in order of priority:
# 1. hpcg 128^3 natural order (890 levels of ~2.4k rows), 5-point 1000^2 (ecology2's structure, 1999 levels of ~500
#    rows), 7-point 90^3 (apache2's, 268 levels of ~2.7k rows), shared/data's 1138_bus, ani4, bcsstk01, ani1, mesh1e1
#    (mycielskian6 has no diagonal: no triangular solve), all verified against the sequential solve;
# 2. the alternatives (-D options): hpcg with lanes spinning, 7-point with 2 lanes, 5-point with 8 lanes.
# PREDICTED (H100, written before the run; midpoint: bench/results/h100/sparse/2026-11-25-trsv3-midpoint):
# hpcg128 1.28-1.36 ms (1.40-1.50x cuSPARSE's ~1.90), lanes spinning 1.75-1.9; 5pt 2.15-2.35 ms (1.55-1.7x), 8 lanes
# 2.4-2.6; 7pt 0.39-0.42 ms (1.2-1.3x), 2 lanes 0.55-0.6; local-memory walk with its two-round prefetch: 1138_bus
# 0.022-0.029 ms (1.45-1.9x), ani4 0.12-0.17 (1.65-2.3x), bcsstk01 0.012-0.015 (1.9-2.4x), ani1 and mesh1e1
# 0.010-0.014 ms (1.8-3x cuSPARSE's ~0.025-0.03).
# Writes under $OUT: trsv3-final.jsonl (squall --json lines), trsv3-final-cusparse.jsonl, trsv3-final.log, summary.txt,
# stderr.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=4
unpack_bundle /tmp/squall-trsv3-final
S="$B/bin/squall"
J="$OUT/trsv3-final.jsonl"
L="$OUT/trsv3-final.log"
T="$OUT/trsv3-final-cusparse.jsonl"
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
SMALL="bus1138 ani4 bcsstk01 ani1 mesh1e1"

# 1.
peer 45 hpcg128=hpcg-lower:128 5pt:1000x1000=5pt-lower:1000 7pt:90x90x90=7pt-lower:90 \
  bus1138=$D/1138_bus.mtx ani4=$D/ani4.mtx bcsstk01=$D/bcsstk01.mtx ani1=$D/ani1.mtx mesh1e1=$D/mesh1e1.mtx --repeat 20
run 25 "" "gs --generate hpcg:128 $TRI --verify"
run 15 "" "gs --generate 5pt:1000x1000 $TRI --verify"
run 15 "" "gs --generate 7pt:90x90x90 $TRI --verify"
for m in $SMALL; do
  [ -f "$M/$m.mtx" ] && run 10 "" "gs --matrix $M/$m.mtx $MTX --verify"
done
# 2.
run 20 "-Dsquall.sparse.syncFreeWait=lanes" "gs --generate hpcg:128 $TRI"
run 12 "-Dsquall.sparse.syncFreeLanes=2" "gs --generate 7pt:90x90x90 $TRI"
run 12 "-Dsquall.sparse.syncFreeLanes=8" "gs --generate 5pt:1000x1000 $TRI"

python3 bench/peers/trsv_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
