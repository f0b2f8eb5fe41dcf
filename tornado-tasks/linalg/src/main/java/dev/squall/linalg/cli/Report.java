package dev.squall.linalg.cli;

/** Small pieces every linalg command prints the same way. */
final class Report {
    private Report() {
    }

    /** The text-mode verdict after a residual. */
    static String verdict(boolean ok) {
        return ok ? "(ok)" : "(TOO LARGE)";
    }

    /** Matrices whose results --verify checks: the first, the middle and the last of the batch. */
    static int[] sampled(int batch) {
        return new int[] {0, batch / 2, batch - 1};
    }

    /** NaN when {@code value} was not computed. */
    static Double orNull(boolean computed, double value) {
        return computed ? value : null;
    }
}
