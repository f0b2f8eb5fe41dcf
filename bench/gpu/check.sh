#!/usr/bin/env bash
# Every test class on the GPU host, from the bundle (dist/squall-bundle.tar.gz), with CUDA and OpenCL required.
# Writes $OUT/gpu-check.txt and $OUT/gpu-check-reports.tgz (JUnit XML and the console log).
set -uo pipefail
OUT=${OUT:-/tmp/squall-out}
mkdir -p "$OUT"
work=/tmp/squall-check
rm -rf "$work" && mkdir -p "$work"
tar xzf dist/squall-bundle.tar.gz -C "$work"
export SQUALL_CACHE=/tmp/squall-cache
"$work/squall/bin/gpu-check" > /tmp/gpu-check-console.txt 2>&1
rc=$?
tar czf "$OUT/gpu-check-reports.tgz" -C "$OUT" gpu-check-reports /tmp/gpu-check-console.txt 2>/dev/null && rm -rf "$OUT/gpu-check-reports"
echo "gpu-check exit: $rc"
grep -E "tests (successful|failed|aborted)" "$OUT/gpu-check.txt"
grep -E "✘" "$OUT/gpu-check.txt" | head -20
