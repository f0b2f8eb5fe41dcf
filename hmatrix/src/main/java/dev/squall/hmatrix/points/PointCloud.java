package dev.squall.hmatrix.points;

import java.util.SplittableRandom;

/**
 * An immutable set of {@code n} points in {@code d} dimensions ({@code d} is 2 or 3), stored
 * point by point: coordinate {@code k} of point {@code i} is {@code coords[i * d + k]}.
 *
 * <pre>{@code
 * PointCloud pts = PointCloud.uniform(10_000, 3, 42L);   // reproducible: same seed, same points
 * double x0 = pts.coord(0, 0);
 * double r2 = pts.distanceSquared(0, 1);
 * }</pre>
 */
public final class PointCloud {
    private final int dim;
    private final double[] coords;

    private PointCloud(int dim, double[] coords) {
        this.dim = dim;
        this.coords = coords;
    }

    /**
     * {@code n} points drawn independently and uniformly from the unit cube {@code [0, 1)^dim},
     * determined by {@code seed}.
     *
     * @throws IllegalArgumentException if {@code n < 0} or {@code dim} is not 2 or 3
     */
    public static PointCloud uniform(int n, int dim, long seed) {
        checkDim(dim);
        if (n < 0) {
            throw new IllegalArgumentException("negative point count " + n);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] c = new double[Math.multiplyExact(n, dim)];
        for (int i = 0; i < c.length; i++) {
            c[i] = rnd.nextDouble();
        }
        return new PointCloud(dim, c);
    }

    /**
     * {@code n} points of a randomly perturbed regular grid in the unit cube {@code [0, 1]^dim}, the test problem of
     * the H2 literature: the grid has {@code s = ceil(n^(1/dim))} points per side at the cell centres
     * {@code (i + 1/2) / s}, the first {@code n} of them (row by row) are kept, and each coordinate moves by a uniform
     * amount in {@code [-1/4, 1/4)} of the spacing, so points stay distinct and inside their cells. Determined by
     * {@code seed}.
     *
     * @throws IllegalArgumentException if {@code n < 0} or {@code dim} is not 2 or 3
     */
    public static PointCloud perturbedGrid(int n, int dim, long seed) {
        checkDim(dim);
        if (n < 0) {
            throw new IllegalArgumentException("negative point count " + n);
        }
        int side = (int) Math.ceil(Math.pow(n, 1.0 / dim) - 1e-9);
        while (Math.pow(side, dim) < n) {
            side++;
        }
        double h = 1.0 / Math.max(side, 1);
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] c = new double[Math.multiplyExact(n, dim)];
        for (int i = 0; i < n; i++) {
            int rest = i;
            for (int k = 0; k < dim; k++) {
                int g = rest % side;
                rest /= side;
                c[i * dim + k] = (g + 0.5) * h + (rnd.nextDouble() - 0.5) * 0.5 * h;
            }
        }
        return new PointCloud(dim, c);
    }

    /**
     * The points with the given coordinates ({@code coords.length / dim} of them, point by
     * point). The array is copied.
     *
     * @throws IllegalArgumentException if {@code dim} is not 2 or 3, or does not divide the length
     */
    public static PointCloud of(int dim, double... coords) {
        checkDim(dim);
        if (coords.length % dim != 0) {
            throw new IllegalArgumentException(coords.length + " coordinates do not make "
                    + dim + "-dimensional points");
        }
        return new PointCloud(dim, coords.clone());
    }

    private static void checkDim(int dim) {
        if (dim != 2 && dim != 3) {
            throw new IllegalArgumentException("dimension must be 2 or 3, not " + dim);
        }
    }

    /** Number of points. */
    public int size() {
        return coords.length / dim;
    }

    /** Number of dimensions: 2 or 3. */
    public int dim() {
        return dim;
    }

    /** Coordinate {@code k} of point {@code i}. */
    public double coord(int i, int k) {
        if (k < 0 || k >= dim) {
            throw new IndexOutOfBoundsException("coordinate " + k + " of a " + dim + "-dimensional point");
        }
        return coords[i * dim + k];
    }

    /** A copy of all coordinates, point by point ({@code size() * dim()} values). */
    public double[] coordinates() {
        return coords.clone();
    }

    /** Squared Euclidean distance between point {@code i} of this cloud and point {@code j} of {@code other}. */
    public double distanceSquared(int i, PointCloud other, int j) {
        if (other.dim != dim) {
            throw new IllegalArgumentException("dimensions differ: " + dim + " and " + other.dim);
        }
        double s = 0;
        for (int k = 0; k < dim; k++) {
            double t = coords[i * dim + k] - other.coords[j * dim + k];
            s += t * t;
        }
        return s;
    }

    /** Squared Euclidean distance between points {@code i} and {@code j}. */
    public double distanceSquared(int i, int j) {
        return distanceSquared(i, this, j);
    }

    @Override
    public String toString() {
        return "PointCloud[" + size() + " points, d=" + dim + "]";
    }
}
