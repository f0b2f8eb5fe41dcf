#!/usr/bin/env bash
# H2 construction cold and warm (two builds in one process: the second has its kernels compiled and the JIT warm) and
# recompression, at n = 2^20 in 3D and 2D, in one device call of under 8 minutes on an H100:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/h2-build.sh
# Problems as in bench/gpu/h2.sh (perturbed grids, exponential kernel; 2D l = 0.1 order 8 eta 0.7, 3D l = 0.2 order 4,
# rank 64, leaves of 64, box-center admissibility). Construction: squall h2 --warm-build (cold_build and the warm
# build, each with host parts trees / traversal / structure and device parts). Compression at 1e-7 (and 3D at 1e-3):
# every batch on the device (batched QRs, Gram matrices, batched SVDs, coupling projections as batched GEMMs), the
# host holding only offsets and indices, so the JVM's caps stay small.
# Writes under $OUT: h2-build.jsonl (Squall's JSON lines), h2-build.log, h2-build-summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-450}
STEP_MIN=15
unpack_bundle /tmp/squall-h2-build
S="$B/bin/squall"
export SQUALL_JAVA_OPTS="-XX:MaxDirectMemorySize=24g -Xmx24g ${SQUALL_JAVA_OPTS:-}"
J="$OUT/h2-build.jsonl"
L="$OUT/h2-build.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)" | tee -a "$L"
h2() { local t=$1; shift; step "$t" "squall h2 $*" bash -c "\"$S\" h2 --json $* >> \"$J\" 2>> \"$L\""; }
D2="--points 2d --kernel exp:0.1 --order 8 --eta 0.7"
D3="--points 3d --kernel exp:0.2 --order 4"
C="--admissibility center"
G="--device cuda:0"
h2 90 $D3 --n 1048576 $C $G --warm-build --repeat 3 --verify --sample 20 --tolerance 1e-2
h2 90 $D2 --n 1048576 $C $G --warm-build --repeat 3 --verify --sample 20 --tolerance 1e-6
h2 100 $D3 --n 1048576 $C $G --compress 1e-7 --repeat 3 --verify --sample 20 --tolerance 1e-2
h2 80 $D2 --n 1048576 $C $G --compress 1e-7 --repeat 3 --verify --sample 20 --tolerance 1e-6
h2 80 $D3 --n 1048576 $C $G --compress 1e-3 --repeat 3 --verify --sample 20 --tolerance 1e-2
python3 - "$J" <<'PY' 2>&1 | tee "$OUT/h2-build-summary.txt"
import json, sys
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    case = f"{r['dim']}D n={r['n']}"
    m = r["memory_bytes"]
    print(f"{case}: build {r['build_ms']:.0f} ms (host {r['build_host_ms']:.0f} {r.get('build_host_parts_ms')}, device {r['build_device_ms']:.0f}"
          f" {r['build_parts_ms']}), memory {m['total'] / 1e9:.2f} GB (dense {m['dense'] / 1e9:.2f}, couplings {m['coupling'] / 1e9:.2f},"
          f" bases {m['bases'] / 1e9:.2f}, transfers {m['transfers'] / 1e9:.2f}), product {r['product_device_ms']:.2f} ms, rel err {r['rel_error']}")
    c = r.get("cold_build")
    if c:
        print(f"  cold build {c['ms']:.0f} ms (host {c['host_ms']:.0f} {c['host_parts_ms']}, device {c['device_ms']:.0f} {c['device_parts_ms']})")
    z = r.get("compression")
    if z:
        print(f"  compress {z['tolerance']:g}: {z['ms']:.0f} ms {z['steps_ms']}, estimate {z['error_estimate']:.2e},"
              f" memory {z['memory_before'] / 1e9:.2f} -> {z['memory_after'] / 1e9:.2f} GB, row ranks {z['row_ranks']},"
              f" projections {z['projection_gflop']:.0f} GFLOP in {z['projection_device_ms']:.1f} ms = {z['projection_gflops']:.0f} GFLOP/s"
              f" (gemm {z['projection_gemm']})")
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
