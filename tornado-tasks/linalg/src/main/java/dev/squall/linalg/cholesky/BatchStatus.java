package dev.squall.linalg.cholesky;

/**
 * Outcome of a batched factorisation: for each matrix, the index of its first pivot that was not
 * positive, or none.
 *
 * <pre>{@code
 * if (status.failedPivot(3) >= 0) System.err.println("matrix 3 fails at pivot " + status.failedPivot(3));
 * }</pre>
 */
public final class BatchStatus {
    private final int[] info;

    BatchStatus(int[] info) {
        this.info = info.clone();
    }

    /** Zero-based index of matrix {@code e}'s first non-positive pivot, or -1 when it factored. */
    public int failedPivot(int e) {
        return info[e] == Integer.MAX_VALUE ? -1 : info[e];
    }

    public boolean allPositiveDefinite() {
        for (int v : info) if (v != Integer.MAX_VALUE) return false;
        return true;
    }

    /** "matrix E is not positive definite: pivot J" for the first failing matrix, or "all factored". */
    public String describeFirstFailure() {
        for (int e = 0; e < info.length; e++) {
            if (info[e] != Integer.MAX_VALUE) return "matrix " + e + " is not positive definite: pivot " + info[e] + " is not positive";
        }
        return "all " + info.length + " matrices factored";
    }
}
