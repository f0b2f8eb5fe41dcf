package dev.squall.linalg.testing;

import static org.junit.jupiter.api.Assertions.fail;

/** Element-wise comparison with a tolerance relative to max(1, |expected|); NaN in the result never passes. */
public final class Compare {
    private Compare() {
    }

    public static void close(String what, double[] expected, double[] actual, double tol) {
        if (expected.length != actual.length) fail(what + ": length " + actual.length + ", expected " + expected.length);
        for (int i = 0; i < expected.length; i++) {
            double e = expected[i], a = actual[i];
            if (Double.isNaN(a) || Math.abs(a - e) > tol * Math.max(1, Math.abs(e))) {
                fail(what + ": element " + i + " is " + a + ", expected " + e + " (tolerance " + tol + ")");
            }
        }
    }
}
