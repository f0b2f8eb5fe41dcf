package dev.squall.hmatrix.ksum;

import dev.squall.hmatrix.points.PointCloud;
import dev.squall.hmatrix.points.PointsCsv;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Points of a kernel sum: {@code n >= 1} points in 1 to 8 dimensions, stored point by point ({@code coords[i * dim + d]}),
 * every coordinate finite. Generators give the clouds of the KeOps benchmarks (uniform in the unit cube, a standard
 * Gaussian blob scaled into it, a noisy spiral), reproducible by seed.
 *
 * <pre>{@code
 * PointSet x = PointSet.uniform(100_000, 3, 1L);
 * PointSet y = PointSet.of(2, new double[] {0, 0, 1, 0.5});   // two points in the plane
 * }</pre>
 */
public final class PointSet {
    private final int dim;
    private final double[] coords;
    /** The bounding box, computed on first use (the points never change). */
    private volatile double[][] bounds;

    private PointSet(int dim, double[] coords) {
        this.dim = dim;
        this.coords = coords;
    }

    /**
     * The points with these coordinates (copied).
     *
     * @throws IllegalArgumentException if {@code dim} is not in 1..8, the length is not a positive multiple of it, or a
     *                                  coordinate is NaN or infinite (naming the point and coordinate)
     */
    public static PointSet of(int dim, double[] coords) {
        if (dim < 1 || dim > KernelSumKernelsF64.MAX_DIM) {
            throw new IllegalArgumentException("dimension must be 1 to " + KernelSumKernelsF64.MAX_DIM + ", not " + dim);
        }
        if (coords.length == 0 || coords.length % dim != 0) {
            throw new IllegalArgumentException(coords.length + " coordinates do not make one or more " + dim + "-dimensional points");
        }
        for (int k = 0; k < coords.length; k++) {
            if (!Double.isFinite(coords[k])) {
                throw new IllegalArgumentException("coordinate " + (k % dim) + " of point " + (k / dim) + " is " + coords[k]
                        + ": points must have finite coordinates");
            }
        }
        return new PointSet(dim, coords.clone());
    }

    /** The points of an H2 {@link PointCloud}. */
    public static PointSet of(PointCloud cloud) {
        return of(cloud.dim(), cloud.coordinates());
    }

