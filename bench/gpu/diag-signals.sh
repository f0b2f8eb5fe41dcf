#!/usr/bin/env bash
# Diagnoses the sparse tests' SIGSEGV exit on the GPU host: once with -Xcheck:jni (reports signal
# handlers that native libraries replaced), once with libjsig preloaded (HotSpot's signal chaining).
set -uo pipefail
OUT=${OUT:-/tmp/squall-out}
mkdir -p "$OUT"
work=/tmp/squall-check
rm -rf "$work" && mkdir -p "$work"
tar xzf dist/squall-bundle.tar.gz -C "$work"
B="$work/squall"
export SQUALL_CACHE=/tmp/squall-cache SQUALL_REQUIRE_CUDA=1 SQUALL_REQUIRE_OPENCL=1
console=$(ls "$B"/lib/junit-platform-console-standalone-*.jar)
cp=$(ls "$B"/lib/*.jar | grep -v junit-platform-console | paste -sd:)
for d in "$B"/tests/*/; do cp="$cp:${d%/}"; done
run() {
  timeout 200 env "$@" "$B/runtime/bin/java" --enable-native-access=ALL-UNNAMED -Xss4m -XX:ErrorFile="$OUT/hs_err-%p.log" \
    -jar "$console" execute --disable-banner --disable-ansi-colors --details=summary --class-path "$cp" --scan-class-path "$B/tests/sparse" 2>&1
  echo "exit $?"
}
{
  echo "== -Xcheck:jni"; run JAVA_TOOL_OPTIONS=-Xcheck:jni | grep -iE "signal|handler|warning|tests (successful|failed)|exit" | sort | uniq -c | head -20
  echo "== LD_PRELOAD libjsig"; run LD_PRELOAD="$B/runtime/lib/libjsig.so" | grep -E "tests (successful|failed|aborted)|exit|✘" | head
  echo "== again, libjsig"; run LD_PRELOAD="$B/runtime/lib/libjsig.so" | grep -E "tests (successful|failed|aborted)|exit|✘" | head
  echo "== without (control)"; run X=1 | grep -E "tests (successful|failed|aborted)|exit|✘" | head
} | tee "$OUT/diag-signals.txt"
