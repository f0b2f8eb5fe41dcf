package dev.squall.hmatrix.kernel;

import dev.squall.hmatrix.points.PointCloud;

/**
 * The Gaussian (squared-exponential) covariance kernel {@code k(x, y) = exp(-|x - y|^2 / (2 l^2))}
 * with length scale {@code l}, and a builder for its dense matrix: the reference that
 * H2-matrix and kernel-sum results are checked against on small problems.
 *
 * <pre>{@code
 * PointCloud pts = PointCloud.uniform(500, 2, 7L);
 * GaussianKernel k = new GaussianKernel(0.1);
 * double[] dense = k.matrix(pts);        // 500 x 500, row-major, symmetric, unit diagonal
 * }</pre>
 */
public final class GaussianKernel {
    private final double lengthScale;
    private final double minusHalfOverL2;

    /**
     * @param lengthScale {@code l > 0}
     * @throws IllegalArgumentException if {@code lengthScale} is not a positive finite number
     */
    public GaussianKernel(double lengthScale) {
        if (!(lengthScale > 0) || Double.isInfinite(lengthScale)) {
            throw new IllegalArgumentException("length scale must be positive and finite, not " + lengthScale);
        }
        this.lengthScale = lengthScale;
        this.minusHalfOverL2 = -0.5 / (lengthScale * lengthScale);
    }

    /** The length scale {@code l}. */
    public double lengthScale() {
        return lengthScale;
    }

    /** {@code exp(-r2 / (2 l^2))} for a squared distance {@code r2}. */
    public double ofSquaredDistance(double r2) {
        return Math.exp(r2 * minusHalfOverL2);
    }

    /** The kernel between point {@code i} of {@code rows} and point {@code j} of {@code cols}. */
    public double evaluate(PointCloud rows, int i, PointCloud cols, int j) {
        return ofSquaredDistance(rows.distanceSquared(i, cols, j));
    }

    /**
     * The dense {@code rows.size() x cols.size()} kernel matrix, row-major:
     * entry {@code (i, j)} is {@code k(rows_i, cols_j)}.
     */
    public double[] matrix(PointCloud rows, PointCloud cols) {
        int m = rows.size();
        int n = cols.size();
        double[] k = new double[Math.multiplyExact(m, n)];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                k[i * n + j] = evaluate(rows, i, cols, j);
            }
        }
        return k;
    }

    /** The dense symmetric kernel matrix of a point cloud with itself, row-major. */
    public double[] matrix(PointCloud points) {
        int n = points.size();
        double[] k = new double[Math.multiplyExact(n, n)];
        for (int i = 0; i < n; i++) {
            k[i * n + i] = 1.0;
            for (int j = 0; j < i; j++) {
                double v = evaluate(points, i, points, j);
                k[i * n + j] = v;
                k[j * n + i] = v;
            }
        }
        return k;
    }

    @Override
    public String toString() {
        return "GaussianKernel[l=" + lengthScale + "]";
    }
}
