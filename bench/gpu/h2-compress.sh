#!/usr/bin/env bash
# H2 recompression of 3D and 2D n = 2^20 on an H100, phase by phase, in one device call of under 150 s:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/h2-compress.sh
# Problems as bench/gpu/h2-build.sh (3D exp:0.2 order 4, 2D exp:0.1 order 8 eta 0.7, box-center, leaves of 64).
# Every case builds and compresses twice in one process (squall h2 --warm-compress): "cold_build" and
# "cold_compression" are the first in the process, "compression" the second (kernels built, JIT warm); each
# compression has "parts" (per step and plan: plans run, wall, prepare = kernel builds or loads and buffer
# allocation, device time; host work such as freeing the old couplings by name), and -Dsquall.h2.trace=true puts one
# line per plan and per batched SVD (sweeps) in the log.
# 1. 3D 2^20 at 1e-7 with an empty kernel cache, the product verified on 20 rows afterwards.
# 2. 2D 2^20 at 1e-7, verified.
# 3. 3D 2^20 at 1e-7 with the earlier paths (-Dsquall.h2.svd=linalg -Dsquall.h2.projection=gemm
#    -Dsquall.h2.gram=gemm: linalg's BatchedSvd, batched GEMMs on copied chunks), for comparison.
# 4. Nsight Compute (clocks left alone) on a 3D 2^17 compression: the first projectCouplings and jacobiSvd launches.
# 5. 3D 2^20 at 1e-3.
# Writes under $OUT: h2-compress.jsonl, h2-compress.log, h2-compress-summary.txt, ncu-compress.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=10
unpack_bundle /tmp/squall-h2-compress
S="$B/bin/squall"
export SQUALL_JAVA_OPTS="-XX:MaxDirectMemorySize=24g -Xmx24g -Dsquall.h2.trace=true ${SQUALL_JAVA_OPTS:-}"
J="$OUT/h2-compress.jsonl"
L="$OUT/h2-compress.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)" | tee -a "$L"
D2="--points 2d --kernel exp:0.1 --order 8 --eta 0.7 --admissibility center --device cuda:0"
D3="--points 3d --kernel exp:0.2 --order 4 --admissibility center --device cuda:0"
h2() { local t=$1 what=$2; shift 2; step "$t" "$what" bash -c "\"$S\" h2 --json $* >> \"$J\" 2>> \"$L\""; }
rm -rf /tmp/h2-compress-fresh-cache
step 45 "3D 2^20 1e-7, empty kernel cache" env SQUALL_CACHE=/tmp/h2-compress-fresh-cache \
  bash -c "\"$S\" h2 --json $D3 --n 1048576 --compress 1e-7 --warm-compress --repeat 1 --verify --sample 20 --tolerance 1e-2 >> \"$J\" 2>> \"$L\""
h2 30 "2D 2^20 1e-7" $D2 --n 1048576 --compress 1e-7 --warm-compress --repeat 1 --verify --sample 20 --tolerance 1e-6
step 40 "3D 2^20 1e-7, earlier paths" env SQUALL_JAVA_OPTS="$SQUALL_JAVA_OPTS -Dsquall.h2.svd=linalg -Dsquall.h2.projection=gemm -Dsquall.h2.gram=gemm" \
  bash -c "\"$S\" h2 --json $D3 --n 1048576 --compress 1e-7 --warm-compress --repeat 1 >> \"$J\" 2>> \"$L\""
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
step 35 "ncu projectCouplings, jacobiSvd (3D 2^17)" bash -c "\"$NCU\" --clock-control none --target-processes all \
  --kernel-name regex:'projectCouplings|jacobiSvd' --launch-count 2 --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section MemoryWorkloadAnalysis --section WarpStateStats --page details --print-units base \
  \"$S\" h2 $D3 --n 131072 --compress 1e-7 --repeat 1 > \"$OUT/ncu-compress.txt\" 2>> \"$L\""
h2 30 "3D 2^20 1e-3" $D3 --n 1048576 --compress 1e-3 --warm-compress --repeat 1
python3 - "$J" <<'PY' 2>&1 | tee "$OUT/h2-compress-summary.txt"
import json, sys
for i, line in enumerate(open(sys.argv[1]), 1):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    cb = r.get("cold_build") or {}
    print(f"{r['dim']}D n={r['n']} (line {i}): build {r['build_ms']:.0f} ms (host {r['build_host_ms']:.0f}, device {r['build_device_ms']:.0f}),"
          f" first build {cb.get('ms', 0):.0f} ms (host {cb.get('host_ms', 0):.0f}, device {cb.get('device_ms', 0):.0f}),"
          f" product {r['product_device_ms']:.2f} ms, verified {r['verified']} rel err {r['rel_error']}")
    for label, z in (("first", r.get("cold_compression")), ("second", r.get("compression"))):
        if not z:
            continue
        print(f"  {label} compression {z['tolerance']:g}: {z['ms']:.0f} ms {z['steps_ms']}, estimate {z['error_estimate']:.2e},"
              f" memory {z['memory_before'] / 1e9:.2f} -> {z['memory_after'] / 1e9:.2f} GB, row ranks {z['row_ranks']},"
              f" projections {z['projection_gflop']:.0f} GFLOP in {z['projection_device_ms']:.1f} ms (gemm {z['projection_gemm']})")
        for name, p in (z.get("parts") or {}).items():
            print(f"    {name:44s} {p['plans']:5d} plans {p['wall_ms']:9.1f} ms wall {p['prepare_ms']:8.1f} prepare {p['kernel_ms']:9.1f} device")
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
