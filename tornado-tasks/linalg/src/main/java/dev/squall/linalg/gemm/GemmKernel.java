package dev.squall.linalg.gemm;

import dev.squall.tasks.runtime.Device;

/**
 * Which kernel computes a batched GEMM. {@link #TILES}: {@link GemmKernelsF64#gemm} / {@code gemmLarge}
 * (FP64 or FP32 FMA, every device). {@link #MMA}: {@link MmaGemmKernelsF64#gemmMma} for products of at least
 * {@link BatchedGemm#LARGE_MIN} rows and columns, {@link MmaGemmKernelsF64#gemmMma64} below (FP64 tensor cores;
 * fp64 only). {@link #forDevice} picks MMA for fp64 products on CUDA devices of compute capability 8.0 or later,
 * the only ones where the multiply-accumulate is one instruction; {@link BatchedGemm#choose} then takes the pipelined
 * kernels for large products.
 *
 * <pre>{@code
 * BatchedGemm.append(seq, Transpose.N, Transpose.T, 1, a, b, 0, c, d, false, BatchedGemm.choose(device, Precision.FP64, d));
 * }</pre>
 */
public enum GemmKernel {
    TILES(0, 0), MMA(0, 0),
    /**
     * {@link PipelinedGemmKernelsF64}: the FP64 tensor-core product with panels staged by a pipeline of asynchronous
     * tile copies, 8 warps of 64 x 32 ({@code gemmPipelined}) or 16 of 32 x 32 ({@code gemmPipelined16}), 2 to 4 stages.
     * Fp64 only; for CUDA devices of compute capability 8.0+ (elsewhere correct and slow; OpenCL devices need 160 KiB
     * of local memory).
     */
    PIPE_W8_S3(8, 3), PIPE_W8_S4(8, 4), PIPE_W16_S3(16, 3), PIPE_W16_S4(16, 4), PIPE_W8_S2(8, 2),
    /**
     * The same pipelines with each work-item's 16-byte chunks of a panel laid out once and stepped by constant strides
     * ({@code gemmChunked}, {@code gemmChunked16}: {@link dev.squall.tasks.api.KernelContext#asyncCopyChunk}).
     */
    CHUNK_W8_S3(8, 3, true), CHUNK_W16_S3(16, 3, true), CHUNK_W16_S4(16, 4, true),
    /**
     * {@code gemmChunkedDeep16} (16 warps of 32 x 32) and {@code gemmChunkedDeep} (8 warps of 64 x 32): panels of
     * depth 32, 3 stages (216 KiB of local memory).
     */
    CHUNK_W16_D32_S3(16, 3, true), CHUNK_W8_D32_S3(8, 3, true);

    /** Warps per group and pipeline stages of a PIPE or CHUNK kernel; 0 for the others. */
    final int warps, stages;
    /** Whether the pipeline copies by per-work-item chunks ({@code gemmChunked*}) rather than {@code asyncCopyTile}. */
    final boolean chunked;

    GemmKernel(int warps, int stages) {
        this(warps, stages, false);
    }

    GemmKernel(int warps, int stages, boolean chunked) {
        this.warps = warps;
        this.stages = stages;
        this.chunked = chunked;
    }

    /** Whether this kernel takes panels of depth {@link PipelinedGemmKernelsF64#DEEP}. */
    boolean deep() {
        return this == CHUNK_W16_D32_S3 || this == CHUNK_W8_D32_S3;
    }

    /** Whether this is one of the {@link PipelinedGemmKernelsF64} launches. */
    public boolean pipelined() {
        return stages > 0;
    }

    /** The CLI name: tiles, mma, pipe-w8-s3, ... */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

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

    /** Parses a CLI name: "tiles", "mma", "pipe-w8-s3" or "chunk-w16-s3" (warps 8 or 16, stages 2 to 4; see the constants). */
    public static GemmKernel parse(String name) {
        for (GemmKernel k : values()) if (k.cliName().equals(name)) return k;
        StringBuilder names = new StringBuilder("auto");
        for (GemmKernel k : values()) names.append(", ").append(k.cliName());
        throw new IllegalArgumentException("--kernel must be one of " + names + ", got '" + name + "'");
    }
}
