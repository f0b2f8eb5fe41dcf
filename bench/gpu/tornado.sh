#!/usr/bin/env bash
# The TornadoVM example programs (uk.ac.manchester.tornado.examples, in the bundle's tests/tornado-api) run through the
# bundle's `tornado` launcher on CUDA and on NVIDIA OpenCL, each timed beside its plain-Java version, in one device call:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/tornado.sh
# First prints `tornado --devices` (TornadoVM's B:D numbering beside Squall's ids) and the two devices picked. Each run:
#   tornado --jvm="-Dexamples.repeat=R" -Ds0.device=B:D -Ds1.device=B:D -cp tests/tornado-api PROGRAM SIZE
# whose RESULT line gives tornadoMs (best of R plan.execute() calls after one untimed one: kernels, launches and the
# transfers each execution makes) and javaMs (best of R runs of the same methods as plain Java, one thread), the largest
# difference between the two results and its tolerance (PASS/FAIL). Writes under $OUT: tornado.jsonl (one JSON line
# per run), tornado-devices.txt, tornado.log (every run's output), tornado-summary.txt. TORNADO_CUDA=B:D and
# TORNADO_OPENCL=B:D override the devices picked from the list (none: skip that device); PROGRAMS="P SIZE;P SIZE" runs
# only those.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-500}
STEP_MIN=15
REPEAT=${REPEAT:-5}
# SQUALL_BUNDLE=DIR uses an unpacked bundle (or a stand-in) instead of dist/squall-bundle.tar.gz
if [ -n "${SQUALL_BUNDLE:-}" ]; then B=$SQUALL_BUNDLE; else unpack_bundle /tmp/squall-tornado-run; fi
T="$B/bin/tornado"
J="$OUT/tornado.jsonl"
L="$OUT/tornado.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" | tee -a "$L"

"$T" --devices 2>&1 | tee "$OUT/tornado-devices.txt"
# the first CUDA device, and the first OpenCL device whose line names NVIDIA
cuda=${TORNADO_CUDA:-}
nvcl=${TORNADO_OPENCL:-}
[ -n "$cuda" ] || cuda=$(sed -n 's/.*Tornado device=\([0-9]*:[0-9]*\)  ->  squall device cuda:.*/\1/p' "$OUT/tornado-devices.txt" | head -n 1)
[ -n "$nvcl" ] || nvcl=$(grep -i 'nvidia' "$OUT/tornado-devices.txt" | sed -n 's/.*Tornado device=\([0-9]*:[0-9]*\)  ->  squall device opencl:.*/\1/p' | head -n 1)
echo "devices: cuda=${cuda:-absent} nvidia-opencl=${nvcl:-absent}" | tee -a "$L"

# program and size on the GPU (reductions stay below 2^24 terms, where the float sum's rounding bound is meaningful)
programs=(
  "VectorAdd 16777216" "Saxpy 16777216" "MatrixMultiplication 1024" "BlackScholes 4194304" "Sigmoid 16777216"
  "ContextVectorAdd 16777216" "Transpose2D 4096" "LocalMemoryReduction 16000000" "Histogram 16777216" "PrefixSum 100000"
  "MultiTaskPipeline 16777216" "SharedDeviceData 16777216" "ReduceSum 8388608" "ReduceMinMax 8388608" "DotProduct 8388608"
  "Matrix2DMultiplication 1024" "VectorFloat4Ops 4194304" "LongSquares 16777216" "NBody 16384"
)
# PROGRAMS="ReduceSum 8388608;DotProduct 1000" runs only those
[ -n "${PROGRAMS:-}" ] && IFS=';' read -r -a programs <<<"$PROGRAMS"

run_one() { # DEVICE_LABEL B:D PROGRAM SIZE
  local label=$1 bd=$2 prog=$3 size=$4 out rc
  out=$("$T" --jvm="-Dexamples.repeat=$REPEAT -Xmx24g" "-Ds0.device=$bd" "-Ds1.device=$bd" -cp "$B/tests/tornado-api" \
        "uk.ac.manchester.tornado.examples.$prog" "$size" 2>&1)
  rc=$?
  { echo "== $label $bd $prog $size (exit $rc)"; echo "$out"; } >> "$L"
  printf '%s\n' "$out" | python3 bench/peers/tornado_row.py "$label" "$bd" "$prog" "$size" "$rc" "$J"
}
export -f run_one
export T J L B REPEAT

for dev in "cuda $cuda" "nvidia-opencl $nvcl"; do
  read -r label bd <<<"$dev"
  if [ -z "$bd" ]; then echo "SKIPPED: no $label device in tornado --devices" | tee -a "$OUT/stderr.txt"; continue; fi
  if [ "$bd" = none ]; then echo "SKIPPED: $label (set to none)" | tee -a "$OUT/stderr.txt"; continue; fi
  for p in "${programs[@]}"; do
    read -r prog size <<<"$p"
    step 120 "$label $prog $size" bash -c 'run_one "$@"' _ "$label" "$bd" "$prog" "$size"
  done
done

python3 bench/peers/tornado_summary.py "$J" 2>&1 | tee "$OUT/tornado-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
