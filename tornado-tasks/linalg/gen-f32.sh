#!/usr/bin/env bash
# Regenerates the fp32 kernel classes from their fp64 sources (the kernel language has no
# generics, so each precision needs its own kernels). Run from tornado-tasks/linalg.
set -euo pipefail
cd "$(dirname "$0")/src/main/java/dev/squall/linalg"
for src in */*KernelsF64.java; do
  dst="${src%F64.java}F32.java"
  sed -e 's/KernelsF64/KernelsF32/g' \
      -e 's/DoubleArray/FloatArray/g' \
      -e 's/allocateDoubleLocalArray/allocateFloatLocalArray/g' \
      -e 's/\bdouble\b/float/g' \
      -e 's/Math\.sqrt(/KernelMath.sqrt(/g' \
      -e 's/double precision/single precision/g' \
      -e 's#^ \* <p>{@code \(.*\)F32} is generated from this file.*# * <p>Generated from the fp64 source by {@code gen-f32.sh}: do not edit.#' \
      "$src" > "$dst"
done
