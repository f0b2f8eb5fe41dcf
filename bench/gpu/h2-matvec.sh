#!/usr/bin/env bash
# The H2 product on an H100, block-row kernels (the default) against the per-level kernels they replace
# (-Dsquall.h2.product=levels: one launch per level and phase, linalg batched GEMMs from 16 vectors), interleaved
# size by size, in one device call of under 8 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/h2-matvec.sh
# Problems as bench/gpu/h2.sh (perturbed grids, exponential kernel; 2D l = 0.1 order 8, 3D l = 0.2 order 4, rank 64,
# leaves of 64, box-center admissibility). Product time: median over --repeat whole products between CUDA events;
# GB/s = bytes of dense blocks + couplings + leaf bases + transfers / time (as the paper counts) and its ratio to the
# copy kernel; GFLOP/s = 2 (dense + couplings + 2 bases + 2 transfers) / 8 x nv / time. Order: the targets first
# (single vector at 2^20 2D eta 0.7 and 3D; nv = 32 at 2D 2^20 and 3D 2^19, where the per-level GEMMs still fit their
# int offsets, and 3D 2^20 block rows only), then 2D 2^16 .. 2^22 and 3D 2^16 .. 2^20 single-vector (both paths at
# even exponents, block rows at every one).
# Writes under $OUT: h2-block-rows.jsonl, h2-levels.jsonl (squall h2 --json lines), h2-matvec.log,
# h2-matvec-summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-440}
STEP_MIN=12
unpack_bundle /tmp/squall-h2mv-run
S="$B/bin/squall"
BASE_OPTS="-XX:MaxDirectMemorySize=110g -Xmx90g ${SQUALL_JAVA_OPTS:-}"
L="$OUT/h2-matvec.log"
: > "$OUT/h2-block-rows.jsonl"
: > "$OUT/h2-levels.jsonl"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)" | tee -a "$L"
# run PATH TIMEOUT ARGS...: one squall h2 run with the product kernels PATH (block-rows or levels)
run() {
  local p=$1 t=$2; shift 2
  local opts="$BASE_OPTS"
  [ "$p" = levels ] && opts="$opts -Dsquall.h2.product=levels"
  step "$t" "[$p] squall h2 $*" env SQUALL_JAVA_OPTS="$opts" bash -c "\"$S\" h2 --json $* >> \"$OUT/h2-$p.jsonl\" 2>> \"$L\""
}
both() { run block-rows "$@"; run levels "$@"; }
D2="--points 2d --kernel exp:0.1 --order 8"
D3="--points 3d --kernel exp:0.2 --order 4"
C="--admissibility center --device cuda:0"
both 40 $D2 --n 1048576 $C --eta 0.7 --repeat 10 --verify --sample 30 --tolerance 1e-6
both 50 $D3 --n 1048576 $C --repeat 10 --verify --sample 30 --tolerance 1e-2
both 40 $D2 --n 1048576 $C --vectors 32 --repeat 5 --verify --sample 10 --tolerance 1e-3
both 40 $D3 --n 524288 $C --vectors 32 --repeat 5 --verify --sample 10 --tolerance 1e-2
run block-rows 60 $D3 --n 1048576 $C --vectors 32 --repeat 5 --verify --sample 10 --tolerance 1e-2
for e in 16 17 18 19 20 21 22; do
  if [ $((e % 2)) -eq 0 ]; then both 40 $D2 --n $((1 << e)) $C --repeat 5 --verify --sample 20 --tolerance 1e-3
  else run block-rows 40 $D2 --n $((1 << e)) $C --repeat 5 --verify --sample 20 --tolerance 1e-3; fi
done
for e in 16 17 18 19; do
  if [ $((e % 2)) -eq 0 ]; then both 40 $D3 --n $((1 << e)) $C --repeat 5 --verify --sample 20 --tolerance 1e-2
  else run block-rows 40 $D3 --n $((1 << e)) $C --repeat 5 --verify --sample 20 --tolerance 1e-2; fi
done
python3 bench/peers/h2_matvec_summary.py "$OUT/h2-block-rows.jsonl" "$OUT/h2-levels.jsonl" 2>&1 | tee "$OUT/h2-matvec-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
