#!/usr/bin/env bash
# Block-sparse kernel sums end to end at 10^6 points (Gaussian gauss:0.01, d = 3, uniform cube, cutoff 0.06): cells of
# 0.04 (~15 600 clusters of ~64 points) and 0.02 (~125 000 clusters of ~8 points), fp32 and fp64, each with its
# per-phase times of a warm pass (JSON warm_phases: clustering, build, ranges, sum, total, ms), then the block-sparse
# tests on CUDA, in one device call of under BUDGET seconds:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ksumbs-mid.sh
# Writes under $OUT (at most 5 files): ksumbs.jsonl (Squall's JSON lines), ksumbs.log, ksumbs-summary.txt,
# gpu-check.txt, stderr.txt (skipped or failed steps).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=15
unpack_bundle /tmp/squall-ksumbs-run
S="$B/bin/squall"
J="$OUT/ksumbs.jsonl"
L="$OUT/ksumbs.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { step "$1" "squall ksum $2" bash -c "\"$S\" ksum --n 1000000 --device cuda:0 --verify --sample 100 --json $2 >> \"$J\" 2>> \"$L\""; }
BS="--kernel gauss:0.01 --block-sparse --cutoff 0.06"
run 30 "$BS --cell 0.04 --precision fp32 --repeat 3"
run 30 "$BS --cell 0.02 --precision fp32 --repeat 3"
run 30 "$BS --cell 0.04 --precision fp64 --repeat 2"
run 30 "$BS --cell 0.04 --precision fp32 --exponent direct --repeat 3"
step 40 "gpu-check block-sparse" bash -c "\"$B/bin/gpu-check\" --select dev.squall.hmatrix.ksum.BlockSparseSumTest --select dev.squall.hmatrix.ksum.GridBlockSparseSumTest > \"$OUT/gpu-check.txt\" 2>&1"
python3 - "$J" <<'PY' 2>&1 | tee "$OUT/ksumbs-summary.txt"
import json, sys
print("cell   prec exponent  clusters  kernel ms  pairs/s   kept    first ms  warm: clustering build ranges sum total ms  rel err   ok")
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith("{"): continue
    r = json.loads(line); w = r.get("warm_phases") or {}
    f = lambda k: "%8.1f" % w[k] if k in w else "     n/a"
    print("%-6s %-4s %-9s %8s %9.2f %9.3g %7.4f %9.1f  %s %s %s %s %s  %.2e %s" % (r.get("cell"), r.get("precision"), r.get("exponent"),
          r.get("target_clusters"), r.get("kernel_ms", 0), r.get("pairs_per_s", 0), r.get("kept_fraction", 0), r.get("first_call_ms", 0),
          f("clustering_ms"), f("build_ms"), f("ranges_ms"), f("sum_ms"), f("total_ms"), r.get("rel_error") or 0, r.get("ok")))
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
