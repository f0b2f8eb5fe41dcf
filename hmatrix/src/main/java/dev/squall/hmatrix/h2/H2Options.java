package dev.squall.hmatrix.h2;

import dev.squall.tasks.runtime.Device;

/**
 * How an {@link H2Matrix} is built: leaf size {@code m} (default 64), Chebyshev order {@code p} per dimension
 * (default 8, so the rank is {@code p^dim}), admissibility parameter {@code eta} (default 1.0) and condition (default
 * {@link Admissibility#BOX_DISTANCE}), and the device (default: {@code Devices.select(null)}).
 *
 * <pre>{@code
 * H2Options o = H2Options.defaults().withOrder(6).withEta(0.7).withDevice(Devices.get("opencl:0:0"));
 * }</pre>
 */
public record H2Options(int leafSize, int order, double eta, Device device, Admissibility admissibility) {
    /** When a pair of clusters becomes a low-rank (coupling) block; both require boxes that do not touch. */
    public enum Admissibility {
        /** {@code max(diam t, diam s) <= eta dist(t, s)}, {@code dist} the distance between the bounding boxes. */
        BOX_DISTANCE,
        /**
         * {@code (diam t + diam s) / 2 <= eta |center t - center s|}, the centers of the bounding boxes (H2Opus's
         * box-center condition): with {@code eta = 1}, neighbours of equal size are dense and the next ones low-rank,
         * so far fewer dense and coupling blocks than {@link #BOX_DISTANCE} (in 3D several times fewer) at a somewhat
         * larger interpolation error.
         */
        BOX_CENTER
    }

    /** Largest rank {@code p^dim} accepted: a coupling block holds {@code rank^2} values. */
    public static final int MAX_RANK = 1024;
    /** Largest leaf size accepted: a dense block holds up to {@code leafSize^2} values. */
    public static final int MAX_LEAF_SIZE = 4096;

    public H2Options {
        if (leafSize < 2 || leafSize > MAX_LEAF_SIZE) {
            throw new IllegalArgumentException("leaf size must be between 2 and " + MAX_LEAF_SIZE + ", not " + leafSize);
        }
        if (order < 1) throw new IllegalArgumentException("interpolation order must be at least 1, not " + order);
        if (!(eta > 0) || Double.isInfinite(eta)) throw new IllegalArgumentException("eta must be positive and finite, not " + eta);
        if (admissibility == null) throw new IllegalArgumentException("admissibility condition is null");
    }

    /** With the {@link Admissibility#BOX_DISTANCE} condition. */
    public H2Options(int leafSize, int order, double eta, Device device) {
        this(leafSize, order, eta, device, Admissibility.BOX_DISTANCE);
    }

    /** Leaf size 64, order 8, eta 1.0, the default device. */
    public static H2Options defaults() {
        return new H2Options(64, 8, 1.0, null, Admissibility.BOX_DISTANCE);
    }

    public H2Options withLeafSize(int m) {
        return new H2Options(m, order, eta, device, admissibility);
    }

    public H2Options withOrder(int p) {
        return new H2Options(leafSize, p, eta, device, admissibility);
    }

    public H2Options withEta(double e) {
        return new H2Options(leafSize, order, e, device, admissibility);
    }

    public H2Options withDevice(Device d) {
        return new H2Options(leafSize, order, eta, d, admissibility);
    }

    public H2Options withAdmissibility(Admissibility a) {
        return new H2Options(leafSize, order, eta, device, a);
    }
}
