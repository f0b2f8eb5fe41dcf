package dev.squall.hmatrix.kernel;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.Parallel;

/**
 * Covariance functions of the distance {@code r} with length scale {@code l}, as device functions that kernels call
 * and host code calls alike, and one loop-parallel kernel per function that replaces an array of distances by the
 * covariances ({@code v[i] <- k(v[i], l)}). H2 construction writes the distances of every entry it needs (point
 * pairs of the dense blocks, interpolation-node pairs of the couplings) and then runs one of these kernels over them,
 * so a covariance function is all a kernel needs to be evaluated on a device.
 *
 * <p>A user-supplied covariance follows the same pattern in the user's own class: a {@code @DeviceFunction} of
 * {@code (r, l)} and a {@code @Kernel} that maps it over an array (see {@link CovarianceKernel#of}).
 *
 * <pre>{@code
 * double c = CovarianceFunctions.matern32(0.05, 0.1);     // host call of the device function
 * }</pre>
 */
public final class CovarianceFunctions {
    private static final double SQRT3 = 1.7320508075688772;
    private static final double SQRT5 = 2.23606797749979;

    private CovarianceFunctions() {
    }

    /** {@code exp(-r / l)}. */
    @DeviceFunction
    public static double exponential(double r, double l) {
        return Math.exp(-r / l);
    }

    /** {@code exp(-r^2 / (2 l^2))}. */
    @DeviceFunction
    public static double gaussian(double r, double l) {
        double s = r / l;
        return Math.exp(-0.5 * s * s);
    }

    /** Matérn with smoothness 1/2: {@code exp(-r / l)} (the exponential kernel). */
    @DeviceFunction
    public static double matern12(double r, double l) {
        return Math.exp(-r / l);
    }

    /** Matérn with smoothness 3/2: {@code (1 + sqrt(3) r / l) exp(-sqrt(3) r / l)}. */
    @DeviceFunction
    public static double matern32(double r, double l) {
        double s = SQRT3 * r / l;
        return (1.0 + s) * Math.exp(-s);
    }

    /** Matérn with smoothness 5/2: {@code (1 + sqrt(5) r / l + 5 r^2 / (3 l^2)) exp(-sqrt(5) r / l)}. */
    @DeviceFunction
    public static double matern52(double r, double l) {
        double s = SQRT5 * r / l;
        return (1.0 + s + s * s / 3.0) * Math.exp(-s);
    }

    /** Inverse multiquadric {@code 1 / sqrt(1 + (r / l)^2)}. */
    @DeviceFunction
    public static double inverseMultiquadric(double r, double l) {
        double s = r / l;
        return 1.0 / Math.sqrt(1.0 + s * s);
    }

    /** {@code v[i] <- exponential(v[i], l)} for {@code i < n}. */
    @Kernel
    public static void applyExponential(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, exponential(v.get(i), l));
        }
    }

    /** {@code v[i] <- gaussian(v[i], l)} for {@code i < n}. */
    @Kernel
    public static void applyGaussian(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, gaussian(v.get(i), l));
        }
    }

    /** {@code v[i] <- matern12(v[i], l)} for {@code i < n}. */
    @Kernel
    public static void applyMatern12(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, matern12(v.get(i), l));
        }
    }

    /** {@code v[i] <- matern32(v[i], l)} for {@code i < n}. */
    @Kernel
    public static void applyMatern32(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, matern32(v.get(i), l));
        }
    }

    /** {@code v[i] <- matern52(v[i], l)} for {@code i < n}. */
    @Kernel
    public static void applyMatern52(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, matern52(v.get(i), l));
        }
    }

    /** {@code v[i] <- inverseMultiquadric(v[i], l)} for {@code i < n}. */
    @Kernel
    public static void applyInverseMultiquadric(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, inverseMultiquadric(v.get(i), l));
        }
    }
}
