package dev.squall.linalg.plan;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;

/**
 * Checks done on the host before launch, so bad input is reported with its location instead of
 * propagating NaN through a factorisation: sizes, and non-finite entries in the lower triangles
 * of a batch of column-major {@code n x n} matrices stored back to back.
 *
 * <pre>{@code
 * InputChecks.squareBatch("A", a, n, batch);
 * InputChecks.finiteLower("A", a, n, batch);   // "A: matrix 2, entry (5, 1) is NaN"
 * }</pre>
 */
public final class InputChecks {
    private InputChecks() {
    }

    /** {@code a} holds exactly {@code batch} packed {@code n x n} matrices. */
    public static void squareBatch(String what, KernelArray a, int n, int batch) {
        if (n < 1) throw new IllegalArgumentException(what + ": order n must be >= 1, got " + n);
        if (batch < 1) throw new IllegalArgumentException(what + ": batch must be >= 1, got " + batch);
        long need = (long) n * n * batch;
        if (need > Integer.MAX_VALUE) throw new IllegalArgumentException(what + ": " + batch + " x " + n + " x " + n + " elements exceed 2^31 - 1");
        if (a.getSizeLong() != need) {
            throw new IllegalArgumentException(what + ": expected " + batch + " matrices of " + n + " x " + n + " = " + need
                    + " elements, the array has " + a.getSizeLong());
        }
    }

    /** Every entry on or below the diagonal is finite; otherwise names the first bad one. */
    public static void finiteLower(String what, KernelArray a, int n, int batch) {
        for (int e = 0; e < batch; e++) {
            long base = (long) e * n * n;
            for (int c = 0; c < n; c++) {
                for (int r = c; r < n; r++) {
                    double v = Precision.get(a, base + r + (long) c * n);
                    if (!Double.isFinite(v)) {
                        throw new IllegalArgumentException(what + ": matrix " + e + ", entry (" + r + ", " + c + ") is " + v
                                + "; inputs must be finite");
                    }
                }
            }
        }
    }

    /** Every diagonal entry is non-zero (a triangular matrix to invert). */
    public static void nonZeroDiagonal(String what, KernelArray a, int n, int batch) {
        for (int e = 0; e < batch; e++) {
            for (int j = 0; j < n; j++) {
                if (Precision.get(a, (long) e * n * n + j + (long) j * n) == 0) {
                    throw new IllegalArgumentException(what + ": matrix " + e + " is singular: diagonal entry " + j + " is 0");
                }
            }
        }
    }

    /** {@code a} holds exactly {@code batch} packed {@code m x n} matrices. */
    public static void rectangularBatch(String what, KernelArray a, int m, int n, int batch) {
        if (m < 1 || n < 1) throw new IllegalArgumentException(what + ": sizes must be >= 1, got " + m + " x " + n);
        if (batch < 1) throw new IllegalArgumentException(what + ": batch must be >= 1, got " + batch);
        long need = (long) m * n * batch;
        if (need > Integer.MAX_VALUE) throw new IllegalArgumentException(what + ": " + batch + " x " + m + " x " + n + " elements exceed 2^31 - 1");
        if (a.getSizeLong() != need) {
            throw new IllegalArgumentException(what + ": expected " + batch + " matrices of " + m + " x " + n + " = " + need
                    + " elements, the array has " + a.getSizeLong());
        }
    }

    /** Every entry of every packed {@code m x n} matrix is finite; otherwise names the first bad one. */
    public static void finite(String what, KernelArray a, int m, int n, int batch) {
        for (int e = 0; e < batch; e++) {
            long base = (long) e * m * n;
            for (int c = 0; c < n; c++) {
                for (int r = 0; r < m; r++) {
                    double v = Precision.get(a, base + r + (long) c * m);
                    if (!Double.isFinite(v)) {
                        throw new IllegalArgumentException(what + ": matrix " + e + ", entry (" + r + ", " + c + ") is " + v
                                + "; inputs must be finite");
                    }
                }
            }
        }
    }
}
