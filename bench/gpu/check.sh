#!/usr/bin/env bash
# Every test class on the GPU host, from the bundle (dist/squall-bundle.tar.gz), with CUDA and OpenCL required.
# Writes $OUT/gpu-check.txt and $OUT/gpu-check-reports.tgz (JUnit XML and the console log).
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-check
"$B/bin/gpu-check" > /tmp/gpu-check-console.txt 2>&1
rc=$?
pack_reports /tmp/gpu-check-console.txt
echo "gpu-check exit: $rc"
grep -E "tests (successful|failed|aborted)" "$OUT/gpu-check.txt"
grep -E "✘" "$OUT/gpu-check.txt" | head -20
