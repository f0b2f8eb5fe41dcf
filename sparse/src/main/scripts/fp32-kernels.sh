#!/usr/bin/env bash
# Generates Fp32Kernels.java from Fp64Kernels.java (the kernel language has no generics).
# Accumulation is in float, as cuSPARSE does for fp32. Run from the repository root.
set -euo pipefail
d=sparse/src/main/java/dev/squall/sparse/spmv/kernels
sed -e 's/Fp64Kernels/Fp32Kernels/g' -e 's/DoubleArray/FloatArray/g' -e 's/allocateDoubleLocalArray/allocateFloatLocalArray/g' -e 's/\bdouble\b/float/g' \
    -e 's/\([^0-9.]\)0\.0\([^0-9f]\)/\10.0f\2/g' -e 's/double precision/single precision/' \
    -e 's/Fp32Kernels is generated from this file by/Generated from Fp64Kernels.java by/' \
    -e 's/{@code sparse\/src\/main\/scripts\/fp32-kernels.sh}; edit this one./{@code sparse\/src\/main\/scripts\/fp32-kernels.sh}; do not edit./' \
    "$d/Fp64Kernels.java" > "$d/Fp32Kernels.java"
