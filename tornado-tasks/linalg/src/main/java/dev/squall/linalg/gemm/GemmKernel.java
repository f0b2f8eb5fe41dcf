package dev.squall.linalg.gemm;

import dev.squall.tasks.runtime.Device;

/**
 * Which kernel computes a batched GEMM. {@link #TILES}: {@link GemmKernelsF64#gemm} / {@code gemmLarge}
 * (FP64 or FP32 FMA, every device). {@link #MMA}: {@link MmaGemmKernelsF64#gemmMma} for products of at least
 * {@link BatchedGemm#LARGE_MIN} rows and columns, {@link MmaGemmKernelsF64#gemmMma64} below (FP64 tensor cores;
 * fp64 only). {@link #forDevice} picks MMA for fp64 products on CUDA devices of compute capability 8.0 or later,
 * the only ones where the multiply-accumulate is one instruction.
 *
 * <pre>{@code
 * BatchedGemm.append(seq, Transpose.N, Transpose.T, 1, a, b, 0, c, d, false, BatchedGemm.choose(device, Precision.FP64));
 * }</pre>
 */
public enum GemmKernel {
    TILES, MMA;

    /** MMA on CUDA devices with FP64 tensor cores (compute capability 8.0+), TILES elsewhere or when {@code device} is null. */
    public static GemmKernel forDevice(Device device) {
        return device != null && hasFp64TensorCores(device) ? MMA : TILES;
    }

    static boolean hasFp64TensorCores(Device device) {
        if (!"cuda".equals(device.info().backend())) return false;
        String cc = device.info().computeCapability();
        int dot = cc.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? cc : cc.substring(0, dot)) >= 8;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Parses a CLI name: "tiles" or "mma". */
    public static GemmKernel parse(String name) {
        return switch (name) {
            case "tiles" -> TILES;
            case "mma" -> MMA;
            default -> throw new IllegalArgumentException("--kernel must be auto, tiles or mma, got '" + name + "'");
        };
    }
}
