package dev.squall.linalg.cholesky;

import java.util.Locale;

/**
 * Which kernel factors a batch of small matrices ({@code n <= 64}). All stay selectable so GPU
 * runs can compare them ({@code squall cholesky --batch B --kernel warp|warp-shuffle|warp-loop|group}).
 */
public enum SmallCholeskyKernel {
    /** {@link CholeskyKernelsF64#potrfSmall}: one work-group of 256 per matrix, the matrix in local memory, a barrier per column. */
    GROUP,
    /**
     * {@link WarpLocalCholeskyKernelsF64#potrfWarpLocal}: one warp-sized work-group per matrix, the matrix in
     * registers, each column broadcast through local memory (one barrier per column), all 64 steps unrolled.
     */
    WARP,
    /** {@link WarpCholeskyKernelsF64#potrfWarp}: one sub-group (warp) per matrix, the matrix in registers, shuffles and no barriers (round 4's warp kernel). */
    WARP_SHUFFLE,
    /**
     * {@link WarpLoopCholeskyKernelsF64#potrfWarpLoop}: as {@link #WARP} (local-memory broadcast) but the steps are a loop
     * with the rows rotating inside the update (small code), one {@code rsqrt} per step, and out of place (no copy launch).
     */
    WARP_LOOP;

    /** Whether the kernel reads the input and writes the factor to different arrays in one launch (no copy needed to keep the input). */
    public boolean outOfPlace() {
        return this == WARP_LOOP;
    }

    /** The name on the command line: {@code group}, {@code warp}, {@code warp-shuffle}, {@code warp-loop}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses {@code group}, {@code warp}, {@code warp-shuffle} or {@code warp-loop} (any case), naming the accepted values otherwise. */
    public static SmallCholeskyKernel parse(String s) {
        for (SmallCholeskyKernel k : values()) {
            if (k.cliName().equalsIgnoreCase(s)) return k;
        }
        throw new IllegalArgumentException("kernel must be warp, warp-shuffle, warp-loop or group, got " + s);
    }
}
