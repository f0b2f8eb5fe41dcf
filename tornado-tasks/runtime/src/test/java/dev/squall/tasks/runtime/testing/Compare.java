package dev.squall.tasks.runtime.testing;

import static org.junit.jupiter.api.Assertions.fail;

/** Element-wise comparison with a tolerance relative to max(1, |expected|); NaN never passes. */
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

    public static void close(String what, float[] expected, float[] actual, double tol) {
        double[] e = new double[expected.length], a = new double[actual.length];
        for (int i = 0; i < e.length; i++) e[i] = expected[i];
        for (int i = 0; i < a.length; i++) a[i] = actual[i];
        close(what, e, a, tol);
    }

    public static void exact(String what, long[] expected, long[] actual) {
        if (expected.length != actual.length) fail(what + ": length " + actual.length + ", expected " + expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) fail(what + ": element " + i + " is " + actual[i] + ", expected " + expected[i]);
        }
    }

    public static void exact(String what, int[] expected, int[] actual) {
        long[] e = new long[expected.length], a = new long[actual.length];
        for (int i = 0; i < e.length; i++) e[i] = expected[i];
        for (int i = 0; i < a.length; i++) a[i] = actual[i];
        exact(what, e, a);
    }
}
