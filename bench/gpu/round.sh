#!/usr/bin/env bash
# Runs several scripts of bench/gpu in one device call, each under its own budget and output folder, and packs each
# folder into one archive (the device tool returns at most 8 files):
#   PER=120 bash bench/gpu/round.sh chol-final perm-final ...   # writes $OUT/<name>.tgz and $OUT/round.log
set -uo pipefail
OUT=${OUT:-/tmp/squall-out}
PER=${PER:-120}
ROOT=$OUT
for name in "$@"; do
  t0=$SECONDS
  mkdir -p "$ROOT/$name"
  OUT="$ROOT/$name" BUDGET=$PER timeout $((PER + 60)) bash "bench/gpu/$name.sh" > "$ROOT/$name/console.txt" 2>&1
  echo "$name: exit $? in $((SECONDS - t0)) s" | tee -a "$ROOT/round.log"
  tar czf "$ROOT/$name.tgz" -C "$ROOT" "$name" && rm -rf "${ROOT:?}/$name"
done
