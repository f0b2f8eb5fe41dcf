package dev.squall.linalg.cholesky;

import java.util.Locale;

/**
 * Which kernel factors a batch of small matrices ({@code n <= 64}). All stay selectable so GPU
 * runs can compare them ({@code squall cholesky --batch B --kernel warp|warp-shuffle|group}).
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
    WARP_SHUFFLE;

    /** The name on the command line: {@code group}, {@code warp}, {@code warp-shuffle}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses {@code group}, {@code warp} or {@code warp-shuffle} (any case), naming the accepted values otherwise. */
    public static SmallCholeskyKernel parse(String s) {
        for (SmallCholeskyKernel k : values()) {
            if (k.cliName().equalsIgnoreCase(s)) return k;
        }
        throw new IllegalArgumentException("kernel must be warp, warp-shuffle or group, got " + s);
    }
}
