package dev.squall.linalg.cholesky;

import dev.squall.tasks.api.*;

/**
 * Loop-style kernels of the right-looking blocked Cholesky that {@link LoopCholesky} runs on the
 * JVM backend, where loop kernels run their Java body over a fork-join pool at full JIT speed
 * (SPMD kernels with barriers would get one virtual thread per work-item there).
 *
 * <p>Each step factors the diagonal block of width {@code kb} at {@code k0}, solves the panel
 * below it and updates the trailing lower triangle. The panel is also kept row-major in
 * {@code p} (row {@code i - k0} at {@code (i - k0) * kb}), so every inner product reads two
 * contiguous rows: column-major rows would be {@code n} doubles apart, and with n a power of two
 * all of them fall into one L1 set. {@code p} needs {@code (n + TILE) * kb} elements; its padding
 * rows only feed results that are never written.
 *
 * <p>A pivot that is not positive (or NaN) stops the factorisation: {@code info[0]} gets its
 * index and the matrix's diagonal entry gets its value; later kernels see {@code info[0]} set and
 * do nothing. The caller initialises {@code info[0]} to {@code Integer.MAX_VALUE}.
 *
 * <p>The compiler generates the single-precision twin {@code LoopCholeskyKernelsF32} from this class
 * and the typed handles on both, {@code LoopCholeskyKernels} ({@code @Fp32Variant}): {@code LoopCholeskyKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "LoopCholeskyKernelsF32", handles = "LoopCholeskyKernels")
public final class LoopCholeskyKernelsF64 {
    /** Rows of the register tile of {@link #updateTrailing} (and of {@link #solvePanel}'s row groups). */
    public static final int TILE = 4;
    /**
     * Columns of {@link #updateTrailing}'s register tile: 4 x 3 accumulators plus the 3 column
     * values and one row value fill the 16 vector registers of AVX2 without spilling.
     */
    public static final int TILE_COLS = 3;

    private LoopCholeskyKernelsF64() {
    }

    /** {@code dst} = lower triangle of {@code src} ({@code n x n}, column-major), zeros above. */
    @Kernel
    public static void copyLower(@ReadOnly DoubleArray src, DoubleArray dst, int n) {
        for (@Parallel int c = 0; c < n; c++) {
            int col = c * n;
            for (int r = 0; r < c; r++) dst.set(col + r, 0);
            for (int r = c; r < n; r++) dst.set(col + r, src.get(col + r));
        }
    }

    /**
     * Factors the diagonal block {@code A[k0:k0+kb, k0:k0+kb]} (Cholesky-Banachiewicz, row by row)
     * into rows 0..kb of {@code p} and back into {@code a}. One work-item: the block is small.
     */
    @Kernel
    public static void factorDiagonal(DoubleArray a, int n, int k0, int kb, DoubleArray p, IntArray info) {
        for (@Parallel int g = 0; g < 1; g++) {
            boolean ok = info.get(0) == Integer.MAX_VALUE;
            for (int i = 0; i < kb && ok; i++) {
                int pi = i * kb;
                for (int j = 0; j <= i && ok; j++) {
                    int pj = j * kb;
                    int at = k0 + i + (k0 + j) * n;
                    double s = a.get(at) - dot(p, pi, pj, j);
                    if (i == j) {
                        if (s > 0) {
                            double d = Math.sqrt(s);
                            p.set(pi + i, d);
                            a.set(at, d);
                        } else {
                            info.set(0, k0 + i);
                            a.set(at, s);
                            ok = false;
                        }
                    } else {
                        double v = s / p.get(pj + j);
                        p.set(pi + j, v);
                        a.set(at, v);
                    }
                }
            }
        }
    }

    /**
     * Panel solve {@code L21 = A21 L11^-T} into {@code p} and {@code a}: work-item {@code g} solves
     * the {@link #TILE} rows from {@code k0 + kb + TILE g} together (four independent
     * substitutions share each load of {@code L11}). Grid: {@code groups = ceil(rem / TILE)}.
     */
    @Kernel
    public static void solvePanel(DoubleArray a, int n, int k0, int kb, DoubleArray p, @ReadOnly IntArray info, int groups) {
        for (@Parallel int g = 0; g < groups; g++) {
            if (info.get(0) != Integer.MAX_VALUE) continue;
            int i = k0 + kb + TILE * g;
            int pi = (i - k0) * kb;
            for (int j = 0; j < kb; j++) {
                int pj = j * kb;
                int at = i + (k0 + j) * n;
                double s0 = a.get(at);
                double s1 = i + 1 < n ? a.get(at + 1) : 0;
                double s2 = i + 2 < n ? a.get(at + 2) : 0;
                double s3 = i + 3 < n ? a.get(at + 3) : 0;
                for (int c = 0; c < j; c++) {
                    double l = p.get(pj + c);
                    s0 -= p.get(pi + c) * l;
                    s1 -= p.get(pi + kb + c) * l;
                    s2 -= p.get(pi + 2 * kb + c) * l;
                    s3 -= p.get(pi + 3 * kb + c) * l;
                }
                double inv = 1 / p.get(pj + j);
                s0 *= inv;
                s1 *= inv;
                s2 *= inv;
                s3 *= inv;
                p.set(pi + j, s0);
                p.set(pi + kb + j, s1);
                p.set(pi + 2 * kb + j, s2);
                p.set(pi + 3 * kb + j, s3);
                a.set(at, s0);
                if (i + 1 < n) a.set(at + 1, s1);
                if (i + 2 < n) a.set(at + 2, s2);
                if (i + 3 < n) a.set(at + 3, s3);
            }
        }
    }

    /**
     * Trailing update {@code A22 -= L21 L21^T} on the lower triangle: work-item {@code t} owns the
     * {@link #TILE_COLS} columns from {@code k0 + kb + TILE_COLS t} and walks down them in
     * TILE x TILE_COLS register tiles (7 loads per 12 fused multiply-adds).
     */
    @Kernel
    public static void updateTrailing(DoubleArray a, int n, int k0, int kb, @ReadOnly DoubleArray p, @ReadOnly IntArray info, int tiles) {
        for (@Parallel int t = 0; t < tiles; t++) {
            if (info.get(0) != Integer.MAX_VALUE) continue;
            int j = k0 + kb + TILE_COLS * t;
            int pj = (j - k0) * kb;
            for (int i = j; i < n; i += TILE) {
                int pi = (i - k0) * kb;
                double s00 = 0, s10 = 0, s20 = 0, s30 = 0, s01 = 0, s11 = 0, s21 = 0, s31 = 0;
                double s02 = 0, s12 = 0, s22 = 0, s32 = 0;
                for (int c = 0; c < kb; c++) {
                    double a0 = p.get(pi + c), a1 = p.get(pi + kb + c), a2 = p.get(pi + 2 * kb + c), a3 = p.get(pi + 3 * kb + c);
                    double b0 = p.get(pj + c), b1 = p.get(pj + kb + c), b2 = p.get(pj + 2 * kb + c);
                    s00 = Math.fma(a0, b0, s00);
                    s10 = Math.fma(a1, b0, s10);
                    s20 = Math.fma(a2, b0, s20);
                    s30 = Math.fma(a3, b0, s30);
                    s01 = Math.fma(a0, b1, s01);
                    s11 = Math.fma(a1, b1, s11);
                    s21 = Math.fma(a2, b1, s21);
                    s31 = Math.fma(a3, b1, s31);
                    s02 = Math.fma(a0, b2, s02);
                    s12 = Math.fma(a1, b2, s12);
                    s22 = Math.fma(a2, b2, s22);
                    s32 = Math.fma(a3, b2, s32);
                }
                subtractColumn(a, n, i, j, s00, s10, s20, s30);
                subtractColumn(a, n, i, j + 1, s01, s11, s21, s31);
                subtractColumn(a, n, i, j + 2, s02, s12, s22, s32);
            }
        }
    }

    /** Inner product of {@code len} elements of {@code p} from {@code x} and {@code y}, four partial sums for instruction-level parallelism. */
    @DeviceFunction
    static double dot(DoubleArray p, int x, int y, int len) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int c = 0;
        for (; c + 3 < len; c += 4) {
            s0 += p.get(x + c) * p.get(y + c);
            s1 += p.get(x + c + 1) * p.get(y + c + 1);
            s2 += p.get(x + c + 2) * p.get(y + c + 2);
            s3 += p.get(x + c + 3) * p.get(y + c + 3);
        }
        for (; c < len; c++) s0 += p.get(x + c) * p.get(y + c);
        return (s0 + s1) + (s2 + s3);
    }

    /** {@code A[i+r, col] -= s_r} for the rows of a tile column that lie in the matrix and on or below the diagonal. */
    @DeviceFunction
    static void subtractColumn(DoubleArray a, int n, int i, int col, double s0, double s1, double s2, double s3) {
        if (col >= n) return;
        int at = i + col * n;
        if (i >= col) a.set(at, a.get(at) - s0);
        if (i + 1 < n && i + 1 >= col) a.set(at + 1, a.get(at + 1) - s1);
        if (i + 2 < n && i + 2 >= col) a.set(at + 2, a.get(at + 2) - s2);
        if (i + 3 < n && i + 3 >= col) a.set(at + 3, a.get(at + 3) - s3);
    }
}
