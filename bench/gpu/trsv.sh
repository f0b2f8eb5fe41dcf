#!/usr/bin/env bash
# Triangular solves on the H100 host (issue 16), from the bundle, in one device call of under 7 minutes (BUDGET s):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root (shared/data carried):   bash bench/gpu/trsv.sh
# Squall's level-scheduled (a launch per wide level, narrow ones chained) and sync-free lower triangular solves against
# cuSPARSE's SpSV (through CuPy's libcusparse, bench/peers/cupy_trsv.py) on the same matrices, fp64. Sync-free kinds:
# `syncfree` (a work-item per row spins on its own inputs' flags), `syncfree-warp` and `syncfree-warp-levels` (warps
# of 32 rows wait as a whole: one spinning lane on the latest missing input, rows inside a warp in lockstep rounds;
# natural and level order).
# 1. the lower triangle of HPCG's 27-point matrix at 128^3 in natural order (890 levels) and in 8-colour order
#    (8 levels); squall: `gs --generate hpcg:128 --triangle lower [--reorder multicolor] --direction forward`, a
#    forward sweep over a lower-triangular matrix being the triangular solve; cuSPARSE on the same matrix built by
#    the peer script;
# 2. ILU(0)-preconditioned CG at 128^3 with level-scheduled against warp sync-free triangular solves;
# 3. the repository's SPD matrices (shared/data: 1138_bus, ani4, bcsstk01), lower triangles written by the peer;
# 4. natural order at 256^3 (16.8M rows, 236M entries in the triangle; each squall run spends ~30-60 s generating).
# Later steps are skipped, and said so, once the budget is spent. Writes $OUT/trsv.jsonl (squall --json lines),
# trsv-cusparse.jsonl, trsv.log, summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-400}
STEP_MIN=15
unpack_bundle /tmp/squall-trsv-run
S="$B/bin/squall"
J="$OUT/trsv.jsonl"
L="$OUT/trsv.log"
T="$OUT/trsv-cusparse.jsonl"
: > "$J"
: > "$L"
: > "$T"
export SQUALL_JAVA_OPTS="-Xmx100g"
export PYTHONUNBUFFERED=1
D=shared/data
[ -d "$D" ] || D=bench/data
M=/tmp/squall-trsv-mtx
mkdir -p "$M"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null) $(nproc) cores" | tee -a "$L"
run() { local t=$1 cmd=$2; step "$t" "squall $cmd" bash -c "echo '\$ squall $cmd' >> \"$L\"; \"$S\" $cmd --json >> \"$J\" 2>> \"$L\""; }
peer() { local t=$1; shift; step "$t" "cusparse $*" python3 bench/peers/cupy_trsv.py "$M" "$@" >> "$T" 2>> "$L"; }
TRI="--triangle lower --direction forward --sweeps 20 --device cuda:0"

# 1. 128^3, natural and colour order
peer 60 hpcg128=hpcg-lower:128 hpcg128mc=hpcg-lower-mc:128 --repeat 20
for s in syncfree-warp-levels syncfree-warp levelset syncfree; do run 40 "gs --generate hpcg:128 $TRI --schedule $s --verify"; done
for s in syncfree-warp syncfree levelset; do run 40 "gs --generate hpcg:128 --reorder multicolor $TRI --schedule $s --verify"; done

# 2. ILU(0)-PCG with both kinds of triangular solve (auto takes level sets)
for s in syncfree-warp-levels levelset; do run 60 "pcg --generate hpcg:128 --precond ilu0 --schedule $s --tol 1e-8 --max-iter 500 --device cuda:0 --verify"; done

# 3. the repository's matrices (small: launch- and latency-bound)
peer 40 bus1138=$D/1138_bus.mtx ani4=$D/ani4.mtx bcsstk01=$D/bcsstk01.mtx
for m in bus1138 ani4 bcsstk01; do
  [ -f "$M/$m.mtx" ] || continue
  for s in syncfree-warp-levels syncfree levelset; do run 20 "gs --matrix $M/$m.mtx --direction forward --schedule $s --sweeps 20 --device cuda:0 --verify"; done
done

# 4. 256^3, natural order
peer 100 hpcg256=hpcg-lower:256 --repeat 10
run 90 "gs --generate hpcg:256 $TRI --schedule syncfree-warp-levels --verify"
run 90 "gs --generate hpcg:256 $TRI --schedule levelset"

python3 bench/peers/trsv_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
