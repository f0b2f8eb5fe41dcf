#!/usr/bin/env bash
# Dense Gaussian sum, reference problem (N = M = 10^6, d = 3, gauss:0.1), split-source kernels with the full-stage
# inner loop (four sources an iteration, constant trip count, the weights of four sources in one 16-byte load):
# fp32 with 3 of 16 exponentials on the multiply-add pipe (default) against 1 of 8 (-Dsquall.ksum.fmaShare=1/8),
# interleaved, two rounds; fp64 split (full-stage loop, cheaper power of two in exp2Fine) and fp64 with the inner
# exponents on the FP64 tensor cores (-Dsquall.ksum.fp64=mma), once each. --verify on 100 rows.
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ksumf-mid.sh      (about 60 s)
# Writes under $OUT: runs.jsonl (a {"variant": ...} line before each squall ksum JSON line), runs.log (summary table).
#
# PREDICTED (H100; last measured split: fp32 301.5 ms, fp64 1099.6 ms). SASS of the inner loop (cuobjdump of the
# generated CUDA C): 52 issued instructions a source and warp with 1 of 8 (54.5 before), 56.5 with 3 of 16; MUFU
# 56 / 52 clocks. With the efficiencies measured before (issue 0.745, MUFU 0.72 of peak):
#   fp32 3/16: ~290 ms (280-300), 3.4-3.5e12 pairs/s;  fp32 1/8: ~295 ms (280-302);  rel err ~4e-7.
#   fp64 split: 19.5 SASS instructions a pair in the full-stage loop (24.25 before), 11 fp64 operations, the 2048-entry
#   table's random 8-byte reads (~6 shared-memory wavefronts a warp-load, ~80 % of the LSU at 1.10 s) now the nearest
#   limit: ~970 ms (920-1050), rel err ~2e-15.
#   fp64 mma (-Dsquall.ksum.fp64=mma: inner exponents by DMMA.16x8x4, 8 fp64 operations a pair instead of 11, 18.1
#   SASS instructions): ~900 ms (800-1000) if the fp64 pipe limits, ~960 if the table's bank conflicts do.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-90}
STEP_MIN=10
unpack_bundle /tmp/squall-ksumf-run
S="$B/bin/squall"
J="$OUT/runs.jsonl"
L="$OUT/runs.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { local t=$1 label=$2 opts=$3 args=$4
  echo "{\"variant\":\"$label\",\"java_opts\":\"$opts\"}" >> "$J"
  step "$t" "$label" bash -c "SQUALL_JAVA_OPTS=\"$opts\" \"$S\" ksum --n 1000000 --device cuda:0 --kernel gauss:0.1 --verify --sample 100 --json $args >> \"$J\" 2>> \"$L\""; }
F32="--precision fp32 --repeat 3"
for round in 1 2; do
  run 25 "fp32 3/16" "" "$F32"
  run 25 "fp32 1/8" "-Dsquall.ksum.fmaShare=1/8" "$F32"
done
run 30 "fp64 split" "" "--precision fp64 --repeat 2"
run 30 "fp64 mma" "-Dsquall.ksum.fp64=mma" "--precision fp64 --repeat 2"
python3 - "$J" <<'PY' | tee -a "$L"
import json, sys
from collections import defaultdict
by = defaultdict(list)
label = None
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith('{'):
        continue
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if 'variant' in r:
        label = r['variant']
    elif 'kernel_ms' in r:
        by[label].append(r)
print(f"{'variant':<14} {'kernel ms (median of each run)':<36} {'pairs/s':>10} {'rel err':>10} ok")
for k, rs in by.items():
    ms = [r['kernel_ms'] for r in rs]
    best = min(rs, key=lambda r: r['kernel_ms'])
    print(f"{k:<14} {' '.join(f'{v:.1f}' for v in ms):<36} {best['pairs_per_s']:>10.3g} {'%.2e' % best['rel_error'] if best.get('rel_error') is not None else '-':>10} "
          f"{all(r.get('ok') for r in rs)}")
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
