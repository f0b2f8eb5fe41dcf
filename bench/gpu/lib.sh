# shellcheck shell=bash
# Shared set-up of the GPU-host scripts (source it from the repository root, where dist/ holds the bundle):
#   . bench/gpu/lib.sh; unpack_bundle /tmp/some-dir   # then "$B/bin/squall", "$B/runtime/bin/java", $OUT
OUT=${OUT:-/tmp/squall-out}
mkdir -p "$OUT"
export SQUALL_CACHE=/tmp/squall-cache

# Unpacks dist/squall-bundle.tar.gz into $1 and sets B to the bundle's root.
unpack_bundle() {
  rm -rf "$1" && mkdir -p "$1"
  tar xzf dist/squall-bundle.tar.gz -C "$1"
  B="$1/squall"
}

# Packs $OUT/gpu-check-reports (JUnit XML) and a console log into one file: the device tool returns at most 8.
pack_reports() {
  tar czf "$OUT/gpu-check-reports.tgz" -C "$OUT" gpu-check-reports -C "$(dirname "$1")" "$(basename "$1")" 2>/dev/null \
    && rm -rf "$OUT/gpu-check-reports"
}

# Steps under a time budget, for scripts that must finish inside one device call. Set start=$SECONDS, BUDGET (seconds
# from start) and STEP_MIN first. step TIMEOUT_S DESCRIPTION CMD...: runs CMD with a timeout capped by the time left,
# or skips it, said in $OUT/stderr.txt, when fewer than STEP_MIN seconds are left.
left() { local l=$((BUDGET - (SECONDS - start))); echo $((l > 0 ? l : 0)); }
step() {
  local t=$1 what=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt "$STEP_MIN" ]; then echo "SKIPPED (time budget): $what" | tee -a "$OUT/stderr.txt"; return; fi
  [ "$t" -gt "$l" ] && t=$l
  echo "== $what ($((SECONDS - start)) s)" >&2
  timeout "$t" "$@" || echo "$what: exit $?" | tee -a "$OUT/stderr.txt"
}
