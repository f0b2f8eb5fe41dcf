#!/usr/bin/env bash
# Permanent n = 40 through Spark against the single process on one GPU (issue 19: within 10%), and Spark's overheads,
# in one device call of under 8 minutes. Two transfers, since the bundle and Spark's jars do not fit one:
#   ./scripts/bundle                            # here: dist/squall-bundle.tar.gz (~50 MB)
#   tornado-tasks/spark/scripts/spark-dist      # here: tornado-tasks/spark/target/squall-spark-dist.tar.xz (~26 MiB)
#   device call 1 carries dist/ (any command); call 2 carries the archive and runs, from the repository root:
#     bash bench/gpu/spark.sh                   (SPARK_DIST=path/to/squall-spark-dist.tar.xz to take it from elsewhere)
# The spark archive is unpacked into the bundle (squall/spark/), where bin/squall finds Spark's jars and options.
# Same matrix (--random 40:0.5:1), same method (codegen-hybrid), cuda:0, interleaved twice:
#   single   squall permanent --no-decompose --json: sweep_seconds (the Gray-code sweep) and seconds (with the
#            error estimate's sampled re-computation)
#   spark    squall spark permanent --master local[1] --slots 1 --require-gpu --repeat 2 --verify
#            --json: the job's seconds per run (run 1 loads the kernel), and on run 2 the same sweep in the same JVM
#            as one piece (single_seconds) and the ratio
# then local-cluster[1,1,8192] (one executor JVM, its GPU from Spark's resource scheduling and the discovery script),
# and the overhead benchmark (empty tasks, chunk scaling) in local mode and with one executor JVM.
# Then H2 products across tasks (squall spark h2): 3D perturbed grid n = 2^20, exp:0.2, order 4 (rank 64), leaves of 64,
# box-center admissibility (39 GB on the device), the tree cut into 8 and into 4 subtrees, all tasks on cuda:0 (local
# mode, round-robin over one GPU, one task on it at a time), 5 products each (the first builds the parts on the GPU),
# then --verify: the single-process H2Matrix on cuda:0 (built after the parts are freed), its product time, y to 1e-12,
# 200 rows against the exact kernel sum.
# Writes under $OUT: spark.jsonl (labelled JSON lines), spark.log, spark-summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-575}
# SHORT=1: one single-process and one local-mode permanent run, then the H2 runs (skips the cluster and overhead steps)
SHORT=${SHORT:-0}
STEP_MIN=20
unpack_bundle /tmp/squall-spark-run
unset JAVA_HOME   # Spark's workers start executors with JAVA_HOME's java when set, else with this runtime
archive="${SPARK_DIST:-tornado-tasks/spark/target/squall-spark-dist.tar.xz}"
if [ ! -f "$archive" ]; then echo "spark.sh: $archive is missing: run tornado-tasks/spark/scripts/spark-dist and carry it" | tee "$OUT/stderr.txt"; exit 2; fi
tar xJf "$archive" -C "$B"
S="$B/bin/squall"
J="$OUT/spark.jsonl"
L="$OUT/spark.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
"$B/runtime/bin/java" -version 2>&1 | head -1 | tee -a "$L"
# run LABEL TIMEOUT ARGS...: the command's JSON lines into spark.jsonl, each with its label; stderr into spark.log
run() {
  local label=$1 t=$2; shift 2
  echo "== $label: squall $*" >> "$L"
  step "$t" "$label" bash -c 'label=$1; shift; "$@" --json 2>> "'"$L"'" | sed "s/^{/{\"label\":\"$label\",/" >> "'"$J"'"' _ "$label" "$S" "$@"
}
M=(--random 40:0.5:1 --method codegen-hybrid)
for k in $([ "$SHORT" = 1 ] && echo 1 || echo 1 2); do
  run "single-$k" 60 permanent "${M[@]}" --device cuda:0 --no-decompose
  run "spark-local-$k" 90 spark permanent "${M[@]}" --master 'local[1]' --slots 1 --require-gpu --repeat 2 --verify
done
disc="$B/spark/gpu-discovery.sh"
printf '#!/usr/bin/env bash\necho %s\n' "'{\"name\": \"gpu\", \"addresses\": [\"0\"]}'" > "$disc" && chmod +x "$disc"
export SQUALL_JAVA_OPTS="-Dspark.worker.resource.gpu.amount=1 -Dspark.worker.resource.gpu.discoveryScript=$disc -Dspark.executor.resource.gpu.amount=1 -Dspark.task.resource.gpu.amount=1"
[ "$SHORT" = 1 ] || run "spark-cluster" 120 spark permanent "${M[@]}" --master 'local-cluster[1,1,8192]' --slots 1 --require-gpu --repeat 2 --verify
unset SQUALL_JAVA_OPTS
[ "$SHORT" = 1 ] || run "overhead-local" 90 spark overhead --master 'local[16]' --tasks 64 --repeat 5 --scaling-n 26 --max-chunks-per-slot 16 --no-local-gpus --device jvm
[ "$SHORT" = 1 ] || run "overhead-cluster" 90 spark overhead --master 'local-cluster[1,16,8192]' --tasks 64 --repeat 3 --scaling-n 26 --max-chunks-per-slot 8 --device jvm
H=(spark h2 --points 3d --n 1048576 --kernel exp:0.2 --order 4 --leaf 64 --admissibility center --require-gpu --repeat 5 --verify --tolerance 1e-2)
run "h2-8" 150 "${H[@]}" --tasks 8 --master 'local[8]'
run "h2-4" 120 "${H[@]}" --tasks 4 --master 'local[4]'
python3 bench/peers/spark_summary.py "$J" 2>&1 | tee "$OUT/spark-summary.txt"
