package dev.squall.hmatrix.kernel;

import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.KernelFunctions;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Locale;
import java.util.Objects;
import java.util.function.DoubleBinaryOperator;

/**
 * A covariance kernel {@code k(x, y) = f(|x - y|, l)}: a function {@code f} of the distance with a length scale
 * {@code l}, known both to the host ({@link #evaluate}) and to devices (a {@code @Kernel} that maps {@code f} over an
 * array of distances). The built-in ones are the exponential, Gaussian, Matérn 1/2, 3/2, 5/2 and inverse
 * multiquadric kernels of {@link CovarianceFunctions}.
 *
 * <p>A user-supplied kernel is a {@code @DeviceFunction} of {@code (r, l)} and a {@code @Kernel} that applies it to
 * an array, in the user's class; the compiler translates both like any other kernel:
 *
 * <pre>{@code
 * public final class Cauchy {
 *     @DeviceFunction public static double cauchy(double r, double l) { double s = r / l; return 1 / (1 + s * s); }
 *     @Kernel public static void apply(DoubleArray v, long n, double l) {
 *         for (@Parallel long i = 0; i < n; i++) v.set(i, cauchy(v.get(i), l));
 *     }
 * }
 * CovarianceKernel k = CovarianceKernel.of("cauchy", 0.2, Cauchy::cauchy, Cauchy::apply);
 * CovarianceKernel e = CovarianceKernel.parse("exp:0.1");      // the exponential kernel, l = 0.1
 * }</pre>
 */
public final class CovarianceKernel {
    private final String name;
    private final double lengthScale;
    private final DoubleBinaryOperator function;
    private final KernelFunctions.Task3<DoubleArray, Long, Double> onDevice;

    private CovarianceKernel(String name, double lengthScale, DoubleBinaryOperator function,
            KernelFunctions.Task3<DoubleArray, Long, Double> onDevice) {
        if (!(lengthScale > 0) || Double.isInfinite(lengthScale)) {
            throw new IllegalArgumentException("length scale of kernel " + name + " must be positive and finite, not " + lengthScale);
        }
        this.name = name;
        this.lengthScale = lengthScale;
        this.function = function;
        this.onDevice = onDevice;
    }

    /**
     * A kernel from a function of {@code (r, l)} and the {@code @Kernel} that applies it in place to the first
     * {@code n} values of an array ({@code (DoubleArray v, long n, double l)}).
     *
     * @param function the host form of the function: the {@code @DeviceFunction} itself ({@code Cauchy::cauchy})
     * @param onDevice the mapping kernel ({@code Cauchy::apply})
     */
    public static CovarianceKernel of(String name, double lengthScale, DoubleBinaryOperator function,
            KernelFunctions.Task3<DoubleArray, Long, Double> onDevice) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(onDevice, "onDevice");
        return new CovarianceKernel(name, lengthScale, function, onDevice);
    }

    /** {@code exp(-r / l)}. */
    public static CovarianceKernel exponential(double l) {
        return new CovarianceKernel("exp", l, CovarianceFunctions::exponential, CovarianceFunctions::applyExponential);
    }

    /** {@code exp(-r^2 / (2 l^2))}. */
    public static CovarianceKernel gaussian(double l) {
        return new CovarianceKernel("gauss", l, CovarianceFunctions::gaussian, CovarianceFunctions::applyGaussian);
    }

    /** Matérn, smoothness 1/2. */
    public static CovarianceKernel matern12(double l) {
        return new CovarianceKernel("matern12", l, CovarianceFunctions::matern12, CovarianceFunctions::applyMatern12);
    }

    /** Matérn, smoothness 3/2. */
    public static CovarianceKernel matern32(double l) {
        return new CovarianceKernel("matern32", l, CovarianceFunctions::matern32, CovarianceFunctions::applyMatern32);
    }

    /** Matérn, smoothness 5/2. */
    public static CovarianceKernel matern52(double l) {
        return new CovarianceKernel("matern52", l, CovarianceFunctions::matern52, CovarianceFunctions::applyMatern52);
    }

    /** {@code 1 / sqrt(1 + (r / l)^2)}. */
    public static CovarianceKernel inverseMultiquadric(double l) {
        return new CovarianceKernel("imq", l, CovarianceFunctions::inverseMultiquadric,
                CovarianceFunctions::applyInverseMultiquadric);
    }

    /**
     * Parses {@code NAME:L}: NAME is {@code exp} (or {@code exponential}), {@code gauss} ({@code gaussian}),
     * {@code matern12}, {@code matern32}, {@code matern52} or {@code imq}; L is the length scale.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static CovarianceKernel parse(String spec) {
        if (spec == null || spec.indexOf(':') < 0) {
            throw new IllegalArgumentException("kernel must be NAME:LENGTHSCALE (e.g. exp:0.1), got " + spec);
        }
        String n = spec.substring(0, spec.indexOf(':')).strip().toLowerCase(Locale.ROOT);
        String ls = spec.substring(spec.indexOf(':') + 1).strip();
        double l;
        try {
            l = Double.parseDouble(ls);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("kernel " + spec + ": length scale '" + ls + "' is not a number");
        }
        return switch (n) {
            case "exp", "exponential" -> exponential(l);
            case "gauss", "gaussian" -> gaussian(l);
            case "matern12" -> matern12(l);
            case "matern32" -> matern32(l);
            case "matern52" -> matern52(l);
            case "imq" -> inverseMultiquadric(l);
            default -> throw new IllegalArgumentException("unknown kernel '" + n
                    + "' in " + spec + ": use exp, gauss, matern12, matern32, matern52 or imq");
        };
    }

    public String name() {
        return name;
    }

    public double lengthScale() {
        return lengthScale;
    }

    /** {@code f(r, l)} for a distance {@code r}. */
    public double evaluate(double r) {
        return function.applyAsDouble(r, lengthScale);
    }

    /** The kernel between point {@code i} of {@code rows} and point {@code j} of {@code cols}. */
    public double evaluate(PointCloud rows, int i, PointCloud cols, int j) {
        return evaluate(Math.sqrt(rows.distanceSquared(i, cols, j)));
    }

    /**
     * Adds to {@code graph} a task that replaces the first {@code count} distances in {@code values} by the kernel's
     * values (on whatever device the graph runs).
     */
    public TaskGraph addEvaluation(TaskGraph graph, String taskName, DoubleArray values, long count) {
        return graph.task(taskName, onDevice, values, count, lengthScale);
    }

    @Override
    public String toString() {
        return name + ":" + lengthScale;
    }
}
