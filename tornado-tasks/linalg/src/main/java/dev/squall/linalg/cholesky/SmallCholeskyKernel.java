package dev.squall.linalg.cholesky;

import java.util.Locale;

/**
 * Which kernel factors a batch of small matrices ({@code n <= 64}): {@link #WARP_LOOP}, the default, or the
 * {@link #GROUP} baseline ({@code squall cholesky --batch B --kernel warp-loop|group}).
 */
public enum SmallCholeskyKernel {
    /**
     * {@link CholeskyKernelsF64#potrfSmall}: one work-group of 256 per matrix, the matrix in local memory, a barrier per
     * column; also the kernel of {@link BlockedCholesky}'s diagonal blocks.
     */
    GROUP,
    /**
     * {@link WarpLoopCholeskyKernelsF64#potrfWarpLoop}: one warp-sized work-group per matrix, the matrix in registers,
     * each column broadcast through local memory, the steps a loop with the rows rotating inside the update (small
     * code), one {@code rsqrt} per step, and out of place (no copy launch).
     */
    WARP_LOOP;

    /** Whether the kernel reads the input and writes the factor to different arrays in one launch (no copy needed to keep the input). */
    public boolean outOfPlace() {
        return this == WARP_LOOP;
    }

    /** The name on the command line: {@code group}, {@code warp-loop}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses {@code warp-loop} or {@code group} (any case), naming the accepted values otherwise. */
    public static SmallCholeskyKernel parse(String s) {
        for (SmallCholeskyKernel k : values()) {
            if (k.cliName().equalsIgnoreCase(s)) return k;
        }
        throw new IllegalArgumentException("kernel must be warp-loop or group, got " + s);
    }
}
