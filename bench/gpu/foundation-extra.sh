#!/usr/bin/env bash
# Run after bench/gpu/foundation.sh in the same call (it unpacks the bundle to /tmp/squall-run):
# squall demo on the GPU host, the JMH StreamBenchmark on CUDA, NVIDIA OpenCL and the JVM, and
# STREAM with loop-kernel grids capped (-Dsquall.loopGlobalCap, a persistent grid) against the default.
# Writes $OUT/extra.txt.
set -uo pipefail
OUT=${OUT:-/tmp/squall-out}
B=/tmp/squall-run/squall
export SQUALL_CACHE=/tmp/squall-cache
ocl=$("$B/bin/squall" devices --json | python3 bench/peers/squall_devices.py --backend opencl --name-contains NVIDIA)
{
  echo "== squall demo"
  "$B/bin/squall" demo 2>&1
  echo "== STREAM, loop grid capped (default cap 2^30 work-items; here 132 SMs x 2048 x k)"
  for cap in 270336 1081344; do
    echo "-- -Dsquall.loopGlobalCap=$cap"
    SQUALL_JAVA_OPTS=-Dsquall.loopGlobalCap=$cap "$B/bin/squall" bench stream --devices "cuda:0,$ocl" --repeat 30 2>&1 | grep -v dispatch
  done
  echo "== JMH StreamBenchmark (fp64 triad and dispatchOverhead, us/op)"
  "$B/runtime/bin/java" --enable-native-access=ALL-UNNAMED -cp "$B/lib/*" org.openjdk.jmh.Main StreamBenchmark \
    -p device="cuda:0,$ocl,jvm" -p size=67108864 -p precision=fp64 -f 1 -wi 3 -i 5 -w 1 -r 1 2>&1 | grep -E "^(Benchmark|StreamBenchmark)|Error|Exception"
} 2>&1 | tee "$OUT/extra.txt"
