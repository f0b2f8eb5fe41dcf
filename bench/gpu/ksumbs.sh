#!/usr/bin/env bash
# Block-sparse kernel sums end to end at 10^6 points (Gaussian gauss:0.01, d = 3, uniform cube, cutoff 0.06), the
# device pipeline (GridBlockSparseSum): a first call in a fresh process; cells of 0.04 (~15 600 clusters of ~64
# points), 0.0215 (~100 000 clusters) and 0.02 (~125 000 clusters of ~8 points), with target clusters 1 to 16 cells
# wide (--target-span); fp32 and fp64; each with the phase times of its warm passes (JSON warm_phases: the median of 8 passes: clustering,
# build, ranges, sum, total, ms; ksumbs.log: each warm pass's steps, ms); then GridBlockSparseSumTest through gpu-check
# (CUDA, NVIDIA OpenCL, PoCL, JVM) with the time left, in one device call of under BUDGET seconds:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ksumbs.sh
# Writes under $OUT (6 files): ksumbs.jsonl (Squall's JSON lines), ksumbs.log, ksumbs-summary.txt, gpu-check-reports.tgz,
# gpu-check.txt, stderr.txt (skipped or failed steps).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-140}
STEP_MIN=15
unpack_bundle /tmp/squall-ksumbs-final
S="$B/bin/squall"
J="$OUT/ksumbs.jsonl"
L="$OUT/ksumbs.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { step "$1" "squall ksum $2" bash -c "\"$S\" ksum --n 1000000 --device cuda:0 --verify --sample 100 --json $2 >> \"$J\" 2>> \"$L\""; }
BS="--kernel gauss:0.01 --block-sparse --cutoff 0.06"
step 40 "first call in a fresh process" bash -c "\"$S\" ksum --n 1000000 --device cuda:0 --json $BS --cell 0.04 --repeat 0 >> \"$J\" 2>> \"$L\""
run 30 "$BS --cell 0.04 --precision fp32 --repeat 8"
run 30 "$BS --cell 0.04 --precision fp32 --target-span 2 --repeat 8"
run 30 "$BS --cell 0.0215 --precision fp32 --repeat 8"
run 30 "$BS --cell 0.0215 --precision fp32 --target-span 8 --repeat 8"
run 30 "$BS --cell 0.02 --precision fp32 --target-span 16 --repeat 8"
run 30 "$BS --cell 0.04 --precision fp64 --repeat 8"
step 90 "gpu-check block-sparse" bash -c "\"$B/bin/gpu-check\" --select dev.squall.hmatrix.ksum.GridBlockSparseSumTest > \"$OUT/gpu-check.txt\" 2>&1"
pack_reports "$OUT/gpu-check.txt"
python3 - "$J" <<'PY' 2>&1 | tee "$OUT/ksumbs-summary.txt"
import json, sys
print("cell   span prec exponent  clusters  kernel ms  pairs/s   kept    first ms  call ms  warm: clustering build ranges sum total ms  rel err   ok")
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith("{"): continue
    r = json.loads(line); w = r.get("warm_phases") or {}
    why = r.get("reason") or ""
    r["target_span"] = why.split("target clusters ")[1].split(" ")[0] if "target clusters " in why else "1"
    f = lambda k: "%8.1f" % w[k] if k in w else "     n/a"
    print("%-6s %-4s %-4s %-9s %8s %9.2f %9.3g %7.4f %9.1f %8.1f  %s %s %s %s %s  %.2e %s" % (r.get("cell"), r["target_span"], r.get("precision"), r.get("exponent"),
          r.get("target_clusters"), r.get("kernel_ms", 0), r.get("pairs_per_s", 0), r.get("kept_fraction", 0), r.get("first_call_ms", 0), r.get("total_ms", 0),
          f("clustering_ms"), f("build_ms"), f("ranges_ms"), f("sum_ms"), f("total_ms"), r.get("rel_error") or 0, r.get("ok")))
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
