package dev.squall.hmatrix.ksum;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import java.util.Locale;
import java.util.Objects;

/**
 * The kernel {@code k(x, y) = f(|x - y|, l)} of a kernel sum. Built-in families run in the tiled kernels of
 * {@link KernelSumKernelsF64} (selected by a code): the covariance kernels shared with the H2 code (exponential =
 * Matérn 1/2, Gaussian, Matérn 3/2 and 5/2, inverse multiquadric, whose host values come from
 * {@link CovarianceKernel}) and the Cauchy kernel {@code 1 / (1 + (r/l)^2)}. Any other {@link CovarianceKernel} (a
 * user's {@code @DeviceFunction} with its mapping {@code @Kernel}) is a <em>user</em> kernel: its sums are computed by
 * writing distances block by block, mapping them through the user's kernel and multiplying (fp64, dense only).
 *
 * <pre>{@code
 * PairKernel g = PairKernel.parse("gauss:0.1");
 * PairKernel u = PairKernel.of(CovarianceKernel.of("wendland", 0.3, MyKernels::wendland, MyKernels::apply));
 * }</pre>
 */
public final class PairKernel {
    /** Code of a user kernel (no tiled kernel). */
    static final int USER = -1;

    private final String name;
    private final double lengthScale;
    private final int code;
    private final CovarianceKernel covariance;

    private PairKernel(String name, double lengthScale, int code, CovarianceKernel covariance) {
        if (!(lengthScale > 0) || Double.isInfinite(lengthScale)) {
            throw new IllegalArgumentException("length scale of kernel " + name + " must be positive and finite, not " + lengthScale);
        }
        this.name = name;
        this.lengthScale = lengthScale;
        this.code = code;
        this.covariance = covariance;
    }

    /**
     * Parses {@code NAME:L}: {@code gauss}, {@code exp}, {@code matern12}, {@code matern32}, {@code matern52},
     * {@code imq} (as the H2 code parses them) or {@code cauchy}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static PairKernel parse(String spec) {
        if (spec != null && spec.strip().toLowerCase(Locale.ROOT).startsWith("cauchy")) {
            int colon = spec.indexOf(':');
            if (colon < 0) throw new IllegalArgumentException("kernel must be NAME:LENGTHSCALE (e.g. cauchy:0.1), got " + spec);
            String ls = spec.substring(colon + 1).strip();
            try {
                return cauchy(Double.parseDouble(ls));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("kernel " + spec + ": length scale '" + ls + "' is not a number");
            }
        }
        try {
            return of(CovarianceKernel.parse(spec));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("or imq", "imq or cauchy"), e);
        }
    }

    /** The Cauchy kernel {@code 1 / (1 + (r/l)^2)}. */
    public static PairKernel cauchy(double l) {
        return new PairKernel("cauchy", l, KernelSumKernelsF64.CAUCHY, null);
    }

    /** The Gaussian kernel {@code exp(-r^2 / (2 l^2))}. */
    public static PairKernel gaussian(double l) {
        return of(CovarianceKernel.gaussian(l));
    }

    /**
     * A covariance kernel: one of the built-in families when its name is one ({@code gauss}, {@code exp},
     * {@code matern12}, {@code matern32}, {@code matern52}, {@code imq}), else a user kernel.
     */
    public static PairKernel of(CovarianceKernel k) {
        Objects.requireNonNull(k, "kernel");
        int code = switch (k.name()) {
            case "gauss" -> KernelSumKernelsF64.GAUSS;
            case "exp", "matern12" -> KernelSumKernelsF64.EXPONENTIAL;
            case "matern32" -> KernelSumKernelsF64.MATERN32;
            case "matern52" -> KernelSumKernelsF64.MATERN52;
            case "imq" -> KernelSumKernelsF64.IMQ;
            default -> USER;
        };
        return new PairKernel(k.name(), k.lengthScale(), code, k);
    }

    public String name() {
        return name;
    }

    public double lengthScale() {
        return lengthScale;
    }

    /** Whether this is a user kernel (dense fp64 through its mapping kernel, no gradient, no block-sparse bound). */
    public boolean isUser() {
        return code == USER;
    }

    /** The family code of the tiled kernels ({@link #USER} for a user kernel). */
    int code() {
        return code;
    }

    /** The covariance kernel this wraps (null for Cauchy). */
    CovarianceKernel covariance() {
        return covariance;
    }

    /** {@code c = 1 / l^2}, the tiled kernels' scale parameter. */
    double inverseSquaredLength() {
        return 1.0 / (lengthScale * lengthScale);
    }

    /** {@code k} at distance {@code r}, on the host (the reference the device results are checked against). */
    public double evaluate(double r) {
        if (covariance != null) return covariance.evaluate(r);
        double s = r / lengthScale;
        return 1.0 / (1.0 + s * s);
    }

    /**
     * {@code dk/d(r^2)} at distance {@code r}, on the host, so the gradient in {@code x} is
     * {@code 2 dk/d(r^2) (x - y)}.
     *
     * @throws IllegalArgumentException for a user kernel (its derivative is not known)
     */
    public double derivativeOfSquared(double r) {
        if (isUser()) throw new IllegalArgumentException("the gradient needs a built-in kernel; " + name + " is a user kernel");
        return KernelSumKernelsF64.kernelDerivative(code, r * r, inverseSquaredLength());
    }

    /**
     * The smallest distance beyond which every kernel value is at most {@code threshold} (the kernels decrease with
     * distance), found by bisection on the host values to a relative 1e-12; 0 when {@code threshold >= k(0)}.
     */
    public double radiusBelow(double threshold) {
        if (!(threshold > 0)) throw new IllegalArgumentException("kernel threshold must be positive, got " + threshold);
        if (evaluate(0) <= threshold) return 0;
        double hi = lengthScale;
        while (evaluate(hi) > threshold) {
            hi *= 2;
            if (hi > 1e300) throw new IllegalArgumentException("kernel " + this + " never falls below " + threshold);
        }
        double lo = 0;
        while (hi - lo > 1e-12 * hi) {
            double mid = 0.5 * (lo + hi);
            if (evaluate(mid) > threshold) lo = mid;
            else hi = mid;
        }
        return hi;
    }

    @Override
    public String toString() {
        return name + ":" + lengthScale;
    }
}
