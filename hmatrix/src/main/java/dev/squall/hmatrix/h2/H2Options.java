package dev.squall.hmatrix.h2;

import dev.squall.tasks.runtime.Device;

/**
 * How an {@link H2Matrix} is built: leaf size {@code m} (default 64), Chebyshev order {@code p} per dimension
 * (default 8, so the rank is {@code p^dim}), admissibility parameter {@code eta} (default 1.0: a block is low-rank
 * when {@code max(diam) <= eta dist}) and the device (default: {@code Devices.select(null)}).
 *
 * <pre>{@code
 * H2Options o = H2Options.defaults().withOrder(6).withEta(0.7).withDevice(Devices.get("opencl:0:0"));
 * }</pre>
 */
public record H2Options(int leafSize, int order, double eta, Device device) {
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
    }

    /** Leaf size 64, order 8, eta 1.0, the default device. */
    public static H2Options defaults() {
        return new H2Options(64, 8, 1.0, null);
    }

    public H2Options withLeafSize(int m) {
        return new H2Options(m, order, eta, device);
    }

    public H2Options withOrder(int p) {
        return new H2Options(leafSize, p, eta, device);
    }

    public H2Options withEta(double e) {
        return new H2Options(leafSize, order, e, device);
    }

    public H2Options withDevice(Device d) {
        return new H2Options(leafSize, order, eta, d);
    }
}
