package dev.squall.linalg.cholesky;

import java.util.Locale;

/**
 * Which kernel factors a batch of small matrices ({@code n <= 64}). Both stay selectable so GPU
 * runs can compare them ({@code squall cholesky --batch B --kernel group|warp}).
 */
public enum SmallCholeskyKernel {
    /** {@link CholeskyKernelsF64#potrfSmall}: one work-group of 256 per matrix, the matrix in local memory, a barrier per column. */
    GROUP,
    /** {@link WarpCholeskyKernelsF64#potrfWarp}: one sub-group (warp) per matrix, the matrix in registers, shuffles and no barriers. */
    WARP;

    /** Parses {@code group} or {@code warp} (any case), naming the accepted values otherwise. */
    public static SmallCholeskyKernel parse(String s) {
        try {
            return valueOf(s.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("kernel must be group or warp, got " + s);
        }
    }
}
