#!/usr/bin/env bash
# Before/after comparison on the GPU host: the same figures from two builds, interleaved in one call so that both
# meet the same card in the same state.
#   here:  ./scripts/bundle (the build under test: dist/squall-bundle.tar.gz); the reference build's squall/lib and
#          squall/bin packed as .bundle/before.tgz (tar czf .bundle/before.tgz -C DIR squall/lib squall/bin)
#   there: bash bench/gpu/regression.sh            (device run, carry dist and .bundle)
# Each build runs PASSES times, alternating (before, after, before, after): STREAM fp64 copy and triad at 2^26
# elements, dispatch overhead of a one-kernel graph, SpMV fp64 (27-point stencil 100^3 and R-MAT scale 20, automatic
# format), permanents (generated hybrid kernel, n = 40 at p = 0.1 and 0.5, no decomposition), Cholesky fp64
# n = 16384 (one queue in both; the after build's look-ahead default beside it) and DGEMM 8192^3 on the tensor cores. bench/peers/regression_summary.py prints the best of each build's
# passes and the ratio after/before.
# Writes under $OUT: runs.jsonl (one line a run, labelled), console.txt, summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
PASSES=${PASSES:-2}
unpack_bundle /tmp/squall-after
AFTER=$B
builds=(after)
if [ -f .bundle/before.tgz ]; then
  rm -rf /tmp/squall-before && mkdir -p /tmp/squall-before/squall
  ln -s "$AFTER/runtime" /tmp/squall-before/squall/runtime
  tar xzf .bundle/before.tgz -C /tmp/squall-before
  builds=(before after)
fi
# The build under test estimates each permanent's rounding error and escalates past --tol; a loose tolerance keeps
# the comparison on the same Gray-code sweep (the estimate's cost is part of the after figure).
declare -A PERM_ARGS=([before]="" [after]="--tol 0.5")
# The build under test factors n >= 4096 on a GPU with look-ahead by default; --no-lookahead compares the same one-queue
# path, and its default is measured beside it (a figure of its own, with no before).
declare -A CHOL_ARGS=([before]="" [after]="--no-lookahead")
J="$OUT/runs.jsonl"; C="$OUT/console.txt"
: > "$J"; : > "$C"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(nproc) host cores" | tee -a "$C"

# run BUILD PASS LABEL TIMEOUT ARGS...: the squall command's JSON, labelled, as one line of runs.jsonl
run() {
  local build=$1 pass=$2 label=$3 limit=$4; shift 4
  local S=/tmp/squall-$build/squall/bin/squall js rc
  echo "== $build pass $pass $label: squall $*" >> "$C"
  js=$(timeout "$limit" "$S" "$@" --json 2>>"$C" | tr -d '\n')
  rc=$?
  if [ -n "$js" ] && [ "${js:0:1}" = "{" ]; then
    echo "{\"build\":\"$build\",\"pass\":$pass,\"label\":\"$label\",\"exit\":$rc,\"result\":$js}" >> "$J"
  else
    echo "{\"build\":\"$build\",\"pass\":$pass,\"label\":\"$label\",\"exit\":$rc,\"failed\":true}" >> "$J"
    echo "   FAILED: $label ($build, exit $rc)" | tee -a "$C"
  fi
}

for pass in $(seq 1 "$PASSES"); do
  for build in "${builds[@]}"; do
    run "$build" "$pass" stream 90 bench stream --devices cuda:0 --precision fp64 --repeat 20
    run "$build" "$pass" spmv-27pt 90 spmv --generate 27pt:100x100x100 --device cuda:0 --format auto --repeat 30 --batch 10
    run "$build" "$pass" spmv-rmat20 90 spmv --generate rmat:20 --device cuda:0 --format auto --repeat 30 --batch 10
    run "$build" "$pass" perm-n40-p0.1 60 permanent --random 40:0.1:1 --device cuda:0 --method codegen-hybrid --no-decompose ${PERM_ARGS[$build]}
    run "$build" "$pass" perm-n40-p0.5 60 permanent --random 40:0.5:1 --device cuda:0 --method codegen-hybrid --no-decompose ${PERM_ARGS[$build]}
    run "$build" "$pass" cholesky-16384 120 cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 ${CHOL_ARGS[$build]}
    [ "$build" = after ] && run "$build" "$pass" cholesky-16384-default 120 cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3
    run "$build" "$pass" gemm-8192 90 gemm --m 8192 --batch 1 --precision fp64 --device cuda:0 --repeat 5
  done
done
python3 bench/peers/regression_summary.py "$J" | tee "$OUT/summary.txt"
