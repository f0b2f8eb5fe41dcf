#!/usr/bin/env bash
# Like check.sh, but one JVM per module's tests, so a native crash names its module; JVM crash logs
# (-XX:ErrorFile) and verbose trees go to $OUT/check-modules.txt and $OUT/hs_err-*.log.
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-check
export SQUALL_REQUIRE_CUDA=1 SQUALL_REQUIRE_OPENCL=1 LD_PRELOAD="$B/runtime/lib/libjsig.so"
console=$(ls "$B"/lib/junit-platform-console-standalone-*.jar)
cp=$(ls "$B"/lib/*.jar | grep -v junit-platform-console | paste -sd:)
for d in "$B"/tests/*/; do cp="$cp:${d%/}"; done
for d in "$B"/tests/*/; do
  m=$(basename "$d")
  echo "== module $m"
  timeout 200 "$B/runtime/bin/java" --enable-native-access=ALL-UNNAMED -Xss4m -XX:ErrorFile="$OUT/hs_err-$m.log" \
    -jar "$console" execute --disable-banner --disable-ansi-colors --details=verbose --class-path "$cp" --scan-class-path "${d%/}" \
    > "/tmp/check-$m.txt" 2>&1
  rc=$?
  echo "exit $rc"
  grep -E "tests (successful|failed|aborted)" "/tmp/check-$m.txt"
  if [ $rc -ne 0 ]; then grep -E "✘|Segmentation|SIGSEGV" "/tmp/check-$m.txt" | head -12; tail -15 "/tmp/check-$m.txt"; fi
done 2>&1 | tee "$OUT/check-modules.txt"