    /** {@code n} points uniform in {@code [0, 1)^dim}. */
    public static PointSet uniform(int n, int dim, long seed) {
        checkCount(n);
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] c = new double[Math.multiplyExact(n, dim)];
        for (int k = 0; k < c.length; k++) c[k] = rnd.nextDouble();
        return of(dim, c);
    }

    /** {@code n} points of a Gaussian blob centred at 1/2 with standard deviation 1/8 per coordinate. */
    public static PointSet gaussian(int n, int dim, long seed) {
        checkCount(n);
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] c = new double[Math.multiplyExact(n, dim)];
        for (int k = 0; k < c.length; k++) {
            double u = 1 - rnd.nextDouble(), v = rnd.nextDouble();
            c[k] = 0.5 + 0.125 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        }
        return of(dim, c);
    }

    /**
     * {@code n} points along a spiral of three turns in the unit square (coordinates 0 and 1) with Gaussian noise of
     * 0.01; further coordinates, if any, uniform in {@code [0, 0.1)} (a thin slab).
     */
    public static PointSet spiral(int n, int dim, long seed) {
        checkCount(n);
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] c = new double[Math.multiplyExact(n, dim)];
        for (int i = 0; i < n; i++) {
            double t = rnd.nextDouble();
            double angle = 6 * Math.PI * t, radius = 0.05 + 0.4 * t;
            double[] p = {0.5 + radius * Math.cos(angle), 0.5 + radius * Math.sin(angle)};
            for (int d = 0; d < dim; d++) {
                double noise = 0.01 * Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
                c[i * dim + d] = d < 2 ? p[d] + noise : 0.1 * rnd.nextDouble();
            }
        }
        return of(dim, c);
    }

    /**
     * Points named on the command line: {@code uniform}, {@code gaussian} or {@code spiral} ({@code n} of them, seeded),
     * or a CSV file of 2 or 3 numbers a line (its first {@code n} points if it holds more).
     */
    public static PointSet named(String spec, int n, int dim, long seed) {
        return switch (spec) {
            case "uniform" -> uniform(n, dim, seed);
            case "gaussian" -> gaussian(n, dim, seed);
            case "spiral" -> spiral(n, dim, seed);
            default -> {
                PointSet all = of(PointsCsv.read(Path.of(spec)));
                yield all.size() <= n ? all : all.first(n);
            }
        };
    }

    private static void checkCount(int n) {
        if (n < 1) throw new IllegalArgumentException("a point set needs at least one point, got " + n);
    }

    /** The first {@code n} points. */
    public PointSet first(int n) {
        checkCount(n);
        if (n > size()) throw new IllegalArgumentException("asked for " + n + " of " + size() + " points");
        return new PointSet(dim, java.util.Arrays.copyOf(coords, n * dim));
    }

    public int size() {
        return coords.length / dim;
    }

    public int dim() {
        return dim;
    }

    public double coord(int i, int d) {
        return coords[i * dim + d];
    }

    /** A copy of the coordinates, point by point. */
    public double[] coordinates() {
        return coords.clone();
    }

    /** The coordinates themselves, point by point (not a copy: callers must not write them). */
    double[] coordinatesView() {
        return coords;
    }

    /** The coordinates minus {@code centre} (one value per dimension), point by point. */
    double[] shiftedCoordinates(double[] centre) {
        double[] c = new double[coords.length];
        for (int k = 0; k < coords.length; k++) c[k] = coords[k] - centre[k % dim];
        return c;
    }

    /**
     * The bounding box {@code {lo, hi}} (one value per dimension each; fresh arrays), computed once over chunks of points
     * in parallel and kept (the points never change).
     */
    public double[][] bounds() {
        double[][] b = bounds;
        if (b == null) {
            b = computeBounds();
            bounds = b;
        }
        return new double[][] {b[0].clone(), b[1].clone()};
    }

    private double[][] computeBounds() {
        int n = size(), chunk = 1 << 14;
        double[][] parts = java.util.stream.IntStream.range(0, (n + chunk - 1) / chunk).parallel().mapToObj(part -> {
            double[] lh = new double[2 * dim];
            java.util.Arrays.fill(lh, 0, dim, Double.POSITIVE_INFINITY);
            java.util.Arrays.fill(lh, dim, 2 * dim, Double.NEGATIVE_INFINITY);
            for (int i = part * chunk * dim, end = Math.min(n, (part + 1) * chunk) * dim; i < end; i += dim) {
                for (int d = 0; d < dim; d++) {
                    double c = coords[i + d];
                    if (c < lh[d]) lh[d] = c;
                    if (c > lh[dim + d]) lh[dim + d] = c;
                }
            }
            return lh;
        }).toArray(double[][]::new);
        double[][] box = {new double[dim], new double[dim]};
        java.util.Arrays.fill(box[0], Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(box[1], Double.NEGATIVE_INFINITY);
        for (double[] lh : parts) {
            for (int d = 0; d < dim; d++) {
                box[0][d] = Math.min(box[0][d], lh[d]);
                box[1][d] = Math.max(box[1][d], lh[dim + d]);
            }
        }
        return box;
    }

    /** The midpoint of the bounding box of this set and {@code other} (same dimension). */
    double[] midpoint(PointSet other) {
        double[] lo = new double[dim], hi = new double[dim];
        java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (PointSet s : new PointSet[] {this, other}) {
            for (int k = 0; k < s.coords.length; k++) {
                lo[k % dim] = Math.min(lo[k % dim], s.coords[k]);
                hi[k % dim] = Math.max(hi[k % dim], s.coords[k]);
            }
        }
        double[] mid = new double[dim];
        for (int d = 0; d < dim; d++) mid[d] = 0.5 * (lo[d] + hi[d]);
        return mid;
    }

    /** The largest distance of a point of this set from {@code centre}. */
    double reach(double[] centre) {
        double m = 0;
        for (int i = 0; i < size(); i++) {
            double s = 0;
            for (int d = 0; d < dim; d++) {
                double t = coords[i * dim + d] - centre[d];
                s += t * t;
            }
            m = Math.max(m, s);
        }
        return Math.sqrt(m);
    }

    /** Distance between point {@code i} of this set and point {@code j} of {@code other}. */
    public double distance(int i, PointSet other, int j) {
        double s = 0;
        for (int d = 0; d < dim; d++) {
            double t = coords[i * dim + d] - other.coords[j * dim + d];
            s += t * t;
        }
        return Math.sqrt(s);
    }

    /** The points in the order {@code order} (point {@code k} of the result is point {@code order[k]} of this). */
    public PointSet permuted(int[] order) {
        double[] c = new double[coords.length];
        for (int k = 0; k < order.length; k++) System.arraycopy(coords, order[k] * dim, c, k * dim, dim);
        return new PointSet(dim, c);
    }

    @Override
    public String toString() {
        return size() + " points in " + dim + "d";
    }
}
