package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

import java.util.Locale;

/**
 * What every example program does around its TornadoVM code: the problem size from the first argument, timing (the
 * best of {@code -Dexamples.repeat=N} runs, default 1, after one untimed run that builds the device program and copies
 * the data), and the last line it prints:
 * {@code RESULT program=P size=N device=B:D backend=opencl repeat=R tornadoMs=T javaMs=J maxError=E tolerance=L PASS|FAIL},
 * exiting with status 1 when the TornadoVM result differs from the plain-Java one by more than the tolerance.
 */
final class ExampleCheck {
    private ExampleCheck() {
    }

    static int size(String[] args, int fallback) {
        if (args.length == 0) return fallback;
        try {
            int n = Integer.parseInt(args[0]);
            if (n > 0) return n;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        System.err.println("the first argument is the problem size, a positive integer; got \"" + args[0] + "\"");
        System.exit(2);
        return 0;
    }

    /** Runs {@code r} once untimed, then the best of the repeats, in milliseconds. */
    static double time(Runnable r) {
        r.run();
        int repeat = repeat();
        double best = Double.MAX_VALUE;
        for (int i = 0; i < repeat; i++) {
            long t = System.nanoTime();
            r.run();
            best = Math.min(best, (System.nanoTime() - t) / 1e6);
        }
        return best;
    }

    private static int repeat() {
        return Math.max(1, Integer.getInteger("examples.repeat", 1));
    }

    static void finish(String program, long size, TornadoExecutionPlan plan, double tornadoMs, double javaMs, double maxError, double tolerance) {
        TornadoDevice d = plan.getDevice();
        boolean pass = maxError <= tolerance; // false for NaN
        System.out.println(String.format(Locale.ROOT, "RESULT program=%s size=%d device=%d:%d backend=%s repeat=%d tornadoMs=%.4f javaMs=%.4f maxError=%.3g tolerance=%.3g %s",
                program, size, d.getBackendIndex(), d.getDeviceIndex(), d.squallDevice().info().backend(), repeat(), tornadoMs, javaMs, maxError, tolerance,
                pass ? "PASS" : "FAIL"));
        if (!pass) System.exit(1);
    }

    static double maxDiff(float[] a, float[] b) {
        double m = a.length == b.length ? 0 : Double.NaN;
        for (int i = 0; i < Math.min(a.length, b.length); i++) m = Math.max(m, Math.abs((double) a[i] - b[i]));
        return m;
    }

    static double maxDiff(double[] a, double[] b) {
        double m = a.length == b.length ? 0 : Double.NaN;
        for (int i = 0; i < Math.min(a.length, b.length); i++) m = Math.max(m, Math.abs(a[i] - b[i]));
        return m;
    }

    static double maxDiff(int[] a, int[] b) {
        double m = a.length == b.length ? 0 : Double.NaN;
        for (int i = 0; i < Math.min(a.length, b.length); i++) m = Math.max(m, Math.abs((double) a[i] - b[i]));
        return m;
    }

    static double maxDiff(long[] a, long[] b) {
        double m = a.length == b.length ? 0 : Double.NaN;
        for (int i = 0; i < Math.min(a.length, b.length); i++) m = Math.max(m, a[i] == b[i] ? 0 : 1);
        return m;
    }

    /** Random floats in [-1, 1). */
    static float[] randomFloats(int n, long seed) {
        java.util.Random r = new java.util.Random(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = r.nextFloat() * 2 - 1;
        return a;
    }

    /** gamma(k) = k u / (1 - k u) for float (u = 2^-24): the rounding bound of a k-term sum in any order (Higham 3.1). */
    static double gammaFloat(long k) {
        double ku = Math.max(k, 1) * 0x1p-24;
        return ku / (1 - ku);
    }

    /**
     * Additions on the way of any term of Squall's two-stage @Reduce: the work-item's grid-stride share (at most
     * n / (1024 * 256) terms), 8 levels of the work-group fold, at most 4 partials per work-item of the second stage,
     * its 8 levels and the initial value. A sum's error is within gamma(depth) * sum|x| of the exact sum.
     */
    static long reductionDepth(long n) {
        return (n + 262_143) / 262_144 + 21;
    }

    static double gammaDouble(long k) {
        double ku = Math.max(k, 1) * 0x1p-53;
        return ku / (1 - ku);
    }
}
