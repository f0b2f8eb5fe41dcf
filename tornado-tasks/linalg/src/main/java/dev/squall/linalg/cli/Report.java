package dev.squall.linalg.cli;

import java.util.Locale;

/** Small formatting pieces every linalg command prints the same way. */
final class Report {
    private Report() {
    }

    /** A JSON number, or {@code null} for NaN (a value that was not computed). */
    static String num(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.6e", v);
    }

    /** The text-mode verdict after a residual. */
    static String verdict(boolean ok) {
        return ok ? "(ok)" : "(TOO LARGE)";
    }

    /** Matrices whose results --verify checks: the first, the middle and the last of the batch. */
    static int[] sampled(int batch) {
        return new int[] {0, batch / 2, batch - 1};
    }

    /** Fails with a message naming the options when {@code elements} does not fit int indexing. */
    static void checkElements(long elements, String what) {
        if (elements > Integer.MAX_VALUE) throw new IllegalArgumentException(what + " exceeds 2^31 - 1 elements (" + elements + ")");
    }
}
