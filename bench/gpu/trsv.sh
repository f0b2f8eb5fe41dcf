#!/usr/bin/env bash
# Triangular solves on the H100 host (issue 16), from the bundle, in one device call of under 8 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root (shared/data carried):   bash bench/gpu/trsv.sh
# Squall's level-scheduled (a launch per wide level, narrow ones chained) and sync-free (one launch: a work-item per
# row waits on the flags of the rows it reads) lower triangular solves against cuSPARSE's SpSV (through CuPy's
# libcusparse, bench/peers/cupy_trsv.py) on the same matrices, fp64:
# 1. the lower triangle of HPCG's 27-point matrix at 128^3 in natural order (890 levels) and in 8-colour order
#    (8 levels); squall: `gs --generate hpcg:128 --triangle lower [--reorder multicolor] --direction forward`, a
#    forward sweep over a lower-triangular matrix being the triangular solve; cuSPARSE on the same matrix built by
#    the peer script;
# 2. the whole solve: MG-preconditioned CG on hpcg:128 on cuda:0 and on the JVM backend on the host's cores, and
#    ILU(0)-preconditioned CG at 128^3 with level-scheduled against sync-free triangular solves;
# 3. the repository's SPD matrices (shared/data: 1138_bus, ani4, bcsstk01), lower triangles written by the peer;
# 4. the same at 256^3 (16.8M rows, 236M entries in the triangle; each squall run spends ~30-60 s generating).
# Later steps are skipped, and said so, once the budget is spent. Writes $OUT/trsv.jsonl (squall --json lines),
# trsv-cusparse.jsonl, trsv.log, summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-450}
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
for s in syncfree syncfree-levels levelset; do run 40 "gs --generate hpcg:128 $TRI --schedule $s --verify"; done
for s in syncfree levelset; do run 40 "gs --generate hpcg:128 --reorder multicolor $TRI --schedule $s --verify"; done

# 2. whole solves: MG-PCG on cuda:0 and on the JVM; ILU(0)-PCG with both triangular solves
run 40 "pcg --generate hpcg:128 --precond mg --tol 1e-8 --max-iter 200 --device cuda:0 --verify"
run 100 "pcg --generate hpcg:128 --precond mg --tol 1e-8 --max-iter 200 --device jvm --verify"
for s in syncfree-levels levelset; do run 60 "pcg --generate hpcg:128 --precond ilu0 --schedule $s --tol 1e-8 --max-iter 500 --device cuda:0 --verify"; done

# 3. the repository's matrices (small: launch- and latency-bound)
peer 40 bus1138=$D/1138_bus.mtx ani4=$D/ani4.mtx bcsstk01=$D/bcsstk01.mtx
for m in bus1138 ani4 bcsstk01; do
  [ -f "$M/$m.mtx" ] || continue
  for s in syncfree levelset; do run 20 "gs --matrix $M/$m.mtx --direction forward --schedule $s --sweeps 20 --device cuda:0 --verify"; done
done

# 4. 256^3
peer 120 hpcg256=hpcg-lower:256 hpcg256mc=hpcg-lower-mc:256 --repeat 10
run 90 "gs --generate hpcg:256 $TRI --schedule syncfree-levels --verify"
run 90 "gs --generate hpcg:256 $TRI --schedule levelset"
run 90 "gs --generate hpcg:256 --reorder multicolor $TRI --schedule syncfree"
run 90 "gs --generate hpcg:256 --reorder multicolor $TRI --schedule levelset"

python3 bench/peers/trsv_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
