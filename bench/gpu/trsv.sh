#!/usr/bin/env bash
# Triangular solves on the H100 host (issue 16), from the bundle, in one device call of under 7 minutes (BUDGET s):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root (shared/data carried):   bash bench/gpu/trsv.sh
# Squall's sync-free lower triangular solve by warps whose lanes share rows (`syncfree-lanes-levels`: rows in level
# order, a row's entries over a power-of-two group of lanes, values as their own ready flags) and its level-scheduled
# solve (a launch per wide level, narrow ones chained) against cuSPARSE's SpSV (through CuPy's libcusparse,
# bench/peers/cupy_trsv.py) on the same matrices, fp64; squall runs `gs --triangle lower --direction forward` (a
# forward sweep over a lower-triangular matrix is the triangular solve) or `gs --matrix F` on the lower triangles the
# peer writes. The thesis's test matrices (SuiteSparse, not downloaded here) are approached by generated ones with their
# structure: HPCG's 27-point stencil (3-D FEM/FD: Emilia_923, Geo_1438, StocF-1465), the 5-point stencil on 1000^2
# (ecology2), the 7-point stencil on 90^3 (apache2: 3-D 7-point, 715k rows).
# 1. hpcg 128^3 natural order (890 levels), 5-point 1000^2 (1999 levels), 7-point 90^3 (268 levels), hpcg 128^3 in
#    8-colour order (8 levels): lanes, level sets;
# 2. the repository's SPD matrices (shared/data: 1138_bus, ani4, bcsstk01): lanes, level sets;
# 3. ILU(0)-preconditioned CG at 128^3 with lanes-sharing against level-scheduled triangular solves;
# 4. hpcg 256^3 natural order (1786 levels; each squall run spends ~30-60 s generating): lanes.
# LANES_OPTS (JVM options of the lanes runs, e.g. "-Dsquall.sparse.syncFreeLanes=8") picks lanes per row where the
# automatic choice (the power of two at least the mean row length) is to be overridden.
# Later steps are skipped, and said so, once the budget is spent. Writes $OUT/trsv.jsonl (squall --json lines),
# trsv-cusparse.jsonl, trsv.log, summary.txt (and stderr.txt when a step fails or is skipped).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-400}
STEP_MIN=10
LANES_OPTS=${LANES_OPTS:-}
unpack_bundle /tmp/squall-trsv-run
S="$B/bin/squall"
J="$OUT/trsv.jsonl"
L="$OUT/trsv.log"
T="$OUT/trsv-cusparse.jsonl"
: > "$J"
: > "$L"
: > "$T"
BASE_OPTS="-Xmx100g"
export PYTHONUNBUFFERED=1
D=shared/data
[ -d "$D" ] || D=bench/data
M=/tmp/squall-trsv-mtx
mkdir -p "$M"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null) $(nproc) cores LANES_OPTS=$LANES_OPTS" | tee -a "$L"
# run TIMEOUT "JVM OPTS" ARGS: one squall command, its --json line to $J, progress and errors to $L
run() { local t=$1 opts=$2 cmd=$3
  step "$t" "squall $cmd [$opts]" env SQUALL_JAVA_OPTS="$BASE_OPTS $opts" bash -c "echo '\$ SQUALL_JAVA_OPTS=\"$opts\" squall $cmd' >> \"$L\"; \"$S\" $cmd --json >> \"$J\" 2>> \"$L\""; }
peer() { local t=$1; shift; step "$t" "cusparse $*" python3 bench/peers/cupy_trsv.py "$M" "$@" >> "$T" 2>> "$L"; }
TRI="--triangle lower --direction forward --sweeps 20 --device cuda:0"

# 1. generated matrices
peer 90 hpcg128=hpcg-lower:128 hpcg128mc=hpcg-lower-mc:128 5pt:1000x1000=5pt-lower:1000 7pt:90x90x90=7pt-lower:90 \
  bus1138=$D/1138_bus.mtx ani4=$D/ani4.mtx bcsstk01=$D/bcsstk01.mtx --repeat 20
for g in hpcg:128 5pt:1000x1000 7pt:90x90x90; do
  run 40 "$LANES_OPTS" "gs --generate $g $TRI --schedule syncfree-lanes-levels --verify"
  run 40 "" "gs --generate $g $TRI --schedule levelset"
done
run 40 "$LANES_OPTS" "gs --generate hpcg:128 --reorder multicolor $TRI --schedule syncfree-lanes --verify"
run 40 "" "gs --generate hpcg:128 --reorder multicolor $TRI --schedule levelset"

# 2. the repository's matrices (small: launch- and latency-bound)
for m in bus1138 ani4 bcsstk01; do
  [ -f "$M/$m.mtx" ] || continue
  for s in syncfree-lanes-levels levelset; do
    run 20 "$([ $s = levelset ] || echo "$LANES_OPTS")" "gs --matrix $M/$m.mtx --direction forward --schedule $s --sweeps 20 --device cuda:0 --verify"
  done
done

# 3. ILU(0)-PCG with both kinds of triangular solve (auto takes level sets)
run 60 "$LANES_OPTS" "pcg --generate hpcg:128 --precond ilu0 --schedule syncfree-lanes-levels --tol 1e-8 --max-iter 500 --device cuda:0 --verify"
run 60 "" "pcg --generate hpcg:128 --precond ilu0 --schedule levelset --tol 1e-8 --max-iter 500 --device cuda:0 --verify"

# 4. 256^3, natural order
peer 100 hpcg256=hpcg-lower:256 --repeat 10
run 100 "$LANES_OPTS" "gs --generate hpcg:256 $TRI --schedule syncfree-lanes-levels --verify"

python3 bench/peers/trsv_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
