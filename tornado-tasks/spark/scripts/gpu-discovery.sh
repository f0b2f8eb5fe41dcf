#!/usr/bin/env bash
# Spark GPU discovery script (spark.worker.resource.gpu.discoveryScript / spark.executor.resource.gpu.discoveryScript):
# prints the GPUs of this machine as Spark's resource JSON, {"name": "gpu", "addresses": ["0", "1", ...]}, from
# nvidia-smi's indices. Squall maps address A to cuda:A; executors must run with CUDA_DEVICE_ORDER=PCI_BUS_ID (the
# squall-spark launcher and SquallSpark.conf set spark.executorEnv.CUDA_DEVICE_ORDER) so that CUDA numbers the GPUs
# as nvidia-smi does. SQUALL_GPU_ADDRESSES="0,1" replaces nvidia-smi (tests, or to hand a worker some GPUs only).
set -euo pipefail

if [ -n "${SQUALL_GPU_ADDRESSES:-}" ]; then
  ids="$SQUALL_GPU_ADDRESSES"
elif command -v nvidia-smi >/dev/null 2>&1; then
  ids="$(nvidia-smi --query-gpu=index --format=csv,noheader | tr -d ' ' | paste -sd, -)"
else
  ids=""
fi

json=""
IFS=',' read -r -a list <<< "$ids"
for i in "${list[@]}"; do
  [ -z "$i" ] && continue
  case "$i" in *[!0-9]*) echo "gpu-discovery: GPU index '$i' is not a number" >&2; exit 1 ;; esac
  json="${json:+$json, }\"$i\""
done
printf '{"name": "gpu", "addresses": [%s]}\n' "$json"
