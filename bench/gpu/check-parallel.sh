#!/usr/bin/env bash
# Every module's tests on the GPU host at once, one JVM per module (the host has 16 cores; the modules' tests share
# the GPU but time nothing), with CUDA and OpenCL required. Then, if given, one command on the idle GPU.
#   bash bench/gpu/check-parallel.sh ["squall ARGS" ...]     (device run, carry dist)
# Tests tagged module-path or source-tree (they need the module path or the repository) are left to ./scripts/test.
# MODULES="runtime sparse" limits the tests to those modules' folders; CLASSES="pkg.ATest pkg.BTest" runs those classes
# in one more JVM beside them; MODULE_TIMEOUT (default 420; sparse alone needs ~450 s on the H100 host) caps each module's JVM; EXTRA_TIMEOUT (default 120) caps each command.
# Writes $OUT/check-<module>.txt (verbose tree per module), $OUT/summary.txt (counts, failures) and $OUT/extra.txt
# (the output of the squall commands given as arguments, one after another once the tests are done).
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-check
export SQUALL_REQUIRE_CUDA=1 SQUALL_REQUIRE_OPENCL=1 LD_PRELOAD="$B/runtime/lib/libjsig.so"
console=$(ls "$B"/lib/junit-platform-console-standalone-*.jar)
cp=$(ls "$B"/lib/*.jar | grep -v junit-platform-console | paste -sd:)
for d in "$B"/tests/*/; do cp="$cp:${d%/}"; done
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(nproc) host cores" > "$OUT/summary.txt"
start=$SECONDS
dirs=()
for d in "$B"/tests/*/; do
  m=$(basename "$d")
  if [ -n "${MODULES:-}" ] && [[ " $MODULES " != *" $m "* ]]; then continue; fi
  dirs+=("$d")
done
# A module whose tests outlast the cap alone runs as several JVMs: one per regex of its SPLIT list (classes matching
# it), and one for the rest.
declare -A SPLIT=([sparse]='dev\.squall\.sparse\.sgd\..* .*SyncFreeSolveTest dev\.squall\.sparse\.solve\.(?!SyncFreeSolveTest).*' [bench]='.*SquallCommandExamplesTest'
                  [hmatrix]='dev\.squall\.hmatrix\.h2\..*' [permanent]='.*PermanentAccuracyTest')
# launch NAME SELECTION...: one JVM running the tests the JUnit console's SELECTION arguments name, into /tmp/check-NAME.txt
launch() {
  local name=$1; shift
  ( timeout "${MODULE_TIMEOUT:-420}" "$B/runtime/bin/java" --enable-native-access=ALL-UNNAMED -Xss4m -XX:ErrorFile="/tmp/hs_err-$name.log" \
      -jar "$console" execute --disable-banner --disable-ansi-colors --details=tree --class-path "$cp" "$@" > "/tmp/check-$name.txt" 2>&1
    echo "exit $? after $((SECONDS - start)) s" >> "/tmp/check-$name.txt" ) &
}
untagged=(--exclude-tag module-path --exclude-tag source-tree)
names=()
for d in "${dirs[@]}"; do
  m=$(basename "$d")
  if [ -n "${SPLIT[$m]:-}" ]; then
    rest=(); i=0; set -f   # the regexes are words, not file patterns
    for re in ${SPLIT[$m]}; do
      i=$((i + 1)); launch "$m-$i" --scan-class-path "${d%/}" "${untagged[@]}" --include-classname "$re"
      names+=("$m-$i"); rest+=(--exclude-classname "$re")
    done
    set +f; launch "$m-rest" --scan-class-path "${d%/}" "${untagged[@]}" "${rest[@]}"
    names+=("$m-rest")
  else
    launch "$m" --scan-class-path "${d%/}" "${untagged[@]}"
    names+=("$m")
  fi
done
if [ -n "${CLASSES:-}" ]; then
  sel=(); for c in $CLASSES; do sel+=(--select-class "$c"); done
  launch classes "${sel[@]}"
  names+=(classes)
fi
wait
for m in "${names[@]}"; do
  { echo "== module $m: $(tail -1 "/tmp/check-$m.txt")"
    grep -E "tests (successful|failed|aborted)" "/tmp/check-$m.txt"
    grep -E "✘" "/tmp/check-$m.txt" | head -15
    [ -f "/tmp/hs_err-$m.log" ] && head -20 "/tmp/hs_err-$m.log"
  } >> "$OUT/summary.txt"
done
tar czf "$OUT/check-trees.tgz" -C /tmp $(cd /tmp && ls check-*.txt)
for c in "$@"; do
  echo "+ squall $c ($((SECONDS - start)) s)" >> "$OUT/extra.txt"
  # shellcheck disable=SC2086
  timeout "${EXTRA_TIMEOUT:-120}" "$B/bin/squall" $c >> "$OUT/extra.txt" 2>&1
  echo "exit $?" >> "$OUT/extra.txt"
done
cat "$OUT/summary.txt"
