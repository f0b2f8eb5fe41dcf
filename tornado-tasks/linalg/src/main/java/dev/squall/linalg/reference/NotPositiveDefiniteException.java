package dev.squall.linalg.reference;

/**
 * Thrown when a Cholesky factorisation meets a pivot that is not positive, i.e. the
 * matrix is not (numerically) symmetric positive definite.
 *
 * <pre>{@code
 * try {
 *     ReferenceCholesky.factor(n, a);
 * } catch (NotPositiveDefiniteException e) {
 *     System.err.println("leading minor " + (e.pivot() + 1) + " is not positive: " + e.pivotValue());
 * }
 * }</pre>
 */
public final class NotPositiveDefiniteException extends ArithmeticException {
    private static final long serialVersionUID = 1L;

    private final int pivot;
    private final double pivotValue;

    /**
     * @param pivot      zero-based index of the failing diagonal entry
     * @param pivotValue the value the pivot had (after the updates from earlier columns)
     */
    public NotPositiveDefiniteException(int pivot, double pivotValue) {
        super("matrix is not positive definite: pivot " + pivot + " is " + pivotValue);
        this.pivot = pivot;
        this.pivotValue = pivotValue;
    }

    /** Zero-based index of the diagonal entry whose pivot was not positive. */
    public int pivot() {
        return pivot;
    }

    /** The pivot's value, {@code a[k][k] - sum_j l[k][j]^2}: zero, negative or NaN. */
    public double pivotValue() {
        return pivotValue;
    }
}
