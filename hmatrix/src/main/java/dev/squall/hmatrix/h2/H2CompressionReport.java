package dev.squall.hmatrix.h2;

/**
 * What {@link H2Matrix#compress} did: the tolerance, the estimated relative Frobenius error of the compressed matrix
 * against the one before (from the discarded singular values), memory before and after, the new ranks per level
 * (root first) and the wall time.
 *
 * <pre>{@code
 * H2CompressionReport r = a.compress(1e-6);
 * System.out.println(r.memoryBefore().total() + " -> " + r.memoryAfter().total() + " bytes, error ~ " + r.relativeErrorEstimate());
 * }</pre>
 */
public record H2CompressionReport(double tolerance, double relativeErrorEstimate, H2Memory memoryBefore, H2Memory memoryAfter,
        int[] rowRanks, int[] colRanks, double millis) {
}
