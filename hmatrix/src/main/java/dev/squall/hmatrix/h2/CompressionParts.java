package dev.squall.hmatrix.h2;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the time of one compression went: for each part (a step and the name of the plans it runs, such as
 * {@code truncate/svd}), the plans run, their wall time, the time preparing them (building or loading kernels, binding
 * launches) and the device time between their first and last kernel; each step's wall time that no plan accounts for
 * (host work, allocation and freeing) is its {@code host} part. Collected for the compression running on this thread.
 */
final class CompressionParts {
    private static final ThreadLocal<CompressionParts> CURRENT = new ThreadLocal<>();

    private final Map<String, double[]> parts = new LinkedHashMap<>();
    private String step = "";
    private long stepStart;
    private double stepPlans;

    private CompressionParts() {
    }

    /** Starts collecting on this thread. */
    static CompressionParts start() {
        CompressionParts p = new CompressionParts();
        CURRENT.set(p);
        return p;
    }

    /** Stops collecting on this thread (nothing to do after {@link #finish}). */
    static void stop() {
        CURRENT.remove();
    }

    /** Ends the current step (its unaccounted time becomes its host part) and starts {@code name}. */
    void step(String name) {
        endStep();
        step = name;
        stepStart = System.nanoTime();
        stepPlans = 0;
    }

    private void endStep() {
        if (step.isEmpty()) return;
        double wall = (System.nanoTime() - stepStart) / 1e6;
        add(step + "/host", 1, Math.max(0, wall - stepPlans), 0, 0);
        step = "";
    }

    private void add(String name, int plans, double wall, double compile, double kernel) {
        double[] a = parts.computeIfAbsent(name, k -> new double[4]);
        a[0] += plans;
        a[1] += wall;
        a[2] += compile;
        a[3] += Double.isNaN(kernel) ? 0 : kernel;
    }

    /** Records one plan of the current step ({@code name} without a trailing level number, {@code -l3}). */
    static void plan(String name, double wallMillis, double compileMillis, double kernelMillis) {
        CompressionParts p = CURRENT.get();
        if (p == null) return;
        String base = name.replaceAll("-l\\d+$", "");
        p.add((p.step.isEmpty() ? "" : p.step + "/") + base, 1, wallMillis, compileMillis, kernelMillis);
        p.stepPlans += wallMillis;
        trace("%s/%s: %.3f ms wall, %.3f ms prepare, %.3f ms device", p.step, name, wallMillis, compileMillis, kernelMillis);
    }

    /** Runs {@code work} (host work of the current step: freeing, allocating) and records its wall time as the part {@code name}. */
    static void host(String name, Runnable work) {
        long t0 = System.nanoTime();
        work.run();
        plan(name, (System.nanoTime() - t0) / 1e6, 0, 0);
    }

    /** With the system property {@code squall.h2.trace} set, prints one line of the compression's progress on stderr. */
    static void trace(String format, Object... args) {
        if (TRACE && CURRENT.get() != null) System.err.println("h2 compress: " + String.format(java.util.Locale.ROOT, format, args));
    }

    private static final boolean TRACE = Boolean.getBoolean("squall.h2.trace");

    /** Ends the last step and stops collecting; the parts in the order they first ran. */
    Map<String, H2CompressionReport.Part> finish() {
        endStep();
        CURRENT.remove();
        Map<String, H2CompressionReport.Part> m = new LinkedHashMap<>();
        for (var e : parts.entrySet()) {
            double[] a = e.getValue();
            m.put(e.getKey(), new H2CompressionReport.Part((int) a[0], a[1], a[2], a[3]));
        }
        return m;
    }
}
