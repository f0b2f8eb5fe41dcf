#!/usr/bin/env bash
# STREAM, dispatch overhead and the conformance tests on the H100 host, from the bundle (no JDK there):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   device run, carry dist/:    bash bench/gpu/foundation.sh
# Writes under $OUT (at most 8 files): devices.txt, gpu-check.txt (conformance + backend tests on CUDA and NVIDIA OpenCL),
# gpu-check-reports.tgz (JUnit XML),
# stream-*.json and stream.txt (squall bench stream), torch-stream.txt (PyTorch peer), summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-run
{
  echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)"
  "$B/bin/squall" devices
} 2>&1 | tee "$OUT/devices.txt"
"$B/bin/gpu-check" > /tmp/gpu-check-console.txt 2>&1
echo "gpu-check exit: $?" | tee -a "$OUT/summary.txt"
# the device tool returns at most 8 files: pack the JUnit XML reports into one
pack_reports /tmp/gpu-check-console.txt
tail -25 "$OUT/gpu-check.txt" 2>/dev/null | tee -a "$OUT/summary.txt"
ocl=$("$B/bin/squall" devices --json | python3 bench/peers/squall_devices.py --not-backend jvm)
echo "bench devices: $ocl,jvm" | tee -a "$OUT/summary.txt"
"$B/bin/squall" bench stream --devices "$ocl,jvm" --repeat 30 --out "$OUT" 2>&1 | tee "$OUT/stream.txt"
# second process: the first launch now finds its binary in the disk cache (SQUALL_CACHE)
"$B/bin/squall" bench stream --devices "$ocl" --size 1048576 --precision fp64 --repeat 5 2>&1 | grep dispatch | tee -a "$OUT/stream.txt"
PYTHONUNBUFFERED=1 python3 bench/peers/torch_stream.py 2>&1 | tee "$OUT/torch-stream.txt"
