package dev.squall.permanent.numeric;

/**
 * Compensated summation (Neumaier's variant of Kahan's, which also handles addends larger than
 * the running sum — common in Ryser's alternating series). Not thread-safe.
 *
 * <pre>{@code
 * KahanSum s = new KahanSum();
 * s.add(1e16); s.add(1); s.add(-1e16);
 * s.value(); // 1.0
 * }</pre>
 */
public final class KahanSum {
    private double sum, comp;

    public void add(double v) {
        double t = sum + v;
        if (Math.abs(sum) >= Math.abs(v)) comp += (sum - t) + v;
        else comp += (v - t) + sum;
        sum = t;
    }

    /** Adds another compensated pair (a partial from a chunk). */
    public void add(double partialSum, double partialComp) {
        add(partialSum);
        add(partialComp);
    }

    public double value() {
        return sum + comp;
    }

    public double sum() {
        return sum;
    }

    public double compensation() {
        return comp;
    }
}
