#!/usr/bin/env bash
# Sparse solvers on the H100 host (issue 16), from the bundle, in one device call of under 8 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/solvers.sh
# In order of priority (later steps are skipped, and said so, once the budget is spent; each 256^3 run spends ~30-60 s
# of host set-up before its solve):
# 1. MG-preconditioned CG on HPCG's 27-point problem at 256^3 (fp64, --profile: device time of each part of an
#    iteration, per multigrid level, with its launches); `squall gs` symmetric multicolour sweeps at 256^3 in the DIA
#    layout (the GPU default for stencils), GB/s and the ratio to the copy bandwidth measured in the same run.
# 2. Triangular solves: bench/peers/cupy_trsv.py writes the lower triangle of HPCG 64^3 and 104^3 and of the
#    repository's SPD matrices and times cuSPARSE's SpSV on it; `squall gs --direction forward --schedule levelset`
#    on the same file is the level-scheduled triangular solve (chains of narrow levels: --chain-max 512 and 0).
# 3. MG-PCG at 128^3 (the size of the first measurement: 2.98 ms per iteration before these changes); the JVM backend
#    on the host's cores against cuda:0, whole MG-PCG solve at 64^3.
# 4. At 256^3: MG in fp32 inside the fp64 solve (--precond-precision fp32), the ELL sweep layout, symmetric-GS- and
#    Jacobi-preconditioned CG.
# Writes $OUT/solvers.jsonl (one squall --json result a line), trsv-cusparse.jsonl, solvers.log, summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-460}
STEP_MIN=20
unpack_bundle /tmp/squall-solvers-run
S="$B/bin/squall"
J="$OUT/solvers.jsonl"
L="$OUT/solvers.log"
T="$OUT/trsv-cusparse.jsonl"
: > "$J"
: > "$L"
: > "$T"
# 256^3: 453M entries; the host holds the CSR matrix, its kernel-array copies and the sweep and SpMV layouts
export SQUALL_JAVA_OPTS="-Xmx100g"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { local t=$1 cmd=$2; step "$t" "squall $cmd" bash -c "echo '\$ squall $cmd' >> \"$L\"; \"$S\" $cmd --json >> \"$J\" 2>> \"$L\""; }

# most wanted first: each 256^3 run spends ~30-60 s of host set-up (generation, inspectors, layouts) before its solve
run 120 "pcg --generate hpcg:256 --precond mg --tol 1e-8 --max-iter 400 --profile --repeat 5 --device cuda:0 --verify"
run 90 "gs --generate hpcg:256 --schedule multicolor --layout dia --sweeps 10 --device cuda:0"

mkdir -p /tmp/squall-trsv
export PYTHONUNBUFFERED=1
# smallest first: each matrix's line is written as soon as it is timed
step 90 "cusparse trsv" python3 bench/peers/cupy_trsv.py /tmp/squall-trsv bcsstk01=bench/data/bcsstk01.mtx bus1138=bench/data/1138_bus.mtx \
    hpcg64=hpcg:64 hpcg104=hpcg:104 >> "$T" 2>> "$L"
for m in hpcg104 hpcg64 bus1138 bcsstk01; do
  [ -f "/tmp/squall-trsv/$m.mtx" ] || continue
  for c in 512 0; do
    run 30 "gs --matrix /tmp/squall-trsv/$m.mtx --direction forward --schedule levelset --chain-max $c --sweeps 20 --device cuda:0 --verify"
  done
done

run 40 "pcg --generate hpcg:128 --precond mg --tol 1e-8 --max-iter 200 --profile --repeat 5 --device cuda:0 --verify"
run 30 "pcg --generate hpcg:64 --precond mg --tol 1e-8 --device cuda:0 --verify"
run 60 "pcg --generate hpcg:64 --precond mg --tol 1e-8 --device jvm --verify"

run 100 "pcg --generate hpcg:256 --precond mg --precond-precision fp32 --tol 1e-8 --max-iter 400 --device cuda:0 --verify"
run 90 "gs --generate hpcg:256 --schedule multicolor --layout ell --sweeps 10 --device cuda:0"
run 100 "pcg --generate hpcg:256 --precond symgs --schedule multicolor --tol 1e-8 --max-iter 3000 --device cuda:0"
run 80 "pcg --generate hpcg:256 --precond jacobi --tol 1e-8 --max-iter 3000 --device cuda:0"

python3 bench/peers/solvers_summary.py "$J" "$T" 2>&1 | tee "$OUT/summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
